/* eng-rule-docs.h: a game's rules explained for the table,
 * data/rules/GAME[.LANG].rules (docs/translations.md, "Data texts").
 *
 * One line per ruling, grouped under headings the way the game's rulebook
 * groups them ("[A turn]"); '#' starts a comment line:
 *
 *     [The cards]
 *     K12: The Hook | The Hook is played on one of your own cats ... | The Hook goes on your own cat; each rival may answer it once.
 *
 * After the id and its colon come the rule's title, its explanation for a
 * new player, and a brief of one breath (what the referee says the first
 * time the rule comes up in a game), separated by " | ".  A line with no
 * '|' is an explanation alone (the title is then the id).  Nothing here
 * names a game: the groups, their order and every word are the file's.
 * Pure C; the texts point into the docs object. */
#pragma once

#include <stddef.h>

typedef struct {
  char id[8];           /* "K12" */
  const char *group;    /* the heading above it, "" when none */
  const char *title;    /* "The Hook"; the id when the line gives none */
  const char *text;     /* the explanation */
  const char *brief;    /* one breath; "" when the line gives none */
} EngRuleDoc;

typedef struct EngRuleDocs EngRuleDocs;

/* Parses a rules file's text (`len` bytes, NUL not needed).  Lines that
 * are neither a heading, a comment, blank nor "ID: ..." with an id of 1 to
 * 7 bytes are skipped.  Returns NULL only when memory runs out. */
EngRuleDocs *eng_rule_docs_parse (const char *text, size_t len);
/* data/rules/GAME.rules in the messages' language (eng_data_localized_path);
 * an empty set when there is none.  NULL only when memory runs out. */
EngRuleDocs *eng_rule_docs_load_game (const char *game);
void eng_rule_docs_free (EngRuleDocs *docs);

size_t eng_rule_docs_count (const EngRuleDocs *docs);
/* The `i`-th rule in file order; NULL past the end. */
const EngRuleDoc *eng_rule_docs_get (const EngRuleDocs *docs, size_t i);
/* The rule `id` ("K12"), or NULL (none such, NULL or empty id). */
const EngRuleDoc *eng_rule_docs_find (const EngRuleDocs *docs, const char *id);

/* ui-option-docs.h: a game's rule switches as a person reads them.
 *
 * data/rules/GAME.options gives each switch's name and default (read with
 * the engine's eng_options_parse, so the app offers exactly what the engine
 * loads) and, in the comment block above it, the ruling it comes from, what
 * it does and, for a choice, each value's meaning ("#   reshuffle = ...").
 * The setup dialog builds its rows from these, so a new switch or a new
 * game's switches appear without UI changes.  Pure GLib, no GTK.
 *
 * The words are in the table's language: data/rules/GAME.LANG.options
 * (NAME.es.options) carries the same switches, values and choices as
 * GAME.options with its comments translated; the engine never reads it.
 * Two optional parts of a comment block give the words a name cannot:
 *   # X18 (option) Empty deck: what happens when...
 *       the row's title, between the ruling's "(option)" and the colon;
 *       without it the title is the switch's name ("Deck out").
 *   #   no-draw (No robar) = the remaining draws are skipped...
 *       a choice's label in parentheses after its value; without it the
 *       label is the value itself.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define UI_OPTION_DOCS_ERROR (ui_option_docs_error_quark ())
GQuark ui_option_docs_error_quark (void);

typedef enum {
  UI_OPTION_DOCS_ERROR_IO,
  UI_OPTION_DOCS_ERROR_SYNTAX,
  UI_OPTION_DOCS_ERROR_MISMATCH,
} UiOptionDocsError;

typedef enum {
  UI_OPTION_SWITCH,    /* yes / no without documented meanings */
  UI_OPTION_CHOICE,    /* documented values: one of them */
  UI_OPTION_NUMBER,    /* a whole number */
  UI_OPTION_TEXT,      /* anything else */
} UiOptionKind;

typedef struct {
  char *name;          /* "deck_out" */
  char *value;         /* the file's value, the engine's default */
  char *rule;          /* "K18", "" when the comment names none */
  char *title;         /* "Empty deck" */
  char *description;   /* the comment's words, without the value list */
  UiOptionKind kind;
  GStrv choices;       /* CHOICE: the values in file order; else NULL */
  GStrv labels;        /* parallel to choices: what the table reads */
  GStrv meanings;      /* parallel to choices */
} UiOptionDoc;

void ui_option_doc_free (UiOptionDoc *doc);

/* Reads an options file's text: an array of UiOptionDoc (transfer full,
 * each freed with the array) in file order.  NULL with `error` set
 * (UI_OPTION_DOCS_ERROR_SYNTAX naming the line) when the engine refuses it. */
GPtrArray *ui_option_docs_parse (const char *text, const char *source, GError **error);
/* The same from a file (UI_OPTION_DOCS_ERROR_IO when unreadable). */
GPtrArray *ui_option_docs_load (const char *path, GError **error);

/* One rule of data/rules/GAME.rules (eng-rule-docs.h gives the format:
 * "ID: title | explanation | brief" under "[group]" headings). */
typedef struct {
  char *id;            /* "K5" */
  char *title;         /* "Neutralising a beam"; the id when the file gives none */
  char *text;          /* the explanation, stripped */
  char *brief;         /* one breath for the first time it comes up; "" none */
  char *group;         /* the heading it stands under; "" none */
} UiRuleDoc;

/* Reads a rules file's text: an array of UiRuleDoc (transfer full, each
 * freed with the array) in file order (eng_rule_docs_parse); other lines
 * are skipped.  Never NULL. */
GPtrArray *ui_rule_docs_parse (const char *text);
/* The rules of `game` in the messages' language (GAME.LANG.rules, else
 * GAME.rules); an empty array when there are none.  Transfer full. */
GPtrArray *ui_rule_docs_load_game (const char *game);
/* Whether `doc` answers a search for `query` (words of it, in any case,
 * accents ignored, found in its title, explanation, brief, group or id).
 * An empty or NULL query matches every rule. */
gboolean ui_rule_doc_matches (const UiRuleDoc *doc, const char *query);

/* The docs of `game`'s switches in the language gettext uses for messages
 * now (eng_data_localized_path(), so the words match the rest of the UI):
 * data/rules/GAME.LANG.options when there is one and it has exactly the
 * switches of GAME.options (ui_option_docs_same_switches()), else
 * GAME.options itself, so a translation never changes what is offered.
 * Transfer full; NULL with `error` set when GAME.options cannot be read. */
GPtrArray *ui_option_docs_load_game (const char *game, GError **error);

/* TRUE when `translated` offers what `english` does: the same switch names
 * in the same order, each with the same value, kind and choice values.
 * Else FALSE with `error` (UI_OPTION_DOCS_ERROR_MISMATCH) naming the first
 * difference. */
gboolean ui_option_docs_same_switches (GPtrArray *english, GPtrArray *translated, GError **error);

G_END_DECLS

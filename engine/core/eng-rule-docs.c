/* eng-rule-docs.c: data/rules/GAME.rules read for the table. */
#include "eng-rule-docs.h"

#include <stdlib.h>
#include <string.h>

#include "eng-data.h"

struct EngRuleDocs {
  char *text;           /* a copy of the file, cut into NUL-terminated fields */
  EngRuleDoc *items;
  size_t n;
};

/* Strips blanks at both ends, in place. */
static char *
strip (char *s)
{
  while (*s == ' ' || *s == '\t' || *s == '\r')
    s++;
  size_t n = strlen (s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
    s[--n] = '\0';
  return s;
}

/* Cuts `s` at the next " | " (the separator), returning what follows, or
 * NULL when there is none. */
static char *
cut_field (char *s)
{
  char *bar = strstr (s, "|");
  if (bar == NULL)
    return NULL;
  *bar = '\0';
  return bar + 1;
}

static void
parse_line (EngRuleDocs *docs, char *line, const char **group)
{
  line = strip (line);
  if (line[0] == '#' || line[0] == '\0')
    return;
  size_t n = strlen (line);
  if (line[0] == '[' && line[n - 1] == ']')
    {
      line[n - 1] = '\0';
      *group = strip (line + 1);
      return;
    }
  char *colon = strchr (line, ':');
  if (colon == NULL)
    return;
  *colon = '\0';
  char *id = strip (line);
  if (id[0] == '\0' || strlen (id) >= sizeof docs->items[0].id)
    return;
  EngRuleDoc *doc = &docs->items[docs->n++];
  memset (doc, 0, sizeof *doc);
  memcpy (doc->id, id, strlen (id) + 1);
  doc->group = *group;
  char *first = colon + 1;
  char *second = cut_field (first);
  char *third = second != NULL ? cut_field (second) : NULL;
  if (second == NULL)
    {
      doc->title = doc->id;
      doc->text = strip (first);
      doc->brief = "";
      return;
    }
  doc->title = strip (first);
  doc->text = strip (second);
  doc->brief = third != NULL ? strip (third) : "";
  if (doc->title[0] == '\0')
    doc->title = doc->id;
}

EngRuleDocs *
eng_rule_docs_parse (const char *text, size_t len)
{
  EngRuleDocs *docs = calloc (1, sizeof *docs);
  if (docs == NULL)
    return NULL;
  docs->text = malloc (len + 1);
  size_t lines = 1;
  for (size_t i = 0; text != NULL && i < len; i++)
    lines += text[i] == '\n';
  docs->items = calloc (lines, sizeof *docs->items);
  if (docs->text == NULL || docs->items == NULL)
    {
      eng_rule_docs_free (docs);
      return NULL;
    }
  if (len > 0)
    memcpy (docs->text, text, len);
  docs->text[len] = '\0';
  /* a NUL inside the text ends it: what follows is not read */
  const char *group = "";
  for (char *line = docs->text; line != NULL;)
    {
      char *next = strchr (line, '\n');
      if (next != NULL)
        *next++ = '\0';
      parse_line (docs, line, &group);
      line = next;
    }
  return docs;
}

EngRuleDocs *
eng_rule_docs_load_game (const char *game)
{
  char relative[96];
  size_t n = strlen (game != NULL ? game : "");
  if (n == 0 || n > 64)
    return eng_rule_docs_parse ("", 0);
  memcpy (relative, "rules/", 6);
  memcpy (relative + 6, game, n);
  memcpy (relative + 6 + n, ".rules", 7);
  char *path = eng_data_localized_path (relative);
  char *text = NULL;
  size_t len = 0;
  EngParseError err;
  EngRuleDocs *docs = path != NULL && eng_read_text_file (path, 1 << 20, &text, &len, &err) == ENG_OK
                        ? eng_rule_docs_parse (text, len)
                        : eng_rule_docs_parse ("", 0);
  free (text);
  free (path);
  return docs;
}

void
eng_rule_docs_free (EngRuleDocs *docs)
{
  if (docs == NULL)
    return;
  free (docs->text);
  free (docs->items);
  free (docs);
}

size_t
eng_rule_docs_count (const EngRuleDocs *docs)
{
  return docs != NULL ? docs->n : 0;
}

const EngRuleDoc *
eng_rule_docs_get (const EngRuleDocs *docs, size_t i)
{
  return docs != NULL && i < docs->n ? &docs->items[i] : NULL;
}

const EngRuleDoc *
eng_rule_docs_find (const EngRuleDocs *docs, const char *id)
{
  if (docs == NULL || id == NULL || id[0] == '\0')
    return NULL;
  for (size_t i = 0; i < docs->n; i++)
    if (strcmp (docs->items[i].id, id) == 0)
      return &docs->items[i];
  return NULL;
}

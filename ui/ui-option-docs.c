#include "ui-option-docs.h"

#include "eng-rule-docs.h"

#include <stdlib.h>
#include <string.h>

#include "eng-data.h"
#include "eng-game.h"

G_DEFINE_QUARK (ui-option-docs-error-quark, ui_option_docs_error)

void
ui_option_doc_free (UiOptionDoc *doc)
{
  if (doc == NULL)
    return;
  g_free (doc->name);
  g_free (doc->value);
  g_free (doc->rule);
  g_free (doc->title);
  g_free (doc->description);
  g_strfreev (doc->choices);
  g_strfreev (doc->labels);
  g_strfreev (doc->meanings);
  g_free (doc);
}

/* "#   reshuffle = shuffle..." -> value, label (the value) and meaning;
 * "#   no-draw (No robar) = ..." gives the label.  A value is a word of
 * letters, digits, '-' and '_' indented under the comment's first line. */
static gboolean
split_value_line (const char *comment, char **value, char **label, char **meaning)
{
  const char *p = comment;
  if (*p != ' ' || p[1] != ' ')
    return FALSE;
  while (*p == ' ')
    p++;
  const char *start = p;
  while (g_ascii_isalnum (*p) || *p == '-' || *p == '_')
    p++;
  const char *end = p;
  while (*p == ' ')
    p++;
  const char *label_start = NULL, *label_end = NULL;
  if (*p == '(')
    {
      label_start = p + 1;
      label_end = strchr (label_start, ')');
      if (label_end == NULL)
        return FALSE;
      p = label_end + 1;
      while (*p == ' ')
        p++;
    }
  if (end == start || *p != '=' || p[1] != ' ')
    return FALSE;
  *value = g_strndup (start, (gsize) (end - start));
  *label = label_start != NULL ? g_strstrip (g_strndup (label_start, (gsize) (label_end - label_start)))
                               : g_strdup (*value);
  *meaning = g_strstrip (g_strdup (p + 1));
  return TRUE;
}

/* "quick_start" -> "Quick start". */
static char *
title_from_name (const char *name)
{
  char *title = g_strdelimit (g_strdup (name), "_", ' ');
  title[0] = g_ascii_toupper (title[0]);
  return title;
}

static gboolean
is_number (const char *s)
{
  char *end = NULL;
  if (*s == '\0')
    return FALSE;
  (void) strtol (s, &end, 10);
  return *end == '\0';
}

/* Fills the words of `doc` from the comment lines (without '#') above it. */
static void
read_comment (UiOptionDoc *doc, GPtrArray *comment)
{
  GString *description = g_string_new (NULL);
  GPtrArray *choices = g_ptr_array_new ();
  GPtrArray *labels = g_ptr_array_new ();
  GPtrArray *meanings = g_ptr_array_new ();
  for (guint i = 0; i < comment->len; i++)
    {
      const char *line = comment->pdata[i];
      char *value = NULL, *label = NULL, *meaning = NULL;
      if (split_value_line (line, &value, &label, &meaning))
        {
          g_ptr_array_add (choices, value);
          g_ptr_array_add (labels, label);
          g_ptr_array_add (meanings, meaning);
          continue;
        }
      g_autofree char *words = g_strstrip (g_strdup (line));
      if (words[0] == '\0')
        continue;
      /* Deeper-indented lines under a value continue its meaning. */
      if (meanings->len > 0 && line[0] == ' ' && line[1] == ' ')
        {
          char *longer = g_strconcat (meanings->pdata[meanings->len - 1], " ", words, NULL);
          g_free (meanings->pdata[meanings->len - 1]);
          meanings->pdata[meanings->len - 1] = longer;
          continue;
        }
      if (description->len == 0)
        {
          /* "X18 (option) The deck runs out: what happens..." names the
           * ruling ("E2/E15" the first) and may name the switch. */
          const char *colon = strchr (words, ':');
          /* a ruling id is a capital letter and a number, whatever the game */
          if (g_ascii_isupper (words[0]))
            {
              gsize id_len = strspn (words + 1, "0123456789");
              if (id_len > 0 && colon != NULL)
                {
                  /* a heading with nothing after its colon leaves the
                   * description empty: the next heading line names the rule */
                  g_free (doc->rule);
                  doc->rule = g_strndup (words, id_len + 1);
                  g_autofree char *heading = g_strndup (words + id_len + 1, (gsize) (colon - words) - id_len - 1);
                  const char *title = heading;
                  while (title[0] == '/' && g_ascii_isupper (title[1]) && g_ascii_isdigit (title[2]))
                    title += 2 + strspn (title + 2, "0123456789");
                  title += strspn (title, " ");
                  if (*title == '(' && strchr (title, ')') != NULL)
                    title = strchr (title, ')') + 1;
                  g_autofree char *stripped = g_strstrip (g_strdup (title));
                  if (stripped[0] != '\0')
                    {
                      g_free (doc->title);
                      doc->title = g_steal_pointer (&stripped);
                    }
                  g_autofree char *rest = g_strstrip (g_strdup (colon + 1));
                  g_string_append (description, rest);
                  continue;
                }
            }
        }
      if (description->len > 0)
        g_string_append_c (description, ' ');
      g_string_append (description, words);
    }
  if (description->len > 0)
    description->str[0] = g_ascii_toupper (description->str[0]);
  doc->description = g_string_free (description, FALSE);
  if (doc->rule == NULL)
    doc->rule = g_strdup ("");
  if (choices->len >= 2)
    {
      doc->kind = UI_OPTION_CHOICE;
      g_ptr_array_add (choices, NULL);
      g_ptr_array_add (labels, NULL);
      g_ptr_array_add (meanings, NULL);
      doc->choices = (GStrv) g_ptr_array_free (choices, FALSE);
      doc->labels = (GStrv) g_ptr_array_free (labels, FALSE);
      doc->meanings = (GStrv) g_ptr_array_free (meanings, FALSE);
      return;
    }
  g_ptr_array_set_free_func (choices, g_free);
  g_ptr_array_set_free_func (labels, g_free);
  g_ptr_array_set_free_func (meanings, g_free);
  g_ptr_array_free (choices, TRUE);
  g_ptr_array_free (labels, TRUE);
  g_ptr_array_free (meanings, TRUE);
  if (g_strcmp0 (doc->value, "yes") == 0 || g_strcmp0 (doc->value, "no") == 0)
    doc->kind = UI_OPTION_SWITCH;
  else if (is_number (doc->value))
    doc->kind = UI_OPTION_NUMBER;
  else
    doc->kind = UI_OPTION_TEXT;
}

GPtrArray *
ui_option_docs_parse (const char *text, const char *source, GError **error)
{
  g_return_val_if_fail (text != NULL, NULL);
  EngOptions options;
  EngParseError perr = { "" };
  EngStatus status = eng_options_parse (text, strlen (text), source, &options, &perr);
  if (status != ENG_OK)
    {
      g_set_error (error, UI_OPTION_DOCS_ERROR, UI_OPTION_DOCS_ERROR_SYNTAX, "%s:%u: %s", perr.source,
                   perr.line, perr.reason[0] ? perr.reason : eng_status_to_string (status));
      return NULL;
    }
  GPtrArray *docs = g_ptr_array_new_with_free_func ((GDestroyNotify) ui_option_doc_free);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GPtrArray) comment = g_ptr_array_new ();   /* borrowed from lines */
  for (char **l = lines; *l; l++)
    {
      const char *line = *l;
      while (*line == ' ' || *line == '\t')
        line++;
      if (*line == '#')
        {
          g_ptr_array_add (comment, (char *) line + 1);
          continue;
        }
      if (*line == '\0' || *line == '\r')
        {
          g_ptr_array_set_size (comment, 0);   /* a blank line ends a block */
          continue;
        }
      const char *eq = strchr (line, '=');
      g_autofree char *name = eq ? g_strstrip (g_strndup (line, (gsize) (eq - line))) : NULL;
      /* The engine's value, so a later line overriding an earlier one wins. */
      const char *value = name ? eng_options_get (&options, name) : NULL;
      gboolean known = FALSE;
      for (guint i = 0; i < docs->len && value != NULL; i++)
        known |= g_strcmp0 (((UiOptionDoc *) docs->pdata[i])->name, name) == 0;
      if (value != NULL && !known)
        {
          UiOptionDoc *doc = g_new0 (UiOptionDoc, 1);
          doc->name = g_strdup (name);
          doc->value = g_strdup (value);
          doc->title = title_from_name (name);
          read_comment (doc, comment);
          g_ptr_array_add (docs, doc);
        }
      g_ptr_array_set_size (comment, 0);
    }
  return docs;
}

GPtrArray *
ui_option_docs_load (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  GError *io_error = NULL;
  if (!g_file_get_contents (path, &text, NULL, &io_error))
    {
      g_set_error (error, UI_OPTION_DOCS_ERROR, UI_OPTION_DOCS_ERROR_IO, "%s", io_error->message);
      g_error_free (io_error);
      return NULL;
    }
  return ui_option_docs_parse (text, path, error);
}

static void
rule_doc_free (UiRuleDoc *doc)
{
  g_free (doc->id);
  g_free (doc->title);
  g_free (doc->text);
  g_free (doc->brief);
  g_free (doc->group);
  g_free (doc);
}

static GPtrArray *
rule_docs_from (const EngRuleDocs *parsed)
{
  GPtrArray *docs = g_ptr_array_new_with_free_func ((GDestroyNotify) rule_doc_free);
  for (size_t i = 0; i < eng_rule_docs_count (parsed); i++)
    {
      const EngRuleDoc *r = eng_rule_docs_get (parsed, i);
      UiRuleDoc *doc = g_new0 (UiRuleDoc, 1);
      doc->id = g_strdup (r->id);
      doc->title = g_strdup (r->title);
      doc->text = g_strdup (r->text);
      doc->brief = g_strdup (r->brief);
      doc->group = g_strdup (r->group);
      g_ptr_array_add (docs, doc);
    }
  return docs;
}

GPtrArray *
ui_rule_docs_parse (const char *text)
{
  EngRuleDocs *parsed = eng_rule_docs_parse (text, text != NULL ? strlen (text) : 0);
  GPtrArray *docs = rule_docs_from (parsed);
  eng_rule_docs_free (parsed);
  return docs;
}

GPtrArray *
ui_rule_docs_load_game (const char *game)
{
  EngRuleDocs *parsed = eng_rule_docs_load_game (game);
  GPtrArray *docs = rule_docs_from (parsed);
  eng_rule_docs_free (parsed);
  return docs;
}

/* `s` folded for a search: lower case, accents removed. */
static char *
folded (const char *s)
{
  g_autofree char *valid = g_utf8_make_valid (s != NULL ? s : "", -1);
  g_autofree char *decomposed = g_utf8_normalize (valid, -1, G_NORMALIZE_NFD);
  GString *out = g_string_new (NULL);
  for (const char *p = decomposed; p != NULL && *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      if (g_unichar_ismark (c))
        continue;
      g_string_append_unichar (out, g_unichar_tolower (c));
    }
  return g_string_free (out, FALSE);
}

gboolean
ui_rule_doc_matches (const UiRuleDoc *doc, const char *query)
{
  g_return_val_if_fail (doc != NULL, FALSE);
  g_autofree char *q = folded (query);
  g_auto (GStrv) words = g_strsplit_set (q, " \t", -1);
  g_autofree char *all = g_strjoin (" ", doc->id, doc->title, doc->text, doc->brief, doc->group, NULL);
  g_autofree char *hay = folded (all);
  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0' && strstr (hay, words[i]) == NULL)
      return FALSE;
  return TRUE;
}

gboolean
ui_option_docs_same_switches (GPtrArray *english, GPtrArray *translated, GError **error)
{
  g_return_val_if_fail (english != NULL && translated != NULL, FALSE);
  for (guint i = 0; i < MAX (english->len, translated->len); i++)
    {
      const UiOptionDoc *e = i < english->len ? english->pdata[i] : NULL;
      const UiOptionDoc *t = i < translated->len ? translated->pdata[i] : NULL;
      if (e == NULL || t == NULL || g_strcmp0 (e->name, t->name) != 0)
        {
          g_set_error (error, UI_OPTION_DOCS_ERROR, UI_OPTION_DOCS_ERROR_MISMATCH,
                       "switch %u is %s in English, %s in the translation", i + 1,
                       e ? e->name : "missing", t ? t->name : "missing");
          return FALSE;
        }
      if (g_strcmp0 (e->value, t->value) != 0 || e->kind != t->kind
          || (e->choices != NULL) != (t->choices != NULL)
          || (e->choices != NULL && !g_strv_equal ((const char *const *) e->choices,
                                                   (const char *const *) t->choices)))
        {
          g_set_error (error, UI_OPTION_DOCS_ERROR, UI_OPTION_DOCS_ERROR_MISMATCH,
                       "switch %s: the translation's value, kind or choices differ from English",
                       e->name);
          return FALSE;
        }
    }
  return TRUE;
}

GPtrArray *
ui_option_docs_load_game (const char *game, GError **error)
{
  g_return_val_if_fail (game != NULL, NULL);
  g_autofree char *name = g_strdup_printf ("rules/%s.options", game);
  /* eng_data_*path() allocate with malloc(): copied to keep one free. */
  char *raw = eng_data_path (name);
  g_autofree char *path = g_strdup (raw);
  free (raw);
  raw = eng_data_localized_path (name);
  g_autofree char *localized = g_strdup (raw);
  free (raw);
  if (path == NULL || localized == NULL)
    {
      g_set_error (error, UI_OPTION_DOCS_ERROR, UI_OPTION_DOCS_ERROR_IO, "%s: out of memory", name);
      return NULL;
    }
  GPtrArray *english = ui_option_docs_load (path, error);
  if (english == NULL || strcmp (path, localized) == 0)
    return english;
  /* A broken translation costs the table its words, never its switches:
   * the English docs stand in (the tests check every translation). */
  GPtrArray *translated = ui_option_docs_load (localized, NULL);
  if (translated == NULL || !ui_option_docs_same_switches (english, translated, NULL))
    {
      g_clear_pointer (&translated, g_ptr_array_unref);
      return english;
    }
  g_ptr_array_unref (english);
  return translated;
}


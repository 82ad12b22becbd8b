/* libFuzzer target: the explanations the app shows for a game's rules
 * (ui/ui-option-docs.c, pure GLib): ui_option_docs_parse, the rule switches
 * of data/rules/GAME.options with their comment blocks, and
 * ui_rule_docs_parse, the "ID: title | text | brief" lines and "[group]"
 * headings of data/rules/GAME[.LANG].rules (and the rules dialog's search),
 * both on the same arbitrary text.  Every switch explained must be one the
 * engine loads, with the engine's value. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-util.h"
#include "eng-game.h"
#include "ui-option-docs.h"


int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_option_docs (const char *text)
{
  GError *error = NULL;
  GPtrArray *docs = ui_option_docs_parse (text, "fuzz", &error);
  EngOptions opts;
  EngParseError err;
  EngStatus st = eng_options_parse (text, strlen (text), "fuzz", &opts, &err);
  if ((docs == NULL) != (st != ENG_OK) || (docs == NULL) != (error != NULL))
    abort ();
  if (docs == NULL)
    {
      if (error->message == NULL || error->message[0] == '\0')
        abort ();
      g_error_free (error);
      return;
    }
  if (docs->len > opts.n)
    abort ();
  for (guint i = 0; i < docs->len; i++)
    {
      const UiOptionDoc *doc = docs->pdata[i];
      if (doc->name == NULL || doc->value == NULL || doc->rule == NULL || doc->title == NULL
          || doc->description == NULL || (unsigned) doc->kind > UI_OPTION_TEXT)
        abort ();
      const char *value = eng_options_get (&opts, doc->name);
      if (value == NULL || strcmp (value, doc->value) != 0)
        abort ();
      if ((doc->kind == UI_OPTION_CHOICE) != (doc->choices != NULL))
        abort ();
      if (doc->choices != NULL
          && (doc->meanings == NULL || g_strv_length (doc->choices) != g_strv_length (doc->meanings)))
        abort ();
    }
  g_ptr_array_unref (docs);
}

static void
check_rule_docs (const char *text)
{
  GPtrArray *docs = ui_rule_docs_parse (text);
  if (docs == NULL)
    abort ();
  for (guint i = 0; i < docs->len; i++)
    {
      const UiRuleDoc *doc = docs->pdata[i];
      if (doc->id == NULL || doc->text == NULL || doc->title == NULL || doc->brief == NULL
          || doc->group == NULL || doc->id[0] == '\0' || strchr (doc->id, ':') != NULL
          || strchr (doc->id, '\n') != NULL || strchr (doc->text, '\n') != NULL
          || strchr (doc->title, '\n') != NULL || strchr (doc->brief, '\n') != NULL
          || strchr (doc->group, '\n') != NULL)
        abort ();
      /* every rule is found by its own id, and by an empty search */
      if (!ui_rule_doc_matches (doc, "") || !ui_rule_doc_matches (doc, NULL)
          || !ui_rule_doc_matches (doc, doc->id))
        abort ();
    }
  g_ptr_array_unref (docs);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size > FUZZ_MAX_INPUT)
    return 0;
  /* the app reads these files whole with g_file_get_contents: NUL-terminated */
  char *text = g_malloc (size + 1);
  memcpy (text, data, size);
  text[size] = '\0';
  check_option_docs (text);
  check_rule_docs (text);
  g_free (text);
  return 0;
}

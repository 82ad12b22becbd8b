/* test-contract-data.c: the data every registered game ships and the app
 * reads without naming the game (docs/architecture.md, "Adding a game"):
 * its card set, its zones, its rule explanations in every language and,
 * when it has switches, their files; and the words of its data a person
 * reads (deck and command labels, colour symbols, rulebook credits), which
 * reach the catalogue through po/data-words.c and must be translated.
 * The list comes from the registry: a new game is checked here without a
 * line changed. */
#include <criterion/criterion.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-data.h"
#include "eng-game.h"

static EngCardSet *
game_set (const EngGameClass *k)
{
  g_autofree char *rel = g_strdup_printf ("cards/%s.set", k->name);
  char *path = eng_data_path (rel);
  cr_assert_not_null (path, "%s: no card set data/%s", k->name, rel);
  EngCardSet *set = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s: %s:%u: %s", k->name, path,
                err.line, err.reason);
  free (path);
  return set;
}

/* A msgid as a C string literal. */
static void
put_literal (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (; *s; s++)
    {
      if (*s == '"' || *s == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *s);
    }
  g_string_append_c (out, '"');
}

/* Adds one word (once): `ctx` NULL or a context ("deck"). */
static void
add_word (GString *out, GPtrArray *seen, const char *ctx, const char *word)
{
  if (word == NULL || *word == '\0')
    return;
  char *key = g_strdup_printf ("%s\004%s", ctx != NULL ? ctx : "", word);
  for (guint i = 0; i < seen->len; i++)
    if (strcmp (seen->pdata[i], key) == 0)
      {
        g_free (key);
        return;
      }
  g_ptr_array_add (seen, key);
  if (ctx != NULL)
    {
      g_string_append (out, "ENG_C_ (");
      put_literal (out, ctx);
      g_string_append (out, ", ");
    }
  else
    g_string_append (out, "ENG_N_ (");
  put_literal (out, word);
  g_string_append (out, ")\n");
}

/* The words of one set a person reads, in the set's order. */
static void
set_words (const EngCardSet *set, GString *out, GPtrArray *seen)
{
  for (size_t i = 0; i < eng_card_set_n_cards (set); i++)
    {
      const char *colour = eng_card_attr (eng_card_set_card (set, i), "colour");
      if (colour != NULL)
        add_word (out, seen, NULL, eng_card_set_colour_symbol (set, colour));
    }
  for (size_t d = 0; d < eng_card_set_n_decks (set); d++)
    {
      const EngDeck *deck = eng_card_set_deck (set, d);
      add_word (out, seen, "deck", deck->id);
      add_word (out, seen, NULL, deck->label);
    }
  for (size_t c = 0; c < eng_card_set_n_commands (set); c++)
    {
      const char *label = eng_card_set_command (set, c)->label;
      add_word (out, seen, NULL, label);
      /* the app's buttons show the part before " (" */
      const char *paren = strstr (label, " (");
      if (paren != NULL)
        {
          g_autofree char *shortened = g_strndup (label, (gsize) (paren - label));
          add_word (out, seen, NULL, shortened);
        }
    }
  const char *unit = eng_card_set_attr_unit (set, "value");
  if (unit != NULL && strcmp (unit, "points") != 0)
    add_word (out, seen, NULL, unit);
  for (size_t i = 0; i < eng_card_set_n_credits (set); i++)
    add_word (out, seen, NULL, eng_card_set_credit (set, i));
}

static char *
expected_data_words (GPtrArray *seen)
{
  GString *out = g_string_new (
    "/* po/data-words.c: the words of the games' data a person reads (card\n"
    " * sets: colour symbols, deck ids and labels, command labels and their\n"
    " * short forms, units; rulebook credits), listed for xgettext: the\n"
    " * programs translate them where they show them (sticker sheets, the\n"
    " * window's buttons, the About window).  Not compiled.  Generated from\n"
    " * every registered game's data by tests/engine/test-contract-data.c,\n"
    " * which fails while this file is out of date and writes the new one to\n"
    " * build/tests/engine/data-words.c. */\n");
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      const EngGameClass *k = eng_game_class_get (g);
      EngCardSet *set = game_set (k);
      g_string_append_printf (out, "\n/* %s: data/cards/%s.set */\n", k->title, k->name);
      set_words (set, out, seen);
      eng_card_set_free (set);
    }
  return g_string_free (out, FALSE);
}

static char *
source_file (const char *rel)
{
  const char *root = getenv ("TABLERO_SOURCE_ROOT");
  cr_assert_not_null (root, "TABLERO_SOURCE_ROOT is not set");
  g_autofree char *path = g_build_filename (root, rel, NULL);
  char *text = NULL;
  g_file_get_contents (path, &text, NULL, NULL);
  return text;
}

Test (contract_data, data_words_are_listed_for_the_catalogue)
{
  g_autoptr (GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *want = expected_data_words (seen);
  g_autofree char *have = source_file ("po/data-words.c");
  if (have == NULL || strcmp (have, want) != 0)
    {
      g_file_set_contents ("data-words.c", want, -1, NULL);
      cr_assert_fail ("po/data-words.c is out of date: copy %s/data-words.c over it and "
                      "translate its new words in every po/LANG.po", g_get_current_dir ());
    }
}

/* The entries of a .po text with a translation that is not empty, as
 * "CTX\004MSGID" keys (strings joined across lines; escapes kept as
 * written, as put_literal writes them). */
static GHashTable *
po_translated (const char *po)
{
  GHashTable *done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto (GStrv) lines = g_strsplit (po, "\n", -1);
  GString *ctx = g_string_new (NULL), *id = g_string_new (NULL), *str = g_string_new (NULL);
  GString *into = NULL;
  for (char **l = lines;; l++)
    {
      const char *line = *l != NULL ? *l : "";
      bool entry_ends = *l == NULL || g_str_has_prefix (line, "msgctxt ")
                        || (g_str_has_prefix (line, "msgid ") && into == str);
      if (entry_ends && into == str)
        {
          if (str->len > 0)
            g_hash_table_add (done, g_strdup_printf ("%s\004%s", ctx->str, id->str));
          g_string_truncate (ctx, 0);
          g_string_truncate (id, 0);
          g_string_truncate (str, 0);
          into = NULL;
        }
      if (*l == NULL)
        break;
      const char *q = strchr (line, '"');
      if (g_str_has_prefix (line, "msgctxt "))
        into = ctx;
      else if (g_str_has_prefix (line, "msgid "))
        into = id;
      else if (g_str_has_prefix (line, "msgstr "))
        into = str;
      else if (line[0] != '"')
        continue;
      if (into != NULL && q != NULL && strlen (q) >= 2)
        g_string_append_len (into, q + 1, (gssize) strlen (q) - 2);
    }
  g_string_free (ctx, TRUE);
  g_string_free (id, TRUE);
  g_string_free (str, TRUE);
  return done;
}

Test (contract_data, data_words_are_translated_in_every_language)
{
  g_autoptr (GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *words = expected_data_words (seen);
  g_autofree char *linguas = source_file ("po/LINGUAS");
  cr_assert_not_null (linguas);
  g_auto (GStrv) langs = g_strsplit_set (linguas, " \n", -1);
  int checked = 0;
  for (char **l = langs; *l != NULL; l++)
    {
      if (**l == '\0' || **l == '#')
        continue;
      g_autofree char *rel = g_strdup_printf ("po/%s.po", *l);
      g_autofree char *po = source_file (rel);
      cr_assert_not_null (po, "%s", rel);
      g_autoptr (GHashTable) done = po_translated (po);
      for (guint i = 0; i < seen->len; i++)
        {
          const char *key = seen->pdata[i];
          const char *sep = strchr (key, '\004');
          GString *lit = g_string_new (NULL);
          put_literal (lit, sep + 1);
          g_string_truncate (lit, lit->len - 1);
          g_autofree char *want = g_strdup_printf ("%.*s\004%s", (int) (sep - key), key,
                                                   lit->str + 1);
          g_string_free (lit, TRUE);
          cr_expect (g_hash_table_contains (done, want), "%s has no translation of \"%s\"%s%.*s",
                     rel, sep + 1, sep > key ? " in context " : "", (int) (sep - key), key);
          checked++;
        }
    }
  cr_assert_gt (checked, 0);
}

/* What the app reads of every game, found by the game's name alone. */
Test (contract_data, every_game_ships_its_data)
{
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      const EngGameClass *k = eng_game_class_get (g);
      EngCardSet *set = game_set (k);
      cr_assert_str_eq (eng_card_set_game (set), k->name);
      cr_assert_str_eq (eng_card_set_game_name (set), k->title,
                        "%s: the set's game name is the class's title", k->name);
      cr_assert_geq (eng_card_set_n_seats (set), k->max_players,
                     "%s: a seat marker for every player", k->name);
      /* a letter no other game's set has: it tells the stickers apart */
      for (size_t h = 0; h < g; h++)
        {
          EngCardSet *other = game_set (eng_game_class_get (h));
          cr_assert_neq (eng_card_set_game_letter (other), eng_card_set_game_letter (set),
                         "%s and %s print the same game letter", k->name,
                         eng_game_class_get (h)->name);
          eng_card_set_free (other);
        }
      /* confirm and cancel come together: one answers a question, the
       * other names the next candidate */
      cr_assert_eq (eng_card_set_find_command (set, "confirm") != NULL,
                    eng_card_set_find_command (set, "cancel") != NULL,
                    "%s: confirm without cancel, or the other way round", k->name);
      eng_card_set_free (set);
      g_autofree char *zones = g_strdup_printf ("zones/%s.zones", k->name);
      char *path = eng_data_path (zones);
      cr_assert (g_file_test (path, G_FILE_TEST_EXISTS), "%s: no data/%s", k->name, zones);
      free (path);
      g_autofree char *rules = g_strdup_printf ("rules/%s.rules", k->name);
      path = eng_data_path (rules);
      cr_assert (g_file_test (path, G_FILE_TEST_EXISTS), "%s: no rule explanations data/%s",
                 k->name, rules);
      free (path);
      /* the switches are optional: a game with no option ruling has no file */
      g_autofree char *opts = g_strdup_printf ("rules/%s.options", k->name);
      path = eng_data_path (opts);
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        {
          EngOptions o;
          EngParseError err = { .reason = "" };
          cr_assert_eq (eng_options_load_file (path, &o, &err), ENG_OK, "%s:%u: %s", path,
                        err.line, err.reason);
          void *r = NULL;
          EngCardSet *s2 = game_set (k);
          cr_assert_eq (eng_game_class_rules_new (k, s2, &o, &r, &err), ENG_OK,
                        "%s: its own options file is refused: %s", k->name, err.reason);
          eng_game_class_rules_free (k, r);
          eng_card_set_free (s2);
        }
      free (path);
    }
}

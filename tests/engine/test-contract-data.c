/* test-contract-data.c: what every registered game provides and the app
 * reads without naming the game (docs/architecture.md, "Adding a game"):
 * the class's hooks the core and the interpreter call unasked; its card
 * set, its zones, its rule explanations (titled, under headings) in every
 * language and, when it has switches, their files; a demo that comes
 * whole; and the words of its data a person reads (deck and command
 * labels, colour symbols, rulebook credits), which reach the catalogue
 * through po/data-words.c and must be translated.
 * The list comes from the registry: a new game is checked here without a
 * line changed. */
#include <criterion/criterion.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-data.h"
#include "eng-game.h"
#include "eng-live.h"
#include "eng-live-script.h"
#include "eng-rule-docs.h"

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

/* ---- what the core and the interpreter call, and the words they cite ---- */

/* The rule explanations of `game` in `lang` (NULL: English), parsed. */
static EngRuleDocs *
rule_docs (const char *game, const char *lang)
{
  g_autofree char *rel = g_strdup_printf ("rules/%s.rules", game);
  char *path = eng_data_localized_path_for (rel, lang);
  g_autofree char *text = NULL;
  gsize len = 0;
  cr_assert (g_file_get_contents (path, &text, &len, NULL), "%s: no %s", game, path);
  free (path);
  EngRuleDocs *docs = eng_rule_docs_parse (text, len);
  cr_assert_not_null (docs);
  return docs;
}

static void
explained (const EngRuleDocs *docs, const char *game, const char *what, const char *id)
{
  if (id != NULL)
    cr_expect_not_null (eng_rule_docs_find (docs, id), "%s: %s %s has no explanation in rules/%s.rules",
                        game, what, id, game);
}

/* Every hook the core calls without asking, and the pairs that come
 * together; what a class may leave out is left out whole. */
Test (contract_data, every_class_fills_what_the_core_calls)
{
  cr_assert_gt (eng_game_class_count (), 0);
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      const EngGameClass *k = eng_game_class_get (g);
      const char *n = k->name;
      cr_assert (n != NULL && n[0] != '\0' && strspn (n, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen (n),
                 "game %zu: a registry name is lowercase letters, digits and '-'", g);
      cr_assert_eq (eng_game_class_find (n), k, "%s: registered twice", n);
      cr_expect (k->title != NULL && k->title[0] != '\0', "%s: no title", n);
      cr_expect (k->min_players >= 1 && k->min_players <= k->max_players
                   && k->max_players <= ENG_MAX_PLAYERS,
                 "%s: players %u-%u", n, k->min_players, k->max_players);
      cr_expect_gt (k->state_size, 0, "%s: no state", n);
      cr_assert (k->verbs != NULL && k->n_verbs > 0, "%s: no verbs", n);
      for (size_t v = 0; v < k->n_verbs; v++)
        {
          cr_assert (k->verbs[v] != NULL && k->verbs[v][0] != '\0', "%s: verb %zu has no name", n, v);
          cr_expect_eq (eng_game_class_verb (k, k->verbs[v]), (int) v, "%s: verb %s twice", n, k->verbs[v]);
        }
      /* the rules: the class's own, or built by the core from its specs */
      cr_expect ((k->rules_new != NULL) == (k->rules_free != NULL), "%s: rules_new without rules_free", n);
      cr_expect (k->rules_new != NULL || k->rules_size > 0, "%s: neither rules_new nor rules_size", n);
      /* a move: apply and check, or play, or one play per verb */
      cr_expect ((k->apply != NULL) == (k->check != NULL), "%s: apply without check", n);
      cr_expect_eq ((k->apply != NULL) + (k->play != NULL) + (k->plays != NULL), 1,
                    "%s: one of apply, play or plays", n);
      for (size_t v = 0; k->plays != NULL && v < k->n_verbs; v++)
        cr_expect_not_null (k->plays[v], "%s: no play for verb %s", n, k->verbs[v]);
      cr_expect (k->move_shape_ok != NULL || k->shapes != NULL, "%s: no move shapes", n);
      cr_expect (k->setup != NULL && k->legal_moves != NULL && k->check_conservation != NULL
                   && k->public_view != NULL && k->card_name != NULL && k->card_public != NULL,
                 "%s: setup, legal_moves, check_conservation, public_view, card_name and card_public "
                 "are called unasked",
                 n);
      EngRuleDocs *docs = rule_docs (n, NULL);
      explained (docs, n, "over_rule", k->over_rule);
      eng_rule_docs_free (docs);
    }
}

/* A live referee, when a game has one: the hooks the interpreter calls
 * unasked, the rules its complaints cite explained, and the command cards
 * its questions ask for printed in its set. */
Test (contract_data, every_live_class_fills_what_the_interpreter_calls)
{
  size_t live = 0;
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      const EngGameClass *k = eng_game_class_get (g);
      const EngLiveClass *l = eng_live_class_find (k->name);
      if (l == NULL)
        continue;   /* a game may be refereed from records only */
      live++;
      const char *n = k->name;
      cr_expect_str_eq (l->name, n);
      cr_expect (l->baseline_check != NULL && l->setup_need != NULL && l->change != NULL,
                 "%s: baseline_check, setup_need and change are called unasked", n);
      cr_expect ((l->choice != NULL) == (l->choose != NULL), "%s: choice without choose", n);
      cr_expect ((l->mind_notes != NULL) == (l->mind_parse != NULL), "%s: mind_notes without mind_parse", n);
      cr_expect (l->mind_notes == NULL || l->mind_size == 0, "%s: its own mind lines and mind_size", n);
      cr_expect_not_null (l->cleanup_rule, "%s: no cleanup_rule", n);
      EngRuleDocs *docs = rule_docs (n, NULL);
      explained (docs, n, "cleanup_rule", l->cleanup_rule);
      explained (docs, n, "place_rule", l->place_rule);
      eng_rule_docs_free (docs);
      EngCardSet *set = game_set (k);
      bool asks = l->choice != NULL;
      for (const EngLiveGapCommand *c = l->gap_commands; c != NULL && c->command != NULL; c++)
        {
          cr_expect_not_null (eng_card_set_find_command (set, c->command),
                              "%s: a gap command %s its set does not print", n, c->command);
          cr_expect (c->question != NULL && c->question[0] != '\0', "%s: gap command %s asks nothing",
                     n, c->command);
          asks = true;
        }
      /* a question is answered with confirm, and cancel names the next */
      if (asks)
        cr_expect (eng_card_set_find_command (set, "confirm") != NULL
                     && eng_card_set_find_command (set, "cancel") != NULL,
                   "%s: asks the table but prints no confirm and cancel", n);
      cr_expect_not_null (eng_card_set_find_command (set, "undo"), "%s: no undo card", n);
      eng_card_set_free (set);
    }
  cr_assert_gt (live, 0, "no game has a live referee");
}

/* The rules dialog and the history show a rule by its title under its
 * heading and the learning voice says its brief, in every language of
 * po/LINGUAS; a game's switches, when it has
 * any, are offered in every language too. */
Test (contract_data, every_rule_is_titled_grouped_and_translated)
{
  g_autofree char *linguas = source_file ("po/LINGUAS");
  cr_assert_not_null (linguas);
  g_auto (GStrv) langs = g_strsplit_set (linguas, " \n", -1);
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      const char *n = eng_game_class_get (g)->name;
      g_autofree char *opts = g_strdup_printf ("rules/%s.options", n);
      char *en_opts = eng_data_localized_path_for (opts, NULL);
      bool has_options = g_file_test (en_opts, G_FILE_TEST_EXISTS);
      for (char **l = langs; *l != NULL; l++)
        {
          if (**l == '\0' || **l == '#')
            continue;
          EngRuleDocs *docs = rule_docs (n, *l);
          cr_assert_gt (eng_rule_docs_count (docs), 0, "%s.%s: no rule explained", n, *l);
          for (size_t i = 0; i < eng_rule_docs_count (docs); i++)
            {
              const EngRuleDoc *d = eng_rule_docs_get (docs, i);
              cr_expect (d->group[0] != '\0', "rules/%s.%s.rules: %s stands under no heading", n, *l, d->id);
              cr_expect_str_neq (d->title, d->id, "rules/%s.%s.rules: %s has no title", n, *l, d->id);
              /* said the first time the rule comes up, learning on */
              cr_expect_neq (d->brief[0], '\0', "rules/%s.%s.rules: %s has no brief", n, *l, d->id);
            }
          eng_rule_docs_free (docs);
          g_autofree char *rel = g_strdup_printf ("rules/%s.%s.rules", n, *l);
          char *path = eng_data_path (rel);
          cr_expect (path != NULL && g_file_test (path, G_FILE_TEST_EXISTS), "%s: no data/%s", n, rel);
          free (path);
          if (has_options)
            {
              g_autofree char *lrel = g_strdup_printf ("rules/%s.%s.options", n, *l);
              path = eng_data_path (lrel);
              cr_expect (path != NULL && g_file_test (path, G_FILE_TEST_EXISTS), "%s: no data/%s", n, lrel);
              free (path);
            }
        }
      /* the English file too, the one every translation follows */
      EngRuleDocs *docs = rule_docs (n, NULL);
      for (size_t i = 0; i < eng_rule_docs_count (docs); i++)
        cr_expect_str_neq (eng_rule_docs_get (docs, i)->title, eng_rule_docs_get (docs, i)->id,
                           "rules/%s.rules: %s has no title", n, eng_rule_docs_get (docs, i)->id);
      eng_rule_docs_free (docs);
      free (en_opts);
    }
}

/* The first word after `key ` at a line's start in `text`, or NULL. */
static char *
line_word (const char *text, const char *key)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (char **l = lines; *l != NULL; l++)
    {
      g_auto (GStrv) words = g_strsplit_set (g_strstrip (*l), " \t", -1);
      if (words[0] != NULL && strcmp (words[0], key) == 0 && words[1] != NULL)
        return g_strdup (words[1]);
    }
  return NULL;
}

/* A demo is optional; one that is there comes whole: the script the
 * referee follows and the scene `--source demo` renders, both of the game
 * (and the record, when shipped, a game of it). */
Test (contract_data, a_demo_comes_whole)
{
  size_t demos = 0;
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      const char *n = eng_game_class_get (g)->name;
      g_autofree char *script_rel = g_strdup_printf ("games/demo-%s.script", n);
      g_autofree char *scene_rel = g_strdup_printf ("scenes/demo-%s-game.scene", n);
      g_autofree char *rec_rel = g_strdup_printf ("games/demo-%s.rec", n);
      const char *rels[] = { script_rel, scene_rel, rec_rel };
      bool present[3];
      EngCardSet *set = game_set (eng_game_class_get (g));
      g_autofree char *letter = g_strdup_printf ("game=%c", eng_card_set_game_letter (set));
      eng_card_set_free (set);
      for (int i = 0; i < 3; i++)
        {
          char *path = eng_data_path (rels[i]);
          present[i] = path != NULL && g_file_test (path, G_FILE_TEST_EXISTS);
          g_autofree char *text = NULL;
          if (present[i])
            cr_assert (g_file_get_contents (path, &text, NULL, NULL));
          if (present[i] && i == 0)
            {
              EngLiveScript *script = NULL;
              EngParseError err = { .reason = "" };
              cr_assert_eq (eng_live_script_parse (text, strlen (text), path, &script, &err), ENG_OK,
                            "%s:%u: %s", path, err.line, err.reason);
              cr_expect_str_eq (eng_live_script_game (script)->name, n, "data/%s plays another game",
                                rels[i]);
              eng_live_script_free (script);
            }
          else if (present[i] && i == 1)
            {
              /* the scene's stickers are printed with the game's letter */
              cr_expect (strstr (text, letter) != NULL, "data/%s: no stickers of %s's set (%s)", rels[i],
                         n, letter);
            }
          else if (present[i])
            {
              g_autofree char *game = line_word (text, "game");
              cr_expect_str_eq (game != NULL ? game : "(none)", n, "data/%s plays another game", rels[i]);
            }
          free (path);
        }
      cr_expect_eq (present[0], present[1], "%s: a demo needs both data/%s and data/%s", n, script_rel,
                    scene_rel);
      cr_expect (!present[2] || present[0], "%s: data/%s without its script", n, rec_rel);
      demos += present[0];
    }
  cr_assert_gt (demos, 0, "no game has a demo: the window's first start shows one");
}

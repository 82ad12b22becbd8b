/* The app's pure helpers, without a display: the rule options read from a
 * game's options file (what the setup dialog offers), the calibration
 * advice (what the camera setup page tells the table) and the words drawn
 * over the camera picture. */
#include <criterion/criterion.h>

#include <glib.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "eng-data.h"
#include "eng-game.h"
#include "ui-calibration-facts.h"
#include "ui-option-docs.h"
#include "ui-report.h"
#include "ui-text-fit.h"
#include "ui-words.h"
#include "eng-i18n.h"
#include "../test-i18n-util.h"

static const UiOptionDoc *
find_doc (GPtrArray *docs, const char *name)
{
  for (guint i = 0; i < docs->len; i++)
    if (strcmp (((UiOptionDoc *) docs->pdata[i])->name, name) == 0)
      return docs->pdata[i];
  return NULL;
}

Test (option_docs, katua_file_offers_every_switch_with_its_words)
{
  char *path = eng_data_path ("rules/katua.options");
  cr_assert_not_null (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) docs = ui_option_docs_load (path, &error);
  free (path);
  cr_assert_not_null (docs, "%s", error ? error->message : "?");
  const char *names[] = { "xray_teleporter_answerable", "ufo_deck_out", "total_memory", "quick_start",
                          "winning_score" };
  for (size_t i = 0; i < G_N_ELEMENTS (names); i++)
    cr_expect_not_null (find_doc (docs, names[i]), "%s missing", names[i]);

  const UiOptionDoc *k18 = find_doc (docs, "ufo_deck_out");
  cr_assert_not_null (k18);
  cr_expect_str_eq (k18->rule, "K18");
  cr_expect_eq (k18->kind, UI_OPTION_CHOICE);
  cr_assert_eq (g_strv_length (k18->choices), 3);
  cr_expect_str_eq (k18->choices[0], "reshuffle");
  cr_expect_str_eq (k18->choices[1], "no-draw");
  cr_expect_str_eq (k18->choices[2], "end");
  /* A value's meaning runs over its continuation lines. */
  cr_expect_not_null (strstr (k18->meanings[0], "stop drawing"), "%s", k18->meanings[0]);
  cr_expect_str_eq (k18->value, "reshuffle");
  cr_expect_not_null (strstr (k18->description, "UFO deck is empty"), "%s", k18->description);

  const UiOptionDoc *memory = find_doc (docs, "total_memory");
  cr_expect_eq (memory->kind, UI_OPTION_SWITCH);
  cr_expect_str_eq (memory->title, "Total Memory");   /* the comment names the switch */
  cr_expect_str_eq (k18->title, "Empty UFO deck");
  cr_expect_str_eq (k18->labels[1], "no-draw");        /* no label given: the value */
  cr_expect_str_eq (memory->rule, "K19");
  const UiOptionDoc *score = find_doc (docs, "winning_score");
  cr_expect_eq (score->kind, UI_OPTION_NUMBER);
  cr_expect_str_eq (score->value, "7");
  cr_expect_str_eq (score->rule, "K15");
}

Test (option_docs, later_line_wins_and_header_comment_is_not_a_description)
{
  const char *text = "# File header.\n\n"
                     "# K3: a made-up switch.\n"
                     "#   fast = quick\n"
                     "#   slow = careful\n"
                     "speed = fast\n"
                     "speed = slow\n"
                     "colour = blue\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) docs = ui_option_docs_parse (text, "test", &error);
  cr_assert_not_null (docs);
  cr_assert_eq (docs->len, 2);
  const UiOptionDoc *speed = find_doc (docs, "speed");
  cr_expect_str_eq (speed->value, "slow");
  cr_expect_eq (speed->kind, UI_OPTION_CHOICE);
  cr_expect_str_eq (speed->description, "A made-up switch.");
  cr_expect_str_eq (speed->title, "Speed");   /* no title given: from the name */
  g_autoptr (GPtrArray) two = ui_option_docs_parse ("# C1/C6 Empate: a title after two rulings.\ntie = 1\n",
                                                     "test", &error);
  cr_assert_not_null (two);
  cr_expect_str_eq (((UiOptionDoc *) two->pdata[0])->title, "Empate");
  cr_expect_str_eq (((UiOptionDoc *) two->pdata[0])->rule, "C1");
  const UiOptionDoc *colour = find_doc (docs, "colour");
  cr_expect_eq (colour->kind, UI_OPTION_TEXT);
  cr_expect_str_eq (colour->description, "");
  cr_expect_str_eq (colour->rule, "");
}

Test (option_docs, bad_file_is_refused_with_the_line)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *docs = ui_option_docs_parse ("ok = yes\nthis line has no equals sign\n", "bad.options", &error);
  cr_assert_null (docs);
  cr_assert_not_null (error);
  cr_expect_not_null (strstr (error->message, "bad.options:2"), "%s", error->message);
  g_clear_error (&error);
  cr_assert_null (ui_option_docs_load ("/nonexistent/x.options", &error));
  cr_expect (g_error_matches (error, UI_OPTION_DOCS_ERROR, UI_OPTION_DOCS_ERROR_IO));
}

/* ---- translated option docs ------------------------------------------ */

static GPtrArray *
load_docs (const char *path)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *docs = ui_option_docs_load (path, &error);
  cr_assert_not_null (docs, "%s", error ? error->message : path);
  return docs;
}

/* Every registered game's switches are documented in every language of
 * the table: the same names, defaults, kinds and choice values as the
 * English file (a translation never changes what the engine is asked), and
 * every word the setup page shows written in the language. */
Test (option_docs, every_translation_offers_exactly_the_english_switches)
{
  static const char *const languages[] = { "es", "ca" };
  cr_assert_geq (eng_game_class_count (), 3);
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      const char *game = eng_game_class_get (g)->name;
      g_autofree char *name = g_strdup_printf ("rules/%s.options", game);
      char *en_path = eng_data_localized_path_for (name, NULL);
      if (!g_file_test (en_path, G_FILE_TEST_EXISTS))
        {
          free (en_path);
          continue;   /* a game with no option ruling ships no switches */
        }
      g_autoptr (GPtrArray) english = load_docs (en_path);
      cr_assert_gt (english->len, 0, "%s has no switches", en_path);
      for (size_t l = 0; l < G_N_ELEMENTS (languages); l++)
        {
          char *path = eng_data_localized_path_for (name, languages[l]);
          cr_assert_str_neq (path, en_path, "no %s translation of %s", languages[l], name);
          g_autoptr (GPtrArray) docs = load_docs (path);
          g_autoptr (GError) error = NULL;
          cr_assert (ui_option_docs_same_switches (english, docs, &error), "%s: %s", path,
                     error->message);
          for (guint i = 0; i < docs->len; i++)
            {
              const UiOptionDoc *d = docs->pdata[i], *e = english->pdata[i];
              cr_expect_str_eq (d->rule, e->rule, "%s: %s", path, d->name);
              cr_expect_neq (d->title[0], '\0', "%s: %s has no title", path, d->name);
              cr_expect_str_neq (d->title, e->title, "%s: %s's title is English", path, d->name);
              cr_expect_neq (d->description[0], '\0', "%s: %s has no description", path, d->name);
              cr_expect_str_neq (d->description, e->description, "%s: %s's description is English",
                                 path, d->name);
              for (guint k = 0; d->choices != NULL && d->choices[k] != NULL; k++)
                {
                  cr_expect_neq (d->meanings[k][0], '\0', "%s: %s = %s means nothing", path,
                                 d->name, d->choices[k]);
                  cr_expect_str_neq (d->meanings[k], e->meanings[k], "%s: %s = %s is English",
                                     path, d->name, d->choices[k]);
                  cr_expect_str_neq (d->labels[k], d->choices[k], "%s: %s = %s has no label",
                                     path, d->name, d->choices[k]);
                }
            }
          free (path);
        }
      free (en_path);
    }
}

Test (option_docs, a_translation_that_changes_a_switch_is_refused)
{
  const char *english = "# K3 (option) Speed: how fast.\n#   fast = quick\n#   slow = careful\n"
                        "speed = fast\n";
  const char *texts[] = {
    "# K3 (opción) Velocidad: rapidez.\n#   fast (Rápido) = deprisa\n#   slow (Lento) = despacio\n"
    "speed = slow\n",                                     /* another default */
    "# K3 (opción) Velocidad: rapidez.\n#   fast (Rápido) = deprisa\n#   slower (Lento) = despacio\n"
    "speed = fast\n",                                     /* another choice */
    "# K3 (opción) Velocidad: rapidez.\n#   fast (Rápido) = deprisa\n#   slow (Lento) = despacio\n"
    "speed = fast\nextra = yes\n",                        /* one switch more */
    "# K3 (opción) Velocidad: rapidez.\nspeed = fast\n",  /* no longer a choice */
  };
  g_autoptr (GPtrArray) en = ui_option_docs_parse (english, "en", NULL);
  cr_assert_not_null (en);
  for (size_t i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr (GPtrArray) t = ui_option_docs_parse (texts[i], "t", NULL);
      cr_assert_not_null (t);
      g_autoptr (GError) error = NULL;
      cr_expect_not (ui_option_docs_same_switches (en, t, &error), "text %zu taken", i);
      cr_expect (g_error_matches (error, UI_OPTION_DOCS_ERROR, UI_OPTION_DOCS_ERROR_MISMATCH));
    }
  g_autoptr (GPtrArray) good = ui_option_docs_parse (
    "# K3 (opción) Velocidad: rapidez.\n#   fast (Rápido) = deprisa\n#   slow (Lento) = despacio\n"
    "speed = fast\n", "t", NULL);
  cr_assert (ui_option_docs_same_switches (en, good, NULL));
  const UiOptionDoc *d = good->pdata[0];
  cr_expect_str_eq (d->title, "Velocidad");
  cr_expect_str_eq (d->labels[0], "Rápido");
  cr_expect_str_eq (d->choices[0], "fast");
  cr_expect_str_eq (d->meanings[1], "despacio");
}

/* The setup page reads the table's language, as the referee's messages do:
 * LANGUAGE counts in a real locale, not in "C". */
Test (option_docs, the_game_docs_follow_the_messages_language)
{
  setenv ("LANGUAGE", "ca", 1);
  cr_assert_not_null (setlocale (LC_ALL, "C.UTF-8"), "the C.UTF-8 locale is needed");
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) ca = ui_option_docs_load_game ("katua", &error);
  cr_assert_not_null (ca, "%s", error ? error->message : "?");
  const UiOptionDoc *k18 = find_doc (ca, "ufo_deck_out");
  cr_assert_not_null (k18);
  cr_expect_str_eq (k18->title, "Maç d'ovnis buit");
  cr_expect_str_eq (k18->choices[0], "reshuffle");
  cr_expect_str_eq (k18->labels[0], "Barrejar");
  cr_expect_str_eq (k18->value, "reshuffle");

  cr_assert_not_null (setlocale (LC_ALL, "C"));
  g_autoptr (GPtrArray) en = ui_option_docs_load_game ("kittens", &error);
  cr_assert_not_null (en, "%s", error ? error->message : "?");
  cr_expect_str_eq (((UiOptionDoc *) en->pdata[0])->title, "Spare Defuses");
  cr_assert_null (ui_option_docs_load_game ("nosuchgame", &error));
  cr_expect (g_error_matches (error, UI_OPTION_DOCS_ERROR, UI_OPTION_DOCS_ERROR_IO));
}

static guint
advise (const UiCalibrationFacts *f, char **advice)
{
  return ui_calibration_facts_advice (f, advice, 8);
}

static gboolean
any_contains (char **advice, guint n, const char *needle)
{
  for (guint i = 0; i < n; i++)
    if (strstr (advice[i], needle) != NULL)
      return TRUE;
  return FALSE;
}

/* The rules file: headings group the rules, each line gives a name, an
 * explanation and a brief; an old "ID: text" line is an explanation alone.
 * A search finds words of any of them, whatever their case or accents. */
Test (rule_docs, groups_names_briefs_and_search)
{
  static const char text[] =
    "# a comment: K99: not a rule\n"
    "X1: An old line, an explanation alone\n"
    "[Preparació]\n"
    "K8: El Teletransportador | Intercanvia dos gats dels forats. | Intercanvia dos gats.\n"
    "\n"
    "[Les cartes]\n"
    "K12: El Ganxo | Va sobre un gat teu; cada rival hi respon un cop. | El Ganxo va sobre un gat teu.\n"
    "K13 : El Replicador|Copia l'ovni jugat amb ell.|\n";
  g_autoptr (GPtrArray) docs = ui_rule_docs_parse (text);
  cr_assert_eq (docs->len, 4);
  const UiRuleDoc *old = docs->pdata[0], *k8 = docs->pdata[1], *k12 = docs->pdata[2], *k13 = docs->pdata[3];
  cr_expect_str_eq (old->id, "X1");
  cr_expect_str_eq (old->title, "X1");
  cr_expect_str_eq (old->text, "An old line, an explanation alone");
  cr_expect_str_eq (old->group, "");
  cr_expect_str_eq (k8->group, "Preparació");
  cr_expect_str_eq (k8->title, "El Teletransportador");
  cr_expect_str_eq (k8->brief, "Intercanvia dos gats.");
  cr_expect_str_eq (k12->group, "Les cartes");
  cr_expect_str_eq (k12->text, "Va sobre un gat teu; cada rival hi respon un cop.");
  cr_expect_str_eq (k13->id, "K13");
  cr_expect_str_eq (k13->brief, "");
  cr_expect (ui_rule_doc_matches (k8, "teletransportador"));
  cr_expect (ui_rule_doc_matches (k8, "PREPARACIO"), "accents and case are ignored");
  cr_expect (ui_rule_doc_matches (k12, "ganxo gat"), "every word of the search");
  cr_expect (ui_rule_doc_matches (k12, "k12"));
  cr_expect_not (ui_rule_doc_matches (k12, "ganxo teletransportador"));
  cr_expect_not (ui_rule_doc_matches (k13, "ganxo"));
  cr_expect (ui_rule_doc_matches (k13, "  "), "an empty search matches all");
}

Test (calibration_advice, no_picture_yet)
{
  UiCalibrationFacts f = { 0 };
  char *advice[8];
  guint n = advise (&f, advice);
  cr_assert_eq (n, 1);
  cr_expect_not_null (strstr (advice[0], "No picture from the camera"), "%s", advice[0]);
  g_free (advice[0]);
}

Test (calibration_advice, names_the_missing_anchor_and_small_stickers)
{
  UiCalibrationFacts f = { .width = 1920, .height = 1080 };
  f.anchor_seen[0] = f.anchor_seen[1] = f.anchor_seen[3] = TRUE;
  f.n_cards = 5;
  /* under the measured floor (2.0 px a module, docs/stickers.md) */
  f.module_px_mean = 1.9f;
  f.module_px_min = 1.3f;
  char *advice[8];
  guint n = advise (&f, advice);
  cr_assert_geq (n, 2);
  cr_expect_not_null (strstr (advice[0], "Anchor 3 is not in view"), "%s", advice[0]);
  cr_expect (!any_contains (advice, n, "Anchor 1 "));
  cr_expect (any_contains (advice, n, "Stickers are small in the image"));
  /* the three ways out, each with its figure: 4K gives 1.3 x 2 = 2.6 px; the
   * camera at 1.3 / 2.6 = 50% of its height; 40 mm x 2 = 80 mm stickers */
  cr_expect (any_contains (advice, n, "highest resolution: at 3840 × 2160 they would show 2.6 px a module"));
  cr_expect (any_contains (advice, n, "lower the camera to about 50% of its height"));
  cr_expect (any_contains (advice, n, "--size-mm 80"));
  for (guint i = 0; i < n; i++)
    g_free (advice[i]);
  /* above it on average, the smallest under what reads every sticker:
   * only those are at risk; calibrated at 2 px per mm, a module of 2.1 px
   * is 1.05 mm, a 26 mm sticker: 2.6 px needs 35 mm */
  f.module_px_mean = 2.6f;
  f.module_px_min = 2.1f;
  f.px_per_mm = 2.0;
  f.width = 3840;
  n = advise (&f, advice);
  cr_expect (!any_contains (advice, n, "Stickers are small in the image"));
  cr_expect (any_contains (advice, n, "at the edge of what can be read"));
  cr_expect (!any_contains (advice, n, "highest resolution"), "a 4K picture is the largest already");
  cr_expect (any_contains (advice, n, "--size-mm 35"));
  for (guint i = 0; i < n; i++)
    g_free (advice[i]);
  /* glossy stickers read through a highlight: say so, and what helps */
  f.module_px_mean = f.module_px_min = 4.0f;
  f.n_glare = 2;
  n = advise (&f, advice);
  cr_expect (any_contains (advice, n, "2 stickers catch the lamp"));
  cr_expect (any_contains (advice, n, "turn on Meter on the stickers"));
  for (guint i = 0; i < n; i++)
    g_free (advice[i]);
  /* metering on: what it does, not what to switch on */
  f.exposure_meter = UI_EXPOSURE_METER_HOLDING;
  f.exposure_time = 63;
  n = advise (&f, advice);
  cr_expect (any_contains (advice, n, "2 stickers catch the lamp"));
  cr_expect (!any_contains (advice, n, "turn on Meter on the stickers"));
  cr_expect (any_contains (advice, n, "The exposure is set by the stickers (6.3 ms)"));
  for (guint i = 0; i < n; i++)
    g_free (advice[i]);
}

/* The exposure metered on the stickers, each state in plain words; what
 * needs the table's help comes before the rest, progress after it. */
Test (calibration_advice, exposure_metered_on_the_stickers)
{
  UiCalibrationFacts f = { .width = 1920, .height = 1080, .calibrated = TRUE, .n_seats = 2, .n_cards = 4,
                           .module_px_mean = 4, .module_px_min = 4, .exposure_time = 25 };
  for (int a = 0; a < 4; a++)
    f.anchor_seen[a] = TRUE;
  static const struct {
    UiExposureMeter state;
    const char *says;
    gboolean ready;     /* "ready to play" said as well */
  } cases[] = {
    { UI_EXPOSURE_METER_OFF, NULL, TRUE },
    { UI_EXPOSURE_METER_NO_CONTROL, "does not let Tablero set its exposure time", FALSE },
    { UI_EXPOSURE_METER_WAITING, "once one is in view", TRUE },
    { UI_EXPOSURE_METER_ADJUSTING, "being set by the stickers: 2.5 ms now", TRUE },
    { UI_EXPOSURE_METER_HOLDING, "(2.5 ms): their white does not wash out", TRUE },
    { UI_EXPOSURE_METER_CLIPS_AT_LIMIT, "still wash out at the shortest exposure that keeps them readable (2.5 ms)", FALSE },
    { UI_EXPOSURE_METER_DIM_AT_LIMIT, "dim even at the camera's longest exposure (2.5 ms)", FALSE },
  };
  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      f.exposure_meter = cases[c].state;
      char *advice[8];
      guint n = advise (&f, advice);
      cr_expect_eq (n, (cases[c].ready ? 1u : 0u) + (cases[c].says != NULL ? 1u : 0u), "state %d: %u lines",
                    cases[c].state, n);
      if (cases[c].says != NULL)
        cr_expect (any_contains (advice, n, cases[c].says), "state %d: %s", cases[c].state, advice[0]);
      cr_expect_eq (any_contains (advice, n, "ready to play"), cases[c].ready, "state %d", cases[c].state);
      for (guint i = 0; i < n; i++)
        g_free (advice[i]);
    }
}

Test (calibration_advice, ready_when_all_is_well)
{
  UiCalibrationFacts f = { .width = 1920, .height = 1080 };
  for (int a = 0; a < 4; a++)
    f.anchor_seen[a] = TRUE;
  f.calibrated = TRUE;
  f.n_seats = 2;
  f.n_cards = 8;
  f.module_px_mean = f.module_px_min = 4.2f;
  char *advice[8];
  guint n = advise (&f, advice);
  cr_assert_eq (n, 1);
  cr_expect_not_null (strstr (advice[0], "ready to play"), "%s", advice[0]);
  g_free (advice[0]);

  f.anchor_seen[1] = FALSE;   /* calibrated, but anchor 2 covered */
  f.n_seats = 0;
  n = advise (&f, advice);
  cr_expect (any_contains (advice, n, "Anchor 2 is not in view"));
  cr_expect (any_contains (advice, n, "No seat marker"));
  for (guint i = 0; i < n; i++)
    g_free (advice[i]);
}

Test (report, lays_out_players_options_moves_and_log)
{
  EngOptions options = { 0 }, defaults = { 0 };
  eng_options_set (&options, "ufo_deck_out", "end");
  eng_options_set (&options, "winning_score", "7");
  eng_options_set (&defaults, "ufo_deck_out", "reshuffle");
  eng_options_set (&defaults, "winning_score", "7");
  UiReportPlayer players[] = {
    { .name = "Ana", .seat = 1, .score = 5, .captured = "Cat red +3, Cat blue +2" },
    { .name = "Bea", .seat = 3, .score = -1, .captured = "no cats yet" },
  };
  const char *moves[] = { "Ana abducts Bea's cat in slot 2", "Bea ends her turn", NULL };
  const char *said[] = { "New game", "Ana abducts Bea's cat in slot 2", NULL };
  const char *corrections[] = { "the sticker TB1K01F0125 is Cat, red (card 13)", NULL };
  UiReportInput in = { .game_title = "Katua", .status = "Game over: Ana wins", .players = players,
                       .n_players = 2, .options = &options, .defaults = &defaults,
                       .corrections = corrections, .moves = moves, .announcements = said,
                       .record = "game katua\nmove 1" };
  g_autofree char *text = ui_report_build (&in);
  cr_assert_not_null (text);
  cr_expect_not_null (strstr (text, "# Katua: game report"), "%s", text);
  cr_expect_not_null (strstr (text, "**Game over: Ana wins**"));
  cr_expect_not_null (strstr (text, "| Ana | 1 | 5 | Cat red +3, Cat blue +2 |"), "%s", text);
  cr_expect_not_null (strstr (text, "| Bea | 3 | -1 | no cats yet |"));
  cr_expect_not_null (strstr (text, "- ufo_deck_out = end (house rule; the rules file says reshuffle)"));
  cr_expect_not_null (strstr (text, "- winning_score = 7\n"));
  cr_expect_not_null (strstr (text, "1. Ana abducts Bea's cat in slot 2\n2. Bea ends her turn\n"));
  cr_expect_not_null (strstr (text, "## Misread stickers corrected\n\n- the sticker TB1K01F0125"));
  cr_expect_not_null (strstr (text, "## Announcements\n\n- New game\n"));
  /* The record closes its code block even without a final newline. */
  cr_expect_not_null (strstr (text, "```\ngame katua\nmove 1\n```\n"), "%s", text);
}

Test (report, an_empty_game_says_so)
{
  UiReportInput in = { .game_title = "Katua" };
  g_autofree char *text = ui_report_build (&in);
  cr_expect_not_null (strstr (text, "No move yet."));
  cr_expect_not_null (strstr (text, "Nothing was announced."));
  cr_expect_not_null (strstr (text, "## Rule options\n\nNone."));
  cr_expect_null (strstr (text, "Misread"));
  cr_expect_null (strstr (text, "Game record"));
}

/* ---- the words over the camera picture (ui-words.h) ---- */

/* A game's bundled set and a two-player game on it. */
static EngGame *
two_player_game (const char *name, EngCardSet **set)
{
  g_autofree char *file = g_strdup_printf ("cards/%s.set", name);
  char *path = eng_data_path (file);
  cr_assert_not_null (path);
  EngParseError perr = { 0 };
  cr_assert_eq (eng_card_set_load_file (path, set, &perr), ENG_OK, "%s", perr.reason);
  free (path);
  EngSetup setup;
  eng_setup_init (&setup);
  g_strlcpy (setup.names[0], "Ana", ENG_NAME_MAX);
  g_strlcpy (setup.names[1], "Bea", ENG_NAME_MAX);
  setup.seats[0] = 1;
  setup.seats[1] = 2;
  setup.n_players = 2;
  setup.first = 0;
  EngGame *game = NULL;
  EngVerdict why;
  cr_assert_eq (eng_game_new (eng_game_class_find (name), *set, NULL, &setup, NULL, NULL, &game, &why),
                ENG_OK, "%s", why.reason);
  return game;
}

/* The first sticker of `set` for the card type `type_id` (a face) or, with
 * NULL, of kind `kind`. */
static EngTagMeaning
sticker_of (const EngCardSet *set, const char *type_id, EngTagKind kind)
{
  EngTagMeaning m;
  for (size_t i = 0; i < eng_card_set_n_stickers (set); i++)
    {
      cr_assert_eq (eng_card_set_sticker (set, i, &m), ENG_OK);
      if (type_id != NULL ? m.card != NULL && strcmp (m.card->type_id, type_id) == 0 : m.tag.kind == kind)
        return m;
    }
  cr_assert_fail ("no sticker for %s", type_id ? type_id : "that kind");
  return m;
}

static void
name_sticker (const EngCardSet *set, const EngGame *game, const EngTagMeaning *m, char *out, gsize size)
{
  char payload[ENG_TAG_PAYLOAD_LEN + 1];
  cr_assert_eq (eng_tag_format (&m->tag, payload), ENG_OK);
  ui_words_sticker_name (set, game, &m->tag, payload, out, size);
}

/* A card over the picture is the game's name for it in the table's
 * language, never the set's English data ("Cat", "UFO, abduction beam"). */
static void
check_camera_words (const char *language, const char *cat, const char *ufo, const char *slot,
                    const char *command, const char *back, const char *one_back)
{
  speak (language);
  EngCardSet *set = NULL;
  EngGame *game = two_player_game ("katua", &set);
  char name[96];
  EngTagMeaning m = sticker_of (set, "cat-red-3", 0);
  name_sticker (set, game, &m, name, sizeof name);
  cr_expect_str_eq (name, cat);
  m = sticker_of (set, "ufo-red", 0);
  name_sticker (set, game, &m, name, sizeof name);
  cr_expect_str_eq (name, ufo);
  m = sticker_of (set, NULL, ENG_TAG_COMMAND);
  name_sticker (set, game, &m, name, sizeof name);
  cr_expect_str_eq (name, command);
  /* a back names its deck where the set has several, not where it has one */
  m = sticker_of (set, NULL, ENG_TAG_BACK);
  name_sticker (set, game, &m, name, sizeof name);
  cr_expect_str_eq (name, back);
  EngCardSet *spanish = NULL;
  EngGame *escoba = two_player_game ("escoba", &spanish);
  EngTagMeaning b = sticker_of (spanish, NULL, ENG_TAG_BACK);
  name_sticker (spanish, escoba, &b, name, sizeof name);
  cr_expect_str_eq (name, one_back);
  eng_game_free (escoba);
  eng_card_set_free (spanish);
  EngZone zone = { .kind = ENG_ZONE_SLOT, .seat = 1, .index = 0 };
  ui_words_zone_label (&zone, "slot-left", name, sizeof name);
  cr_expect_str_eq (name, slot);
  /* a zone of no kind keeps the zone file's name */
  EngZone none = { .kind = ENG_ZONE_NONE, .seat = -1, .index = -1 };
  ui_words_zone_label (&none, "corner", name, sizeof name);
  cr_expect_str_eq (name, "corner");
  eng_game_free (game);
  eng_card_set_free (set);
  speak (NULL);
}

Test (camera_words, english)
{
  check_camera_words (NULL, "red cat 3", "red UFO", "slot 1 · seat 2", "command: End of turn", "back: cat", "back");
}

Test (camera_words, spanish)
{
  check_camera_words ("es", "gato rojo 3", "ovni rojo", "hueco 1 · asiento 2", "comando: Fin de turno", "dorso: gatos", "dorso");
}

Test (camera_words, catalan)
{
  check_camera_words ("ca", "gat vermell 3", "ovni vermell", "forat 1 · seient 2", "ordre: Fi del torn", "dors: gats", "dors");
}

/* A doubled anchor or seat marker comes first (only a person can take the
 * copy away), is named in the sentence the window shows, and only the
 * doubled stickers are marked for the picture. */
Test (calibration_advice, doubled_markers_first_and_named)
{
  UiCalibrationFacts f = { .width = 1920, .height = 1080, .calibrated = TRUE, .n_seats = 2 };
  for (int a = 0; a < 4; a++)
    f.anchor_seen[a] = TRUE;
  f.doubled_anchors = 1u << 2;
  f.n_doubled_seats = 1;
  f.doubled_seat[0] = 4;
  char *advice[8];
  guint n = advise (&f, advice);
  cr_assert_geq (n, 2);
  cr_expect_not_null (strstr (advice[0], "Anchor 3 is seen at two places"), "%s", advice[0]);
  cr_expect_not_null (strstr (advice[1], "Seat marker 4 is seen at two places"), "%s", advice[1]);
  cr_expect_not (any_contains (advice, n, "ready to play"));
  for (guint i = 0; i < n; i++)
    g_free (advice[i]);
  g_autofree char *said = ui_calibration_facts_doubles (&f);
  cr_assert_not_null (said);
  cr_expect_not_null (strstr (said, "anchor 3, seat marker 4"), "%s", said);
  cr_expect_not_null (strstr (said, "copies"), "two stickers, the plural: %s", said);
  cr_expect (ui_calibration_facts_is_doubled (&f, 'A', 3));
  cr_expect_not (ui_calibration_facts_is_doubled (&f, 'A', 2));
  cr_expect (ui_calibration_facts_is_doubled (&f, 'S', 4));
  cr_expect_not (ui_calibration_facts_is_doubled (&f, 'S', 3));
  f.doubled_anchors = 0;
  f.n_doubled_seats = 0;
  cr_expect_null (ui_calibration_facts_doubles (&f));
}

/* Names as a sentence says them, "and" as each language writes it (one
 * language a test: gettext keeps a process's first catalogue). */
static const char *two[] = { "Ana", "Bea" }, *three[] = { "Ana", "Bea", "Cai" }, *isabel[] = { "Ana", "Isabel" };

Test (words, names_joined_as_said)
{
  speak (NULL);
  g_autofree char *one_en = ui_words_join_names (two, 1);
  g_autofree char *two_en = ui_words_join_names (two, 2);
  g_autofree char *three_en = ui_words_join_names (three, 3);
  g_autofree char *isabel_en = ui_words_join_names (isabel, 2);
  cr_expect_str_eq (one_en, "Ana");
  cr_expect_str_eq (two_en, "Ana and Bea");
  cr_expect_str_eq (three_en, "Ana, Bea and Cai");
  cr_expect_str_eq (isabel_en, "Ana and Isabel");
}

Test (words, names_joined_in_spanish)
{
  speak ("es");
  g_autofree char *three_es = ui_words_join_names (three, 3);
  g_autofree char *isabel_es = ui_words_join_names (isabel, 2);
  cr_expect_str_eq (three_es, "Ana, Bea y Cai");
  cr_expect_str_eq (isabel_es, "Ana e Isabel");
  speak (NULL);
}

Test (words, names_joined_in_catalan)
{
  speak ("ca");
  g_autofree char *isabel_ca = ui_words_join_names (isabel, 2);
  cr_expect_str_eq (isabel_ca, "Ana i Isabel");
  speak (NULL);
}

/* When a saved game was played, as a person says it. */
static GDateTime *
at (int month, int day, int hour, int minute)
{
  return g_date_time_new_local (2026, month, day, hour, minute, 0);
}

Test (words, when_is_said_from_today)
{
  speak (NULL);
  g_autoptr (GDateTime) now = at (11, 28, 10, 5);      /* a Saturday */
  g_autoptr (GDateTime) earlier = at (11, 28, 8, 30);
  g_autoptr (GDateTime) last_night = at (11, 27, 21, 40);
  g_autoptr (GDateTime) tuesday = at (11, 24, 19, 0);
  g_autoptr (GDateTime) long_ago = at (10, 2, 18, 15);
  g_autofree char *today = ui_words_when (earlier, now);
  g_autofree char *yesterday = ui_words_when (last_night, now);
  g_autofree char *weekday = ui_words_when (tuesday, now);
  g_autofree char *date = ui_words_when (long_ago, now);
  cr_expect_str_eq (today, "today at 08:30");
  cr_expect_str_eq (yesterday, "yesterday at 21:40");
  cr_expect_str_eq (weekday, "on Tuesday at 19:00");
  cr_expect_str_eq (date, "on 02/10/2026 at 18:15");
}

/* Last night and a date long ago, in `language`. */
static void
check_when (const char *language, const char *yesterday_said, const char *long_ago_said)
{
  speak (language);
  g_autoptr (GDateTime) now = at (11, 28, 10, 5);
  g_autoptr (GDateTime) last_night = at (11, 27, 21, 40);
  g_autoptr (GDateTime) long_ago = at (10, 2, 18, 15);
  g_autofree char *yesterday = ui_words_when (last_night, now);
  g_autofree char *date = ui_words_when (long_ago, now);
  cr_expect_str_eq (yesterday, yesterday_said);
  cr_expect_str_eq (date, long_ago_said);
  speak (NULL);
}

Test (words, when_in_spanish)
{
  check_when ("es", "ayer a las 21:40", "el 02/10/2026 a las 18:15");
}

Test (words, when_in_catalan)
{
  check_when ("ca", "ahir a les 21:40", "el 02/10/2026 a les 18:15");
}

/* A weekday, in Spanish. */
Test (words, weekday_in_spanish)
{
  speak ("es");
  g_autoptr (GDateTime) now = at (11, 28, 10, 5);
  g_autoptr (GDateTime) tuesday = at (11, 24, 19, 0);
  g_autofree char *weekday = ui_words_when (tuesday, now);
  cr_expect_str_eq (weekday, "el martes a las 19:00");
  speak (NULL);
}

/* What a screen reader hears of the camera picture and the table map. */
Test (words, views_described_from_public_facts)
{
  speak (NULL);
  g_autofree char *none = ui_words_describe_stickers (0, 0, 0, 0);
  g_autofree char *some = ui_words_describe_stickers (1, 3, 4, 0);
  cr_expect_str_eq (none, "No sticker in view");
  cr_expect_str_eq (some, "8 stickers seen: 1 card face up, 3 cards face down, 4 table markers");

  EngCardSet *set = NULL;
  EngGame *game = two_player_game ("katua", &set);
  EngView view;
  eng_view_init (&view);
  view.n_players = 2;
  view.active = 0;
  g_strlcpy (view.players[0].name, "Ana", ENG_NAME_MAX);
  g_strlcpy (view.players[1].name, "Bea", ENG_NAME_MAX);
  view.players[0].hand = 2;
  view.players[1].hand = -1;
  EngViewPlace *slots = eng_view_add_player_place (&view.players[0], "slots");
  EngTagMeaning cat = sticker_of (set, "cat-red-3", 0);
  eng_view_place_add (slots, cat.card->serial, 0, false);
  eng_view_place_add (slots, 0, 0, false);
  eng_view_place_add (slots, 0, 0, true);
  EngViewPlace *pile = eng_view_add_shared (&view, "Discard pile");
  eng_view_place_add (pile, cat.card->serial, 0, false);
  pile->count = 4;
  g_autofree char *text = ui_words_describe_view (&view, set, game);
  cr_expect_str_eq (text, "Ana's turn. Ana: 2 in hand; slots: red cat 3, 1 face down, 1 empty. Bea. "
                          "Discard pile 4, red cat 3 on top.");
  speak ("es");
  g_autofree char *text_es = ui_words_describe_view (&view, set, game);
  cr_expect (g_str_has_prefix (text_es, "Le toca a Ana."), "%s", text_es);
  cr_expect_not_null (strstr (text_es, "gato rojo 3"), "%s", text_es);
  speak (NULL);
  eng_game_free (game);
  eng_card_set_free (set);
}

/* A name on a small card is broken at spaces and made smaller, never cut
 * inside a word; a word too long even at the smallest size is ellipsized. */
Test (text_fit, names_fit_their_cards)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 200, 200);
  cairo_t *cr = cairo_create (surface);
  PangoLayout *layout = ui_text_fit_layout (cr, "mood card, red side", 30, 4, 8, 5, FALSE);
  cr_expect (ui_text_fit_check (layout, 30, 4), "\"mood card, red side\" does not fit 30 px");
  double w, h;
  ui_text_fit_size (layout, &w, &h);
  cr_expect_leq (w, 30.5);
  cr_expect_gt (pango_layout_get_line_count (layout), 1, "not broken into lines");
  g_object_unref (layout);
  /* short enough: the size asked for, one line */
  layout = ui_text_fit_layout (cr, "Cat", 30, 4, 8, 5, FALSE);
  cr_expect_eq (pango_font_description_get_size (pango_layout_get_font_description (layout)), 8 * PANGO_SCALE);
  cr_expect_eq (pango_layout_get_line_count (layout), 1);
  g_object_unref (layout);
  /* a long word is drawn smaller rather than broken */
  layout = ui_text_fit_layout (cr, "Nope Defuse Attack", 26, 3, 10, 5, FALSE);
  cr_expect (ui_text_fit_check (layout, 26, 3));
  cr_expect_lt (pango_font_description_get_size (pango_layout_get_font_description (layout)), 10 * PANGO_SCALE);
  g_object_unref (layout);
  /* the check itself sees a word broken mid-way */
  layout = pango_cairo_create_layout (cr);
  pango_layout_set_text (layout, "Supercalifragilistic", -1);
  pango_layout_set_width (layout, 20 * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_CHAR);
  cr_expect_not (ui_text_fit_check (layout, 20, 9), "a word broken by characters passed the check");
  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

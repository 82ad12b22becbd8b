/* The app's pure helpers, without a display: the rule options read from a
 * game's options file (what the setup dialog offers) and the calibration
 * advice (what the camera setup page tells the table). */
#include <criterion/criterion.h>

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "eng-data.h"
#include "ui-calibration-facts.h"
#include "ui-option-docs.h"
#include "ui-report.h"

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
  cr_expect_str_eq (memory->title, "Total Memory");   /* the comment names the variant */
  cr_expect_str_eq (k18->title, "Ufo deck out");      /* else from the switch's name */
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
  f.module_px_mean = 2.6f;
  f.module_px_min = 2.1f;
  char *advice[8];
  guint n = advise (&f, advice);
  cr_assert_geq (n, 2);
  cr_expect_not_null (strstr (advice[0], "Anchor 3 is not in view"), "%s", advice[0]);
  cr_expect (!any_contains (advice, n, "Anchor 1 "));
  cr_expect (any_contains (advice, n, "Stickers are small in the image"));
  cr_expect (any_contains (advice, n, "50 mm stickers"));
  for (guint i = 0; i < n; i++)
    g_free (advice[i]);
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

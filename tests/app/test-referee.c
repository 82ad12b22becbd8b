/* The app's referee without a display: corrections of misread stickers,
 * the "whose UFO?" answer when nothing is asked, and the exported report. */
#include <criterion/criterion.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <unistd.h>
#include <string.h>

#include "eng-tag.h"
#include "ui-referee.h"

static UiReferee *
new_referee (void)
{
  EngSetup setup;
  eng_setup_init (&setup);
  setup.n_players = 2;
  g_strlcpy (setup.names[0], "Ana", ENG_NAME_MAX);
  g_strlcpy (setup.names[1], "Bea", ENG_NAME_MAX);
  setup.seats[0] = 1;
  setup.seats[1] = 2;
  setup.first = 0;
  g_autoptr (GError) error = NULL;
  UiReferee *referee = ui_referee_new ("katua", &setup, NULL, &error);
  cr_assert_not_null (referee, "%s", error ? error->message : "?");
  return referee;
}

/* The face payload of the `nth` card of deck `deck_id`. */
static void
face_payload (UiReferee *referee, const char *deck_id, size_t nth, char out[ENG_TAG_PAYLOAD_LEN + 1])
{
  const EngCardSet *set = ui_referee_get_card_set (referee);
  size_t deck = 0;
  cr_assert_eq (eng_card_set_find_deck (set, deck_id, &deck), ENG_OK);
  size_t seen = 0;
  for (size_t i = 0; i < eng_card_set_n_cards (set); i++)
    {
      const EngCard *card = eng_card_set_card (set, i);
      if (card->deck != deck || seen++ != nth)
        continue;
      EngTag tag = { .game = eng_card_set_game_letter (set), .kind = ENG_TAG_FACE, .serial = card->serial };
      g_strlcpy (tag.set, eng_card_set_id (set), sizeof tag.set);
      cr_assert_eq (eng_tag_format (&tag, out), ENG_OK);
      return;
    }
  cr_assert_fail ("deck %s has no card %zu", deck_id, nth);
}

Test (referee, correction_is_held_listed_reported_and_removed)
{
  g_autoptr (UiReferee) referee = new_referee ();
  char seen[ENG_TAG_PAYLOAD_LEN + 1], actual[ENG_TAG_PAYLOAD_LEN + 1];
  face_payload (referee, "cat", 0, seen);
  face_payload (referee, "cat", 1, actual);
  g_autoptr (GError) error = NULL;
  cr_assert (ui_referee_correct_card (referee, seen, actual, &error), "%s", error ? error->message : "");
  cr_assert_eq (ui_referee_n_corrections (referee), 1);
  const char *s = NULL, *a = NULL;
  cr_assert (ui_referee_correction (referee, 0, &s, &a));
  cr_expect_str_eq (s, seen);
  cr_expect_str_eq (a, actual);
  cr_expect_not (ui_referee_correction (referee, 1, &s, &a));

  g_autofree char *report = ui_referee_dup_report (referee);
  cr_expect_not_null (strstr (report, "## Misread stickers corrected"), "%s", report);
  cr_expect_not_null (strstr (report, seen), "%s", report);
  cr_expect_not_null (strstr (report, "| Ana | 1 | 0 |"), "%s", report);
  cr_expect_not_null (strstr (report, "ufo_deck_out = reshuffle"), "%s", report);

  cr_assert (ui_referee_correct_card (referee, seen, NULL, &error));
  cr_expect_eq (ui_referee_n_corrections (referee), 0);
}

Test (referee, correction_across_decks_is_refused_and_changes_nothing)
{
  g_autoptr (UiReferee) referee = new_referee ();
  char cat[ENG_TAG_PAYLOAD_LEN + 1], ufo[ENG_TAG_PAYLOAD_LEN + 1];
  face_payload (referee, "cat", 0, cat);
  face_payload (referee, "ufo", 0, ufo);
  g_autoptr (GError) error = NULL;
  cr_assert_not (ui_referee_correct_card (referee, cat, ufo, &error));
  cr_assert (g_error_matches (error, UI_REFEREE_ERROR, UI_REFEREE_ERROR_CORRECTION));
  cr_expect_not_null (strstr (error->message, "same deck"), "%s", error->message);
  cr_expect_eq (ui_referee_n_corrections (referee), 0);
}

Test (referee, no_question_no_choice)
{
  g_autoptr (UiReferee) referee = new_referee ();
  int players[4];
  cr_expect_eq (ui_referee_get_choice (referee, players, 4), 0);
  g_autoptr (GError) error = NULL;
  cr_expect_not (ui_referee_choose_player (referee, 1, &error));
  cr_expect (g_error_matches (error, UI_REFEREE_ERROR, UI_REFEREE_ERROR_COMMAND));
}

/* A copy of `rec` (a record under TABLERO_DATADIR, or NULL) to resume from,
 * with `extra` appended: resuming journals there, and a finished game
 * removes its journal. */
static UiReferee *
resume_copy (const char *rec, const char *extra)
{
  g_autofree char *text = NULL;
  if (rec != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("TABLERO_DATADIR"), rec, NULL);
      cr_assert (g_file_get_contents (path, &text, NULL, NULL), "cannot read %s", path);
    }
  g_autofree char *all = g_strconcat (text ? text : "", extra, NULL);
  g_autofree char *tmp = NULL;
  int fd = g_file_open_tmp ("tablero-referee-XXXXXX.record", &tmp, NULL);
  cr_assert (fd >= 0);
  close (fd);
  cr_assert (g_file_set_contents (tmp, all, -1, NULL));
  g_autoptr (GError) error = NULL;
  UiReferee *referee = ui_referee_resume (tmp, &error);
  cr_assert_not_null (referee, "%s", error ? error->message : "?");
  g_unlink (tmp);
  return referee;
}

static void
count_announce (UiReferee *referee, guint kind, const char *text, const char *rule, int *n)
{
  (*n)++;
}

/* After the last move the table gathers the cards up: nothing it does is
 * refereed (or refused) any more, nothing is highlighted, and the headline
 * says who won. */
Test (referee, finished_game_refuses_nothing_and_says_who_won)
{
  g_autoptr (UiReferee) referee = resume_copy ("games/demo-katua.rec", "");
  cr_assert (ui_referee_is_over (referee));
  int announced = 0;
  g_signal_connect (referee, "announce", G_CALLBACK (count_announce), &announced);
  EngSnapshot *snap = g_new0 (EngSnapshot, 1);
  snap->calibrated = 1;
  for (int i = 0; i < 5; i++)
    {
      snap->seq = (uint64_t) i + 1;
      ui_referee_feed (referee, snap);
    }
  g_free (snap);
  cr_expect_eq (announced, 0, "a finished game still referees the table");
  cr_expect_not (ui_referee_awaits_turn_command (referee));
  cr_expect_eq (ui_referee_get_waiting_for (referee), -1);
  g_autofree char *headline = ui_referee_dup_headline (referee);
  cr_expect_not_null (strstr (headline, "Ana"), "headline: %s", headline);
}

/* Ana attacks: it is still her turn, but the table waits for Bea's
 * defence.  The views point at Bea, and "end the turn" is not what the
 * table is asked for. */
Test (referee, during_a_defence_the_table_waits_for_the_defender)
{
  g_autoptr (UiReferee) referee = resume_copy (NULL, "game katua\nplayer Ana\nplayer Bea\nfirst Ana\n"
                                                     "Ana attack 71 Bea 1\n");
  const EngView *view = ui_referee_get_view (referee);
  cr_assert_eq (view->active, 0);
  cr_expect_eq (ui_referee_get_waiting_for (referee), 1);
  cr_expect_not (ui_referee_awaits_turn_command (referee));
  g_autofree char *headline = ui_referee_dup_headline (referee);
  cr_expect_not_null (strstr (headline, "Bea"), "headline: %s", headline);
  g_autofree char *status = ui_referee_dup_status (referee);
  cr_expect_not_null (strstr (status, "Bea"), "status: %s", status);
}

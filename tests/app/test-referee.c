/* The app's referee without a display: corrections of misread stickers,
 * the "whose UFO?" answer when nothing is asked, and the exported report. */
#include <criterion/criterion.h>

#include <glib.h>
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

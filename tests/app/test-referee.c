/* The app's referee without a display: corrections of misread stickers,
 * the "whose UFO?" answer when nothing is asked, and the exported report. */
#include <criterion/criterion.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <unistd.h>
#include <string.h>

#include "eng-tag.h"
#include "ui-referee.h"
#include "referee-table.h"

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

/* ---- K20: an announcement naming a card that is face down now ------------- */

/* How many announcements the table reads otherwise than they were said. */
static guint
n_redacted (UiReferee *referee, guint16 cat, gboolean *names_cat)
{
  g_autofree char *show = g_strdup_printf ("show %u", cat);
  guint n = 0;
  *names_cat = FALSE;
  for (guint i = 0; i < ui_referee_n_said (referee); i++)
    {
      g_autofree char *now = ui_referee_dup_said (referee, i);
      *names_cat |= strstr (now, show) != NULL;
      n += strstr (now, "face down now") != NULL;
    }
  return n;
}

Test (referee, a_cat_shown_then_turned_down_is_named_no_more)
{
  UiReferee *referee = new_referee ();
  guint16 tricolor = serial_of_type (referee, "ufo-tricolor"), red_ufo = serial_of_type (referee, "ufo-red");
  Table t = { 0 };
  table_deal (referee, &t);
  /* Ana's tricolor beam at Bea's slot 1; Bea answers with a red UFO, which
   * forces her cat to be shown to all (K5) */
  guint16 cat = table_forced_show (referee, &t);
  g_autofree char *record = ui_referee_dup_record_text (referee);
  g_autofree char *show = g_strdup_printf ("neutralise %u show %u", red_ufo, cat);
  cr_assert (strstr (record, show) != NULL, "the forced show was not refereed:\n%s", record);
  gboolean named = FALSE;
  cr_expect_eq (n_redacted (referee, cat, &named), 0u, "while the cat is face up it may be named");
  cr_expect (named, "and it is");
  g_autofree char *report_up = ui_referee_dup_report (referee);
  cr_expect (strstr (report_up, show) != NULL, "%s", report_up);

  /* the cat goes face down again, the UFOs to the discard pile */
  table_take (&t, 22);
  table_put (referee, &t, 'B', 1, 23, (EngZone){ ENG_ZONE_SLOT, 1, 0 });
  table_take (&t, 20);
  table_take (&t, 21);
  table_put (referee, &t, 'F', tricolor, 20, (EngZone){ ENG_ZONE_DISCARD, -1, 1 });
  table_show (referee, &t);
  cr_expect_gt (n_redacted (referee, cat, &named), 0u, "the announcements of the show are redacted");
  cr_expect_not (named, "no announcement names the cat face down now");
  g_autofree char *report = ui_referee_dup_report (referee);
  g_autofree char *shown = g_strdup_printf ("show %u", cat);
  cr_expect (strstr (report, shown) == NULL, "the report names the hidden cat:\n%s", report);
  g_object_unref (referee);
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

/* Before Catchy!'s first hand nobody has the turn: the phase alone is the
 * status, and it starts a line as a sentence does. */
Test (referee, a_phase_alone_starts_with_a_capital)
{
  g_autoptr (UiReferee) referee = resume_copy (NULL, "game catchy\nplayer Ana\nplayer Bea\nfirst Ana\n");
  const EngView *view = ui_referee_get_view (referee);
  g_autofree char *status = ui_referee_dup_status (referee);
  cr_assert_lt (view->active, 0, "status: %s", status);
  cr_assert_lt (view->deciding, 0, "status: %s", status);
  cr_assert_str_neq (status, "");
  cr_expect (g_unichar_isupper (g_utf8_get_char (status)), "status: %s", status);
}

/* ---- learning: each rule explained the first time it comes up ------------- */

typedef struct {
  UiReferee *referee;
  GHashTable *taught;    /* rule id -> times its brief was announced */
  guint announced;
} Teaching;

static void
count_teaching (UiReferee *referee, guint kind, const char *text, const char *rule, Teaching *t)
{
  t->announced++;
  const UiRuleDoc *doc = ui_referee_get_rule (referee, rule);
  if (kind == ENG_EVENT_NOTE && doc != NULL && g_strcmp0 (text, doc->brief) == 0)
    {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (t->taught, rule));
      g_hash_table_insert (t->taught, g_strdup (rule), GUINT_TO_POINTER (n + 1));
    }
}

/* The table of the K20 test up to the forced show: a baseline, Ana's
 * tricolor beam at Bea's slot 1, Bea's red UFO, her cat shown (K4, K5, K6,
 * K11 come up, and the turn's K21 and K3). */
static void
play_an_attack (UiReferee *referee)
{
  Table t = { 0 };
  table_deal (referee, &t);
  table_forced_show (referee, &t);
}

Test (referee, learning_explains_each_rule_once_when_it_first_comes_up)
{
  g_autoptr (UiReferee) referee = new_referee ();
  cr_assert (ui_referee_get_learning (referee), "learning is on by default");
  Teaching t = { referee, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), 0 };
  g_signal_connect (referee, "announce", G_CALLBACK (count_teaching), &t);
  play_an_attack (referee);
  cr_assert_gt (g_hash_table_size (t.taught), 3, "the rules that came up were explained (%u)",
                g_hash_table_size (t.taught));
  static const char *const came_up[] = { "K4", "K5" };
  for (gsize i = 0; i < G_N_ELEMENTS (came_up); i++)
    cr_expect_eq (GPOINTER_TO_UINT (g_hash_table_lookup (t.taught, came_up[i])), 1,
                  "%s explained once when it came up", came_up[i]);
  GHashTableIter it;
  gpointer rule, n;
  g_hash_table_iter_init (&it, t.taught);
  while (g_hash_table_iter_next (&it, &rule, &n))
    cr_expect_eq (GPOINTER_TO_UINT (n), 1, "%s explained %u times", (char *) rule, GPOINTER_TO_UINT (n));
  /* the brief is an announcement like any other: the report has it, with
   * its rule id as a detail */
  g_autofree char *report = ui_referee_dup_report (referee);
  const UiRuleDoc *k4 = ui_referee_get_rule (referee, "K4");
  g_autofree char *with_id = g_strdup_printf ("%s (K4)", k4->brief);
  cr_expect_not_null (strstr (report, with_id), "%s", report);
  g_hash_table_destroy (t.taught);
}

Test (referee, learning_off_explains_nothing)
{
  g_autoptr (UiReferee) referee = new_referee ();
  ui_referee_set_learning (referee, FALSE);
  Teaching t = { referee, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), 0 };
  g_signal_connect (referee, "announce", G_CALLBACK (count_teaching), &t);
  play_an_attack (referee);
  cr_expect_gt (t.announced, 5, "the game was refereed (%u announcements)", t.announced);
  cr_expect_eq (g_hash_table_size (t.taught), 0, "no rule explained with learning off");
  g_hash_table_destroy (t.taught);
}

typedef struct {
  GPtrArray *texts;
} Heard;

static void
hear (UiReferee *referee, guint kind, const char *text, const char *rule, Heard *heard)
{
  g_ptr_array_add (heard->texts, g_strdup (text));
}

/* Journal first, for the first word too: a journal that cannot be written
 * when the game starts is said at once, naming where and why, and nothing
 * is read (so nothing announced) until it can be; a journal that can is
 * on disk before the first look, with the table's players, and goes on
 * after a restart with no move made. */
Test (referee, the_journal_is_written_before_the_first_word)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-referee-XXXXXX", NULL);
  cr_assert_not_null (dir);
  g_autofree char *missing = g_build_filename (dir, "missing", "journal.record", NULL);
  g_autoptr (UiReferee) referee = new_referee ();
  Heard heard = { g_ptr_array_new_with_free_func (g_free) };
  g_signal_connect (referee, "announce", G_CALLBACK (hear), &heard);
  /* a folder that is a file: the journal cannot be written there */
  g_autofree char *file = g_build_filename (dir, "missing", NULL);
  cr_assert (g_file_set_contents (file, "", 0, NULL));
  ui_referee_set_journal (referee, missing);
  cr_assert_eq (heard.texts->len, 1, "said at once");
  const char *said = g_ptr_array_index (heard.texts, 0);
  cr_expect_not_null (strstr (said, missing), "where: %s", said);
  cr_expect_not_null (strstr (said, "cannot be written ("), "why: %s", said);
  EngSnapshot *snap = g_new0 (EngSnapshot, 1);
  snap->calibrated = 1;
  snap->seq = 1;
  ui_referee_feed (referee, snap);
  cr_expect_eq (heard.texts->len, 1, "announced before the journal was written: %s",
                (const char *) g_ptr_array_index (heard.texts, heard.texts->len - 1));
  /* the folder made: the journal is written, and play goes on */
  g_unlink (file);
  cr_assert_eq (g_mkdir (file, 0700), 0);
  snap->seq = 2;
  ui_referee_feed (referee, snap);
  cr_expect_gt (heard.texts->len, 1, "play goes on once the journal is written");
  g_autofree char *text = NULL;
  cr_assert (g_file_get_contents (missing, &text, NULL, NULL), "the journal is on disk");
  cr_expect_not_null (strstr (text, "\nplayer Ana seat 1\nplayer Bea seat 2\n"), "%s", text);
  /* a restart before the first move goes on with that game */
  g_autoptr (GError) error = NULL;
  g_autoptr (UiReferee) again = ui_referee_resume (missing, &error);
  cr_assert_not_null (again, "%s", error ? error->message : "?");
  cr_expect_str_eq (ui_referee_get_setup (again)->names[1], "Bea");
  g_free (snap);
  g_ptr_array_free (heard.texts, TRUE);
  g_unlink (missing);
  g_rmdir (file);
  g_rmdir (dir);
}

/* The window's referee keeps its game (no display needed): a game it goes
 * on with from a journal is written when it is left, under the journal's
 * identity and start; what the referee said that was no refusal by a rule
 * is not counted as one.  (Refusals through the same recorder are proven
 * by test-history-cli.c, where a camera's looks are refereed.) */
#include <criterion/criterion.h>

#include <glib/gstdio.h>
#include <string.h>

#include "hst-store.h"
#include "history-test-util.h"
#include "ui-referee.h"

static char *dir;

static void
setup_dir (void)
{
  dir = history_test_make_dir ();
}

static void
remove_dir (void)
{
  history_test_remove_dir (dir);
}

TestSuite (history_referee, .init = setup_dir, .fini = remove_dir);

static void
on_announce (UiReferee *referee, guint kind, const char *text, const char *rule, guint *refusals)
{
  if (kind == ENG_EVENT_ILLEGAL && rule != NULL && rule[0] != '\0')
    (*refusals)++;
}

Test (history_referee, a_game_left_is_kept_with_its_refusals)
{
  g_autofree char *db = g_build_filename (dir, "history.db", NULL);
  g_autofree char *journal = g_build_filename (dir, "journal.record", NULL);
  g_setenv ("TABLERO_HISTORY", db, TRUE);
  const char *text = "game katua\nplayer Ana seat 1\nplayer Bea seat 2\nfirst Ana\n"
                     "@id 5e1f-left-game 2026-11-28T19:05:00Z\nAna attack 71 Bea 1\nBea hit show 26\n";
  cr_assert (g_file_set_contents (journal, text, -1, NULL));
  g_autoptr (GError) error = NULL;
  UiReferee *referee = ui_referee_resume (journal, &error);
  cr_assert_not_null (referee, "%s", error ? error->message : "?");
  guint refusals = 0;
  g_signal_connect (referee, "announce", G_CALLBACK (on_announce), &refusals);
  /* before the referee sees the table, a command is answered, not refused */
  cr_assert (ui_referee_command (referee, "no-defence", &error), "%s", error ? error->message : "?");
  g_object_unref (referee);

  g_autoptr (HstStore) store = hst_store_open (db, NULL, &error);
  cr_assert_not_null (store, "%s", error ? error->message : "?");
  gint64 id = hst_store_find_uid (store, "5e1f-left-game", &error);
  cr_assert_gt (id, 0, "the game left is kept under its journal's identity");
  g_autoptr (HstGame) game = hst_store_get_game (store, id, &error);
  cr_assert_not (game->finished);
  cr_assert_eq (game->n_moves, 2);
  cr_assert_str_eq (game->seats[0].name, "Ana");
  cr_assert_eq (game->seats[0].marker, 1);
  guint kept = 0;
  for (guint i = 0; i < game->refusals->len; i++)
    kept += g_array_index (game->refusals, HstRefusal, i).count;
  cr_assert_eq (kept, refusals, "%u refusals announced, %u kept", refusals, kept);
  g_autoptr (GDateTime) start = g_date_time_new_utc (2026, 11, 28, 19, 5, 0);
  cr_assert_eq (game->started, g_date_time_to_unix (start), "the start the journal kept");
}

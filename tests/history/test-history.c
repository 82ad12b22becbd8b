/* The history library (app/history): the schema made and migrated from
 * every earlier version, the bundled demo records imported with the
 * rules' winners and scores, a resumed game kept as one, the export read
 * back to the same history, names in any script kept as given, a player's
 * record, forgetting, and damaged or foreign files set aside. */
#include <criterion/criterion.h>

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "eng-data.h"
#include "eng-replay.h"
#include "hst-io.h"
#include "hst-stats.h"
#include "hst-store.h"
#include "history-test-util.h"

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

TestSuite (history, .init = setup_dir, .fini = remove_dir);

static char *
db_path (const char *name)
{
  return g_build_filename (dir, name, NULL);
}

static HstStore *
open_store (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *notice = NULL;
  HstStore *store = hst_store_open (path, &notice, &error);
  cr_assert_not_null (store, "open %s: %s", path, error ? error->message : "?");
  cr_assert_null (notice, "nothing to set aside: %s", notice);
  return store;
}

/* The first column `sql` gives, on a connection of the test's own. */
static char *
raw_text (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  cr_assert_eq (sqlite3_open (path, &db), SQLITE_OK);
  sqlite3_stmt *stmt = NULL;
  cr_assert_eq (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), SQLITE_OK, "%s: %s", sql, sqlite3_errmsg (db));
  cr_assert_eq (sqlite3_step (stmt), SQLITE_ROW, "%s", sql);
  char *v = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return v;
}

static gint64
raw_int (const char *path, const char *sql)
{
  g_autofree char *text = raw_text (path, sql);
  return g_ascii_strtoll (text, NULL, 10);
}

static void
raw_exec (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  cr_assert_eq (sqlite3_open (path, &db), SQLITE_OK);
  char *message = NULL;
  cr_assert_eq (sqlite3_exec (db, sql, NULL, NULL, &message), SQLITE_OK, "%s", message ? message : "");
  sqlite3_close (db);
}

static HstGame *
game_from_text (const char *text, gint64 ended)
{
  EngRecord *record = NULL;
  EngParseError err = { "" };
  cr_assert_eq (eng_record_parse (text, strlen (text), "test", &record, &err), ENG_OK, "%u: %s", err.line,
                err.reason);
  g_autoptr (GError) error = NULL;
  HstGame *game = hst_game_from_record (record, ended, &error);
  eng_record_free (record);
  cr_assert_not_null (game, "%s", error ? error->message : "?");
  return game;
}

static char *
demo_path (const char *name)
{
  g_autofree char *rel = g_build_filename ("games", name, NULL);
  char *path = eng_data_path (rel);
  char *copy = g_strdup (path);
  free (path);
  return copy;
}

static const char *const demo_records[] = { "demo-katua.rec", "demo-catchy.rec", "katua-3p.rec", "katua-4p.rec" };

/* ---- schema ------------------------------------------------------------ */

Test (history, a_new_file_gets_the_whole_schema)
{
  g_autofree char *path = db_path ("new.db");
  g_autoptr (HstStore) store = open_store (path);
  cr_assert_eq (hst_store_schema_version (store), HST_SCHEMA_VERSION);
  cr_assert_eq (raw_int (path, "PRAGMA application_id"), 0x54424c52);
  g_autofree char *mode = raw_text (path, "PRAGMA journal_mode");
  cr_assert_str_eq (mode, "wal");
  const char *tables[] = { "players", "games", "seats", "scores", "refusals", "game_options", "live_refusals" };
  for (size_t i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM sqlite_schema WHERE name = '%s'", tables[i]);
      cr_assert_eq (raw_int (path, sql), 1, "table %s", tables[i]);
    }
  cr_assert_eq (raw_int (path, "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'games_by_end'"), 1);
}

/* Version 1 as it shipped, with a game written then; opening migrates it
 * to the current version and the game reads back as it was. */
Test (history, version_1_migrates_with_its_games)
{
  g_autofree char *path = db_path ("v1.db");
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (HstStore) v1 = hst_store_open_version (path, 1, NULL, &error);
    cr_assert_not_null (v1, "%s", error ? error->message : "?");
    cr_assert_eq (hst_store_schema_version (v1), 1);
  }
  cr_assert_eq (raw_int (path, "SELECT count(*) FROM sqlite_schema WHERE name = 'live_refusals'"), 0);
  raw_exec (path, "INSERT INTO players (id, name, created) VALUES (1, 'Ana', 1), (2, 'Núria', 1);"
                  "INSERT INTO games VALUES (7, 'old-game', 'katua', 100, 2000, 1, 1, 12, 'score', 'game katua\n');"
                  "INSERT INTO seats VALUES (7, 0, 1, 1, 1, 7, 1), (7, 1, 2, 3, 0, 2, 0);"
                  "INSERT INTO scores VALUES (7, 0, 0, 0, 0), (7, 0, 0, 1, 0), (7, 1, 12, 0, 7), (7, 1, 12, 1, 2);"
                  "INSERT INTO refusals VALUES (7, 1, 'K12', 2);");
  g_autoptr (HstStore) store = open_store (path);
  cr_assert_eq (hst_store_schema_version (store), 2);
  g_autoptr (GError) error = NULL;
  g_autoptr (HstGame) game = hst_store_get_game (store, 7, &error);
  cr_assert_not_null (game, "%s", error ? error->message : "?");
  cr_assert_str_eq (game->seats[1].name, "Núria");
  cr_assert (game->seats[0].won && !game->seats[1].won);
  cr_assert_eq (game->checkpoints->len, 2);
  cr_assert_eq (g_array_index (game->checkpoints, HstCheckpoint, 1).scores[0], 7);
  cr_assert_eq (game->refusals->len, 1);
  /* what version 2 adds works on the migrated file */
  cr_assert (hst_store_note_refusal (store, "a-live-game", 0, "K3", &error));
  cr_assert_eq (raw_int (path, "SELECT count FROM live_refusals WHERE uid = 'a-live-game'"), 1);
  g_autoptr (HstPlayerStats) stats = hst_store_player_stats (store, "Núria", 0, &error);
  cr_assert_not_null (stats);
  cr_assert_eq (stats->refusals->len, 1);
  cr_assert_str_eq (g_array_index (stats->refusals, HstRuleCount, 0).rule, "K12");
}

/* An empty file (what a crash while making it leaves) is version 0. */
Test (history, an_empty_file_migrates_from_version_0)
{
  g_autofree char *path = db_path ("empty.db");
  cr_assert (g_file_set_contents (path, "", 0, NULL));
  g_autoptr (HstStore) store = open_store (path);
  cr_assert_eq (hst_store_schema_version (store), HST_SCHEMA_VERSION);
}

Test (history, a_newer_history_is_left_alone)
{
  g_autofree char *path = db_path ("newer.db");
  {
    g_autoptr (HstStore) store = open_store (path);
  }
  raw_exec (path, "PRAGMA user_version = 99");
  g_autoptr (GError) error = NULL;
  g_autofree char *notice = NULL;
  HstStore *store = hst_store_open (path, &notice, &error);
  cr_assert_null (store);
  cr_assert (g_error_matches (error, HST_STORE_ERROR, HST_STORE_ERROR_NEWER));
  cr_assert_not_null (strstr (error->message, path), "%s", error->message);
  cr_assert_null (notice);
  cr_assert_eq (raw_int (path, "PRAGMA user_version"), 99);
}

/* ---- damaged and foreign files ------------------------------------------ */

/* Opens `path` expecting it to be set aside: the notice names both files,
 * the file set aside holds `bytes`, and a fresh history works. */
static void
expect_set_aside (const char *path, const char *bytes, gsize len)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *notice = NULL;
  g_autoptr (HstStore) store = hst_store_open (path, &notice, &error);
  cr_assert_not_null (store, "%s", error ? error->message : "?");
  cr_assert_not_null (notice);
  cr_assert_not_null (strstr (notice, path), "%s", notice);
  const char *aside = strstr (notice, ".damaged-");
  cr_assert_not_null (aside, "%s", notice);
  g_autofree char *aside_path = NULL;
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    if (strstr (name, ".damaged-") != NULL && !g_str_has_suffix (name, "-wal"))
      aside_path = g_build_filename (dir, name, NULL);
  cr_assert_not_null (aside_path);
  cr_assert_not_null (strstr (notice, aside_path), "%s", notice);
  g_autofree char *kept = NULL;
  gsize kept_len = 0;
  cr_assert (g_file_get_contents (aside_path, &kept, &kept_len, NULL));
  cr_assert_eq (kept_len, len);
  cr_assert (memcmp (kept, bytes, len) == 0, "the file set aside is the damaged one, untouched");
  guint total = 1;
  g_autoptr (GPtrArray) games = hst_store_list (store, NULL, &total, &error);
  cr_assert_not_null (games);
  cr_assert_eq (total, 0);
  g_autoptr (HstGame) game = game_from_text ("game katua\nplayer Ana\nplayer Bea\nAna pass\n", 10);
  cr_assert (hst_store_put_game (store, game, NULL, &error), "%s", error ? error->message : "?");
}

Test (history, random_bytes_are_set_aside)
{
  g_autofree char *path = db_path ("random.db");
  char bytes[8192];
  GRand *rand = g_rand_new_with_seed (24);
  for (size_t i = 0; i < sizeof bytes; i++)
    bytes[i] = (char) g_rand_int_range (rand, 0, 256);
  g_rand_free (rand);
  cr_assert (g_file_set_contents (path, bytes, sizeof bytes, NULL));
  expect_set_aside (path, bytes, sizeof bytes);
}

Test (history, a_truncated_history_is_set_aside)
{
  g_autofree char *path = db_path ("truncated.db");
  {
    g_autoptr (HstStore) store = open_store (path);
    for (size_t i = 0; i < G_N_ELEMENTS (demo_records); i++)
      {
        g_autofree char *rec = demo_path (demo_records[i]);
        g_autoptr (GError) error = NULL;
        cr_assert (hst_import_file (store, rec, NULL, &error), "%s", error ? error->message : "?");
      }
  }
  raw_exec (path, "PRAGMA wal_checkpoint(TRUNCATE)");
  g_autofree char *whole = NULL;
  gsize len = 0;
  cr_assert (g_file_get_contents (path, &whole, &len, NULL));
  cr_assert_gt (len, 8192);
  /* the file cut short: the header still says how long it was */
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_unlink (wal);
  cr_assert (g_file_set_contents (path, whole, (gssize) (len / 2), NULL));
  expect_set_aside (path, whole, len / 2);
}

Test (history, another_programs_database_is_set_aside)
{
  g_autofree char *path = db_path ("foreign.db");
  raw_exec (path, "CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('paella')");
  g_autofree char *bytes = NULL;
  gsize len = 0;
  cr_assert (g_file_get_contents (path, &bytes, &len, NULL));
  expect_set_aside (path, bytes, len);
}

/* ---- games ------------------------------------------------------------- */

/* `record` replayed to its end by the engine's own replay (eng_replay):
 * the game as the rules leave it (eng_game_free), on *set (free it after). */
static EngGame *
replay_to_end (const EngRecord *record, EngCardSet **out_set)
{
  g_autofree char *set_rel = g_strdup_printf ("cards/%s.set", record->klass->name);
  g_autofree char *opt_rel = g_strdup_printf ("rules/%s.options", record->klass->name);
  char *set_path = eng_data_path (set_rel), *opt_path = eng_data_path (opt_rel);
  EngCardSet *set = NULL;
  EngOptions options = { 0 };
  EngParseError err = { "" };
  cr_assert_eq (eng_card_set_load_file (set_path, &set, &err), ENG_OK);
  cr_assert_eq (eng_options_load_file (opt_path, &options, &err), ENG_OK);
  EngReplayResult result;
  EngVerdict why;
  cr_assert_eq (eng_replay (record, set, &options, false, true, NULL, NULL, &result, &why), ENG_OK);
  free (set_path);
  free (opt_path);
  *out_set = set;
  return result.game;
}

/* The winners and final scores the rules give for a record, by the
 * engine's own replay. */
static void
rules_result (const char *record_path, unsigned *winners, int scores[ENG_MAX_PLAYERS], size_t *moves)
{
  EngRecord *record = NULL;
  EngParseError err = { "" };
  cr_assert_eq (eng_record_load_file (record_path, &record, &err), ENG_OK);
  EngCardSet *set = NULL;
  EngGame *game = replay_to_end (record, &set);
  *winners = eng_game_is_over (game) ? eng_game_winners (game, NULL) : 0;
  for (unsigned p = 0; p < record->setup.n_players; p++)
    scores[p] = eng_game_score (game, p);
  *moves = record->n_moves;
  eng_game_free (game);
  eng_card_set_free (set);
  eng_record_free (record);
}

Test (history, the_bundled_demo_records_import_with_the_rules_results)
{
  g_autofree char *path = db_path ("demos.db");
  g_autoptr (HstStore) store = open_store (path);
  for (size_t i = 0; i < G_N_ELEMENTS (demo_records); i++)
    {
      g_autofree char *rec = demo_path (demo_records[i]);
      g_autoptr (GPtrArray) imported = g_ptr_array_new_with_free_func ((GDestroyNotify) hst_imported_free);
      g_autoptr (GError) error = NULL;
      cr_assert (hst_import_file (store, rec, imported, &error), "%s: %s", rec, error ? error->message : "?");
      cr_assert_eq (imported->len, 1);
      HstImported *im = imported->pdata[0];
      cr_assert_eq (im->put, HST_PUT_ADDED);
      unsigned winners;
      int scores[ENG_MAX_PLAYERS];
      size_t moves;
      rules_result (rec, &winners, scores, &moves);
      g_autoptr (HstGame) game = hst_store_get_game (store, im->id, &error);
      cr_assert_not_null (game);
      cr_assert_eq (game->n_moves, moves, "%s", rec);
      cr_assert_eq (hst_game_winners (game), winners, "%s", rec);
      cr_assert_eq (game->finished, winners != 0, "%s", rec);
      for (guint p = 0; p < game->n_seats; p++)
        cr_assert_eq (game->seats[p].score, scores[p], "%s seat %u", rec, p);
      /* the chart ends where the game did, and starts from nothing */
      const HstCheckpoint *last = &g_array_index (game->checkpoints, HstCheckpoint, game->checkpoints->len - 1);
      const HstCheckpoint *first = &g_array_index (game->checkpoints, HstCheckpoint, 0);
      cr_assert_eq (first->move, 0);
      cr_assert_gt (game->checkpoints->len, 2, "%s: a point per turn, hand or trick", rec);
      for (guint p = 0; p < game->n_seats; p++)
        cr_assert_eq (last->scores[p], scores[p]);
      /* a second import is the same game */
      g_autoptr (GPtrArray) again = g_ptr_array_new_with_free_func ((GDestroyNotify) hst_imported_free);
      cr_assert (hst_import_file (store, rec, again, &error));
      cr_assert_eq (((HstImported *) again->pdata[0])->put, HST_PUT_KEPT);
    }
  guint total = 0;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) all = hst_store_list (store, NULL, &total, &error);
  cr_assert_eq (total, G_N_ELEMENTS (demo_records));
}

/* No card face down at the end of the game is named in the stored record;
 * every card open at the end still is. */
Test (history, the_record_names_no_card_face_down_at_the_end)
{
  for (size_t r = 0; r < G_N_ELEMENTS (demo_records); r++)
    {
      g_autofree char *rec = demo_path (demo_records[r]);
      g_autofree char *text = NULL;
      cr_assert (g_file_get_contents (rec, &text, NULL, NULL));
      g_autoptr (HstGame) game = game_from_text (text, 5);
      EngRecord *stored = NULL, *original = NULL;
      EngParseError err;
      cr_assert_eq (eng_record_parse (game->record, strlen (game->record), "stored", &stored, &err), ENG_OK,
                    "the stored record reads as a record: %s", err.reason);
      cr_assert_eq (eng_record_parse (text, strlen (text), "original", &original, &err), ENG_OK);
      cr_assert_eq (stored->n_moves, original->n_moves);
      EngCardSet *set = NULL;
      EngGame *end = replay_to_end (original, &set);
      for (size_t i = 0; i < stored->n_moves; i++)
        {
          const EngMove *s = &stored->moves[i].move, *o = &original->moves[i].move;
          uint16_t pairs[2][2] = { { o->card, s->card }, { o->show, s->show } };
          for (int k = 0; k < 2; k++)
            {
              uint16_t was = pairs[k][0], now = pairs[k][1];
              if (was == 0 || was == ENG_SERIAL_UNKNOWN)
                cr_assert_eq (now, was);
              else if (eng_game_card_public (end, was))
                cr_assert_eq (now, was, "%s move %zu: card %u is open and stays named", rec, i + 1, was);
              else
                cr_assert_eq (now, k == 0 ? ENG_SERIAL_UNKNOWN : 0, "%s move %zu: card %u is face down", rec,
                              i + 1, was);
            }
        }
      cr_assert_null (stored->notes);
      eng_game_free (end);
      eng_card_set_free (set);
      eng_record_free (stored);
      eng_record_free (original);
    }
}

/* A journal read before and after the restart of its game is one game:
 * the later, longer one replaces the earlier. */
Test (history, a_resumed_game_is_one_game)
{
  g_autofree char *path = db_path ("resumed.db");
  g_autoptr (HstStore) store = open_store (path);
  const char *before = "game katua\nplayer Ana\nplayer Bea\n@id 0f3c-resumed 2026-11-28T19:05:00Z\nAna pass\n"
                       "@table s 0 0 1\n";
  const char *after = "game katua\nplayer Ana\nplayer Bea\n@id 0f3c-resumed 2026-11-28T19:05:00Z\nAna pass\n"
                      "Bea pass\nAna pass\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) imported = g_ptr_array_new_with_free_func ((GDestroyNotify) hst_imported_free);
  g_autoptr (GDateTime) start = g_date_time_new_utc (2026, 11, 28, 19, 5, 0);
  gint64 started = g_date_time_to_unix (start);
  cr_assert (hst_import_text (store, before, strlen (before), "before", started + 300, imported, &error),
             "%s", error ? error->message : "?");
  cr_assert (hst_import_text (store, after, strlen (after), "after", started + 900, imported, &error));
  cr_assert (hst_import_text (store, before, strlen (before), "before again", started + 1200, imported, &error));
  cr_assert_eq (imported->len, 3);
  cr_assert_eq (((HstImported *) imported->pdata[0])->put, HST_PUT_ADDED);
  cr_assert_eq (((HstImported *) imported->pdata[1])->put, HST_PUT_REPLACED);
  gint64 id = ((HstImported *) imported->pdata[0])->id;
  cr_assert_eq (((HstImported *) imported->pdata[1])->id, id, "the same game keeps its id");
  guint total = 0;
  g_autoptr (GPtrArray) all = hst_store_list (store, NULL, &total, &error);
  cr_assert_eq (total, 1);
  HstGame *game = all->pdata[0];
  cr_assert_str_eq (game->uid, "0f3c-resumed");
  cr_assert_eq (game->started, started);
  cr_assert_eq (game->n_moves, 3);
}

/* Names in any script, and ones that read like SQL, are kept byte for
 * byte; a game's options and refusals with them. */
Test (history, names_are_stored_as_given)
{
  const char *names[] = { "José", "张伟", "Анна", "O'Neil" };
  GString *text = g_string_new ("game katua\noption winning_score 5\n");
  for (size_t i = 0; i < 4; i++)
    g_string_append_printf (text, "player %s\n", names[i]);
  g_string_append_printf (text, "%s pass\n", names[0]);
  g_autofree char *record = g_string_free (text, FALSE);
  g_autofree char *path = db_path ("names.db");
  g_autoptr (HstStore) store = open_store (path);
  g_autoptr (HstGame) game = game_from_text (record, 50);
  hst_game_add_refusals (game, 3, "K3", 2);
  g_autoptr (GError) error = NULL;
  cr_assert (hst_store_put_game (store, game, NULL, &error), "%s", error ? error->message : "?");
  g_autoptr (HstGame) stored = hst_store_get_game (store, game->id, &error);
  for (size_t i = 0; i < 4; i++)
    cr_assert_str_eq (stored->seats[i].name, names[i]);
  cr_assert_eq (stored->options.n, 1);
  cr_assert_str_eq (stored->options.items[0].value, "5");
  cr_assert_eq (stored->refusals->len, 1);
  g_auto (GStrv) people = hst_store_player_names (store, &error);
  cr_assert_eq (g_strv_length (people), 4);
  HstFilter by_name = { .player = "张伟" };
  guint total = 0;
  g_autoptr (GPtrArray) found = hst_store_list (store, &by_name, &total, &error);
  cr_assert_eq (total, 1);
  HstFilter nobody = { .player = "Zhang' OR 1=1 --" };
  g_autoptr (GPtrArray) none = hst_store_list (store, &nobody, &total, &error);
  cr_assert_eq (total, 0, "a name is a value, never SQL");
}

/* ---- export and import -------------------------------------------------- */

static void
fill_demos (HstStore *store)
{
  for (size_t i = 0; i < G_N_ELEMENTS (demo_records); i++)
    {
      g_autofree char *rec = demo_path (demo_records[i]);
      g_autoptr (GError) error = NULL;
      cr_assert (hst_import_file (store, rec, NULL, &error), "%s", error ? error->message : "?");
    }
}

Test (history, the_play_list_export_reads_back_to_the_same_history)
{
  g_autofree char *a_path = db_path ("a.db");
  g_autofree char *b_path = db_path ("b.db");
  g_autoptr (HstStore) a = open_store (a_path);
  g_autoptr (GError) error = NULL;
  /* a refusal noted on the table joins its game */
  const char *journal = "game katua\nplayer Ana\nplayer Bea\n@id live-1 2026-11-28T19:05:00Z\nAna pass\n";
  cr_assert (hst_store_note_refusal (a, "live-1", 1, "K12", &error));
  cr_assert (hst_store_note_refusal (a, "live-1", 1, "K12", &error));
  cr_assert (hst_import_text (a, journal, strlen (journal), "journal", 1764360000, NULL, &error));
  fill_demos (a);
  g_autofree char *first = hst_export_json (a, NULL, &error);
  cr_assert_not_null (first, "%s", error ? error->message : "?");
  g_autoptr (HstStore) b = open_store (b_path);
  cr_assert (hst_import_text (b, first, strlen (first), "export.json", 0, NULL, &error), "%s",
             error ? error->message : "?");
  g_autofree char *second = hst_export_json (b, NULL, &error);
  cr_assert_str_eq (second, first);
  g_autofree char *csv_a = hst_export_csv (a, NULL, &error);
  g_autofree char *csv_b = hst_export_csv (b, NULL, &error);
  cr_assert_str_eq (csv_b, csv_a);
  /* the refusals came across with their game */
  gint64 live = hst_store_find_uid (b, "live-1", &error);
  g_autoptr (HstGame) game = hst_store_get_game (b, live, &error);
  cr_assert_eq (game->refusals->len, 1);
  cr_assert_eq (g_array_index (game->refusals, HstRefusal, 0).count, 2);
  cr_assert_eq (g_array_index (game->refusals, HstRefusal, 0).position, 1);
}

Test (history, the_csv_has_a_row_per_player_per_game)
{
  g_autofree char *path = db_path ("csv.db");
  g_autoptr (HstStore) store = open_store (path);
  fill_demos (store);
  g_autoptr (GError) error = NULL;
  g_autofree char *csv = hst_export_csv (store, NULL, &error);
  g_auto (GStrv) rows = g_strsplit (csv, "\r\n", -1);
  g_autoptr (GPtrArray) games = hst_store_list (store, NULL, NULL, &error);
  guint row = 1;
  for (guint i = 0; i < games->len; i++)
    {
      const HstGame *g = games->pdata[i];
      for (guint p = 0; p < g->n_seats; p++, row++)
        {
          g_auto (GStrv) f = g_strsplit (rows[row], ",", -1);
          cr_assert_eq (g_strv_length (f), 13, "%s", rows[row]);
          cr_assert_str_eq (f[0], g->uid);
          cr_assert_str_eq (f[8], g->seats[p].name);
          cr_assert_eq (atoi (f[11]), g->seats[p].score);
          cr_assert_str_eq (f[12], g->seats[p].won ? "yes" : "no");
        }
    }
  cr_assert_str_eq (rows[row], "");
}

Test (history, a_bad_play_list_says_which_play)
{
  g_autofree char *path = db_path ("bad.db");
  g_autoptr (HstStore) store = open_store (path);
  const char *list = "{\"players\":[{\"id\":1,\"name\":\"Ana\"}],\"plays\":[{\"playerScores\":[],"
                     "\"tablero\":{\"uid\":\"x\",\"game\":\"katua\",\"moves\":3,\"ended\":\"2026-11-28T19:05:00Z\"}}]}";
  g_autoptr (GError) error = NULL;
  cr_assert_not (hst_import_text (store, list, strlen (list), "list.json", 0, NULL, &error));
  cr_assert (g_error_matches (error, HST_STORE_ERROR, HST_STORE_ERROR_INPUT));
  cr_assert_not_null (strstr (error->message, "list.json: play 1"), "%s", error->message);
  g_clear_error (&error);
  const char *bad_record = "game katua\nplayer Ana\nplayer Bea\nBea pass\n";
  cr_assert_not (hst_import_text (store, bad_record, strlen (bad_record), "bad.rec", 1, NULL, &error));
  cr_assert_not_null (strstr (error->message, "bad.rec"), "%s", error->message);
  cr_assert_not_null (strstr (error->message, "move 1"), "%s", error->message);
}

/* ---- a player's record, forgetting ------------------------------------ */

Test (history, a_players_record_adds_up)
{
  g_autofree char *path = db_path ("stats.db");
  g_autoptr (HstStore) store = open_store (path);
  fill_demos (store);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) games = hst_store_list (store, &(HstFilter) { .player = "Ana" }, NULL, &error);
  guint played = 0, won = 0, abandoned = 0, with_bea = 0, bea_won = 0;
  int best = G_MININT;
  for (guint i = 0; i < games->len; i++)
    {
      const HstGame *g = games->pdata[i];
      for (guint p = 0; p < g->n_seats; p++)
        if (strcmp (g->seats[p].name, "Ana") == 0)
          {
            played += g->finished, abandoned += !g->finished, won += g->finished && g->seats[p].won;
            if (g->finished && strcmp (g->game, "katua") == 0)
              best = MAX (best, g->seats[p].score);
          }
      for (guint p = 0; g->finished && p < g->n_seats; p++)
        if (strcmp (g->seats[p].name, "Bea") == 0)
          with_bea++, bea_won += g->seats[p].won;
    }
  g_autoptr (HstPlayerStats) s = hst_store_player_stats (store, "Ana", 0, &error);
  cr_assert_not_null (s, "%s", error ? error->message : "?");
  cr_assert_eq (s->played, played);
  cr_assert_eq (s->won, won);
  cr_assert_eq (s->abandoned, abandoned);
  const HstKindStats *katua = NULL;
  for (guint i = 0; i < s->kinds->len; i++)
    if (strcmp (g_array_index (s->kinds, HstKindStats, i).game, "katua") == 0)
      katua = &g_array_index (s->kinds, HstKindStats, i);
  cr_assert_not_null (katua);
  cr_assert_eq (katua->best, best);
  const HstRival *bea = &g_array_index (s->rivals, HstRival, 0);
  cr_assert_str_eq (bea->name, "Bea");
  cr_assert_eq (bea->together, with_bea);
  cr_assert_eq (bea->rival_won, bea_won);
  g_autoptr (HstPlayerStats) nobody = hst_store_player_stats (store, "Zed", 0, &error);
  cr_assert_null (nobody);
}

Test (history, forgetting_says_what_went)
{
  g_autofree char *path = db_path ("forget.db");
  g_autoptr (HstStore) store = open_store (path);
  fill_demos (store);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) dans = hst_store_list (store, &(HstFilter) { .player = "Dan" }, NULL, &error);
  cr_assert_eq (dans->len, 1);
  guint n = 0;
  cr_assert (hst_store_forget_player (store, "Dan", &n, &error));
  cr_assert_eq (n, 1);
  guint total = 0;
  g_autoptr (GPtrArray) left = hst_store_list (store, NULL, &total, &error);
  cr_assert_eq (total, G_N_ELEMENTS (demo_records) - 1);
  g_autoptr (HstGame) gone = NULL;
  gint64 id = ((HstGame *) left->pdata[0])->id;
  cr_assert (hst_store_forget_game (store, id, &gone, &error));
  cr_assert_eq (gone->id, id);
  cr_assert_eq (raw_int (path, "SELECT count(*) FROM seats WHERE game_id NOT IN (SELECT id FROM games)"), 0);
  cr_assert_not (hst_store_forget_game (store, id, NULL, &error));
  cr_assert (g_error_matches (error, HST_STORE_ERROR, HST_STORE_ERROR_NOT_FOUND));
  g_clear_error (&error);
  cr_assert_not (hst_store_forget_player (store, "Dan", NULL, &error));
  cr_assert (g_error_matches (error, HST_STORE_ERROR, HST_STORE_ERROR_NOT_FOUND));
}

/* The journal keeps a game's identity (`@id`): read, written back, and
 * refused when malformed; it is not part of what the game is. */
Test (history, the_record_keeps_the_games_identity)
{
  const char *text = "game katua\nplayer Ana\nplayer Bea\n@id 5b2e-77 2026-11-28T19:05:00Z\nAna pass\n";
  EngRecord *record = NULL;
  EngParseError err;
  cr_assert_eq (eng_record_parse (text, strlen (text), "t", &record, &err), ENG_OK, "%s", err.reason);
  cr_assert_str_eq (record->id, "5b2e-77");
  g_autoptr (GDateTime) start = g_date_time_new_utc (2026, 11, 28, 19, 5, 0);
  cr_assert_eq (record->started, g_date_time_to_unix (start));
  char *written = eng_record_write (record);
  cr_assert_not_null (strstr (written, "@id 5b2e-77 2026-11-28T19:05:00Z\n"), "%s", written);
  EngRecord *again = NULL;
  cr_assert_eq (eng_record_parse (written, strlen (written), "w", &again, &err), ENG_OK);
  cr_assert_str_eq (again->id, record->id);
  cr_assert_eq (again->started, record->started);
  cr_assert_eq (eng_record_set_id (again, "another", 0), ENG_OK);
  cr_assert (eng_record_equal (record, again), "the identity is not the game");
  cr_assert_eq (eng_record_set_id (again, "bad id", 0), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_str_eq (again->id, "another");
  free (written);
  eng_record_free (record);
  eng_record_free (again);
  const char *bad[] = {
    "game katua\nplayer Ana\nplayer Bea\n@id\n",
    "game katua\nplayer Ana\nplayer Bea\n@id a_b\n",
    "game katua\nplayer Ana\nplayer Bea\n@id ab yesterday\n",
    "game katua\nplayer Ana\nplayer Bea\n@id ab\n@id cd\n",
  };
  for (size_t i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      EngRecord *r = NULL;
      cr_assert_eq (eng_record_parse (bad[i], strlen (bad[i]), "bad", &r, &err), ENG_ERR_SYNTAX, "%s", bad[i]);
      cr_assert_eq (err.line, 4 + (i == 3));
    }
}

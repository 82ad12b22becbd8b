/* The history through tablero-cli: a game refereed by `watch --source
 * demo` (each game) is kept with the winner and scores the referee
 * announced; a game resumed from its journal is one game; a damaged
 * history is set aside while the game is refereed on; a kill inside the
 * transaction leaves no half game; two writers at once lose nothing; and
 * the history commands' output and errors.  (No Criterion .timeout here:
 * its watchdog's record leaks under LeakSanitizer; meson's timeout bounds
 * the run.) */
#include <criterion/criterion.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "eng-data.h"
#include "hst-io.h"
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

TestSuite (history_cli, .init = setup_dir, .fini = remove_dir);

typedef struct {
  int exit_code;     /* 128 + signal when killed */
  char *out;
  char *err;
} Run;

static void
run_clear (Run *run)
{
  g_free (run->out);
  g_free (run->err);
}

/* tablero-cli with `args` (NULL-terminated), the history at `db`, and
 * `env` (NULL-terminated "NAME=VALUE" pairs, may be NULL) added. */
static GSubprocess *
spawn (const char *db, const char *const *env, const char *const *args)
{
  g_autoptr (GSubprocessLauncher) launcher
    = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                 | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "TABLERO_HISTORY", db, TRUE);
  for (const char *const *e = env; e != NULL && *e != NULL; e++)
    {
      g_auto (GStrv) pair = g_strsplit (*e, "=", 2);
      g_subprocess_launcher_setenv (launcher, pair[0], pair[1], TRUE);
    }
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) getenv ("TABLERO_CLI"));
  for (const char *const *a = args; *a; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  g_autoptr (GError) error = NULL;
  GSubprocess *proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  g_ptr_array_free (argv, TRUE);
  cr_assert_not_null (proc, "spawn: %s", error ? error->message : "?");
  return proc;
}

/* Waits for `proc`, giving it `input` (NULL: nothing) on its standard input. */
static Run
finish_with (GSubprocess *proc, const char *input)
{
  Run run = { -1, NULL, NULL };
  g_autoptr (GError) error = NULL;
  cr_assert (g_subprocess_communicate_utf8 (proc, input, NULL, &run.out, &run.err, &error), "communicate: %s",
             error ? error->message : "?");
  if (g_subprocess_get_if_exited (proc))
    run.exit_code = g_subprocess_get_exit_status (proc);
  else if (g_subprocess_get_if_signaled (proc))
    run.exit_code = 128 + g_subprocess_get_term_sig (proc);
  g_object_unref (proc);
  return run;
}

static Run
finish (GSubprocess *proc)
{
  return finish_with (proc, NULL);
}

static Run
cli (const char *db, const char *const *env, const char *const *args)
{
  return finish (spawn (db, env, args));
}

static char *
path_in_dir (const char *name)
{
  return g_build_filename (dir, name, NULL);
}

static JsonObject *
parse_object (JsonParser *parser, const char *line)
{
  cr_assert (json_parser_load_from_data (parser, line, -1, NULL), "not JSON: %s", line);
  return json_node_get_object (json_parser_get_root (parser));
}

/* What the referee announced: the winners of the game-over event (as a
 * sorted, comma-separated list) and each player's last announced score. */
typedef struct {
  char *winners;
  GHashTable *scores;   /* name -> GINT_TO_POINTER (score + 1000) */
  gint64 history_id;
  char *history_text;
} Announced;

static void
announced_clear (Announced *a)
{
  g_free (a->winners);
  g_free (a->history_text);
  g_hash_table_unref (a->scores);
}

static Announced
read_watch (const char *out)
{
  Announced a = { .scores = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL) };
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  for (char **l = lines; *l; l++)
    {
      if (**l != '{')
        continue;
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonObject *o = parse_object (parser, *l);
      const char *event = json_object_get_string_member_with_default (o, "event", "");
      const char *kind = json_object_get_string_member_with_default (o, "kind", "");
      if (strcmp (event, "game-over") == 0)
        {
          JsonArray *w = json_object_get_array_member (o, "winners");
          GString *names = g_string_new (NULL);
          for (guint i = 0; i < json_array_get_length (w); i++)
            g_string_append_printf (names, "%s%s", i ? "," : "", json_array_get_string_element (w, i));
          g_free (a.winners);
          a.winners = g_string_free (names, FALSE);
        }
      else if (strcmp (event, "score") == 0)
        g_hash_table_insert (a.scores, g_strdup (json_object_get_string_member (o, "player")),
                             GINT_TO_POINTER ((int) json_object_get_int_member (o, "score") + 1000));
      else if (strcmp (kind, "history") == 0)
        {
          if (json_object_get_boolean_member (o, "ok"))
            a.history_id = json_object_get_int_member (o, "id");
          g_free (a.history_text);
          a.history_text = g_strdup (json_object_get_string_member (o, "text"));
        }
    }
  return a;
}

static HstStore *
open_db (const char *db)
{
  g_autoptr (GError) error = NULL;
  HstStore *store = hst_store_open (db, NULL, &error);
  cr_assert_not_null (store, "%s", error ? error->message : "?");
  return store;
}

static EngRecord *
load_record (const char *path)
{
  EngRecord *record = NULL;
  EngParseError err = { "" };
  cr_assert_eq (eng_record_load_file (path, &record, &err), ENG_OK, "%s: %s", path, err.reason);
  return record;
}

/* Referees the demo of `game` to its end and checks the history has it as
 * the referee announced it. */
static void
demo_game_is_kept (const char *game, const char *option, const char *commands)
{
  g_autofree char *db = path_in_dir ("history.db");
  g_autofree char *journal = path_in_dir ("journal.rec");
  const char *args[] = { "watch", "--source", "demo", "--game", game, "--record", journal, "--commands",
                         option ? "--option" : NULL, option, NULL };
  Run run = finish_with (spawn (db, NULL, args), commands != NULL ? commands : "");
  cr_assert_eq (run.exit_code, 0, "%s", run.err);
  Announced a = read_watch (run.out);
  cr_assert_not_null (a.winners, "the demo of %s plays to its end", game);
  cr_assert_gt (a.history_id, 0, "%s", a.history_text ? a.history_text : run.out);
  g_autoptr (HstStore) store = open_db (db);
  g_autoptr (GError) error = NULL;
  g_autoptr (HstGame) kept = hst_store_get_game (store, a.history_id, &error);
  cr_assert_not_null (kept, "%s", error ? error->message : "?");
  cr_assert_str_eq (kept->game, game);
  cr_assert (kept->finished);
  GString *winners = g_string_new (NULL);
  for (guint p = 0; p < kept->n_seats; p++)
    if (kept->seats[p].won)
      g_string_append_printf (winners, "%s%s", winners->len ? "," : "", kept->seats[p].name);
  cr_assert_str_eq (winners->str, a.winners);
  g_string_free (winners, TRUE);
  /* the last score the referee announced for each player is the one kept,
   * and the chart over the game ends there */
  const HstCheckpoint *last = &g_array_index (kept->checkpoints, HstCheckpoint, kept->checkpoints->len - 1);
  for (guint p = 0; p < kept->n_seats; p++)
    {
      gpointer said = g_hash_table_lookup (a.scores, kept->seats[p].name);
      if (kept->scored)
        cr_assert_eq (kept->seats[p].score, said ? GPOINTER_TO_INT (said) - 1000 : 0, "%s", kept->seats[p].name);
      else
        cr_assert_eq (kept->seats[p].score, kept->seats[p].won ? 1 : 0, "still in: the winner alone");
      cr_assert_eq (last->scores[p], kept->seats[p].score);
    }
  /* every move journaled, and the game's identity with it */
  EngRecord *record = load_record (journal);
  cr_assert_eq (kept->n_moves, record->n_moves);
  cr_assert_str_eq (kept->uid, record->id);
  cr_assert_gt (record->started, 0);
  cr_assert_eq (kept->started, record->started);
  cr_assert_geq (kept->ended, kept->started);
  for (size_t i = 0; i < record->options.n; i++)
    cr_assert_str_eq (eng_options_get (&kept->options, record->options.items[i].name),
                      record->options.items[i].value);
  eng_record_free (record);
  /* every refusal the referee announced is kept, by rule */
  guint said = 0, kept_refusals = 0;
  for (const char *p = run.out; (p = strstr (p, "\"event\":\"illegal\"")) != NULL; p++)
    said++;
  for (guint i = 0; i < kept->refusals->len; i++)
    kept_refusals += g_array_index (kept->refusals, HstRefusal, i).count;
  cr_assert_eq (kept_refusals, said, "%u refusals announced, %u kept", said, kept_refusals);
  if (commands != NULL)
    cr_assert_gt (said, 0, "the commands given are refused");
  announced_clear (&a);
  run_clear (&run);
}

Test (history_cli, a_katua_demo_is_kept)
{
  /* letting a beam through when nothing is aimed is refused (K6) */
  demo_game_is_kept ("katua", "winning_score=3", "@20 no-defence\n@40 no-defence\n");
}

Test (history_cli, a_catchy_demo_is_kept)
{
  demo_game_is_kept ("catchy", "winning_score=3", NULL);
}

Test (history_cli, a_kittens_demo_is_kept)
{
  demo_game_is_kept ("kittens", NULL, NULL);
}

/* The referee stopped mid-game (abandoned, kept so), then resumed from its
 * journal to the end: one game, finished, under the same id. */
Test (history_cli, a_resumed_game_is_one_game)
{
  g_autofree char *db = path_in_dir ("history.db");
  g_autofree char *journal = path_in_dir ("journal.rec");
  const char *first[] = { "watch", "--source", "demo", "--record", journal, "--frames", "60", "--option",
                          "winning_score=3", NULL };
  Run a = cli (db, NULL, first);
  cr_assert_eq (a.exit_code, 0, "%s", a.err);
  Announced said = read_watch (a.out);
  cr_assert_null (said.winners, "stopped before the end");
  cr_assert_gt (said.history_id, 0, "an abandoned game is kept: %s", a.out);
  {
    g_autoptr (HstStore) store = open_db (db);
    g_autoptr (HstGame) abandoned = hst_store_get_game (store, said.history_id, NULL);
    cr_assert_not_null (abandoned);
    cr_assert_not (abandoned->finished);
    cr_assert_gt (abandoned->n_moves, 0);
  }
  const char *second[] = { "watch", "--source", "demo", "--resume", journal, NULL };
  Run b = cli (db, NULL, second);
  cr_assert_eq (b.exit_code, 0, "%s", b.err);
  Announced resumed = read_watch (b.out);
  cr_assert_not_null (resumed.winners);
  cr_assert_eq (resumed.history_id, said.history_id, "the same game");
  cr_assert_not_null (strstr (b.out, "\"result\":\"replaced\""), "%s", b.out);
  g_autoptr (HstStore) store = open_db (db);
  guint total = 0;
  g_autoptr (GPtrArray) games = hst_store_list (store, NULL, &total, NULL);
  cr_assert_eq (total, 1);
  cr_assert (((HstGame *) games->pdata[0])->finished);
  announced_clear (&said);
  announced_clear (&resumed);
  run_clear (&a);
  run_clear (&b);
}

/* A history file of random bytes: the game is refereed to its end as if
 * nothing happened, the file is set aside with a message naming it, and
 * the game is kept in a fresh history. */
Test (history_cli, a_damaged_history_is_set_aside_and_play_goes_on)
{
  g_autofree char *db = path_in_dir ("history.db");
  char bytes[4096];
  for (size_t i = 0; i < sizeof bytes; i++)
    bytes[i] = (char) (i * 7919 % 251);
  cr_assert (g_file_set_contents (db, bytes, sizeof bytes, NULL));
  const char *args[] = { "watch", "--source", "demo", "--option", "winning_score=3", NULL };
  Run run = cli (db, NULL, args);
  cr_assert_eq (run.exit_code, 0, "%s", run.err);
  Announced a = read_watch (run.out);
  cr_assert_str_eq (a.winners, "Ana");
  cr_assert_gt (a.history_id, 0);
  cr_assert_not_null (strstr (run.out, "moved to"), "%s", run.out);
  cr_assert_not_null (strstr (run.out, db), "the message names the file");
  g_autoptr (HstStore) store = open_db (db);
  guint total = 0;
  g_autoptr (GPtrArray) games = hst_store_list (store, NULL, &total, NULL);
  cr_assert_eq (total, 1);
  announced_clear (&a);
  run_clear (&run);
}

static char *
demo_record (const char *name)
{
  g_autofree char *rel = g_build_filename ("games", name, NULL);
  char *path = eng_data_path (rel);
  char *copy = g_strdup (path);
  free (path);
  return copy;
}

static guint
count_games (const char *db)
{
  g_autoptr (HstStore) store = open_db (db);
  guint total = 0;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) games = hst_store_list (store, NULL, &total, &error);
  cr_assert_not_null (games, "%s", error ? error->message : "?");
  return total;
}

/* tablero-cli kills itself before each statement of writing a game in
 * turn (BEGIN first, COMMIT last): each kill leaves the history whole,
 * without the game, until the write that is let finish. */
Test (history_cli, a_kill_inside_the_write_leaves_no_half_game)
{
  g_autofree char *db = path_in_dir ("history.db");
  g_autofree char *first = demo_record ("demo-katua.rec");
  g_autofree char *second = demo_record ("katua-4p.rec");
  const char *import_first[] = { "history", "import", first, NULL };
  Run ok = cli (db, NULL, import_first);
  cr_assert_eq (ok.exit_code, 0, "%s", ok.err);
  run_clear (&ok);
  const char *import_second[] = { "history", "import", second, NULL };
  guint kills = 0;
  for (int step = 1; step < 500; step++)
    {
      g_autofree char *at = g_strdup_printf ("TABLERO_HISTORY_TEST_KILL_AT=%d", step);
      const char *env[] = { at, NULL };
      Run run = cli (db, env, import_second);
      if (run.exit_code == 0)
        {
          run_clear (&run);
          break;
        }
      cr_assert_eq (run.exit_code, 128 + SIGKILL, "step %d: %s", step, run.err);
      kills++;
      run_clear (&run);
      /* the history opens as it is (nothing to set aside) with the first game only */
      g_autoptr (GError) error = NULL;
      g_autofree char *notice = NULL;
      g_autoptr (HstStore) store = hst_store_open (db, &notice, &error);
      cr_assert_not_null (store, "%s", error ? error->message : "?");
      cr_assert_null (notice, "after a kill at step %d: %s", step, notice);
      guint total = 0;
      g_autoptr (GPtrArray) games = hst_store_list (store, NULL, &total, &error);
      cr_assert_eq (total, 1, "a kill at step %d left %u games", step, total);
      g_auto (GStrv) names = hst_store_player_names (store, &error);
      cr_assert_eq (g_strv_length (names), 2, "a kill at step %d left a player of the unwritten game", step);
    }
  cr_assert_gt (kills, 20, "a game takes many statements: %u kills", kills);
  cr_assert_eq (count_games (db), 2, "the write let finish is kept");
}

/* A record of a short Katua game with its own id, one per writer and index. */
static char *
write_record (const char *writer, int i)
{
  g_autofree char *name = g_strdup_printf ("%s-%d.rec", writer, i);
  char *path = path_in_dir (name);
  g_autofree char *text = g_strdup_printf ("game katua\nplayer %s\nplayer Núria\n@id %s-%d\n%s pass\nNúria pass\n",
                                           writer, writer, i, writer);
  cr_assert (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* The window and tablero-cli writing at once: a writer in this process
 * (as the window's) and two tablero-cli imports, all at the same time,
 * lose nothing. */
Test (history_cli, writers_at_once_lose_nothing)
{
  enum { N = 25 };
  g_autofree char *db = path_in_dir ("history.db");
  g_autoptr (HstStore) window = open_db (db);
  GPtrArray *cli_args[2];
  const char *writers[] = { "Cai", "Dan" };
  for (int w = 0; w < 2; w++)
    {
      cli_args[w] = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (cli_args[w], g_strdup ("history"));
      g_ptr_array_add (cli_args[w], g_strdup ("import"));
      for (int i = 0; i < N; i++)
        g_ptr_array_add (cli_args[w], write_record (writers[w], i));
      g_ptr_array_add (cli_args[w], NULL);
    }
  GSubprocess *procs[2];
  for (int w = 0; w < 2; w++)
    procs[w] = spawn (db, NULL, (const char *const *) cli_args[w]->pdata);
  for (int i = 0; i < N; i++)
    {
      g_autofree char *text = g_strdup_printf ("game katua\nplayer Ana\nplayer Bea\n@id window-%d\nAna pass\n", i);
      g_autoptr (GError) error = NULL;
      cr_assert (hst_import_text (window, text, strlen (text), "window", 1000 + i, NULL, &error), "%s",
                 error ? error->message : "?");
    }
  for (int w = 0; w < 2; w++)
    {
      Run run = finish (procs[w]);
      cr_assert_eq (run.exit_code, 0, "%s", run.err);
      guint added = 0;
      for (const char *p = run.out; (p = strstr (p, "\"result\":\"added\"")) != NULL; p++)
        added++;
      cr_assert_eq (added, N);
      run_clear (&run);
      g_ptr_array_unref (cli_args[w]);
    }
  cr_assert_eq (count_games (db), 3 * N);
}

Test (history_cli, commands_say_what_and_where)
{
  g_autofree char *db = path_in_dir ("history.db");
  g_autofree char *missing = path_in_dir ("no-such.rec");
  const char *import_missing[] = { "history", "import", missing, NULL };
  Run run = cli (db, NULL, import_missing);
  cr_assert_eq (run.exit_code, 2);
  cr_assert_not_null (strstr (run.err, missing), "%s", run.err);
  run_clear (&run);
  g_autofree char *bad = path_in_dir ("bad.rec");
  cr_assert (g_file_set_contents (bad, "game katua\nplayer Ana\nplayer Bea\nAna fly\n", -1, NULL));
  const char *import_bad[] = { "history", "import", bad, NULL };
  run = cli (db, NULL, import_bad);
  cr_assert_eq (run.exit_code, 2);
  cr_assert_not_null (strstr (run.err, "bad.rec"), "%s", run.err);
  cr_assert_not_null (strstr (run.err, ":4:"), "the line: %s", run.err);
  run_clear (&run);
  const char *show_last[] = { "history", "show", "--last", NULL };
  run = cli (db, NULL, show_last);
  cr_assert_eq (run.exit_code, 2);
  cr_assert_not_null (strstr (run.err, db), "%s", run.err);
  run_clear (&run);
  g_autofree char *rec = demo_record ("katua-4p.rec");
  const char *import_ok[] = { "history", "import", rec, NULL };
  run = cli (db, NULL, import_ok);
  cr_assert_eq (run.exit_code, 0, "%s", run.err);
  run_clear (&run);
  const char *forget_nobody[] = { "history", "forget", "--player", "Zoë", NULL };
  run = cli (db, NULL, forget_nobody);
  cr_assert_eq (run.exit_code, 2);
  cr_assert_not_null (strstr (run.err, "Zoë"), "%s", run.err);
  run_clear (&run);
  const char *forget_dan[] = { "history", "forget", "--player", "Dan", NULL };
  run = cli (db, NULL, forget_dan);
  cr_assert_eq (run.exit_code, 0, "%s", run.err);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o = parse_object (parser, run.out);
  cr_assert_str_eq (json_object_get_string_member (o, "forgot"), "player");
  cr_assert_eq (json_object_get_int_member (o, "games"), 1);
  cr_assert_not_null (strstr (json_object_get_string_member (o, "text"), "Dan"));
  run_clear (&run);
  cr_assert_eq (count_games (db), 0);
}

/* export --format bgstats, import into another history, export again:
 * the same file. */
Test (history_cli, the_export_round_trips)
{
  g_autofree char *a = path_in_dir ("a.db");
  g_autofree char *b = path_in_dir ("b.db");
  g_autofree char *first = path_in_dir ("first.json");
  g_autofree char *second = path_in_dir ("second.json");
  const char *records[] = { "demo-katua.rec", "demo-catchy.rec", "katua-3p.rec", "katua-4p.rec" };
  for (size_t i = 0; i < G_N_ELEMENTS (records); i++)
    {
      g_autofree char *rec = demo_record (records[i]);
      const char *import[] = { "history", "import", rec, NULL };
      Run run = cli (a, NULL, import);
      cr_assert_eq (run.exit_code, 0, "%s", run.err);
      run_clear (&run);
    }
  const char *export_a[] = { "history", "export", "--format", "bgstats", "-o", first, NULL };
  Run run = cli (a, NULL, export_a);
  cr_assert_eq (run.exit_code, 0, "%s", run.err);
  run_clear (&run);
  const char *import_b[] = { "history", "import", first, NULL };
  run = cli (b, NULL, import_b);
  cr_assert_eq (run.exit_code, 0, "%s", run.err);
  run_clear (&run);
  const char *export_b[] = { "history", "export", "--format", "bgstats", "-o", second, NULL };
  run = cli (b, NULL, export_b);
  cr_assert_eq (run.exit_code, 0, "%s", run.err);
  run_clear (&run);
  g_autofree char *one = NULL, *two = NULL;
  cr_assert (g_file_get_contents (first, &one, NULL, NULL));
  cr_assert (g_file_get_contents (second, &two, NULL, NULL));
  cr_assert_str_eq (two, one);
  cr_assert_not_null (strstr (one, "\"playerScores\""));
}

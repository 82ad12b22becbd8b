/* tablero-cli watch as a headless referee a table can talk to: commands on
 * standard input (held until a frame with '@N'), rule options and seat
 * markers on the command line, and clear refusals of bad arguments. */
#include <criterion/criterion.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eng-printing.h"

typedef struct {
  int exit_code;
  char *out;
  char *err;
} Run;

/* tablero-cli `verb` ARGS with `env` (NAME=VALUE..., NULL-terminated; may
 * be NULL) added to the environment. */
static Run
run_cli (const char *verb, const char *input, const char *const *args, const char *const *env)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) getenv ("TABLERO_CLI"));
  g_ptr_array_add (argv, (char *) verb);
  for (const char *const *a = args; *a; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  GError *error = NULL;
  g_autoptr (GSubprocessLauncher) launcher
    = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                 | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  for (const char *const *e = env; e != NULL && *e != NULL; e++)
    {
      g_auto (GStrv) pair = g_strsplit (*e, "=", 2);
      g_subprocess_launcher_setenv (launcher, pair[0], pair[1], TRUE);
    }
  GSubprocess *proc = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata,
                                                    &error);
  g_ptr_array_free (argv, TRUE);
  cr_assert_not_null (proc, "spawn: %s", error ? error->message : "?");
  Run run = { -1, NULL, NULL };
  cr_assert (g_subprocess_communicate_utf8 (proc, input, NULL, &run.out, &run.err, &error),
             "communicate: %s", error ? error->message : "?");
  run.exit_code = g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc) : 128;
  g_object_unref (proc);
  return run;
}

static Run
watch (const char *input, const char *const *args)
{
  return run_cli ("watch", input, args, NULL);
}

static void
run_clear (Run *run)
{
  g_free (run->out);
  g_free (run->err);
}

/* The frame number of the "frame" line just before the first line holding
 * `needle`, or -1 when `needle` is absent. */
static long
frame_of (const char *out, const char *needle)
{
  long frame = -1;
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  for (char **l = lines; *l; l++)
    {
      const char *f = strstr (*l, "\"kind\":\"frame\",\"frame\":");
      if (f != NULL)
        frame = strtol (f + strlen ("\"kind\":\"frame\",\"frame\":"), NULL, 10);
      else if (strstr (*l, needle) != NULL)
        return frame;
    }
  return -1;
}

Test (watch, commands_from_stdin_wait_for_their_frame)
{
  const char *args[] = { "--source", "demo", "--frames", "24", "--commands", NULL };
  Run run = watch ("@6 pause\n"
                   "# a comment, then a blank line\n\n"
                   "@8 choose Zed\n"
                   "bogus\n"
                   "@20 pause", args);
  cr_expect_eq (run.exit_code, 0, "%s", run.err);
  cr_expect_eq (frame_of (run.out, "Referee paused"), 6, "%s", run.out);
  cr_expect_eq (frame_of (run.out, "Referee resumed"), 20, "%s", run.out);
  cr_expect_not_null (strstr (run.err, "'choose Zed': no such player"), "%s", run.err);
  cr_expect_not_null (strstr (run.err, "'bogus': no such command"), "%s", run.err);
  run_clear (&run);
}

Test (watch, without_commands_stdin_is_not_read)
{
  const char *args[] = { "--source", "demo", "--frames", "12", NULL };
  Run run = watch ("pause\n", args);
  cr_expect_eq (run.exit_code, 0, "%s", run.err);
  cr_expect_null (strstr (run.out, "Referee paused"), "%s", run.out);
  run_clear (&run);
}

/* The demo's first capture gives Ana 3 points; with the target at 3 the
 * count at the end of her turn ends the game (K15), long before the demo's
 * own ending. */
Test (watch, rule_options_change_the_referee)
{
  const char *args[] = { "--source", "demo", "--frames", "150", "--option", "winning_score=3", NULL };
  Run run = watch ("", args);
  cr_expect_eq (run.exit_code, 0, "%s", run.err);
  cr_expect_not_null (strstr (run.out, "\"event\":\"game-over\""), "%s", run.out);
  cr_expect_not_null (strstr (run.out, "Someone has 3 or more points"), "%s", run.out);
  cr_expect_not_null (strstr (run.out, "\"winners\":[\"Ana\"]"), "%s", run.out);
  run_clear (&run);
}

Test (watch, bad_arguments_are_refused_before_any_frame)
{
  const struct {
    const char *args[8];
    const char *message;
  } cases[] = {
    { { "--source", "demo", "--option", "winning_score", NULL }, "--option takes NAME=VALUE" },
    { { "--source", "demo", "--option", "winning_score=0", NULL }, "winning_score" },
    { { "--source", "demo", "--option", "no_such_switch=yes", NULL }, "no_such_switch" },
    { { "--source", "demo", "--seats", "1", NULL }, "one seat marker per player" },
    { { "--source", "demo", "--seats", "1,x", NULL }, "--seats takes a whole number from 1 to" },
    { { "--source", "demo", "--seats", "1,9", NULL }, "not '9'" },
    { { "--source", "demo", "--seats", "2,2", NULL }, "seat marker 2 to two players" },
    { { "--source", "demo", "--first", "Zed", NULL }, "--first names nobody" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Run run = watch ("", cases[i].args);
      cr_expect_eq (run.exit_code, 2, "case %zu: exit %d", i, run.exit_code);
      cr_expect_not_null (strstr (run.err, cases[i].message), "case %zu: %s", i, run.err);
      cr_expect_null (strstr (run.out, "\"kind\":\"frame\""), "case %zu refereed frames", i);
      run_clear (&run);
    }
}

/* The demo's first attack is made with UFO 71; the table says it is 47.
 * The attack is read again with 47, the correction is journaled at once,
 * and corrections the referee cannot take are refused and change nothing. */
Test (watch, a_misread_is_corrected_and_journaled)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-watch-XXXXXX", NULL);
  cr_assert_not_null (dir);
  g_autofree char *journal = g_build_filename (dir, "journal.rec", NULL);
  const char *args[] = { "--source", "demo", "--frames", "50", "--commands", "--record", journal,
                         NULL };
  Run run = watch ("@45 correct 71 47\n@46 correct 71 9999\n@47 correct 1 47\n", args);
  cr_expect_eq (run.exit_code, 0, "%s", run.err);
  cr_expect_eq (frame_of (run.out, "\"text\":\"Corrected"), 45, "%s", run.out);
  cr_expect_not_null (strstr (run.out, "\"text\":\"Ana attack 47 Bea 1\""), "%s", run.out);
  cr_expect_not_null (strstr (run.err, "'correct 71 9999': say 'correct SEEN ACTUAL|none'"), "%s",
                      run.err);
  cr_expect_not_null (strstr (run.err, "'correct 1 47': not two faces of the same deck"), "%s",
                      run.err);
  g_autofree char *text = NULL;
  cr_assert (g_file_get_contents (journal, &text, NULL, NULL));
  cr_expect_not_null (strstr (text, "@correct TB1K01F071P TB1K01F047G"), "%s", text);
  cr_expect_not_null (strstr (text, "Ana attack 47 Bea 1"), "%s", text);
  cr_expect_null (strstr (text, "Ana attack 71"), "%s", text);
  run_clear (&run);
  g_remove (journal);
  g_rmdir (dir);
}

/* The environment that makes the journal's folder `dir` fail as `mode`
 * says ("full": writes fail with ENOSPC; "read-only": files are not made),
 * for write attempts `from` to `from + count - 1` (count -1: all after),
 * through tests/app/journal-fault.c preloaded into tablero-cli. */
typedef struct {
  char *vars[7];
} FaultEnv;

static FaultEnv
fault_env (const char *dir, const char *mode, int from, int count)
{
  const char *asan = getenv ("ASAN_OPTIONS");
  FaultEnv f = { {
    g_strdup_printf ("LD_PRELOAD=%s", getenv ("TABLERO_JOURNAL_FAULT")),
    g_strdup_printf ("TABLERO_FAULT_DIR=%s", dir),
    g_strdup_printf ("TABLERO_FAULT=%s", mode),
    g_strdup_printf ("TABLERO_FAULT_FROM=%d", from),
    g_strdup_printf ("TABLERO_FAULT_COUNT=%d", count),
    /* under the sanitizers the shim comes before their runtime */
    g_strdup_printf ("ASAN_OPTIONS=%s%sverify_asan_link_order=0", asan ? asan : "",
                     asan ? ":" : ""),
    NULL } };
  cr_assert_not_null (getenv ("TABLERO_JOURNAL_FAULT"), "meson sets TABLERO_JOURNAL_FAULT");
  return f;
}

static void
fault_env_clear (FaultEnv *f)
{
  for (size_t i = 0; f->vars[i] != NULL; i++)
    g_free (f->vars[i]);
}

/* Journal first, for the first word too: a journal that cannot be written
 * before the game starts (its folder full, read-only or missing, or its
 * path a folder) is an error at once, exit 2, naming the file and why; no
 * frame is read and nothing is announced. */
Test (watch, a_journal_that_fails_before_the_game_is_an_error_at_once)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-watch-XXXXXX", NULL);
  cr_assert_not_null (dir);
  g_autofree char *journal = g_build_filename (dir, "journal.rec", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing", "journal.rec", NULL);
  g_autofree char *folder = g_build_filename (dir, "a-folder", NULL);
  cr_assert_eq (g_mkdir (folder, 0700), 0);
  struct {
    const char *what, *path, *mode, *reason;
  } cases[] = {
    { "full", journal, "full", "No space left" },
    { "read-only", journal, "read-only", "Read-only" },
    { "missing", missing, NULL, "No such file" },
    { "a directory", folder, NULL, "directory" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "--source", "demo", "--frames", "60", "--record", cases[i].path, NULL };
      FaultEnv env = fault_env (dir, cases[i].mode ? cases[i].mode : "none", 1, -1);
      Run run = run_cli ("watch", NULL, args, cases[i].mode ? (const char *const *) env.vars : NULL);
      fault_env_clear (&env);
      cr_expect_eq (run.exit_code, 2, "%s: exit %d\n%s", cases[i].what, run.exit_code, run.err);
      cr_expect_null (strstr (run.out, "\"event\""), "%s: announced before the journal was "
                      "written:\n%s", cases[i].what, run.out);
      cr_expect_null (strstr (run.out, "\"kind\":\"frame\""), "%s: frames read:\n%s",
                      cases[i].what, run.out);
      cr_expect_not_null (strstr (run.err, cases[i].path), "%s: where: %s", cases[i].what, run.err);
      cr_expect_not_null (strstr (run.err, cases[i].reason), "%s: why: %s", cases[i].what,
                          run.err);
      run_clear (&run);
      cr_expect_not (g_file_test (journal, G_FILE_TEST_EXISTS), "%s", cases[i].what);
    }
  /* nothing left behind: no temporary file of a failed write */
  GDir *d = g_dir_open (dir, 0, NULL);
  for (const char *name; (name = g_dir_read_name (d)) != NULL;)
    cr_expect (strcmp (name, "a-folder") == 0, "left behind: %s", name);
  g_dir_close (d);
  g_rmdir (folder);
  g_rmdir (dir);
}

/* The moves of the JSON lines `out`, in order, one a line. */

/* `record` without its "@id" line (docs/record-format.md), in place. */
static void
drop_id_line (char *record)
{
  char *line = strstr (record, "\n@id ");
  if (line == NULL)
    return;
  char *end = strchr (line + 1, '\n');
  if (end == NULL)
    *line = '\0';
  else
    memmove (line, end, strlen (end) + 1);
}

static char *
accepted_moves (const char *out)
{
  GString *moves = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  for (char **l = lines; *l; l++)
    {
      const char *a = strstr (*l, "\"event\":\"accepted\"");
      const char *t = a != NULL ? strstr (a, "\"text\":\"") : NULL;
      if (t != NULL)
        g_string_append_printf (moves, "%.*s\n", (int) strcspn (t + 8, "\""), t + 8);
    }
  return g_string_free (moves, FALSE);
}

/* Journal first during the game: a move that cannot be journaled is not
 * announced as done; the table is told the journal fails and play waits
 * (nothing is read and nothing announced after it).  When the disk is
 * freed the held moves come out in order, play goes on, and the exit
 * status is the end's: 0, the same game as a run whose disk never filled. */
Test (watch, a_move_that_cannot_be_journaled_waits_and_the_end_decides_the_status)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-watch-XXXXXX", NULL);
  cr_assert_not_null (dir);
  g_autofree char *journal = g_build_filename (dir, "journal.rec", NULL);
  const char *args[] = { "--source", "demo", "--frames", "150", "--record", journal, NULL };
  Run clean = watch (NULL, args);
  cr_assert_eq (clean.exit_code, 0, "%s", clean.err);
  g_autofree char *want = accepted_moves (clean.out);
  cr_assert_gt (strlen (want), 0, "the demo makes moves in 150 frames");
  g_autofree char *want_journal = NULL;
  cr_assert (g_file_get_contents (journal, &want_journal, NULL, NULL));
  g_remove (journal);

  /* full from the third write on, for good: exit 2, no move announced */
  FaultEnv env = fault_env (dir, "full", 3, -1);
  Run full = run_cli ("watch", NULL, args, (const char *const *) env.vars);
  fault_env_clear (&env);
  cr_expect_eq (full.exit_code, 2, "%s", full.err);
  cr_expect_not_null (strstr (full.out, "\"kind\":\"journal\",\"ok\":false"), "%s", full.out);
  cr_expect_null (strstr (full.out, "\"event\":\"accepted\""), "announced unjournaled: %s",
                  full.out);
  /* said once on stderr, not at every retry */
  const char *first = strstr (full.err, "cannot write");
  cr_assert_not_null (first, "%s", full.err);
  cr_expect_null (strstr (first + 1, "cannot write"), "%s", full.err);
  run_clear (&full);
  g_remove (journal);

  /* full for writes 3 to 6, then freed: play on, exit 0, the same game */
  env = fault_env (dir, "full", 3, 4);
  Run freed = run_cli ("watch", NULL, args, (const char *const *) env.vars);
  fault_env_clear (&env);
  cr_expect_eq (freed.exit_code, 0, "the status says how the journal ends: %s", freed.err);
  const char *failed = strstr (freed.out, "\"kind\":\"journal\",\"ok\":false");
  const char *again = strstr (freed.out, "\"kind\":\"journal\",\"ok\":true");
  cr_assert_not_null (failed, "%s", freed.out);
  cr_assert_not_null (again, "%s", freed.out);
  const char *move = strstr (freed.out, "\"event\":\"accepted\"");
  cr_expect (move == NULL || move > again, "a move announced while the journal failed:\n%s",
             freed.out);
  g_autofree char *got = accepted_moves (freed.out);
  cr_expect_str_eq (got, want, "the same moves as a run whose disk never filled");
  g_autofree char *got_journal = NULL;
  cr_assert (g_file_get_contents (journal, &got_journal, NULL, NULL));
  g_autofree char *want_moves = g_strdup (want_journal), *got_moves = g_strdup (got_journal);
  /* the moves of the journal, without the table notes and the game's
   * identity (each run is a game of its own in the history) */
  *strstr (want_moves, "\n@table") = '\0';
  *strstr (got_moves, "\n@table") = '\0';
  drop_id_line (want_moves);
  drop_id_line (got_moves);
  cr_expect_str_eq (got_moves, want_moves);
  run_clear (&freed);
  run_clear (&clean);
  g_remove (journal);
  g_rmdir (dir);
}

/* A write killed half way leaves its temporary file beside the journal
 * (journal.rec.XXXXXX): the next start removes it, new game or resumed. */
Test (watch, temporary_files_of_a_killed_write_are_removed_at_the_next_start)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-watch-XXXXXX", NULL);
  cr_assert_not_null (dir);
  g_autofree char *journal = g_build_filename (dir, "journal.rec", NULL);
  g_autofree char *left = g_build_filename (dir, "journal.rec.Xy12Ab", NULL);
  g_autofree char *other = g_build_filename (dir, "journal.rec.notes", NULL);
  const char *fresh[] = { "--source", "demo", "--frames", "20", "--record", journal, NULL };
  const char *resumed[] = { "--source", "demo", "--frames", "20", "--resume", journal, NULL };
  const char *const *runs[] = { fresh, resumed };
  cr_assert (g_file_set_contents (other, "not ours", -1, NULL));
  for (size_t i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      cr_assert (g_file_set_contents (left, "game katua\nplay", -1, NULL));
      Run run = watch (NULL, runs[i]);
      cr_expect_eq (run.exit_code, 0, "%s", run.err);
      cr_expect_not (g_file_test (left, G_FILE_TEST_EXISTS), "run %zu left %s", i, left);
      cr_expect (g_file_test (other, G_FILE_TEST_EXISTS), "a file of another name is kept");
      run_clear (&run);
    }
  g_remove (other);
  g_remove (journal);
  g_rmdir (dir);
}

/* Names as people write them, and names that are words of the record: the
 * journal watch writes resumes and replays. */
Test (watch, a_table_of_any_names_is_journaled_resumed_and_replayed, .timeout = 480)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-watch-XXXXXX", NULL);
  cr_assert_not_null (dir);
  g_autofree char *journal = g_build_filename (dir, "journal.rec", NULL);
  const char *tables[] = { "Àngel,Núria", "李雷,Zoë", "سارة,עמית", "game,player", "first,end",
                           "attack,option", "Mari Carmen,José Luis", "Game Over, Bea" };
  for (size_t i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      const char *start[] = { "--source", "demo", "--frames", "25", "--players", tables[i],
                              "--record", journal, NULL };
      const char *go_on[] = { "--source", "demo", "--frames", "25", "--resume", journal, NULL };
      const char *replay[] = { journal, NULL };
      Run a = watch (NULL, start);
      cr_expect_eq (a.exit_code, 0, "%s: %s", tables[i], a.err);
      Run b = watch (NULL, go_on);
      cr_expect_eq (b.exit_code, 0, "%s resumed: %s", tables[i], b.err);
      cr_expect_not_null (strstr (b.out, "resumed"), "%s: %s", tables[i], b.out);
      Run c = run_cli ("replay", NULL, replay, NULL);
      cr_expect_eq (c.exit_code, 0, "%s replayed: %s\n%s", tables[i], c.err, c.out);
      g_auto (GStrv) names = g_strsplit (tables[i], ",", 2);
      g_autofree char *named = g_strdup_printf ("\"player\":\"%s\"", names[0]);
      cr_expect_not_null (strstr (c.out, named), "%s: %s", tables[i], c.out);
      run_clear (&a);
      run_clear (&b);
      run_clear (&c);
      g_remove (journal);
    }
  /* what no record can hold is refused at once, naming it and saying why */
  const struct { const char *players, *named, *why; } refused[] = {
    { "Ana  María,Bea", "Ana  María", "between two words" },
    { "Leo🦁,Bea", "Leo🦁", "only letters" },
    { "🐱,Bea", "🐱", "starts with a letter" },
    { "Ana,Bea \"B\"", "Bea \"B\"", "only letters" },
    { "Ana,Zoë\"", "Zoë\"", "only letters" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      const char *bad[] = { "--source", "demo", "--frames", "5", "--players",
                            refused[i].players, "--record", journal, NULL };
      Run r = watch (NULL, bad);
      cr_expect_eq (r.exit_code, 2, "%s", refused[i].players);
      cr_expect_not_null (strstr (r.err, refused[i].named), "%s: %s", refused[i].players, r.err);
      cr_expect_not_null (strstr (r.err, refused[i].why), "%s: %s", refused[i].players, r.err);
      cr_expect_not (g_file_test (journal, G_FILE_TEST_EXISTS), "%s", refused[i].players);
      run_clear (&r);
    }
  g_rmdir (dir);
}

/* A recorded table with a forged second anchor 2 (taken away at 0.5 s) and
 * one frame gone from the folder: the doubled anchor is said and not used
 * (no calibration until the copy is gone), and the missing frame is skipped
 * and said while the game goes on with the frames after it. */
Test (watch, doubled_anchor_said_and_missing_frame_skipped, .timeout = 120)
{
  static const char scene[] =
    "image width=1280 height=720 fps=5 duration=1.2 seed=9 format=png\n"
    "camera height=800 tilt=0 fov=62\n"
    "table width=900 height=560\n"
    "tags game=K set=01\n"
    "sticker size=40 quiet=2\n"
    "anchor a1 number=1 at=60,60\n"
    "anchor a2 number=2 at=840,60\n"
    "anchor a3 number=3 at=840,500\n"
    "anchor a4 number=4 at=60,500\n"
    "anchor forged number=2 at=600,300\n"
    "seat s1 number=1 at=450,500\n"
    "seat s2 number=2 at=450,60 rot=180\n"
    "at 0.5 remove forged\n";
  g_autofree char *dir = g_dir_make_tmp ("tablero-watch-XXXXXX", NULL);
  cr_assert_not_null (dir);
  g_autofree char *scene_path = g_build_filename (dir, "doubled.scene", NULL);
  g_autofree char *frames = g_build_filename (dir, "frames", NULL);
  cr_assert (g_file_set_contents (scene_path, scene, -1, NULL));
  const char *render[] = { getenv ("TABLERO_CLI"), "render", scene_path, "-o", frames, NULL };
  int status = -1;
  cr_assert (g_spawn_sync (NULL, (char **) render, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                           NULL, NULL, NULL, NULL, &status, NULL));
  cr_assert (g_spawn_check_wait_status (status, NULL), "render failed");
  /* frame 3 of 6 (t = 0.6 s, after the copy is gone) listed but gone: a
   * link to nothing, as a file deleted after the folder was read */
  g_autofree char *gone = g_build_filename (frames, "frame-00003.png", NULL);
  cr_assert_eq (g_unlink (gone), 0);
  cr_assert_eq (symlink ("deleted.png", gone), 0);
  g_autofree char *spec = g_strdup_printf ("file:%s", frames);
  const char *args[] = { "--source", spec, "--fps", "5", NULL };
  Run run = watch ("", args);
  GDir *d = g_dir_open (frames, 0, NULL);
  for (const char *name; d != NULL && (name = g_dir_read_name (d)) != NULL;)
    {
      g_autofree char *p = g_build_filename (frames, name, NULL);
      g_unlink (p);
    }
  if (d != NULL)
    g_dir_close (d);
  g_rmdir (frames);
  g_unlink (scene_path);
  g_rmdir (dir);

  cr_expect_not_null (strstr (run.out, "anchor 2 seen twice"), "%s", run.out);
  cr_expect_not_null (strstr (run.out, "no doubled sticker in view any more"), "%s", run.out);
  const char *doubled = strstr (run.out, "anchor 2 seen twice");
  const char *calibrated = strstr (run.out, "table calibrated from the anchors");
  cr_expect (doubled != NULL && calibrated != NULL && doubled < calibrated,
             "no calibration while the anchor is doubled:\n%s", run.out);
  cr_expect_not_null (strstr (run.err, "frame-00003.png"), "the gap is said: %s", run.err);
  cr_expect_not_null (strstr (run.err, "skipped"), "%s", run.err);
  /* 5 frames played of 6: the frames after the gap were refereed. */
  cr_expect_not_null (strstr (run.out, "\"event\":\"need\""), "the game went on:\n%s", run.out);
  cr_expect_eq (run.exit_code, 2, "a skipped frame is reported in the exit status: %s", run.err);
  run_clear (&run);
}

/* A line typed at the table is quoted back escaped, never as an escape. */
Test (watch, command_errors_never_echo_control_bytes)
{
  const char *args[] = { "--source", "demo", "--frames", "3", "--commands", NULL };
  Run run = watch ("bo\x1b[31mgus\nchoose Z\x1b]0;t\x07\n", args);
  cr_expect_eq (run.exit_code, 0, "%s", run.err);
  for (const unsigned char *p = (const unsigned char *) run.err; *p; p++)
    cr_assert (*p >= 0x20 || *p == '\n', "control byte 0x%02x in:\n%s", *p, run.err);
  cr_expect_not_null (strstr (run.err, "'bo\\x1b[31mgus': no such command"), "%s", run.err);
  cr_expect_not_null (strstr (run.err, "'choose Z\\x1b]0;t\\x07': no such player"), "%s", run.err);
  run_clear (&run);
}

/* A journal of another game or table than the one asked for is refused
 * with what differs, exit 2; without --game and --players it goes on. */
Test (watch, a_journal_of_another_game_or_table_is_refused)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-watch-XXXXXX", NULL);
  cr_assert_not_null (dir);
  g_autofree char *journal = g_build_filename (dir, "journal.rec", NULL);
  cr_assert (g_file_set_contents (journal, "game katua\nplayer José seat 1\nplayer María seat 2\n"
                                           "first José\nJosé pass\n", -1, NULL));
  const char *other_game[] = { "--source", "demo", "--frames", "1", "--resume", journal,
                               "--game", "catchy", NULL };
  Run run = watch (NULL, other_game);
  cr_expect_eq (run.exit_code, 2, "%s", run.err);
  cr_expect_not_null (strstr (run.err, "is a game of katua for José,María, not the catchy"),
                      "%s", run.err);
  run_clear (&run);
  const char *other_table[] = { "--source", "demo", "--frames", "1", "--resume", journal,
                                "--players", "Ana,Bea", NULL };
  run = watch (NULL, other_table);
  cr_expect_eq (run.exit_code, 2, "%s", run.err);
  cr_expect_not_null (strstr (run.err, "not the katua for Ana,Bea"), "%s", run.err);
  run_clear (&run);
  const char *same[] = { "--source", "demo", "--frames", "1", "--resume", journal,
                         "--players", "josé,MARÍA", NULL };
  run = watch (NULL, same);
  cr_expect_null (strstr (run.err, "is a game of"), "names differ only by case: %s", run.err);
  cr_expect_not_null (strstr (run.out, "resumed 1 moves"), "%s", run.out);
  run_clear (&run);
  g_remove (journal);
  g_rmdir (dir);
}

/* The live referee and stickers that are not the table's: a forgery of a
 * card that lies on the table (a valid tag, a seal the table's key did not
 * make), a forgery of a card that is not there, and an old unsealed sticker
 * are never refereed as cards, and each kind is said once.  The table's key
 * is one this test writes, so it can forge a near miss of the real seal. */
Test (watch, forged_and_old_stickers_are_never_cards, .timeout = 180)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-watch-XXXXXX", NULL);
  cr_assert_not_null (dir);
  g_autofree char *keys = g_build_filename (dir, "tablero", NULL);
  cr_assert_eq (g_mkdir_with_parents (keys, 0700), 0);
  uint8_t key[ENG_PRINTING_KEY_LEN];
  GString *hex = g_string_new (NULL);
  for (size_t i = 0; i < sizeof key; i++)
    {
      key[i] = (uint8_t) (0xa5 ^ (i * 13));
      g_string_append_printf (hex, "%02x", key[i]);
    }
  g_autofree char *ini = g_build_filename (keys, "printings.ini", NULL);
  g_autofree char *ini_text = g_strdup_printf ("[K01]\nkey=%s\ncreated=2026-01-01T00:00:00Z\n", hex->str);
  g_string_free (hex, TRUE);
  cr_assert (g_file_set_contents (ini, ini_text, -1, NULL));
  g_setenv ("XDG_DATA_HOME", dir, TRUE);

  /* card 1's seal and card 50's, each one character off */
  char seal1[ENG_SEAL_LEN + 1], seal50[ENG_SEAL_LEN + 1];
  cr_assert_eq (eng_seal_compute (key, sizeof key, "TB1K01F001W", seal1), ENG_OK);
  cr_assert_eq (eng_seal_compute (key, sizeof key, "TB1K01F050T", seal50), ENG_OK);
  seal1[3] = seal1[3] == 'K' ? 'L' : 'K';
  seal50[0] = seal50[0] == '0' ? '1' : '0';
  g_autofree char *scene = g_strdup_printf (
    "image width=1280 height=720 fps=5 duration=1.2 seed=9 format=png\n"
    "camera height=800 tilt=0 fov=62\n"
    "table width=900 height=560\n"
    "tags game=K set=01\n"
    "sticker size=40 quiet=2\n"
    "anchor a1 number=1 at=60,60\n"
    "anchor a2 number=2 at=840,60\n"
    "anchor a3 number=3 at=840,500\n"
    "anchor a4 number=4 at=60,500\n"
    "seat s1 number=1 at=450,500\n"
    "seat s2 number=2 at=450,60 rot=180\n"
    "card c1 face=1 back=1 at=250,380\n"
    "foreign same text=\"TB1K01F001W%s\" at=600,250 size=40\n"
    "foreign absent text=\"TB1K01F050T%s\" at=700,380 size=40\n"
    "foreign old text=\"TB1K01F003S\" at=300,220 size=40\n",
    seal1, seal50);
  g_autofree char *scene_path = g_build_filename (dir, "forged.scene", NULL);
  g_autofree char *frames = g_build_filename (dir, "frames", NULL);
  cr_assert (g_file_set_contents (scene_path, scene, -1, NULL));
  const char *render[] = { getenv ("TABLERO_CLI"), "render", scene_path, "-o", frames, NULL };
  int status = -1;
  cr_assert (g_spawn_sync (NULL, (char **) render, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                           NULL, NULL, NULL, NULL, &status, NULL));
  cr_assert (g_spawn_check_wait_status (status, NULL), "render failed");
  g_autofree char *spec = g_strdup_printf ("file:%s", frames);
  const char *args[] = { "--source", spec, "--fps", "5", NULL };
  Run run = watch ("", args);
  GDir *d = g_dir_open (frames, 0, NULL);
  for (const char *name; d != NULL && (name = g_dir_read_name (d)) != NULL;)
    {
      g_autofree char *p = g_build_filename (frames, name, NULL);
      g_unlink (p);
    }
  if (d != NULL)
    g_dir_close (d);
  g_rmdir (frames);
  g_unlink (scene_path);
  g_unlink (ini);
  g_autofree char *lock = g_strconcat (ini, ".lock", NULL);
  g_unlink (lock);
  g_rmdir (keys);
  g_rmdir (dir);

  cr_expect_not_null (strstr (run.out, "table calibrated from the anchors"), "%s\n%s", run.out, run.err);
  cr_expect_not_null (strstr (run.out, "printed in an older format"), "%s", run.out);
  cr_expect_not_null (strstr (run.out, "from another printing or made by hand"), "%s", run.out);
  /* each said once, not on every frame */
  const char *old = strstr (run.out, "printed in an older format");
  cr_expect (old == NULL || strstr (old + 1, "printed in an older format") == NULL, "%s", run.out);
  cr_expect_null (strstr (run.out, "TB1K01F050T"), "the forged card 50 was refereed:\n%s", run.out);
  cr_expect_null (strstr (run.out, seal1), "a sticker's seal reached the output:\n%s", run.out);
  run_clear (&run);
}

/* tablero-cli watch as a headless referee a table can talk to: commands on
 * standard input (held until a frame with '@N'), rule options and seat
 * markers on the command line, and clear refusals of bad arguments. */
#include <criterion/criterion.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int exit_code;
  char *out;
  char *err;
} Run;

static Run
watch (const char *input, const char *const *args)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) getenv ("TABLERO_CLI"));
  g_ptr_array_add (argv, (char *) "watch");
  for (const char *const *a = args; *a; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  GError *error = NULL;
  GSubprocess *proc = g_subprocess_newv ((const char *const *) argv->pdata,
                                         G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                           | G_SUBPROCESS_FLAGS_STDERR_PIPE,
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
  cr_expect_not_null (strstr (run.out, "someone has 3 or more points"), "%s", run.out);
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
    { { "--source", "demo", "--seats", "1,x", NULL }, "'x' is not a seat marker" },
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

/* Journal first: a move that cannot be journaled is not announced as done;
 * the table is told the journal fails and play waits (nothing is read and
 * nothing is announced after it). */
Test (watch, a_move_that_cannot_be_journaled_is_not_announced)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-watch-XXXXXX", NULL);
  cr_assert_not_null (dir);
  /* a folder that does not exist: every write fails */
  g_autofree char *journal = g_build_filename (dir, "missing", "journal.rec", NULL);
  const char *args[] = { "--source", "demo", "--frames", "120", "--record", journal, NULL };
  Run run = watch (NULL, args);
  cr_expect_eq (run.exit_code, 2, "%s", run.err);
  cr_expect_not_null (strstr (run.out, "\"kind\":\"journal\",\"ok\":false"), "%s", run.out);
  cr_expect_null (strstr (run.out, "\"event\":\"accepted\""), "announced unjournaled: %s",
                  run.out);
  /* said once on stderr, not at every retry */
  const char *first = strstr (run.err, "cannot write");
  cr_assert_not_null (first, "%s", run.err);
  cr_expect_null (strstr (first + 1, "cannot write"), "%s", run.err);
  run_clear (&run);
  g_rmdir (dir);
}

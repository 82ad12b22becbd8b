/* Crash and resume: the headless referee is killed (SIGKILL) in the middle of
 * a rendered game; started again with --resume on what the camera sees from
 * then on, it must finish with exactly the record of a run never killed. */
#include <criterion/criterion.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eng-record.h"

static char *tmp_dir;

static void
make_tmp (void)
{
  tmp_dir = g_dir_make_tmp ("tablero-resume-XXXXXX", NULL);
  cr_assert_not_null (tmp_dir);
}

static void
remove_tmp (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmp_dir);
  cr_expect_eq (system (cmd), 0);
  g_free (tmp_dir);
}

/* Runs tablero-cli with `args`, output to `out_path` (NULL: discarded). */
static int
run_cli (const char *const *args, const char *out_path)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) getenv ("TABLERO_CLI"));
  for (const char *const *a = args; *a; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  g_autofree char *out = NULL, *err = NULL;
  int status = -1;
  GError *error = NULL;
  gboolean ok = g_spawn_sync (NULL, (char **) argv->pdata, NULL, 0, NULL, NULL, &out, &err, &status, &error);
  g_ptr_array_free (argv, TRUE);
  cr_assert (ok, "spawn: %s", error ? error->message : "?");
  if (out_path != NULL)
    cr_assert (g_file_set_contents (out_path, out, -1, NULL));
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    cr_log_info ("tablero-cli %s: %s", args[0], err);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128;
}

static size_t
record_moves (const char *path)
{
  EngRecord *rec = NULL;
  if (eng_record_load_file (path, &rec, NULL) != ENG_OK)
    return 0;
  size_t n = rec->n_moves;
  eng_record_free (rec);
  return n;
}

/* The frame during which the `n`-th move was accepted, from watch's output
 * ("frame" lines come before the events of that frame). */
static long
frame_of_move (const char *jsonl_path, size_t n)
{
  g_autofree char *text = NULL;
  cr_assert (g_file_get_contents (jsonl_path, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  long frame = -1;
  size_t accepted = 0;
  for (char **l = lines; *l; l++)
    {
      const char *f = strstr (*l, "\"kind\":\"frame\",\"frame\":");
      if (f != NULL)
        frame = strtol (f + strlen ("\"kind\":\"frame\",\"frame\":"), NULL, 10);
      if (strstr (*l, "\"event\":\"accepted\"") != NULL && ++accepted == n)
        return frame;
    }
  return -1;
}

/* g_ptr_array_sort hands the comparator pointers to the elements. */
static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

Test (resume, killed_referee_resumes_to_the_same_game, .init = make_tmp, .fini = remove_tmp,
      .timeout = 900)
{
  g_autofree char *script = g_build_filename (getenv ("TABLERO_DATADIR"), "games", "demo-katua.script", NULL);
  g_autofree char *scene = g_build_filename (tmp_dir, "game.scene", NULL);
  g_autofree char *frames = g_build_filename (tmp_dir, "frames", NULL);
  const char *scene_args[] = { "scene", script, "-o", scene, "--fps", "5", "--degrade", "noise", NULL };
  cr_assert_eq (run_cli (scene_args, NULL), 0);
  const char *render_args[] = { "render", scene, "-o", frames, NULL };
  cr_assert_eq (run_cli (render_args, NULL), 0);
  g_autofree char *source = g_strdup_printf ("file:%s", frames);

  /* The run nobody kills: the reference. */
  g_autofree char *reference = g_build_filename (tmp_dir, "reference.record", NULL);
  g_autofree char *reference_out = g_build_filename (tmp_dir, "reference.jsonl", NULL);
  const char *ref_args[] = { "watch", "--source", source, "--fps", "5", "--record", reference, NULL };
  cr_assert_eq (run_cli (ref_args, reference_out), 0);
  size_t total = record_moves (reference);
  cr_assert_geq (total, 6, "the reference game is too short to cut: %zu moves", total);

  /* The same game, killed once its journal holds a few moves. */
  g_autofree char *journal = g_build_filename (tmp_dir, "journal.record", NULL);
  const char *argv[] = { getenv ("TABLERO_CLI"), "watch", "--source", source, "--fps", "5",
                         "--record", journal, NULL };
  GPid pid;
  cr_assert (g_spawn_async (NULL, (char **) argv, NULL,
                            G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                            NULL, NULL, &pid, NULL));
  size_t at_kill = 0;
  for (int waited = 0; waited < 600 * 50 && (at_kill = record_moves (journal)) < 3; waited++)
    g_usleep (20000);
  kill (pid, SIGKILL);
  int status;
  waitpid (pid, &status, 0);
  g_spawn_close_pid (pid);
  cr_assert (WIFSIGNALED (status), "the referee finished before it could be killed");
  at_kill = record_moves (journal);
  cr_assert_geq (at_kill, 3);
  cr_assert_lt (at_kill, total, "killed too late to prove anything");

  /* What the camera sees after the kill: the frames from the one after the
   * last journaled move on. */
  long cut = frame_of_move (reference_out, at_kill);
  cr_assert_geq (cut, 0);
  g_autofree char *rest = g_build_filename (tmp_dir, "rest", NULL);
  cr_assert_eq (g_mkdir (rest, 0700), 0);
  g_autoptr (GDir) dir = g_dir_open (frames, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  for (const char *name; (name = g_dir_read_name (dir)) != NULL;)
    if (g_str_has_prefix (name, "frame-"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = (guint) cut + 1; i < names->len; i++)
    {
      g_autofree char *target = g_build_filename (frames, names->pdata[i], NULL);
      g_autofree char *link = g_build_filename (rest, names->pdata[i], NULL);
      cr_assert_eq (symlink (target, link), 0);
    }
  g_ptr_array_free (names, TRUE);

  g_autofree char *rest_source = g_strdup_printf ("file:%s", rest);
  g_autofree char *resumed_out = g_build_filename (tmp_dir, "resumed.jsonl", NULL);
  const char *resume_args[] = { "watch", "--source", rest_source, "--fps", "5", "--resume", journal, NULL };
  cr_assert_eq (run_cli (resume_args, resumed_out), 0);

  EngRecord *expected = NULL, *got = NULL;
  cr_assert_eq (eng_record_load_file (reference, &expected, NULL), ENG_OK);
  cr_assert_eq (eng_record_load_file (journal, &got, NULL), ENG_OK);
  cr_expect (eng_record_equal (expected, got), "the resumed game differs: %zu moves against %zu",
             got->n_moves, expected->n_moves);
  eng_record_free (expected);
  eng_record_free (got);
}

Test (resume, unreadable_journal_is_refused_clearly, .init = make_tmp, .fini = remove_tmp)
{
  g_autofree char *journal = g_build_filename (tmp_dir, "journal.record", NULL);
  cr_assert (g_file_set_contents (journal, "game katua\nplayer Ana\nplayer Bea\nAna fly away\n", -1, NULL));
  const char *args[] = { "watch", "--source", "demo", "--resume", journal, "--frames", "1", NULL };
  cr_assert_eq (run_cli (args, NULL), 2);
  /* and the journal is left as it was */
  g_autofree char *after = NULL;
  cr_assert (g_file_get_contents (journal, &after, NULL, NULL));
  cr_assert_str_eq (after, "game katua\nplayer Ana\nplayer Bea\nAna fly away\n");
}

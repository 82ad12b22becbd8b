/* The window's voice: the app started under Xvfb on the demo table says its
 * announcements (TABLERO_SPEECH_WAV puts them in a WAV file instead of the
 * sound card), in the table's language.  With TABLERO_SPEECH_WAV the app's
 * --screenshot waits until its voice has begun a second sentence (four
 * minutes at most), so a loaded machine makes the test slower, not wrong. */
#include <criterion/criterion.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* RMS and length of a 16-bit mono WAV written by the voice (its header is
 * checked in detail by test-speech). */
static void
measure (const char *path, double *seconds, double *rms)
{
  gchar *bytes = NULL;
  gsize len = 0;
  cr_assert (g_file_get_contents (path, &bytes, &len, NULL), "%s was written", path);
  cr_assert (len >= 44 && memcmp (bytes, "RIFF", 4) == 0 && memcmp (bytes + 36, "data", 4) == 0,
             "%s is a WAV file", path);
  const guint8 *b = (const guint8 *) bytes;
  guint32 rate = b[24] | b[25] << 8 | b[26] << 16 | (guint32) b[27] << 24;
  size_t n = (len - 44) / 2;
  double sum = 0;
  for (size_t i = 0; i < n; i++)
    {
      double s = (gint16) (b[44 + 2 * i] | b[45 + 2 * i] << 8);
      sum += s * s;
    }
  *seconds = rate > 0 ? (double) n / rate : 0;
  *rms = n > 0 ? sqrt (sum / (double) n) : 0;
  g_free (bytes);
}

static void
say_demo (const char *game, const char *language, double *seconds, double *rms)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-speech-gui-XXXXXX", NULL);
  g_autofree char *wav = g_build_filename (dir, "said.wav", NULL);
  g_autofree char *png = g_build_filename (dir, "window.png", NULL);
  g_auto (GStrv) env = g_get_environ ();
  env = g_environ_setenv (env, "TABLERO_SPEECH_WAV", wav, TRUE);
  env = g_environ_setenv (env, "XDG_STATE_HOME", dir, TRUE);   /* no journal offered back */
  if (language != NULL)
    {
      env = g_environ_setenv (env, "LANGUAGE", language, TRUE);
      env = g_environ_setenv (env, "LC_ALL", "C.UTF-8", TRUE);
    }
  const char *argv[] = { "xvfb-run", "-a", getenv ("TABLERO_APP"), "--game", game, "--source", "demo",
                         "--screenshot", png, "--screenshot-frames", "60", NULL };
  g_autofree char *err = NULL;
  int status = -1;
  cr_assert (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                           NULL, NULL, NULL, &err, &status, NULL));
  cr_assert (WIFEXITED (status) && WEXITSTATUS (status) == 0, "the app failed: %s", err);
  measure (wav, seconds, rms);
  g_unlink (wav);
  g_unlink (png);
  g_autofree char *state = g_build_filename (dir, "tablero", "journal.record", NULL);
  g_unlink (state);
  g_autofree char *state_dir = g_build_filename (dir, "tablero", NULL);
  g_rmdir (state_dir);
  g_rmdir (dir);
}

Test (speech_gui, the_window_says_the_demo_game, .timeout = 360)
{
  double seconds, rms;
  say_demo ("kittens", NULL, &seconds, &rms);
  cr_log_info ("kittens demo, 60 frames: %.2f s of speech, RMS %.0f", seconds, rms);
  cr_expect_gt (seconds, 2.0, "the table heard something (%.2f s)", seconds);
  cr_expect_gt (rms, 300.0, "not silence (RMS %.0f)", rms);
}

Test (speech_gui, the_window_speaks_spanish, .timeout = 360)
{
  double seconds, rms;
  say_demo ("katua", "es", &seconds, &rms);
  cr_log_info ("katua demo in Spanish, 60 frames: %.2f s of speech, RMS %.0f", seconds, rms);
  cr_expect_gt (seconds, 2.0, "%.2f s", seconds);
  cr_expect_gt (rms, 300.0, "RMS %.0f", rms);
}

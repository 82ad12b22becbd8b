/* The window's mute: win.mute toggles the "muted" property, and a muted
 * window says nothing while the demo game goes on.  Runs under xvfb-run;
 * TABLERO_SPEECH_WAV sends the window's voice to a file. */
#include <criterion/criterion.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>

#include "ui-window.h"

static guint32
wav_data_bytes (const char *path)
{
  gchar *bytes = NULL;
  gsize len = 0;
  cr_assert (g_file_get_contents (path, &bytes, &len, NULL), "%s was made", path);
  cr_assert (len >= 44 && memcmp (bytes, "RIFF", 4) == 0, "%s is a WAV file", path);
  const guint8 *b = (const guint8 *) bytes;
  guint32 data = b[40] | b[41] << 8 | b[42] << 16 | (guint32) b[43] << 24;
  g_free (bytes);
  return data;
}

/* Runs the main loop until the window has shown `frames` frames. */
static void
show_frames (UiWindow *window, guint frames)
{
  gint64 give_up = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  while (ui_window_get_frames_shown (window) < frames && g_get_monotonic_time () < give_up)
    g_main_context_iteration (NULL, TRUE);
  cr_assert_geq (ui_window_get_frames_shown (window), frames, "the demo table runs");
}

Test (speech_window, muted_the_window_says_nothing, .timeout = 180)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-speech-window-XXXXXX", NULL);
  g_autofree char *wav = g_build_filename (dir, "said.wav", NULL);
  g_setenv ("TABLERO_SPEECH_WAV", wav, TRUE);
  g_setenv ("XDG_STATE_HOME", dir, TRUE);   /* no saved game offered back */
  gtk_init ();
  adw_init ();
  GtkApplication *app = gtk_application_new ("org.tablero.SpeechTest", G_APPLICATION_NON_UNIQUE);
  cr_assert (g_application_register (G_APPLICATION (app), NULL, NULL));
  const char *players[] = { "Ana", "Bea", NULL };
  UiWindow *window = ui_window_new (app, "kittens", "demo", players);
  gboolean muted = TRUE;
  g_object_get (window, "muted", &muted, NULL);
  cr_expect_not (muted, "a new window speaks");

  cr_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.mute", NULL));
  g_object_get (window, "muted", &muted, NULL);
  cr_expect (muted, "win.mute mutes");
  show_frames (window, 60);   /* the same demo the speech-gui test hears */
  cr_expect_eq (wav_data_bytes (wav), 0, "a muted window said %u bytes", wav_data_bytes (wav));

  cr_assert (gtk_widget_activate_action (GTK_WIDGET (window), "win.mute", NULL));
  g_object_get (window, "muted", &muted, NULL);
  cr_expect_not (muted, "win.mute again unmutes");
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (app);
  g_unlink (wav);
  g_autofree char *journal = g_build_filename (dir, "tablero", "journal.record", NULL);
  g_unlink (journal);
  g_autofree char *state = g_build_filename (dir, "tablero", NULL);
  g_rmdir (state);
  g_rmdir (dir);
}

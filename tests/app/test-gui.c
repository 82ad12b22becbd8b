/* The GTK app as a person sees it: started under Xvfb, it saves a picture of
 * its window, which must be a real, drawn window of a sensible size. */
#include <criterion/criterion.h>

#include <cairo.h>
#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* The Xvfb screen ("-screen 0 WxHxD"); NULL: xvfb-run's own. */
static const char *xvfb_screen;

static int
run_app (const char *const *args, char **err_out)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) "xvfb-run");
  g_ptr_array_add (argv, (char *) "-a");
  if (xvfb_screen != NULL)
    {
      g_ptr_array_add (argv, (char *) "-s");
      g_ptr_array_add (argv, (char *) xvfb_screen);
    }
  g_ptr_array_add (argv, (char *) getenv ("TABLERO_APP"));
  for (const char *const *a = args; *a; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  int wait_status = -1;
  GError *error = NULL;
  gboolean ok = g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                              NULL, err_out, &wait_status, &error);
  g_ptr_array_free (argv, TRUE);
  cr_assert (ok, "could not start the app: %s", error ? error->message : "?");
  return WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : 128;
}

/* Fraction of pixels that differ from the top-left one: a blank or
 * undrawn window gives almost 0. */
static double
drawn_fraction (cairo_surface_t *png)
{
  cairo_surface_flush (png);
  int w = cairo_image_surface_get_width (png), h = cairo_image_surface_get_height (png);
  int stride = cairo_image_surface_get_stride (png);
  const unsigned char *data = cairo_image_surface_get_data (png);
  const uint32_t first = *(const uint32_t *) data;
  long differ = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      differ += *(const uint32_t *) (data + (size_t) y * stride + (size_t) x * 4) != first;
  return (double) differ / ((double) w * h);
}

/* Each picture test keeps its own state directory, so a game journaled by
 * another test is not offered back over what it wants to see. */
static void
own_state_dir (const char *name)
{
  g_autofree char *dir = g_build_filename (getenv ("TABLERO_SCREENSHOT_DIR"), "state", name, NULL);
  g_autofree char *journal = g_build_filename (dir, "tablero", "journal.record", NULL);
  remove (journal);
  g_setenv ("XDG_STATE_HOME", dir, TRUE);
}

static cairo_surface_t *
shoot (const char *file, const char *const *extra, char **err)
{
  g_autofree char *path = g_build_filename (getenv ("TABLERO_SCREENSHOT_DIR"), file, NULL);
  remove (path);
  GPtrArray *args = g_ptr_array_new ();
  const char *base[] = { "--game", "katua", "--source", "demo", "--screenshot", path };
  for (size_t i = 0; i < G_N_ELEMENTS (base); i++)
    g_ptr_array_add (args, (char *) base[i]);
  for (const char *const *a = extra; *a; a++)
    g_ptr_array_add (args, (char *) *a);
  g_ptr_array_add (args, NULL);
  int rc = run_app ((const char *const *) args->pdata, err);
  g_ptr_array_free (args, TRUE);
  cr_assert_eq (rc, 0, "app failed (%d): %s", rc, *err);
  cr_assert_null (strstr (*err, "CRITICAL"), "GTK criticals: %s", *err);
  cairo_surface_t *png = cairo_image_surface_create_from_png (path);
  cr_assert_eq (cairo_surface_status (png), CAIRO_STATUS_SUCCESS, "no PNG at %s", path);
  return png;
}

Test (gui, window_shows_game_source_and_version, .timeout = 60)
{
  own_state_dir ("main");
  g_autofree char *path = g_build_filename (getenv ("TABLERO_SCREENSHOT_DIR"), "tablero-window.png", NULL);
  remove (path);
  g_autofree char *err = NULL;
  /* 40 frames: the demo game is under way, with moves and scores shown. */
  const char *args[] = { "--game", "katua", "--source", "demo", "--screenshot", path,
                         "--screenshot-frames", "40", NULL };
  int rc = run_app (args, &err);
  cr_assert_eq (rc, 0, "app failed (%d): %s", rc, err);
  cr_assert_null (strstr (err, "CRITICAL"), "GTK criticals: %s", err);

  cairo_surface_t *png = cairo_image_surface_create_from_png (path);
  cr_assert_eq (cairo_surface_status (png), CAIRO_STATUS_SUCCESS, "no PNG at %s", path);
  cr_expect_geq (cairo_image_surface_get_width (png), 640);
  cr_expect_geq (cairo_image_surface_get_height (png), 400);
  cr_expect_gt (drawn_fraction (png), 0.02, "the window looks blank");
  cairo_surface_destroy (png);
}

Test (gui, camera_setup_page_is_drawn, .timeout = 60)
{
  own_state_dir ("calibration");
  g_autofree char *err = NULL;
  const char *extra[] = { "--screenshot-page", "calibration", "--screenshot-frames", "10", NULL };
  cairo_surface_t *png = shoot ("tablero-calibration.png", extra, &err);
  cr_expect_geq (cairo_image_surface_get_width (png), 640);
  cr_expect_gt (drawn_fraction (png), 0.02, "the window looks blank");
  cairo_surface_destroy (png);
}

/* The new-game setup opens over the window: the dialog is the active
 * window, saved as the screenshot; the main window beside it. */
Test (gui, setup_dialog_is_drawn, .timeout = 60)
{
  own_state_dir ("setup");
  g_autofree char *err = NULL;
  const char *extra[] = { "--screenshot-page", "setup", NULL };
  cairo_surface_t *png = shoot ("tablero-setup.png", extra, &err);
  cr_expect_geq (cairo_image_surface_get_width (png), 320);
  cr_expect_geq (cairo_image_surface_get_height (png), 400);
  cr_expect_gt (drawn_fraction (png), 0.02, "the dialog looks blank");
  cairo_surface_destroy (png);
}

/* The correction dialog opens once the demo's cards are read, and lists
 * them: drawn, and the main window beside it. */
Test (gui, correction_dialog_is_drawn, .timeout = 60)
{
  own_state_dir ("correction");
  g_autofree char *err = NULL;
  const char *extra[] = { "--screenshot-page", "correction", "--screenshot-frames", "10", NULL };
  cairo_surface_t *png = shoot ("tablero-correction.png", extra, &err);
  cr_expect_geq (cairo_image_surface_get_width (png), 320);
  cr_expect_gt (drawn_fraction (png), 0.02, "the dialog looks blank");
  cairo_surface_destroy (png);
  g_autofree char *beside = g_build_filename (getenv ("TABLERO_SCREENSHOT_DIR"), "tablero-correction-dialog-1.png", NULL);
  cr_expect (g_file_test (beside, G_FILE_TEST_EXISTS), "no picture of the window beside the dialog");
}

/* Each help page opens its own window over the main one (F1, Ctrl+?, About,
 * stickers, the guide): the dialog is the active window, drawn, smaller than
 * the 1280 px main window saved beside it. */
Test (gui, help_pages_are_drawn, .timeout = 110)
{
  static const char *const pages[] = { "shortcuts", "about", "rules", "stickers", "guide:5" };
  for (size_t i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      own_state_dir (pages[i]);
      g_autofree char *err = NULL;
      g_autofree char *file = g_strdup_printf ("tablero-%.*s.png", (int) strcspn (pages[i], ":"), pages[i]);
      const char *extra[] = { "--screenshot-page", pages[i], "--screenshot-frames", "1", NULL };
      cairo_surface_t *png = shoot (file, extra, &err);
      cr_expect_lt (cairo_image_surface_get_width (png), 1280, "%s: the main window, not the dialog", pages[i]);
      cr_expect_geq (cairo_image_surface_get_height (png), 300, "%s", pages[i]);
      cr_expect_gt (drawn_fraction (png), 0.02, "%s looks blank", pages[i]);
      cairo_surface_destroy (png);
    }
}

Test (gui, unknown_page_is_refused_clearly, .timeout = 60)
{
  g_autofree char *err = NULL;
  const char *args[] = { "--screenshot-page", "kitchen", NULL };
  int rc = run_app (args, &err);
  cr_assert_eq (rc, 2);
  cr_assert_not_null (strstr (err, "unknown page 'kitchen'"), "stderr: %s", err);
}

/* Table mode at the size of a 1080p screen: the picture has that size and
 * is drawn. */
Test (gui, table_mode_is_drawn_at_1080p, .timeout = 90)
{
  own_state_dir ("table");
  /* a 1080p screen: a window is not made larger than its screen */
  xvfb_screen = "-screen 0 1920x1080x24";
  g_autofree char *err = NULL;
  const char *extra[] = { "--screenshot-page", "table", "--screenshot-size", "1920x1080",
                          "--screenshot-frames", "10", NULL };
  cairo_surface_t *png = shoot ("tablero-table-mode.png", extra, &err);
  /* the window's own shadow and border may take a few pixels */
  cr_expect_geq (cairo_image_surface_get_width (png), 1900);
  cr_expect_geq (cairo_image_surface_get_height (png), 1060);
  cr_expect_gt (drawn_fraction (png), 0.02, "table mode looks blank");
  cairo_surface_destroy (png);
}

Test (gui, bad_screenshot_size_is_refused_clearly, .timeout = 60)
{
  g_autofree char *err = NULL;
  const char *args[] = { "--screenshot-size", "big", NULL };
  int rc = run_app (args, &err);
  cr_assert_eq (rc, 2);
  cr_assert_not_null (strstr (err, "--screenshot-size 'big'"), "stderr: %s", err);
}

Test (gui, unknown_game_is_refused_clearly, .timeout = 60)
{
  g_autofree char *err = NULL;
  const char *args[] = { "--game", "chess", NULL };
  int rc = run_app (args, &err);
  cr_assert_eq (rc, 2);
  cr_assert_not_null (strstr (err, "unknown game 'chess'"), "stderr: %s", err);
}

/* The window in Spanish, as a Spanish table sees it: the app's own words
 * (its options) and the referee's announcements come out in Spanish.  What
 * the referee asked the table to do is journaled as it was said ("@table e
 * ... Pon+el+ovni+..."), so the journal shows the NEEDs were Spanish. */
/* The journal's NEED lines (`@table e`) after a shot at `frames`, from a
 * fresh start; *needs and *spanish count them and the Spanish ones. */
static char *
needs_after (const char *frames, guint *needs, guint *spanish)
{
  own_state_dir ("spanish");
  g_autofree char *err = NULL;
  const char *extra[] = { "--screenshot-frames", frames, NULL };
  cairo_surface_t *png = shoot ("tablero-window-es.png", extra, &err);
  cr_expect_geq (cairo_image_surface_get_width (png), 640);
  cr_expect_gt (drawn_fraction (png), 0.02, "the window looks blank");
  cairo_surface_destroy (png);

  g_autofree char *journal_path = g_build_filename (getenv ("XDG_STATE_HOME"), "tablero", "journal.record", NULL);
  char *journal = NULL;
  cr_assert (g_file_get_contents (journal_path, &journal, NULL, NULL), "no journal at %s", journal_path);
  g_auto (GStrv) lines = g_strsplit (journal, "\n", -1);
  *needs = *spanish = 0;
  for (char **l = lines; *l; l++)
    {
      if (!g_str_has_prefix (*l, "@table e "))
        continue;
      (*needs)++;
      cr_expect_null (strstr (*l, "+the+"), "an English NEED: %s", *l);
      *spanish += strstr (*l, "+el+") != NULL || strstr (*l, "+la+") != NULL || strstr (*l, "+de+") != NULL;
    }
  return journal;
}

Test (gui, main_window_speaks_spanish, .timeout = 400)
{
  /* gettext ignores LANGUAGE in the C locale: a UTF-8 C locale is always there. */
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  g_setenv ("LANGUAGE", "es", TRUE);

  /* --help needs no display. */
  g_autofree char *out = NULL;
  const char *const help_argv[] = { getenv ("TABLERO_APP"), "--help", NULL };
  cr_assert (g_spawn_sync (NULL, (char **) help_argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                           NULL, NULL));
  cr_expect_not_null (strstr (out, "Juego que arbitrar"), "the options are not in Spanish:\n%s", out);

  /* The journal holds the NEEDs pending when the app stops, and on a
   * loaded machine the shot may land between two (the table tidied, the
   * next play not yet asked for): a later moment of the demo is tried
   * until the referee is asking something. */
  const char *const moments[] = { "40", "80", "120" };
  guint needs = 0, spanish = 0;
  g_autofree char *journal = NULL;
  for (size_t i = 0; i < G_N_ELEMENTS (moments) && needs == 0; i++)
    {
      g_free (journal);
      journal = needs_after (moments[i], &needs, &spanish);
    }
  cr_expect_gt (needs, 0, "the referee asked nothing of the table:\n%s", journal);
  cr_expect_eq (spanish, needs, "not every NEED is Spanish:\n%s", journal);
}

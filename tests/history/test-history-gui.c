/* The History page as a person sees it (Xvfb): the list of games, a game's
 * page with its score chart, and a player's page, on a 1024x600 screen, in
 * English and Spanish, light and dark.  The pictures stay in the build
 * tree (TABLERO_SCREENSHOT_DIR/history-*.png) for a person to look at.
 * The history shown is a family's, tests/history/family-history.json: games
 * refereed by `tablero-cli watch --source demo` and the bundled records,
 * exported as a play list. */
#include <criterion/criterion.h>

#include <cairo.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <libintl.h>
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "hst-io.h"
#include "hst-store.h"

/* A fresh history holding the family's games, at `name` in the screenshot
 * folder. */
static char *
family_history (const char *name)
{
  char *db = g_build_filename (getenv ("TABLERO_SCREENSHOT_DIR"), name, NULL);
  const char *suffixes[] = { "", "-wal", "-shm" };
  for (size_t i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *file = g_strconcat (db, suffixes[i], NULL);
      g_unlink (file);
    }
  g_autoptr (GError) error = NULL;
  g_autoptr (HstStore) store = hst_store_open (db, NULL, &error);
  cr_assert_not_null (store, "%s", error ? error->message : "?");
  cr_assert (hst_import_file (store, getenv ("TABLERO_FAMILY_HISTORY"), NULL, &error), "%s",
             error ? error->message : "?");
  return db;
}

/* Runs the app on `db` showing `page`, in `language`, light or dark; the
 * History window's picture. */
static cairo_surface_t *
shoot (const char *page, const char *language, gboolean dark, const char *file)
{
  g_autofree char *stem = g_strndup (file, strlen (file) - 4);
  g_autofree char *db_name = g_strdup_printf ("%s.db", stem);
  g_autofree char *db = family_history (db_name);
  g_autofree char *path = g_build_filename (getenv ("TABLERO_SCREENSHOT_DIR"), file, NULL);
  g_autofree char *state = g_build_filename (getenv ("TABLERO_SCREENSHOT_DIR"), "state", stem, NULL);
  g_remove (path);
  g_auto (GStrv) env = g_get_environ ();
  env = g_environ_setenv (env, "TABLERO_HISTORY", db, TRUE);
  env = g_environ_setenv (env, "XDG_STATE_HOME", state, TRUE);
  env = g_environ_setenv (env, "LANGUAGE", language, TRUE);
  env = g_environ_setenv (env, "LC_ALL", "C.UTF-8", TRUE);
  if (dark)
    env = g_environ_setenv (env, "ADW_DEBUG_COLOR_SCHEME", "prefer-dark", TRUE);
  const char *argv[] = { "xvfb-run", "-a", "-s", "-screen 0 1280x800x24", getenv ("TABLERO_APP"), "--game", "katua",
                         "--source", "demo", "--screenshot", path, "--screenshot-page", page,
                         "--screenshot-size", "1024x600", "--screenshot-frames", "1", NULL };
  g_autofree char *err = NULL;
  int status = -1;
  g_autoptr (GError) error = NULL;
  cr_assert (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, &err, &status, &error),
             "%s", error ? error->message : "?");
  cr_assert (WIFEXITED (status) && WEXITSTATUS (status) == 0, "app failed: %s", err);
  cr_assert_null (strstr (err, "CRITICAL"), "GTK criticals: %s", err);
  cr_assert_null (strstr (err, "no game to show"), "%s", err);
  cairo_surface_t *png = cairo_image_surface_create_from_png (path);
  cr_assert_eq (cairo_surface_status (png), CAIRO_STATUS_SUCCESS, "no PNG at %s", path);
  /* it fits the small laptop's screen */
  cr_assert_leq (cairo_image_surface_get_width (png), 1024);
  cr_assert_leq (cairo_image_surface_get_height (png), 600);
  cr_assert_geq (cairo_image_surface_get_width (png), 900);
  return png;
}

/* Pixels within a few levels of `rgb` (0xRRGGBB). */
static long
pixels_of (cairo_surface_t *png, uint32_t rgb)
{
  cairo_surface_flush (png);
  int w = cairo_image_surface_get_width (png), h = cairo_image_surface_get_height (png);
  int stride = cairo_image_surface_get_stride (png);
  const unsigned char *data = cairo_image_surface_get_data (png);
  long n = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        uint32_t px = *(const uint32_t *) (data + (size_t) y * stride + (size_t) x * 4);
        int dr = (int) ((px >> 16) & 0xff) - (int) ((rgb >> 16) & 0xff);
        int dg = (int) ((px >> 8) & 0xff) - (int) ((rgb >> 8) & 0xff);
        int db = (int) (px & 0xff) - (int) (rgb & 0xff);
        n += abs (dr) < 12 && abs (dg) < 12 && abs (db) < 12;
      }
  return n;
}

/* Pixels darker than half grey: text and lines on a light page. */
static double
dark_fraction (cairo_surface_t *png)
{
  return (double) pixels_of (png, 0x000000) / (cairo_image_surface_get_width (png) * cairo_image_surface_get_height (png));
}

Test (history_gui, the_list_of_games, .timeout = 120)
{
  cairo_surface_t *png = shoot ("history", "en", FALSE, "history-list-en.png");
  cr_assert_gt (pixels_of (png, 0xffffff), 100000, "the rows of games are drawn");
  cairo_surface_destroy (png);
  png = shoot ("history", "es", FALSE, "history-list-es.png");
  cr_assert_gt (pixels_of (png, 0xffffff), 100000);
  cairo_surface_destroy (png);
}

/* The chart draws a line per player in the chart's colours: the light
 * ones on a light page, the dark style's on a dark one. */
Test (history_gui, a_games_chart, .timeout = 180)
{
  cairo_surface_t *png = shoot ("history:game", "en", FALSE, "history-game-en.png");
  cr_assert_gt (pixels_of (png, 0x1c71d8), 300, "the first player's line (blue)");
  cr_assert_gt (pixels_of (png, 0xe66100), 300, "the second player's line (orange)");
  cairo_surface_destroy (png);
  png = shoot ("history:game", "es", FALSE, "history-game-es.png");
  cr_assert_gt (pixels_of (png, 0x1c71d8), 300);
  cairo_surface_destroy (png);
  png = shoot ("history:game", "en", TRUE, "history-game-dark.png");
  cr_assert_gt (pixels_of (png, 0x99c1f1), 300, "the dark style's blue");
  cr_assert_lt (dark_fraction (png) + (double) pixels_of (png, 0xffffff) / (1024.0 * 600), 0.5,
                "a dark page, not a light one");
  cairo_surface_destroy (png);
}

Test (history_gui, a_players_page, .timeout = 120)
{
  cairo_surface_t *png = shoot ("history:player", "en", FALSE, "history-player-en.png");
  cr_assert_gt (pixels_of (png, 0xffffff), 50000);
  cairo_surface_destroy (png);
  png = shoot ("history:player", "es", FALSE, "history-player-es.png");
  cr_assert_gt (pixels_of (png, 0xffffff), 50000);
  cairo_surface_destroy (png);
}

/* The History page's words in Spanish and Catalan, from the build's
 * catalogues. */
Test (history_gui, its_words_are_translated)
{
  static const char *const words[] = {
    "Game History", "Moves", "Points", "Still in", "Head to Head", "Rules to Practise", "No Games Yet",
    "Game _History", "_Player's Page", "Finished after %u move",
  };
  setlocale (LC_ALL, "C.UTF-8");
  bindtextdomain ("tablero", getenv ("TABLERO_LOCALEDIR"));
  bind_textdomain_codeset ("tablero", "UTF-8");
  const char *languages[] = { "es", "ca" };
  for (size_t l = 0; l < G_N_ELEMENTS (languages); l++)
    {
      g_setenv ("LANGUAGE", languages[l], TRUE);
      for (size_t i = 0; i < G_N_ELEMENTS (words); i++)
        {
          const char *said = dgettext ("tablero", words[i]);
          cr_expect_str_neq (said, words[i], "%s: '%s' is not translated", languages[l], words[i]);
        }
    }
}

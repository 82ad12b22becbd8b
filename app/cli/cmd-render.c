/* tablero-cli render SCENE -o DIR [--frames N | --fps F] [--seed S] [--gray]
 * Draws a scripted scene (docs/render-scene-format.md) into DIR/frame-NNNNN.png
 * (or .jpg as the scene says) and its ground truth into DIR/truth.jsonl. */
#include "cli.h"

#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-printing.h"
#include "vis-render.h"

static int
usage_error (const char *msg)
{
  cli_say ("render", "%s", msg);
  fprintf (stderr, "%s tablero-cli render SCENE -o DIR [--frames N | --fps F] [--seed S]\n", _("usage:"));
  return 2;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static int
resolve_card_set (VisScene *scene)
{
  const char *game = vis_scene_game (scene);
  if (game == NULL)
    {
      char names[128];
      eng_game_class_names (names, sizeof names);
      /* Translators: %s lists the games' short names, as typed in a scene. */
      cli_say ("render", _("the scene has cards given by type or without back=, "
                           "so it must name its game with a 'game' line (one of: %s)"), names);
      return 2;
    }
  g_autofree char *path = cli_card_set_path (game);
  if (path == NULL)
    return 2;
  EngCardSet *set = NULL;
  EngParseError perr = { 0 };
  EngStatus st = eng_card_set_load_file (path, &set, &perr);
  if (st == ENG_OK)
    st = vis_scene_resolve (scene, set, &perr);
  eng_card_set_free (set);
  if (st != ENG_OK)
    {
      fprintf (stderr, "tablero-cli render: %s:%u: %s (%s)\n", perr.source, perr.line,
               perr.reason, eng_status_to_string (st));
      return 2;
    }
  return 0;
}

/* The scene file, its cards resolved against its game's set when it gives
 * them by type; NULL after saying why. */
static VisScene *
load_scene (const char *scene_path)
{
  VisScene *scene = NULL;
  EngParseError perr = { 0 };
  EngStatus st = vis_scene_load_file (scene_path, &scene, &perr);
  if (st != ENG_OK)
    {
      if (perr.line > 0)
        fprintf (stderr, "tablero-cli render: %s:%u: %s\n", perr.source, perr.line, perr.reason);
      else
        fprintf (stderr, "tablero-cli render: %s: %s\n", perr.source, perr.reason);
      return NULL;
    }
  if (vis_scene_needs_card_set (scene) && resolve_card_set (scene) != 0)
    {
      vis_scene_free (scene);
      return NULL;
    }
  return scene;
}

/* Renders `n_frames` frames at `fps` into `dir` with their truth, timing
 * each render (files excluded); says what it wrote, or why not (2). */
static int
render_frames (VisRenderer *renderer, const VisScene *scene, const char *dir, long n_frames, double fps)
{
  int rc = 0;
  int w = vis_scene_width (scene), h = vis_scene_height (scene);
  VisImage img = { w, h, (size_t) w * 3, VIS_PIXEL_BGR8, g_malloc ((size_t) w * h * 3) };
  VisTruth *truth = g_new0 (VisTruth, 1);
  g_autofree char *truth_path = g_build_filename (dir, "truth.jsonl", NULL);
  FILE *tf = fopen (truth_path, "w");
  if (tf == NULL)
    {
      cli_say ("render", _("cannot write %s: %s"), truth_path, g_strerror (errno));
      rc = 2;
    }
  const char *ext = vis_scene_file_format (scene);
  double *ms = g_new (double, n_frames);
  long n_timed = 0;
  for (long f = 0; rc == 0 && f < n_frames; f++)
    {
      double t = f / fps;
      gint64 t0 = g_get_monotonic_time ();
      EngStatus st = vis_renderer_render (renderer, t, &img, truth);
      ms[n_timed++] = (g_get_monotonic_time () - t0) / 1000.0;
      g_autofree char *name = g_strdup_printf ("frame-%05ld.%s", f, ext);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (st == ENG_OK)
        st = vis_renderer_save_last (renderer, path);
      if (st == ENG_OK)
        st = vis_truth_write_json (truth, (unsigned) f, tf);
      if (st != ENG_OK)
        {
          cli_say ("render", _("frame %ld (%s): %s"), f, path, eng_status_to_string (st));
          rc = 2;
        }
    }
  if (tf != NULL && fclose (tf) != 0 && rc == 0)
    {
      cli_say ("render", _("cannot write %s"), truth_path);
      rc = 2;
    }
  if (rc == 0)
    {
      qsort (ms, (size_t) n_timed, sizeof *ms, compare_doubles);
      cli_say ("render",
               ENG_NG_ ("%ld frame of %dx%d in %s (render median %.1f ms, max %.1f ms per frame, files excluded)",
                        "%ld frames of %dx%d in %s (render median %.1f ms, max %.1f ms per frame, files excluded)",
                        n_frames),
               n_frames, w, h, dir, ms[n_timed / 2], ms[n_timed - 1]);
    }
  g_free (ms);
  g_free (truth);
  g_free (img.data);
  return rc;
}

int
cli_cmd_render (int argc, char **argv)
{
  g_autofree char *dir = NULL, *frames_arg = NULL, *fps_arg = NULL, *seed_arg = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &dir, N_("Write the frames and truth.jsonl into DIR (required)"),
      "DIR" },
    { "frames", 0, 0, G_OPTION_ARG_FILENAME, &frames_arg, N_("Render N frames (default: the scene's duration)"), "N" },
    { "fps", 0, 0, G_OPTION_ARG_FILENAME, &fps_arg, N_("Frame rate (default: the scene's)"), "F" },
    { "seed", 0, 0, G_OPTION_ARG_FILENAME, &seed_arg, N_("Noise seed"), "S" },
    G_OPTION_ENTRY_NULL
  };
  int prc = cli_parse_options ("render", "SCENE",
                               N_("Draws a scripted scene (docs/render-scene-format.md) into DIR/frame-NNNNN.png\n"
                                  "(or .jpg as the scene says) and its ground truth into DIR/truth.jsonl.\n"),
                               entries, &argc, &argv);
  if (prc >= 0)
    return prc;
  long n_frames = -1;
  double fps = 0;
  guint64 seed = 0;
  if ((frames_arg != NULL && !cli_parse_long ("render", "--frames", frames_arg, 1, 1000000, &n_frames))
      || (fps_arg != NULL && !cli_parse_double ("render", "--fps", fps_arg, CLI_MIN_FPS, CLI_MAX_FPS, &fps))
      || (seed_arg != NULL && !cli_parse_uint64 ("render", "--seed", seed_arg, &seed)))
    return 2;
  if (argc > 2)
    return usage_error (_("only one SCENE"));
  const char *scene_path = argc == 2 ? argv[1] : NULL;
  if (scene_path == NULL || dir == NULL)
    return usage_error (_("SCENE and -o DIR are required"));

  VisScene *scene = load_scene (scene_path);
  if (scene == NULL)
    return 2;
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      cli_say ("render", _("cannot create %s: %s"), dir, g_strerror (errno));
      vis_scene_free (scene);
      return 2;
    }
  /* the stickers painted carry this table's seals, as printed ones do */
  EngPrinting *printing = NULL;
  if (!cli_printing_for_scene ("render", scene, &printing))
    {
      vis_scene_free (scene);
      return 2;
    }
  VisRenderer *renderer = NULL;
  EngStatus st = vis_renderer_new (scene, seed, &renderer);
  if (st != ENG_OK)
    {
      cli_say ("render", _("cannot set up the renderer: %s"), eng_status_to_string (st));
      vis_scene_free (scene);
      eng_printing_free (printing);
      return 2;
    }
  if (fps <= 0)
    fps = vis_scene_fps (scene);
  if (n_frames < 0)
    {
      double n = vis_scene_duration (scene) * fps;
      n_frames = n < 1 ? 1 : (long) (n + 0.999999);
    }
  int rc = render_frames (renderer, scene, dir, n_frames, fps);
  vis_renderer_free (renderer);
  vis_scene_free (scene);
  eng_printing_free (printing);
  return rc;
}

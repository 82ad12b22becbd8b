/* tablero-cli bench vision [--scene S] [--frames N] [--threads T] [--no-baselines]
 * tablero-cli bench vision --conditions [--codes N] [--only PREFIX] [--threads T]
 *
 * Renders the frames once (the synthetic renderer; by default a generated
 * 40-card 1080p scene with stickers at >= 3.5 px per module, mild uneven
 * light, noise and JPEG, a card sliding and a hand passing), then runs on the
 * same frames, side by side: the detector cold (no history), the detector
 * tracking (frame after frame), zbar over the full frame and ZXing-cpp over
 * the full frame.  Reports recall against the ground truth, wrong
 * identities, median and p95 wall ms per frame and CPU ms per frame (all
 * threads).
 *
 * --conditions renders, for each real-room condition of vis-conditions.h
 * (glare, noise, soft optics at small modules, motion blur, defocus, 4K),
 * scenes showing at least N codes, and reports per condition the detector's
 * cold recall, wrong identities and CPU ms per frame beside zbar and
 * ZXing-cpp over the full frame, with the recall the issue asks for.  See
 * docs/vision.md.  It lives in cmd-bench-vision-conditions.c, and --photos
 * DIR in cmd-bench-vision-photos.c; this file holds the rendered-frames
 * bench and what the three share. */
#include "cmd-bench-vision-private.h"

#include <glib.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "vis-baseline.h"
#include "vis-imageio.h"

double
bench_vision_now_ms (clockid_t clock)
{
  struct timespec ts;
  clock_gettime (clock, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
percentile (GArray *v, double p)
{
  if (v->len == 0)
    return 0;
  double *copy = g_memdup2 (v->data, v->len * sizeof (double));
  qsort (copy, v->len, sizeof (double), cmp_double);
  size_t i = (size_t) ceil (p * v->len) - 1;
  if (i >= v->len)
    i = v->len - 1;
  double r = copy[i];
  g_free (copy);
  return r;
}

void
bench_vision_score (PipeStats *s, const VisTruth *truth, const VisDetection *d, size_t n)
{
  for (unsigned t = 0; t < truth->n_tags; t++)
    {
      const VisTruthTag *tag = &truth->tags[t];
      if (tag->kind == VIS_TRUTH_FOREIGN || !tag->in_view || tag->occluded)
        continue;
      s->expected++;
      float cx = 0, cy = 0;
      for (int k = 0; k < 4; k++)
        cx += tag->corners[k][0] / 4, cy += tag->corners[k][1] / 4;
      float side = hypotf (tag->corners[1][0] - tag->corners[0][0], tag->corners[1][1] - tag->corners[0][1]);
      for (size_t i = 0; i < n; i++)
        if (strcmp (d[i].payload, tag->payload) == 0
            && hypotf (d[i].centre.x - cx, d[i].centre.y - cy) < 0.5f * side + 4)
          {
            s->found++;
            break;
          }
    }
  for (size_t i = 0; i < n; i++)
    {
      int ok = 0;
      for (unsigned t = 0; t < truth->n_tags && !ok; t++)
        {
          const VisTruthTag *tag = &truth->tags[t];
          float cx = 0, cy = 0;
          for (int k = 0; k < 4; k++)
            cx += tag->corners[k][0] / 4, cy += tag->corners[k][1] / 4;
          float side = hypotf (tag->corners[1][0] - tag->corners[0][0], tag->corners[1][1] - tag->corners[0][1]);
          ok = strcmp (d[i].payload, tag->payload) == 0
               && hypotf (d[i].centre.x - cx, d[i].centre.y - cy) < side + 4;
        }
      if (!ok)
        s->wrong++;
    }
}

/* The default scene: 40 cards in a loose 8x5 grid, 40 mm stickers seen at
 * about 3.6-4 px per module, mild degradations, one card sliding, a hand
 * passing, and a foreign QR code. */
static char *
default_scene (gboolean uhd)
{
  GString *s = g_string_new (NULL);
  /* --uhd: the same table seen by a 4K webcam from higher up (its codes at
   * 4.2-5 px a module) */
  g_string_append (s, uhd ? "image width=3840 height=2160 fps=10 duration=3 seed=11 format=jpg\n"
                            "camera height=1150 tilt=8 fov=62 target=420,250\n"
                          : "image width=1920 height=1080 fps=10 duration=3 seed=11 format=jpg\n"
                            "camera height=650 tilt=8 fov=62 target=420,250\n");
  g_string_append (s,
                   "table width=840 height=500\n"
                   "tags game=K set=01\n"
                   "sticker size=40 quiet=2\n"
                   "card-size width=63 height=88\n"
                   "degrade light=0.3 noise=3 blur=0.5 jpeg=85\n"
                   "foreign f1 text=\"https://example.org/not-a-card\" at=420,250 size=30\n");
  guint32 rng = 12345;
  for (int r = 0, n = 1; r < 5; r++)
    for (int c = 0; c < 8; c++, n++)
      {
        rng = rng * 1103515245u + 12345u;
        int jx = (int) ((rng >> 16) % 11) - 5;
        rng = rng * 1103515245u + 12345u;
        int jr = (int) ((rng >> 16) % 41) - 20;
        int quarter = (int) ((rng >> 8) % 4) * 90;
        g_string_append_printf (s, "card c%d face=%d back=1 at=%d,%d rot=%d\n", n, n,
                                77 + c * 98 + jx, 60 + r * 95 - jx, quarter + jr);
      }
  g_string_append (s, "at 1.0 move c1 to=115,95 rot=25 over=0.8\n"
                      "at 1.5 hand from=700,600 to=650,350 for=1.0\n");
  return g_string_free (s, FALSE);
}

static void
report (const PipeStats *s, double zbar_median)
{
  double median = percentile (s->wall_ms, 0.5), p95 = percentile (s->wall_ms, 0.95);
  double recall = s->expected ? 100.0 * s->found / s->expected : 0;
  printf ("%-22s %6u %8.2f%% %6u %9.2f %9.2f %9.2f", s->name, s->frames, recall, s->wrong, median, p95,
          s->frames ? s->cpu_ms_total / s->frames : 0);
  if (zbar_median > 0 && median > 0)
    printf (" %8.1fx", zbar_median / median);
  printf ("\n");
}

VisDetector *
bench_vision_new_detector (long threads)
{
  VisDetectorOptions opts;
  vis_detector_options_init (&opts);
  opts.n_threads = (unsigned) threads;
  return vis_detector_new (&opts);
}

/* The scene --scene names, or the built-in one, with its cards resolved
 * against its game's card set; NULL after saying why. */
static VisScene *
load_bench_scene (const char *scene_path, gboolean uhd)
{
  VisScene *scene = NULL;
  EngParseError perr = { 0 };
  EngStatus st;
  if (scene_path != NULL)
    st = vis_scene_load_file (scene_path, &scene, &perr);
  else
    {
      g_autofree char *text = default_scene (uhd);
      st = vis_scene_parse (text, strlen (text), "(default bench scene)", &scene, &perr);
    }
  if (st != ENG_OK)
    {
      fprintf (stderr, "tablero-cli bench vision: %s:%u: %s\n", perr.source, perr.line, perr.reason);
      return NULL;
    }
  if (!vis_scene_needs_card_set (scene))
    return scene;
  g_autofree char *path = cli_card_set_path (vis_scene_game (scene) ? vis_scene_game (scene) : "");
  EngCardSet *set = NULL;
  st = path ? eng_card_set_load_file (path, &set, &perr) : ENG_ERR_NOT_FOUND;
  if (st == ENG_OK)
    st = vis_scene_resolve (scene, set, &perr);
  eng_card_set_free (set);
  if (st != ENG_OK)
    {
      cli_say ("bench vision", _("cannot resolve the scene's cards: %s"), perr.reason);
      vis_scene_free (scene);
      return NULL;
    }
  return scene;
}

/* The four pipelines a rendered scene is timed on, all on the same frames. */
enum { PIPE_COLD, PIPE_TRACKING, PIPE_ZBAR, PIPE_ZXING, N_PIPES };

/* The rendered frames, their truth, and what the pipelines measured. */
typedef struct {
  long n_frames;
  int w, h;
  size_t stride;
  guint8 *pixels;        /* n_frames BGR8 frames, one after the other */
  VisTruth *truths;      /* n_frames */
  double min_module;     /* the smallest module of a sticker in view, px */
  EngPrinting *printing;
  VisDetector *det;
  VisZbarFull *zfull;
  VisDetection *buf;     /* MAX_DET detections of the full-frame decoders */
  PipeStats stats[N_PIPES];
  unsigned reused, detected_tracking, cold_in_tracking;
  size_t heap_before_tracking, heap_after_tracking;
} FrameBench;

static VisImage
bench_frame (const FrameBench *b, long f)
{
  return (VisImage) { b->w, b->h, b->stride, VIS_PIXEL_BGR8, b->pixels + (size_t) f * b->stride * b->h };
}

/* Renders every frame once, before any is timed; false after saying why. */
static bool
render_frames (FrameBench *b, VisScene *scene)
{
  VisRenderer *renderer = NULL;
  EngStatus st = vis_renderer_new (scene, 0, &renderer);
  if (st != ENG_OK)
    {
      cli_say ("bench vision", _("renderer: %s"), eng_status_to_string (st));
      return false;
    }
  b->w = vis_scene_width (scene), b->h = vis_scene_height (scene);
  const double fps = vis_scene_fps (scene);
  b->stride = (size_t) b->w * 3;
  b->pixels = g_malloc ((size_t) b->n_frames * b->stride * b->h);
  b->truths = g_new0 (VisTruth, b->n_frames);
  b->min_module = 1e9;
  for (long f = 0; f < b->n_frames; f++)
    {
      VisImage img = bench_frame (b, f);
      st = vis_renderer_render (renderer, f / fps, &img, &b->truths[f]);
      if (st != ENG_OK)
        {
          cli_say ("bench vision", _("render: %s"), eng_status_to_string (st));
          vis_renderer_free (renderer);
          return false;
        }
      for (unsigned t = 0; t < b->truths[f].n_tags; t++)
        if (b->truths[f].tags[t].kind != VIS_TRUTH_FOREIGN && b->truths[f].tags[t].in_view)
          b->min_module = MIN (b->min_module, b->truths[f].tags[t].module_px);
    }
  vis_renderer_free (renderer);
  return true;
}

/* One frame through one pipeline: timed, and scored against its truth.
 * Tracking starts from nothing: its first frame is a cold pass and is left
 * out of the tracking figures (it is what "cold" measures); its heap is
 * read at frame 5 and at the last.  false after saying why a pipeline
 * failed. */
static bool
time_frame (FrameBench *b, int pipe, long f)
{
  PipeStats *s = &b->stats[pipe];
  VisImage img = bench_frame (b, f);
  const VisDetection *d = NULL;
  size_t n = 0;
  unsigned foreign = 0;
  VisDetectResult r;
  EngStatus st;
  double c0 = bench_vision_now_ms (CLOCK_PROCESS_CPUTIME_ID), t0 = bench_vision_now_ms (CLOCK_MONOTONIC);
  if (pipe == PIPE_COLD)
    {
      vis_detector_reset (b->det);
      st = vis_detector_detect (b->det, &img, VIS_DETECT_COLD, &r);
    }
  else if (pipe == PIPE_TRACKING)
    st = vis_detector_detect (b->det, &img, VIS_DETECT_TRACK, &r);
  else if (pipe == PIPE_ZBAR)
    st = vis_zbar_full_scan (b->zfull, b->printing, &img, b->buf, MAX_DET, &n, &foreign);
  else
    st = vis_zxing_full_scan (b->printing, &img, b->buf, MAX_DET, &n, &foreign);
  double t1 = bench_vision_now_ms (CLOCK_MONOTONIC), c1 = bench_vision_now_ms (CLOCK_PROCESS_CPUTIME_ID);
  if (st != ENG_OK)
    {
      fprintf (stderr, "tablero-cli bench vision: %s: %s\n", s->name, eng_status_to_string (st));
      return false;
    }
  if (pipe <= PIPE_TRACKING)
    {
      d = r.detections;
      n = r.n_detections;
      foreign = r.n_foreign;
    }
  else
    d = b->buf;
  if (pipe == PIPE_TRACKING && f == 0)
    return true;
  if (pipe == PIPE_TRACKING && f == 5)
    b->heap_before_tracking = mallinfo2 ().uordblks;
  if (pipe == PIPE_TRACKING && f == b->n_frames - 1)
    b->heap_after_tracking = mallinfo2 ().uordblks;
  if (pipe == PIPE_TRACKING)
    {
      b->reused += r.n_reused;
      b->detected_tracking += (unsigned) r.n_detections;
      b->cold_in_tracking += r.mode_used == VIS_DETECT_COLD;
    }
  double ms = t1 - t0;
  g_array_append_val (s->wall_ms, ms);
  s->cpu_ms_total += c1 - c0;
  s->frames++;
  s->foreign += foreign;
  bench_vision_score (s, &b->truths[f], d, n);
  return true;
}

/* Every pipeline over every frame, after a warm-up pass that brings the
 * buffers to their size and spins the threads up; false after saying why
 * a pipeline failed. */
static bool
time_pipelines (FrameBench *b, gboolean baselines)
{
  {
    VisImage img = bench_frame (b, 0);
    VisDetectResult r;
    vis_detector_detect (b->det, &img, VIS_DETECT_COLD, &r);
  }
  for (int pipe = 0; pipe < N_PIPES; pipe++)
    {
      if (pipe >= PIPE_ZBAR && !baselines)
        continue;
      if (pipe == PIPE_ZXING && !vis_zxing_available ())
        continue;
      vis_detector_reset (b->det);
      for (long f = 0; f < b->n_frames; f++)
        if (!time_frame (b, pipe, f))
          return false;
    }
  return true;
}

static void
print_frame_report (const FrameBench *b, const char *scene_path, gboolean uhd, long threads, gboolean baselines)
{
  printf ("bench vision: %ld frames %dx%d, %s, %ld thread(s); smallest module %.2f px\n", b->n_frames, b->w, b->h,
          scene_path ? scene_path : uhd ? "default 40-card scene at 4K" : "default 40-card scene", threads,
          b->min_module);
  printf ("%-22s %6s %9s %6s %9s %9s %9s %9s\n", "pipeline", "frames", "recall", "wrong", "median ms",
          "p95 ms", "cpu ms", "vs zbar");
  double zbar_median = baselines ? percentile (b->stats[PIPE_ZBAR].wall_ms, 0.5) : 0;
  for (int pipe = 0; pipe < N_PIPES; pipe++)
    if (b->stats[pipe].frames > 0)
      report (&b->stats[pipe], pipe == PIPE_ZBAR ? 0 : zbar_median);
  if (!vis_zxing_available () && baselines)
    printf ("(zxing-cpp: not in this build)\n");
  printf ("tracking: %u of %u identities kept without re-decoding; %u periodic cold pass(es)\n", b->reused,
          b->detected_tracking, b->cold_in_tracking);
  if (b->n_frames > 6)
    printf ("heap in use, tracking frame 5 -> last: %+ld bytes\n",
            (long) b->heap_after_tracking - (long) b->heap_before_tracking);
}

/* Renders the scene, then times the detector (and the baselines) on it. */
static int
bench_frames (VisScene *scene, const char *scene_path, gboolean uhd, long n_frames, long threads,
              gboolean baselines)
{
  static const char *const names[N_PIPES] = { "tablero cold", "tablero tracking", "zbar full frame",
                                              "zxing-cpp full frame" };
  FrameBench b = { .n_frames = n_frames };
  if (!cli_printing_for_scene ("bench vision", scene, &b.printing))
    return 2;
  if (!render_frames (&b, scene))
    {
      eng_printing_free (b.printing);
      g_free (b.pixels);
      g_free (b.truths);
      return 2;
    }
  b.det = bench_vision_new_detector (threads);
  b.zfull = vis_zbar_full_new ();
  b.buf = g_new (VisDetection, MAX_DET);
  for (int i = 0; i < N_PIPES; i++)
    b.stats[i] = (PipeStats) { names[i], g_array_new (FALSE, FALSE, sizeof (double)), 0, 0, 0, 0, 0, 0 };
  int rc = 0;
  if (b.det == NULL || b.zfull == NULL)
    {
      cli_say ("bench vision", "%s", _("cannot create the detector"));
      rc = 2;
    }
  else
    {
      vis_detector_set_printing (b.det, b.printing);
      if (time_pipelines (&b, baselines))
        print_frame_report (&b, scene_path, uhd, threads, baselines);
      else
        rc = 2;
    }
  for (int i = 0; i < N_PIPES; i++)
    g_array_unref (b.stats[i].wall_ms);
  g_free (b.buf);
  vis_zbar_full_free (b.zfull);
  vis_detector_free (b.det);
  eng_printing_free (b.printing);
  g_free (b.pixels);
  g_free (b.truths);
  return rc;
}

int
cli_bench_vision (int argc, char **argv)
{
  g_autofree char *scene_path = NULL, *frames_arg = NULL, *threads_arg = NULL, *codes_arg = NULL;
  g_autofree char *only = NULL, *photos = NULL;
  gboolean no_baselines = FALSE, print_scene = FALSE, conditions = FALSE, uhd = FALSE;
  const GOptionEntry entries[] = {
    { "scene", 0, 0, G_OPTION_ARG_FILENAME, &scene_path, N_("Scene to render (default: a built-in one)"), "S" },
    { "frames", 0, 0, G_OPTION_ARG_FILENAME, &frames_arg, N_("Frames to time (default 30)"), "N" },
    { "threads", 0, 0, G_OPTION_ARG_FILENAME, &threads_arg, N_("Detector threads (default 2)"), "T" },
    { "no-baselines", 0, 0, G_OPTION_ARG_NONE, &no_baselines, N_("Skip the other decoders"), NULL },
    { "uhd", 0, 0, G_OPTION_ARG_NONE, &uhd, N_("The built-in scene seen by a 4K camera (3840x2160)"), NULL },
    { "print-scene", 0, 0, G_OPTION_ARG_NONE, &print_scene,
      N_("Print the built-in scene (or the conditions' scenes) and stop"), NULL },
    { "conditions", 0, 0, G_OPTION_ARG_NONE, &conditions,
      N_("Measure each real-room condition (glare, noise, soft optics, motion blur, defocus)"), NULL },
    { "codes", 0, 0, G_OPTION_ARG_FILENAME, &codes_arg,
      N_("With --conditions: codes to show per condition (default 100)"), "N" },
    { "only", 0, 0, G_OPTION_ARG_STRING, &only,
      N_("With --conditions: only conditions whose name starts so"), "PREFIX" },
    { "photos", 0, 0, G_OPTION_ARG_FILENAME, &photos,
      N_("Measure on the photos in DIR (IMAGE.jpg beside IMAGE.truth, e.g. tests/vision/physical/frames)"),
      "DIR" },
    G_OPTION_ENTRY_NULL
  };
  int rc = cli_parse_options ("bench vision", NULL, N_("Times the sticker detector on rendered frames.\n"),
                              entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  if (argc > 1)
    {
      cli_say ("bench vision", _("unexpected argument '%s'"), argv[1]);
      cli_try_help ("bench vision");
      return 2;
    }
  long n_frames = 30, threads = 2;
  if ((frames_arg != NULL && !cli_parse_long ("bench vision", "--frames", frames_arg, 2, 10000, &n_frames))
      || (threads_arg != NULL && !cli_parse_long ("bench vision", "--threads", threads_arg, 1, 8, &threads)))
    return 2;
  if (photos != NULL)
    return bench_vision_photos (photos, threads, !no_baselines);
  if (conditions)
    {
      long min_codes = 100;
      if (codes_arg != NULL && !cli_parse_long ("bench vision", "--codes", codes_arg, 1, 100000, &min_codes))
        return 2;
      return bench_vision_conditions (min_codes, threads, only, print_scene, !no_baselines);
    }
  if (print_scene)
    {
      /* The default scene as a file, to render or edit. */
      g_autofree char *text = default_scene (uhd);
      fputs (text, stdout);
      return 0;
    }
  VisScene *scene = load_bench_scene (scene_path, uhd);
  if (scene == NULL)
    return 2;
  rc = bench_frames (scene, scene_path, uhd, n_frames, threads, !no_baselines);
  vis_scene_free (scene);
  return rc;
}


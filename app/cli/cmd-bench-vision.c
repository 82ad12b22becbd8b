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
 * docs/vision.md. */
#include "cli.h"

#include <glib.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eng-cardset.h"
#include "vis-baseline.h"
#include "vis-conditions.h"
#include "vis-detect.h"
#include "vis-imageio.h"
#include "vis-render.h"

#define MAX_DET 512

typedef struct {
  const char *name;
  GArray *wall_ms;     /* double per frame */
  double cpu_ms_total;
  unsigned frames;
  unsigned expected, found, wrong, foreign;
} PipeStats;

static double
now_ms (clockid_t clock)
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

/* Scores one frame's detections against the truth: a visible, uncovered
 * Tablero tag counts as found when a detection with its payload lies within
 * half a code of its centre; a detection is a wrong identity when no tag with
 * its payload lies within a code of it. */
static void
score (PipeStats *s, const VisTruth *truth, const VisDetection *d, size_t n)
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

/* The detector with default options on `threads` threads; NULL when it
 * cannot be made. */
static VisDetector *
new_detector (long threads)
{
  VisDetectorOptions opts;
  vis_detector_options_init (&opts);
  opts.n_threads = (unsigned) threads;
  return vis_detector_new (&opts);
}

/* One condition: renders its frames one at a time and runs the detector
 * cold (no history) and zbar over the full frame on each.  Returns FALSE
 * (after saying why) when the scene cannot be made or a pipeline fails. */
static gboolean
bench_condition (const VisCondition *c, unsigned min_codes, VisDetector *det, VisZbarFull *zfull,
                 VisDetection *buf, PipeStats *cold, PipeStats *zbar, PipeStats *zxing, double *module_px)
{
  unsigned n_frames = 0;
  char *text = vis_condition_scene (c, min_codes, &n_frames);
  VisScene *scene = NULL;
  VisRenderer *renderer = NULL;
  EngParseError perr = { 0 };
  EngStatus st = text ? vis_scene_parse (text, strlen (text), c->name, &scene, &perr) : ENG_ERR_NO_MEMORY;
  free (text);
  /* painted and read with the table's printing, as a real table is */
  EngPrinting *printing = NULL;
  if (st == ENG_OK && !cli_printing_for_scene ("bench vision", scene, &printing))
    {
      vis_scene_free (scene);
      return FALSE;
    }
  vis_detector_set_printing (det, printing);
  if (st == ENG_OK)
    st = vis_renderer_new (scene, 0, &renderer);
  if (st != ENG_OK)
    {
      cli_say ("bench vision", _("condition %s: %s"), c->name, eng_status_to_string (st));
      vis_detector_set_printing (det, NULL);
      eng_printing_free (printing);
      vis_scene_free (scene);
      return FALSE;
    }
  const int w = vis_scene_width (scene), h = vis_scene_height (scene);
  VisImage img = { w, h, (size_t) w * 3, VIS_PIXEL_BGR8, g_malloc ((size_t) w * h * 3) };
  VisTruth *truth = g_new (VisTruth, 1);
  double module_sum = 0;
  unsigned module_n = 0;
  gboolean ok = TRUE;
  for (unsigned f = 0; f < n_frames && ok; f++)
    {
      st = vis_renderer_render (renderer, f, &img, truth);
      for (unsigned t = 0; t < truth->n_tags && st == ENG_OK; t++)
        module_sum += truth->tags[t].module_px, module_n++;
      for (int pipe = 0; pipe < 3 && st == ENG_OK; pipe++)
        {
          if (pipe == 2 && !vis_zxing_available ())
            break;
          PipeStats *s = pipe == 0 ? cold : pipe == 1 ? zbar : zxing;
          VisDetectResult r;
          size_t n = 0;
          unsigned foreign = 0;
          double c0 = now_ms (CLOCK_PROCESS_CPUTIME_ID);
          if (pipe == 0)
            {
              vis_detector_reset (det);
              st = vis_detector_detect (det, &img, VIS_DETECT_COLD, &r);
            }
          else if (pipe == 1)
            st = vis_zbar_full_scan (zfull, printing, &img, buf, MAX_DET, &n, &foreign);
          else
            st = vis_zxing_full_scan (printing, &img, buf, MAX_DET, &n, &foreign);
          s->cpu_ms_total += now_ms (CLOCK_PROCESS_CPUTIME_ID) - c0;
          s->frames++;
          if (st == ENG_OK)
            score (s, truth, pipe == 0 ? r.detections : buf, pipe == 0 ? r.n_detections : n);
        }
      if (st != ENG_OK)
        {
          cli_say ("bench vision", _("condition %s: %s"), c->name, eng_status_to_string (st));
          ok = FALSE;
        }
    }
  *module_px = module_n ? module_sum / module_n : 0;
  g_free (truth);
  g_free (img.data);
  vis_renderer_free (renderer);
  vis_scene_free (scene);
  vis_detector_set_printing (det, NULL);
  eng_printing_free (printing);
  return ok;
}

/* --conditions: one line per condition, the detector beside zbar; with
 * `print_scene` the scene of each chosen condition instead. */
static int
bench_conditions (long min_codes, long threads, const char *only, gboolean print_scene)
{
  unsigned n_conditions = 0, shown = 0;
  const VisCondition *conditions = vis_conditions (&n_conditions);
  if (print_scene)
    {
      for (unsigned i = 0; i < n_conditions; i++)
        if (only == NULL || g_str_has_prefix (conditions[i].name, only))
          {
            unsigned n_frames;
            char *text = vis_condition_scene (&conditions[i], (unsigned) min_codes, &n_frames);
            if (text == NULL)
              return 2;
            fputs (text, stdout);
            free (text);
          }
      return 0;
    }
  VisDetector *det = new_detector (threads);
  VisZbarFull *zfull = vis_zbar_full_new ();
  VisDetection *buf = g_new (VisDetection, MAX_DET);
  int rc = 0;
  if (det == NULL || zfull == NULL)
    {
      cli_say ("bench vision", "%s", _("cannot create the detector"));
      rc = 2;
    }
  if (rc == 0)
    {
      printf ("bench vision --conditions: at least %ld codes per condition, cold detection, %ld thread(s)\n",
              min_codes, threads);
      printf ("%-18s %9s %5s %6s | %-7s %8s %5s %7s | %8s %5s %7s | %8s %5s %7s\n", "condition", "size",
              "px/m", "codes", "goal", "tablero", "wrong", "cpu ms", "zbar", "wrong", "cpu ms", "zxing",
              "wrong", "cpu ms");
    }
  for (unsigned i = 0; i < n_conditions && rc == 0; i++)
    {
      const VisCondition *c = &conditions[i];
      if (only != NULL && !g_str_has_prefix (c->name, only))
        continue;
      PipeStats cold = { "tablero cold", NULL, 0, 0, 0, 0, 0, 0 };
      PipeStats zbar = { "zbar full frame", NULL, 0, 0, 0, 0, 0, 0 };
      PipeStats zxing = { "zxing-cpp full frame", NULL, 0, 0, 0, 0, 0, 0 };
      double module_px = 0;
      if (!bench_condition (c, (unsigned) min_codes, det, zfull, buf, &cold, &zbar, &zxing, &module_px))
        {
          rc = 2;
          break;
        }
      char goal[16] = "-";
      if (c->min_recall > 0)
        g_snprintf (goal, sizeof goal, ">=%.0f%%", 100 * c->min_recall);
      char size[16];
      g_snprintf (size, sizeof size, "%dx%d", c->width, c->height);
      printf ("%-18s %9s %5.2f %6u | %-7s %7.2f%% %5u %7.1f | %7.2f%% %5u %7.1f", c->name, size, module_px,
              cold.expected, goal, cold.expected ? 100.0 * cold.found / cold.expected : 0, cold.wrong,
              cold.cpu_ms_total / cold.frames, zbar.expected ? 100.0 * zbar.found / zbar.expected : 0,
              zbar.wrong, zbar.cpu_ms_total / zbar.frames);
      if (zxing.frames > 0)
        printf (" | %7.2f%% %5u %7.1f\n", zxing.expected ? 100.0 * zxing.found / zxing.expected : 0,
                zxing.wrong, zxing.cpu_ms_total / zxing.frames);
      else
        printf (" | %8s\n", "-");
      fflush (stdout);
      shown++;
    }
  if (rc == 0 && shown == 0)
    {
      cli_say ("bench vision", _("no condition starts with '%s'"), only);
      rc = 2;
    }
  g_free (buf);
  vis_zbar_full_free (zfull);
  vis_detector_free (det);
  return rc;
}

/* --photos: frames rendered elsewhere (the physically based test table,
 * tests/vision/physical), each IMAGE.jpg beside its IMAGE.truth
 * (vis_truth_read_text).  Codes are counted by how many pixels a module
 * spans, fully visible ones only; wrong identities over everything. */
enum { BAND_FAR, BAND_TABLE, BAND_CLOSE, BAND_UHD, N_BANDS };
static const char *const band_names[N_BANDS] = { "under 1.5 px/module", "1.5-2.6 px/module",
                                                 "2.6 px/module and more", "4K frames (all)" };

typedef struct {
  unsigned expected[N_BANDS], found[N_BANDS];
  unsigned wrong, frames;
  double cpu_ms;
} PhotoStats;

static int
band_of (const VisTruthTag *t)
{
  return t->module_px < 1.5 ? BAND_FAR : t->module_px < 2.6 ? BAND_TABLE : BAND_CLOSE;
}

static void
score_photo (PhotoStats *s, const VisTruth *truth, int width, const VisDetection *d, size_t n)
{
  PipeStats plain = { "", NULL, 0, 0, 0, 0, 0, 0 };
  score (&plain, truth, d, n);   /* for the wrong identities */
  s->wrong += plain.wrong;
  for (unsigned t = 0; t < truth->n_tags; t++)
    {
      const VisTruthTag *tag = &truth->tags[t];
      if (tag->kind == VIS_TRUTH_FOREIGN || !tag->in_view || tag->occluded)
        continue;
      float cx = 0, cy = 0;
      for (int k = 0; k < 4; k++)
        cx += tag->corners[k][0] / 4, cy += tag->corners[k][1] / 4;
      float side = hypotf (tag->corners[1][0] - tag->corners[0][0], tag->corners[1][1] - tag->corners[0][1]);
      bool found = false;
      for (size_t i = 0; i < n && !found; i++)
        found = strcmp (d[i].payload, tag->payload) == 0
                && hypotf (d[i].centre.x - cx, d[i].centre.y - cy) < 0.5f * side + 4;
      int band = width > 3000 ? BAND_UHD : band_of (tag);
      s->expected[band]++;
      s->found[band] += found;
    }
}

static int
cmp_name (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static int
bench_photos (const char *dir, long threads)
{
  g_autoptr (GError) error = NULL;
  GDir *d = g_dir_open (dir, 0, &error);
  if (d == NULL)
    {
      cli_say ("bench vision", "%s", error->message);
      return 2;
    }
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  for (const char *name; (name = g_dir_read_name (d)) != NULL;)
    if (g_str_has_suffix (name, ".jpg"))
      g_ptr_array_add (names, g_strndup (name, strlen (name) - 4));
  g_dir_close (d);
  g_ptr_array_sort (names, cmp_name);
  EngPrinting *printing = cli_printing_for_every_game ("bench vision");
  VisDetector *det = new_detector (threads);
  VisZbarFull *zfull = vis_zbar_full_new ();
  VisDetection *buf = g_new (VisDetection, MAX_DET);
  VisTruth *truth = g_new (VisTruth, 1);
  PhotoStats stats[3];
  memset (stats, 0, sizeof stats);
  int rc = printing && det && zfull ? 0 : 2;
  if (det != NULL)
    vis_detector_set_printing (det, printing);
  for (guint i = 0; i < names->len && rc == 0; i++)
    {
      const char *base = names->pdata[i];
      g_autofree char *jpg = g_strdup_printf ("%s/%s.jpg", dir, base);
      g_autofree char *tpath = g_strdup_printf ("%s/%s.truth", dir, base);
      g_autofree char *text = NULL;
      gsize len = 0;
      int tw = 0, th = 0;
      EngParseError perr = { 0 };
      if (!g_file_get_contents (tpath, &text, &len, NULL))
        continue;   /* an image without truth is not measured */
      if (vis_truth_read_text (text, len, truth, &tw, &th, &perr) != ENG_OK)
        {
          cli_say ("bench vision", "%s:%u: %s", tpath, perr.line, perr.reason);
          rc = 2;
          break;
        }
      VisImage img;
      char reason[128];
      if (vis_image_load (jpg, &img, reason, sizeof reason) != ENG_OK)
        {
          cli_say ("bench vision", "%s: %s", jpg, reason);
          rc = 2;
          break;
        }
      for (int pipe = 0; pipe < 3; pipe++)
        {
          if (pipe == 2 && !vis_zxing_available ())
            continue;
          const VisDetection *found = buf;
          size_t n = 0;
          unsigned foreign = 0;
          VisDetectResult r;
          EngStatus st;
          double c0 = now_ms (CLOCK_PROCESS_CPUTIME_ID);
          if (pipe == 0)
            {
              vis_detector_reset (det);
              st = vis_detector_detect (det, &img, VIS_DETECT_COLD, &r);
              found = r.detections;
              n = r.n_detections;
            }
          else if (pipe == 1)
            st = vis_zbar_full_scan (zfull, printing, &img, buf, MAX_DET, &n, &foreign);
          else
            st = vis_zxing_full_scan (printing, &img, buf, MAX_DET, &n, &foreign);
          stats[pipe].cpu_ms += now_ms (CLOCK_PROCESS_CPUTIME_ID) - c0;
          stats[pipe].frames++;
          if (st == ENG_OK)
            score_photo (&stats[pipe], truth, img.width, found, n);
        }
      vis_image_release (&img);
    }
  if (rc == 0)
    {
      static const char *const pipes[3] = { "tablero cold", "zbar full frame", "zxing-cpp full frame" };
      printf ("bench vision --photos %s: %u frames, fully visible stickers by module size, %ld thread(s)\n", dir,
              stats[0].frames, threads);
      printf ("%-22s", "pipeline");
      for (int b = 0; b < N_BANDS; b++)
        printf (" | %-22s", band_names[b]);
      printf (" | %5s %7s\n", "wrong", "cpu ms");
      for (int p = 0; p < 3; p++)
        {
          if (stats[p].frames == 0)
            continue;
          printf ("%-22s", pipes[p]);
          for (int b = 0; b < N_BANDS; b++)
            printf (" | %7.2f%% (%4u of %4u)", stats[p].expected[b] ? 100.0 * stats[p].found[b] / stats[p].expected[b] : 0,
                    stats[p].found[b], stats[p].expected[b]);
          printf (" | %5u %7.1f\n", stats[p].wrong, stats[p].cpu_ms / stats[p].frames);
        }
    }
  g_free (truth);
  g_free (buf);
  vis_zbar_full_free (zfull);
  vis_detector_free (det);
  eng_printing_free (printing);
  g_ptr_array_unref (names);
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
  gboolean baselines = !no_baselines;
  if ((frames_arg != NULL && !cli_parse_long ("bench vision", "--frames", frames_arg, 2, 10000, &n_frames))
      || (threads_arg != NULL && !cli_parse_long ("bench vision", "--threads", threads_arg, 1, 8, &threads)))
    return 2;
  if (photos != NULL)
    return bench_photos (photos, threads);
  if (conditions)
    {
      long min_codes = 100;
      if (codes_arg != NULL && !cli_parse_long ("bench vision", "--codes", codes_arg, 1, 100000, &min_codes))
        return 2;
      return bench_conditions (min_codes, threads, only, print_scene);
    }
  if (print_scene)
    {
      /* The default scene as a file, to render or edit. */
      g_autofree char *text = default_scene (uhd);
      fputs (text, stdout);
      return 0;
    }

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
      return 2;
    }
  if (vis_scene_needs_card_set (scene))
    {
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
          return 2;
        }
    }

  EngPrinting *printing = NULL;
  if (!cli_printing_for_scene ("bench vision", scene, &printing))
    {
      vis_scene_free (scene);
      return 2;
    }
  VisRenderer *renderer = NULL;
  st = vis_renderer_new (scene, 0, &renderer);
  if (st != ENG_OK)
    {
      cli_say ("bench vision", _("renderer: %s"), eng_status_to_string (st));
      vis_scene_free (scene);
      eng_printing_free (printing);
      return 2;
    }
  const int w = vis_scene_width (scene), h = vis_scene_height (scene);
  const double fps = vis_scene_fps (scene);
  const size_t stride = (size_t) w * 3;
  guint8 *pixels = g_malloc ((size_t) n_frames * stride * h);
  VisTruth *truths = g_new0 (VisTruth, n_frames);
  double min_module = 1e9;
  for (long f = 0; f < n_frames; f++)
    {
      VisImage img = { w, h, stride, VIS_PIXEL_BGR8, pixels + (size_t) f * stride * h };
      st = vis_renderer_render (renderer, f / fps, &img, &truths[f]);
      if (st != ENG_OK)
        {
          cli_say ("bench vision", _("render: %s"), eng_status_to_string (st));
          vis_renderer_free (renderer);
          vis_scene_free (scene);
          eng_printing_free (printing);
          g_free (pixels);
          g_free (truths);
          return 2;
        }
      for (unsigned t = 0; t < truths[f].n_tags; t++)
        if (truths[f].tags[t].kind != VIS_TRUTH_FOREIGN && truths[f].tags[t].in_view)
          min_module = MIN (min_module, truths[f].tags[t].module_px);
    }
  vis_renderer_free (renderer);

  VisDetector *det = new_detector (threads);
  VisZbarFull *zfull = vis_zbar_full_new ();
  VisDetection *buf = g_new (VisDetection, MAX_DET);
  PipeStats stats[4] = {
    { "tablero cold", g_array_new (FALSE, FALSE, sizeof (double)), 0, 0, 0, 0, 0, 0 },
    { "tablero tracking", g_array_new (FALSE, FALSE, sizeof (double)), 0, 0, 0, 0, 0, 0 },
    { "zbar full frame", g_array_new (FALSE, FALSE, sizeof (double)), 0, 0, 0, 0, 0, 0 },
    { "zxing-cpp full frame", g_array_new (FALSE, FALSE, sizeof (double)), 0, 0, 0, 0, 0, 0 },
  };
  rc = 0;
  if (det == NULL || zfull == NULL)
    {
      cli_say ("bench vision", "%s", _("cannot create the detector"));
      rc = 2;
      goto out;
    }
  vis_detector_set_printing (det, printing);

  /* Warm-up: buffers reach their size, threads spin up. */
  {
    VisImage img = { w, h, stride, VIS_PIXEL_BGR8, pixels };
    VisDetectResult r;
    vis_detector_detect (det, &img, VIS_DETECT_COLD, &r);
  }
  unsigned reused = 0, detected_tracking = 0, cold_in_tracking = 0;
  size_t heap_before_tracking = 0, heap_after_tracking = 0;
  for (int pipe = 0; pipe < 4; pipe++)
    {
      if (pipe >= 2 && !baselines)
        continue;
      if (pipe == 3 && !vis_zxing_available ())
        continue;
      PipeStats *s = &stats[pipe];
      vis_detector_reset (det);
      for (long f = 0; f < n_frames; f++)
        {
          VisImage img = { w, h, stride, VIS_PIXEL_BGR8, pixels + (size_t) f * stride * h };
          const VisDetection *d = NULL;
          size_t n = 0;
          unsigned foreign = 0;
          VisDetectResult r;
          double c0 = now_ms (CLOCK_PROCESS_CPUTIME_ID), t0 = now_ms (CLOCK_MONOTONIC);
          if (pipe == 0)
            {
              vis_detector_reset (det);
              st = vis_detector_detect (det, &img, VIS_DETECT_COLD, &r);
            }
          else if (pipe == 1)
            st = vis_detector_detect (det, &img, VIS_DETECT_TRACK, &r);
          else if (pipe == 2)
            st = vis_zbar_full_scan (zfull, printing, &img, buf, MAX_DET, &n, &foreign);
          else
            st = vis_zxing_full_scan (printing, &img, buf, MAX_DET, &n, &foreign);
          double t1 = now_ms (CLOCK_MONOTONIC), c1 = now_ms (CLOCK_PROCESS_CPUTIME_ID);
          if (st != ENG_OK)
            {
              fprintf (stderr, "tablero-cli bench vision: %s: %s\n", s->name, eng_status_to_string (st));
              rc = 2;
              goto out;
            }
          if (pipe <= 1)
            {
              d = r.detections;
              n = r.n_detections;
              foreign = r.n_foreign;
            }
          else
            d = buf;
          /* Tracking starts from nothing: its first frame is a cold pass and
           * is left out of the tracking figures (it is what "cold" measures). */
          if (pipe == 1 && f == 0)
            continue;
          if (pipe == 1 && f == 5)
            heap_before_tracking = mallinfo2 ().uordblks;
          if (pipe == 1 && f == n_frames - 1)
            heap_after_tracking = mallinfo2 ().uordblks;
          if (pipe == 1)
            {
              reused += r.n_reused;
              detected_tracking += (unsigned) r.n_detections;
              cold_in_tracking += r.mode_used == VIS_DETECT_COLD;
            }
          double ms = t1 - t0;
          g_array_append_val (s->wall_ms, ms);
          s->cpu_ms_total += c1 - c0;
          s->frames++;
          s->foreign += foreign;
          score (s, &truths[f], d, n);
        }
    }

  printf ("bench vision: %ld frames %dx%d, %s, %ld thread(s); smallest module %.2f px\n", n_frames, w, h,
          scene_path ? scene_path : uhd ? "default 40-card scene at 4K" : "default 40-card scene", threads, min_module);
  printf ("%-22s %6s %9s %6s %9s %9s %9s %9s\n", "pipeline", "frames", "recall", "wrong", "median ms",
          "p95 ms", "cpu ms", "vs zbar");
  double zbar_median = baselines ? percentile (stats[2].wall_ms, 0.5) : 0;
  for (int pipe = 0; pipe < 4; pipe++)
    if (stats[pipe].frames > 0)
      report (&stats[pipe], pipe == 2 ? 0 : zbar_median);
  if (!vis_zxing_available () && baselines)
    printf ("(zxing-cpp: not in this build)\n");
  printf ("tracking: %u of %u identities kept without re-decoding; %u periodic cold pass(es)\n", reused,
          detected_tracking, cold_in_tracking);
  if (n_frames > 6)
    printf ("heap in use, tracking frame 5 -> last: %+ld bytes\n",
            (long) heap_after_tracking - (long) heap_before_tracking);

out:
  for (int i = 0; i < 4; i++)
    g_array_unref (stats[i].wall_ms);
  g_free (buf);
  vis_zbar_full_free (zfull);
  vis_detector_free (det);
  vis_scene_free (scene);
  eng_printing_free (printing);
  g_free (pixels);
  g_free (truths);
  return rc;
}

/* tablero-cli bench vision --photos DIR: the detector beside zbar and
 * ZXing-cpp on photos of a table with their ground truth. */
#include "cmd-bench-vision-private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vis-baseline.h"
#include "vis-imageio.h"

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
  bench_vision_score (&plain, truth, d, n);   /* for the wrong identities */
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

/* The photos of `dir` that can be measured, sorted by name, without
 * their ".jpg"; NULL after saying why the folder cannot be read. */
static GPtrArray *
list_photos (const char *dir)
{
  g_autoptr (GError) error = NULL;
  GDir *d = g_dir_open (dir, 0, &error);
  if (d == NULL)
    {
      cli_say ("bench vision", "%s", error->message);
      return NULL;
    }
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  for (const char *name; (name = g_dir_read_name (d)) != NULL;)
    if (g_str_has_suffix (name, ".jpg"))
      g_ptr_array_add (names, g_strndup (name, strlen (name) - 4));
  g_dir_close (d);
  g_ptr_array_sort (names, cmp_name);
  return names;
}

/* The three pipelines --photos compares, each photo seen cold. */
enum { PHOTO_COLD, PHOTO_ZBAR, PHOTO_ZXING, N_PHOTO_PIPES };

typedef struct {
  EngPrinting *printing;
  VisDetector *det;
  VisZbarFull *zfull;
  VisDetection *buf;     /* MAX_DET detections of the full-frame decoders */
  VisTruth *truth;
  PhotoStats stats[N_PHOTO_PIPES];
  gboolean baselines;    /* the full-frame decoders too */
} PhotoBench;

static void
measure_photo (PhotoBench *b, const VisImage *img)
{
  for (int pipe = 0; pipe < N_PHOTO_PIPES; pipe++)
    {
      if ((pipe == PHOTO_ZXING && !vis_zxing_available ()) || (pipe != PHOTO_COLD && !b->baselines))
        continue;
      const VisDetection *found = b->buf;
      size_t n = 0;
      unsigned foreign = 0;
      VisDetectResult r;
      EngStatus st;
      double c0 = bench_vision_now_ms (CLOCK_PROCESS_CPUTIME_ID);
      if (pipe == PHOTO_COLD)
        {
          vis_detector_reset (b->det);
          st = vis_detector_detect (b->det, img, VIS_DETECT_COLD, &r);
          found = r.detections;
          n = r.n_detections;
        }
      else if (pipe == PHOTO_ZBAR)
        st = vis_zbar_full_scan (b->zfull, b->printing, img, b->buf, MAX_DET, &n, &foreign);
      else
        st = vis_zxing_full_scan (b->printing, img, b->buf, MAX_DET, &n, &foreign);
      b->stats[pipe].cpu_ms += bench_vision_now_ms (CLOCK_PROCESS_CPUTIME_ID) - c0;
      b->stats[pipe].frames++;
      if (st == ENG_OK)
        score_photo (&b->stats[pipe], b->truth, img->width, found, n);
    }
}

/* One photo beside its truth; a photo without truth is not measured.
 * false after saying why a truth or a photo cannot be read. */
static bool
bench_photo (PhotoBench *b, const char *dir, const char *base)
{
  g_autofree char *jpg = g_strdup_printf ("%s/%s.jpg", dir, base);
  g_autofree char *tpath = g_strdup_printf ("%s/%s.truth", dir, base);
  g_autofree char *text = NULL;
  gsize len = 0;
  int tw = 0, th = 0;
  EngParseError perr = { 0 };
  if (!g_file_get_contents (tpath, &text, &len, NULL))
    return true;
  if (vis_truth_read_text (text, len, b->truth, &tw, &th, &perr) != ENG_OK)
    {
      cli_say ("bench vision", "%s:%u: %s", tpath, perr.line, perr.reason);
      return false;
    }
  VisImage img;
  char reason[128];
  if (vis_image_load (jpg, &img, reason, sizeof reason) != ENG_OK)
    {
      cli_say ("bench vision", "%s: %s", jpg, reason);
      return false;
    }
  measure_photo (b, &img);
  vis_image_release (&img);
  return true;
}

static void
print_photo_report (const PhotoBench *bench, const char *dir, long threads)
{
  static const char *const pipes[N_PHOTO_PIPES] = { "tablero cold", "zbar full frame", "zxing-cpp full frame" };
  const PhotoStats *stats = bench->stats;
  printf ("bench vision --photos %s: %u frames, fully visible stickers by module size, %ld thread(s)\n", dir,
          stats[0].frames, threads);
  printf ("%-22s", "pipeline");
  for (int b = 0; b < N_BANDS; b++)
    printf (" | %-22s", band_names[b]);
  printf (" | %5s %7s\n", "wrong", "cpu ms");
  for (int p = 0; p < N_PHOTO_PIPES; p++)
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

int
bench_vision_photos (const char *dir, long threads, gboolean baselines)
{
  GPtrArray *names = list_photos (dir);
  if (names == NULL)
    return 2;
  PhotoBench b = { .baselines = baselines };
  b.printing = cli_printing_for_every_game ("bench vision");
  b.det = bench_vision_new_detector (threads);
  b.zfull = vis_zbar_full_new ();
  b.buf = g_new (VisDetection, MAX_DET);
  b.truth = g_new (VisTruth, 1);
  int rc = b.printing && b.det && b.zfull ? 0 : 2;
  if (b.det != NULL)
    vis_detector_set_printing (b.det, b.printing);
  for (guint i = 0; i < names->len && rc == 0; i++)
    if (!bench_photo (&b, dir, names->pdata[i]))
      rc = 2;
  if (rc == 0)
    print_photo_report (&b, dir, threads);
  g_free (b.truth);
  g_free (b.buf);
  vis_zbar_full_free (b.zfull);
  vis_detector_free (b.det);
  eng_printing_free (b.printing);
  g_ptr_array_unref (names);
  return rc;
}


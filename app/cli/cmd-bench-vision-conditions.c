/* tablero-cli bench vision --conditions: for each real-room condition of
 * vis-conditions.h (glare, noise, soft optics at small modules, motion blur,
 * defocus, 4K), scenes showing at least N codes, and per condition the
 * detector's cold recall, wrong identities and CPU ms per frame beside zbar
 * and ZXing-cpp over the full frame, with the recall the issue asks for.
 * See docs/vision.md. */
#include "cmd-bench-vision-private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vis-baseline.h"
#include "vis-conditions.h"

/* One condition: renders its frames one at a time and runs the detector
 * cold (no history) and zbar over the full frame on each.  Returns FALSE
 * (after saying why) when the scene cannot be made or a pipeline fails. */
static gboolean
bench_condition (const VisCondition *c, unsigned min_codes, VisDetector *det, VisZbarFull *zfull,
                 VisDetection *buf, PipeStats *cold, PipeStats *zbar, PipeStats *zxing, double *module_px,
                 int n_pipes)
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
      for (int pipe = 0; pipe < n_pipes && st == ENG_OK; pipe++)
        {
          if (pipe == 2 && !vis_zxing_available ())
            break;
          PipeStats *s = pipe == 0 ? cold : pipe == 1 ? zbar : zxing;
          VisDetectResult r;
          size_t n = 0;
          unsigned foreign = 0;
          double c0 = bench_vision_now_ms (CLOCK_PROCESS_CPUTIME_ID);
          if (pipe == 0)
            {
              vis_detector_reset (det);
              st = vis_detector_detect (det, &img, VIS_DETECT_COLD, &r);
            }
          else if (pipe == 1)
            st = vis_zbar_full_scan (zfull, printing, &img, buf, MAX_DET, &n, &foreign);
          else
            st = vis_zxing_full_scan (printing, &img, buf, MAX_DET, &n, &foreign);
          s->cpu_ms_total += bench_vision_now_ms (CLOCK_PROCESS_CPUTIME_ID) - c0;
          s->frames++;
          if (st == ENG_OK)
            bench_vision_score (s, truth, pipe == 0 ? r.detections : buf, pipe == 0 ? r.n_detections : n);
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

int
bench_vision_conditions (long min_codes, long threads, const char *only, gboolean print_scene,
                         gboolean baselines)
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
  VisDetector *det = bench_vision_new_detector (threads);
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
      if (!bench_condition (c, (unsigned) min_codes, det, zfull, buf, &cold, &zbar, &zxing, &module_px,
                            baselines ? 3 : 1))
        {
          rc = 2;
          break;
        }
      char goal[16] = "-";
      if (c->min_recall > 0)
        g_snprintf (goal, sizeof goal, ">=%.0f%%", 100 * c->min_recall);
      char size[16];
      g_snprintf (size, sizeof size, "%dx%d", c->width, c->height);
      printf ("%-18s %9s %5.2f %6u | %-7s %7.2f%% %5u %7.1f", c->name, size, module_px,
              cold.expected, goal, cold.expected ? 100.0 * cold.found / cold.expected : 0, cold.wrong,
              cold.cpu_ms_total / cold.frames);
      if (zbar.frames > 0)
        printf (" | %7.2f%% %5u %7.1f", zbar.expected ? 100.0 * zbar.found / zbar.expected : 0,
                zbar.wrong, zbar.cpu_ms_total / zbar.frames);
      else
        printf (" | %8s %5s %7s", "-", "", "");
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


/* The real-room conditions of issue 13 (vision/render/vis-conditions.h):
 * cold detection on every condition's scenes must report no wrong card, and
 * reach the recall the issue asks for where it asks one (glare on a finder,
 * noise up to sigma 16, soft optics down to 2.3 px per module at 1080p and
 * 720p; issue 22: larger highlights, a lamp's anywhere on the code, 2.0 px
 * per module, 4K and 1440p frames).  The same scenes feed `tablero-cli bench vision --conditions`.
 * A few renderer checks come first: the glare and motion words draw what
 * docs/render-scene-format.md says, deterministically. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene-util.h"
#include "vis-conditions.h"
#include "vis-detect.h"

/* Codes shown per condition: enough that one miss is visible at 99%. */
#define MIN_CODES 100

static const VisCondition *
find_condition (const char *name)
{
  unsigned n = 0;
  const VisCondition *all = vis_conditions (&n);
  for (unsigned i = 0; i < n; i++)
    if (strcmp (all[i].name, name) == 0)
      return &all[i];
  cr_assert_fail ("no condition '%s' in vis-conditions.c", name);
  return NULL;
}

static void
run_condition (const char *name)
{
  const VisCondition *c = find_condition (name);
  unsigned n_frames = 0;
  char *text = vis_condition_scene (c, MIN_CODES, &n_frames);
  cr_assert_not_null (text);
  TestScene ts;
  test_scene_open (&ts, text);
  free (text);
  VisDetector *det = test_detector_new (NULL);
  cr_assert_not_null (det);
  TestScore total = { 0, 0, 0, 0 };
  double module_sum = 0;
  unsigned module_n = 0;
  for (unsigned f = 0; f < n_frames; f++)
    {
      test_scene_render (&ts, f);
      for (unsigned t = 0; t < ts.truth->n_tags; t++)
        module_sum += ts.truth->tags[t].module_px, module_n++;
      VisDetectResult r;
      vis_detector_reset (det);
      cr_assert_eq (vis_detector_detect (det, &ts.image, VIS_DETECT_COLD, &r), ENG_OK);
      TestScore s = test_score (ts.truth, r.detections, r.n_detections);
      total.expected += s.expected;
      total.found += s.found;
      total.wrong += s.wrong;
    }
  double recall = total.expected ? (double) total.found / total.expected : 0;
  cr_log_info ("%s: %u/%u found (%.2f%%), %u wrong", name, total.found, total.expected, 100 * recall,
               total.wrong);
  /* The scene is what the condition claims: enough codes, at its module size. */
  cr_expect_geq (total.expected, MIN_CODES, "%s: only %u codes in view", name, total.expected);
  cr_assert_gt (module_n, 0u);
  cr_expect_lt (fabs (module_sum / module_n - c->module_px), 0.03 * c->module_px,
                "%s: modules of %.2f px, not %.2f", name, module_sum / module_n, c->module_px);
  cr_expect_eq (total.wrong, 0, "%s: %u wrong identities", name, total.wrong);
  if (c->min_recall > 0)
    cr_expect_geq (recall, c->min_recall, "%s: recall %.2f%% (%u/%u), the goal is %.0f%%", name, 100 * recall,
                   total.found, total.expected, 100 * c->min_recall);
  vis_detector_free (det);
  test_scene_close (&ts);
}

/* One test per condition, named as in the table. */
Test (conditions, clean) { run_condition ("clean"); }
Test (conditions, glare_finder) { run_condition ("glare-finder"); }
Test (conditions, glare_finder_6) { run_condition ("glare-finder-6"); }
Test (conditions, glare_finder_8) { run_condition ("glare-finder-8"); }
Test (conditions, glare_data) { run_condition ("glare-data"); }
Test (conditions, glare_data_7) { run_condition ("glare-data-7"); }
Test (conditions, glare_data_9) { run_condition ("glare-data-9"); }
Test (conditions, glare_lamp) { run_condition ("glare-lamp"); }
Test (conditions, noise_4) { run_condition ("noise-4"); }
Test (conditions, noise_8) { run_condition ("noise-8"); }
Test (conditions, noise_12) { run_condition ("noise-12"); }
Test (conditions, noise_16) { run_condition ("noise-16"); }
Test (conditions, soft_2_3px_1080p) { run_condition ("soft-2.3px-1080p"); }
Test (conditions, soft_2_5px_1080p) { run_condition ("soft-2.5px-1080p"); }
Test (conditions, soft_2_7px_1080p) { run_condition ("soft-2.7px-1080p"); }
Test (conditions, soft_3_0px_1080p) { run_condition ("soft-3.0px-1080p"); }
Test (conditions, soft_3_5px_1080p) { run_condition ("soft-3.5px-1080p"); }
Test (conditions, soft_2_3px_720p) { run_condition ("soft-2.3px-720p"); }
Test (conditions, soft_2_5px_720p) { run_condition ("soft-2.5px-720p"); }
Test (conditions, soft_2_7px_720p) { run_condition ("soft-2.7px-720p"); }
Test (conditions, soft_3_0px_720p) { run_condition ("soft-3.0px-720p"); }
Test (conditions, soft_3_5px_720p) { run_condition ("soft-3.5px-720p"); }
Test (conditions, soft_2_0px_1080p) { run_condition ("soft-2.0px-1080p"); }
Test (conditions, soft_1_8px_1080p) { run_condition ("soft-1.8px-1080p"); }
Test (conditions, motion_3px) { run_condition ("motion-3px"); }
Test (conditions, motion_7px) { run_condition ("motion-7px"); }
Test (conditions, motion_12px) { run_condition ("motion-12px"); }
Test (conditions, motion_15px) { run_condition ("motion-15px"); }
Test (conditions, defocus_1_0) { run_condition ("defocus-1.0"); }
Test (conditions, defocus_1_7) { run_condition ("defocus-1.7"); }
Test (conditions, defocus_2_0) { run_condition ("defocus-2.0"); }
Test (conditions, defocus_2_5) { run_condition ("defocus-2.5"); }
Test (conditions, uhd_4k) { run_condition ("uhd-4k"); }
Test (conditions, uhd_1440p) { run_condition ("uhd-1440p"); }

/* Every condition in the table has its test above (a new one needs its own). */
Test (conditions, every_condition_is_tested)
{
  static const char *const tested[] = {
    "clean", "glare-finder", "glare-finder-6", "glare-finder-8", "glare-data", "glare-data-7",
    "glare-data-9", "glare-lamp", "noise-4", "noise-8", "noise-12", "noise-16",
    "soft-2.3px-1080p", "soft-2.5px-1080p", "soft-2.7px-1080p", "soft-3.0px-1080p", "soft-3.5px-1080p",
    "soft-2.3px-720p", "soft-2.5px-720p", "soft-2.7px-720p", "soft-3.0px-720p", "soft-3.5px-720p",
    "soft-2.0px-1080p", "soft-1.8px-1080p", "motion-3px", "motion-7px", "motion-12px", "motion-15px",
    "defocus-1.0", "defocus-1.7", "defocus-2.0", "defocus-2.5", "uhd-4k", "uhd-1440p",
  };
  unsigned n = 0;
  const VisCondition *all = vis_conditions (&n);
  cr_expect_eq (n, sizeof tested / sizeof tested[0]);
  for (unsigned i = 0; i < n; i++)
    {
      bool found = false;
      for (size_t k = 0; k < sizeof tested / sizeof tested[0]; k++)
        found = found || strcmp (all[i].name, tested[k]) == 0;
      cr_expect (found, "condition '%s' has no test", all[i].name);
    }
}

/* ---- the renderer's glare and motion words ------------------------------ */

/* A close view (about 10 px per module) of one upright card. */
static const char close_scene[] =
  "image width=320 height=320 fps=1 duration=1 seed=5\n"
  "camera height=110 fov=62 target=60,60\n"
  "table width=120 height=120\n"
  "sticker size=40 quiet=4\n";

/* The grey level (mean of B, G, R) at the centre of module (mx, my) of the
 * only tag in `ts`, mapped through its corners (no perspective here). */
static double
module_grey (const TestScene *ts, double mx, double my)
{
  const VisTruthTag *tag = &ts->truth->tags[0];
  double fx = mx / 21, fy = my / 21;
  double u = tag->corners[0][0] + fx * (tag->corners[1][0] - tag->corners[0][0])
             + fy * (tag->corners[3][0] - tag->corners[0][0]);
  double v = tag->corners[0][1] + fx * (tag->corners[1][1] - tag->corners[0][1])
             + fy * (tag->corners[3][1] - tag->corners[0][1]);
  const uint8_t *p = ts->image.data + (size_t) floor (v) * ts->image.stride + 3 * (size_t) floor (u);
  return (p[0] + p[1] + p[2]) / 3.0;
}

static void
render_close (TestScene *ts, const char *card_words)
{
  char text[1024];
  snprintf (text, sizeof text, "%scard c1 face=3 back=1 at=60,60 %s\n", close_scene, card_words);
  test_scene_open (ts, text);
  test_scene_render (ts, 0);
  cr_assert_eq (ts->truth->n_tags, 1u);
}

Test (conditions, glare_whitens_the_chosen_spot_only)
{
  /* Module (3.5, 3.5) is the top-left finder's dark centre; (17.5, 3.5) the
   * top-right one's; (17.5, 17.5) is never a finder. */
  TestScene plain, tl, data;
  render_close (&plain, "");
  render_close (&tl, "glare=finder-tl");
  render_close (&data, "glare=data glare-size=3");
  cr_expect_lt (module_grey (&plain, 3.5, 3.5), 60, "the finder centre is dark without glare");
  cr_expect_geq (module_grey (&tl, 3.5, 3.5), 254, "glare saturates the top-left finder's centre");
  cr_expect_lt (module_grey (&tl, 17.5, 3.5), 60, "glare on one finder leaves the others");
  cr_expect_lt (module_grey (&data, 3.5, 3.5), 60);
  cr_expect_lt (module_grey (&data, 17.5, 3.5), 60);
  cr_expect_lt (module_grey (&data, 3.5, 17.5), 60, "data glare leaves every finder");
  cr_expect_geq (module_grey (&data, 14.5, 14.5), 254, "data glare saturates the lower right block");
  test_scene_close (&plain);
  test_scene_close (&tl);
  test_scene_close (&data);
}

Test (conditions, glare_and_motion_frames_are_deterministic)
{
  const char *text = "image width=320 height=240 fps=4 duration=1 seed=9\n"
                     "camera height=300 fov=62 target=60,60\n"
                     "table width=120 height=120\n"
                     "card c1 face=3 back=1 at=60,60 rot=20 glare=finder-tr motion=9 motion-angle=30\n"
                     "degrade noise=6 jpeg=80 glare=40,40 glare-size=12 motion=5 motion-angle=100\n";
  TestScene a, b;
  test_scene_open (&a, text);
  test_scene_open (&b, text);
  test_scene_render (&a, 0.5);
  test_scene_render (&b, 0.25);
  test_scene_render (&b, 0.5);   /* another frame in between changes nothing */
  size_t bytes = a.image.stride * (size_t) a.image.height;
  cr_expect_eq (memcmp (a.image.data, b.image.data, bytes), 0, "same (scene, seed, t), same frame");
  test_scene_close (&a);
  test_scene_close (&b);
}

Test (conditions, motion_smears_along_its_direction)
{
  /* A horizontal smear leaves the rows of a finder's top edge as they are
   * but blurs its left edge: compare the steepest step across each edge. */
  TestScene plain, moving;
  render_close (&plain, "");
  render_close (&moving, "motion=12 motion-angle=0");
  const VisTruthTag *tag = &plain.truth->tags[0];
  double module = tag->module_px;
  int x_left = (int) lround (tag->corners[0][0]), y_top = (int) lround (tag->corners[0][1]);
  int mid = (int) lround (3.5 * module);
  double step_x[2] = { 0, 0 }, step_y[2] = { 0, 0 };
  TestScene *both[2] = { &plain, &moving };
  for (int k = 0; k < 2; k++)
    for (int d = -3; d <= 3; d++)
      {
        const uint8_t *img = both[k]->image.data;
        size_t stride = both[k]->image.stride;
        /* across the left edge: along a row through the finder's middle */
        int y = y_top + mid, x = x_left + d;
        step_x[k] = fmax (step_x[k], fabs ((double) img[y * stride + 3 * (x - 1)] - img[y * stride + 3 * x]));
        /* across the top edge: along a column through the finder's middle */
        x = x_left + mid, y = y_top + d;
        step_y[k] = fmax (step_y[k], fabs ((double) img[(y - 1) * stride + 3 * x] - img[y * stride + 3 * x]));
      }
  cr_expect_gt (step_x[0], 100, "the plain left edge is sharp (%.0f)", step_x[0]);
  cr_expect_lt (step_x[1], step_x[0] / 3, "the smear blurs the left edge (%.0f -> %.0f)", step_x[0], step_x[1]);
  cr_expect_gt (step_y[1], step_y[0] * 0.7, "and keeps the top edge (%.0f -> %.0f)", step_y[0], step_y[1]);
  test_scene_close (&plain);
  test_scene_close (&moving);
}

Test (conditions, bad_glare_and_motion_words_are_refused)
{
  static const char *const bad[] = {
    "card c1 face=1 back=1 at=10,10 glare=finder-br\n",
    "card c1 face=1 back=1 at=10,10 glare-size=0\n",
    "card c1 face=1 back=1 at=10,10 motion=65\n",
    "card c1 face=1 back=1 at=10,10 motion=-1\n",
    "anchor a1 number=1 at=10,10 glare=data\n",
    "degrade glare=1\n",
    "degrade glare-size=0\n",
    "degrade motion=100\n",
    "degrade exposure=2\n",
    "at 1 degrade glare=on\n",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      VisScene *scene = NULL;
      EngParseError err = { 0 };
      EngStatus st = vis_scene_parse (bad[i], strlen (bad[i]), "bad", &scene, &err);
      cr_expect_neq (st, ENG_OK, "accepted: %s", bad[i]);
      cr_expect_eq (err.line, 1u, "no line for: %s", bad[i]);
      vis_scene_free (scene);
    }
}

Test (conditions, exposure_smears_only_moving_cards)
{
  /* c1 slides 100 mm in 0.2 s; c2 lies still.  With a 40 ms exposure c1
   * moves 20 mm (tens of pixels) while the shutter is open. */
  const char *base = "image width=320 height=240 fps=10 duration=1 seed=9\n"
                     "camera height=300 fov=62 target=120,80\n"
                     "table width=240 height=160\n"
                     "card c1 face=3 back=1 at=40,80\n"
                     "card c2 face=4 back=1 at=200,80\n"
                     "at 0 move c1 to=140,80 over=0.2\n";
  char with_exposure[1024];
  snprintf (with_exposure, sizeof with_exposure, "%sdegrade exposure=0.04\n", base);
  TestScene sharp, smeared;
  test_scene_open (&sharp, base);
  test_scene_open (&smeared, with_exposure);
  test_scene_render (&sharp, 0.1);
  test_scene_render (&smeared, 0.1);
  cr_assert_eq (sharp.truth->n_tags, 2u);
  cr_assert_eq (smeared.truth->n_tags, 2u);
  /* Count differing pixels inside each card's code (truth lists tags in
   * drawing order: the moved card last). */
  unsigned changed[2] = { 0, 0 };
  for (int k = 0; k < 2; k++)
    {
      const VisTruthTag *tag = &sharp.truth->tags[strcmp (sharp.truth->tags[0].id, k ? "c2" : "c1") == 0 ? 0 : 1];
      cr_assert_str_eq (tag->id, k ? "c2" : "c1");
      int x0 = (int) tag->corners[0][0], x1 = (int) tag->corners[2][0];
      int y0 = (int) tag->corners[0][1], y1 = (int) tag->corners[2][1];
      for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
          {
            size_t at = (size_t) y * sharp.image.stride + 3 * (size_t) x;
            changed[k] += abs (sharp.image.data[at] - smeared.image.data[at]) > 30;
          }
    }
  cr_expect_eq (memcmp (sharp.truth->tags, smeared.truth->tags, 2 * sizeof sharp.truth->tags[0]), 0,
                "the smear leaves the truth as it is");
  cr_expect_gt (changed[0], 100u, "the sliding card is smeared (%u px changed)", changed[0]);
  cr_expect_eq (changed[1], 0u, "the card lying still is not (%u px changed)", changed[1]);
  test_scene_close (&sharp);
  test_scene_close (&smeared);
}

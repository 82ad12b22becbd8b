/* Detection on rendered 1080p scenes: 10, 20 and 40 cards under each
 * degradation, recall and identities against the renderer's ground truth;
 * foreign codes ignored; bad arguments refused. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene-util.h"
#include "vis-detect.h"

typedef struct {
  int cards;
  const char *name;
  double tilt;
  const char *degrade;
} Case;

static const char *const degradations[][2] = {
  { "clean", "" },
  { "uneven-light", "degrade light=0.7\n" },
  { "blur", "degrade blur=1.0\n" },
  { "noise", "degrade noise=8\n" },
  { "jpeg", "degrade jpeg=50\n" },
  { "perspective", "" },
  { "everything", "degrade light=0.5 blur=0.8 noise=5 jpeg=70\n" },
};

static void
run_case (int cards, int which)
{
  const char *name = degradations[which][0];
  double tilt = strcmp (name, "perspective") == 0 || strcmp (name, "everything") == 0 ? 25.0 : 5.0;
  char *text = test_grid_scene (cards, tilt, degradations[which][1]);
  TestScene ts;
  test_scene_open (&ts, text);
  free (text);
  test_scene_render (&ts, 0.0);

  VisDetector *det = test_detector_new (NULL);
  cr_assert_not_null (det);
  VisDetectResult r;
  cr_assert_eq (vis_detector_detect (det, &ts.image, VIS_DETECT_COLD, &r), ENG_OK);
  TestScore s = test_score (ts.truth, r.detections, r.n_detections);
  cr_log_info ("%d cards, %s: %u/%u found, %u wrong, corners within %.2f px", cards, name, s.found, s.expected,
               s.wrong, s.max_corner_err);
  cr_expect_geq (s.expected, (unsigned) cards, "the scene should show every card (%u of %d)", s.expected,
                 cards);
  cr_expect_geq (s.found * 100, s.expected * 99, "%d cards, %s: recall %u/%u", cards, name, s.found,
                 s.expected);
  cr_expect_eq (s.wrong, 0, "%d cards, %s: %u wrong identities", cards, name, s.wrong);
  /* The worst corner depends on the codes' data modules, so on the seals the
   * printing key gives: over keys the 40-card "everything" frame measures
   * 1.87-2.02 px (a 25 degree tilt fitted affinely, about half a module). */
  cr_expect_lt (s.max_corner_err, 2.1f, "%d cards, %s: corners off by %.2f px", cards, name, s.max_corner_err);

  /* Tracking on the same (static) frame finds the same codes. */
  VisDetectResult t;
  cr_assert_eq (vis_detector_detect (det, &ts.image, VIS_DETECT_TRACK, &t), ENG_OK);
  TestScore st = test_score (ts.truth, t.detections, t.n_detections);
  cr_expect_eq (st.found, s.found, "%d cards, %s: tracking found %u, cold %u", cards, name, st.found, s.found);
  cr_expect_eq (st.wrong, 0);
  vis_detector_free (det);
  test_scene_close (&ts);
}

#define CASES(n)                                                                                             \
  Test (detect_##n, clean) { run_case (n, 0); }                                                            \
  Test (detect_##n, uneven_light) { run_case (n, 1); }                                                     \
  Test (detect_##n, blur) { run_case (n, 2); }                                                             \
  Test (detect_##n, noise) { run_case (n, 3); }                                                            \
  Test (detect_##n, jpeg) { run_case (n, 4); }                                                             \
  Test (detect_##n, perspective) { run_case (n, 5); }                                                      \
  Test (detect_##n, everything) { run_case (n, 6); }

CASES (10)
CASES (20)
CASES (40)

Test (detect, foreign_codes_ignored_but_counted)
{
  char *text = test_grid_scene (10, 5.0,
                                "foreign f1 text=\"https://example.org/a\" at=200,250 size=40\n"
                                "foreign f2 text=\"TB1K01F001W\" at=700,250 size=40\n");
  /* f2 carries a valid tag with no seal (the older sticker format) in a
   * foreign symbol (level M): refused and counted like f1, never a card. */
  TestScene ts;
  test_scene_open (&ts, text);
  free (text);
  test_scene_render (&ts, 0.0);
  VisDetector *det = test_detector_new (NULL);
  VisDetectResult r;
  cr_assert_eq (vis_detector_detect (det, &ts.image, VIS_DETECT_COLD, &r), ENG_OK);
  for (size_t i = 0; i < r.n_detections; i++)
    cr_expect_eq (strncmp (r.detections[i].payload, "TB1", 3), 0);
  cr_expect_geq (r.n_foreign, 1u, "the unsealed code is decoded and counted foreign");
  for (size_t i = 0; i < r.n_detections; i++)
    cr_expect (!(r.detections[i].tag.kind == ENG_TAG_FACE && r.detections[i].tag.serial == 1
                 && r.detections[i].centre.x > 1000),
               "the unsealed code was taken as card 1 at %.0f,%.0f", r.detections[i].centre.x,
               r.detections[i].centre.y);
  TestScore s = test_score (ts.truth, r.detections, r.n_detections);
  cr_expect_eq (s.wrong, 0);
  cr_expect_geq (s.found, 10u);
  vis_detector_free (det);
  test_scene_close (&ts);
}

Test (detect, refuses_bad_frames)
{
  VisDetector *det = test_detector_new (NULL);
  cr_assert_not_null (det);
  VisDetectResult r;
  uint8_t px[64 * 64];
  memset (px, 200, sizeof px);
  VisImage ok = { 64, 64, 64, VIS_PIXEL_GRAY8, px };
  cr_expect_eq (vis_detector_detect (det, &ok, VIS_DETECT_COLD, &r), ENG_OK);
  cr_expect_eq (r.n_detections, 0u);
  VisImage bad_stride = { 64, 64, 10, VIS_PIXEL_GRAY8, px };
  cr_expect_eq (vis_detector_detect (det, &bad_stride, VIS_DETECT_COLD, &r), ENG_ERR_INVALID_ARGUMENT);
  VisImage no_data = { 64, 64, 64, VIS_PIXEL_GRAY8, NULL };
  cr_expect_eq (vis_detector_detect (det, &no_data, VIS_DETECT_COLD, &r), ENG_ERR_INVALID_ARGUMENT);
  VisImage bad_format = { 64, 64, 64, (VisPixelFormat) 7, px };
  cr_expect_eq (vis_detector_detect (det, &bad_format, VIS_DETECT_COLD, &r), ENG_ERR_INVALID_ARGUMENT);
  cr_expect_eq (vis_detector_detect (det, NULL, VIS_DETECT_COLD, &r), ENG_ERR_INVALID_ARGUMENT);
  vis_detector_free (det);

  VisDetectorOptions o;
  vis_detector_options_init (&o);
  o.n_threads = 0;
  cr_expect_null (test_detector_new (&o));
}

/* A finder whose outer ring is cut (a card edge, a scratch): the ring no
 * longer encloses a hole, the inner square and the ring rays still make it
 * a finder.  Cuts the bottom-left finder's ring of every card. */
Test (detect, finder_with_broken_ring)
{
  char *text = test_grid_scene (10, 5.0, "");
  TestScene ts;
  test_scene_open (&ts, text);
  free (text);
  test_scene_render (&ts, 0.0);
  unsigned cut = 0;
  for (unsigned t = 0; t < ts.truth->n_tags; t++)
    {
      const VisTruthTag *tag = &ts.truth->tags[t];
      if (tag->kind != VIS_TRUTH_CARD)
        continue;
      const float (*c)[2] = tag->corners;
      /* module (u, v) -> image, affine from the corners */
      for (float u = -0.3f; u <= 1.3f; u += 0.05f)
        for (float dv = -0.3f; dv <= 0.3f; dv += 0.05f)
          {
            float v = 17.5f + dv;
            float x = c[0][0] + u / 21 * (c[1][0] - c[0][0]) + v / 21 * (c[3][0] - c[0][0]);
            float y = c[0][1] + u / 21 * (c[1][1] - c[0][1]) + v / 21 * (c[3][1] - c[0][1]);
            int px = (int) x, py = (int) y;
            if (px < 0 || py < 0 || px >= ts.image.width || py >= ts.image.height)
              continue;
            memset (ts.image.data + (size_t) py * ts.image.stride + (size_t) px * 3, 235, 3);
          }
      cut++;
    }
  cr_assert_eq (cut, 10u);
  VisDetector *det = test_detector_new (NULL);
  VisDetectResult r;
  cr_assert_eq (vis_detector_detect (det, &ts.image, VIS_DETECT_COLD, &r), ENG_OK);
  TestScore s = test_score (ts.truth, r.detections, r.n_detections);
  cr_expect_eq (s.found, 10u, "cut rings: %u of 10 found", s.found);
  cr_expect_eq (s.wrong, 0u);
  vis_detector_free (det);
  test_scene_close (&ts);
}

/* A card turned over where it lies, under the hand that turns it, keeps its
 * sticker's finder patterns in the same place: tracking must read the new
 * code as soon as the hand is gone, not keep the back's identity until the
 * next cold pass. */
Test (detect, flip_in_place_is_read_at_once_while_tracking, .timeout = 120)
{
  static const char *const scene =
    "image width=1280 height=720 fps=30 duration=2 seed=5 format=png\n"
    "camera height=560 tilt=0 fov=62\n"
    "table width=700 height=420\n"
    "tags game=K set=01\n"
    "sticker size=40 quiet=2\n"
    "card c1 face=12 back=1 at=350,210 down\n"
    "card c2 face=40 back=2 at=200,210\n"
    "at 0.7 hand from=350,-80 to=350,215 for=0.6\n"
    "at 1.0 up c1\n";
  TestScene ts;
  test_scene_open (&ts, scene);
  VisDetector *det = test_detector_new (NULL);
  cr_assert_not_null (det);
  char face[12], back[12];
  EngTag t_face = { 'K', "01", ENG_TAG_FACE, 12 }, t_back = { 'K', "01", ENG_TAG_BACK, 1 };
  cr_assert_eq (eng_tag_format (&t_face, face), ENG_OK);
  cr_assert_eq (eng_tag_format (&t_back, back), ENG_OK);
  int first_face_frame = -1;
  for (int f = 0; f < 45; f++)
    {
      test_scene_render (&ts, f / 30.0);
      VisDetectResult r;
      cr_assert_eq (vis_detector_detect (det, &ts.image, f == 0 ? VIS_DETECT_COLD : VIS_DETECT_TRACK, &r),
                    ENG_OK);
      bool has_face = false, has_back = false;
      for (size_t i = 0; i < r.n_detections; i++)
        {
          has_face |= strcmp (r.detections[i].payload, face) == 0;
          has_back |= strcmp (r.detections[i].payload, back) == 0;
        }
      if (f < 20)
        cr_expect (has_back && !has_face, "frame %d: the card lies face down", f);
      else if (has_face && first_face_frame < 0)
        first_face_frame = f;
      if (f >= 30 && has_face)
        cr_expect (!has_back, "frame %d: the back is gone once the face is read", f);
    }
  /* the hand leaves the card about frame 40 (1.3 s) */
  cr_expect (first_face_frame >= 30 && first_face_frame <= 42,
             "the face was read at frame %d, the flip happened at frame 30 under the hand", first_face_frame);
  vis_detector_free (det);
  test_scene_close (&ts);
}

/* Which helper thread took which region must not change what the detector
 * reports: a resumed referee has to see exactly what the killed one saw.  The
 * same frames through two detectors of eight workers each (on fewer cores,
 * so the jobs land differently every frame) give the same codes, in the same
 * order, at the same places; a busy thread competes for the CPU meanwhile.
 * (The worker count itself sets how a cold pass cuts the frame, so both
 * detectors have the same.) */
static void *
burn (void *stop)
{
  volatile unsigned long x = 0;
  while (!__atomic_load_n ((int *) stop, __ATOMIC_RELAXED))
    x++;
  return NULL;
}

Test (detect, same_frames_same_codes_whatever_the_threads, .timeout = 240)
{
  char *text = test_grid_scene (40, 8.0,
                                "degrade noise=6\n"
                                "at 1.0 hand from=440,-100 to=300,200 for=1.5\n"
                                "at 1.2 move c12 to=500,330 over=0.8\n");
  TestScene ts;
  test_scene_open (&ts, text);
  free (text);
  VisDetectorOptions many;
  vis_detector_options_init (&many);
  many.n_threads = 8;
  VisDetector *a = test_detector_new (&many), *b = test_detector_new (&many);
  cr_assert (a != NULL && b != NULL);
  int stop = 0;
  pthread_t hog;
  cr_assert_eq (pthread_create (&hog, NULL, burn, &stop), 0);
  unsigned compared = 0;
  for (int f = 0; f < 30; f++)
    {
      test_scene_render (&ts, f / 10.0);
      VisDetectMode mode = f % 10 == 0 ? VIS_DETECT_COLD : VIS_DETECT_TRACK;
      VisDetectResult ra, rb;
      cr_assert_eq (vis_detector_detect (a, &ts.image, mode, &ra), ENG_OK);
      cr_assert_eq (vis_detector_detect (b, &ts.image, mode, &rb), ENG_OK);
      cr_assert_eq (ra.n_detections, rb.n_detections, "frame %d: %zu codes one time, %zu the next", f,
                    ra.n_detections, rb.n_detections);
      for (size_t i = 0; i < ra.n_detections; i++)
        {
          const VisDetection *da = &ra.detections[i], *db = &rb.detections[i];
          cr_assert_str_eq (da->payload, db->payload, "frame %d, code %zu: %s one time, %s the next",
                            f, i, da->payload, db->payload);
          cr_assert (da->centre.x == db->centre.x && da->centre.y == db->centre.y,
                     "frame %d: %s at (%.2f, %.2f) one time, (%.2f, %.2f) the next", f, da->payload,
                     da->centre.x, da->centre.y, db->centre.x, db->centre.y);
          compared++;
        }
    }
  __atomic_store_n (&stop, 1, __ATOMIC_RELAXED);
  pthread_join (hog, NULL);
  cr_expect_gt (compared, 30u * 30u, "too few codes compared (%u) to prove anything", compared);
  vis_detector_free (a);
  vis_detector_free (b);
  test_scene_close (&ts);
}

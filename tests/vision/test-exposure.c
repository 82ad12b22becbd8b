/* The exposure meter on the stickers (vis-exposure.h) against a simulated
 * camera: a table's light (radiance per pixel: a wooden table, stickers
 * with white and black modules, some of them glossy under a lamp's
 * highlight) taken at an exposure time, the pixel values growing with the
 * time and clipping at 255, with the sensor's noise.  Each frame is metered
 * on the stickers' quads; a proposed time is what the next frames are
 * taken at.  Checked: glossy stickers that clip come back below clipping
 * within a few steps and the time then holds; dim stickers are brought up
 * without clipping a highlight; steps go one way (no oscillation, noise
 * or not); well exposed stickers are left alone; no stickers, no change;
 * the camera's range and step are kept; changes are spaced by the settling
 * time. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vis-exposure.h"

#define W 640
#define H 360
#define N_STICKERS 6
#define MODULE 4
#define FRAME_NS 33333333LL
/* value = 255 * radiance * time / GAIN_TIME: white paper (0.8) at 8 ms is 204 */
#define GAIN_TIME 80.0

typedef struct {
  float rad[H][W][3];
  uint8_t owner[H][W];        /* 0: the table; i + 1: sticker i's white paper */
  VisDetection det[N_STICKERS];
  uint8_t pixels[H * W * 3];
  VisImage image;
  unsigned noise;             /* +- levels of the sensor's noise */
  uint32_t seed;
} Camera;

static const float white_paper = 0.8f, black_ink = 0.06f;

/* A sticker centred at (cx, cy), turned by `deg`, its modules from `bits`. */
static void
paint_sticker (Camera *cam, int index, float cx, float cy, float deg, uint32_t bits)
{
  float half = 21 * MODULE / 2.0f, c = cosf (deg * (float) M_PI / 180), s = sinf (deg * (float) M_PI / 180);
  static const float corner[4][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } };
  VisDetection *d = &cam->det[index];
  for (int i = 0; i < 4; i++)
    {
      float u = corner[i][0] * half, v = corner[i][1] * half;
      d->corners[i] = (VisPoint) { cx + c * u - s * v, cy + s * u + c * v };
    }
  d->centre = (VisPoint) { cx, cy };
  d->module_px = MODULE;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        float dx = x + 0.5f - cx, dy = y + 0.5f - cy;
        float u = c * dx + s * dy + half, v = -s * dx + c * dy + half;
        if (u < 0 || v < 0 || u >= 2 * half || v >= 2 * half)
          continue;
        int mu = (int) (u / MODULE), mv = (int) (v / MODULE);
        uint32_t h = (uint32_t) (mu * 73856093u) ^ (uint32_t) (mv * 19349663u) ^ bits;
        h ^= h >> 13, h *= 0x5bd1e995u, h ^= h >> 15;
        float r = (h & 1) ? black_ink : white_paper;
        for (int k = 0; k < 3; k++)
          cam->rad[y][x][k] = r;
        cam->owner[y][x] = (h & 1) ? 0 : (uint8_t) (index + 1);
      }
}

/* A lamp's reflection on a glossy sticker: adds to white and black alike. */
static void
add_highlight (Camera *cam, float cx, float cy, float sigma, float amplitude)
{
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        float d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
        float a = amplitude * expf (-d2 / (2 * sigma * sigma));
        for (int k = 0; k < 3; k++)
          cam->rad[y][x][k] += a;
      }
}

/* Six stickers on a wooden table; `glossy` of them (0 to 2) under the lamp. */
static Camera *
camera_new (int glossy, unsigned noise)
{
  Camera *cam = calloc (1, sizeof *cam);
  cr_assert_not_null (cam);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        cam->rad[y][x][0] = 0.12f, cam->rad[y][x][1] = 0.2f, cam->rad[y][x][2] = 0.3f;
      }
  for (int i = 0; i < N_STICKERS; i++)
    {
      float cx = 110 + (i % 3) * 210, cy = 95 + (i / 3) * 170;
      paint_sticker (cam, i, cx, cy, i == 4 ? 30.0f : (float) (i * 7), 0x9e3779b9u * (uint32_t) (i + 1));
      if (i < glossy)
        {
          add_highlight (cam, cx + 10, cy - 8, 14, 1.5f);
          cam->det[i].glare = 0.1f;
        }
    }
  cam->image = (VisImage) { W, H, W * 3, VIS_PIXEL_BGR8, cam->pixels };
  cam->noise = noise;
  cam->seed = 12345;
  return cam;
}

/* The frame the camera takes at exposure `time` (100 us units). */
static const VisImage *
take (Camera *cam, int time)
{
  double k = 255.0 * time / GAIN_TIME;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int c = 0; c < 3; c++)
        {
          double v = cam->rad[y][x][c] * k;
          if (cam->noise > 0)
            {
              cam->seed = cam->seed * 1664525u + 1013904223u;
              v += (double) (cam->seed >> 16) / 65536.0 * (2.0 * cam->noise) - cam->noise;
            }
          cam->pixels[((size_t) y * W + x) * 3 + c] = (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : lround (v));
        }
  return &cam->image;
}

/* The worst sticker's share of white paper clipped in the last frame
 * taken, counted from what the scene holds, not from the meter. */
static float
clipped_paper (const Camera *cam)
{
  unsigned paper[N_STICKERS] = { 0 }, clipped[N_STICKERS] = { 0 };
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      if (cam->owner[y][x] > 0)
        {
          const uint8_t *p = &cam->pixels[((size_t) y * W + x) * 3];
          paper[cam->owner[y][x] - 1]++;
          clipped[cam->owner[y][x] - 1] += p[0] >= 250 || p[1] >= 250 || p[2] >= 250;
        }
  float worst = 0;
  for (int i = 0; i < N_STICKERS; i++)
    worst = fmaxf (worst, paper[i] > 0 ? (float) clipped[i] / (float) paper[i] : 0);
  return worst;
}

typedef struct {
  int start, end;             /* times */
  float paper_first, paper_last;  /* the worst sticker's white paper clipped (clipped_paper) */
  unsigned changes, reversals;
  int last_change_frame;
  int64_t min_gap_ns;         /* between two changes */
  VisExposureReading first, last;
  float worst_clipped_after_first;  /* the highest clipped share after the first change */
} Run;

/* `frames` frames from exposure `start`, each proposal taken at once. */
static Run
run (Camera *cam, int start, int frames, const VisExposureRange *range)
{
  VisExposureMeter *m = vis_exposure_meter_new ();
  cr_assert_not_null (m);
  Run r = { .start = start, .last_change_frame = -1, .min_gap_ns = INT64_MAX };
  int time = start, dir = 0;
  int64_t last_ns = -1;
  for (int f = 0; f < frames; f++)
    {
      int64_t ts = f * FRAME_NS;
      VisExposureReading rd;
      cr_assert_eq (vis_exposure_meter_update (m, take (cam, time), ts, cam->det, N_STICKERS, time, range, &rd), ENG_OK);
      if (f == 0)
        r.first = rd, r.paper_first = clipped_paper (cam);
      r.paper_last = clipped_paper (cam);
      if (rd.verdict != VIS_EXPOSURE_SETTLING)
        r.last = rd;
      if (r.changes > 0 && rd.verdict != VIS_EXPOSURE_SETTLING && rd.clipped > r.worst_clipped_after_first)
        r.worst_clipped_after_first = rd.clipped;
      cr_assert (rd.time >= range->min && rd.time <= range->max, "time %d outside %d..%d", rd.time, range->min,
                 range->max);
      cr_assert_eq ((rd.time - range->min) % range->step, 0, "time %d off the camera's step %d", rd.time, range->step);
      if (rd.time == time)
        continue;
      int d = rd.time > time ? 1 : -1;
      r.reversals += dir != 0 && d != dir;
      dir = d;
      r.changes++;
      r.last_change_frame = f;
      if (last_ns >= 0 && ts - last_ns < r.min_gap_ns)
        r.min_gap_ns = ts - last_ns;
      last_ns = ts;
      time = rd.time;
    }
  r.end = time;
  vis_exposure_meter_free (m);
  return r;
}

static const VisExposureRange c920 = { 3, 2047, 1, 250 };

static void
say (const char *what, const Run *r)
{
  fprintf (stderr, "exposure %s: %.1f ms -> %.1f ms in %u steps; the worst sticker's white clipped %.1f%% -> %.1f%%, white %.0f -> %.0f, black %.0f -> %.0f\n",
           what, r->start / 10.0, r->end / 10.0, r->changes, 100 * r->paper_first, 100 * r->paper_last,
           r->first.white, r->last.white, r->first.black, r->last.black);
}

Test (exposure, glossy_stickers_that_clip_come_back_and_hold)
{
  /* one glossy sticker among six is protected as two are */
  for (int glossy = 1; glossy <= 2; glossy++)
    {
      Camera *cam = camera_new (glossy, 0);
      Run r = run (cam, 200, 150, &c920);
      say (glossy == 1 ? "1 glossy, 20 ms" : "2 glossy, 20 ms", &r);
      cr_expect_gt (r.first.clipped, 0.5f, "the start should clip most of the white: %.3f", r.first.clipped);
      cr_expect_eq (r.first.stickers, N_STICKERS);
      cr_expect_leq (r.paper_last, VIS_EXPOSURE_CLIP_MAX, "%d glossy: a sticker still clipped: %.3f at %d", glossy,
                     r.paper_last, r.end);
      cr_expect_leq (fabsf (r.last.clipped - r.paper_last), 0.01f, "the meter saw %.3f clipped, the scene holds %.3f",
                     r.last.clipped, r.paper_last);
      cr_expect_leq (r.changes, 6u, "%u steps", r.changes);
      cr_expect_eq (r.reversals, 0u, "the time went back and forth");
      cr_expect_lt (r.last_change_frame, 75, "still changing at frame %d", r.last_change_frame);
      cr_expect_geq (r.last.white - r.last.black, VIS_EXPOSURE_MIN_CONTRAST, "white %.0f black %.0f",
                     r.last.white, r.last.black);
      cr_expect_gt (r.last.glare, 0.0f, "the detector's glare share is carried");
      cr_expect_geq (r.min_gap_ns, (int64_t) VIS_EXPOSURE_SETTLE_MS * 1000000, "two changes %lld ns apart",
                     (long long) r.min_gap_ns);
      free (cam);
    }
}

Test (exposure, matte_stickers_too_bright_then_longer_no_further_than_clipped)
{
  Camera *cam = camera_new (0, 0);
  Run r = run (cam, 200, 150, &c920);
  say ("matte, 20 ms", &r);
  cr_expect_leq (r.last.clipped, VIS_EXPOSURE_CLIP_OK);
  cr_expect_geq (r.last.white, VIS_EXPOSURE_WHITE_DIM, "left dim: white %.0f at %d", r.last.white, r.end);
  cr_expect_leq (r.reversals, 1u, "one turn at most (shorter past the clip, then back up)");
  cr_expect_leq (r.changes, 6u);
  cr_expect_lt (r.last_change_frame, 75);
  free (cam);
}

Test (exposure, dim_stickers_brighten_without_clipping_a_highlight)
{
  Camera *cam = camera_new (1, 0);
  Run r = run (cam, 10, 150, &c920);
  say ("1 glossy, 1 ms", &r);
  cr_expect_gt (r.end, 10, "never lengthened");
  cr_expect_eq (r.reversals, 0u);
  cr_expect_leq (r.worst_clipped_after_first, VIS_EXPOSURE_CLIP_OK, "a step clipped the highlight: %.3f",
                 r.worst_clipped_after_first);
  cr_expect_geq (r.last.peak, 180.0f, "stopped far below the highlight's clipping: peak %.0f", r.last.peak);
  cr_expect_leq (r.changes, 5u);
  free (cam);

  cam = camera_new (0, 0);
  r = run (cam, 10, 150, &c920);
  say ("matte, 1 ms", &r);
  cr_expect_geq (r.last.white, VIS_EXPOSURE_WHITE_DIM);
  cr_expect_leq (r.last.clipped, VIS_EXPOSURE_CLIP_OK);
  cr_expect_eq (r.reversals, 0u);
  cr_expect_leq (r.changes, 5u);
  free (cam);
}

/* Why: a meter on the whole frame (mid-grey, 118, on average, as webcams
 * aim) sets the time by the dark wooden table and washes the stickers out. */
Test (exposure, a_whole_frame_meter_washes_the_stickers_out)
{
  Camera *cam = camera_new (1, 0);
  const VisImage *img = take (cam, 80);
  double sum = 0;
  for (size_t i = 0; i < (size_t) W * H * 3; i++)
    sum += img->data[i];
  int frame_time = (int) lround (80 * 118.0 / (sum / (W * H * 3)));
  take (cam, frame_time);
  float frame_clipped = clipped_paper (cam);
  Run r = run (cam, frame_time, 150, &c920);
  fprintf (stderr, "exposure: the whole frame metered gives %.1f ms, %.0f%% of the worst sticker's white clipped; "
           "metered on the stickers %.1f ms, %.1f%%\n", frame_time / 10.0, 100 * frame_clipped, r.end / 10.0,
           100 * r.paper_last);
  cr_expect_gt (frame_clipped, 0.5f, "the whole frame's meter left the stickers unclipped: %.3f", frame_clipped);
  cr_expect_leq (r.paper_last, VIS_EXPOSURE_CLIP_MAX);
  free (cam);
}

Test (exposure, well_exposed_stickers_are_left_alone)
{
  Camera *cam = camera_new (0, 3);
  Run r = run (cam, 80, 100, &c920);
  cr_expect_eq (r.changes, 0u, "changed %u times, to %d", r.changes, r.end);
  cr_expect_eq (r.last.verdict, VIS_EXPOSURE_WELL, "%s", vis_exposure_verdict_to_string (r.last.verdict));
  free (cam);
}

Test (exposure, noise_never_makes_it_oscillate)
{
  for (unsigned noise = 6; noise <= 12; noise += 6)
    for (int glossy = 0; glossy <= 2; glossy += 2)
      {
        Camera *cam = camera_new (glossy, noise);
        Run r = run (cam, 200, 180, &c920);
        cr_expect_leq (r.reversals, glossy ? 0u : 1u, "noise %u glossy %d: %u reversals", noise, glossy, r.reversals);
        cr_expect_lt (r.last_change_frame, 120, "noise %u glossy %d: still changing at frame %d", noise, glossy,
                      r.last_change_frame);
        cr_expect_leq (r.last.clipped, VIS_EXPOSURE_CLIP_MAX, "noise %u glossy %d", noise, glossy);
        free (cam);
      }
}

Test (exposure, without_stickers_nothing_changes)
{
  Camera *cam = camera_new (2, 0);
  VisExposureMeter *m = vis_exposure_meter_new ();
  VisExposureReading rd;
  for (int f = 0; f < 30; f++)
    {
      cr_assert_eq (vis_exposure_meter_update (m, take (cam, 200), f * FRAME_NS, NULL, 0, 200, &c920, &rd), ENG_OK);
      cr_expect_eq (rd.verdict, VIS_EXPOSURE_NO_STICKERS);
      cr_expect_eq (rd.time, 200);
    }
  /* stickers whose quads lie outside the frame are none either */
  VisDetection away = cam->det[0];
  for (int i = 0; i < 4; i++)
    away.corners[i].x += 2 * W;
  cr_assert_eq (vis_exposure_meter_update (m, take (cam, 200), 40 * FRAME_NS, &away, 1, 200, &c920, &rd), ENG_OK);
  cr_expect_eq (rd.verdict, VIS_EXPOSURE_NO_STICKERS);
  cr_expect_eq (rd.time, 200);
  vis_exposure_meter_free (m);
  free (cam);
}

Test (exposure, the_cameras_range_and_step_are_kept)
{
  Camera *cam = camera_new (2, 0);
  VisExposureRange narrow = { 60, 400, 7, 100 };
  Run r = run (cam, 200, 150, &narrow);
  cr_expect_eq (r.end, 60, "the shortest the camera takes: %d", r.end);
  cr_expect_eq (r.last.verdict, VIS_EXPOSURE_AT_LIMIT, "%s", vis_exposure_verdict_to_string (r.last.verdict));
  cr_expect_eq (r.reversals, 0u);
  free (cam);
}

Test (exposure, a_time_set_by_hand_is_metered_at_once)
{
  Camera *cam = camera_new (2, 0);
  VisExposureMeter *m = vis_exposure_meter_new ();
  VisExposureReading rd;
  cr_assert_eq (vis_exposure_meter_update (m, take (cam, 200), 0, cam->det, N_STICKERS, 200, &c920, &rd), ENG_OK);
  cr_assert_eq (rd.verdict, VIS_EXPOSURE_SHORTER);
  /* the next frame is within the settling time: held */
  cr_assert_eq (vis_exposure_meter_update (m, take (cam, rd.time), FRAME_NS, cam->det, N_STICKERS, rd.time, &c920, &rd), ENG_OK);
  cr_expect_eq (rd.verdict, VIS_EXPOSURE_SETTLING);
  /* someone set 25.0 ms meanwhile: no settling for a change it did not make */
  cr_assert_eq (vis_exposure_meter_update (m, take (cam, 250), 2 * FRAME_NS, cam->det, N_STICKERS, 250, &c920, &rd), ENG_OK);
  cr_expect_eq (rd.verdict, VIS_EXPOSURE_SHORTER);
  cr_expect_lt (rd.time, 250);
  vis_exposure_meter_free (m);
  free (cam);
}

Test (exposure, bad_arguments_are_refused)
{
  Camera *cam = camera_new (0, 0);
  VisExposureMeter *m = vis_exposure_meter_new ();
  VisExposureReading rd = { .time = -7 };
  const VisImage *img = take (cam, 80);
  VisExposureRange upside_down = { 100, 50, 1, 60 };
  cr_expect_eq (vis_exposure_meter_update (NULL, img, 0, cam->det, 1, 80, &c920, &rd), ENG_ERR_INVALID_ARGUMENT);
  cr_expect_eq (vis_exposure_meter_update (m, NULL, 0, cam->det, 1, 80, &c920, &rd), ENG_ERR_INVALID_ARGUMENT);
  cr_expect_eq (vis_exposure_meter_update (m, img, 0, NULL, 1, 80, &c920, &rd), ENG_ERR_INVALID_ARGUMENT);
  cr_expect_eq (vis_exposure_meter_update (m, img, 0, cam->det, 1, 80, &upside_down, &rd), ENG_ERR_INVALID_ARGUMENT);
  cr_expect_eq (vis_exposure_meter_update (m, img, 0, cam->det, 1, 5000, &c920, &rd), ENG_ERR_INVALID_ARGUMENT);
  VisImage narrow = *img;
  narrow.stride = 10;
  cr_expect_eq (vis_exposure_meter_update (m, &narrow, 0, cam->det, 1, 80, &c920, &rd), ENG_ERR_INVALID_ARGUMENT);
  cr_expect_eq (rd.time, -7, "the reading was touched");
  cr_expect_str_eq (vis_exposure_verdict_to_string (VIS_EXPOSURE_SHORTER), "shorter");
  cr_expect_str_eq (vis_exposure_verdict_to_string ((VisExposureVerdict) 99), "unknown verdict");
  vis_exposure_meter_free (m);
  vis_exposure_meter_free (NULL);
  free (cam);
}

/* Lens calibration from checkerboard photos: synthetic views of a board
 * through a known barrel-distorted camera; the fit must recover the
 * distortion closely enough that undistorting a point lands where the
 * distortion-free camera would see it. */
#include <criterion/criterion.h>

#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cal-lens.h"

#define W 800
#define H 600

static const CalLens truth = {
  .valid = true,
  .width = W,
  .height = H,
  .k = { 700, 0, 400, 0, 700, 300, 0, 0, 1 },
  .dist = { -0.25, 0.08, 0, 0, 0 },
};

/* A 10x7-square board (9x6 inner corners, 30 mm squares) seen from `pose`,
 * saved as a PNG. */
static void
save_board (const double pose[6], const char *path)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, W, H);
  uint8_t *gray = malloc ((size_t) W * H);
  cr_assert_eq (cal_lens_draw_checkerboard (&truth, 10, 7, 30.0, pose, gray, W), ENG_OK);
  cairo_surface_flush (s);
  uint8_t *data = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        uint8_t v = gray[y * W + x];
        ((uint32_t *) (data + (size_t) y * stride))[x] = (uint32_t) v << 16 | (uint32_t) v << 8 | v;
      }
  cairo_surface_mark_dirty (s);
  cr_assert_eq (cairo_surface_write_to_png (s, path), CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (s);
  free (gray);
}

Test (lens, checkerboard_recovers_distortion, .timeout = 120)
{
  char dir[] = "/tmp/tablero-lens-XXXXXX";
  cr_assert_not_null (mkdtemp (dir));
  static const double poses[][6] = {
    { 0.0, 0.0, 0.0, -135, -90, 520 },  { 0.3, 0.0, 0.0, -135, -90, 540 },
    { -0.3, 0.1, 0.0, -135, -90, 560 }, { 0.0, 0.35, 0.1, -135, -90, 520 },
    { 0.1, -0.35, -0.1, -135, -90, 540 }, { 0.25, 0.25, 0.3, -100, -120, 600 },
    { -0.2, -0.25, -0.2, -180, -60, 480 },
  };
  enum { N = sizeof poses / sizeof poses[0] };
  char files[N + 1][64];
  const char *paths[N + 1];
  for (size_t i = 0; i < N; i++)
    {
      snprintf (files[i], sizeof files[i], "%s/board-%zu.png", dir, i);
      save_board (poses[i], files[i]);
      paths[i] = files[i];
    }
  snprintf (files[N], sizeof files[N], "%s/missing.png", dir);
  paths[N] = files[N];

  CalLens lens;
  size_t skipped = 0;
  EngStatus st = cal_lens_calibrate_checkerboard (paths, N + 1, 9, 6, 30.0, &lens, &skipped);
  cr_assert_eq (st, ENG_OK, "%s", eng_status_to_string (st));
  cr_expect_eq (skipped, 1u, "the missing photo is skipped and counted");
  cr_expect (lens.valid);
  cr_expect_lt (lens.rms_px, 0.5, "rms %.3f px", lens.rms_px);
  cr_expect_float_eq (lens.k[0], 700.0, 15.0, "fx %.1f", lens.k[0]);

  /* A point near the corner, as the true lens shows it, undistorted by the
   * fit, lands where the distortion-free camera sees it (within 3 px). */
  const double ix = 180.5, iy = 130.5;
  double xy[2] = { ix, iy };
  cal_lens_distort_points (&truth, xy, 1);
  cr_expect_gt (hypot (xy[0] - ix, xy[1] - iy), 10.0, "the test point should be strongly distorted");
  cal_lens_undistort_points (&lens, xy, 1);
  cr_expect_lt (hypot (xy[0] - ix, xy[1] - iy), 3.0, "undistorted to %.2f,%.2f (want %.1f,%.1f; k1 %.3f k2 %.3f)",
                xy[0], xy[1], ix, iy, lens.dist[0], lens.dist[1]);
  /* distort and undistort with the same lens are inverses */
  double back[2] = { 300.5, 450.5 };
  cal_lens_distort_points (&truth, back, 1);
  cal_lens_undistort_points (&truth, back, 1);
  cr_expect_float_eq (back[0], 300.5, 0.05);
  cr_expect_float_eq (back[1], 450.5, 0.05);

  for (size_t i = 0; i < N; i++)
    unlink (files[i]);
  rmdir (dir);
}

Test (lens, synthetic_board_refuses_bad_arguments)
{
  uint8_t pixel;
  const double pose[6] = { 0, 0, 0, 0, 0, 500 };
  CalLens invalid = truth;
  invalid.valid = false;
  cr_expect_eq (cal_lens_draw_checkerboard (&invalid, 10, 7, 30, pose, &pixel, W), ENG_ERR_INVALID_ARGUMENT);
  cr_expect_eq (cal_lens_draw_checkerboard (&truth, 1, 7, 30, pose, &pixel, W), ENG_ERR_INVALID_ARGUMENT);
  cr_expect_eq (cal_lens_draw_checkerboard (&truth, 10, 7, 30, pose, &pixel, 10), ENG_ERR_INVALID_ARGUMENT);
}

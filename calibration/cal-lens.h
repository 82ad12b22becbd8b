/* cal-lens.h: lens distortion (OpenCV's pinhole + k1 k2 p1 p2 k3 model) and
 * the plane geometry calibration needs.  C faces of OpenCV code. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eng-status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  bool valid;               /* false: no distortion correction */
  int width, height;        /* image size the intrinsics belong to */
  double k[9];              /* camera matrix, row-major */
  double dist[5];           /* k1 k2 p1 p2 k3 */
  double rms_px;            /* reprojection error of the fit (0 when loaded) */
} CalLens;

/* Bounds of a calibration checkerboard: inner corners per side, square size.
 * Printed boards have 4-20 corners a side; beyond these the corner search
 * only burns time and memory. */
#define CAL_LENS_MAX_CORNERS 64
#define CAL_LENS_MAX_SQUARE_MM 1000.0

/* Calibrates from checkerboard photos: `cols` x `rows` inner corners (2 to
 * CAL_LENS_MAX_CORNERS each), squares of `square_mm` (up to
 * CAL_LENS_MAX_SQUARE_MM).  Images that cannot be read or show no board are
 * skipped and counted in *n_skipped (may be NULL).  Needs at least 3 usable
 * images: ENG_ERR_NOT_FOUND otherwise; ENG_ERR_INVALID_ARGUMENT for bad
 * sizes; ENG_ERR_INCONSISTENT when images differ in size. */
EngStatus cal_lens_calibrate_checkerboard (const char *const *paths, size_t n_paths, int cols, int rows,
                                           double square_mm, CalLens *out, size_t *n_skipped);

/* Removes lens distortion from `n` pixel points (x, y pairs, in place;
 * pixel-centre convention +0.5 kept).  A lens with valid == false changes
 * nothing. */
void cal_lens_undistort_points (const CalLens *lens, double *xy, size_t n);

/* Least-squares homography mapping `n` >= 4 points `src` (x, y pairs) to
 * `dst`; `h` row-major 3x3.  Returns ENG_ERR_INCONSISTENT for degenerate
 * input (collinear points). */
/* The inverse of cal_lens_undistort_points: ideal (distortion-free) pixel
 * positions in the lens's camera matrix to where the lens shows them.  A
 * lens that is not valid leaves the points as they are. */
void cal_lens_distort_points (const CalLens *lens, double *xy, size_t n);

/* Draws what `lens` (width x height) shows of a checkerboard of
 * `squares_x` x `squares_y` squares of `square_mm`, posed by `pose`
 * (Rodrigues rotation rx ry rz, then translation tx ty tz in mm), into the
 * caller's grey image: dark and light squares, grey elsewhere.  For testing
 * lens calibration on photos whose truth is known; ENG_ERR_INVALID_ARGUMENT
 * for a lens that is not valid or sizes that do not fit. */
EngStatus cal_lens_draw_checkerboard (const CalLens *lens, int squares_x, int squares_y, double square_mm,
                                      const double pose[6], uint8_t *gray, size_t stride);

EngStatus cal_fit_homography (const double *src, const double *dst, size_t n, double h[9]);

#ifdef __cplusplus
}
#endif

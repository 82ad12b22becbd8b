/* Lens calibration from checkerboard photos: synthetic views of a board
 * through a known barrel-distorted camera; the fit must recover the
 * distortion closely enough that undistorting a point lands where the
 * distortion-free camera would see it. */
#include <criterion/criterion.h>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" {
#include "eng-status.h"
}
#include "cal-lens.h"

static const int W = 800, H = 600;
static const cv::Matx33d K (700, 0, 400, 0, 700, 300, 0, 0, 1);
static const double DIST[5] = { -0.25, 0.08, 0, 0, 0 };

/* Renders a 10x7-square board (9x6 inner corners, 30 mm squares) seen from
 * pose (rvec, tvec), through the distorted camera: every pixel is
 * undistorted, cast onto the board plane and coloured by the square. */
static cv::Mat
render_board (cv::Vec3d rvec, cv::Vec3d tvec)
{
  cv::Mat img (H, W, CV_8UC1, cv::Scalar (200));
  std::vector<cv::Point2d> px, und;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      px.emplace_back (x, y);
  cv::Mat dist (1, 5, CV_64F, (void *) DIST);
  cv::undistortPoints (px, und, cv::Mat (K), dist);
  cv::Matx33d R;
  cv::Rodrigues (rvec, R);
  /* plane z = 0 in board coordinates: X = R^T (s*d - t), solve z = 0 */
  cv::Matx33d Rt = R.t ();
  for (int i = 0; i < W * H; i++)
    {
      cv::Vec3d d (und[i].x, und[i].y, 1.0);
      cv::Vec3d a = Rt * d, b = Rt * tvec;
      if (std::fabs (a[2]) < 1e-12)
        continue;
      double s = b[2] / a[2];
      if (s <= 0)
        continue;
      cv::Vec3d X = s * a - b;
      int cx = (int) std::floor (X[0] / 30.0 + 1.0), cy = (int) std::floor (X[1] / 30.0 + 1.0);
      if (cx < 0 || cy < 0 || cx >= 10 || cy >= 7)
        continue;
      img.at<uint8_t> (i / W, i % W) = ((cx + cy) & 1) ? 30 : 230;
    }
  return img;
}

Test (lens, checkerboard_recovers_distortion, .timeout = 120)
{
  char dir[] = "/tmp/tablero-lens-XXXXXX";
  cr_assert_not_null (mkdtemp (dir));
  std::vector<std::string> files;
  const double poses[][6] = {
    { 0.0, 0.0, 0.0, -135, -90, 520 },  { 0.3, 0.0, 0.0, -135, -90, 540 },
    { -0.3, 0.1, 0.0, -135, -90, 560 }, { 0.0, 0.35, 0.1, -135, -90, 520 },
    { 0.1, -0.35, -0.1, -135, -90, 540 }, { 0.25, 0.25, 0.3, -100, -120, 600 },
    { -0.2, -0.25, -0.2, -180, -60, 480 },
  };
  for (size_t i = 0; i < sizeof poses / sizeof poses[0]; i++)
    {
      cv::Mat img = render_board (cv::Vec3d (poses[i][0], poses[i][1], poses[i][2]),
                                  cv::Vec3d (poses[i][3], poses[i][4], poses[i][5]));
      files.push_back (std::string (dir) + "/board-" + std::to_string (i) + ".png");
      cr_assert (cv::imwrite (files.back (), img));
    }
  files.push_back (std::string (dir) + "/missing.png");
  std::vector<const char *> paths;
  for (auto &f : files)
    paths.push_back (f.c_str ());
  CalLens lens;
  size_t skipped = 0;
  EngStatus st = cal_lens_calibrate_checkerboard (paths.data (), paths.size (), 9, 6, 30.0, &lens, &skipped);
  cr_assert_eq (st, ENG_OK, "%s", eng_status_to_string (st));
  cr_expect_eq (skipped, 1u, "the missing photo is skipped and counted");
  cr_expect (lens.valid);
  cr_expect_lt (lens.rms_px, 0.5, "rms %.3f px", lens.rms_px);
  cr_expect_float_eq (lens.k[0], 700.0, 15.0, "fx %.1f", lens.k[0]);
  /* A distorted point near the corner, undistorted by the fit, lands where
   * the true model puts it (within a pixel). */
  const double ix = 180.0, iy = 130.0;
  std::vector<cv::Point2d> distorted;
  cv::Mat dist (1, 5, CV_64F, (void *) DIST);
  std::vector<cv::Point3d> ray { { (ix - 400) / 700, (iy - 300) / 700, 1.0 } };
  cv::projectPoints (ray, cv::Vec3d (0, 0, 0), cv::Vec3d (0, 0, 0), cv::Mat (K), dist, distorted);
  double xy[2] = { distorted[0].x + 0.5, distorted[0].y + 0.5 };
  cal_lens_undistort_points (&lens, xy, 1);
  /* Undistortion maps into the fitted camera matrix, close to K. */
  cr_expect_lt (std::hypot (xy[0] - 0.5 - ix, xy[1] - 0.5 - iy), 3.0, "undistorted to %.2f,%.2f (want %.0f,%.0f; k1 %.3f k2 %.3f)",
                xy[0] - 0.5, xy[1] - 0.5, ix, iy, lens.dist[0], lens.dist[1]);
  cr_expect_gt (std::hypot (distorted[0].x - ix, distorted[0].y - iy), 10.0,
                "the test point should be strongly distorted");
  for (auto &f : files)
    unlink (f.c_str ());
  rmdir (dir);
}

/* cal-lens.cpp: see cal-lens.h. */
extern "C" {
#include "eng-status.h"
}
#include "cal-lens.h"
#include "vis-imageio.h"

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstring>
#include <cmath>
#include <vector>

extern "C" EngStatus
cal_lens_calibrate_checkerboard (const char *const *paths, size_t n_paths, int cols, int rows,
                                 double square_mm, CalLens *out, size_t *n_skipped)
{
  if (paths == nullptr || out == nullptr || cols < 2 || rows < 2 || cols > CAL_LENS_MAX_CORNERS
      || rows > CAL_LENS_MAX_CORNERS || !(square_mm > 0 && square_mm <= CAL_LENS_MAX_SQUARE_MM))
    return ENG_ERR_INVALID_ARGUMENT;
  std::memset (out, 0, sizeof *out);
  size_t skipped = 0;
  try
    {
      std::vector<std::vector<cv::Point3f>> object;
      std::vector<std::vector<cv::Point2f>> image;
      std::vector<cv::Point3f> board;
      for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
          board.emplace_back ((float) (c * square_mm), (float) (r * square_mm), 0.0f);
      cv::Size size;
      for (size_t i = 0; i < n_paths; i++)
        {
          /* vis_image_load says why a file is unusable without OpenCV
           * printing to stderr; such photos are skipped and counted. */
          VisImage img;
          cv::Mat g;
          if (vis_image_load (paths[i], &img, nullptr, 0) == ENG_OK)
            {
              cv::cvtColor (cv::Mat (img.height, img.width, CV_8UC3, img.data, img.stride), g, cv::COLOR_BGR2GRAY);
              vis_image_release (&img);
            }
          std::vector<cv::Point2f> corners;
          if (g.empty () || !cv::findChessboardCorners (g, cv::Size (cols, rows), corners))
            {
              skipped++;
              continue;
            }
          if (size.area () == 0)
            size = g.size ();
          else if (size != g.size ())
            {
              if (n_skipped)
                *n_skipped = skipped;
              return ENG_ERR_INCONSISTENT;
            }
          cv::cornerSubPix (g, corners, cv::Size (5, 5), cv::Size (-1, -1),
                            cv::TermCriteria (cv::TermCriteria::EPS | cv::TermCriteria::COUNT, 30, 0.01));
          image.push_back (corners);
          object.push_back (board);
        }
      if (n_skipped)
        *n_skipped = skipped;
      if (image.size () < 3)
        return ENG_ERR_NOT_FOUND;
      cv::Mat k, dist;
      std::vector<cv::Mat> rv, tv;
      double rms = cv::calibrateCamera (object, image, size, k, dist, rv, tv);
      out->valid = true;
      out->width = size.width;
      out->height = size.height;
      for (int i = 0; i < 9; i++)
        out->k[i] = k.at<double> (i / 3, i % 3);
      for (int i = 0; i < 5 && i < (int) dist.total (); i++)
        out->dist[i] = dist.at<double> (i);
      out->rms_px = rms;
    }
  catch (const cv::Exception &)
    {
      return ENG_ERR_INCONSISTENT;
    }
  return ENG_OK;
}

extern "C" void
cal_lens_undistort_points (const CalLens *lens, double *xy, size_t n)
{
  if (lens == nullptr || !lens->valid || n == 0)
    return;
  std::vector<cv::Point2d> in (n), outp;
  for (size_t i = 0; i < n; i++)
    in[i] = cv::Point2d (xy[2 * i] - 0.5, xy[2 * i + 1] - 0.5);
  cv::Mat k (3, 3, CV_64F, (void *) lens->k), d (1, 5, CV_64F, (void *) lens->dist);
  cv::undistortPoints (in, outp, k, d, cv::noArray (), k);
  for (size_t i = 0; i < n; i++)
    {
      xy[2 * i] = outp[i].x + 0.5;
      xy[2 * i + 1] = outp[i].y + 0.5;
    }
}

extern "C" void
cal_lens_distort_points (const CalLens *lens, double *xy, size_t n)
{
  if (lens == nullptr || !lens->valid || n == 0)
    return;
  std::vector<cv::Point3d> rays (n);
  std::vector<cv::Point2d> outp;
  const double *k = lens->k;
  for (size_t i = 0; i < n; i++)
    rays[i] = cv::Point3d ((xy[2 * i] - 0.5 - k[2]) / k[0], (xy[2 * i + 1] - 0.5 - k[5]) / k[4], 1.0);
  cv::Mat km (3, 3, CV_64F, (void *) lens->k), d (1, 5, CV_64F, (void *) lens->dist);
  cv::projectPoints (rays, cv::Vec3d (0, 0, 0), cv::Vec3d (0, 0, 0), km, d, outp);
  for (size_t i = 0; i < n; i++)
    {
      xy[2 * i] = outp[i].x + 0.5;
      xy[2 * i + 1] = outp[i].y + 0.5;
    }
}

extern "C" EngStatus
cal_lens_draw_checkerboard (const CalLens *lens, int squares_x, int squares_y, double square_mm,
                            const double pose[6], uint8_t *gray, size_t stride)
{
  if (lens == nullptr || !lens->valid || pose == nullptr || gray == nullptr || squares_x < 2
      || squares_y < 2 || square_mm <= 0 || lens->width <= 0 || lens->height <= 0
      || stride < (size_t) lens->width)
    return ENG_ERR_INVALID_ARGUMENT;
  try
    {
      const int w = lens->width, h = lens->height;
      /* Every pixel is undistorted, cast onto the board plane z = 0 and
       * coloured by the square it meets: X = R^T (s d - t), with s from z = 0. */
      std::vector<cv::Point2d> px, und;
      px.reserve ((size_t) w * h);
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          px.emplace_back (x, y);
      cv::Mat km (3, 3, CV_64F, (void *) lens->k), d (1, 5, CV_64F, (void *) lens->dist);
      cv::undistortPoints (px, und, km, d);
      cv::Matx33d r;
      cv::Rodrigues (cv::Vec3d (pose[0], pose[1], pose[2]), r);
      cv::Matx33d rt = r.t ();
      cv::Vec3d t (pose[3], pose[4], pose[5]);
      for (int i = 0; i < w * h; i++)
        {
          uint8_t value = 200;
          cv::Vec3d a = rt * cv::Vec3d (und[i].x, und[i].y, 1.0), b = rt * t;
          double s = std::fabs (a[2]) < 1e-12 ? -1 : b[2] / a[2];
          if (s > 0)
            {
              cv::Vec3d x = s * a - b;
              int cx = (int) std::floor (x[0] / square_mm + 1.0), cy = (int) std::floor (x[1] / square_mm + 1.0);
              if (cx >= 0 && cy >= 0 && cx < squares_x && cy < squares_y)
                value = ((cx + cy) & 1) ? 30 : 230;
            }
          gray[(size_t) (i / w) * stride + (size_t) (i % w)] = value;
        }
    }
  catch (const cv::Exception &)
    {
      return ENG_ERR_INVALID_ARGUMENT;
    }
  return ENG_OK;
}

extern "C" EngStatus
cal_fit_homography (const double *src, const double *dst, size_t n, double h[9])
{
  if (src == nullptr || dst == nullptr || h == nullptr || n < 4)
    return ENG_ERR_INVALID_ARGUMENT;
  try
    {
      std::vector<cv::Point2d> a (n), b (n);
      for (size_t i = 0; i < n; i++)
        {
          a[i] = cv::Point2d (src[2 * i], src[2 * i + 1]);
          b[i] = cv::Point2d (dst[2 * i], dst[2 * i + 1]);
        }
      cv::Mat m = cv::findHomography (a, b, 0);
      if (m.empty ())
        return ENG_ERR_INCONSISTENT;
      for (int i = 0; i < 9; i++)
        h[i] = m.at<double> (i / 3, i % 3);
    }
  catch (const cv::Exception &)
    {
      return ENG_ERR_INCONSISTENT;
    }
  return ENG_OK;
}

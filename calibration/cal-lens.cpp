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
#include <vector>

extern "C" EngStatus
cal_lens_calibrate_checkerboard (const char *const *paths, size_t n_paths, int cols, int rows,
                                 double square_mm, CalLens *out, size_t *n_skipped)
{
  if (paths == nullptr || out == nullptr || cols < 2 || rows < 2 || !(square_mm > 0))
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

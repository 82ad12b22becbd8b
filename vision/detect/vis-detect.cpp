/* vis-detect.cpp: see vis-detect.h for the strategy. */
#include "vis-detect-private.h"

#include <opencv2/calib3d.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>

using namespace vis_detect;

extern "C" void
vis_detector_options_init (VisDetectorOptions *opts)
{
  opts->n_threads = 2;
  opts->max_detections = 256;
  opts->min_module_px = 2.0f;
  opts->max_module_px = 12.0f;
  opts->cold_interval = 30;
}

extern "C" VisDetector *
vis_detector_new (const VisDetectorOptions *opts)
{
  VisDetectorOptions o;
  vis_detector_options_init (&o);
  if (opts != nullptr)
    o = *opts;
  if (o.n_threads < 1 || o.n_threads > 8 || o.max_detections < 1
      || !(o.min_module_px >= 1.0f) || !(o.max_module_px > o.min_module_px)
      || o.cold_interval < 1)
    return nullptr;

  VisDetector *det = new (std::nothrow) VisDetector (o);
  if (det == nullptr)
    return nullptr;
  try
    {
      det->workers.resize (o.n_threads);
      for (auto &w : det->workers)
        {
          w.scanner = zbar::zbar_image_scanner_create ();
          w.image = zbar::zbar_image_create ();
          if (w.scanner == nullptr || w.image == nullptr)
            throw std::bad_alloc ();
          zbar::zbar_image_scanner_set_config (w.scanner, zbar::ZBAR_NONE, zbar::ZBAR_CFG_ENABLE, 0);
          zbar::zbar_image_scanner_set_config (w.scanner, zbar::ZBAR_QRCODE, zbar::ZBAR_CFG_ENABLE, 1);
          zbar::zbar_image_set_format (w.image, zbar_fourcc ('Y', '8', '0', '0'));
          w.warp.create (WARP_SIZE, WARP_SIZE, CV_8UC1);
          w.crisp.create (CRISP_SIZE, CRISP_SIZE, CV_8UC1);
          w.found.reserve (o.max_detections);
          w.found_reused.reserve (o.max_detections);
          w.found_job.reserve (o.max_detections);
          w.finders.reserve (1024);
        }
      det->results.reserve (o.max_detections);
      det->previous.reserve (o.max_detections);
      det->previous_misses.reserve (o.max_detections);
      det->still.reserve (o.max_detections);
      det->finders.reserve (1024);
      det->finders_all.reserve (1024 * o.n_threads);
      det->found_order.reserve (o.max_detections * o.n_threads);
      det->candidates.reserve (512);
      det->regions.reserve (o.max_detections + 8);
      det->triples.reserve (4096);
    }
  catch (...)
    {
      vis_detector_free (det);
      return nullptr;
    }
  if (!det->pool.start ())
    {
      vis_detector_free (det);
      return nullptr;
    }
  return det;
}

extern "C" void
vis_detector_free (VisDetector *det)
{
  if (det == nullptr)
    return;
  det->pool.stop ();
  for (auto &w : det->workers)
    {
      if (w.image != nullptr)
        zbar::zbar_image_destroy (w.image);
      if (w.scanner != nullptr)
        zbar::zbar_image_scanner_destroy (w.scanner);
    }
  delete det;
}

extern "C" void
vis_detector_reset (VisDetector *det)
{
  if (det == nullptr)
    return;
  det->previous.clear ();
  det->previous_misses.clear ();
  det->frames_since_cold = 0;
  det->still_fresh = true;
  det->barren_colds = 0;
  det->last_cold_count = 0;
}

extern "C" void
vis_detector_set_printing (VisDetector *det, const EngPrinting *printing)
{
  if (det == nullptr)
    return;
  for (auto &w : det->workers)
    w.printing = printing;
  /* The sets the printing holds, as the first characters of their
   * stickers (vis_qr_decode_expecting): found by asking for each game
   * letter and set id, once. */
  det->n_prefixes = 0;
  static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (char game = 'A'; printing != nullptr && game <= 'Z'; game++)
    for (int a = 0; a < 36; a++)
      for (int b = 0; b < 36 && det->n_prefixes < MAX_PREFIXES; b++)
        {
          const char set[3] = { digits[a], digits[b], '\0' };
          if (eng_printing_has_set (printing, game, set))
            std::snprintf (det->prefixes[det->n_prefixes++], PREFIX_LEN + 1, "TB1%c%s", game, set);
        }
  vis_detector_reset (det);
}

namespace {

/* Converts the part of `frame` under `r` (work pixels) into det->gray;
 * a large frame is averaged down to work pixels on the way (INTER_AREA,
 * through `tmp` for colour). */
void
to_gray (VisDetector *det, const VisImage *frame, const cv::Rect &r, cv::Mat &tmp)
{
  cv::Mat dst = det->gray (r);
  if (det->scale == 1)
    {
      if (frame->format == VIS_PIXEL_GRAY8)
        return; /* det->gray wraps the frame itself */
      cv::Mat src (frame->height, frame->width, CV_8UC3, (void *) frame->data, frame->stride);
      cv::cvtColor (src (r), dst, cv::COLOR_BGR2GRAY);
      return;
    }
  const int k = det->scale;
  const cv::Rect fr (r.x * k, r.y * k, r.width * k, r.height * k);
  if (frame->format == VIS_PIXEL_GRAY8)
    {
      cv::Mat src (frame->height, frame->width, CV_8UC1, (void *) frame->data, frame->stride);
      cv::resize (src (fr), dst, r.size (), 0, 0, cv::INTER_AREA);
      return;
    }
  cv::Mat src (frame->height, frame->width, CV_8UC3, (void *) frame->data, frame->stride);
  cv::Mat small = scratch (tmp, r.size (), 3);
  cv::resize (src (fr), small, r.size (), 0, 0, cv::INTER_AREA);
  cv::cvtColor (small, dst, cv::COLOR_BGR2GRAY);
}

void
set_spread (Finder &f, const cv::Moments &m)
{
  f.cxx = (float) (m.mu20 / m.m00);
  f.cxy = (float) (m.mu11 / m.m00);
  f.cyy = (float) (m.mu02 / m.m00);
}

/* Keeps a finder at `centre` (work pixels, `m` the moments of its shape)
 * when its region owns that spot and its module is within the limits. */
void
add_finder (VisDetector *det, Worker &w, const Region &reg, cv::Point2f centre, float module,
            const cv::Moments &m)
{
  const VisDetectorOptions &o = det->opts;
  if (!reg.own.contains (cv::Point ((int) centre.x, (int) centre.y)))
    return;
  if (module < o.min_module_px * 0.7f || module > o.max_module_px * 1.3f)
    return;
  Finder f;
  f.centre = centre;
  f.module = module;
  set_spread (f, m);
  f.used = false;
  f.inferred = false;
  w.finders.push_back (f);
}

/* Along one ray from a finder's centre in the binary image: the inner
 * square's half (1.5 modules), the light ring (1), the dark ring (1), then
 * light.  On a rotated finder the ray crosses the rings obliquely, so every
 * run is longer by the same factor (up to sqrt 2) and only ratios count. */
bool
ray_matches (const cv::Mat &bin, cv::Point2f c, int dx, int dy, float module)
{
  int runs[3] = { 0, 0, 0 };
  int which = 0;
  const int limit = (int) std::ceil (module * 6.0f) + 2;
  int x = (int) c.x, y = (int) c.y;
  for (int t = 0; t < limit; t++, x += dx, y += dy)
    {
      if (x < 0 || y < 0 || x >= bin.cols || y >= bin.rows)
        return false;
      bool dark = bin.at<uint8_t> (y, x) != 0;
      bool want_dark = (which & 1) == 0;
      if (dark != want_dark)
        {
          which++;
          if (which == 3)
            break;
        }
      runs[which]++;
    }
  if (which < 3)
    return false;
  float a = runs[0] + 0.5f, b = (float) runs[1], cc = (float) runs[2];
  return a > 0.9f * module && a < 2.6f * module && b > 0.3f * a && b < 1.2f * a && cc > 0.3f * a
         && cc < 1.3f * a;
}

/* A childless dark blob shaped like a finder's 3x3 inner square, with the
 * ring pattern around it on at least three of four rays, is a finder. */
void
try_inner_square (VisDetector *det, Worker &w, const Region &reg, int i, float min_area, float max_area)
{
  double area = cv::contourArea (w.contours[i]);
  if (area < min_area || area > max_area)
    return;
  /* Cheapest tests first: most blobs here are clusters of data modules. */
  cv::Moments m = cv::moments (w.contours[i]);
  if (m.m00 <= 0.0)
    return;
  cv::Point2f c ((float) (m.m10 / m.m00), (float) (m.m01 / m.m00));
  float module = (float) (std::sqrt (area) + 1.0) / 3.0f;
  int hits = ray_matches (w.bin, c, 1, 0, module) + ray_matches (w.bin, c, -1, 0, module)
             + ray_matches (w.bin, c, 0, 1, module) + ray_matches (w.bin, c, 0, -1, module);
  if (hits < 3)
    return;
  cv::RotatedRect box = cv::minAreaRect (w.contours[i]);
  float bw = box.size.width, bh = box.size.height;
  if (bw <= 0 || bh <= 0 || std::max (bw, bh) > 1.4f * std::min (bw, bh) || area < 0.7 * bw * bh)
    return;
  add_finder (det, w, reg, cv::Point2f (c.x + reg.rect.x + 0.5f, c.y + reg.rect.y + 0.5f), module, m);
}

/* How far below the local mean a pixel must be to count as dark: a tenth
 * of the region's contrast (2nd to 98th percentile of a sparse sample), in
 * 6..20 grey levels.  Deep enough that a small code's one-module light
 * ring, greyed by a soft lens, stays light; shallow enough for a dim,
 * flat image. */
int
contrast_offset (const cv::Mat &roi, std::vector<unsigned> &hist)
{
  hist.assign (256, 0);
  unsigned n = 0;
  for (int y = 1; y < roi.rows; y += 4)
    {
      const uint8_t *row = roi.ptr<uint8_t> (y);
      for (int x = 1; x < roi.cols; x += 4, n++)
        hist[row[x]]++;
    }
  unsigned acc = 0;
  int lo = 0, hi = 255;
  for (int v = 0; v < 256; v++)
    {
      acc += hist[v];
      if (acc * 50 <= n)
        lo = v;
      if (acc * 50 <= n * 49)
        hi = v;
    }
  return std::clamp ((int) std::lround (0.1 * (hi - lo)), CONTRAST_OFFSET_MIN, CONTRAST_OFFSET_MAX);
}

/* The region of the work image a finder search reads, filtered for the
 * frame's noise and the codes' size; `offset` is how far below the local
 * mean a pixel must be to count as dark. */
cv::Mat
filtered_roi (VisDetector *det, Worker &w, const Region &reg, int &offset)
{
  /* Small codes are looked for in the frames fused so far (the frame
   * itself where anything moved): noise closes their finders first. */
  cv::Mat roi = (det->sharpen && det->still_now ? det->still_grey : det->gray) (reg.rect);
  if (roi.cols < 16 || roi.rows < 16)
    return roi;
  /* Sensor noise turns the binary image to salt: every speck is a contour
   * to trace and test, and a frame costs 5-7 times a clean one.  On a noisy
   * frame a 3x3 Gaussian first (it keeps 0.375 of the noise) and a cut
   * three of those sigmas deep keep the specks out.  Not when the table's
   * codes are small (see smooth_allowed): on a soft image the kernel closes
   * the one-module light ring of a 2.5 px finder, and recall beats time. */
  offset = contrast_offset (roi, w.hist);
  if (det->noise > NOISY_SIGMA && !det->sharpen)
    {
      cv::GaussianBlur (roi, w.smooth, cv::Size (3, 3), 0, 0, cv::BORDER_REPLICATE);
      roi = w.smooth;
      offset = std::max (offset, (int) std::lround (3.0f * 0.375f * det->noise));
    }
  else if (det->sharpen)
    {
      /* Small soft codes (under SMOOTH_MIN_MODULE px a module): the blur
       * greys a finder's one-module light ring until the cut below takes
       * it for dark and the finder's topology is gone.  An unsharp mask
       * (the image plus the difference from a Gaussian of 1.5 px) gives
       * the ring its contrast back: at 2 px a module it finds every
       * finder where the plain image gives almost none. */
      cv::Mat sharp = scratch (w.sharpened, roi.size (), 1);
      cv::GaussianBlur (roi, sharp, cv::Size (0, 0), SHARPEN_SIGMA, SHARPEN_SIGMA, cv::BORDER_REPLICATE);
      cv::addWeighted (roi, 2.0, sharp, -1.0, 0.0, sharp);
      roi = sharp;
    }
  return roi;
}

/* w.bin, dark pixels set, and its contours (w.contours, w.hierarchy).
 * The local mean comes from an 8x smaller image, blurred and scaled back:
 * the same job as adaptiveThreshold's box filter at a third of the cost. */
void
trace_dark (Worker &w, const cv::Mat &roi, int offset)
{
  cv::resize (roi, w.small, cv::Size ((roi.cols + 7) / 8, (roi.rows + 7) / 8), 0, 0, cv::INTER_AREA);
  cv::blur (w.small, w.small, cv::Size (3, 3), cv::Point (-1, -1), cv::BORDER_REPLICATE);
  cv::resize (w.small, w.mean, roi.size (), 0, 0, cv::INTER_LINEAR);
  cv::subtract (w.mean, roi, w.bin);  /* saturates: bright pixels give 0 */
  cv::threshold (w.bin, w.bin, offset, 255, cv::THRESH_BINARY);
  cv::findContours (w.bin, w.contours, w.hierarchy, cv::RETR_TREE, cv::CHAIN_APPROX_SIMPLE);
}

/* Contour areas a finder's parts may have, from the module size limits. */
struct FinderAreas {
  float min_square, max_square, min_hole, max_hole;
};

/* The hole (white ring) `i`, whose child is `child`, is a finder when its
 * only child is a dark square, hole:square area about 25:9. */
void
try_ring (VisDetector *det, Worker &w, const Region &reg, int i, int child, const FinderAreas &a)
{
  double hole_area = cv::contourArea (w.contours[i]);
  if (hole_area < a.min_hole || hole_area > a.max_hole)
    return;
  double sq_area = cv::contourArea (w.contours[child]);
  if (sq_area <= 0.0)
    return;
  /* Traced boundaries sit on pixel centres: the hole loses about a
   * pixel of width, the square a pixel, so compare the side lengths with
   * that in mind rather than raw areas. */
  double hole_side = std::sqrt (hole_area) + 1.0;
  double sq_side = std::sqrt (sq_area) + 1.0;
  double ratio = hole_side / sq_side;   /* 5/3 ideally */
  if (ratio < 1.25 || ratio > 2.3)
    return;
  cv::RotatedRect box = cv::minAreaRect (w.contours[i]);
  float bw = box.size.width, bh = box.size.height;
  if (bw <= 0 || bh <= 0 || std::max (bw, bh) > 2.0f * std::min (bw, bh))
    return;
  if (hole_area < 0.6 * bw * bh)
    return;
  cv::Moments m = cv::moments (w.contours[child]);
  if (m.m00 <= 0.0)
    return;
  cv::Point2f centre ((float) (m.m10 / m.m00) + reg.rect.x + 0.5f, (float) (m.m01 / m.m00) + reg.rect.y + 0.5f);
  float module = (float) ((hole_side + 1.0) / 5.0 + sq_side / 3.0) * 0.5f;
  add_finder (det, w, reg, centre, module, cv::moments (w.contours[i]));
}

/* Finds finder patterns in one region: rings around a square (try_ring),
 * or inner squares whose ring has a gap (try_inner_square). */
void
find_finders (VisDetector *det, Worker &w, const Region &reg)
{
  const VisDetectorOptions &o = det->opts;
  int offset = 0;
  cv::Mat roi = filtered_roi (det, w, reg, offset);
  if (roi.cols < 16 || roi.rows < 16)
    return;
  trace_dark (w, roi, offset);

  FinderAreas a;
  a.min_square = (3.0f * o.min_module_px) * (3.0f * o.min_module_px) * 0.5f;
  a.max_square = (3.0f * o.max_module_px) * (3.0f * o.max_module_px) * 1.5f;
  a.min_hole = (5.0f * o.min_module_px) * (5.0f * o.min_module_px) * 0.5f;
  a.max_hole = (5.0f * o.max_module_px) * (5.0f * o.max_module_px) * 1.5f;
  const int n = (int) w.contours.size ();
  for (int i = 0; i < n; i++)
    {
      const cv::Vec4i &hi = w.hierarchy[i];
      int parent = hi[3];
      int child = hi[2];
      if (child < 0)
        {
          /* A dark blob without holes: perhaps the inner square of a finder
           * whose ring has a gap (a hole needs a closed ring). */
          try_inner_square (det, w, reg, i, a.min_square, a.max_square);
          continue;
        }
      /* A hole is a contour whose parent is an outer (dark) boundary, i.e.
       * its depth is odd; it must hold exactly one child. */
      if (parent < 0 || w.hierarchy[child][0] >= 0 || w.hierarchy[child][1] >= 0)
        continue;
      int depth = 0;
      for (int p = parent; p >= 0; p = w.hierarchy[p][3])
        depth++;
      if ((depth & 1) == 0)
        continue;
      try_ring (det, w, reg, i, child, a);
    }
}

/* Jobs run on helper threads too, where an exception would terminate the
 * process: each job catches its own and the detect call reports it. */
void
finder_job (void *ctx, int job, int worker)
{
  VisDetector *det = (VisDetector *) ctx;
  try
    {
      Worker &w = det->workers[worker];
      size_t first = w.finders.size ();
      find_finders (det, w, det->regions[job]);
      for (size_t i = first; i < w.finders.size (); i++)
        {
          w.finders[i].job = job;
          w.finders[i].seq = (int) i;
        }
    }
  catch (...)
    {
      det->job_failed.store (true);
    }
}

void
add_region (VisDetector *det, cv::Rect r, cv::Rect own)
{
  cv::Rect all (0, 0, det->gray.cols, det->gray.rows);
  r &= all;
  own &= r;
  if (r.width < 16 || r.height < 16)
    return;
  det->regions.push_back (Region{ r, own });
}

/* Cold: horizontal stripes, each owning its rows, reading a finder's height
 * beyond them; more stripes than workers so uneven stripes balance out. */
void
plan_cold (VisDetector *det)
{
  const int h = det->gray.rows, wd = det->gray.cols;
  const int stripes = (int) det->opts.n_threads * 2;
  const int pad = (int) std::ceil (det->opts.max_module_px * 5.0f) + 2;
  for (int s = 0; s < stripes; s++)
    {
      int y0 = h * s / stripes, y1 = h * (s + 1) / stripes;
      add_region (det, cv::Rect (0, y0 - pad, wd, y1 - y0 + 2 * pad), cv::Rect (0, y0, wd, y1 - y0));
    }
}


/* The box to search again around a code seen before (work pixels). */
cv::Rect
track_box (const VisDetector *det, const VisDetection &d)
{
  const float k = 1.0f / (float) det->scale;
  float x0 = d.corners[0].x * k, x1 = x0, y0 = d.corners[0].y * k, y1 = y0;
  for (int c = 1; c < 4; c++)
    {
      x0 = std::min (x0, d.corners[c].x * k);
      x1 = std::max (x1, d.corners[c].x * k);
      y0 = std::min (y0, d.corners[c].y * k);
      y1 = std::max (y1, d.corners[c].y * k);
    }
  float margin = 0.35f * std::max (x1 - x0, y1 - y0) + 6.0f;
  return cv::Rect ((int) (x0 - margin), (int) (y0 - margin), (int) (x1 - x0 + 2 * margin),
                   (int) (y1 - y0 + 2 * margin));
}

cv::Rect
to_blocks (const cv::Rect &r, const cv::Size &blocks)
{
  cv::Rect b (r.x / BLOCK, r.y / BLOCK, (r.x + r.width + BLOCK - 1) / BLOCK - r.x / BLOCK,
              (r.y + r.height + BLOCK - 1) / BLOCK - r.y / BLOCK);
  return b & cv::Rect (0, 0, blocks.width, blocks.height);
}

/* The frame's 8x8 block means (INTER_AREA averages sensor noise away), in
 * work pixels.  A large frame's blocks (16x16 of its pixels) are averaged
 * over 16 of their pixels: reading all 25 MB of a 4K frame would cost more
 * than the rest of a tracked frame, and 16 samples (of the green, which
 * carries most of the light) still average a webcam's noise down to a
 * grey level.  Cold passes take their reference the same way. */
void
block_means (VisDetector *det, const VisImage *frame)
{
  cv::Size small ((det->gray.cols + BLOCK - 1) / BLOCK, (det->gray.rows + BLOCK - 1) / BLOCK);
  if (det->scale > 1)
    {
      const int side = BLOCK * det->scale, step = side / 4;
      const int channels = frame->format == VIS_PIXEL_BGR8 ? 3 : 1;
      det->small_cur.create (small, CV_8UC1);
      for (int by = 0; by < small.height; by++)
        {
          uint8_t *out = det->small_cur.ptr<uint8_t> (by);
          for (int bx = 0; bx < small.width; bx++)
            {
              unsigned sum = 0, n = 0;
              for (int y = by * side + step / 2; y < std::min ((by + 1) * side, frame->height); y += step)
                {
                  const uint8_t *row = frame->data + (size_t) y * frame->stride;
                  for (int x = bx * side + step / 2; x < std::min ((bx + 1) * side, frame->width); x += step, n++)
                    {
                      /* green stands for the light: the reference block
                       * means of a cold pass are taken the same way */
                      sum += row[(size_t) x * channels + (channels == 3 ? 1 : 0)];
                    }
                }
              out[bx] = (uint8_t) (n ? (sum + n / 2) / n : 0);
            }
        }
      return;
    }
  if (frame->format == VIS_PIXEL_BGR8)
    {
      cv::Mat src (frame->height, frame->width, CV_8UC3, frame->data, frame->stride);
      cv::resize (src, det->small_bgr, small, 0, 0, cv::INTER_AREA);
      cv::cvtColor (det->small_bgr, det->small_cur, cv::COLOR_BGR2GRAY);
    }
  else
    cv::resize (det->gray, det->small_cur, small, 0, 0, cv::INTER_AREA);
}

void
convert_job (void *ctx, int job, int worker)
{
  VisDetector *det = (VisDetector *) ctx;
  try
    {
      to_gray (det, det->frame, det->regions[job].own, det->workers[worker].convert_tmp);
    }
  catch (...)
    {
      det->job_failed.store (true);
    }
}

/* Tracking.  Only what changed since it was last examined is looked at: a
 * code whose box kept its block means is kept as it is; a box that changed
 * (a hand, a slide, a flip) is searched again; changed areas away from every
 * known code (a card put down) are searched too.  Returns false when so much
 * changed (the camera moved, the light switched) that a cold pass is due. */
bool
plan_track (VisDetector *det, const VisImage *frame)
{
  const int h = det->gray.rows, wd = det->gray.cols;
  cv::Rect all (0, 0, wd, h);
  block_means (det, frame);
  cv::absdiff (det->small_cur, det->small_ref, det->changed);
  cv::threshold (det->changed, det->changed, CHANGE_LEVEL, 255, cv::THRESH_BINARY);
  cv::bitwise_or (det->changed, det->dirty, det->changed);
  if (cv::countNonZero (det->changed) > (int) det->changed.total () / 3)
    return false;

  det->still.clear ();
  det->covered.create (det->changed.size (), CV_8UC1);
  det->covered.setTo (0);
  float max_module = 0.0f;
  for (size_t p = 0; p < det->previous.size (); p++)
    {
      const VisDetection &d = det->previous[p];
      max_module = std::max (max_module, d.module_px / (float) det->scale);
      cv::Rect r = track_box (det, d) & all;
      if (r.width < 16 || r.height < 16)
        continue;
      cv::Rect rb = to_blocks (r, det->changed.size ());
      det->covered (rb).setTo (255);
      if (det->previous_misses[p] == 0 && cv::countNonZero (det->changed (rb)) == 0)
        {
          det->still.push_back (d);
          continue;
        }
      to_gray (det, frame, r, det->convert_tmp);
      add_region (det, r, r);
    }
  /* Changed blocks no box covers, grown by a code's size, in connected
   * pieces: each piece is a region. */
  cv::bitwise_and (det->changed, ~det->covered, det->fresh);
  if (cv::countNonZero (det->fresh) > 0)
    {
      float module = max_module > 0 ? std::min (det->opts.max_module_px, 1.5f * max_module)
                                    : det->opts.max_module_px;
      int grow = (int) std::ceil (module * (QR_MODULES + 4) / BLOCK);
      cv::dilate (det->fresh, det->fresh,
                  cv::getStructuringElement (cv::MORPH_RECT, cv::Size (2 * grow + 1, 2 * grow + 1)));
      cv::findContours (det->fresh, det->fresh_contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
      for (const auto &c : det->fresh_contours)
        {
          cv::Rect b = cv::boundingRect (c);
          cv::Rect r (b.x * BLOCK, b.y * BLOCK, b.width * BLOCK, b.height * BLOCK);
          r &= all;
          to_gray (det, frame, r, det->convert_tmp);
          add_region (det, r, r);
        }
    }
  return true;
}

/* Sensor noise of the grey frame: the median absolute difference of
 * horizontally adjacent pixels on every 4th row, as a Gaussian sigma.  Most
 * pixel pairs lie on flat card or table, so edges barely move the median. */
float
estimate_noise (VisDetector *det)
{
  std::vector<unsigned> &hist = det->noise_hist;
  hist.assign (256, 0);
  const cv::Mat &g = det->gray;
  unsigned n = 0;
  for (int y = 2; y < g.rows; y += 4)
    {
      const uint8_t *row = g.ptr<uint8_t> (y);
      for (int x = 0; x + 1 < g.cols; x += 2, n++)
        hist[std::abs ((int) row[x + 1] - (int) row[x])]++;
    }
  unsigned acc = 0;
  for (int d = 0; d < 256; d++)
    {
      acc += hist[d];
      if (acc * 2 >= n)
        /* median |N(0, 2 s^2)| = 0.6745 sqrt(2) s; +0.5 for the integer bins */
        return ((float) d + 0.5f) / (0.6745f * (float) M_SQRT2);
    }
  return 0.0f;
}

/* Merges the workers' finders; overlapping regions report a finder twice.
 * Which worker took which region depends on thread scheduling, so the merged
 * list is put in region order first: every later step (grouping, duplicate
 * removal, the order codes are reported in, the tracker's identities) then
 * gives the same answer for the same frame, however the threads ran. */
void
merge_finders (VisDetector *det)
{
  det->finders_all.clear ();
  for (Worker &w : det->workers)
    {
      det->finders_all.insert (det->finders_all.end (), w.finders.begin (), w.finders.end ());
      w.finders.clear ();
    }
  std::sort (det->finders_all.begin (), det->finders_all.end (), [] (const Finder &a, const Finder &b) {
    return a.job != b.job ? a.job < b.job : a.seq < b.seq;
  });
  det->finders.clear ();
  for (const Finder &f : det->finders_all)
    {
      bool dup = false;
      for (const Finder &g : det->finders)
        if (dist (f.centre, g.centre) < 0.7f * g.module)
          {
            dup = true;
            break;
          }
      if (!dup)
        det->finders.push_back (f);
    }
}

/* Tracking: a candidate whose finders sit where a previous code's did keeps
 * that identity without a decode. */
void
mark_reuse (VisDetector *det)
{
  for (Candidate &c : det->candidates)
    {
      cv::Point2f tl = det->finders[c.f[0]].centre;
      cv::Point2f tr = det->finders[c.f[1]].centre;
      cv::Point2f bl = det->finders[c.f[2]].centre;
      float mod = dist (tl, tr) / FINDER_SPAN;
      for (size_t p = 0; p < det->previous.size (); p++)
        {
          const VisDetection &d = det->previous[p];
          cv::Matx33d h;
          cv::Point2f src[4] = { { 0, 0 }, { 21, 0 }, { 21, 21 }, { 0, 21 } };
          cv::Point2f dst[4];
          for (int k = 0; k < 4; k++)
            dst[k] = cv::Point2f (d.corners[k].x, d.corners[k].y) * (1.0f / (float) det->scale);
          if (dist (dst[0], tl) > 8.0f * mod)
            continue;
          /* Finders in the same place do not make the same code: a card
           * flipped where it lay, or a command card laid where the last one
           * was, puts new modules between the same finders.  Keep the old
           * identity only when the code's own blocks did not change. */
          float x0 = dst[0].x, x1 = dst[0].x, y0 = dst[0].y, y1 = dst[0].y;
          for (int k = 1; k < 4; k++)
            {
              x0 = std::min (x0, dst[k].x), x1 = std::max (x1, dst[k].x);
              y0 = std::min (y0, dst[k].y), y1 = std::max (y1, dst[k].y);
            }
          cv::Rect code = cv::Rect ((int) x0, (int) y0, (int) (x1 - x0) + 1, (int) (y1 - y0) + 1)
                          & cv::Rect (0, 0, det->gray.cols, det->gray.rows);
          if (code.area () == 0
              || cv::countNonZero (det->changed (to_blocks (code, det->changed.size ()))) > 0)
            continue;
          cv::Mat hm = cv::getPerspectiveTransform (src, dst);
          h = cv::Matx33d ((const double *) hm.ptr ());
          if (dist (apply (h, 3.5, 3.5), tl) < 0.4f * mod && dist (apply (h, 17.5, 3.5), tr) < 0.4f * mod
              && dist (apply (h, 3.5, 17.5), bl) < 0.4f * mod)
            {
              c.reuse = (int) p;
              break;
            }
        }
    }
}

/* Fuses the frames a still table gives: where a block's mean stayed within
 * STILL_LEVEL of the last frame's, each pixel of it takes a running mean
 * with the frames before (1/2, 1/4, then 1/8 of the new one), elsewhere
 * the frame as it is.  Sensor noise and JPEG blocks average out over a
 * sticker at rest, which is what a small, soft, noisy code needs to be
 * read (the finder search of small codes and the decoding of unread
 * candidates look at det->still_grey).  Only the blocks this frame's
 * regions cover are updated (a block outside them did not change), and with
 * `only_dirty` only those where a candidate was left unread.  A cold pass
 * (`cold`) after a reset starts every block from its frame. */
void
update_still (VisDetector *det, bool cold, bool only_dirty)
{
  const cv::Size blocks = det->small_cur.size ();
  if (det->still_fresh || det->still_frames.size () != blocks || det->still_sum.size () != det->gray.size ())
    {
      /* every block starts anew where it is next looked at */
      det->still_frames.create (blocks, CV_8UC1);
      det->still_frames.setTo (STILL_UNSET);
      det->still_done.create (blocks, CV_8UC1);
      det->small_cur.copyTo (det->small_prev);
      det->still_sum.create (det->gray.size (), CV_16UC1);
      det->still_grey.create (det->gray.size (), CV_8UC1);
      det->still_fresh = false;
      if (cold)
        {
          /* a cold pass after a reset: every block starts from this frame */
          det->gray.convertTo (det->still_sum, CV_16U, 16.0);
          det->gray.copyTo (det->still_grey);
          det->still_frames.setTo (0);
          det->small_cur.copyTo (det->small_prev);
          return;
        }
    }
  det->still_done.setTo (0);
  for (const Region &reg : det->regions)
    {
      const cv::Rect rb = to_blocks (reg.rect, blocks);
      for (int by = rb.y; by < rb.y + rb.height; by++)
        for (int bx = rb.x; bx < rb.x + rb.width; bx++)
          {
            uint8_t &done = det->still_done.at<uint8_t> (by, bx);
            if (done || (only_dirty && det->dirty.at<uint8_t> (by, bx) == 0))
              continue;
            done = 1;
            uint8_t &n = det->still_frames.at<uint8_t> (by, bx);
            int diff = std::abs ((int) det->small_cur.at<uint8_t> (by, bx) - (int) det->small_prev.at<uint8_t> (by, bx));
            n = n != STILL_UNSET && diff <= STILL_LEVEL ? (uint8_t) std::min (n + 1, STILL_FRAMES) : 0;
            const int shift = n == 0 ? 0 : n == 1 ? 1 : n < 4 ? 2 : 3;
            const int y1 = std::min ((by + 1) * BLOCK, det->gray.rows), x1 = std::min ((bx + 1) * BLOCK, det->gray.cols);
            for (int y = by * BLOCK; y < y1; y++)
              {
                const uint8_t *g = det->gray.ptr<uint8_t> (y);
                uint16_t *sum = det->still_sum.ptr<uint16_t> (y);
                uint8_t *out = det->still_grey.ptr<uint8_t> (y);
                for (int x = bx * BLOCK; x < x1; x++)
                  {
                    int v = g[x] << 4;
                    int a = shift == 0 ? v : sum[x] + ((v - (int) sum[x]) >> shift);
                    sum[x] = (uint16_t) a;
                    out[x] = (uint8_t) ((a + 8) >> 4);
                  }
              }
          }
    }
  det->small_cur.copyTo (det->small_prev);
}

/* Frames between cold passes.  A table of small codes (under
 * SMOOTH_MIN_MODULE px a module in the frame) gets one four times as
 * often, until two in a row read no more codes than the one before: codes whose finders no single frame shows turn up in the
 * frames fused meanwhile (update_still), and only a cold pass looks where
 * no code was seen. */
unsigned
cold_interval (const VisDetector *det)
{
  const bool small = det->smallest_module > 0.0f && det->smallest_module < SMOOTH_MIN_MODULE;
  return small && det->barren_colds < 2 ? std::max (1u, det->opts.cold_interval / 4) : det->opts.cold_interval;
}

/* Finder search over det->regions, grouping, and decoding of every
 * candidate (and of the two-finder guesses the unread ones leave). */
void
search_and_decode (VisDetector *det, VisDetectMode mode)
{
  det->pool.run ((int) det->regions.size (), finder_job, det);
  merge_finders (det);
  group_candidates (det);
  pair_candidates (det);
  if (mode == VIS_DETECT_TRACK)
    mark_reuse (det);
  det->first_job = 0;
  det->pool.run ((int) det->candidates.size (), decode_job, det);
  if (release_unread (det))
    {
      det->first_job = det->candidates.size ();
      pair_candidates (det);
      det->pool.run ((int) (det->candidates.size () - det->first_job), decode_job, det);
    }
}

/* Whether the workers read no code, or only codes under SMOOTH_MIN_MODULE. */
bool
only_small_codes (VisDetector *det)
{
  for (const Worker &w : det->workers)
    for (const VisDetection &d : w.found)
      if (d.module_px >= SMOOTH_MIN_MODULE * (float) det->scale)
        return false;
  return true;
}

/* A frame the detector can read: GRAY8 or BGR8, at least 32x32. */
bool
frame_ok (const VisImage *frame)
{
  /* The format comes from C, where any int fits the enum: read it as an int
   * (loading an out-of-range enum is undefined in C++). */
  static_assert (sizeof (VisPixelFormat) == sizeof (int), "C enum layout");
  int format;
  std::memcpy (&format, &frame->format, sizeof format);
  return frame->data != nullptr && frame->width >= 32 && frame->height >= 32
         && (format == VIS_PIXEL_GRAY8 || format == VIS_PIXEL_BGR8)
         && frame->stride >= (size_t) frame->width * (size_t) format;
}

/* The pass this frame gets (a tracking pass asked for may have to be a
 * cold one) and the scale it is searched at. */
VisDetectMode
choose_pass (VisDetector *det, const VisImage *frame, VisDetectMode mode)
{
  bool resized = frame->width != det->last_width || frame->height != det->last_height;
  det->last_width = frame->width;
  det->last_height = frame->height;
  /* A 4K frame whose codes are all large enough is searched at half
   * size (they keep 2 px a module there); the first pass, any table
   * with smaller codes, and every eighth cold pass (a small sticker
   * put down since would not show at half size) at full size.  The
   * scale changes only where a cold pass is due anyway. */
  const bool cold_due = mode == VIS_DETECT_COLD || resized || det->previous.empty ()
                        || det->frames_since_cold + 1 >= cold_interval (det);
  const int scale = frame->width >= UHD_WIDTH && frame->width % 2 == 0 && frame->height % 2 == 0
                            && !resized && det->smallest_module >= 2.0f * UHD_MIN_MODULE
                            && (det->scale == 1 || det->cold_passes % 8 != 7)
                        ? 2
                        : 1;
  if (cold_due && scale != det->scale)
    {
      det->scale = scale;
      resized = true;
    }
  if (mode == VIS_DETECT_TRACK
      && (resized || det->previous.empty () || det->frames_since_cold + 1 >= cold_interval (det)))
    mode = VIS_DETECT_COLD;
  det->frames_since_cold = mode == VIS_DETECT_COLD ? 0 : det->frames_since_cold + 1;
  det->cold_passes += mode == VIS_DETECT_COLD;
  return mode;
}

/* The regions to search (the stripes of a cold pass, or where tracking
 * expects codes; a cold pass where no tracking plan holds), and for a cold
 * pass the grey frame, its noise and its block means.  Returns the pass. */
VisDetectMode
plan_regions (VisDetector *det, const VisImage *frame, VisDetectMode mode)
{
  if (frame->format == VIS_PIXEL_GRAY8 && det->scale == 1)
    det->gray = cv::Mat (frame->height, frame->width, CV_8UC1, (void *) frame->data, frame->stride);
  else
    {
      det->gray_own.create (frame->height / det->scale, frame->width / det->scale, CV_8UC1);
      det->gray = det->gray_own;
    }

  det->frame = frame;
  det->regions.clear ();
  if (mode == VIS_DETECT_TRACK && !plan_track (det, frame))
    {
      mode = VIS_DETECT_COLD;
      det->frames_since_cold = 0;
      det->regions.clear ();
    }
  if (mode != VIS_DETECT_COLD)
    return mode;
  plan_cold (det);
  if (frame->format == VIS_PIXEL_BGR8 || det->scale > 1)
    {
      /* Grey conversion split over the workers by stripe (each its
       * own rows, no overlap), before the stripes are searched. */
      det->frame = frame;
      det->pool.run ((int) det->regions.size (), convert_job, det);
    }
  /* From the grey frame, as cheap as it gets; tracking takes its
   * block means from BGR directly, within a grey level of these. */
  det->noise = estimate_noise (det);
  if (det->scale > 1)
    block_means (det, frame);
  else
    cv::resize (det->gray, det->small_cur,
                cv::Size ((det->gray.cols + BLOCK - 1) / BLOCK, (det->gray.rows + BLOCK - 1) / BLOCK), 0,
                0, cv::INTER_AREA);
  return mode;
}

/* Searches the planned regions and decodes what they hold into the
 * workers' found lists. */
void
search_frame (VisDetector *det, VisDetectMode mode)
{
  /* A cold pass over a table whose codes all read has no use for the
   * fused frames (and a 4K frame's would cost a few ms): they start
   * again where they are next needed. */
  det->still_now = mode == VIS_DETECT_TRACK || !det->smooth_allowed || det->unread_last;
  if (det->still_now)
    /* tracking a table of large codes: only where a code was left
     * unread (the dirty blocks) is anything fused */
    update_still (det, mode == VIS_DETECT_COLD,
                  mode == VIS_DETECT_TRACK && det->smooth_allowed && det->dirty.size () == det->small_cur.size ());
  else
    det->still_fresh = true;
  for (Worker &w : det->workers)
    {
      w.found.clear ();
      w.found_reused.clear ();
      w.found_job.clear ();
      w.undecoded = w.foreign = w.old_format = w.wrong_seal = 0;
    }
  det->sharpen = !det->smooth_allowed;
  det->job_base = 0;
  search_and_decode (det, mode);
  /* A cold pass that read nothing, or only small codes, looks again
   * with the small codes' sharpening (and later cold passes start with
   * it, see smooth_allowed): a table seen from afar, or a photo, is
   * then read from its first frame. */
  if (mode == VIS_DETECT_COLD && !det->sharpen && only_small_codes (det))
    {
      det->sharpen = true;
      det->job_base = SECOND_PASS_JOBS;
      search_and_decode (det, mode);
    }
}

/* What was looked at becomes the reference for "unchanged"; where a
 * code could not be read, the area stays dirty and is looked at again
 * next frame. */
void
update_reference (VisDetector *det, VisDetectMode mode)
{
  if (mode == VIS_DETECT_COLD)
    {
      det->small_cur.copyTo (det->small_ref);
      det->dirty.create (det->small_cur.size (), CV_8UC1);
      det->dirty.setTo (0);
    }
  else
    for (const Region &r : det->regions)
      {
        cv::Rect rb = to_blocks (r.rect, det->small_cur.size ());
        det->small_cur (rb).copyTo (det->small_ref (rb));
        det->dirty (rb).setTo (0);
      }
  for (const Candidate &c : det->candidates)
    if (c.undecoded)
      {
        cv::Point2f p = apply (c.h, QR_MODULES * 0.5, QR_MODULES * 0.5);
        float half = dist (det->finders[c.f[0]].centre, det->finders[c.f[1]].centre);
        cv::Rect r ((int) (p.x - half), (int) (p.y - half), (int) (2 * half), (int) (2 * half));
        det->dirty (to_blocks (r, det->dirty.size ())).setTo (255);
      }
}

/* Whether det->results already holds `d` (the same code read twice, from
 * overlapping regions or both passes). */
bool
already_found (const VisDetector *det, const VisDetection &d)
{
  for (const VisDetection &e : det->results)
    if (std::strcmp (e.payload, d.payload) == 0
        && std::hypot (e.centre.x - d.centre.x, e.centre.y - d.centre.y) < 4.0f * e.module_px)
      return true;
  return false;
}

/* det->results: the codes tracking kept unchanged, then the workers'
 * finds without duplicates, up to max_detections; the workers' counts into
 * `out`. */
void
collect_results (VisDetector *det, VisDetectMode mode, VisDetectResult *out)
{
  det->results.clear ();
  if (mode == VIS_DETECT_TRACK)
    for (const VisDetection &d : det->still)
      det->results.push_back (d);
  out->n_reused += (unsigned) det->still.size ();
  /* In candidate order, not worker order: the same frame reports the
   * same codes in the same order whichever thread decoded them. */
  det->found_order.clear ();
  for (size_t wi = 0; wi < det->workers.size (); wi++)
    {
      Worker &w = det->workers[wi];
      out->n_undecoded += w.undecoded;
      out->n_foreign += w.foreign;
      out->n_old_format += w.old_format;
      out->n_wrong_seal += w.wrong_seal;
      for (size_t i = 0; i < w.found.size (); i++)
        det->found_order.push_back ({ w.found_job[i], (int) wi, (int) i });
    }
  std::sort (det->found_order.begin (), det->found_order.end (), [] (const FoundRef &a, const FoundRef &b) {
    return a.job != b.job ? a.job < b.job : a.index < b.index;
  });
  for (const FoundRef &ref : det->found_order)
    {
      const Worker &w = det->workers[ref.worker];
      const VisDetection &d = w.found[ref.index];
      if (already_found (det, d))
        continue;
      if (det->results.size () >= det->opts.max_detections)
        {
          out->truncated = 1;
          break;
        }
      det->results.push_back (d);
      out->n_reused += w.found_reused[ref.index];
    }
}

/* det->previous, the codes tracking looks for next frame: this frame's
 * results, and on a tracking pass the codes missed for fewer than a cold
 * interval.  A code tracking did not see this time (a hand over it) keeps
 * its region until the next cold pass, so it is found again at once;
 * unless another code now sits on its very spot (a card flipped or swapped
 * in place, a card laid over it): then it is gone, and must not lend its
 * identity to the new code's finders next frame. */
void
age_previous (VisDetector *det, VisDetectMode mode)
{
  for (size_t p = 0; p < det->previous.size (); p++)
    {
      const VisDetection &old = det->previous[p];
      bool seen = false, replaced = false;
      for (const VisDetection &e : det->results)
        {
          float apart = std::hypot (e.centre.x - old.centre.x, e.centre.y - old.centre.y);
          if (std::strcmp (e.payload, old.payload) == 0 && apart < 10.0f * e.module_px)
            {
              seen = true;
              break;
            }
          replaced |= apart < 0.5f * QR_MODULES * old.module_px;
        }
      det->previous_misses[p] = seen || replaced ? UINT32_MAX : det->previous_misses[p] + 1;
    }
  size_t kept = 0;
  if (mode == VIS_DETECT_TRACK)
    for (size_t p = 0; p < det->previous.size (); p++)
      if (det->previous_misses[p] != UINT32_MAX && det->previous_misses[p] < det->opts.cold_interval
          && kept + det->results.size () < det->opts.max_detections)
        {
          det->previous[kept] = det->previous[p];
          det->previous_misses[kept] = det->previous_misses[p];
          kept++;
        }
  det->previous.resize (kept);
  det->previous_misses.resize (kept);
  for (const VisDetection &d : det->results)
    {
      det->previous.push_back (d);
      det->previous_misses.push_back (0);
    }
}

/* What a cold pass learnt of the table: its smallest code (the scale and
 * the smoothing for the next passes) and whether it read more than the
 * cold pass before. */
void
learn_from_cold (VisDetector *det)
{
  float smallest = INFINITY;
  for (const VisDetection &d : det->results)
    smallest = std::min (smallest, d.module_px);
  bool was = det->smooth_allowed;
  det->smallest_module = det->results.empty () ? 0.0f : smallest;
  det->barren_colds = det->results.size () > det->last_cold_count ? 0 : det->barren_colds + 1;
  det->last_cold_count = det->results.size ();
  det->smooth_allowed = det->results.empty () ? !was : smallest >= SMOOTH_MIN_MODULE * (float) det->scale;
  /* Small codes showed through the smoothing: the others like them
   * it hid are looked for at once, not a cold interval later. */
  if (was && !det->smooth_allowed && !det->results.empty () && det->noise > NOISY_SIGMA)
    det->frames_since_cold = det->opts.cold_interval;
}

} // namespace

extern "C" EngStatus
vis_detector_detect (VisDetector *det, const VisImage *frame, VisDetectMode mode,
                     VisDetectResult *out)
{
  if (det == nullptr || frame == nullptr || out == nullptr || !frame_ok (frame))
    return ENG_ERR_INVALID_ARGUMENT;
  std::memset (out, 0, sizeof *out);
  det->job_failed.store (false);
  try
    {
      mode = choose_pass (det, frame, mode);
      mode = plan_regions (det, frame, mode);
      search_frame (det, mode);
      update_reference (det, mode);
      collect_results (det, mode, out);
      age_previous (det, mode);
      if (mode == VIS_DETECT_COLD)
        learn_from_cold (det);
      det->unread_last = out->n_undecoded > 0;
      out->detections = det->results.data ();
      out->n_detections = det->results.size ();
      out->n_finders = (unsigned) std::count_if (det->finders.begin (), det->finders.end (),
                                                 [] (const Finder &f) { return !f.inferred; });
      out->n_candidates = (unsigned) det->candidates.size ();
      out->mode_used = mode;
      if (det->job_failed.load ())
        {
          /* A worker ran out of memory (or OpenCV refused): the result may
           * miss codes, and the history must not be trusted. */
          det->previous.clear ();
          det->previous_misses.clear ();
          out->n_detections = 0;
          return ENG_ERR_NO_MEMORY;
        }
    }
  catch (const std::bad_alloc &)
    {
      return ENG_ERR_NO_MEMORY;
    }
  catch (const cv::Exception &)
    {
      return ENG_ERR_INVALID_ARGUMENT;
    }
  return ENG_OK;
}

/* vis-detect.cpp: see vis-detect.h for the strategy. */
/* The engine headers carry no extern "C" guards of their own. */
extern "C" {
#include "eng-status.h"
#include "eng-tag.h"
}
#include "vis-detect.h"

#include <opencv2/core.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>
#include <zbar.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

namespace {

/* Version 1: 21 modules; finder centres at 3.5 modules from the edges. */
constexpr int QR_MODULES = 21;
constexpr float FINDER_SPAN = 14.0f;     /* centre-to-centre, TL to TR / BL */
constexpr int WARP_PX = 3;               /* pixels per module in the rectified image */
constexpr int WARP_QUIET = 3;            /* quiet-zone modules painted around it */
constexpr int THRESHOLD_OFFSET = 10;     /* grey levels below the local mean = dark */
constexpr float NOISY_SIGMA = 2.0f;      /* measured sensor noise (grey levels) above which to smooth */
constexpr float SMOOTH_MIN_MODULE = 2.6f; /* smallest module px a smoothed search still finds */
constexpr int WARP_SIZE = (QR_MODULES + 2 * WARP_QUIET) * WARP_PX;
/* The re-drawn code is perfectly sharp, so 2 px per module are plenty for
 * zbar, whose cost grows with the pixels it scans. */
constexpr int CRISP_PX = 2;
constexpr int CRISP_SIZE = (QR_MODULES + 2 * WARP_QUIET) * CRISP_PX;

struct Finder {
  cv::Point2f centre;
  float module;              /* estimated module size, px */
  bool used;
  bool inferred;             /* not seen: placed from the other two (see pair_candidates) */
  int job;                   /* the region it was found in, and its place */
  int seq;                   /* among its worker's finders: the merge order */
};

struct Candidate {
  int f[3];                  /* TL, TR, BL indices into the merged finder list */
  cv::Matx33d h;             /* module coordinates -> image */
  int reuse;                 /* index into the previous detections, or -1 */
  bool inferred;             /* one finder placed, not seen: only crisp re-drawings are tried */
  bool undecoded;            /* set by the decoding worker */
};

struct Triple {
  float score;               /* lower is better */
  int tl, tr, bl;
};

/* One worker's decoded code, by the candidate it came from. */
struct FoundRef {
  int job;
  int worker;
  int index;
};

struct Region {
  cv::Rect rect;
  cv::Rect own;              /* finders whose centre lies here belong to this region */
};

struct Worker {
  cv::Mat bin, smooth;
  cv::Mat small, mean;
  cv::Mat warp, warp_bin, crisp;
  float sharp[QR_MODULES * QR_MODULES];
  std::vector<std::vector<cv::Point>> contours;
  std::vector<cv::Vec4i> hierarchy;
  std::vector<Finder> finders;
  std::vector<VisDetection> found;
  std::vector<uint8_t> found_reused;
  std::vector<int> found_job;  /* the candidate each was decoded from */
  unsigned undecoded = 0;
  unsigned foreign = 0;
  zbar::zbar_image_scanner_t *scanner = nullptr;
  zbar::zbar_image_t *image = nullptr;
};

/* A fixed pool: the caller is worker 0, helpers are 1..n-1.  Jobs are
 * numbered 0..n_jobs-1 and handed out through an atomic counter, so a call
 * costs two condition-variable round trips and no allocation. */
class Pool {
public:
  typedef void (*JobFn) (void *ctx, int job, int worker);

  explicit Pool (unsigned n) : n_workers_ (n) {}

  bool start ()
  {
    try
      {
        for (unsigned i = 1; i < n_workers_; i++)
          threads_.emplace_back (&Pool::loop, this, (int) i);
      }
    catch (...)
      {
        stop ();
        return false;
      }
    return true;
  }

  void stop ()
  {
    {
      std::lock_guard<std::mutex> lock (mu_);
      quit_ = true;
    }
    cv_start_.notify_all ();
    for (auto &t : threads_)
      if (t.joinable ())
        t.join ();
    threads_.clear ();
  }

  void run (int n_jobs, JobFn fn, void *ctx)
  {
    if (n_jobs <= 0)
      return;
    {
      std::lock_guard<std::mutex> lock (mu_);
      fn_ = fn;
      ctx_ = ctx;
      n_jobs_ = n_jobs;
      next_.store (0);
      busy_ = (unsigned) threads_.size ();
      generation_++;
    }
    cv_start_.notify_all ();
    work (0);
    std::unique_lock<std::mutex> lock (mu_);
    cv_done_.wait (lock, [this] { return busy_ == 0; });
  }

private:
  void work (int worker)
  {
    for (;;)
      {
        int job = next_.fetch_add (1);
        if (job >= n_jobs_)
          break;
        fn_ (ctx_, job, worker);
      }
  }

  void loop (int worker)
  {
    unsigned seen = 0;
    for (;;)
      {
        {
          std::unique_lock<std::mutex> lock (mu_);
          cv_start_.wait (lock, [&] { return quit_ || generation_ != seen; });
          if (quit_)
            return;
          seen = generation_;
        }
        work (worker);
        {
          std::lock_guard<std::mutex> lock (mu_);
          busy_--;
        }
        cv_done_.notify_one ();
      }
  }

  unsigned n_workers_;
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable cv_start_, cv_done_;
  bool quit_ = false;
  unsigned generation_ = 0;
  unsigned busy_ = 0;
  JobFn fn_ = nullptr;
  void *ctx_ = nullptr;
  int n_jobs_ = 0;
  std::atomic<int> next_{ 0 };
};

float
dist (cv::Point2f a, cv::Point2f b)
{
  return std::hypot (a.x - b.x, a.y - b.y);
}

cv::Point2f
apply (const cv::Matx33d &h, double x, double y)
{
  double w = h (2, 0) * x + h (2, 1) * y + h (2, 2);
  return cv::Point2f ((float) ((h (0, 0) * x + h (0, 1) * y + h (0, 2)) / w),
                      (float) ((h (1, 0) * x + h (1, 1) * y + h (1, 2)) / w));
}

} // namespace

struct VisDetector {
  VisDetectorOptions opts;
  Pool pool;
  std::vector<Worker> workers;
  cv::Mat gray;               /* the frame itself (GRAY8) or gray_own */
  cv::Mat gray_own;           /* BGR frames are converted into this */
  cv::Mat small_bgr, small_cur; /* this frame's 8x8 block means */
  cv::Mat small_ref;          /* block means when each area was last examined */
  cv::Mat dirty;              /* blocks to examine again whatever they show */
  cv::Mat changed, covered, fresh;
  std::vector<std::vector<cv::Point>> fresh_contours;
  std::vector<VisDetection> still;
  std::vector<unsigned> previous_misses;
  std::vector<Region> regions;
  std::vector<Finder> finders;
  std::vector<Finder> finders_all;  /* every worker's, before merging */
  std::vector<Candidate> candidates;
  std::vector<Triple> triples;
  std::vector<FoundRef> found_order;
  std::vector<VisDetection> results;
  std::vector<VisDetection> previous;
  const VisImage *frame = nullptr;
  std::atomic<bool> job_failed{ false };
  unsigned frames_since_cold = 0;
  float noise = 0.0f;         /* sensor noise sigma, grey levels, at the last cold pass */
  /* Whether noisy frames are smoothed before the finder search: the last
   * cold pass read no code smaller than SMOOTH_MIN_MODULE.  A cold pass that
   * reads nothing flips it, so an empty-looking noisy table is searched
   * both ways in turn. */
  bool smooth_allowed = true;
  std::vector<unsigned> noise_hist;
  int last_width = 0, last_height = 0;

  explicit VisDetector (const VisDetectorOptions &o) : opts (o), pool (o.n_threads) {}
};

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
}

namespace {

/* Converts the part of `frame` under `r` into det->gray. */
void
to_gray (VisDetector *det, const VisImage *frame, const cv::Rect &r)
{
  if (frame->format == VIS_PIXEL_GRAY8)
    return; /* det->gray wraps the frame itself */
  cv::Mat src (frame->height, frame->width, CV_8UC3, (void *) frame->data, frame->stride);
  cv::Mat dst = det->gray (r);
  cv::cvtColor (src (r), dst, cv::COLOR_BGR2GRAY);
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
  const VisDetectorOptions &o = det->opts;
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
  Finder f;
  f.centre = cv::Point2f (c.x + reg.rect.x + 0.5f, c.y + reg.rect.y + 0.5f);
  if (!reg.own.contains (cv::Point ((int) f.centre.x, (int) f.centre.y)))
    return;
  f.module = module;
  if (f.module < o.min_module_px * 0.7f || f.module > o.max_module_px * 1.3f)
    return;
  f.used = false;
  f.inferred = false;
  w.finders.push_back (f);
}

/* Finds finder patterns in one region: a hole (white ring) whose only child is
 * a dark square, hole:square area about 25:9. */
void
find_finders (VisDetector *det, Worker &w, const Region &reg)
{
  const VisDetectorOptions &o = det->opts;
  cv::Mat roi = det->gray (reg.rect);
  if (roi.cols < 16 || roi.rows < 16)
    return;
  /* Sensor noise turns the binary image to salt: every speck is a contour
   * to trace and test, and a frame costs 5-7 times a clean one.  On a noisy
   * frame a 3x3 Gaussian first (it keeps 0.375 of the noise) and a cut
   * three of those sigmas deep keep the specks out.  Not when the table's
   * codes are small (see smooth_allowed): on a soft image the kernel closes
   * the one-module light ring of a 2.5 px finder, and recall beats time. */
  int offset = THRESHOLD_OFFSET;
  if (det->noise > NOISY_SIGMA && det->smooth_allowed)
    {
      cv::GaussianBlur (roi, w.smooth, cv::Size (3, 3), 0, 0, cv::BORDER_REPLICATE);
      roi = w.smooth;
      offset = std::max (offset, (int) std::lround (3.0f * 0.375f * det->noise));
    }
  /* Local mean from an 8x smaller image, blurred and scaled back: the same
   * job as adaptiveThreshold's box filter at a third of the cost. */
  cv::resize (roi, w.small, cv::Size ((roi.cols + 7) / 8, (roi.rows + 7) / 8), 0, 0, cv::INTER_AREA);
  cv::blur (w.small, w.small, cv::Size (3, 3), cv::Point (-1, -1), cv::BORDER_REPLICATE);
  cv::resize (w.small, w.mean, roi.size (), 0, 0, cv::INTER_LINEAR);
  cv::subtract (w.mean, roi, w.bin);  /* saturates: bright pixels give 0 */
  cv::threshold (w.bin, w.bin, offset, 255, cv::THRESH_BINARY);
  cv::findContours (w.bin, w.contours, w.hierarchy, cv::RETR_TREE, cv::CHAIN_APPROX_SIMPLE);

  const float min_square = (3.0f * o.min_module_px) * (3.0f * o.min_module_px) * 0.5f;
  const float max_square = (3.0f * o.max_module_px) * (3.0f * o.max_module_px) * 1.5f;
  const float min_hole = (5.0f * o.min_module_px) * (5.0f * o.min_module_px) * 0.5f;
  const float max_hole = (5.0f * o.max_module_px) * (5.0f * o.max_module_px) * 1.5f;
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
          try_inner_square (det, w, reg, i, min_square, max_square);
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
      double hole_area = cv::contourArea (w.contours[i]);
      if (hole_area < min_hole || hole_area > max_hole)
        continue;
      double sq_area = cv::contourArea (w.contours[child]);
      if (sq_area <= 0.0)
        continue;
      /* Traced boundaries sit on pixel centres: the hole loses about a
       * pixel of width, the square a pixel, so compare the side lengths with
       * that in mind rather than raw areas. */
      double hole_side = std::sqrt (hole_area) + 1.0;
      double sq_side = std::sqrt (sq_area) + 1.0;
      double ratio = hole_side / sq_side;   /* 5/3 ideally */
      if (ratio < 1.25 || ratio > 2.3)
        continue;
      cv::RotatedRect box = cv::minAreaRect (w.contours[i]);
      float bw = box.size.width, bh = box.size.height;
      if (bw <= 0 || bh <= 0 || std::max (bw, bh) > 2.0f * std::min (bw, bh))
        continue;
      if (hole_area < 0.6 * bw * bh)
        continue;
      cv::Moments m = cv::moments (w.contours[child]);
      if (m.m00 <= 0.0)
        continue;
      Finder f;
      f.centre = cv::Point2f ((float) (m.m10 / m.m00) + reg.rect.x + 0.5f,
                              (float) (m.m01 / m.m00) + reg.rect.y + 0.5f);
      if (!reg.own.contains (cv::Point ((int) f.centre.x, (int) f.centre.y)))
        continue;
      f.module = (float) ((hole_side + 1.0) / 5.0 + sq_side / 3.0) * 0.5f;
      if (f.module < o.min_module_px * 0.7f || f.module > o.max_module_px * 1.3f)
        continue;
      f.used = false;
      f.inferred = false;
      w.finders.push_back (f);
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

/* The module->image map of a code from its three finder centres (the
 * centroids of the 3x3 inner squares, symmetric and so unbiased by
 * blur or threshold).  Affine: fitting a projective map to the finders'
 * ring corners extrapolated the finderless corner pixels off, while the
 * perspective change across one small code stays well under a pixel. */
bool
fit_homography (const Finder &tl, const Finder &tr, const Finder &bl, cv::Matx33d &h)
{
  cv::Point2f u = (tr.centre - tl.centre) * (1.0f / FINDER_SPAN);
  cv::Point2f v = (bl.centre - tl.centre) * (1.0f / FINDER_SPAN);
  cv::Point2f o = tl.centre - u * 3.5f - v * 3.5f;
  h = cv::Matx33d (u.x, v.x, o.x, u.y, v.y, o.y, 0, 0, 1);
  return std::fabs (u.x * v.y - u.y * v.x) > 1.0f;
}

/* Groups finders into (TL, TR, BL) triples: TL sees the other two at about
 * 14 modules, at a right angle, and TR-BL is about 14*sqrt(2) modules.  Best
 * triples win; a finder joins at most one code. */
void
group_candidates (VisDetector *det)
{
  std::vector<Finder> &fs = det->finders;
  const int n = (int) fs.size ();
  det->triples.clear ();
  for (int i = 0; i < n; i++)
    {
      for (int j = 0; j < n; j++)
        {
          if (j == i)
            continue;
          float mij = 0.5f * (fs[i].module + fs[j].module);
          float dij = dist (fs[i].centre, fs[j].centre);
          if (dij < 0.65f * FINDER_SPAN * mij || dij > 1.45f * FINDER_SPAN * mij)
            continue;
          if (std::max (fs[i].module, fs[j].module) > 1.6f * std::min (fs[i].module, fs[j].module))
            continue;
          cv::Point2f a = fs[j].centre - fs[i].centre;
          for (int k = 0; k < n; k++)
            {
              if (k == i || k == j)
                continue;
              float dik = dist (fs[i].centre, fs[k].centre);
              if (std::fabs (dik - dij) > 0.25f * std::max (dik, dij))
                continue;
              cv::Point2f b = fs[k].centre - fs[i].centre;
              float cross = a.x * b.y - a.y * b.x;
              if (cross <= 0) /* (j, k) must be (TR, BL): u x v > 0 with y down */
                continue;
              float cosang = (a.x * b.x + a.y * b.y) / (dij * dik);
              if (std::fabs (cosang) > 0.35f)
                continue;
              if (std::max (fs[i].module, fs[k].module) > 1.6f * std::min (fs[i].module, fs[k].module))
                continue;
              float djk = dist (fs[j].centre, fs[k].centre);
              float diag = djk / (0.5f * (dij + dik) * (float) M_SQRT2);
              if (diag < 0.8f || diag > 1.2f)
                continue;
              float mod_all = (fs[i].module + fs[j].module + fs[k].module) / 3.0f;
              float span = 0.5f * (dij + dik) / (FINDER_SPAN * mod_all);
              float score = std::fabs (cosang) + std::fabs (dij - dik) / std::max (dij, dik)
                            + std::fabs (diag - 1.0f) + 0.5f * std::fabs (span - 1.0f);
              det->triples.push_back (Triple{ score, i, j, k });
            }
        }
    }
  std::sort (det->triples.begin (), det->triples.end (),
             [] (const Triple &x, const Triple &y) { return x.score < y.score; });
  det->candidates.clear ();
  for (const Triple &t : det->triples)
    {
      if (fs[t.tl].used || fs[t.tr].used || fs[t.bl].used)
        continue;
      Candidate c;
      c.f[0] = t.tl;
      c.f[1] = t.tr;
      c.f[2] = t.bl;
      c.reuse = -1;
      c.undecoded = false;
      c.inferred = false;
      if (!fit_homography (fs[t.tl], fs[t.tr], fs[t.bl], c.h))
        continue;
      fs[t.tl].used = fs[t.tr].used = fs[t.bl].used = true;
      det->candidates.push_back (c);
    }
}

constexpr size_t MAX_INFERRED = 64;   /* two-finder guesses tried per frame */

/* Appends a finder placed at `at`, not seen (module size from `like`);
 * returns its index, or -1 when it lies outside the frame or there is no
 * room. */
int
place_finder (VisDetector *det, int like, cv::Point2f at)
{
  std::vector<Finder> &fs = det->finders;
  if (fs.size () >= fs.capacity () || at.x < 0 || at.y < 0 || at.x >= det->gray.cols
      || at.y >= det->gray.rows)
    return -1;
  Finder f = fs[like];
  f.centre = at;
  f.inferred = true;
  f.used = true;
  fs.push_back (f);
  return (int) fs.size () - 1;
}

/* Adds the candidate with `tl` as the top-left finder and `a`, `b` as the
 * other two, which of them is top-right decided by handedness. */
void
add_guess (VisDetector *det, int tl, int a, int b)
{
  const std::vector<Finder> &fs = det->finders;
  if (tl < 0 || a < 0 || b < 0 || det->candidates.size () >= det->candidates.capacity ())
    return;
  cv::Point2f u = fs[a].centre - fs[tl].centre, v = fs[b].centre - fs[tl].centre;
  bool a_right = u.x * v.y - u.y * v.x > 0;
  Candidate c;
  c.f[0] = tl;
  c.f[1] = a_right ? a : b;
  c.f[2] = a_right ? b : a;
  c.reuse = -1;
  c.undecoded = false;
  c.inferred = true;
  if (fit_homography (fs[c.f[0]], fs[c.f[1]], fs[c.f[2]], c.h))
    det->candidates.push_back (c);
}

/* Codes with one finder lost (a highlight on a glossy sticker, a thumb, a
 * blur that closed its light ring) leave two finders no triple took.  Two
 * finders at the span of a side or of the diagonal fix the code's grid up to
 * where the third lies: beside either end of a side (on either side of it),
 * or on either side of a diagonal.  Each guess is tried as a candidate; the
 * function patterns are drawn, not read, so only the data decides, and
 * Reed-Solomon, the payload's check character and eng_tag_parse reject a
 * wrong guess as they reject any misread. */
void
pair_candidates (VisDetector *det)
{
  std::vector<Finder> &fs = det->finders;
  const int n = (int) fs.size ();
  const size_t first = det->candidates.size ();
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      {
        if (fs[i].used || fs[j].used || det->candidates.size () - first >= MAX_INFERRED)
          continue;
        if (std::max (fs[i].module, fs[j].module) > 1.4f * std::min (fs[i].module, fs[j].module))
          continue;
        const float span = FINDER_SPAN * 0.5f * (fs[i].module + fs[j].module);
        const float d = dist (fs[i].centre, fs[j].centre);
        cv::Point2f a = fs[j].centre - fs[i].centre;
        cv::Point2f perp (-a.y, a.x);
        if (std::fabs (d - span) < 0.2f * span)
          for (float side : { 1.0f, -1.0f })
            {
              add_guess (det, i, j, place_finder (det, i, fs[i].centre + side * perp));
              add_guess (det, j, i, place_finder (det, j, fs[j].centre + side * perp));
            }
        else if (std::fabs (d - span * (float) M_SQRT2) < 0.15f * span * (float) M_SQRT2)
          /* i and j are TR and BL; the top-left lies off the diagonal's
           * middle by half of it, on one side or the other. */
          for (float side : { 0.5f, -0.5f })
            add_guess (det, place_finder (det, i, 0.5f * (fs[i].centre + fs[j].centre) + side * perp), i, j);
      }
}

void
fill_geometry (const cv::Matx33d &h, VisDetection *d)
{
  static const float mx[4] = { 0, (float) QR_MODULES, (float) QR_MODULES, 0 };
  static const float my[4] = { 0, 0, (float) QR_MODULES, (float) QR_MODULES };
  float side = 0;
  for (int k = 0; k < 4; k++)
    {
      cv::Point2f p = apply (h, mx[k], my[k]);
      d->corners[k].x = p.x;
      d->corners[k].y = p.y;
    }
  for (int k = 0; k < 4; k++)
    side += std::hypot (d->corners[(k + 1) % 4].x - d->corners[k].x,
                        d->corners[(k + 1) % 4].y - d->corners[k].y);
  cv::Point2f c = apply (h, QR_MODULES * 0.5, QR_MODULES * 0.5);
  d->centre.x = c.x;
  d->centre.y = c.y;
  d->module_px = side / (4.0f * QR_MODULES);
  float ang = (float) (std::atan2 (d->corners[1].y - d->corners[0].y,
                                   d->corners[1].x - d->corners[0].x) * 180.0 / M_PI);
  if (ang < 0)
    ang += 360.0f;
  if (ang >= 360.0f)
    ang -= 360.0f;
  d->rotation_deg = ang;
}

/* Samples every module centre through `h` (mean of 4 bilinear points a
 * sixth of a module around it); outside the image reads white. */
void
sample_modules (const cv::Mat &g, const cv::Matx33d &h, float *samples)
{
  for (int my = 0; my < QR_MODULES; my++)
    for (int mx = 0; mx < QR_MODULES; mx++)
      {
        float acc = 0.0f;
        for (int k = 0; k < 4; k++)
          {
            double ox = (k & 1) ? 0.67 : 0.33, oy = (k & 2) ? 0.67 : 0.33;
            cv::Point2f p = apply (h, mx + ox, my + oy);
            float x = p.x - 0.5f, y = p.y - 0.5f;
            int x0 = (int) std::floor (x), y0 = (int) std::floor (y);
            if (x0 < 0 || y0 < 0 || x0 + 1 >= g.cols || y0 + 1 >= g.rows)
              {
                acc += 255.0f;
                continue;
              }
            float fx = x - x0, fy = y - y0;
            const uint8_t *r0 = g.ptr<uint8_t> (y0) + x0;
            const uint8_t *r1 = g.ptr<uint8_t> (y0 + 1) + x0;
            acc += (1 - fy) * ((1 - fx) * r0[0] + fx * r0[1]) + fy * ((1 - fx) * r1[0] + fx * r1[1]);
          }
        samples[my * QR_MODULES + mx] = acc * 0.25f;
      }
}

/* What a version-1 symbol holds at module (mx, my) whatever its data: 1
 * dark, 0 light, -1 for data and format modules.  The three finders with
 * their separators, the two timing lines and the dark module beside the
 * bottom-left finder. */
int
function_module (int mx, int my)
{
  auto finder = [] (int x, int y) {
    if (x == 7 || y == 7)
      return 0;
    return std::max (std::abs (x - 3), std::abs (y - 3)) == 2 ? 0 : 1;
  };
  if (mx < 8 && my < 8)
    return finder (mx, my);
  if (mx >= 13 && my < 8)
    return finder (QR_MODULES - 1 - mx, my);
  if (mx < 8 && my >= 13)
    return finder (mx, QR_MODULES - 1 - my);
  if (my == 6)
    return mx % 2 == 0;
  if (mx == 6)
    return my % 2 == 0;
  if (mx == 8 && my == 13)
    return 1;
  return -1;
}

/* Two-class split of the module samples (Otsu on 441 values, 32 bins). */
float
sample_cut (const float *samples)
{
  float lo_v = 255.0f, hi_v = 0.0f;
  for (int i = 0; i < QR_MODULES * QR_MODULES; i++)
    {
      lo_v = std::min (lo_v, samples[i]);
      hi_v = std::max (hi_v, samples[i]);
    }
  if (hi_v - lo_v <= 1.0f)
    return 0.5f * (lo_v + hi_v);
  int hist[32] = { 0 };
  for (int i = 0; i < QR_MODULES * QR_MODULES; i++)
    hist[std::min (31, (int) ((samples[i] - lo_v) / (hi_v - lo_v) * 32.0f))]++;
  double total = QR_MODULES * QR_MODULES, sum = 0, sum_b = 0, w_b = 0, best = -1;
  for (int i = 0; i < 32; i++)
    sum += i * (double) hist[i];
  int best_i = 16;
  for (int i = 0; i < 31; i++)
    {
      w_b += hist[i];
      if (w_b == 0 || w_b == total)
        continue;
      sum_b += i * (double) hist[i];
      double m_b = sum_b / w_b, m_f = (sum - sum_b) / (total - w_b);
      double between = w_b * (total - w_b) * (m_b - m_f) * (m_b - m_f);
      if (between > best)
        {
          best = between;
          best_i = i;
        }
    }
  return lo_v + (best_i + 1) * (hi_v - lo_v) / 32.0f;
}

/* How many of the ten timing modules between the finders read as they
 * must (dark on even positions): 10 on a code's true grid, about 5 on a
 * wrong one. */
int
timing_agreement (const float *samples)
{
  const float cut = sample_cut (samples);
  int good = 0;
  for (int k = 8; k <= 12; k++)
    {
      good += (samples[6 * QR_MODULES + k] < cut) == (k % 2 == 0);
      good += (samples[k * QR_MODULES + 6] < cut) == (k % 2 == 0);
    }
  return good;
}

/* Takes back what a blur of about a module spills into each module from its
 * four neighbours (an unsharp mask on the module grid). */
void
sharpen_samples (const float *in, float *out)
{
  constexpr float AMOUNT = 0.8f;
  for (int my = 0; my < QR_MODULES; my++)
    for (int mx = 0; mx < QR_MODULES; mx++)
      {
        float v = in[my * QR_MODULES + mx], acc = 0.0f;
        int n = 0;
        if (mx > 0)
          acc += in[my * QR_MODULES + mx - 1], n++;
        if (mx + 1 < QR_MODULES)
          acc += in[my * QR_MODULES + mx + 1], n++;
        if (my > 0)
          acc += in[(my - 1) * QR_MODULES + mx], n++;
        if (my + 1 < QR_MODULES)
          acc += in[(my + 1) * QR_MODULES + mx], n++;
        out[my * QR_MODULES + mx] = v + AMOUNT * (v - acc / (float) n);
      }
}

/* A crisp re-drawing of the symbol with a white quiet zone: zbar reads this
 * far more reliably than the blurred original, and level-Q error correction
 * absorbs a few wrong modules.  The function patterns are drawn as they must
 * be, not as sampled: a highlight on a finder or a smeared timing line then
 * costs nothing, and only data and format modules come from the image. */
void
draw_crisp (const float *samples, cv::Mat &crisp)
{
  const float cut = sample_cut (samples);
  crisp.setTo (255);
  for (int my = 0; my < QR_MODULES; my++)
    for (int r = 0; r < CRISP_PX; r++)
      {
        uint8_t *row = crisp.ptr<uint8_t> ((my + WARP_QUIET) * CRISP_PX + r) + WARP_QUIET * CRISP_PX;
        for (int mx = 0; mx < QR_MODULES; mx++)
          {
            int fixed = function_module (mx, my);
            if (fixed == 1 || (fixed < 0 && samples[my * QR_MODULES + mx] < cut))
              std::memset (row + mx * CRISP_PX, 0, CRISP_PX);
          }
      }
}

/* Runs this worker's zbar on `img`.  A Tablero payload is added to the
 * worker's results with the candidate's geometry; anything else zbar reads
 * is counted foreign.  Returns whether zbar read a QR code at all. */
bool
read_code (Worker &w, const cv::Mat &img, const Candidate &c)
{
  zbar::zbar_image_set_size (w.image, (unsigned) img.cols, (unsigned) img.rows);
  zbar::zbar_image_set_data (w.image, img.data, img.total (), nullptr);
  int n = zbar::zbar_scan_image (w.scanner, w.image);
  bool decoded = false;
  for (const zbar::zbar_symbol_t *sym = n > 0 ? zbar::zbar_image_first_symbol (w.image) : nullptr;
       sym != nullptr; sym = zbar::zbar_symbol_next (sym))
    {
      if (zbar::zbar_symbol_get_type (sym) != zbar::ZBAR_QRCODE)
        continue;
      const char *data = zbar::zbar_symbol_get_data (sym);
      unsigned len = zbar::zbar_symbol_get_data_length (sym);
      VisDetection d;
      std::memset (&d, 0, sizeof d);
      decoded = true;
      if (eng_tag_parse (data, len, &d.tag) != ENG_OK)
        {
          w.foreign++;
          continue;
        }
      std::memcpy (d.payload, data, ENG_TAG_PAYLOAD_LEN);
      d.payload[ENG_TAG_PAYLOAD_LEN] = '\0';
      fill_geometry (c.h, &d);
      if (w.found.size () < w.found.capacity ())
        {
          w.found.push_back (d);
          w.found_reused.push_back (0);
        }
      break;
    }
  zbar::zbar_image_set_data (w.image, nullptr, 0, nullptr);
  return decoded;
}

/* Rectifies one candidate and decodes it with this worker's scanner. */
void
decode_candidate (VisDetector *det, Worker &w, Candidate &c)
{
  if (c.reuse >= 0)
    {
      VisDetection d = det->previous[c.reuse];
      fill_geometry (c.h, &d);
      w.found.push_back (d);
      w.found_reused.push_back (1);
      return;
    }
  float samples[QR_MODULES * QR_MODULES];
  sample_modules (det->gray, c.h, samples);
  sharpen_samples (samples, w.sharp);
  if (c.inferred && std::max (timing_agreement (samples), timing_agreement (w.sharp)) < 7)
    return;   /* no code's grid there: a guess, not an unread code */
  /* The crisp re-drawing is tried from the samples as they are, then with
   * the blur's spill from neighbouring modules taken back out: at 2-3 px
   * per module a light module between dark ones reads barely lighter than
   * the cut, and the sharpened copy separates them again. */
  bool decoded = false;
  for (int attempt = 0; attempt < 2 && !decoded; attempt++)
    {
      draw_crisp (attempt == 0 ? samples : w.sharp, w.crisp);
      decoded = read_code (w, w.crisp, c);
    }
  /* dst pixel (x, y) -> module ((x + .5) / P - Q) -> image (pixel centres at +.5). */
  const double P = WARP_PX, Q = WARP_QUIET;
  cv::Matx33d s (1.0 / P, 0, 0.5 / P - Q, 0, 1.0 / P, 0.5 / P - Q, 0, 0, 1);
  cv::Matx33d t (1, 0, -0.5, 0, 1, -0.5, 0, 0, 1);
  cv::Matx33d m = t * c.h * s;
  /* A guessed finder is not in the image: zbar would not find it there. */
  if (!decoded && !c.inferred)
    {
      /* Then the rectified grey image, and a binarised copy of it: blur
       * and uneven ink make zbar's own edge detector misjudge thin light
       * modules; a global threshold over the small image is fair because
       * the light varies little across one code. */
      cv::warpPerspective (det->gray, w.warp, m, cv::Size (WARP_SIZE, WARP_SIZE),
                           cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
      /* Whatever surrounds the sticker (card art, the table) is not quiet
       * zone: paint it white beyond half a module outside the symbol. */
      const int lo = (int) ((Q - 0.5) * P), hi = (int) ((Q + QR_MODULES + 0.5) * P);
      w.warp.rowRange (0, lo).setTo (255);
      w.warp.rowRange (hi, WARP_SIZE).setTo (255);
      w.warp.colRange (0, lo).setTo (255);
      w.warp.colRange (hi, WARP_SIZE).setTo (255);
      decoded = read_code (w, w.warp, c);
    }
  if (!decoded && !c.inferred)
    {
      /* Ink spreads: a darker cut thins dark modules back. */
      double lo_v, hi_v;
      cv::minMaxLoc (w.warp, &lo_v, &hi_v);
      double otsu = cv::threshold (w.warp, w.warp_bin, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
      cv::threshold (w.warp, w.warp_bin, otsu - 0.2 * (hi_v - lo_v), 255, cv::THRESH_BINARY);
      decoded = read_code (w, w.warp_bin, c);
    }
  if (!decoded)
    {
      w.undecoded++;
      c.undecoded = true;
    }
}

void
decode_job (void *ctx, int job, int worker)
{
  VisDetector *det = (VisDetector *) ctx;
  try
    {
      Worker &w = det->workers[worker];
      decode_candidate (det, w, det->candidates[job]);
      w.found_job.resize (w.found.size (), job);
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

constexpr int BLOCK = 8;          /* change map resolution, px */
constexpr int CHANGE_LEVEL = 5;   /* grey levels a block mean must move */

cv::Rect
track_box (const VisDetection &d)
{
  float x0 = d.corners[0].x, x1 = x0, y0 = d.corners[0].y, y1 = y0;
  for (int k = 1; k < 4; k++)
    {
      x0 = std::min (x0, d.corners[k].x);
      x1 = std::max (x1, d.corners[k].x);
      y0 = std::min (y0, d.corners[k].y);
      y1 = std::max (y1, d.corners[k].y);
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

/* The frame's 8x8 block means (INTER_AREA averages sensor noise away). */
void
block_means (VisDetector *det, const VisImage *frame)
{
  cv::Size small ((frame->width + BLOCK - 1) / BLOCK, (frame->height + BLOCK - 1) / BLOCK);
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
  (void) worker;
  VisDetector *det = (VisDetector *) ctx;
  try
    {
      to_gray (det, det->frame, det->regions[job].own);
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
      max_module = std::max (max_module, d.module_px);
      cv::Rect r = track_box (d) & all;
      if (r.width < 16 || r.height < 16)
        continue;
      cv::Rect rb = to_blocks (r, det->changed.size ());
      det->covered (rb).setTo (255);
      if (det->previous_misses[p] == 0 && cv::countNonZero (det->changed (rb)) == 0)
        {
          det->still.push_back (d);
          continue;
        }
      to_gray (det, frame, r);
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
          to_gray (det, frame, r);
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
            dst[k] = cv::Point2f (d.corners[k].x, d.corners[k].y);
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

} // namespace

extern "C" EngStatus
vis_detector_detect (VisDetector *det, const VisImage *frame, VisDetectMode mode,
                     VisDetectResult *out)
{
  if (det == nullptr || frame == nullptr || out == nullptr)
    return ENG_ERR_INVALID_ARGUMENT;
  /* The format comes from C, where any int fits the enum: read it as an int
   * (loading an out-of-range enum is undefined in C++). */
  static_assert (sizeof (VisPixelFormat) == sizeof (int), "C enum layout");
  int format;
  std::memcpy (&format, &frame->format, sizeof format);
  if (frame->data == nullptr || frame->width < 32 || frame->height < 32
      || (format != VIS_PIXEL_GRAY8 && format != VIS_PIXEL_BGR8)
      || frame->stride < (size_t) frame->width * (size_t) format)
    return ENG_ERR_INVALID_ARGUMENT;
  std::memset (out, 0, sizeof *out);
  det->job_failed.store (false);
  try
    {
      bool resized = frame->width != det->last_width || frame->height != det->last_height;
      det->last_width = frame->width;
      det->last_height = frame->height;
      if (mode == VIS_DETECT_TRACK
          && (resized || det->previous.empty () || det->frames_since_cold + 1 >= det->opts.cold_interval))
        mode = VIS_DETECT_COLD;
      det->frames_since_cold = mode == VIS_DETECT_COLD ? 0 : det->frames_since_cold + 1;

      if (frame->format == VIS_PIXEL_GRAY8)
        det->gray = cv::Mat (frame->height, frame->width, CV_8UC1, (void *) frame->data, frame->stride);
      else
        {
          det->gray_own.create (frame->height, frame->width, CV_8UC1);
          det->gray = det->gray_own;
        }

      det->regions.clear ();
      if (mode == VIS_DETECT_TRACK && !plan_track (det, frame))
        {
          mode = VIS_DETECT_COLD;
          det->frames_since_cold = 0;
          det->regions.clear ();
        }
      if (mode == VIS_DETECT_COLD)
        {
          plan_cold (det);
          if (frame->format == VIS_PIXEL_BGR8)
            {
              /* Grey conversion split over the workers by stripe (each its
               * own rows, no overlap), before the stripes are searched. */
              det->frame = frame;
              det->pool.run ((int) det->regions.size (), convert_job, det);
            }
          /* From the grey frame, as cheap as it gets; tracking takes its
           * block means from BGR directly, within a grey level of these. */
          det->noise = estimate_noise (det);
          cv::resize (det->gray, det->small_cur,
                      cv::Size ((frame->width + BLOCK - 1) / BLOCK, (frame->height + BLOCK - 1) / BLOCK), 0, 0,
                      cv::INTER_AREA);
        }

      det->pool.run ((int) det->regions.size (), finder_job, det);
      merge_finders (det);
      group_candidates (det);
      pair_candidates (det);
      if (mode == VIS_DETECT_TRACK)
        mark_reuse (det);
      for (Worker &w : det->workers)
        {
          w.found.clear ();
          w.found_reused.clear ();
          w.found_job.clear ();
          w.undecoded = w.foreign = 0;
        }
      det->pool.run ((int) det->candidates.size (), decode_job, det);

      det->results.clear ();
      if (mode == VIS_DETECT_TRACK)
        for (const VisDetection &d : det->still)
          det->results.push_back (d);
      out->n_reused += (unsigned) det->still.size ();
      /* What was looked at becomes the reference for "unchanged"; where a
       * code could not be read, the area stays dirty and is looked at again
       * next frame. */
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
      /* In candidate order, not worker order: the same frame reports the
       * same codes in the same order whichever thread decoded them. */
      det->found_order.clear ();
      for (size_t wi = 0; wi < det->workers.size (); wi++)
        {
          Worker &w = det->workers[wi];
          out->n_undecoded += w.undecoded;
          out->n_foreign += w.foreign;
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
          bool dup = false;
          for (const VisDetection &e : det->results)
            if (std::strcmp (e.payload, d.payload) == 0
                && std::hypot (e.centre.x - d.centre.x, e.centre.y - d.centre.y) < 4.0f * e.module_px)
              {
                dup = true;
                break;
              }
          if (dup)
            continue;
          if (det->results.size () >= det->opts.max_detections)
            {
              out->truncated = 1;
              break;
            }
          det->results.push_back (d);
          out->n_reused += w.found_reused[ref.index];
        }
      /* A code tracking did not see this time (a hand over it) keeps its
       * region until the next cold pass, so it is found again at once;
       * unless another code now sits on its very spot (a card flipped or
       * swapped in place, a card laid over it): then it is gone, and must
       * not lend its identity to the new code's finders next frame. */
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
      if (mode == VIS_DETECT_COLD)
        {
          float smallest = INFINITY;
          for (const VisDetection &d : det->results)
            smallest = std::min (smallest, d.module_px);
          bool was = det->smooth_allowed;
          det->smooth_allowed = det->results.empty () ? !was : smallest >= SMOOTH_MIN_MODULE;
          /* Small codes showed through the smoothing: the others like them
           * it hid are looked for at once, not a cold interval later. */
          if (was && !det->smooth_allowed && !det->results.empty () && det->noise > NOISY_SIGMA)
            det->frames_since_cold = det->opts.cold_interval;
        }
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

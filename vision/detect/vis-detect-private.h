/* vis-detect-private.h: what the detector's three source files share.
 *
 *   vis-detect.cpp         the frame: finder search, tracking plan, results
 *   vis-detect-group.cpp   finders -> candidate codes (triples, two-finder guesses)
 *   vis-detect-decode.cpp  a candidate -> its payload (sampling, re-drawing, zbar)
 *
 * C++ only; the public interface is vis-detect.h. */
#pragma once

/* The engine headers carry no extern "C" guards of their own. */
extern "C" {
#include "eng-status.h"
#include "eng-tag.h"
}
#include "vis-detect.h"
#include "vis-detect-zxing.h"
#include "vis-qr-decode.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <zbar.h>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace vis_detect {
/* Version 1: 21 modules; finder centres at 3.5 modules from the edges. */
constexpr int QR_MODULES = 21;
constexpr float FINDER_SPAN = 14.0f;     /* centre-to-centre, TL to TR / BL */
constexpr int WARP_PX = 3;               /* pixels per module in the rectified image */
constexpr int WARP_QUIET = 3;            /* quiet-zone modules painted around it */
constexpr int CONTRAST_OFFSET_MIN = 6;   /* grey levels below the local mean = dark, */
constexpr int CONTRAST_OFFSET_MAX = 20;  /* ... from a tenth of the contrast, within these */
constexpr float NOISY_SIGMA = 2.0f;      /* measured sensor noise (grey levels) above which to smooth */
constexpr float SMOOTH_MIN_MODULE = 2.6f; /* smallest module px a smoothed search still finds */
constexpr int SECOND_PASS_JOBS = 1 << 20;
constexpr double DECONVOLVE_MAX_MODULE = 3.2;  /* px: larger modules are not deconvolved */
constexpr int BLOCK = 8;                 /* change map resolution, px */
constexpr int CHANGE_LEVEL = 5;          /* grey levels a block mean must move */
constexpr int MAX_PREFIXES = 8;          /* sets a table plays, at most (ENG_PRINTING_MAX_SETS) */
constexpr int PREFIX_LEN = 6;            /* "TB1" + game + set */
constexpr int UHD_WIDTH = 3000;          /* frames this wide are searched at half size ... */
constexpr float UHD_MIN_MODULE = 2.0f;   /* ... when their codes keep this many px a module there */
constexpr int STILL_LEVEL = 3;           /* grey levels a block mean may move between frames and be still */
constexpr int STILL_FRAMES = 8;          /* the running mean's longest memory, frames */
constexpr uint8_t STILL_UNSET = 0xff;    /* still_frames of a block not fused yet */  /* job_base of a cold pass's second search */
constexpr double SHARPEN_SIGMA = 1.5;    /* the unsharp mask of searches for small codes, px */
constexpr int WARP_SIZE = (QR_MODULES + 2 * WARP_QUIET) * WARP_PX;
/* The re-drawn code is perfectly sharp, so 2 px per module are plenty for
 * zbar, whose cost grows with the pixels it scans. */
constexpr int CRISP_PX = 2;
constexpr int CRISP_SIZE = (QR_MODULES + 2 * WARP_QUIET) * CRISP_PX;
/* A module sample this light is a highlight's, not the paper's (unless
 * most of the code is, vis_qr_classify): an erasure for our own decoder. */
constexpr float SATURATED = 250.0f;

struct Finder {
  cv::Point2f centre;
  float module;              /* estimated module size, px */
  /* Second moments of its inner square, px^2.  A square has the same
   * spread in every direction, so these are the table plane's local affine
   * squared: how a right angle on the table looks in the image here. */
  float cxx, cxy, cyy;
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
  cv::Mat bin, smooth, sharpened;
  std::vector<unsigned> hist;     /* contrast_offset's */
  cv::Mat small, mean;
  cv::Mat warp, warp_bin, crisp;
  float sharp[QR_MODULES * QR_MODULES];
  float deconvolved[QR_MODULES * QR_MODULES];
  float fused[QR_MODULES * QR_MODULES];
  cv::Mat crop;               /* a candidate at the frame's full resolution (scale > 1) */
  cv::Mat convert_tmp;        /* to_gray's, on this worker */
  VisQrReading reading;       /* our own decoder's view of the samples */
  std::vector<std::vector<cv::Point>> contours;
  std::vector<cv::Vec4i> hierarchy;
  std::vector<Finder> finders;
  std::vector<VisDetection> found;
  std::vector<uint8_t> found_reused;
  std::vector<int> found_job;  /* the candidate each was decoded from */
  unsigned undecoded = 0;
  unsigned foreign = 0;
  unsigned old_format = 0;   /* among foreign: eng_printing_check's reasons */
  unsigned wrong_seal = 0;
  const EngPrinting *printing = nullptr;  /* the detector's, copied to each worker */
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

inline float
dist (cv::Point2f a, cv::Point2f b)
{
  return std::hypot (a.x - b.x, a.y - b.y);
}

inline cv::Point2f
apply (const cv::Matx33d &h, double x, double y)
{
  double w = h (2, 0) * x + h (2, 1) * y + h (2, 2);
  return cv::Point2f ((float) ((h (0, 0) * x + h (0, 1) * y + h (0, 2)) / w),
                      (float) ((h (1, 0) * x + h (1, 1) * y + h (1, 2)) / w));
}

/* vis-detect-group.cpp */

/* The module->image map of a code from its three finder centres; false when
 * they are (nearly) collinear. */
bool fit_homography (const Finder &tl, const Finder &tr, const Finder &bl, cv::Matx33d &h);
/* det->finders -> det->candidates: finder triples, best first. */
void group_candidates (VisDetector *det);
/* Adds guesses for codes of which only two finders were seen. */
void pair_candidates (VisDetector *det);
/* Offers the finders of triples that did not decode to pair_candidates. */
bool release_unread (VisDetector *det);

/* vis-detect-decode.cpp */

/* Corners, centre, module size and rotation of the code `h` maps. */
void fill_geometry (const cv::Matx33d &h, VisDetection *d);

/* A view of a reusable buffer (see the definition below). */
cv::Mat scratch (cv::Mat &buf, cv::Size size, int channels);

/* A candidate's module->work map as module->frame. */
inline cv::Matx33d
frame_h (const VisDetector *det, const cv::Matx33d &h);
/* Pool job: decodes det->candidates[det->first_job + job] on that worker. */
void decode_job (void *ctx, int job, int worker);


} // namespace vis_detect

struct VisDetector;

struct VisDetector {
  VisDetectorOptions opts;
  vis_detect::Pool pool;
  std::vector<vis_detect::Worker> workers;
  /* Large frames (4K) are searched and tracked at half size and decoded at
   * full size: `scale` is the frame's pixels per work pixel (1 or 2).
   * Everything inside (gray, regions, finders, candidates' h) is in work
   * pixels; detections (results, previous) are in the frame's. */
  int scale = 1;
  float smallest_module = 0.0f;  /* frame px: the smallest code the last cold pass read */
  unsigned cold_passes = 0;
  size_t last_cold_count = 0;   /* codes the last cold pass read */
  unsigned barren_colds = 0;    /* cold passes in a row that read no more than the one before */
  cv::Mat convert_tmp;        /* to_gray's, on the calling thread */
  cv::Mat gray;               /* the frame itself (GRAY8) or gray_own, in work pixels */
  cv::Mat gray_own;           /* BGR frames are converted into this */
  cv::Mat small_bgr, small_cur; /* this frame's 8x8 block means */
  cv::Mat small_ref;          /* block means when each area was last examined */
  cv::Mat dirty;              /* blocks to examine again whatever they show */
  cv::Mat changed, covered, fresh;
  std::vector<std::vector<cv::Point>> fresh_contours;
  std::vector<VisDetection> still;
  std::vector<unsigned> previous_misses;
  std::vector<vis_detect::Region> regions;
  std::vector<vis_detect::Finder> finders;
  std::vector<vis_detect::Finder> finders_all;  /* every worker's, before merging */
  std::vector<vis_detect::Candidate> candidates;
  size_t first_job = 0;       /* decode jobs number candidates from here */
  int job_base = 0;           /* added to the job numbers of a second search (results order) */
  std::vector<vis_detect::Triple> triples;
  std::vector<vis_detect::FoundRef> found_order;
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
  bool sharpen = false;       /* this search sharpens (small codes), see find_finders */
  std::vector<unsigned> noise_hist;
  /* Frames fused where the table stands still (see update_still): each
   * pixel's running mean (x16) over the frames its 8x8 block has not
   * changed in, as grey; per block how many such frames (0..8). */
  cv::Mat still_sum, still_grey, still_frames, still_done, small_prev;
  bool still_fresh = true;
  bool unread_last = false;   /* the last frame left candidates unread */
  bool still_now = false;     /* still_grey holds this frame */
  /* The first characters of the printing's stickers ("TB1K01": magic,
   * game and set), for decoding with those codewords known. */
  char prefixes[vis_detect::MAX_PREFIXES][vis_detect::PREFIX_LEN + 1];
  int n_prefixes = 0;
  int last_width = 0, last_height = 0;

  explicit VisDetector (const VisDetectorOptions &o) : opts (o), pool (o.n_threads) {}
};

inline cv::Matx33d
vis_detect::frame_h (const VisDetector *det, const cv::Matx33d &h)
{
  const double k = det->scale;
  return cv::Matx33d (k, 0, 0, 0, k, 0, 0, 0, 1) * h;
}

/* A `size` view of `buf` (CV_8U, `channels`), which grows to the largest
 * size asked and is then reused: OpenCV's create() would allocate anew for
 * every size that differs, and regions and crops differ every frame. */
inline cv::Mat
vis_detect::scratch (cv::Mat &buf, cv::Size size, int channels)
{
  if (buf.cols < size.width || buf.rows < size.height || buf.channels () != channels)
    buf.create (std::max (buf.rows, size.height), std::max (buf.cols, size.width), CV_8UC (channels));
  return buf (cv::Rect (0, 0, size.width, size.height));
}

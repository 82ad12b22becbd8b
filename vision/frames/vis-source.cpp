// vis-source.cpp: frame sources behind one string (vis-source.h).
//
// A VisSource wraps one backend (file, demo, v4l2, libcamera) and owns the
// reconnection logic common to all: a backend that reports DISCONNECTED is
// closed, reopened no more often than the reconnect interval, and the first
// frame after it came back is marked RECONNECTED.
#include "vis-source.h"
#include "vis-source-backend.h"
#include "vis-camera.h"
#include "vis-convert.h"
#include "vis-render.h"
#include "vis-imageio.h"

extern "C" {
#include "eng-data.h"
#include "eng-game.h"
}

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <opencv2/videoio/registry.hpp>

#include "eng-cardset.h"

namespace {

void
set_error (VisSourceError *err, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

void
set_error (VisSourceError *err, const char *fmt, ...)
{
  if (err == nullptr)
    return;
  // Messages quote specs and file names as given: escaped, so none
  // carries a control byte to a terminal or a log.
  char raw[1024];
  va_list ap;
  va_start (ap, fmt);
  std::vsnprintf (raw, sizeof raw, fmt, ap);
  va_end (ap);
  eng_escape_text (err->message, sizeof err->message, raw, std::strlen (raw));
}

int64_t
monotonic_ns ()
{
  return std::chrono::duration_cast<std::chrono::nanoseconds> (
           std::chrono::steady_clock::now ().time_since_epoch ()).count ();
}

bool
has_suffix (const std::string &s, const char *suffix)
{
  size_t n = std::strlen (suffix);
  if (s.size () < n)
    return false;
  for (size_t i = 0; i < n; i++)
    if (std::tolower ((unsigned char) s[s.size () - n + i]) != suffix[i])
      return false;
  return true;
}

bool
is_image_name (const std::string &name)
{
  static const char *const exts[] = { ".png", ".jpg", ".jpeg", ".bmp", ".pgm", ".ppm",
                                      ".pnm", ".tif", ".tiff", ".webp" };
  for (const char *e : exts)
    if (has_suffix (name, e))
      return true;
  return false;
}

// The common base of the backends in this file.
class Backend {
public:
  virtual ~Backend () = default;
  virtual VisSourceStatus open (VisSourceError *err) = 0;
  virtual VisSourceStatus read (VisFrame *frame, VisSourceError *err) = 0;
  virtual void close () = 0;
  virtual std::string describe () const = 0;
  // Camera controls: kept for every later open; a camera sets them at once
  // when it is open.  Other sources have none and say nothing.
  virtual void set_controls (const VisCameraControls &c) { opts_.controls = c; }
  // What the last setting of the controls did not do as asked ("" when all).
  virtual const char *controls_report () const { return ""; }
  // The manual exposure times of an open camera; false for the others.
  virtual bool exposure_range (VisExposureRange *) const { return false; }
  // Keeps `t` as the manual exposure time; a camera sets that control alone.
  virtual void set_exposure_time (int t) { opts_.controls.exposure_time = t; }

protected:
  explicit Backend (const VisSourceOptions &o) : opts_ (o) {}

  // Hands `bgr` out as a frame in the wanted format (reusing gray_).
  void deliver (cv::Mat &bgr, VisFrame *frame, int64_t timestamp_ns)
  {
    cv::Mat *out = &bgr;
    if (opts_.format == VIS_PIXEL_GRAY8)
      {
        if (bgr.channels () == 1)
          out = &bgr;
        else
          {
            cv::cvtColor (bgr, gray_, cv::COLOR_BGR2GRAY);
            out = &gray_;
          }
      }
    else if (bgr.channels () == 1)
      {
        cv::cvtColor (bgr, colour_, cv::COLOR_GRAY2BGR);
        out = &colour_;
      }
    frame->image.width = out->cols;
    frame->image.height = out->rows;
    frame->image.stride = out->step[0];
    frame->image.format = out->channels () == 1 ? VIS_PIXEL_GRAY8 : VIS_PIXEL_BGR8;
    frame->image.data = out->data;
    frame->timestamp_ns = timestamp_ns;
  }

  VisSourceOptions opts_;
  cv::Mat gray_, colour_;
};

// Reads a whole file into `buf` (reusing its capacity).
bool
read_file (const std::string &path, std::vector<uchar> *buf, int *errno_out)
{
  FILE *f = std::fopen (path.c_str (), "rb");
  if (f == nullptr)
    {
      *errno_out = errno;
      return false;
    }
  buf->clear ();
  uchar chunk[65536];
  size_t n;
  while ((n = std::fread (chunk, 1, sizeof chunk, f)) > 0)
    buf->insert (buf->end (), chunk, chunk + n);
  bool ok = !std::ferror (f);
  *errno_out = ok ? 0 : EIO;
  std::fclose (f);
  return ok;
}

// Decodes an image file's bytes; ERR_FORMAT for empty, truncated or corrupt.
VisSourceStatus
decode_image (const std::string &path, const std::vector<uchar> &buf, cv::Mat *out,
              VisSourceError *err)
{
  if (buf.empty ())
    {
      set_error (err, "%s: empty file, not an image", path.c_str ());
      return VIS_SOURCE_ERR_FORMAT;
    }
  // libjpeg "decodes" a cut JPEG by padding it with grey; catch the missing
  // end marker, and likewise a PNG without its IEND chunk.
  bool jpeg = buf.size () >= 3 && buf[0] == 0xFF && buf[1] == 0xD8;
  bool png = buf.size () >= 8 && std::memcmp (buf.data (), "\x89PNG", 4) == 0;
  if (jpeg)
    {
      size_t end = buf.size ();
      while (end > 2 && buf[end - 1] != 0xD9)
        end--;   // tolerate trailing padding after EOI
      if (end < 4 || buf[end - 2] != 0xFF || buf.size () - end > 64)
        {
          set_error (err, "%s: truncated JPEG (no end-of-image marker)", path.c_str ());
          return VIS_SOURCE_ERR_FORMAT;
        }
    }
  if (png && (buf.size () < 12
              || std::memcmp (buf.data () + buf.size () - 8, "IEND", 4) != 0))
    {
      set_error (err, "%s: truncated PNG (no IEND chunk)", path.c_str ());
      return VIS_SOURCE_ERR_FORMAT;
    }
  int declared_w, declared_h;
  char too_large[128];
  if (vis_image_declared_size (buf.data (), buf.size (), &declared_w, &declared_h)
      && !vis_image_size_ok (declared_w, declared_h, too_large, sizeof too_large))
    {
      set_error (err, "%s: %s", path.c_str (), too_large);
      return VIS_SOURCE_ERR_FORMAT;
    }
  // cv::imdecode leaves `out` as it was when decoding fails, so a stale
  // image would pass for a new one: start empty.  (Files are not the live
  // path; the webcam path reuses its buffer and checks JPEG markers first.)
  out->release ();
  try
    {
      cv::imdecode (buf, cv::IMREAD_COLOR, out);
    }
  catch (const cv::Exception &)
    {
      out->release ();
    }
  if (out->empty ())
    {
      set_error (err, "%s: not a readable image (corrupt, truncated or unknown format)",
                 path.c_str ());
      return VIS_SOURCE_ERR_FORMAT;
    }
  if (!vis_image_size_ok (out->cols, out->rows, too_large, sizeof too_large))
    {
      out->release ();
      set_error (err, "%s: %s", path.c_str (), too_large);
      return VIS_SOURCE_ERR_FORMAT;
    }
  return VIS_SOURCE_OK;
}

// ---- file: a folder of images, one image, or a video ------------------------

class FileBackend : public Backend {
public:
  FileBackend (const VisSourceOptions &o, std::string path) : Backend (o), path_ (std::move (path)) {}

  VisSourceStatus open (VisSourceError *err) override
  {
    struct stat st;
    if (::stat (path_.c_str (), &st) != 0)
      {
        set_error (err, "%s: %s", path_.c_str (), std::strerror (errno));
        return VIS_SOURCE_ERR_IO;
      }
    if (S_ISDIR (st.st_mode))
      return open_folder (err);
    if (is_image_name (path_))
      {
        mode_ = Mode::Image;
        int e;
        if (!read_file (path_, &buf_, &e))
          {
            set_error (err, "%s: %s", path_.c_str (), std::strerror (e));
            return VIS_SOURCE_ERR_IO;
          }
        VisSourceStatus s = decode_image (path_, buf_, &image_, err);
        if (s != VIS_SOURCE_OK)
          return s;
        return VIS_SOURCE_OK;
      }
    mode_ = Mode::Video;
    if (st.st_size == 0)
      {
        set_error (err, "%s: empty file, not a video", path_.c_str ());
        return VIS_SOURCE_ERR_FORMAT;
      }
    try
      {
        // FFmpeg reads files quietly; GStreamer (CAP_ANY's first pick on
        // Debian) prints assertion noise for anything it cannot open.
        int api = cv::videoio_registry::hasBackend (cv::CAP_FFMPEG) ? cv::CAP_FFMPEG : cv::CAP_ANY;
        if (!cap_.open (path_, api) || !cap_.isOpened ())
          {
            set_error (err, "%s: not a readable video or image", path_.c_str ());
            return VIS_SOURCE_ERR_FORMAT;
          }
      }
    catch (const cv::Exception &)
      {
        set_error (err, "%s: not a readable video or image", path_.c_str ());
        return VIS_SOURCE_ERR_FORMAT;
      }
    // After a reconnection, carry on where the video was (frames played so
    // far; the position is kept across loops only approximately).
    if (played_ > 0)
      {
        double count = cap_.get (cv::CAP_PROP_FRAME_COUNT);
        double pos = count > 0 && opts_.loop ? std::fmod ((double) played_, count)
                                             : (double) played_;
        cap_.set (cv::CAP_PROP_POS_FRAMES, pos);
      }
    // Play time follows the video's own rate unless the caller set one.
    double rate = cap_.get (cv::CAP_PROP_FPS);
    if (opts_.fps <= 0 && rate > 0 && rate < 1000)
      opts_.fps = rate;
    return VIS_SOURCE_OK;
  }

  VisSourceStatus read (VisFrame *frame, VisSourceError *err) override
  {
    switch (mode_)
      {
      case Mode::Folder: return read_folder (frame, err);
      case Mode::Image:
        if (played_ > 0 && !opts_.loop)
          {
            set_error (err, "%s: end of the image", path_.c_str ());
            return VIS_SOURCE_END;
          }
        deliver (image_, frame, play_time ());
        played_++;
        return VIS_SOURCE_OK;
      case Mode::Video:
        {
          bool ok = cap_.read (video_frame_);
          if (!ok && opts_.loop && played_ > 0)
            {
              cap_.set (cv::CAP_PROP_POS_FRAMES, 0);
              ok = cap_.read (video_frame_);
            }
          if (!ok || video_frame_.empty ())
            {
              if (::access (path_.c_str (), R_OK) != 0)
                {
                  set_error (err, "%s: the file went away", path_.c_str ());
                  return VIS_SOURCE_DISCONNECTED;
                }
              set_error (err, "%s: end of the video", path_.c_str ());
              return VIS_SOURCE_END;
            }
          deliver (video_frame_, frame, play_time ());
          played_++;
          return VIS_SOURCE_OK;
        }
      }
    return VIS_SOURCE_ERR_IO;
  }

  void close () override
  {
    if (mode_ == Mode::Video)
      cap_.release ();
  }

  std::string describe () const override
  {
    switch (mode_)
      {
      case Mode::Folder:
        return "folder " + path_ + " (" + std::to_string (entries_.size ()) + " images)";
      case Mode::Image: return "image " + path_;
      case Mode::Video: return "video " + path_;
      }
    return path_;
  }

private:
  enum class Mode { Folder, Image, Video };

  int64_t play_time () const
  {
    double fps = opts_.fps > 0 ? opts_.fps : 30;
    return (int64_t) (played_ * 1e9 / fps);
  }

  VisSourceStatus open_folder (VisSourceError *err)
  {
    mode_ = Mode::Folder;
    DIR *d = ::opendir (path_.c_str ());
    if (d == nullptr)
      {
        set_error (err, "%s: %s", path_.c_str (), std::strerror (errno));
        return VIS_SOURCE_ERR_IO;
      }
    entries_.clear ();
    while (struct dirent *e = ::readdir (d))
      if (e->d_name[0] != '.' && is_image_name (e->d_name))
        entries_.emplace_back (e->d_name);
    ::closedir (d);
    std::sort (entries_.begin (), entries_.end ());
    if (entries_.empty ())
      {
        set_error (err, "%s: the folder holds no images (.png, .jpg, ...)", path_.c_str ());
        return VIS_SOURCE_ERR_FORMAT;
      }
    // After a reconnection, carry on with the image that was due.
    index_ = 0;
    if (!next_name_.empty ())
      index_ = (size_t) (std::lower_bound (entries_.begin (), entries_.end (), next_name_)
                         - entries_.begin ());
    return VIS_SOURCE_OK;
  }

  VisSourceStatus read_folder (VisFrame *frame, VisSourceError *err)
  {
    if (index_ >= entries_.size ())
      {
        if (!opts_.loop)
          {
            set_error (err, "%s: end of the folder", path_.c_str ());
            return VIS_SOURCE_END;
          }
        index_ = 0;
      }
    const std::string &name = entries_[index_];
    next_name_ = name;
    std::string full = path_ + "/" + name;
    int e;
    if (!read_file (full, &buf_, &e))
      {
        struct stat st;
        if (::stat (path_.c_str (), &st) != 0 || !S_ISDIR (st.st_mode))
          {
            set_error (err, "%s: the folder went away", path_.c_str ());
            return VIS_SOURCE_DISCONNECTED;
          }
        // One image gone (deleted, a dangling link, unreadable) is a gap
        // in the recording, not the end of it: skipped and said, as a
        // corrupt one is; the next read goes on with the following image.
        index_++;
        next_name_ = index_ < entries_.size () ? entries_[index_] : std::string ();
        set_error (err, "%s: %s; skipped", full.c_str (), std::strerror (e));
        return VIS_SOURCE_ERR_FORMAT;
      }
    index_++;
    next_name_ = index_ < entries_.size () ? entries_[index_] : std::string ();
    VisSourceStatus s = decode_image (full, buf_, &image_, err);
    if (s != VIS_SOURCE_OK)
      return s;
    deliver (image_, frame, play_time ());
    played_++;
    return VIS_SOURCE_OK;
  }

  std::string path_;
  Mode mode_ = Mode::Folder;
  std::vector<std::string> entries_;
  size_t index_ = 0;
  std::string next_name_;
  std::vector<uchar> buf_;
  cv::Mat image_, video_frame_;
  cv::VideoCapture cap_;
  uint64_t played_ = 0;
};

// ---- demo: the synthetic renderer playing a scene ---------------------------

class DemoBackend : public Backend {
public:
  DemoBackend (const VisSourceOptions &o, std::string scene_path)
    : Backend (o), scene_path_ (std::move (scene_path)) {}

  ~DemoBackend () override
  {
    vis_renderer_free (renderer_);
    vis_scene_free (scene_);
  }

  VisSourceStatus open (VisSourceError *err) override
  {
    if (renderer_ != nullptr)
      return VIS_SOURCE_OK;
    EngParseError perr {};
    EngStatus st = vis_scene_load_file (scene_path_.c_str (), &scene_, &perr);
    if (st != ENG_OK)
      {
        set_error (err, "demo scene %s:%u: %s", perr.source, perr.line, perr.reason);
        return st == ENG_ERR_IO ? VIS_SOURCE_ERR_IO : VIS_SOURCE_ERR_FORMAT;
      }
    if (vis_scene_needs_card_set (scene_))
      {
        const char *game = vis_scene_game (scene_);
        if (game == nullptr)
          {
            set_error (err, "demo scene %s: cards by type need a 'game' line", scene_path_.c_str ());
            return VIS_SOURCE_ERR_FORMAT;
          }
        std::string set_path = data_dir_ + "/cards/" + game + ".set";
        EngCardSet *set = nullptr;
        st = eng_card_set_load_file (set_path.c_str (), &set, &perr);
        if (st == ENG_OK)
          st = vis_scene_resolve (scene_, set, &perr);
        eng_card_set_free (set);
        if (st != ENG_OK)
          {
            set_error (err, "demo scene %s:%u: %s", perr.source, perr.line, perr.reason);
            return VIS_SOURCE_ERR_FORMAT;
          }
      }
    vis_scene_set_printing (scene_, opts_.printing);
    st = vis_renderer_new (scene_, 0, &renderer_);
    if (st != ENG_OK)
      {
        set_error (err, "demo scene %s: renderer: %s", scene_path_.c_str (), eng_status_to_string (st));
        return st == ENG_ERR_NO_MEMORY ? VIS_SOURCE_ERR_NO_MEMORY : VIS_SOURCE_ERR_FORMAT;
      }
    fps_ = opts_.fps > 0 ? opts_.fps : vis_scene_fps (scene_);
    n_frames_ = std::max (1u, (unsigned) std::ceil (vis_scene_duration (scene_) * fps_ - 1e-9));
    frame_.create (vis_scene_height (scene_), vis_scene_width (scene_),
                   opts_.format == VIS_PIXEL_GRAY8 ? CV_8UC1 : CV_8UC3);
    return VIS_SOURCE_OK;
  }

  VisSourceStatus read (VisFrame *frame, VisSourceError *err) override
  {
    // Pace to the scene's frame rate, as a camera would.
    int64_t now = monotonic_ns ();
    if (next_due_ns_ == 0)
      next_due_ns_ = now;
    if (next_due_ns_ > now)
      std::this_thread::sleep_for (std::chrono::nanoseconds (next_due_ns_ - now));
    next_due_ns_ = std::max (next_due_ns_ + (int64_t) (1e9 / fps_), now - (int64_t) 1e9);
    double t = (double) (played_ % n_frames_) / fps_;
    VisImage img { frame_.cols, frame_.rows, frame_.step[0],
                   frame_.channels () == 1 ? VIS_PIXEL_GRAY8 : VIS_PIXEL_BGR8, frame_.data };
    EngStatus st = vis_renderer_render (renderer_, t, &img, nullptr);
    if (st != ENG_OK)
      {
        set_error (err, "demo: rendering failed: %s", eng_status_to_string (st));
        return VIS_SOURCE_ERR_NO_MEMORY;
      }
    frame->image = img;
    frame->timestamp_ns = (int64_t) (played_ * 1e9 / fps_);
    played_++;
    return VIS_SOURCE_OK;
  }

  void close () override {}

  std::string describe () const override { return "demo (synthetic table, " + scene_path_ + ")"; }

  std::string data_dir_;

private:
  std::string scene_path_;
  VisScene *scene_ = nullptr;
  VisRenderer *renderer_ = nullptr;
  cv::Mat frame_;
  double fps_ = 10;
  unsigned n_frames_ = 1;
  uint64_t played_ = 0;
  int64_t next_due_ns_ = 0;
};

// ---- v4l2: UVC webcams -------------------------------------------------------

int
xioctl (int fd, unsigned long req, void *arg)
{
  int r;
  do
    r = ::ioctl (fd, req, arg);
  while (r == -1 && errno == EINTR);
  return r;
}

static_assert (VIS_FOURCC_MJPEG == V4L2_PIX_FMT_MJPEG && VIS_FOURCC_JPEG == V4L2_PIX_FMT_JPEG
               && VIS_FOURCC_YUYV == V4L2_PIX_FMT_YUYV && VIS_FOURCC_NV12 == V4L2_PIX_FMT_NV12,
               "vis-convert.h's codes are V4L2's");
static_assert (VIS_CID_FOCUS_AUTO == V4L2_CID_FOCUS_AUTO && VIS_CID_FOCUS_ABSOLUTE == V4L2_CID_FOCUS_ABSOLUTE
               && VIS_CID_EXPOSURE_AUTO == V4L2_CID_EXPOSURE_AUTO
               && VIS_CID_EXPOSURE_ABSOLUTE == V4L2_CID_EXPOSURE_ABSOLUTE
               && VIS_CID_POWER_LINE_FREQUENCY == V4L2_CID_POWER_LINE_FREQUENCY,
               "vis-camera.h's control ids are V4L2's");

// Every mode the device lists: formats, then their sizes, then the frame
// intervals at each size (at the largest size of a range).  A format whose
// sizes cannot be listed is left out; a size whose rates cannot be listed
// is kept with fps 0 (not said).
void
enumerate_modes (int fd, VisCameraModes *modes)
{
  modes->n = 0;
  modes->truncated = false;
  for (uint32_t i = 0; i < 64; i++)
    {
      v4l2_fmtdesc desc {};
      desc.index = i;
      desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
      if (xioctl (fd, VIDIOC_ENUM_FMT, &desc) != 0)
        break;
      for (uint32_t j = 0; j < 256; j++)
        {
          v4l2_frmsizeenum size {};
          size.index = j;
          size.pixel_format = desc.pixelformat;
          if (xioctl (fd, VIDIOC_ENUM_FRAMESIZES, &size) != 0)
            break;
          VisCameraMode m {};
          m.fourcc = desc.pixelformat;
          bool discrete = size.type == V4L2_FRMSIZE_TYPE_DISCRETE;
          if (discrete)
            {
              m.width = (int) size.discrete.width;
              m.height = (int) size.discrete.height;
            }
          else
            {
              m.min_width = (int) size.stepwise.min_width;
              m.min_height = (int) size.stepwise.min_height;
              m.width = (int) size.stepwise.max_width;
              m.height = (int) size.stepwise.max_height;
              m.step_width = std::max (1, (int) size.stepwise.step_width);
              m.step_height = std::max (1, (int) size.stepwise.step_height);
            }
          if (m.width < 1 || m.height < 1 || m.width > 16384 || m.height > 16384)
            continue;
          bool rated = false;
          for (uint32_t k = 0; k < 64; k++)
            {
              v4l2_frmivalenum ival {};
              ival.index = k;
              ival.pixel_format = desc.pixelformat;
              ival.width = (uint32_t) m.width;
              ival.height = (uint32_t) m.height;
              if (xioctl (fd, VIDIOC_ENUM_FRAMEINTERVALS, &ival) != 0)
                break;
              VisCameraMode r = m;
              if (ival.type == V4L2_FRMIVAL_TYPE_DISCRETE)
                {
                  if (ival.discrete.numerator == 0 || ival.discrete.denominator == 0)
                    continue;
                  r.fps = (double) ival.discrete.denominator / ival.discrete.numerator;
                }
              else
                {
                  const v4l2_fract &fast = ival.stepwise.min, &slow = ival.stepwise.max;
                  if (fast.numerator == 0 || fast.denominator == 0 || slow.numerator == 0 || slow.denominator == 0)
                    break;
                  r.fps = (double) fast.denominator / fast.numerator;
                  r.min_fps = (double) slow.denominator / slow.numerator;
                  if (r.min_fps >= r.fps)
                    r.min_fps = 0;
                }
              if (r.fps > 0 && r.fps <= 1000)
                {
                  vis_camera_modes_add (modes, &r);
                  rated = true;
                }
              if (ival.type != V4L2_FRMIVAL_TYPE_DISCRETE)
                break;
            }
          if (!rated)
            vis_camera_modes_add (modes, &m);
          if (!discrete)
            break;
        }
    }
}

// The controls Tablero sets, as the device describes them.
void
query_controls (int fd, VisCameraCtrls *out)
{
  out->n = 0;
  static const uint32_t ids[] = { V4L2_CID_FOCUS_AUTO, V4L2_CID_FOCUS_ABSOLUTE, V4L2_CID_EXPOSURE_AUTO,
                                  V4L2_CID_EXPOSURE_ABSOLUTE, V4L2_CID_POWER_LINE_FREQUENCY };
  for (uint32_t id : ids)
    {
      v4l2_queryctrl q {};
      q.id = id;
      if (xioctl (fd, VIDIOC_QUERYCTRL, &q) != 0 || q.id != id)
        continue;
      VisCameraCtrl c {};
      c.id = id;
      std::snprintf (c.name, sizeof c.name, "%s", reinterpret_cast<const char *> (q.name));
      c.type = q.type == V4L2_CTRL_TYPE_INTEGER ? VIS_CAMERA_CTRL_INT
               : q.type == V4L2_CTRL_TYPE_BOOLEAN ? VIS_CAMERA_CTRL_BOOL
               : q.type == V4L2_CTRL_TYPE_MENU || q.type == V4L2_CTRL_TYPE_INTEGER_MENU ? VIS_CAMERA_CTRL_MENU
               : VIS_CAMERA_CTRL_OTHER;
      c.min = q.minimum;
      c.max = q.maximum;
      c.step = std::max (1, q.step);
      c.def = q.default_value;
      c.inactive = q.flags & V4L2_CTRL_FLAG_INACTIVE;
      c.read_only = q.flags & V4L2_CTRL_FLAG_READ_ONLY;
      c.disabled = q.flags & V4L2_CTRL_FLAG_DISABLED;
      if (c.type == VIS_CAMERA_CTRL_MENU)
        for (int32_t i = std::max (0, c.min); i <= c.max && i < 64; i++)
          {
            v4l2_querymenu m {};
            m.id = id;
            m.index = (uint32_t) i;
            if (xioctl (fd, VIDIOC_QUERYMENU, &m) == 0)
              c.menu |= 1ull << i;
          }
      if (out->n < VIS_CAMERA_CTRLS_MAX)
        out->ctrls[out->n++] = c;
    }
}

bool
controls_asked (const VisCameraControls &c)
{
  return c.focus != VIS_FOCUS_UNSET || c.exposure != VIS_EXPOSURE_UNSET
         || c.anti_flicker != VIS_ANTI_FLICKER_UNSET;
}

// A JPEG with its start and end markers (trailing 0x00/0xFF padding, which
// some webcams send, is allowed): a frame cut short on the USB bus decodes
// to grey bands otherwise, and one that is not a JPEG at all would leave the
// previous picture in the buffer.
bool
whole_jpeg (const uchar *data, size_t used)
{
  if (used < 4 || data[0] != 0xFF || data[1] != 0xD8)
    return false;
  size_t end = used;
  while (end > 4 && (data[end - 1] == 0x00 || data[end - 1] == 0xFF))
    end--;
  return data[end - 2] == 0xFF && data[end - 1] == 0xD9;
}

class V4l2Backend : public Backend {
public:
  V4l2Backend (const VisSourceOptions &o, std::string device)
    : Backend (o), device_ (std::move (device)), modes_ (new VisCameraModes ()) {}
  ~V4l2Backend () override { close (); }

  VisSourceStatus open (VisSourceError *err) override
  {
    close ();
    fd_ = ::open (device_.c_str (), O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0)
      {
        int e = errno;
        if (e == ENOENT || e == ENODEV || e == ENXIO)
          {
            set_error (err, "no camera at %s", device_.c_str ());
            return VIS_SOURCE_NO_CAMERA;
          }
        set_error (err, "%s: %s", device_.c_str (), std::strerror (e));
        return VIS_SOURCE_ERR_IO;
      }
    v4l2_capability cap {};
    if (xioctl (fd_, VIDIOC_QUERYCAP, &cap) != 0)
      return fail (err, VIS_SOURCE_ERR_IO, "not a V4L2 device");
    uint32_t caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
    if (!(caps & V4L2_CAP_VIDEO_CAPTURE) || !(caps & V4L2_CAP_STREAMING))
      return fail (err, VIS_SOURCE_ERR_NOT_SUPPORTED, "not a streaming capture device");
    card_ = reinterpret_cast<const char *> (cap.card);
    VisSourceStatus st = set_format (err);
    if (st != VIS_SOURCE_OK)
      return st;
    // Two buffers: one being filled while we convert the other, so what we
    // deliver is never older than one frame.
    v4l2_requestbuffers req {};
    req.count = 2;
    req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    req.memory = V4L2_MEMORY_MMAP;
    if (xioctl (fd_, VIDIOC_REQBUFS, &req) != 0 || req.count < 1)
      return fail (err, VIS_SOURCE_ERR_IO, "cannot allocate capture buffers");
    n_bufs_ = std::min (req.count, 2u);
    size_t need = vis_convert_frame_bytes (pixfmt_, width_, height_, stride_);
    for (unsigned i = 0; i < n_bufs_; i++)
      {
        v4l2_buffer b {};
        b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        b.memory = V4L2_MEMORY_MMAP;
        b.index = i;
        if (xioctl (fd_, VIDIOC_QUERYBUF, &b) != 0)
          return fail (err, VIS_SOURCE_ERR_IO, "cannot query a capture buffer");
        if (b.length < need)
          {
            errno = EINVAL;
            return fail (err, VIS_SOURCE_ERR_NOT_SUPPORTED, "the driver's buffers are smaller than a frame");
          }
        void *p = ::mmap (nullptr, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, b.m.offset);
        if (p == MAP_FAILED)
          return fail (err, VIS_SOURCE_ERR_IO, "cannot map a capture buffer");
        bufs_[i] = { p, b.length };
        if (xioctl (fd_, VIDIOC_QBUF, &b) != 0)
          return fail (err, VIS_SOURCE_ERR_IO, "cannot queue a capture buffer");
      }
    // Controls before streaming: exposure and anti-flicker count from the
    // first frame.  A control the camera refuses is said, not fatal.
    apply_controls ();
    v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl (fd_, VIDIOC_STREAMON, &type) != 0)
      return fail (err, VIS_SOURCE_ERR_IO, "cannot start streaming");
    streaming_ = true;
    return VIS_SOURCE_OK;
  }

  VisSourceStatus read (VisFrame *frame, VisSourceError *err) override
  {
    pollfd pfd { fd_, POLLIN, 0 };
    int timeout = opts_.read_timeout_ms > 0 ? opts_.read_timeout_ms : 1000;
    int r = ::poll (&pfd, 1, timeout);
    if (r < 0 && errno != EINTR)
      return lost (err);
    if (r <= 0)
      {
        set_error (err, "%s: no frame within %d ms", device_.c_str (), timeout);
        return VIS_SOURCE_AGAIN;
      }
    if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL))
      return lost (err);
    if (settle_due_ns_ != 0 && monotonic_ns () >= settle_due_ns_)
      {
        settle_due_ns_ = 0;
        set_plan (true);
      }
    // Drain: keep only the newest filled buffer, give older ones back.
    v4l2_buffer newest {};
    bool have = false;
    for (;;)
      {
        v4l2_buffer b {};
        b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        b.memory = V4L2_MEMORY_MMAP;
        if (xioctl (fd_, VIDIOC_DQBUF, &b) != 0)
          {
            if (errno == EAGAIN)
              break;
            return lost (err);
          }
        if (have)
          xioctl (fd_, VIDIOC_QBUF, &newest);
        newest = b;
        have = true;
      }
    if (!have)
      {
        set_error (err, "%s: no frame ready", device_.c_str ());
        return VIS_SOURCE_AGAIN;
      }
    const uchar *data = static_cast<const uchar *> (bufs_[newest.index].start);
    size_t used = std::min ((size_t) newest.bytesused, bufs_[newest.index].length);
    bool ok = !(newest.flags & V4L2_BUF_FLAG_ERROR) && convert (data, used);
    if (!ok)
      set_error (err, "%s: a damaged frame was skipped", device_.c_str ());
    int64_t ts = (int64_t) newest.timestamp.tv_sec * 1000000000 + (int64_t) newest.timestamp.tv_usec * 1000;
    if (xioctl (fd_, VIDIOC_QBUF, &newest) != 0)
      return lost (err);
    if (!ok)
      return VIS_SOURCE_AGAIN;
    deliver (out_, frame, ts);
    return VIS_SOURCE_OK;
  }

  void close () override
  {
    settle_due_ns_ = 0;
    if (fd_ < 0)
      return;
    if (streaming_)
      {
        v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        xioctl (fd_, VIDIOC_STREAMOFF, &type);
        streaming_ = false;
      }
    for (unsigned i = 0; i < 2; i++)
      if (bufs_[i].start != nullptr)
        {
          ::munmap (bufs_[i].start, bufs_[i].length);
          bufs_[i] = { nullptr, 0 };
        }
    ::close (fd_);
    fd_ = -1;
  }

  std::string describe () const override
  {
    char fourcc[5];
    std::string s = (card_.empty () ? std::string ("webcam") : card_) + " (v4l2, " + device_ + ") "
                    + std::to_string (width_) + "x" + std::to_string (height_) + " "
                    + vis_fourcc_name (pixfmt_, fourcc);
    if (fps_ > 0)
      {
        char rate[32];
        std::snprintf (rate, sizeof rate, " %g fps", std::round (fps_ * 100) / 100);
        s += rate;
      }
    return s;
  }

  void set_controls (const VisCameraControls &c) override
  {
    opts_.controls = c;
    if (fd_ >= 0)
      apply_controls ();
  }

  const char *controls_report () const override { return report_.c_str (); }

  bool exposure_range (VisExposureRange *out) const override
  {
    return fd_ >= 0 && vis_camera_exposure_range (&have_, out);
  }

  void set_exposure_time (int t) override
  {
    opts_.controls.exposure_time = t;
    if (fd_ < 0)
      return;
    VisExposureRange r;
    if (!vis_camera_exposure_range (&have_, &r))
      return;
    v4l2_control c {};
    c.id = V4L2_CID_EXPOSURE_ABSOLUTE;
    c.value = std::clamp (r.min + (t - r.min) / r.step * r.step, r.min, r.max);
    xioctl (fd_, VIDIOC_S_CTRL, &c);
  }

private:
  // Chooses the mode (vis_camera_choose_mode over what the device lists)
  // and sets it; a device that lists nothing is asked for MJPEG at the
  // wanted size and taken at what it gives, when Tablero can convert that.
  VisSourceStatus set_format (VisSourceError *err)
  {
    enumerate_modes (fd_, modes_.get ());
    VisCameraChoice choice { V4L2_PIX_FMT_MJPEG, opts_.width > 0 ? opts_.width : 1920,
                             opts_.height > 0 ? opts_.height : 1080, opts_.fps > 0 ? opts_.fps : 30 };
    char why[256];
    if (modes_->n > 0
        && !vis_camera_choose_mode (modes_.get (), opts_.width, opts_.height, opts_.fps, &choice, why, sizeof why))
      {
        set_error (err, "%s: %s", device_.c_str (), why);
        close ();
        return VIS_SOURCE_ERR_NOT_SUPPORTED;
      }
    v4l2_format fmt {};
    fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    fmt.fmt.pix.width = (uint32_t) choice.width;
    fmt.fmt.pix.height = (uint32_t) choice.height;
    fmt.fmt.pix.pixelformat = choice.fourcc;
    fmt.fmt.pix.field = V4L2_FIELD_ANY;
    char name[5];
    if (xioctl (fd_, VIDIOC_S_FMT, &fmt) != 0)
      {
        std::string what = std::string ("cannot set format ") + vis_fourcc_name (choice.fourcc, name);
        return fail (err, VIS_SOURCE_ERR_NOT_SUPPORTED, what.c_str ());
      }
    pixfmt_ = fmt.fmt.pix.pixelformat;
    width_ = (int) fmt.fmt.pix.width;
    height_ = (int) fmt.fmt.pix.height;
    if (!vis_camera_fourcc_supported (pixfmt_) || width_ < 1 || height_ < 1 || width_ > 16384
        || height_ > 16384)
      {
        set_error (err, "%s: the camera gives %s %dx%d, which Tablero cannot read (MJPEG, YUYV or NV12)",
                   device_.c_str (), vis_fourcc_name (pixfmt_, name), width_, height_);
        close ();
        return VIS_SOURCE_ERR_NOT_SUPPORTED;
      }
    size_t min_stride = pixfmt_ == V4L2_PIX_FMT_YUYV ? 2 * (size_t) ((width_ + 1) & ~1) : (size_t) width_;
    stride_ = fmt.fmt.pix.bytesperline >= min_stride ? fmt.fmt.pix.bytesperline : 0;
    if (stride_ == 0 && pixfmt_ == V4L2_PIX_FMT_NV12)
      stride_ = (size_t) ((width_ + 1) & ~1);
    // The rate: best effort, not every camera lets us; what it took is read back.
    fps_ = 0;
    v4l2_streamparm parm {};
    parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    parm.parm.capture.timeperframe.numerator = 1000;
    parm.parm.capture.timeperframe.denominator = (uint32_t) std::lround (choice.fps * 1000);
    if (xioctl (fd_, VIDIOC_S_PARM, &parm) == 0 && parm.parm.capture.timeperframe.numerator > 0)
      fps_ = (double) parm.parm.capture.timeperframe.denominator / parm.parm.capture.timeperframe.numerator;
    return VIS_SOURCE_OK;
  }

  // The newest buffer into out_ in the wanted format; false for a damaged
  // frame (not a whole JPEG, shorter than a raw frame, failed to decode).
  bool convert (const uchar *data, size_t used)
  {
    bool gray = opts_.format == VIS_PIXEL_GRAY8;
    if (pixfmt_ == V4L2_PIX_FMT_MJPEG || pixfmt_ == V4L2_PIX_FMT_JPEG)
      {
        if (!whole_jpeg (data, used))
          return false;
        try
          {
            cv::Mat raw (1, (int) used, CV_8U, const_cast<uchar *> (data));
            // grey: libjpeg decodes the luma only
            cv::imdecode (raw, gray ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR, &out_);
          }
        catch (const cv::Exception &)
          {
            out_.release ();
          }
        return !out_.empty ();
      }
    size_t need = vis_convert_frame_bytes (pixfmt_, width_, height_, stride_);
    if (used != 0 && used < need)   // a driver that leaves bytesused 0 filled the buffer
      return false;
    out_.create (height_, width_, gray ? CV_8UC1 : CV_8UC3);
    if (pixfmt_ == V4L2_PIX_FMT_YUYV)
      {
        size_t stride = stride_ > 0 ? stride_ : 2 * (size_t) ((width_ + 1) & ~1);
        if (gray)
          vis_convert_yuyv_to_gray (data, stride, width_, height_, out_.data, out_.step[0]);
        else
          vis_convert_yuyv_to_bgr (data, stride, width_, height_, out_.data, out_.step[0]);
      }
    else
      {
        const uchar *uv = data + stride_ * (size_t) height_;
        if (gray)
          vis_convert_nv12_to_gray (data, stride_, width_, height_, out_.data, out_.step[0]);
        else
          vis_convert_nv12_to_bgr (data, stride_, uv, stride_, width_, height_, out_.data, out_.step[0]);
      }
    return true;
  }

  // Plans opts_.controls against what the camera has and sets the controls
  // due now; those that wait for autofocus come VIS_CAMERA_SETTLE_MS later.
  void apply_controls ()
  {
    report_.clear ();
    plan_ = VisCameraPlan {};
    settle_due_ns_ = 0;
    query_controls (fd_, &have_);
    if (!controls_asked (opts_.controls))
      return;
    vis_camera_plan_controls (&opts_.controls, &have_, &plan_);
    report_ = plan_.notes;
    set_plan (false);
    for (unsigned i = 0; i < plan_.n; i++)
      if (plan_.settings[i].after_settling)
        settle_due_ns_ = monotonic_ns () + (int64_t) VIS_CAMERA_SETTLE_MS * 1000000;
  }

  void set_plan (bool after_settling)
  {
    for (unsigned i = 0; i < plan_.n; i++)
      {
        const VisCameraSetting &s = plan_.settings[i];
        if (s.after_settling != after_settling)
          continue;
        v4l2_control c {};
        c.id = s.id;
        c.value = s.value;
        if (xioctl (fd_, VIDIOC_S_CTRL, &c) != 0)
          {
            char line[160];
            std::snprintf (line, sizeof line, "%s %d: the camera refused it (%s)",
                           vis_camera_ctrl_label (s.id), (int) s.value, std::strerror (errno));
            report_ += report_.empty () ? line : std::string ("\n") + line;
          }
      }
  }

  VisSourceStatus fail (VisSourceError *err, VisSourceStatus s, const char *why)
  {
    set_error (err, "%s: %s (%s)", device_.c_str (), why, std::strerror (errno));
    close ();
    return s;
  }

  VisSourceStatus lost (VisSourceError *err)
  {
    set_error (err, "%s: the camera went away (%s)", device_.c_str (), std::strerror (errno));
    return VIS_SOURCE_DISCONNECTED;
  }

  struct Buf {
    void *start;
    size_t length;
  };
  std::string device_, card_;
  int fd_ = -1;
  bool streaming_ = false;
  Buf bufs_[2] {};
  unsigned n_bufs_ = 0;
  uint32_t pixfmt_ = 0;
  int width_ = 0, height_ = 0;
  size_t stride_ = 0;              // bytes a row of a raw frame (0: packed)
  double fps_ = 0;                 // the rate the camera took (0: not said)
  std::unique_ptr<VisCameraModes> modes_;   // what the device lists (kept: 20 KB)
  VisCameraPlan plan_ {};
  VisCameraCtrls have_ {};      // the controls as last queried (at open, at a setting)
  std::string report_;
  int64_t settle_due_ns_ = 0;      // when the settings that wait for autofocus are due
  cv::Mat out_;                    // the delivered frame, reused
};

#ifdef TABLERO_HAVE_LIBCAMERA
// The libcamera backend lives in its own file behind C function pointers.
class OpsBackend : public Backend {
public:
  OpsBackend (const VisSourceOptions &o, const VisSourceBackendOps *ops, void *self)
    : Backend (o), ops_ (ops), self_ (self) {}
  ~OpsBackend () override { ops_->destroy (self_); }
  VisSourceStatus open (VisSourceError *err) override { return ops_->open (self_, err); }
  VisSourceStatus read (VisFrame *frame, VisSourceError *err) override
  {
    return ops_->read (self_, frame, err);
  }
  void close () override { ops_->close (self_); }
  std::string describe () const override { return ops_->describe (self_); }
  void set_controls (const VisCameraControls &c) override { ops_->set_controls (self_, &c); }
  const char *controls_report () const override { return ops_->controls_report (self_); }
  bool exposure_range (VisExposureRange *out) const override { return ops_->exposure_range (self_, out); }
  void set_exposure_time (int t) override { ops_->set_exposure_time (self_, t); }

private:
  const VisSourceBackendOps *ops_;
  void *self_;
};
#endif

std::string
default_data_dir (const VisSourceOptions &o)
{
  if (o.data_dir != nullptr && *o.data_dir != '\0')
    return o.data_dir;
  return eng_data_dir ();
}

bool
parse_index (const char *s, int *out)
{
  char *end = nullptr;
  long v = std::strtol (s, &end, 10);
  if (end == s || *end != '\0' || v < 0 || v > 63)
    return false;
  *out = (int) v;
  return true;
}

}  // namespace

struct VisSource {
  std::string spec;
  std::string description;
  VisSourceOptions opts {};
  std::unique_ptr<Backend> backend;
  bool connected = true;
  bool reconnected = false;
  bool unplugged = false;
  int64_t last_attempt_ns = 0;
  uint64_t sequence = 0;
};

namespace {

VisSourceStatus
open_impl (const char *spec, const VisSourceOptions *options, VisSource **out, VisSourceError *err)
{
  auto src = std::make_unique<VisSource> ();
  src->spec = spec;
  if (options != nullptr)
    src->opts = *options;
  if (src->opts.format == 0)
    src->opts.format = VIS_PIXEL_BGR8;
  if (src->opts.format != VIS_PIXEL_BGR8 && src->opts.format != VIS_PIXEL_GRAY8)
    {
      set_error (err, "unknown pixel format %d", (int) src->opts.format);
      return VIS_SOURCE_ERR_INVALID_ARGUMENT;
    }
  std::string s = spec;
  if (s.rfind ("file:", 0) == 0 && s.size () > 5)
    src->backend = std::make_unique<FileBackend> (src->opts, s.substr (5));
  else if (s == "demo" || (s.rfind ("demo:", 0) == 0 && s.size () > 5))
    {
      std::string dir = default_data_dir (src->opts);
      const char *game = src->opts.game != nullptr ? src->opts.game : eng_game_class_get (0)->name;
      std::string scene = s == "demo" ? dir + "/scenes/demo-" + game + "-game.scene" : s.substr (5);
      auto demo = std::make_unique<DemoBackend> (src->opts, scene);
      demo->data_dir_ = dir;
      src->backend = std::move (demo);
    }
  else if (s.rfind ("v4l2:", 0) == 0 && s.size () > 5)
    src->backend = std::make_unique<V4l2Backend> (src->opts, s.substr (5));
  else if (s == "camera" || s.rfind ("camera:", 0) == 0)
    {
      int index = 0;
      if (s.size () > 7 && !parse_index (s.c_str () + 7, &index))
        {
          set_error (err, "'%s': camera:N needs a camera number 0-63", spec);
          return VIS_SOURCE_ERR_INVALID_ARGUMENT;
        }
#ifdef TABLERO_HAVE_LIBCAMERA
      const VisSourceBackendOps *ops = nullptr;
      void *self = nullptr;
      VisSourceStatus st = vis_libcamera_backend_new (index, &src->opts, &ops, &self, err);
      if (st != VIS_SOURCE_OK)
        return st;
      src->backend = std::make_unique<OpsBackend> (src->opts, ops, self);
#else
      set_error (err, "'%s': this build has no libcamera support; try v4l2:/dev/video%d", spec, index);
      return VIS_SOURCE_ERR_NOT_SUPPORTED;
#endif
    }
  else
    {
      set_error (err, "unknown source '%s' (camera[:N], v4l2:/dev/videoN, file:PATH, demo)", spec);
      return VIS_SOURCE_ERR_INVALID_ARGUMENT;
    }
  VisSourceStatus st = src->backend->open (err);
  if (st != VIS_SOURCE_OK)
    return st;
  src->description = src->backend->describe ();
  src->last_attempt_ns = monotonic_ns ();
  *out = src.release ();
  return VIS_SOURCE_OK;
}

VisSourceStatus
read_impl (VisSource *src, VisFrame *frame, VisSourceError *err)
{
  int interval_ms = src->opts.reconnect_interval_ms > 0 ? src->opts.reconnect_interval_ms : 500;
  if (src->unplugged)
    {
      if (src->connected)
        {
          src->backend->close ();
          src->connected = false;
        }
      std::this_thread::sleep_for (std::chrono::milliseconds (std::min (interval_ms, 50)));
      set_error (err, "%s: disconnected (simulated unplug); retrying", src->spec.c_str ());
      return VIS_SOURCE_DISCONNECTED;
    }
  if (!src->connected)
    {
      int64_t due = src->last_attempt_ns + (int64_t) interval_ms * 1000000;
      int64_t now = monotonic_ns ();
      if (due > now)
        std::this_thread::sleep_for (std::chrono::nanoseconds (due - now));
      src->last_attempt_ns = monotonic_ns ();
      VisSourceError why {};
      if (src->backend->open (&why) != VIS_SOURCE_OK)
        {
          set_error (err, "%s: still disconnected (%s); retrying every %d ms", src->spec.c_str (),
                     why.message, interval_ms);
          return VIS_SOURCE_DISCONNECTED;
        }
      src->connected = true;
      src->reconnected = true;
      src->description = src->backend->describe ();
    }
  VisFrame f {};
  VisSourceStatus st = src->backend->read (&f, err);
  if (st == VIS_SOURCE_DISCONNECTED)
    {
      src->backend->close ();
      src->connected = false;
      src->last_attempt_ns = monotonic_ns ();
      return st;
    }
  if (!vis_source_status_has_frame (st))
    return st;
  f.sequence = src->sequence++;
  *frame = f;
  if (src->reconnected)
    {
      src->reconnected = false;
      return VIS_SOURCE_RECONNECTED;
    }
  return VIS_SOURCE_OK;
}

void
list_v4l2 (VisSourceList *list)
{
  DIR *d = ::opendir ("/dev");
  if (d == nullptr)
    return;
  std::vector<std::string> names;
  while (struct dirent *e = ::readdir (d))
    if (std::strncmp (e->d_name, "video", 5) == 0)
      names.emplace_back (e->d_name);
  ::closedir (d);
  std::sort (names.begin (), names.end (), [] (const std::string &a, const std::string &b) {
    return std::atoi (a.c_str () + 5) < std::atoi (b.c_str () + 5);
  });
  auto modes = std::make_unique<VisCameraModes> ();
  for (const std::string &n : names)
    {
      if (list->n >= VIS_SOURCE_LIST_MAX)
        break;
      std::string path = "/dev/" + n;
      int fd = ::open (path.c_str (), O_RDWR | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0)
        continue;
      v4l2_capability cap {};
      bool capture = false;
      if (xioctl (fd, VIDIOC_QUERYCAP, &cap) == 0)
        {
          uint32_t caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
          capture = (caps & V4L2_CAP_VIDEO_CAPTURE) && (caps & V4L2_CAP_STREAMING);
        }
      // What it would stream at the defaults (docs/frame-sources.md, "Mode choice").
      char mode[96] = "no usable format";
      if (capture)
        {
          enumerate_modes (fd, modes.get ());
          VisCameraChoice choice;
          char why[160];
          if (vis_camera_choose_mode (modes.get (), 0, 0, 0, &choice, why, sizeof why))
            vis_camera_choice_describe (&choice, mode, sizeof mode);
          else if (modes->n == 0)
            std::snprintf (mode, sizeof mode, "formats not listed");
        }
      ::close (fd);
      if (!capture)
        continue;
      VisSourceInfo &info = list->sources[list->n++];
      std::snprintf (info.spec, sizeof info.spec, "v4l2:%s", path.c_str ());
      std::snprintf (info.name, sizeof info.name, "%s", reinterpret_cast<const char *> (cap.card));
      std::snprintf (info.detail, sizeof info.detail, "v4l2 %s (%.32s)", mode,
                     reinterpret_cast<const char *> (cap.driver));
    }
}

}  // namespace

extern "C" {

const char *
vis_source_status_to_string (VisSourceStatus status)
{
  switch (status)
    {
    case VIS_SOURCE_OK: return "ok";
    case VIS_SOURCE_RECONNECTED: return "reconnected";
    case VIS_SOURCE_AGAIN: return "no new frame yet";
    case VIS_SOURCE_END: return "end of the recording";
    case VIS_SOURCE_DISCONNECTED: return "camera disconnected";
    case VIS_SOURCE_NO_CAMERA: return "no camera present";
    case VIS_SOURCE_ERR_INVALID_ARGUMENT: return "invalid source or option";
    case VIS_SOURCE_ERR_NOT_SUPPORTED: return "not supported by this build or device";
    case VIS_SOURCE_ERR_IO: return "cannot open or read";
    case VIS_SOURCE_ERR_FORMAT: return "corrupt, truncated or empty image or stream";
    case VIS_SOURCE_ERR_NO_MEMORY: return "out of memory";
    case VIS_SOURCE_STATUS_COUNT: break;
    }
  return "unknown status";
}

VisSourceStatus
vis_source_open (const char *spec, const VisSourceOptions *options, VisSource **out,
                 VisSourceError *err)
{
  if (out == nullptr)
    return VIS_SOURCE_ERR_INVALID_ARGUMENT;
  *out = nullptr;
  if (spec == nullptr || *spec == '\0')
    {
      set_error (err, "empty source (camera[:N], v4l2:/dev/videoN, file:PATH, demo)");
      return VIS_SOURCE_ERR_INVALID_ARGUMENT;
    }
  try
    {
      return open_impl (spec, options, out, err);
    }
  catch (const std::bad_alloc &)
    {
      set_error (err, "%s: out of memory", spec);
      return VIS_SOURCE_ERR_NO_MEMORY;
    }
  catch (const cv::Exception &e)
    {
      set_error (err, "%s: %s", spec, e.what ());
      return VIS_SOURCE_ERR_IO;
    }
}

void
vis_source_close (VisSource *source)
{
  delete source;
}

VisSourceStatus
vis_source_read (VisSource *source, VisFrame *frame, VisSourceError *err)
{
  if (source == nullptr || frame == nullptr)
    return VIS_SOURCE_ERR_INVALID_ARGUMENT;
  try
    {
      return read_impl (source, frame, err);
    }
  catch (const std::bad_alloc &)
    {
      set_error (err, "%s: out of memory", source->spec.c_str ());
      return VIS_SOURCE_ERR_NO_MEMORY;
    }
  catch (const cv::Exception &e)
    {
      set_error (err, "%s: %s", source->spec.c_str (), e.what ());
      return VIS_SOURCE_ERR_FORMAT;
    }
}

const char *
vis_source_spec (const VisSource *source)
{
  return source->spec.c_str ();
}

const char *
vis_source_description (const VisSource *source)
{
  return source->description.c_str ();
}

void
vis_source_simulate_unplug (VisSource *source, bool unplugged)
{
  source->unplugged = unplugged;
}

VisSourceStatus
vis_source_set_controls (VisSource *source, const VisCameraControls *controls, VisSourceError *err)
{
  if (source == nullptr || controls == nullptr)
    return VIS_SOURCE_ERR_INVALID_ARGUMENT;
  try
    {
      source->opts.controls = *controls;
      source->backend->set_controls (*controls);
    }
  catch (const std::bad_alloc &)
    {
      set_error (err, "%s: out of memory", source->spec.c_str ());
      return VIS_SOURCE_ERR_NO_MEMORY;
    }
  return VIS_SOURCE_OK;
}

bool
vis_source_exposure_range (const VisSource *source, VisExposureRange *out)
{
  return source != nullptr && out != nullptr && source->connected && source->backend->exposure_range (out);
}

VisSourceStatus
vis_source_set_exposure_time (VisSource *source, int time)
{
  if (source == nullptr || time < 1 || time > VIS_CAMERA_EXPOSURE_MAX)
    return VIS_SOURCE_ERR_INVALID_ARGUMENT;
  source->opts.controls.exposure_time = time;
  source->backend->set_exposure_time (time);
  return VIS_SOURCE_OK;
}

const char *
vis_source_controls_report (const VisSource *source)
{
  if (source == nullptr)
    return "";
  const char *report = source->backend->controls_report ();
  return report != nullptr ? report : "";
}

VisSourceStatus
vis_source_list (VisSourceList *out, VisSourceError *err)
{
  if (out == nullptr)
    return VIS_SOURCE_ERR_INVALID_ARGUMENT;
  std::memset (out, 0, sizeof *out);
  try
    {
#ifdef TABLERO_HAVE_LIBCAMERA
      vis_libcamera_list (out);
#endif
      list_v4l2 (out);
    }
  catch (...)
    {
      // Listing never fails: what could not be probed is simply not listed.
    }
  if (out->n == 0)
    {
      set_error (err, "no camera found (no libcamera camera and no V4L2 capture device); "
                      "plug in a webcam, or use file:PATH or demo");
      return VIS_SOURCE_NO_CAMERA;
    }
  return VIS_SOURCE_OK;
}

}  // extern "C"

extern "C" VisSourceStatus
vis_video_write (const char *path, const VisImage *frames, size_t n, double fps, VisSourceError *err)
{
  auto fail = [err] (VisSourceStatus st, const char *what, const char *path_) {
    if (err != nullptr)
      std::snprintf (err->message, sizeof err->message, "%s: %s", path_ ? path_ : "", what);
    return st;
  };
  if (path == nullptr || frames == nullptr || n == 0 || !(fps > 0))
    return fail (VIS_SOURCE_ERR_INVALID_ARGUMENT, "nothing to write", path);
  const VisImage &first = frames[0];
  for (size_t i = 0; i < n; i++)
    if (frames[i].width != first.width || frames[i].height != first.height
        || frames[i].format != first.format || vis_pixel_format_bpp (frames[i].format) == 0
        || frames[i].data == nullptr)
      return fail (VIS_SOURCE_ERR_INVALID_ARGUMENT, "frames differ in size or format", path);
  try
    {
      bool colour = first.format == VIS_PIXEL_BGR8;
      cv::VideoWriter writer (path, cv::VideoWriter::fourcc ('M', 'J', 'P', 'G'), fps,
                              cv::Size (first.width, first.height), colour);
      if (!writer.isOpened ())
        return fail (VIS_SOURCE_ERR_IO, "no video writer can open it", path);
      for (size_t i = 0; i < n; i++)
        writer.write (cv::Mat (frames[i].height, frames[i].width, colour ? CV_8UC3 : CV_8UC1,
                               frames[i].data, frames[i].stride));
    }
  catch (const cv::Exception &e)
    {
      return fail (VIS_SOURCE_ERR_IO, e.what (), path);
    }
  return VIS_SOURCE_OK;
}

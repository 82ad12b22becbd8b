// vis-source.cpp: frame sources behind one string (vis-source.h).
//
// A VisSource wraps one backend (file, demo, v4l2, libcamera) and owns the
// reconnection logic common to all: a backend that reports DISCONNECTED is
// closed, reopened no more often than the reconnect interval, and the first
// frame after it came back is marked RECONNECTED.
#include "vis-source.h"
#include "vis-source-backend.h"
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

class V4l2Backend : public Backend {
public:
  V4l2Backend (const VisSourceOptions &o, std::string device) : Backend (o), device_ (std::move (device)) {}
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
    v4l2_format fmt {};
    fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    fmt.fmt.pix.width = (uint32_t) (opts_.width > 0 ? opts_.width : 1920);
    fmt.fmt.pix.height = (uint32_t) (opts_.height > 0 ? opts_.height : 1080);
    fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_MJPEG;
    fmt.fmt.pix.field = V4L2_FIELD_ANY;
    if (xioctl (fd_, VIDIOC_S_FMT, &fmt) != 0)
      return fail (err, VIS_SOURCE_ERR_NOT_SUPPORTED, "cannot set MJPEG format");
    pixfmt_ = fmt.fmt.pix.pixelformat;
    if (pixfmt_ != V4L2_PIX_FMT_MJPEG && pixfmt_ != V4L2_PIX_FMT_YUYV)
      return fail (err, VIS_SOURCE_ERR_NOT_SUPPORTED, "the camera offers neither MJPEG nor YUYV");
    width_ = (int) fmt.fmt.pix.width;
    height_ = (int) fmt.fmt.pix.height;
    v4l2_streamparm parm {};
    parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    parm.parm.capture.timeperframe.numerator = 1;
    parm.parm.capture.timeperframe.denominator = (uint32_t) (opts_.fps > 0 ? opts_.fps : 30);
    xioctl (fd_, VIDIOC_S_PARM, &parm);   // best effort: not every camera lets us
    // Two buffers: one being filled while we decode the other, so what we
    // deliver is never older than one frame.
    v4l2_requestbuffers req {};
    req.count = 2;
    req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    req.memory = V4L2_MEMORY_MMAP;
    if (xioctl (fd_, VIDIOC_REQBUFS, &req) != 0 || req.count < 1)
      return fail (err, VIS_SOURCE_ERR_IO, "cannot allocate capture buffers");
    n_bufs_ = std::min (req.count, 2u);
    for (unsigned i = 0; i < n_bufs_; i++)
      {
        v4l2_buffer b {};
        b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        b.memory = V4L2_MEMORY_MMAP;
        b.index = i;
        if (xioctl (fd_, VIDIOC_QUERYBUF, &b) != 0)
          return fail (err, VIS_SOURCE_ERR_IO, "cannot query a capture buffer");
        void *p = ::mmap (nullptr, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, b.m.offset);
        if (p == MAP_FAILED)
          return fail (err, VIS_SOURCE_ERR_IO, "cannot map a capture buffer");
        bufs_[i] = { p, b.length };
        if (xioctl (fd_, VIDIOC_QBUF, &b) != 0)
          return fail (err, VIS_SOURCE_ERR_IO, "cannot queue a capture buffer");
      }
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
    VisSourceStatus status = VIS_SOURCE_OK;
    const uchar *data = static_cast<const uchar *> (bufs_[newest.index].start);
    try
      {
        if (pixfmt_ == V4L2_PIX_FMT_MJPEG
            && (newest.bytesused < 4 || data[0] != 0xFF || data[1] != 0xD8))
          decoded_.release ();   // not a JPEG frame (imdecode would keep the old one)
        else if (pixfmt_ == V4L2_PIX_FMT_MJPEG)
          {
            cv::Mat raw (1, (int) newest.bytesused, CV_8U, const_cast<uchar *> (data));
            cv::imdecode (raw, cv::IMREAD_COLOR, &decoded_);
          }
        else
          {
            cv::Mat yuyv (height_, width_, CV_8UC2, const_cast<uchar *> (data));
            cv::cvtColor (yuyv, decoded_, cv::COLOR_YUV2BGR_YUYV);
          }
      }
    catch (const cv::Exception &)
      {
        decoded_.release ();
      }
    if (newest.flags & V4L2_BUF_FLAG_ERROR || decoded_.empty ())
      {
        set_error (err, "%s: a damaged frame was skipped", device_.c_str ());
        status = VIS_SOURCE_AGAIN;
      }
    int64_t ts = (int64_t) newest.timestamp.tv_sec * 1000000000 + (int64_t) newest.timestamp.tv_usec * 1000;
    if (xioctl (fd_, VIDIOC_QBUF, &newest) != 0)
      return lost (err);
    if (status == VIS_SOURCE_OK)
      deliver (decoded_, frame, ts);
    return status;
  }

  void close () override
  {
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
    char fourcc[5] = { (char) (pixfmt_ & 0xff), (char) ((pixfmt_ >> 8) & 0xff),
                       (char) ((pixfmt_ >> 16) & 0xff), (char) ((pixfmt_ >> 24) & 0xff), 0 };
    return (card_.empty () ? std::string ("webcam") : card_) + " (v4l2, " + device_ + ") "
           + std::to_string (width_) + "x" + std::to_string (height_) + " " + fourcc;
  }

private:
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
  cv::Mat decoded_;
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
      bool mjpeg = false;
      for (uint32_t i = 0; capture && i < 64; i++)
        {
          v4l2_fmtdesc fd_desc {};
          fd_desc.index = i;
          fd_desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
          if (xioctl (fd, VIDIOC_ENUM_FMT, &fd_desc) != 0)
            break;
          if (fd_desc.pixelformat == V4L2_PIX_FMT_MJPEG)
            mjpeg = true;
        }
      ::close (fd);
      if (!capture)
        continue;
      VisSourceInfo &info = list->sources[list->n++];
      std::snprintf (info.spec, sizeof info.spec, "v4l2:%s", path.c_str ());
      std::snprintf (info.name, sizeof info.name, "%s", reinterpret_cast<const char *> (cap.card));
      std::snprintf (info.detail, sizeof info.detail, "v4l2 %s (%s)", mjpeg ? "MJPEG" : "no MJPEG",
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

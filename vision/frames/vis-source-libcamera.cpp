// vis-source-libcamera.cpp: camera[:N] through libcamera (0.0.3 API).
//
// Requests complete on libcamera's thread; the handler only records the
// newest completed request (handing an older unread one straight back), and
// read() converts that request's buffer into the frame and queues it again.
// So what read() delivers is always the newest frame, with no copy on the
// camera thread and no allocation per frame.
//
// Controls go through the same plan as V4L2's (vis-camera.h): libcamera's
// AeEnable / ExposureTime / AfMode / LensPosition are described to the plan
// as the V4L2 controls they stand for, and its settings translated back.
// libcamera 0.0.3 has no anti-flicker control; the report says so.
#include "vis-source-backend.h"
#include "vis-camera.h"
#include "vis-convert.h"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <libcamera/libcamera.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace {

using namespace libcamera;

void
set_error (VisSourceError *err, const std::string &msg)
{
  if (err != nullptr)
    std::snprintf (err->message, sizeof err->message, "%s", msg.c_str ());
}

// libcamera logs at INFO to stderr by default and a library must not
// chatter; whoever sets LIBCAMERA_LOG_LEVELS asked for the logs, so keep them.
void
quiet_logging ()
{
  const char *levels = std::getenv ("LIBCAMERA_LOG_LEVELS");
  if (levels == nullptr || *levels == '\0')
    logSetTarget (LoggingTargetNone);
}

int64_t
monotonic_ns ()
{
  return std::chrono::duration_cast<std::chrono::nanoseconds> (
           std::chrono::steady_clock::now ().time_since_epoch ()).count ();
}

const ControlInfo *
find_info (const ControlInfoMap &info, const ControlId &id)
{
  auto it = info.find (&id);
  return it == info.end () ? nullptr : &it->second;
}

// The int32 values a control lists, or its min..max when it lists none.
bool
offers_int (const ControlInfo &c, int32_t v)
{
  for (const ControlValue &x : c.values ())
    if (x.type () == ControlTypeInteger32 && x.get<int32_t> () == v)
      return true;
  return c.values ().empty () && c.min ().type () == ControlTypeInteger32
         && c.min ().get<int32_t> () <= v && v <= c.max ().get<int32_t> ();
}

// libcamera's controls in V4L2's terms, so vis_camera_plan_controls decides:
//   AeEnable             -> exposure mode, a menu of 1 (manual) and 3 (auto)
//   ExposureTime (us)    -> exposure time in units of 100 us
//   AfMode               -> autofocus switch (when Manual and Auto/Continuous)
//   LensPosition (dioptres) -> focus position in hundredths of a dioptre
void
describe_controls (const ControlInfoMap &info, VisCameraCtrls *out)
{
  out->n = 0;
  auto add = [out] (const VisCameraCtrl &c) {
    if (out->n < VIS_CAMERA_CTRLS_MAX)
      out->ctrls[out->n++] = c;
  };
  if (find_info (info, controls::AeEnable) != nullptr)
    {
      VisCameraCtrl c {};
      c.id = VIS_CID_EXPOSURE_AUTO;
      std::snprintf (c.name, sizeof c.name, "AeEnable");
      c.type = VIS_CAMERA_CTRL_MENU;
      c.min = 1, c.max = 3, c.step = 1, c.def = 3;
      c.menu = (1u << 1) | (1u << 3);
      add (c);
    }
  const ControlInfo *t = find_info (info, controls::ExposureTime);
  if (t != nullptr && t->min ().type () == ControlTypeInteger32 && t->max ().type () == ControlTypeInteger32)
    {
      VisCameraCtrl c {};
      c.id = VIS_CID_EXPOSURE_ABSOLUTE;
      std::snprintf (c.name, sizeof c.name, "ExposureTime");
      c.type = VIS_CAMERA_CTRL_INT;
      c.min = std::max (1, (t->min ().get<int32_t> () + 99) / 100);
      c.max = t->max ().get<int32_t> () / 100;
      c.step = 1;
      c.def = t->def ().type () == ControlTypeInteger32 ? t->def ().get<int32_t> () / 100 : c.min;
      if (c.max >= c.min)
        add (c);
    }
  const ControlInfo *af = find_info (info, controls::AfMode);
  if (af != nullptr && offers_int (*af, controls::AfModeManual)
      && (offers_int (*af, controls::AfModeContinuous) || offers_int (*af, controls::AfModeAuto)))
    {
      VisCameraCtrl c {};
      c.id = VIS_CID_FOCUS_AUTO;
      std::snprintf (c.name, sizeof c.name, "AfMode");
      c.type = VIS_CAMERA_CTRL_BOOL;
      c.min = 0, c.max = 1, c.step = 1, c.def = 1;
      add (c);
    }
  const ControlInfo *lens = find_info (info, controls::LensPosition);
  if (lens != nullptr && lens->min ().type () == ControlTypeFloat && lens->max ().type () == ControlTypeFloat)
    {
      VisCameraCtrl c {};
      c.id = VIS_CID_FOCUS_ABSOLUTE;
      std::snprintf (c.name, sizeof c.name, "LensPosition");
      c.type = VIS_CAMERA_CTRL_INT;
      c.min = (int32_t) std::ceil (lens->min ().get<float> () * 100);
      c.max = (int32_t) std::floor (lens->max ().get<float> () * 100);
      c.step = 1;
      c.def = lens->def ().type () == ControlTypeFloat ? (int32_t) std::lround (lens->def ().get<float> () * 100)
                                                       : c.min;
      if (c.max >= c.min)
        add (c);
    }
}

// One planned setting as libcamera's control.
void
put_setting (ControlList &list, const ControlInfoMap &info, const VisCameraSetting &s)
{
  switch (s.id)
    {
    case VIS_CID_EXPOSURE_AUTO:
      list.set (controls::AeEnable, s.value != 1);
      break;
    case VIS_CID_EXPOSURE_ABSOLUTE:
      list.set (controls::ExposureTime, (int32_t) s.value * 100);
      break;
    case VIS_CID_FOCUS_AUTO:
      {
        const ControlInfo *af = find_info (info, controls::AfMode);
        bool continuous = af != nullptr && offers_int (*af, controls::AfModeContinuous);
        if (s.value == 0)
          list.set (controls::AfMode, (int32_t) controls::AfModeManual);
        else if (continuous)
          list.set (controls::AfMode, (int32_t) controls::AfModeContinuous);
        else
          {
            list.set (controls::AfMode, (int32_t) controls::AfModeAuto);
            list.set (controls::AfTrigger, (int32_t) controls::AfTriggerStart);
          }
      }
      break;
    case VIS_CID_FOCUS_ABSOLUTE:
      list.set (controls::LensPosition, s.value / 100.0f);
      break;
    default:
      break;
    }
}

class LibcameraBackend {
public:
  LibcameraBackend (int index, const VisSourceOptions &o) : index_ (index), opts_ (o) {}
  ~LibcameraBackend () { close (); }

  VisSourceStatus open (VisSourceError *err)
  {
    close ();
    quiet_logging ();
    manager_ = std::make_unique<CameraManager> ();
    if (manager_->start () != 0)
      {
        manager_.reset ();
        set_error (err, "libcamera: cannot start the camera manager (is another program using it?)");
        return VIS_SOURCE_ERR_IO;
      }
    auto cams = manager_->cameras ();
    if (index_ >= (int) cams.size ())
      {
        set_error (err, cams.empty () ? std::string ("libcamera: no camera present")
                   : "libcamera: no camera " + std::to_string (index_) + " (" +
                     std::to_string (cams.size ()) + " present)");
        close ();
        return VIS_SOURCE_NO_CAMERA;
      }
    camera_ = cams[(size_t) index_];
    if (camera_->acquire () != 0)
      return fail (err, VIS_SOURCE_ERR_IO, "the camera is in use by another program");
    acquired_ = true;
    config_ = camera_->generateConfiguration ({ StreamRole::Viewfinder });
    if (!config_ || config_->size () == 0)
      return fail (err, VIS_SOURCE_ERR_NOT_SUPPORTED, "no viewfinder configuration");
    StreamConfiguration &sc = config_->at (0);
    sc.size.width = (unsigned) (opts_.width > 0 ? opts_.width : 1920);
    sc.size.height = (unsigned) (opts_.height > 0 ? opts_.height : 1080);
    // RGB888 is B, G, R in memory: OpenCV's BGR.  Others are converted.
    sc.pixelFormat = formats::RGB888;
    sc.bufferCount = 2;
    if (config_->validate () == CameraConfiguration::Invalid)
      return fail (err, VIS_SOURCE_ERR_NOT_SUPPORTED, "no usable format");
    pixfmt_ = sc.pixelFormat;
    if (pixfmt_ != formats::RGB888 && pixfmt_ != formats::BGR888 && pixfmt_ != formats::YUYV
        && pixfmt_ != formats::NV12 && pixfmt_ != formats::MJPEG)
      return fail (err, VIS_SOURCE_ERR_NOT_SUPPORTED,
                   "the camera offers " + pixfmt_.toString () + ", which Tablero cannot convert");
    if (camera_->configure (config_.get ()) != 0)
      return fail (err, VIS_SOURCE_ERR_IO, "cannot configure the camera");
    width_ = (int) sc.size.width;
    height_ = (int) sc.size.height;
    stride_ = sc.stride;
    stream_ = sc.stream ();
    allocator_ = std::make_unique<FrameBufferAllocator> (camera_);
    if (allocator_->allocate (stream_) < 0)
      return fail (err, VIS_SOURCE_ERR_NO_MEMORY, "cannot allocate frame buffers");
    for (const std::unique_ptr<FrameBuffer> &buf : allocator_->buffers (stream_))
      {
        // Planes sharing a dmabuf are mapped once (offsets into it); a plane
        // with a dmabuf of its own gets a mapping of its own.
        Map m { buf.get (), {}, {} };
        const auto &planes = buf->planes ();
        for (size_t i = 0; i < planes.size () && i < 3; i++)
          {
            int fd = planes[i].fd.get ();
            uint8_t *base = nullptr;
            for (size_t k = 0; k < i; k++)
              if (planes[k].fd.get () == fd)
                base = m.plane[k] - planes[k].offset;
            if (base == nullptr)
              {
                size_t len = 0;
                for (const FrameBuffer::Plane &q : planes)
                  if (q.fd.get () == fd)
                    len = std::max (len, (size_t) (q.offset + q.length));
                void *mem = ::mmap (nullptr, len, PROT_READ, MAP_SHARED, fd, 0);
                if (mem == MAP_FAILED)
                  {
                    unmap (m);
                    return fail (err, VIS_SOURCE_ERR_IO, "cannot map a frame buffer");
                  }
                m.mappings.push_back ({ static_cast<uint8_t *> (mem), len });
                base = static_cast<uint8_t *> (mem);
              }
            m.plane[i] = base + planes[i].offset;
          }
        maps_.push_back (std::move (m));
        std::unique_ptr<Request> req = camera_->createRequest ();
        if (!req || req->addBuffer (stream_, buf.get ()) != 0)
          return fail (err, VIS_SOURCE_ERR_IO, "cannot create a capture request");
        requests_.push_back (std::move (req));
      }
    camera_->requestCompleted.connect (this, &LibcameraBackend::on_request);
    camera_->disconnected.connect (this, &LibcameraBackend::on_disconnect);
    disconnected_ = false;
    // The controls asked for go with the start; those that wait for
    // autofocus ride on a request VIS_CAMERA_SETTLE_MS later.
    plan_controls ();
    ControlList start_controls (camera_->controls ());
    take_settings (start_controls, false);
    if (camera_->start (&start_controls) != 0)
      return fail (err, VIS_SOURCE_ERR_IO, "cannot start the camera");
    started_ = true;
    for (auto &r : requests_)
      camera_->queueRequest (r.get ());
    return VIS_SOURCE_OK;
  }

  VisSourceStatus read (VisFrame *frame, VisSourceError *err)
  {
    Request *req = nullptr;
    {
      std::unique_lock<std::mutex> lock (mutex_);
      int timeout = opts_.read_timeout_ms > 0 ? opts_.read_timeout_ms : 1000;
      cond_.wait_for (lock, std::chrono::milliseconds (timeout),
                      [this] { return newest_ != nullptr || disconnected_; });
      if (disconnected_)
        {
          set_error (err, "libcamera: camera " + camera_->id () + " went away");
          return VIS_SOURCE_DISCONNECTED;
        }
      req = newest_;
      newest_ = nullptr;
    }
    if (req == nullptr)
      {
        set_error (err, "libcamera: no frame within the timeout");
        return VIS_SOURCE_AGAIN;
      }
    FrameBuffer *buf = req->buffers ().begin ()->second;
    const Map *map = nullptr;
    for (const Map &m : maps_)
      if (m.buffer == buf)
        map = &m;
    bool ok = map != nullptr && buf->metadata ().status == FrameMetadata::FrameSuccess
              && convert (*map, buf);
    int64_t ts = (int64_t) buf->metadata ().timestamp;
    req->reuse (Request::ReuseBuffers);
    if (settle_due_ns_ != 0 && monotonic_ns () >= settle_due_ns_)
      {
        settle_due_ns_ = 0;
        take_settings (pending_, true);
      }
    if (!pending_.empty ())
      {
        req->controls ().merge (pending_);
        pending_.clear ();
      }
    camera_->queueRequest (req);
    if (!ok)
      {
        set_error (err, "libcamera: a damaged frame was skipped");
        return VIS_SOURCE_AGAIN;
      }
    frame->image.width = frame_.cols;
    frame->image.height = frame_.rows;
    frame->image.stride = frame_.step[0];
    frame->image.format = frame_.channels () == 1 ? VIS_PIXEL_GRAY8 : VIS_PIXEL_BGR8;
    frame->image.data = frame_.data;
    frame->timestamp_ns = ts;
    return VIS_SOURCE_OK;
  }

  // Keeps `c` for later opens; on a running camera, the next request
  // carries the settings.
  void set_controls (const VisCameraControls &c)
  {
    opts_.controls = c;
    if (!started_)
      return;
    plan_controls ();
    take_settings (pending_, false);
  }

  const char *controls_report () const { return report_.c_str (); }

  bool exposure_range (VisExposureRange *out) const
  {
    if (!started_)
      return false;
    VisCameraCtrls have;
    describe_controls (camera_->controls (), &have);
    return vis_camera_exposure_range (&have, out);
  }

  // The next request carries the new time alone.
  void set_exposure_time (int t)
  {
    opts_.controls.exposure_time = t;
    if (started_)
      put_setting (pending_, camera_->controls (), VisCameraSetting { VIS_CID_EXPOSURE_ABSOLUTE, t, false });
  }

  void close ()
  {
    if (camera_)
      {
        if (started_)
          camera_->stop ();
        camera_->requestCompleted.disconnect (this);
        camera_->disconnected.disconnect (this);
      }
    started_ = false;
    {
      std::lock_guard<std::mutex> lock (mutex_);
      newest_ = nullptr;
    }
    requests_.clear ();
    for (Map &m : maps_)
      unmap (m);
    maps_.clear ();
    settle_due_ns_ = 0;
    allocator_.reset ();
    config_.reset ();
    if (camera_ && acquired_)
      camera_->release ();
    acquired_ = false;
    camera_.reset ();
    if (manager_)
      manager_->stop ();
    manager_.reset ();
  }

  std::string describe () const
  {
    return "camera " + std::to_string (index_) + " (libcamera" +
           (camera_ ? ", " + camera_->id () : std::string ()) + ") " + std::to_string (width_) +
           "x" + std::to_string (height_) + " " + pixfmt_.toString ();
  }

  std::string describe_buf_;   // what describe_cb hands out

private:
  struct Mapping {
    uint8_t *data;
    size_t length;
  };
  struct Map {
    FrameBuffer *buffer;
    std::vector<Mapping> mappings;
    uint8_t *plane[3];          // where each plane starts
  };

  static void unmap (Map &m)
  {
    for (const Mapping &x : m.mappings)
      ::munmap (x.data, x.length);
    m.mappings.clear ();
  }

  // The buffer into frame_ in the wanted format; false for a damaged frame.
  bool convert (const Map &map, FrameBuffer *buf)
  {
    bool gray = opts_.format == VIS_PIXEL_GRAY8;
    const uint8_t *data = map.plane[0];
    size_t used = buf->metadata ().planes ().empty () ? 0 : buf->metadata ().planes ()[0].bytesused;
    try
      {
        if (pixfmt_ == formats::MJPEG)
          {
            if (used < 4 || data[0] != 0xFF || data[1] != 0xD8)
              return false;
            cv::imdecode (cv::Mat (1, (int) used, CV_8U, const_cast<uint8_t *> (data)),
                          gray ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR, &frame_);
            return !frame_.empty ();
          }
        if (pixfmt_ == formats::YUYV || pixfmt_ == formats::NV12)
          {
            frame_.create (height_, width_, gray ? CV_8UC1 : CV_8UC3);
            if (pixfmt_ == formats::YUYV)
              {
                if (gray)
                  vis_convert_yuyv_to_gray (data, stride_, width_, height_, frame_.data, frame_.step[0]);
                else
                  vis_convert_yuyv_to_bgr (data, stride_, width_, height_, frame_.data, frame_.step[0]);
                return true;
              }
            const uint8_t *uv = buf->planes ().size () > 1 ? map.plane[1] : data + (size_t) stride_ * height_;
            if (gray)
              vis_convert_nv12_to_gray (data, stride_, width_, height_, frame_.data, frame_.step[0]);
            else
              vis_convert_nv12_to_bgr (data, stride_, uv, stride_, width_, height_, frame_.data, frame_.step[0]);
            return true;
          }
        cv::Mat src (height_, width_, CV_8UC3, const_cast<uint8_t *> (data), stride_);
        if (pixfmt_ == formats::BGR888)   // R, G, B in memory
          cv::cvtColor (src, frame_, gray ? cv::COLOR_RGB2GRAY : cv::COLOR_RGB2BGR);
        else if (gray)
          cv::cvtColor (src, frame_, cv::COLOR_BGR2GRAY);
        else
          src.copyTo (frame_);
        return true;
      }
    catch (const cv::Exception &)
      {
        frame_.release ();
        return false;
      }
  }

  // Plans opts_.controls against this camera's controls (report_, plan_).
  void plan_controls ()
  {
    plan_ = VisCameraPlan {};
    report_.clear ();
    settle_due_ns_ = 0;
    pending_ = ControlList (camera_->controls ());
    const VisCameraControls &c = opts_.controls;
    if (c.focus == VIS_FOCUS_UNSET && c.exposure == VIS_EXPOSURE_UNSET && c.anti_flicker == VIS_ANTI_FLICKER_UNSET)
      return;
    VisCameraCtrls have;
    describe_controls (camera_->controls (), &have);
    vis_camera_plan_controls (&c, &have, &plan_);
    report_ = plan_.notes;
    for (unsigned i = 0; i < plan_.n; i++)
      if (plan_.settings[i].after_settling)
        settle_due_ns_ = monotonic_ns () + (int64_t) VIS_CAMERA_SETTLE_MS * 1000000;
  }

  // The planned settings due now (or those that waited) into `list`.
  void take_settings (ControlList &list, bool after_settling)
  {
    for (unsigned i = 0; i < plan_.n; i++)
      if (plan_.settings[i].after_settling == after_settling)
        put_setting (list, camera_->controls (), plan_.settings[i]);
  }

  VisSourceStatus fail (VisSourceError *err, VisSourceStatus s, const std::string &why)
  {
    set_error (err, "libcamera camera " + std::to_string (index_) + ": " + why);
    close ();
    return s;
  }

  // libcamera's thread: remember the newest frame, give an unread older one back.
  void on_request (Request *req)
  {
    if (req->status () == Request::RequestCancelled)
      return;
    Request *older = nullptr;
    {
      std::lock_guard<std::mutex> lock (mutex_);
      older = newest_;
      newest_ = req;
    }
    if (older != nullptr)
      {
        older->reuse (Request::ReuseBuffers);
        camera_->queueRequest (older);
      }
    cond_.notify_one ();
  }

  void on_disconnect ()
  {
    {
      std::lock_guard<std::mutex> lock (mutex_);
      disconnected_ = true;
    }
    cond_.notify_one ();
  }

  int index_;
  VisSourceOptions opts_;
  std::unique_ptr<CameraManager> manager_;
  std::shared_ptr<Camera> camera_;
  std::unique_ptr<CameraConfiguration> config_;
  std::unique_ptr<FrameBufferAllocator> allocator_;
  std::vector<std::unique_ptr<Request>> requests_;
  std::vector<Map> maps_;
  Stream *stream_ = nullptr;
  PixelFormat pixfmt_;
  int width_ = 0, height_ = 0;
  unsigned stride_ = 0;
  bool acquired_ = false, started_ = false;
  std::mutex mutex_;
  std::condition_variable cond_;
  Request *newest_ = nullptr;
  bool disconnected_ = false;
  cv::Mat frame_;                // the delivered frame, reused
  VisCameraPlan plan_ {};
  std::string report_;
  ControlList pending_;          // settings for the next request
  int64_t settle_due_ns_ = 0;
};

VisSourceStatus
open_cb (void *self, VisSourceError *err)
{
  try
    {
      return static_cast<LibcameraBackend *> (self)->open (err);
    }
  catch (const std::exception &e)
    {
      set_error (err, std::string ("libcamera: ") + e.what ());
      return VIS_SOURCE_ERR_IO;
    }
}

VisSourceStatus
read_cb (void *self, VisFrame *frame, VisSourceError *err)
{
  return static_cast<LibcameraBackend *> (self)->read (frame, err);
}

void
close_cb (void *self)
{
  static_cast<LibcameraBackend *> (self)->close ();
}

void
destroy_cb (void *self)
{
  delete static_cast<LibcameraBackend *> (self);
}

const char *
describe_cb (void *self)
{
  auto *b = static_cast<LibcameraBackend *> (self);
  b->describe_buf_ = b->describe ();
  return b->describe_buf_.c_str ();
}

void
set_controls_cb (void *self, const VisCameraControls *controls)
{
  try
    {
      static_cast<LibcameraBackend *> (self)->set_controls (*controls);
    }
  catch (const std::exception &)
    {
      // kept for the next open; nothing set now
    }
}

const char *
controls_report_cb (void *self)
{
  return static_cast<LibcameraBackend *> (self)->controls_report ();
}

bool
exposure_range_cb (void *self, VisExposureRange *out)
{
  return static_cast<LibcameraBackend *> (self)->exposure_range (out);
}

void
set_exposure_time_cb (void *self, int time)
{
  try
    {
      static_cast<LibcameraBackend *> (self)->set_exposure_time (time);
    }
  catch (const std::exception &)
    {
      // kept for the next open; nothing set now
    }
}

const VisSourceBackendOps libcamera_ops = { open_cb,     read_cb, close_cb, destroy_cb, describe_cb,
                                            set_controls_cb, controls_report_cb, exposure_range_cb,
                                            set_exposure_time_cb };
}

extern "C" {

VisSourceStatus
vis_libcamera_backend_new (int index, const VisSourceOptions *options,
                           const VisSourceBackendOps **ops, void **self, VisSourceError *err)
{
  auto *b = new (std::nothrow) LibcameraBackend (index, *options);
  if (b == nullptr)
    {
      set_error (err, "out of memory");
      return VIS_SOURCE_ERR_NO_MEMORY;
    }
  *ops = &libcamera_ops;
  *self = b;
  return VIS_SOURCE_OK;
}

void
vis_libcamera_list (VisSourceList *list)
{
  quiet_logging ();
  CameraManager manager;
  if (manager.start () != 0)
    return;
  auto cams = manager.cameras ();
  for (size_t i = 0; i < cams.size () && list->n < VIS_SOURCE_LIST_MAX; i++)
    {
      VisSourceInfo &info = list->sources[list->n++];
      std::snprintf (info.spec, sizeof info.spec, "camera:%zu", i);
      std::snprintf (info.name, sizeof info.name, "%s", cams[i]->id ().c_str ());
      std::snprintf (info.detail, sizeof info.detail, "libcamera");
    }
  cams.clear ();
  manager.stop ();
}

}  // extern "C"

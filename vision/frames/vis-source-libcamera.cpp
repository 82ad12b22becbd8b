// vis-source-libcamera.cpp: camera[:N] through libcamera (0.0.3 API).
//
// Requests complete on libcamera's thread; the handler only records the
// newest completed request (handing an older unread one straight back), and
// read() converts that request's buffer into the frame and queues it again.
// So what read() delivers is always the newest frame, with no copy on the
// camera thread and no allocation per frame.
#include "vis-source-backend.h"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
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
        && pixfmt_ != formats::MJPEG)
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
        const FrameBuffer::Plane &p = buf->planes ()[0];
        size_t len = 0;
        for (const FrameBuffer::Plane &q : buf->planes ())
          len = std::max (len, (size_t) (q.offset + q.length));
        void *mem = ::mmap (nullptr, len, PROT_READ, MAP_SHARED, p.fd.get (), 0);
        if (mem == MAP_FAILED)
          return fail (err, VIS_SOURCE_ERR_IO, "cannot map a frame buffer");
        maps_.push_back ({ buf.get (), static_cast<uint8_t *> (mem), len });
        std::unique_ptr<Request> req = camera_->createRequest ();
        if (!req || req->addBuffer (stream_, buf.get ()) != 0)
          return fail (err, VIS_SOURCE_ERR_IO, "cannot create a capture request");
        requests_.push_back (std::move (req));
      }
    camera_->requestCompleted.connect (this, &LibcameraBackend::on_request);
    camera_->disconnected.connect (this, &LibcameraBackend::on_disconnect);
    disconnected_ = false;
    if (camera_->start () != 0)
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
    const uint8_t *data = nullptr;
    for (const Map &m : maps_)
      if (m.buffer == buf)
        data = m.data + buf->planes ()[0].offset;
    VisSourceStatus status = VIS_SOURCE_OK;
    size_t used = buf->metadata ().planes ().empty () ? 0 : buf->metadata ().planes ()[0].bytesused;
    if (data == nullptr || buf->metadata ().status != FrameMetadata::FrameSuccess)
      status = VIS_SOURCE_AGAIN;
    else
      {
        cv::Mat src;
        if (pixfmt_ == formats::MJPEG)
          {
            if (used < 4 || data[0] != 0xFF || data[1] != 0xD8)
              status = VIS_SOURCE_AGAIN;
            else
              cv::imdecode (cv::Mat (1, (int) used, CV_8U, const_cast<uint8_t *> (data)),
                            cv::IMREAD_COLOR, &bgr_);
          }
        else if (pixfmt_ == formats::YUYV)
          cv::cvtColor (cv::Mat (height_, width_, CV_8UC2, const_cast<uint8_t *> (data), stride_),
                        bgr_, cv::COLOR_YUV2BGR_YUYV);
        else if (pixfmt_ == formats::BGR888)
          cv::cvtColor (cv::Mat (height_, width_, CV_8UC3, const_cast<uint8_t *> (data), stride_),
                        bgr_, cv::COLOR_RGB2BGR);
        else
          cv::Mat (height_, width_, CV_8UC3, const_cast<uint8_t *> (data), stride_).copyTo (bgr_);
      }
    int64_t ts = (int64_t) buf->metadata ().timestamp;
    req->reuse (Request::ReuseBuffers);
    camera_->queueRequest (req);
    if (status != VIS_SOURCE_OK || bgr_.empty ())
      {
        set_error (err, "libcamera: a damaged frame was skipped");
        return VIS_SOURCE_AGAIN;
      }
    cv::Mat *out = &bgr_;
    if (opts_.format == VIS_PIXEL_GRAY8)
      {
        cv::cvtColor (bgr_, gray_, cv::COLOR_BGR2GRAY);
        out = &gray_;
      }
    frame->image.width = out->cols;
    frame->image.height = out->rows;
    frame->image.stride = out->step[0];
    frame->image.format = out->channels () == 1 ? VIS_PIXEL_GRAY8 : VIS_PIXEL_BGR8;
    frame->image.data = out->data;
    frame->timestamp_ns = ts;
    return VIS_SOURCE_OK;
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
    for (const Map &m : maps_)
      ::munmap (m.data, m.length);
    maps_.clear ();
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
  struct Map {
    FrameBuffer *buffer;
    uint8_t *data;
    size_t length;
  };

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
  cv::Mat bgr_, gray_;
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

const VisSourceBackendOps libcamera_ops = { open_cb, read_cb, close_cb, destroy_cb, describe_cb };
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

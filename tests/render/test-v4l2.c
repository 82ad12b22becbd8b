/* The V4L2 source against a fake webcam: this executable defines open,
 * ioctl, mmap, munmap, poll and close, so the vision library linked into it
 * talks to FAKE_DEVICE as to a driver; every other path and descriptor goes
 * on to the C library (dlsym RTLD_NEXT).  The fake camera offers the
 * formats and controls of a recorded one (the text files of
 * tests/render/cameras/, read with the library's own parsers), so what is
 * checked is the whole path:
 * enumeration (VIDIOC_ENUM_FMT / FRAMESIZES / FRAMEINTERVALS), the mode
 * chosen and set (S_FMT, S_PARM), buffers, YUYV / NV12 / MJPEG frames in
 * BGR8 and GRAY8, damaged frames, the controls queried and set in order
 * (QUERYCTRL, QUERYMENU, S_CTRL), a control refused, the focus locked after
 * settling, controls changed while streaming, and a camera unplugged and
 * plugged back (controls set again).
 *
 * The build asks for 64-bit file offsets, which makes open and mmap the
 * names of open64 and mmap64: here both names of each are defined, so
 * the plain ones are kept plain. */
#undef _FILE_OFFSET_BITS
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vis-camera.h"
#include "vis-exposure.h"
#include "vis-render.h"
#include "vis-source.h"

#define FAKE_DEVICE "/dev/tablero-fake-video0"
#define FAKE_SPEC "v4l2:" FAKE_DEVICE
#define MAX_LOG 64

/* ---- the fake camera ----------------------------------------------------------- */

typedef struct {
  uint32_t id;
  int32_t value;
  bool streaming;          /* set while frames were flowing */
} CtrlSet;

static struct {
  VisCameraModes modes;
  VisCameraCtrls ctrls;
  int fd;                  /* an eventfd standing for the device; -1 when closed */
  int opens;
  bool unplugged;
  bool streaming;
  uint32_t fourcc;
  int width, height;
  uint32_t stride, size;
  double fps_asked;
  unsigned n_bufs;
  uint8_t *bufs[4];
  bool queued[4];
  unsigned pending;        /* frames the camera has taken since the last poll */
  unsigned frame_no;
  uint8_t y, u, v;         /* what a raw frame holds */
  const uint8_t *jpeg;     /* what an MJPEG frame holds */
  size_t jpeg_len;
  bool short_frames;       /* frames come cut short (bytesused halved) */
  uint32_t refuse_id;      /* S_CTRL on it fails with EIO */
  CtrlSet log[MAX_LOG];
  unsigned n_log;
  int32_t exposure;        /* the exposure time last set (S_CTRL) */
  /* paints the luma plane of an NV12 frame after the plain fill (NULL: none) */
  void (*paint) (uint8_t *luma, int width, int height, uint32_t stride);
} cam = { .fd = -1 };

static void *
real (const char *name)
{
  void *f = dlsym (RTLD_NEXT, name);
  if (f == NULL)
    abort ();
  return f;
}

static void
fill_frame (uint8_t *buf)
{
  if (cam.fourcc == V4L2_PIX_FMT_MJPEG)
    {
      memcpy (buf, cam.jpeg, cam.jpeg_len);
      return;
    }
  for (int row = 0; row < cam.height; row++)
    for (int x = 0; x < cam.width; x++)
      if (cam.fourcc == V4L2_PIX_FMT_YUYV)
        {
          uint8_t *p = buf + (size_t) row * cam.stride + 2 * (size_t) x;
          p[0] = cam.y;
          p[1] = x % 2 == 0 ? cam.u : cam.v;
        }
      else
        buf[(size_t) row * cam.stride + x] = cam.y;
  if (cam.fourcc == V4L2_PIX_FMT_NV12)
    for (int row = 0; row < (cam.height + 1) / 2; row++)
      for (int x = 0; x + 1 < cam.width; x += 2)
        {
          uint8_t *p = buf + (size_t) cam.stride * cam.height + (size_t) row * cam.stride + x;
          p[0] = cam.u;
          p[1] = cam.v;
        }
  if (cam.fourcc == V4L2_PIX_FMT_NV12 && cam.paint != NULL)
    cam.paint (buf, cam.width, cam.height, cam.stride);
}

static int
fail (int e)
{
  errno = e;
  return -1;
}

/* The distinct formats, and the distinct sizes of one, in listed order. */
static uint32_t
nth_format (unsigned n)
{
  unsigned seen = 0;
  for (unsigned i = 0; i < cam.modes.n; i++)
    {
      bool dup = false;
      for (unsigned k = 0; k < i; k++)
        dup |= cam.modes.modes[k].fourcc == cam.modes.modes[i].fourcc;
      if (!dup && seen++ == n)
        return cam.modes.modes[i].fourcc;
    }
  return 0;
}

static const VisCameraMode *
nth_size (uint32_t fourcc, unsigned n)
{
  unsigned seen = 0;
  for (unsigned i = 0; i < cam.modes.n; i++)
    {
      const VisCameraMode *m = &cam.modes.modes[i];
      if (m->fourcc != fourcc)
        continue;
      bool dup = false;
      for (unsigned k = 0; k < i; k++)
        dup |= cam.modes.modes[k].fourcc == fourcc && cam.modes.modes[k].width == m->width
               && cam.modes.modes[k].height == m->height;
      if (!dup && seen++ == n)
        return m;
    }
  return NULL;
}

static int
fake_ioctl (unsigned long req, void *arg)
{
  if (cam.unplugged)
    return fail (ENODEV);
  switch (req)
    {
    case VIDIOC_QUERYCAP:
      {
        struct v4l2_capability *c = arg;
        memset (c, 0, sizeof *c);
        snprintf ((char *) c->driver, sizeof c->driver, "fakevideo");
        snprintf ((char *) c->card, sizeof c->card, "Fake Webcam");
        c->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
        c->capabilities = c->device_caps | V4L2_CAP_DEVICE_CAPS;
        return 0;
      }
    case VIDIOC_ENUM_FMT:
      {
        struct v4l2_fmtdesc *d = arg;
        uint32_t f = nth_format (d->index);
        if (f == 0)
          return fail (EINVAL);
        d->pixelformat = f;
        return 0;
      }
    case VIDIOC_ENUM_FRAMESIZES:
      {
        struct v4l2_frmsizeenum *s = arg;
        const VisCameraMode *m = nth_size (s->pixel_format, s->index);
        if (m == NULL)
          return fail (EINVAL);
        if (m->min_width > 0)
          {
            if (s->index > 0)
              return fail (EINVAL);
            s->type = m->step_width > 1 || m->step_height > 1 ? V4L2_FRMSIZE_TYPE_STEPWISE
                                                              : V4L2_FRMSIZE_TYPE_CONTINUOUS;
            s->stepwise = (struct v4l2_frmsize_stepwise) { (uint32_t) m->min_width, (uint32_t) m->width,
                                                           (uint32_t) m->step_width, (uint32_t) m->min_height,
                                                           (uint32_t) m->height, (uint32_t) m->step_height };
          }
        else
          {
            s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
            s->discrete.width = (uint32_t) m->width;
            s->discrete.height = (uint32_t) m->height;
          }
        return 0;
      }
    case VIDIOC_ENUM_FRAMEINTERVALS:
      {
        struct v4l2_frmivalenum *f = arg;
        unsigned seen = 0;
        for (unsigned i = 0; i < cam.modes.n; i++)
          {
            const VisCameraMode *m = &cam.modes.modes[i];
            if (m->fourcc != f->pixel_format || (uint32_t) m->width != f->width
                || (uint32_t) m->height != f->height || m->fps <= 0 || seen++ != f->index)
              continue;
            if (m->min_fps > 0)
              {
                f->type = V4L2_FRMIVAL_TYPE_CONTINUOUS;
                f->stepwise.min = (struct v4l2_fract) { 1000, (uint32_t) (m->fps * 1000 + 0.5) };
                f->stepwise.max = (struct v4l2_fract) { 1000, (uint32_t) (m->min_fps * 1000 + 0.5) };
              }
            else
              {
                f->type = V4L2_FRMIVAL_TYPE_DISCRETE;
                f->discrete = (struct v4l2_fract) { 1000, (uint32_t) (m->fps * 1000 + 0.5) };
              }
            return 0;
          }
        return fail (EINVAL);
      }
    case VIDIOC_S_FMT:
      {
        struct v4l2_format *f = arg;
        uint32_t want = f->fmt.pix.pixelformat;
        if (nth_size (want, 0) == NULL)
          want = nth_format (0);   /* drivers answer with a format they have */
        const VisCameraMode *m = NULL;
        for (unsigned i = 0; nth_size (want, i) != NULL; i++)
          {
            const VisCameraMode *s = nth_size (want, i);
            if (m == NULL || ((uint32_t) s->width == f->fmt.pix.width && (uint32_t) s->height == f->fmt.pix.height))
              m = s;
          }
        cam.fourcc = want;
        cam.width = m->min_width > 0 ? (int) f->fmt.pix.width : m->width;
        cam.height = m->min_width > 0 ? (int) f->fmt.pix.height : m->height;
        cam.stride = want == V4L2_PIX_FMT_YUYV ? 2 * (uint32_t) cam.width
                     : want == V4L2_PIX_FMT_NV12 ? (uint32_t) cam.width : 0;
        cam.size = want == V4L2_PIX_FMT_MJPEG ? 1u << 20
                   : want == V4L2_PIX_FMT_NV12 ? cam.stride * (uint32_t) cam.height * 3 / 2
                   : cam.stride * (uint32_t) cam.height;
        f->fmt.pix.pixelformat = want;
        f->fmt.pix.width = (uint32_t) cam.width;
        f->fmt.pix.height = (uint32_t) cam.height;
        f->fmt.pix.bytesperline = cam.stride;
        f->fmt.pix.sizeimage = cam.size;
        return 0;
      }
    case VIDIOC_S_PARM:
      {
        struct v4l2_streamparm *p = arg;
        cam.fps_asked = (double) p->parm.capture.timeperframe.denominator / p->parm.capture.timeperframe.numerator;
        return 0;
      }
    case VIDIOC_REQBUFS:
      {
        struct v4l2_requestbuffers *r = arg;
        for (unsigned i = 0; i < cam.n_bufs; i++)
          free (cam.bufs[i]);
        cam.n_bufs = r->count > 4 ? 4 : r->count;
        for (unsigned i = 0; i < cam.n_bufs; i++)
          {
            cam.bufs[i] = calloc (cam.size, 1);
            cam.queued[i] = false;
          }
        r->count = cam.n_bufs;
        return 0;
      }
    case VIDIOC_QUERYBUF:
    case VIDIOC_QBUF:
      {
        struct v4l2_buffer *b = arg;
        if (b->index >= cam.n_bufs)
          return fail (EINVAL);
        b->length = cam.size;
        b->m.offset = b->index << 24;
        if (req == VIDIOC_QBUF)
          cam.queued[b->index] = true;
        return 0;
      }
    case VIDIOC_DQBUF:
      {
        struct v4l2_buffer *b = arg;
        if (cam.pending == 0)
          return fail (EAGAIN);
        for (unsigned i = 0; i < cam.n_bufs; i++)
          if (cam.queued[i])
            {
              cam.queued[i] = false;
              cam.pending--;
              fill_frame (cam.bufs[i]);
              memset (b, 0, sizeof *b);
              b->index = i;
              b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
              b->memory = V4L2_MEMORY_MMAP;
              b->bytesused = cam.fourcc == V4L2_PIX_FMT_MJPEG ? (uint32_t) cam.jpeg_len : cam.size;
              if (cam.short_frames)
                b->bytesused /= 2;
              b->timestamp.tv_sec = 100 + cam.frame_no / 30;
              b->timestamp.tv_usec = (cam.frame_no % 30) * 33333;
              b->sequence = cam.frame_no++;
              return 0;
            }
        return fail (EAGAIN);
      }
    case VIDIOC_STREAMON:
      cam.streaming = true;
      return 0;
    case VIDIOC_STREAMOFF:
      cam.streaming = false;
      return 0;
    case VIDIOC_QUERYCTRL:
      {
        struct v4l2_queryctrl *q = arg;
        const VisCameraCtrl *c = vis_camera_ctrls_find (&cam.ctrls, q->id);
        if (c == NULL)
          return fail (EINVAL);
        memset (q, 0, sizeof *q);
        q->id = c->id;
        snprintf ((char *) q->name, sizeof q->name, "%s", c->name);
        q->type = c->type == VIS_CAMERA_CTRL_INT ? V4L2_CTRL_TYPE_INTEGER
                  : c->type == VIS_CAMERA_CTRL_BOOL ? V4L2_CTRL_TYPE_BOOLEAN
                  : c->type == VIS_CAMERA_CTRL_MENU ? V4L2_CTRL_TYPE_MENU : V4L2_CTRL_TYPE_STRING;
        q->minimum = c->min;
        q->maximum = c->max;
        q->step = c->step;
        q->default_value = c->def;
        q->flags = (c->inactive ? V4L2_CTRL_FLAG_INACTIVE : 0) | (c->read_only ? V4L2_CTRL_FLAG_READ_ONLY : 0)
                   | (c->disabled ? V4L2_CTRL_FLAG_DISABLED : 0);
        return 0;
      }
    case VIDIOC_QUERYMENU:
      {
        struct v4l2_querymenu *m = arg;
        const VisCameraCtrl *c = vis_camera_ctrls_find (&cam.ctrls, m->id);
        if (c == NULL || m->index > 63 || !((c->menu >> m->index) & 1))
          return fail (EINVAL);
        snprintf ((char *) m->name, sizeof m->name, "item %u", m->index);
        return 0;
      }
    case VIDIOC_S_CTRL:
      {
        struct v4l2_control *c = arg;
        const VisCameraCtrl *have = vis_camera_ctrls_find (&cam.ctrls, c->id);
        if (have == NULL)
          return fail (EINVAL);
        if (c->id == cam.refuse_id)
          return fail (EIO);
        if (c->value < have->min || c->value > have->max)
          return fail (ERANGE);
        if (cam.n_log < MAX_LOG)
          cam.log[cam.n_log++] = (CtrlSet) { c->id, c->value, cam.streaming };
        if (c->id == V4L2_CID_EXPOSURE_ABSOLUTE)
          cam.exposure = c->value;
        return 0;
      }
    default:
      return fail (ENOTTY);
    }
}

int
open (const char *path, int flags, ...)
{
  mode_t mode = 0;
  if (flags & O_CREAT)
    {
      va_list ap;
      va_start (ap, flags);
      mode = (mode_t) va_arg (ap, int);
      va_end (ap);
    }
  if (strcmp (path, FAKE_DEVICE) == 0)
    {
      if (cam.unplugged)
        return fail (ENOENT);
      cam.fd = eventfd (1, EFD_NONBLOCK | EFD_CLOEXEC);
      cam.opens++;
      cam.streaming = false;
      return cam.fd;
    }
  int (*f) (const char *, int, ...) = real ("open");
  return f (path, flags, mode);
}

int
open64 (const char *path, int flags, ...)
{
  mode_t mode = 0;
  if (flags & O_CREAT)
    {
      va_list ap;
      va_start (ap, flags);
      mode = (mode_t) va_arg (ap, int);
      va_end (ap);
    }
  if (strcmp (path, FAKE_DEVICE) == 0)
    return open (path, flags, mode);
  int (*f) (const char *, int, ...) = real ("open64");
  return f (path, flags, mode);
}

int
ioctl (int fd, unsigned long req, ...)
{
  va_list ap;
  va_start (ap, req);
  void *arg = va_arg (ap, void *);
  va_end (ap);
  if (fd >= 0 && fd == cam.fd)
    return fake_ioctl (req, arg);
  int (*f) (int, unsigned long, ...) = real ("ioctl");
  return f (fd, req, arg);
}

void *
mmap (void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
  if (fd >= 0 && fd == cam.fd)
    {
      unsigned i = (unsigned) (offset >> 24);
      return i < cam.n_bufs && len <= cam.size ? cam.bufs[i] : MAP_FAILED;
    }
  void *(*f) (void *, size_t, int, int, int, off_t) = real ("mmap");
  return f (addr, len, prot, flags, fd, offset);
}

void *
mmap64 (void *addr, size_t len, int prot, int flags, int fd, off64_t offset)
{
  if (fd >= 0 && fd == cam.fd)
    return mmap (addr, len, prot, flags, fd, (off_t) offset);
  void *(*f) (void *, size_t, int, int, int, off64_t) = real ("mmap64");
  return f (addr, len, prot, flags, fd, offset);
}

int
munmap (void *addr, size_t len)
{
  for (unsigned i = 0; i < cam.n_bufs; i++)
    if (addr == cam.bufs[i])
      return 0;
  int (*f) (void *, size_t) = real ("munmap");
  return f (addr, len);
}

/* glibc declares poll's array write-only (it is read too): gcc would warn
 * that the descriptor is read uninitialised. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
int
poll (struct pollfd *fds, nfds_t n, int timeout)
{
  if (n == 1 && fds[0].fd >= 0 && fds[0].fd == cam.fd)
    {
      fds[0].revents = cam.unplugged ? POLLERR : POLLIN;
      if (!cam.unplugged)
        cam.pending += 2;   /* two frames since the last look: the older is dropped */
      usleep (2000);
      return 1;
    }
  int (*f) (struct pollfd *, nfds_t, int) = real ("poll");
  return f (fds, n, timeout);
}
#pragma GCC diagnostic pop

int
close (int fd)
{
  if (fd >= 0 && fd == cam.fd)
    cam.fd = -1;
  int (*f) (int) = real ("close");
  return f (fd);
}

/* ---- helpers ------------------------------------------------------------------- */

static void
load_camera (const char *formats, const char *ctrls)
{
  char path[512];
  char *text = malloc (1 << 20);
  char why[256] = "";
  snprintf (path, sizeof path, "%s/%s", CAMERA_FIXTURES, formats);
  FILE *f = fopen (path, "rb");
  cr_assert_not_null (f, "%s", path);
  size_t len = fread (text, 1, (1 << 20) - 1, f);
  fclose (f);
  cr_assert (vis_camera_modes_parse (text, len, &cam.modes, why, sizeof why), "%s: %s", formats, why);
  cam.ctrls.n = 0;
  if (ctrls != NULL)
    {
      snprintf (path, sizeof path, "%s/%s", CAMERA_FIXTURES, ctrls);
      f = fopen (path, "rb");
      cr_assert_not_null (f, "%s", path);
      len = fread (text, 1, (1 << 20) - 1, f);
      fclose (f);
      cr_assert (vis_camera_ctrls_parse (text, len, &cam.ctrls, why, sizeof why), "%s: %s", ctrls, why);
    }
  free (text);
  cam.y = 126;
  cam.u = cam.v = 128;
}

/* A real JPEG (a small rendered table) for MJPEG frames. */
static void
load_jpeg (void)
{
  const char *text = "image width=160 height=120 format=jpg\ncamera height=300\ntable width=200 height=150\n"
                     "card c1 face=3 back=1 at=100,75\n";
  VisScene *s = NULL;
  cr_assert_eq (vis_scene_parse (text, strlen (text), "small", &s, NULL), ENG_OK);
  VisRenderer *r = NULL;
  cr_assert_eq (vis_renderer_new (s, 0, &r), ENG_OK);
  static unsigned char pixels[160 * 120 * 3];
  VisImage img = { 160, 120, 160 * 3, VIS_PIXEL_BGR8, pixels };
  cr_assert_eq (vis_renderer_render (r, 0, &img, NULL), ENG_OK);
  char path[] = "/tmp/tablero-fake-jpeg-XXXXXX.jpg";
  int fd = mkstemps (path, 4);
  cr_assert_geq (fd, 0);
  close (fd);
  cr_assert_eq (vis_renderer_save_last (r, path), ENG_OK);
  FILE *f = fopen (path, "rb");
  static uint8_t buf[1 << 20];
  cam.jpeg_len = fread (buf, 1, sizeof buf, f);
  fclose (f);
  unlink (path);
  cam.jpeg = buf;
  cr_assert_gt (cam.jpeg_len, 100);
  vis_renderer_free (r);
  vis_scene_free (s);
}

static VisSource *
open_fake (const VisSourceOptions *opts)
{
  VisSource *src = NULL;
  VisSourceError err = { "" };
  VisSourceStatus st = vis_source_open (FAKE_SPEC, opts, &src, &err);
  cr_assert_eq (st, VIS_SOURCE_OK, "%s: %s", vis_source_status_to_string (st), err.message);
  return src;
}

static VisFrame
read_frame (VisSource *src)
{
  VisFrame frame;
  VisSourceError err = { "" };
  VisSourceStatus st = vis_source_read (src, &frame, &err);
  cr_assert (vis_source_status_has_frame (st), "%s: %s", vis_source_status_to_string (st), err.message);
  return frame;
}

static bool
logged (unsigned from, uint32_t id, int32_t value)
{
  for (unsigned i = from; i < cam.n_log; i++)
    if (cam.log[i].id == id && cam.log[i].value == value)
      return true;
  return false;
}

/* ---- tests ---------------------------------------------------------------------- */

Test (v4l2, c920_streams_1080p_mjpeg)
{
  load_camera ("c920-formats.txt", "c920-ctrls.txt");
  load_jpeg ();
  VisSource *src = open_fake (NULL);
  cr_expect_eq (cam.fourcc, V4L2_PIX_FMT_MJPEG);
  cr_expect (cam.width == 1920 && cam.height == 1080, "%dx%d", cam.width, cam.height);
  cr_expect (cam.fps_asked > 29.99 && cam.fps_asked < 30.01, "%g fps asked", cam.fps_asked);
  cr_expect (cam.streaming);
  cr_expect_str_eq (vis_source_description (src), "Fake Webcam (v4l2, " FAKE_DEVICE ") 1920x1080 MJPG 30 fps");
  cr_expect_eq (cam.n_log, 0u, "no control asked, none set");
  VisFrame f = read_frame (src);
  cr_expect (f.image.width == 160 && f.image.height == 120 && f.image.format == VIS_PIXEL_BGR8);
  uint8_t *first = f.image.data;
  cr_expect_eq (f.timestamp_ns, 100000000000LL + 33333000LL, "the newer of the two frames");
  f = read_frame (src);
  cr_expect_eq (f.image.data, first, "no new buffer for a frame of the same size");
  cr_expect_eq (f.sequence, 1u);
  vis_source_close (src);
  cr_expect_eq (cam.fd, -1, "the device was closed");
}

Test (v4l2, damaged_frames_are_skipped)
{
  load_camera ("c920-formats.txt", NULL);
  load_jpeg ();
  VisSource *src = open_fake (NULL);
  read_frame (src);
  /* JPEGs cut short on the bus (no end marker): skipped and said; the
   * next whole one comes through */
  cam.short_frames = true;
  VisSourceError err = { "" };
  VisFrame f;
  VisSourceStatus st = vis_source_read (src, &f, &err);
  cr_expect_eq (st, VIS_SOURCE_AGAIN, "%s", vis_source_status_to_string (st));
  cr_expect (strstr (err.message, FAKE_DEVICE ": a damaged frame was skipped") != NULL, "%s", err.message);
  cam.short_frames = false;
  f = read_frame (src);
  cr_expect_eq (f.sequence, 1u, "a skipped frame takes no number");
  vis_source_close (src);

  /* a raw frame shorter than its size */
  VisSourceOptions opts = { .width = 640, .height = 480 };
  src = open_fake (&opts);
  cr_expect_eq (cam.fourcc, V4L2_PIX_FMT_YUYV, "VGA at 30: raw before MJPEG");
  read_frame (src);
  cam.short_frames = true;
  st = vis_source_read (src, &f, &err);
  cr_expect_eq (st, VIS_SOURCE_AGAIN, "%s", vis_source_status_to_string (st));
  cam.short_frames = false;
  read_frame (src);
  vis_source_close (src);
}

Test (v4l2, generic_camera_yuyv_in_colour_and_grey)
{
  load_camera ("generic-formats.txt", "generic-ctrls.txt");
  VisSourceOptions opts = { .width = 1920, .height = 1080, .fps = 5 };
  VisSource *src = open_fake (&opts);
  cr_expect (cam.fourcc == V4L2_PIX_FMT_YUYV && cam.width == 1920 && cam.height == 1080);
  cr_expect (strstr (vis_source_description (src), "1920x1080 YUYV 5 fps") != NULL, "%s", vis_source_description (src));
  cam.y = 81, cam.u = 90, cam.v = 240;   /* red */
  VisFrame f = read_frame (src);
  cr_assert (f.image.width == 1920 && f.image.height == 1080 && f.image.format == VIS_PIXEL_BGR8);
  const uint8_t *p = f.image.data + 500 * f.image.stride + 3 * 777;
  cr_expect (p[2] >= 253 && p[1] <= 2 && p[0] <= 2, "red is B%d G%d R%d", p[0], p[1], p[2]);
  uint8_t *first = f.image.data;
  f = read_frame (src);
  cr_expect_eq (f.image.data, first, "the converted frame's buffer is reused");
  vis_source_close (src);

  /* the defaults on this camera: MJPEG 1024x768, not YUYV 1080p at 5 fps */
  load_jpeg ();
  src = open_fake (NULL);
  cr_expect (cam.fourcc == V4L2_PIX_FMT_MJPEG && cam.width == 1024 && cam.height == 768);
  vis_source_close (src);

  /* grey: the Y bytes, stretched (126 is mid grey, 128) */
  opts.format = VIS_PIXEL_GRAY8;
  src = open_fake (&opts);
  cam.y = 126, cam.u = 10, cam.v = 250;   /* the chroma does not matter */
  f = read_frame (src);
  cr_assert (f.image.format == VIS_PIXEL_GRAY8 && f.image.width == 1920);
  cr_expect_eq (f.image.data[1079 * f.image.stride + 1919], 128);
  vis_source_close (src);
}

Test (v4l2, nv12_camera)
{
  load_camera ("nv12-formats.txt", "nv12-ctrls.txt");
  VisSource *src = open_fake (NULL);
  cr_expect (cam.fourcc == V4L2_PIX_FMT_NV12 && cam.width == 1920 && cam.height == 1080);
  cam.y = 145, cam.u = 54, cam.v = 34;   /* green */
  VisFrame f = read_frame (src);
  const uint8_t *p = f.image.data + 1000 * f.image.stride + 3 * 1500;
  cr_expect (p[1] >= 253 && p[0] <= 2 && p[2] <= 2, "green is B%d G%d R%d", p[0], p[1], p[2]);
  vis_source_close (src);
  VisSourceOptions grey = { .format = VIS_PIXEL_GRAY8 };
  src = open_fake (&grey);
  cam.y = 235;
  f = read_frame (src);
  cr_expect_eq (f.image.data[0], 255);
  vis_source_close (src);
}

Test (v4l2, a_camera_tablero_cannot_read)
{
  load_camera ("h264-only-formats.txt", NULL);
  VisSource *src = NULL;
  VisSourceError err = { "" };
  cr_expect_eq (vis_source_open (FAKE_SPEC, NULL, &src, &err), VIS_SOURCE_ERR_NOT_SUPPORTED);
  cr_expect_null (src);
  cr_expect (strstr (err.message, FAKE_DEVICE ": the camera offers only H264, Z16 ") != NULL, "%s", err.message);
  cr_expect_eq (cam.fd, -1, "the device was closed");
}

Test (v4l2, controls_set_in_order_before_streaming)
{
  load_camera ("c920-formats.txt", "c920-ctrls.txt");
  load_jpeg ();
  VisSourceOptions opts = { .controls = { .focus = VIS_FOCUS_LOCKED, .focus_position = 42,
                                          .exposure = VIS_EXPOSURE_MANUAL, .exposure_time = 100,
                                          .anti_flicker = VIS_ANTI_FLICKER_50HZ } };
  cam.refuse_id = V4L2_CID_POWER_LINE_FREQUENCY;
  VisSource *src = open_fake (&opts);
  cr_assert_eq (cam.n_log, 4u, "%u controls set", cam.n_log);
  static const CtrlSet expect[] = { { V4L2_CID_FOCUS_AUTO, 0, false }, { V4L2_CID_FOCUS_ABSOLUTE, 40, false },
                                    { V4L2_CID_EXPOSURE_AUTO, 1, false }, { V4L2_CID_EXPOSURE_ABSOLUTE, 100, false } };
  for (unsigned i = 0; i < 4; i++)
    cr_expect (cam.log[i].id == expect[i].id && cam.log[i].value == expect[i].value && !cam.log[i].streaming,
               "control %u: 0x%x = %d%s", i, cam.log[i].id, cam.log[i].value,
               cam.log[i].streaming ? " while streaming" : "");
  const char *report = vis_source_controls_report (src);
  cr_expect (strstr (report, "focus position 42: the camera takes 0 to 250 in steps of 5; set to 40") != NULL, "%s", report);
  cr_expect (strstr (report, "anti-flicker 1: the camera refused it (Input/output error)") != NULL, "%s", report);
  read_frame (src);

  /* changed while streaming: set at once, no reopen */
  cam.refuse_id = 0;
  unsigned before = cam.n_log;
  VisCameraControls c = { .anti_flicker = VIS_ANTI_FLICKER_60HZ, .focus = VIS_FOCUS_AUTO };
  cr_expect_eq (vis_source_set_controls (src, &c, NULL), VIS_SOURCE_OK);
  cr_expect_eq (cam.opens, 1);
  cr_expect (logged (before, V4L2_CID_POWER_LINE_FREQUENCY, 2));
  cr_expect (logged (before, V4L2_CID_FOCUS_AUTO, 1));
  cr_expect (cam.log[cam.n_log - 1].streaming);
  cr_expect_str_eq (vis_source_controls_report (src), "", "all done: the report is empty again");

  /* unplugged and back: reopened, the controls set again */
  cam.unplugged = true;
  VisFrame f;
  VisSourceError err = { "" };
  cr_expect_eq (vis_source_read (src, &f, &err), VIS_SOURCE_DISCONNECTED, "%s", err.message);
  cam.unplugged = false;
  before = cam.n_log;
  VisSourceStatus st = VIS_SOURCE_DISCONNECTED;
  for (int tries = 0; tries < 20 && st == VIS_SOURCE_DISCONNECTED; tries++)
    st = vis_source_read (src, &f, &err);
  cr_expect_eq (st, VIS_SOURCE_RECONNECTED, "%s: %s", vis_source_status_to_string (st), err.message);
  cr_expect_eq (cam.opens, 2);
  cr_expect (logged (before, V4L2_CID_POWER_LINE_FREQUENCY, 2) && logged (before, V4L2_CID_FOCUS_AUTO, 1),
             "the controls were not set again after the reconnection");
  vis_source_close (src);
}

Test (v4l2, focus_locked_where_autofocus_settles)
{
  load_camera ("c920-formats.txt", "c920-ctrls.txt");
  load_jpeg ();
  VisSourceOptions opts = { .controls = { .focus = VIS_FOCUS_LOCKED, .focus_position = -1 } };
  VisSource *src = open_fake (&opts);
  cr_assert_eq (cam.n_log, 1u);
  cr_expect (cam.log[0].id == V4L2_CID_FOCUS_AUTO && cam.log[0].value == 1, "autofocus on first");
  /* frames go on; about two seconds later autofocus is turned off */
  for (int i = 0; i < 40 && cam.n_log < 2; i++)
    {
      read_frame (src);
      usleep (100 * 1000);
    }
  cr_assert_eq (cam.n_log, 2u, "autofocus was never turned off");
  cr_expect (cam.log[1].id == V4L2_CID_FOCUS_AUTO && cam.log[1].value == 0 && cam.log[1].streaming);
  vis_source_close (src);
}

Test (v4l2, a_camera_without_the_controls_says_so)
{
  load_camera ("c270-formats.txt", "c270-ctrls.txt");
  load_jpeg ();
  VisSourceOptions opts = { .controls = { .focus = VIS_FOCUS_LOCKED, .focus_position = 10,
                                          .anti_flicker = VIS_ANTI_FLICKER_AUTO } };
  VisSource *src = open_fake (&opts);
  cr_expect (cam.fourcc == V4L2_PIX_FMT_MJPEG && cam.width == 1280 && cam.height == 720);
  cr_expect_eq (cam.n_log, 0u);
  cr_expect_str_eq (vis_source_controls_report (src),
                    "focus: this camera has no focus control (a fixed-focus lens?); nothing to lock\n"
                    "anti-flicker auto: the camera does not offer it (only off, 50 Hz, 60 Hz); left as it is");
  read_frame (src);
  vis_source_close (src);
}

/* ---- the exposure metered on the stickers ------------------------------------- */

#define STICKERS 4
#define STICKER_PX 96

static VisDetection stickers[STICKERS];

/* A table under a lamp as the camera takes it at cam.exposure: paper white
 * 0.8 and ink 0.06 of what 8 ms makes full scale, the wood 0.25, and on
 * the first two stickers a glossy highlight; luma clips at 235. */
static void
paint_table (uint8_t *luma, int width, int height, uint32_t stride)
{
  double k = 219.0 * cam.exposure / 80.0;
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      luma[(size_t) y * stride + x] = (uint8_t) (16 + fmin (219, 0.25 * k));
  for (int i = 0; i < STICKERS; i++)
    {
      int x0 = 400 + i * 300, y0 = 500;
      for (int y = 0; y < STICKER_PX; y++)
        for (int x = 0; x < STICKER_PX; x++)
          {
            unsigned module = (unsigned) ((y / 4) * 24 + x / 4) * 2654435761u;
            double r = (module >> 7) & 1 ? 0.06 : 0.8;
            if (i < 2)
              r += 1.5 * exp (-((x - 50.0) * (x - 50.0) + (y - 40.0) * (y - 40.0)) / (2 * 16.0 * 16.0));
            luma[(size_t) (y0 + y) * stride + x0 + x] = (uint8_t) (16 + fmin (219, r * k));
          }
      VisDetection *d = &stickers[i];
      d->corners[0] = (VisPoint) { (float) x0, (float) y0 };
      d->corners[1] = (VisPoint) { (float) (x0 + STICKER_PX), (float) y0 };
      d->corners[2] = (VisPoint) { (float) (x0 + STICKER_PX), (float) (y0 + STICKER_PX) };
      d->corners[3] = (VisPoint) { (float) x0, (float) (y0 + STICKER_PX) };
    }
}

/* "Meter on the stickers" reaches the camera: with a manual exposure, each
 * proposed time is set on the device (VIDIOC_S_CTRL, while streaming, the
 * exposure time alone: focus and flicker are not set again), the frames
 * that follow are taken at it, and the glossy stickers stop clipping. */
Test (v4l2, exposure_metered_on_the_stickers_is_set_on_the_camera)
{
  load_camera ("nv12-formats.txt", "nv12-ctrls.txt");
  cam.paint = paint_table;
  VisCameraControls controls = { .exposure = VIS_EXPOSURE_MANUAL, .exposure_time = 200, .meter_stickers = true,
                                 .anti_flicker = VIS_ANTI_FLICKER_50HZ };
  VisSourceOptions opts = { .controls = controls };
  VisSource *src = open_fake (&opts);
  cr_assert_eq (cam.exposure, 200, "the starting time was not set: %d", cam.exposure);
  VisExposureRange range;
  cr_assert (vis_source_exposure_range (src, &range));
  cr_expect (range.min == 1 && range.max == 2500 && range.step == 1 && range.def == 200);
  unsigned opened = cam.n_log, changes = 0;
  VisExposureMeter *meter = vis_exposure_meter_new ();
  VisExposureReading first = { 0 }, r = { 0 };
  int32_t last = 200;
  for (int i = 0; i < 120; i++)
    {
      VisFrame f = read_frame (src);
      bool set = vis_exposure_meter_serve (meter, src, &controls, &f, stickers, STICKERS, &r);
      if (i == 0)
        first = r;
      if (!set)
        continue;
      changes++;
      cr_expect_eq (cam.exposure, controls.exposure_time, "the camera has %d, the controls %d", cam.exposure,
                    controls.exposure_time);
      cr_expect_lt (cam.exposure, last, "the time went up again: %d after %d", cam.exposure, last);
      last = cam.exposure;
    }
  cr_expect_gt (first.clipped, 0.5f, "the start clips: %.3f", first.clipped);
  cr_expect_leq (r.clipped, VIS_EXPOSURE_CLIP_MAX, "still clipped at %d: %.3f", cam.exposure, r.clipped);
  cr_expect (changes >= 2 && changes <= 6, "%u changes", changes);
  for (unsigned i = opened; i < cam.n_log; i++)
    cr_expect (cam.log[i].id == V4L2_CID_EXPOSURE_ABSOLUTE && cam.log[i].streaming,
               "control 0x%x set by the meter", cam.log[i].id);
  cr_expect_str_eq (vis_source_controls_report (src), "");

  /* switched off: nothing set */
  unsigned before = cam.n_log;
  controls.meter_stickers = false;
  cam.exposure = 400;
  for (int i = 0; i < 20; i++)
    {
      VisFrame f = read_frame (src);
      cr_expect_not (vis_exposure_meter_serve (meter, src, &controls, &f, stickers, STICKERS, &r));
    }
  cr_expect_eq (cam.n_log, before, "the meter set a control while switched off");
  vis_exposure_meter_free (meter);
  vis_source_close (src);
}

/* A camera whose exposure time is read-only has no time to meter. */
Test (v4l2, no_metering_without_an_exposure_time)
{
  load_camera ("generic-formats.txt", "generic-ctrls.txt");
  load_jpeg ();
  VisCameraControls controls = { .exposure = VIS_EXPOSURE_MANUAL, .exposure_time = 100, .meter_stickers = true };
  VisSourceOptions opts = { .controls = controls };
  VisSource *src = open_fake (&opts);
  VisExposureRange range;
  cr_expect_not (vis_source_exposure_range (src, &range));
  VisExposureMeter *meter = vis_exposure_meter_new ();
  VisFrame f = read_frame (src);
  VisExposureReading r;
  unsigned before = cam.n_log;
  cr_expect_not (vis_exposure_meter_serve (meter, src, &controls, &f, stickers, STICKERS, &r));
  cr_expect_eq (r.verdict, VIS_EXPOSURE_NO_STICKERS);
  cr_expect_eq (cam.n_log, before);
  vis_exposure_meter_free (meter);
  vis_source_close (src);
}

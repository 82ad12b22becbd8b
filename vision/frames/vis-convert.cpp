// vis-convert.cpp: YUYV and NV12 to BGR8 and GRAY8 (vis-convert.h).
//
// Colour: frames of even width and height (every camera mode) go through
// OpenCV's cvtColor, vectorised, writing straight into the caller's memory
// (a cv::Mat header over it: nothing is allocated); about four times faster
// than the plain loops below, which serve odd sizes and are the reference
// the tests hold both to.  Grey: a table look-up per luma byte (the chroma
// is never read).
#include "vis-convert.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace {

/* Branch-free: real pictures clamp often (highlights, deep shadows), and
 * mispredicted branches cost more than the arithmetic.  Relies on >> of a
 * negative int copying the sign bit, as gcc and clang do. */
inline uint8_t
clamp8 (int v)
{
  v &= ~(v >> 31);                          /* below 0: 0 */
  return (uint8_t) (v | ((255 - v) >> 31)); /* above 255: all ones */
}

/* 298 (Y - 16) + 128: the luma term, with the rounding half added once.
 * Y below 16 (below black) counts as 16, as OpenCV counts it, so both
 * paths agree on every input. */
inline int
luma (int y)
{
  return 298 * (y > 16 ? y - 16 : 0) + 128;
}

/* Writes B, G, R of one pixel from its luma term and its pair's chroma terms. */
inline void
put_bgr (uint8_t *p, int c, int r_v, int g_uv, int b_u)
{
  p[0] = clamp8 ((c + b_u) >> 8);
  p[1] = clamp8 ((c + g_uv) >> 8);
  p[2] = clamp8 ((c + r_v) >> 8);
}

inline void
put_pair (uint8_t *d, int y0, int y1, int u, int v, int two)
{
  int du = u - 128, dv = v - 128;
  int r_v = 409 * dv, g_uv = -100 * du - 208 * dv, b_u = 516 * du;
  put_bgr (d, luma (y0), r_v, g_uv, b_u);
  if (two)
    put_bgr (d + 3, luma (y1), r_v, g_uv, b_u);
}

void
yuyv_to_bgr_loop (const uint8_t *src, size_t src_stride, int width, int height, uint8_t *dst,
                  size_t dst_stride)
{
  for (int row = 0; row < height; row++)
    {
      const uint8_t *s = src + (size_t) row * src_stride;
      uint8_t *d = dst + (size_t) row * dst_stride;
      int x = 0;
      for (; x + 1 < width; x += 2, s += 4, d += 6)
        put_pair (d, s[0], s[2], s[1], s[3], 1);
      if (x < width)
        put_pair (d, s[0], 0, s[1], s[3], 0);
    }
}

void
nv12_to_bgr_loop (const uint8_t *y, size_t y_stride, const uint8_t *uv, size_t uv_stride, int width,
                  int height, uint8_t *dst, size_t dst_stride)
{
  for (int row = 0; row < height; row++)
    {
      const uint8_t *s = y + (size_t) row * y_stride;
      const uint8_t *c = uv + (size_t) (row / 2) * uv_stride;
      uint8_t *d = dst + (size_t) row * dst_stride;
      int x = 0;
      for (; x + 1 < width; x += 2, d += 6)
        put_pair (d, s[x], s[x + 1], c[x], c[x + 1], 1);
      if (x < width)
        put_pair (d, s[x], 0, c[x], c[x + 1], 0);
    }
}

// luma () >> 8, clamped, for every Y: grey is one table look-up a pixel.
struct GreyTable {
  uint8_t v[256];
  GreyTable ()
  {
    for (int y = 0; y < 256; y++)
      v[y] = clamp8 (luma (y) >> 8);
  }
};

const uint8_t *
grey_table ()
{
  static const GreyTable table;   // built once, thread-safe (C++11)
  return table.v;
}

// OpenCV takes even sizes only; its arithmetic is BT.601 video range too.
bool
even (int width, int height)
{
  return width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0;
}

}  // namespace

extern "C" {

void
vis_convert_yuyv_to_bgr (const uint8_t *src, size_t src_stride, int width, int height,
                         uint8_t *dst, size_t dst_stride)
{
  if (even (width, height))
    {
      try
        {
          cv::Mat in (height, width, CV_8UC2, const_cast<uint8_t *> (src), src_stride);
          cv::Mat out (height, width, CV_8UC3, dst, dst_stride);
          cv::cvtColor (in, out, cv::COLOR_YUV2BGR_YUYV);
          if (out.data == dst)
            return;
        }
      catch (const cv::Exception &)
        {
        }
    }
  yuyv_to_bgr_loop (src, src_stride, width, height, dst, dst_stride);
}

void
vis_convert_yuyv_to_gray (const uint8_t *src, size_t src_stride, int width, int height,
                          uint8_t *dst, size_t dst_stride)
{
  const uint8_t *t = grey_table ();
  for (int row = 0; row < height; row++)
    {
      const uint8_t *s = src + (size_t) row * src_stride;
      uint8_t *d = dst + (size_t) row * dst_stride;
      for (int x = 0; x < width; x++)
        d[x] = t[s[2 * x]];
    }
}

void
vis_convert_nv12_to_bgr (const uint8_t *y, size_t y_stride, const uint8_t *uv, size_t uv_stride,
                         int width, int height, uint8_t *dst, size_t dst_stride)
{
  if (even (width, height))
    {
      try
        {
          cv::Mat luma (height, width, CV_8UC1, const_cast<uint8_t *> (y), y_stride);
          cv::Mat chroma (height / 2, width / 2, CV_8UC2, const_cast<uint8_t *> (uv), uv_stride);
          cv::Mat out (height, width, CV_8UC3, dst, dst_stride);
          cv::cvtColorTwoPlane (luma, chroma, out, cv::COLOR_YUV2BGR_NV12);
          if (out.data == dst)
            return;
        }
      catch (const cv::Exception &)
        {
        }
    }
  nv12_to_bgr_loop (y, y_stride, uv, uv_stride, width, height, dst, dst_stride);
}

void
vis_convert_nv12_to_gray (const uint8_t *y, size_t y_stride, int width, int height,
                          uint8_t *dst, size_t dst_stride)
{
  const uint8_t *t = grey_table ();
  for (int row = 0; row < height; row++)
    {
      const uint8_t *s = y + (size_t) row * y_stride;
      uint8_t *d = dst + (size_t) row * dst_stride;
      for (int x = 0; x < width; x++)
        d[x] = t[s[x]];
    }
}

size_t
vis_convert_frame_bytes (uint32_t fourcc, int width, int height, size_t stride)
{
  if (width <= 0 || height <= 0)
    return 0;
  size_t even = (size_t) width + ((size_t) width & 1);
  if (fourcc == VIS_FOURCC_YUYV)
    return (stride > 0 ? stride : 2 * even) * (size_t) height;
  if (fourcc == VIS_FOURCC_NV12)
    {
      size_t s = stride > 0 ? stride : even;
      return s * (size_t) height + s * (size_t) ((height + 1) / 2);
    }
  return 0;
}

}  // extern "C"

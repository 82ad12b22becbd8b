/* vis-convert.h: camera pixel formats to the frames Tablero hands out.
 *
 * Pure functions over caller-owned memory: they allocate nothing, keep no
 * state and touch only `dst`, so a source converts every frame into one
 * reused buffer, and tests check them on a few hand-made pixels.
 *
 * YUYV (packed 4:2:2: Y0 U Y1 V per two pixels) and NV12 (a Y plane, then a
 * plane of interleaved U V at half width and half height) are read as
 * BT.601 video range (Y 16-235, U/V 16-240 around 128), what UVC webcams
 * and V4L2 drivers send unless told otherwise.  Results rounded and
 * clamped to 0-255, within 1 of:
 *
 *   R = 1.164 (Y - 16)                 + 1.596 (V - 128)
 *   G = 1.164 (Y - 16) - 0.391 (U - 128) - 0.813 (V - 128)
 *   B = 1.164 (Y - 16) + 2.018 (U - 128)
 *
 * with Y below 16 taken as 16 (OpenCV's reading, which the even-sized
 * colour frames go through: vis-convert.cpp).
 *
 * The GRAY8 conversions read the Y bytes only (the chroma is never
 * touched) and stretch them the same way, so a grey frame is exactly the
 * grey of the colour one (B = G = R for neutral chroma) and as bright as
 * one decoded from MJPEG, whose luma is full range.
 *
 * Odd widths and heights are accepted: the last column (YUYV, NV12) and
 * the last row (NV12) use the chroma of the pair they start.  Strides are
 * in bytes, at least the row's length.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Pixel formats by their V4L2 four-character codes (the same numbers as
 * V4L2_PIX_FMT_*, first character in the low byte). */
#define VIS_FOURCC(a, b, c, d) \
  ((uint32_t) (uint8_t) (a) | ((uint32_t) (uint8_t) (b) << 8) | ((uint32_t) (uint8_t) (c) << 16) \
   | ((uint32_t) (uint8_t) (d) << 24))
#define VIS_FOURCC_MJPEG VIS_FOURCC ('M', 'J', 'P', 'G')
#define VIS_FOURCC_JPEG VIS_FOURCC ('J', 'P', 'E', 'G')   /* what a few webcams call MJPEG */
#define VIS_FOURCC_YUYV VIS_FOURCC ('Y', 'U', 'Y', 'V')
#define VIS_FOURCC_NV12 VIS_FOURCC ('N', 'V', '1', '2')

/* YUYV rows of `src_stride` bytes (>= 2 * width, rounded up to a pair) to
 * BGR8 rows of `dst_stride` bytes (>= 3 * width). */
void vis_convert_yuyv_to_bgr (const uint8_t *src, size_t src_stride, int width, int height,
                              uint8_t *dst, size_t dst_stride);

/* YUYV to GRAY8 (rows of `dst_stride` >= width bytes): the Y bytes only. */
void vis_convert_yuyv_to_gray (const uint8_t *src, size_t src_stride, int width, int height,
                               uint8_t *dst, size_t dst_stride);

/* NV12: the Y plane (`y_stride` >= width) and the UV plane (`uv_stride` >=
 * width rounded up to even; (height + 1) / 2 rows) to BGR8. */
void vis_convert_nv12_to_bgr (const uint8_t *y, size_t y_stride, const uint8_t *uv, size_t uv_stride,
                              int width, int height, uint8_t *dst, size_t dst_stride);

/* NV12 to GRAY8: the Y plane only (the UV plane is not read). */
void vis_convert_nv12_to_gray (const uint8_t *y, size_t y_stride, int width, int height,
                               uint8_t *dst, size_t dst_stride);

/* Bytes a frame of `fourcc` needs at `width` x `height` with rows of
 * `stride` bytes (0 = packed): what a driver's buffer must hold before it is
 * converted.  0 for a format that is not YUYV or NV12 (compressed frames
 * have no fixed size). */
size_t vis_convert_frame_bytes (uint32_t fourcc, int width, int height, size_t stride);

#ifdef __cplusplus
}
#endif

/* vis-image.h: a plain view of pixels, shared by frame sources, the
 * synthetic renderer and the detector.  A VisImage never owns its pixels: the
 * object that filled it (a source, a renderer, the caller) says how long they
 * live.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef enum {
  VIS_PIXEL_GRAY8 = 1,   /* one byte per pixel */
  VIS_PIXEL_BGR8 = 3,    /* three bytes per pixel, blue first (OpenCV order) */
} VisPixelFormat;

typedef struct {
  int width;
  int height;
  size_t stride;          /* bytes from one row to the next, >= width * bpp */
  VisPixelFormat format;
  uint8_t *data;          /* not owned by the view */
} VisImage;

/* One frame from a source.  `image.data` belongs to the source and stays
 * valid until the next read on it or until it is closed. */
typedef struct {
  VisImage image;
  int64_t timestamp_ns;   /* capture time (monotonic for cameras; scene time
                             for the demo; 0-based play time for files) */
  uint64_t sequence;      /* 0, 1, 2, ... per delivered frame of this source */
} VisFrame;

/* Bytes per pixel of a format (1 or 3; 0 for an unknown value). */
static inline int
vis_pixel_format_bpp (VisPixelFormat format)
{
  return format == VIS_PIXEL_GRAY8 ? 1 : format == VIS_PIXEL_BGR8 ? 3 : 0;
}

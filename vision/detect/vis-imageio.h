/* vis-imageio.h: reading still images (PNG, JPEG, ...) for scan and tests,
 * with a clear reason when a file is missing, empty, truncated or corrupt. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eng-status.h"
#include "vis-image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest image read from a file: a 64 Mpx photo, 16384 px a side at
 * most (webcams give 2-8 Mpx, phones up to 50).  A file declaring more is
 * refused before it is decoded, so a tiny file cannot ask for gigabytes. */
#define VIS_IMAGE_MAX_SIDE 16384
#define VIS_IMAGE_MAX_PIXELS (64L * 1024 * 1024)

/* The size a PNG or JPEG header declares, from the file's first bytes;
 * false when `bytes` is neither or the header is cut short. */
bool vis_image_declared_size (const uint8_t *bytes, size_t len, int *width, int *height);

/* Whether a `width` x `height` image is within the bounds above; when not,
 * writes the reason ("image of WxH px is larger than ...") into `reason`. */
bool vis_image_size_ok (long width, long height, char *reason, size_t reason_len);

/* Loads `path` as BGR8 into `out`, whose pixels are newly allocated (free
 * with vis_image_release).  On error `out` is zeroed, `reason` (may be NULL)
 * receives a short English phrase, and the result is ENG_ERR_IO (cannot
 * open or read), ENG_ERR_SYNTAX (empty, truncated, or not a decodable image),
 * ENG_ERR_LIMIT (larger than VIS_IMAGE_MAX_SIDE / VIS_IMAGE_MAX_PIXELS),
 * ENG_ERR_NO_MEMORY. */
EngStatus vis_image_load (const char *path, VisImage *out, char *reason, size_t reason_len);
void vis_image_release (VisImage *image);

/* Writes `image` to `path` (format from the extension); ENG_ERR_IO. */
EngStatus vis_image_save (const VisImage *image, const char *path);

#ifdef __cplusplus
}
#endif

/* vis-imageio.h: reading still images (PNG, JPEG, ...) for scan and tests,
 * with a clear reason when a file is missing, empty, truncated or corrupt. */
#pragma once

#include <stddef.h>

#include "eng-status.h"
#include "vis-image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Loads `path` as BGR8 into `out`, whose pixels are newly allocated (free
 * with vis_image_release).  On error `out` is zeroed, `reason` (may be NULL)
 * receives a short English phrase, and the result is ENG_ERR_IO (cannot
 * open or read), ENG_ERR_SYNTAX (empty, truncated, or not a decodable image),
 * ENG_ERR_NO_MEMORY. */
EngStatus vis_image_load (const char *path, VisImage *out, char *reason, size_t reason_len);
void vis_image_release (VisImage *image);

/* Writes `image` to `path` (format from the extension); ENG_ERR_IO. */
EngStatus vis_image_save (const VisImage *image, const char *path);

#ifdef __cplusplus
}
#endif

/* vis-baseline.h: whole-frame decoders the benchmark compares the detector
 * with (zbar over the full frame; ZXing-cpp when the build found it).  Not
 * for the live pipeline: they are slow and miss codes in busy frames, which
 * is the point of measuring them.
 */
#pragma once

#include <stddef.h>

#include "eng-status.h"
#include "vis-detect.h"
#include "vis-image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VisZbarFull VisZbarFull;

/* A zbar scanner for whole frames (QR only).  NULL when out of memory. */
VisZbarFull *vis_zbar_full_new (void);
void vis_zbar_full_free (VisZbarFull *z);

/* Scans all of `frame` (converted to grey inside when BGR).  Writes at most
 * `cap` validated Tablero detections to `out` (corners from zbar's symbol
 * outline; rotation and module size estimated from them), sets *n_out and
 * *n_foreign (decoded codes that are not stickers of `printing`, which may
 * be NULL: then every code is).  Returns ENG_ERR_INVALID_ARGUMENT for a bad
 * frame, ENG_ERR_NO_MEMORY. */
EngStatus vis_zbar_full_scan (VisZbarFull *z, const EngPrinting *printing, const VisImage *frame,
                              VisDetection *out, size_t cap, size_t *n_out, unsigned *n_foreign);

/* Any QR code zbar reads, a Tablero sticker or not: what `scan --all`
 * reports, so a user can check a camera and a sticker. */
#define VIS_CODE_TEXT_MAX 256
typedef struct {
  char text[VIS_CODE_TEXT_MAX];  /* the decoded bytes, cut at 255, NUL-terminated
                                    (may hold any byte: escape before showing) */
  size_t len;                    /* the whole decoded length */
  VisPoint corners[4];           /* TL, TR, BR, BL as printed */
  VisPoint centre;
} VisCode;

/* Scans all of `frame` like vis_zbar_full_scan and writes at most `cap`
 * codes of any content to `out`, *n_out how many.  Same errors. */
EngStatus vis_zbar_full_codes (VisZbarFull *z, const VisImage *frame, VisCode *out, size_t cap,
                               size_t *n_out);

/* True when this build has ZXing-cpp (then vis_zxing_full_scan works;
 * otherwise it returns ENG_ERR_NOT_SUPPORTED). */
int vis_zxing_available (void);
EngStatus vis_zxing_full_scan (const EngPrinting *printing, const VisImage *frame, VisDetection *out,
                               size_t cap, size_t *n_out, unsigned *n_foreign);

#ifdef __cplusplus
}
#endif

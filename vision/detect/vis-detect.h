/* vis-detect.h: finds Tablero QR stickers in a camera frame.
 *
 * Strategy (chosen by measurement, see docs/vision.md and
 * `tablero-cli bench vision`): the frame is binarised with a local-mean
 * threshold, QR finder patterns are found as "a hole holding one dark square
 * of the right proportions" in the contour tree (or, when a ring has a gap,
 * as such a square with the ring pattern around it), finder triples that
 * form a version-1 code (right angle, 14 modules apart) are grouped, each
 * code's module centres are sampled through the affine map given by its
 * three finder centres, and the code is re-drawn crisp (2 px per module,
 * white quiet zone) for zbar to decode; the rectified grey image is the
 * fallback.  Every decode is checked against the table's printing
 * (eng_printing_check: the tag and its seal, docs/tags.md); foreign codes,
 * old-format stickers and stickers whose seal is not this table's are
 * counted as foreign, never returned.  Work is spread over a fixed pool of worker
 * threads (the caller is worker 0), each with its own zbar scanner.
 *
 * Tracking mode compares the frame's 8x8 block means with those of the last
 * examination: a code whose surroundings did not change is kept as it is; a
 * changed box around a known code, or a changed area away from every known
 * code (a card put down), is searched again, and a code whose finders still
 * sit where they were, and whose own blocks did not change, keeps its
 * identity without a decode (a card flipped in place changes its blocks and
 * is decoded anew; a missed code is forgotten once another is read on its
 * spot).  A full (cold) pass runs every `cold_interval` frames, and
 * whenever a third of the frame changed at once (camera moved, light
 * switched).
 *
 * Memory: buffers grow to the largest frame and region seen and are then
 * reused; OpenCV's contour tracing and zbar still allocate small temporaries
 * internally (see docs/vision.md).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "eng-printing.h"
#include "eng-status.h"
#include "eng-tag.h"
#include "vis-image.h"

typedef struct {
  float x, y;
} VisPoint;

/* Whether (x, y) lies inside the convex quad `q` (either winding; the
 * edges count as inside). */
static inline bool
vis_quad_contains (const VisPoint q[4], double x, double y)
{
  int sign = 0;
  for (int i = 0; i < 4; i++)
    {
      const VisPoint *a = &q[i], *b = &q[(i + 1) % 4];
      double cross = ((double) b->x - a->x) * (y - a->y) - ((double) b->y - a->y) * (x - a->x);
      int side = cross > 0 ? 1 : cross < 0 ? -1 : 0;
      if (side != 0 && sign != 0 && side != sign)
        return false;
      if (side != 0)
        sign = side;
    }
  return true;
}

/* One sticker found in a frame. */
typedef struct {
  char payload[ENG_TAG_PAYLOAD_LEN + 1];  /* the card's 11-character tag (the sticker's
                                             seal checked and left out), NUL-terminated */
  EngTag tag;                             /* payload parsed */
  /* Outer corners of the 21x21-module symbol (quiet zone excluded), in the
   * code's own order: top-left, top-right, bottom-right, bottom-left as
   * printed.  Sub-pixel image coordinates (pixel centres at integers + 0.5). */
  VisPoint corners[4];
  VisPoint centre;
  float rotation_deg;       /* direction of the code's top edge (TL->TR) in the
                               image, degrees in [0, 360), clockwise (y down) */
  float module_px;          /* mean module size in pixels */
  float glare;              /* share of its modules a highlight saturated when it
                               was read (0..1): a glossy sticker catching a lamp */
} VisDetection;

typedef enum {
  VIS_DETECT_COLD = 0,      /* whole frame, no history */
  VIS_DETECT_TRACK,         /* only where the frame changed since last examined */
} VisDetectMode;

typedef struct {
  unsigned n_threads;       /* workers including the caller; 1..8, default 2 */
  unsigned max_detections;  /* capacity of a result; default 256 */
  float min_module_px;      /* smallest module size searched; default 2.0 */
  float max_module_px;      /* largest; default 12 */
  unsigned cold_interval;   /* tracking: a full pass every N frames; default 30 */
} VisDetectorOptions;

/* Counters of one call (and what was skipped). */
typedef struct {
  const VisDetection *detections;   /* owned by the detector; valid until the
                                       next detect call or vis_detector_free */
  size_t n_detections;
  unsigned n_finders;       /* finder patterns seen */
  unsigned n_candidates;    /* finder triples tried */
  unsigned n_undecoded;     /* triples zbar could not read */
  unsigned n_foreign;       /* decoded QR codes that are not stickers of this
                               table's printing (foreign, old format, wrong seal) */
  unsigned n_old_format;    /* of those, valid tags of the unsealed format 1 */
  unsigned n_wrong_seal;    /* of those, valid tags whose seal is not this printing's */
  unsigned n_reused;        /* tracking: identities kept without re-decoding */
  unsigned truncated;       /* 1 when more codes were found than max_detections */
  VisDetectMode mode_used;  /* TRACK falls back to COLD when due or without history */
} VisDetectResult;

/* Fills `opts` with the defaults above. */
void vis_detector_options_init (VisDetectorOptions *opts);

/* Creates a detector and starts its n_threads - 1 helper threads.  `opts` may
 * be NULL (defaults).  Returns NULL when memory or a thread cannot be had or
 * an option is out of range.  Free with vis_detector_free(). */
typedef struct VisDetector VisDetector;
VisDetector *vis_detector_new (const VisDetectorOptions *opts);
void vis_detector_free (VisDetector *det);

/* The printing whose stickers the detector takes (borrowed: it must outlive
 * the detector or be replaced first).  Until one is set, and with NULL, no
 * code is taken as a sticker.  Forgets the previous frame, like
 * vis_detector_reset. */
void vis_detector_set_printing (VisDetector *det, const EngPrinting *printing);

/* Detects stickers in `frame`.  Not thread-safe per detector (one caller at a
 * time).  Returns ENG_OK and fills `out` (pointers inside belong to the
 * detector); ENG_ERR_INVALID_ARGUMENT for a NULL or malformed frame;
 * ENG_ERR_NO_MEMORY when a buffer could not be had (no detections then, and
 * the next TRACK call runs cold). */
EngStatus vis_detector_detect (VisDetector *det, const VisImage *frame,
                               VisDetectMode mode, VisDetectResult *out);

/* Forgets the previous frame (the next TRACK call runs cold). */
void vis_detector_reset (VisDetector *det);

#ifdef __cplusplus
}
#endif

/* vis-exposure.h: an exposure meter that reads the stickers, not the room.
 *
 * A camera's own automatic exposure meters the whole frame: a dark wooden
 * table under one lamp makes it open up until the glossy stickers, the
 * brightest things in view, wash out to 255 and their white modules lose
 * their edges.  VisExposureMeter looks only at the pixels inside the
 * detected stickers' quads and proposes the next manual exposure time for
 * them:
 *
 *   - shorter while more than VIS_EXPOSURE_CLIP_MAX of a sticker's white
 *     is clipped (the worst sticker counts: one glossy sticker under the
 *     lamp among forty matte ones is the one to protect) (a step of 20-50%, larger the more is clipped), but never
 *     so short that the white and black modules come closer than
 *     VIS_EXPOSURE_MIN_CONTRAST levels;
 *   - longer only while nothing is clipped, the white is dim, and the
 *     brightest sticker pixel (a highlight still below clipping) stays
 *     below VIS_EXPOSURE_PEAK_TARGET at the new time (sensors are linear
 *     in time; gamma makes the guess conservative), and never back up to
 *     the time that last clipped;
 *   - still in between (a dead band), while a change is still reaching
 *     the frames (VIS_EXPOSURE_SETTLE_MS), and without stickers.
 *
 * Steps only go one way until the stickers are well exposed: the meter
 * cannot oscillate between clipped and dim.  docs/vision.md, "Exposure on
 * the stickers", gives the figures.
 *
 * The meter owns fixed buffers: an update allocates nothing.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eng-status.h"
#include "vis-detect.h"
#include "vis-image.h"
#include "vis-source.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A level at or above which a pixel counts as clipped (MJPEG cameras give
 * 250-255 where the sensor saturated). */
#define VIS_EXPOSURE_CLIP_LEVEL 250
/* Shares of the worst sticker's white pixels that are clipped: above MAX
 * the time is shortened; at or below OK it may be lengthened; between,
 * held. */
#define VIS_EXPOSURE_CLIP_MAX 0.03f
#define VIS_EXPOSURE_CLIP_OK 0.01f
/* The white modules' median below which the stickers count as dim. */
#define VIS_EXPOSURE_WHITE_DIM 150
/* Where lengthening aims the brightest sticker pixels (99.5th percentile). */
#define VIS_EXPOSURE_PEAK_TARGET 235
/* Shortening stops where the white and black modules' medians would come
 * closer than this (the decoders' local cut needs the difference). */
#define VIS_EXPOSURE_MIN_CONTRAST 48
/* After a change, frames stamped within this are not metered: the camera
 * takes a few frames to apply a new time.  At most about three changes a
 * second. */
#define VIS_EXPOSURE_SETTLE_MS 300
/* The time that last clipped is a ceiling for lengthening this long. */
#define VIS_EXPOSURE_CEILING_MS 20000

typedef enum {
  VIS_EXPOSURE_NO_STICKERS = 0, /* nothing to meter on: the time is left alone */
  VIS_EXPOSURE_SETTLING,        /* the last change is still reaching the frames */
  VIS_EXPOSURE_WELL,            /* the stickers are well exposed: held */
  VIS_EXPOSURE_SHORTER,         /* their white clips: a shorter time proposed */
  VIS_EXPOSURE_LONGER,          /* they are dim: a longer time proposed */
  VIS_EXPOSURE_AT_LIMIT,        /* a change is wanted but the camera's range, the
                                   contrast floor or the clipping ceiling stops it */
  VIS_EXPOSURE_VERDICT_COUNT
} VisExposureVerdict;

/* Static English word ("shorter"); never NULL. */
const char *vis_exposure_verdict_to_string (VisExposureVerdict verdict);

/* What one frame's stickers showed and the time to use next. */
typedef struct {
  VisExposureVerdict verdict;
  unsigned stickers;            /* stickers metered */
  unsigned samples;             /* their pixels looked at */
  float clipped;                /* the worst sticker's share of white pixels at
                                   VIS_EXPOSURE_CLIP_LEVEL or more */
  float white, black;           /* medians of all their white and of all their black modules */
  float peak;                   /* the highest sticker's 99.5th percentile */
  float glare;                  /* mean share of modules the detector saw under a highlight
                                   when it read them (kept while tracked: not metered on) */
  int time;                     /* the exposure time to use from now, 100 us units */
} VisExposureReading;

typedef struct VisExposureMeter VisExposureMeter;

/* A meter with no history.  NULL when memory cannot be had.  Free with
 * vis_exposure_meter_free (NULL is fine). */
VisExposureMeter *vis_exposure_meter_new (void);
void vis_exposure_meter_free (VisExposureMeter *meter);

/* Forgets the last change and the clipping ceiling (a new camera, the
 * user set a time by hand). */
void vis_exposure_meter_reset (VisExposureMeter *meter);

/* Meters `frame` (BGR8: the brightest channel; GRAY8) inside the quads of
 * `detections` (n may be 0) taken at exposure time `time` within `range`,
 * and fills `out`; out->time is `time` unless a change is proposed.  A
 * `time` other than the one last proposed forgets the history first.
 * ENG_ERR_INVALID_ARGUMENT (out untouched) for a NULL argument, a
 * malformed frame or range, or a time outside the range. */
EngStatus vis_exposure_meter_update (VisExposureMeter *meter, const VisImage *frame,
                                     int64_t timestamp_ns, const VisDetection *detections,
                                     size_t n, int time, const VisExposureRange *range,
                                     VisExposureReading *out);

/* The pipeline's part: when `controls` ask for a manual exposure metered on
 * the stickers (meter_stickers) and `source` has a manual exposure time,
 * meters `frame` and, when a new time is proposed, writes it into
 * controls->exposure_time and sets that time alone on the source
 * (vis_source_set_exposure_time: focus and flicker are not set again).  Returns true when it did; false when
 * metering is off, the source has no exposure time, or the time holds.
 * `out` (may be NULL) gets the reading; its verdict is NO_STICKERS when
 * nothing was metered. */
bool vis_exposure_meter_serve (VisExposureMeter *meter, VisSource *source,
                               VisCameraControls *controls, const VisFrame *frame,
                               const VisDetection *detections, size_t n,
                               VisExposureReading *out);

#ifdef __cplusplus
}
#endif

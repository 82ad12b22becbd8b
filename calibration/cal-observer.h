/* cal-observer.h: one camera frame in, the committed table snapshot out.
 *
 * Chains the sticker detector (tracking mode), the table calibration (which
 * recalibrates itself when the camera or the table moves) and the tracker
 * (identities, hold and occlusion rules) into the one thing the live referee
 * needs.  The app's pipeline thread and `tablero-cli watch` both use it, so
 * what is refereed on screen is what is refereed headless.
 *
 * Until the four anchors have been seen the snapshot is empty with
 * `calibrated` = 0: positions in pixels would mean nothing to the rules.
 * After warm-up a frame allocates nothing here (see vis-detect.h for what
 * OpenCV and zbar do inside).  One thread at a time.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "cal-table.h"
#include "eng-snapshot.h"
#include "eng-status.h"
#include "vis-detect.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct CalObserver CalObserver;

typedef struct {
  const char *zones_path;        /* data/zones/GAME.zones; NULL: no zones */
  const char *calibration_path;  /* a saved calibration to start from; NULL:
                                    calibrate from the anchors in view */
  double sticker_mm;             /* printed sticker side; 0 = the default 40 */
  unsigned n_threads;            /* detector workers; 0 = 2 */
  const EngPrinting *printing;   /* the table's printing: only its sealed stickers
                                    are read (borrowed; must outlive the observer).
                                    NULL reads none */
} CalObserverOptions;

/* A new observer.  On error *out is NULL and `err` (may be NULL) names the
 * file and the reason: ENG_ERR_IO, ENG_ERR_SYNTAX, ... from the zone or
 * calibration file, ENG_ERR_NO_MEMORY when the detector cannot start. */
EngStatus cal_observer_new (const CalObserverOptions *opts, CalObserver **out, EngParseError *err);
void cal_observer_free (CalObserver *obs);

/* Processes one frame taken at `time_ns` (non-decreasing) and writes the
 * committed snapshot into `out` (caller-owned).  `changed` (may be NULL) is
 * set when the snapshot differs from the previous call's (its seq moved).
 * ENG_ERR_INVALID_ARGUMENT for a malformed frame or time going backwards. */
EngStatus cal_observer_process (CalObserver *obs, const VisImage *frame, int64_t time_ns,
                                EngSnapshot *out, bool *changed);

/* The last frame's detections (owned by the observer, valid until the next
 * process call) and its calibration state. */
const VisDetectResult *cal_observer_detections (const CalObserver *obs);
const CalTable *cal_observer_table (const CalObserver *obs);
/* What the last frame told the calibration (doubled anchors or seat
 * markers, recalibration); owned by the observer, all zero before the first
 * frame. */
const CalObservation *cal_observer_observation (const CalObserver *obs);
/* How many times the table was (re)calibrated from the anchors. */
unsigned cal_observer_calibrations (const CalObserver *obs);
/* Asks for a recalibration from the anchors on the next frame that shows
 * them all (cal_table_request_recalibration); the tracker and the game go
 * on.  Same thread as cal_observer_process. */
void cal_observer_request_recalibration (CalObserver *obs);

#ifdef __cplusplus
}
#endif

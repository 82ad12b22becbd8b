/* vis-track.h: turns per-frame detections into a stable table snapshot.
 *
 * Identities: a face sticker is unique, so it is followed by payload (seen
 * elsewhere while unseen at its old place = it moved); deck backs are all
 * alike and are followed by position only.  Times come from the frames.
 *
 * Commitment rules (EngSnapshot holds only committed state):
 *  - a new item enters, and a move (beyond `move_tolerance` code sizes) is
 *    committed, once the card is at rest, judged from its own sightings:
 *    three or more over at least `rest_ns` (default 50 ms) within
 *    `rest_tolerance` code sizes (default 0.02) of the newest, and no drift
 *    adding up over the sightings around it (a slow slide is not at rest).
 *    Detections too noisy for that count after `hold_ns` (default 150 ms)
 *    within four tolerances.  A card still sliding is never committed on
 *    the way (a committed one is flagged ENG_SNAP_MOVING meanwhile);
 *  - a back not decoded for a few frames (motion blur) is looked for where
 *    its last speed takes it, as well as where it was last seen;
 *  - an item not seen stays, flagged ENG_SNAP_OCCLUDED, for `grace_ns`
 *    (default 2 s), then leaves; when another item settles on its spot it
 *    leaves at once (the card was flipped or covered for good);
 *  - a face payload seen at two places in one frame flags both items
 *    ENG_SNAP_DUPLICATE (for as long as both stay).
 *
 * Positions: when a locate function is given (calibration's
 * cal_table_locate), items live in table millimetres with zones; otherwise in
 * image pixels (EngSnapshot.calibrated = 0).  A snapshot's `seq` is the
 * tracker's revision: it changes only when committed content changes; its
 * `tracker` is this tracker's own number (another for every tracker made).  Fixed capacity, no allocation after
 * vis_tracker_new.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "eng-snapshot.h"
#include "eng-status.h"
#include "vis-detect.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a detection lies on the table. */
typedef struct {
  double x, y;              /* table mm */
  float rotation_deg;       /* [0, 360) clockwise seen from above */
  float size;               /* the code's side in mm */
  EngZone zone;
} VisTrackPlace;

/* Fills `out` for detection `d`; returns false when it cannot (no
 * calibration): the tracker then works in image pixels. */
typedef bool (*VisTrackLocate) (void *ctx, const VisDetection *d, VisTrackPlace *out);

typedef struct {
  int64_t rest_ns;          /* default 50 ms: at 30 fps, three sightings */
  float rest_tolerance;     /* in code sizes; default 0.02 */
  int64_t hold_ns;          /* default 150 ms: the bound for detections too
                               noisy to judge rest by rest_tolerance, and how
                               long an item not committed yet may go unseen */
  int64_t grace_ns;         /* default 2 s */
  float move_tolerance;     /* in code sizes; default 0.5 */
  float match_radius;       /* in code sizes, how far a back may move between
                               frames and stay itself; default 2.5 */
} VisTrackerOptions;

typedef struct VisTracker VisTracker;

void vis_tracker_options_init (VisTrackerOptions *opts);

/* `opts` may be NULL (defaults).  Returns NULL when out of memory. */
VisTracker *vis_tracker_new (const VisTrackerOptions *opts);
void vis_tracker_free (VisTracker *tracker);

/* Sets (or clears, with NULL) the function placing detections on the table.
 * `ctx` is borrowed and must outlive its use.  Changing it forgets every
 * track (positions change meaning). */
void vis_tracker_set_locate (VisTracker *tracker, VisTrackLocate locate, void *ctx);

/* Feeds one frame's detections (time `time_ns`, non-decreasing) and writes
 * the committed state into `out` (caller-owned).  `n_foreign` is copied into
 * the snapshot.  Returns ENG_ERR_INVALID_ARGUMENT for NULL arguments or time
 * going backwards; ENG_ERR_LIMIT when more items than the capacity were seen
 * (the snapshot still holds the first ENG_SNAPSHOT_MAX_ITEMS). */
EngStatus vis_tracker_update (VisTracker *tracker, const VisDetection *detections, size_t n,
                              unsigned n_foreign, int64_t time_ns, EngSnapshot *out);

/* The zones changed under the cards (a seat marker found late, or moved):
 * every item takes the zone of where it lies the next time it is seen
 * there, a change of zone without a move.  Between such calls a card's zone
 * changes only with a move, so a card on a zone's edge does not flicker. */
void vis_tracker_rezone (VisTracker *tracker);

/* Forgets every track (e.g. after recalibration moved the table frame). */
void vis_tracker_reset (VisTracker *tracker);

#ifdef __cplusplus
}
#endif

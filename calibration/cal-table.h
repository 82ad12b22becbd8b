/* cal-table.h: the table plane, seats and zones, from the stickers in view.
 *
 * Table frame (millimetres): origin at anchor 1's sticker centre, x towards
 * anchor 2, y towards anchor 4 (anchors 1-2-3-4 go clockwise round the play
 * area seen from above; see docs/calibration-format.md).  The image-to-table
 * homography comes from the four anchors' centres, after lens undistortion
 * when a lens calibration is loaded.  The anchors' table positions are either
 * given (measured, or read from a calibration file) or derived from the
 * printed sticker size: the anchors are taken to form a rectangle whose
 * sides are measured in sticker widths.
 *
 * Seats come from seat markers: position, and "forward" towards the table
 * centre (the anchors' centroid).  Zones (cal-zones.h) are placed relative to
 * seats and the centre.  The table recalibrates itself (cal_table_observe)
 * when all four anchors are seen away from where they were calibrated.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "cal-lens.h"
#include "cal-zones.h"
#include "eng-status.h"
#include "vis-detect.h"
#include "vis-track.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CAL_MAX_SEATS 8

typedef struct CalTable CalTable;

/* A new, uncalibrated table: 40 mm stickers with 2-module quiet zones,
 * recalibration beyond 4 px, no lens, no zones.  NULL when out of memory. */
CalTable *cal_table_new (void);
void cal_table_free (CalTable *table);

/* Printed sticker side (quiet zone included) and quiet zone in modules;
 * ENG_ERR_INVALID_ARGUMENT when out of range (5-500 mm, 0-8 modules). */
EngStatus cal_table_set_sticker (CalTable *table, double sticker_mm, int quiet_modules);
/* Measured anchor centres (anchor 1..4 -> mm[0..3]); forgets the calibration. */
EngStatus cal_table_set_anchor_layout (CalTable *table, const double mm[4][2]);
/* Copies `lens` (NULL clears); forgets the calibration. */
void cal_table_set_lens (CalTable *table, const CalLens *lens);
/* Copies `zones` (NULL clears). */
void cal_table_set_zones (CalTable *table, const CalZones *zones);
/* The game whose zone file this calibration was made with ("" if none): a
 * loaded calibration names it, the caller loads data/zones/GAME.zones. */
const char *cal_table_zones_game (const CalTable *table);
/* Anchor displacement (px) beyond which cal_table_observe recalibrates. */
void cal_table_set_recalibrate_px (CalTable *table, double px);

/* Calibrates from one frame's detections (image `width` x `height`).
 * Returns ENG_OK; ENG_ERR_NOT_FOUND when not all four anchors are among the
 * detections (the table is unchanged); ENG_ERR_DUPLICATE_ID when an anchor
 * number is seen at two places (a doubled sticker: the table is unchanged);
 * ENG_ERR_INCONSISTENT when they are degenerate (collinear, or a lens
 * calibration for another image size).  A seat marker seen at two places is
 * not used: its seat keeps the place it had. */
EngStatus cal_table_calibrate (CalTable *table, const VisDetection *dets, size_t n, int width, int height);

typedef struct {
  bool recalibrated;        /* the homography changed (first time, or moved) */
  bool anchors_moved;       /* anchors seen away from their place but not all
                               four visible: the old calibration is suspect */
  bool seats_changed;
  unsigned anchors_seen;    /* usable anchors: a doubled one does not count */
  /* Stickers seen at two places in this frame, a reprint or a forgery:
   * neither copy is used, the table keeps its last good anchors and seats.
   * Bit n-1 of doubled_anchors is anchor n; doubled_seats lists seat marker
   * numbers. */
  unsigned doubled_anchors;
  unsigned n_doubled_seats;
  unsigned doubled_seats[CAL_MAX_SEATS];
} CalObservation;

/* Writes into `buf` (`size` bytes, NUL-terminated) an English sentence
 * naming the doubled stickers of `obs`, "anchor 2 and seat marker 3 seen
 * twice: ..."; returns false (buf "") when nothing was doubled. */
bool cal_observation_describe_doubles (const CalObservation *obs, char *buf, size_t size);

/* Feeds a frame: calibrates when possible and not yet done, recalibrates
 * when all four anchors are seen and one moved beyond the threshold, and
 * updates seats from seat markers.  `out` may be NULL. */
EngStatus cal_table_observe (CalTable *table, const VisDetection *dets, size_t n, int width, int height,
                             CalObservation *out);

bool cal_table_is_calibrated (const CalTable *table);
/* The table asks to be measured again (the "Recalibrate" button): the next
 * frame that shows all four anchors recalibrates, anchor layout included,
 * whether or not they moved.  Until then the current calibration stays in
 * use, so play goes on.  A frame whose anchors are degenerate keeps the old
 * calibration and clears the request (cal_table_observe returns the error). */
void cal_table_request_recalibration (CalTable *table);
/* true when a lens calibration (distortion correction) is in use. */
bool cal_table_has_lens (const CalTable *table);
/* Anchor centres (mm) in use; false when not known yet. */
bool cal_table_anchor_layout (const CalTable *table, double mm[4][2]);
/* The table centre (anchors' centroid), mm. */
void cal_table_centre (const CalTable *table, double *x, double *y);
/* Image pixel -> table mm; ENG_ERR_STATE when not calibrated. */
EngStatus cal_table_image_to_table (const CalTable *table, double x_px, double y_px, double *x_mm,
                                    double *y_mm);

/* Table mm -> image pixel (undistorted image: lens distortion is not put
 * back); ENG_ERR_STATE when not calibrated. */
EngStatus cal_table_table_to_image (const CalTable *table, double x_mm, double y_mm, double *x_px,
                                    double *y_px);

/* Every zone of the loaded zone file as placed on this table, corners in
 * image pixels (cal_zones_outlines, then cal_table_table_to_image).  Returns
 * how many there are (0 when not calibrated or without zones); writes at
 * most `max`. */
size_t cal_table_zone_outlines (const CalTable *table, CalZoneOutline *out, size_t max);

size_t cal_table_n_seats (const CalTable *table);
/* Seats in marker-number order; NULL past the end.  Owned by the table. */
const CalSeat *cal_table_seat (const CalTable *table, size_t i);

/* The seat of marker `number`, NULL when none.  Owned by the table. */
const CalSeat *cal_table_seat_by_number (const CalTable *table, unsigned number);

/* VisTrackLocate for vis_tracker_set_locate(): `ctx` is a CalTable. */
bool cal_table_locate (void *ctx, const VisDetection *d, VisTrackPlace *out);

/* Writes the calibration (docs/calibration-format.md); ENG_ERR_IO. */
EngStatus cal_table_save (const CalTable *table, const char *path);
/* Reads one; on error *out is NULL and `err` (may be NULL) says where and why:
 * ENG_ERR_IO, ENG_ERR_SYNTAX, ENG_ERR_UNKNOWN_ATTRIBUTE, ENG_ERR_INCONSISTENT. */
EngStatus cal_table_load (const char *path, CalTable **out, EngParseError *err);
EngStatus cal_table_parse (const char *text, size_t len, const char *source, CalTable **out,
                           EngParseError *err);

#ifdef __cplusplus
}
#endif

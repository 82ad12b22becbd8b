/* ui-calibration-facts.h: what the camera pipeline knows about the table's
 * calibration on one frame, as a plain value, and the advice it leads to.
 *
 * The pipeline's worker thread fills one per frame (no GTK there) and the
 * calibration page shows it.  Pure GLib: the advice is tested without a
 * display (tests/app/test-calibration-facts.c).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define UI_CALIBRATION_MAX_SEATS 8
/* Module sizes (px): below the first the detector starts to miss codes on a
 * soft webcam image (blur sigma 1 px, JPEG 80); from the second on it reads
 * 99% of the stickers on physically rendered tables, glare and all.
 * Measured, docs/stickers.md. */
#define UI_CALIBRATION_MIN_MODULE_PX 2.0
#define UI_CALIBRATION_GOOD_MODULE_PX 2.6
/* The largest picture Tablero asks a camera for (4K). */
#define UI_CALIBRATION_UHD_WIDTH 3840

/* How the exposure metered on the stickers goes (Camera controls, "Meter
 * on the stickers"; vis-exposure.h). */
typedef enum {
  UI_EXPOSURE_METER_OFF = 0,         /* not asked (or the exposure is automatic) */
  UI_EXPOSURE_METER_NO_CONTROL,      /* asked, but the camera has no exposure time to set */
  UI_EXPOSURE_METER_WAITING,         /* no sticker in view to meter on */
  UI_EXPOSURE_METER_ADJUSTING,       /* the time is moving towards the stickers */
  UI_EXPOSURE_METER_HOLDING,         /* the stickers are well exposed */
  UI_EXPOSURE_METER_CLIPS_AT_LIMIT,  /* they still wash out at the shortest time */
  UI_EXPOSURE_METER_DIM_AT_LIMIT,    /* they are dim at the longest time */
} UiExposureMeter;

typedef struct {
  gboolean calibrated;           /* the table has a homography */
  guint calibrations;            /* how many times it was (re)calibrated */
  gboolean anchor_seen[4];       /* anchors 1..4 on this frame */
  float anchor_x[4], anchor_y[4];/* their centres, image px (when seen) */
  guint n_seats;                 /* seat markers on this frame */
  guint seat_number[UI_CALIBRATION_MAX_SEATS];
  float seat_x[UI_CALIBRATION_MAX_SEATS], seat_y[UI_CALIBRATION_MAX_SEATS];
  double px_per_mm;              /* image px per table mm at the centre; 0 unknown */
  guint n_cards;                 /* card stickers (faces, backs, commands) seen */
  float module_px_mean;          /* their mean module size, px; 0 without any */
  float module_px_min;
  int width, height;             /* the frame */
  gboolean from_file;            /* started from a saved calibration file */
  gboolean lens_loaded;          /* a lens calibration is in use */
  /* Stickers seen at two places on this frame (a reprint or a forgery):
   * neither copy is used.  Bit n-1 of doubled_anchors is anchor n. */
  guint doubled_anchors;
  guint n_doubled_seats;
  guint doubled_seat[UI_CALIBRATION_MAX_SEATS];
  guint n_glare;                 /* card stickers read through a highlight (glossy) */
  UiExposureMeter exposure_meter;
  int exposure_time;             /* metering: the time now, in units of 100 us */
  float exposure_clipped;        /* metering: share of the stickers' white washed out */
} UiCalibrationFacts;

/* Plain-words guidance for the table, most important first: what is wrong
 * and what to do about it ("Anchor 3 is not in view: ...").  Writes at most
 * `max` newly allocated strings into `advice` (g_free each) and returns how
 * many; "The table is calibrated..." when nothing is wrong, "No picture
 * from the camera yet..." before the first frame. */
guint ui_calibration_facts_advice (const UiCalibrationFacts *facts, char **advice, guint max);

/* One sentence naming the doubled stickers of `facts` and what to do, in
 * the table's language (newly allocated); NULL when nothing is doubled. */
char *ui_calibration_facts_doubles (const UiCalibrationFacts *facts);

/* Whether the sticker `kind` ('A' anchor, 'S' seat marker: EngTagKind)
 * numbered `number` is one of the doubled ones. */
gboolean ui_calibration_facts_is_doubled (const UiCalibrationFacts *facts, int kind, guint number);

G_END_DECLS

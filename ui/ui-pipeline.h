/* ui-pipeline.h: the camera pipeline run off the main thread for the app.
 *
 * A worker thread reads frames from a VisSource, turns each into detections
 * and the committed table snapshot (CalObserver) and publishes the newest;
 * the main thread picks it up in an idle callback and emits ::frame.
 * Frames the main thread has no time for are dropped, never queued: the
 * view always shows the newest frame.  Changes of the snapshot are queued
 * (up to 32): ::snapshot is emitted for each, in order, so the referee sees
 * every change the camera saw however slow the main thread is.
 */
#pragma once

#include <gtk/gtk.h>

#include "cal-zones.h"
#include "ui-calibration-facts.h"
#include "vis-camera.h"
#include "vis-detect.h"

G_BEGIN_DECLS

#define UI_PIPELINE_ERROR (ui_pipeline_error_quark ())
GQuark ui_pipeline_error_quark (void);

typedef enum {
  UI_PIPELINE_ERROR_NO_CAMERA,    /* a normal state: nothing to open */
  UI_PIPELINE_ERROR_SOURCE,       /* the spec or the device is unusable */
  UI_PIPELINE_ERROR_DETECTOR,
} UiPipelineError;

#define UI_TYPE_PIPELINE (ui_pipeline_get_type ())
G_DECLARE_FINAL_TYPE (UiPipeline, ui_pipeline, UI, PIPELINE, GObject)

/* A new, stopped pipeline for `source_spec`, placing cards in the zones of
 * `game` (both copied).  Transfer full. */
UiPipeline *ui_pipeline_new (const char *source_spec, const char *game);

/* Opens the source and starts the worker.  Returns FALSE with `error` set
 * (UI_PIPELINE_ERROR_NO_CAMERA when no such camera is present). */
gboolean ui_pipeline_start (UiPipeline *self, GError **error);

/* Stops and joins the worker; safe to call twice. */
void ui_pipeline_stop (UiPipeline *self);

/* A testing aid for pictures of a moment (--screenshot-freeze): the source
 * is read up to its `n`th frame (counted from the start) and no further,
 * so the table shows that moment however slow the machine; 0 reads on. */
void ui_pipeline_freeze_at (UiPipeline *self, guint n);
/* Whether the pipeline stopped at its freeze frame and that frame has been
 * emitted. */
gboolean ui_pipeline_get_frozen (UiPipeline *self);

const char *ui_pipeline_get_source_spec (UiPipeline *self);
/* Human description of the open source, "" before start. */
const char *ui_pipeline_get_description (UiPipeline *self);

/* The newest frame's detections, valid until the next ::frame emission.
 * Owned by the pipeline. */
const VisDetection *ui_pipeline_get_detections (UiPipeline *self, guint *n_detections);

/* The calibrated zones of the newest frame, corners in image pixels
 * (none before the table is calibrated); valid until the next ::frame. */
const CalZoneOutline *ui_pipeline_get_zones (UiPipeline *self, guint *n_zones);

/* Starts from the calibration saved at `path` (copied; NULL or a missing
 * file: calibrate from the anchors in view).  Before start only. */
void ui_pipeline_set_calibration_file (UiPipeline *self, const char *path);

/* The newest frame's calibration facts; valid until the next ::frame.
 * Owned by the pipeline. */
const UiCalibrationFacts *ui_pipeline_get_calibration (UiPipeline *self);

/* Asks the worker to write the table's calibration to `path` (copied;
 * docs/calibration-format.md) on its next frame; the outcome comes as a
 * ::status message ("Calibration saved to ..."). */
void ui_pipeline_save_calibration (UiPipeline *self, const char *path);

/* The camera controls (focus, exposure, anti-flicker; vis-camera.h) the
 * source is opened with, or, once started, set on the next frame without
 * reopening it.  What the camera did not do as asked comes as one ::status
 * message ("Camera controls: ..."), again whenever that changes.
 * Thread-safe; `controls` is copied. */
void ui_pipeline_set_camera_controls (UiPipeline *self, const VisCameraControls *controls);

/* The table asks to be measured again (docs/calibration-format.md,
 * "Recalibration"): the next frame showing all four anchors recalibrates,
 * anchor layout included; the game and the tracker go on meanwhile.
 * Thread-safe. */
void ui_pipeline_request_recalibration (UiPipeline *self);

/* Frames shown per second over the last second (for the status line). */
double ui_pipeline_get_fps (UiPipeline *self);

/* Signals:
 *   ::frame (GdkTexture *texture)       a new frame and its detections
 *   ::snapshot (const EngSnapshot *)    a committed change of the table
 *   ::status (const char *message)      disconnected, reconnected, errors
 */

G_END_DECLS

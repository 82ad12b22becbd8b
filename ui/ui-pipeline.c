#include "ui-pipeline.h"

#include <glib/gi18n-lib.h>

#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "cal-observer.h"
#include "eng-cardset.h"
#include "prt-store.h"
#include "eng-data.h"
#include "vis-exposure.h"
#include "vis-source.h"

G_DEFINE_QUARK (ui-pipeline-error-quark, ui_pipeline_error)

#define MAX_DETECTIONS 256
#define MAX_ZONES 64
#define SNAPSHOT_QUEUE 32   /* changes the main thread may fall behind by */

/* One published result: pixels (BGR) plus detections.  The worker fills the
 * back slot and swaps the two pointers under the lock; the main thread
 * reads the ready slot under the same lock.  Buffers are reused, so a running pipeline allocates
 * only the GBytes each texture needs. */
typedef struct {
  guint8 *pixels;
  gsize capacity;
  int width, height;
  gsize stride;
  VisDetection detections[MAX_DETECTIONS];
  guint n_detections;
  EngSnapshot snapshot;
  CalZoneOutline zones[MAX_ZONES];
  guint n_zones;
  UiCalibrationFacts facts;
  gboolean fresh;
} Slot;

struct _UiPipeline
{
  GObject parent_instance;

  char *spec;
  char *game;
  char *description;
  char *calibration_path;  /* load at start (NULL: calibrate from the anchors) */
  VisSource *source;
  CalObserver *observer;
  VisExposureMeter *meter; /* worker only: the exposure metered on the stickers */
  EngPrinting *printing;   /* the table's printing of the game's set: what the
                              observer reads and the demo paints */
  GThread *worker;
  gint stop_requested;     /* atomic */
  gint recalibration_requested;  /* atomic: the worker passes it to the observer */
  gint freeze_at;          /* atomic: the frame the worker stops after (0: none) */
  gint frozen;             /* atomic: the worker stopped there */

  GMutex lock;
  Slot *slots;             /* two, on the heap: GObject instances stay small */
  Slot *back;              /* worker only */
  Slot *ready;             /* under lock */
  char status_message[512];
  char *save_request;      /* under lock: a path the worker saves the calibration to */
  gboolean status_fresh;
  VisCameraControls controls;    /* under lock: what the camera is asked for */
  gboolean controls_changed;     /* under lock: the worker sets them on its next frame */
  char controls_message[600];    /* under lock: what became of them, said once */
  gboolean controls_fresh;
  guint idle_id;           /* under lock: a dispatch is pending */
  EngSnapshot *queued;     /* under lock: SNAPSHOT_QUEUE changed snapshots, a ring */
  guint queue_head, n_queued;

  /* main thread only */
  VisDetection *shown;     /* MAX_DETECTIONS */
  guint n_shown;
  CalZoneOutline *shown_zones;  /* MAX_ZONES */
  guint n_shown_zones;
  UiCalibrationFacts shown_facts;
  EngSnapshot *snapshot;
  EngSnapshot *delivering; /* SNAPSHOT_QUEUE: the queued changes, taken out to emit */
  gint64 fps_window_start;
  guint fps_frames;
  double fps;
};

G_DEFINE_FINAL_TYPE (UiPipeline, ui_pipeline, G_TYPE_OBJECT)

/* Under lock: every change of the table reaches the referee, in order,
 * however far the main thread falls behind the frames on a slow laptop (a
 * card laid and taken between two frames it shows is still seen laid).
 * Past SNAPSHOT_QUEUE changes the oldest goes; the newest holds the table. */
static void
queue_snapshot_locked (UiPipeline *self, const EngSnapshot *snapshot)
{
  if (self->n_queued == SNAPSHOT_QUEUE)
    {
      self->queue_head = (self->queue_head + 1) % SNAPSHOT_QUEUE;
      self->n_queued--;
    }
  self->queued[(self->queue_head + self->n_queued) % SNAPSHOT_QUEUE] = *snapshot;
  self->n_queued++;
}

/* Under lock: the queued changes into `delivering`, oldest first; how many. */
static guint
take_snapshots_locked (UiPipeline *self)
{
  guint n = self->n_queued;
  for (guint i = 0; i < n; i++)
    self->delivering[i] = self->queued[(self->queue_head + i) % SNAPSHOT_QUEUE];
  self->queue_head = self->n_queued = 0;
  return n;
}

enum { SIGNAL_FRAME, SIGNAL_SNAPSHOT, SIGNAL_STATUS, N_SIGNALS };
static guint signals[N_SIGNALS];

static gboolean
dispatch_on_main (gpointer data)
{
  UiPipeline *self = UI_PIPELINE (data);
  g_autoptr (GdkTexture) texture = NULL;
  char message[sizeof self->status_message] = "";

  g_mutex_lock (&self->lock);
  self->idle_id = 0;
  Slot *ready = self->ready;
  if (ready->fresh)
    {
      g_autoptr (GBytes) bytes = g_bytes_new (ready->pixels, ready->stride * (gsize) ready->height);
      texture = gdk_memory_texture_new (ready->width, ready->height, GDK_MEMORY_B8G8R8,
                                        bytes, ready->stride);
      memcpy (self->shown, ready->detections, ready->n_detections * sizeof (VisDetection));
      self->n_shown = ready->n_detections;
      memcpy (self->shown_zones, ready->zones, ready->n_zones * sizeof (CalZoneOutline));
      self->n_shown_zones = ready->n_zones;
      self->shown_facts = ready->facts;
      ready->fresh = FALSE;
    }
  guint n_changes = take_snapshots_locked (self);
  if (self->status_fresh)
    {
      g_strlcpy (message, self->status_message, sizeof message);
      self->status_fresh = FALSE;
    }
  char controls[sizeof self->controls_message] = "";
  if (self->controls_fresh)
    {
      g_strlcpy (controls, self->controls_message, sizeof controls);
      self->controls_fresh = FALSE;
    }
  g_mutex_unlock (&self->lock);

  if (texture != NULL)
    {
      gint64 now = g_get_monotonic_time ();
      self->fps_frames++;
      if (now - self->fps_window_start >= G_USEC_PER_SEC)
        {
          self->fps = self->fps_frames * (double) G_USEC_PER_SEC / (double) (now - self->fps_window_start);
          self->fps_frames = 0;
          self->fps_window_start = now;
        }
      g_signal_emit (self, signals[SIGNAL_FRAME], 0, texture);
    }
  for (guint i = 0; i < n_changes; i++)
    {
      *self->snapshot = self->delivering[i];
      g_signal_emit (self, signals[SIGNAL_SNAPSHOT], 0, self->snapshot);
    }
  if (controls[0] != '\0')
    g_signal_emit (self, signals[SIGNAL_STATUS], 0, controls);
  if (message[0] != '\0')
    g_signal_emit (self, signals[SIGNAL_STATUS], 0, message);
  return G_SOURCE_REMOVE;
}

/* Under lock: makes sure one dispatch is pending on the main context.
 * Below input, drawing and D-Bus (a screen reader's questions): on a slow
 * laptop the table stays answerable while frames wait (the newest is the
 * one shown; the older ones are dropped). */
static void
schedule_dispatch_locked (UiPipeline *self)
{
  if (self->idle_id == 0)
    self->idle_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, dispatch_on_main,
                                     g_object_ref (self), g_object_unref);
}

static void
publish_status (UiPipeline *self, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static void
publish_status (UiPipeline *self, const char *fmt, ...)
{
  va_list ap;
  g_mutex_lock (&self->lock);
  va_start (ap, fmt);
  g_vsnprintf (self->status_message, sizeof self->status_message, fmt, ap);
  va_end (ap);
  self->status_fresh = TRUE;
  schedule_dispatch_locked (self);
  g_mutex_unlock (&self->lock);
}

/* Worker: sets controls asked for since the last frame (`asked`: as the
 * window last asked them) into `current` (as the camera has them: a
 * metered time is kept while the metering goes on) and the camera, and says once what the camera did not do as asked (a changed
 * report: a new message; one that emptied says nothing).  Its own slot: a
 * status said in the same frame (calibrated, reconnected) does not hide it. */
static void
serve_controls (UiPipeline *self, VisCameraControls *asked, VisCameraControls *current, char *last_report,
                gsize size)
{
  gboolean changed;
  g_mutex_lock (&self->lock);
  changed = self->controls_changed;
  if (changed)
    {
      vis_camera_controls_follow (asked, &self->controls, current, current);
      *asked = self->controls;
    }
  self->controls_changed = FALSE;
  g_mutex_unlock (&self->lock);
  if (changed)
    vis_source_set_controls (self->source, current, NULL);
  const char *report = vis_source_controls_report (self->source);
  if (strcmp (report, last_report) == 0)
    return;
  g_strlcpy (last_report, report, size);
  if (report[0] == '\0')
    return;
  g_auto (GStrv) lines = g_strsplit (report, "\n", -1);
  g_autofree char *joined = g_strjoinv ("; ", lines);
  g_mutex_lock (&self->lock);
  g_snprintf (self->controls_message, sizeof self->controls_message, _ ("Camera controls: %s."), joined);
  self->controls_fresh = TRUE;
  schedule_dispatch_locked (self);
  g_mutex_unlock (&self->lock);
}

static gboolean
copy_frame (Slot *slot, const VisFrame *frame)
{
  const VisImage *img = &frame->image;
  if (img->format != VIS_PIXEL_BGR8)
    return FALSE;
  gsize stride = (gsize) img->width * 3;
  gsize need = stride * (gsize) img->height;
  if (need > slot->capacity)
    {
      slot->pixels = g_realloc (slot->pixels, need);
      slot->capacity = need;
    }
  for (int y = 0; y < img->height; y++)
    memcpy (slot->pixels + (gsize) y * stride, img->data + (gsize) y * img->stride, stride);
  slot->width = img->width;
  slot->height = img->height;
  slot->stride = stride;
  return TRUE;
}

/* Files and the demo deliver frames as fast as asked: pace them by their
 * timestamps so the table plays at its own speed.  Cameras pace themselves. */
static void
pace (gint64 *start_us, gint64 *first_ns, const VisFrame *frame)
{
  if (*start_us == 0 || frame->timestamp_ns < *first_ns)
    {
      *start_us = g_get_monotonic_time ();
      *first_ns = frame->timestamp_ns;
      return;
    }
  gint64 due = *start_us + (frame->timestamp_ns - *first_ns) / 1000;
  gint64 wait = due - g_get_monotonic_time ();
  if (wait > 0 && wait < G_USEC_PER_SEC)
    g_usleep ((gulong) wait);
}

/* The calibration facts of the frame just processed (worker thread: plain
 * data only, no allocation). */
static void
gather_facts (UiPipeline *self, UiCalibrationFacts *f, const VisImage *image)
{
  const CalTable *table = cal_observer_table (self->observer);
  const VisDetectResult *result = cal_observer_detections (self->observer);
  memset (f, 0, sizeof *f);
  f->calibrated = cal_table_is_calibrated (table);
  f->calibrations = cal_observer_calibrations (self->observer);
  f->width = image->width;
  f->height = image->height;
  f->from_file = self->calibration_path != NULL;
  f->lens_loaded = cal_table_has_lens (table);
  const CalObservation *obs = cal_observer_observation (self->observer);
  f->doubled_anchors = obs->doubled_anchors;
  f->n_doubled_seats = MIN (obs->n_doubled_seats, UI_CALIBRATION_MAX_SEATS);
  for (guint s = 0; s < f->n_doubled_seats; s++)
    f->doubled_seat[s] = obs->doubled_seats[s];
  double module_sum = 0;
  for (size_t i = 0; i < result->n_detections; i++)
    {
      const VisDetection *d = &result->detections[i];
      switch (d->tag.kind)
        {
        case ENG_TAG_ANCHOR:
          if (d->tag.serial >= 1 && d->tag.serial <= 4)
            {
              f->anchor_seen[d->tag.serial - 1] = TRUE;
              f->anchor_x[d->tag.serial - 1] = d->centre.x;
              f->anchor_y[d->tag.serial - 1] = d->centre.y;
            }
          break;
        case ENG_TAG_SEAT:
          if (f->n_seats < UI_CALIBRATION_MAX_SEATS)
            {
              f->seat_number[f->n_seats] = d->tag.serial;
              f->seat_x[f->n_seats] = d->centre.x;
              f->seat_y[f->n_seats] = d->centre.y;
              f->n_seats++;
            }
          break;
        default:
          f->n_glare += d->glare > 0;
          module_sum += d->module_px;
          if (f->n_cards == 0 || d->module_px < f->module_px_min)
            f->module_px_min = d->module_px;
          f->n_cards++;
          break;
        }
    }
  if (f->n_cards > 0)
    f->module_px_mean = (float) (module_sum / f->n_cards);
  double cx, cy, x0, y0, x1, y1, x2, y2;
  if (f->calibrated)
    {
      cal_table_centre (table, &cx, &cy);
      if (cal_table_table_to_image (table, cx, cy, &x0, &y0) == ENG_OK
          && cal_table_table_to_image (table, cx + 100, cy, &x1, &y1) == ENG_OK
          && cal_table_table_to_image (table, cx, cy + 100, &x2, &y2) == ENG_OK)
        f->px_per_mm = (hypot (x1 - x0, y1 - y0) + hypot (x2 - x0, y2 - y0)) / 200.0;
    }
}

/* Worker: with "Meter on the stickers" on and a manual exposure, the
 * exposure time follows the stickers of this frame (vis-exposure.h); the
 * camera advice says how it goes. */
static void
meter_exposure (UiPipeline *self, VisCameraControls *controls, const VisFrame *frame,
                const VisDetectResult *result, UiCalibrationFacts *f)
{
  f->exposure_meter = UI_EXPOSURE_METER_OFF;
  if (!controls->meter_stickers || controls->exposure != VIS_EXPOSURE_MANUAL)
    return;
  VisExposureRange range;
  if (!vis_source_exposure_range (self->source, &range))
    {
      f->exposure_meter = UI_EXPOSURE_METER_NO_CONTROL;
      return;
    }
  VisExposureReading r;
  vis_exposure_meter_serve (self->meter, self->source, controls, frame, result->detections,
                            result->n_detections, &r);
  f->exposure_time = r.time;
  f->exposure_clipped = r.clipped;
  switch (r.verdict)
    {
    case VIS_EXPOSURE_NO_STICKERS:
      f->exposure_meter = UI_EXPOSURE_METER_WAITING;
      break;
    case VIS_EXPOSURE_WELL:
      f->exposure_meter = UI_EXPOSURE_METER_HOLDING;
      break;
    case VIS_EXPOSURE_AT_LIMIT:
      f->exposure_meter = r.clipped > VIS_EXPOSURE_CLIP_MAX ? UI_EXPOSURE_METER_CLIPS_AT_LIMIT
                                                            : UI_EXPOSURE_METER_DIM_AT_LIMIT;
      break;
    default:
      f->exposure_meter = UI_EXPOSURE_METER_ADJUSTING;
      break;
    }
}

/* A doubled anchor or seat marker is said when it appears, changes and
 * goes, not on every frame; `said` keeps the last one said. */
static void
say_doubles (UiPipeline *self, const UiCalibrationFacts *f, UiCalibrationFacts *said)
{
  if (f->doubled_anchors == said->doubled_anchors && f->n_doubled_seats == said->n_doubled_seats
      && memcmp (f->doubled_seat, said->doubled_seat, f->n_doubled_seats * sizeof f->doubled_seat[0]) == 0)
    return;
  g_autofree char *text = ui_calibration_facts_doubles (f);
  publish_status (self, "%s", text != NULL ? text : _ ("No doubled sticker in view any more."));
  said->doubled_anchors = f->doubled_anchors;
  said->n_doubled_seats = f->n_doubled_seats;
  memcpy (said->doubled_seat, f->doubled_seat, sizeof said->doubled_seat);
}

/* A save asked for by the main thread, done here because the table belongs
 * to this thread. */
static void
serve_save_request (UiPipeline *self)
{
  g_mutex_lock (&self->lock);
  char *path = g_steal_pointer (&self->save_request);
  g_mutex_unlock (&self->lock);
  if (path == NULL)
    return;
  const CalTable *table = cal_observer_table (self->observer);
  if (!cal_table_is_calibrated (table))
    publish_status (self, _ ("Calibration not saved: the table is not calibrated yet (all four anchors must be seen)."));
  else
    {
      g_autofree char *dir = g_path_get_dirname (path);
      g_mkdir_with_parents (dir, 0700);
      EngStatus status = cal_table_save (table, path);
      if (status == ENG_OK)
        publish_status (self, _ ("Calibration saved to %s."), path);
      else
        publish_status (self, _ ("Calibration not saved to %s: %s."), path, eng_status_to_string (status));
    }
  g_free (path);
}

/* What the worker has said once and must not repeat every frame. */
typedef struct {
  unsigned calibrations;
  gint64 last_recalibration_said;
  UiCalibrationFacts said_doubles;
  gboolean said_old_format, said_wrong_seal;
} WorkerSaid;

/* The next frame of the source into *frame: TRUE with a frame, FALSE with
 * none this time (*end when the source is over); what went wrong said. */
static gboolean
read_frame (UiPipeline *self, VisFrame *frame, gboolean *end)
{
  VisSourceError err = { "" };
  VisSourceStatus status = vis_source_read (self->source, frame, &err);
  if (status == VIS_SOURCE_AGAIN)
    return FALSE;
  if (status == VIS_SOURCE_DISCONNECTED)
    {
      publish_status (self, _ ("Camera disconnected: %s. Waiting for it to come back."), err.message);
      g_usleep (200 * 1000);
      return FALSE;
    }
  if (status == VIS_SOURCE_END)
    {
      publish_status (self, _ ("The recording has ended."));
      *end = TRUE;
      return FALSE;
    }
  if (!vis_source_status_has_frame (status))
    {
      publish_status (self, _ ("Camera error: %s"), err.message[0] ? err.message
                                                                  : vis_source_status_to_string (status));
      g_usleep (200 * 1000);
      return FALSE;
    }
  if (status == VIS_SOURCE_RECONNECTED)
    publish_status (self, _ ("Camera reconnected."));
  return TRUE;
}

/* A nudge recalibrates over a few frames: said once. */
static void
say_calibration (UiPipeline *self, WorkerSaid *said)
{
  if (cal_observer_calibrations (self->observer) == said->calibrations)
    return;
  gint64 now = g_get_monotonic_time ();
  if (said->calibrations == 0 || now - said->last_recalibration_said > 3 * G_USEC_PER_SEC)
    publish_status (self, said->calibrations == 0
                            ? _ ("Table calibrated from the four anchors.")
                            : _ ("The camera or the table moved: recalibrated from the anchors."));
  said->last_recalibration_said = now;
  said->calibrations = cal_observer_calibrations (self->observer);
}

/* Stickers that are not this table's are said once, without naming the
 * card they claim (it may lie face down, K20). */
static void
say_foreign_stickers (UiPipeline *self, const VisDetectResult *result, WorkerSaid *said)
{
  if (result->n_old_format > 0 && !said->said_old_format)
    {
      publish_status (self, "%s", _ ("A sticker printed in an older format is in view and is not read: print the stickers again (menu, Print the stickers…)."));
      said->said_old_format = TRUE;
    }
  else if (result->n_wrong_seal > 0 && !said->said_wrong_seal)
    {
      publish_status (self, "%s", _ ("A sticker from another printing, or made by hand, is in view and is not taken as a card: its seal is not this table's."));
      said->said_wrong_seal = TRUE;
    }
}

/* The observer's look at `frame` into the back slot: zones, detections,
 * the camera facts, the metered exposure.  *changed: the snapshot changed. */
static void
observe (UiPipeline *self, Slot *back, VisFrame *frame, VisCameraControls *controls,
         WorkerSaid *said, bool *changed)
{
  if (cal_observer_process (self->observer, &frame->image, frame->timestamp_ns, &back->snapshot,
                            changed) != ENG_OK)
    return;
  say_calibration (self, said);
  size_t n_zones = cal_table_zone_outlines (cal_observer_table (self->observer), back->zones, MAX_ZONES);
  back->n_zones = (guint) MIN (n_zones, (size_t) MAX_ZONES);
  const VisDetectResult *result = cal_observer_detections (self->observer);
  back->n_detections = (guint) MIN (result->n_detections, (gsize) MAX_DETECTIONS);
  memcpy (back->detections, result->detections, back->n_detections * sizeof (VisDetection));
  gather_facts (self, &back->facts, &frame->image);
  meter_exposure (self, controls, frame, result, &back->facts);
  say_doubles (self, &back->facts, &said->said_doubles);
  say_foreign_stickers (self, result, said);
  serve_save_request (self);
}

static gpointer
worker_main (gpointer data)
{
  UiPipeline *self = UI_PIPELINE (data);
  gboolean paced = !g_str_has_prefix (self->spec, "camera") && !g_str_has_prefix (self->spec, "v4l2:");
  gint64 start_us = 0, first_ns = 0;
  WorkerSaid said = { 0 };
  guint frames_read = 0;
  char last_report[512] = "";
  VisCameraControls asked, controls;   /* as the window asked them; as the camera has them
                                          (the metered exposure time in it) */
  g_mutex_lock (&self->lock);
  asked = controls = self->controls;
  g_mutex_unlock (&self->lock);

  while (!g_atomic_int_get (&self->stop_requested))
    {
      serve_controls (self, &asked, &controls, last_report, sizeof last_report);
      VisFrame frame;
      gboolean end = FALSE;
      if (!read_frame (self, &frame, &end))
        {
          if (end)
            break;
          continue;
        }
      if (paced)
        pace (&start_us, &first_ns, &frame);

      Slot *back = self->back;
      back->n_detections = 0;
      if (g_atomic_int_compare_and_exchange (&self->recalibration_requested, 1, 0))
        cal_observer_request_recalibration (self->observer);
      bool changed = false;
      observe (self, back, &frame, &controls, &said, &changed);
      if (!copy_frame (back, &frame))
        continue;
      back->fresh = TRUE;

      frames_read++;
      g_mutex_lock (&self->lock);
      if (changed)
        queue_snapshot_locked (self, &back->snapshot);
      self->back = self->ready;
      self->ready = back;
      schedule_dispatch_locked (self);
      g_mutex_unlock (&self->lock);
      guint freeze_at = (guint) g_atomic_int_get (&self->freeze_at);
      if (freeze_at > 0 && frames_read >= freeze_at)
        {
          g_atomic_int_set (&self->frozen, 1);
          break;
        }
    }
  return NULL;
}

/* The table's printing of the game's card set (made on first need). */
static gboolean
load_printing (UiPipeline *self, GError **error)
{
  g_autofree char *name = g_strdup_printf ("cards/%s.set", self->game);
  char *path = eng_data_path (name);
  EngCardSet *set = NULL;
  EngParseError perr = { "" };
  EngStatus st = path != NULL ? eng_card_set_load_file (path, &set, &perr) : ENG_ERR_NOT_FOUND;
  free (path);
  if (st != ENG_OK)
    {
      g_set_error (error, UI_PIPELINE_ERROR, UI_PIPELINE_ERROR_DETECTOR,
                   _ ("the table observer could not start: %s:%u: %s"), perr.source, perr.line,
                   perr.reason[0] ? perr.reason : eng_status_to_string (st));
      return FALSE;
    }
  g_autoptr (GError) local = NULL;
  self->printing = prt_store_printing (set, &local);
  eng_card_set_free (set);
  if (self->printing == NULL)
    {
      g_set_error (error, UI_PIPELINE_ERROR, UI_PIPELINE_ERROR_DETECTOR, "%s", local->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
ui_pipeline_start (UiPipeline *self, GError **error)
{
  g_return_val_if_fail (UI_IS_PIPELINE (self), FALSE);
  g_return_val_if_fail (self->worker == NULL, FALSE);

  if (!load_printing (self, error))
    return FALSE;
  VisSourceError err = { "" };
  /* the demo table plays the game's own demo; a camera gets the controls */
  VisSourceOptions opts = { .game = self->game, .printing = self->printing };
  g_mutex_lock (&self->lock);
  opts.controls = self->controls;
  self->controls_changed = FALSE;
  g_mutex_unlock (&self->lock);
  VisSourceStatus status = vis_source_open (self->spec, &opts, &self->source, &err);
  if (status != VIS_SOURCE_OK)
    {
      g_set_error (error, UI_PIPELINE_ERROR,
                   status == VIS_SOURCE_NO_CAMERA ? UI_PIPELINE_ERROR_NO_CAMERA : UI_PIPELINE_ERROR_SOURCE,
                   "%s", err.message[0] ? err.message : vis_source_status_to_string (status));
      g_clear_pointer (&self->printing, eng_printing_free);
      return FALSE;
    }
  g_free (self->description);
  self->description = g_strdup (vis_source_description (self->source));

  g_autofree char *zones_name = g_strdup_printf ("zones/%s.zones", self->game);
  char *zones_path = eng_data_path (zones_name);
  CalObserverOptions options = { .zones_path = zones_path, .calibration_path = self->calibration_path,
                                 .printing = self->printing };
  EngParseError perr = { "" };
  EngStatus obs_status = cal_observer_new (&options, &self->observer, &perr);
  free (zones_path);
  if (obs_status != ENG_OK)
    {
      g_set_error (error, UI_PIPELINE_ERROR, UI_PIPELINE_ERROR_DETECTOR,
                   _ ("the table observer could not start: %s:%u: %s"), perr.source, perr.line,
                   perr.reason[0] ? perr.reason : eng_status_to_string (obs_status));
      vis_source_close (g_steal_pointer (&self->source));
      g_clear_pointer (&self->printing, eng_printing_free);
      return FALSE;
    }
  g_atomic_int_set (&self->stop_requested, 0);
  self->worker = g_thread_new ("tablero-pipeline", worker_main, self);
  return TRUE;
}

void
ui_pipeline_stop (UiPipeline *self)
{
  g_return_if_fail (UI_IS_PIPELINE (self));
  if (self->worker != NULL)
    {
      g_atomic_int_set (&self->stop_requested, 1);
      g_thread_join (g_steal_pointer (&self->worker));
    }
  g_clear_pointer (&self->observer, cal_observer_free);
  g_clear_pointer (&self->source, vis_source_close);
  g_clear_pointer (&self->printing, eng_printing_free);
}

const char *
ui_pipeline_get_source_spec (UiPipeline *self)
{
  return self->spec;
}

const char *
ui_pipeline_get_description (UiPipeline *self)
{
  return self->description ? self->description : "";
}

const VisDetection *
ui_pipeline_get_detections (UiPipeline *self, guint *n_detections)
{
  *n_detections = self->n_shown;
  return self->shown;
}

const CalZoneOutline *
ui_pipeline_get_zones (UiPipeline *self, guint *n_zones)
{
  *n_zones = self->n_shown_zones;
  return self->shown_zones;
}

const UiCalibrationFacts *
ui_pipeline_get_calibration (UiPipeline *self)
{
  return &self->shown_facts;
}

void
ui_pipeline_set_calibration_file (UiPipeline *self, const char *path)
{
  g_return_if_fail (UI_IS_PIPELINE (self) && self->worker == NULL);
  g_free (self->calibration_path);
  self->calibration_path = path != NULL && g_file_test (path, G_FILE_TEST_IS_REGULAR) ? g_strdup (path) : NULL;
}

void
ui_pipeline_set_camera_controls (UiPipeline *self, const VisCameraControls *controls)
{
  g_return_if_fail (UI_IS_PIPELINE (self) && controls != NULL);
  g_mutex_lock (&self->lock);
  self->controls = *controls;
  self->controls_changed = TRUE;
  g_mutex_unlock (&self->lock);
}

void
ui_pipeline_request_recalibration (UiPipeline *self)
{
  g_return_if_fail (UI_IS_PIPELINE (self));
  g_atomic_int_set (&self->recalibration_requested, 1);
}

void
ui_pipeline_save_calibration (UiPipeline *self, const char *path)
{
  g_return_if_fail (UI_IS_PIPELINE (self) && path != NULL);
  g_mutex_lock (&self->lock);
  g_free (self->save_request);
  self->save_request = g_strdup (path);
  g_mutex_unlock (&self->lock);
  if (self->worker == NULL)
    publish_status (self, _ ("Calibration not saved: no camera is being watched."));
}

double
ui_pipeline_get_fps (UiPipeline *self)
{
  return self->fps;
}

static void
ui_pipeline_dispose (GObject *object)
{
  ui_pipeline_stop (UI_PIPELINE (object));
  G_OBJECT_CLASS (ui_pipeline_parent_class)->dispose (object);
}

static void
ui_pipeline_finalize (GObject *object)
{
  UiPipeline *self = UI_PIPELINE (object);
  for (int i = 0; i < 2; i++)
    g_free (self->slots[i].pixels);
  g_free (self->slots);
  vis_exposure_meter_free (self->meter);
  g_free (self->shown);
  g_free (self->shown_zones);
  g_free (self->snapshot);
  g_free (self->queued);
  g_free (self->delivering);
  g_mutex_clear (&self->lock);
  g_free (self->spec);
  g_free (self->game);
  g_free (self->description);
  g_free (self->calibration_path);
  g_free (self->save_request);
  G_OBJECT_CLASS (ui_pipeline_parent_class)->finalize (object);
}

static void
ui_pipeline_class_init (UiPipelineClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ui_pipeline_dispose;
  G_OBJECT_CLASS (klass)->finalize = ui_pipeline_finalize;
  signals[SIGNAL_FRAME] = g_signal_new ("frame", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 1, GDK_TYPE_TEXTURE);
  signals[SIGNAL_SNAPSHOT] = g_signal_new ("snapshot", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_STATUS] = g_signal_new ("status", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
ui_pipeline_init (UiPipeline *self)
{
  g_mutex_init (&self->lock);
  self->slots = g_new0 (Slot, 2);
  self->meter = vis_exposure_meter_new ();
  if (self->meter == NULL)
    g_error ("out of memory");
  self->shown = g_new0 (VisDetection, MAX_DETECTIONS);
  self->shown_zones = g_new0 (CalZoneOutline, MAX_ZONES);
  self->snapshot = g_new0 (EngSnapshot, 1);
  self->queued = g_new0 (EngSnapshot, SNAPSHOT_QUEUE);
  self->delivering = g_new0 (EngSnapshot, SNAPSHOT_QUEUE);
  self->back = &self->slots[0];
  self->ready = &self->slots[1];
}

UiPipeline *
ui_pipeline_new (const char *source_spec, const char *game)
{
  UiPipeline *self = g_object_new (UI_TYPE_PIPELINE, NULL);
  self->spec = g_strdup (source_spec);
  self->game = g_strdup (game);
  return self;
}

void
ui_pipeline_freeze_at (UiPipeline *self, guint n)
{
  g_return_if_fail (UI_IS_PIPELINE (self));
  g_atomic_int_set (&self->freeze_at, (gint) MIN (n, (guint) G_MAXINT));
}

gboolean
ui_pipeline_get_frozen (UiPipeline *self)
{
  g_return_val_if_fail (UI_IS_PIPELINE (self), FALSE);
  if (!g_atomic_int_get (&self->frozen))
    return FALSE;
  g_mutex_lock (&self->lock);
  gboolean emitted = self->idle_id == 0 && !self->ready->fresh;
  g_mutex_unlock (&self->lock);
  return emitted;
}

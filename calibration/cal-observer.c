#include "cal-observer.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vis-track.h"

struct CalObserver
{
  VisDetector *detector;
  CalTable *table;
  VisTracker *tracker;
  VisDetectResult last;
  uint64_t last_seq;
  bool has_snapshot;
  unsigned calibrations;
  CalObservation seen;   /* the last frame's */
};

EngStatus
cal_observer_new (const CalObserverOptions *opts, CalObserver **out, EngParseError *err)
{
  CalObserverOptions defaults = { 0 };
  if (opts == NULL)
    opts = &defaults;
  if (out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  *out = NULL;

  CalObserver *obs = calloc (1, sizeof *obs);
  if (obs == NULL)
    return ENG_ERR_NO_MEMORY;
  EngStatus status = ENG_OK;
  if (opts->calibration_path != NULL)
    status = cal_table_load (opts->calibration_path, &obs->table, err);
  else if ((obs->table = cal_table_new ()) == NULL)
    status = ENG_ERR_NO_MEMORY;
  if (status == ENG_OK && opts->sticker_mm > 0)
    status = cal_table_set_sticker (obs->table, opts->sticker_mm, 2);
  if (status == ENG_OK && opts->zones_path != NULL)
    {
      CalZones zones;
      status = cal_zones_load_file (opts->zones_path, &zones, err);
      if (status == ENG_OK)
        cal_table_set_zones (obs->table, &zones);
    }
  VisDetectorOptions dopts;
  vis_detector_options_init (&dopts);
  if (opts->n_threads > 0)
    dopts.n_threads = opts->n_threads;
  if (status == ENG_OK && (obs->detector = vis_detector_new (&dopts)) == NULL)
    status = ENG_ERR_NO_MEMORY;
  if (status == ENG_OK)
    vis_detector_set_printing (obs->detector, opts->printing);
  if (status == ENG_OK && (obs->tracker = vis_tracker_new (NULL)) == NULL)
    status = ENG_ERR_NO_MEMORY;
  if (status != ENG_OK)
    {
      cal_observer_free (obs);
      return status;
    }
  vis_tracker_set_locate (obs->tracker, cal_table_locate, obs->table);
  *out = obs;
  return ENG_OK;
}

void
cal_observer_free (CalObserver *obs)
{
  if (obs == NULL)
    return;
  vis_tracker_free (obs->tracker);
  vis_detector_free (obs->detector);
  cal_table_free (obs->table);
  free (obs);
}

EngStatus
cal_observer_process (CalObserver *obs, const VisImage *frame, int64_t time_ns, EngSnapshot *out,
                      bool *changed)
{
  if (obs == NULL || frame == NULL || out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (changed != NULL)
    *changed = false;
  EngStatus status = vis_detector_detect (obs->detector, frame, VIS_DETECT_TRACK, &obs->last);
  if (status != ENG_OK)
    return status;

  CalObservation seen;
  cal_table_observe (obs->table, obs->last.detections, obs->last.n_detections, frame->width,
                     frame->height, &seen);
  obs->seen = seen;
  if (seen.recalibrated)
    obs->calibrations++;
  if (seen.seats_changed)
    vis_tracker_rezone (obs->tracker);
  if (!cal_table_is_calibrated (obs->table))
    {
      /* Table positions do not exist yet: report an empty, uncalibrated
       * table rather than pixels the rules would misread. */
      memset (out, 0, offsetof (EngSnapshot, items));
      out->time_ns = time_ns;
      out->n_foreign = (uint16_t) obs->last.n_foreign;
      return ENG_OK;
    }
  status = vis_tracker_update (obs->tracker, obs->last.detections, obs->last.n_detections,
                               obs->last.n_foreign, time_ns, out);
  if (status != ENG_OK && status != ENG_ERR_LIMIT)
    return status;
  out->calibrated = 1;
  if (changed != NULL)
    *changed = !obs->has_snapshot || out->seq != obs->last_seq;
  obs->has_snapshot = true;
  obs->last_seq = out->seq;
  return status;
}

const VisDetectResult *
cal_observer_detections (const CalObserver *obs)
{
  return &obs->last;
}

const CalTable *
cal_observer_table (const CalObserver *obs)
{
  return obs->table;
}

unsigned
cal_observer_calibrations (const CalObserver *obs)
{
  return obs->calibrations;
}

void
cal_observer_request_recalibration (CalObserver *obs)
{
  if (obs != NULL)
    cal_table_request_recalibration (obs->table);
}

const CalObservation *
cal_observer_observation (const CalObserver *obs)
{
  return &obs->seen;
}

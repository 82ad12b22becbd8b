/* vis-source-backend.h: what vis-source.cpp needs from a device backend kept
 * in its own file (libcamera).  Internal to vision/frames. */
#pragma once

#include "vis-source.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A backend object `self` behind function pointers.  open (re)acquires the
 * device (NO_CAMERA / ERR_* when it cannot), read delivers the newest frame
 * (DISCONNECTED when the device went away), close releases the device but
 * keeps `self` for a later open, destroy frees `self`.  The controls asked
 * for (VisSourceOptions.controls, then set_controls) are set at every open. */
typedef struct {
  VisSourceStatus (*open) (void *self, VisSourceError *err);
  VisSourceStatus (*read) (void *self, VisFrame *frame, VisSourceError *err);
  void (*close) (void *self);
  void (*destroy) (void *self);
  const char *(*describe) (void *self);
  /* Keep `controls` for later opens; set them now when open. */
  void (*set_controls) (void *self, const VisCameraControls *controls);
  /* What the last setting did not do as asked; "" when all, never NULL. */
  const char *(*controls_report) (void *self);
  /* The camera's manual exposure times; false without them (or closed). */
  bool (*exposure_range) (void *self, VisExposureRange *out);
  /* Keep `time` as the manual exposure time; set only it now when open. */
  void (*set_exposure_time) (void *self, int time);
} VisSourceBackendOps;

#ifdef TABLERO_HAVE_LIBCAMERA
/* libcamera camera number `index`: creates `*self` (not yet opened). */
VisSourceStatus vis_libcamera_backend_new (int index, const VisSourceOptions *options,
                                           const VisSourceBackendOps **ops, void **self,
                                           VisSourceError *err);
/* Appends the cameras libcamera sees to `list` (up to VIS_SOURCE_LIST_MAX). */
void vis_libcamera_list (VisSourceList *list);
#endif

#ifdef __cplusplus
}
#endif

/* cmd-bench-vision-private.h: what the three measures of `tablero-cli bench
 * vision` share: rendered frames (cmd-bench-vision.c), the real-room
 * conditions (cmd-bench-vision-conditions.c) and photos
 * (cmd-bench-vision-photos.c). */
#pragma once

#include "cli.h"

#include <glib.h>
#include <time.h>

#include "vis-detect.h"
#include "vis-render.h"

/* Detections a full-frame decoder may return for one frame. */
#define MAX_DET 512

/* One pipeline's figures over the frames it was timed on. */
typedef struct {
  const char *name;
  GArray *wall_ms;     /* double per frame */
  double cpu_ms_total;
  unsigned frames;
  unsigned expected, found, wrong, foreign;
} PipeStats;

/* The time of `clock` in ms. */
double bench_vision_now_ms (clockid_t clock);

/* Scores one frame's detections against the truth: a visible, uncovered
 * Tablero tag counts as found when a detection with its payload lies within
 * half a code of its centre; a detection is a wrong identity when no tag with
 * its payload lies within a code of it. */
void bench_vision_score (PipeStats *s, const VisTruth *truth, const VisDetection *d, size_t n);

/* The detector with default options on `threads` threads; NULL when it
 * cannot be made. */
VisDetector *bench_vision_new_detector (long threads);

/* --conditions: one line per condition, the detector beside zbar and
 * ZXing-cpp (`baselines`; otherwise "-" in their columns); with
 * `print_scene` the scene of each chosen condition instead. */
int bench_vision_conditions (long min_codes, long threads, const char *only, gboolean print_scene,
                             gboolean baselines);

/* --photos DIR: the detector (beside zbar and ZXing-cpp: `baselines`) on
 * photos with their truth; 2 after saying why a photo or truth cannot be
 * read. */
int bench_vision_photos (const char *dir, long threads, gboolean baselines);

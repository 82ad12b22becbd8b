/* scene-util.h: rendering scenes written in the tests, and scoring
 * detections against the renderer's ground truth. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "vis-detect.h"
#include "vis-render.h"

typedef struct {
  VisScene *scene;
  VisRenderer *renderer;
  VisImage image;           /* BGR8, owned */
  VisTruth *truth;          /* of the last render */
} TestScene;

/* The tests' printing: every bundled set (data/cards via TABLERO_DATADIR)
 * sealed with one fixed key, made on first use and kept for the process.
 * Scenes opened here are painted with it; detectors read with it. */
const EngPrinting *test_printing (void);
/* The same key as bytes (a test that forges a seal makes one of its own). */
extern const uint8_t test_printing_key[ENG_PRINTING_KEY_LEN];
/* vis_detector_new with the tests' printing set; NULL as vis_detector_new. */
VisDetector *test_detector_new (const VisDetectorOptions *opts);

/* Parses `text` (a whole scene), seals its stickers with test_printing()
 * and makes a renderer; aborts the test on failure. */
void test_scene_open (TestScene *ts, const char *text);
void test_scene_render (TestScene *ts, double t_s);
void test_scene_close (TestScene *ts);

typedef struct {
  unsigned expected;        /* visible, uncovered Tablero tags */
  unsigned found;
  unsigned wrong;           /* detections with no such tag near them */
  float max_corner_err;     /* px, over found tags */
} TestScore;

TestScore test_score (const VisTruth *truth, const VisDetection *d, size_t n);

/* A scene header plus `n` cards in a loose grid, 40 mm stickers at about
 * 3.6-4 px per module at 1080p; `extra` is appended (degrade lines, events).
 * Newly allocated (free). */
char *test_grid_scene (int n_cards, double tilt_deg, const char *extra);

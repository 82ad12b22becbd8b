/* vis-conditions.h: the real-room conditions of issue 13 as rendered scenes.
 *
 * One table lists every condition the detector is measured under (glare,
 * noise, soft optics at small modules, motion blur, defocus) with the recall
 * it must reach.  `tablero-cli bench vision --conditions` reports them side
 * by side and tests/vision/test-conditions.c holds the detector to them, both
 * from the same scenes, so the figures in docs/vision.md and the tests agree.
 *
 * A condition's scene: real 40 mm stickers (quiet zone 4, 29 modules) on
 * cards in a grid filling the view, camera straight down so every code shows
 * the condition's module size; frame k (t = k s) moves every card to a new
 * jittered position and rotation, so frames are different samples.
 */
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  VIS_CONDITION_GLARE_NONE = 0,
  VIS_CONDITION_GLARE_FINDER,   /* every card: one finder (tl, tr, bl in turn) */
  VIS_CONDITION_GLARE_DATA,     /* every card: data modules only */
  VIS_CONDITION_GLARE_LAMP,     /* every card: a spot anywhere over its code (or beside
                                   it), its size drawn from glare_modules/2 to
                                   glare_modules: a lamp's reflection on glossy film */
} VisConditionGlare;

typedef struct {
  const char *name;             /* "noise-8", "soft-2.3px-720p", ... */
  int width, height;            /* frame size */
  double module_px;             /* image px per module */
  const char *degrade;          /* words of the scene's degrade line ("" none) */
  VisConditionGlare glare;
  double glare_modules;         /* the spot's saturated core, modules across (0: 4) */
  double motion_px;             /* each card smeared this long (0 none) */
  double min_recall;            /* the goal for cold detection (0..1);
                                   0: only wrong identities matter */
} VisCondition;

/* The conditions, in report order; *n receives how many. */
const VisCondition *vis_conditions (unsigned *n);

/* The scene text of `c` with enough frames that at least `min_codes` codes
 * are shown in all (at least one frame).  Returns newly allocated text
 * (free()) and sets *n_frames (frame k at t = k s); NULL when out of
 * memory. */
char *vis_condition_scene (const VisCondition *c, unsigned min_codes, unsigned *n_frames);

#ifdef __cplusplus
}
#endif

/* Cards turned over exactly where they lie (same place, same angle: the
 * back's sticker replaced by the face's at the very same spot, and back
 * again), and a card swapped for another face at the same spot, as a
 * misplaced card would be; with and without a hand over the card, under each
 * of the usual degradations.  The detector runs in tracking mode frame by
 * frame (no periodic cold pass falls inside the checked frames, so nothing
 * but tracking can get the new identity) and feeds the tracker.
 *
 * Checked against the renderer's ground truth, at every card's spot:
 *  - the detector never reports an identity other than the one the card
 *    shows now (the stale one of a flipped or swapped card included), and
 *    reads the new one on the first frame it is uncovered;
 *  - the tracker's snapshot never shows the stale identity as seen, holds
 *    the new identity committed once the tracker has seen it at rest (its
 *    third sighting: two frames at 10 fps after the card is uncovered), and
 *    from then on nothing else at that spot. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene-util.h"
#include "vis-detect.h"
#include "vis-track.h"

#define FPS 10
/* Frame 0 is cold; the default cold_interval (30) makes frame 30 the next
 * cold pass, so frames 1..29 are tracking only. */
#define N_FRAMES 30
/* The tracker commits an item on its third sighting at rest: two frames. */
#define COMMIT_FRAMES 2
#define MAX_SPOTS 16

/* 1080p, two rows of cards.  Row 1: flips and a swap between two frames,
 * nothing over the cards (c4 goes back and forth, deck 2); row 2: the same
 * under a hand.  c5, c6 and c10 never change. */
static const char *const scene_cards =
  "card c1 face=1 back=1 at=75,65 rot=0 down\n"
  "card c2 face=2 back=1 at=179,65 rot=93 up\n"
  "card c3 face=3 back=1 at=283,65 rot=-12 up\n"
  "card c11 face=11 back=1 at=283,65 rot=-12 absent\n"
  "card c4 face=4 back=2 at=387,65 rot=181 down\n"
  "card c5 face=5 back=1 at=491,65 rot=270 down\n"
  "card c6 face=6 back=1 at=595,65 rot=8 up\n"
  "card c7 face=7 back=1 at=75,163 rot=4 down\n"
  "card c8 face=8 back=1 at=283,163 rot=-20 up\n"
  "card c9 face=9 back=1 at=491,163 rot=30 up\n"
  "card c12 face=12 back=1 at=491,163 rot=30 absent\n"
  "card c10 face=10 back=1 at=699,163 rot=0 down\n"
  "at 0.55 up c1\n"
  "at 0.55 up c4\n"
  "at 0.85 down c2\n"
  "at 1.15 remove c3\n"
  "at 1.15 place c11\n"
  "at 1.45 down c4\n"
  "at 2.05 up c4\n"
  "at 0.3 hand from=491,330 to=491,170 for=0.6 size=120\n"
  "at 0.6 remove c9\n"
  "at 0.6 place c12\n"
  "at 1.2 hand from=75,330 to=75,170 for=0.6 size=120\n"
  "at 1.5 up c7\n"
  "at 1.9 hand from=283,330 to=283,170 for=0.6 size=120\n"
  "at 2.2 down c8\n";

typedef struct {
  float x, y, half;          /* code centre and half its side, image px */
  char payload[VIS_TRUTH_PAYLOAD_MAX];
  char id[32];
  bool occluded;
  int visible_from;          /* first uncovered frame showing `payload`, or -1 */
  int read_from;             /* first frame the detector read it since, or -1 */
  int committed_from;        /* first frame the snapshot held it seen, or -1 */
  int changes;               /* identities this spot showed */
} Spot;

typedef struct {
  Spot spots[MAX_SPOTS];
  int n_spots;
  int max_read_latency;      /* frames, over new identities */
  int max_commit_latency;
  int changes_read;          /* identities read after frame 0 (flips, swaps) */
  int tracking_frames;
} Run;

static Spot *
spot_at (Run *run, float x, float y)
{
  for (int i = 0; i < run->n_spots; i++)
    if (hypotf (run->spots[i].x - x, run->spots[i].y - y) < run->spots[i].half)
      return &run->spots[i];
  return NULL;
}

/* Brings the spots up to this frame's truth (cards never move here, so a
 * spot is a place; c3/c11 and c9/c12 share one). */
static void
update_spots (Run *run, const VisTruth *truth, int frame)
{
  for (int i = 0; i < run->n_spots; i++)
    run->spots[i].occluded = true;   /* removed cards leave no truth tag */
  for (unsigned t = 0; t < truth->n_tags; t++)
    {
      const VisTruthTag *tag = &truth->tags[t];
      if (tag->kind != VIS_TRUTH_CARD)
        continue;
      float cx = 0, cy = 0;
      for (int k = 0; k < 4; k++)
        cx += tag->corners[k][0] / 4, cy += tag->corners[k][1] / 4;
      Spot *s = spot_at (run, cx, cy);
      if (s == NULL)
        {
          cr_assert_lt (run->n_spots, MAX_SPOTS);
          s = &run->spots[run->n_spots++];
          memset (s, 0, sizeof *s);
          s->x = cx;
          s->y = cy;
          s->half = 0.5f * 21.0f * (float) tag->module_px;
          s->visible_from = s->read_from = s->committed_from = -1;
        }
      if (strcmp (s->payload, tag->payload) != 0)
        {
          snprintf (s->payload, sizeof s->payload, "%s", tag->payload);
          s->visible_from = s->read_from = s->committed_from = -1;
          s->changes++;
        }
      snprintf (s->id, sizeof s->id, "%s", tag->id);
      s->occluded = !tag->in_view || tag->occluded;
      if (!s->occluded && s->visible_from < 0)
        s->visible_from = frame;
    }
}

static void
check_detections (Run *run, const VisDetectResult *r, int frame)
{
  for (size_t i = 0; i < r->n_detections; i++)
    {
      const VisDetection *d = &r->detections[i];
      Spot *s = spot_at (run, d->centre.x, d->centre.y);
      cr_expect_not_null (s, "frame %d: %s read where no card lies (%.0f,%.0f)", frame, d->payload,
                          d->centre.x, d->centre.y);
      if (s == NULL)
        continue;
      cr_expect_str_eq (d->payload, s->payload, "frame %d: %s read at %s, which shows %s", frame, d->payload,
                        s->id, s->payload);
      if (strcmp (d->payload, s->payload) == 0 && s->read_from < 0 && s->visible_from >= 0)
        s->read_from = frame;
    }
  for (int i = 0; i < run->n_spots; i++)
    {
      Spot *s = &run->spots[i];
      if (s->occluded || s->visible_from < 0)
        continue;
      cr_expect_geq (s->read_from, 0, "frame %d: %s (%s) uncovered since frame %d and not read", frame, s->id,
                     s->payload, s->visible_from);
      if (s->read_from >= 0 && s->read_from - s->visible_from > run->max_read_latency)
        run->max_read_latency = s->read_from - s->visible_from;
    }
}

static void
check_snapshot (Run *run, const EngSnapshot *snap, int frame)
{
  for (uint32_t i = 0; i < snap->n_items; i++)
    {
      const EngSnapshotItem *it = &snap->items[i];
      Spot *s = spot_at (run, it->x_mm, it->y_mm);   /* uncalibrated: image px */
      cr_expect_not_null (s, "frame %d: snapshot item %s where no card lies", frame, it->payload);
      if (s == NULL)
        continue;
      if (strcmp (it->payload, s->payload) == 0)
        {
          if (!(it->flags & ENG_SNAP_OCCLUDED) && s->committed_from < 0 && s->visible_from >= 0)
            s->committed_from = frame;
          continue;
        }
      /* The stale identity may wait, unseen, for the new one to commit; it
       * is never seen, and it goes as soon as the new one is in. */
      cr_expect (it->flags & ENG_SNAP_OCCLUDED, "frame %d: the snapshot sees %s at %s, which shows %s", frame,
                 it->payload, s->id, s->payload);
      cr_expect (s->visible_from < 0 || frame < s->visible_from + COMMIT_FRAMES,
                 "frame %d: %s still in the snapshot at %s, which shows %s since frame %d", frame, it->payload,
                 s->id, s->payload, s->visible_from);
    }
  for (int i = 0; i < run->n_spots; i++)
    {
      Spot *s = &run->spots[i];
      if (s->occluded || s->visible_from < 0 || frame < s->visible_from + COMMIT_FRAMES)
        continue;
      bool held = false;
      for (uint32_t k = 0; k < snap->n_items && !held; k++)
        held = strcmp (snap->items[k].payload, s->payload) == 0 && !(snap->items[k].flags & ENG_SNAP_OCCLUDED)
               && hypotf (snap->items[k].x_mm - s->x, snap->items[k].y_mm - s->y) < s->half;
      cr_expect (held, "frame %d: %s (%s) uncovered since frame %d and not committed", frame, s->id, s->payload,
                 s->visible_from);
      if (s->committed_from >= 0 && s->committed_from - s->visible_from > run->max_commit_latency)
        run->max_commit_latency = s->committed_from - s->visible_from;
    }
}

static void
run_flips (double tilt, const char *degrade)
{
  char text[4096];
  int len = snprintf (text, sizeof text,
                      "image width=1920 height=1080 fps=%d duration=3 seed=31 format=png\n"
                      "camera height=680 tilt=%.1f fov=62 target=440,114\n"
                      "table width=880 height=326\n"
                      "tags game=K set=01\n"
                      "sticker size=40 quiet=2\n"
                      "card-size width=63 height=88\n"
                      "%s%s",
                      FPS, tilt, degrade, scene_cards);
  cr_assert_lt ((size_t) len, sizeof text);
  TestScene ts;
  test_scene_open (&ts, text);
  VisDetector *det = test_detector_new (NULL);
  VisTracker *tracker = vis_tracker_new (NULL);
  cr_assert_not_null (det);
  cr_assert_not_null (tracker);
  static Run run;
  static EngSnapshot snap;
  memset (&run, 0, sizeof run);
  for (int f = 0; f < N_FRAMES; f++)
    {
      double t_s = (double) f / FPS;
      test_scene_render (&ts, t_s);
      update_spots (&run, ts.truth, f);
      VisDetectResult r;
      cr_assert_eq (vis_detector_detect (det, &ts.image, VIS_DETECT_TRACK, &r), ENG_OK);
      if (f > 0)
        cr_expect_eq (r.mode_used, VIS_DETECT_TRACK, "frame %d ran cold: the test would not test tracking", f);
      run.tracking_frames += r.mode_used == VIS_DETECT_TRACK;
      check_detections (&run, &r, f);
      cr_assert_eq (vis_tracker_update (tracker, r.detections, r.n_detections, r.n_foreign,
                                        (int64_t) llround (t_s * 1e9), &snap),
                    ENG_OK);
      check_snapshot (&run, &snap, f);
    }
  for (int i = 0; i < run.n_spots; i++)
    run.changes_read += run.spots[i].changes - 1;
  cr_log_info ("tilt %.0f, %s: %d spots, %d identity changes, %d tracking frames, detector read within %d "
               "frame(s) of uncovering, snapshot committed within %d",
               tilt, degrade[0] ? degrade : "clean\n", run.n_spots, run.changes_read, run.tracking_frames,
               run.max_read_latency, run.max_commit_latency);
  /* 10 spots: c3/c11 and c9/c12 share theirs; changes: c1, c2, c3->c11,
   * c4 three times, c7, c8, c9->c12 */
  cr_expect_eq (run.n_spots, 10);
  cr_expect_eq (run.changes_read, 9, "the scene should have flipped or swapped 9 times (%d)", run.changes_read);
  vis_tracker_free (tracker);
  vis_detector_free (det);
  test_scene_close (&ts);
}

Test (flip_in_place, clean, .timeout = 120) { run_flips (5.0, ""); }
Test (flip_in_place, uneven_light, .timeout = 120) { run_flips (5.0, "degrade light=0.7\n"); }
Test (flip_in_place, blur, .timeout = 120) { run_flips (5.0, "degrade blur=1.0\n"); }
Test (flip_in_place, noise, .timeout = 120) { run_flips (5.0, "degrade noise=8\n"); }
Test (flip_in_place, jpeg, .timeout = 120) { run_flips (5.0, "degrade jpeg=50\n"); }
Test (flip_in_place, everything_in_perspective, .timeout = 120)
{
  run_flips (25.0, "degrade light=0.5 blur=0.8 noise=5 jpeg=70\n");
}

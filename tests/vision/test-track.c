/* The tracker: commit at rest, occlusion grace, moves, flips, duplicates,
 * backs by position, slow slides, jitter and motion blur - on hand-made
 * detections (exact timing) and on a rendered sequence with a hand passing
 * over the cards. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene-util.h"
#include "vis-detect.h"
#include "vis-track.h"

#define MS 1000000LL

static VisDetection
make (const char *payload, float x, float y)
{
  VisDetection d;
  memset (&d, 0, sizeof d);
  cr_assert_eq (eng_tag_parse (payload, strlen (payload), &d.tag), ENG_OK, "bad test payload %s", payload);
  strcpy (d.payload, payload);
  d.module_px = 4.0f;
  float h = 42.0f;
  d.corners[0] = (VisPoint){ x - h, y - h };
  d.corners[1] = (VisPoint){ x + h, y - h };
  d.corners[2] = (VisPoint){ x + h, y + h };
  d.corners[3] = (VisPoint){ x - h, y + h };
  d.centre = (VisPoint){ x, y };
  return d;
}

static const EngSnapshotItem *
find_item (const EngSnapshot *s, const char *payload)
{
  for (uint32_t i = 0; i < s->n_items; i++)
    if (strcmp (s->items[i].payload, payload) == 0)
      return &s->items[i];
  return NULL;
}

/* Payloads with valid check characters, made by the codec itself. */
static void
payload (char kind, int serial, char out[12])
{
  EngTag t = { 'K', "01", (EngTagKind) kind, (uint16_t) serial };
  cr_assert_eq (eng_tag_format (&t, out), ENG_OK);
}

static EngSnapshot snap;

Test (track, commits_only_at_rest_and_ignores_flicker)
{
  char a[12], b[12];
  payload ('F', 1, a);
  payload ('F', 2, b);
  VisTracker *t = vis_tracker_new (NULL);
  VisDetection d[2] = { make (a, 100, 100), make (b, 400, 100) };
  cr_assert_eq (vis_tracker_update (t, d, 2, 0, 0, &snap), ENG_OK);
  cr_expect_eq (snap.n_items, 0u, "nothing is committed at first sight");
  uint64_t seq0 = snap.seq;
  /* b flickers: seen once only. */
  cr_assert_eq (vis_tracker_update (t, d, 1, 0, 100 * MS, &snap), ENG_OK);
  cr_expect_eq (snap.n_items, 0u);
  cr_assert_eq (vis_tracker_update (t, d, 1, 0, 160 * MS, &snap), ENG_OK);
  cr_expect_eq (snap.n_items, 1u, "a seen still three times over 160 ms is committed");
  cr_expect_not_null (find_item (&snap, a));
  cr_expect_null (find_item (&snap, b));
  cr_expect_neq (snap.seq, seq0, "a committed change moves seq");
  uint64_t seq1 = snap.seq;
  cr_assert_eq (vis_tracker_update (t, d, 1, 0, 200 * MS, &snap), ENG_OK);
  cr_expect_eq (snap.seq, seq1, "no change, same seq");
  cr_expect_eq (snap.calibrated, 0);
  vis_tracker_free (t);
}

Test (track, hand_over_cards_for_two_seconds_removes_nothing)
{
  char a[12];
  payload ('F', 7, a);
  VisTracker *t = vis_tracker_new (NULL);
  VisDetection d = make (a, 300, 300);
  int64_t now = 0;
  for (; now <= 500 * MS; now += 100 * MS)
    vis_tracker_update (t, &d, 1, 0, now, &snap);
  const EngSnapshotItem *it = find_item (&snap, a);
  cr_assert_not_null (it);
  uint32_t id = it->track_id;
  int64_t last_seen = now - 100 * MS;
  /* Covered for 1.9 s: kept, flagged occluded, same identity. */
  for (; now < last_seen + 1950 * MS; now += 100 * MS)
    {
      cr_assert_eq (vis_tracker_update (t, NULL, 0, 0, now, &snap), ENG_OK);
      it = find_item (&snap, a);
      cr_assert_not_null (it, "removed after only %lld ms", (long long) ((now - last_seen) / MS));
      cr_expect (it->flags & ENG_SNAP_OCCLUDED);
    }
  vis_tracker_update (t, &d, 1, 0, now, &snap);
  it = find_item (&snap, a);
  cr_assert_not_null (it);
  cr_expect_eq (it->track_id, id);
  cr_expect_eq (it->flags & ENG_SNAP_OCCLUDED, 0u);
  /* Gone for longer than the grace: removed. */
  int64_t gone = now;
  for (now += 100 * MS; now <= gone + 2200 * MS; now += 100 * MS)
    vis_tracker_update (t, NULL, 0, 0, now, &snap);
  cr_expect_null (find_item (&snap, a), "a card gone for 2.2 s must leave");
  vis_tracker_free (t);
}

/* At 20 fps the new place is at rest on its third sighting (100 ms), not
 * before: two sightings cannot tell rest from a slow slide. */
Test (track, move_commits_at_rest_and_keeps_identity)
{
  char a[12];
  payload ('F', 3, a);
  VisTracker *t = vis_tracker_new (NULL);
  VisDetection here = make (a, 200, 200), there = make (a, 800, 500);
  int64_t now = 0;
  for (; now <= 300 * MS; now += 50 * MS)
    vis_tracker_update (t, &here, 1, 0, now, &snap);
  uint32_t id = find_item (&snap, a)->track_id;
  int64_t moved = now;
  for (; now < moved + 100 * MS; now += 50 * MS)
    {
      vis_tracker_update (t, &there, 1, 0, now, &snap);
      const EngSnapshotItem *it = find_item (&snap, a);
      cr_assert_not_null (it);
      cr_expect_float_eq (it->x_mm, 200.0f, 0.5f, "moved before it was seen at rest (%lld ms)",
                          (long long) ((now - moved) / MS));
      cr_expect (it->flags & ENG_SNAP_MOVING);
    }
  vis_tracker_update (t, &there, 1, 0, now, &snap);
  const EngSnapshotItem *it = find_item (&snap, a);
  cr_assert_not_null (it);
  cr_expect_float_eq (it->x_mm, 800.0f, 0.5f);
  cr_expect_eq (it->track_id, id);
  cr_expect_eq (it->since_ns, now);
  vis_tracker_free (t);
}

Test (track, duplicate_face_flagged)
{
  char a[12], b[12];
  payload ('F', 9, a);
  payload ('F', 10, b);
  VisTracker *t = vis_tracker_new (NULL);
  VisDetection d[3] = { make (a, 100, 100), make (a, 900, 600), make (b, 500, 300) };
  for (int64_t now = 0; now <= 300 * MS; now += 50 * MS)
    vis_tracker_update (t, d, 3, 0, now, &snap);
  cr_assert_eq (snap.n_items, 3u);
  unsigned dups = 0;
  for (uint32_t i = 0; i < snap.n_items; i++)
    if (snap.items[i].flags & ENG_SNAP_DUPLICATE)
      {
        dups++;
        cr_expect_str_eq (snap.items[i].payload, a);
      }
  cr_expect_eq (dups, 2u);
  vis_tracker_free (t);
}

Test (track, backs_told_apart_by_position)
{
  char back[12];
  payload ('B', 1, back);
  VisTracker *t = vis_tracker_new (NULL);
  VisDetection d[3] = { make (back, 100, 100), make (back, 300, 100), make (back, 500, 100) };
  for (int64_t now = 0; now <= 300 * MS; now += 50 * MS)
    {
      /* jitter, and the list order changes */
      VisDetection j[3] = { d[2], d[0], d[1] };
      for (int k = 0; k < 3; k++)
        j[k].centre.x += (float) ((now / MS) % 3) - 1.0f;
      vis_tracker_update (t, j, 3, 0, now, &snap);
    }
  cr_assert_eq (snap.n_items, 3u);
  uint32_t ids[3] = { 0 };
  for (uint32_t i = 0; i < 3; i++)
    {
      cr_expect_eq (snap.items[i].tag_kind, 'B');
      int slot = (int) lroundf ((snap.items[i].x_mm - 100) / 200);
      cr_assert (slot >= 0 && slot < 3);
      ids[slot] = snap.items[i].track_id;
    }
  cr_expect (ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2]);
  cr_expect_eq (snap.items[0].flags & ENG_SNAP_DUPLICATE, 0u, "identical backs are not duplicates");
  /* The middle back is taken away; the others keep their identities. */
  VisDetection rest[2] = { d[0], d[2] };
  for (int64_t now = 350 * MS; now <= 2700 * MS; now += 50 * MS)
    vis_tracker_update (t, rest, 2, 0, now, &snap);
  cr_assert_eq (snap.n_items, 2u);
  for (uint32_t i = 0; i < 2; i++)
    {
      int slot = (int) lroundf ((snap.items[i].x_mm - 100) / 200);
      cr_expect_eq (snap.items[i].track_id, ids[slot]);
    }
  vis_tracker_free (t);
}

Test (track, flip_replaces_at_once)
{
  char face[12], back[12];
  payload ('F', 12, face);
  payload ('B', 1, back);
  VisTracker *t = vis_tracker_new (NULL);
  VisDetection up = make (face, 400, 400), down = make (back, 401, 399);
  int64_t now = 0;
  for (; now <= 300 * MS; now += 50 * MS)
    vis_tracker_update (t, &up, 1, 0, now, &snap);
  int64_t flipped = now;
  for (; now <= flipped + 200 * MS; now += 50 * MS)
    vis_tracker_update (t, &down, 1, 0, now, &snap);
  cr_expect_eq (snap.n_items, 1u, "the face must not linger under its own back");
  cr_expect_not_null (find_item (&snap, back));
  cr_expect_null (find_item (&snap, face));
  vis_tracker_free (t);
}

Test (track, refuses_time_going_back)
{
  VisTracker *t = vis_tracker_new (NULL);
  cr_expect_eq (vis_tracker_update (t, NULL, 0, 0, 1000, &snap), ENG_OK);
  cr_expect_eq (vis_tracker_update (t, NULL, 0, 0, 999, &snap), ENG_ERR_INVALID_ARGUMENT);
  cr_expect_eq (vis_tracker_update (t, NULL, 0, 0, 1000, NULL), ENG_ERR_INVALID_ARGUMENT);
  vis_tracker_free (t);
}

/* Renders the scene at `t_s`, detects (tracking) and feeds the tracker,
 * as `watch` does; the snapshot lands in `snap`.  Returns the time in ns. */
static int64_t
watch_frame (TestScene *ts, VisDetector *det, VisTracker *t, double t_s, VisDetectResult *r)
{
  test_scene_render (ts, t_s);
  cr_assert_eq (vis_detector_detect (det, &ts->image, VIS_DETECT_TRACK, r), ENG_OK);
  int64_t now = (int64_t) llround (t_s * 1e9);
  cr_assert_eq (vis_tracker_update (t, r->detections, r->n_detections, r->n_foreign, now, &snap), ENG_OK);
  return now;
}

/* Rendered: a hand sweeps over the middle of 10 cards for 1.5 s, then card
 * c3 slides away; nothing may vanish under the hand, the slide is
 * committed once at rest, not before. */
Test (track, rendered_hand_and_move, .timeout = 120)
{
  char *text = test_grid_scene (10, 5.0,
                                "at 1.0 hand from=250,120 to=420,130 for=1.5 size=200\n"
                                "at 3.0 move c3 to=600,250 over=0.3\n");
  TestScene ts;
  test_scene_open (&ts, text);
  free (text);
  VisDetector *det = test_detector_new (NULL);
  VisTracker *t = vis_tracker_new (NULL);
  unsigned max_items = 0, covered_frames = 0;
  float c3_x_before = 0;
  int64_t c3_moved_at = -1;
  char c3[12];
  payload ('F', 3, c3);
  for (int f = 0; f < 45; f++)
    {
      double ts_s = f * 0.1;
      VisDetectResult r;
      int64_t now = watch_frame (&ts, det, t, ts_s, &r);
      if (snap.n_items > max_items)
        max_items = snap.n_items;
      if (f >= 3 && f < 30)
        cr_expect_eq (snap.n_items, 10u, "frame %d (t=%.1f): %u items", f, ts_s, snap.n_items);
      for (uint32_t i = 0; i < snap.n_items; i++)
        covered_frames += (snap.items[i].flags & ENG_SNAP_OCCLUDED) != 0;
      const EngSnapshotItem *it = find_item (&snap, c3);
      if (f == 29)
        {
          cr_assert_not_null (it);
          c3_x_before = it->x_mm;
        }
      if (f > 29 && it != NULL && c3_moved_at < 0 && fabsf (it->x_mm - c3_x_before) > 50)
        c3_moved_at = now;
    }
  cr_log_info ("items at most %u, occluded item-frames %u, c3 move committed at %.2f s", max_items, covered_frames, c3_moved_at / 1e9);
  cr_expect_eq (max_items, 10u);
  cr_expect_gt (covered_frames, 0u, "the hand should have hidden something");
  /* The slide ends at 3.3 s; at 10 fps its third sighting at rest is at
   * 3.5 s: not before, and (the detector reading it at once) not later. */
  cr_expect_geq (c3_moved_at, (int64_t) (3.45e9), "move committed at %lld ns", (long long) c3_moved_at);
  cr_expect_lt (c3_moved_at, (int64_t) (3.55e9), "move not committed in time (%lld)", (long long) c3_moved_at);
  vis_tracker_free (t);
  vis_detector_free (det);
  test_scene_close (&ts);
}

/* A seat marker found after the cards in front of it were (it lay under a
 * hand when the referee started): the cards take their slots' zones at once,
 * with no move; without a change of zones a card keeps the zone it came to
 * rest in.  And every tracker says which it is, so a resumed referee can
 * tell its ids from an earlier tracker's. */
static bool seat_known;

static bool
locate_seat (void *ctx, const VisDetection *d, VisTrackPlace *out)
{
  (void) ctx;
  out->x = d->centre.x;
  out->y = d->centre.y;
  out->rotation_deg = 0;
  out->size = 40;
  out->zone = seat_known ? (EngZone){ ENG_ZONE_SLOT, 1, (int8_t) (d->centre.x > 300) }
                         : (EngZone){ ENG_ZONE_NONE, -1, -1 };
  return true;
}

Test (track, cards_take_their_zones_when_a_seat_is_found_late)
{
  char back[12];
  payload ('B', 1, back);
  seat_known = false;
  VisTracker *t = vis_tracker_new (NULL), *other = vis_tracker_new (NULL);
  vis_tracker_set_locate (t, locate_seat, NULL);
  VisDetection d[2] = { make (back, 100, 100), make (back, 400, 100) };
  int64_t now = 0;
  for (; now <= 300 * MS; now += 50 * MS)
    cr_assert_eq (vis_tracker_update (t, d, 2, 0, now, &snap), ENG_OK);
  cr_assert_eq (snap.n_items, 2u);
  cr_expect_eq (snap.items[0].zone.kind, ENG_ZONE_NONE);
  uint32_t ids[2] = { snap.items[0].track_id, snap.items[1].track_id };
  uint64_t seq = snap.seq;

  /* the zones change, but nobody said so: the cards stay where they came to rest */
  seat_known = true;
  cr_assert_eq (vis_tracker_update (t, d, 2, 0, now, &snap), ENG_OK);
  now += 50 * MS;
  cr_expect_eq (snap.seq, seq);
  cr_expect_eq (snap.items[0].zone.kind, ENG_ZONE_NONE);

  vis_tracker_rezone (t);
  cr_assert_eq (vis_tracker_update (t, d, 2, 0, now, &snap), ENG_OK);
  cr_expect_neq (snap.seq, seq, "a change of zone is a change of the table");
  cr_assert_eq (snap.n_items, 2u);
  for (int i = 0; i < 2; i++)
    {
      const EngSnapshotItem *it = &snap.items[i];
      cr_expect_eq (it->zone.kind, ENG_ZONE_SLOT, "card %d: zone kind %d", i, it->zone.kind);
      cr_expect_eq (it->zone.seat, 1);
      cr_expect_eq (it->zone.index, it->x_mm > 300 ? 1 : 0);
      cr_expect_eq (it->track_id, ids[i], "the card keeps its identity");
      cr_expect_eq (it->since_ns, 100 * MS, "no move: it lies there since it came to rest (third sighting)");
    }

  cr_expect_neq (snap.tracker, 0u);
  EngSnapshot other_snap;
  cr_assert_eq (vis_tracker_update (other, d, 2, 0, 0, &other_snap), ENG_OK);
  cr_expect_neq (other_snap.tracker, snap.tracker, "two trackers, one number");
  vis_tracker_free (other);
  vis_tracker_free (t);
}

/* ---- rest from the card's own motion ------------------------------------- */

/* One frame at 30 fps. */
#define FRAME_30 (1000 * MS / 30)

/* Detection jitter in [-amp, amp], the same every run. */
static float
jitter (unsigned *state, float amp)
{
  *state = *state * 1103515245u + 12345u;
  return amp * ((float) ((*state >> 16) & 0x7fff) / 16383.5f - 1.0f);
}

/* How one card's committed place went over a run. */
typedef struct {
  int moves;                 /* committed changes of place */
  int64_t moved_at;          /* time of the last one */
  float x;                   /* committed x at the end */
  uint32_t id;
  bool lost;                 /* left the snapshot, or changed identity */
} Follow;

static void
follow (const char *p, const EngSnapshot *s, Follow *f)
{
  const EngSnapshotItem *it = find_item (s, p);
  if (it == NULL || (f->id != 0 && it->track_id != f->id))
    {
      f->lost = true;
      return;
    }
  if (f->id != 0 && fabsf (it->x_mm - f->x) > 0.01f)
    {
      f->moves++;
      f->moved_at = s->time_ns;
    }
  f->id = it->track_id;
  f->x = it->x_mm;
}

/* A back at rest at x=200 slides right at 1, 2 then 3 px a frame, slows
 * down (2, 1, 0.5, 0.25) and stops, detections jittering by 0.5 px; the
 * move must be committed once, after it stopped, within `limit` of the
 * first frame at its final place. */
static void
slow_slide (int fps, int64_t limit)
{
  char back[12];
  payload ('B', 1, back);
  VisTracker *t = vis_tracker_new (NULL);
  const int64_t frame = 1000 * MS / fps;
  unsigned rng = 7;
  float x = 200, y = 300;
  int64_t now = 0;
  Follow f = { 0 };
  for (; now < 500 * MS; now += frame)
    {
      VisDetection d = make (back, x + jitter (&rng, 0.5f), y + jitter (&rng, 0.5f));
      cr_assert_eq (vis_tracker_update (t, &d, 1, 0, now, &snap), ENG_OK);
    }
  follow (back, &snap, &f);
  cr_assert_not (f.lost, "the back was not committed at rest");
  static const float slow_down[] = { 2, 1, 0.5f, 0.25f };
  int n_steps = 40 + 20 + 15 + 4;
  for (int i = 0; i < n_steps; i++, now += frame)
    {
      x += i < 40 ? 1.0f : i < 60 ? 2.0f : i < 75 ? 3.0f : slow_down[i - 75];
      VisDetection d = make (back, x + jitter (&rng, 0.5f), y + jitter (&rng, 0.5f));
      cr_assert_eq (vis_tracker_update (t, &d, 1, 0, now, &snap), ENG_OK);
      follow (back, &snap, &f);
      cr_expect_eq (f.moves, 0, "%d fps: a move committed while the card slides (step %d, at x=%.1f)", fps,
                    i, f.x);
    }
  int64_t stopped = now - frame;   /* the last step put it at its final place */
  for (int64_t end = now + 1000 * MS; now < end; now += frame)
    {
      VisDetection d = make (back, x + jitter (&rng, 0.5f), y + jitter (&rng, 0.5f));
      cr_assert_eq (vis_tracker_update (t, &d, 1, 0, now, &snap), ENG_OK);
      follow (back, &snap, &f);
    }
  cr_expect_not (f.lost, "%d fps: the sliding back lost its identity", fps);
  cr_expect_eq (f.moves, 1, "%d fps: %d moves committed", fps, f.moves);
  cr_expect_float_eq (f.x, x, 1.0f, "%d fps: committed at %.1f, at rest at %.1f", fps, f.x, x);
  cr_expect_leq (f.moved_at - stopped, limit, "%d fps: committed %lld ms after it stopped", fps,
                 (long long) ((f.moved_at - stopped) / MS));
  cr_log_info ("%d fps: slide committed %lld ms after the card stopped", fps,
               (long long) ((f.moved_at - stopped) / MS));
  vis_tracker_free (t);
}

/* At 30 fps the third sighting at rest is 67 ms after the first; the last
 * slow steps are below the jitter, so allow one frame more.  At 10 fps the
 * third sighting comes 200 ms after the first. */
Test (track, slow_slide_commits_once_at_rest_30fps) { slow_slide (30, 100 * MS); }
Test (track, slow_slide_commits_once_at_rest_10fps) { slow_slide (10, 200 * MS); }

/* A hand passes over three backs in a row at 30 fps: each is hidden for 6
 * frames, and on the frames the hand's edge covers part of its code it is
 * read 5 px off.  Nothing moves, nothing leaves, nobody changes identity. */
Test (track, hand_passing_over_backs_moves_nothing)
{
  char back[12];
  payload ('B', 2, back);
  VisTracker *t = vis_tracker_new (NULL);
  unsigned rng = 3;
  int64_t now = 0;
  VisDetection d[3];
  for (; now < 300 * MS; now += FRAME_30)
    {
      for (int c = 0; c < 3; c++)
        d[c] = make (back, 200 + 200 * c + jitter (&rng, 0.5f), 300 + jitter (&rng, 0.5f));
      cr_assert_eq (vis_tracker_update (t, d, 3, 0, now, &snap), ENG_OK);
    }
  cr_assert_eq (snap.n_items, 3u);
  uint64_t seq = snap.seq;
  uint32_t ids[3] = { 0 };
  for (uint32_t i = 0; i < 3; i++)
    {
      int c = (int) lroundf ((snap.items[i].x_mm - 200) / 200);
      cr_assert (c >= 0 && c < 3);
      ids[c] = snap.items[i].track_id;
    }
  /* the hand's edge reaches card c at frame 4c, covers it on 4c+1..4c+6,
   * leaves it at 4c+7 */
  for (int f = 0; f < 30; f++, now += FRAME_30)
    {
      size_t n = 0;
      for (int c = 0; c < 3; c++)
        {
          int rel = f - 4 * c;
          if (rel >= 1 && rel <= 6)
            continue;
          float off = rel == 0 || rel == 7 ? 5.0f : 0.0f;
          d[n++] = make (back, 200 + 200 * c + off + jitter (&rng, 0.5f), 300 - off + jitter (&rng, 0.5f));
        }
      cr_assert_eq (vis_tracker_update (t, d, n, 0, now, &snap), ENG_OK);
      cr_expect_eq (snap.n_items, 3u, "frame %d: %u items", f, snap.n_items);
      cr_expect_eq (snap.seq, seq, "frame %d: the hand changed the table", f);
    }
  for (uint32_t i = 0; i < snap.n_items; i++)
    {
      int c = (int) lroundf ((snap.items[i].x_mm - 200) / 200);
      cr_assert (c >= 0 && c < 3);
      cr_expect_eq (snap.items[i].track_id, ids[c], "card %d changed identity", c);
      cr_expect_eq (snap.items[i].flags, 0u, "card %d: flags %u after the hand", c, snap.items[i].flags);
    }
  vis_tracker_free (t);
}

/* A back slid fast (45 px a frame at 30 fps, over half a code) past
 * another back, blurred: decoded on some frames only, once not for four
 * frames in a row (225 px, beyond the match radius of where it was last
 * seen).  It keeps its identity, commits one move once at rest, and no new
 * card appears. */
Test (track, blurred_slide_keeps_identity)
{
  char back[12];
  payload ('B', 1, back);
  VisTracker *t = vis_tracker_new (NULL);
  int64_t now = 0;
  VisDetection d[2];
  d[1] = make (back, 300, 500);
  for (; now < 300 * MS; now += FRAME_30)
    {
      d[0] = make (back, 100, 200);
      cr_assert_eq (vis_tracker_update (t, d, 2, 0, now, &snap), ENG_OK);
    }
  cr_assert_eq (snap.n_items, 2u);
  uint32_t id_slid = 0, id_still = 0;
  for (uint32_t i = 0; i < 2; i++)
    *(snap.items[i].y_mm < 300 ? &id_slid : &id_still) = snap.items[i].track_id;
  /* decoded (1) or blurred (0) on each of the 24 frames of the slide */
  static const char decoded[] = "110000100110101100111111";
  float x = 100;
  for (int f = 0; decoded[f] != 0; f++, now += FRAME_30)
    {
      x += f < 20 ? 45.0f : 0.0f;
      d[0] = make (back, x, 200);
      size_t n = decoded[f] == '1' ? 2 : 1;
      VisDetection *seen = n == 2 ? d : &d[1];
      cr_assert_eq (vis_tracker_update (t, seen, n, 0, now, &snap), ENG_OK);
      cr_expect_leq (snap.n_items, 2u, "frame %d: a new card appeared", f);
    }
  for (int64_t end = now + 200 * MS; now < end; now += FRAME_30)
    cr_assert_eq (vis_tracker_update (t, d, 2, 0, now, &snap), ENG_OK);
  cr_expect_eq (snap.n_items, 2u);
  for (uint32_t i = 0; i < snap.n_items; i++)
    {
      const EngSnapshotItem *it = &snap.items[i];
      if (it->y_mm < 300)
        {
          cr_expect_eq (it->track_id, id_slid, "the slid back changed identity");
          cr_expect_float_eq (it->x_mm, x, 1.0f, "the slid back is not at its place (%.1f)", it->x_mm);
        }
      else
        cr_expect_eq (it->track_id, id_still, "the back it passed changed identity");
    }
  vis_tracker_free (t);
}

/* Detections jittering by 0.5 px: a new card is at rest all the same (its
 * third sighting, 67 ms at 30 fps), and the jitter never commits a move.
 * Jitter of 2 px (a soft webcam) still commits, within the hold's bound. */
static void
jittering (float amp, int64_t limit)
{
  char face[12];
  payload ('F', 21, face);
  VisTracker *t = vis_tracker_new (NULL);
  unsigned rng = 11;
  int64_t now = 0, committed = -1;
  uint64_t seq = 0;
  for (; now < 3000 * MS; now += FRAME_30)
    {
      VisDetection d = make (face, 400 + jitter (&rng, amp), 300 + jitter (&rng, amp));
      cr_assert_eq (vis_tracker_update (t, &d, 1, 0, now, &snap), ENG_OK);
      if (committed < 0 && snap.n_items == 1)
        {
          committed = now;
          seq = snap.seq;
        }
      if (committed >= 0)
        {
          cr_expect_eq (snap.seq, seq, "jitter %.1f: the table changed at %lld ms", amp, (long long) (now / MS));
          cr_expect_eq (snap.n_items, 1u);
        }
    }
  cr_expect_geq (committed, 2 * FRAME_30, "jitter %.1f: committed on its %lld. sighting", amp,
                 (long long) (committed / FRAME_30 + 1));
  cr_expect_leq (committed, limit, "jitter %.1f: committed at %lld ms", amp, (long long) (committed / MS));
  vis_tracker_free (t);
}

Test (track, jitter_commits_nothing_and_delays_little)
{
  jittering (0.5f, 100 * MS);
  jittering (2.0f, 200 * MS);
}

/* A face card slid across the table fast enough that a frame smears it over
 * 15 px (rendered: the shutter open 36 ms, 30 fps), through the detector
 * and the tracker as `watch` runs them: while it slides it may go unread,
 * but it keeps its identity, no move is committed on the way (nor any
 * other card), and once it stops it is read again and its one move is
 * committed within the rest rule's frames. */
Test (track, card_sliding_in_motion_blur_keeps_identity_and_moves_once, .timeout = 240)
{
  char *text = test_grid_scene (10, 5.0, "degrade exposure=0.036\n"
                                         "at 1.0 move c3 to=283,163 over=0.55\n");
  TestScene ts;
  test_scene_open (&ts, text);
  free (text);
  VisDetector *det = test_detector_new (NULL);
  VisTracker *t = vis_tracker_new (NULL);
  char c3[12];
  payload ('F', 3, c3);
  uint32_t id = 0;
  unsigned moves = 0, read_sliding = 0, sliding_frames = 0;
  float last_x = 0, last_y = 0;
  int64_t committed_at = -1;
  for (int f = 0; f < 75; f++)
    {
      double t_s = f / 30.0;
      VisDetectResult r;
      int64_t now = watch_frame (&ts, det, t, t_s, &r);
      bool seen = false;
      for (size_t i = 0; i < r.n_detections; i++)
        seen |= strcmp (r.detections[i].payload, c3) == 0;
      if (t_s > 1.05 && t_s < 1.5)
        {
          sliding_frames++;
          read_sliding += seen;
        }
      if (f < 25)
        continue;   /* the table settles first */
      cr_expect_eq (snap.n_items, 10u, "frame %d: %u items", f, snap.n_items);
      const EngSnapshotItem *it = find_item (&snap, c3);
      cr_assert_not_null (it, "frame %d: the sliding card left the table", f);
      if (id == 0)
        {
          id = it->track_id;
          last_x = it->x_mm;
          last_y = it->y_mm;
        }
      cr_expect_eq (it->track_id, id, "frame %d: the sliding card changed identity", f);
      if (hypotf (it->x_mm - last_x, it->y_mm - last_y) > 1.0f)
        {
          moves++;
          committed_at = now;
          cr_expect_geq (t_s, 1.55, "frame %d: a move committed while the card slid", f);
          last_x = it->x_mm;
          last_y = it->y_mm;
        }
    }
  cr_log_info ("read on %u of %u sliding frames; move committed at %.2f s", read_sliding, sliding_frames,
               committed_at / 1e9);
  cr_expect_lt (read_sliding, sliding_frames, "the blur should have hidden the card at times");
  cr_expect_eq (moves, 1u, "%u moves committed", moves);
  /* it stops at 1.55 s; three sightings at rest at 30 fps, a few frames of
   * the detector to find it again */
  cr_expect_lt (committed_at, (int64_t) 2.0e9, "read again and committed only at %.2f s", committed_at / 1e9);
  vis_tracker_free (t);
  vis_detector_free (det);
  test_scene_close (&ts);
}

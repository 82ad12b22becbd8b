/* The tracker: hold before commit, occlusion grace, moves, flips,
 * duplicates, backs by position - on hand-made detections (exact timing) and
 * on a rendered sequence with a hand passing over the cards. */
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

Test (track, commits_only_after_hold_and_ignores_flicker)
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
  cr_expect_eq (snap.n_items, 1u, "a held for 160 ms is committed");
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

Test (track, move_commits_after_hold_and_keeps_identity)
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
  for (; now < moved + 150 * MS; now += 50 * MS)
    {
      vis_tracker_update (t, &there, 1, 0, now, &snap);
      const EngSnapshotItem *it = find_item (&snap, a);
      cr_assert_not_null (it);
      cr_expect_float_eq (it->x_mm, 200.0f, 0.5f, "moved before the hold (%lld ms)",
                          (long long) ((now - moved) / MS));
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

/* Rendered: a hand sweeps over the middle of 10 cards for 1.5 s, then card
 * c3 slides away; nothing may vanish under the hand, the slide is
 * committed only after it has held. */
Test (track, rendered_hand_and_move, .timeout = 120)
{
  char *text = test_grid_scene (10, 5.0,
                                "at 1.0 hand from=250,120 to=420,130 for=1.5 size=200\n"
                                "at 3.0 move c3 to=600,250 over=0.3\n");
  TestScene ts;
  test_scene_open (&ts, text);
  free (text);
  VisDetector *det = vis_detector_new (NULL);
  VisTracker *t = vis_tracker_new (NULL);
  unsigned max_items = 0, covered_frames = 0;
  float c3_x_before = 0;
  int64_t c3_moved_at = -1;
  char c3[12];
  payload ('F', 3, c3);
  for (int f = 0; f < 45; f++)
    {
      double ts_s = f * 0.1;
      test_scene_render (&ts, ts_s);
      VisDetectResult r;
      cr_assert_eq (vis_detector_detect (det, &ts.image, VIS_DETECT_TRACK, &r), ENG_OK);
      int64_t now = (int64_t) llround (ts_s * 1e9);
      cr_assert_eq (vis_tracker_update (t, r.detections, r.n_detections, r.n_foreign, now, &snap), ENG_OK);
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
  /* The slide ends at 3.3 s; the move may be committed from 3.45 s on. */
  cr_expect_geq (c3_moved_at, (int64_t) (3.45e9), "move committed at %lld ns", (long long) c3_moved_at);
  cr_expect_lt (c3_moved_at, (int64_t) (4.0e9), "move not committed in time (%lld)", (long long) c3_moved_at);
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
      cr_expect_eq (it->since_ns, 150 * MS, "no move: it lies there since it came to rest");
    }

  cr_expect_neq (snap.tracker, 0u);
  EngSnapshot other_snap;
  cr_assert_eq (vis_tracker_update (other, d, 2, 0, 0, &other_snap), ENG_OK);
  cr_expect_neq (other_snap.tracker, snap.tracker, "two trackers, one number");
  vis_tracker_free (other);
  vis_tracker_free (t);
}

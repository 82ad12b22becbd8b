/* vis-track.c: see vis-track.h for the rules. */
#include "vis-track.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_TRACKS 384
#define MAX_DETECTIONS 512
#define MAX_PAIRS 8192
/* Sightings remembered per track: enough to span the hold (150 ms) up to
 * 90 fps. */
#define HISTORY 16
/* Sightings it takes to call a card at rest: with two, jitter and a slow
 * slide look alike. */
#define REST_FRAMES 3
#define DRIFT_SIGHTINGS 6

typedef struct {
  double x, y;
  float rotation, size;
  EngZone zone;
} Place;

typedef struct {
  int64_t t;
  double x, y;
} Sighting;

typedef struct {
  bool used;
  bool committed;
  bool duplicate;
  bool seen_now;
  uint32_t id;
  char payload[ENG_TAG_PAYLOAD_LEN + 1];
  EngTag tag;
  Place at;                 /* committed place (pending tracks: the latest) */
  Place cand;               /* where it is seen away from `at`, not at rest yet */
  bool has_cand;
  bool rezone;              /* take the zone of the place it is next seen at */
  int64_t last_seen;
  int64_t since;
  Sighting seen[HISTORY];   /* the latest sightings, a ring; seen[head] newest */
  uint8_t n_seen, head;
} Track;

static bool
zone_eq (EngZone a, EngZone b)
{
  return a.kind == b.kind && a.seat == b.seat && a.index == b.index;
}

typedef struct {
  float dist;
  uint16_t det;
  uint16_t track;
} Pair;

struct VisTracker {
  VisTrackerOptions opts;
  VisTrackLocate locate;
  void *locate_ctx;
  bool placed;              /* the last frame was placed on the table */
  uint32_t instance;        /* EngSnapshot.tracker */
  uint32_t next_id;
  uint64_t revision;
  int64_t last_time;
  bool have_time;
  Track tracks[MAX_TRACKS];
  Place places[MAX_DETECTIONS];
  int16_t det_track[MAX_DETECTIONS];
  Pair pairs[MAX_PAIRS];
};

void
vis_tracker_options_init (VisTrackerOptions *opts)
{
  opts->hold_ns = 150 * 1000 * 1000LL;
  opts->rest_ns = 50 * 1000 * 1000LL;
  opts->rest_tolerance = 0.02f;
  opts->grace_ns = 2000 * 1000 * 1000LL;
  opts->move_tolerance = 0.5f;
  opts->match_radius = 2.5f;
}

/* A value no other tracker has had, as far as a journal can tell: the
 * clock, the process and a counter, never 0. */
static uint32_t
new_instance (void)
{
  static uint32_t counter;
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  uint64_t x = (uint64_t) ts.tv_sec * 1000000007u ^ (uint64_t) ts.tv_nsec ^ ((uint64_t) getpid () << 32)
               ^ __atomic_add_fetch (&counter, 1, __ATOMIC_RELAXED) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  uint32_t v = (uint32_t) x;
  return v != 0 ? v : 1;
}

VisTracker *
vis_tracker_new (const VisTrackerOptions *opts)
{
  VisTracker *t = calloc (1, sizeof *t);
  if (t == NULL)
    return NULL;
  if (opts != NULL)
    t->opts = *opts;
  else
    vis_tracker_options_init (&t->opts);
  t->next_id = 1;
  t->instance = new_instance ();
  return t;
}

void
vis_tracker_free (VisTracker *tracker)
{
  free (tracker);
}

void
vis_tracker_reset (VisTracker *tracker)
{
  if (tracker == NULL)
    return;
  memset (tracker->tracks, 0, sizeof tracker->tracks);
  tracker->revision++;
}

void
vis_tracker_rezone (VisTracker *tracker)
{
  if (tracker == NULL)
    return;
  for (int k = 0; k < MAX_TRACKS; k++)
    tracker->tracks[k].rezone = tracker->tracks[k].used;
}

void
vis_tracker_set_locate (VisTracker *tracker, VisTrackLocate locate, void *ctx)
{
  if (tracker == NULL)
    return;
  tracker->locate = locate;
  tracker->locate_ctx = ctx;
  vis_tracker_reset (tracker);
}

static float
place_dist (const Place *a, const Place *b)
{
  return (float) hypot (a->x - b->x, a->y - b->y);
}

static void
remember (Track *k, const Place *p, int64_t now)
{
  k->head = (uint8_t) ((k->head + 1) % HISTORY);
  k->seen[k->head] = (Sighting) { now, p->x, p->y };
  if (k->n_seen < HISTORY)
    k->n_seen++;
}

/* The i-th latest sighting, 0 the newest; i < n_seen. */
static const Sighting *
sighting (const Track *k, int i)
{
  return &k->seen[(k->head + HISTORY - i) % HISTORY];
}

static double
sighting_dist (const Sighting *a, const Sighting *b)
{
  return hypot (a->x - b->x, a->y - b->y);
}

/* How many of the newest sightings in a row lie within `radius` of the
 * newest. */
static int
still_run (const Track *k, double radius)
{
  int n = k->n_seen > 0;
  while (n < k->n_seen && sighting_dist (sighting (k, n), sighting (k, 0)) <= radius)
    n++;
  return n;
}

/* Whether the card has stopped rather than slowed: over its newest
 * sightings near the newest (up to DRIFT_SIGHTINGS, within three
 * tolerances), the two oldest lie on average within `tol` of the two newest.
 * Jitter averages out; a slide of more than a quarter of `tol` a frame adds
 * up to more than `tol` over the four frames between those pairs.  Few
 * sightings, so that a card which slowed down to stop is not held to its
 * earlier speed. */
static bool
no_drift (const Track *k, double tol)
{
  int n = still_run (k, 3 * tol);
  if (n > DRIFT_SIGHTINGS)
    n = DRIFT_SIGHTINGS;
  if (n < 4)
    return true;
  const Sighting *a = sighting (k, n - 1), *b = sighting (k, n - 2);
  const Sighting *c = sighting (k, 1), *d = sighting (k, 0);
  return hypot (a->x + b->x - c->x - d->x, a->y + b->y - c->y - d->y) / 2 <= tol;
}

/* At rest: the card's newest sightings lie still.  Normally REST_FRAMES of
 * them over at least rest_ns within the rest tolerance, with no drift;
 * detections too noisy for that (a soft webcam) count once they have stayed
 * within four tolerances for hold_ns, with no drift beyond two.  A single
 * sighting proves nothing. */
static bool
at_rest (const VisTrackerOptions *o, const Track *k, float size)
{
  double tol = o->rest_tolerance * size;
  if (k->n_seen < 2)
    return false;
  int64_t newest = sighting (k, 0)->t;
  int n = still_run (k, tol);
  if (n >= REST_FRAMES && newest - sighting (k, n - 1)->t >= o->rest_ns && no_drift (k, tol))
    return true;
  n = still_run (k, 4 * tol);
  return newest - sighting (k, n - 1)->t >= o->hold_ns && no_drift (k, 2 * tol);
}

/* Where an unseen card sliding at its last speed would be now: a back in
 * motion blur (not decoded for a few frames) is looked for there too. */
static bool
predicted (const VisTrackerOptions *o, const Track *k, int64_t now, Place *out)
{
  if (k->n_seen < 2)
    return false;
  const Sighting *b = sighting (k, 0), *a = sighting (k, 1);
  if (b->t <= a->t || b->t - a->t > o->hold_ns || now - b->t > 2 * o->hold_ns)
    return false;
  double f = (double) (now - b->t) / (double) (b->t - a->t);
  *out = k->has_cand ? k->cand : k->at;
  out->x = b->x + (b->x - a->x) * f;
  out->y = b->y + (b->y - a->y) * f;
  return true;
}

static void
image_place (const VisDetection *d, Place *p)
{
  p->x = d->centre.x;
  p->y = d->centre.y;
  p->rotation = d->rotation_deg;
  p->size = d->module_px * 21.0f;
  p->zone.kind = ENG_ZONE_NONE;
  p->zone.seat = -1;
  p->zone.index = -1;
}

static int
cmp_pair (const void *a, const void *b)
{
  float x = ((const Pair *) a)->dist, y = ((const Pair *) b)->dist;
  return x < y ? -1 : x > y;
}

static Track *
new_track (VisTracker *t, const VisDetection *d, const Place *p, int64_t now)
{
  for (int i = 0; i < MAX_TRACKS; i++)
    if (!t->tracks[i].used)
      {
        Track *k = &t->tracks[i];
        memset (k, 0, sizeof *k);
        k->used = true;
        k->id = t->next_id++;
        if (t->next_id == 0)
          t->next_id = 1;
        memcpy (k->payload, d->payload, sizeof k->payload);
        k->tag = d->tag;
        k->at = *p;
        k->last_seen = k->since = now;
        k->seen_now = true;
        remember (k, p, now);
        return k;
      }
  return NULL;
}

/* Something committed at `p`: a committed track at that spot that is not
 * seen now is not hidden, it is gone (flipped, covered for good). */
static void
evict_under (VisTracker *t, const Track *keep, const Place *p)
{
  for (int i = 0; i < MAX_TRACKS; i++)
    {
      Track *k = &t->tracks[i];
      if (!k->used || k == keep || !k->committed || k->seen_now)
        continue;
      if (place_dist (&k->at, p) < t->opts.move_tolerance * p->size)
        {
          k->used = false;
          t->revision++;
        }
    }
}

/* Places every detection (dets[i] to t->places[i]); the whole frame is
 * placed on the table or none of it.  Returns whether it was placed. */
static bool
place_frame (VisTracker *t, const VisDetection *dets, size_t n)
{
  bool placed = t->locate != NULL;
  for (size_t i = 0; i < n && placed; i++)
    {
      VisTrackPlace vp;
      placed = t->locate (t->locate_ctx, &dets[i], &vp);
      if (placed)
        {
          t->places[i].x = vp.x;
          t->places[i].y = vp.y;
          t->places[i].rotation = vp.rotation_deg;
          t->places[i].size = vp.size;
          t->places[i].zone = vp.zone;
        }
    }
  if (!placed)
    for (size_t i = 0; i < n; i++)
      image_place (&dets[i], &t->places[i]);
  if (placed != t->placed && n > 0)
    {
      /* Pixels and millimetres do not mix: start over in the new frame. */
      memset (t->tracks, 0, sizeof t->tracks);
      t->revision++;
      t->placed = placed;
    }
  return placed;
}

/* Matches detections to tracks (t->det_track, -1 for none), nearest pairs
 * first: same payload, within the match radius of where the track is, is
 * moving to, or would have slid to. */
static void
match_tracks (VisTracker *t, const VisDetection *dets, size_t n, int64_t now)
{
  const VisTrackerOptions *o = &t->opts;
  for (int i = 0; i < MAX_TRACKS; i++)
    t->tracks[i].seen_now = false;
  for (size_t i = 0; i < n; i++)
    t->det_track[i] = -1;

  size_t n_pairs = 0;
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < MAX_TRACKS; k++)
      {
        const Track *tr = &t->tracks[k];
        if (!tr->used || strcmp (tr->payload, dets[i].payload) != 0)
          continue;
        float d = place_dist (&tr->at, &t->places[i]);
        if (tr->has_cand)
          d = fminf (d, place_dist (&tr->cand, &t->places[i]));
        Place ahead;
        if (predicted (o, tr, now, &ahead))
          d = fminf (d, place_dist (&ahead, &t->places[i]));
        if (d > o->match_radius * t->places[i].size || n_pairs >= MAX_PAIRS)
          continue;
        t->pairs[n_pairs++] = (Pair){ d, (uint16_t) i, (uint16_t) k };
      }
  qsort (t->pairs, n_pairs, sizeof (Pair), cmp_pair);
  for (size_t p = 0; p < n_pairs; p++)
    {
      Pair *pr = &t->pairs[p];
      if (t->det_track[pr->det] >= 0 || t->tracks[pr->track].seen_now)
        continue;
      t->det_track[pr->det] = (int16_t) pr->track;
      t->tracks[pr->track].seen_now = true;
    }
  /* A face seen away from its track while that track is unseen: it moved. */
  for (size_t i = 0; i < n; i++)
    {
      if (t->det_track[i] >= 0 || dets[i].tag.kind == ENG_TAG_BACK)
        continue;
      for (int k = 0; k < MAX_TRACKS; k++)
        {
          Track *tr = &t->tracks[k];
          if (tr->used && !tr->seen_now && strcmp (tr->payload, dets[i].payload) == 0)
            {
              t->det_track[i] = (int16_t) k;
              tr->seen_now = true;
              break;
            }
        }
    }
}

/* A matched track seen at `p`: a pending track commits once at rest; a
 * committed one moves once at rest away from its place. */
static void
update_track (VisTracker *t, Track *k, const Place *p, int64_t now)
{
  const VisTrackerOptions *o = &t->opts;
  k->last_seen = now;
  remember (k, p, now);
  if (!k->committed)
    {
      k->at = *p;
      if (at_rest (o, k, p->size))
        {
          k->committed = true;
          k->since = now;
          t->revision++;
          evict_under (t, k, p);
        }
      return;
    }
  float tol = o->move_tolerance * p->size;
  if (place_dist (&k->at, p) < tol)
    {
      /* Jitter around the committed place: nothing to report.  The
       * place is not dragged along, so a slow creep still adds up to a
       * move (and a zone change) once it exceeds the tolerance. */
      k->has_cand = false;
      if (k->rezone && !zone_eq (k->at.zone, p->zone))
        {
          k->at.zone = p->zone;
          t->revision++;
        }
      k->rezone = false;
      return;
    }
  /* Away from its place: a move once it is at rest there, never on
   * the way (however slowly it slides). */
  k->has_cand = true;
  k->cand = *p;
  if (at_rest (o, k, p->size))
    {
      k->at = *p;
      k->has_cand = false;
      k->since = now;
      t->revision++;
      evict_under (t, k, p);
    }
}

/* Updates the matched tracks and spawns one for each unmatched detection;
 * ENG_ERR_LIMIT when the track table is full. */
static EngStatus
update_and_spawn (VisTracker *t, const VisDetection *dets, size_t n, int64_t now)
{
  EngStatus status = ENG_OK;
  for (size_t i = 0; i < n; i++)
    {
      const Place *p = &t->places[i];
      if (t->det_track[i] >= 0)
        {
          update_track (t, &t->tracks[t->det_track[i]], p, now);
          continue;
        }
      Track *k = new_track (t, &dets[i], p, now);
      if (k == NULL)
        {
          status = ENG_ERR_LIMIT;
          continue;
        }
      t->det_track[i] = (int16_t) (k - t->tracks);
    }
  return status;
}

/* Unseen tracks: flicker goes quietly, committed items wait for grace. */
static void
age_unseen (VisTracker *t, int64_t now)
{
  const VisTrackerOptions *o = &t->opts;
  for (int k = 0; k < MAX_TRACKS; k++)
    {
      Track *tr = &t->tracks[k];
      if (!tr->used || tr->seen_now)
        continue;
      if (!tr->committed)
        {
          if (now - tr->last_seen > o->hold_ns)
            tr->used = false;
        }
      else if (now - tr->last_seen > o->grace_ns)
        {
          tr->used = false;
          t->revision++;
        }
    }
}

/* Duplicates: one face payload held by two live tracks. */
static void
mark_duplicates (VisTracker *t)
{
  for (int k = 0; k < MAX_TRACKS; k++)
    {
      Track *tr = &t->tracks[k];
      if (!tr->used)
        continue;
      bool dup = false;
      if (tr->tag.kind != ENG_TAG_BACK)
        for (int j = 0; j < MAX_TRACKS && !dup; j++)
          dup = j != k && t->tracks[j].used && strcmp (t->tracks[j].payload, tr->payload) == 0;
      if (dup != tr->duplicate && tr->committed)
        t->revision++;
      tr->duplicate = dup;
    }
}

/* The committed tracks as the snapshot's items; ENG_ERR_LIMIT when they
 * do not all fit. */
static EngStatus
fill_snapshot (const VisTracker *t, bool placed, unsigned n_foreign, int64_t now, EngSnapshot *out)
{
  memset (out, 0, offsetof (EngSnapshot, items));
  out->seq = t->revision;
  out->tracker = t->instance;
  out->time_ns = now;
  out->calibrated = placed ? 1 : 0;
  out->n_foreign = (uint16_t) (n_foreign > UINT16_MAX ? UINT16_MAX : n_foreign);
  for (int k = 0; k < MAX_TRACKS; k++)
    {
      const Track *tr = &t->tracks[k];
      if (!tr->used || !tr->committed)
        continue;
      if (out->n_items >= ENG_SNAPSHOT_MAX_ITEMS)
        return ENG_ERR_LIMIT;
      EngSnapshotItem *it = &out->items[out->n_items++];
      memset (it, 0, sizeof *it);
      memcpy (it->payload, tr->payload, sizeof it->payload);
      it->tag_kind = (char) tr->tag.kind;
      it->serial = tr->tag.serial;
      it->track_id = tr->id;
      it->x_mm = (float) tr->at.x;
      it->y_mm = (float) tr->at.y;
      it->angle_deg = tr->at.rotation;
      it->zone = tr->at.zone;
      it->flags = (uint8_t) ((tr->seen_now ? 0 : ENG_SNAP_OCCLUDED) | (tr->duplicate ? ENG_SNAP_DUPLICATE : 0)
                             | (tr->has_cand ? ENG_SNAP_MOVING : 0));
      it->since_ns = tr->since;
    }
  return ENG_OK;
}

EngStatus
vis_tracker_update (VisTracker *t, const VisDetection *dets, size_t n, unsigned n_foreign,
                    int64_t now, EngSnapshot *out)
{
  if (t == NULL || out == NULL || (dets == NULL && n > 0) || (t->have_time && now < t->last_time))
    return ENG_ERR_INVALID_ARGUMENT;
  EngStatus status = ENG_OK;
  if (n > MAX_DETECTIONS)
    {
      n = MAX_DETECTIONS;
      status = ENG_ERR_LIMIT;
    }
  t->have_time = true;
  t->last_time = now;

  bool placed = place_frame (t, dets, n);
  match_tracks (t, dets, n, now);
  if (update_and_spawn (t, dets, n, now) != ENG_OK)
    status = ENG_ERR_LIMIT;
  age_unseen (t, now);
  mark_duplicates (t);
  if (fill_snapshot (t, placed, n_foreign, now, out) != ENG_OK)
    status = ENG_ERR_LIMIT;
  return status;
}

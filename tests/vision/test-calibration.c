/* Calibration: the table plane from the anchors (layout derived from the
 * sticker size), seats and Katua zones, recalibration when the camera moves,
 * the calibration and zone files (round trip and refusals). */
#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cal-table.h"
#include "scene-util.h"
#include "vis-detect.h"
#include "vis-track.h"

/* Anchors 780 x 440 mm apart, two seats, Katua-ish cards; the camera nudges
 * at 1.0 s. */
static const char *const table_scene =
  "image width=1920 height=1080 fps=10 duration=3 seed=3 format=png\n"
  "camera height=800 tilt=0 fov=62\n"
  "table width=900 height=560\n"
  "tags game=K set=01\n"
  "sticker size=40 quiet=2\n"
  "anchor a1 number=1 at=60,60\n"
  "anchor a2 number=2 at=840,60\n"
  "anchor a3 number=3 at=840,500\n"
  "anchor a4 number=4 at=60,500\n"
  "seat s1 number=1 at=450,500\n"
  "seat s2 number=2 at=450,60 rot=180\n"
  "card c1 face=1 back=1 at=365,390\n"
  "card c2 face=2 back=1 at=450,390\n"
  "card c3 face=3 back=1 at=535,390 down\n"
  "card c4 face=40 back=2 at=450,280\n"
  "card c5 face=41 back=2 at=535,170 rot=180\n"
  "at 1.0 camera yaw=3 target=470,290 tilt=6\n";

static CalZones zones;

static void
load_katua_zones (void)
{
  const char *dir = g_getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir, "TABLERO_DATADIR must be set by meson");
  g_autofree char *path = g_build_filename (dir, "zones", "katua.zones", NULL);
  EngParseError err = { 0 };
  cr_assert_eq (cal_zones_load_file (path, &zones, &err), ENG_OK, "%s:%u: %s", err.source, err.line, err.reason);
}

static const VisDetection *
find (const VisDetectResult *r, const char *payload)
{
  for (size_t i = 0; i < r->n_detections; i++)
    if (strcmp (r->detections[i].payload, payload) == 0)
      return &r->detections[i];
  return NULL;
}

Test (calibration, anchors_seats_zones_and_moved_camera, .timeout = 120)
{
  load_katua_zones ();
  TestScene ts;
  test_scene_open (&ts, table_scene);
  VisDetector *det = test_detector_new (NULL);
  CalTable *table = cal_table_new ();
  cal_table_set_zones (table, &zones);

  test_scene_render (&ts, 0.0);
  VisDetectResult r;
  cr_assert_eq (vis_detector_detect (det, &ts.image, VIS_DETECT_COLD, &r), ENG_OK);
  CalObservation obs;
  cr_assert_eq (cal_table_observe (table, r.detections, r.n_detections, 1920, 1080, &obs), ENG_OK);
  cr_assert (obs.recalibrated, "four anchors in view must calibrate");
  cr_expect_eq (obs.anchors_seen, 4u);
  double mm[4][2];
  cr_assert (cal_table_anchor_layout (table, mm));
  /* Derived from the sticker size: within 2 % of the true 780 x 440. */
  cr_expect_float_eq (mm[1][0], 780.0, 780.0 * 0.02, "width %.1f", mm[1][0]);
  cr_expect_float_eq (mm[3][1], 440.0, 440.0 * 0.02, "height %.1f", mm[3][1]);
  cr_assert_eq (cal_table_n_seats (table), 2u);
  const CalSeat *s1 = cal_table_seat (table, 0);
  cr_expect_eq (s1->number, 1u);
  cr_expect_float_eq (s1->fwd_y, -1.0, 0.05, "seat 1 faces the centre (up)");

  /* c1/c2 lie in seat 1's left/middle cat slots, c3 (face down) in the
   * right one; c4 on the UFO deck (centre); c5 in seat 2's slot... */
  struct {
    const char *payload;
    int kind, seat, index;
  } expect[] = {
    { "TB1K01F001W", ENG_ZONE_SLOT, 0, 0 },
    { "TB1K01F002U", ENG_ZONE_SLOT, 0, 1 },
    { "TB1K01B0010", ENG_ZONE_SLOT, 0, 2 },
    { "TB1K01F040U", ENG_ZONE_DECK, -1, 1 },
  };
  VisTrackPlace before[4];
  for (size_t i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      const VisDetection *d = find (&r, expect[i].payload);
      cr_assert_not_null (d, "%s not detected", expect[i].payload);
      cr_assert (cal_table_locate (table, d, &before[i]));
      cr_expect_eq (before[i].zone.kind, expect[i].kind, "%s: zone %s", expect[i].payload,
                    cal_zone_kind_to_string ((EngZoneKind) before[i].zone.kind));
      cr_expect_eq (before[i].zone.seat, expect[i].seat, "%s: seat %d", expect[i].payload, before[i].zone.seat);
      cr_expect_eq (before[i].zone.index, expect[i].index, "%s: index %d", expect[i].payload,
                    before[i].zone.index);
      cr_expect_float_eq (before[i].size, 33.6, 2.0, "code side %.1f mm", before[i].size);
    }
  /* Table position of c1: (365, 390) on the scene table = (305, 330) from anchor 1. */
  cr_expect_float_eq (before[0].x, 305.0, 8.0);
  cr_expect_float_eq (before[0].y, 330.0, 8.0);

  /* Same frame again: nothing to recalibrate. */
  cr_assert_eq (cal_table_observe (table, r.detections, r.n_detections, 1920, 1080, &obs), ENG_OK);
  cr_expect (!obs.recalibrated);

  /* The camera moved: recalibrated, and cards keep their table positions. */
  test_scene_render (&ts, 1.5);
  cr_assert_eq (vis_detector_detect (det, &ts.image, VIS_DETECT_COLD, &r), ENG_OK);
  cr_assert_eq (cal_table_observe (table, r.detections, r.n_detections, 1920, 1080, &obs), ENG_OK);
  cr_expect (obs.recalibrated, "a moved camera must trigger recalibration");
  double mm2[4][2];
  cr_assert (cal_table_anchor_layout (table, mm2));
  cr_expect_float_eq (mm2[1][0], mm[1][0], 1e-9, "the table frame must not change on recalibration");
  for (size_t i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      const VisDetection *d = find (&r, expect[i].payload);
      cr_assert_not_null (d);
      VisTrackPlace after;
      cr_assert (cal_table_locate (table, d, &after));
      cr_expect_lt (hypot (after.x - before[i].x, after.y - before[i].y), 5.0, "%s moved %.1f mm on the table",
                    expect[i].payload, hypot (after.x - before[i].x, after.y - before[i].y));
      cr_expect_eq (after.zone.kind, before[i].zone.kind);
    }

  /* Round trip through the file. */
  g_autofree char *dir = g_dir_make_tmp ("tablero-cal-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "table.cal", NULL);
  cr_assert_eq (cal_table_save (table, path), ENG_OK);
  CalTable *loaded = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (cal_table_load (path, &loaded, &err), ENG_OK, "%s:%u: %s", err.source, err.line, err.reason);
  cr_expect (cal_table_is_calibrated (loaded));
  cr_expect_str_eq (cal_table_zones_game (loaded), "katua");
  cr_expect_eq (cal_table_n_seats (loaded), 2u);
  double ax, ay, bx, by;
  cr_assert_eq (cal_table_image_to_table (table, 900, 500, &ax, &ay), ENG_OK);
  cr_assert_eq (cal_table_image_to_table (loaded, 900, 500, &bx, &by), ENG_OK);
  cr_expect_float_eq (ax, bx, 1e-3);
  cr_expect_float_eq (ay, by, 1e-3);
  cal_table_free (loaded);
  g_unlink (path);
  g_rmdir (dir);

  cal_table_free (table);
  vis_detector_free (det);
  test_scene_close (&ts);
}

/* Found by tests/fuzz/fuzz-calibration: files the loader takes that
 * cal_table_save wrote back in a form the loader refused. */
Test (calibration, what_loads_saves_and_loads_again)
{
  static const char *const texts[] = {
    "format=tablero-calibration-1\nrecalibrate_px=0.001\n",
    "format=tablero-calibration-1\nimage=10x10\n"
    "anchor.1.mm=0,0\nanchor.2.mm=1,0\nanchor.3.mm=1,1\nanchor.4.mm=0,1\n"
    "anchor.1.px=0,0\nanchor.2.px=1,0\nanchor.3.px=1,1\nanchor.4.px=0,1\n"
    "homography=1,0,0,0,1,0,0,0,1\nseat.1=1e300,-1e300,1e300,1e300\n",
  };
  g_autofree char *dir = g_dir_make_tmp ("tablero-cal-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "table.cal", NULL);
  for (size_t i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      CalTable *t = NULL, *back = NULL;
      EngParseError err = { 0 };
      cr_assert_eq (cal_table_parse (texts[i], strlen (texts[i]), "text", &t, &err), ENG_OK,
                    "%u: %s", err.line, err.reason);
      cr_assert_eq (cal_table_save (t, path), ENG_OK);
      cr_expect_eq (cal_table_load (path, &back, &err), ENG_OK, "text %zu saved: %u: %s", i, err.line,
                    err.reason);
      cr_expect_eq (cal_table_n_seats (back), cal_table_n_seats (t));
      cal_table_free (back);
      cal_table_free (t);
    }
  g_unlink (path);
  g_rmdir (dir);
}

Test (calibration, needs_four_anchors)
{
  CalTable *t = cal_table_new ();
  VisDetection d;
  memset (&d, 0, sizeof d);
  cr_assert_eq (eng_tag_parse ("TB1K01A0011", 11, &d.tag), ENG_OK);
  strcpy (d.payload, "TB1K01A0011");
  cr_expect_eq (cal_table_calibrate (t, &d, 1, 1920, 1080), ENG_ERR_NOT_FOUND);
  cr_expect (!cal_table_is_calibrated (t));
  double x, y;
  cr_expect_eq (cal_table_image_to_table (t, 1, 1, &x, &y), ENG_ERR_STATE);
  VisTrackPlace p;
  cr_expect (!cal_table_locate (t, &d, &p));
  cal_table_free (t);
}

static void
expect_refused (const char *text, EngStatus want, unsigned line)
{
  CalTable *t = (CalTable *) 0x1;
  EngParseError err = { 0 };
  EngStatus st = cal_table_parse (text, strlen (text), "bad.cal", &t, &err);
  cr_expect_eq (st, want, "'%s': got %s", text, eng_status_to_string (st));
  cr_expect_null (t);
  cr_expect_eq (err.line, line, "'%s': line %u", text, err.line);
  cr_expect_neq (err.reason[0], '\0');
}

Test (calibration, file_errors_are_clear)
{
  expect_refused ("", ENG_ERR_SYNTAX, 0);
  expect_refused ("format=tablero-calibration-1\nsticker_mm=abc\n", ENG_ERR_SYNTAX, 2);
  expect_refused ("format=tablero-calibration-1\nwhat=1\n", ENG_ERR_UNKNOWN_ATTRIBUTE, 2);
  expect_refused ("format=tablero-calibration-1\nno equals sign\n", ENG_ERR_SYNTAX, 2);
  expect_refused ("format=tablero-calibration-1\nhomography=1,0,0,0,1,0,0,0,1\n", ENG_ERR_INCONSISTENT, 0);
  expect_refused ("format=tablero-calibration-1\nanchor.1.mm=0,0\n", ENG_ERR_INCONSISTENT, 0);
  expect_refused ("format=tablero-calibration-1\nlens.k=1,0,0,0,1,0,0,0,1\n", ENG_ERR_INCONSISTENT, 0);
  /* a lens without the image size it was made at (saved as "0x0", which no
   * longer loaded) */
  expect_refused ("format=tablero-calibration-1\nlens.k=1,0,0,0,1,0,0,0,1\nlens.dist=0,0,0,0,0\n",
                  ENG_ERR_INCONSISTENT, 0);
  expect_refused ("format=tablero-calibration-2\n", ENG_ERR_SYNTAX, 1);
  const char nul[] = "format=tablero-calibration-1\nsticker_mm=4\0" "0\n";
  CalTable *t = NULL;
  cr_expect_neq (cal_table_parse (nul, sizeof nul - 1, "nul", &t, NULL), ENG_OK);
  cr_expect_null (t);
  EngParseError err = { 0 };
  cr_expect_eq (cal_table_load ("/nonexistent/table.cal", &t, &err), ENG_ERR_IO);
  cr_expect_null (t);
}

Test (calibration, zone_file_errors_are_clear)
{
  CalZones z;
  EngParseError err = { 0 };
  const char *a = "game katua\nseat-zone kind=slot index=0 at=0,0\n";
  cr_expect_eq (cal_zones_parse (a, strlen (a), "z", &z, &err), ENG_ERR_SYNTAX);
  cr_expect_eq (err.line, 2u);
  const char *b = "seat-zone kind=throne at=0,0 size=1,1\n";
  cr_expect_eq (cal_zones_parse (b, strlen (b), "z", &z, &err), ENG_ERR_UNKNOWN_ATTRIBUTE);
  const char *c = "shared-zone kind=deck at=0,x size=1,1\n";
  cr_expect_eq (cal_zones_parse (c, strlen (c), "z", &z, &err), ENG_ERR_SYNTAX);
  const char *d = "table-zone kind=deck at=0,0 size=1,1\n";
  cr_expect_eq (cal_zones_parse (d, strlen (d), "z", &z, &err), ENG_ERR_UNKNOWN_ATTRIBUTE);
  const char *e = "# ok\ngame katua\nshared-zone kind=deck index=1 at=10,0 size=20,20 # comment\n";
  cr_assert_eq (cal_zones_parse (e, strlen (e), "z", &z, &err), ENG_OK);
  cr_expect_eq (z.n, 1u);
  EngZone hit = cal_zones_find (&z, NULL, 0, 100, 100, 112, 95);
  cr_expect_eq (hit.kind, ENG_ZONE_DECK);
  cr_expect_eq (hit.index, 1);
  EngZone miss = cal_zones_find (&z, NULL, 0, 100, 100, 150, 95);
  cr_expect_eq (miss.kind, ENG_ZONE_NONE);
}

/* Calibration and zone file errors quote the bad text escaped. */
Test (calibration, file_errors_never_echo_control_bytes)
{
  const char *texts[] = { "format=tablero-calibration-1\n\x1b[2Jwhat=1\n",
                          "format=tablero-calibration-1\nsticker_mm=\x1b]0;x\x07\n" };
  for (size_t i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      CalTable *t = NULL;
      EngParseError err = { 0 };
      cr_assert_neq (cal_table_parse (texts[i], strlen (texts[i]), "esc\x1b.cal", &t, &err), ENG_OK);
      cr_expect (strchr (err.reason, 0x1b) == NULL && strchr (err.reason, 0x07) == NULL, "%s", err.reason);
      cr_expect (strstr (err.reason, "\\x1b") != NULL, "case %zu: '%s' hides the bad byte", i, err.reason);
      cr_expect_str_eq (err.source, "esc\\x1b.cal");
    }
  CalZones z;
  EngParseError err = { 0 };
  const char *zone_text = "seat-zone kind=\x1b[5mthrone at=0,0 size=1,1\n";
  cr_assert_neq (cal_zones_parse (zone_text, strlen (zone_text), "z", &z, &err), ENG_OK);
  cr_expect (strchr (err.reason, 0x1b) == NULL, "%s", err.reason);
}

Test (calibration, seat_frame_left_to_right)
{
  /* A seat at the bottom facing up and one at the top facing down: slot 0 is
   * on each player's left. */
  CalZones z;
  const char *text = "seat-zone kind=slot index=0 at=-50,50 size=40,40\n"
                     "seat-zone kind=slot index=2 at=50,50 size=40,40\n";
  cr_assert_eq (cal_zones_parse (text, strlen (text), "z", &z, NULL), ENG_OK);
  CalSeat seats[2] = { { 1, 200, 300, 0, -1 }, { 2, 200, 0, 0, 1 } };
  EngZone a = cal_zones_find (&z, seats, 2, 200, 150, 150, 250);
  cr_expect_eq (a.kind, ENG_ZONE_SLOT);
  cr_expect_eq (a.seat, 0);
  cr_expect_eq (a.index, 0);
  EngZone b = cal_zones_find (&z, seats, 2, 200, 150, 150, 50);
  cr_expect_eq (b.seat, 1);
  cr_expect_eq (b.index, 2, "seat 2 looks the other way: x=150 is on its right");
}

Test (calibration, lens_undistort_roundtrip_and_checkerboard_refusals)
{
  CalLens none = { 0 };
  double p[2] = { 100.5, 200.5 };
  cal_lens_undistort_points (&none, p, 1);
  cr_expect_float_eq (p[0], 100.5, 1e-9);
  CalLens lens = { true, 1920, 1080, { 1500, 0, 960, 0, 1500, 540, 0, 0, 1 }, { -0.1, 0, 0, 0, 0 }, 0 };
  double q[2] = { 960.5, 540.5 };
  cal_lens_undistort_points (&lens, q, 1);
  cr_expect_float_eq (q[0], 960.5, 1e-6, "the principal point does not move");
  double r[2] = { 1800.5, 1000.5 };
  cal_lens_undistort_points (&lens, r, 1);
  cr_expect_gt (r[0], 1800.5, "barrel distortion pulled the corner in; undistorting pushes it out");
  const char *paths[] = { "/nonexistent/a.png", "/nonexistent/b.png" };
  size_t skipped = 0;
  CalLens out;
  cr_expect_eq (cal_lens_calibrate_checkerboard (paths, 2, 9, 6, 25.0, &out, &skipped), ENG_ERR_NOT_FOUND);
  cr_expect_eq (skipped, 2u);
  cr_expect_eq (cal_lens_calibrate_checkerboard (paths, 2, 1, 6, 25.0, &out, &skipped), ENG_ERR_INVALID_ARGUMENT);
  /* A grid no printed board has is refused at once, not searched for. */
  cr_expect_eq (cal_lens_calibrate_checkerboard (paths, 2, 100000, 100000, 1.0, &out, &skipped),
                ENG_ERR_INVALID_ARGUMENT);
  cr_expect_eq (cal_lens_calibrate_checkerboard (paths, 2, 9, CAL_LENS_MAX_CORNERS + 1, 1.0, &out, &skipped),
                ENG_ERR_INVALID_ARGUMENT);
  cr_expect_eq (cal_lens_calibrate_checkerboard (paths, 2, 9, 6, INFINITY, &out, &skipped),
                ENG_ERR_INVALID_ARGUMENT);
}

/* Detector, self-recalibrating table and tracker over a sequence in which
 * the camera is nudged: the snapshot keeps every card, in the same zones,
 * with the same identities, and never shows one twice. */
Test (calibration, camera_nudge_keeps_the_snapshot, .timeout = 180)
{
  load_katua_zones ();
  TestScene ts;
  test_scene_open (&ts, table_scene);
  VisDetector *det = test_detector_new (NULL);
  CalTable *table = cal_table_new ();
  cal_table_set_zones (table, &zones);
  VisTracker *tracker = vis_tracker_new (NULL);
  vis_tracker_set_locate (tracker, cal_table_locate, table);
  static EngSnapshot snap;
  uint32_t ids_before[ENG_SNAPSHOT_MAX_ITEMS];
  char payloads[ENG_SNAPSHOT_MAX_ITEMS][ENG_SNAPSHOT_PAYLOAD];
  uint32_t n_before = 0;
  unsigned recalibrations = 0;
  for (int f = 0; f < 22; f++)
    {
      double t = f * 0.1;
      test_scene_render (&ts, t);
      VisDetectResult r;
      cr_assert_eq (vis_detector_detect (det, &ts.image, VIS_DETECT_TRACK, &r), ENG_OK);
      CalObservation obs;
      cr_assert_eq (cal_table_observe (table, r.detections, r.n_detections, 1920, 1080, &obs), ENG_OK);
      recalibrations += obs.recalibrated;
      cr_assert_eq (vis_tracker_update (tracker, r.detections, r.n_detections, r.n_foreign,
                                        (int64_t) llround (t * 1e9), &snap),
                    ENG_OK);
      if (f == 9)
        {
          cr_assert (snap.calibrated);
          n_before = snap.n_items;
          for (uint32_t i = 0; i < snap.n_items; i++)
            {
              ids_before[i] = snap.items[i].track_id;
              memcpy (payloads[i], snap.items[i].payload, sizeof payloads[i]);
            }
        }
      if (f > 9)
        cr_expect_eq (snap.n_items, n_before, "frame %d: %u items, %u before the nudge", f, snap.n_items, n_before);
    }
  /* 4 anchors, 2 seats, 5 cards */
  cr_expect_eq (n_before, 11u);
  cr_expect_geq (recalibrations, 2u, "calibrated once, recalibrated after the nudge");
  for (uint32_t i = 0; i < n_before; i++)
    {
      bool same = false;
      for (uint32_t j = 0; j < snap.n_items && !same; j++)
        same = snap.items[j].track_id == ids_before[i] && strcmp (snap.items[j].payload, payloads[i]) == 0;
      cr_expect (same, "%s lost its identity across the nudge", payloads[i]);
    }
  vis_tracker_free (tracker);
  cal_table_free (table);
  vis_detector_free (det);
  test_scene_close (&ts);
}

/* The zones drawn over the camera picture are the zones used to place
 * cards: the centre of every outline, taken back to the table, falls in the
 * zone it outlines; and table -> image is the exact inverse of image -> table. */
Test (calibration, zone_outlines_match_zone_lookup, .timeout = 120)
{
  load_katua_zones ();
  TestScene ts;
  test_scene_open (&ts, table_scene);
  VisDetector *det = test_detector_new (NULL);
  CalTable *table = cal_table_new ();
  cal_table_set_zones (table, &zones);
  CalZoneOutline none[1];
  cr_expect_eq (cal_table_zone_outlines (table, none, 1), 0u, "no outlines before calibration");
  double px, py;
  cr_expect_eq (cal_table_table_to_image (table, 0, 0, &px, &py), ENG_ERR_STATE);

  test_scene_render (&ts, 0.0);
  VisDetectResult r;
  cr_assert_eq (vis_detector_detect (det, &ts.image, VIS_DETECT_COLD, &r), ENG_OK);
  cr_assert_eq (cal_table_observe (table, r.detections, r.n_detections, 1920, 1080, NULL), ENG_OK);
  cr_assert (cal_table_is_calibrated (table));

  for (double y = 100; y < 1000; y += 211)
    for (double x = 100; x < 1800; x += 307)
      {
        double mx, my, bx, by;
        cr_assert_eq (cal_table_image_to_table (table, x, y, &mx, &my), ENG_OK);
        cr_assert_eq (cal_table_table_to_image (table, mx, my, &bx, &by), ENG_OK);
        cr_expect_float_eq (bx, x, 1e-6);
        cr_expect_float_eq (by, y, 1e-6);
      }

  CalZoneOutline outlines[CAL_ZONES_MAX * CAL_MAX_SEATS];
  size_t n = cal_table_zone_outlines (table, outlines, G_N_ELEMENTS (outlines));
  /* every shared zone of katua.zones once, every seat zone once per seat */
  size_t n_shared = 0, n_per_seat = 0;
  for (size_t i = 0; i < zones.n; i++)
    *(zones.zones[i].per_seat ? &n_per_seat : &n_shared) += 1;
  cr_assert_gt (n_per_seat, 0u);
  cr_assert_eq (n, n_shared + n_per_seat * cal_table_n_seats (table));
  double cx, cy;
  cal_table_centre (table, &cx, &cy);
  size_t checked = 0;
  for (size_t i = 0; i < n; i++)
    {
      double ix = 0, iy = 0;
      for (int k = 0; k < 4; k++)
        {
          ix += outlines[i].pt[k][0] / 4;
          iy += outlines[i].pt[k][1] / 4;
        }
      double mx, my;
      cr_assert_eq (cal_table_image_to_table (table, ix, iy, &mx, &my), ENG_OK);
      size_t n_seats = cal_table_n_seats (table);
      CalSeat seats[CAL_MAX_SEATS];
      for (size_t s = 0; s < n_seats; s++)
        seats[s] = *cal_table_seat (table, s);
      EngZone found = cal_zones_find (&zones, seats, n_seats, cx, cy, mx, my);
      /* Shared zones come first in the file and win where they overlap a
       * seat's zone (this test table is small): that is lookup order, not
       * a misplaced outline. */
      if (found.seat == -1 && outlines[i].zone.seat != -1)
        continue;
      cr_expect_eq (found.kind, outlines[i].zone.kind, "%s: found %s", outlines[i].name,
                    cal_zone_kind_to_string ((EngZoneKind) found.kind));
      cr_expect_eq (found.seat, outlines[i].zone.seat, "%s", outlines[i].name);
      cr_expect_eq (found.index, outlines[i].zone.index, "%s", outlines[i].name);
      checked++;
    }
  /* at least the shared zones and every seat's three slots */
  cr_expect_geq (checked, 3 + 3 * cal_table_n_seats (table));
  cal_table_free (table);
  vis_detector_free (det);
  test_scene_close (&ts);
}

/* Four anchor detections at the corners of a (w x h) px rectangle from
 * (x0, y0), each code `code_px` wide: enough for the calibration, no image. */
static void
anchor_detections (VisDetection d[4], double x0, double y0, double w, double h, double code_px)
{
  const double at[4][2] = { { x0, y0 }, { x0 + w, y0 }, { x0 + w, y0 + h }, { x0, y0 + h } };
  for (int i = 0; i < 4; i++)
    {
      memset (&d[i], 0, sizeof d[i]);
      EngTag tag = { .game = 'K', .set = "01", .kind = ENG_TAG_ANCHOR, .serial = (uint16_t) (i + 1) };
      cr_assert_eq (eng_tag_format (&tag, d[i].payload), ENG_OK);
      d[i].tag = tag;
      d[i].centre = (VisPoint) { at[i][0], at[i][1] };
      const double s = code_px / 2;
      d[i].corners[0] = (VisPoint) { at[i][0] - s, at[i][1] - s };
      d[i].corners[1] = (VisPoint) { at[i][0] + s, at[i][1] - s };
      d[i].corners[2] = (VisPoint) { at[i][0] + s, at[i][1] + s };
      d[i].corners[3] = (VisPoint) { at[i][0] - s, at[i][1] + s };
    }
}

/* "Recalibrate" measures the table again on the next frame that shows all
 * four anchors, even when none moved beyond the threshold, and re-derives
 * the anchors' layout; until then the old calibration stays in use. */
Test (calibration, requested_recalibration_waits_for_four_anchors)
{
  CalTable *t = cal_table_new ();
  cr_expect (!cal_table_has_lens (t));
  VisDetection d[4];
  CalObservation seen;
  anchor_detections (d, 100, 100, 1600, 800, 40);
  cr_assert_eq (cal_table_observe (t, d, 4, 1920, 1080, &seen), ENG_OK);
  cr_assert (seen.recalibrated);
  double before[4][2];
  cr_assert (cal_table_anchor_layout (t, before));

  /* the same anchors: nothing to do */
  cr_assert_eq (cal_table_observe (t, d, 4, 1920, 1080, &seen), ENG_OK);
  cr_expect (!seen.recalibrated);

  /* the sticker now looks twice as large: the camera came down and was put
   * back at the same anchors' pixels (within the 4 px threshold) */
  anchor_detections (d, 102, 101, 1600, 800, 80);
  cr_assert_eq (cal_table_observe (t, d, 4, 1920, 1080, &seen), ENG_OK);
  cr_expect (!seen.recalibrated, "2 px is below the threshold");
  cal_table_request_recalibration (t);
  cr_assert_eq (cal_table_observe (t, d, 3, 1920, 1080, &seen), ENG_OK);
  cr_expect (!seen.recalibrated, "three anchors cannot recalibrate");
  cr_expect (cal_table_is_calibrated (t), "the old calibration stays in use meanwhile");
  cr_assert_eq (cal_table_observe (t, d, 4, 1920, 1080, &seen), ENG_OK);
  cr_expect (seen.recalibrated);
  double after[4][2];
  cr_assert (cal_table_anchor_layout (t, after));
  cr_expect_float_eq (after[1][0], before[1][0] / 2, 1.0, "layout measured again: %f vs %f",
                      after[1][0], before[1][0]);
  double x, y;
  cr_assert_eq (cal_table_image_to_table (t, 102, 101, &x, &y), ENG_OK);
  cr_expect_float_eq (x, 0.0, 1e-6);
  cr_expect_float_eq (y, 0.0, 1e-6);

  /* the request is spent */
  cr_assert_eq (cal_table_observe (t, d, 4, 1920, 1080, &seen), ENG_OK);
  cr_expect (!seen.recalibrated);
  cal_table_free (t);
}

/* Every game's zone file in data/zones parses, and names each place a
 * game's live referee reads at most once. */
Test (calibration, every_shipped_zone_file_parses)
{
  const char *datadir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (datadir);
  g_autofree char *dir_path = g_build_filename (datadir, "zones", NULL);
  GDir *dir = g_dir_open (dir_path, 0, NULL);
  cr_assert_not_null (dir);
  int n = 0;
  for (const char *name; (name = g_dir_read_name (dir)) != NULL;)
    {
      if (!g_str_has_suffix (name, ".zones"))
        continue;
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      CalZones *parsed = g_new0 (CalZones, 1);
      EngParseError err = { .reason = "" };
      cr_expect_eq (cal_zones_load_file (path, parsed, &err), ENG_OK, "%s:%u: %s", name, err.line,
                    err.reason);
      g_free (parsed);
      n++;
    }
  g_dir_close (dir);
  cr_assert_geq (n, 2, "katua and catchy at least");
}

/* A copy of detection `src` (anchor or seat marker) at (x, y). */
static VisDetection
moved_copy (const VisDetection *src, double x, double y)
{
  VisDetection d = *src;
  double dx = x - src->centre.x, dy = y - src->centre.y;
  d.centre = (VisPoint) { x, y };
  for (int c = 0; c < 4; c++)
    d.corners[c] = (VisPoint) { src->corners[c].x + dx, src->corners[c].y + dy };
  return d;
}

static VisDetection
seat_marker (unsigned number, double x, double y, double code_px)
{
  VisDetection d[4];
  anchor_detections (d, x, y, 1, 1, code_px);
  EngTag tag = { .game = 'K', .set = "01", .kind = ENG_TAG_SEAT, .serial = (uint16_t) number };
  cr_assert_eq (eng_tag_format (&tag, d[0].payload), ENG_OK);
  d[0].tag = tag;
  return d[0];
}

/* A second sticker with an anchor's or a seat marker's number (a reprint, a
 * forgery) is flagged, and neither copy moves the table: the last good
 * calibration and seats stay, whichever copy the detector lists last. */
Test (calibration, doubled_anchor_or_seat_marker_is_flagged_and_the_last_good_kept)
{
  CalTable *t = cal_table_new ();
  VisDetection d[8];
  CalObservation seen;
  char says[256];
  anchor_detections (d, 100, 100, 1600, 800, 40);
  d[4] = seat_marker (1, 900, 900, 40);
  cr_assert_eq (cal_table_observe (t, d, 5, 1920, 1080, &seen), ENG_OK);
  cr_assert (seen.recalibrated);
  cr_expect (!cal_observation_describe_doubles (&seen, says, sizeof says));
  cr_expect_eq (seen.doubled_anchors, 0u);
  cr_assert_eq (cal_table_n_seats (t), 1u);
  const CalSeat seat = *cal_table_seat (t, 0);
  double x0, y0;
  cr_assert_eq (cal_table_image_to_table (t, 500, 500, &x0, &y0), ENG_OK);

  /* The camera moved 20 px, and a forged anchor 2 lies elsewhere, listed
   * last: before, the last one seen won and the table was measured on it. */
  anchor_detections (d, 120, 100, 1600, 800, 40);
  d[4] = seat_marker (1, 900, 900, 40);
  d[5] = moved_copy (&d[1], 1200, 600);
  cr_assert_eq (cal_table_observe (t, d, 6, 1920, 1080, &seen), ENG_OK);
  cr_expect (!seen.recalibrated, "a doubled anchor must not recalibrate");
  cr_expect_eq (seen.doubled_anchors, 1u << 1);
  cr_expect_eq (seen.anchors_seen, 3u);
  cr_assert (cal_observation_describe_doubles (&seen, says, sizeof says));
  cr_expect (strstr (says, "anchor 2 seen twice") != NULL, "%s", says);
  double x, y;
  cr_assert_eq (cal_table_image_to_table (t, 500, 500, &x, &y), ENG_OK);
  cr_expect_float_eq (x, x0, 1e-9, "the last good calibration is kept");
  cr_expect_float_eq (y, y0, 1e-9);
  cr_expect_eq (cal_table_calibrate (t, d, 6, 1920, 1080), ENG_ERR_DUPLICATE_ID);
  cr_expect_float_eq (cal_table_seat (t, 0)->x, seat.x, 1e-9);

  /* The copy taken away: the real anchors recalibrate as usual. */
  cr_assert_eq (cal_table_observe (t, d, 5, 1920, 1080, &seen), ENG_OK);
  cr_expect (seen.recalibrated);
  cr_expect_eq (seen.doubled_anchors, 0u);
  cr_assert_eq (cal_table_image_to_table (t, 520, 500, &x, &y), ENG_OK);
  cr_expect_float_eq (x, x0, 1e-6);

  /* Seat marker 1 twice, the far copy listed last: the seat stays put, in
   * a plain frame and in one that recalibrates. */
  const CalSeat *s1 = cal_table_seat_by_number (t, 1);
  cr_assert_not_null (s1);
  const CalSeat kept = *s1;
  d[5] = seat_marker (1, 300, 700, 40);
  cr_assert_eq (cal_table_observe (t, d, 6, 1920, 1080, &seen), ENG_OK);
  cr_expect_eq (seen.n_doubled_seats, 1u);
  cr_expect_eq (seen.doubled_seats[0], 1u);
  cr_expect (!seen.seats_changed);
  cr_assert (cal_observation_describe_doubles (&seen, says, sizeof says));
  cr_expect (strstr (says, "seat marker 1 seen twice") != NULL, "%s", says);
  cr_expect_float_eq (cal_table_seat_by_number (t, 1)->x, kept.x, 1e-9);
  cr_expect_float_eq (cal_table_seat_by_number (t, 1)->y, kept.y, 1e-9);
  anchor_detections (d, 100, 100, 1600, 800, 40);
  d[4] = seat_marker (1, 900, 900, 40);
  d[5] = seat_marker (1, 300, 700, 40);
  cr_assert_eq (cal_table_observe (t, d, 6, 1920, 1080, &seen), ENG_OK);
  cr_expect (seen.recalibrated);
  cr_assert_eq (cal_table_n_seats (t), 1u, "the seat survives the recalibration");
  cr_expect_float_eq (cal_table_seat_by_number (t, 1)->x, kept.x, 1e-6);

  /* One sticker reported twice at one place is not a double. */
  d[5] = moved_copy (&d[1], d[1].centre.x + 3, d[1].centre.y);
  d[6] = seat_marker (1, 902, 900, 40);
  cr_assert_eq (cal_table_observe (t, d, 7, 1920, 1080, &seen), ENG_OK);
  cr_expect_eq (seen.doubled_anchors, 0u);
  cr_expect_eq (seen.n_doubled_seats, 0u);
  cr_expect_eq (seen.anchors_seen, 4u);
  cal_table_free (t);
}

/* cal-table.c: see cal-table.h. */
#include "cal-table.h"

#include "eng-data.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct CalTable {
  double sticker_mm;
  int quiet;
  double recalibrate_px;
  bool layout_known;
  double anchors_mm[4][2];
  bool calibrated;
  double anchors_px[4][2];      /* undistorted image centres at calibration */
  double h[9];                  /* undistorted image px -> table mm */
  int width, height;
  CalLens lens;
  bool have_zones;
  CalZones zones;
  char zones_game[32];
  size_t n_seats;
  CalSeat seats[CAL_MAX_SEATS];
  bool recalibration_requested; /* by the table: measure everything again */
};

CalTable *
cal_table_new (void)
{
  CalTable *t = calloc (1, sizeof *t);
  if (t == NULL)
    return NULL;
  t->sticker_mm = 40.0;
  t->quiet = 2;
  t->recalibrate_px = 4.0;
  return t;
}

void
cal_table_free (CalTable *table)
{
  free (table);
}

EngStatus
cal_table_set_sticker (CalTable *t, double sticker_mm, int quiet)
{
  if (t == NULL || !(sticker_mm >= 5 && sticker_mm <= 500) || quiet < 0 || quiet > 8)
    return ENG_ERR_INVALID_ARGUMENT;
  t->sticker_mm = sticker_mm;
  t->quiet = quiet;
  return ENG_OK;
}

EngStatus
cal_table_set_anchor_layout (CalTable *t, const double mm[4][2])
{
  if (t == NULL || mm == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  memcpy (t->anchors_mm, mm, sizeof t->anchors_mm);
  t->layout_known = true;
  t->calibrated = false;
  return ENG_OK;
}

void
cal_table_set_lens (CalTable *t, const CalLens *lens)
{
  if (t == NULL)
    return;
  if (lens != NULL)
    t->lens = *lens;
  else
    memset (&t->lens, 0, sizeof t->lens);
  t->calibrated = false;
}

void
cal_table_set_zones (CalTable *t, const CalZones *zones)
{
  if (t == NULL)
    return;
  t->have_zones = zones != NULL;
  if (zones != NULL)
    {
      t->zones = *zones;
      snprintf (t->zones_game, sizeof t->zones_game, "%s", zones->game);
    }
}

const char *
cal_table_zones_game (const CalTable *t)
{
  return t != NULL ? t->zones_game : "";
}

void
cal_table_set_recalibrate_px (CalTable *t, double px)
{
  if (t != NULL && px > 0)
    t->recalibrate_px = px;
}

bool
cal_table_is_calibrated (const CalTable *t)
{
  return t != NULL && t->calibrated;
}

bool
cal_table_anchor_layout (const CalTable *t, double mm[4][2])
{
  if (t == NULL || !t->layout_known)
    return false;
  memcpy (mm, t->anchors_mm, sizeof t->anchors_mm);
  return true;
}

void
cal_table_centre (const CalTable *t, double *x, double *y)
{
  *x = *y = 0;
  for (int i = 0; i < 4; i++)
    {
      *x += t->anchors_mm[i][0] / 4;
      *y += t->anchors_mm[i][1] / 4;
    }
}

static void
apply_h (const double h[9], double x, double y, double *ox, double *oy)
{
  double w = h[6] * x + h[7] * y + h[8];
  *ox = (h[0] * x + h[1] * y + h[2]) / w;
  *oy = (h[3] * x + h[4] * y + h[5]) / w;
}

EngStatus
cal_table_image_to_table (const CalTable *t, double x_px, double y_px, double *x_mm, double *y_mm)
{
  if (t == NULL || x_mm == NULL || y_mm == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (!t->calibrated)
    return ENG_ERR_STATE;
  double p[2] = { x_px, y_px };
  cal_lens_undistort_points (&t->lens, p, 1);
  apply_h (t->h, p[0], p[1], x_mm, y_mm);
  return ENG_OK;
}

EngStatus
cal_table_table_to_image (const CalTable *t, double x_mm, double y_mm, double *x_px, double *y_px)
{
  if (t == NULL || x_px == NULL || y_px == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (!t->calibrated)
    return ENG_ERR_STATE;
  /* The inverse of a homography is its adjugate up to scale. */
  const double *h = t->h;
  double inv[9] = {
    h[4] * h[8] - h[5] * h[7], h[2] * h[7] - h[1] * h[8], h[1] * h[5] - h[2] * h[4],
    h[5] * h[6] - h[3] * h[8], h[0] * h[8] - h[2] * h[6], h[2] * h[3] - h[0] * h[5],
    h[3] * h[7] - h[4] * h[6], h[1] * h[6] - h[0] * h[7], h[0] * h[4] - h[1] * h[3],
  };
  apply_h (inv, x_mm, y_mm, x_px, y_px);
  return ENG_OK;
}

size_t
cal_table_zone_outlines (const CalTable *t, CalZoneOutline *out, size_t max)
{
  if (t == NULL || !t->calibrated || !t->have_zones)
    return 0;
  double cx, cy;
  cal_table_centre (t, &cx, &cy);
  size_t n = cal_zones_outlines (&t->zones, t->seats, t->n_seats, cx, cy, out, max);
  for (size_t i = 0; i < n && i < max; i++)
    for (int k = 0; k < 4; k++)
      cal_table_table_to_image (t, out[i].pt[k][0], out[i].pt[k][1], &out[i].pt[k][0], &out[i].pt[k][1]);
  return n;
}

static double
code_side_px (const VisDetection *d)
{
  return hypot (d->corners[1].x - d->corners[0].x, d->corners[1].y - d->corners[0].y);
}

/* Two detections of one number are one sticker when their centres are
 * closer than half a code's side (a decoder may report a code twice).
 * Further apart they are two printed stickers with one number, a reprint or
 * a forgery, and neither says where the table is. */
static bool
doubled (const VisDetection *d, size_t n, size_t i)
{
  for (size_t j = 0; j < n; j++)
    if (j != i && d[j].tag.kind == d[i].tag.kind && d[j].tag.serial == d[i].tag.serial)
      {
        double side = fmax (code_side_px (&d[i]), code_side_px (&d[j]));
        if (hypot (d[j].centre.x - d[i].centre.x, d[j].centre.y - d[i].centre.y) >= side * 0.5)
          return true;
      }
  return false;
}

/* The four anchors' detections, by number, and how many of them are usable.
 * An anchor number seen at two places is not used (out[k] NULL) and its bit
 * (1 << (number - 1)) is set in *doubled_mask. */
static unsigned
find_anchors (const VisDetection *d, size_t n, const VisDetection *out[4], unsigned *doubled_mask)
{
  unsigned mask = 0, seen = 0;
  for (int i = 0; i < 4; i++)
    out[i] = NULL;
  for (size_t i = 0; i < n; i++)
    if (d[i].tag.kind == ENG_TAG_ANCHOR && d[i].tag.serial >= 1 && d[i].tag.serial <= 4)
      {
        unsigned k = d[i].tag.serial - 1;
        if (doubled (d, n, i))
          mask |= 1u << k;
        else if (out[k] == NULL)
          out[k] = &d[i];
      }
  for (int k = 0; k < 4; k++)
    {
      if (mask & (1u << k))
        out[k] = NULL;
      seen += out[k] != NULL;
    }
  if (doubled_mask != NULL)
    *doubled_mask = mask;
  return seen;
}

/* true when seat marker `number` is seen at two places in this frame. */
static bool
seat_doubled (const VisDetection *d, size_t n, unsigned number)
{
  for (size_t i = 0; i < n; i++)
    if (d[i].tag.kind == ENG_TAG_SEAT && d[i].tag.serial == number && doubled (d, n, i))
      return true;
  return false;
}

/* Puts `s` among the seats in marker-number order, or replaces the seat of
 * its number; false when the seats are full. */
static bool
put_seat (CalTable *t, const CalSeat *s)
{
  size_t j = 0;
  while (j < t->n_seats && t->seats[j].number != s->number)
    j++;
  if (j == t->n_seats)
    {
      if (t->n_seats >= CAL_MAX_SEATS)
        return false;
      while (j > 0 && t->seats[j - 1].number > s->number)
        {
          t->seats[j] = t->seats[j - 1];
          j--;
        }
      t->n_seats++;
    }
  t->seats[j] = *s;
  return true;
}

/* Anchor table positions from the sticker size: rectify the anchor
 * quadrilateral to a unit square; there each code's two side vectors a, b
 * (length c mm on the table, any rotation) satisfy ax^2 + bx^2 = (c/W)^2 and
 * ay^2 + by^2 = (c/H)^2, whatever the code's rotation. */
static EngStatus
derive_layout (CalTable *t, const double px[4][2], const VisDetection *a[4])
{
  static const double unit[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
  double h0[9];
  EngStatus st = cal_fit_homography (&px[0][0], &unit[0][0], 4, h0);
  if (st != ENG_OK)
    return st;
  double code_mm = t->sticker_mm * 21.0 / (21.0 + 2.0 * t->quiet);
  double sw = 0, sh = 0;
  for (int i = 0; i < 4; i++)
    {
      double c[4][2];
      for (int k = 0; k < 4; k++)
        {
          double p[2] = { a[i]->corners[k].x, a[i]->corners[k].y };
          cal_lens_undistort_points (&t->lens, p, 1);
          apply_h (h0, p[0], p[1], &c[k][0], &c[k][1]);
        }
      double ax = c[1][0] - c[0][0], ay = c[1][1] - c[0][1];
      double bx = c[3][0] - c[0][0], by = c[3][1] - c[0][1];
      sw += code_mm / sqrt (ax * ax + bx * bx) / 4;
      sh += code_mm / sqrt (ay * ay + by * by) / 4;
    }
  if (!isfinite (sw) || !isfinite (sh) || sw <= 0 || sh <= 0)
    return ENG_ERR_INCONSISTENT;
  double w = round (sw), h = round (sh);
  const double mm[4][2] = { { 0, 0 }, { w, 0 }, { w, h }, { 0, h } };
  memcpy (t->anchors_mm, mm, sizeof mm);
  t->layout_known = true;
  return ENG_OK;
}

/* Seats from this frame's seat markers; a marker seen at two places is not
 * used, so its seat stays where it last was. */
static void
update_seats (CalTable *t, const VisDetection *d, size_t n, bool *changed)
{
  double cx, cy;
  cal_table_centre (t, &cx, &cy);
  for (size_t i = 0; i < n; i++)
    {
      if (d[i].tag.kind != ENG_TAG_SEAT || doubled (d, n, i))
        continue;
      double x, y;
      if (cal_table_image_to_table (t, d[i].centre.x, d[i].centre.y, &x, &y) != ENG_OK)
        return;
      double fx = cx - x, fy = cy - y, len = hypot (fx, fy);
      if (len < 1e-6)
        continue;
      CalSeat s = { d[i].tag.serial, x, y, fx / len, fy / len };
      size_t j = 0;
      while (j < t->n_seats && t->seats[j].number != s.number)
        j++;
      if ((j == t->n_seats || hypot (t->seats[j].x - s.x, t->seats[j].y - s.y) > 10.0) && put_seat (t, &s))
        *changed = true;
    }
}

EngStatus
cal_table_calibrate (CalTable *t, const VisDetection *d, size_t n, int width, int height)
{
  if (t == NULL || (d == NULL && n > 0) || width <= 0 || height <= 0)
    return ENG_ERR_INVALID_ARGUMENT;
  const VisDetection *a[4];
  unsigned doubled_anchors;
  if (find_anchors (d, n, a, &doubled_anchors) < 4)
    return doubled_anchors != 0 ? ENG_ERR_DUPLICATE_ID : ENG_ERR_NOT_FOUND;
  if (t->lens.valid && (t->lens.width != width || t->lens.height != height))
    return ENG_ERR_INCONSISTENT;
  double px[4][2];
  for (int i = 0; i < 4; i++)
    {
      px[i][0] = a[i]->centre.x;
      px[i][1] = a[i]->centre.y;
    }
  cal_lens_undistort_points (&t->lens, &px[0][0], 4);
  if (!t->layout_known)
    {
      EngStatus st = derive_layout (t, px, a);
      if (st != ENG_OK)
        return st;
    }
  double h[9];
  EngStatus st = cal_fit_homography (&px[0][0], &t->anchors_mm[0][0], 4, h);
  if (st != ENG_OK)
    return st;
  memcpy (t->h, h, sizeof h);
  memcpy (t->anchors_px, px, sizeof px);
  t->width = width;
  t->height = height;
  t->calibrated = true;
  bool changed = false;
  CalSeat before[CAL_MAX_SEATS];
  size_t n_before = t->n_seats;
  memcpy (before, t->seats, sizeof before);
  t->n_seats = 0;
  update_seats (t, d, n, &changed);
  /* A seat whose marker is doubled in this frame keeps its last good place
   * (table millimetres, which a camera move does not change). */
  for (size_t s = 0; s < n_before; s++)
    if (seat_doubled (d, n, before[s].number) && cal_table_seat_by_number (t, before[s].number) == NULL)
      put_seat (t, &before[s]);
  return ENG_OK;
}

EngStatus
cal_table_observe (CalTable *t, const VisDetection *d, size_t n, int width, int height, CalObservation *out)
{
  CalObservation obs = { 0 };
  if (t == NULL || (d == NULL && n > 0))
    return ENG_ERR_INVALID_ARGUMENT;
  const VisDetection *a[4];
  obs.anchors_seen = find_anchors (d, n, a, &obs.doubled_anchors);
  for (size_t i = 0; i < n; i++)
    if (d[i].tag.kind == ENG_TAG_SEAT && obs.n_doubled_seats < CAL_MAX_SEATS && doubled (d, n, i))
      {
        size_t k = 0;
        while (k < obs.n_doubled_seats && obs.doubled_seats[k] != d[i].tag.serial)
          k++;
        if (k == obs.n_doubled_seats)
          obs.doubled_seats[obs.n_doubled_seats++] = d[i].tag.serial;
      }
  double moved = 0;
  if (t->calibrated)
    for (int i = 0; i < 4; i++)
      if (a[i] != NULL)
        {
          double p[2] = { a[i]->centre.x, a[i]->centre.y };
          cal_lens_undistort_points (&t->lens, p, 1);
          moved = fmax (moved, hypot (p[0] - t->anchors_px[i][0], p[1] - t->anchors_px[i][1]));
        }
  EngStatus st = ENG_OK;
  if (!t->calibrated || t->recalibration_requested || moved > t->recalibrate_px
      || width != t->width || height != t->height)
    {
      if (obs.anchors_seen == 4)
        {
          size_t seats_before = t->n_seats;
          bool layout_before = t->layout_known;
          double mm_before[4][2];
          memcpy (mm_before, t->anchors_mm, sizeof mm_before);
          /* A requested recalibration also measures the anchors' layout
           * again: the table may have been laid out anew. */
          if (t->recalibration_requested)
            t->layout_known = false;
          st = cal_table_calibrate (t, d, n, width, height);
          if (st != ENG_OK && t->recalibration_requested)
            {
              t->layout_known = layout_before;
              memcpy (t->anchors_mm, mm_before, sizeof mm_before);
            }
          t->recalibration_requested = false;
          obs.recalibrated = st == ENG_OK;
          obs.seats_changed = obs.recalibrated && (t->n_seats != seats_before || t->n_seats > 0);
        }
      else if (t->calibrated)
        obs.anchors_moved = true;
    }
  if (t->calibrated && !obs.recalibrated)
    update_seats (t, d, n, &obs.seats_changed);
  if (out != NULL)
    *out = obs;
  return st == ENG_ERR_NOT_FOUND ? ENG_OK : st;
}

void
cal_table_request_recalibration (CalTable *t)
{
  if (t != NULL)
    t->recalibration_requested = true;
}

bool
cal_table_has_lens (const CalTable *t)
{
  return t != NULL && t->lens.valid;
}

size_t
cal_table_n_seats (const CalTable *t)
{
  return t != NULL ? t->n_seats : 0;
}

const CalSeat *
cal_table_seat (const CalTable *t, size_t i)
{
  return t != NULL && i < t->n_seats ? &t->seats[i] : NULL;
}

const CalSeat *
cal_table_seat_by_number (const CalTable *t, unsigned number)
{
  for (size_t i = 0; t != NULL && i < t->n_seats; i++)
    if (t->seats[i].number == number)
      return &t->seats[i];
  return NULL;
}

bool
cal_table_locate (void *ctx, const VisDetection *d, VisTrackPlace *out)
{
  const CalTable *t = ctx;
  if (t == NULL || !t->calibrated || d == NULL || out == NULL)
    return false;
  double p[6] = { d->centre.x, d->centre.y, d->corners[0].x, d->corners[0].y, d->corners[1].x, d->corners[1].y };
  cal_lens_undistort_points (&t->lens, p, 3);
  double c[3][2];
  for (int i = 0; i < 3; i++)
    apply_h (t->h, p[2 * i], p[2 * i + 1], &c[i][0], &c[i][1]);
  out->x = c[0][0];
  out->y = c[0][1];
  double dx = c[2][0] - c[1][0], dy = c[2][1] - c[1][1];
  double ang = atan2 (dy, dx) * 180.0 / M_PI;
  if (ang < 0)
    ang += 360.0;
  out->rotation_deg = (float) ang;
  out->size = (float) hypot (dx, dy);
  double cx, cy;
  cal_table_centre (t, &cx, &cy);
  out->zone = t->have_zones ? cal_zones_find (&t->zones, t->seats, t->n_seats, cx, cy, out->x, out->y)
                            : (EngZone){ ENG_ZONE_NONE, -1, -1 };
  return true;
}

/* ---- file ---------------------------------------------------------------- */

EngStatus
cal_table_save (const CalTable *t, const char *path)
{
  if (t == NULL || path == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  FILE *f = fopen (path, "w");
  if (f == NULL)
    return ENG_ERR_IO;
  fprintf (f, "# Tablero table calibration (docs/calibration-format.md)\n");
  fprintf (f, "format=tablero-calibration-1\n");
  /* %.12g: what the loader accepts is written back so that it loads again,
   * close to the digit (a fixed "%.2f" wrote 0.001 as 0.00, refused) and
   * short (a fixed "%.3f" wrote 1e300 as 300 digits, over the line limit) */
  fprintf (f, "sticker_mm=%.12g\nquiet_modules=%d\nrecalibrate_px=%.12g\n", t->sticker_mm, t->quiet,
           t->recalibrate_px);
  if (t->zones_game[0] != '\0')
    fprintf (f, "zones=%s\n", t->zones_game);
  if (t->layout_known)
    for (int i = 0; i < 4; i++)
      fprintf (f, "anchor.%d.mm=%.12g,%.12g\n", i + 1, t->anchors_mm[i][0], t->anchors_mm[i][1]);
  if (t->calibrated)
    {
      fprintf (f, "image=%dx%d\n", t->width, t->height);
      for (int i = 0; i < 4; i++)
        fprintf (f, "anchor.%d.px=%.12g,%.12g\n", i + 1, t->anchors_px[i][0], t->anchors_px[i][1]);
      fprintf (f, "homography=");
      for (int i = 0; i < 9; i++)
        fprintf (f, "%.12g%s", t->h[i], i < 8 ? "," : "\n");
      for (size_t s = 0; s < t->n_seats; s++)
        fprintf (f, "seat.%u=%.12g,%.12g,%.12g,%.12g\n", t->seats[s].number, t->seats[s].x, t->seats[s].y,
                 t->seats[s].fwd_x, t->seats[s].fwd_y);
    }
  if (t->lens.valid)
    {
      fprintf (f, "lens.image=%dx%d\nlens.k=", t->lens.width, t->lens.height);
      for (int i = 0; i < 9; i++)
        fprintf (f, "%.12g%s", t->lens.k[i], i < 8 ? "," : "\n");
      fprintf (f, "lens.dist=");
      for (int i = 0; i < 5; i++)
        fprintf (f, "%.12g%s", t->lens.dist[i], i < 4 ? "," : "\n");
    }
  bool bad = ferror (f) != 0;
  if (fclose (f) != 0 || bad)
    return ENG_ERR_IO;
  return ENG_OK;
}

/* Parses exactly `count` comma-separated finite numbers. */
static bool
parse_numbers (const char *v, double *out, int count)
{
  for (int i = 0; i < count; i++)
    {
      char *end = NULL;
      errno = 0;
      out[i] = strtod (v, &end);
      if (end == v || errno != 0 || !isfinite (out[i]))
        return false;
      if (i < count - 1)
        {
          if (*end != ',')
            return false;
          v = end + 1;
        }
      else if (*end != '\0')
        return false;
    }
  return true;
}

static bool
parse_size (const char *v, int *w, int *h)
{
  char *end = NULL;
  long a = strtol (v, &end, 10);
  if (end == v || *end != 'x')
    return false;
  const char *b = end + 1;
  long c = strtol (b, &end, 10);
  if (end == b || *end != '\0' || a < 1 || c < 1 || a > 100000 || c > 100000)
    return false;
  *w = (int) a;
  *h = (int) c;
  return true;
}

/* What reading a calibration file has seen so far. */
typedef struct {
  CalTable *t;
  bool have_format, have_h, have_image, have_lens_k, have_lens_d, have_lens_image;
  bool have_mm[4], have_px[4];
} TableRead;

/* One number in [lo, hi]; whole when `whole`. */
static bool
parse_one (const char *val, double lo, double hi, bool whole, double *out)
{
  double v;
  if (!parse_numbers (val, &v, 1) || v < lo || v > hi || (whole && v != floor (v)))
    return false;
  *out = v;
  return true;
}

static bool
key_format (TableRead *r, int idx, const char *val)
{
  (void) idx;
  r->have_format = strcmp (val, "tablero-calibration-1") == 0;
  return r->have_format;
}

static bool
key_sticker_mm (TableRead *r, int idx, const char *val)
{
  (void) idx;
  return parse_one (val, 5, 500, false, &r->t->sticker_mm);
}

static bool
key_quiet_modules (TableRead *r, int idx, const char *val)
{
  double v;
  (void) idx;
  if (!parse_one (val, 0, 8, true, &v))
    return false;
  r->t->quiet = (int) v;
  return true;
}

static bool
key_recalibrate_px (TableRead *r, int idx, const char *val)
{
  double v;
  (void) idx;
  if (!parse_numbers (val, &v, 1) || !(v > 0))
    return false;
  r->t->recalibrate_px = v;
  return true;
}

/* a game's id (the registry's names): a carriage return or other byte
 * would not survive a save and a load */
static bool
key_zones (TableRead *r, int idx, const char *val)
{
  (void) idx;
  if (strlen (val) >= sizeof r->t->zones_game
      || val[strspn (val, "abcdefghijklmnopqrstuvwxyz0123456789_-")] != '\0')
    return false;
  snprintf (r->t->zones_game, sizeof r->t->zones_game, "%s", val);
  return true;
}

static bool
key_image (TableRead *r, int idx, const char *val)
{
  (void) idx;
  return r->have_image = parse_size (val, &r->t->width, &r->t->height);
}

static bool
key_anchor_mm (TableRead *r, int idx, const char *val)
{
  return r->have_mm[idx - 1] = parse_numbers (val, r->t->anchors_mm[idx - 1], 2);
}

static bool
key_anchor_px (TableRead *r, int idx, const char *val)
{
  return r->have_px[idx - 1] = parse_numbers (val, r->t->anchors_px[idx - 1], 2);
}

static bool
key_homography (TableRead *r, int idx, const char *val)
{
  (void) idx;
  return r->have_h = parse_numbers (val, r->t->h, 9);
}

static bool
key_seat (TableRead *r, int idx, const char *val)
{
  double v[4];
  if (!parse_numbers (val, v, 4) || r->t->n_seats >= CAL_MAX_SEATS)
    return false;
  r->t->seats[r->t->n_seats++] = (CalSeat){ (unsigned) idx, v[0], v[1], v[2], v[3] };
  return true;
}

static bool
key_lens_image (TableRead *r, int idx, const char *val)
{
  (void) idx;
  return r->have_lens_image = parse_size (val, &r->t->lens.width, &r->t->lens.height);
}

static bool
key_lens_k (TableRead *r, int idx, const char *val)
{
  (void) idx;
  return r->have_lens_k = parse_numbers (val, r->t->lens.k, 9);
}

static bool
key_lens_dist (TableRead *r, int idx, const char *val)
{
  (void) idx;
  return r->have_lens_d = parse_numbers (val, r->t->lens.dist, 5);
}

/* anchor.N.mm, anchor.N.px: N in 1-4; 0 for another key */
static int
anchor_index (const char *key, const char *what)
{
  int idx = 0;
  if (sscanf (key, "anchor.%d.", &idx) == 1 && idx >= 1 && idx <= 4
      && strcmp (key + strlen ("anchor.1."), what) == 0)
    return idx;
  return 0;
}

static int
anchor_mm_index (const char *key)
{
  return anchor_index (key, "mm");
}

static int
anchor_px_index (const char *key)
{
  return anchor_index (key, "px");
}

/* seat.N: N in 1-999 (the marker's number); 0 for another key */
static int
seat_index (const char *key)
{
  int idx = 0;
  return sscanf (key, "seat.%d", &idx) == 1 && idx >= 1 && idx <= 999 ? idx : 0;
}

/* The file's keys: `key` exactly, or, with `index`, the numbered keys it
 * finds a number 1.. in (the number is passed on to `parse`).  `parse`
 * returns false for a bad value. */
static const struct {
  const char *key;
  int (*index) (const char *key);
  bool (*parse) (TableRead *r, int idx, const char *val);
} table_keys[] = {
  { "format", NULL, key_format },
  { "sticker_mm", NULL, key_sticker_mm },
  { "quiet_modules", NULL, key_quiet_modules },
  { "recalibrate_px", NULL, key_recalibrate_px },
  { "zones", NULL, key_zones },
  { "image", NULL, key_image },
  { "anchor.N.mm", anchor_mm_index, key_anchor_mm },
  { "anchor.N.px", anchor_px_index, key_anchor_px },
  { "homography", NULL, key_homography },
  { "seat.N", seat_index, key_seat },
  { "lens.image", NULL, key_lens_image },
  { "lens.k", NULL, key_lens_k },
  { "lens.dist", NULL, key_lens_dist },
};

/* One "key=value" line (modified). */
static EngStatus
table_line (TableRead *r, char *line, const char *source, unsigned lineno, EngParseError *err)
{
  char *eq = strchr (line, '=');
  if (eq == NULL)
    {
      eng_parse_error_set (err, source, lineno, "expected key=value");
      return ENG_ERR_SYNTAX;
    }
  *eq = '\0';
  const char *key = line, *val = eq + 1;
  for (size_t i = 0; i < sizeof table_keys / sizeof table_keys[0]; i++)
    {
      int idx = table_keys[i].index != NULL ? table_keys[i].index (key)
                : strcmp (key, table_keys[i].key) == 0 ? 1 : 0;
      if (idx == 0)
        continue;
      if (table_keys[i].parse (r, idx, val))
        return ENG_OK;
      eng_parse_error_set (err, source, lineno, "bad value for '%s': '%s'", key, val);
      return ENG_ERR_SYNTAX;
    }
  eng_parse_error_set (err, source, lineno, "unknown key '%s'", key);
  return ENG_ERR_UNKNOWN_ATTRIBUTE;
}

/* What the whole file must hold, once read. */
static EngStatus
table_complete (TableRead *r, const char *source, EngParseError *err)
{
  CalTable *t = r->t;
  if (!r->have_format)
    {
      eng_parse_error_set (err, source, 0, "missing 'format=tablero-calibration-1'");
      return ENG_ERR_SYNTAX;
    }
  const bool *mm = r->have_mm, *px = r->have_px;
  t->layout_known = mm[0] && mm[1] && mm[2] && mm[3];
  bool any_mm = mm[0] || mm[1] || mm[2] || mm[3];
  bool all_px = px[0] && px[1] && px[2] && px[3];
  t->lens.valid = r->have_lens_k && r->have_lens_d;
  /* a lens is valid only for the image size it was made at */
  if ((any_mm && !t->layout_known) || r->have_lens_k != r->have_lens_d
      || r->have_lens_k != r->have_lens_image
      || (r->have_h && (!all_px || !r->have_image || !t->layout_known)))
    {
      eng_parse_error_set (err, source, 0,
                           "incomplete: anchors need all four, lens needs image, k and dist, "
                           "a homography needs image, anchors' mm and px");
      return ENG_ERR_INCONSISTENT;
    }
  t->calibrated = r->have_h;
  return ENG_OK;
}

EngStatus
cal_table_parse (const char *text, size_t len, const char *source, CalTable **out, EngParseError *err)
{
  if (out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  *out = NULL;
  if (text == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  CalTable *t = cal_table_new ();
  if (t == NULL)
    return ENG_ERR_NO_MEMORY;
  TableRead r = { .t = t };
  unsigned lineno = 0;
  size_t pos = 0;
  EngStatus st = ENG_OK;
  char line[512];
  while (pos < len && st == ENG_OK)
    {
      lineno++;
      size_t end = pos;
      while (end < len && text[end] != '\n')
        end++;
      size_t n = end - pos;
      pos = end + 1;
      if (n >= sizeof line)
        {
          eng_parse_error_set (err, source, lineno, "line too long");
          st = ENG_ERR_SYNTAX;
          break;
        }
      memcpy (line, text + pos - n - 1, n);
      line[n] = '\0';
      if (strlen (line) != n)
        {
          eng_parse_error_set (err, source, lineno, "NUL byte in text");
          st = ENG_ERR_SYNTAX;
          break;
        }
      if (n > 0 && line[n - 1] == '\r')
        line[--n] = '\0';
      if (line[0] != '#' && line[0] != '\0')
        st = table_line (&r, line, source, lineno, err);
    }
  if (st == ENG_OK)
    st = table_complete (&r, source, err);
  if (st != ENG_OK)
    {
      cal_table_free (t);
      return st;
    }
  *out = t;
  return ENG_OK;
}

EngStatus
cal_table_load (const char *path, CalTable **out, EngParseError *err)
{
  if (out != NULL)
    *out = NULL;
  if (path == NULL || out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  char *text = NULL;
  size_t len = 0;
  EngStatus st = eng_read_text_file (path, 65536, &text, &len, err);
  if (st != ENG_OK)
    return st;
  st = cal_table_parse (text, len, path, out, err);
  free (text);
  return st;
}

/* snprintf at buf[*used], keeping *used within the buffer. */
static void __attribute__ ((format (printf, 4, 5)))
append (char *buf, size_t size, size_t *used, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (buf + *used, size - *used, fmt, ap);
  va_end (ap);
  if (n > 0)
    *used = *used + (size_t) n < size ? *used + (size_t) n : size - 1;
}

bool
cal_observation_describe_doubles (const CalObservation *obs, char *buf, size_t size)
{
  if (size == 0)
    return false;
  buf[0] = '\0';
  if (obs == NULL || (obs->doubled_anchors == 0 && obs->n_doubled_seats == 0))
    return false;
  size_t used = 0, named = 0;
  size_t total = (size_t) __builtin_popcount (obs->doubled_anchors) + obs->n_doubled_seats;
  for (unsigned k = 0; k < 4; k++)
    if (obs->doubled_anchors & (1u << k))
      {
        named++;
        append (buf, size, &used, "%sanchor %u", named == 1 ? "" : named == total ? " and " : ", ", k + 1);
      }
  for (unsigned s = 0; s < obs->n_doubled_seats; s++)
    {
      named++;
      append (buf, size, &used, "%sseat marker %u", named == 1 ? "" : named == total ? " and " : ", ",
              obs->doubled_seats[s]);
    }
  append (buf, size, &used,
          " seen twice: a doubled sticker is not used, the table keeps its last good %s; "
          "take the extra copy off the table",
          obs->doubled_anchors != 0 ? "calibration" : "seats");
  return true;
}

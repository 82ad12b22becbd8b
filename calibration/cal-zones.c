/* cal-zones.c: see cal-zones.h. */
#include "cal-zones.h"

#include "eng-data.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[ENG_ZONE_KIND_COUNT] = {
  "none", "slot", "attack", "capture", "play", "deck", "discard", "centre", "command",
};

EngZoneKind
cal_zone_kind_from_string (const char *name)
{
  for (int k = 1; k < ENG_ZONE_KIND_COUNT; k++)
    if (strcmp (name, kind_names[k]) == 0)
      return (EngZoneKind) k;
  return ENG_ZONE_KIND_COUNT;
}

const char *
cal_zone_kind_to_string (EngZoneKind kind)
{
  return (unsigned) kind < ENG_ZONE_KIND_COUNT ? kind_names[kind] : "unknown";
}

static bool
parse_pair (const char *v, double *a, double *b)
{
  char *end = NULL;
  errno = 0;
  *a = strtod (v, &end);
  if (end == v || *end != ',')
    return false;
  const char *second = end + 1;
  *b = strtod (second, &end);
  return end != second && *end == '\0' && errno == 0 && isfinite (*a) && isfinite (*b);
}

/* One line being read: where it is (for errors) and the zone it builds. */
typedef struct {
  const char *source;
  unsigned lineno;
  EngParseError *err;
  CalZoneRect z;
  bool have_at, have_size;
} ZoneLine;

/* Says why line l is refused and returns `status` from the caller. */
#define ZONE_FAIL(l, status, ...) \
  do { eng_parse_error_set ((l)->err, (l)->source, (l)->lineno, __VA_ARGS__); \
       return (status); } while (0)

static EngStatus
zone_kind (ZoneLine *l, const char *val)
{
  l->z.kind = cal_zone_kind_from_string (val);
  if (l->z.kind == ENG_ZONE_KIND_COUNT)
    ZONE_FAIL (l, ENG_ERR_UNKNOWN_ATTRIBUTE, "unknown zone kind '%s'", val);
  return ENG_OK;
}

static EngStatus
zone_name (ZoneLine *l, const char *val)
{
  if (strlen (val) >= sizeof l->z.name)
    ZONE_FAIL (l, ENG_ERR_SYNTAX, "name too long");
  strcpy (l->z.name, val);
  return ENG_OK;
}

static EngStatus
zone_index (ZoneLine *l, const char *val)
{
  char *end = NULL;
  long v = strtol (val, &end, 10);
  if (end == val || *end != '\0' || v < 0 || v > 100)
    ZONE_FAIL (l, ENG_ERR_SYNTAX, "index must be 0-100");
  l->z.index = (int) v;
  return ENG_OK;
}

static EngStatus
zone_at (ZoneLine *l, const char *val)
{
  if (!parse_pair (val, &l->z.at_x, &l->z.at_y))
    ZONE_FAIL (l, ENG_ERR_SYNTAX, "at needs X,Y in mm");
  l->have_at = true;
  return ENG_OK;
}

static EngStatus
zone_size (ZoneLine *l, const char *val)
{
  if (!parse_pair (val, &l->z.width, &l->z.depth) || l->z.width <= 0 || l->z.depth <= 0)
    ZONE_FAIL (l, ENG_ERR_SYNTAX, "size needs W,D > 0 in mm");
  l->have_size = true;
  return ENG_OK;
}

static const struct {
  const char *key;
  EngStatus (*parse) (ZoneLine *l, const char *val);
} zone_keys[] = {
  { "kind", zone_kind }, { "name", zone_name }, { "index", zone_index },
  { "at", zone_at }, { "size", zone_size },
};

/* "seat-zone|shared-zone name=N kind=K [index=I] at=X,Y size=W,D": the
 * key=value words after the statement, read from `save`. */
static EngStatus
parse_zone (ZoneLine *l, bool per_seat, char **save, CalZones *out)
{
  if (out->n >= CAL_ZONES_MAX)
    ZONE_FAIL (l, ENG_ERR_LIMIT, "more than %d zones", CAL_ZONES_MAX);
  memset (&l->z, 0, sizeof l->z);
  l->z.per_seat = per_seat;
  l->z.index = -1;
  l->z.kind = ENG_ZONE_KIND_COUNT;
  char *word;
  while ((word = strtok_r (NULL, " \t", save)) != NULL)
    {
      char *eq = strchr (word, '=');
      if (eq == NULL)
        ZONE_FAIL (l, ENG_ERR_SYNTAX, "expected key=value, got '%s'", word);
      *eq = '\0';
      size_t k = 0;
      while (k < sizeof zone_keys / sizeof zone_keys[0] && strcmp (word, zone_keys[k].key) != 0)
        k++;
      if (k == sizeof zone_keys / sizeof zone_keys[0])
        ZONE_FAIL (l, ENG_ERR_UNKNOWN_ATTRIBUTE, "unknown key '%s'", word);
      EngStatus st = zone_keys[k].parse (l, eq + 1);
      if (st != ENG_OK)
        return st;
    }
  if (l->z.kind == ENG_ZONE_KIND_COUNT || !l->have_at || !l->have_size)
    ZONE_FAIL (l, ENG_ERR_SYNTAX, "a zone needs kind=, at= and size=");
  if (l->z.name[0] == '\0')
    snprintf (l->z.name, sizeof l->z.name, "%s", cal_zone_kind_to_string (l->z.kind));
  out->zones[out->n++] = l->z;
  return ENG_OK;
}

/* "game NAME" */
static EngStatus
parse_game (ZoneLine *l, char **save, CalZones *out)
{
  char *g = strtok_r (NULL, " \t", save);
  if (g == NULL || strlen (g) >= sizeof out->game || strtok_r (NULL, " \t", save) != NULL)
    ZONE_FAIL (l, ENG_ERR_SYNTAX, "'game' needs exactly one short name");
  strcpy (out->game, g);
  return ENG_OK;
}

/* One line: a zone or "game NAME". */
static EngStatus
parse_line (char *line, const char *source, unsigned lineno, CalZones *out, EngParseError *err)
{
  char *save = NULL;
  char *word = strtok_r (line, " \t", &save);
  if (word == NULL)
    return ENG_OK;
  ZoneLine l = { .source = source, .lineno = lineno, .err = err };
  if (strcmp (word, "game") == 0)
    return parse_game (&l, &save, out);
  if (strcmp (word, "seat-zone") == 0 || strcmp (word, "shared-zone") == 0)
    return parse_zone (&l, word[1] == 'e', &save, out);
  ZONE_FAIL (&l, ENG_ERR_UNKNOWN_ATTRIBUTE,
                     "unknown statement '%s' (game, seat-zone, shared-zone)", word);
}

EngStatus
cal_zones_parse (const char *text, size_t len, const char *source, CalZones *out, EngParseError *err)
{
  if (text == NULL || out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  memset (out, 0, sizeof *out);
  char line[512];
  size_t pos = 0;
  unsigned lineno = 0;
  while (pos < len)
    {
      lineno++;
      size_t end = pos;
      while (end < len && text[end] != '\n')
        end++;
      size_t n = end - pos;
      if (n >= sizeof line)
        {
          eng_parse_error_set (err, source, lineno, "line too long");
          return ENG_ERR_SYNTAX;
        }
      memcpy (line, text + pos, n);
      line[n] = '\0';
      pos = end + 1;
      if (memchr (line, '\0', n) != NULL)
        {
          eng_parse_error_set (err, source, lineno, "NUL byte in text");
          return ENG_ERR_SYNTAX;
        }
      char *hash = strchr (line, '#');
      if (hash != NULL)
        *hash = '\0';
      size_t kept = strlen (line);
      if (kept > 0 && line[kept - 1] == '\r')
        line[kept - 1] = '\0';
      EngStatus st = parse_line (line, source, lineno, out, err);
      if (st != ENG_OK)
        return st;
    }
  return ENG_OK;
}

EngStatus
cal_zones_load_file (const char *path, CalZones *out, EngParseError *err)
{
  char *text = NULL;
  size_t len = 0;
  EngStatus st = eng_read_text_file (path, 65536, &text, &len, err);
  if (st != ENG_OK)
    return st;
  st = cal_zones_parse (text, len, path, out, err);
  free (text);
  return st;
}

static bool
inside (const CalZoneRect *z, double r, double f)
{
  return fabs (r - z->at_x) <= z->width / 2 && fabs (f - z->at_y) <= z->depth / 2;
}

/* A seat's frame: right = forward turned a quarter clockwise (table y
 * points down). */
static void
seat_axes (const CalSeat *seat, double *rx, double *ry)
{
  *rx = -seat->fwd_y;
  *ry = seat->fwd_x;
}

EngZone
cal_zones_find (const CalZones *zones, const CalSeat *seats, size_t n_seats, double cx, double cy,
                double x, double y)
{
  EngZone none = { ENG_ZONE_NONE, -1, -1 };
  if (zones == NULL)
    return none;
  for (size_t i = 0; i < zones->n; i++)
    {
      const CalZoneRect *z = &zones->zones[i];
      if (!z->per_seat)
        {
          if (inside (z, x - cx, y - cy))
            return (EngZone){ (uint8_t) z->kind, -1, (int8_t) z->index };
          continue;
        }
      for (size_t s = 0; s < n_seats; s++)
        {
          const CalSeat *seat = &seats[s];
          double rx, ry;
          seat_axes (seat, &rx, &ry);
          double dx = x - seat->x, dy = y - seat->y;
          double r = dx * rx + dy * ry, f = dx * seat->fwd_x + dy * seat->fwd_y;
          if (inside (z, r, f))
            return (EngZone){ (uint8_t) z->kind, (int8_t) (seat->number - 1), (int8_t) z->index };
        }
    }
  return none;
}

size_t
cal_zones_outlines (const CalZones *zones, const CalSeat *seats, size_t n_seats, double cx,
                    double cy, CalZoneOutline *out, size_t max)
{
  static const double corner[4][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } };
  size_t n = 0;
  for (size_t i = 0; zones != NULL && i < zones->n; i++)
    {
      const CalZoneRect *z = &zones->zones[i];
      size_t copies = z->per_seat ? n_seats : 1;
      for (size_t s = 0; s < copies; s++, n++)
        {
          if (n >= max)
            continue;
          CalZoneOutline *o = &out[n];
          snprintf (o->name, sizeof o->name, "%s", z->name);
          for (int k = 0; k < 4; k++)
            {
              double r = z->at_x + corner[k][0] * z->width / 2;
              double f = z->at_y + corner[k][1] * z->depth / 2;
              if (!z->per_seat)
                {
                  o->pt[k][0] = cx + r;
                  o->pt[k][1] = cy + f;
                  continue;
                }
              double rx, ry;
              seat_axes (&seats[s], &rx, &ry);
              o->pt[k][0] = seats[s].x + r * rx + f * seats[s].fwd_x;
              o->pt[k][1] = seats[s].y + r * ry + f * seats[s].fwd_y;
            }
          o->zone = (EngZone){ (uint8_t) z->kind, z->per_seat ? (int8_t) (seats[s].number - 1) : -1,
                               (int8_t) z->index };
        }
    }
  return n;
}

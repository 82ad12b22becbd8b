/* cal-zones.h: a game's zone layout (data/zones/GAME.zones).
 *
 * Zones are rectangles placed relative to what the camera can find on the
 * table: per-seat zones in the seat's own frame (origin at the seat marker,
 * "forward" towards the table centre, "right" to the player's right as they
 * face the centre), shared zones relative to the table centre in table axes.
 * docs/calibration-format.md is the format reference.  Pure C.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "eng-snapshot.h"
#include "eng-status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CAL_ZONES_MAX 64

typedef struct {
  EngZoneKind kind;
  int index;                /* slot / deck number, -1 when none */
  bool per_seat;            /* true: in a seat's frame; false: table centre frame */
  double at_x, at_y;        /* centre: (right, forward) mm for seat zones,
                               (x, y) mm from the table centre for shared ones */
  double width, depth;      /* extent along right/x and forward/y, mm */
  char name[32];            /* e.g. "slot-1", for messages */
} CalZoneRect;

typedef struct {
  char game[32];
  size_t n;
  CalZoneRect zones[CAL_ZONES_MAX];
} CalZones;

/* Parses a zone file's text into `out` (caller-owned).  On error returns
 * ENG_ERR_SYNTAX / ENG_ERR_UNKNOWN_ATTRIBUTE / ENG_ERR_LIMIT and fills `err`
 * (may be NULL) with source, line and reason; `out` is then unspecified. */
EngStatus cal_zones_parse (const char *text, size_t len, const char *source, CalZones *out,
                           EngParseError *err);
/* Same from a file; ENG_ERR_IO when unreadable. */
EngStatus cal_zones_load_file (const char *path, CalZones *out, EngParseError *err);

/* A seat as the calibration found it: marker position and the unit vector
 * towards the table centre, in table mm. */
typedef struct {
  unsigned number;          /* the seat marker's serial (1-based) */
  double x, y;
  double fwd_x, fwd_y;
} CalSeat;

/* The zone holding table point (x, y); seats 0-based in the returned zone.
 * Returns a zone of kind ENG_ZONE_NONE (seat -1, index -1) when none does. */
EngZone cal_zones_find (const CalZones *zones, const CalSeat *seats, size_t n_seats,
                        double centre_x, double centre_y, double x, double y);

/* One zone laid on the table: its identity and its four corners (table mm
 * from cal_zones_outlines, image pixels from cal_table_zone_outlines). */
typedef struct {
  EngZone zone;
  char name[32];
  double pt[4][2];
} CalZoneOutline;

/* Every zone as placed now: shared zones once, seat zones once per seat.
 * Writes at most `max` into `out` and returns how many there are.  The
 * same geometry as cal_zones_find, so what is drawn is what is used. */
size_t cal_zones_outlines (const CalZones *zones, const CalSeat *seats, size_t n_seats,
                           double centre_x, double centre_y, CalZoneOutline *out, size_t max);

/* Parses a zone kind name ("slot", "attack", "capture", "play", "deck",
 * "discard", "centre", "command"); ENG_ZONE_KIND_COUNT when unknown. */
EngZoneKind cal_zone_kind_from_string (const char *name);
const char *cal_zone_kind_to_string (EngZoneKind kind);

#ifdef __cplusplus
}
#endif

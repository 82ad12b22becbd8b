/* eng-snapshot.h: what the camera pipeline proves about the table at one
 * moment, as plain C values the engine consumes without any vision type.
 *
 * The tracker (vision/track, calibration/) fills it; the interpreter
 * (engine/) turns successive snapshots into moves.  A snapshot holds only
 * committed state: a change appears here once it has held for the commit
 * time, and a card hidden by a hand stays (flag ENG_SNAP_OCCLUDED) for up to
 * the occlusion grace time.  Fixed capacity, no pointers: it copies with
 * memcpy and the per-frame path allocates nothing.
 */
#pragma once

#include <stdint.h>

#define ENG_SNAPSHOT_MAX_ITEMS 192
#define ENG_SNAPSHOT_PAYLOAD 12   /* 11 payload characters and a NUL */

/* Where on the table an item lies, per the calibrated zone layout. */
typedef enum {
  ENG_ZONE_NONE = 0,      /* on the table, outside every zone */
  ENG_ZONE_SLOT,          /* a seat's card slots in a row (index 0..n_slots) */
  ENG_ZONE_ATTACK,        /* the spot in front of a slot where cards are laid at it */
  ENG_ZONE_CAPTURE,       /* a seat's capture area */
  ENG_ZONE_PLAY,          /* a seat's own play area (cards laid down before it) */
  ENG_ZONE_DECK,          /* a shared draw pile; index = deck number in the set */
  ENG_ZONE_DISCARD,       /* a shared discard pile; index = deck number */
  ENG_ZONE_CENTRE,        /* shared centre (a row of places: index = position) */
  ENG_ZONE_COMMAND,       /* where command cards are shown to the camera */
  ENG_ZONE_KIND_COUNT
} EngZoneKind;

typedef struct {
  uint8_t kind;    /* EngZoneKind */
  int8_t seat;     /* 0-based seat (player position), -1 for shared zones */
  int8_t index;    /* slot number, deck number or position; -1 when none */
} EngZone;

enum {
  ENG_SNAP_OCCLUDED = 1u << 0,   /* not seen this frame, kept within grace */
  ENG_SNAP_DUPLICATE = 1u << 1,  /* the same unique sticker seen at two places */
  ENG_SNAP_MOVING = 1u << 2,     /* seen, but not yet at rest */
};

typedef struct {
  char payload[ENG_SNAPSHOT_PAYLOAD];  /* validated tag payload */
  char tag_kind;                       /* EngTagKind: 'F' face, 'B' back, ... */
  uint16_t serial;                     /* the tag's serial */
  uint32_t track_id;                   /* stable over frames; backs are told
                                          apart only by this and position */
  float x_mm, y_mm;                    /* table plane, origin and axes per
                                          docs/calibration-format.md */
  float angle_deg;                     /* card rotation on the table */
  EngZone zone;
  uint8_t flags;                       /* ENG_SNAP_* */
  int64_t since_ns;                    /* when it came to rest where it is */
} EngSnapshotItem;

typedef struct {
  uint64_t seq;            /* increases by one per committed change set */
  int64_t time_ns;         /* frame time of the newest evidence */
  uint8_t calibrated;      /* zones and mm are valid */
  uint16_t n_foreign;      /* QR codes seen that are not Tablero tags */
  uint32_t tracker;        /* which tracker numbered the track ids: another
                              value for every tracker started, so a resumed
                              referee knows whether ids it journaled still
                              name the same cards; 0 = not said */
  uint16_t n_items;
  EngSnapshotItem items[ENG_SNAPSHOT_MAX_ITEMS];
} EngSnapshot;

/* eng-tag.h: the payload printed in every Tablero QR sticker.
 *
 * Format (docs/tags.md is the reference): 11 characters from [0-9A-Z], so a
 * QR version 1 code holds it in alphanumeric mode at level Q.
 *
 *   T B 1 K 0 1 F 0 4 2 C
 *   | | | | \_/ | \___/ +-- check character: Luhn mod 36 over the first 10
 *   | | | |  |  |   +------ serial, 3 decimal digits, 001-999
 *   | | | |  |  +---------- kind: F face, B deck back, A anchor, S seat, X command
 *   | | | |  +------------- printed set id, 2 characters [0-9A-Z]
 *   | | | +---------------- game letter A-Z: its card set's (the `game` line)
 *   +-+-+------------------ magic "TB" and format version "1"
 *
 * Serials: a face's serial is its physical card's number in the set (unique
 * per card, so copies are told apart); a back's serial is the deck number (all
 * backs of a deck are identical, so a back never betrays the face, K20); an
 * anchor's and a seat's serial is its number; a command's is its number in the
 * set's command list.
 */
#pragma once

#include <stdint.h>
#include <stddef.h>

#include "eng-status.h"

#define ENG_TAG_PAYLOAD_LEN 11

typedef enum {
  ENG_TAG_FACE = 'F',
  ENG_TAG_BACK = 'B',
  ENG_TAG_ANCHOR = 'A',
  ENG_TAG_SEAT = 'S',
  ENG_TAG_COMMAND = 'X',
} EngTagKind;

/* A decoded payload: plain value. */
typedef struct {
  char game;          /* 'A'-'Z': 'K', 'C' or 'E' for the bundled games */
  char set[3];        /* two characters and a NUL */
  EngTagKind kind;
  uint16_t serial;    /* 1..999 */
} EngTag;

/* Parses `len` bytes of `payload` (no NUL needed; any bytes allowed).
 * Returns ENG_OK and fills `out`; ENG_ERR_TAG_FOREIGN when the bytes are not
 * Tablero-shaped (wrong length, magic, alphabet, kind, serial 000);
 * ENG_ERR_TAG_CHECKSUM when only the check character is wrong.  `out` is
 * untouched on error.  Knows nothing of card sets: see eng_card_set_resolve(). */
EngStatus eng_tag_parse (const char *payload, size_t len, EngTag *out);

/* Writes the 11 payload characters and a NUL into `out`.
 * Returns ENG_ERR_INVALID_ARGUMENT for a field out of range. */
EngStatus eng_tag_format (const EngTag *tag, char out[ENG_TAG_PAYLOAD_LEN + 1]);

/* The check character for `len` characters of [0-9A-Z] (Luhn mod 36);
 * returns 0 when a character is outside that alphabet. */
char eng_tag_check_char (const char *body, size_t len);

/* "face", "back", "anchor", "seat", "command"; "unknown" otherwise. */
const char *eng_tag_kind_to_string (EngTagKind kind);

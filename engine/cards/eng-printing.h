/* eng-printing.h: the seal that ties a sticker to the table that printed it.
 *
 * A card's identity is its 11-character tag (eng-tag.h); records, journals
 * and snapshots only ever hold that.  What a sticker's QR code holds is the
 * tag followed by a 5-character seal (docs/tags.md, "Format 2"):
 *
 *   T B 1 K 0 1 F 0 4 2 C 3 K 9 Q 0
 *   \_______ tag _______/ \_ seal _/
 *
 * seal = the first 4 bytes (big-endian) of HMAC-SHA256(key, the 11 tag
 * characters), mod 36^5, as 5 base-36 digits [0-9A-Z], most significant
 * first.  The key (ENG_PRINTING_KEY_LEN random bytes per game and set) is
 * the table's own and is printed nowhere, so a sticker of another printing
 * or a code typed by hand from the documented format has, but for a 1 in
 * 36^5 guess, the wrong seal.  16 characters is exactly what a version 1 QR
 * code holds in alphanumeric mode at level Q.
 *
 * An EngPrinting knows the sets a table plays, each with its key, and the
 * seal of every sticker each set has (faces, backs, anchors, seats,
 * commands), computed once: eng_printing_check() then allocates nothing and
 * hashes nothing, so it sits on the per-frame path.  Once its sets are
 * added it is only read, so one printing can be shared by threads.  It
 * keeps no key, only seals, and hands none out but a sticker's own.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "eng-cardset.h"
#include "eng-status.h"
#include "eng-tag.h"

#define ENG_PRINTING_KEY_LEN 32
#define ENG_SEAL_LEN 5
#define ENG_STICKER_TEXT_LEN (ENG_TAG_PAYLOAD_LEN + ENG_SEAL_LEN)  /* 16 */

typedef struct EngPrinting EngPrinting;

/* The seal of the 11 characters at `tag_text` under `key` (`key_len`
 * bytes), written as 5 characters and a NUL into `out`.  Returns
 * ENG_ERR_INVALID_ARGUMENT for a NULL argument or an empty key. */
EngStatus eng_seal_compute (const uint8_t *key, size_t key_len, const char *tag_text,
                            char out[ENG_SEAL_LEN + 1]);

/* A printing of one card set made with `key` (ENG_PRINTING_KEY_LEN bytes,
 * copied).  On success *out owns a new printing (eng_printing_free).
 * Returns ENG_ERR_INVALID_ARGUMENT for NULL arguments, ENG_ERR_NO_MEMORY;
 * *out is NULL on error.  The set is only read here: it need not outlive
 * the printing. */
EngStatus eng_printing_new (const EngCardSet *set, const uint8_t *key, EngPrinting **out);

/* Adds another set to the printing (a reader that sees the stickers of
 * several games, such as `tablero-cli scan`).  Returns
 * ENG_ERR_DUPLICATE_ID when the printing already holds that game letter
 * and set id, ENG_ERR_LIMIT past ENG_PRINTING_MAX_SETS,
 * ENG_ERR_INVALID_ARGUMENT, ENG_ERR_NO_MEMORY; the printing is unchanged on
 * error. */
#define ENG_PRINTING_MAX_SETS 8
EngStatus eng_printing_add (EngPrinting *printing, const EngCardSet *set, const uint8_t *key);

void eng_printing_free (EngPrinting *printing);

/* Whether the printing holds this game letter and set id. */
int eng_printing_has_set (const EngPrinting *printing, char game, const char *set_id);

/* Checks `len` bytes a QR code held (any bytes; no NUL needed).  Returns
 * ENG_OK and fills `out` (may be NULL) when they are a sticker of this
 * printing; otherwise, `out` untouched:
 *   ENG_ERR_TAG_FOREIGN     not Tablero-shaped at all;
 *   ENG_ERR_TAG_CHECKSUM    Tablero-shaped, the tag's check character fails;
 *   ENG_ERR_TAG_OLD_FORMAT  a valid 11-character tag with no seal: a sticker
 *                           printed before seals (print the set again);
 *   ENG_ERR_TAG_UNKNOWN     a valid tag of a set the printing does not hold,
 *                           or a serial that set does not have;
 *   ENG_ERR_TAG_SEAL        a valid tag of this printing's set whose seal is
 *                           not this printing's: another printing's
 *                           sticker, or a code made by hand.
 * Allocates nothing. */
EngStatus eng_printing_check (const EngPrinting *printing, const char *bytes, size_t len,
                              EngTag *out);

/* Writes the 16 characters a sticker of `tag` holds, and a NUL, into `out`.
 * Returns ENG_ERR_TAG_UNKNOWN when the printing has no such sticker,
 * ENG_ERR_INVALID_ARGUMENT for NULL arguments.  Allocates nothing. */
EngStatus eng_printing_sticker_text (const EngPrinting *printing, const EngTag *tag,
                                     char out[ENG_STICKER_TEXT_LEN + 1]);

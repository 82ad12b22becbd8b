/* eng-card-table.h: a game's cards as its rules hold them, from the set.
 *
 * Rules name cards by a compact card index (0..n-1, the set's faces in
 * file order) so a state is small and pointer-free; ENG_CARD_UNKNOWN is a
 * card the referee has not seen (a live table's hands and decks) and
 * ENG_CARD_NONE no card.  The table maps serials to indices and back and
 * keeps each face's deck and set entry, so a game's rules_new reads only
 * the attributes that mean something to it (docs/engine.md).
 *
 * EngTally counts the cards of a state's places for check_conservation:
 * every known card in exactly one place, unseen ones as tokens, the two
 * adding up to the deck.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "eng-game.h"

#define ENG_CARD_UNKNOWN 0xFF      /* a card the referee has not seen */
#define ENG_CARD_NONE 0xFE         /* no card, nobody */
#define ENG_CARD_TABLE_MAX 250
#define ENG_CARD_SERIALS 1000      /* face serials are 1-999 */

typedef struct {
  const EngCardSet *set;
  uint8_t n;                                  /* faces */
  uint16_t serial[ENG_CARD_TABLE_MAX];        /* card index -> face serial */
  uint8_t deck[ENG_CARD_TABLE_MAX];           /* card index -> the set's deck index */
  uint8_t by_serial[ENG_CARD_SERIALS];        /* serial -> card index, ENG_CARD_NONE */
} EngCardTable;

/* Fills `table` with every face of `set`, which must be a set of `klass`'s
 * game ("not a TITLE card set" otherwise, ENG_ERR_INVALID_ARGUMENT) with
 * at most `max` faces (ENG_ERR_LIMIT); `err` says why (may be NULL). */
EngStatus eng_card_table_init (EngCardTable *table, const EngCardSet *set,
                               const EngGameClass *klass, unsigned max, EngParseError *err);

/* The card index of a serial, ENG_CARD_NONE when the set has no such face. */
static inline uint8_t
eng_card_table_index (const EngCardTable *table, unsigned serial)
{
  return serial < ENG_CARD_SERIALS ? table->by_serial[serial] : ENG_CARD_NONE;
}

/* The set's entry of card index `idx` (NULL out of range). */
const EngCard *eng_card_table_card (const EngCardTable *table, unsigned idx);

/* Every face's enum attribute `key` as its position among `values` (words
 * separated by spaces), into out[card index]; a face without one of them
 * is refused (ENG_ERR_INCONSISTENT, `err` names it). */
EngStatus eng_card_table_enum (const EngCardTable *table, const char *key, const char *values,
                               uint8_t *out, EngParseError *err);
/* Every face's integer attribute `key`, which must lie in lo..hi, into
 * out[card index]; refused like eng_card_table_enum. */
EngStatus eng_card_table_int (const EngCardTable *table, const char *key, int lo, int hi,
                              int8_t *out, EngParseError *err);

/* ---- a place's cards (card indices) ------------------------------------- */

/* The position of `card` among the n cards, -1 when not there. */
int eng_cards_find (const uint8_t *cards, unsigned n, uint8_t card);
/* Takes out the card at position i, keeping the others' order. */
void eng_cards_remove_at (uint8_t *cards, uint8_t *n, unsigned i);
/* Sorts n serials, smallest first (an order that does not depend on how
 * cards were laid or seen). */
void eng_serials_sort (uint16_t *serials, unsigned n);

/* The position of a card's enum attribute `key` among `values` (words
 * separated by spaces: "oros copas espadas bastos"), -1 when the card has
 * none of them. */
int eng_card_attr_index (const EngCard *card, const char *key, const char *values);

/* ---- conservation ------------------------------------------------------- */

typedef struct {
  uint8_t seen[ENG_CARD_TABLE_MAX];
  unsigned known, unknown;
  int bad;                   /* a card index counted twice or not a card, -1 */
} EngTally;

void eng_tally_init (EngTally *tally);
/* Counts the n cards of one place (card indices); ENG_CARD_UNKNOWN counts
 * as an unseen card where `may_be_unknown`, as a fault elsewhere. */
void eng_tally_add (EngTally *tally, const EngCardTable *table, const uint8_t *cards, size_t n,
                    bool may_be_unknown);
/* ENG_OK when no card was counted twice and known + unseen make `total`;
 * ENG_ERR_CONSERVATION with `why` (may be NULL) under `rule` otherwise. */
EngStatus eng_tally_check (const EngTally *tally, const EngCardTable *table, unsigned total,
                           const char *rule, EngVerdict *why);

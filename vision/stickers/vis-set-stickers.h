/* vis-set-stickers.h: the texts of every sticker a card set needs.
 *
 * Bridges a card set (engine/cards/eng-cardset.h) to the sheets: one
 * VisStickerText per eng_card_set_sticker() entry, grouped so a person finds
 * them quickly (faces deck by deck, then backs deck by deck, anchors, seats,
 * commands; within a group in the set's order) and labelled in words, in
 * the table's language (gettext, as the app's).
 */
#pragma once

#include <stddef.h>

#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-printing.h"
#include "vis-sticker.h"

typedef struct {
  size_t faces;
  size_t backs;
  size_t anchors;
  size_t seats;
  size_t commands;
} VisStickerCounts;

/* Makes the texts of all eng_card_set_n_stickers(set) stickers, each QR
 * text sealed by `printing` (the table's printing of this set: the tag and
 * its seal, 16 characters).  On success *out is a new malloc'ed array of
 * *n_out entries (free() it) and `counts` (may be NULL) tells how many of
 * each kind.  Returns ENG_ERR_INVALID_ARGUMENT for NULL arguments or a set
 * with no stickers, ENG_ERR_NO_MEMORY, or the status of a failing
 * eng_card_set_sticker() / eng_printing_sticker_text() (ENG_ERR_TAG_UNKNOWN
 * when `printing` is not this set's); on error *out is NULL and *n_out 0. */
EngStatus vis_set_sticker_texts (const EngCardSet *set, const EngPrinting *printing,
                                 VisStickerText **out, size_t *n_out, VisStickerCounts *counts);

/* A card's label for its sticker, in the table's language: the game, the
 * game's own name for the card (EngGameClass.card_name: the words the app
 * and the referee use), its colour-blind symbol, its value when the name
 * does not carry it, and which copy it is: "GAME: red cat (symbol:
 * flame), 3 points, copy 1/1"; "GAME: gato rojo (símbolo: llama), 3
 * puntos, copia 1/1".  `klass` and `rules` (eng_game_class_rules_new for `set`) may
 * be NULL: the set's own name for the card is used.  Symbols, units and
 * the bundled sets' deck and command labels are data, translated when the
 * catalogue has them and as typed otherwise.  Cut to `size`. */
void vis_set_card_label (const EngCardSet *set, const EngGameClass *klass, const void *rules,
                         const EngCard *card, char *out, size_t size);

/* A display name for the set's game (its `game` line's name), falling
 * back to the set's title. */
const char *vis_set_game_name (const EngCardSet *set);

/* The sheet header title, e.g. "GAME stickers — set 01 (GAME base game)",
 * written into `out` (NUL-terminated, cut to `size`). */
void vis_set_sheet_title (const EngCardSet *set, char *out, size_t size);

/* eng-cardset.h: a printed card set, loaded from a data/cards/ *.set file.
 *
 * The set lists every physical component of one game's box with its
 * attributes (the file declares its own attribute schema, so adding a game
 * needs no code here), plus the tags a table needs besides card faces: deck
 * backs, anchors, seat markers and command cards.  docs/card-sets.md is the
 * format reference.
 *
 * An EngCardSet is immutable once loaded: every pointer it hands out lives as
 * long as the set and must not be freed by the caller.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eng-status.h"
#include "eng-tag.h"

typedef struct EngCardSet EngCardSet;

typedef struct {
  const char *key;
  const char *value;
} EngAttr;

/* One physical card face. */
typedef struct {
  uint16_t serial;       /* its face tag's serial; unique in the set, 1-based */
  const char *type_id;   /* the set's card type, e.g. "cat-red-3" */
  const char *label;     /* human text for stickers and the UI, e.g.
                            "GAME: Cat, red (symbol: flame), 3 points, copy 1/1" */
  uint16_t deck;         /* index into the set's decks */
  uint16_t copy;         /* 1..copies of this type */
  uint16_t copies;
  const EngAttr *attrs;
  size_t n_attrs;
  const char *name;      /* the type's name without copy or attributes, "Cat" */
} EngCard;

typedef struct {
  const char *id;        /* the set's `deck` id */
  const char *label;     /* "Cat deck (dark blue back)" */
  uint16_t n_cards;      /* physical cards whose back this is (faces in the deck) */
  bool has_back;         /* false for a two-sided card (one card showing two faces):
                            its faces get stickers, it gets no back sticker */
} EngDeck;

typedef struct {
  uint16_t serial;       /* the command tag's serial, 1-based */
  const char *id;        /* "end-turn", "undo", "confirm", "cancel", ... */
  const char *label;     /* "End of turn" */
  char key;              /* the window's shortcut, a letter a-z (`key=e`), or 0 */
} EngCommand;

/* What a tag means in a given set.  Exactly one of card/deck/command is set
 * for faces/backs/commands; seat and anchor numbers are 1-based. */
typedef struct {
  EngTag tag;
  const EngCard *card;
  const EngDeck *deck;
  const EngCommand *command;
  unsigned seat;
  unsigned anchor;
} EngTagMeaning;

/* Loads and validates a set.  On success *out owns a new set (free with
 * eng_card_set_free).  On failure *out is NULL and `err` (may be NULL) names
 * the file, the line (0 for a whole-set fault such as a missing declaration)
 * and the reason; returns ENG_ERR_IO, ENG_ERR_SYNTAX,
 * ENG_ERR_UNKNOWN_ATTRIBUTE, ENG_ERR_DUPLICATE_ID or ENG_ERR_INCONSISTENT
 * (ENG_ERR_INVALID_ARGUMENT for NULL text or out).  Any bytes are safe.
 * `source_name` only labels errors and may be NULL. */
EngStatus eng_card_set_load_file (const char *path, EngCardSet **out, EngParseError *err);
EngStatus eng_card_set_parse (const char *text, size_t len, const char *source_name,
                              EngCardSet **out, EngParseError *err);
void eng_card_set_free (EngCardSet *set);

const char *eng_card_set_game (const EngCardSet *set);       /* registry name */
const char *eng_card_set_game_name (const EngCardSet *set);  /* the title, for labels */
char eng_card_set_game_letter (const EngCardSet *set);       /* 'K' */
const char *eng_card_set_id (const EngCardSet *set);         /* "01" */
const char *eng_card_set_title (const EngCardSet *set);
/* The rulebook's credits (`credit` lines, for the app's About window):
 * how many, and line `index` (NULL past the end). */
size_t eng_card_set_n_credits (const EngCardSet *set);
const char *eng_card_set_credit (const EngCardSet *set, size_t index);

size_t eng_card_set_n_cards (const EngCardSet *set);
const EngCard *eng_card_set_card (const EngCardSet *set, size_t index);
const EngCard *eng_card_set_find_serial (const EngCardSet *set, uint16_t serial);

/* A two-sided card (a deck with no back) is
 * one physical card whose two faces are consecutive faces of that deck in
 * the set file: the serial of the other side of face `serial`, or 0 when
 * the face has a back (or the serial is not the set's). */
uint16_t eng_card_set_other_side (const EngCardSet *set, uint16_t serial);

size_t eng_card_set_n_decks (const EngCardSet *set);
const EngDeck *eng_card_set_deck (const EngCardSet *set, size_t index);
unsigned eng_card_set_n_anchors (const EngCardSet *set);
unsigned eng_card_set_n_seats (const EngCardSet *set);
size_t eng_card_set_n_commands (const EngCardSet *set);
const EngCommand *eng_card_set_command (const EngCardSet *set, size_t index);

/* Index of the deck with this id: ENG_OK and *index, ENG_ERR_NOT_FOUND. */
EngStatus eng_card_set_find_deck (const EngCardSet *set, const char *id, size_t *index);
/* The command with this id ("undo"), or NULL. */
const EngCommand *eng_card_set_find_command (const EngCardSet *set, const char *id);

/* The printed word and the colour-blind symbol name the set gives a value of
 * the `colour` attribute ("red" -> "red", "flame"); NULL when it gives none. */
const char *eng_card_set_colour_word (const EngCardSet *set, const char *colour);
const char *eng_card_set_colour_symbol (const EngCardSet *set, const char *colour);
/* The unit the set gives the int attribute `key` ("points" for "value");
 * NULL when it gives none or has no such attribute. */
const char *eng_card_set_attr_unit (const EngCardSet *set, const char *key);

/* Attribute lookup: NULL / ENG_ERR_NOT_FOUND when the card lacks it;
 * eng_card_attr_int returns ENG_ERR_SYNTAX when the value is not an integer. */
const char *eng_card_attr (const EngCard *card, const char *key);
EngStatus eng_card_attr_int (const EngCard *card, const char *key, long *out);

/* Resolves a parsed tag against this set: ENG_ERR_TAG_UNKNOWN when the game,
 * the set id or the serial is not this set's. */
EngStatus eng_card_set_resolve (const EngCardSet *set, const EngTag *tag,
                                EngTagMeaning *out);

/* Every sticker a table prints for this set, in sheet order: one per card
 * face, one back per physical card of each deck that has a back, the
 * anchors, the seats and the commands.  eng_card_set_sticker fills `out` as
 * eng_card_set_resolve would; ENG_ERR_NOT_FOUND past the end. */
size_t eng_card_set_n_stickers (const EngCardSet *set);
EngStatus eng_card_set_sticker (const EngCardSet *set, size_t index, EngTagMeaning *out);

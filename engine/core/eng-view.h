/* eng-view.h: a game's public view, what everyone at the table may see.
 *
 * The UI and the CLI show a game only through this value: they never read a
 * game's state struct.  A game fills it (EngGameClass.public_view) from its
 * rules and state; the live interpreter adds whose decision the table waits
 * for.  Everything in it is public by construction: a card is named (its face
 * serial) only while its face is up on the table now (K20, C11, E16); a card
 * lying face down is serial 0 with its deck, so it can be drawn as a back.
 *
 * Texts are written in the table's language (ENG_(), eng-i18n.h) when the
 * view is filled, which happens when a view is asked for, never per frame.
 * Fixed capacity, no pointers: it copies with memcpy and needs no freeing.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "eng-game.h"

#define ENG_VIEW_TEXT 96
#define ENG_VIEW_PLACE_CARDS 16
#define ENG_VIEW_PLAYER_PLACES 2
#define ENG_VIEW_SHARED_PLACES 4
#define ENG_VIEW_PANELS 3
#define ENG_VIEW_PANEL_ROWS 8

/* One card as everyone sees it. */
typedef struct {
  uint16_t serial;     /* the face showing; 0: face down (a back of `deck`) */
  uint8_t deck;        /* the card set's deck index */
  uint8_t empty;       /* 1: an empty position (a slot with no card) */
} EngViewCard;

/* A place on the table: a seat's slots, a capture area, the path, a pile.
 * `cards` are what lies there in order (a pile: its top cards, top last);
 * `count` is how many cards the place holds in all (more than `n_cards` for
 * a pile whose lower cards are covered); `marker` picks one position out
 * (a token on the centre's row), -1 for none. */
typedef struct {
  char label[ENG_VIEW_TEXT];
  EngViewCard cards[ENG_VIEW_PLACE_CARDS];
  uint8_t n_cards;
  int16_t count;
  int8_t marker;
  char marker_label[ENG_VIEW_TEXT];   /* what the marker is ("mood: red"), "" none */
} EngViewPlace;

enum {
  ENG_VIEW_PLAYER_ACTIVE = 1u << 0,    /* it is this player's turn */
  ENG_VIEW_PLAYER_DECIDING = 1u << 1,  /* the table waits for this player */
  ENG_VIEW_PLAYER_OUT = 1u << 2,       /* eliminated */
  ENG_VIEW_PLAYER_WINNER = 1u << 3,
};

typedef struct {
  char name[ENG_NAME_MAX];
  int16_t score;                       /* meaningful when EngView.scored */
  int16_t hand;                        /* cards in hand, -1: not tracked */
  uint8_t flags;                       /* ENG_VIEW_PLAYER_* */
  char status[ENG_VIEW_TEXT];          /* "owes 2 turns", "" for nothing */
  EngViewPlace places[ENG_VIEW_PLAYER_PLACES];
  uint8_t n_places;
} EngViewPlayer;

/* A game's own panel, described as data: a title and label/value rows
 * ("Cards left" / "2", "Chance of ..." / "18 %"). */
typedef struct {
  char label[ENG_VIEW_TEXT];
  char value[ENG_VIEW_TEXT];
} EngViewRow;

typedef struct {
  char title[ENG_VIEW_TEXT];
  EngViewRow rows[ENG_VIEW_PANEL_ROWS];
  uint8_t n_rows;
} EngViewPanel;

typedef struct EngView {
  unsigned n_players;
  EngViewPlayer players[ENG_MAX_PLAYERS];
  int8_t active;                       /* whose turn, -1 none (over) */
  int8_t deciding;                     /* whose decision the table waits for, -1 */
  bool scored;                         /* the game keeps points */
  bool over;
  uint16_t winners;                    /* bit p: player p won (when over) */
  char phase[ENG_VIEW_TEXT];           /* "an abduction is being defended" */
  EngViewPlace shared[ENG_VIEW_SHARED_PLACES];
  uint8_t n_shared;
  EngViewPanel panels[ENG_VIEW_PANELS];
  uint8_t n_panels;
} EngView;

/* Clears a view to no players, nobody active or deciding, no places. */
void eng_view_init (EngView *view);

/* What every scored game's view says the same way, from the class's
 * queries: each player's score, whose turn it is and whose decision the
 * table waits for (to_move, with their flags), the end and the winners.
 * A game calls it first in its public_view, then adds its places. */
void eng_view_fill_common (EngView *view, const EngGameClass *klass, const void *rules,
                           const void *state);

/* Helpers for games filling a view: the next free place / panel / row
 * (zeroed, marker -1), or NULL when full. */
EngViewPlace *eng_view_add_shared (EngView *view, const char *label);
EngViewPlace *eng_view_add_player_place (EngViewPlayer *player, const char *label);
EngViewPanel *eng_view_add_panel (EngView *view, const char *title);
EngViewRow *eng_view_add_row (EngViewPanel *panel, const char *label, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
/* Appends a card to a place (ignored when full; `count` follows n_cards
 * unless the game sets it). */
void eng_view_place_add (EngViewPlace *place, uint16_t serial, unsigned deck, bool empty);

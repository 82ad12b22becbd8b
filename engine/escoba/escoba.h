/* escoba.h: Escoba del 15 (../shared/rules/escoba.md, S1-S12) as an
 * EngGameClass, registered as "escoba".
 *
 * The 40 cards of the Spanish deck come from the set (attributes suit,
 * value, figure; data/cards/escoba.set); the switches from
 * data/rules/escoba.options (capture_required, sevens, all_sevens, target,
 * pairs).  Players sit in the record's order, which is clockwise: play and
 * the deal go to the right, counter-clockwise (S1).  With `pairs`, four
 * players make two sides, partners opposite (players 1 and 3, 2 and 4),
 * scoring together; otherwise every player is a side of their own.
 *
 * EscState is a fixed-size value (no pointers, no names), exposed so
 * tests can read it; change it only through the class.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "eng-card-table.h"
#include "eng-play.h"

extern const EngGameClass escoba_game_class;

#define ESC_CARDS 40
#define ESC_PLAYERS 4
#define ESC_HAND 3
#define ESC_TABLE_DEAL 4
#define ESC_SUITS 4

/* Verbs: `deal C C C C` (the dealer's four cards face up, S1); `play C
 * [T...]` (a card laid, taking table cards T that add up to 15 with it). */
typedef enum { ESC_DEAL, ESC_PLAY, ESC_VERB_COUNT } EscVerb;

typedef enum { ESC_PHASE_DEAL, ESC_PHASE_PLAY, ESC_PHASE_OVER } EscPhase;
typedef enum { ESC_SEVENS_MOST, ESC_SEVENS_PRIMERA } EscSevens;

typedef struct {
  EngCardTable table;               /* first: the core builds the rules */
  uint8_t suit[ESC_CARDS];          /* 0 oros, 1 copas, 2 espadas, 3 bastos */
  int8_t value[ESC_CARDS];          /* adding value: 1-7, sota 8, caballo 9, rey 10 */
  uint8_t siete_de_oros;            /* card index of the seven of oros */
  /* switches */
  int capture_required;             /* S4 */
  int sevens;                       /* S8, EscSevens */
  int all_sevens;                   /* S9 */
  int target;                       /* S10 */
  int pairs;                        /* four players in two pairs */
} EscRules;

#define ESC_MARKS 12              /* escoba cards a side's pile shows across it */

/* What a side took in the round under way (S8 counts it at the end). */
typedef struct {
  uint8_t marks[ESC_MARKS];         /* the escobas' cards, face up across the pile (S5) */
  uint8_t cards;
  uint8_t oros;
  uint8_t sevens;
  uint8_t escobas;
  uint8_t siete_de_oros;
  uint8_t best[ESC_SUITS];          /* the primera value of its best card per suit */
} EscTaken;

typedef struct {
  EngPlayHeader h;                  /* whose decision, the end, the scores (per player:
                                       partners hold the same) */
  uint8_t phase;                    /* EscPhase */
  uint8_t n_players;
  uint8_t omniscient;               /* dealt from a seed: every identity known */
  uint8_t dealer;
  uint8_t active;
  uint8_t last_capturer;            /* ENG_CARD_NONE: nobody captured yet */
  uint8_t round;                    /* 1-based */
  uint8_t deck_n;
  uint8_t deck[ESC_CARDS];          /* the draw pile, top last; tokens when unseen */
  uint8_t hand_n[ESC_PLAYERS];
  uint8_t hand[ESC_PLAYERS][ESC_HAND];
  uint8_t table_n;
  uint8_t table[ESC_CARDS];         /* face up, in the order laid */
  uint8_t pile_n[ESC_PLAYERS];      /* per side */
  uint8_t pile[ESC_PLAYERS][ESC_CARDS];
  EscTaken taken[ESC_PLAYERS];      /* per side, this round */
  uint8_t last_points[ESC_PLAYERS]; /* per side, the round last counted */
  EscTaken last_taken[ESC_PLAYERS]; /* per side, what that round's count saw */
  int8_t last_most[3];              /* the side alone with most cards, oros, sevens
                                       (or primera) in it; -1: nobody alone */
  EngRng rng;
} EscState;

/* The side a player scores for (its partner's, in pairs) and how many. */
unsigned escoba_side (const EscRules *rules, const EscState *s, unsigned player);
unsigned escoba_n_sides (const EscRules *rules, const EscState *s);
/* The player to p's right: play and dealing go counter-clockwise (S1). */
unsigned escoba_next (const EscState *s, unsigned p);
/* The primera value of a card (S8): 7 21, 6 18, ace 16, 5 15, 4 14, 3 13,
 * 2 12, figures 10. */
unsigned escoba_primera (const EscRules *rules, uint8_t card);
/* Whether `card` laid now could take table cards to 15 (S4). */
bool escoba_can_capture (const EscRules *rules, const EscState *s, uint8_t card);

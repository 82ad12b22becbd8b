/* catchy.h: the Catchy! rules (rulebook + RULINGS.md C1-C12) as an
 * EngGameClass.
 *
 * The class is registered as "catchy" (eng_game_class_find).  Card
 * identities come from the card set (attributes kind, colour, value, side;
 * data/cards/catchy.set); the option switches from data/rules/catchy.options
 * (docs/engine.md lists them).
 *
 * CatchyState is a fixed-size value (no pointers), exposed so tests and tools
 * can read it; change it only through the class functions.
 *
 * Positions: the cat (the mood card) stands on one of CATCHY_POSITIONS
 * places, 0 = the first player's arms, 1-5 the path, 6 = the second
 * player's arms; it starts on CATCHY_CENTRE.  The three face-down path cards
 * lie on path spaces 1, 3 and 5 (path[0..2], counted from the first player).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "eng-game.h"

extern const EngGameClass catchy_game_class;

#define CATCHY_PLAYERS 2
#define CATCHY_PATH_CARDS 3
#define CATCHY_HAND 7             /* cards each player holds after the deal */
#define CATCHY_TRICKS 7           /* tricks in a hand at most (C6) */
#define CATCHY_POSITIONS 7
#define CATCHY_CENTRE 3
#define CATCHY_MAX_CARDS 32       /* faces in the set (the box has 19) */
#define CATCHY_MAIN_CARDS 17      /* 15 numbered + wild + start: one back */

#define CATCHY_UNKNOWN 0xFF       /* a card the referee has not seen */
#define CATCHY_NONE 0xFE          /* no card / nobody */

/* Verbs: index into catchy_game_class.verbs. */
typedef enum { CATCHY_SWAP, CATCHY_PLAY, CATCHY_VERB_COUNT } CatchyVerb;

typedef enum {
  CATCHY_KIND_NUMBER, CATCHY_KIND_WILD, CATCHY_KIND_START, CATCHY_KIND_MOOD
} CatchyKind;

#define CATCHY_NO_COLOUR 0xFF     /* the wild, the start card, the mood card */

typedef struct {
  uint16_t serial;
  uint8_t kind;      /* CatchyKind */
  uint8_t colour;    /* index into CatchyRules.colour_ids, CATCHY_NO_COLOUR */
  uint8_t value;     /* printed number (the wild: 3), 0 for others */
  uint8_t deck;      /* the set's deck index */
} CatchyCard;

typedef enum { CATCHY_TIE_ANOTHER_HAND, CATCHY_TIE_SHARED } CatchyTie;

typedef struct {
  const EngCardSet *set;
  CatchyCard cards[CATCHY_MAX_CARDS];
  uint8_t n_cards;
  uint8_t n_main;                   /* numbered + wild + start */
  uint8_t start;                    /* card index of the start card */
  uint8_t wild;                     /* card index of the wild */
  uint8_t mood[2];                  /* card index of the red and blue sides */
  uint8_t main_deck;                /* the set's deck index of the main back */
  uint8_t mood_deck;
  uint8_t n_colours;
  char colour_ids[4][16];
  uint8_t by_serial[1000];          /* card index or CATCHY_NONE */
  /* option switches */
  bool wild_always_playable;        /* C3 */
  bool wild_is_odd;                 /* C9 */
  uint8_t tie_at_seven;             /* C7, CatchyTie */
  uint8_t winning_score;            /* C1/C6, 7 */
} CatchyRules;

typedef enum {
  CATCHY_PHASE_SWAP,     /* the start card's holder swaps it for a path card */
  CATCHY_PHASE_LEAD,     /* the leader plays a card */
  CATCHY_PHASE_FOLLOW,   /* the follower answers */
  CATCHY_PHASE_OVER
} CatchyPhase;

typedef enum { CATCHY_RED, CATCHY_BLUE } CatchyMood;

/* One settled trick (its cards lie face up on the played pile, C12). */
typedef struct {
  uint8_t leader;        /* player */
  uint8_t lead;          /* card indices */
  uint8_t follow;
  uint8_t winner;        /* player; CATCHY_NONE for wild + 3 (C4) */
  uint8_t flipped;       /* the mood flipped (C5, C4) */
  uint8_t toward;        /* the player the cat moved toward; CATCHY_NONE */
  uint8_t revoke;        /* the follower did not follow and may have been able */
  uint8_t flagged;       /* the revoke was proven by a later card (C8) */
} CatchyTrick;

typedef struct {
  uint8_t phase;         /* CatchyPhase */
  uint8_t omniscient;    /* dealt from a seed: every identity known */
  uint8_t swapper;       /* the start card's known holder, CATCHY_NONE unseen */
  uint8_t leader;        /* who leads the current trick */
  uint8_t cat;           /* 0..6 */
  uint8_t mood;          /* CatchyMood: the side up */
  uint8_t hand_no;       /* 1-based */
  uint8_t n_tricks;      /* settled tricks this hand */
  uint8_t lead;          /* the current trick's led card, CATCHY_NONE */
  uint8_t path[CATCHY_PATH_CARDS];   /* card indices or CATCHY_UNKNOWN */
  uint8_t hand[CATCHY_PLAYERS][CATCHY_HAND + 1];
  uint8_t hand_n[CATCHY_PLAYERS];
  CatchyTrick tricks[CATCHY_TRICKS];
  int16_t score[CATCHY_PLAYERS];
  uint8_t last_points[CATCHY_PLAYERS];   /* of the last hand scored */
  uint8_t revokes[CATCHY_PLAYERS];       /* revokes proven in the whole game */
  uint8_t winners;       /* bit per player when over */
  uint8_t shared;        /* over by a shared victory (C7 option) */
  char names[CATCHY_PLAYERS][ENG_NAME_MAX];
  EngRng rng;
} CatchyState;

/* Card index for a serial, or CATCHY_NONE. */
uint8_t catchy_card_index (const CatchyRules *rules, unsigned serial);

/* Who wins a trick of `lead` (played by the leader) and `follow` (C4, C10):
 * 0 the leader, 1 the follower, -1 nobody (the wild with a 3). */
int catchy_trick_winner (const CatchyRules *rules, uint8_t lead, uint8_t follow);

/* Whether a card counts as odd for the mood (C5, C9). */
bool catchy_card_is_odd (const CatchyRules *rules, uint8_t card);

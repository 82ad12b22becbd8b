/* kittens.h: the Exploding Kittens rules (rulebook + RULINGS.md E1-E16) as
 * an EngGameClass.
 *
 * The class is registered as "kittens" (eng_game_class_find).  Card
 * identities come from the card set (attributes kind, cat, turns, depth of
 * data/cards/kittens.set); the option switches from
 * data/rules/kittens.options (docs/engine.md lists them).
 *
 * KitState is a fixed-size value (no pointers), exposed so tests and tools
 * can read it; change it only through the class functions.  Hands and the
 * draw pile hold KIT_UNKNOWN tokens for cards the referee has not seen
 * (a live table); a game dealt from a seed knows every card.  The draw
 * pile's order and what a player saw in it are the referee's secret (E16):
 * nothing public is derived from them but counts.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "eng-game.h"

extern const EngGameClass kittens_game_class;

#define KIT_MAX_PLAYERS 5
#define KIT_MAX_CARDS 128        /* physical cards (the base box has 56) */
#define KIT_MAX_TYPES 32         /* card types of the set */
#define KIT_COMBO_MAX 5

#define KIT_UNKNOWN 0xFF         /* a card the referee has not seen */
#define KIT_NONE 0xFE            /* no card */

/* Verbs: index into kittens_game_class.verbs. */
typedef enum {
  KIT_DRAW, KIT_PLAY, KIT_NOPE, KIT_RESOLVE, KIT_PAIR, KIT_TRIO, KIT_FIVE, KIT_GIVE,
  KIT_TAKE, KIT_DEFUSE, KIT_EXPLODE, KIT_REPLACE, KIT_VERB_COUNT
} KitVerb;

/* What a card does: the set's `kind` attribute. */
typedef enum {
  KIT_KIND_KITTEN, KIT_KIND_DEFUSE, KIT_KIND_NOPE, KIT_KIND_ATTACK, KIT_KIND_SKIP,
  KIT_KIND_FAVOR, KIT_KIND_SHUFFLE, KIT_KIND_SEE, KIT_KIND_CAT, KIT_KIND_TARGETED,
  KIT_KIND_TRIPLE, KIT_KIND_SUPER_SKIP, KIT_KIND_BOTTOM, KIT_KIND_ALTER, KIT_KIND_REVERSE,
  KIT_KIND_SWAP, KIT_KIND_BURY, KIT_KIND_PERSONAL, KIT_KIND_FERAL, KIT_KIND_COUNT
} KitKind;

typedef struct {
  uint16_t serial;
  uint8_t kind;     /* KitKind */
  uint8_t type;     /* index of the set's card type (identical cards share it) */
  uint8_t cat;      /* cat cards: 1 black, 2 white, 3 grey, 4 tabby, 5 blond; 0 none */
  uint8_t turns;    /* attack cards: turns given */
  uint8_t depth;    /* see / alter the future: cards looked at */
} KitCard;

typedef enum { KIT_STACK_STACK, KIT_STACK_RESET } KitStacking;
typedef enum { KIT_SPARE_ALL, KIT_SPARE_TWO } KitSpareDefuses;

typedef struct {
  const EngCardSet *set;
  KitCard cards[KIT_MAX_CARDS];
  uint8_t n_cards;
  uint8_t n_types;
  uint8_t type_first[KIT_MAX_TYPES];   /* a card index of each type */
  uint8_t by_serial[1000];             /* card index or KIT_NONE */
  /* option switches */
  uint8_t attack_stacking;             /* E4/E10, KitStacking */
  uint8_t spare_defuses;               /* E2/E15, KitSpareDefuses */
  bool nope_on_combo;                  /* E6 */
  bool two_ferals_pair;                /* E7 */
} KitRules;

typedef enum {
  KIT_PHASE_TURN,     /* the active player plays or draws; a card may be open */
  KIT_PHASE_GIVE,     /* a Favor or a trio: the target hands a card over */
  KIT_PHASE_TAKE,     /* five different: the player picks from the discard */
  KIT_PHASE_KITTEN,   /* an Exploding Kitten drawn: defuse or explode */
  KIT_PHASE_PLACE,    /* defused: the kitten goes back into the pile */
  KIT_PHASE_OVER
} KitPhase;

/* What lies open on the table, waiting for Nopes (E6, E12). */
typedef enum { KIT_OPEN_NONE, KIT_OPEN_CARD, KIT_OPEN_PAIR, KIT_OPEN_TRIO, KIT_OPEN_FIVE } KitOpen;

typedef struct {
  uint8_t n_players, phase, active;
  int8_t dir;                  /* +1 clockwise, -1 after a Reverse */
  uint8_t owed;                /* turns the active player still owes, the current included */
  uint8_t under_attack;        /* E10: the active player's turns come from an attack */
  uint8_t alive;               /* bit per player */
  uint8_t omniscient;          /* dealt from a seed: every identity known */
  uint8_t winner;              /* player index, when over */
  /* the open card or combo (E12) */
  uint8_t open;                /* KitOpen */
  uint8_t open_player;
  int8_t open_target;
  uint8_t open_type;           /* trio: the type named */
  uint8_t open_cards[KIT_COMBO_MAX];
  uint8_t open_n;
  uint8_t nopes;               /* Nopes laid on it: odd = stopped */
  /* decisions after a resolved card */
  uint8_t give_from, give_to;
  uint8_t give_type;           /* trio: the type asked for; KIT_NONE: any (Favor) */
  uint8_t kitten;              /* the kitten drawn (KIT_PHASE_KITTEN / PLACE) */
  uint8_t pile_kittens;        /* kittens in the draw pile, known or not */
  uint8_t draw_bottom;         /* Draw from the Bottom resolved: the next draw is the bottom card */
  uint16_t turn;
  /* places: card indices, KIT_UNKNOWN or KIT_NONE */
  uint8_t hand[KIT_MAX_PLAYERS][KIT_MAX_CARDS];
  uint8_t hand_n[KIT_MAX_PLAYERS];
  uint8_t out_kitten[KIT_MAX_PLAYERS];     /* the kitten of an eliminated player, E14 */
  uint8_t pile[KIT_MAX_CARDS];             /* [n-1] is the top */
  uint8_t pile_n;
  uint8_t discard[KIT_MAX_CARDS];          /* [n-1] is the top, all face up */
  uint8_t discard_n;
  uint8_t box[KIT_MAX_CARDS];              /* out of the game from the start (E2, E15) */
  uint8_t box_n;
  char names[KIT_MAX_PLAYERS][ENG_NAME_MAX];
  EngRng rng;
} KitState;

/* Card index for a serial, or KIT_NONE. */
uint8_t kittens_card_index (const KitRules *rules, unsigned serial);

/* A random legal move, for simulators and the bench: a draw one time in
 * three when one is legal (so random games end quickly), otherwise uniform
 * over the legal moves.  false when there is none (game over). */
bool kittens_random_move (const KitRules *rules, const KitState *state, EngRng *rng,
                          EngMove *out);

/* The chance the next card is a kitten as people say it: "1 in 3 (33%)",
 * the fraction reduced and the percent rounded ("under 1%" rather than 0),
 * "none" without a kitten.  Translated. */
void kittens_chance_words (unsigned kittens, unsigned cards, char *buf, size_t size);

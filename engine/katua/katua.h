/* katua.h: the Katua rules (rulebook + RULINGS.md K1-K21) as an EngGameClass.
 *
 * The class is registered as "katua" (eng_game_class_find).  Card identities
 * come from the card set (attributes kind, colour, value, action); the option
 * switches from data/rules/katua.options (docs/engine.md lists them).
 *
 * KatState is a fixed-size value (no pointers), exposed so tests and tools can
 * read it; change it only through the class functions.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "eng-game.h"

extern const EngGameClass katua_game_class;

#define KAT_MAX_PLAYERS 4
#define KAT_SLOTS 3
#define KAT_HAND 3
#define KAT_MAX_CATS 64          /* cat deck capacity (the box has 34) */
#define KAT_MAX_UFOS 128         /* UFO deck capacity (the box has 74) */
#define KAT_MAX_CARDS (KAT_MAX_CATS + KAT_MAX_UFOS)
#define KAT_MAX_ATTEMPTS 6
#define KAT_MAX_IN_PLAY 16

#define KAT_UNKNOWN 0xFF         /* a card the referee has not seen */
#define KAT_NONE 0xFE            /* an empty place */

/* Verbs: index into katua_game_class.verbs. */
typedef enum {
  KAT_PASS, KAT_END, KAT_DISCARD, KAT_ATTACK, KAT_HOOK, KAT_INTERCEPT, KAT_FLIP,
  KAT_XRAY, KAT_TELEPORT, KAT_STAMPEDE, KAT_REPLICATE, KAT_NEUTRALISE, KAT_SHIELD,
  KAT_HIT, KAT_REVEAL, KAT_VERB_COUNT
} KatVerb;

typedef enum { KAT_DECK_CAT, KAT_DECK_UFO } KatDeck;
typedef enum { KAT_KIND_CAT, KAT_KIND_FAKE, KAT_KIND_ABDUCTION, KAT_KIND_HOOK, KAT_KIND_ACTION } KatKind;
typedef enum {
  KAT_ACT_NONE, KAT_ACT_SHIELD, KAT_ACT_REPLICATOR, KAT_ACT_TELEPORTER, KAT_ACT_XRAY,
  KAT_ACT_STAMPEDE
} KatAction;

/* Colours are bit sets: tricolor is all three. */
#define KAT_RED 1u
#define KAT_BLUE 2u
#define KAT_YELLOW 4u
#define KAT_TRICOLOR 7u

typedef struct {
  uint16_t serial;
  uint8_t deck;     /* KatDeck */
  uint8_t kind;     /* KatKind */
  uint8_t colour;   /* bits; 0 for fakes, hooks and actions */
  uint8_t action;   /* KatAction */
  int8_t value;     /* points (cats) */
} KatCard;

typedef enum { KAT_UFO_OUT_RESHUFFLE, KAT_UFO_OUT_NO_DRAW, KAT_UFO_OUT_END } KatUfoOut;

typedef struct {
  const EngCardSet *set;
  KatCard cards[KAT_MAX_CARDS];
  uint8_t n_cards, n_cats, n_ufos;
  uint8_t by_serial[1000];          /* card index or KAT_NONE */
  /* option switches */
  bool xray_teleporter_answerable;  /* K10 */
  uint8_t ufo_deck_out;             /* K18, KatUfoOut */
  bool total_memory;                /* K19 */
  bool quick_start;                 /* K19 */
  uint8_t winning_score;            /* K15, 7 */
} KatRules;

typedef enum {
  KAT_PHASE_QUICK_START, KAT_PHASE_TURN, KAT_PHASE_ATTACK, KAT_PHASE_HOOK,
  KAT_PHASE_ANSWER, KAT_PHASE_OVER
} KatPhase;

/* One abduction attempt waiting for its defence (K6-K13). */
typedef struct {
  uint8_t launcher;     /* who captures on a match (changes with a Shield) */
  uint8_t player;       /* whose slot the beam points at (the defender) */
  uint8_t slot;
  uint8_t colour;       /* the beam */
  uint8_t card;         /* the UFO (or Replicator) carrying it */
} KatAttempt;

typedef enum {
  KAT_END_NONE, KAT_END_SCORE, KAT_END_CAT_DECK, KAT_END_UFO_DECK
} KatEndReason;

typedef struct {
  uint8_t n_players, active, first, phase;
  uint8_t omniscient;          /* dealt from a seed: every identity known */
  uint8_t abduction_used;      /* K3, this turn */
  uint8_t played_any;          /* K3, this turn */
  uint8_t quick_start_done;    /* bit per player */
  /* Replicator context (K13): the card effect the next `replicate` copies */
  uint8_t rep_effect;          /* verb of the copied effect, KAT_VERB_COUNT none */
  uint8_t rep_player, rep_count, rep_colour, rep_rival;
  uint8_t rep_open;            /* attack: no defence move yet */
  /* pending X-Ray/Teleporter answer (K10 option) */
  uint8_t answer_player, answer_verb, answer_card, answer_actor, answer_rep_count;
  int8_t answer_p[2], answer_s[2];
  /* Hook (K12) */
  uint8_t hook_card, hook_slot, hook_ufo;
  uint8_t hook_answered;       /* bit per rival who has answered */
  int8_t hook_rival;
  /* game over */
  uint8_t end_reason;          /* KatEndReason */
  uint8_t winners;             /* bit per player */
  uint8_t tiebreak;            /* 0 score, 1 authentic ranks, 2 fewest fakes, 3 shared */
  uint16_t turn;
  /* places: card indices, KAT_UNKNOWN or KAT_NONE */
  uint8_t slot[KAT_MAX_PLAYERS][KAT_SLOTS];
  uint8_t face_up[KAT_MAX_PLAYERS][KAT_SLOTS];
  uint8_t hand[KAT_MAX_PLAYERS][KAT_HAND];
  uint8_t hand_n[KAT_MAX_PLAYERS];
  uint8_t cat_deck[KAT_MAX_CATS];          /* [n-1] is the top */
  uint8_t cat_deck_n;
  uint8_t ufo_deck[KAT_MAX_UFOS];
  uint8_t ufo_deck_n;
  uint8_t discard[KAT_MAX_UFOS];
  uint8_t discard_n;
  uint8_t in_play[KAT_MAX_IN_PLAY];        /* UFOs on the table, unresolved */
  uint8_t in_play_n;
  uint8_t captured[KAT_MAX_PLAYERS][KAT_MAX_CATS];
  uint8_t captured_n[KAT_MAX_PLAYERS];
  int8_t score[KAT_MAX_PLAYERS];
  KatAttempt att[KAT_MAX_ATTEMPTS];        /* [0] is being defended */
  uint8_t n_att;
  char names[KAT_MAX_PLAYERS][ENG_NAME_MAX];
  EngRng rng;
} KatState;

/* K13: the attempt (index into state->att) a Replicator copying
 * `defender`'s Shield would answer: the first one still aimed at them.  -1
 * when the effect a Replicator would copy is not their Shield, or no such
 * attempt is left.  Read by the rules, the live protocol and its tests. */
int katua_shield_copy_attempt (const KatState *s, int defender);

/* Convenience: a random legal move (uniform over katua legal moves), for
 * simulators and the bench.  Returns false when there is none (game over). */
bool katua_random_move (const KatRules *rules, const KatState *state, EngRng *rng,
                        EngMove *out);

/* What everyone may see in a slot: the face's serial when face up, 0 when
 * face down (even if the referee knows it, K20) or empty (-1). */
int katua_public_slot (const KatRules *rules, const KatState *state, unsigned player,
                       unsigned slot);

/* Card index for a serial, or KAT_NONE. */
uint8_t katua_card_index (const KatRules *rules, unsigned serial);

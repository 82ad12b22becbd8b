/* kittens-private.h: what Exploding Kittens' own files share and nothing
 * else reads. */
#pragma once

#include "eng-view.h"
#include "kittens.h"

extern const char *const kittens_verbs[KIT_VERB_COUNT];

/* EngGameClass.card_name, .public_view and .random_move (kittens-view.c). */
bool kittens_card_public (const void *rules, const void *state, unsigned serial);
void kittens_card_name (const void *rules, unsigned serial, bool definite, char *buf,
                        size_t size);
void kittens_public_view (const void *rules, const void *state, const EngSetup *setup,
                          EngView *view);
bool kittens_class_random_move (const void *rules, const void *state, EngRng *rng,
                                EngMove *out);

/* EngGameClass.legal_moves (kittens-moves.c). */
size_t kittens_legal_moves (const void *rules, const void *state, EngMove *out, size_t max);

/* A card kind's name in the table's language ("Attack", "Black cat");
 * `depth` tells the two See the Future and Alter the Future cards apart. */
const char *kittens_kind_words (unsigned kind, unsigned cat, unsigned depth);
/* The same with its indefinite article ("an Attack"), translated. */
const char *kittens_kind_a (unsigned kind, unsigned cat, unsigned depth);

/* Whether the combo cards (indices) make a pair / trio / five different
 * (E7); the trio's named type is not among them. */
bool kittens_pair_ok (const KitRules *r, const uint8_t *cards);
bool kittens_trio_ok (const KitRules *r, const uint8_t *cards);
bool kittens_five_ok (const KitRules *r, const uint8_t *cards);
/* Whether n combo cards (indices) are all of different kinds, as five
 * different must be (a Feral Cat a kind of its own). */
bool kittens_differ_ok (const KitRules *r, const uint8_t *cards, unsigned n);

/* Whether a single card of this kind is played with the `play` verb, and
 * whether it names a player (Favor, Targeted Attack). */
bool kittens_kind_playable (unsigned kind);
bool kittens_kind_targets (unsigned kind);

/* Alive players other than p with at least one card (E13 targets). */
bool kittens_target_ok (const KitState *s, int p, int target, bool needs_cards);

/* EngGameClass.setup and .check_conservation (kittens-setup.c). */
EngStatus kittens_setup (const void *rules, const EngSetup *setup, const EngRng *rng,
                         void *state, EngEvents *events, EngVerdict *why);
EngStatus kittens_check_conservation (const void *rules, const void *state, EngVerdict *why);

/* EngGameClass.play (kittens-apply.c). */
struct EngPlay;
EngStatus kittens_play (struct EngPlay *play, const EngMove *move);

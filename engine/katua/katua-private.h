/* katua-private.h: what Katua's own files share and nothing else reads. */
#pragma once

#include "eng-view.h"
#include "katua.h"

/* EngGameClass.card_name, .public_view and .random_move (katua-view.c). */
void katua_card_name (const void *rules, unsigned serial, bool definite, char *buf, size_t size);
bool katua_card_public (const void *rules, const void *state, unsigned serial);
void katua_public_view (const void *rules, const void *state, const EngSetup *setup,
                        EngView *view);
bool katua_class_random_move (const void *rules, const void *state, EngRng *rng, EngMove *out);

/* A colour value (KAT_RED...) in words, agreeing with a cat (`cat`) or a
 * UFO, in the table's language. */
const char *katua_colour_words (unsigned colour, bool cat);

/* ---- the rules' own files (katua.c, -apply, -setup, -moves) ------------- */

extern const char *const katua_verbs[KAT_VERB_COUNT];
/* The end's tie-breaks by KatState.tiebreak, as GAME_OVER events name them. */
extern const char *const katua_tiebreak_names[4];

/* What a move's functions share: the rules, the scratch state, where the
 * events go and why a move is refused. */
typedef struct {
  const KatRules *r;
  KatState *s;
  EngEvents *ev;     /* NULL: no text at all (fast path) */
  EngVerdict *why;
  char names[2][64]; /* card_label's: two names fit one sentence */
  unsigned next_name;
} KatCtx;

/* Refusals and events through the core (eng-play.h): English formats
 * marked ENG_N_ at the call, translated only when text is formatted. */
#define refuse(c, st, rule, ...) eng_verdict_refuse ((c)->why, (st), (rule), __VA_ARGS__)
#define ILLEGAL(c, rule, ...) refuse ((c), ENG_ERR_ILLEGAL, (rule), __VA_ARGS__)
#define ev_add(c, ...) eng_events_say ((c)->ev, __VA_ARGS__)

/* EngGameClass.play (katua-apply.c), .setup (katua-setup.c),
 * .legal_moves (katua-moves.c). */
struct EngPlay;
EngStatus katua_play (struct EngPlay *play, const EngMove *move);
EngStatus katua_setup (const void *rules, const EngSetup *su, const EngRng *rng, void *state,
                       EngEvents *events, EngVerdict *why);
size_t katua_legal_moves (const void *rules, const void *state, EngMove *out, size_t max);

/* The start of a turn, what the table must do in the phase now, a
 * Replicator's pending copy, and whether a UFO neutralises an attempt
 * (katua-apply.c, for the setup and the legal moves). */
void katua_begin_turn (KatCtx *c, int p);
void katua_need_for_phase (KatCtx *c);
void katua_set_rep (KatState *s, int verb, int player, int colour, int rival, bool open);
EngStatus katua_neutralise_ok (KatCtx *c, const KatAttempt *a, unsigned ufo_colour, uint16_t show,
                               bool *forced);

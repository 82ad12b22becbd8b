/* eng-play.h: the plumbing of a game's rules, written once.
 *
 * A game that sets EngGameClass.play gets the apply transaction from the
 * core: the move is applied to a scratch copy of the state, which replaces
 * the game's state only when the whole move is legal, so a refused move
 * changes nothing and `check` is "apply to a copy"; the refusal becomes an
 * ILLEGAL (or CONSERVATION) event naming the player, and the events the
 * move had said are dropped.  What the game writes is its rules:
 *
 *   static EngStatus
 *   war_play (EngPlay *p, const EngMove *m)
 *   {
 *     WarState *s = p->state;
 *     if (m->player != s->active)
 *       return ENG_ILLEGAL (p, "W2", ENG_N_ ("%s plays next"), eng_play_name (p, s->active));
 *     ...
 *     ENG_SAY (p, ENG_EVENT_NOTE, m->player, "W3", ENG_N_ ("%s wins the battle"), ...);
 *     return ENG_OK;
 *   }
 *
 * Texts are English formats marked ENG_N_ at the call; the helpers translate
 * them only when they format text, so the simulation path (no events, no
 * verdict wanted) looks up no catalogue.  Texts name players, printed card
 * names and places; never a card that is face down now (K20, C11, E16, S11).
 * Player names come from the setup (`eng_play_name`): a game's state holds
 * no names.
 */
#pragma once

#include <stdarg.h>

#include "eng-card-table.h"
#include "eng-game.h"
#include "eng-rng.h"

/* What the core reads of a state whose class leaves score, is_over,
 * winners and to_move NULL: the state's first member, which the game keeps
 * up to date (winners and over at the end, whose decision the table waits
 * for, each player's score: partners who score together hold the same). */
typedef struct {
  int8_t to_move;                  /* -1: nobody (over) */
  uint8_t over;
  uint16_t winners;                /* bit p: player p won */
  int16_t score[ENG_MAX_PLAYERS];
} EngPlayHeader;

/* One move's context, made by the core for EngGameClass.play. */
typedef struct EngPlay {
  const void *rules;
  void *state;               /* the scratch copy the move is applied to */
  const EngSetup *setup;     /* the players' names; NULL: names are "?" */
  EngEvents *events;         /* NULL: no text at all (the simulation path) */
  EngVerdict *why;           /* never NULL inside play */
} EngPlay;

/* The largest state the transaction copies (bytes); a class with a larger
 * state_size gets ENG_ERR_LIMIT from every move. */
#define ENG_PLAY_STATE_MAX 8192

/* A player's name from the setup, "?" out of range. */
const char *eng_play_name (const EngPlay *play, int player);

/* Whether the move's texts are wanted (an event list to fill). */
static inline bool
eng_play_words (const EngPlay *play)
{
  return play->events != NULL;
}

/* Refuses the move: the verdict gets `rule` and `fmt` translated and
 * formatted; returns `st` (ENG_ERR_ILLEGAL, ENG_ERR_CONSERVATION, ...). */
EngStatus eng_play_refuse (EngPlay *play, EngStatus st, const char *rule, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));
#define ENG_ILLEGAL(play, rule, ...) eng_play_refuse ((play), ENG_ERR_ILLEGAL, (rule), __VA_ARGS__)

/* An event by `player` (-1 none) with `fmt` translated, or NULL when no
 * events are wanted or the list is full.  Its arguments are evaluated even
 * then: ENG_SAY evaluates nothing on the simulation path. */
EngEvent *eng_play_say (EngPlay *play, EngEventKind kind, int player, const char *rule,
                        const char *fmt, ...) __attribute__ ((format (printf, 5, 6)));
/* The same with a plural: `one` or `many` chosen by `n` in the table's
 * language (ngettext), then formatted with the arguments. */
EngEvent *eng_play_sayn (EngPlay *play, EngEventKind kind, int player, const char *rule,
                         const char *one, const char *many, unsigned long n, ...)
  __attribute__ ((format (printf, 5, 8))) __attribute__ ((format (printf, 6, 8)));
#define ENG_SAY(play, ...)                 \
  do {                                     \
    if (eng_play_words (play))             \
      eng_play_say ((play), __VA_ARGS__);  \
  } while (0)

/* The same two for rules that keep their own context rather than an
 * EngPlay (a game's move context, which its setup and legal moves share
 * too, and every class's setup): a refusal into `why` (NULL: none wanted)
 * returning `st`, and an event into `events` (NULL: the simulation path, no
 * text at all). */
EngStatus eng_verdict_refuse (EngVerdict *why, EngStatus st, const char *rule, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));
EngEvent *eng_events_say (EngEvents *events, EngEventKind kind, int player, const char *rule,
                          const char *fmt, ...) __attribute__ ((format (printf, 5, 6)));
/* A refusal for a setup (EngGameClass.setup). */
#define eng_setup_refuse eng_verdict_refuse

/* The transaction (see the top of this file) for a class with `play`:
 * ENG_OK, or the refusal's status with `why` filled (may be NULL).  The
 * move's player and targets must be players of the setup and its verb one
 * of the class's (ENG_ERR_ILLEGAL, rule "turn", otherwise), unless the
 * class's play_checks_shape leaves that to its play. */
EngStatus eng_play_apply (const EngGameClass *klass, const void *rules, const EngSetup *setup,
                          void *state, const EngMove *move, EngEvents *events, EngVerdict *why);
EngStatus eng_play_check (const EngGameClass *klass, const void *rules, const EngSetup *setup,
                          const void *state, const EngMove *move, EngVerdict *why);

/* ---- words -------------------------------------------------------------- */

/* Appends `text` to the string in buf (cut to fit). */
void eng_text_append (char *buf, size_t size, const char *text);
/* Appends item i (0-based) of a list of n in words: "a", "a and b",
 * "a, b and c" (" and " in the table's language). */
void eng_text_list_add (char *buf, size_t size, const char *item, unsigned i, unsigned n);

/* ---- legal move lists --------------------------------------------------- */

/* Where legal_moves writes: up to `max` moves, `n` counts them all. */
typedef struct {
  EngMove *out;
  size_t max, n;
} EngMoveList;

static inline EngMoveList
eng_move_list (EngMove *out, size_t max)
{
  return (EngMoveList) { out, max, 0 };
}

/* Appends a move (counted even past max). */
void eng_move_list_push (EngMoveList *list, const EngMove *move);

/* A simulator's move: one of `moves`, `n` as legal_moves counted them of
 * which the first `max` were written, drawn uniformly with `rng` into *out.
 * false (rng untouched) when n is 0. */
bool eng_move_list_draw (const EngMove *moves, size_t n, size_t max, EngRng *rng, EngMove *out);

/* ---- the deal ----------------------------------------------------------- */

/* Cards a setup has still to deal (indices into the rules' card table),
 * dealt from the end. */
typedef struct {
  uint8_t items[256];
  unsigned n;
} EngCardPool;

/* Takes the pool's last card into *out: the card itself when the game is
 * dealt from a seed (`known`), ENG_CARD_UNKNOWN when the table dealt it
 * unseen.  false when the pool is empty. */
bool eng_card_pool_take (EngCardPool *pool, bool known, uint8_t *out);

/* ---- points and the end ------------------------------------------------- */

/* Bit p set for each of the n players with the highest score. */
unsigned eng_scores_leaders (const int16_t *scores, unsigned n);

/* "Ana scores 4 (now 12 points)": a SCORE event with value = the new
 * score and delta = the points; NULL on the simulation path. */
EngEvent *eng_play_score (EngPlay *play, int player, int score, int delta, const char *rule);

/* "Game over: Ana wins with 23 points" / "...: Ana and Bea share the
 * victory with 21 points each": the GAME_OVER event with the winners and
 * the tie-break's name; NULL on the simulation path. */
EngEvent *eng_play_game_over (EngPlay *play, unsigned winners, int score, const char *tiebreak,
                              const char *rule);

/* kittens-live-private.h: Exploding Kittens' live protocol
 * (docs/kittens-live.md), shared by kittens-live.c (reading changes),
 * kittens-live-table.c (what the table must do, the table a game starts
 * from, the journal lines) and kittens-live-hook.c (commands and the
 * question naming a target).  Nothing else reads it. */
#pragma once

#include "eng-i18n.h"
#include "eng-live.h"
#include "kittens-private.h"

typedef enum {
  KIT_PEND_NONE,
  KIT_PEND_COMBO,      /* cat cards laid for a pair: waits for the second one */
  KIT_PEND_TARGET,     /* a Favor, pair or trio laid: waits for the player it names */
  KIT_PEND_NAME,       /* a trio against `target`: waits for the card it asks for */
  KIT_PEND_TAKE,       /* five different resolved: waits for the discard pile's card
                        * `player` takes (`type`, named now; no cards) */
  KIT_PEND_COUNT
} KitPendKind;

/* Exploding Kittens' part of a mind (EngLiveMind.game): faces only, so no
 * track ids to forget. */
typedef struct {
  uint8_t kind;        /* KitPendKind */
  uint8_t verb;        /* KIT_PLAY, KIT_PAIR, KIT_TRIO or KIT_FIVE */
  int8_t player;       /* who laid the cards */
  int8_t named;        /* the target the question names now; -1: not asked */
  int8_t target;       /* KIT_PEND_NAME: the player the trio is against */
  uint8_t type;        /* KIT_PEND_NAME: the card type asked for, named now */
  uint8_t n;
  uint16_t cards[KIT_COMBO_MAX];   /* face serials, in the order laid */
} KitLiveMind;

_Static_assert (sizeof (KitLiveMind) <= ENG_LIVE_MIND_GAME, "KitLiveMind fits a mind");

static inline const KitState *
kit_live_state (const EngInterpreter *it)
{
  return eng_live_state (it);
}

static inline const KitRules *
kit_live_rules (const EngInterpreter *it)
{
  return eng_live_rules (it);
}

static inline KitLiveMind *
kit_live_mind (EngInterpreter *it)
{
  return eng_live_mind_game (it);
}

static inline const KitLiveMind *
kit_live_mind_of (const EngLiveMind *m)
{
  return (const KitLiveMind *) (const void *) m->game;
}

/* The card of a face serial (NULL when not of the set). */
const KitCard *kit_live_card (const EngInterpreter *it, uint16_t serial);
/* Living players `player` may name (they hold cards), from their left. */
size_t kit_live_targets (const EngInterpreter *it, int player, int *out);

/* kittens-live-table.c */
void kit_live_after_move (EngInterpreter *it, const void *before, const EngMove *mv,
                          EngEvents *out);
bool kit_live_baseline_check (EngInterpreter *it, char *why, size_t size);
void kit_live_setup_need (EngInterpreter *it, const char *why, char *text, size_t size,
                          const char **rule);
void kit_live_baseline_done (EngInterpreter *it);
bool kit_live_pending (const EngLiveMind *m);
void kit_live_mind_notes (const EngLiveMind *m, EngLiveNotes *o);
bool kit_live_mind_parse (EngLiveMind *m, char *const *words, int n_words);
void kit_live_mind_rename (EngLiveMind *m, uint16_t from, uint16_t to);
void kit_live_mind_forget (EngLiveMind *m, uint32_t (*forget) (uint32_t track));

/* kittens-live.c */
/* Says what five different still needs: `left` cards, or the Cancel card. */
void kit_live_say_five_left (EngInterpreter *it, EngEventKind kind, int player, unsigned left,
                             EngEvents *out);

/* kittens-live-hook.c */
/* The pending play names `target`: applies it (or takes its cards back). */
void kit_live_complete (EngInterpreter *it, int target, const EngLiveChange *c,
                        EngEvents *out);
/* The pending play is complete but for its target: applies it when only
 * one player can be named, otherwise asks. */
void kit_live_ask_target (EngInterpreter *it, const EngLiveChange *c, EngEvents *out);
/* Five different resolved: asks which card of the discard pile the
 * player takes. */
void kit_live_ask_take (EngInterpreter *it, EngEvents *out);
EngStatus kit_live_command (EngInterpreter *it, const char *id, EngEvents *out);
bool kit_live_choice (const EngInterpreter *it, EngLiveChoice *out);
EngStatus kit_live_choose (EngInterpreter *it, int player, EngEvents *out);
const char *kit_live_command_of_move (const EngMove *mv);
void kit_live_view (const EngInterpreter *it, EngView *view);

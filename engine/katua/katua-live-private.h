/* katua-live-private.h: Katua's live protocol, shared by katua-live.c
 * (reading changes), katua-live-table.c (what the table must do, the
 * table a game starts from, the journal lines) and katua-live-hook.c
 * (commands and the Hook's questions).  Nothing else reads it. */
#pragma once

#include "eng-i18n.h"
#include "eng-live.h"
#include "katua-private.h"

#define KAT_LIVE_QUEUE 4

/* The interpreter's data for a Katua game (EngLiveClass.data_size). */
typedef struct {
  int cat_deck, ufo_deck;        /* the set's deck indices (0-based), for backs */
  int intercepts_this_look;      /* UFOs laid on the Hook in this look */
} KatLive;

typedef enum {
  PEND_NONE,
  PEND_XRAY,           /* X-Ray (or its Replicator) laid: waits for the flip */
  PEND_TELEPORT,       /* Teleporter (or Replicator) laid: waits for a swap */
  PEND_SHIELD,         /* Shield laid: waits for the beam's card to move */
  PEND_SHOW,           /* colour UFO on a tricolor beam: waits for the flip */
  PEND_INTERCEPT,      /* UFOs on the Hook waiting for an owner or an order */
} KatPendKind;

typedef struct {
  uint8_t kind;        /* KatPendKind */
  EngMove move;        /* the move being completed */
  uint16_t card;       /* the face that started it */
  EngZone zone;
  /* teleport: the first half of a swap already seen */
  bool half;
  EngZone half_from, half_to;
  /* intercepts waiting: serials in the order they are to count */
  uint16_t queue[KAT_LIVE_QUEUE];
  uint8_t n_queue;
  bool tie;            /* queue[0] and queue[1] landed in one look */
  bool asked;          /* the question for queue[0] is out */
  int8_t named;        /* "whose?" asked: the candidate the question names */
} KatPending;

/* Katua's part of a mind (EngLiveMind.game). */
typedef struct {
  KatPending pend;
  /* cards laid on the discard pile for a `discard` turn, not yet commanded */
  EngLiveItem to_discard[4];
  uint8_t n_to_discard;
} KatLiveMind;

_Static_assert (sizeof (KatLiveMind) <= ENG_LIVE_MIND_GAME, "KatLiveMind fits a mind");

static inline const KatState *
kat_live_state (const EngInterpreter *it)
{
  return eng_live_state (it);
}

static inline const KatRules *
kat_live_rules (const EngInterpreter *it)
{
  return eng_live_rules (it);
}

static inline KatLiveMind *
kat_live_mind (EngInterpreter *it)
{
  return eng_live_mind_game (it);
}

static inline const KatLiveMind *
kat_live_mind_of (const EngLiveMind *m)
{
  return (const KatLiveMind *) (const void *) m->game;
}

static inline const char *
kat_live_name (const EngInterpreter *it, int player)
{
  return eng_live_player_name (it, player);
}

/* The rules' card of a face serial (katua.h); for a serial the rules do
 * not have, a card of no kind (KAT_LIVE_NO_KIND) and no deck. */
#define KAT_LIVE_NO_KIND 0xFF
const KatCard *kat_live_card (const EngInterpreter *it, uint16_t serial);
/* "red UFO" / "the red UFO" */
void kat_live_face (const EngInterpreter *it, uint16_t serial, char *buf, size_t size);
void kat_live_face_the (const EngInterpreter *it, uint16_t serial, char *buf, size_t size);

/* katua-live.c */
void kat_live_change (EngInterpreter *it, const EngLiveChange *c, EngEvents *out);
void kat_live_start_pending (EngInterpreter *it, KatPendKind kind, const EngMove *mv,
                             const EngLiveChange *c);

/* katua-live-table.c */
void kat_live_after_move (EngInterpreter *it, const void *before, const EngMove *mv,
                          EngEvents *out);
bool kat_live_baseline_check (EngInterpreter *it, char *why, size_t size);
void kat_live_setup_need (EngInterpreter *it, const char *why, char *text, size_t size,
                          const char **rule);
void kat_live_baseline_done (EngInterpreter *it);
bool kat_live_pending (const EngLiveMind *m);
void kat_live_mind_notes (const EngLiveMind *m, EngLiveNotes *o);
bool kat_live_mind_parse (EngLiveMind *m, char *const *words, int n_words);
void kat_live_mind_rename (EngLiveMind *m, uint16_t from, uint16_t to);
void kat_live_mind_forget (EngLiveMind *m, uint32_t (*forget) (uint32_t track));

/* katua-live-hook.c */
void kat_live_settle (EngInterpreter *it, EngEvents *out);
bool kat_live_ask_again (EngInterpreter *it, EngEvents *out);
EngStatus kat_live_command (EngInterpreter *it, const char *id, EngEvents *out);
bool kat_live_choice (const EngInterpreter *it, EngLiveChoice *out);
EngStatus kat_live_choose (EngInterpreter *it, int player, EngEvents *out);
const char *kat_live_command_of_move (const EngMove *mv);
void kat_live_view (const EngInterpreter *it, EngView *view);

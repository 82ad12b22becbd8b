/* katua-moves.c: the legal moves of a Katua state (EngGameClass.legal_moves)
 * and a random one among them.
 */
#include "katua-private.h"

#include "eng-i18n.h"
#include "eng-play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- legal moves ------------------------------------------------------ */

static uint16_t
serial_of (const KatRules *r, uint8_t idx)
{
  return r->cards[idx].serial;
}

static void
push_pairs (const KatState *s, EngMoveList *l, EngMove *m)
{
  for (int p1 = 0; p1 < s->n_players; p1++)
    for (int s1 = 0; s1 < KAT_SLOTS; s1++)
      {
        if (s->slot[p1][s1] == KAT_NONE)
          continue;
        for (int p2 = p1; p2 < s->n_players; p2++)
          for (int s2 = (p2 == p1 ? s1 + 1 : 0); s2 < KAT_SLOTS; s2++)
            {
              if (s->slot[p2][s2] == KAT_NONE)
                continue;
              m->target[0] = (int8_t) p1, m->slot[0] = (int8_t) s1;
              m->target[1] = (int8_t) p2, m->slot[1] = (int8_t) s2;
              eng_move_list_push (l, m);
            }
      }
}

/* X-Ray targets need the face: listed only when the referee knows it. */
static void
push_xrays (const KatState *s, int a, EngMoveList *l, EngMove *m)
{
  for (int p = 0; p < s->n_players; p++)
    for (int k = 0; p != a && k < KAT_SLOTS; k++)
      if (s->slot[p][k] != KAT_NONE && s->slot[p][k] != KAT_UNKNOWN && !s->face_up[p][k])
        {
          m->target[0] = (int8_t) p, m->slot[0] = (int8_t) k;
          eng_move_list_push (l, m);
        }
}

static void
push_slots_of (const KatState *s, int p, EngMoveList *l, EngMove *m)
{
  for (int k = 0; k < KAT_SLOTS; k++)
    if (s->slot[p][k] != KAT_NONE)
      {
        m->target[0] = (int8_t) p, m->slot[0] = (int8_t) k;
        eng_move_list_push (l, m);
      }
}

static void list_replicates_with (const KatRules *r, const KatState *s, EngMoveList *l, int rep);

static void
list_replicates (const KatRules *r, const KatState *s, EngMoveList *l)
{
  int p = s->rep_player;
  if (s->rep_effect == KAT_VERB_COUNT || s->rep_count >= 2)
    return;
  for (int i = 0; i < s->hand_n[p]; i++)
    {
      uint8_t k = s->hand[p][i];
      if (k != KAT_UNKNOWN && r->cards[k].kind == KAT_KIND_ACTION
          && r->cards[k].action == KAT_ACT_REPLICATOR)
        list_replicates_with (r, s, l, k);
    }
}

static void
list_replicates_with (const KatRules *r, const KatState *s, EngMoveList *l, int rep)
{
  int p = s->rep_player;
  EngMove m;
  eng_move_init (&m, KAT_REPLICATE, p);
  m.card = serial_of (r, (uint8_t) rep);
  switch (s->rep_effect)
    {
    case KAT_ATTACK:
      if (s->phase != KAT_PHASE_ATTACK || !s->rep_open)
        return;
      for (int k = 0; k < KAT_SLOTS; k++)
        {
          bool taken = s->slot[s->rep_rival][k] == KAT_NONE;
          for (int i = 0; i < s->n_att; i++)
            taken = taken || (s->att[i].player == s->rep_rival && s->att[i].slot == k);
          if (!taken && s->n_att < KAT_MAX_ATTEMPTS)
            {
              m.target[0] = (int8_t) s->rep_rival, m.slot[0] = (int8_t) k;
              eng_move_list_push (l, &m);
            }
        }
      break;
    case KAT_XRAY:
      push_xrays (s, p, l, &m);
      break;
    case KAT_TELEPORT:
      push_pairs (s, l, &m);
      break;
    case KAT_STAMPEDE:
      if (s->phase == KAT_PHASE_ATTACK)
        {
          m.target[0] = (int8_t) p;
          eng_move_list_push (l, &m);
        }
      else
        for (int q = 0; q < s->n_players; q++)
          {
            m.target[0] = (int8_t) q;
            eng_move_list_push (l, &m);
          }
      break;
    case KAT_NEUTRALISE:
      if (s->phase == KAT_PHASE_ATTACK && s->att[0].player == p)
        {
          bool forced;
          /* with no show, katua_neutralise_ok only reads the state */
          KatCtx c = { r, (KatState *) s, NULL, NULL };
          if (katua_neutralise_ok (&c, &s->att[0], s->rep_colour, 0, &forced) == ENG_OK)
            eng_move_list_push (l, &m);
        }
      break;
    case KAT_SHIELD:
      {
        int i = katua_shield_copy_attempt (s, p);
        if (i < 0)
          break;
        int q = s->att[i].launcher;
        for (int k = 0; k < KAT_SLOTS; k++)
          {
            bool taken = s->slot[q][k] == KAT_NONE;
            for (int j = 0; j < s->n_att; j++)
              taken = taken || (j != i && s->att[j].player == q && s->att[j].slot == k);
            if (!taken)
              {
                m.target[0] = (int8_t) q, m.slot[0] = (int8_t) k;
                eng_move_list_push (l, &m);
              }
          }
        break;
      }
    default:
      break;
    }
}

/* Quick Start (K19): each player who has not yet shown a cat shows one of
 * theirs. */
static void
list_quick_start (const KatState *s, EngMoveList *l)
{
  EngMove m;
  for (int p = 0; p < s->n_players; p++)
    if (!((s->quick_start_done >> p) & 1))
      for (int k = 0; k < KAT_SLOTS; k++)
        if (s->slot[p][k] != KAT_NONE && s->slot[p][k] != KAT_UNKNOWN)
          {
            eng_move_init (&m, KAT_REVEAL, p);
            m.target[0] = (int8_t) p, m.slot[0] = (int8_t) k;
            eng_move_list_push (l, &m);
          }
}

/* The active player's turn: a pass or a discard before any play, the end,
 * a pending copy, and each card in hand on each target it may take. */
static void
list_turn (const KatRules *r, const KatState *s, EngMoveList *l)
{
  EngMove m;
    int a = s->active;
    if (!s->played_any)
      {
        eng_move_init (&m, KAT_PASS, a);
        eng_move_list_push (l, &m);
        int h = s->hand_n[a];
        for (unsigned mask = 1; mask < (1u << h); mask++)
          {
            eng_move_init (&m, KAT_DISCARD, a);
            bool ok = true;
            for (int i = 0; i < h && ok; i++)
              if ((mask >> i) & 1)
                {
                  if (s->hand[a][i] == KAT_UNKNOWN)
                    ok = false;
                  else if (m.card == 0)
                    m.card = serial_of (r, s->hand[a][i]);
                  else
                    m.cards[m.n_cards++] = serial_of (r, s->hand[a][i]);
                }
            if (ok)
              eng_move_list_push (l, &m);
          }
      }
    /* "end" is also legal with nothing played (the end-of-turn command
     * card of a live table); it then acts as a pass */
    eng_move_init (&m, KAT_END, a);
    eng_move_list_push (l, &m);
    if (s->rep_player == a)
      list_replicates (r, s, l);
    for (int i = 0; i < s->hand_n[a]; i++)
      {
        uint8_t k = s->hand[a][i];
        if (k == KAT_UNKNOWN)
          continue;
        const KatCard *kc = &r->cards[k];
        if (kc->kind == KAT_KIND_ABDUCTION && !s->abduction_used)
          {
            eng_move_init (&m, KAT_ATTACK, a);
            m.card = kc->serial;
            for (int p = 0; p < s->n_players; p++)
              if (p != a)
                push_slots_of (s, p, l, &m);
          }
        else if (kc->kind == KAT_KIND_HOOK && !s->abduction_used)
          {
            eng_move_init (&m, KAT_HOOK, a);
            m.card = kc->serial;
            push_slots_of (s, a, l, &m);
          }
        else if (kc->kind == KAT_KIND_ACTION)
          {
            switch (kc->action)
              {
              case KAT_ACT_XRAY:
                eng_move_init (&m, KAT_XRAY, a);
                m.card = kc->serial;
                push_xrays (s, a, l, &m);
                break;
              case KAT_ACT_TELEPORTER:
                eng_move_init (&m, KAT_TELEPORT, a);
                m.card = kc->serial;
                push_pairs (s, l, &m);
                break;
              case KAT_ACT_STAMPEDE:
                eng_move_init (&m, KAT_STAMPEDE, a);
                m.card = kc->serial;
                for (int p = 0; p < s->n_players; p++)
                  {
                    m.target[0] = (int8_t) p;
                    eng_move_list_push (l, &m);
                  }
                break;
              default:
                break;
              }
          }
      }
}

/* An abduction attempt: the defender lets the beam hit, neutralises it or
 * plays a defence card; a pending copy. */
static void
list_defences (const KatRules *r, const KatState *s, EngMoveList *l)
{
  EngMove m;
    const KatAttempt *at = &s->att[0];
    int d = at->player;
    if (s->rep_effect == KAT_ATTACK && s->rep_open)
      list_replicates (r, s, l);
    else if (s->rep_player == d || katua_shield_copy_attempt (s, s->rep_player) >= 0)
      list_replicates (r, s, l);
    if (s->slot[d][at->slot] != KAT_UNKNOWN)
      {
        eng_move_init (&m, KAT_HIT, d);
        eng_move_list_push (l, &m);
      }
    for (int i = 0; i < s->hand_n[d]; i++)
      {
        uint8_t k = s->hand[d][i];
        if (k == KAT_UNKNOWN)
          continue;
        const KatCard *kc = &r->cards[k];
        if (kc->kind == KAT_KIND_ABDUCTION)
          {
            bool forced;
            /* with no show, katua_neutralise_ok only reads the state */
            KatCtx c = { r, (KatState *) s, NULL, NULL };
            if (katua_neutralise_ok (&c, at, kc->colour, 0, &forced) == ENG_OK)
              {
                eng_move_init (&m, KAT_NEUTRALISE, d);
                m.card = kc->serial;
                eng_move_list_push (l, &m);
              }
          }
        else if (kc->kind == KAT_KIND_ACTION)
          {
            eng_move_init (&m, KAT_VERB_COUNT, d);
            m.card = kc->serial;
            switch (kc->action)
              {
              case KAT_ACT_SHIELD:
                m.verb = KAT_SHIELD;
                push_slots_of (s, at->launcher, l, &m);
                break;
              case KAT_ACT_TELEPORTER:
                m.verb = KAT_TELEPORT;
                push_pairs (s, l, &m);
                break;
              case KAT_ACT_STAMPEDE:
                m.verb = KAT_STAMPEDE;
                m.target[0] = (int8_t) d;
                eng_move_list_push (l, &m);
                break;
              default:
                break;
              }
          }
      }
}

/* A held X-Ray or Teleporter (K10): the rival lets it act or answers with
 * a Teleporter; a pending copy. */
static void
list_answers (const KatRules *r, const KatState *s, EngMoveList *l)
{
  EngMove m;
    int d = s->answer_player;
    if (s->rep_player == d)
      list_replicates (r, s, l);
    if (s->answer_verb != KAT_XRAY
        || s->slot[s->answer_p[0]][s->answer_s[0]] != KAT_UNKNOWN
        || s->face_up[s->answer_p[0]][s->answer_s[0]])
      {
        eng_move_init (&m, KAT_HIT, d);
        eng_move_list_push (l, &m);
      }
    for (int i = 0; i < s->hand_n[d]; i++)
      {
        uint8_t k = s->hand[d][i];
        if (k == KAT_UNKNOWN || r->cards[k].kind != KAT_KIND_ACTION
            || r->cards[k].action != KAT_ACT_TELEPORTER)
          continue;
        eng_move_init (&m, KAT_TELEPORT, d);
        m.card = serial_of (r, k);
        push_pairs (s, l, &m);
      }
}

/* A Hook (K12): each rival who has not answered may intercept with an
 * abduction card; the active player turns the cat over. */
static void
list_hook_answers (const KatRules *r, const KatState *s, EngMoveList *l)
{
  EngMove m;
  for (int p = 0; p < s->n_players; p++)
    {
      if (p == s->active || ((s->hook_answered >> p) & 1))
        continue;
      for (int i = 0; i < s->hand_n[p]; i++)
        {
          uint8_t k = s->hand[p][i];
          if (k != KAT_UNKNOWN && r->cards[k].kind == KAT_KIND_ABDUCTION)
            {
              eng_move_init (&m, KAT_INTERCEPT, p);
              m.card = r->cards[k].serial;
              eng_move_list_push (l, &m);
            }
        }
    }
  if (s->slot[s->active][s->hook_slot] != KAT_UNKNOWN)
    {
      eng_move_init (&m, KAT_FLIP, s->active);
      eng_move_list_push (l, &m);
    }
}

size_t
katua_legal_moves (const void *rules, const void *state, EngMove *out, size_t max)
{
  const KatRules *r = rules;
  const KatState *s = state;
  EngMoveList l = eng_move_list (out, max);
  switch (s->phase)
    {
    case KAT_PHASE_QUICK_START:
      list_quick_start (s, &l);
      break;
    case KAT_PHASE_TURN:
      list_turn (r, s, &l);
      break;
    case KAT_PHASE_ATTACK:
      list_defences (r, s, &l);
      break;
    case KAT_PHASE_ANSWER:
      list_answers (r, s, &l);
      break;
    case KAT_PHASE_HOOK:
      list_hook_answers (r, s, &l);
      break;
    default:
      break;
    }
  return l.n;
}

bool
katua_random_move (const KatRules *rules, const KatState *state, EngRng *rng, EngMove *out)
{
  EngMove moves[512];
  size_t n = katua_legal_moves (rules, state, moves, 512);
  return eng_move_list_draw (moves, n, 512, rng, out);
}

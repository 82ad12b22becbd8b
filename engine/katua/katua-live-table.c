/* katua-live-table.c: what a Katua table must do after each move, the
 * table a game starts from, and Katua's lines in the journal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "katua-live-private.h"

static bool
in_list (const uint8_t *list, int n, uint8_t v)
{
  for (int i = 0; i < n; i++)
    if (list[i] == v)
      return true;
  return false;
}

static int
find_slot_of (const KatState *s, uint8_t idx, int *slot)
{
  for (int p = 0; p < s->n_players; p++)
    for (int k = 0; k < KAT_SLOTS; k++)
      if (s->slot[p][k] == idx)
        {
          *slot = k;
          return p;
        }
  return -1;
}

/* ---- after a move ---------------------------------------------------------------- */

/* K18: a reshuffle turned the pile back into the UFO deck.  Faces seen on
 * the pile before it are in the deck now: when one reaches the pile again
 * it is a new card (a discard to count), not an old one found under the
 * others.  Found by test-live-random (katua-2p-reshuffle). */
static void
forget_reshuffled (EngInterpreter *it, const KatState *b, const KatState *a)
{
  EngLiveMind *m = eng_live_mind (it);
  if (a->discard_n >= b->discard_n)
    return;
  for (uint16_t serial = 0; serial < ENG_LIVE_SERIALS; serial++)
    if (eng_live_was_discarded (m, serial)
        && !in_list (a->discard, a->discard_n, katua_card_index (kat_live_rules (it), serial)))
      eng_live_unmark_discarded (m, serial);
}

/* UFOs leaving play: to the discard pile (one sentence for all of them),
 * or back into their owner's hand. */
static void
expect_discards (EngInterpreter *it, const KatState *b, const KatState *a, EngEvents *out)
{
  const KatRules *r = kat_live_rules (it);
  EngLiveMind *m = eng_live_mind (it);
  uint16_t named[KAT_MAX_IN_PLAY + KAT_MAX_UFOS];   /* the cards to the pile */
  int n_names = 0;
  uint8_t cand[KAT_MAX_IN_PLAY + KAT_MAX_UFOS];
  int n_cand = 0;
  for (int i = 0; i < b->in_play_n; i++)
    if (!in_list (a->in_play, a->in_play_n, b->in_play[i]))
      cand[n_cand++] = b->in_play[i];
  for (int i = b->discard_n; i < a->discard_n; i++)
    if (!in_list (cand, n_cand, a->discard[i]))
      cand[n_cand++] = a->discard[i];
  for (int i = 0; i < n_cand; i++)
    {
      uint8_t idx = cand[i];
      if (idx >= r->n_cards)
        continue;
      uint16_t serial = r->cards[idx].serial;
      int vi = eng_live_view_find (m, 'F', serial, 0);
      bool returned = false;
      for (int p = 0; p < a->n_players; p++)
        returned = returned || in_list (a->hand[p], a->hand_n[p], idx);
      if (vi < 0 || m->view[vi].zone.kind == ENG_ZONE_DISCARD)
        continue;
      EngLiveExpect *e = returned
                         ? eng_live_expect_add (m, ENG_EXPECT_LEAVE, serial, 0, m->view[vi].zone)
                         : eng_live_expect_add (m, ENG_EXPECT_TO_DISCARD, serial, 0,
                                                eng_live_zone (ENG_ZONE_DISCARD, -1, 1));
      if (e == NULL)
        continue;
      if (returned)
        {
          char name[48];
          kat_live_face_the (it, serial, name, sizeof name);
          e->item_kind = 'F';
          snprintf (e->text, sizeof e->text, ENG_ ("Take %s back into its owner's hand"), name);
          continue;
        }
      named[n_names++] = serial;
    }
  if (n_names == 0)
    return;
  char sentence[200];
  eng_live_discard_words (it, named, n_names, sentence, sizeof sentence);
  for (int i = 0; i < m->n_expect; i++)
    if (m->expect[i].kind == ENG_EXPECT_TO_DISCARD && m->expect[i].text[0] == '\0')
      g_strlcpy (m->expect[i].text, sentence, sizeof m->expect[i].text);
  eng_live_say (out, ENG_EVENT_NEED, -1, "K11", "%s", sentence);
}

/* A late answer to a Hook goes back to its owner's hand (K12). */
static void
expect_late_answer_back (EngInterpreter *it, const KatState *a, const EngMove *mv,
                         EngEvents *out)
{
  EngLiveMind *m = eng_live_mind (it);
  if (mv->verb != KAT_INTERCEPT || mv->card == 0)
    return;
  uint8_t idx = katua_card_index (kat_live_rules (it), mv->card);
  int vi = eng_live_view_find (m, 'F', mv->card, 0);
  if (idx == KAT_NONE || in_list (a->in_play, a->in_play_n, idx) || vi < 0)
    return;
  EngLiveExpect *e = eng_live_expect_add (m, ENG_EXPECT_LEAVE, mv->card, 0, m->view[vi].zone);
  if (e == NULL)
    return;
  char name[48];
  kat_live_face (it, mv->card, name, sizeof name);
  e->item_kind = 'F';
  snprintf (e->text, sizeof e->text, ENG_ ("%s: take your %s back into your hand"),
            kat_live_name (it, mv->player), name);
  eng_live_say (out, ENG_EVENT_NEED, mv->player, "K12", "%s", e->text);
}

/* Captures: the cat goes from its slot to the taker's capture area. */
static void
expect_captures (EngInterpreter *it, const KatState *b, const KatState *a, EngEvents *out)
{
  const KatRules *r = kat_live_rules (it);
  EngLiveMind *m = eng_live_mind (it);
  for (int p = 0; p < a->n_players; p++)
    for (int i = b->captured_n[p]; i < a->captured_n[p]; i++)
      {
        uint8_t idx = a->captured[p][i];
        int slot = -1;
        int owner = find_slot_of (b, idx, &slot);
        /* a cat first seen in this move was an unknown token before it */
        for (int q = 0; q < a->n_players && owner < 0; q++)
          for (int k = 0; k < KAT_SLOTS && owner < 0; k++)
            if (b->slot[q][k] == KAT_UNKNOWN && a->slot[q][k] == KAT_NONE)
              owner = q, slot = k;
        uint16_t serial = r->cards[idx].serial;
        EngLiveExpect *e = eng_live_expect_add (m, ENG_EXPECT_TO_PILE, serial, 0,
                                                eng_live_zone (ENG_ZONE_CAPTURE,
                                                               eng_live_seat_of (it, p), -1));
        if (e == NULL)
          continue;
        if (owner == p)
          snprintf (e->text, sizeof e->text, ENG_ ("%s: take the cat from your slot %d into "
                                                   "your capture area"),
                    kat_live_name (it, p), slot + 1);
        else
          snprintf (e->text, sizeof e->text, ENG_ ("%s: take the cat from %s's slot %d into "
                                                   "your capture area"),
                    kat_live_name (it, p), kat_live_name (it, owner), slot + 1);
        eng_live_say (out, ENG_EVENT_NEED, p, "K11", "%s", e->text);
      }
}

/* A face shown then hidden again (forced show, escape). */
static void
expect_face_down (EngInterpreter *it, const KatState *b, const KatState *a, const EngMove *mv)
{
  EngLiveMind *m = eng_live_mind (it);
  for (int p = 0; p < a->n_players; p++)
    for (int k = 0; k < KAT_SLOTS; k++)
      {
        EngZone z = eng_live_zone (ENG_ZONE_SLOT, eng_live_seat_of (it, p), k);
        int vi = eng_live_view_find_at (m, z);
        if (a->slot[p][k] == KAT_NONE || a->face_up[p][k] || vi < 0 || m->view[vi].kind != 'F')
          continue;
        if (mv->verb == KAT_STAMPEDE
            || (mv->verb == KAT_REPLICATE && b->slot[p][k] != a->slot[p][k]))
          continue;
        /* K10 option: an X-Ray or Teleporter waiting for its answer already
         * shows its flip or swap on the table; the rules make it when the
         * card acts (no-defence) */
        bool held = false;
        for (int i = 0; a->phase == KAT_PHASE_ANSWER && i < (a->answer_verb == KAT_XRAY ? 1 : 2);
             i++)
          held = held || (a->answer_p[i] == p && a->answer_s[i] == k);
        if (held)
          continue;
        EngLiveExpect *e = eng_live_expect_add (m, ENG_EXPECT_FACE_DOWN, m->view[vi].serial, 0, z);
        if (e != NULL)
          snprintf (e->text, sizeof e->text, ENG_ ("%s: turn your cat in slot %d face down again"),
                    kat_live_name (it, p), k + 1);
      }
}

/* A Stampede: the old cats leave, three new backs arrive. */
static void
expect_stampede (EngInterpreter *it, const KatState *b, const KatState *a, const EngMove *mv)
{
  EngLiveMind *m = eng_live_mind (it);
  for (int p = 0; p < a->n_players; p++)
    {
      bool renewed = (mv->verb == KAT_STAMPEDE || mv->verb == KAT_REPLICATE)
                     && (mv->target[0] == p) && a->turn == b->turn;
      if (!renewed || (mv->verb == KAT_REPLICATE && b->rep_effect != KAT_STAMPEDE))
        continue;
      for (int k = 0; k < KAT_SLOTS; k++)
        {
          EngZone z = eng_live_zone (ENG_ZONE_SLOT, eng_live_seat_of (it, p), k);
          int vi = eng_live_view_find_at (m, z);
          if (vi >= 0)
            {
              EngLiveExpect *e = eng_live_expect_add (m, ENG_EXPECT_LEAVE, m->view[vi].serial,
                                                      m->view[vi].track, z);
              if (e != NULL)
                {
                  e->item_kind = m->view[vi].kind;
                  snprintf (e->text, sizeof e->text, ENG_ ("%s: set aside your cat from slot %d"),
                            kat_live_name (it, p), k + 1);
                }
            }
          if (a->slot[p][k] != KAT_NONE)
            {
              EngLiveExpect *e = eng_live_expect_add (m, ENG_EXPECT_NEW_BACK, 0, 0, z);
              if (e != NULL)
                snprintf (e->text, sizeof e->text,
                          ENG_ ("%s: place a new cat face down in slot %d"),
                          kat_live_name (it, p), k + 1);
            }
        }
    }
}

/* End of turn: empty slots refilled, everyone draws (K15). */
static void
expect_refills (EngInterpreter *it, const KatState *b, const KatState *a, EngEvents *out)
{
  EngLiveMind *m = eng_live_mind (it);
  char text[200];
  int l = snprintf (text, sizeof text, "%s", ENG_ ("End of turn:"));
  int n_refills = 0;
  for (int i = 0; i < b->n_players; i++)
    {
      int p = (b->active + i) % b->n_players;
      int n = 0;
      char slots[32] = "";
      for (int k = 0; k < KAT_SLOTS; k++)
        if (b->slot[p][k] == KAT_NONE && a->slot[p][k] != KAT_NONE)
          {
            EngZone z = eng_live_zone (ENG_ZONE_SLOT, eng_live_seat_of (it, p), k);
            EngLiveExpect *e = eng_live_expect_add (m, ENG_EXPECT_NEW_BACK, 0, 0, z);
            if (e != NULL)
              snprintf (e->text, sizeof e->text,
                        ENG_ ("%s: place a new cat face down in slot %d"),
                        kat_live_name (it, p), k + 1);
            size_t sl = strlen (slots);
            snprintf (slots + sl, sizeof slots - sl, "%s%d", n ? ENG_ (" and ") : "", k + 1);
            n++;
          }
      if (n > 0 && l > 0 && (size_t) l < sizeof text)
        {
          l += snprintf (text + l, sizeof text - (size_t) l, "%s ", n_refills ? ";" : "");
          if ((size_t) l < sizeof text)
            l += snprintf (text + l, sizeof text - (size_t) l,
                           ENG_NG_ ("%s refills slot %s", "%s refills slots %s", n),
                           kat_live_name (it, p), slots);
          n_refills++;
        }
    }
  if (a->phase != KAT_PHASE_OVER && l > 0 && (size_t) l < sizeof text)
    {
      snprintf (text + l, sizeof text - (size_t) l, "%s %s", n_refills ? ";" : "",
                ENG_ ("everyone draws up to 3 UFO cards"));
      eng_live_say (out, ENG_EVENT_NEED, -1, "K15", "%s", text);
    }
}

void
kat_live_after_move (EngInterpreter *it, const void *before, const EngMove *mv, EngEvents *out)
{
  const KatState *b = before;
  const KatState *a = kat_live_state (it);
  forget_reshuffled (it, b, a);
  expect_discards (it, b, a, out);
  expect_late_answer_back (it, a, mv, out);
  expect_captures (it, b, a, out);
  expect_face_down (it, b, a, mv);
  expect_stampede (it, b, a, mv);
  if (mv->verb == KAT_END || mv->verb == KAT_PASS || mv->verb == KAT_DISCARD)
    expect_refills (it, b, a, out);
}

/* ---- the table a game starts from -------------------------------------------------- */

static bool
in_places (const uint8_t *list, int n, uint8_t idx)
{
  return idx < KAT_MAX_CARDS && in_list (list, n, idx);
}

/* What is wrong with one item of the first look, into why (empty: fine). */
static void
check_item (EngInterpreter *it, const EngLiveItem *c, int in_slot[][KAT_SLOTS], char *why,
            size_t size)
{
  const KatState *s = kat_live_state (it);
  int p = eng_live_player_of_seat (it, c->zone.seat);
  uint8_t idx = c->kind == 'F' ? katua_card_index (kat_live_rules (it), c->serial) : KAT_NONE;
  enum { KEEP, TAKE_AWAY, TURN_DOWN } todo = KEEP;
  switch (c->zone.kind)
    {
    case ENG_ZONE_SLOT:
      {
        int k = c->zone.index;
        in_slot[p][k]++;
        bool up = s->slot[p][k] != KAT_NONE && s->face_up[p][k];
        if (s->slot[p][k] == KAT_NONE || in_slot[p][k] > 1)
          todo = TAKE_AWAY;
        else if (up && (c->kind != 'F' || idx != s->slot[p][k]))
          snprintf (why, size, ENG_ ("%s's cat in slot %d lies face up"), kat_live_name (it, p),
                    k + 1);
        else if (!up && c->kind != 'B')
          todo = TURN_DOWN;
        break;
      }
    case ENG_ZONE_ATTACK:
      if (c->kind != 'F' || !(in_places (s->in_play, s->in_play_n, idx)
                              || in_places (s->discard, s->discard_n, idx)))
        todo = TAKE_AWAY;
      break;
    case ENG_ZONE_CAPTURE:
      if (c->kind != 'F' || p < 0 || !in_places (s->captured[p], s->captured_n[p], idx))
        todo = TAKE_AWAY;
      break;
    case ENG_ZONE_PLAY:
      todo = TAKE_AWAY;
      break;
    default:
      break;
    }
  char what[128];
  if (todo == TAKE_AWAY)
    snprintf (why, size, ENG_ ("take away %s"), eng_live_item_words (it, c, what, sizeof what));
  else if (todo == TURN_DOWN)
    snprintf (why, size, ENG_ ("turn %s face down"), eng_live_item_words (it, c, what, sizeof what));
}

/* A new game shows every player's three cats face down and nothing in
 * play; a game rebuilt from its record shows its slots as the state has
 * them (face-up cats by their faces), its UFOs in play in attack zones and
 * its captured cats in capture areas. */
bool
kat_live_baseline_check (EngInterpreter *it, char *why, size_t size)
{
  const KatState *s = kat_live_state (it);
  const KatRules *r = kat_live_rules (it);
  int in_slot[KAT_MAX_PLAYERS][KAT_SLOTS] = { { 0 } };
  why[0] = '\0';
  for (size_t i = 0; i < eng_live_n_table (it) && why[0] == '\0'; i++)
    check_item (it, eng_live_table_item (it, i), in_slot, why, size);
  for (int p = 0; p < s->n_players && why[0] == '\0'; p++)
    for (int k = 0; k < KAT_SLOTS && why[0] == '\0'; k++)
      if (s->slot[p][k] != KAT_NONE && in_slot[p][k] == 0)
        snprintf (why, size, ENG_ ("%s's slot %d needs its cat"), kat_live_name (it, p), k + 1);
  /* the cards in play lie where cards are played (their faces are public) */
  for (int i = 0; i < s->in_play_n && why[0] == '\0'; i++)
    {
      uint16_t serial = s->in_play[i] < r->n_cards ? r->cards[s->in_play[i]].serial : 0;
      bool shown = false;
      for (size_t c = 0; c < eng_live_n_table (it) && !shown; c++)
        {
          const EngLiveItem *v = eng_live_table_item (it, c);
          shown = v->kind == 'F' && v->serial == serial
                  && (v->zone.kind == ENG_ZONE_ATTACK || v->zone.kind == ENG_ZONE_PLAY);
        }
      if (!shown && serial != 0)
        {
          char name[48];
          kat_live_face_the (it, serial, name, sizeof name);
          snprintf (why, size, ENG_ ("put %s back where it was played"), name);
        }
    }
  return why[0] == '\0';
}

/* One step at a time, as the table deals: before any cat lies in a slot,
 * the deal itself; then the one thing the look still lacks ("Ana's slot 2
 * needs its cat", "take away the red UFO ..."), named again as the next
 * look completes it. */
void
kat_live_setup_need (EngInterpreter *it, const char *why, char *text, size_t size,
                     const char **rule)
{
  bool dealt = false;
  for (size_t i = 0; i < eng_live_n_table (it) && !dealt; i++)
    dealt = eng_live_table_item (it, i)->zone.kind == ENG_ZONE_SLOT;
  if (!dealt)
    snprintf (text, size, "%s",
              ENG_ ("Set up the table: deal each player 3 cats face down, one in each slot"));
  else
    snprintf (text, size, ENG_ ("Set up the table: %s"), why);
  *rule = "K2";
}

/* UFOs the state has discarded but still lying in an attack zone. */
void
kat_live_baseline_done (EngInterpreter *it)
{
  const KatState *s = kat_live_state (it);
  EngLiveMind *m = eng_live_mind (it);
  for (int i = 0; i < m->n_view; i++)
    {
      const EngLiveItem *c = &m->view[i];
      uint8_t idx = c->kind == 'F' ? katua_card_index (kat_live_rules (it), c->serial) : KAT_NONE;
      if (c->zone.kind != ENG_ZONE_ATTACK || !in_places (s->discard, s->discard_n, idx))
        continue;
      EngLiveExpect *e = eng_live_expect_add (m, ENG_EXPECT_TO_DISCARD, c->serial, 0,
                                              eng_live_zone (ENG_ZONE_DISCARD, -1, 1));
      if (e != NULL)
        {
          char name[48];
          kat_live_face_the (it, c->serial, name, sizeof name);
          snprintf (e->text, sizeof e->text, ENG_ ("Put %s on the discard pile"), name);
        }
    }
}

/* ---- Katua's part of a mind ---------------------------------------------------------- */

bool
kat_live_pending (const EngLiveMind *m)
{
  return kat_live_mind_of (m)->pend.kind != PEND_NONE;
}

/* "p KIND CARD ZONE HALF FROM TO TIE ASKED NAMED NQ QUEUE... MOVE" and one
 * "t" line per card laid for a discard turn (docs/record-format.md). */
void
kat_live_mind_notes (const EngLiveMind *m, EngLiveNotes *o)
{
  const KatLiveMind *km = kat_live_mind_of (m);
  const KatPending *pd = &km->pend;
  if (pd->kind != PEND_NONE)
    {
      const EngMove *mv = &pd->move;
      eng_live_notes_add (o, "p %u %u %d %d %d %d %d %d %d %d %d %d %d %d %d %u", pd->kind,
                          pd->card, pd->zone.kind, pd->zone.seat, pd->zone.index, pd->half,
                          pd->half_from.kind, pd->half_from.seat, pd->half_from.index,
                          pd->half_to.kind, pd->half_to.seat, pd->half_to.index, pd->tie,
                          pd->asked, pd->named, pd->n_queue);
      for (int i = 0; i < pd->n_queue; i++)
        eng_live_notes_add (o, " %u", pd->queue[i]);
      eng_live_notes_add (o, " %u %d %d %d %d %d %u %u %u", mv->verb, mv->player, mv->target[0],
                          mv->slot[0], mv->target[1], mv->slot[1], mv->card, mv->show,
                          mv->n_cards);
      for (unsigned i = 0; i < mv->n_cards && i < ENG_MOVE_MAX_CARDS; i++)
        eng_live_notes_add (o, " %u", mv->cards[i]);
      eng_live_notes_add (o, "\n");
    }
  for (int i = 0; i < km->n_to_discard; i++)
    eng_live_notes_item (o, "t", &km->to_discard[i]);
}

static bool
parse_pending (KatPending *pd, char *const *w, int nw)
{
  uint16_t v[40];
  if (nw < 17 || nw > 40)
    return false;
  for (int i = 1; i < nw; i++)
    {
      char *vend;
      long x = strtol (w[i], &vend, 10);
      if (*vend != '\0' || vend == w[i] || x < -128 || x > 0xFFFF)
        return false;
      v[i] = (uint16_t) (int16_t) x;
    }
  int nq = v[16];
  if (nq > KAT_LIVE_QUEUE || nw < 17 + nq + 9)
    return false;
  const uint16_t *q = &v[17 + nq];
  int ncards = q[8];
  if (ncards > ENG_MOVE_MAX_CARDS || nw != 17 + nq + 9 + ncards || v[1] > PEND_INTERCEPT)
    return false;
  EngZone *zones[3] = { &pd->zone, &pd->half_from, &pd->half_to };
  static const int at[3] = { 3, 7, 10 };
  for (int z = 0; z < 3; z++)
    if (!eng_live_notes_zone ((const char *const *) w + at[z], zones[z]))
      return false;
  pd->kind = (uint8_t) v[1];
  pd->card = v[2];
  pd->half = v[6] != 0;
  pd->tie = v[13] != 0;
  pd->asked = v[14] != 0;
  pd->named = (int8_t) v[15];
  pd->n_queue = (uint8_t) nq;
  for (int i = 0; i < nq; i++)
    pd->queue[i] = v[17 + i];
  EngMove *mv = &pd->move;
  eng_move_init (mv, q[0], (int8_t) q[1]);
  mv->target[0] = (int8_t) q[2];
  mv->slot[0] = (int8_t) q[3];
  mv->target[1] = (int8_t) q[4];
  mv->slot[1] = (int8_t) q[5];
  mv->card = q[6];
  mv->show = q[7];
  mv->n_cards = (uint8_t) ncards;
  for (int i = 0; i < ncards; i++)
    mv->cards[i] = q[9 + i];
  return true;
}

bool
kat_live_mind_parse (EngLiveMind *m, char *const *w, int nw)
{
  KatLiveMind *km = (KatLiveMind *) (void *) m->game;
  if (strcmp (w[0], "p") == 0)
    return parse_pending (&km->pend, w, nw);
  if (strcmp (w[0], "t") == 0)
    {
      if (km->n_to_discard >= 3 || !eng_live_notes_parse_item (w, nw, &km->to_discard[km->n_to_discard]))
        return false;
      km->n_to_discard++;
      return true;
    }
  return false;
}

void
kat_live_mind_rename (EngLiveMind *m, uint16_t from, uint16_t to)
{
  KatLiveMind *km = (KatLiveMind *) (void *) m->game;
  KatPending *pd = &km->pend;
  for (int i = 0; i < km->n_to_discard; i++)
    if (km->to_discard[i].kind == 'F' && km->to_discard[i].serial == from)
      km->to_discard[i].serial = to;
  if (pd->card == from)
    pd->card = to;
  if (pd->move.card == from)
    pd->move.card = to;
  if (pd->move.show == from)
    pd->move.show = to;
  for (int i = 0; i < pd->n_queue; i++)
    if (pd->queue[i] == from)
      pd->queue[i] = to;
}

void
kat_live_mind_forget (EngLiveMind *m, uint32_t (*forget) (uint32_t track))
{
  KatLiveMind *km = (KatLiveMind *) (void *) m->game;
  for (int i = 0; i < km->n_to_discard; i++)
    km->to_discard[i].track = forget (km->to_discard[i].track);
}

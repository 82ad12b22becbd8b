/* kittens-live-table.c: what an Exploding Kittens table must do after each
 * move, the table a game starts from, and the game's lines in the journal
 * (docs/kittens-live.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kittens-live-private.h"

static bool
in_list (const uint8_t *list, int n, uint8_t v)
{
  for (int i = 0; i < n; i++)
    if (list[i] == v)
      return true;
  return false;
}

/* Once no play is open (its Nope window closed, E12), the cards played
 * that still lie in a play area go to the discard pile. */
static void
expect_discards (EngInterpreter *it, EngEvents *out)
{
  const KitState *s = kit_live_state (it);
  const KitRules *r = kit_live_rules (it);
  EngLiveMind *m = eng_live_mind (it);
  if (s->open != KIT_OPEN_NONE)
    return;
  /* the cards of one play in one sentence: "Put the Skip, the Nope and
   * the other Nope on the discard pile"; each card is an expectation */
  uint16_t named[ENG_LIVE_MAX_EXPECT];
  EngLiveExpect *expects[ENG_LIVE_MAX_EXPECT];
  int n = 0;
  for (int i = 0; i < m->n_view && n < ENG_LIVE_MAX_EXPECT; i++)
    {
      const EngLiveItem *v = &m->view[i];
      uint8_t k = v->kind == 'F' ? kittens_card_index (r, v->serial) : KIT_NONE;
      if (v->zone.kind != ENG_ZONE_PLAY || k == KIT_NONE || !in_list (s->discard, s->discard_n, k))
        continue;
      EngLiveExpect *e = eng_live_expect_add (m, ENG_EXPECT_TO_DISCARD, v->serial, 0,
                                              eng_live_zone (ENG_ZONE_DISCARD, -1, 0));
      if (e == NULL)
        continue;
      expects[n] = e;
      named[n++] = v->serial;
    }
  if (n == 0)
    return;
  char sentence[sizeof expects[0]->text];
  eng_live_discard_words (it, named, n, sentence, sizeof sentence);
  for (int i = 0; i < n; i++)
    memcpy (expects[i]->text, sentence, sizeof sentence);
  eng_live_say (out, ENG_EVENT_NEED, -1, "E12", "%s", sentence);
}

void
kit_live_after_move (EngInterpreter *it, const void *before, const EngMove *mv, EngEvents *out)
{
  const KitState *b = before;
  const KitState *s = kit_live_state (it);
  expect_discards (it, out);
  const char *who = eng_live_player_name (it, s->active);
  if (s->phase == KIT_PHASE_KITTEN && b->phase != KIT_PHASE_KITTEN)
    eng_live_say (out, ENG_EVENT_NEED, s->active, "E8",
                  ENG_N_ ("%s: lay a Defuse in your play area, or show the End of turn card if "
                          "you have none"), who);
  else if (s->phase == KIT_PHASE_PLACE && b->phase != KIT_PHASE_PLACE)
    eng_live_say (out, ENG_EVENT_NEED, s->active, "E8",
                  ENG_N_ ("%s: take the Exploding Kitten and put it back into the draw pile, "
                          "anywhere, unseen"), who);
  else if (s->phase == KIT_PHASE_GIVE && b->phase != KIT_PHASE_GIVE
           && s->give_type != KIT_NONE)
    {
      const KitRules *r = kit_live_rules (it);
      char name[64];
      eng_live_face_name (it, r->cards[r->type_first[s->give_type]].serial, true, name,
                          sizeof name);
      eng_live_say (out, ENG_EVENT_NEED, s->give_from, "E7",
                    ENG_N_ ("%s: %s asks you for %s; lay it in your play area, or show the "
                            "Cancel card if you have none"), eng_live_player_name (it, s->give_from),
                    eng_live_player_name (it, s->give_to), name);
    }
  else if (s->phase == KIT_PHASE_GIVE && b->phase != KIT_PHASE_GIVE)
    eng_live_say (out, ENG_EVENT_NEED, s->give_from, "E13",
                  ENG_N_ ("%s: hand %s a card of your choice, face down, then show the Confirm card"),
                  eng_live_player_name (it, s->give_from),
                  eng_live_player_name (it, s->give_to));
  else if (mv->verb == KIT_EXPLODE)
    eng_live_say (out, ENG_EVENT_NOTE, mv->player, "E14",
                  ENG_N_ ("%s: leave the Exploding Kitten face up and your hand face down in "
                          "front of you, out of play"), eng_live_player_name (it, mv->player));
  if (mv->verb == KIT_GIVE && mv->card != 0 && mv->card != ENG_SERIAL_UNKNOWN)
    {
      /* a trio's card, shown as it was handed over, goes into the hand */
      char name[64];
      eng_live_face_name (it, mv->card, true, name, sizeof name);
      eng_live_expect_face_leaves (it, mv->card, ENG_N_ ("%s: take %s into your hand"),
                                   eng_live_player_name (it, b->give_to), name);
      const EngLiveMind *m = eng_live_mind_const (it);
      eng_live_say (out, ENG_EVENT_NEED, b->give_to, "E7", "%s", m->expect[m->n_expect - 1].text);
    }
  if (s->phase == KIT_PHASE_TAKE && b->phase != KIT_PHASE_TAKE)
    kit_live_ask_take (it, out);
  if (mv->verb == KIT_TAKE)
    {
      /* the card taken goes into the hand: off the pile if it lies on top */
      char name[64];
      eng_live_face_name (it, mv->card, true, name, sizeof name);
      eng_live_expect_face_leaves (it, mv->card, ENG_N_ ("%s: take %s from the discard pile "
                                                         "into your hand"),
                                   eng_live_player_name (it, mv->player), name);
      eng_live_say (out, ENG_EVENT_NEED, mv->player, "E7",
                    ENG_N_ ("%s: take %s from the discard pile into your hand"),
                    eng_live_player_name (it, mv->player), name);
    }
  /* after a Nope too: another may answer it, until the table confirms */
  if (s->phase == KIT_PHASE_TURN && s->open != KIT_OPEN_NONE)
    eng_live_say (out, ENG_EVENT_NEED, -1, "E12",
                  ENG_N_ ("Anyone may lay a Nope in their play area, then show the Confirm card"));
}

/* ---- the table a game starts from -------------------------------------------------- */

/* A face on the table where the state says it is: on the discard pile or
 * in a play area when discarded (a play area holds the last plays until
 * they are tidied up), or the kitten drawn, or an eliminated player's
 * kitten and hand in front of them (E14). */
static bool
face_ok (EngInterpreter *it, const EngLiveItem *v)
{
  const KitState *s = kit_live_state (it);
  const KitRules *r = kit_live_rules (it);
  uint8_t k = kittens_card_index (r, v->serial);
  if (k == KIT_NONE)
    return false;
  if (in_list (s->discard, s->discard_n, k))
    return v->zone.kind == ENG_ZONE_DISCARD || v->zone.kind == ENG_ZONE_PLAY;
  if (v->zone.kind != ENG_ZONE_PLAY)
    return false;
  int p = eng_live_player_of_seat (it, v->zone.seat);
  if (p < 0)
    return false;
  if (!((s->alive >> p) & 1))
    return true;   /* an eliminated player's kitten and hand, out of play */
  if ((s->phase == KIT_PHASE_KITTEN || s->phase == KIT_PHASE_PLACE) && p == s->active)
    return s->kitten == k;
  return false;
}

bool
kit_live_baseline_check (EngInterpreter *it, char *why, size_t size)
{
  const KitState *s = kit_live_state (it);
  const KitRules *r = kit_live_rules (it);
  why[0] = '\0';
  for (size_t i = 0; i < eng_live_n_table (it) && why[0] == '\0'; i++)
    {
      const EngLiveItem *v = eng_live_table_item (it, i);
      bool ok = v->zone.kind == ENG_ZONE_NONE || v->zone.kind == ENG_ZONE_DECK
                || v->zone.kind == ENG_ZONE_COMMAND || (v->kind == 'F' && face_ok (it, v));
      if (!ok)
        {
          char what[128];
          snprintf (why, size, ENG_ ("take away %s"),
                    eng_live_item_words (it, v, what, sizeof what));
        }
    }
  /* the kitten drawn is shown until it goes back or its player is out */
  if (why[0] == '\0' && (s->phase == KIT_PHASE_KITTEN || s->phase == KIT_PHASE_PLACE)
      && s->kitten < r->n_cards && !eng_live_face_visible (it, r->cards[s->kitten].serial))
    {
      char name[64];
      eng_live_face_name (it, r->cards[s->kitten].serial, true, name, sizeof name);
      snprintf (why, size, ENG_ ("%s: show %s you drew in your play area"),
                eng_live_player_name (it, s->active), name);
    }
  return why[0] == '\0';
}

/* The one thing the look still lacks (no card lies face up at the start:
 * "take away the Attack ..."). */
void
kit_live_setup_need (EngInterpreter *it, const char *why, char *text, size_t size,
                     const char **rule)
{
  (void) it;
  snprintf (text, size, ENG_ ("Set up the table: %s"), why);
  *rule = "E2";
}

void
kit_live_baseline_done (EngInterpreter *it)
{
  expect_discards (it, NULL);
}

/* ---- the game's part of a mind ------------------------------------------------------ */

bool
kit_live_pending (const EngLiveMind *m)
{
  return kit_live_mind_of (m)->kind != KIT_PEND_NONE;
}

/* "g KIND VERB PLAYER NAMED TARGET TYPE N CARD..." (docs/kittens-live.md);
 * the core has its own keys (s c k r v e u w x). */
void
kit_live_mind_notes (const EngLiveMind *m, EngLiveNotes *o)
{
  const KitLiveMind *km = kit_live_mind_of (m);
  if (km->kind == KIT_PEND_NONE)
    return;
  eng_live_notes_add (o, "g %u %u %d %d %d %u %u", km->kind, km->verb, km->player, km->named,
                      km->target, km->type, km->n);
  for (unsigned i = 0; i < km->n && i < KIT_COMBO_MAX; i++)
    eng_live_notes_add (o, " %u", km->cards[i]);
  eng_live_notes_add (o, "\n");
}

bool
kit_live_mind_parse (EngLiveMind *m, char *const *w, int nw)
{
  enum { HEAD = 8 };
  if (strcmp (w[0], "g") != 0 || nw < HEAD || nw > HEAD + KIT_COMBO_MAX)
    return false;
  long v[HEAD + KIT_COMBO_MAX];
  for (int i = 1; i < nw; i++)
    {
      char *end;
      v[i] = strtol (w[i], &end, 10);
      if (*end != '\0' || end == w[i] || v[i] < -1 || v[i] >= ENG_LIVE_SERIALS)
        return false;
    }
  if (v[1] <= KIT_PEND_NONE || v[1] >= KIT_PEND_COUNT
      || (v[2] != KIT_PLAY && v[2] != KIT_PAIR && v[2] != KIT_TRIO && v[2] != KIT_FIVE)
      || v[3] < 0 || v[3] >= KIT_MAX_PLAYERS || v[4] >= KIT_MAX_PLAYERS
      || v[5] >= KIT_MAX_PLAYERS || v[6] < 0 || v[6] >= KIT_MAX_TYPES
      || v[7] < (v[1] == KIT_PEND_TAKE ? 0 : 1) || v[7] > KIT_COMBO_MAX
      || nw != HEAD + v[7])
    return false;
  KitLiveMind *km = (KitLiveMind *) (void *) m->game;
  memset (km, 0, sizeof *km);
  km->kind = (uint8_t) v[1];
  km->verb = (uint8_t) v[2];
  km->player = (int8_t) v[3];
  km->named = (int8_t) v[4];
  km->target = (int8_t) v[5];
  km->type = (uint8_t) v[6];
  km->n = (uint8_t) v[7];
  for (int i = 0; i < km->n; i++)
    {
      if (v[HEAD + i] <= 0)
        return false;
      km->cards[i] = (uint16_t) v[HEAD + i];
    }
  return true;
}

void
kit_live_mind_rename (EngLiveMind *m, uint16_t from, uint16_t to)
{
  KitLiveMind *km = (KitLiveMind *) (void *) m->game;
  for (unsigned i = 0; i < km->n && i < KIT_COMBO_MAX; i++)
    if (km->cards[i] == from)
      km->cards[i] = to;
}

/* Only faces are kept, by serial: no track id to forget. */
void
kit_live_mind_forget (EngLiveMind *m, uint32_t (*forget) (uint32_t track))
{
  (void) m;
  (void) forget;
}

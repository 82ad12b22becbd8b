/* katua-apply.c: a Katua move applied (EngGameClass.play).
 * Rule ids in verdicts and events are the rulings of RULINGS.md (K1-K21);
 * "set" marks a card the set does not know, "turn" a move by the wrong
 * player.
 *
 * The core's transaction (eng-play.h) applies every move to a scratch copy
 * of the state, which replaces the real one only when the whole move is
 * legal: a refused move changes nothing.
 */
#include "katua-private.h"

#include "eng-i18n.h"
#include "eng-play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ---------------------------------------------------- */

static const char *
pname (const KatState *s, int p)
{
  return (p >= 0 && p < s->n_players) ? s->names[p] : "?";
}

static bool has_words (const KatCtx *c);

/* A card's name in the table's language as the game says it ("red cat"),
 * a cat with its value (what tells copies of a colour apart).  Not the card
 * set's label: that is the sticker's English caption.  Valid until the
 * next call but one; empty on the fast path, which formats no text. */
static const char *
card_label (KatCtx *c, uint8_t idx)
{
  if (!has_words (c))
    return "";
  if (idx >= c->r->n_cards)
    return ENG_ ("an unseen card");
  char *buf = c->names[c->next_name++ & 1];
  const KatCard *kc = &c->r->cards[idx];
  katua_card_name (c->r, kc->serial, false, buf, sizeof c->names[0]);
  if (kc->kind == KAT_KIND_CAT)
    {
      size_t len = strlen (buf);
      snprintf (buf + len, sizeof c->names[0] - len, " %d", kc->value);
    }
  return buf;
}

/* Whether `c` formats any text: the simulation path does not, and skips
 * the translation lookups of the words it would put in it. */
static bool
has_words (const KatCtx *c)
{
  return c->ev != NULL || c->why != NULL;
}

/* Colour words agree with what they qualify in some languages ("luz roja"
 * but "gato rojo"), so each noun has its own: a beam's colour ... */
static const char *
colour_name (const KatCtx *c, unsigned colour)
{
  bool tr = has_words (c);
  switch (colour)
    {
    case KAT_RED: return tr ? ENG_C_ ("beam", "red") : "red";
    case KAT_BLUE: return tr ? ENG_C_ ("beam", "blue") : "blue";
    case KAT_YELLOW: return tr ? ENG_C_ ("beam", "yellow") : "yellow";
    case KAT_TRICOLOR: return tr ? ENG_C_ ("beam", "tricolor") : "tricolor";
    default: return tr ? ENG_C_ ("beam", "colourless") : "colourless";
    }
}

/* ... a UFO card's ... */
static const char *
ufo_colour_name (const KatCtx *c, unsigned colour)
{
  bool tr = has_words (c);
  switch (colour)
    {
    case KAT_RED: return tr ? ENG_C_ ("UFO", "red") : "red";
    case KAT_BLUE: return tr ? ENG_C_ ("UFO", "blue") : "blue";
    case KAT_YELLOW: return tr ? ENG_C_ ("UFO", "yellow") : "yellow";
    case KAT_TRICOLOR: return tr ? ENG_C_ ("UFO", "tricolor") : "tricolor";
    default: return tr ? ENG_C_ ("UFO", "colourless") : "colourless";
    }
}

/* ... and a cat's. */
static const char *
cat_colour_name (const KatCtx *c, unsigned colour)
{
  bool tr = has_words (c);
  switch (colour)
    {
    case KAT_RED: return tr ? ENG_C_ ("cat", "red") : "red";
    case KAT_BLUE: return tr ? ENG_C_ ("cat", "blue") : "blue";
    case KAT_YELLOW: return tr ? ENG_C_ ("cat", "yellow") : "yellow";
    case KAT_TRICOLOR: return tr ? ENG_C_ ("cat", "tricolor") : "tricolor";
    default: return tr ? ENG_C_ ("cat", "colourless") : "colourless";
    }
}

/* The card an X-Ray or Teleporter answer is about, by name. */
static const char *
answered_card_name (const KatCtx *c, unsigned verb)
{
  if (!has_words (c))
    return verb == KAT_XRAY ? "X-Ray" : "Teleporter";
  return verb == KAT_XRAY ? ENG_ ("X-Ray") : ENG_ ("Teleporter");
}

static bool
attracts (const KatRules *r, unsigned beam, uint8_t cat)
{
  const KatCard *k = &r->cards[cat];
  return k->kind == KAT_KIND_FAKE || (beam & k->colour) != 0;
}

/* Where a known card is, in words that reveal nothing hidden (K20): a
 * public place by name, any hidden one (hand, deck, face-down slot, the
 * discard pile) as "a hidden place".  NULL when the referee has not located
 * it (it is then behind one of the unknown tokens). */
static const char *
locate (const KatState *s, uint8_t idx)
{
  static const char hidden[] = ENG_N_ ("a hidden place");
  for (int p = 0; p < s->n_players; p++)
    {
      for (int i = 0; i < KAT_SLOTS; i++)
        if (s->slot[p][i] == idx)
          return s->face_up[p][i] ? ENG_N_ ("a face-up slot") : hidden;
      for (int i = 0; i < s->hand_n[p]; i++)
        if (s->hand[p][i] == idx)
          return hidden;
      for (int i = 0; i < s->captured_n[p]; i++)
        if (s->captured[p][i] == idx)
          return ENG_N_ ("a capture area");
    }
  for (int i = 0; i < s->cat_deck_n; i++)
    if (s->cat_deck[i] == idx)
      return hidden;
  for (int i = 0; i < s->ufo_deck_n; i++)
    if (s->ufo_deck[i] == idx)
      return hidden;
  for (int i = 0; i < s->discard_n; i++)
    if (s->discard[i] == idx)
      return hidden;
  for (int i = 0; i < s->in_play_n; i++)
    if (s->in_play[i] == idx)
      return ENG_N_ ("play");
  return NULL;
}

/* Removes `serial` (or '?') from p's hand; the card index removed goes to
 * *idx (KAT_UNKNOWN for a '?').  Conservation: a card the referee knows to
 * be elsewhere cannot come out of a hand. */
static EngStatus
hand_take (KatCtx *c, int p, uint16_t serial, uint8_t *idx)
{
  KatState *s = c->s;
  if (serial == ENG_SERIAL_UNKNOWN)
    {
      for (int i = s->hand_n[p] - 1; i >= 0; i--)
        if (s->hand[p][i] == KAT_UNKNOWN)
          {
            s->hand[p][i] = s->hand[p][--s->hand_n[p]];
            *idx = KAT_UNKNOWN;
            return ENG_OK;
          }
      if (s->hand_n[p] == 0)
        return ILLEGAL (c, "K3", ENG_N_ ("%s has no UFO card in hand"), pname (s, p));
      return ILLEGAL (c, "K20", ENG_N_ ("the referee knows %s's hand: name the card"),
                      pname (s, p));
    }
  uint8_t k = katua_card_index (c->r, serial);
  if (k == KAT_NONE)
    return ILLEGAL (c, "set", ENG_N_ ("card %u is not in this card set"), serial);
  if (c->r->cards[k].deck != KAT_DECK_UFO)
    return ILLEGAL (c, "K2", ENG_N_ ("card %u is a cat, not a UFO card"), serial);
  for (int i = 0; i < s->hand_n[p]; i++)
    if (s->hand[p][i] == k)
      {
        s->hand[p][i] = s->hand[p][--s->hand_n[p]];
        *idx = k;
        return ENG_OK;
      }
  const char *where = locate (s, k);
  if (where != NULL)
    {
      /* the card laid face up now, by its name: never its serial */
      char name[64] = "";
      if (has_words (c))
        katua_card_name (c->r, serial, true, name, sizeof name);
      return refuse (c, ENG_ERR_CONSERVATION, "K20",
                     ENG_N_ ("%s cannot come from %s's hand: the referee knows it is in %s"),
                     name, pname (s, p), ENG_ (where));
    }
  for (int i = s->hand_n[p] - 1; i >= 0; i--)
    if (s->hand[p][i] == KAT_UNKNOWN)
      {
        s->hand[p][i] = s->hand[p][--s->hand_n[p]];
        *idx = k;
        return ENG_OK;
      }
  return refuse (c, ENG_ERR_CONSERVATION, "K20", ENG_N_ ("%s's hand cannot hold card %u"),
                 pname (s, p), serial);
}

/* Takes a card of the given kind (and action) from p's hand. */
static EngStatus
hand_take_kind (KatCtx *c, int p, uint16_t serial, int kind, int action, const char *rule,
                const char *what, uint8_t *idx)
{
  if (serial == 0 || serial == ENG_SERIAL_UNKNOWN)
    return ILLEGAL (c, rule, ENG_N_ ("name the %s card played (its face is seen)"),
                    ENG_ (what));
  uint8_t k = katua_card_index (c->r, serial);
  if (k == KAT_NONE)
    return ILLEGAL (c, "set", ENG_N_ ("card %u is not in this card set"), serial);
  const KatCard *kc = &c->r->cards[k];
  if (kc->kind != kind || (action != KAT_ACT_NONE && kc->action != action))
    return ILLEGAL (c, rule, ENG_N_ ("card %u (%s) is not a %s"), serial,
                    card_label (c, k), ENG_ (what));
  return hand_take (c, p, serial, idx);
}

/* Learns the identity of the cat at a place: the move's `show` must name it
 * when the referee has not seen it, and must agree when it has. */
static EngStatus
identify_slot (KatCtx *c, int p, int slot, uint16_t show, const char *rule)
{
  KatState *s = c->s;
  uint8_t cur = s->slot[p][slot];
  if (cur == KAT_NONE)
    return ILLEGAL (c, rule, ENG_N_ ("%s has no cat in slot %d"), pname (s, p), slot + 1);
  if (cur != KAT_UNKNOWN)
    {
      if (show != 0 && c->r->cards[cur].serial != show)
        {
          if (s->face_up[p][slot])
            return refuse (c, ENG_ERR_CONSERVATION, rule,
                           ENG_N_ ("the cat in %s's slot %d is card %u, not %u"), pname (s, p),
                           slot + 1, c->r->cards[cur].serial, show);
          /* K20: a face the referee saw earlier is not named */
          return refuse (c, ENG_ERR_CONSERVATION, rule,
                         ENG_N_ ("the cat in %s's slot %d is not card %u: the referee saw it "
                                 "earlier"),
                         pname (s, p), slot + 1, show);
        }
      return ENG_OK;
    }
  if (show == 0)
    return ILLEGAL (c, rule,
                    ENG_N_ ("%s's cat in slot %d must be turned face up: the move must say which "
                            "cat the table sees (show N)"), pname (s, p), slot + 1);
  uint8_t k = katua_card_index (c->r, show);
  if (k == KAT_NONE)
    return ILLEGAL (c, "set", ENG_N_ ("card %u is not in this card set"), show);
  if (c->r->cards[k].deck != KAT_DECK_CAT)
    return refuse (c, ENG_ERR_CONSERVATION, rule, ENG_N_ ("card %u is not a cat"), show);
  const char *where = locate (s, k);
  if (where != NULL)
    return refuse (c, ENG_ERR_CONSERVATION, rule, ENG_N_ ("card %u is already in %s"), show,
                   ENG_ (where));
  s->slot[p][slot] = k;
  return ENG_OK;
}

static EngStatus
check_slot (KatCtx *c, int p, int slot, const char *rule)
{
  if (p < 0 || p >= c->s->n_players)
    return ILLEGAL (c, rule, ENG_N_ ("no such player"));
  if (slot < 0 || slot >= KAT_SLOTS)
    return ILLEGAL (c, rule, ENG_N_ ("slots are numbered 1 to %d"), KAT_SLOTS);
  if (c->s->slot[p][slot] == KAT_NONE)
    return ILLEGAL (c, rule, ENG_N_ ("%s has no cat in slot %d"), pname (c->s, p), slot + 1);
  return ENG_OK;
}

static void
to_discard (KatState *s, uint8_t idx)
{
  if (s->discard_n < KAT_MAX_UFOS)
    s->discard[s->discard_n++] = idx;
}

static void
in_play_remove (KatState *s, uint8_t idx)
{
  for (int i = 0; i < s->in_play_n; i++)
    if (s->in_play[i] == idx)
      {
        memmove (&s->in_play[i], &s->in_play[i + 1], (size_t) (s->in_play_n - i - 1));
        s->in_play_n--;
        return;
      }
}

static void
discard_from_play (KatState *s, uint8_t idx)
{
  in_play_remove (s, idx);
  to_discard (s, idx);
}

/* ---- end of the game -------------------------------------------------- */

const char *const katua_tiebreak_names[4] = { "score", "authentic-ranks", "fewest-fakes",
                                               "shared" };

static void
authentic_sorted (const KatRules *r, const KatState *s, int p, int8_t *vals, int *n)
{
  *n = 0;
  for (int i = 0; i < s->captured_n[p]; i++)
    {
      const KatCard *k = &r->cards[s->captured[p][i]];
      if (k->kind == KAT_KIND_CAT)
        {
          int j = (*n)++;
          while (j > 0 && vals[j - 1] < k->value)
            {
              vals[j] = vals[j - 1];
              j--;
            }
          vals[j] = k->value;
        }
    }
}

static int
fakes_of (const KatRules *r, const KatState *s, int p)
{
  int f = 0;
  for (int i = 0; i < s->captured_n[p]; i++)
    f += r->cards[s->captured[p][i]].kind == KAT_KIND_FAKE;
  return f;
}

/* K17: highest score, then authentic cats compared from the highest value
 * down, then fewest fakes, then shared. */
static void
decide_winners (const KatRules *r, KatState *s)
{
  unsigned cand = 0;
  int best = -1000;
  for (int p = 0; p < s->n_players; p++)
    if (s->score[p] > best)
      best = s->score[p];
  for (int p = 0; p < s->n_players; p++)
    if (s->score[p] == best)
      cand |= 1u << p;
  s->tiebreak = 0;
  if (__builtin_popcount (cand) > 1)
    {
      s->tiebreak = 1;
      int8_t vals[KAT_MAX_PLAYERS][KAT_MAX_CATS];
      int nv[KAT_MAX_PLAYERS];
      for (int p = 0; p < s->n_players; p++)
        authentic_sorted (r, s, p, vals[p], &nv[p]);
      for (int pos = 0; pos < KAT_MAX_CATS && __builtin_popcount (cand) > 1; pos++)
        {
          int top = -1000;
          for (int p = 0; p < s->n_players; p++)
            if ((cand >> p) & 1)
              {
                int v = pos < nv[p] ? vals[p][pos] : -100;
                if (v > top)
                  top = v;
              }
          if (top == -100)
            break;
          for (int p = 0; p < s->n_players; p++)
            if ((cand >> p) & 1)
              {
                int v = pos < nv[p] ? vals[p][pos] : -100;
                if (v < top)
                  cand &= ~(1u << p);
              }
        }
      if (__builtin_popcount (cand) > 1)
        {
          s->tiebreak = 2;
          int few = 1000;
          for (int p = 0; p < s->n_players; p++)
            if (((cand >> p) & 1) && fakes_of (r, s, p) < few)
              few = fakes_of (r, s, p);
          for (int p = 0; p < s->n_players; p++)
            if (((cand >> p) & 1) && fakes_of (r, s, p) > few)
              cand &= ~(1u << p);
          if (__builtin_popcount (cand) > 1)
            s->tiebreak = 3;
        }
    }
  s->winners = (uint8_t) cand;
}

static void
game_over (KatCtx *c, KatEndReason why)
{
  KatState *s = c->s;
  s->phase = KAT_PHASE_OVER;
  s->end_reason = why;
  s->n_att = 0;
  decide_winners (c->r, s);
  if (c->ev == NULL)
    return;
  char names[128] = "";
  for (int p = 0; p < s->n_players; p++)
    if ((s->winners >> p) & 1)
      {
        size_t l = strlen (names);
        snprintf (names + l, sizeof names - l, "%s%s", l ? ENG_ (" and ") : "", s->names[p]);
      }
  const char *rule = why == KAT_END_SCORE ? "K15" : why == KAT_END_CAT_DECK ? "K16" : "K18";
  char cause[80];
  if (why == KAT_END_SCORE)
    snprintf (cause, sizeof cause, ENG_ ("Someone has %u or more points at the count"),
              (unsigned) c->r->winning_score);
  else
    snprintf (cause, sizeof cause, "%s", why == KAT_END_CAT_DECK
                                           ? ENG_ ("A cat could not be drawn")
                                           : ENG_ ("The UFO cards ran out"));
  /* the rule (K17 for a tie) is the event's, never in its words */
  EngEvent *e = ev_add (c, ENG_EVENT_GAME_OVER, -1, rule, ENG_N_ ("%s. Game over: %s %s%s"),
                        cause, names,
                        __builtin_popcount (s->winners) > 1 ? ENG_ ("share the victory")
                                                            : ENG_ ("wins"),
                        s->tiebreak == 0 ? "" : s->tiebreak == 1
                          ? ENG_ (" (the tie is broken by the highest real cats)")
                          : s->tiebreak == 2 ? ENG_ (" (the tie is broken by the fewest fakes)")
                                             : ENG_ (" (the tie stands)"));
  if (e != NULL)
    {
      e->winners = s->winners;
      snprintf (e->tiebreak, sizeof e->tiebreak, "%s", katua_tiebreak_names[s->tiebreak]);
      for (int p = 0; p < s->n_players; p++)
        if ((s->winners >> p) & 1)
          {
            e->player = (int8_t) p;
            e->value = s->score[p];
            break;
          }
    }
}

/* Draws the top cat; false (and the game ends, K16) when the deck is empty. */
static bool
draw_cat (KatCtx *c, uint8_t *out)
{
  KatState *s = c->s;
  if (s->cat_deck_n == 0)
    return false;
  *out = s->cat_deck[--s->cat_deck_n];
  return true;
}

/* ---- effects ---------------------------------------------------------- */

static void
capture (KatCtx *c, int taker, int p, int slot, const char *rule)
{
  KatState *s = c->s;
  uint8_t k = s->slot[p][slot];
  s->slot[p][slot] = KAT_NONE;
  s->face_up[p][slot] = 0;
  s->captured[taker][s->captured_n[taker]++] = k;
  int v = c->r->cards[k].value;
  s->score[taker] = (int8_t) (s->score[taker] + v);
  if (c->ev == NULL)
    return;
  /* what happened; where the cat goes is the table's instruction (the
   * live referee's "Ana: take the cat ... into your capture area") */
  EngEvent *e = taker == p
    ? ev_add (c, ENG_EVENT_TAKEN, taker, rule,
              ENG_N_ ("%s captures their own cat from slot %d: %s"), pname (s, taker), slot + 1,
              card_label (c, k))
    : ev_add (c, ENG_EVENT_TAKEN, taker, rule, ENG_N_ ("%s captures %s's cat from slot %d: %s"),
              pname (s, taker), pname (s, p), slot + 1, card_label (c, k));
  if (e != NULL)
    {
      e->other = (int8_t) p;
      e->value = (int16_t) c->r->cards[k].serial;
    }
  /* English says "1 point" and "0 points", "-1 points": n == 1 is the
   * singular, as in English's plural rule. */
  e = ev_add (c, ENG_EVENT_SCORE, taker, rule,
              ENG_NG_ ("%s now has %d point", "%s now has %d points",
                       s->score[taker] == 1 ? 1 : 2), pname (s, taker), s->score[taker]);
  if (e != NULL)
    {
      e->value = s->score[taker];
      e->delta = (int16_t) v;
    }
}

static void
shown (KatCtx *c, int p, int slot, const char *rule, bool back_down)
{
  if (c->ev == NULL)
    return;
  KatState *s = c->s;
  uint8_t k = s->slot[p][slot];
  EngEvent *e = ev_add (c, ENG_EVENT_SHOWN, p, rule,
                        ENG_N_ ("%s's cat in slot %d is shown to all: %s"),
                        pname (s, p), slot + 1, card_label (c, k));
  if (e != NULL && k < c->r->n_cards)
    e->value = (int16_t) c->r->cards[k].serial;
  if (back_down)
    ev_add (c, ENG_EVENT_NEED, p, rule, ENG_N_ ("%s: turn your cat in slot %d face down again"),
            pname (s, p), slot + 1);
}

/* K9: p's slot cats go back into the cat deck after p draws three new ones
 * face down.  Returns false when the game ended (K16). */
static bool
stampede (KatCtx *c, int p)
{
  KatState *s = c->s;
  uint8_t removed[KAT_SLOTS];
  int nr = 0;
  for (int i = 0; i < KAT_SLOTS; i++)
    {
      if (s->slot[p][i] != KAT_NONE)
        removed[nr++] = s->slot[p][i];
      s->slot[p][i] = KAT_NONE;
      s->face_up[p][i] = 0;
    }
  bool ok = true;
  for (int i = 0; i < KAT_SLOTS && ok; i++)
    ok = draw_cat (c, &s->slot[p][i]);
  /* the set-aside cats are shuffled into the deck (also when the game ends,
   * so every card stays somewhere) */
  for (int i = 0; i < nr; i++)
    s->cat_deck[s->cat_deck_n++] = s->omniscient ? removed[i] : KAT_UNKNOWN;
  if (s->omniscient)
    eng_rng_shuffle_u8 (&s->rng, s->cat_deck, s->cat_deck_n);
  else
    for (int i = 0; i < s->cat_deck_n; i++)
      s->cat_deck[i] = KAT_UNKNOWN;
  if (c->ev != NULL)
    ev_add (c, ENG_EVENT_NEED, p, "K9",
            ENG_N_ ("%s: set aside the cats in your slots. Draw 3 new cats and lay them face "
                    "down, left to right, unseen. Then shuffle the set-aside cats into the cat "
                    "deck"), pname (s, p));
  if (!ok)
    {
      game_over (c, KAT_END_CAT_DECK);
      return false;
    }
  return true;
}

static void
swap_slots (KatState *s, int p1, int s1, int p2, int s2)
{
  uint8_t t = s->slot[p1][s1];
  s->slot[p1][s1] = s->slot[p2][s2];
  s->slot[p2][s2] = t;
  t = s->face_up[p1][s1];
  s->face_up[p1][s1] = s->face_up[p2][s2];
  s->face_up[p2][s2] = t;
}

void
katua_need_for_phase (KatCtx *c)
{
  KatState *s = c->s;
  if (c->ev == NULL)
    return;
  switch (s->phase)
    {
    case KAT_PHASE_QUICK_START:
      for (int p = 0; p < s->n_players; p++)
        if (!((s->quick_start_done >> p) & 1))
          {
            ev_add (c, ENG_EVENT_NEED, p, "K19",
                    ENG_N_ ("%s: show one of your cats to everyone, then turn it face down again"),
                    pname (s, p));
            break;
          }
      break;
    case KAT_PHASE_TURN:
      ev_add (c, ENG_EVENT_NEED, s->active, "K3",
              s->played_any ? ENG_N_ ("%s: play more UFO cards or end your turn")
                            : ENG_N_ ("%s: play UFO cards, discard, or pass"),
              pname (s, s->active));
      break;
    case KAT_PHASE_ATTACK:
      {
        const KatAttempt *a = &s->att[0];
        ev_add (c, ENG_EVENT_NEED, a->player, "K6",
                s->face_up[a->player][a->slot]
                  ? ENG_N_ ("%s: defend your cat in slot %d from %s's %s beam, or let it hit")
                  : ENG_N_ ("%s: defend your cat in slot %d from %s's %s beam, or turn it face "
                            "up to let it hit"),
                pname (s, a->player), a->slot + 1, pname (s, a->launcher),
                colour_name (c, a->colour));
        break;
      }
    case KAT_PHASE_HOOK:
      {
        /* Once every rival has answered, only the turn of the cat is left. */
        bool all_answered = true;
        for (int p = 0; p < s->n_players; p++)
          if (p != s->active && !((s->hook_answered >> p) & 1u))
            all_answered = false;
        if (all_answered)
          ev_add (c, ENG_EVENT_NEED, s->active, "K12", ENG_N_ ("%s: turn your cat in slot %d face up"),
                  pname (s, s->active), s->hook_slot + 1);
        else
          ev_add (c, ENG_EVENT_NEED, s->active, "K12",
                  ENG_N_ ("Rivals: answer %s's Hook on slot %d with one abduction card; %s: then "
                          "turn the cat face up"), pname (s, s->active), s->hook_slot + 1,
                  pname (s, s->active));
        break;
      }
    case KAT_PHASE_ANSWER:
      ev_add (c, ENG_EVENT_NEED, s->answer_player, "K10",
              ENG_N_ ("%s: answer with a Teleporter or let the %s act"),
              pname (s, s->answer_player),
              answered_card_name (c, s->answer_verb));
      break;
    default:
      break;
    }
}

void
katua_set_rep (KatState *s, int verb, int player, int colour, int rival, bool open)
{
  s->rep_effect = (uint8_t) verb;
  s->rep_player = (uint8_t) player;
  s->rep_count = 0;
  s->rep_colour = (uint8_t) colour;
  s->rep_rival = (uint8_t) rival;
  s->rep_open = open;
}

/* What the refill draws, as a person says it: one short sentence a player
 * who draws ("Ana draws a UFO card. Bea draws a cat and 2 UFO cards"),
 * starting with the active player; nobody who draws nothing is named. */
static void
refill_words (uint8_t counts[][2], const KatState *s, int n, char *text, size_t size)
{
  text[0] = '\0';
  for (int i = 0; i < n; i++)
    {
      int p = (s->active + i) % n;
      unsigned cats = counts[p][0], ufos = counts[p][1];
      if (cats == 0 && ufos == 0)
        continue;
      char a[48] = "", b[48] = "", what[112];
      if (cats == 1)
        snprintf (a, sizeof a, "%s", ENG_ ("a cat"));
      else if (cats > 1)
        snprintf (a, sizeof a, ENG_NG_ ("%u cat", "%u cats", cats), cats);
      if (ufos == 1)
        snprintf (b, sizeof b, "%s", ENG_ ("a UFO card"));
      else if (ufos > 1)
        snprintf (b, sizeof b, ENG_NG_ ("%u UFO card", "%u UFO cards", ufos), ufos);
      if (a[0] != '\0' && b[0] != '\0')
        snprintf (what, sizeof what, ENG_ ("%s and %s"), a, b);
      else
        snprintf (what, sizeof what, "%s", a[0] != '\0' ? a : b);
      size_t l = strlen (text);
      snprintf (text + l, size - l, "%s", l > 0 ? ". " : "");
      l = strlen (text);
      snprintf (text + l, size - l, ENG_ ("%s draws %s"), pname (s, p), what);
    }
  if (text[0] == '\0')
    snprintf (text, size, "%s", ENG_ ("Nobody needs to draw"));
}

/* ---- turn start and end (K15) ----------------------------------------- */

void
katua_begin_turn (KatCtx *c, int p)
{
  KatState *s = c->s;
  s->active = (uint8_t) p;
  s->phase = KAT_PHASE_TURN;
  s->abduction_used = 0;
  s->played_any = 0;
  s->turn++;
  katua_set_rep (s, KAT_VERB_COUNT, 0, 0, 0, false);
  ev_add (c, ENG_EVENT_TURN, p, "K21", ENG_N_ ("%s's turn"), pname (s, p));
}

static void
end_turn (KatCtx *c)
{
  KatState *s = c->s;
  const KatRules *r = c->r;
  int n = s->n_players;
  /* (1) count */
  for (int p = 0; p < n; p++)
    if (s->score[p] >= r->winning_score)
      {
        game_over (c, KAT_END_SCORE);
        return;
      }
  uint8_t counts[KAT_MAX_PLAYERS][2] = { { 0 } };
  /* (2) replenish, from the active player in turn order */
  for (int i = 0; i < n; i++)
    {
      int p = (s->active + i) % n;
      for (int k = 0; k < KAT_SLOTS; k++)
        if (s->slot[p][k] == KAT_NONE)
          {
            if (!draw_cat (c, &s->slot[p][k]))
              {
                game_over (c, KAT_END_CAT_DECK);
                return;
              }
            s->face_up[p][k] = 0;
            counts[p][0]++;
          }
    }
  /* (3) draw UFO cards up to 3 */
  bool reshuffled = false;
  for (int i = 0; i < n; i++)
    {
      int p = (s->active + i) % n;
      while (s->hand_n[p] < KAT_HAND)
        {
          if (s->ufo_deck_n == 0)
            {
              if (r->ufo_deck_out == KAT_UFO_OUT_END)
                {
                  game_over (c, KAT_END_UFO_DECK);
                  return;
                }
              if (r->ufo_deck_out == KAT_UFO_OUT_NO_DRAW || s->discard_n == 0)
                break;
              /* K18 default: the discard pile becomes the new UFO deck */
              for (int k = 0; k < s->discard_n; k++)
                s->ufo_deck[k] = s->omniscient ? s->discard[k] : KAT_UNKNOWN;
              s->ufo_deck_n = s->discard_n;
              s->discard_n = 0;
              if (s->omniscient)
                eng_rng_shuffle_u8 (&s->rng, s->ufo_deck, s->ufo_deck_n);
              reshuffled = true;
              ev_add (c, ENG_EVENT_RESHUFFLE, p, "K18",
                      ENG_N_ ("The UFO deck ran out: shuffle the UFO discard pile (%u cards) into "
                              "a new UFO deck"), (unsigned) s->ufo_deck_n);
            }
          s->hand[p][s->hand_n[p]++] = s->ufo_deck[--s->ufo_deck_n];
          counts[p][1]++;
        }
    }
  (void) reshuffled;
  /* K18 no-draw: with no UFO card left in any hand or in the deck nothing can
   * ever be played again; the game ends instead of going round forever. */
  if (s->ufo_deck_n == 0)
    {
      bool any = false;
      for (int p = 0; p < n; p++)
        any = any || s->hand_n[p] > 0;
      if (!any)
        {
          game_over (c, KAT_END_UFO_DECK);
          return;
        }
    }
  if (c->ev != NULL)
    {
      char text[200];
      refill_words (counts, s, n, text, sizeof text);
      EngEvent *e = ev_add (c, ENG_EVENT_DEALT, s->active, "K15", "%s", text);
      if (e != NULL)
        memcpy (e->counts, counts, sizeof counts);
    }
  katua_begin_turn (c, (s->active + 1) % n);
}

/* ---- abduction attempts ----------------------------------------------- */

static void
pop_attempt (KatCtx *c)
{
  KatState *s = c->s;
  memmove (&s->att[0], &s->att[1], (size_t) (s->n_att - 1) * sizeof s->att[0]);
  s->n_att--;
  /* an attempt whose slot emptied meanwhile has nothing to hit */
  while (s->n_att > 0 && s->slot[s->att[0].player][s->att[0].slot] == KAT_NONE)
    {
      ev_add (c, ENG_EVENT_STAYED, s->att[0].player, "K11",
              ENG_N_ ("The beam at %s's slot %d finds no cat"), pname (s, s->att[0].player),
              s->att[0].slot + 1);
      discard_from_play (s, s->att[0].card);
      memmove (&s->att[0], &s->att[1], (size_t) (s->n_att - 1) * sizeof s->att[0]);
      s->n_att--;
    }
  if (s->n_att == 0 && s->phase == KAT_PHASE_ATTACK)
    s->phase = KAT_PHASE_TURN;
}

/* K5: may `ufo` neutralise attempt `a`?  Needs the target's identity only
 * for a colour UFO against a tricolor beam (the forced show). */
EngStatus
katua_neutralise_ok (KatCtx *c, const KatAttempt *a, unsigned ufo_colour, uint16_t show,
                     bool *forced)
{
  *forced = false;
  if (a->colour != KAT_TRICOLOR)
    {
      if (ufo_colour == a->colour || ufo_colour == KAT_TRICOLOR)
        return ENG_OK;
      return ILLEGAL (c, "K5", ENG_N_ ("a %s beam is neutralised only by a %s or a tricolor UFO"),
                      colour_name (c, a->colour), ufo_colour_name (c, a->colour));
    }
  if (ufo_colour == KAT_TRICOLOR)
    return ENG_OK;
  EngStatus st = identify_slot (c, a->player, a->slot, show, "K5");
  if (st != ENG_OK)
    return st;
  const KatCard *t = &c->r->cards[c->s->slot[a->player][a->slot]];
  bool fits = t->kind == KAT_KIND_CAT && t->colour != KAT_TRICOLOR && t->colour == ufo_colour;
  /* K20: a cat still face down (judged from a seeded deal, the move showing
   * nothing) is refused without a word of what it is */
  if (!fits && show == 0 && !c->s->face_up[a->player][a->slot])
    return ILLEGAL (c, "K5", ENG_N_ ("against a tricolor beam a colour UFO neutralises only a "
                                     "cat of its own colour, shown to all"));
  if (t->kind != KAT_KIND_CAT || t->colour == KAT_TRICOLOR)
    return ILLEGAL (c, "K5", ENG_N_ ("a tricolor or fake target can only be defended with a "
                                     "tricolor UFO against a tricolor beam"));
  if (!fits)
    return ILLEGAL (c, "K5", ENG_N_ ("against a tricolor beam a colour UFO must match the target "
                                     "cat's own colour (%s)"), cat_colour_name (c, t->colour));
  *forced = !c->s->face_up[a->player][a->slot];
  return ENG_OK;
}

static EngStatus
do_neutralise (KatCtx *c, uint8_t ufo, unsigned colour, uint16_t show, int defender)
{
  KatState *s = c->s;
  bool forced = false;
  EngStatus st = katua_neutralise_ok (c, &s->att[0], colour, show, &forced);
  if (st != ENG_OK)
    return st;
  const KatAttempt a = s->att[0];
  if (forced)
    shown (c, a.player, a.slot, "K5", true);
  to_discard (s, ufo);
  discard_from_play (s, a.card);
  ev_add (c, ENG_EVENT_STAYED, defender, "K5",
          ENG_N_ ("%s neutralises %s's %s beam at slot %d: both UFOs go to the discard pile"),
          pname (s, defender), pname (s, a.launcher), colour_name (c, a.colour), a.slot + 1);
  pop_attempt (c);
  return ENG_OK;
}

int
katua_shield_copy_attempt (const KatState *s, int defender)
{
  if (s->phase != KAT_PHASE_ATTACK || s->rep_effect != KAT_SHIELD || s->rep_player != defender)
    return -1;
  for (int i = 0; i < s->n_att; i++)
    if (s->att[i].player == defender && s->att[i].launcher != defender)
      return i;
  return -1;
}

/* K7: attempt `i` turns at the attacker's cat (p, slot).  A copied Shield
 * (K13) gives its beam its own target: a cat no other beam points at, as
 * each of the attacker's cats has one attack spot. */
static EngStatus
do_shield_redirect (KatCtx *c, int i, int p, int slot, bool copy)
{
  KatState *s = c->s;
  KatAttempt *a = &s->att[i];
  if (p != a->launcher)
    return ILLEGAL (c, "K7", ENG_N_ ("a Shield sends the beam back only at the attacker, %s"),
                    pname (s, a->launcher));
  EngStatus st = check_slot (c, p, slot, "K7");
  if (st != ENG_OK)
    return st;
  for (int j = 0; copy && j < s->n_att; j++)
    if (j != i && s->att[j].player == p && s->att[j].slot == slot)
      return ILLEGAL (c, "K13", ENG_N_ ("a copied Shield turns its beam at another of %s's cats: "
                                        "a beam already points at slot %d"),
                      pname (s, p), slot + 1);
  int defender = a->player;
  a->player = a->launcher;
  a->slot = (uint8_t) slot;
  a->launcher = (uint8_t) defender;
  if (copy)
    ev_add (c, ENG_EVENT_NOTE, defender, "K13",
            ENG_N_ ("%s's Replicator copies the Shield: the beam turns at %s's cat in slot %d; "
                    "%s may defend"),
            pname (s, defender), pname (s, p), slot + 1, pname (s, p));
  else
    ev_add (c, ENG_EVENT_NOTE, defender, "K7",
            ENG_N_ ("%s's Shield turns the beam at %s's cat in slot %d; %s may defend"),
            pname (s, defender), pname (s, p), slot + 1, pname (s, p));
  return ENG_OK;
}

static EngStatus
teleport_valid (KatCtx *c, const EngMove *m, const char *rule)
{
  EngStatus st = check_slot (c, m->target[0], m->slot[0], rule);
  if (st == ENG_OK)
    st = check_slot (c, m->target[1], m->slot[1], rule);
  if (st != ENG_OK)
    return st;
  if (m->target[0] == m->target[1] && m->slot[0] == m->slot[1])
    return ILLEGAL (c, rule, ENG_N_ ("a Teleporter swaps two different cats"));
  return ENG_OK;
}

static EngStatus
do_teleport (KatCtx *c, const EngMove *m, const char *rule)
{
  KatState *s = c->s;
  EngStatus st = teleport_valid (c, m, rule);
  if (st != ENG_OK)
    return st;
  swap_slots (s, m->target[0], m->slot[0], m->target[1], m->slot[1]);
  ev_add (c, ENG_EVENT_NEED, m->player, rule,
          ENG_N_ ("Swap %s's cat in slot %d with %s's cat in slot %d, keeping each face as it was"),
          pname (s, m->target[0]), m->slot[0] + 1, pname (s, m->target[1]), m->slot[1] + 1);
  return ENG_OK;
}

static EngStatus
xray_valid (KatCtx *c, const EngMove *m)
{
  EngStatus st = check_slot (c, m->target[0], m->slot[0], "K14");
  if (st != ENG_OK)
    return st;
  if (m->target[0] == m->player)
    return ILLEGAL (c, "K14", ENG_N_ ("an X-Ray is used on a rival's cat"));
  if (c->s->face_up[m->target[0]][m->slot[0]])
    return ILLEGAL (c, "K14", ENG_N_ ("an X-Ray is used on a hidden cat; this one is face up"));
  return ENG_OK;
}

static EngStatus
do_xray (KatCtx *c, const EngMove *m)
{
  KatState *s = c->s;
  EngStatus st = xray_valid (c, m);
  if (st != ENG_OK)
    return st;
  st = identify_slot (c, m->target[0], m->slot[0], m->show, "K14");
  if (st != ENG_OK)
    return st;
  s->face_up[m->target[0]][m->slot[0]] = 1;
  shown (c, m->target[0], m->slot[0], "K14", false);
  ev_add (c, ENG_EVENT_NEED, m->target[0], "K14",
          ENG_N_ ("%s: leave your cat in slot %d face up until it is abducted or removed"),
          pname (s, m->target[0]), m->slot[0] + 1);
  return ENG_OK;
}

/* K10 option "answerable": the rival whose cat an X-Ray or a Teleporter
 * targets may answer before it acts; -1 when nobody may. */
static int
answerer_for (const KatCtx *c, const EngMove *m, int verb)
{
  if (!c->r->xray_teleporter_answerable || c->s->phase != KAT_PHASE_TURN)
    return -1;
  if (verb == KAT_XRAY)
    return m->target[0];
  for (int i = 0; i < 2; i++)
    if (m->target[i] >= 0 && m->target[i] != m->player)
      return m->target[i];
  return -1;
}

/* Plays an X-Ray or a Teleporter already taken from the hand: at once, or
 * held for the rival's answer (K10 option). */
static EngStatus
play_xray_or_teleport (KatCtx *c, const EngMove *m, uint8_t idx, int verb, const char *rule,
                       int rep_after)
{
  KatState *s = c->s;
  int who = answerer_for (c, m, verb);
  EngStatus st;
  if (who < 0)
    {
      st = verb == KAT_XRAY ? do_xray (c, m) : do_teleport (c, m, rule);
      if (st == ENG_OK)
        to_discard (s, idx);
      return st;
    }
  st = verb == KAT_XRAY ? xray_valid (c, m) : teleport_valid (c, m, rule);
  if (st != ENG_OK)
    return st;
  s->in_play[s->in_play_n++] = idx;
  s->answer_player = (uint8_t) who;
  s->answer_verb = (uint8_t) verb;
  s->answer_card = idx;
  s->answer_actor = (uint8_t) m->player;
  s->answer_rep_count = (uint8_t) rep_after;
  for (int i = 0; i < 2; i++)
    {
      s->answer_p[i] = m->target[i];
      s->answer_s[i] = m->slot[i];
    }
  s->phase = KAT_PHASE_ANSWER;
  ev_add (c, ENG_EVENT_NOTE, who, "K10", ENG_N_ ("%s may answer the %s before it acts"),
          pname (s, who), answered_card_name (c, verb));
  return ENG_OK;
}

/* K10 option: the answering rival lets the held card act ("hit"). */
static EngStatus
resolve_answer (KatCtx *c, uint16_t show)
{
  KatState *s = c->s;
  EngMove pm;
  eng_move_init (&pm, s->answer_verb, s->answer_actor);
  for (int i = 0; i < 2; i++)
    {
      pm.target[i] = s->answer_p[i];
      pm.slot[i] = s->answer_s[i];
    }
  pm.show = show;
  EngStatus st;
  if (s->answer_verb == KAT_XRAY && s->face_up[pm.target[0]][pm.slot[0]])
    {
      ev_add (c, ENG_EVENT_NOTE, pm.target[0], "K10",
              ENG_N_ ("The cat now in %s's slot %d is already face up: the X-Ray shows "
                      "nothing new"),
              pname (s, pm.target[0]), pm.slot[0] + 1);
      st = ENG_OK;
    }
  else
    st = s->answer_verb == KAT_XRAY ? do_xray (c, &pm) : do_teleport (c, &pm, "K8");
  if (st != ENG_OK)
    return st;
  discard_from_play (s, s->answer_card);
  s->phase = KAT_PHASE_TURN;
  uint8_t count = s->answer_rep_count;
  katua_set_rep (s, s->answer_verb, s->answer_actor, 0, 0, false);
  s->rep_count = count;
  return ENG_OK;
}

/* K11 */
static EngStatus
do_hit (KatCtx *c, uint16_t show)
{
  KatState *s = c->s;
  const KatAttempt a = s->att[0];
  EngStatus st = identify_slot (c, a.player, a.slot, show, "K11");
  if (st != ENG_OK)
    return st;
  bool was_down = !s->face_up[a.player][a.slot];
  uint8_t k = s->slot[a.player][a.slot];
  if (was_down)
    shown (c, a.player, a.slot, "K11", false);
  discard_from_play (s, a.card);
  if (attracts (c->r, a.colour, k))
    capture (c, a.launcher, a.player, a.slot, "K11");
  else
    {
      ev_add (c, ENG_EVENT_STAYED, a.player, "K11",
              ENG_N_ ("The %s beam does not attract the %s: the cat escapes and the UFO is "
                      "discarded"),
              colour_name (c, a.colour), card_label (c, k));
      if (was_down)
        ev_add (c, ENG_EVENT_NEED, a.player, "K11",
                ENG_N_ ("%s: turn your cat in slot %d face down again"), pname (s, a.player),
                a.slot + 1);
    }
  pop_attempt (c);
  return ENG_OK;
}

/* ---- the move dispatcher ---------------------------------------------- */

/* K3: a discard of UFO cards face down is the whole turn. */
static EngStatus
play_discard (KatCtx *c, const EngMove *m)
{
  KatState *s = c->s;
  int a = m->player;
  uint8_t idx;
  if (s->played_any)
    return ILLEGAL (c, "K3", ENG_N_ ("discarding is a whole turn: %s already played cards"),
                    pname (s, a));
  uint16_t list[1 + ENG_MOVE_MAX_CARDS];
  int nl = 0;
  list[nl++] = m->card;
  for (int i = 0; i < m->n_cards; i++)
    list[nl++] = m->cards[i];
  for (int i = 0; i < nl; i++)
    {
      EngStatus st = hand_take (c, a, list[i], &idx);
      if (st != ENG_OK)
        return st;
      to_discard (s, idx);
    }
  ev_add (c, ENG_EVENT_NOTE, a, "K3",
          ENG_NG_ ("%s discards %d UFO card face down and ends the turn",
                   "%s discards %d UFO cards face down and ends the turn", nl == 1 ? 1 : 2),
          pname (s, a), nl);
  end_turn (c);
  return ENG_OK;
}

/* K4: an abduction UFO aimed at a rival's cat; the defender answers next
 * (K5-K7). */
static EngStatus
play_attack (KatCtx *c, const EngMove *m)
{
  KatState *s = c->s;
  const KatRules *r = c->r;
  int a = m->player;
  uint8_t idx;
  if (s->abduction_used)
    return ILLEGAL (c, "K3", ENG_N_ ("only one abduction card per turn"));
  if (m->target[0] == a)
    return ILLEGAL (c, "K12", ENG_N_ ("your own cats are abducted only with the Hook"));
  EngStatus st = check_slot (c, m->target[0], m->slot[0], "K4");
  if (st != ENG_OK)
    return st;
  if (m->card != 0 && m->card != ENG_SERIAL_UNKNOWN
      && katua_card_index (r, m->card) != KAT_NONE
      && r->cards[katua_card_index (r, m->card)].kind == KAT_KIND_HOOK)
    return ILLEGAL (c, "K12",
                    ENG_N_ ("the Hook is played on one of your own cats (verb hook)"));
  st = hand_take_kind (c, a, m->card, KAT_KIND_ABDUCTION, KAT_ACT_NONE, "K3",
                       ENG_N_ ("abduction UFO"), &idx);
  if (st != ENG_OK)
    return st;
  s->in_play[s->in_play_n++] = idx;
  s->att[0] = (KatAttempt) { (uint8_t) a, (uint8_t) m->target[0], (uint8_t) m->slot[0],
                             r->cards[idx].colour, idx };
  s->n_att = 1;
  s->abduction_used = 1;
  s->phase = KAT_PHASE_ATTACK;
  katua_set_rep (s, KAT_ATTACK, a, r->cards[idx].colour, m->target[0], true);
  ev_add (c, ENG_EVENT_NOTE, a, "K4", ENG_N_ ("%s aims a %s beam at %s's cat in slot %d"),
          pname (s, a), colour_name (c, r->cards[idx].colour), pname (s, m->target[0]),
          m->slot[0] + 1);
  return ENG_OK;
}

/* K12: the Hook on one of the player's own cats; the rivals may intercept
 * next. */
static EngStatus
play_hook (KatCtx *c, const EngMove *m)
{
  KatState *s = c->s;
  int a = m->player;
  uint8_t idx;
  if (s->abduction_used)
    return ILLEGAL (c, "K3", ENG_N_ ("only one abduction card per turn (the Hook counts)"));
  if (m->target[0] != a)
    return ILLEGAL (c, "K12", ENG_N_ ("the Hook is played on one of your own cats"));
  EngStatus st = check_slot (c, a, m->slot[0], "K12");
  if (st != ENG_OK)
    return st;
  st = hand_take_kind (c, a, m->card, KAT_KIND_HOOK, KAT_ACT_NONE, "K12", ENG_N_ ("Hook"),
                       &idx);
  if (st != ENG_OK)
    return st;
  s->in_play[s->in_play_n++] = idx;
  s->hook_card = idx;
  s->hook_slot = (uint8_t) m->slot[0];
  s->hook_rival = -1;
  s->hook_ufo = KAT_NONE;
  s->hook_answered = 0;
  s->abduction_used = 1;
  s->phase = KAT_PHASE_HOOK;
  katua_set_rep (s, KAT_VERB_COUNT, 0, 0, 0, false);
  return ENG_OK;
}

static EngStatus
apply_turn_card (KatCtx *c, const EngMove *m)
{
  KatState *s = c->s;
  int a = m->player;
  uint8_t idx;
  EngStatus st;
  switch (m->verb)
    {
    case KAT_PASS:
      if (s->played_any)
        return ILLEGAL (c, "K3", ENG_N_ ("a pass plays no card; %s already played: end the turn"),
                        pname (s, a));
      ev_add (c, ENG_EVENT_NOTE, a, "K3", ENG_N_ ("%s passes"), pname (s, a));
      end_turn (c);
      return ENG_OK;
    case KAT_END:
      end_turn (c);
      return ENG_OK;
    case KAT_DISCARD:
      return play_discard (c, m);
    case KAT_ATTACK:
      return play_attack (c, m);
    case KAT_HOOK:
      return play_hook (c, m);
    case KAT_XRAY:
      st = hand_take_kind (c, a, m->card, KAT_KIND_ACTION, KAT_ACT_XRAY, "K14", ENG_N_ ("X-Ray"),
                           &idx);
      if (st == ENG_OK)
        st = play_xray_or_teleport (c, m, idx, KAT_XRAY, "K14", 0);
      if (st != ENG_OK)
        return st;
      if (s->phase == KAT_PHASE_TURN)
        katua_set_rep (s, KAT_XRAY, a, 0, 0, false);
      return ENG_OK;
    case KAT_TELEPORT:
      st = hand_take_kind (c, a, m->card, KAT_KIND_ACTION, KAT_ACT_TELEPORTER, "K8",
                           ENG_N_ ("Teleporter"), &idx);
      if (st == ENG_OK)
        st = play_xray_or_teleport (c, m, idx, KAT_TELEPORT, "K8", 0);
      if (st != ENG_OK)
        return st;
      if (s->phase == KAT_PHASE_TURN)
        katua_set_rep (s, KAT_TELEPORT, a, 0, 0, false);
      return ENG_OK;
    case KAT_STAMPEDE:
      if (m->target[0] < 0 || m->target[0] >= s->n_players)
        return ILLEGAL (c, "K9", ENG_N_ ("name the player whose cats stampede"));
      st = hand_take_kind (c, a, m->card, KAT_KIND_ACTION, KAT_ACT_STAMPEDE, "K9",
                           ENG_N_ ("Stampede"),
                           &idx);
      if (st != ENG_OK)
        return st;
      to_discard (s, idx);
      katua_set_rep (s, KAT_STAMPEDE, a, 0, 0, false);
      stampede (c, m->target[0]);
      return ENG_OK;
    default:
      return ILLEGAL (c, "K3", ENG_N_ ("'%s' is not a move of %s's own turn here"),
                      katua_verbs[m->verb],
                      pname (s, a));
    }
}

static EngStatus
apply_replicate (KatCtx *c, const EngMove *m)
{
  KatState *s = c->s;
  int a = m->player;
  if (s->rep_effect == KAT_VERB_COUNT || s->rep_player != a)
    return ILLEGAL (c, "K13", ENG_N_ ("a Replicator copies the UFO card its player has just played "
                                      "(never the Hook)"));
  if (s->rep_count >= 2)
    return ILLEGAL (c, "K13", ENG_N_ ("at most two Replicators copy one card (a triple)"));
  uint8_t idx;
  EngStatus st = hand_take_kind (c, a, m->card, KAT_KIND_ACTION, KAT_ACT_REPLICATOR, "K13",
                                 ENG_N_ ("Replicator"), &idx);
  if (st != ENG_OK)
    return st;
  uint8_t effect = s->rep_effect;
  /* the copy takes the arguments of the card it copies */
  bool t0 = m->target[0] >= 0, s0 = m->slot[0] >= 0, t1 = m->target[1] >= 0;
  bool shape = effect == KAT_TELEPORT ? t0 && s0 && t1 && m->slot[1] >= 0 && !m->show
               : effect == KAT_STAMPEDE ? t0 && !s0 && !t1 && !m->show
               : effect == KAT_NEUTRALISE ? !t0 && !t1
               : effect == KAT_XRAY ? t0 && s0 && !t1
               : t0 && s0 && !t1 && !m->show;
  if (!shape)
    return ILLEGAL (c, "K13", ENG_N_ ("a Replicator takes the targets of the card it copies (%s)"),
                    katua_verbs[effect]);
  switch (effect)
    {
    case KAT_ATTACK:
      {
        if (!s->rep_open || s->phase != KAT_PHASE_ATTACK)
          return ILLEGAL (c, "K13", ENG_N_ ("a Replicator goes with the abduction card, before any "
                                            "defence"));
        if (m->target[0] != s->rep_rival)
          return ILLEGAL (c, "K13", ENG_N_ ("a replicated abduction targets the same rival, %s"),
                          pname (s, s->rep_rival));
        st = check_slot (c, m->target[0], m->slot[0], "K13");
        if (st != ENG_OK)
          return st;
        for (int i = 0; i < s->n_att; i++)
          if (s->att[i].player == m->target[0] && s->att[i].slot == m->slot[0])
            return ILLEGAL (c, "K13", ENG_N_ ("a replicated abduction targets a different cat"));
        if (s->n_att >= KAT_MAX_ATTEMPTS)
          return ILLEGAL (c, "K13", ENG_N_ ("too many attempts at once"));
        s->in_play[s->in_play_n++] = idx;
        s->att[s->n_att++] = (KatAttempt) { (uint8_t) a, (uint8_t) m->target[0],
                                            (uint8_t) m->slot[0], s->rep_colour, idx };
        ev_add (c, ENG_EVENT_NOTE, a, "K13",
                ENG_N_ ("%s's Replicator aims another %s beam at %s's cat in slot %d"),
                pname (s, a), colour_name (c, s->rep_colour),
                pname (s, m->target[0]), m->slot[0] + 1);
        break;
      }
    case KAT_XRAY:
    case KAT_TELEPORT:
      st = play_xray_or_teleport (c, m, idx, effect, effect == KAT_XRAY ? "K14" : "K13",
                                  s->rep_count + 1);
      if (st != ENG_OK)
        return st;
      break;
    case KAT_STAMPEDE:
      if (m->target[0] < 0 || m->target[0] >= s->n_players)
        return ILLEGAL (c, "K9", ENG_N_ ("name the player whose cats stampede"));
      if (s->phase == KAT_PHASE_ATTACK && m->target[0] != a)
        return ILLEGAL (c, "K9", ENG_N_ ("in defence a Stampede renews the defender's own cats"));
      to_discard (s, idx);
      s->rep_count++;
      stampede (c, m->target[0]);
      return ENG_OK;
    case KAT_NEUTRALISE:
      if (s->phase != KAT_PHASE_ATTACK || s->att[0].player != a)
        return ILLEGAL (c, "K13", ENG_N_ ("no second attempt against %s to answer"), pname (s, a));
      s->rep_count++;
      return do_neutralise (c, idx, s->rep_colour, m->show, a);
    case KAT_SHIELD:
      {
        /* the Shield already turned its own beam at the attacker, so the
         * attempt the copy answers is the next one still aimed at `a` */
        int i = katua_shield_copy_attempt (s, a);
        if (i < 0)
          return ILLEGAL (c, "K13", ENG_N_ ("no second attempt against %s to answer"),
                          pname (s, a));
        st = do_shield_redirect (c, i, m->target[0], m->slot[0], true);
      }
      if (st != ENG_OK)
        return st;
      to_discard (s, idx);
      break;
    default:
      return ILLEGAL (c, "K13", ENG_N_ ("that card cannot be replicated"));
    }
  s->rep_count++;
  return ENG_OK;
}


/* A Teleporter played to answer (an abduction's defence, or an X-Ray or
 * Teleporter under the K10 option): the swap, then the card is spent and
 * becomes what a Replicator would copy (K8, K13). */
static EngStatus
answer_with_teleporter (KatCtx *c, const EngMove *m, uint8_t player)
{
  uint8_t idx;
  EngStatus st = hand_take_kind (c, player, m->card, KAT_KIND_ACTION, KAT_ACT_TELEPORTER, "K8",
                                 ENG_N_ ("Teleporter"), &idx);
  if (st == ENG_OK)
    st = do_teleport (c, m, "K8");
  if (st != ENG_OK)
    return st;
  to_discard (c->s, idx);
  katua_set_rep (c->s, KAT_TELEPORT, player, 0, 0, false);
  return ENG_OK;
}

static EngStatus
apply_defence (KatCtx *c, const EngMove *m)
{
  KatState *s = c->s;
  int d = m->player;
  KatAttempt *a = &s->att[0];
  if (d != a->player)
    return ILLEGAL (c, "K6", ENG_N_ ("only the owner of the targeted cat, %s, defends"),
                    pname (s, a->player));
  uint8_t idx;
  EngStatus st;
  s->rep_open = 0;
  switch (m->verb)
    {
    case KAT_HIT:
      katua_set_rep (s, KAT_VERB_COUNT, 0, 0, 0, false);
      return do_hit (c, m->show);
    case KAT_NEUTRALISE:
      {
        if (m->card != 0 && m->card != ENG_SERIAL_UNKNOWN
            && katua_card_index (c->r, m->card) != KAT_NONE
            && c->r->cards[katua_card_index (c->r, m->card)].kind == KAT_KIND_HOOK)
          return ILLEGAL (c, "K5", ENG_N_ ("the Hook cannot neutralise a beam"));
        st = hand_take_kind (c, d, m->card, KAT_KIND_ABDUCTION, KAT_ACT_NONE, "K5",
                             ENG_N_ ("abduction UFO"), &idx);
        if (st != ENG_OK)
          return st;
        unsigned colour = c->r->cards[idx].colour;
        st = do_neutralise (c, idx, colour, m->show, d);
        if (st != ENG_OK)
          return st;
        katua_set_rep (s, KAT_NEUTRALISE, d, (int) colour, 0, false);
        return ENG_OK;
      }
    case KAT_SHIELD:
      st = hand_take_kind (c, d, m->card, KAT_KIND_ACTION, KAT_ACT_SHIELD, "K7", ENG_N_ ("Shield"),
                           &idx);
      if (st == ENG_OK)
        st = do_shield_redirect (c, 0, m->target[0], m->slot[0], false);
      if (st != ENG_OK)
        return st;
      to_discard (s, idx);
      katua_set_rep (s, KAT_SHIELD, d, 0, 0, false);
      return ENG_OK;
    case KAT_TELEPORT:
      return answer_with_teleporter (c, m, d);
    case KAT_STAMPEDE:
      if (m->target[0] != d)
        return ILLEGAL (c, "K9", ENG_N_ ("in defence a Stampede renews the defender's own cats"));
      st = hand_take_kind (c, d, m->card, KAT_KIND_ACTION, KAT_ACT_STAMPEDE, "K9",
                           ENG_N_ ("Stampede"),
                           &idx);
      if (st != ENG_OK)
        return st;
      to_discard (s, idx);
      katua_set_rep (s, KAT_STAMPEDE, d, 0, 0, false);
      stampede (c, d);
      return ENG_OK;
    case KAT_XRAY:
      return ILLEGAL (c, "K6", ENG_N_ ("an X-Ray is not a defence card"));
    default:
      return ILLEGAL (c, "K6", ENG_N_ ("'%s' does not answer an abduction attempt"),
                      katua_verbs[m->verb]);
    }
}

static EngStatus
apply_hook_phase (KatCtx *c, const EngMove *m)
{
  KatState *s = c->s;
  int p = m->player;
  uint8_t idx;
  EngStatus st;
  if (m->verb == KAT_INTERCEPT)
    {
      if (p == s->active)
        return ILLEGAL (c, "K12", ENG_N_ ("only rivals answer a Hook"));
      unsigned bit = 1u << p;
      if (s->hook_answered & bit)
        return ILLEGAL (c, "K12", ENG_N_ ("each rival answers a Hook with one abduction card"));
      if (m->card != 0 && m->card != ENG_SERIAL_UNKNOWN
          && katua_card_index (c->r, m->card) != KAT_NONE
          && c->r->cards[katua_card_index (c->r, m->card)].kind == KAT_KIND_HOOK)
        return ILLEGAL (c, "K12", ENG_N_ ("a Hook is answered with an abduction beam, not a Hook"));
      if (s->hook_rival >= 0)
        {
          /* too late: the card goes back; validate that it exists, then
           * put it back where it was */
          KatState copy = *s;
          KatCtx tmp = { c->r, &copy, NULL, c->why };
          st = hand_take_kind (&tmp, p, m->card, KAT_KIND_ABDUCTION, KAT_ACT_NONE, "K12",
                               ENG_N_ ("abduction UFO"), &idx);
          if (st != ENG_OK)
            return st;
          s->hook_answered = (uint8_t) (s->hook_answered | bit);
          ev_add (c, ENG_EVENT_RETURN, p, "K12",
                  ENG_N_ ("%s: take your UFO back into your hand; only %s's, placed first, counts"),
                  pname (s, p), pname (s, s->hook_rival));
          return ENG_OK;
        }
      st = hand_take_kind (c, p, m->card, KAT_KIND_ABDUCTION, KAT_ACT_NONE, "K12",
                           ENG_N_ ("abduction UFO"), &idx);
      if (st != ENG_OK)
        return st;
      s->hook_answered = (uint8_t) (s->hook_answered | bit);
      s->in_play[s->in_play_n++] = idx;
      s->hook_rival = (int8_t) p;
      s->hook_ufo = idx;
      ev_add (c, ENG_EVENT_NOTE, p, "K12", ENG_N_ ("%s answers the Hook with a %s beam"),
              pname (s, p),
              colour_name (c, c->r->cards[idx].colour));
      return ENG_OK;
    }
  if (m->verb != KAT_FLIP)
    return ILLEGAL (c, "K12", ENG_N_ ("nothing else is played until the Hook resolves"));
  if (p != s->active)
    return ILLEGAL (c, "K12", ENG_N_ ("%s, who played the Hook, turns the cat over"),
                    pname (s, s->active));
  int slot = s->hook_slot;
  st = identify_slot (c, p, slot, m->show, "K12");
  if (st != ENG_OK)
    return st;
  if (!s->face_up[p][slot])
    shown (c, p, slot, "K12", false);
  uint8_t k = s->slot[p][slot];
  discard_from_play (s, s->hook_card);
  if (s->hook_rival >= 0)
    {
      int rival = s->hook_rival;
      unsigned colour = c->r->cards[s->hook_ufo].colour;
      discard_from_play (s, s->hook_ufo);
      if (attracts (c->r, colour, k))
        capture (c, rival, p, slot, "K12");
      else
        {
          ev_add (c, ENG_EVENT_NOTE, rival, "K12",
                  ENG_N_ ("%s's %s beam misses: %s's UFO is discarded"),
                  pname (s, rival), colour_name (c, colour), pname (s, rival));
          capture (c, p, p, slot, "K12");
        }
    }
  else
    capture (c, p, p, slot, "K12");
  s->hook_rival = -1;
  s->hook_answered = 0;
  s->phase = KAT_PHASE_TURN;
  return ENG_OK;
}

static EngStatus
apply_quick_start (KatCtx *c, const EngMove *m)
{
  KatState *s = c->s;
  int p = m->player;
  if (m->verb != KAT_REVEAL)
    return ILLEGAL (c, "K19",
                    ENG_N_ ("Quick Start: before the first turn each player shows one cat"));
  if ((s->quick_start_done >> p) & 1)
    return ILLEGAL (c, "K19", ENG_N_ ("%s has already shown a cat"), pname (s, p));
  if (m->target[0] != p)
    return ILLEGAL (c, "K19", ENG_N_ ("each player shows one of their own cats"));
  EngStatus st = check_slot (c, p, m->slot[0], "K19");
  if (st == ENG_OK)
    st = identify_slot (c, p, m->slot[0], m->show, "K19");
  if (st != ENG_OK)
    return st;
  shown (c, p, m->slot[0], "K19", true);
  s->quick_start_done = (uint8_t) (s->quick_start_done | (1u << p));
  if (s->quick_start_done == (1u << s->n_players) - 1)
    {
      s->quick_start_done = 0;
      s->turn = 0;
      katua_begin_turn (c, s->first);
    }
  return ENG_OK;
}

/* K10 option: the rival answers a held X-Ray or Teleporter with Teleporters
 * (K6's only defence card that needs no beam; K9 rules out the Stampede), or
 * lets it act with "hit". */
static EngStatus
apply_answer (KatCtx *c, const EngMove *m)
{
  KatState *s = c->s;
  int p = m->player;
  if (p != s->answer_player)
    return ILLEGAL (c, "K10", ENG_N_ ("%s may first answer the %s"), pname (s, s->answer_player),
                    answered_card_name (c, s->answer_verb));
  switch (m->verb)
    {
    case KAT_HIT:
      return resolve_answer (c, m->show);
    case KAT_TELEPORT:
      return answer_with_teleporter (c, m, (uint8_t) p);
    case KAT_REPLICATE:
      return apply_replicate (c, m);
    case KAT_STAMPEDE:
      return ILLEGAL (c, "K9", ENG_N_ ("a Stampede cannot answer an X-Ray or a Teleporter"));
    default:
      return ILLEGAL (c, "K10", ENG_N_ ("answer with a Teleporter, or let the card act (hit)"));
    }
}

static EngStatus
dispatch (KatCtx *c, const EngMove *m)
{
  KatState *s = c->s;
  if (m->player < 0 || m->player >= s->n_players)
    return ILLEGAL (c, "turn", ENG_N_ ("no such player"));
  if (m->verb >= KAT_VERB_COUNT || m->n_cards > ENG_MOVE_MAX_CARDS)
    return ILLEGAL (c, "turn", ENG_N_ ("unknown move"));
  for (int i = 0; i < 2; i++)
    if (m->target[i] >= s->n_players || (m->target[i] >= 0 && m->slot[i] >= KAT_SLOTS))
      return ILLEGAL (c, "turn", ENG_N_ ("no such player or slot"));
  switch (s->phase)
    {
    case KAT_PHASE_OVER:
      return refuse (c, ENG_ERR_STATE, "K15", ENG_N_ ("the game is over"));
    case KAT_PHASE_QUICK_START:
      return apply_quick_start (c, m);
    case KAT_PHASE_HOOK:
      return apply_hook_phase (c, m);
    case KAT_PHASE_ANSWER:
      return apply_answer (c, m);
    case KAT_PHASE_ATTACK:
      if (m->verb == KAT_REPLICATE)
        return apply_replicate (c, m);
      if (m->player != s->att[0].player)
        return ILLEGAL (c, "K6", ENG_N_ ("%s must first defend or let the beam hit"),
                        pname (s, s->att[0].player));
      return apply_defence (c, m);
    case KAT_PHASE_TURN:
      if (m->player != s->active)
        {
          if ((s->rep_effect == KAT_XRAY || s->rep_effect == KAT_TELEPORT)
              && m->verb != KAT_PASS && m->verb != KAT_END && m->verb != KAT_DISCARD)
            return ILLEGAL (c, m->verb == KAT_STAMPEDE ? "K9" : "K10",
                            m->verb == KAT_STAMPEDE
                              ? ENG_N_ ("an X-Ray or a Teleporter cannot be answered (and a "
                                        "Stampede never answers them)")
                              : ENG_N_ ("an X-Ray or a Teleporter cannot be answered"));
          return ILLEGAL (c, "K21", ENG_N_ ("it is %s's turn"), pname (s, s->active));
        }
      if (m->verb == KAT_REPLICATE)
        {
          EngStatus st = apply_replicate (c, m);
          if (st == ENG_OK)
            s->played_any = 1;
          return st;
        }
      if (m->verb == KAT_NEUTRALISE || m->verb == KAT_SHIELD || m->verb == KAT_HIT)
        return ILLEGAL (c, "K6", ENG_N_ ("there is no abduction attempt to answer"));
      if (m->verb == KAT_INTERCEPT || m->verb == KAT_FLIP)
        return ILLEGAL (c, "K12", ENG_N_ ("there is no Hook to answer"));
      if (m->verb == KAT_REVEAL)
        return ILLEGAL (c, "K19", ENG_N_ ("cats are shown only in a Quick Start"));
      {
        bool plays = m->verb != KAT_PASS && m->verb != KAT_END && m->verb != KAT_DISCARD;
        katua_set_rep (s, KAT_VERB_COUNT, 0, 0, 0, false);
        EngStatus st = apply_turn_card (c, m);
        if (st == ENG_OK && plays && s->phase != KAT_PHASE_OVER)
          s->played_any = 1;
        return st;
      }
    default:
      return ILLEGAL (c, "turn", ENG_N_ ("not allowed now"));
    }
}

/* EngGameClass.play: the core's transaction (eng-play.h) hands over the
 * scratch copy; dispatch words its own refusal of a move outside the table
 * (play_checks_shape). */
EngStatus
katua_play (EngPlay *play, const EngMove *move)
{
  KatCtx c = { play->rules, play->state, play->events, play->why };
  EngStatus st = dispatch (&c, move);
  if (st == ENG_OK)
    katua_need_for_phase (&c);
  return st;
}

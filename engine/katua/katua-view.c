/* katua-view.c: what everyone at a Katua table may see (eng-view.h), and
 * card names in the table's language.  Only faces that are up now are
 * named: a face-down cat is a back even when the referee knows it (K20). */
#include <stdio.h>
#include <string.h>

#include "eng-i18n.h"
#include "eng-view.h"
#include "katua-private.h"

/* Colour words agree with the noun in Spanish and Catalan ("ovni rojo",
 * "luz roja"), so a UFO's colour and a cat's have their own contexts. */
static const char *
ufo_colour_words (unsigned colour)
{
  switch (colour)
    {
    case KAT_RED: return ENG_C_ ("UFO", "red");
    case KAT_BLUE: return ENG_C_ ("UFO", "blue");
    case KAT_YELLOW: return ENG_C_ ("UFO", "yellow");
    case KAT_TRICOLOR: return ENG_C_ ("UFO", "tricolor");
    default: return ENG_C_ ("UFO", "colourless");
    }
}

static const char *
cat_colour_words (unsigned colour)
{
  switch (colour)
    {
    case KAT_RED: return ENG_C_ ("cat", "red");
    case KAT_BLUE: return ENG_C_ ("cat", "blue");
    case KAT_YELLOW: return ENG_C_ ("cat", "yellow");
    case KAT_TRICOLOR: return ENG_C_ ("cat", "tricolor");
    default: return ENG_C_ ("cat", "colourless");
    }
}

const char *
katua_colour_words (unsigned colour, bool cat)
{
  return cat ? cat_colour_words (colour) : ufo_colour_words (colour);
}

static bool
holds (const uint8_t *cards, unsigned n, uint8_t idx)
{
  for (unsigned i = 0; i < n; i++)
    if (cards[i] == idx)
      return true;
  return false;
}

/* Open: a cat face up in its slot or captured, a UFO or action card on the
 * table or the discard pile.  Hands, decks and face-down cats are not. */
bool
katua_card_public (const void *rules, const void *state, unsigned serial)
{
  const KatState *s = state;
  uint8_t idx = katua_card_index (rules, serial);
  if (idx == KAT_NONE)
    return false;
  for (unsigned p = 0; p < s->n_players && p < KAT_MAX_PLAYERS; p++)
    {
      for (unsigned k = 0; k < KAT_SLOTS; k++)
        if (s->slot[p][k] == idx && s->face_up[p][k])
          return true;
      if (holds (s->captured[p], s->captured_n[p], idx))
        return true;
    }
  return holds (s->in_play, s->in_play_n, idx) || holds (s->discard, s->discard_n, idx);
}

void
katua_card_name (const void *rules, unsigned serial, bool definite, char *buf, size_t size)
{
  const KatRules *r = rules;
  uint8_t idx = katua_card_index (r, serial);
  if (idx == KAT_NONE)
    {
      snprintf (buf, size, definite ? ENG_ ("the card %u") : ENG_ ("card %u"), serial);
      return;
    }
  const KatCard *c = &r->cards[idx];
  const char *word;
  switch (c->kind)
    {
    case KAT_KIND_ABDUCTION:
      snprintf (buf, size, definite ? ENG_ ("the %s UFO") : ENG_ ("%s UFO"),
                ufo_colour_words (c->colour));
      return;
    case KAT_KIND_CAT:
      snprintf (buf, size, definite ? ENG_ ("the %s cat") : ENG_ ("%s cat"),
                cat_colour_words (c->colour));
      return;
    case KAT_KIND_FAKE:
      word = definite ? ENG_ ("the fake cat") : ENG_ ("fake cat");
      break;
    case KAT_KIND_HOOK:
      word = definite ? ENG_ ("the Hook") : ENG_ ("Hook");
      break;
    default:
      switch (c->action)
        {
        case KAT_ACT_SHIELD: word = definite ? ENG_ ("the Shield") : ENG_ ("Shield"); break;
        case KAT_ACT_REPLICATOR:
          word = definite ? ENG_ ("the Replicator") : ENG_ ("Replicator");
          break;
        case KAT_ACT_TELEPORTER:
          word = definite ? ENG_ ("the Teleporter") : ENG_ ("Teleporter");
          break;
        case KAT_ACT_XRAY: word = definite ? ENG_ ("the X-Ray") : ENG_ ("X-Ray"); break;
        case KAT_ACT_STAMPEDE: word = definite ? ENG_ ("the Stampede") : ENG_ ("Stampede"); break;
        default: word = definite ? ENG_ ("the UFO") : ENG_ ("UFO");
        }
    }
  snprintf (buf, size, "%s", word);
}

static const char *
phase_words (const KatState *s)
{
  switch (s->phase)
    {
    case KAT_PHASE_QUICK_START: return ENG_ ("each player shows one cat (Quick Start)");
    case KAT_PHASE_TURN: return ENG_ ("playing");
    case KAT_PHASE_ATTACK: return ENG_ ("an abduction is being defended");
    case KAT_PHASE_HOOK: return ENG_ ("the Hook: rivals may answer");
    case KAT_PHASE_ANSWER: return ENG_ ("answering an action");
    default: return "";
    }
}

void
katua_public_view (const void *rules, const void *state, const EngSetup *setup, EngView *view)
{
  const KatRules *r = rules;
  const KatState *s = state;
  (void) setup;
  view->scored = true;
  view->over = s->phase == KAT_PHASE_OVER;
  view->winners = view->over ? s->winners : 0;
  view->active = view->over ? -1 : (int8_t) s->active;
  view->deciding = (int8_t) katua_game_class.to_move (rules, state);
  snprintf (view->phase, sizeof view->phase, "%s", phase_words (s));
  for (unsigned p = 0; p < s->n_players && p < view->n_players; p++)
    {
      EngViewPlayer *vp = &view->players[p];
      vp->score = s->score[p];
      vp->hand = s->hand_n[p];
      if (p == s->active && !view->over)
        vp->flags |= ENG_VIEW_PLAYER_ACTIVE;
      if ((int) p == view->deciding)
        vp->flags |= ENG_VIEW_PLAYER_DECIDING;
      if (view->winners & (1u << p))
        vp->flags |= ENG_VIEW_PLAYER_WINNER;
      EngViewPlace *slots = eng_view_add_player_place (vp, ENG_ ("Slots"));
      for (unsigned k = 0; k < KAT_SLOTS; k++)
        {
          int pub = katua_public_slot (r, s, p, k);
          eng_view_place_add (slots, pub > 0 ? (uint16_t) pub : 0, KAT_DECK_CAT, pub < 0);
        }
      EngViewPlace *caught = eng_view_add_player_place (vp, ENG_ ("Captured"));
      for (unsigned i = 0; i < s->captured_n[p]; i++)
        if (s->captured[p][i] < r->n_cards)
          eng_view_place_add (caught, r->cards[s->captured[p][i]].serial, KAT_DECK_CAT, false);
      if (caught != NULL)
        caught->count = s->captured_n[p];
    }
  EngViewPlace *cats = eng_view_add_shared (view, ENG_ ("Cat deck"));
  if (cats != NULL)
    cats->count = s->cat_deck_n;
  EngViewPlace *ufos = eng_view_add_shared (view, ENG_ ("UFO deck"));
  if (ufos != NULL)
    ufos->count = s->ufo_deck_n;
  EngViewPlace *pile = eng_view_add_shared (view, ENG_ ("Discard pile"));
  if (pile != NULL)
    {
      if (s->discard_n > 0 && s->discard[s->discard_n - 1] < r->n_cards)
        eng_view_place_add (pile, r->cards[s->discard[s->discard_n - 1]].serial, KAT_DECK_UFO,
                            false);
      pile->count = s->discard_n;
    }
}

bool
katua_class_random_move (const void *rules, const void *state, EngRng *rng, EngMove *out)
{
  return katua_random_move (rules, state, rng, out);
}

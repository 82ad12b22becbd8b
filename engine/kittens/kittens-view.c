/* kittens-view.c: what everyone at an Exploding Kittens table may see
 * (eng-view.h), and card names in the table's language.  Only faces that
 * are up now are named (the discard pile, the open card, an eliminated
 * player's kitten); hands and the pile are counts, with the chance that
 * the next draw is a kitten, which everyone can work out (E16). */
#include <stdio.h>
#include <string.h>

#include "eng-i18n.h"
#include "kittens-private.h"

/* A kind's three names in English, marked for the catalogue: bare
 * ("Attack"), with the definite article ("the Attack": Spanish and Catalan
 * agree it with the name, "l'Atac") and with the indefinite one ("an
 * Attack", what the table hears: "Ana plays an Attack"). */
typedef struct {
  const char *bare, *the, *a;
} KindNames;

#define NAMES(bare, the, a) ((KindNames){ (bare), (the), (a) })

static KindNames
kind_names (unsigned kind, unsigned cat, unsigned depth)
{
  switch (kind)
    {
    case KIT_KIND_KITTEN:
      return NAMES (ENG_N_ ("Exploding Kitten"), ENG_N_ ("the Exploding Kitten"),
                    ENG_N_ ("an Exploding Kitten"));
    case KIT_KIND_DEFUSE:
      return NAMES (ENG_N_ ("Defuse"), ENG_N_ ("the Defuse"),
                    ENG_N_ ("a Defuse"));
    case KIT_KIND_NOPE:
      return NAMES (ENG_N_ ("Nope"), ENG_N_ ("the Nope"),
                    ENG_N_ ("a Nope"));
    case KIT_KIND_ATTACK:
      return NAMES (ENG_N_ ("Attack"), ENG_N_ ("the Attack"),
                    ENG_N_ ("an Attack"));
    case KIT_KIND_SKIP:
      return NAMES (ENG_N_ ("Skip"), ENG_N_ ("the Skip"),
                    ENG_N_ ("a Skip"));
    case KIT_KIND_FAVOR:
      return NAMES (ENG_N_ ("Favor"), ENG_N_ ("the Favor"),
                    ENG_N_ ("a Favor"));
    case KIT_KIND_SHUFFLE:
      return NAMES (ENG_N_ ("Shuffle"), ENG_N_ ("the Shuffle"),
                    ENG_N_ ("a Shuffle"));
    case KIT_KIND_SEE:
      return depth > 3 ? NAMES (ENG_N_ ("See the Future x5"), ENG_N_ ("the See the Future x5"),
                                ENG_N_ ("a See the Future x5"))
                       : NAMES (ENG_N_ ("See the Future"), ENG_N_ ("the See the Future"),
                                ENG_N_ ("a See the Future"));
    case KIT_KIND_CAT:
      switch (cat)
        {
        case 1:
          return NAMES (ENG_N_ ("Black cat"), ENG_N_ ("the Black cat"),
                        ENG_N_ ("a Black cat"));
        case 2:
          return NAMES (ENG_N_ ("White cat"), ENG_N_ ("the White cat"),
                        ENG_N_ ("a White cat"));
        case 3:
          return NAMES (ENG_N_ ("Grey cat"), ENG_N_ ("the Grey cat"),
                        ENG_N_ ("a Grey cat"));
        case 4:
          return NAMES (ENG_N_ ("Tabby cat"), ENG_N_ ("the Tabby cat"),
                        ENG_N_ ("a Tabby cat"));
        default:
          return NAMES (ENG_N_ ("Blond cat"), ENG_N_ ("the Blond cat"),
                        ENG_N_ ("a Blond cat"));
        }
    case KIT_KIND_TARGETED:
      return NAMES (ENG_N_ ("Targeted Attack"), ENG_N_ ("the Targeted Attack"),
                    ENG_N_ ("a Targeted Attack"));
    case KIT_KIND_TRIPLE:
      return NAMES (ENG_N_ ("Triple Attack"), ENG_N_ ("the Triple Attack"),
                    ENG_N_ ("a Triple Attack"));
    case KIT_KIND_SUPER_SKIP:
      return NAMES (ENG_N_ ("Super Skip"), ENG_N_ ("the Super Skip"),
                    ENG_N_ ("a Super Skip"));
    case KIT_KIND_BOTTOM:
      return NAMES (ENG_N_ ("Draw from the Bottom"), ENG_N_ ("the Draw from the Bottom"),
                    ENG_N_ ("a Draw from the Bottom"));
    case KIT_KIND_ALTER:
      return depth > 3 ? NAMES (ENG_N_ ("Alter the Future (5)"), ENG_N_ ("the Alter the Future (5)"),
                                ENG_N_ ("an Alter the Future (5)"))
                       : NAMES (ENG_N_ ("Alter the Future (3)"), ENG_N_ ("the Alter the Future (3)"),
                                ENG_N_ ("an Alter the Future (3)"));
    case KIT_KIND_REVERSE:
      return NAMES (ENG_N_ ("Reverse"), ENG_N_ ("the Reverse"),
                    ENG_N_ ("a Reverse"));
    case KIT_KIND_SWAP:
      return NAMES (ENG_N_ ("Swap Top and Bottom"), ENG_N_ ("the Swap Top and Bottom"),
                    ENG_N_ ("a Swap Top and Bottom"));
    case KIT_KIND_BURY:
      return NAMES (ENG_N_ ("Bury"), ENG_N_ ("the Bury"),
                    ENG_N_ ("a Bury"));
    case KIT_KIND_PERSONAL:
      return NAMES (ENG_N_ ("Personal Attack"), ENG_N_ ("the Personal Attack"),
                    ENG_N_ ("a Personal Attack"));
    case KIT_KIND_FERAL:
      return NAMES (ENG_N_ ("Feral Cat"), ENG_N_ ("the Feral Cat"),
                    ENG_N_ ("a Feral Cat"));
    default:
      return NAMES (ENG_N_ ("card"), ENG_N_ ("the card"),
                    ENG_N_ ("a card"));
    }
}

const char *
kittens_kind_words (unsigned kind, unsigned cat, unsigned depth)
{
  return ENG_ (kind_names (kind, cat, depth).bare);
}

static const char *
definite_words (unsigned kind, unsigned cat, unsigned depth)
{
  return ENG_ (kind_names (kind, cat, depth).the);
}

const char *
kittens_kind_a (unsigned kind, unsigned cat, unsigned depth)
{
  return ENG_ (kind_names (kind, cat, depth).a);
}

/* Open: the discard pile, the card or combo laid and waiting for Nopes, the
 * Exploding Kitten shown when drawn, and an eliminated player's kitten (E14).
 * Hands, the draw pile and the box are not, whatever was seen of them (E16). */
bool
kittens_card_public (const void *rules, const void *state, unsigned serial)
{
  const KitState *s = state;
  uint8_t idx = kittens_card_index (rules, serial);
  if (idx == KIT_NONE || idx == KIT_UNKNOWN)
    return false;
  for (unsigned i = 0; i < s->discard_n; i++)
    if (s->discard[i] == idx)
      return true;
  for (unsigned i = 0; s->open != KIT_OPEN_NONE && i < s->open_n; i++)
    if (s->open_cards[i] == idx)
      return true;
  for (unsigned p = 0; p < s->n_players && p < KIT_MAX_PLAYERS; p++)
    if (s->out_kitten[p] == idx)
      return true;
  return (s->phase == KIT_PHASE_KITTEN || s->phase == KIT_PHASE_PLACE) && s->kitten == idx;
}

void
kittens_card_name (const void *rules, unsigned serial, bool definite, char *buf, size_t size)
{
  const KitRules *r = rules;
  uint8_t k = kittens_card_index (r, serial);
  if (k == KIT_NONE)
    {
      snprintf (buf, size, definite ? ENG_ ("the card %u") : ENG_ ("card %u"), serial);
      return;
    }
  const KitCard *c = &r->cards[k];
  snprintf (buf, size, "%s", definite ? definite_words (c->kind, c->cat, c->depth)
                                       : kittens_kind_words (c->kind, c->cat, c->depth));
}

static unsigned
gcd (unsigned a, unsigned b)
{
  while (b != 0)
    {
      unsigned t = a % b;
      a = b;
      b = t;
    }
  return a;
}

void
kittens_chance_words (unsigned kittens, unsigned cards, char *buf, size_t size)
{
  if (kittens == 0 || cards == 0)
    {
      snprintf (buf, size, "%s", ENG_C_ ("chance", "none"));
      return;
    }
  if (kittens > cards)
    kittens = cards;
  unsigned g = gcd (kittens, cards);
  /* rounded to the nearest whole percent, never "0 %" for a real chance */
  unsigned percent = (200u * kittens + cards) / (2u * cards);
  if (percent == 0)
    snprintf (buf, size, ENG_ ("%u in %u (under 1%%)"), kittens / g, cards / g);
  else
    snprintf (buf, size, ENG_ ("%u in %u (%u%%)"), kittens / g, cards / g, percent);
}

static const char *
phase_words (const KitState *s)
{
  switch (s->phase)
    {
    case KIT_PHASE_TURN:
      return s->open != KIT_OPEN_NONE ? ENG_ ("a card is open: anyone may Nope it")
                                      : ENG_ ("playing");
    case KIT_PHASE_GIVE: return ENG_ ("a card is being given");
    case KIT_PHASE_TAKE: return ENG_ ("taking a card from the discard pile");
    case KIT_PHASE_KITTEN: return ENG_ ("an Exploding Kitten is drawn");
    case KIT_PHASE_PLACE: return ENG_ ("the kitten goes back into the pile");
    default: return "";
    }
}

static void
fill_player (const KitRules *r, const KitState *s, unsigned p, EngView *view)
{
  EngViewPlayer *vp = &view->players[p];
  bool alive = (s->alive >> p) & 1;
  vp->score = alive ? 1 : 0;
  vp->hand = s->hand_n[p];
  if (!alive)
    vp->flags |= ENG_VIEW_PLAYER_OUT;
  if (p == s->active && !view->over)
    {
      vp->flags |= ENG_VIEW_PLAYER_ACTIVE;
      if (s->owed > 1 || s->under_attack)
        snprintf (vp->status, sizeof vp->status,
                  ENG_NG_ ("owes %u turn", "owes %u turns", s->owed), (unsigned) s->owed);
    }
  if ((int) p == view->deciding)
    vp->flags |= ENG_VIEW_PLAYER_DECIDING;
  if (view->winners & (1u << p))
    vp->flags |= ENG_VIEW_PLAYER_WINNER;
  if (!alive && s->out_kitten[p] < r->n_cards)
    {
      EngViewPlace *out = eng_view_add_player_place (vp, ENG_ ("Exploded"));
      eng_view_place_add (out, r->cards[s->out_kitten[p]].serial, 0, false);
    }
}

void
kittens_public_view (const void *rules, const void *state, const EngSetup *setup, EngView *view)
{
  const KitRules *r = rules;
  const KitState *s = state;
  (void) setup;
  view->scored = false;
  view->over = s->phase == KIT_PHASE_OVER;
  view->winners = view->over ? (uint16_t) (1u << s->winner) : 0;
  view->active = view->over ? -1 : (int8_t) s->active;
  view->deciding = (int8_t) kittens_game_class.to_move (rules, state);
  snprintf (view->phase, sizeof view->phase, "%s", phase_words (s));
  for (unsigned p = 0; p < s->n_players && p < view->n_players; p++)
    fill_player (r, s, p, view);

  EngViewPlace *pile = eng_view_add_shared (view, ENG_ ("Draw pile"));
  if (pile != NULL)
    pile->count = s->pile_n;
  EngViewPlace *discard = eng_view_add_shared (view, ENG_ ("Discard pile"));
  if (discard != NULL)
    {
      if (s->discard_n > 0)
        eng_view_place_add (discard, r->cards[s->discard[s->discard_n - 1]].serial, 0, false);
      discard->count = s->discard_n;
    }
  if (s->open != KIT_OPEN_NONE)
    {
      EngViewPlace *open = eng_view_add_shared (view, ENG_ ("Open to Nope"));
      for (unsigned i = 0; open != NULL && i < s->open_n; i++)
        eng_view_place_add (open, r->cards[s->open_cards[i]].serial, 0, false);
    }
  if (s->phase == KIT_PHASE_KITTEN || s->phase == KIT_PHASE_PLACE)
    {
      EngViewPlace *kitten = eng_view_add_shared (view, ENG_ ("Kitten drawn"));
      if (kitten != NULL && s->kitten < r->n_cards)
        eng_view_place_add (kitten, r->cards[s->kitten].serial, 0, false);
    }
  EngViewPanel *panel = eng_view_add_panel (view, ENG_ ("Exploding Kittens"));
  if (panel == NULL)
    return;
  eng_view_add_row (panel, ENG_ ("Turns owed"), "%u", view->over ? 0u : (unsigned) s->owed);
  eng_view_add_row (panel, ENG_ ("Kittens left in the pile"), "%u", (unsigned) s->pile_kittens);
  eng_view_add_row (panel, ENG_ ("Cards in the pile"), "%u", (unsigned) s->pile_n);
  char chance[64];
  kittens_chance_words (s->pile_kittens, s->pile_n, chance, sizeof chance);
  eng_view_add_row (panel, ENG_ ("Chance the next card is a kitten"), "%s", chance);
  if (s->open != KIT_OPEN_NONE)
    eng_view_add_row (panel, ENG_ ("Nopes on the open card"), "%u", (unsigned) s->nopes);
}

bool
kittens_class_random_move (const void *rules, const void *state, EngRng *rng, EngMove *out)
{
  return kittens_random_move (rules, state, rng, out);
}

/* katua.c: Katua rules.  Rule ids in verdicts and events are the rulings of
 * RULINGS.md (K1-K21); "set" marks a card the set does not know, "turn" a
 * move by the wrong player.
 *
 * Every move is applied to a scratch copy of the state, which replaces the
 * real one only when the whole move is legal: a refused move changes
 * nothing, and `check` is "apply to a copy".
 */
#include "katua-private.h"

#include "eng-i18n.h"
#include "eng-play.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const katua_verbs[KAT_VERB_COUNT] = {
  [KAT_PASS] = "pass", [KAT_END] = "end", [KAT_DISCARD] = "discard",
  [KAT_ATTACK] = "attack", [KAT_HOOK] = "hook", [KAT_INTERCEPT] = "intercept",
  [KAT_FLIP] = "flip", [KAT_XRAY] = "xray", [KAT_TELEPORT] = "teleport",
  [KAT_STAMPEDE] = "stampede", [KAT_REPLICATE] = "replicate",
  [KAT_NEUTRALISE] = "neutralise", [KAT_SHIELD] = "shield", [KAT_HIT] = "hit",
  [KAT_REVEAL] = "reveal",
};

/* ---- rules from the card set and options ------------------------------ */

static EngStatus
bool_option (const EngOptions *o, const char *name, bool def, bool *out, EngParseError *err)
{
  const char *v = eng_options_get (o, name);
  if (v == NULL)
    {
      *out = def;
      return ENG_OK;
    }
  if (strcmp (v, "yes") == 0 || strcmp (v, "true") == 0 || strcmp (v, "on") == 0)
    *out = true;
  else if (strcmp (v, "no") == 0 || strcmp (v, "false") == 0 || strcmp (v, "off") == 0)
    *out = false;
  else
    {
      eng_parse_error_set (err, "options", 0, "option %s: '%s' is not yes or no", name, v);
      return ENG_ERR_SYNTAX;
    }
  return ENG_OK;
}

static const char *const known_options[] = {
  "xray_teleporter_answerable", "ufo_deck_out", "total_memory", "quick_start",
  "winning_score",
};

static EngStatus
katua_rules_new (const EngCardSet *set, const EngOptions *options, void **out,
                 EngParseError *err)
{
  *out = NULL;
  if (set == NULL || strcmp (eng_card_set_game (set), "katua") != 0)
    {
      eng_parse_error_set (err, "card set", 0, "not a Katua card set");
      return ENG_ERR_INVALID_ARGUMENT;
    }
  KatRules *r = calloc (1, sizeof *r);
  if (r == NULL)
    return ENG_ERR_NO_MEMORY;
  r->set = set;
  memset (r->by_serial, KAT_NONE, sizeof r->by_serial);
  size_t n = eng_card_set_n_cards (set);
  EngStatus st = ENG_OK;
  for (size_t i = 0; i < n && st == ENG_OK; i++)
    {
      const EngCard *c = eng_card_set_card (set, i);
      const EngDeck *d = eng_card_set_deck (set, c->deck);
      const char *kind = eng_card_attr (c, "kind");
      const char *colour = eng_card_attr (c, "colour");
      const char *action = eng_card_attr (c, "action");
      KatCard k = { .serial = c->serial };
      if (d == NULL || kind == NULL || c->serial >= 1000)
        {
          eng_parse_error_set (err, "card set", 0, "card %u has no deck or kind", c->serial);
          st = ENG_ERR_INCONSISTENT;
          break;
        }
      k.deck = strcmp (d->id, "cat") == 0 ? KAT_DECK_CAT : KAT_DECK_UFO;
      if (strcmp (kind, "cat") == 0) k.kind = KAT_KIND_CAT;
      else if (strcmp (kind, "fake") == 0) k.kind = KAT_KIND_FAKE;
      else if (strcmp (kind, "abduction") == 0) k.kind = KAT_KIND_ABDUCTION;
      else if (strcmp (kind, "hook") == 0) k.kind = KAT_KIND_HOOK;
      else if (strcmp (kind, "action") == 0) k.kind = KAT_KIND_ACTION;
      else
        {
          eng_parse_error_set (err, "card set", 0, "card %u: unknown kind '%s'", c->serial, kind);
          st = ENG_ERR_INCONSISTENT;
          break;
        }
      if (colour != NULL)
        {
          if (strcmp (colour, "red") == 0) k.colour = KAT_RED;
          else if (strcmp (colour, "blue") == 0) k.colour = KAT_BLUE;
          else if (strcmp (colour, "yellow") == 0) k.colour = KAT_YELLOW;
          else if (strcmp (colour, "tricolor") == 0) k.colour = KAT_TRICOLOR;
        }
      if (action != NULL)
        {
          if (strcmp (action, "shield") == 0) k.action = KAT_ACT_SHIELD;
          else if (strcmp (action, "replicator") == 0) k.action = KAT_ACT_REPLICATOR;
          else if (strcmp (action, "teleporter") == 0) k.action = KAT_ACT_TELEPORTER;
          else if (strcmp (action, "xray") == 0) k.action = KAT_ACT_XRAY;
          else if (strcmp (action, "stampede") == 0) k.action = KAT_ACT_STAMPEDE;
        }
      long v = 0;
      if (eng_card_attr_int (c, "value", &v) == ENG_OK)
        k.value = (int8_t) v;
      bool is_cat = k.kind == KAT_KIND_CAT || k.kind == KAT_KIND_FAKE;
      if (is_cat != (k.deck == KAT_DECK_CAT) || (k.kind == KAT_KIND_CAT && k.colour == 0)
          || (k.kind == KAT_KIND_ABDUCTION && k.colour == 0)
          || (k.kind == KAT_KIND_ACTION && k.action == KAT_ACT_NONE))
        {
          eng_parse_error_set (err, "card set", 0,
                               "card %u: kind, deck, colour and action do not fit Katua",
                               c->serial);
          st = ENG_ERR_INCONSISTENT;
          break;
        }
      if (k.deck == KAT_DECK_CAT ? r->n_cats >= KAT_MAX_CATS : r->n_ufos >= KAT_MAX_UFOS)
        {
          eng_parse_error_set (err, "card set", 0, "too many cards for the Katua engine "
                               "(at most %d cats and %d UFOs)", KAT_MAX_CATS, KAT_MAX_UFOS);
          st = ENG_ERR_LIMIT;
          break;
        }
      if (k.deck == KAT_DECK_CAT)
        r->n_cats++;
      else
        r->n_ufos++;
      r->by_serial[k.serial] = r->n_cards;
      r->cards[r->n_cards++] = k;
    }
  if (st == ENG_OK && (r->n_cats < 3 || r->n_ufos < 3))
    {
      eng_parse_error_set (err, "card set", 0, "a Katua set needs cats and UFO cards");
      st = ENG_ERR_INCONSISTENT;
    }
  /* options */
  if (st == ENG_OK && options != NULL)
    for (size_t i = 0; i < options->n && st == ENG_OK; i++)
      {
        bool ok = false;
        for (size_t k = 0; k < sizeof known_options / sizeof known_options[0]; k++)
          ok = ok || strcmp (options->items[i].name, known_options[k]) == 0;
        if (!ok)
          {
            eng_parse_error_set (err, "options", 0, "unknown Katua option '%s'",
                                 options->items[i].name);
            st = ENG_ERR_UNKNOWN_ATTRIBUTE;
          }
      }
  if (st == ENG_OK)
    st = bool_option (options, "xray_teleporter_answerable", false,
                      &r->xray_teleporter_answerable, err);
  if (st == ENG_OK)
    st = bool_option (options, "total_memory", false, &r->total_memory, err);
  if (st == ENG_OK)
    st = bool_option (options, "quick_start", false, &r->quick_start, err);
  if (st == ENG_OK)
    {
      const char *v = eng_options_get (options, "ufo_deck_out");
      if (v == NULL || strcmp (v, "reshuffle") == 0)
        r->ufo_deck_out = KAT_UFO_OUT_RESHUFFLE;
      else if (strcmp (v, "no-draw") == 0)
        r->ufo_deck_out = KAT_UFO_OUT_NO_DRAW;
      else if (strcmp (v, "end") == 0)
        r->ufo_deck_out = KAT_UFO_OUT_END;
      else
        {
          eng_parse_error_set (err, "options", 0,
                               "ufo_deck_out: '%s' is not reshuffle, no-draw or end", v);
          st = ENG_ERR_SYNTAX;
        }
    }
  if (st == ENG_OK)
    {
      const char *v = eng_options_get (options, "winning_score");
      r->winning_score = 7;
      if (v != NULL)
        {
          char *end = NULL;
          long w = strtol (v, &end, 10);
          if (end == v || *end != '\0' || w < 1 || w > 100)
            {
              eng_parse_error_set (err, "options", 0, "winning_score: '%s' is not 1-100", v);
              st = ENG_ERR_SYNTAX;
            }
          else
            r->winning_score = (uint8_t) w;
        }
    }
  if (st != ENG_OK)
    {
      free (r);
      return st;
    }
  *out = r;
  return ENG_OK;
}

static void
katua_rules_free (void *rules)
{
  free (rules);
}

uint8_t
katua_card_index (const KatRules *r, unsigned serial)
{
  return serial < 1000 ? r->by_serial[serial] : KAT_NONE;
}

/* ---- small helpers ---------------------------------------------------- */

typedef struct {
  const KatRules *r;
  KatState *s;
  EngEvents *ev;     /* NULL: no text at all (fast path) */
  EngVerdict *why;
  char names[2][64]; /* card_label's: two names fit one sentence */
  unsigned next_name;
} Ctx;

static const char *
pname (const KatState *s, int p)
{
  return (p >= 0 && p < s->n_players) ? s->names[p] : "?";
}

static bool has_words (const Ctx *c);

/* A card's name in the table's language as the game says it ("red cat"),
 * a cat with its value (what tells copies of a colour apart).  Not the card
 * set's label: that is the sticker's English caption.  Valid until the
 * next call but one; empty on the fast path, which formats no text. */
static const char *
card_label (Ctx *c, uint8_t idx)
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
has_words (const Ctx *c)
{
  return c->ev != NULL || c->why != NULL;
}

/* Colour words agree with what they qualify in some languages ("luz roja"
 * but "gato rojo"), so each noun has its own: a beam's colour ... */
static const char *
colour_name (const Ctx *c, unsigned colour)
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
ufo_colour_name (const Ctx *c, unsigned colour)
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
cat_colour_name (const Ctx *c, unsigned colour)
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
answered_card_name (const Ctx *c, unsigned verb)
{
  if (!has_words (c))
    return verb == KAT_XRAY ? "X-Ray" : "Teleporter";
  return verb == KAT_XRAY ? ENG_ ("X-Ray") : ENG_ ("Teleporter");
}

/* Refusals and events through the core (eng-play.h): English formats
 * marked ENG_N_ at the call, translated only when text is formatted. */
#define refuse(c, st, rule, ...) eng_verdict_refuse ((c)->why, (st), (rule), __VA_ARGS__)
#define ILLEGAL(c, rule, ...) refuse ((c), ENG_ERR_ILLEGAL, (rule), __VA_ARGS__)
#define ev_add(c, ...) eng_events_say ((c)->ev, __VA_ARGS__)

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
hand_take (Ctx *c, int p, uint16_t serial, uint8_t *idx)
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
hand_take_kind (Ctx *c, int p, uint16_t serial, int kind, int action, const char *rule,
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
identify_slot (Ctx *c, int p, int slot, uint16_t show, const char *rule)
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
check_slot (Ctx *c, int p, int slot, const char *rule)
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

static const char *const tiebreak_names[] = { "score", "authentic-ranks", "fewest-fakes", "shared" };

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
game_over (Ctx *c, KatEndReason why)
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
      snprintf (e->tiebreak, sizeof e->tiebreak, "%s", tiebreak_names[s->tiebreak]);
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
draw_cat (Ctx *c, uint8_t *out)
{
  KatState *s = c->s;
  if (s->cat_deck_n == 0)
    return false;
  *out = s->cat_deck[--s->cat_deck_n];
  return true;
}

/* ---- effects ---------------------------------------------------------- */

static void
capture (Ctx *c, int taker, int p, int slot, const char *rule)
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
    ? ev_add (c, ENG_EVENT_CAPTURE, taker, rule,
              ENG_N_ ("%s captures their own cat from slot %d: %s"), pname (s, taker), slot + 1,
              card_label (c, k))
    : ev_add (c, ENG_EVENT_CAPTURE, taker, rule, ENG_N_ ("%s captures %s's cat from slot %d: %s"),
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
shown (Ctx *c, int p, int slot, const char *rule, bool back_down)
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
stampede (Ctx *c, int p)
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

static void
need_for_phase (Ctx *c)
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

static void
set_rep (KatState *s, int verb, int player, int colour, int rival, bool open)
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

static void
begin_turn (Ctx *c, int p)
{
  KatState *s = c->s;
  s->active = (uint8_t) p;
  s->phase = KAT_PHASE_TURN;
  s->abduction_used = 0;
  s->played_any = 0;
  s->turn++;
  set_rep (s, KAT_VERB_COUNT, 0, 0, 0, false);
  ev_add (c, ENG_EVENT_TURN, p, "K21", ENG_N_ ("%s's turn"), pname (s, p));
}

static void
end_turn (Ctx *c)
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
      EngEvent *e = ev_add (c, ENG_EVENT_REFILL, s->active, "K15", "%s", text);
      if (e != NULL)
        memcpy (e->counts, counts, sizeof counts);
    }
  begin_turn (c, (s->active + 1) % n);
}

/* ---- abduction attempts ----------------------------------------------- */

static void
pop_attempt (Ctx *c)
{
  KatState *s = c->s;
  memmove (&s->att[0], &s->att[1], (size_t) (s->n_att - 1) * sizeof s->att[0]);
  s->n_att--;
  /* an attempt whose slot emptied meanwhile has nothing to hit */
  while (s->n_att > 0 && s->slot[s->att[0].player][s->att[0].slot] == KAT_NONE)
    {
      ev_add (c, ENG_EVENT_ESCAPE, s->att[0].player, "K11",
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
static EngStatus
neutralise_ok (Ctx *c, const KatAttempt *a, unsigned ufo_colour, uint16_t show, bool *forced)
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
do_neutralise (Ctx *c, uint8_t ufo, unsigned colour, uint16_t show, int defender)
{
  KatState *s = c->s;
  bool forced = false;
  EngStatus st = neutralise_ok (c, &s->att[0], colour, show, &forced);
  if (st != ENG_OK)
    return st;
  const KatAttempt a = s->att[0];
  if (forced)
    shown (c, a.player, a.slot, "K5", true);
  to_discard (s, ufo);
  discard_from_play (s, a.card);
  ev_add (c, ENG_EVENT_ESCAPE, defender, "K5",
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
do_shield_redirect (Ctx *c, int i, int p, int slot, bool copy)
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
teleport_valid (Ctx *c, const EngMove *m, const char *rule)
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
do_teleport (Ctx *c, const EngMove *m, const char *rule)
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
xray_valid (Ctx *c, const EngMove *m)
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
do_xray (Ctx *c, const EngMove *m)
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
answerer_for (const Ctx *c, const EngMove *m, int verb)
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
play_xray_or_teleport (Ctx *c, const EngMove *m, uint8_t idx, int verb, const char *rule,
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
resolve_answer (Ctx *c, uint16_t show)
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
  set_rep (s, s->answer_verb, s->answer_actor, 0, 0, false);
  s->rep_count = count;
  return ENG_OK;
}

/* K11 */
static EngStatus
do_hit (Ctx *c, uint16_t show)
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
      ev_add (c, ENG_EVENT_ESCAPE, a.player, "K11",
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

static EngStatus
apply_turn_card (Ctx *c, const EngMove *m)
{
  KatState *s = c->s;
  const KatRules *r = c->r;
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
      {
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
            st = hand_take (c, a, list[i], &idx);
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
    case KAT_ATTACK:
      {
        if (s->abduction_used)
          return ILLEGAL (c, "K3", ENG_N_ ("only one abduction card per turn"));
        if (m->target[0] == a)
          return ILLEGAL (c, "K12", ENG_N_ ("your own cats are abducted only with the Hook"));
        st = check_slot (c, m->target[0], m->slot[0], "K4");
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
        set_rep (s, KAT_ATTACK, a, r->cards[idx].colour, m->target[0], true);
        ev_add (c, ENG_EVENT_NOTE, a, "K4", ENG_N_ ("%s aims a %s beam at %s's cat in slot %d"),
                pname (s, a), colour_name (c, r->cards[idx].colour), pname (s, m->target[0]),
                m->slot[0] + 1);
        return ENG_OK;
      }
    case KAT_HOOK:
      {
        if (s->abduction_used)
          return ILLEGAL (c, "K3", ENG_N_ ("only one abduction card per turn (the Hook counts)"));
        if (m->target[0] != a)
          return ILLEGAL (c, "K12", ENG_N_ ("the Hook is played on one of your own cats"));
        st = check_slot (c, a, m->slot[0], "K12");
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
        set_rep (s, KAT_VERB_COUNT, 0, 0, 0, false);
        return ENG_OK;
      }
    case KAT_XRAY:
      st = hand_take_kind (c, a, m->card, KAT_KIND_ACTION, KAT_ACT_XRAY, "K14", ENG_N_ ("X-Ray"),
                           &idx);
      if (st == ENG_OK)
        st = play_xray_or_teleport (c, m, idx, KAT_XRAY, "K14", 0);
      if (st != ENG_OK)
        return st;
      if (s->phase == KAT_PHASE_TURN)
        set_rep (s, KAT_XRAY, a, 0, 0, false);
      return ENG_OK;
    case KAT_TELEPORT:
      st = hand_take_kind (c, a, m->card, KAT_KIND_ACTION, KAT_ACT_TELEPORTER, "K8",
                           ENG_N_ ("Teleporter"), &idx);
      if (st == ENG_OK)
        st = play_xray_or_teleport (c, m, idx, KAT_TELEPORT, "K8", 0);
      if (st != ENG_OK)
        return st;
      if (s->phase == KAT_PHASE_TURN)
        set_rep (s, KAT_TELEPORT, a, 0, 0, false);
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
      set_rep (s, KAT_STAMPEDE, a, 0, 0, false);
      stampede (c, m->target[0]);
      return ENG_OK;
    default:
      return ILLEGAL (c, "K3", ENG_N_ ("'%s' is not a move of %s's own turn here"),
                      katua_verbs[m->verb],
                      pname (s, a));
    }
}

static EngStatus
apply_replicate (Ctx *c, const EngMove *m)
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
answer_with_teleporter (Ctx *c, const EngMove *m, uint8_t player)
{
  uint8_t idx;
  EngStatus st = hand_take_kind (c, player, m->card, KAT_KIND_ACTION, KAT_ACT_TELEPORTER, "K8",
                                 ENG_N_ ("Teleporter"), &idx);
  if (st == ENG_OK)
    st = do_teleport (c, m, "K8");
  if (st != ENG_OK)
    return st;
  to_discard (c->s, idx);
  set_rep (c->s, KAT_TELEPORT, player, 0, 0, false);
  return ENG_OK;
}

static EngStatus
apply_defence (Ctx *c, const EngMove *m)
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
      set_rep (s, KAT_VERB_COUNT, 0, 0, 0, false);
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
        set_rep (s, KAT_NEUTRALISE, d, (int) colour, 0, false);
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
      set_rep (s, KAT_SHIELD, d, 0, 0, false);
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
      set_rep (s, KAT_STAMPEDE, d, 0, 0, false);
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
apply_hook_phase (Ctx *c, const EngMove *m)
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
          Ctx tmp = { c->r, &copy, NULL, c->why };
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
apply_quick_start (Ctx *c, const EngMove *m)
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
      begin_turn (c, s->first);
    }
  return ENG_OK;
}

/* K10 option: the rival answers a held X-Ray or Teleporter with Teleporters
 * (K6's only defence card that needs no beam; K9 rules out the Stampede), or
 * lets it act with "hit". */
static EngStatus
apply_answer (Ctx *c, const EngMove *m)
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
dispatch (Ctx *c, const EngMove *m)
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
        set_rep (s, KAT_VERB_COUNT, 0, 0, 0, false);
        EngStatus st = apply_turn_card (c, m);
        if (st == ENG_OK && plays && s->phase != KAT_PHASE_OVER)
          s->played_any = 1;
        return st;
      }
    default:
      return ILLEGAL (c, "turn", ENG_N_ ("not allowed now"));
    }
}

static EngStatus
katua_apply (const void *rules, void *state, const EngMove *move, EngEvents *events,
             EngVerdict *why)
{
  const KatRules *r = rules;
  KatState *s = state;
  KatState tmp = *s;
  size_t mark = events ? events->n : 0;
  EngVerdict local;
  if (why == NULL)
    why = &local;
  why->rule[0] = why->reason[0] = '\0';
  if (events != NULL)
    eng_events_say (events, ENG_EVENT_ACCEPTED, move->player, "", "%s %s",
                    pname (s, move->player), move->verb < KAT_VERB_COUNT ? katua_verbs[move->verb] : "?");
  Ctx c = { r, &tmp, events, why };
  EngStatus st = dispatch (&c, move);
  if (st != ENG_OK)
    {
      if (events != NULL)
        {
          events->n = mark;
          EngEvent *e = eng_events_addf (events, st == ENG_ERR_CONSERVATION
                                         ? ENG_EVENT_CONSERVATION : ENG_EVENT_ILLEGAL,
                                         why->rule, "%s", why->reason);
          if (e != NULL)
            e->player = move->player;
        }
      return st;
    }
  need_for_phase (&c);
  *s = tmp;
  return ENG_OK;
}

static EngStatus
katua_check (const void *rules, const void *state, const EngMove *move, EngVerdict *why)
{
  KatState tmp = *(const KatState *) state;
  return katua_apply (rules, &tmp, move, NULL, why);
}

/* ---- setup ------------------------------------------------------------ */

typedef struct {
  uint8_t items[KAT_MAX_CARDS];
  int n;
} Pool;

/* Takes a card for a position the setup did not fix: a real card when the
 * game is dealt from a seed, an unknown token otherwise.  false when the
 * pool is empty. */
static bool
pool_take (Pool *pool, bool omniscient, uint8_t *out)
{
  if (pool->n == 0)
    return false;
  pool->n--;
  *out = omniscient ? pool->items[pool->n] : KAT_UNKNOWN;
  return true;
}

#define setup_refuse(why, rule, ...) \
  eng_verdict_refuse ((why), ENG_ERR_INVALID_ARGUMENT, (rule), __VA_ARGS__)

static EngStatus
katua_setup (const void *rules, const EngSetup *su, const EngRng *rng, void *state,
             EngEvents *events, EngVerdict *why)
{
  const KatRules *r = rules;
  KatState *s = state;
  if (su->n_players < 2 || su->n_players > KAT_MAX_PLAYERS)
    return setup_refuse (why, "players", ENG_N_ ("Katua is for 2 to 4 players, not %u"),
                         su->n_players);
  memset (s, 0, sizeof *s);
  s->n_players = (uint8_t) su->n_players;
  for (unsigned p = 0; p < su->n_players; p++)
    snprintf (s->names[p], sizeof s->names[p], "%s", su->names[p]);
  s->rng = *rng;
  s->omniscient = su->has_seed;
  s->hook_rival = -1;
  set_rep (s, KAT_VERB_COUNT, 0, 0, 0, false);
  if (su->first >= 0 && su->last_winner >= 0 && su->first != su->last_winner)
    return setup_refuse (why, "K21", ENG_N_ ("in later games the last winner, %s, starts"),
                         su->names[su->last_winner]);
  int first = su->first >= 0 ? su->first : su->last_winner >= 0 ? su->last_winner : 0;
  if (first >= (int) su->n_players)
    return setup_refuse (why, "K21", ENG_N_ ("no such first player"));
  s->first = (uint8_t) first;

  /* which cards the deal lines fix */
  bool used[KAT_MAX_CARDS] = { false };
  const EngDeal *slots_of[KAT_MAX_PLAYERS] = { NULL }, *hand_of[KAT_MAX_PLAYERS] = { NULL };
  const EngDeal *captured_of[KAT_MAX_PLAYERS] = { NULL };
  const EngDeal *cat_top = NULL, *ufo_top = NULL, *discard = NULL;
  for (size_t i = 0; i < su->n_deals; i++)
    {
      const EngDeal *d = &su->deals[i];
      const EngDeal **slotp = NULL;
      int deck = KAT_DECK_CAT, cap = KAT_SLOTS;
      bool per_player = true, unknown_ok = true;
      if (strcmp (d->place, "slots") == 0)
        slotp = &slots_of[d->player < 0 ? 0 : d->player];
      else if (strcmp (d->place, "hand") == 0)
        slotp = &hand_of[d->player < 0 ? 0 : d->player], deck = KAT_DECK_UFO, cap = KAT_HAND;
      else if (strcmp (d->place, "captured") == 0)
        slotp = &captured_of[d->player < 0 ? 0 : d->player], cap = KAT_MAX_CATS,
        unknown_ok = false;
      else if (strcmp (d->place, "cat-deck") == 0)
        slotp = &cat_top, per_player = false, cap = KAT_MAX_CATS;
      else if (strcmp (d->place, "ufo-deck") == 0)
        slotp = &ufo_top, per_player = false, cap = KAT_MAX_UFOS, deck = KAT_DECK_UFO;
      else if (strcmp (d->place, "discard") == 0)
        slotp = &discard, per_player = false, cap = KAT_MAX_UFOS, deck = KAT_DECK_UFO,
        unknown_ok = false;
      else
        return setup_refuse (why, "setup", "unknown place '%s' (slots, hand, captured, "
                             "cat-deck, ufo-deck, discard)", d->place);
      if (per_player != (d->player >= 0))
        return setup_refuse (why, "setup", "deal %s %s a player's name", d->place,
                             per_player ? "needs" : "takes no");
      if (d->player >= (int) su->n_players)
        return setup_refuse (why, "setup", "no such player");
      if (*slotp != NULL)
        return setup_refuse (why, "setup", "place %s dealt twice", d->place);
      if (d->n_cards > cap)
        return setup_refuse (why, "setup", "%s holds at most %d cards", d->place, cap);
      *slotp = d;
      for (unsigned k = 0; k < d->n_cards; k++)
        {
          if (d->cards[k] == ENG_SERIAL_UNKNOWN)
            {
              if (!unknown_ok)
                return setup_refuse (why, "setup", "%s cards are face up: name them", d->place);
              continue;
            }
          uint8_t idx = katua_card_index (r, d->cards[k]);
          if (idx == KAT_NONE)
            return setup_refuse (why, "set", ENG_N_ ("card %u is not in this card set"),
                                 d->cards[k]);
          if (r->cards[idx].deck != deck)
            return setup_refuse (why, "setup", "card %u does not belong in %s", d->cards[k],
                                 d->place);
          if (used[idx])
            {
              if (why != NULL)
                {
                  snprintf (why->rule, sizeof why->rule, "setup");
                  snprintf (why->reason, sizeof why->reason, "card %u dealt twice",
                            d->cards[k]);
                }
              return ENG_ERR_CONSERVATION;
            }
          used[idx] = true;
        }
    }
  Pool cats = { .n = 0 }, ufos = { .n = 0 };
  for (int i = 0; i < r->n_cards; i++)
    if (!used[i])
      {
        if (r->cards[i].deck == KAT_DECK_CAT)
          cats.items[cats.n++] = (uint8_t) i;
        else
          ufos.items[ufos.n++] = (uint8_t) i;
      }
  if (s->omniscient)
    {
      eng_rng_shuffle_u8 (&s->rng, cats.items, (size_t) cats.n);
      eng_rng_shuffle_u8 (&s->rng, ufos.items, (size_t) ufos.n);
    }
  /* captured areas first (scenarios), then slots and hands as dealt */
  for (int p = 0; p < s->n_players; p++)
    if (captured_of[p] != NULL)
      for (unsigned k = 0; k < captured_of[p]->n_cards; k++)
        {
          uint8_t idx = katua_card_index (r, captured_of[p]->cards[k]);
          s->captured[p][s->captured_n[p]++] = idx;
          s->score[p] = (int8_t) (s->score[p] + r->cards[idx].value);
        }
  for (int p = 0; p < s->n_players; p++)
    for (int k = 0; k < KAT_SLOTS; k++)
      {
        uint16_t fixed = slots_of[p] && k < slots_of[p]->n_cards ? slots_of[p]->cards[k] : 0;
        if (fixed != 0 && fixed != ENG_SERIAL_UNKNOWN)
          s->slot[p][k] = katua_card_index (r, fixed);
        else if (!pool_take (&cats, s->omniscient, &s->slot[p][k]))
          return setup_refuse (why, "K16", ENG_N_ ("not enough cats to deal"));
      }
  for (int p = 0; p < s->n_players; p++)
    {
      for (int k = 0; k < KAT_HAND; k++)
        {
          uint16_t fixed = hand_of[p] && k < hand_of[p]->n_cards ? hand_of[p]->cards[k] : 0;
          if (fixed != 0 && fixed != ENG_SERIAL_UNKNOWN)
            s->hand[p][k] = katua_card_index (r, fixed);
          else if (!pool_take (&ufos, s->omniscient, &s->hand[p][k]))
            return setup_refuse (why, "K2", ENG_N_ ("not enough UFO cards to deal"));
        }
      s->hand_n[p] = KAT_HAND;
    }
  if (discard != NULL)
    for (unsigned k = 0; k < discard->n_cards; k++)
      s->discard[s->discard_n++] = katua_card_index (r, discard->cards[k]);
  /* decks: the rest of the pool below the cards a deal line put on top
   * (listed top first) */
  const EngDeal *tops[2] = { cat_top, ufo_top };
  Pool *pools[2] = { &cats, &ufos };
  uint8_t *decks[2] = { s->cat_deck, s->ufo_deck };
  uint8_t *ns[2] = { &s->cat_deck_n, &s->ufo_deck_n };
  for (int d = 0; d < 2; d++)
    {
      int n_top = tops[d] ? tops[d]->n_cards : 0;
      int n_unknown_top = 0;
      for (int k = 0; k < n_top; k++)
        n_unknown_top += tops[d]->cards[k] == ENG_SERIAL_UNKNOWN;
      if (pools[d]->n < n_unknown_top)
        return setup_refuse (why, "setup", "the deck cannot hold that many unseen cards");
      int n = 0;
      int below = pools[d]->n - n_unknown_top;
      for (int k = 0; k < below; k++)
        decks[d][n++] = s->omniscient ? pools[d]->items[k] : KAT_UNKNOWN;
      int next = below;
      for (int k = n_top - 1; k >= 0; k--)
        {
          uint16_t c = tops[d]->cards[k];
          if (c == ENG_SERIAL_UNKNOWN)
            decks[d][n++] = s->omniscient ? pools[d]->items[next++] : KAT_UNKNOWN;
          else
            decks[d][n++] = katua_card_index (r, c);
        }
      *ns[d] = (uint8_t) n;
    }
  Ctx c = { r, s, events, why };
  if (r->total_memory)
    ev_add (&c, ENG_EVENT_NOTE, -1, "K19",
            ENG_N_ ("Total Memory: look at your cats once now; afterwards only a card's effect "
                    "lets you look again"));
  if (r->quick_start)
    s->phase = KAT_PHASE_QUICK_START;
  else
    begin_turn (&c, first);
  need_for_phase (&c);
  return ENG_OK;
}

/* ---- legal moves ------------------------------------------------------ */

typedef struct {
  EngMove *out;
  size_t max, n;
} MoveList;

static void
push (MoveList *l, const EngMove *m)
{
  if (l->n < l->max)
    l->out[l->n] = *m;
  l->n++;
}

static uint16_t
serial_of (const KatRules *r, uint8_t idx)
{
  return r->cards[idx].serial;
}

static void
push_pairs (const KatState *s, MoveList *l, EngMove *m)
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
              push (l, m);
            }
      }
}

/* X-Ray targets need the face: listed only when the referee knows it. */
static void
push_xrays (const KatState *s, int a, MoveList *l, EngMove *m)
{
  for (int p = 0; p < s->n_players; p++)
    for (int k = 0; p != a && k < KAT_SLOTS; k++)
      if (s->slot[p][k] != KAT_NONE && s->slot[p][k] != KAT_UNKNOWN && !s->face_up[p][k])
        {
          m->target[0] = (int8_t) p, m->slot[0] = (int8_t) k;
          push (l, m);
        }
}

static void
push_slots_of (const KatState *s, int p, MoveList *l, EngMove *m)
{
  for (int k = 0; k < KAT_SLOTS; k++)
    if (s->slot[p][k] != KAT_NONE)
      {
        m->target[0] = (int8_t) p, m->slot[0] = (int8_t) k;
        push (l, m);
      }
}

static void list_replicates_with (const KatRules *r, const KatState *s, MoveList *l, int rep);

static void
list_replicates (const KatRules *r, const KatState *s, MoveList *l)
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
list_replicates_with (const KatRules *r, const KatState *s, MoveList *l, int rep)
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
              push (l, &m);
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
          push (l, &m);
        }
      else
        for (int q = 0; q < s->n_players; q++)
          {
            m.target[0] = (int8_t) q;
            push (l, &m);
          }
      break;
    case KAT_NEUTRALISE:
      if (s->phase == KAT_PHASE_ATTACK && s->att[0].player == p)
        {
          bool forced;
          /* with no show, neutralise_ok only reads the state */
          Ctx c = { r, (KatState *) s, NULL, NULL };
          if (neutralise_ok (&c, &s->att[0], s->rep_colour, 0, &forced) == ENG_OK)
            push (l, &m);
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
                push (l, &m);
              }
          }
        break;
      }
    default:
      break;
    }
}

static size_t
katua_legal_moves (const void *rules, const void *state, EngMove *out, size_t max)
{
  const KatRules *r = rules;
  const KatState *s = state;
  MoveList l = { out, max, 0 };
  EngMove m;
  switch (s->phase)
    {
    case KAT_PHASE_QUICK_START:
      for (int p = 0; p < s->n_players; p++)
        if (!((s->quick_start_done >> p) & 1))
          for (int k = 0; k < KAT_SLOTS; k++)
            if (s->slot[p][k] != KAT_NONE && s->slot[p][k] != KAT_UNKNOWN)
              {
                eng_move_init (&m, KAT_REVEAL, p);
                m.target[0] = (int8_t) p, m.slot[0] = (int8_t) k;
                push (&l, &m);
              }
      break;
    case KAT_PHASE_TURN:
      {
        int a = s->active;
        if (!s->played_any)
          {
            eng_move_init (&m, KAT_PASS, a);
            push (&l, &m);
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
                  push (&l, &m);
              }
          }
        /* "end" is also legal with nothing played (the end-of-turn command
         * card of a live table); it then acts as a pass */
        eng_move_init (&m, KAT_END, a);
        push (&l, &m);
        if (s->rep_player == a)
          list_replicates (r, s, &l);
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
                    push_slots_of (s, p, &l, &m);
              }
            else if (kc->kind == KAT_KIND_HOOK && !s->abduction_used)
              {
                eng_move_init (&m, KAT_HOOK, a);
                m.card = kc->serial;
                push_slots_of (s, a, &l, &m);
              }
            else if (kc->kind == KAT_KIND_ACTION)
              {
                switch (kc->action)
                  {
                  case KAT_ACT_XRAY:
                    eng_move_init (&m, KAT_XRAY, a);
                    m.card = kc->serial;
                    push_xrays (s, a, &l, &m);
                    break;
                  case KAT_ACT_TELEPORTER:
                    eng_move_init (&m, KAT_TELEPORT, a);
                    m.card = kc->serial;
                    push_pairs (s, &l, &m);
                    break;
                  case KAT_ACT_STAMPEDE:
                    eng_move_init (&m, KAT_STAMPEDE, a);
                    m.card = kc->serial;
                    for (int p = 0; p < s->n_players; p++)
                      {
                        m.target[0] = (int8_t) p;
                        push (&l, &m);
                      }
                    break;
                  default:
                    break;
                  }
              }
          }
        break;
      }
    case KAT_PHASE_ATTACK:
      {
        const KatAttempt *at = &s->att[0];
        int d = at->player;
        if (s->rep_effect == KAT_ATTACK && s->rep_open)
          list_replicates (r, s, &l);
        else if (s->rep_player == d || katua_shield_copy_attempt (s, s->rep_player) >= 0)
          list_replicates (r, s, &l);
        if (s->slot[d][at->slot] != KAT_UNKNOWN)
          {
            eng_move_init (&m, KAT_HIT, d);
            push (&l, &m);
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
                /* with no show, neutralise_ok only reads the state */
                Ctx c = { r, (KatState *) s, NULL, NULL };
                if (neutralise_ok (&c, at, kc->colour, 0, &forced) == ENG_OK)
                  {
                    eng_move_init (&m, KAT_NEUTRALISE, d);
                    m.card = kc->serial;
                    push (&l, &m);
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
                    push_slots_of (s, at->launcher, &l, &m);
                    break;
                  case KAT_ACT_TELEPORTER:
                    m.verb = KAT_TELEPORT;
                    push_pairs (s, &l, &m);
                    break;
                  case KAT_ACT_STAMPEDE:
                    m.verb = KAT_STAMPEDE;
                    m.target[0] = (int8_t) d;
                    push (&l, &m);
                    break;
                  default:
                    break;
                  }
              }
          }
        break;
      }
    case KAT_PHASE_ANSWER:
      {
        int d = s->answer_player;
        if (s->rep_player == d)
          list_replicates (r, s, &l);
        if (s->answer_verb != KAT_XRAY
            || s->slot[s->answer_p[0]][s->answer_s[0]] != KAT_UNKNOWN
            || s->face_up[s->answer_p[0]][s->answer_s[0]])
          {
            eng_move_init (&m, KAT_HIT, d);
            push (&l, &m);
          }
        for (int i = 0; i < s->hand_n[d]; i++)
          {
            uint8_t k = s->hand[d][i];
            if (k == KAT_UNKNOWN || r->cards[k].kind != KAT_KIND_ACTION
                || r->cards[k].action != KAT_ACT_TELEPORTER)
              continue;
            eng_move_init (&m, KAT_TELEPORT, d);
            m.card = serial_of (r, k);
            push_pairs (s, &l, &m);
          }
        break;
      }
    case KAT_PHASE_HOOK:
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
                  push (&l, &m);
                }
            }
        }
      if (s->slot[s->active][s->hook_slot] != KAT_UNKNOWN)
        {
          eng_move_init (&m, KAT_FLIP, s->active);
          push (&l, &m);
        }
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
  if (n == 0)
    return false;
  if (n > 512)
    n = 512;
  *out = moves[eng_rng_below (rng, (uint32_t) n)];
  return true;
}

/* ---- queries ---------------------------------------------------------- */

static int
katua_score (const void *rules, const void *state, unsigned player)
{
  const KatState *s = state;
  (void) rules;
  return player < s->n_players ? s->score[player] : 0;
}

static bool
katua_is_over (const void *rules, const void *state)
{
  (void) rules;
  return ((const KatState *) state)->phase == KAT_PHASE_OVER;
}

static unsigned
katua_winners (const void *rules, const void *state, const char **tiebreak)
{
  const KatState *s = state;
  (void) rules;
  if (s->phase != KAT_PHASE_OVER)
    {
      if (tiebreak != NULL)
        *tiebreak = NULL;
      return 0;
    }
  if (tiebreak != NULL)
    *tiebreak = tiebreak_names[s->tiebreak];
  return s->winners;
}

static int
katua_to_move (const void *rules, const void *state)
{
  const KatState *s = state;
  (void) rules;
  switch (s->phase)
    {
    case KAT_PHASE_QUICK_START:
      for (int p = 0; p < s->n_players; p++)
        if (!((s->quick_start_done >> p) & 1))
          return p;
      return -1;
    case KAT_PHASE_TURN:
    case KAT_PHASE_HOOK:
      return s->active;
    case KAT_PHASE_ATTACK:
      return s->att[0].player;
    case KAT_PHASE_ANSWER:
      return s->answer_player;
    default:
      return -1;
    }
}

int
katua_public_slot (const KatRules *rules, const KatState *s, unsigned p, unsigned k)
{
  if (p >= s->n_players || k >= KAT_SLOTS || s->slot[p][k] == KAT_NONE)
    return -1;
  if (!s->face_up[p][k] || s->slot[p][k] == KAT_UNKNOWN)
    return 0;
  return rules->cards[s->slot[p][k]].serial;
}

/* Every physical card in exactly one place; unseen cards are tokens, and
 * each deck's tokens plus its known cards make the deck's total. */
static EngStatus
katua_check_conservation (const void *rules, const void *state, EngVerdict *why)
{
  const KatRules *r = rules;
  const KatState *s = state;
  uint8_t seen[KAT_MAX_CARDS] = { 0 };
  int unknown[2] = { 0, 0 };
  int bad = -1;
#define COUNT(idx, deck_, may_be_unknown)                                                     \
  do {                                                                                       \
    uint8_t k_ = (idx);                                                                      \
    if (k_ == KAT_UNKNOWN && (may_be_unknown))                                               \
      unknown[deck_]++;                                                                      \
    else if (k_ >= r->n_cards || r->cards[k_].deck != (deck_) || seen[k_]++)               \
      bad = k_;                                                                              \
  } while (0)
  for (int p = 0; p < s->n_players; p++)
    {
      for (int k = 0; k < KAT_SLOTS; k++)
        if (s->slot[p][k] != KAT_NONE)
          COUNT (s->slot[p][k], KAT_DECK_CAT, true);
      if (s->hand_n[p] > KAT_HAND)
        bad = 0;
      for (int k = 0; k < s->hand_n[p]; k++)
        COUNT (s->hand[p][k], KAT_DECK_UFO, true);
      for (int k = 0; k < s->captured_n[p]; k++)
        COUNT (s->captured[p][k], KAT_DECK_CAT, false);
    }
  for (int k = 0; k < s->cat_deck_n; k++)
    COUNT (s->cat_deck[k], KAT_DECK_CAT, true);
  for (int k = 0; k < s->ufo_deck_n; k++)
    COUNT (s->ufo_deck[k], KAT_DECK_UFO, true);
  for (int k = 0; k < s->discard_n; k++)
    COUNT (s->discard[k], KAT_DECK_UFO, true);
  for (int k = 0; k < s->in_play_n; k++)
    COUNT (s->in_play[k], KAT_DECK_UFO, false);
#undef COUNT
  int known[2] = { 0, 0 };
  for (int i = 0; i < r->n_cards; i++)
    known[r->cards[i].deck] += seen[i] ? 1 : 0;
  if (bad >= 0)
    {
      if (why != NULL)
        {
          snprintf (why->rule, sizeof why->rule, "K20");
          snprintf (why->reason, sizeof why->reason,
                    ENG_ ("card index %d is in two places or in the wrong deck's place"), bad);
        }
      return ENG_ERR_CONSERVATION;
    }
  if (known[0] + unknown[0] != r->n_cats || known[1] + unknown[1] != r->n_ufos)
    {
      if (why != NULL)
        {
          snprintf (why->rule, sizeof why->rule, "K20");
          snprintf (why->reason, sizeof why->reason,
                    ENG_ ("cards lost or invented: %d+%d cats of %d, %d+%d UFOs of %d"), known[0],
                    unknown[0], r->n_cats, known[1], unknown[1], r->n_ufos);
        }
      return ENG_ERR_CONSERVATION;
    }
  return ENG_OK;
}

static bool
katua_move_shape_ok (const EngMove *m, char *reason, size_t size)
{
  const char *v = m->verb < KAT_VERB_COUNT ? katua_verbs[m->verb] : "?";
  bool card = m->card != 0, t0 = m->target[0] >= 0, t1 = m->target[1] >= 0;
  bool s0 = m->slot[0] >= 0, s1 = m->slot[1] >= 0;
  const char *want = NULL;
  switch (m->verb)
    {
    case KAT_PASS:
    case KAT_END:
      if (card || t0 || m->show)
        want = "no arguments";
      break;
    case KAT_FLIP:
    case KAT_HIT:
      if (card || t0)
        want = "only an optional 'show N'";
      break;
    case KAT_DISCARD:
      if (!card || t0 || m->show)
        want = "1 to 3 card serials (or '?')";
      break;
    case KAT_ATTACK:
    case KAT_HOOK:
    case KAT_SHIELD:
      if (!card || !t0 || !s0 || t1 || m->show || m->n_cards)
        want = "CARD PLAYER SLOT";
      break;
    case KAT_XRAY:
      if (!card || !t0 || !s0 || t1 || m->n_cards)
        want = "CARD PLAYER SLOT [show N]";
      break;
    case KAT_INTERCEPT:
      if (!card || t0 || m->show || m->n_cards)
        want = "CARD";
      break;
    case KAT_NEUTRALISE:
      if (!card || t0 || m->n_cards)
        want = "CARD [show N]";
      break;
    case KAT_TELEPORT:
      if (!card || !t0 || !s0 || !t1 || !s1 || m->show || m->n_cards)
        want = "CARD PLAYER SLOT PLAYER SLOT";
      break;
    case KAT_STAMPEDE:
      if (!card || !t0 || s0 || t1 || m->show || m->n_cards)
        want = "CARD PLAYER";
      break;
    case KAT_REPLICATE:
      if (!card || m->n_cards)
        want = "CARD and the copied card's targets";
      break;
    case KAT_REVEAL:
      if (card || !t0 || !s0 || t1)
        want = "PLAYER SLOT [show N]";
      break;
    default:
      want = "a known verb";
    }
  if (m->n_cards > 0 && m->verb != KAT_DISCARD && want == NULL)
    want = "a single card";
  if (m->verb == KAT_DISCARD && m->n_cards > 2)
    want = "at most 3 cards (the hand limit)";
  if (want != NULL)
    {
      if (reason != NULL && size > 0)
        snprintf (reason, size, "'%s' takes %s", v, want);
      return false;
    }
  return true;
}

const EngGameClass katua_game_class = {
  .name = "katua",
  .title = "Katua",
  .min_players = 2,
  .max_players = KAT_MAX_PLAYERS,
  .state_size = sizeof (KatState),
  .verbs = katua_verbs,
  .n_verbs = KAT_VERB_COUNT,
  .rules_new = katua_rules_new,
  .rules_free = katua_rules_free,
  .setup = katua_setup,
  .legal_moves = katua_legal_moves,
  .check = katua_check,
  .apply = katua_apply,
  .score = katua_score,
  .is_over = katua_is_over,
  .winners = katua_winners,
  .to_move = katua_to_move,
  .check_conservation = katua_check_conservation,
  .move_shape_ok = katua_move_shape_ok,
  .public_view = katua_public_view,
  .card_name = katua_card_name,
  .card_public = katua_card_public,
  .random_move = katua_class_random_move,
};

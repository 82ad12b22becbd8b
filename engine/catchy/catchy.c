/* catchy.c: Catchy! rules.  Rule ids in verdicts and events are the rulings
 * of RULINGS.md (C1-C12); "set" marks a card the set does not know, "turn"
 * a move by the wrong player.
 *
 * The core's transaction (eng-play.h) applies every move to a scratch copy
 * of the state, which replaces the real one only when the whole move is
 * legal: a refused move changes nothing.
 */
#include "catchy-private.h"

#include "eng-i18n.h"
#include "eng-play.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const catchy_verbs[CATCHY_VERB_COUNT] = {
  [CATCHY_SWAP] = "swap", [CATCHY_PLAY] = "play",
};

/* ---- rules from the card set and options ------------------------------ */

static EngStatus
bool_option (const EngOptions *o, const char *name, bool def, bool *out, EngParseError *err)
{
  const char *v = o != NULL ? eng_options_get (o, name) : NULL;
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
  "wild_always_playable", "wild_is_odd", "tie_at_seven", "winning_score",
};

/* Reads one card of the set into `k`; false with err filled when it does
 * not fit Catchy!. */
static bool
read_card (CatchyRules *r, const EngCard *c, CatchyCard *k, EngParseError *err)
{
  const char *kind = eng_card_attr (c, "kind");
  const char *colour = eng_card_attr (c, "colour");
  *k = (CatchyCard) { .serial = c->serial, .colour = CATCHY_NO_COLOUR, .deck = (uint8_t) c->deck };
  if (kind == NULL || c->serial >= 1000)
    {
      eng_parse_error_set (err, "card set", 0, "card %u has no kind", c->serial);
      return false;
    }
  if (strcmp (kind, "number") == 0) k->kind = CATCHY_KIND_NUMBER;
  else if (strcmp (kind, "wild") == 0) k->kind = CATCHY_KIND_WILD;
  else if (strcmp (kind, "start") == 0) k->kind = CATCHY_KIND_START;
  else if (strcmp (kind, "mood") == 0) k->kind = CATCHY_KIND_MOOD;
  else
    {
      eng_parse_error_set (err, "card set", 0, "card %u: unknown kind '%s'", c->serial, kind);
      return false;
    }
  long v = 0;
  if (eng_card_attr_int (c, "value", &v) == ENG_OK)
    k->value = (uint8_t) v;
  if (colour != NULL && k->kind == CATCHY_KIND_NUMBER)
    {
      unsigned i = 0;
      while (i < r->n_colours && strcmp (r->colour_ids[i], colour) != 0)
        i++;
      if (i == r->n_colours)
        {
          if (r->n_colours >= 4 || strlen (colour) >= sizeof r->colour_ids[0])
            {
              eng_parse_error_set (err, "card set", 0, "too many colours for Catchy!");
              return false;
            }
          snprintf (r->colour_ids[r->n_colours++], sizeof r->colour_ids[0], "%s", colour);
        }
      k->colour = (uint8_t) i;
    }
  if (k->kind == CATCHY_KIND_NUMBER && (k->colour == CATCHY_NO_COLOUR || k->value == 0))
    {
      eng_parse_error_set (err, "card set", 0, "numbered card %u needs a colour and a value",
                           c->serial);
      return false;
    }
  if (k->kind == CATCHY_KIND_WILD && k->value == 0)
    k->value = 3;
  return true;
}

static EngStatus
read_options (CatchyRules *r, const EngOptions *options, EngParseError *err)
{
  if (options != NULL)
    for (size_t i = 0; i < options->n; i++)
      {
        bool ok = false;
        for (size_t k = 0; k < sizeof known_options / sizeof known_options[0]; k++)
          ok = ok || strcmp (options->items[i].name, known_options[k]) == 0;
        if (!ok)
          {
            eng_parse_error_set (err, "options", 0, "unknown Catchy! option '%s'",
                                 options->items[i].name);
            return ENG_ERR_UNKNOWN_ATTRIBUTE;
          }
      }
  EngStatus st = bool_option (options, "wild_always_playable", true, &r->wild_always_playable,
                              err);
  if (st == ENG_OK)
    st = bool_option (options, "wild_is_odd", true, &r->wild_is_odd, err);
  if (st != ENG_OK)
    return st;
  const char *v = options != NULL ? eng_options_get (options, "tie_at_seven") : NULL;
  if (v == NULL || strcmp (v, "another-hand") == 0)
    r->tie_at_seven = CATCHY_TIE_ANOTHER_HAND;
  else if (strcmp (v, "shared") == 0)
    r->tie_at_seven = CATCHY_TIE_SHARED;
  else
    {
      eng_parse_error_set (err, "options", 0, "tie_at_seven: '%s' is not another-hand or shared",
                           v);
      return ENG_ERR_SYNTAX;
    }
  v = options != NULL ? eng_options_get (options, "winning_score") : NULL;
  r->winning_score = 7;
  if (v != NULL)
    {
      char *end = NULL;
      long w = strtol (v, &end, 10);
      if (end == v || *end != '\0' || w < 1 || w > 100)
        {
          eng_parse_error_set (err, "options", 0, "winning_score: '%s' is not 1-100", v);
          return ENG_ERR_SYNTAX;
        }
      r->winning_score = (uint8_t) w;
    }
  return ENG_OK;
}

static EngStatus
catchy_rules_new (const EngCardSet *set, const EngOptions *options, void **out,
                  EngParseError *err)
{
  *out = NULL;
  if (set == NULL || strcmp (eng_card_set_game (set), "catchy") != 0)
    {
      eng_parse_error_set (err, "card set", 0, "not a Catchy! card set");
      return ENG_ERR_INVALID_ARGUMENT;
    }
  CatchyRules *r = calloc (1, sizeof *r);
  if (r == NULL)
    return ENG_ERR_NO_MEMORY;
  r->set = set;
  memset (r->by_serial, CATCHY_NONE, sizeof r->by_serial);
  r->start = r->wild = r->mood[0] = r->mood[1] = CATCHY_NONE;
  EngStatus st = ENG_OK;
  size_t n = eng_card_set_n_cards (set);
  if (n > CATCHY_MAX_CARDS)
    {
      eng_parse_error_set (err, "card set", 0, "too many cards for the Catchy! engine "
                           "(at most %d faces)", CATCHY_MAX_CARDS);
      st = ENG_ERR_LIMIT;
    }
  for (size_t i = 0; i < n && st == ENG_OK; i++)
    {
      const EngCard *c = eng_card_set_card (set, i);
      CatchyCard k;
      if (!read_card (r, c, &k, err))
        {
          st = ENG_ERR_INCONSISTENT;
          break;
        }
      uint8_t idx = r->n_cards++;
      r->cards[idx] = k;
      r->by_serial[k.serial] = idx;
      if (k.kind == CATCHY_KIND_START)
        r->start = idx;
      else if (k.kind == CATCHY_KIND_WILD)
        r->wild = idx;
      else if (k.kind == CATCHY_KIND_MOOD)
        {
          const char *side = eng_card_attr (c, "side");
          r->mood[side != NULL && strcmp (side, "blue") == 0 ? CATCHY_BLUE : CATCHY_RED] = idx;
          r->mood_deck = k.deck;
        }
      if (k.kind != CATCHY_KIND_MOOD)
        {
          r->n_main++;
          r->main_deck = k.deck;
        }
    }
  if (st == ENG_OK
      && (r->start == CATCHY_NONE || r->wild == CATCHY_NONE || r->mood[0] == CATCHY_NONE
          || r->mood[1] == CATCHY_NONE || r->n_main != CATCHY_MAIN_CARDS
          || eng_card_set_other_side (set, r->cards[r->mood[0]].serial)
               != r->cards[r->mood[1]].serial))
    {
      eng_parse_error_set (err, "card set", 0, "a Catchy! set needs 15 numbered cards, the "
                           "wild, the start card and one two-sided mood card (red and blue)");
      st = ENG_ERR_INCONSISTENT;
    }
  if (st == ENG_OK)
    st = read_options (r, options, err);
  if (st != ENG_OK)
    {
      free (r);
      return st;
    }
  *out = r;
  return ENG_OK;
}

static void
catchy_rules_free (void *rules)
{
  free (rules);
}

uint8_t
catchy_card_index (const CatchyRules *r, unsigned serial)
{
  return serial < 1000 ? r->by_serial[serial] : CATCHY_NONE;
}

bool
catchy_card_is_odd (const CatchyRules *r, uint8_t card)
{
  const CatchyCard *k = &r->cards[card];
  if (k->kind == CATCHY_KIND_WILD)
    return r->wild_is_odd;
  return k->kind == CATCHY_KIND_NUMBER && (k->value & 1) != 0;
}

static bool
is_wild (const CatchyRules *r, uint8_t card)
{
  return r->cards[card].kind == CATCHY_KIND_WILD;
}

int
catchy_trick_winner (const CatchyRules *r, uint8_t lead, uint8_t follow)
{
  const CatchyCard *l = &r->cards[lead], *f = &r->cards[follow];
  if (is_wild (r, lead) || is_wild (r, follow))
    {
      if (l->value == f->value)
        return -1;   /* the wild and a 3 (C4) */
      return f->value > l->value ? 1 : 0;
    }
  if (l->colour == f->colour)
    return f->value > l->value ? 1 : 0;
  return 0;   /* off colour: the leader wins, whatever the numbers (C10) */
}

/* ---- small helpers ---------------------------------------------------- */

typedef struct {
  const CatchyRules *r;
  CatchyState *s;
  EngEvents *ev;     /* NULL: no text at all (fast path) */
  EngVerdict *why;
} Ctx;

static const char *
pname (const CatchyState *s, int p)
{
  return (p >= 0 && p < CATCHY_PLAYERS) ? s->names[p] : "?";
}

/* Refusals and events through the core (eng-play.h): English formats
 * marked ENG_N_ at the call, translated only when text is formatted. */
#define refuse(c, st, rule, ...) eng_verdict_refuse ((c)->why, (st), (rule), __VA_ARGS__)
#define ILLEGAL(c, rule, ...) refuse ((c), ENG_ERR_ILLEGAL, (rule), __VA_ARGS__)
#define ev_add(c, ...) eng_events_say ((c)->ev, __VA_ARGS__)

/* A face-up card's name for an event (only cards on the table now).  The
 * simulation path (no events) formats no words and looks up no catalogue:
 * the arguments of ev_add are evaluated even when it formats nothing. */
static const char *
face (Ctx *c, uint8_t card, char *buf, size_t size)
{
  if (c->ev == NULL)
    return "";
  catchy_card_name (c->r, c->r->cards[card].serial, false, buf, size);
  return buf;
}

static const char *
mood_words (const Ctx *c, unsigned mood)
{
  if (c->ev == NULL)
    return "";
  return mood == CATCHY_RED ? ENG_C_ ("mood", "red") : ENG_C_ ("mood", "blue");
}

/* Whether the referee knows a card to be somewhere; the place in words that
 * name nothing hidden (C11), NULL when the card is behind an unknown token. */
static const char *
locate (const CatchyState *s, uint8_t idx)
{
  /* the path and the hands are one hidden place: naming which would tell
   * where a face-down card lies */
  static const char hidden[] = ENG_N_ ("a hidden place");
  for (int i = 0; i < CATCHY_PATH_CARDS; i++)
    if (s->path[i] == idx)
      return hidden;
  for (int p = 0; p < CATCHY_PLAYERS; p++)
    for (int i = 0; i < s->hand_n[p]; i++)
      if (s->hand[p][i] == idx)
        return hidden;
  for (int t = 0; t < s->n_tricks; t++)
    if (s->tricks[t].lead == idx || s->tricks[t].follow == idx)
      return ENG_N_ ("the played pile");
  if (s->lead == idx)
    return ENG_N_ ("the current trick");
  return NULL;
}

/* Takes the card `k` out of p's hand: the known card, or an unknown token
 * that the table has just shown to be `k`. */
static EngStatus
hand_take (Ctx *c, int p, uint8_t k, const char *rule)
{
  CatchyState *s = c->s;
  for (int i = 0; i < s->hand_n[p]; i++)
    if (s->hand[p][i] == k)
      {
        s->hand[p][i] = s->hand[p][--s->hand_n[p]];
        return ENG_OK;
      }
  const char *where = locate (s, k);
  if (where != NULL)
    {
      /* the card laid face up now, by its name: never its serial */
      char name[64] = "";
      if (c->ev != NULL || c->why != NULL)
        catchy_card_name (c->r, c->r->cards[k].serial, true, name, sizeof name);
      return refuse (c, ENG_ERR_CONSERVATION, rule,
                     ENG_N_ ("%s cannot come from %s's hand: the referee knows it is in %s"),
                     name, pname (s, p), ENG_ (where));
    }
  for (int i = s->hand_n[p] - 1; i >= 0; i--)
    if (s->hand[p][i] == CATCHY_UNKNOWN)
      {
        s->hand[p][i] = s->hand[p][--s->hand_n[p]];
        return ENG_OK;
      }
  return refuse (c, ENG_ERR_CONSERVATION, rule, ENG_N_ ("%s's hand cannot hold card %u"),
                 pname (s, p), c->r->cards[k].serial);
}

/* ---- dealing ------------------------------------------------------------ */

typedef struct {
  uint8_t items[CATCHY_MAX_CARDS];
  int n;
} Pool;

static uint8_t
pool_take (Pool *pool, bool omniscient)
{
  pool->n--;
  return omniscient ? pool->items[pool->n] : CATCHY_UNKNOWN;
}

/* Deals a hand per C2 around the cards `fixed` already placed (path and
 * hands hold CATCHY_NONE where nothing is fixed): the numbered cards and
 * the wild are shuffled, three go to the path, the start card joins the
 * rest, which are dealt 7 each.  Without a seed every unfixed place is an
 * unknown token.  false when the fixed cards leave no room. */
static bool
deal_hand (const CatchyRules *r, CatchyState *s, const bool *used)
{
  Pool pool = { .n = 0 };
  for (int i = 0; i < r->n_cards; i++)
    if (!used[i] && r->cards[i].kind != CATCHY_KIND_MOOD && (int) i != r->start)
      pool.items[pool.n++] = (uint8_t) i;
  if (s->omniscient)
    eng_rng_shuffle_u8 (&s->rng, pool.items, (size_t) pool.n);
  for (int i = 0; i < CATCHY_PATH_CARDS; i++)
    if (s->path[i] == CATCHY_NONE)
      {
        if (pool.n == 0)
          return false;
        s->path[i] = pool_take (&pool, s->omniscient);
      }
  if (!used[r->start])
    pool.items[pool.n++] = r->start;
  if (s->omniscient)
    eng_rng_shuffle_u8 (&s->rng, pool.items, (size_t) pool.n);
  for (int p = 0; p < CATCHY_PLAYERS; p++)
    for (int i = 0; i < CATCHY_HAND; i++)
      if (s->hand[p][i] == CATCHY_NONE)
        {
          if (pool.n == 0)
            return false;
          s->hand[p][i] = pool_take (&pool, s->omniscient);
        }
  if (pool.n != 0)
    return false;
  s->hand_n[0] = s->hand_n[1] = CATCHY_HAND;
  s->swapper = CATCHY_NONE;
  for (int p = 0; p < CATCHY_PLAYERS; p++)
    for (int i = 0; i < CATCHY_HAND; i++)
      if (s->hand[p][i] == r->start)
        s->swapper = (uint8_t) p;
  return true;
}

/* Clears the table for a new hand: the cat on the centre, red up (C2). */
static void
clear_hand (CatchyState *s)
{
  memset (s->path, CATCHY_NONE, sizeof s->path);
  memset (s->hand, CATCHY_NONE, sizeof s->hand);
  memset (s->tricks, 0, sizeof s->tricks);
  s->n_tricks = 0;
  s->lead = CATCHY_NONE;
  s->cat = CATCHY_CENTRE;
  s->mood = CATCHY_RED;
  s->phase = CATCHY_PHASE_SWAP;
}

static void
need_for_phase (Ctx *c)
{
  CatchyState *s = c->s;
  char buf[48];
  switch (s->phase)
    {
    case CATCHY_PHASE_SWAP:
      /* generic even when the referee dealt the cards: who holds the start
       * card is hidden until they swap (C11) */
      ev_add (c, ENG_EVENT_NEED, -1, "C2",
              ENG_N_ ("Whoever holds the start card: swap it face down for a path card, then "
                      "lead the first trick"));
      break;
    case CATCHY_PHASE_LEAD:
      ev_add (c, ENG_EVENT_NEED, s->leader, "C3", ENG_N_ ("%s: lead trick %d with any card"),
              pname (s, s->leader), s->n_tricks + 1);
      break;
    case CATCHY_PHASE_FOLLOW:
      if (is_wild (c->r, s->lead))
        ev_add (c, ENG_EVENT_NEED, 1 - s->leader, "C3",
                ENG_N_ ("%s: answer the wild with any card"), pname (s, 1 - s->leader));
      else
        ev_add (c, ENG_EVENT_NEED, 1 - s->leader, "C3",
                ENG_N_ ("%s: answer %s, following its colour if you can"),
                pname (s, 1 - s->leader), face (c, s->lead, buf, sizeof buf));
      break;
    default:
      break;
    }
}

/* ---- the swap (C2) ------------------------------------------------------ */

static EngStatus
apply_swap (Ctx *c, const EngMove *m)
{
  CatchyState *s = c->s;
  const CatchyRules *r = c->r;
  int p = m->player;
  if (s->phase != CATCHY_PHASE_SWAP)
    return ILLEGAL (c, "C2", ENG_N_ ("the start card is swapped only before the first trick"));
  if (s->swapper != CATCHY_NONE && s->swapper != p)
    return ILLEGAL (c, "C2", ENG_N_ ("%s does not hold the start card: its holder swaps it"),
                    pname (s, p));
  /* at a live table the camera may not see which path card was taken (one
   * motion, or a hand over the path): which it was never matters, since
   * path cards stay hidden all hand (C11) and the start card is never
   * played; the move then names none */
  bool unseen = m->target[0] < 0 && m->slot[0] < 0 && !s->omniscient;
  if (!unseen && (m->target[0] < 0 || m->slot[0] < 0 || m->slot[0] >= CATCHY_PATH_CARDS))
    return ILLEGAL (c, "C2", ENG_N_ ("name a path card: a player and 1 to 3 counted from that "
                                     "player's arms"));
  /* path cards are counted from the named player's arms */
  int pos = unseen ? 1 : m->target[0] == 0 ? m->slot[0] : CATCHY_PATH_CARDS - 1 - m->slot[0];
  EngStatus st = hand_take (c, p, r->start, "C2");
  if (st != ENG_OK)
    return st;
  uint8_t taken = s->path[pos];
  s->path[pos] = r->start;
  s->hand[p][s->hand_n[p]++] = taken;
  s->swapper = (uint8_t) p;
  s->leader = (uint8_t) p;
  s->phase = CATCHY_PHASE_LEAD;
  if (unseen)
    ev_add (c, ENG_EVENT_NOTE, p, "C2",
            ENG_N_ ("%s takes a path card into hand, leaving a face-down card in its place"),
            pname (s, p));
  else
    {
      /* the place as the table sees it, never "card N": that names a
       * card's serial (K20 checks and redactions look for it) */
      char which[96];
      catchy_path_card_words (pos + 1, pname (s, 0), pname (s, 1), which, sizeof which);
      ev_add (c, ENG_EVENT_NOTE, p, "C2",
              ENG_N_ ("%s takes %s into hand and leaves a face-down card in its place"),
              pname (s, p), which);
    }
  ev_add (c, ENG_EVENT_TURN, p, "C2", ENG_N_ ("%s leads the first trick of hand %d"),
          pname (s, p), s->hand_no);
  return ENG_OK;
}

/* ---- playing a card (C3, C8) -------------------------------------------- */

/* Whether `k` follows the led card (C3): its colour, anything after a led
 * wild, and the wild itself when the option lets it always be played. */
static bool
follows (const CatchyRules *r, uint8_t lead, uint8_t k)
{
  if (is_wild (r, lead))
    return true;
  if (is_wild (r, k))
    return r->wild_always_playable;
  return r->cards[k].colour == r->cards[lead].colour;
}

static bool
known_can_follow (const CatchyRules *r, const CatchyState *s, int p, uint8_t lead)
{
  for (int i = 0; i < s->hand_n[p]; i++)
    {
      uint8_t h = s->hand[p][i];
      if (h < r->n_cards && !is_wild (r, h) && r->cards[h].colour == r->cards[lead].colour)
        return true;
    }
  return false;
}

/* C8: a card played now proves an earlier revoke when the player failed to
 * follow a colour it is of: the card was in their hand then (hands only
 * shrink during a hand). */
static void
prove_revokes (Ctx *c, int p, uint8_t k)
{
  CatchyState *s = c->s;
  const CatchyRules *r = c->r;
  if (is_wild (r, k))
    return;   /* it has no colour: it proves no colour was held */
  char buf[48], now[48];
  for (int t = 0; t < s->n_tricks; t++)
    {
      CatchyTrick *tr = &s->tricks[t];
      if (!tr->revoke || tr->flagged || tr->leader == p
          || r->cards[tr->lead].colour != r->cards[k].colour)
        continue;
      tr->flagged = 1;
      s->revokes[p]++;
      ev_add (c, ENG_EVENT_NOTE, p, "C8",
              ENG_N_ ("Revoke in trick %d: %s did not follow %s. The %s played now proves "
                      "it was in hand"),
              t + 1, pname (s, p), face (c, tr->lead, buf, sizeof buf),
              face (c, k, now, sizeof now));
    }
}

static void end_hand (Ctx *c);

/* Compares, flips the mood, moves the cat and names the next leader
 * (C4, C5, C10); ends the hand when the cat reaches a player's arms or
 * after the 7th trick (C6). */
static void
settle_trick (Ctx *c, uint8_t follow)
{
  CatchyState *s = c->s;
  const CatchyRules *r = c->r;
  CatchyTrick *tr = &s->tricks[s->n_tricks];
  int leader = s->leader, follower = 1 - leader;
  tr->leader = (uint8_t) leader;
  tr->lead = s->lead;
  tr->follow = follow;
  int w = catchy_trick_winner (r, s->lead, follow);
  char a[48], b[48];
  if (w < 0)
    {
      /* the wild and a 3: the mood flips, the cat stays, the leader leads (C4) */
      tr->winner = CATCHY_NONE;
      tr->flipped = 1;
      tr->toward = CATCHY_NONE;
      s->mood ^= 1;
      ev_add (c, ENG_EVENT_NOTE, -1, "C4",
              ENG_N_ ("Trick %d: the wild and a 3: the cat turns %s but does not move; %s leads "
                      "again"),
              s->n_tricks + 1, mood_words (c, s->mood), pname (s, leader));
    }
  else
    {
      int winner = w == 0 ? leader : follower;
      tr->winner = (uint8_t) winner;
      /* the winner's card first: "Ana wins (green 4 against green 2)" */
      ev_add (c, ENG_EVENT_NOTE, winner, "C4", ENG_N_ ("Trick %d: %s wins (%s against %s)"),
              s->n_tricks + 1, pname (s, winner),
              face (c, w == 0 ? s->lead : follow, a, sizeof a),
              face (c, w == 0 ? follow : s->lead, b, sizeof b));
      if (catchy_card_is_odd (r, s->lead) && catchy_card_is_odd (r, follow))
        {
          tr->flipped = 1;
          s->mood ^= 1;
          ev_add (c, ENG_EVENT_NOTE, -1, "C5", ENG_N_ ("Both cards are odd: the cat turns %s"),
                  mood_words (c, s->mood));
        }
      int toward = s->mood == CATCHY_RED ? winner : 1 - winner;
      tr->toward = (uint8_t) toward;
      s->cat = (uint8_t) (toward == 0 ? s->cat - 1 : s->cat + 1);
      s->leader = (uint8_t) toward;
      ev_add (c, ENG_EVENT_NOTE, toward, "C5",
              toward == winner ? ENG_N_ ("The %s cat moves one space toward %s, who won the trick")
                               : ENG_N_ ("The %s cat moves one space toward %s, who lost the trick"),
              mood_words (c, s->mood), pname (s, toward));
    }
  s->lead = CATCHY_NONE;
  s->n_tricks++;
  if (s->cat == 0 || s->cat == CATCHY_POSITIONS - 1 || s->n_tricks == CATCHY_TRICKS)
    end_hand (c);
  else
    {
      s->phase = CATCHY_PHASE_LEAD;
      ev_add (c, ENG_EVENT_TURN, s->leader, "C5", ENG_N_ ("%s leads trick %d"),
              pname (s, s->leader), s->n_tricks + 1);
    }
}

static EngStatus
apply_play (Ctx *c, const EngMove *m)
{
  CatchyState *s = c->s;
  const CatchyRules *r = c->r;
  int p = m->player;
  if (s->phase == CATCHY_PHASE_SWAP)
    return ILLEGAL (c, "C2", ENG_N_ ("first the start card is swapped for a path card"));
  int expected = s->phase == CATCHY_PHASE_LEAD ? s->leader : 1 - s->leader;
  if (p != expected)
    return ILLEGAL (c, "turn", s->phase == CATCHY_PHASE_LEAD ? ENG_N_ ("%s leads this trick")
                                                             : ENG_N_ ("%s answers this trick"),
                    pname (s, expected));
  if (m->card == 0 || m->card == ENG_SERIAL_UNKNOWN)
    return ILLEGAL (c, "C11", ENG_N_ ("a card is played face up: name it"));
  uint8_t k = catchy_card_index (r, m->card);
  if (k == CATCHY_NONE)
    return ILLEGAL (c, "set", ENG_N_ ("card %u is not in this card set"), m->card);
  const CatchyCard *kc = &r->cards[k];
  if (kc->kind == CATCHY_KIND_START || kc->kind == CATCHY_KIND_MOOD)
    return ILLEGAL (c, "C2", ENG_N_ ("card %u is not played in tricks"), m->card);
  EngStatus st = hand_take (c, p, k, "C11");
  if (st != ENG_OK)
    return st;
  bool revoke = false;
  if (s->phase == CATCHY_PHASE_FOLLOW && !follows (r, s->lead, k))
    {
      /* known: refuse now (C3); unseen cards in hand: it may be a revoke,
       * proven only by a later card (C8, C11) */
      if (known_can_follow (r, s, p, s->lead))
        return ILLEGAL (c, "C3", is_wild (r, k)
                                   ? ENG_N_ ("%s must follow the led colour (the wild may not "
                                             "be played while a card of that colour is held)")
                                   : ENG_N_ ("%s must follow the led colour"),
                        pname (s, p));
      for (int i = 0; i < s->hand_n[p]; i++)
        revoke = revoke || s->hand[p][i] == CATCHY_UNKNOWN;
    }
  prove_revokes (c, p, k);
  char buf[48];
  EngEvent *e = ev_add (c, ENG_EVENT_SHOWN, p, "C3", ENG_N_ ("%s plays %s"), pname (s, p),
                        face (c, k, buf, sizeof buf));
  if (e != NULL)
    e->value = (int16_t) kc->serial;
  if (s->phase == CATCHY_PHASE_LEAD)
    {
      s->lead = k;
      s->phase = CATCHY_PHASE_FOLLOW;
      return ENG_OK;
    }
  s->tricks[s->n_tricks].revoke = revoke;
  settle_trick (c, k);
  return ENG_OK;
}

/* ---- scoring and the next hand (C6, C7) --------------------------------- */

static void
deal_next_hand (Ctx *c)
{
  CatchyState *s = c->s;
  bool used[CATCHY_MAX_CARDS] = { false };
  clear_hand (s);
  s->hand_no++;
  deal_hand (c->r, s, used);   /* nothing fixed: always room */
  ev_add (c, ENG_EVENT_NOTE, -1, "C7", ENG_N_ ("Hand %d begins"),
          s->hand_no);
}

static void
game_over (Ctx *c, bool shared)
{
  CatchyState *s = c->s;
  s->phase = CATCHY_PHASE_OVER;
  s->shared = shared;
  s->winners = shared ? 3 : s->score[0] > s->score[1] ? 1 : 2;
  EngEvent *e;
  if (shared)
    e = ev_add (c, ENG_EVENT_GAME_OVER, -1, "C7",
                ENG_N_ ("Game over: %s and %s share the victory with %d points each"),
                pname (s, 0), pname (s, 1), s->score[0]);
  else
    {
      int w = s->winners == 1 ? 0 : 1;
      e = ev_add (c, ENG_EVENT_GAME_OVER, w, "C1", ENG_N_ ("Game over: %s wins %d to %d"),
                  pname (s, w), s->score[w], s->score[1 - w]);
    }
  if (e != NULL)
    {
      e->winners = s->winners;
      e->player = (int8_t) (s->winners == 2 ? 1 : 0);
      e->value = s->score[e->player];
      snprintf (e->tiebreak, sizeof e->tiebreak, "%s", shared ? "shared" : "score");
    }
}

static void
end_hand (Ctx *c)
{
  CatchyState *s = c->s;
  const CatchyRules *r = c->r;
  int pts[CATCHY_PLAYERS] = { 0, 0 };
  if (s->cat == 0)
    pts[0] = 3;
  else if (s->cat == CATCHY_POSITIONS - 1)
    pts[1] = 3;
  else if (s->cat == CATCHY_CENTRE)
    pts[0] = pts[1] = 1;
  else
    pts[s->cat < CATCHY_CENTRE ? 0 : 1] = 2;
  if (s->cat == 0 || s->cat == CATCHY_POSITIONS - 1)
    ev_add (c, ENG_EVENT_NOTE, s->cat == 0 ? 0 : 1, "C6",
            ENG_N_ ("Hand %d ends after trick %d: the cat is in %s's arms"), s->hand_no,
            s->n_tricks, pname (s, s->cat == 0 ? 0 : 1));
  else
    ev_add (c, ENG_EVENT_NOTE, -1, "C6", ENG_N_ ("Hand %d ends after the 7th trick"),
            s->hand_no);
  for (int p = 0; p < CATCHY_PLAYERS; p++)
    {
      s->last_points[p] = (uint8_t) pts[p];
      if (pts[p] == 0)
        continue;
      s->score[p] = (int16_t) (s->score[p] + pts[p]);
      /* the simulation path (no events) looks up no catalogue */
      EngEvent *e = NULL;
      if (c->ev != NULL)
        e = ev_add (c, ENG_EVENT_SCORE, p, "C6",
                    ENG_NG_ ("%s scores %d and now has %d point",
                             "%s scores %d and now has %d points",
                             s->score[p] == 1 ? 1 : 2),
                    pname (s, p), pts[p], s->score[p]);
      if (e != NULL)
        e->value = s->score[p], e->delta = (int16_t) pts[p];
    }
  bool reached = s->score[0] >= r->winning_score || s->score[1] >= r->winning_score;
  if (!reached)
    {
      deal_next_hand (c);
      return;
    }
  if (s->score[0] != s->score[1])
    game_over (c, false);
  else if (r->tie_at_seven == CATCHY_TIE_SHARED)
    game_over (c, true);
  else
    {
      if (c->ev != NULL)
        ev_add (c, ENG_EVENT_NOTE, -1, "C7",
                ENG_NG_ ("Tied at %d point: another hand decides",
                         "Tied at %d points: another hand decides", s->score[0] == 1 ? 1 : 2),
                s->score[0]);
      deal_next_hand (c);
    }
}

/* ---- a move ------------------------------------------------------- */

static EngStatus
dispatch (Ctx *c, const EngMove *m)
{
  CatchyState *s = c->s;
  if (m->player < 0 || m->player >= CATCHY_PLAYERS)
    return ILLEGAL (c, "turn", ENG_N_ ("no such player"));
  if (m->verb >= CATCHY_VERB_COUNT)
    return ILLEGAL (c, "turn", ENG_N_ ("unknown move"));
  if (m->target[0] >= CATCHY_PLAYERS || m->target[1] >= CATCHY_PLAYERS)
    return ILLEGAL (c, "turn", ENG_N_ ("no such player"));
  if (s->phase == CATCHY_PHASE_OVER)
    return refuse (c, ENG_ERR_STATE, "C1", ENG_N_ ("the game is over"));
  if (m->verb == CATCHY_SWAP)
    return apply_swap (c, m);
  return apply_play (c, m);
}

/* EngGameClass.play: the core's transaction (eng-play.h) hands over the
 * scratch copy; dispatch words its own refusal of a move outside the table
 * (play_checks_shape). */
static EngStatus
catchy_play (EngPlay *play, const EngMove *move)
{
  Ctx c = { play->rules, play->state, play->events, play->why };
  EngStatus st = dispatch (&c, move);
  if (st == ENG_OK)
    need_for_phase (&c);
  return st;
}

/* ---- setup -------------------------------------------------------------- */

#define setup_refuse eng_verdict_refuse

/* Places the cards deal lines fix: `path` (shared, 3, counted from the
 * first player's arms) and `hand` (per player, 7; the start card's holder
 * holds it).  '?' leaves a place unseen. */
static EngStatus
fix_deals (const CatchyRules *r, const EngSetup *su, CatchyState *s, bool *used,
           EngVerdict *why)
{
  bool seen_path = false, seen_hand[CATCHY_PLAYERS] = { false, false };
  for (size_t i = 0; i < su->n_deals; i++)
    {
      const EngDeal *d = &su->deals[i];
      uint8_t *dst;
      bool *seen;
      unsigned cap;
      if (strcmp (d->place, "path") == 0)
        {
          if (d->player >= 0)
            return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "setup",
                                 ENG_N_ ("the path is shared: deal it without a player's name"));
          dst = s->path, seen = &seen_path, cap = CATCHY_PATH_CARDS;
        }
      else if (strcmp (d->place, "hand") == 0)
        {
          if (d->player < 0 || d->player >= CATCHY_PLAYERS)
            return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "setup",
                                 ENG_N_ ("deal hand needs a player's name"));
          dst = s->hand[d->player], seen = &seen_hand[d->player], cap = CATCHY_HAND;
        }
      else
        return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "setup",
                             ENG_N_ ("unknown place '%s' (path, hand)"), d->place);
      if (*seen)
        return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "setup",
                             ENG_N_ ("place %s dealt twice"), d->place);
      *seen = true;
      if (d->n_cards > cap)
        return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "setup",
                             ENG_N_ ("%s holds at most %u cards"), d->place, cap);
      for (unsigned k = 0; k < d->n_cards; k++)
        {
          if (d->cards[k] == ENG_SERIAL_UNKNOWN)
            continue;
          uint8_t idx = catchy_card_index (r, d->cards[k]);
          if (idx == CATCHY_NONE)
            return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "set",
                                 ENG_N_ ("card %u is not in this card set"), d->cards[k]);
          if (r->cards[idx].kind == CATCHY_KIND_MOOD
              || (dst == s->path && idx == r->start))
            return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "C2",
                                 ENG_N_ ("card %u does not belong in %s"), d->cards[k], d->place);
          if (used[idx])
            return setup_refuse (why, ENG_ERR_CONSERVATION, "setup",
                                 ENG_N_ ("card %u dealt twice"), d->cards[k]);
          used[idx] = true;
          dst[k] = idx;
        }
    }
  return ENG_OK;
}

static EngStatus
catchy_setup (const void *rules, const EngSetup *su, const EngRng *rng, void *state,
              EngEvents *events, EngVerdict *why)
{
  const CatchyRules *r = rules;
  CatchyState *s = state;
  if (su->n_players != CATCHY_PLAYERS)
    return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "players",
                         ENG_N_ ("Catchy! is for 2 players, not %u"), su->n_players);
  memset (s, 0, sizeof *s);
  for (unsigned p = 0; p < CATCHY_PLAYERS; p++)
    snprintf (s->names[p], sizeof s->names[p], "%s", su->names[p]);
  s->rng = *rng;
  s->omniscient = su->has_seed;
  s->hand_no = 1;
  clear_hand (s);
  bool used[CATCHY_MAX_CARDS] = { false };
  EngStatus st = fix_deals (r, su, s, used, why);
  if (st != ENG_OK)
    return st;
  if (!deal_hand (r, s, used))
    return setup_refuse (why, ENG_ERR_CONSERVATION, "C2",
                         ENG_N_ ("the deal lines leave no room for a 3-card path and two hands "
                                 "of 7"));
  Ctx c = { r, s, events, why };
  need_for_phase (&c);
  return ENG_OK;
}

/* ---- legal moves -------------------------------------------------------- */

/* The cards p may show from hand: its known cards, and while it holds
 * unseen ones, every trick card the referee has not located. */
static void
push_plays (const CatchyRules *r, const CatchyState *s, int p, EngMoveList *l)
{
  bool unseen = false;
  bool can[CATCHY_MAX_CARDS] = { false };
  for (int i = 0; i < s->hand_n[p]; i++)
    {
      if (s->hand[p][i] == CATCHY_UNKNOWN)
        unseen = true;
      else if (s->hand[p][i] < r->n_cards)
        can[s->hand[p][i]] = true;
    }
  if (unseen)
    for (int k = 0; k < r->n_cards; k++)
      if (r->cards[k].kind != CATCHY_KIND_START && r->cards[k].kind != CATCHY_KIND_MOOD
          && locate (s, (uint8_t) k) == NULL)
        can[k] = true;
  bool known_follow = s->phase == CATCHY_PHASE_FOLLOW && known_can_follow (r, s, p, s->lead);
  for (int k = 0; k < r->n_cards; k++)
    {
      if (!can[k])
        continue;
      if (known_follow && !follows (r, s->lead, (uint8_t) k))
        continue;
      EngMove m;
      eng_move_init (&m, CATCHY_PLAY, p);
      m.card = r->cards[k].serial;
      eng_move_list_push (l, &m);
    }
}

static size_t
catchy_legal_moves (const void *rules, const void *state, EngMove *out, size_t max)
{
  const CatchyRules *r = rules;
  const CatchyState *s = state;
  EngMoveList l = eng_move_list (out, max);
  EngMove m;
  switch (s->phase)
    {
    case CATCHY_PHASE_SWAP:
      for (int p = 0; p < CATCHY_PLAYERS; p++)
        if (s->swapper == CATCHY_NONE || s->swapper == p)
          for (int k = 0; k < CATCHY_PATH_CARDS; k++)
            {
              eng_move_init (&m, CATCHY_SWAP, p);
              m.target[0] = (int8_t) p;
              m.slot[0] = (int8_t) k;
              eng_move_list_push (&l, &m);
            }
      break;
    case CATCHY_PHASE_LEAD:
      push_plays (r, s, s->leader, &l);
      break;
    case CATCHY_PHASE_FOLLOW:
      push_plays (r, s, 1 - s->leader, &l);
      break;
    default:
      break;
    }
  return l.n;
}

/* ---- queries ------------------------------------------------------------ */

static int
catchy_score (const void *rules, const void *state, unsigned player)
{
  const CatchyState *s = state;
  (void) rules;
  return player < CATCHY_PLAYERS ? s->score[player] : 0;
}

static bool
catchy_is_over (const void *rules, const void *state)
{
  (void) rules;
  return ((const CatchyState *) state)->phase == CATCHY_PHASE_OVER;
}

static unsigned
catchy_winners (const void *rules, const void *state, const char **tiebreak)
{
  const CatchyState *s = state;
  (void) rules;
  bool over = s->phase == CATCHY_PHASE_OVER;
  if (tiebreak != NULL)
    *tiebreak = over ? (s->shared ? "shared" : "score") : NULL;
  return over ? s->winners : 0;
}

int
catchy_to_move (const void *rules, const void *state)
{
  const CatchyState *s = state;
  (void) rules;
  switch (s->phase)
    {
    case CATCHY_PHASE_SWAP:
      return s->swapper == CATCHY_NONE ? -1 : s->swapper;
    case CATCHY_PHASE_LEAD:
      return s->leader;
    case CATCHY_PHASE_FOLLOW:
      return 1 - s->leader;
    default:
      return -1;
    }
}

/* Every main-deck card in exactly one place (path, hands, the current
 * trick, the played pile); unseen ones are tokens, and tokens plus known
 * cards make the 17 cards of the main deck.  Played cards are known. */
static EngStatus
catchy_check_conservation (const void *rules, const void *state, EngVerdict *why)
{
  const CatchyRules *r = rules;
  const CatchyState *s = state;
  uint8_t seen[CATCHY_MAX_CARDS] = { 0 };
  int unknown = 0, bad = -1;
#define COUNT(idx, may_be_unknown)                                                     \
  do {                                                                                \
    uint8_t k_ = (idx);                                                               \
    if (k_ == CATCHY_UNKNOWN && (may_be_unknown))                                     \
      unknown++;                                                                      \
    else if (k_ >= r->n_cards || r->cards[k_].kind == CATCHY_KIND_MOOD || seen[k_]++) \
      bad = k_;                                                                       \
  } while (0)
  for (int i = 0; i < CATCHY_PATH_CARDS; i++)
    COUNT (s->path[i], true);
  for (int p = 0; p < CATCHY_PLAYERS; p++)
    {
      if (s->hand_n[p] > CATCHY_HAND + 1)
        bad = 0;
      for (int i = 0; i < s->hand_n[p]; i++)
        COUNT (s->hand[p][i], true);
    }
  for (int t = 0; t < s->n_tricks; t++)
    {
      COUNT (s->tricks[t].lead, false);
      COUNT (s->tricks[t].follow, false);
    }
  if (s->lead != CATCHY_NONE)
    COUNT (s->lead, false);
#undef COUNT
  int known = 0;
  for (int i = 0; i < r->n_cards; i++)
    known += seen[i] ? 1 : 0;
  if (bad >= 0 || known + unknown != r->n_main)
    {
      if (why != NULL)
        {
          snprintf (why->rule, sizeof why->rule, "C11");
          if (bad >= 0)
            snprintf (why->reason, sizeof why->reason,
                      ENG_ ("card index %d is in two places or in no place of its deck"), bad);
          else
            snprintf (why->reason, sizeof why->reason,
                      ENG_ ("cards lost or invented: %d known + %d unseen of %d"), known, unknown,
                      r->n_main);
        }
      return ENG_ERR_CONSERVATION;
    }
  /* the hands: equal before the trick is led, one apart during it */
  if (s->phase == CATCHY_PHASE_LEAD || s->phase == CATCHY_PHASE_FOLLOW)
    {
      int expect_leader = CATCHY_HAND - s->n_tricks - (s->phase == CATCHY_PHASE_FOLLOW);
      int expect_follower = CATCHY_HAND - s->n_tricks;
      if (s->hand_n[s->leader] != expect_leader || s->hand_n[1 - s->leader] != expect_follower)
        {
          if (why != NULL)
            {
              snprintf (why->rule, sizeof why->rule, "C6");
              snprintf (why->reason, sizeof why->reason, ENG_ ("the hands hold %d and %d cards"),
                        s->hand_n[0], s->hand_n[1]);
            }
          return ENG_ERR_CONSERVATION;
        }
    }
  return ENG_OK;
}

static bool
catchy_move_shape_ok (const EngMove *m, char *reason, size_t size)
{
  const char *want = NULL;
  switch (m->verb)
    {
    case CATCHY_SWAP:
      /* nothing: the table did not show which path card (a live table) */
      if (m->card != 0 || m->n_cards || (m->target[0] < 0) != (m->slot[0] < 0)
          || m->target[1] >= 0 || m->show)
        want = "PLAYER N (the path card, 1-3 counted from that player's arms), or nothing";
      break;
    case CATCHY_PLAY:
      if (m->card == 0 || m->n_cards || m->target[0] >= 0 || m->show)
        want = "one card serial";
      break;
    default:
      want = "a known verb";
    }
  if (want != NULL)
    {
      if (reason != NULL && size > 0)
        snprintf (reason, size, "'%s' takes %s",
                  m->verb < CATCHY_VERB_COUNT ? catchy_verbs[m->verb] : "?", want);
      return false;
    }
  return true;
}

const EngGameClass catchy_game_class = {
  .name = "catchy",
  .title = "Catchy!",
  .min_players = CATCHY_PLAYERS,
  .max_players = CATCHY_PLAYERS,
  .state_size = sizeof (CatchyState),
  .verbs = catchy_verbs,
  .n_verbs = CATCHY_VERB_COUNT,
  .rules_new = catchy_rules_new,
  .rules_free = catchy_rules_free,
  .setup = catchy_setup,
  .legal_moves = catchy_legal_moves,
  .play = catchy_play,
  .play_checks_shape = true,
  .score = catchy_score,
  .is_over = catchy_is_over,
  .winners = catchy_winners,
  .to_move = catchy_to_move,
  .check_conservation = catchy_check_conservation,
  .move_shape_ok = catchy_move_shape_ok,
  .public_view = catchy_public_view,
  .card_name = catchy_card_name,
  .card_public = catchy_card_public,
  /* random_move: none; callers draw uniformly from legal_moves */
};

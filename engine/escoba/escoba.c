/* escoba.c: the rules of Escoba (escoba.md S1-S12).  Rule ids in verdicts
 * and events are the rulings; "set" marks a card the set does not know.
 * The core runs the transaction (eng-play.h): a refused move changes
 * nothing.
 *
 * Knowledge (S11): dealt from a seed, every card is known.  At a live
 * table the hands and the deck are unknown tokens for the whole game; a
 * card is known once it is laid face up (the deal's four, a card played),
 * and so is every captured card: the piles are counted from what the table
 * saw taken.  No text names a card in a hand or the deck.
 */
#include "escoba-private.h"

#include "eng-i18n.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char *const escoba_verbs[ESC_VERB_COUNT] = { [ESC_DEAL] = "deal",
                                                          [ESC_PLAY] = "play" };

/* ---- rules from the card set and options --------------------------------- */

static const EngAttrSpec escoba_attrs[] = {
  { "suit", "oros copas espadas bastos", 0, 0, offsetof (EscRules, suit) },
  { "value", NULL, 1, 10, offsetof (EscRules, value) },
};

static const EngOptionSpec escoba_options[] = {
  { "capture_required", ENG_OPTION_YESNO, NULL, 0, 0, 0, offsetof (EscRules, capture_required) },
  { "sevens", ENG_OPTION_CHOICE, "most primera", ESC_SEVENS_MOST, 0, 0, offsetof (EscRules, sevens) },
  { "all_sevens", ENG_OPTION_YESNO, NULL, 0, 0, 0, offsetof (EscRules, all_sevens) },
  { "target", ENG_OPTION_NUMBER, NULL, 21, 1, 100, offsetof (EscRules, target) },
  { "pairs", ENG_OPTION_YESNO, NULL, 0, 0, 0, offsetof (EscRules, pairs) },
};

/* The 40 cards of the Spanish deck, and the siete de oros among them. */
static EngStatus
escoba_rules_check (void *rules, EngParseError *err)
{
  EscRules *r = rules;
  r->siete_de_oros = ENG_CARD_NONE;
  for (unsigned k = 0; k < r->table.n; k++)
    if (r->suit[k] == 0 && r->value[k] == 7)
      r->siete_de_oros = (uint8_t) k;
  if (r->table.n == ESC_CARDS && r->siete_de_oros != ENG_CARD_NONE)
    return ENG_OK;
  eng_parse_error_set (err, "card set", 0, "an Escoba set is the 40 cards of the Spanish deck");
  return ENG_ERR_INCONSISTENT;
}

/* ---- the table's places -------------------------------------------------- */

unsigned
escoba_side (const EscRules *r, const EscState *s, unsigned player)
{
  return r->pairs && s->n_players == 4 ? player % 2 : player;
}

unsigned
escoba_n_sides (const EscRules *r, const EscState *s)
{
  return r->pairs && s->n_players == 4 ? 2 : s->n_players;
}

unsigned
escoba_next (const EscState *s, unsigned p)
{
  return (p + s->n_players - 1) % s->n_players;
}

unsigned
escoba_primera (const EscRules *r, uint8_t card)
{
  static const uint8_t points[11] = { 0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10 };
  return points[r->value[card]];
}

/* Where the referee knows card k lies, in words naming nothing hidden;
 * NULL when it lies behind an unknown token (a hand, the deck). */
static const char *
locate (const EscState *s, uint8_t k)
{
  if (eng_cards_find (s->table, s->table_n, k) >= 0)
    return ENG_N_ ("on the table");
  for (unsigned p = 0; p < ESC_PLAYERS; p++)
    if (eng_cards_find (s->pile[p], s->pile_n[p], k) >= 0)
      return ENG_N_ ("in a pile");
  for (unsigned p = 0; p < s->n_players; p++)
    if (eng_cards_find (s->hand[p], s->hand_n[p], k) >= 0)
      return ENG_N_ ("in a hidden place");
  return eng_cards_find (s->deck, s->deck_n, k) >= 0 ? ENG_N_ ("in a hidden place") : NULL;
}

/* A card in words for a refusal: its name while the table can see it (on
 * the table, in a pile), "card N" otherwise, which the live referee
 * redacts (S11). */
static const char *
card_words (EngPlay *c, uint8_t k, char *buf, size_t size)
{
  const EscRules *r = c->rules;
  if (eng_play_words (c) || c->why != NULL)
    {
      if (escoba_card_public (r, c->state, r->table.serial[k]))
        escoba_card_name (r, r->table.serial[k], true, buf, size);
      else
        snprintf (buf, size, ENG_ ("card %u"), r->table.serial[k]);
    }
  return buf;
}

/* Takes card k out of a hidden place (p's hand, or the deck when p < 0):
 * the known card, or an unknown token the table just showed to be k. */
static EngStatus
take_hidden (EngPlay *c, int p, uint8_t k)
{
  EscState *s = c->state;
  uint8_t *cards = p >= 0 ? s->hand[p] : s->deck;
  uint8_t *n = p >= 0 ? &s->hand_n[p] : &s->deck_n;
  int i = eng_cards_find (cards, *n, k);
  char name[48];
  if (i < 0)
    {
      const char *where = locate (s, k);
      if (where != NULL)
        return eng_play_refuse (c, ENG_ERR_CONSERVATION, "S11",
                                ENG_N_ ("%s cannot come from there: it is %s"),
                                card_words (c, k, name, sizeof name), ENG_ (where));
      i = p >= 0 ? eng_cards_find (cards, *n, ENG_CARD_UNKNOWN) : (int) *n - 1;
      if (i < 0 || cards[i] != ENG_CARD_UNKNOWN)
        return p >= 0 ? eng_play_refuse (c, ENG_ERR_CONSERVATION, "S11",
                                         ENG_N_ ("%s has no card left to play"),
                                         eng_play_name (c, p))
                      : eng_play_refuse (c, ENG_ERR_CONSERVATION, "S11",
                                         ENG_N_ ("The deck has no card left to deal"));
    }
  eng_cards_remove_at (cards, n, i);
  return ENG_OK;
}

/* A card's name for an event ("the seven of oros"), only on the words path. */
static const char *
face (EngPlay *c, uint8_t k, bool definite, char *buf, size_t size)
{
  if (!eng_play_words (c))
    return "";
  escoba_card_name (c->rules, ((const EscRules *) c->rules)->table.serial[k], definite, buf, size);
  return buf;
}

/* ---- counting (S8, S9) ----------------------------------------------------- */

static void
take_into_pile (EngPlay *c, unsigned side, uint8_t k)
{
  const EscRules *r = c->rules;
  EscState *s = c->state;
  EscTaken *t = &s->taken[side];
  s->pile[side][s->pile_n[side]++] = k;
  t->cards++;
  t->oros += r->suit[k] == 0;
  t->sevens += r->value[k] == 7;
  t->siete_de_oros |= k == r->siete_de_oros;
  unsigned prim = escoba_primera (r, k);
  if (prim > t->best[r->suit[k]])
    t->best[r->suit[k]] = (uint8_t) prim;
}

/* An escoba for `side`: `card` lies face up across its pile (S5). */
static void
escoba_mark (EscState *s, unsigned side, uint8_t card)
{
  EscTaken *t = &s->taken[side];
  if (t->escobas < ESC_MARKS)
    t->marks[t->escobas] = card;
  t->escobas++;
}

/* The side alone with the most of `count` (-1 on a tie or none). */
static int
most (const EscState *s, unsigned sides, unsigned (*count) (const EscTaken *))
{
  int best = -1;
  unsigned top = 0;
  bool tie = false;
  for (unsigned i = 0; i < sides; i++)
    {
      unsigned n = count (&s->taken[i]);
      if (best < 0 || n > top)
        best = (int) i, top = n, tie = false;
      else if (n == top)
        tie = true;
    }
  return tie || top == 0 ? -1 : best;
}

static unsigned n_cards (const EscTaken *t) { return t->cards; }
static unsigned n_oros (const EscTaken *t) { return t->oros; }
static unsigned n_sevens (const EscTaken *t) { return t->sevens; }
static unsigned
primera (const EscTaken *t)
{
  return (unsigned) t->best[0] + t->best[1] + t->best[2] + t->best[3];
}

/* "Ana and Cai" for a side of two, the player's name otherwise. */
static const char *
side_name (EngPlay *c, unsigned side, char *buf, size_t size)
{
  const EscRules *r = c->rules;
  const EscState *s = c->state;
  if (escoba_n_sides (r, s) == s->n_players)
    return eng_play_name (c, (int) side);
  buf[0] = '\0';
  eng_text_list_add (buf, size, eng_play_name (c, (int) side), 0, 2);
  eng_text_list_add (buf, size, eng_play_name (c, (int) side + 2), 1, 2);
  return buf;
}

/* Appends one counted item to the round's line ("most cards (22)"). */
static void
item (char *line, size_t size, const char *text)
{
  if (line[0] != '\0')
    eng_text_append (line, size, ", ");
  eng_text_append (line, size, text);
}

/* S9: with the switch, all four sevens or all ten oros score more. */
static bool all_sevens (const EscRules *r, const EscTaken *t) { return r->all_sevens && t->sevens == 4; }
static bool all_oros (const EscRules *r, const EscTaken *t) { return r->all_sevens && t->oros == 10; }

/* Side i's points in the round last counted (S8, S9). */
static int
round_points (const EscRules *r, const EscState *s, unsigned i)
{
  const EscTaken *t = &s->last_taken[i];
  return t->escobas + (s->last_most[0] == (int) i)
         + (s->last_most[1] == (int) i) * (all_oros (r, t) ? 2 : 1) + t->siete_de_oros
         + (s->last_most[2] == (int) i) * (all_sevens (r, t) ? 3 : 1);
}

void
escoba_count_words (const EscRules *r, const EscState *s, unsigned i, char *line, size_t size)
{
  const EscTaken *t = &s->last_taken[i];
  char buf[64];
  line[0] = '\0';
  if (t->escobas > 0)
    {
      snprintf (buf, sizeof buf, ENG_NG_ ("%u escoba", "%u escobas", t->escobas), t->escobas);
      item (line, size, buf);
    }
  if (s->last_most[0] == (int) i)
    snprintf (buf, sizeof buf, ENG_ ("most cards (%u)"), t->cards), item (line, size, buf);
  if (s->last_most[1] == (int) i)
    snprintf (buf, sizeof buf, all_oros (r, t) ? ENG_ ("all the oros") : ENG_ ("most oros (%u)"),
              t->oros), item (line, size, buf);
  if (t->siete_de_oros)
    item (line, size, ENG_ ("siete de oros"));
  if (s->last_most[2] == (int) i && r->sevens == ESC_SEVENS_PRIMERA)
    snprintf (buf, sizeof buf, ENG_ ("primera (%u)"), primera (t)), item (line, size, buf);
  else if (s->last_most[2] == (int) i)
    snprintf (buf, sizeof buf, all_sevens (r, t) ? ENG_ ("all four sevens") : ENG_ ("most sevens (%u)"),
              t->sevens), item (line, size, buf);
}

/* The round's points per side (S8, S9), said as the table counts them:
 * "Ana: 2 escobas, most cards (22), siete de oros: 4 points".  What the
 * count saw is kept for the table to read back during the next round. */
static void
count_round (EngPlay *c)
{
  const EscRules *r = c->rules;
  EscState *s = c->state;
  unsigned sides = escoba_n_sides (r, s);
  memcpy (s->last_taken, s->taken, sizeof s->last_taken);
  s->last_most[0] = (int8_t) most (s, sides, n_cards);
  s->last_most[1] = (int8_t) most (s, sides, n_oros);
  s->last_most[2] = (int8_t) most (s, sides, r->sevens == ESC_SEVENS_PRIMERA ? primera : n_sevens);
  for (unsigned i = 0; i < sides; i++)
    {
      int pts = round_points (r, s, i);
      s->last_points[i] = (uint8_t) pts;
      for (unsigned p = 0; p < s->n_players; p++)
        if (escoba_side (r, s, p) == i)
          s->h.score[p] = (int16_t) (s->h.score[p] + pts);
      if (!eng_play_words (c))
        continue;
      char line[160], name[80];
      escoba_count_words (r, s, i, line, sizeof line);
      EngEvent *e = line[0] != '\0'
        ? eng_play_sayn (c, ENG_EVENT_SCORE, (int) i, "S8", "%s: %s: %d point", "%s: %s: %d points",
                         (unsigned long) pts, side_name (c, i, name, sizeof name), line, pts)
        : eng_play_say (c, ENG_EVENT_SCORE, (int) i, "S8", ENG_N_ ("%s: no points this round"),
                        side_name (c, i, name, sizeof name));
      if (e != NULL)
        e->value = s->h.score[i], e->delta = (int16_t) pts;
    }
}

/* ---- rounds (S1, S2, S6, S7, S10) ------------------------------------------ */

/* Deals the hands of a round (S1, S6): three each from the deck, one at a
 * time, starting at the dealer's right; tokens at a live table. */
static void
deal_hands (EscState *s)
{
  for (unsigned i = 0; i < ESC_HAND; i++)
    for (unsigned k = 0, p = escoba_next (s, s->dealer); k < s->n_players;
         k++, p = escoba_next (s, p))
      s->hand[p][s->hand_n[p]++] = s->deck[--s->deck_n];
}

/* A new round: every card gathered and shuffled into the deck; the hands
 * dealt; the four table cards wait for the dealer's `deal`. */
static void
new_round (const EscRules *r, EscState *s)
{
  memset (s->hand_n, 0, sizeof s->hand_n);
  memset (s->pile_n, 0, sizeof s->pile_n);
  memset (s->taken, 0, sizeof s->taken);
  s->table_n = 0;
  s->deck_n = ESC_CARDS;
  for (unsigned k = 0; k < ESC_CARDS; k++)
    s->deck[k] = s->omniscient ? (uint8_t) k : ENG_CARD_UNKNOWN;
  if (s->omniscient)
    eng_rng_shuffle_u8 (&s->rng, s->deck, ESC_CARDS);
  (void) r;
  deal_hands (s);
  s->last_capturer = ENG_CARD_NONE;
  s->active = (uint8_t) escoba_next (s, s->dealer);
  s->phase = ESC_PHASE_DEAL;
  s->h.to_move = (int8_t) s->dealer;
}

static void
need_deal (EngPlay *c)
{
  const EscState *s = c->state;
  ENG_SAY (c, ENG_EVENT_NEED, s->dealer, "S1",
           ENG_N_ ("%s: deal three cards each, then four face up on the table"),
           eng_play_name (c, s->dealer));
}

/* The round is over: the last table cards to the last capturer (S7), the
 * count (S8), then the end of the game or the next round (S10). */
static void
end_round (EngPlay *c)
{
  const EscRules *r = c->rules;
  EscState *s = c->state;
  unsigned taker = s->last_capturer != ENG_CARD_NONE ? s->last_capturer : s->dealer;
  if (s->table_n > 0)
    ENG_SAY (c, ENG_EVENT_NEED, (int) taker, "S7",
             ENG_N_ ("%s: take the last cards on the table into your pile"),
             eng_play_name (c, (int) taker));
  for (unsigned i = 0; i < s->table_n; i++)
    take_into_pile (c, escoba_side (r, s, taker), s->table[i]);
  s->table_n = 0;
  count_round (c);
  unsigned sides = escoba_n_sides (r, s);
  int16_t best = s->h.score[0];
  for (unsigned i = 1; i < sides; i++)
    best = s->h.score[i] > best ? s->h.score[i] : best;
  unsigned leaders = eng_scores_leaders (s->h.score, sides);
  if (best >= r->target && __builtin_popcount (leaders) == 1)
    {
      s->phase = ESC_PHASE_OVER;
      s->h.over = 1;
      s->h.to_move = -1;
      unsigned side = (unsigned) __builtin_ctz (leaders);
      for (unsigned p = 0; p < s->n_players; p++)
        if (escoba_side (r, s, p) == side)
          s->h.winners |= (uint16_t) (1u << p);
      eng_play_game_over (c, s->h.winners, best, "score", "S10");
      return;
    }
  if (best >= r->target)
    ENG_SAY (c, ENG_EVENT_NOTE, -1, "S10",
             ENG_N_ ("Tied at %d points: another round decides"), best);
  s->round++;
  s->dealer = (uint8_t) escoba_next (s, s->dealer);
  new_round (r, s);
  ENG_SAY (c, ENG_EVENT_NOTE, s->dealer, "S1", ENG_N_ ("Round %u: %s deals"), s->round,
           eng_play_name (c, s->dealer));
  need_deal (c);
}

/* After a card is played: the next player, new hands (S6) or the end. */
static void
next_turn (EngPlay *c)
{
  EscState *s = c->state;
  s->active = (uint8_t) escoba_next (s, s->active);
  s->h.to_move = (int8_t) s->active;
  bool empty = true;
  for (unsigned p = 0; p < s->n_players; p++)
    empty = empty && s->hand_n[p] == 0;
  if (empty && s->deck_n == 0)
    {
      end_round (c);
      return;
    }
  if (empty)
    {
      deal_hands (s);
      EngEvent *e = eng_play_say (c, ENG_EVENT_DEALT, s->dealer, "S6",
                                  ENG_N_ ("%s: deal three more cards to each player"),
                                  eng_play_name (c, s->dealer));
      for (unsigned p = 0; e != NULL && p < s->n_players; p++)
        e->counts[p][0] = ESC_HAND;
    }
  ENG_SAY (c, ENG_EVENT_NEED, s->active, "S3", ENG_N_ ("%s: lay a card"),
           eng_play_name (c, s->active));
}

/* ---- the dealer's deal (S1, S2) ---------------------------------------------- */

/* Whether some of the n cards add up to 15 (the rest then add up to 15 too
 * when all four make 30). */
static bool
splits_in_fifteens (const EscRules *r, const uint8_t *cards, unsigned n)
{
  for (unsigned mask = 1; mask < (1u << n) - 1; mask++)
    {
      unsigned sum = 0;
      for (unsigned i = 0; i < n; i++)
        sum += (mask >> i) & 1 ? r->value[cards[i]] : 0;
      if (sum == 15)
        return true;
    }
  return false;
}

static EngStatus
apply_deal (EngPlay *c, const EngMove *m)
{
  const EscRules *r = c->rules;
  EscState *s = c->state;
  if (s->phase != ESC_PHASE_DEAL)
    return ENG_ILLEGAL (c, "S1", ENG_N_ ("The table's four cards are dealt once a round"));
  if (m->player != s->dealer)
    return ENG_ILLEGAL (c, "S1", ENG_N_ ("%s deals this round"), eng_play_name (c, s->dealer));
  uint16_t serials[ESC_TABLE_DEAL] = { m->card, m->cards[0], m->cards[1], m->cards[2] };
  eng_serials_sort (serials, ESC_TABLE_DEAL);
  unsigned sum = 0;
  for (unsigned i = 0; i < ESC_TABLE_DEAL; i++)
    {
      uint8_t k = eng_card_table_index (&r->table, serials[i]);
      if (k == ENG_CARD_NONE)
        return ENG_ILLEGAL (c, "set", ENG_N_ ("card %u is not in this card set"), serials[i]);
      EngStatus st = take_hidden (c, -1, k);
      if (st != ENG_OK)
        return st;
      s->table[s->table_n++] = k;
      sum += r->value[k];
    }
  s->phase = ESC_PHASE_PLAY;
  s->h.to_move = (int8_t) s->active;
  unsigned escobas = sum == 15 ? 1 : sum == 30 && splits_in_fifteens (r, s->table, 4) ? 2 : 0;
  if (escobas > 0)
    {
      /* S2: the dealer takes them at once */
      unsigned side = escoba_side (r, s, s->dealer);
      for (unsigned i = 0; i < s->table_n; i++)
        take_into_pile (c, side, s->table[i]);
      s->table_n = 0;
      for (unsigned i = 0; i < escobas; i++)
        escoba_mark (s, side, s->pile[side][s->pile_n[side] - 4 + i]);
      s->last_capturer = s->dealer;
      EngEvent *e = eng_play_sayn (c, ENG_EVENT_TAKEN, s->dealer, "S2",
                                   "Dealer's escoba: %s takes the four table cards (%u escoba)",
                                   "Dealer's escoba: %s takes the four table cards (%u escobas)",
                                   escobas, eng_play_name (c, s->dealer), escobas);
      if (e != NULL)
        e->value = (int16_t) serials[0];
    }
  ENG_SAY (c, ENG_EVENT_NEED, s->active, "S3", ENG_N_ ("%s: lay a card"),
           eng_play_name (c, s->active));
  return ENG_OK;
}

/* ---- a turn (S3, S4, S5) ----------------------------------------------------- */

/* Whether a subset of the table adds up to `want` (S4's test). */
static bool
can_make (const EscRules *r, const uint8_t *table, unsigned n, unsigned want)
{
  if (want == 0)
    return true;
  if (n == 0)
    return false;
  return ((unsigned) r->value[table[0]] <= want && can_make (r, table + 1, n - 1, want - r->value[table[0]]))
         || can_make (r, table + 1, n - 1, want);
}

bool
escoba_can_capture (const EscRules *r, const EscState *s, uint8_t card)
{
  return r->value[card] < 15 && s->table_n > 0 && can_make (r, s->table, s->table_n, 15u - r->value[card]);
}

/* "the seven of oros and the eight of copas": the cards of a move, the
 * one laid first. */
static void
combination (EngPlay *c, uint8_t laid, const uint8_t *taken, unsigned n, char *list, size_t size)
{
  char name[48];
  list[0] = '\0';
  eng_text_list_add (list, size, face (c, laid, true, name, sizeof name), 0, n + 1);
  for (unsigned i = 0; i < n; i++)
    eng_text_list_add (list, size, face (c, taken[i], true, name, sizeof name), i + 1, n + 1);
}

static EngStatus
capture (EngPlay *c, const EngMove *m, uint8_t k)
{
  const EscRules *r = c->rules;
  EscState *s = c->state;
  unsigned sum = r->value[k];
  uint8_t taken[ENG_MOVE_MAX_CARDS];
  char list[240];
  for (unsigned i = 0; i < m->n_cards; i++)
    {
      taken[i] = eng_card_table_index (&r->table, m->cards[i]);
      int at = taken[i] == ENG_CARD_NONE ? -1 : eng_cards_find (s->table, s->table_n, taken[i]);
      if (at < 0 && taken[i] != ENG_CARD_NONE)
        return ENG_ILLEGAL (c, "S3", ENG_N_ ("%s is not on the table"),
                            card_words (c, taken[i], list, sizeof list));
      if (at < 0)
        return ENG_ILLEGAL (c, "set", ENG_N_ ("card %u is not in this card set"), m->cards[i]);
      eng_cards_remove_at (s->table, &s->table_n, at);
      sum += r->value[taken[i]];
    }
  if (sum != 15)
    {
      if (c->why != NULL)
        {
          EngPlay named = *c;
          named.events = &(EngEvents) { 0 };   /* names wanted for the verdict */
          combination (&named, k, taken, m->n_cards, list, sizeof list);
        }
      return ENG_ILLEGAL (c, "S3", ENG_N_ ("These make %u, not 15: %s"), sum, list);
    }
  unsigned side = escoba_side (r, s, (unsigned) m->player);
  take_into_pile (c, side, k);
  for (unsigned i = 0; i < m->n_cards; i++)
    take_into_pile (c, side, taken[i]);
  s->last_capturer = (uint8_t) m->player;
  if (eng_play_words (c))
    {
      /* one breath: past two table cards the laid card and a count (the
       * table sees which ones; the log's details hold the record) */
      EngEvent *e;
      if (m->n_cards > 2)
        e = eng_play_say (c, ENG_EVENT_TAKEN, m->player, "S3",
                          ENG_N_ ("%s takes 15 with %s and %u table cards"),
                          eng_play_name (c, m->player), face (c, k, true, list, sizeof list),
                          m->n_cards);
      else
        {
          combination (c, k, taken, m->n_cards, list, sizeof list);
          e = eng_play_say (c, ENG_EVENT_TAKEN, m->player, "S3", ENG_N_ ("%s takes 15: %s"),
                            eng_play_name (c, m->player), list);
        }
      if (e != NULL)
        e->value = (int16_t) m->card;
    }
  if (s->table_n == 0)
    {
      escoba_mark (s, side, k);
      ENG_SAY (c, ENG_EVENT_NOTE, m->player, "S5", ENG_N_ ("Escoba! %s clears the table"),
               eng_play_name (c, m->player));
    }
  return ENG_OK;
}

static EngStatus
apply_play (EngPlay *c, const EngMove *m)
{
  const EscRules *r = c->rules;
  EscState *s = c->state;
  if (s->phase == ESC_PHASE_DEAL)
    return ENG_ILLEGAL (c, "S1", ENG_N_ ("First %s deals four cards face up on the table"),
                        eng_play_name (c, s->dealer));
  if (m->player != s->active)
    return ENG_ILLEGAL (c, "S1", ENG_N_ ("It is %s's turn"), eng_play_name (c, s->active));
  uint8_t k = eng_card_table_index (&r->table, m->card);
  if (k == ENG_CARD_NONE)
    return ENG_ILLEGAL (c, "set", ENG_N_ ("card %u is not in this card set"), m->card);
  EngStatus st = take_hidden (c, m->player, k);
  if (st != ENG_OK)
    return st;
  if (m->n_cards > 0)
    st = capture (c, m, k);
  else if (r->capture_required && escoba_can_capture (r, s, k))
    {
      char name[48];
      return ENG_ILLEGAL (c, "S4", ENG_N_ ("%s can make 15 with %s and must take it"),
                          eng_play_name (c, m->player), face (c, k, true, name, sizeof name));
    }
  else
    {
      char name[48];
      s->table[s->table_n++] = k;
      EngEvent *e = eng_play_say (c, ENG_EVENT_SHOWN, m->player, "S3",
                                  ENG_N_ ("%s lays %s on the table"), eng_play_name (c, m->player),
                                  face (c, k, true, name, sizeof name));
      if (e != NULL)
        e->value = (int16_t) m->card;
    }
  if (st == ENG_OK)
    next_turn (c);
  return st;
}

static EngStatus (*const escoba_plays[ESC_VERB_COUNT]) (EngPlay *, const EngMove *) = {
  [ESC_DEAL] = apply_deal, [ESC_PLAY] = apply_play,
};

/* ---- setup ----------------------------------------------------------------- */

static EngStatus
escoba_setup (const void *rules, const EngSetup *su, const EngRng *rng, void *state,
              EngEvents *events, EngVerdict *why)
{
  const EscRules *r = rules;
  EscState *s = state;
  if (su->n_players < 2 || su->n_players > ESC_PLAYERS)
    return eng_setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "players",
                             ENG_N_ ("Escoba is for 2 to 4 players, not %u"), su->n_players);
  if (r->pairs && su->n_players != 4)
    return eng_setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "players",
                             ENG_N_ ("Pairs need four players"));
  if (su->n_deals > 0)
    return eng_setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "setup",
                             ENG_N_ ("Escoba takes no deal lines: the dealer's deal shows the table"));
  memset (s, 0, sizeof *s);
  s->n_players = (uint8_t) su->n_players;
  s->omniscient = su->has_seed;
  s->rng = *rng;
  s->round = 1;
  /* the first player sits at the dealer's right (S1) */
  unsigned first = su->first >= 0 ? (unsigned) su->first : 0;
  s->dealer = (uint8_t) ((first + 1) % s->n_players);
  new_round (r, s);
  EngPlay c = { r, s, su, events, why };
  need_deal (&c);
  return ENG_OK;
}

/* ---- legal moves ------------------------------------------------------------- */

/* Every subset of table[from..] adding up to `want`, pushed as captures. */
static void
push_captures (const EscRules *r, const EscState *s, EngMove *m, unsigned from, unsigned want,
               EngMoveList *l)
{
  if (want == 0)
    {
      eng_move_list_push (l, m);
      return;
    }
  for (unsigned i = from; i < s->table_n && m->n_cards < ENG_MOVE_MAX_CARDS; i++)
    if ((unsigned) r->value[s->table[i]] <= want)
      {
        m->cards[m->n_cards++] = r->table.serial[s->table[i]];
        push_captures (r, s, m, i + 1, want - r->value[s->table[i]], l);
        m->n_cards--;
      }
}

static size_t
escoba_legal_moves (const void *rules, const void *state, EngMove *out, size_t max)
{
  const EscRules *r = rules;
  const EscState *s = state;
  EngMoveList l = eng_move_list (out, max);
  EngMove m;
  if (s->phase == ESC_PHASE_DEAL && s->deck_n >= ESC_TABLE_DEAL
      && s->deck[s->deck_n - 1] != ENG_CARD_UNKNOWN)
    {
      /* only a dealt game knows the four; a live table shows them */
      eng_move_init (&m, ESC_DEAL, s->dealer);
      uint16_t four[ESC_TABLE_DEAL];
      for (unsigned i = 0; i < ESC_TABLE_DEAL; i++)
        four[i] = r->table.serial[s->deck[s->deck_n - 1 - i]];
      eng_serials_sort (four, ESC_TABLE_DEAL);
      m.card = four[0];
      for (unsigned i = 1; i < ESC_TABLE_DEAL; i++)
        m.cards[m.n_cards++] = four[i];
      eng_move_list_push (&l, &m);
    }
  if (s->phase != ESC_PHASE_PLAY)
    return l.n;
  bool can[ESC_CARDS] = { false }, unseen = false;
  for (unsigned i = 0; i < s->hand_n[s->active]; i++)
    if (s->hand[s->active][i] == ENG_CARD_UNKNOWN)
      unseen = true;
    else
      can[s->hand[s->active][i]] = true;
  /* unseen cards in hand: any card the referee has not located */
  for (unsigned k = 0; unseen && k < ESC_CARDS; k++)
    can[k] = can[k] || locate (s, (uint8_t) k) == NULL;
  for (unsigned k = 0; k < ESC_CARDS; k++)
    {
      if (!can[k])
        continue;
      eng_move_init (&m, ESC_PLAY, s->active);
      m.card = r->table.serial[k];
      if (!(r->capture_required && escoba_can_capture (r, s, (uint8_t) k)))
        eng_move_list_push (&l, &m);
      if (r->value[k] < 15)
        push_captures (r, s, &m, 0, 15u - r->value[k], &l);
    }
  return l.n;
}

/* ---- queries ------------------------------------------------------------------ */

/* Every card in one place: the deck, the hands, the table, the piles;
 * unseen ones as tokens of the hands and the deck only (S11). */
static EngStatus
escoba_check_conservation (const void *rules, const void *state, EngVerdict *why)
{
  const EscRules *r = rules;
  const EscState *s = state;
  EngTally t;
  eng_tally_init (&t);
  eng_tally_add (&t, &r->table, s->deck, s->deck_n, true);
  for (unsigned p = 0; p < s->n_players; p++)
    eng_tally_add (&t, &r->table, s->hand[p], s->hand_n[p], true);
  eng_tally_add (&t, &r->table, s->table, s->table_n, false);
  for (unsigned p = 0; p < ESC_PLAYERS; p++)
    eng_tally_add (&t, &r->table, s->pile[p], s->pile_n[p], false);
  return eng_tally_check (&t, &r->table, ESC_CARDS, "S11", why);
}

/* deal: the four table cards; play: the card laid and the table cards it takes */
static const EngVerbShape escoba_shapes[ESC_VERB_COUNT] = {
  [ESC_DEAL] = { ESC_TABLE_DEAL, ESC_TABLE_DEAL, 0, false, false, false },
  [ESC_PLAY] = { 1, 1 + ENG_MOVE_MAX_CARDS, 0, false, false, false },
};

const EngGameClass escoba_game_class = {
  .name = "escoba",
  .title = "Escoba",
  .min_players = 2,
  .max_players = ESC_PLAYERS,
  .state_size = sizeof (EscState),
  .verbs = escoba_verbs,
  .n_verbs = ESC_VERB_COUNT,
  .rules_size = sizeof (EscRules),
  .max_cards = ESC_CARDS,
  .attrs = escoba_attrs,
  .n_attrs = 2,
  .options = escoba_options,
  .n_options = 5,
  .rules_check = escoba_rules_check,
  .setup = escoba_setup,
  .legal_moves = escoba_legal_moves,
  .plays = escoba_plays,
  .over_rule = "S10",
  .check_conservation = escoba_check_conservation,
  .shapes = escoba_shapes,
  .public_view = escoba_public_view,
  .card_name = escoba_card_name,
  .card_public = escoba_card_public,
};

/* escoba-view.c: what everyone at an Escoba table may see (eng-view.h), and
 * the cards' names in the table's language.
 *
 * Names follow the Spanish deck's tradition (docs/escoba.md): Spanish and
 * Catalan say "el siete de oros", "la sota de copas", "el set d'oros",
 * "la sota de copes"; English keeps the suits' Spanish names and says the
 * ranks in English: "the seven of oros", "the jack of copas" (sota), "the
 * knight of espadas" (caballo), "the king of bastos" (rey).
 *
 * Open (S11): the table's cards, and every captured card, which the whole
 * table saw taken; hands and the deck never.  A pile lies face down but for
 * its escobas' cards across it. */
#include <stdio.h>
#include <string.h>

#include "escoba-private.h"
#include "eng-i18n.h"

static const char *
rank_words (unsigned value, bool definite)
{
  switch (value)
    {
    case 1: return definite ? ENG_C_ ("card rank", "the ace") : ENG_C_ ("card rank", "ace");
    case 2: return definite ? ENG_C_ ("card rank", "the two") : ENG_C_ ("card rank", "two");
    case 3: return definite ? ENG_C_ ("card rank", "the three") : ENG_C_ ("card rank", "three");
    case 4: return definite ? ENG_C_ ("card rank", "the four") : ENG_C_ ("card rank", "four");
    case 5: return definite ? ENG_C_ ("card rank", "the five") : ENG_C_ ("card rank", "five");
    case 6: return definite ? ENG_C_ ("card rank", "the six") : ENG_C_ ("card rank", "six");
    case 7: return definite ? ENG_C_ ("card rank", "the seven") : ENG_C_ ("card rank", "seven");
    case 8: return definite ? ENG_C_ ("card rank", "the jack") : ENG_C_ ("card rank", "jack");
    case 9: return definite ? ENG_C_ ("card rank", "the knight") : ENG_C_ ("card rank", "knight");
    default: return definite ? ENG_C_ ("card rank", "the king") : ENG_C_ ("card rank", "king");
    }
}

static const char *
suit_words (unsigned suit)
{
  switch (suit)
    {
    case 0: return ENG_C_ ("card suit", "of oros");
    case 1: return ENG_C_ ("card suit", "of copas");
    case 2: return ENG_C_ ("card suit", "of espadas");
    default: return ENG_C_ ("card suit", "of bastos");
    }
}

void
escoba_card_name (const void *rules, unsigned serial, bool definite, char *buf, size_t size)
{
  const EscRules *r = rules;
  uint8_t k = eng_card_table_index (&r->table, serial);
  if (k == ENG_CARD_NONE)
    snprintf (buf, size, definite ? ENG_ ("the card %u") : ENG_ ("card %u"), serial);
  else
    snprintf (buf, size, "%s %s", rank_words (r->value[k], definite), suit_words (r->suit[k]));
}

static bool
holds (const uint8_t *cards, unsigned n, uint8_t k)
{
  for (unsigned i = 0; i < n; i++)
    if (cards[i] == k)
      return true;
  return false;
}

bool
escoba_card_public (const void *rules, const void *state, unsigned serial)
{
  const EscRules *r = rules;
  const EscState *s = state;
  uint8_t k = eng_card_table_index (&r->table, serial);
  if (k == ENG_CARD_NONE)
    return false;
  bool open = holds (s->table, s->table_n, k);
  for (unsigned p = 0; p < ESC_PLAYERS && !open; p++)
    open = holds (s->pile[p], s->pile_n[p], k);
  return open;
}

static void
add_pile (const EscRules *r, const EscState *s, unsigned side, EngViewPlayer *vp)
{
  EngViewPlace *pile = eng_view_add_player_place (vp, ENG_ ("Pile"));
  if (pile == NULL)
    return;
  const EscTaken *t = &s->taken[side];
  for (unsigned i = 0; i < t->escobas && i < ESC_MARKS; i++)
    eng_view_place_add (pile, r->table.serial[t->marks[i]], 0, false);
  if (s->pile_n[side] > t->escobas)
    eng_view_place_add (pile, 0, 0, false);
  pile->count = s->pile_n[side];
}

/* The round last counted, side by side, while the next one is played: the
 * count a family checks and argues over (S8). */
static void
add_last_count (const EscRules *r, const EscState *s, const EngSetup *su, EngView *view)
{
  if (s->round < 2 && s->phase != ESC_PHASE_OVER)
    return;
  EngViewPanel *last = eng_view_add_panel (view, ENG_ ("Last round's count"));
  for (unsigned i = 0; last != NULL && i < escoba_n_sides (r, s) && i < ENG_VIEW_PANEL_ROWS; i++)
    {
      char words[ENG_VIEW_TEXT];
      escoba_count_words (r, s, i, words, sizeof words);
      unsigned pts = s->last_points[i];
      if (words[0] == '\0')
        eng_view_add_row (last, su->names[i], "%s", ENG_ ("no points"));
      else
        /* Translators: a side's points in the last round, and why. */
        eng_view_add_row (last, su->names[i], ENG_NG_ ("%u point: %s", "%u points: %s", pts), pts,
                          words);
    }
}

static void
add_panels (const EscRules *r, const EscState *s, const EngSetup *su, EngView *view)
{
  EngViewPanel *round = eng_view_add_panel (view, ENG_ ("This round"));
  if (round != NULL)
    {
      eng_view_add_row (round, ENG_ ("Round"), "%u", (unsigned) s->round);
      eng_view_add_row (round, ENG_ ("Dealer"), "%s", su->names[s->dealer]);
      eng_view_add_row (round, ENG_ ("Cards in the deck"), "%u", (unsigned) s->deck_n);
      for (unsigned i = 0; i < escoba_n_sides (r, s) && i + 3 < ENG_VIEW_PANEL_ROWS; i++)
        {
          const EscTaken *t = &s->taken[i];
          char cards[32], escobas[32];
          snprintf (cards, sizeof cards, ENG_NG_ ("%u card", "%u cards", t->cards), t->cards);
          if (t->escobas == 0)
            snprintf (escobas, sizeof escobas, "%s", ENG_ ("no escoba"));
          else
            snprintf (escobas, sizeof escobas, ENG_NG_ ("%u escoba", "%u escobas", t->escobas),
                      t->escobas);
          /* Translators: a side's cards taken and escobas this round. */
          eng_view_add_row (round, su->names[i], ENG_ ("%s, %s"), cards, escobas);
        }
    }
  add_last_count (r, s, su, view);
  EngViewPanel *house = eng_view_add_panel (view, ENG_ ("House rules"));
  if (house != NULL)
    {
      eng_view_add_row (house, ENG_ ("Whoever can make 15 must take it"), "%s",
                        r->capture_required ? ENG_ ("yes") : ENG_ ("no"));
      eng_view_add_row (house, ENG_ ("The sevens' point"), "%s",
                        r->sevens == ESC_SEVENS_PRIMERA ? ENG_ ("primera") : ENG_ ("most sevens"));
      eng_view_add_row (house, ENG_ ("All four sevens score 3"), "%s",
                        r->all_sevens ? ENG_ ("yes") : ENG_ ("no"));
      eng_view_add_row (house, ENG_ ("Points to win"), "%u", (unsigned) r->target);
      eng_view_add_row (house, ENG_ ("In pairs"), "%s", r->pairs ? ENG_ ("yes") : ENG_ ("no"));
    }
}

void
escoba_public_view (const void *rules, const void *state, const EngSetup *su, EngView *view)
{
  const EscRules *r = rules;
  const EscState *s = state;
  eng_view_fill_common (view, &escoba_game_class, rules, state);
  if (s->phase == ESC_PHASE_DEAL)
    /* the table waits for the dealer's hands: "Ana's turn · dealing" */
    snprintf (view->phase, sizeof view->phase, "%s", ENG_ ("dealing"));
  else if (s->phase == ESC_PHASE_PLAY)
    snprintf (view->phase, sizeof view->phase, "%s", ENG_ ("laying a card"));
  for (unsigned p = 0; p < s->n_players && p < view->n_players; p++)
    {
      EngViewPlayer *vp = &view->players[p];
      vp->hand = s->hand_n[p];
      /* partners share one pile: shown at the first of them */
      if (escoba_side (r, s, p) == p)
        add_pile (r, s, p, vp);
      if (p == s->dealer && !view->over)
        snprintf (vp->status, sizeof vp->status, "%s", ENG_ ("deals this round"));
    }
  EngViewPlace *table = eng_view_add_shared (view, ENG_ ("Table"));
  for (unsigned i = 0; table != NULL && i < s->table_n; i++)
    eng_view_place_add (table, r->table.serial[s->table[i]], 0, false);
  if (table != NULL)
    table->count = s->table_n;
  EngViewPlace *deck = eng_view_add_shared (view, ENG_ ("Deck"));
  if (deck != NULL && s->deck_n > 0)
    {
      eng_view_place_add (deck, 0, 0, false);
      deck->count = s->deck_n;
    }
  add_panels (r, s, su, view);
}

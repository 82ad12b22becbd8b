/* catchy-view.c: what everyone at a Catchy! table may see (eng-view.h), and
 * card names in the table's language.  Only faces that are up now are
 * named: the path cards lie face down all hand and are backs even when the
 * referee dealt them from a seed (C11); hands are counts. */
#include <stdio.h>
#include <string.h>

#include "catchy-private.h"
#include "eng-i18n.h"

/* A place of the path as a player sees it, counted from `first`'s arms
 * (place 0) to `second`'s (6): the path cards lie next to each player and
 * in the middle, the cat walks the spaces between. */
void
catchy_place_words (int place, const char *first, const char *second, char *buf, size_t size)
{
  if (place <= 0 || place >= CATCHY_POSITIONS - 1)
    snprintf (buf, size, ENG_ ("%s's arms"), place <= 0 ? first : second);
  else if (place == CATCHY_CENTRE)
    snprintf (buf, size, "%s", ENG_ ("the middle path space"));
  else if (place == 1 || place == CATCHY_POSITIONS - 2)
    snprintf (buf, size, ENG_ ("the path space next to %s"), place == 1 ? first : second);
  else
    snprintf (buf, size, ENG_ ("the second path space from %s"),
              place < CATCHY_CENTRE ? first : second);
}

void
catchy_place_at_words (int place, const char *first, const char *second, char *buf, size_t size)
{
  if (place <= 0 || place >= CATCHY_POSITIONS - 1)
    snprintf (buf, size, ENG_ ("in %s's arms"), place <= 0 ? first : second);
  else if (place == CATCHY_CENTRE)
    snprintf (buf, size, "%s", ENG_ ("on the middle path space"));
  else if (place == 1 || place == CATCHY_POSITIONS - 2)
    snprintf (buf, size, ENG_ ("on the path space next to %s"), place == 1 ? first : second);
  else
    snprintf (buf, size, ENG_ ("on the second path space from %s"),
              place < CATCHY_CENTRE ? first : second);
}

/* Path card `n` (1-3) counted from `from`'s arms: "the path card next to
 * Ana", "the middle path card". */
void
catchy_path_card_words (int n, const char *from, const char *other, char *buf, size_t size)
{
  if (n == 2)
    snprintf (buf, size, "%s", ENG_ ("the middle path card"));
  else
    snprintf (buf, size, ENG_ ("the path card next to %s"), n == 1 ? from : other);
}

const char *
catchy_colour_words (const CatchyRules *r, unsigned colour)
{
  if (colour >= r->n_colours)
    return ENG_C_ ("card colour", "colourless");
  const char *id = r->colour_ids[colour];
  /* the set's placeholder colours have catalogue entries; a set that renames
   * them gives its own word (data texts are translated with the set) */
  if (strcmp (id, "green") == 0)
    return ENG_C_ ("card colour", "green");
  if (strcmp (id, "orange") == 0)
    return ENG_C_ ("card colour", "orange");
  if (strcmp (id, "purple") == 0)
    return ENG_C_ ("card colour", "purple");
  const char *word = eng_card_set_colour_word (r->set, id);
  return word != NULL ? word : id;
}

/* Open: the mood card's side up, the cards played this hand, face up on
 * the played pile (C12), and the card led in the trick under way.  Hands
 * and the path are not (C11); a new hand gathers every card in again. */
bool
catchy_card_public (const void *rules, const void *state, unsigned serial)
{
  const CatchyRules *r = rules;
  const CatchyState *s = state;
  uint8_t idx = catchy_card_index (r, serial);
  if (idx == CATCHY_NONE || idx == CATCHY_UNKNOWN)
    return false;
  if (s->lead == idx || r->mood[s->mood] == idx)
    return true;
  for (unsigned t = 0; t < s->n_tricks && t < CATCHY_TRICKS; t++)
    if (s->tricks[t].lead == idx || s->tricks[t].follow == idx)
      return true;
  return false;
}

void
catchy_card_name (const void *rules, unsigned serial, bool definite, char *buf, size_t size)
{
  const CatchyRules *r = rules;
  uint8_t idx = catchy_card_index (r, serial);
  if (idx == CATCHY_NONE)
    {
      snprintf (buf, size, definite ? ENG_ ("the card %u") : ENG_ ("card %u"), serial);
      return;
    }
  const CatchyCard *c = &r->cards[idx];
  switch (c->kind)
    {
    case CATCHY_KIND_NUMBER:
      snprintf (buf, size, definite ? ENG_ ("the %s %u") : ENG_ ("%s %u"),
                catchy_colour_words (r, c->colour), (unsigned) c->value);
      return;
    case CATCHY_KIND_WILD:
      snprintf (buf, size, "%s", definite ? ENG_ ("the wild 3") : ENG_ ("wild 3"));
      return;
    case CATCHY_KIND_START:
      snprintf (buf, size, "%s", definite ? ENG_ ("the start card") : ENG_ ("start card"));
      return;
    default:
      snprintf (buf, size, "%s",
                idx == r->mood[CATCHY_RED]
                  ? (definite ? ENG_ ("the mood card, red side") : ENG_ ("mood card, red side"))
                  : (definite ? ENG_ ("the mood card, blue side")
                              : ENG_ ("mood card, blue side")));
    }
}

static const char *
phase_words (const CatchyState *s)
{
  switch (s->phase)
    {
    case CATCHY_PHASE_SWAP: return ENG_ ("the start card is swapped for a path card");
    case CATCHY_PHASE_LEAD: return ENG_ ("a trick is led");
    case CATCHY_PHASE_FOLLOW: return ENG_ ("the follower answers the trick");
    default: return "";
    }
}

/* The path as the table lays it out: the first player's arms, five spaces
 * (face-down cards on 1, 3 and 5), the second player's arms; the marker is
 * the cat. */
static void
add_path (const CatchyRules *r, const CatchyState *s, EngView *view)
{
  EngViewPlace *path = eng_view_add_shared (view, ENG_ ("Path"));
  if (path == NULL)
    return;
  for (int pos = 0; pos < CATCHY_POSITIONS; pos++)
    {
      bool card = pos == 1 || pos == 3 || pos == 5;
      eng_view_place_add (path, 0, r->main_deck, !card);
    }
  path->count = CATCHY_PATH_CARDS;
  path->marker = (int8_t) s->cat;
  snprintf (path->marker_label, sizeof path->marker_label, ENG_ ("the cat (%s)"),
            s->mood == CATCHY_RED ? ENG_C_ ("mood", "red") : ENG_C_ ("mood", "blue"));
}

static void
add_panels (const CatchyRules *r, const CatchyState *s, EngView *view)
{
  EngViewPanel *hand = eng_view_add_panel (view, ENG_ ("This hand"));
  if (hand != NULL)
    {
      eng_view_add_row (hand, ENG_ ("Hand"), "%u", (unsigned) s->hand_no);
      eng_view_add_row (hand, ENG_ ("Tricks played"), "%u / %d", (unsigned) s->n_tricks,
                        CATCHY_TRICKS);
      eng_view_add_row (hand, ENG_ ("Mood"), "%s",
                        s->mood == CATCHY_RED ? ENG_C_ ("mood", "red") : ENG_C_ ("mood", "blue"));
      /* in the arms (the hand is over), on the centre, or how far on whose
       * side: a name alone would read as the arms */
      int near = s->cat < CATCHY_CENTRE ? 0 : 1;
      if (s->cat == 0 || s->cat == CATCHY_POSITIONS - 1)
        eng_view_add_row (hand, ENG_ ("Cat"), ENG_ ("%s's arms"), s->names[near]);
      else if (s->cat == CATCHY_CENTRE)
        eng_view_add_row (hand, ENG_ ("Cat"), "%s", ENG_ ("centre"));
      else
        {
          char where[96];
          catchy_place_words (s->cat, s->names[0], s->names[1], where, sizeof where);
          eng_view_add_row (hand, ENG_ ("Cat"), "%s", where);
        }
      eng_view_add_row (hand, ENG_ ("Revokes proven"), "%u / %u", (unsigned) s->revokes[0],
                        (unsigned) s->revokes[1]);
    }
  EngViewPanel *house = eng_view_add_panel (view, ENG_ ("House rules"));
  if (house != NULL)
    {
      eng_view_add_row (house, ENG_ ("The wild may always be played"), "%s",
                        r->wild_always_playable ? ENG_ ("yes") : ENG_ ("no"));
      eng_view_add_row (house, ENG_ ("The wild counts as odd"), "%s",
                        r->wild_is_odd ? ENG_ ("yes") : ENG_ ("no"));
      eng_view_add_row (house, ENG_ ("A tie at the winning score"), "%s",
                        r->tie_at_seven == CATCHY_TIE_SHARED ? ENG_ ("shared victory")
                                                             : ENG_ ("another hand"));
      eng_view_add_row (house, ENG_ ("Points to win"), "%u", (unsigned) r->winning_score);
    }
}

void
catchy_public_view (const void *rules, const void *state, const EngSetup *setup, EngView *view)
{
  const CatchyRules *r = rules;
  const CatchyState *s = state;
  (void) setup;
  view->scored = true;
  view->over = s->phase == CATCHY_PHASE_OVER;
  view->winners = view->over ? s->winners : 0;
  /* who holds the start card is hidden until they swap (C11), even when the
   * referee dealt the cards */
  view->deciding = (int8_t) (s->phase == CATCHY_PHASE_SWAP ? -1 : catchy_to_move (rules, state));
  view->active = view->over ? -1 : view->deciding;
  snprintf (view->phase, sizeof view->phase, "%s", phase_words (s));
  for (unsigned p = 0; p < CATCHY_PLAYERS && p < view->n_players; p++)
    {
      EngViewPlayer *vp = &view->players[p];
      vp->score = s->score[p];
      vp->hand = s->hand_n[p];
      if ((int) p == view->active)
        vp->flags |= ENG_VIEW_PLAYER_ACTIVE;
      if ((int) p == view->deciding)
        vp->flags |= ENG_VIEW_PLAYER_DECIDING;
      if (view->winners & (1u << p))
        vp->flags |= ENG_VIEW_PLAYER_WINNER;
      if (!view->over && s->phase != CATCHY_PHASE_SWAP && (int) p == s->leader)
        snprintf (vp->status, sizeof vp->status, "%s", ENG_ ("leads this trick"));
    }
  add_path (r, s, view);
  EngViewPlace *mood = eng_view_add_shared (view, ENG_ ("Mood card"));
  if (mood != NULL)
    eng_view_place_add (mood, r->cards[r->mood[s->mood]].serial, r->mood_deck, false);
  EngViewPlace *trick = eng_view_add_shared (view, ENG_ ("Trick"));
  if (trick != NULL && s->lead != CATCHY_NONE)
    eng_view_place_add (trick, r->cards[s->lead].serial, r->main_deck, false);
  /* C12: every card played this hand lies face up on one pile */
  EngViewPlace *pile = eng_view_add_shared (view, ENG_ ("Played pile"));
  if (pile != NULL)
    {
      int n = s->n_tricks * 2, first = n > ENG_VIEW_PLACE_CARDS ? n - ENG_VIEW_PLACE_CARDS : 0;
      for (int i = first; i < n; i++)
        {
          const CatchyTrick *t = &s->tricks[i / 2];
          eng_view_place_add (pile, r->cards[i % 2 == 0 ? t->lead : t->follow].serial,
                              r->main_deck, false);
        }
      pile->count = (int16_t) n;
    }
  add_panels (r, s, view);
}

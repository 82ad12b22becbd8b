/* catchy-live.c: Catchy!'s physical protocol for the live referee
 * (docs/interpreter.md, "Catchy! at the table").
 *
 * The table: the path's seven places are CENTRE zones 0-6 counted from the
 * arms of the player at the lower seat marker (0 and 6 are the players'
 * arms, path cards lie face down on 1, 3 and 5); the mood card is the cat
 * and stands on one of them, the side up its mood; each seat has a PLAY
 * zone where its player lays the card of a trick; settled tricks go face
 * up onto the played pile (the DISCARD zone, C12).
 *
 * What a change means: a face laid in a seat's play area is that player's
 * card for the trick.  Once both are down the rules settle the trick, and
 * the referee asks the table to put both cards on the pile, to turn the
 * mood card over when the mood flips and to move it one space; each is an
 * expectation the next looks must show done.  Who swapped the start card
 * cannot be seen (it is swapped face down), so the referee asks: "Was it
 * Ana? Confirm, or cancel to ask about Bea".  When a hand ends the table
 * is dealt afresh and checked like a new game's.
 */
#include <stdio.h>
#include <string.h>

#include "catchy-private.h"
#include "eng-i18n.h"
#include "eng-interpreter.h"
#include "eng-live.h"

/* The score card's last space (the rulebook's card counts 0 to 7). */
#define CATCHY_SCORE_CARD 7

/* The interpreter's data for a Catchy! game. */
typedef struct {
  uint16_t mood_serial[2];       /* the mood card's red and blue sides */
  int main_deck, mood_deck;
} CatchyLive;

/* Catchy!'s part of a mind (EngLiveMind.game). */
typedef struct {
  uint8_t asked;                 /* the swap question is out */
  int8_t named;                  /* the player it names */
  int8_t seen_pos;               /* a path place (1, 3, 5) where a card was seen lifted, 0 none */
  /* the mood card out of sight while it is turned over or carried: the
   * side and place it was last seen at (serial 0: in sight) */
  uint16_t away_serial;
  EngZone away_zone;
} CatchyLiveMind;

_Static_assert (sizeof (CatchyLiveMind) <= ENG_LIVE_MIND_GAME, "CatchyLiveMind fits a mind");

static const CatchyState *
cstate (const EngInterpreter *it)
{
  return eng_live_state (it);
}

static const CatchyRules *
crules (const EngInterpreter *it)
{
  return eng_live_rules (it);
}

static CatchyLiveMind *
cmind (EngInterpreter *it)
{
  return eng_live_mind_game (it);
}

/* Path places are counted from the first player's arms (catchy.h); the
 * CENTRE zones from the lower seat's side.  The map is its own inverse. */
static int
place_of_index (const EngInterpreter *it, int index)
{
  return eng_live_seat_of (it, 0) <= eng_live_seat_of (it, 1) ? index
                                                               : CATCHY_POSITIONS - 1 - index;
}

static EngZone
place_zone (const EngInterpreter *it, int place)
{
  return eng_live_zone (ENG_ZONE_CENTRE, -1, place_of_index (it, place));
}

static bool
is_path_place (int place)
{
  return place == 1 || place == 3 || place == 5;
}

static bool
is_mood (const EngInterpreter *it, uint16_t serial)
{
  const CatchyLive *d = eng_live_data (it);
  return serial != 0 && (serial == d->mood_serial[0] || serial == d->mood_serial[1]);
}

static const char *
mood_words (unsigned mood)
{
  return mood == CATCHY_RED ? ENG_C_ ("mood", "red") : ENG_C_ ("mood", "blue");
}

static uint8_t
card_of (const EngInterpreter *it, uint16_t serial)
{
  return catchy_card_index (crules (it), serial);
}

/* ---- the swap question ------------------------------------------------------- */

static void
ask_swap (EngInterpreter *it, EngEvents *out)
{
  CatchyLiveMind *m = cmind (it);
  m->asked = 1;
  if (m->named < 0 || m->named >= CATCHY_PLAYERS)
    m->named = 0;
  eng_live_say (out, ENG_EVENT_NEED, -1, "C2",
                ENG_N_ ("Who swapped the start card for a path card: %s? Confirm, or cancel to "
                        "ask about %s"),
                eng_live_player_name (it, m->named), eng_live_player_name (it, 1 - m->named));
}

static bool
catchy_live_ask_again (EngInterpreter *it, EngEvents *out)
{
  if (cstate (it)->phase != CATCHY_PHASE_SWAP || !cmind (it)->asked)
    return false;
  ask_swap (it, out);
  return true;
}

static void
catchy_live_settle (EngInterpreter *it, EngEvents *out)
{
  /* asked once the referee has seen the hand's table */
  if (eng_interpreter_started (it) && cstate (it)->phase == CATCHY_PHASE_SWAP
      && !cmind (it)->asked)
    ask_swap (it, out);
}

static bool
catchy_live_choice (const EngInterpreter *it, EngLiveChoice *out)
{
  const CatchyLiveMind *m = eng_live_mind_game_const (it);
  if (cstate (it)->phase != CATCHY_PHASE_SWAP || !m->asked)
    return false;
  out->n = 2;
  out->player[0] = m->named;
  out->player[1] = 1 - m->named;
  return true;
}

/* The swap, by `player`: at the path place the table was seen to change,
 * or at none the camera saw (the move then names none, catchy.c). */
static EngStatus
catchy_live_choose (EngInterpreter *it, int player, EngEvents *out)
{
  CatchyLiveMind *m = cmind (it);
  if (cstate (it)->phase != CATCHY_PHASE_SWAP || !m->asked)
    return ENG_ERR_STATE;
  if (player < 0 || player >= CATCHY_PLAYERS)
    return ENG_ERR_INVALID_ARGUMENT;
  EngMove mv;
  eng_move_init (&mv, CATCHY_SWAP, player);
  if (m->seen_pos > 0)
    {
      mv.target[0] = 0;
      mv.slot[0] = (int8_t) ((m->seen_pos - 1) / 2);
    }
  CatchyLiveMind keep = *m;
  memset (m, 0, sizeof *m);
  if (!eng_live_try_apply (it, &mv, NULL, out))
    *cmind (it) = keep;
  return ENG_OK;
}

static EngStatus
catchy_live_command (EngInterpreter *it, const char *id, EngEvents *out)
{
  CatchyLiveMind *m = cmind (it);
  bool swap_asked = cstate (it)->phase == CATCHY_PHASE_SWAP && m->asked;
  if (strcmp (id, "confirm") == 0 && swap_asked)
    return catchy_live_choose (it, m->named, out);
  if (strcmp (id, "cancel") == 0 && swap_asked)
    {
      m->named = (int8_t) (1 - m->named);
      ask_swap (it, out);
      return ENG_OK;
    }
  if (strcmp (id, "end-turn") == 0)
    {
      eng_live_say (out, ENG_EVENT_NOTE, -1, "C4",
                    ENG_N_ ("A trick ends by itself when both cards are down"));
      return ENG_OK;
    }
  return ENG_ERR_NOT_FOUND;
}

static void
catchy_live_view (const EngInterpreter *it, EngView *view)
{
  EngLiveChoice choice;
  if (catchy_live_choice (it, &choice))
    view->deciding = (int8_t) choice.player[0];
}

/* ---- after a move: what the table must do ----------------------------------------- */

/* A settled trick (the rules' last one, `tr`): both cards onto the
 * played pile, the mood card turned when the mood flipped and moved one
 * space toward whom the rules say; the state after it has the mood and
 * the cat's place. */
static void
expect_trick_tidied (EngInterpreter *it, const CatchyTrick *tr, const CatchyState *a,
                     EngEvents *out)
{
  const CatchyRules *r = crules (it);
  const CatchyLive *d = eng_live_data (it);
  EngLiveMind *m = eng_live_mind (it);
  uint16_t cards[2] = { r->cards[tr->lead].serial, r->cards[tr->follow].serial };
  for (int i = 0; i < 2; i++)
    {
      EngLiveExpect *e = eng_live_expect_add (m, ENG_EXPECT_TO_DISCARD, cards[i], 0,
                                              eng_live_zone (ENG_ZONE_DISCARD, -1, 1));
      if (e != NULL)
        snprintf (e->text, sizeof e->text, "%s",
                  ENG_ ("Put both cards of the trick on the played pile"));
    }
  eng_live_say (out, ENG_EVENT_NEED, -1, "C12", ENG_N_ ("Put both cards of the trick on the played pile"));
  uint16_t side = d->mood_serial[a->mood];
  if (tr->flipped)
    {
      EngLiveExpect *e = eng_live_expect_add (m, ENG_EXPECT_SIDE_UP, side, 0,
                                              eng_live_zone (ENG_ZONE_NONE, -1, -1));
      if (e != NULL)
        {
          snprintf (e->text, sizeof e->text, ENG_ ("Turn the mood card over: %s side up"),
                    mood_words (a->mood));
          eng_live_say (out, ENG_EVENT_NEED, -1, "C5", "%s", e->text);
        }
    }
  if (tr->toward == CATCHY_NONE)
    return;   /* the wild and a 3: the cat does not move (C4) */
  EngLiveExpect *e = eng_live_expect_add (m, ENG_EXPECT_TO_ZONE, side, 0, place_zone (it, a->cat));
  if (e != NULL)
    {
      snprintf (e->text, sizeof e->text, ENG_ ("Move the cat one space toward %s"),
                eng_live_player_name (it, tr->toward));
      eng_live_say (out, ENG_EVENT_NEED, tr->toward, "C5", "%s", e->text);
    }
}

static void
catchy_live_after_move (EngInterpreter *it, const void *before, const EngMove *mv,
                        EngEvents *out)
{
  const CatchyState *b = before, *a = cstate (it);
  if (mv->verb != CATCHY_PLAY || b->phase != CATCHY_PHASE_FOLLOW)
    return;
  /* the hand scored: the score card's markers follow; the card ends at
   * 7, where a marker stays while the referee keeps the count past it
   * (C10; the score event says the points) */
  for (int p = 0; p < CATCHY_PLAYERS && (a->hand_no != b->hand_no || a->phase == CATCHY_PHASE_OVER);
       p++)
    if (a->score[p] != b->score[p] && a->score[p] <= CATCHY_SCORE_CARD)
      eng_live_say (out, ENG_EVENT_NEED, p, "C6", ENG_N_ ("%s: move your marker to %d"),
                    eng_live_player_name (it, p), a->score[p]);
    else if (a->score[p] != b->score[p] && b->score[p] < CATCHY_SCORE_CARD)
      eng_live_say (out, ENG_EVENT_NEED, p, "C10",
                    ENG_N_ ("%s: move your marker to 7, the score card's end (%d points: the "
                            "referee keeps the count)"),
                    eng_live_player_name (it, p), a->score[p]);
  if (a->phase == CATCHY_PHASE_OVER)
    return;   /* the game is over: nothing more to set out */
  if (a->hand_no != b->hand_no)
    {
      /* the hand is scored: the table is gathered and dealt afresh (C2, C7) */
      eng_live_new_deal (it);
      eng_live_say (out, ENG_EVENT_NEED, -1, "C2",
                    ENG_N_ ("Hand %d: gather and shuffle every card, then deal seven cards "
                            "each"), a->hand_no);
      return;
    }
  expect_trick_tidied (it, &a->tricks[a->n_tricks - 1], a, out);
}

/* A path place as the players see it ("the path space next to Ana"). */
static void
place_words (const EngInterpreter *it, int place, char *buf, size_t size)
{
  catchy_place_words (place, eng_live_player_name (it, 0), eng_live_player_name (it, 1), buf,
                      size);
}

/* Where the mood card must lie, and which side up. */
static void
mood_card_words (const EngInterpreter *it, char *buf, size_t size)
{
  const CatchyState *s = cstate (it);
  char where[96];
  place_words (it, s->cat, where, sizeof where);
  snprintf (buf, size, ENG_ ("put the mood card on %s, %s side up"), where, mood_words (s->mood));
}

/* ---- reading the table ------------------------------------------------------------ */

static void
card_laid (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  const CatchyState *s = cstate (it);
  int p = eng_live_player_of_seat (it, c->item.zone.seat);
  char name[48];
  eng_live_face_name (it, c->item.serial, true, name, sizeof name);
  if (s->phase == CATCHY_PHASE_SWAP)
    {
      eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "C2",
                       ENG_N_ ("First the start card is swapped and the table says who swapped "
                               "it; take back %s for now"), name);
      return;
    }
  if (s->phase == CATCHY_PHASE_OVER)
    {
      eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "C1", ENG_N_ ("The game is over: take back %s"),
                       name);
      return;
    }
  if (eng_live_expectations_block (it, out))
    {
      eng_live_complaint_add (it, c);
      return;
    }
  EngMove mv;
  eng_move_init (&mv, CATCHY_PLAY, p);
  mv.card = c->item.serial;
  if (!eng_live_try_apply (it, &mv, c, out))
    eng_live_take_back (it, c, out);
}

/* Whether the camera's look shows the mood card (either side) at zone z. */
static bool
mood_seen_at (const EngInterpreter *it, EngZone z)
{
  for (size_t i = 0; i < eng_live_n_table (it); i++)
    {
      const EngLiveItem *v = eng_live_table_item (it, i);
      if (v->kind == 'F' && is_mood (it, v->serial) && eng_live_zone_eq (v->zone, z))
        return true;
    }
  return false;
}

/* A face-down card on the path: path cards lie still all hand; only the
 * swap lifts one (then where is remembered for the record).  The mood
 * card hides the path card it stands on, and the one it slides across:
 * a back going out of sight where the look shows the mood card is
 * covered, not taken; a back coming into sight where the view has none
 * is one the cat covered and left (from the deal on, or since it passed
 * over it). */
static void
path_card_changed (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  int place = place_of_index (it, c->item.zone.index);
  bool swapping = cstate (it)->phase == CATCHY_PHASE_SWAP;
  bool covered = c->kind == ENG_LIVE_VANISH && mood_seen_at (it, c->item.zone);
  bool uncovered = c->kind == ENG_LIVE_APPEAR;
  const EngLiveMind *m = eng_live_mind_const (it);
  for (int i = 0; i < m->n_view && uncovered; i++)
    uncovered = !(m->view[i].kind == 'B' && eng_live_zone_eq (m->view[i].zone, c->item.zone));
  if (is_path_place (place) && (swapping || covered || uncovered || place == cstate (it)->cat))
    {
      if (swapping)
        cmind (it)->seen_pos = (int8_t) place;
      eng_live_accept (it, c);
      return;
    }
  if (c->kind == ENG_LIVE_VANISH)
    {
      char where[96];
      place_words (it, place, where, sizeof where);
      eng_live_refuse (it, c, out, ENG_EVENT_CONSERVATION, "C11",
                       ENG_N_ ("A path card was taken away: put it back face down on %s"), where);
      return;
    }
  eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "C2",
                   ENG_N_ ("Face-down cards lie only in the middle of the path and next to each "
                           "player: take this one away"));
}

/* The mood card seen again after a look without it (a hand turning it
 * over lifts it out of sight, and its other side is another sticker): as
 * if it had turned over and moved in one look.  true when that is what
 * the table was asked to do, or it is back as it was. */
static bool
mood_back_in_sight (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  CatchyLiveMind *m = cmind (it);
  if (m->away_serial == 0)
    return false;
  EngLiveChange back = *c;
  back.kind = c->item.serial != m->away_serial ? ENG_LIVE_TURN_OVER : ENG_LIVE_MOVE;
  back.from = m->away_zone;
  back.old_serial = m->away_serial;
  bool as_it_was = back.kind == ENG_LIVE_MOVE && eng_live_zone_eq (c->item.zone, m->away_zone);
  /* the view takes it back as it was, then the change is read against
   * what the table was asked */
  EngLiveItem was = { 'F', m->away_serial, c->item.track, m->away_zone };
  eng_live_view_add (eng_live_mind (it), &was);
  m->away_serial = 0;
  if (as_it_was)
    return true;
  if (eng_live_match_expectation (it, &back, out))
    return true;
  eng_live_view_remove_at (eng_live_mind (it),
                           eng_live_view_find (eng_live_mind (it), 'F', was.serial, 0));
  m->away_serial = was.serial;
  return false;
}

static void
catchy_live_change (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  const CatchyLive *d = eng_live_data (it);
  char what[128];
  bool mood = c->item.kind == 'F' && is_mood (it, c->item.serial);
  if (mood && c->kind == ENG_LIVE_VANISH)
    {
      /* out of sight for now: judged when it is seen again */
      cmind (it)->away_serial = c->item.serial;
      cmind (it)->away_zone = c->item.zone;
      eng_live_accept (it, c);
      return;
    }
  if (mood && c->kind == ENG_LIVE_APPEAR && mood_back_in_sight (it, c, out))
    return;
  if (mood && (c->kind == ENG_LIVE_MOVE || c->kind == ENG_LIVE_TURN_OVER
               || c->kind == ENG_LIVE_APPEAR))
    {
      char where[96];
      place_words (it, cstate (it)->cat, where, sizeof where);
      eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "C5",
                       ENG_N_ ("The cat turns and moves only after a trick. Put the mood card "
                               "back on %s, %s side up"), where, mood_words (cstate (it)->mood));
      return;
    }
  if (c->item.kind == 'B' && c->item.zone.kind == ENG_ZONE_CENTRE
      && (c->kind == ENG_LIVE_APPEAR || c->kind == ENG_LIVE_VANISH))
    {
      path_card_changed (it, c, out);
      return;
    }
  if (c->kind == ENG_LIVE_FLIP_UP && c->item.zone.kind == ENG_ZONE_CENTRE)
    {
      eng_live_refuse (it, c, out, ENG_EVENT_CONSERVATION, "C11",
                       ENG_N_ ("A path card was turned face up: turn it face down again (the "
                               "path stays hidden)"));
      return;
    }
  if (c->kind == ENG_LIVE_APPEAR && c->item.kind == 'F' && c->item.zone.kind == ENG_ZONE_PLAY
      && eng_live_deck_of (it, c->item.serial) == (unsigned) d->main_deck)
    {
      card_laid (it, c, out);
      return;
    }
  if (c->kind == ENG_LIVE_APPEAR && c->item.kind == 'B' && c->item.zone.kind == ENG_ZONE_PLAY)
    {
      eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "C3",
                       ENG_N_ ("A card is played face up: turn it over"));
      return;
    }
  if (c->kind == ENG_LIVE_APPEAR && c->item.zone.kind == ENG_ZONE_NONE && c->item.kind == 'B')
    return;   /* a face-down card off every zone is nothing yet */
  switch (c->kind)
    {
    case ENG_LIVE_APPEAR:
      eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "C3",
                       ENG_N_ ("Unexpected card: %s; a card is played in its player's play "
                               "area"), eng_live_item_words (it, &c->item, what, sizeof what));
      return;
    case ENG_LIVE_VANISH:
      eng_live_refuse (it, c, out, ENG_EVENT_CONSERVATION, "table",
                       ENG_N_ ("A card vanished: %s; put it back"),
                       eng_live_item_words (it, &c->item, what, sizeof what));
      return;
    default:
      eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "table",
                       ENG_N_ ("Unexpected move: %s; put it back"),
                       eng_live_item_words (it, &c->item, what, sizeof what));
    }
}

/* ---- the table a hand starts from ---------------------------------------------------- */

/* What is wrong with one item of the first look, into why (empty: fine). */
static void
check_item (EngInterpreter *it, const EngLiveItem *v, bool *mood_seen, char *why, size_t size)
{
  const CatchyState *s = cstate (it);
  const CatchyLive *d = eng_live_data (it);
  char what[128];
  if (v->zone.kind == ENG_ZONE_NONE)
    return;
  if (v->kind == 'F' && is_mood (it, v->serial))
    {
      *mood_seen = true;
      bool there = v->zone.kind == ENG_ZONE_CENTRE
                   && place_of_index (it, v->zone.index) == s->cat;
      if (!there || v->serial != d->mood_serial[s->mood])
        mood_card_words (it, why, size);
      return;
    }
  bool ok;
  uint8_t k = v->kind == 'F' ? card_of (it, v->serial) : CATCHY_NONE;
  switch (v->zone.kind)
    {
    case ENG_ZONE_CENTRE:
      ok = v->kind == 'B' && is_path_place (place_of_index (it, v->zone.index));
      break;
    case ENG_ZONE_DISCARD:
      ok = false;
      for (int i = 0; v->kind == 'F' && i < s->n_tricks && !ok; i++)
        ok = s->tricks[i].lead == k || s->tricks[i].follow == k;
      break;
    case ENG_ZONE_PLAY:
      ok = v->kind == 'F' && s->phase == CATCHY_PHASE_FOLLOW && k == s->lead
           && eng_live_player_of_seat (it, v->zone.seat) == s->leader;
      break;
    default:
      ok = false;
    }
  if (!ok)
    snprintf (why, size, ENG_ ("take away %s"), eng_live_item_words (it, v, what, sizeof what));
}

static bool
catchy_live_baseline_check (EngInterpreter *it, char *why, size_t size)
{
  const CatchyState *s = cstate (it);
  bool mood_seen = false;
  bool path[CATCHY_POSITIONS] = { false };
  why[0] = '\0';
  for (size_t i = 0; i < eng_live_n_table (it) && why[0] == '\0'; i++)
    {
      const EngLiveItem *v = eng_live_table_item (it, i);
      check_item (it, v, &mood_seen, why, size);
      if (v->kind == 'B' && v->zone.kind == ENG_ZONE_CENTRE)
        path[place_of_index (it, v->zone.index)] = true;
    }
  /* the path card under the cat may be hidden by it */
  for (int place = 1; place < CATCHY_POSITIONS && why[0] == '\0'; place += 2)
    if (!path[place] && place != s->cat)
      {
        char where[96];
        place_words (it, place, where, sizeof where);
        snprintf (why, size, ENG_ ("lay a path card face down on %s"), where);
      }
  /* the steps in the order a table lays them: path cards, then the cat */
  if (why[0] == '\0' && !mood_seen)
    mood_card_words (it, why, size);
  if (why[0] == '\0' && s->phase == CATCHY_PHASE_FOLLOW)
    {
      bool lead = false;
      for (size_t i = 0; i < eng_live_n_table (it); i++)
        lead = lead || (eng_live_table_item (it, i)->kind == 'F'
                        && card_of (it, eng_live_table_item (it, i)->serial) == s->lead);
      if (!lead)
        {
          char name[48];
          eng_live_face_name (it, crules (it)->cards[s->lead].serial, true, name, sizeof name);
          snprintf (why, size, ENG_ ("put %s back in %s's play area"), name,
                    eng_live_player_name (it, s->leader));
        }
    }
  return why[0] == '\0';
}

/* A hand's table is waited for until its swap: the swap is the first
 * move of every hand (C2). */
static bool
catchy_live_deal_start (const EngInterpreter *it)
{
  return cstate (it)->phase == CATCHY_PHASE_SWAP;
}

static void
catchy_live_setup_need (EngInterpreter *it, const char *why, char *text, size_t size,
                        const char **rule)
{
  /* one step at a time: `why` is the first thing the look still lacks, and
   * the next look that completes it names the next */
  snprintf (text, size, ENG_ ("Set up hand %d: %s"), cstate (it)->hand_no, why);
  *rule = "C2";
}

/* ---- words and the mind ------------------------------------------------------------- */

static void
catchy_live_zone_words (const EngInterpreter *it, EngZone z, char *buf, size_t size)
{
  switch (z.kind)
    {
    case ENG_ZONE_CENTRE:
      {
        place_words (it, place_of_index (it, z.index), buf, size);
        break;
      }
    case ENG_ZONE_PLAY:
      snprintf (buf, size, ENG_ ("%s's play area"),
                eng_live_player_name (it, eng_live_player_of_seat (it, z.seat)));
      break;
    case ENG_ZONE_DISCARD:
      snprintf (buf, size, "%s", ENG_ ("the played pile"));
      break;
    default:
      snprintf (buf, size, "%s", ENG_ ("the table"));
    }
}

static void
catchy_live_zone_at_words (const EngInterpreter *it, EngZone z, char *buf, size_t size)
{
  switch (z.kind)
    {
    case ENG_ZONE_CENTRE:
      catchy_place_at_words (place_of_index (it, z.index), eng_live_player_name (it, 0),
                             eng_live_player_name (it, 1), buf, size);
      break;
    case ENG_ZONE_PLAY:
      snprintf (buf, size, ENG_ ("in %s's play area"),
                eng_live_player_name (it, eng_live_player_of_seat (it, z.seat)));
      break;
    case ENG_ZONE_DISCARD:
      snprintf (buf, size, "%s", ENG_ ("on the played pile"));
      break;
    default:
      snprintf (buf, size, "%s", ENG_ ("on the table"));
    }
}

static bool
catchy_live_pending (const EngLiveMind *m)
{
  (void) m;
  return false;   /* no card waits for a second step */
}

static void
catchy_live_mind_notes (const EngLiveMind *m, EngLiveNotes *o)
{
  const CatchyLiveMind *cm = (const CatchyLiveMind *) (const void *) m->game;
  if (cm->asked || cm->named != 0 || cm->seen_pos != 0 || cm->away_serial != 0)
    eng_live_notes_add (o, "y %u %d %d %u %d %d %d\n", cm->asked, cm->named, cm->seen_pos,
                        cm->away_serial, cm->away_zone.kind, cm->away_zone.seat,
                        cm->away_zone.index);
}

static bool
catchy_live_mind_parse (EngLiveMind *m, char *const *w, int nw)
{
  CatchyLiveMind *cm = (CatchyLiveMind *) (void *) m->game;
  int v[4];
  char tail;
  if (strcmp (w[0], "y") != 0 || nw != 8)
    return false;
  for (int i = 0; i < 4; i++)
    if (sscanf (w[1 + i], "%d%c", &v[i], &tail) != 1)
      return false;
  if (v[0] < 0 || v[0] > 1 || v[1] < 0 || v[1] > 1 || v[2] < 0 || v[2] >= CATCHY_POSITIONS
      || v[3] < 0 || v[3] >= ENG_LIVE_SERIALS
      || !eng_live_notes_zone ((const char *const *) w + 5, &cm->away_zone))
    return false;
  cm->asked = (uint8_t) v[0];
  cm->named = (int8_t) v[1];
  cm->seen_pos = (int8_t) v[2];
  cm->away_serial = (uint16_t) v[3];
  return true;
}

static EngStatus
catchy_live_init (EngInterpreter *it, void *data)
{
  CatchyLive *d = data;
  const CatchyRules *r = crules (it);
  d->mood_serial[CATCHY_RED] = r->cards[r->mood[0]].serial;
  d->mood_serial[CATCHY_BLUE] = r->cards[r->mood[1]].serial;
  d->main_deck = r->main_deck;
  d->mood_deck = r->mood_deck;
  return ENG_OK;
}

const EngLiveClass catchy_live_class = {
  .name = "catchy",
  .data_size = sizeof (CatchyLive),
  .flip_zones = 1u << ENG_ZONE_CENTRE,
  .cover_zones = 1u << ENG_ZONE_DISCARD,
  .n_slots = 0,
  .n_spots = 0,
  .n_centre = CATCHY_POSITIONS,
  .slot_noun = "card",
  .cleanup_rule = "C12",
  .place_rule = "C5",   /* the cat's moves and turns */
  .init = catchy_live_init,
  .baseline_check = catchy_live_baseline_check,
  .setup_need = catchy_live_setup_need,
  .deal_start = catchy_live_deal_start,
  .settle = catchy_live_settle,
  .change = catchy_live_change,
  .after_move = catchy_live_after_move,
  .command = catchy_live_command,
  .choice = catchy_live_choice,
  .choose = catchy_live_choose,
  .ask_again = catchy_live_ask_again,
  .zone_words = catchy_live_zone_words,
  .zone_at_words = catchy_live_zone_at_words,
  .view = catchy_live_view,
  .pending = catchy_live_pending,
  .mind_notes = catchy_live_mind_notes,
  .mind_parse = catchy_live_mind_parse,
};

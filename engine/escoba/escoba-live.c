/* escoba-live.c: Escoba's physical protocol for the live referee
 * (docs/escoba.md, "At the table").
 *
 * The table: the middle of the table is twelve CENTRE places, every one of
 * them "the table" where cards lie face up; each seat's CAPTURE zone is the
 * player's pile (captured cards face down, an escoba's card face up across
 * it); the deck lies face down in its DECK zone; hands are held.
 *
 * What a change means.  The four faces the dealer lays on the table are the
 * deal.  A face coming onto the table is the card the player whose turn it
 * is lays (the camera cannot see whose hand it left; turn order is the
 * rules').  A card that can take nothing stays: laid at once.  One that
 * could waits: the faces that then leave the table, itself included, are
 * what the player takes, and once they make 15 the capture is applied and
 * named; cards that make more than 15, or less when the laid card has gone
 * too, are named back ("These make 12, not 15").  The next card laid, or
 * End of turn, leaves it on the table.  After an escoba its card must lie
 * face up in the player's pile; at the round's end the cards left on the
 * table go to the last capturer; then the table is gathered and dealt
 * afresh, checked like a new game's.  Every text names only faces up on the
 * table now or captured; hands and the deck never (S11).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escoba-private.h"
#include "eng-i18n.h"
#include "eng-interpreter.h"
#include "eng-live.h"

#define ESC_LIVE_TAKEN ENG_MOVE_MAX_CARDS

/* Escoba's part of a mind (EngLiveMind.game): faces by serial only. */
typedef struct {
  uint16_t laid;                     /* the card waiting for its capture, 0 none */
  uint8_t laid_gone;                 /* it has left the table */
  uint8_t n_taken;
  uint16_t taken[ESC_LIVE_TAKEN];    /* table cards that left the table since */
  uint8_t said;                      /* the sum named back is `said_sum` */
  uint8_t said_sum;
  uint8_t gathering;                 /* the round is over: gather, then deal afresh */
  uint8_t laid_this_look;            /* a card came onto the table in this look */
  uint8_t taker;                     /* 1 + whose pile the table's last faces go to, 0 none */
} EscLiveMind;

ENG_LIVE_DEFINE_ACCESSORS (esc_live, EscState, EscRules, EscLiveMind, char)

static bool
on_table (EngZone z)
{
  return z.kind == ENG_ZONE_CENTRE;
}

/* The laid card and the cards taken with it as a move, the table's cards
 * in the order they lie on the table (the order they were laid), so the
 * record does not depend on the order a hand lifted them. */
static EngMove
capture_move (const EngInterpreter *it, const EscLiveMind *m)
{
  const EscState *s = esc_live_state (it);
  EngMove mv;
  eng_move_init (&mv, ESC_PLAY, s->active);
  mv.card = m->laid;
  for (unsigned i = 0; i < s->table_n; i++)
    for (unsigned k = 0; k < m->n_taken; k++)
      if (eng_live_card_index (it, m->taken[k]) == s->table[i])
        mv.cards[mv.n_cards++] = m->taken[k];
  return mv;
}

static unsigned
taken_sum (const EngInterpreter *it, const EscLiveMind *m)
{
  const EscRules *r = esc_live_rules (it);
  unsigned sum = 0;
  for (int i = -1; i < (int) m->n_taken; i++)
    {
      /* a serial not in the set (a tampered journal) makes no 15 */
      uint8_t k = eng_live_card_index (it, i < 0 ? m->laid : m->taken[i]);
      sum += k < r->table.n ? (unsigned) r->value[k] : 99;
    }
  return sum;
}

/* Completes the waiting card: its capture, or laid with nothing taken. */
static bool
complete (EngInterpreter *it, EngEvents *out)
{
  EscLiveMind *m = esc_live_mind (it);
  EscLiveMind was = *m;
  EngMove mv = capture_move (it, m);
  memset (m, 0, sizeof *m);
  m->gathering = was.gathering;
  m->taker = was.taker;
  if (eng_live_complete_pending (it, &mv, NULL, out))
    return true;
  *esc_live_mind (it) = was;
  return false;
}

/* ---- after a move: what the table must do ------------------------------------- */

/* Every face on the table must leave it: the dealer's escoba, or the
 * last cards to the last capturer (S2, S7). */
static void
expect_leaves_table (EngInterpreter *it, bool dealer, const char *name)
{
  const EngLiveMind *m = eng_live_mind_const (it);
  for (int i = 0; i < m->n_view; i++)
    if (m->view[i].kind == 'F' && on_table (m->view[i].zone) && dealer)
      eng_live_expect_face_leaves (it, m->view[i].serial,
                                   ENG_N_ ("%s: take the four cards, one face up across your pile"),
                                   name);
    else if (m->view[i].kind == 'F' && on_table (m->view[i].zone))
      eng_live_expect_face_leaves (it, m->view[i].serial,
                                   ENG_N_ ("%s: take the last cards on the table into your pile"),
                                   name);
}

static void
esc_live_after_move (EngInterpreter *it, const void *before, const EngMove *mv, EngEvents *out)
{
  const EscState *b = before, *s = esc_live_state (it);
  const char *who = eng_live_player_name (it, mv->player);
  unsigned side = escoba_side (esc_live_rules (it), s, (unsigned) mv->player);
  if (mv->verb == ESC_DEAL && s->taken[side].escobas > 0)
    {
      expect_leaves_table (it, true, who);
      esc_live_mind (it)->taker = (uint8_t) (mv->player + 1);
      eng_live_say (out, ENG_EVENT_NEED, mv->player, "S2",
                    ENG_N_ ("%s: take the four cards, one face up across your pile"), who);
    }
  bool round_over = s->round != b->round || s->phase == ESC_PHASE_OVER;
  if (mv->verb == ESC_PLAY && mv->n_cards > 0 && b->table_n == mv->n_cards)
    {
      /* an escoba: its card face up across the pile (S5) */
      EngZone pile = eng_live_zone (ENG_ZONE_CAPTURE, eng_live_seat_of (it, mv->player), -1);
      int vi = eng_live_view_find (eng_live_mind (it), 'F', mv->card, 0);
      EngLiveExpect *e = vi >= 0 && eng_live_zone_eq (eng_live_mind (it)->view[vi].zone, pile)
                           ? NULL
                           : eng_live_expect_add (eng_live_mind (it), ENG_EXPECT_TO_ZONE, mv->card,
                                                  0, pile);
      if (e != NULL)
        {
          char name[48];
          eng_live_face_name (it, mv->card, true, name, sizeof name);
          snprintf (e->text, sizeof e->text, ENG_ ("%s: put %s face up across your pile"), who,
                    name);
          eng_live_say (out, ENG_EVENT_NEED, mv->player, "S5", "%s", e->text);
        }
    }
  if (round_over)
    {
      unsigned taker = b->last_capturer != ENG_CARD_NONE ? b->last_capturer : b->dealer;
      if (mv->n_cards > 0)
        taker = (unsigned) mv->player;
      expect_leaves_table (it, false, eng_live_player_name (it, (int) taker));
      esc_live_mind (it)->gathering = s->phase != ESC_PHASE_OVER;
      esc_live_mind (it)->taker = (uint8_t) (taker + 1);
    }
}

/* The round's table is cleared: gathered and dealt afresh (S1). */
static void
esc_live_settle_round (EngInterpreter *it, EngEvents *out)
{
  EscLiveMind *m = esc_live_mind (it);
  if (!m->gathering || eng_live_mind_const (it)->n_expect > 0)
    return;
  eng_live_new_deal (it);
  const EscState *s = esc_live_state (it);
  eng_live_say (out, ENG_EVENT_NEED, s->dealer, "S1",
                ENG_N_ ("Round %u: gather and shuffle every card; %s deals"), s->round,
                eng_live_player_name (it, s->dealer));
}

/* ---- reading the table ---------------------------------------------------------- */

/* The deal's four faces, once the table shows them (S1). */
static void
try_deal (EngInterpreter *it, EngEvents *out)
{
  const EngLiveMind *m = eng_live_mind_const (it);
  EngMove mv;
  eng_move_init (&mv, ESC_DEAL, esc_live_state (it)->dealer);
  uint16_t four[5] = { 0 };
  unsigned n = 0;
  for (int i = 0; i < m->n_view; i++)
    if (m->view[i].kind == 'F' && on_table (m->view[i].zone) && n < 5)
      four[n++] = m->view[i].serial;
  /* in serial order: the order the camera lists them says nothing */
  eng_serials_sort (four, n < 4 ? n : 4);
  mv.card = four[0];
  for (unsigned i = 1; i < 4 && i < n; i++)
    mv.cards[mv.n_cards++] = four[i];
  if (n == 4)
    eng_live_try_apply (it, &mv, NULL, out);
  else if (n > 4)
    eng_live_say (out, ENG_EVENT_NOTE, mv.player, "S1",
                  ENG_N_ ("Only four cards go face up on the table"));
}

/* Whether the table is already asked to do something with face `serial`
 * (an escoba's card to the pile). */
static bool
expected (const EngInterpreter *it, uint16_t serial)
{
  const EngLiveMind *m = eng_live_mind_const (it);
  for (int i = 0; i < m->n_expect; i++)
    if (m->expect[i].serial == serial)
      return true;
  return false;
}

static void
esc_live_settle (EngInterpreter *it, EngEvents *out)
{
  EscLiveMind *m = esc_live_mind (it);
  m->laid_this_look = 0;
  if (eng_live_mind_const (it)->n_expect == 0)
    m->taker = 0;
  esc_live_settle_round (it, out);
  if (!eng_interpreter_started (it))
    return;
  if (esc_live_state (it)->phase == ESC_PHASE_DEAL && !m->gathering)
    {
      try_deal (it, out);
      return;
    }
  if (m->laid == 0 && m->n_taken > 0)
    {
      /* lifted in a look that laid no card after all */
      char name[48];
      eng_live_face_name (it, m->taken[0], true, name, sizeof name);
      eng_live_say (out, ENG_EVENT_ILLEGAL, -1, "S12",
                    ENG_N_ ("A card was taken without laying one: put %s back on the table"), name);
      m->n_taken = 0;
      return;
    }
  if (m->laid == 0 || (m->n_taken == 0 && !m->laid_gone))
    return;
  unsigned sum = taken_sum (it, m);
  if (sum == 15)
    {
      /* taken: the card laid, when it still lies there, goes too */
      uint16_t laid = m->laid_gone ? 0 : m->laid;
      int who = esc_live_state (it)->active;
      if (complete (it, out) && laid != 0 && !expected (it, laid))
        {
          char name[48];
          eng_live_face_name (it, laid, true, name, sizeof name);
          eng_live_expect_face_leaves (it, laid, ENG_N_ ("%s: %s goes to your pile too"),
                                       eng_live_player_name (it, who), name);
          eng_live_say (out, ENG_EVENT_NEED, who, "S3", ENG_N_ ("%s: %s goes to your pile too"),
                        eng_live_player_name (it, who), name);
        }
      return;
    }
  if (sum < 15 && !m->laid_gone)
    return;   /* the player is still taking */
  if (m->said && m->said_sum == sum)
    return;
  m->said = 1;
  m->said_sum = (uint8_t) sum;
  char list[200] = "", name[48];
  for (int i = -1; i < (int) m->n_taken; i++)
    {
      eng_live_face_name (it, i < 0 ? m->laid : m->taken[i], true, name, sizeof name);
      size_t len = strlen (list);
      snprintf (list + len, sizeof list - len, "%s%s",
                i < 0 ? "" : i + 1 == (int) m->n_taken ? ENG_ (" and ") : ", ", name);
    }
  eng_live_say (out, ENG_EVENT_ILLEGAL, esc_live_state (it)->active, "S12",
                sum > 15 ? ENG_N_ ("These make %u, not 15: %s. Put them back on the table")
                         : ENG_N_ ("These make %u, not 15: %s. Take more, or put them back"),
                sum, list);
}

/* The card laid waits for what it takes; the table cards lifted earlier in
 * the same look (a quick hand) are taken with it.  `gone`: it went
 * straight to the player's pile. */
static void
start_waiting (EngInterpreter *it, const EngLiveChange *c, bool gone)
{
  EscLiveMind keep = *esc_live_mind (it);
  eng_live_begin_pending (it, c);
  EscLiveMind *m = esc_live_mind (it);
  memset (m, 0, sizeof *m);
  m->taker = keep.taker;
  m->n_taken = keep.n_taken;
  memcpy (m->taken, keep.taken, sizeof m->taken);
  m->laid = c->item.serial;
  m->laid_gone = gone;
  m->laid_this_look = 1;
}

/* Whether this look brings a face the referee has not seen onto the table
 * or onto the active player's pile: the card a quick hand laid while it
 * lifted what it takes. */
static bool
card_coming (const EngInterpreter *it)
{
  const EngLiveMind *m = eng_live_mind_const (it);
  int seat = eng_live_seat_of (it, esc_live_state (it)->active);
  for (size_t i = 0; i < eng_live_n_table (it); i++)
    {
      const EngLiveItem *v = eng_live_table_item (it, i);
      bool place = on_table (v->zone) || (v->zone.kind == ENG_ZONE_CAPTURE && v->zone.seat == seat);
      if (v->kind == 'F' && place && eng_live_view_find (m, 'F', v->serial, 0) < 0
          && !eng_game_card_public (eng_live_game (it), v->serial))
        return true;
    }
  return false;
}

/* Whether this look lost a face the view has on the table: cards lifted. */
static bool
table_lifted (const EngInterpreter *it)
{
  const EngLiveMind *m = eng_live_mind_const (it);
  for (int i = 0; i < m->n_view; i++)
    {
      bool here = false;
      for (size_t k = 0; k < eng_live_n_table (it) && !here; k++)
        here = eng_live_table_item (it, k)->kind == 'F'
               && eng_live_table_item (it, k)->serial == m->view[i].serial;
      if (m->view[i].kind == 'F' && on_table (m->view[i].zone) && !here)
        return true;
    }
  return false;
}

/* A face coming onto the table: the card of the player whose turn it is. */
static void
card_laid (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  EscLiveMind *m = esc_live_mind (it);
  const EscState *s = esc_live_state (it);
  char name[48];
  eng_live_face_name (it, c->item.serial, true, name, sizeof name);
  if (s->phase == ESC_PHASE_OVER)
    {
      eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "S10",
                       ENG_N_ ("The game is over: take back %s"), name);
      return;
    }
  if (m->laid_this_look)
    {
      eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "S12",
                       ENG_N_ ("One card a turn: take back %s"), name);
      return;
    }
  if (m->laid != 0 && (m->n_taken > 0 || m->laid_gone))
    {
      eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "S12",
                       ENG_N_ ("First the cards taken must make 15: take back %s"), name);
      return;
    }
  if (m->laid != 0 && !complete (it, out))
    {
      eng_live_complaint_add (it, c);
      return;
    }
  if (eng_live_expectations_block (it, out))
    {
      eng_live_complaint_add (it, c);
      return;
    }
  s = esc_live_state (it);
  m = esc_live_mind (it);
  m->laid_this_look = 1;
  uint8_t k = eng_live_card_index (it, c->item.serial);
  EngMove mv;
  eng_move_init (&mv, ESC_PLAY, s->active);
  mv.card = c->item.serial;
  if ((k == ENG_CARD_NONE || !escoba_can_capture (esc_live_rules (it), s, k)) && m->n_taken == 0)
    {
      if (!eng_live_try_apply (it, &mv, c, out))
        eng_live_take_back (it, c, out);
      return;
    }
  EngVerdict why;
  if (eng_game_check (eng_live_game (it), &mv, &why) == ENG_ERR_CONSERVATION)
    {
      eng_live_try_apply (it, &mv, c, out);   /* says the conservation error */
      eng_live_take_back (it, c, out);
      return;
    }
  start_waiting (it, c, false);
  const char *who = eng_live_player_name (it, s->active);
  if (esc_live_rules (it)->capture_required)
    eng_live_say (out, ENG_EVENT_NEED, s->active, "S4",
                  ENG_N_ ("%s: take 15 with %s"), who, name);
  else
    eng_live_say (out, ENG_EVENT_NEED, s->active, "S3",
                  ENG_N_ ("%s: take 15 with %s, or show the End of turn card"), who,
                  name);
}

/* A face leaving the table: taken with the waiting card, or taken with
 * no card laid (S12). */
static void
card_taken (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  EscLiveMind *m = esc_live_mind (it);
  char name[48];
  eng_live_face_name (it, c->item.serial, true, name, sizeof name);
  if (m->laid == 0 && expected (it, c->item.serial))
    {
      /* an escoba's card lifted on its way to the pile: face up there, the
       * table is still asked */
      eng_live_accept (it, c);
      return;
    }
  if (m->laid == 0 && esc_live_state (it)->phase == ESC_PHASE_PLAY && card_coming (it)
      && m->n_taken < ESC_LIVE_TAKEN)
    {
      m->taken[m->n_taken++] = c->item.serial;   /* the card laid comes later in this look */
      eng_live_accept (it, c);
      return;
    }
  if (m->laid == 0 || esc_live_state (it)->phase != ESC_PHASE_PLAY)
    {
      eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "S12",
                       ENG_N_ ("A card was taken without laying one: put %s back on the table"),
                       name);
      return;
    }
  if (c->item.serial == m->laid)
    m->laid_gone = 1;
  else if (m->n_taken < ESC_LIVE_TAKEN)
    m->taken[m->n_taken++] = c->item.serial;
  else
    {
      eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "S12",
                       ENG_N_ ("Too many cards taken: put %s back on the table"), name);
      return;
    }
  m->said = 0;
  eng_live_accept (it, c);
}

/* A face taken back onto the table: the capture is not over yet. */
static bool
card_put_back (EngInterpreter *it, const EngLiveChange *c)
{
  EscLiveMind *m = esc_live_mind (it);
  bool back = false;
  if (m->laid != 0 && c->item.serial == m->laid && m->laid_gone)
    m->laid_gone = 0, back = true;
  for (unsigned i = 0; i < m->n_taken && !back; i++)
    if (m->taken[i] == c->item.serial)
      {
        memmove (&m->taken[i], &m->taken[i + 1], (m->n_taken - i - 1) * sizeof m->taken[0]);
        m->n_taken--;
        back = true;
      }
  if (back)
    {
      m->said = 0;
      eng_live_accept (it, c);
    }
  return back;
}

/* A table face carried to a pile while the table's last cards (or the
 * dealer's four) go to one player's: whose pile matters (S7, S12). */
static void
to_a_pile (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  const EscRules *r = esc_live_rules (it);
  const EscState *s = esc_live_state (it);
  EngLiveMind *m = eng_live_mind (it);
  int p = eng_live_player_of_seat (it, c->item.zone.seat);
  int taker = esc_live_mind (it)->taker - 1;
  int e = -1;
  for (int i = 0; i < m->n_expect && e < 0; i++)
    if (m->expect[i].kind == ENG_EXPECT_LEAVE && m->expect[i].serial == c->item.serial)
      e = i;
  if (e < 0)
    {
      card_taken (it, c, out);
      return;
    }
  if (p < 0 || escoba_side (r, s, (unsigned) p) != escoba_side (r, s, (unsigned) taker))
    {
      eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "S12", ENG_N_ ("Not that pile: %s"),
                       m->expect[e].text);
      return;
    }
  memmove (&m->expect[e], &m->expect[e + 1], (size_t) (m->n_expect - e - 1) * sizeof m->expect[0]);
  m->n_expect--;
  eng_live_accept (it, c);
}

static void
esc_live_change (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  const EscState *s = esc_live_state (it);
  char what[128];
  bool face = c->item.kind == 'F';
  bool from_table = c->kind == ENG_LIVE_VANISH ? on_table (c->item.zone)
                    : c->kind == ENG_LIVE_MOVE && on_table (c->from) && !on_table (c->item.zone);
  if (face && c->kind == ENG_LIVE_APPEAR && on_table (c->item.zone) && card_put_back (it, c))
    return;
  if (s->phase == ESC_PHASE_DEAL && face && on_table (c->item.zone)
      && (c->kind == ENG_LIVE_APPEAR || c->kind == ENG_LIVE_MOVE))
    {
      eng_live_accept (it, c);   /* the deal, read when the four are down */
      return;
    }
  if (face && (c->kind == ENG_LIVE_APPEAR || (c->kind == ENG_LIVE_MOVE && !on_table (c->from)))
      && on_table (c->item.zone))
    {
      card_laid (it, c, out);
      return;
    }
  if (face && from_table)
    {
      if (c->kind == ENG_LIVE_MOVE && c->item.zone.kind == ENG_ZONE_CAPTURE
          && esc_live_mind (it)->laid == 0 && esc_live_mind (it)->taker > 0)
        {
          to_a_pile (it, c, out);
          return;
        }
      card_taken (it, c, out);
      return;
    }
  if (c->item.zone.kind == ENG_ZONE_CAPTURE || (!face && c->kind == ENG_LIVE_VANISH)
      || c->kind == ENG_LIVE_FLIP_DOWN || (c->item.zone.kind == ENG_ZONE_NONE && !face))
    {
      /* a pile squared up, captured cards turned down, a back off every zone */
      bool unseen = face && c->kind == ENG_LIVE_APPEAR
                    && !eng_game_card_public (eng_live_game (it), c->item.serial);
      EscLiveMind *m = esc_live_mind (it);
      if (unseen && m->laid == 0 && (m->n_taken > 0 || table_lifted (it))
          && c->item.zone.seat == eng_live_seat_of (it, s->active))
        {
          /* laid and carried across the pile with what it took, in one look */
          start_waiting (it, c, true);
          return;
        }
      if (unseen)
        {
          eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "S12",
                           ENG_N_ ("Cards are laid on the table: take back %s"),
                           eng_live_item_words (it, &c->item, what, sizeof what));
          return;
        }
      eng_live_accept (it, c);
      return;
    }
  if (!face && on_table (c->item.zone))
    {
      eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "S3",
                       ENG_N_ ("Cards are laid face up: turn it over"));
      return;
    }
  eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "table", ENG_N_ ("Unexpected card: %s; put it back"),
                   eng_live_item_words (it, &c->item, what, sizeof what));
}

/* ---- commands -------------------------------------------------------------------- */

static EngStatus
esc_live_command (EngInterpreter *it, const char *id, EngEvents *out)
{
  if (strcmp (id, "end-turn") != 0)
    return ENG_ERR_NOT_FOUND;
  EscLiveMind *m = esc_live_mind (it);
  if (m->laid == 0)
    eng_live_say (out, ENG_EVENT_NOTE, -1, "S3", ENG_N_ ("First lay a card on the table"));
  else if (m->n_taken > 0 || m->laid_gone)
    eng_live_say (out, ENG_EVENT_NOTE, -1, "S12",
                  ENG_N_ ("Put the cards taken back on the table first"));
  else
    complete (it, out);
  return ENG_OK;
}

/* ---- the table a round starts from ----------------------------------------------- */

static bool
esc_live_baseline_check (EngInterpreter *it, char *why, size_t size)
{
  const EscState *s = esc_live_state (it);
  const EscRules *r = esc_live_rules (it);
  unsigned faces = 0;
  why[0] = '\0';
  for (size_t i = 0; i < eng_live_n_table (it) && why[0] == '\0'; i++)
    {
      const EngLiveItem *v = eng_live_table_item (it, i);
      char what[128];
      uint8_t k = v->kind == 'F' ? eng_live_card_index (it, v->serial) : ENG_CARD_NONE;
      bool ok = v->zone.kind == ENG_ZONE_NONE || v->zone.kind == ENG_ZONE_DECK
                || v->zone.kind == ENG_ZONE_COMMAND;
      if (on_table (v->zone) && v->kind == 'F')
        ok = s->phase == ESC_PHASE_DEAL ? ++faces <= 4
                                        : k != ENG_CARD_NONE && memchr (s->table, k, s->table_n);
      else if (on_table (v->zone))
        ok = false;   /* table cards lie face up */
      else if (v->zone.kind == ENG_ZONE_CAPTURE)
        ok = s->phase != ESC_PHASE_DEAL
             && s->pile_n[escoba_side (r, s, (unsigned) eng_live_player_of_seat (it, v->zone.seat))] > 0;
      if (!ok)
        snprintf (why, size, ENG_ ("take away %s"), eng_live_item_words (it, v, what, sizeof what));
    }
  if (why[0] == '\0' && s->phase == ESC_PHASE_DEAL && faces == 0)
    snprintf (why, size, "%s", ENG_ ("none yet"));   /* no one says "0 of 4" */
  else if (why[0] == '\0' && s->phase == ESC_PHASE_DEAL && faces < 4)
    snprintf (why, size, ENG_ ("%u of 4 so far"), faces);
  for (unsigned i = 0; why[0] == '\0' && s->phase == ESC_PHASE_PLAY && i < s->table_n; i++)
    if (!eng_live_face_visible (it, r->table.serial[s->table[i]]))
      {
        char name[48];
        eng_live_face_name (it, r->table.serial[s->table[i]], true, name, sizeof name);
        snprintf (why, size, ENG_ ("put %s back on the table"), name);
      }
  return why[0] == '\0';
}

static void
esc_live_setup_need (EngInterpreter *it, const char *why, char *text, size_t size,
                     const char **rule)
{
  const EscState *s = esc_live_state (it);
  snprintf (text, size, ENG_ ("%s: deal three cards each and four face up on the table (%s)"),
            eng_live_player_name (it, s->dealer), why);
  *rule = "S1";
}

static bool
esc_live_deal_start (const EngInterpreter *it)
{
  return esc_live_state (it)->phase == ESC_PHASE_DEAL;
}

/* ---- words and the mind ---------------------------------------------------------- */

static void
esc_live_zone_words (const EngInterpreter *it, EngZone z, char *buf, size_t size)
{
  if (z.kind == ENG_ZONE_CENTRE)
    snprintf (buf, size, "%s", ENG_ ("the table"));
  else if (z.kind == ENG_ZONE_CAPTURE)
    snprintf (buf, size, ENG_ ("%s's pile"),
              eng_live_player_name (it, eng_live_player_of_seat (it, z.seat)));
  else if (z.kind == ENG_ZONE_DECK)
    snprintf (buf, size, "%s", ENG_ ("the deck"));
  else
    snprintf (buf, size, "%s", ENG_ ("off the table"));
}

static bool
esc_live_pending (const EngLiveMind *m)
{
  return esc_live_mind_of (m)->laid != 0;
}

/* A journaled mind that makes sense (the core writes the bytes). */
static bool
esc_live_mind_valid (const EngLiveMind *m)
{
  const EscLiveMind *em = esc_live_mind_of (m);
  return em->n_taken <= ESC_LIVE_TAKEN && em->laid_gone <= 1 && em->gathering <= 1
         && em->taker <= ESC_PLAYERS && em->laid < ENG_LIVE_SERIALS;
}

static void
esc_live_mind_rename (EngLiveMind *m, uint16_t from, uint16_t to)
{
  EscLiveMind *em = (EscLiveMind *) (void *) m->game;
  if (em->laid == from)
    em->laid = to;
  for (unsigned i = 0; i < em->n_taken; i++)
    if (em->taken[i] == from)
      em->taken[i] = to;
}

static void
esc_live_view (const EngInterpreter *it, EngView *view)
{
  const EscLiveMind *m = eng_live_mind_game_const (it);
  if (m->laid != 0 && view->n_shared > 0)
    /* after "Ana's turn ·": what the turn waits for, without the name again */
    snprintf (view->phase, sizeof view->phase, "%s", ENG_ ("taking 15 or ending the turn"));
}

/* The turn a table may have ended while the referee was away; never
 * guessed: the table is asked when nothing it left proves it. */
static const EngLiveGapCommand esc_gap_commands[] = {
  { "end-turn", ENG_N_ ("While the referee was away, did %s end the turn? Confirm, or cancel") },
  { NULL, NULL },
};

const EngLiveClass escoba_live_class = {
  .name = "escoba",
  .cover_zones = 1u << ENG_ZONE_CAPTURE,
  .n_centre = 12,
  .slot_noun = "card",
  .cleanup_rule = "S12",
  .place_rule = "S5",
  .gap_commands = esc_gap_commands,
  .baseline_check = esc_live_baseline_check,
  .setup_need = esc_live_setup_need,
  .deal_start = esc_live_deal_start,
  .change = esc_live_change,
  .settle = esc_live_settle,
  .after_move = esc_live_after_move,
  .command = esc_live_command,
  .zone_words = esc_live_zone_words,
  .view = esc_live_view,
  .pending = esc_live_pending,
  .mind_size = sizeof (EscLiveMind),
  .mind_valid = esc_live_mind_valid,
  .mind_rename = esc_live_mind_rename,
};

/* eng-live-table.c: the table as the live referee holds it (docs/interpreter.md).
 *
 * The view says where every visible card should be, given the moves
 * accepted so far.  Each look is compared with the view (not with the
 * previous look), so a difference the referee refused stays a difference
 * until the table fixes it, and is reported once, not once per frame.
 * Cards in the decks are not tracked (draws are announced, not observed);
 * cards that reached a pile may disappear under others without complaint.
 * What a change means is the game's (EngLiveClass.change); here is what
 * every game shares: reading a snapshot, the diff, expectations, complaints.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "eng-i18n.h"
#include "eng-live-private.h"

/* ---- the interpreter as game modules see it ----------------------------- */

EngGame *
eng_live_game (const EngInterpreter *live)
{
  return live->game;
}

const void *
eng_live_state (const EngInterpreter *live)
{
  return eng_game_state (live->game);
}

const void *
eng_live_rules (const EngInterpreter *live)
{
  return eng_game_rules (live->game);
}

const EngCardSet *
eng_live_set (const EngInterpreter *live)
{
  return live->set;
}

void *
eng_live_data (const EngInterpreter *live)
{
  return live->data;
}

const EngRecord *
eng_live_record (const EngInterpreter *live)
{
  return live->record;
}

EngLiveMind *
eng_live_mind (EngInterpreter *live)
{
  return &live->mind;
}

const EngLiveMind *
eng_live_mind_const (const EngInterpreter *live)
{
  return &live->mind;
}

void *
eng_live_mind_game (EngInterpreter *live)
{
  return live->mind.game;
}

const void *
eng_live_mind_game_const (const EngInterpreter *live)
{
  return live->mind.game;
}

const char *
eng_live_player_name (const EngInterpreter *live, int player)
{
  const EngSetup *su = eng_game_setup (live->game);
  if (player < 0 || (unsigned) player >= su->n_players)
    return "?";
  return su->names[player];
}

unsigned
eng_live_n_players (const EngInterpreter *live)
{
  return eng_game_setup (live->game)->n_players;
}

int
eng_live_seat_of (const EngInterpreter *live, int player)
{
  const EngSetup *su = eng_game_setup (live->game);
  if (player < 0 || (unsigned) player >= su->n_players)
    return -1;
  return su->seats[player] ? su->seats[player] - 1 : player;
}

int
eng_live_player_of_seat (const EngInterpreter *live, int seat)
{
  const EngSetup *su = eng_game_setup (live->game);
  for (unsigned p = 0; p < su->n_players; p++)
    if (eng_live_seat_of (live, (int) p) == seat)
      return (int) p;
  return -1;
}

bool
eng_live_zone_eq (EngZone a, EngZone b)
{
  return a.kind == b.kind && a.seat == b.seat && a.index == b.index;
}

EngZone
eng_live_zone (int kind, int seat, int index)
{
  return (EngZone) { (uint8_t) kind, (int8_t) seat, (int8_t) index };
}

unsigned
eng_live_deck_of (const EngInterpreter *live, uint16_t serial)
{
  return serial < ENG_LIVE_SERIALS ? live->deck_of[serial] : 0;
}

/* ---- words ---------------------------------------------------------------- */

void
eng_live_face_name (const EngInterpreter *live, uint16_t serial, bool definite, char *buf,
                    size_t size)
{
  eng_game_card_name (live->game, serial, definite, buf, size);
}

void
eng_live_command_words (const EngInterpreter *live, const char *id, char *buf, size_t size)
{
  const EngCommand *cmd = eng_card_set_find_command (live->set, id);
  const char *label = cmd != NULL ? cmd->label : id;
  /* "Pass (K3: play nothing this turn)": the name, not the sticker's note */
  const char *paren = strstr (label, " (");
  char name[64];
  snprintf (name, sizeof name, "%.*s", (int) (paren != NULL ? (size_t) (paren - label) : strlen (label)),
            label);
  snprintf (buf, size, "%s", ENG_ (name));
}

void
eng_live_discard_words (const EngInterpreter *live, const uint16_t *serials, int n, char *buf,
                        size_t size)
{
  /* more than three names do not fit a breath: the table knows them */
  if (n > 3)
    {
      snprintf (buf, size, ENG_NG_ ("Put the %d played card on the discard pile",
                                    "Put the %d played cards on the discard pile", n), n);
      return;
    }
  /* three cards of one name (a Kittens three of a kind): "the other" twice
   * would read as one card said twice, so the three are said together */
  if (n == 3)
    {
      char a[48], b[48], c[48];
      eng_live_face_name (live, serials[0], false, a, sizeof a);
      eng_live_face_name (live, serials[1], false, b, sizeof b);
      eng_live_face_name (live, serials[2], false, c, sizeof c);
      if (strcmp (a, b) == 0 && strcmp (a, c) == 0)
        {
          snprintf (buf, size, ENG_ ("Put the three %s cards on the discard pile"), a);
          return;
        }
    }
  char names[160] = "";
  for (int i = 0; i < n; i++)
    {
      char name[48];
      eng_live_face_name (live, serials[i], true, name, sizeof name);
      /* two cards of one name in one sentence: "the blue 2 and the other
       * blue 2", not the same words twice */
      for (int j = 0; j < i; j++)
        {
          char earlier[48];
          eng_live_face_name (live, serials[j], true, earlier, sizeof earlier);
          if (strcmp (earlier, name) == 0)
            {
              char bare[40];
              eng_live_face_name (live, serials[i], false, bare, sizeof bare);
              snprintf (name, sizeof name, ENG_ ("the other %s"), bare);
              break;
            }
        }
      size_t l = strlen (names);
      snprintf (names + l, sizeof names - l, "%s %s", i ? "," : "", name);
    }
  /* " the red 3, the Shield" -> " the red 3 and the Shield"; each name
   * comes with its leading space, which the formats glue on */
  char *last = strrchr (names, ',');
  if (last != NULL)
    {
      char tail[160];
      snprintf (tail, sizeof tail, "%s%s", ENG_ (" and "), last + 2);
      *last = '\0';
      snprintf (buf, size, ENG_ ("Put%s%s on the discard pile"), names, tail);
    }
  else
    snprintf (buf, size, ENG_ ("Put%s on the discard pile"), names);
  eng_i18n_elide (buf);
}

void
eng_live_zone_words (const EngInterpreter *live, EngZone z, char *buf, size_t size)
{
  if (live->klass->zone_words != NULL)
    {
      live->klass->zone_words (live, z, buf, size);
      return;
    }
  int p = eng_live_player_of_seat (live, z.seat);
  switch (z.kind)
    {
    case ENG_ZONE_SLOT:
      snprintf (buf, size, ENG_ ("%s's slot %d"), eng_live_player_name (live, p), z.index + 1);
      break;
    case ENG_ZONE_ATTACK:
      snprintf (buf, size, ENG_ ("in front of %s's slot %d"), eng_live_player_name (live, p),
                z.index + 1);
      break;
    case ENG_ZONE_CAPTURE:
      snprintf (buf, size, ENG_ ("%s's capture area"), eng_live_player_name (live, p));
      break;
    case ENG_ZONE_PLAY:
      snprintf (buf, size, ENG_ ("%s's play area"), eng_live_player_name (live, p));
      break;
    case ENG_ZONE_DISCARD:
      snprintf (buf, size, "%s", ENG_ ("the discard pile"));
      break;
    case ENG_ZONE_DECK:
      snprintf (buf, size, "%s", ENG_ ("a deck"));
      break;
    default:
      snprintf (buf, size, "%s", ENG_ ("the table"));
    }
}

void
eng_live_zone_at_words (const EngInterpreter *live, EngZone z, char *buf, size_t size)
{
  if (live->klass->zone_at_words != NULL)
    {
      live->klass->zone_at_words (live, z, buf, size);
      return;
    }
  int p = eng_live_player_of_seat (live, z.seat);
  switch (z.kind)
    {
    case ENG_ZONE_SLOT:
      snprintf (buf, size, ENG_ ("in %s's slot %d"), eng_live_player_name (live, p), z.index + 1);
      break;
    case ENG_ZONE_ATTACK:
      snprintf (buf, size, ENG_ ("in front of %s's slot %d"), eng_live_player_name (live, p),
                z.index + 1);
      break;
    case ENG_ZONE_CAPTURE:
      snprintf (buf, size, ENG_ ("in %s's capture area"), eng_live_player_name (live, p));
      break;
    case ENG_ZONE_PLAY:
      snprintf (buf, size, ENG_ ("in %s's play area"), eng_live_player_name (live, p));
      break;
    case ENG_ZONE_DISCARD:
      snprintf (buf, size, "%s", ENG_ ("on the discard pile"));
      break;
    case ENG_ZONE_DECK:
      snprintf (buf, size, "%s", ENG_ ("on a deck"));
      break;
    default:
      snprintf (buf, size, "%s", ENG_ ("on the table"));
    }
}

const char *
eng_live_item_words (const EngInterpreter *live, const EngLiveItem *item, char *buf, size_t size)
{
  char where[80];
  eng_live_zone_at_words (live, item->zone, where, sizeof where);
  if (item->kind == 'F')
    {
      char name[48];
      eng_live_face_name (live, item->serial, true, name, sizeof name);
      /* Translators: a card and where it lies ("the Defuse", "in Ana's
       * play area"). */
      snprintf (buf, size, ENG_ ("%s %s"), name, where);
      eng_i18n_elide (buf);
      return buf;
    }
  /* a back names only its deck */
  unsigned deck = item->serial > 0 ? item->serial - 1u : 0;
  if (live->klass->back_words != NULL)
    live->klass->back_words (live, deck, where, buf, size);
  else
    snprintf (buf, size, ENG_ ("the face-down card %s"), where);
  eng_i18n_elide (buf);
  return buf;
}

EngEvent *
eng_live_say (EngEvents *out, EngEventKind kind, int player, const char *rule, const char *fmt,
              ...)
{
  if (out == NULL)
    return NULL;   /* nothing is said: no catalogue lookup */
  va_list ap;
  va_start (ap, fmt);
  EngEvent *e = eng_events_vaddf (out, kind, player, rule, ENG_ (fmt), ap);
  va_end (ap);
  return e;
}

bool
eng_live_face_visible (const EngInterpreter *live, unsigned serial)
{
  for (int i = 0; i < live->n_cur; i++)
    if (live->cur[i].kind == 'F' && live->cur[i].serial == serial)
      return true;
  return false;
}

size_t
eng_live_n_table (const EngInterpreter *live)
{
  return live->n_cur;
}

const EngLiveItem *
eng_live_table_item (const EngInterpreter *live, size_t i)
{
  return i < live->n_cur ? &live->cur[i] : NULL;
}

/* ---- the view --------------------------------------------------------------- */

int
eng_live_view_find (const EngLiveMind *m, char kind, uint16_t serial, uint32_t track)
{
  for (int i = 0; i < m->n_view; i++)
    {
      const EngLiveItem *v = &m->view[i];
      if (v->kind != kind)
        continue;
      if (kind == 'F' ? v->serial == serial : v->track == track)
        return i;
    }
  return -1;
}

int
eng_live_view_find_at (const EngLiveMind *m, EngZone z)
{
  for (int i = 0; i < m->n_view; i++)
    if (eng_live_zone_eq (m->view[i].zone, z))
      return i;
  return -1;
}

void
eng_live_view_remove_at (EngLiveMind *m, int i)
{
  if (i < 0)
    return;
  m->view[i] = m->view[--m->n_view];
}

void
eng_live_view_add (EngLiveMind *m, const EngLiveItem *item)
{
  if (m->n_view < ENG_SNAPSHOT_MAX_ITEMS)
    m->view[m->n_view++] = *item;
}

void
eng_live_mark_discarded (EngLiveMind *m, uint16_t serial)
{
  if (serial < ENG_LIVE_SERIALS)
    m->discarded[serial / 8] = (uint8_t) (m->discarded[serial / 8] | (1u << (serial % 8)));
}

void
eng_live_unmark_discarded (EngLiveMind *m, uint16_t serial)
{
  if (serial < ENG_LIVE_SERIALS)
    m->discarded[serial / 8] &= (uint8_t) ~(1u << (serial % 8));
}

bool
eng_live_was_discarded (const EngLiveMind *m, uint16_t serial)
{
  return serial < ENG_LIVE_SERIALS && (m->discarded[serial / 8] >> (serial % 8)) & 1;
}

void
eng_live_accept (EngInterpreter *live, const EngLiveChange *c)
{
  EngLiveMind *m = &live->mind;
  switch (c->kind)
    {
    case ENG_LIVE_APPEAR:
      eng_live_view_add (m, &c->item);
      break;
    case ENG_LIVE_VANISH:
      eng_live_view_remove_at (m, eng_live_view_find (m, c->item.kind, c->item.serial,
                                                      c->item.track));
      break;
    case ENG_LIVE_MOVE:
      {
        int i = eng_live_view_find (m, c->item.kind, c->item.serial, c->item.track);
        if (i >= 0)
          m->view[i].zone = c->item.zone;
        break;
      }
    case ENG_LIVE_FLIP_UP:
      eng_live_view_remove_at (m, eng_live_view_find (m, 'B', 0, c->old_track));
      eng_live_view_add (m, &c->item);
      break;
    case ENG_LIVE_FLIP_DOWN:
      for (int i = 0; i < m->n_view; i++)
        if (m->view[i].kind == 'F' && eng_live_zone_eq (m->view[i].zone, c->item.zone))
          {
            EngLiveItem back = { 'B', (uint16_t) (eng_live_deck_of (live, m->view[i].serial) + 1),
                                 c->old_track, c->item.zone };
            eng_live_view_remove_at (m, i);
            eng_live_view_add (m, &back);
            break;
          }
      break;
    case ENG_LIVE_TURN_OVER:
      eng_live_view_remove_at (m, eng_live_view_find (m, 'F', c->old_serial, 0));
      eng_live_view_add (m, &c->item);
      break;
    default:
      break;
    }
  if (c->item.kind == 'F' && c->item.zone.kind == ENG_ZONE_DISCARD && c->kind != ENG_LIVE_VANISH)
    eng_live_mark_discarded (m, c->item.serial);
}

/* ---- complaints: a refused difference is reported once ---------------------- */

Complaint *
live_complaint_find (EngInterpreter *it, const EngLiveChange *c)
{
  for (size_t i = 0; i < it->n_complaints; i++)
    {
      Complaint *k = &it->complaints[i];
      if (k->kind == c->kind && k->item_kind == c->item.kind && k->serial == c->item.serial
          && (c->item.kind == 'F' || k->track == c->item.track)
          && eng_live_zone_eq (k->zone, c->item.zone))
        return k;
    }
  return NULL;
}

void
live_complaints_unseen (EngInterpreter *it)
{
  for (size_t i = 0; i < it->n_complaints; i++)
    it->complaints[i].seen = false;
}

void
live_complaints_fixed (EngInterpreter *it)
{
  size_t keep = 0;
  for (size_t i = 0; i < it->n_complaints; i++)
    if (it->complaints[i].seen)
      it->complaints[keep++] = it->complaints[i];
  it->n_complaints = keep;
}

void
eng_live_complaint_add (EngInterpreter *live, const EngLiveChange *c)
{
  live->complaints_made++;
  if (live->n_complaints >= LIVE_MAX_COMPLAINTS)
    return;
  live->complaints[live->n_complaints++] = (Complaint) { c->kind, c->item.kind, c->item.serial,
                                                         c->item.track, c->item.zone, true };
}

void
eng_live_refuse (EngInterpreter *live, const EngLiveChange *c, EngEvents *out, EngEventKind kind,
                 const char *rule, const char *fmt, ...)
{
  eng_live_complaint_add (live, c);
  EngEvent *e = eng_events_add (out, kind);
  if (e == NULL)
    return;
  snprintf (e->rule, sizeof e->rule, "%s", rule);
  /* translated once: the text and its capitals read the same format */
  const char *format = ENG_ (fmt);
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (e->text, sizeof e->text, format, ap);
  va_end (ap);
  eng_i18n_elide (e->text);
  va_start (ap, fmt);
  eng_text_capitalize (e->text, format, ap);
  va_end (ap);
}

void
eng_live_take_back (EngInterpreter *live, const EngLiveChange *c, EngEvents *out)
{
  char what[128];
  eng_live_item_words (live, &c->item, what, sizeof what);
  eng_live_complaint_add (live, c);
  eng_live_say (out, ENG_EVENT_NEED, -1, "table", ENG_N_ ("Take back %s: it was not accepted"),
                what);
}

/* ---- expectations ----------------------------------------------------------- */

EngLiveExpect *
eng_live_expect_add (EngLiveMind *m, EngExpectKind kind, uint16_t serial, uint32_t track,
                     EngZone zone)
{
  if (m->n_expect >= ENG_LIVE_MAX_EXPECT)
    return NULL;
  /* the table is told a thing once: a later move restating it adds nothing */
  for (int i = 0; i < m->n_expect; i++)
    if (m->expect[i].kind == kind && m->expect[i].serial == serial
        && m->expect[i].track == track && eng_live_zone_eq (m->expect[i].zone, zone))
      return NULL;
  EngLiveExpect *e = &m->expect[m->n_expect++];
  memset (e, 0, sizeof *e);
  e->kind = (uint8_t) kind;
  e->serial = serial;
  e->track = track;
  e->zone = zone;
  return e;
}

static void
expect_remove (EngLiveMind *m, int i)
{
  memmove (&m->expect[i], &m->expect[i + 1], (size_t) (m->n_expect - i - 1) * sizeof m->expect[0]);
  m->n_expect--;
}

void
eng_live_expect_face_leaves (EngInterpreter *live, uint16_t card, const char *fmt, ...)
{
  int vi = eng_live_view_find (&live->mind, 'F', card, 0);
  if (vi < 0)
    return;
  EngLiveExpect *e = eng_live_expect_add (&live->mind, ENG_EXPECT_LEAVE, card, 0,
                                          live->mind.view[vi].zone);
  if (e == NULL)
    return;
  e->item_kind = 'F';
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (e->text, sizeof e->text, ENG_ (fmt), ap);
  va_end (ap);
  eng_i18n_elide (e->text);
}

/* An instruction ("Put the Favor on the discard pile") as it reads after
 * a colon, in mid-sentence: "First: put the Favor...".  Only a plain
 * capital is lowered, never a player's name ("Ana: take the card..."). */
static const char *
as_clause (const EngInterpreter *live, const char *text, char *buf, size_t size)
{
  snprintf (buf, size, "%s", text);
  if (!isupper ((unsigned char) buf[0]) || !islower ((unsigned char) buf[1]))
    return buf;
  size_t word = strcspn (buf, " :,;");
  for (unsigned p = 0; p < eng_live_n_players (live); p++)
    {
      const char *name = eng_live_player_name (live, (int) p);
      if (strlen (name) == word && strncmp (buf, name, word) == 0)
        return buf;
    }
  buf[0] = (char) tolower ((unsigned char) buf[0]);
  return buf;
}

bool
eng_live_expectations_block (EngInterpreter *live, EngEvents *out)
{
  if (live->mind.n_expect == 0)
    return false;
  char what[sizeof live->mind.expect[0].text];
  eng_live_say (out, ENG_EVENT_NOTE, -1, "table", ENG_N_ ("First: %s"),
                as_clause (live, live->mind.expect[0].text, what, sizeof what));
  return true;
}

/* Whether the face of change `c` is `serial`, or the other side of the
 * two-sided card `serial` is. */
static bool
same_card (const EngInterpreter *it, const EngLiveChange *c, uint16_t serial)
{
  if (c->item.kind != 'F')
    return false;
  return c->item.serial == serial
         || (serial != 0 && eng_card_set_other_side (it->set, serial) == c->item.serial);
}

/* Change `c` breaks expectation `e`: said once; `*broken` set. */
static void
broken_expectation (EngInterpreter *it, const EngLiveExpect *e, const EngLiveChange *c,
                    EngEvents *out)
{
  if (live_complaint_find (it, c) != NULL)
    return;
  const char *rule = it->klass->cleanup_rule != NULL ? it->klass->cleanup_rule : "table";
  if ((e->kind == ENG_EXPECT_TO_ZONE || e->kind == ENG_EXPECT_SIDE_UP)
      && it->klass->place_rule != NULL)
    rule = it->klass->place_rule;
  switch (e->kind)
    {
    case ENG_EXPECT_TO_DISCARD:
      {
        char name[48];
        eng_live_face_name (it, e->serial, false, name, sizeof name);
        eng_live_say (out, ENG_EVENT_NOTE, -1, rule, ENG_N_ ("The %s goes on the discard pile: %s"),
                      name, e->text);
        return;
      }
    case ENG_EXPECT_TO_PILE:
      {
        int taker = eng_live_player_of_seat (it, e->zone.seat);
        if (c->item.zone.kind == ENG_ZONE_CAPTURE)
          eng_live_say (out, ENG_EVENT_ILLEGAL, eng_live_player_of_seat (it, c->item.zone.seat),
                        rule, ENG_N_ ("Wrong capture area: this card belongs to %s, not %s. %s"),
                        eng_live_player_name (it, taker),
                        eng_live_player_name (it, eng_live_player_of_seat (it, c->item.zone.seat)),
                        e->text);
        else
          {
            char what[sizeof e->text];
            eng_live_say (out, ENG_EVENT_NOTE, taker, rule, ENG_N_ ("Not there: %s"),
                          as_clause (it, e->text, what, sizeof what));
          }
        return;
      }
    case ENG_EXPECT_FACE_DOWN:
      eng_live_say (out, ENG_EVENT_NOTE, eng_live_player_of_seat (it, e->zone.seat), rule, "%s",
                    e->text);
      return;
    default:
      {
        char what[sizeof e->text];
        eng_live_say (out, ENG_EVENT_NOTE, -1, rule, ENG_N_ ("Not there: %s"),
                      as_clause (it, e->text, what, sizeof what));
      }
    }
}

/* Whether another face reached the discard pile in this look: a card
 * that vanished meanwhile may lie under it (two cards laid on the pile
 * together, or while the referee was away: the camera sees the top one). */
static bool
pile_took_another (const EngInterpreter *it, uint16_t serial)
{
  for (size_t i = 0; i < it->n_changes; i++)
    {
      const EngLiveChange *o = &it->changes[i];
      if (o->item.kind == 'F' && o->item.serial != serial && o->item.zone.kind == ENG_ZONE_DISCARD
          && (o->kind == ENG_LIVE_MOVE || o->kind == ENG_LIVE_APPEAR))
        return true;
    }
  return false;
}

/* Whether change `c` fulfils expectation `e`. */
static bool
fulfils (const EngInterpreter *it, const EngLiveExpect *e, const EngLiveChange *c)
{
  switch (e->kind)
    {
    case ENG_EXPECT_TO_DISCARD:
      if (c->item.kind != 'F' || c->item.serial != e->serial)
        return false;
      if (c->kind == ENG_LIVE_VANISH)
        return pile_took_another (it, e->serial);
      return (c->kind == ENG_LIVE_MOVE || c->kind == ENG_LIVE_APPEAR)
             && c->item.zone.kind == ENG_ZONE_DISCARD;
    case ENG_EXPECT_TO_PILE:
      return c->item.kind == 'F' && c->item.serial == e->serial && c->kind == ENG_LIVE_MOVE
             && c->item.zone.kind == ENG_ZONE_CAPTURE && c->item.zone.seat == e->zone.seat;
    case ENG_EXPECT_FACE_DOWN:
      return c->kind == ENG_LIVE_FLIP_DOWN && eng_live_zone_eq (c->item.zone, e->zone);
    case ENG_EXPECT_NEW_BACK:
      return c->kind == ENG_LIVE_APPEAR && c->item.kind == 'B'
             && eng_live_zone_eq (c->item.zone, e->zone);
    case ENG_EXPECT_LEAVE:
      {
        bool same = c->item.kind == e->item_kind
                    && (e->item_kind == 'F' ? c->item.serial == e->serial
                                            : c->item.track == e->track);
        return same && (c->kind == ENG_LIVE_VANISH
                        || (c->kind == ENG_LIVE_MOVE && c->item.zone.kind == ENG_ZONE_DECK));
      }
    case ENG_EXPECT_TO_ZONE:
      return same_card (it, c, e->serial) && c->kind != ENG_LIVE_VANISH
             && eng_live_zone_eq (c->item.zone, e->zone);
    case ENG_EXPECT_SIDE_UP:
      return c->kind == ENG_LIVE_TURN_OVER && c->item.serial == e->serial;
    default:
      return false;
    }
}

/* Whether change `c` concerns expectation `e` without fulfilling it, so
 * that it breaks it (the card went elsewhere). */
static bool
breaks (const EngInterpreter *it, const EngLiveExpect *e, const EngLiveChange *c)
{
  bool same_face = c->item.kind == 'F' && c->item.serial == e->serial;
  switch (e->kind)
    {
    case ENG_EXPECT_TO_DISCARD:
      return same_face;
    case ENG_EXPECT_TO_PILE:
      return same_face && c->kind != ENG_LIVE_FLIP_UP;
    case ENG_EXPECT_FACE_DOWN:
      return same_face;
    case ENG_EXPECT_TO_ZONE:
      /* a two-sided card may be turned over on the way, or after */
      return same_card (it, c, e->serial) && c->kind != ENG_LIVE_TURN_OVER
             && c->kind != ENG_LIVE_VANISH;
    default:
      return false;
    }
}

/* Whether an expectation takes change `c` (then the view takes it), or
 * breaks one (then a mistake is reported once and *broken is set). */
static bool
match_expectation (EngInterpreter *it, const EngLiveChange *c, EngEvents *out, bool *broken)
{
  EngLiveMind *m = &it->mind;
  *broken = false;
  for (int i = 0; i < m->n_expect; i++)
    {
      EngLiveExpect *e = &m->expect[i];
      if (fulfils (it, e, c))
        {
          EngLiveChange v = *c;
          if (e->kind == ENG_EXPECT_LEAVE)
            v.kind = ENG_LIVE_VANISH;
          eng_live_accept (it, &v);
          if (e->kind == ENG_EXPECT_TO_DISCARD && c->kind == ENG_LIVE_VANISH)
            eng_live_mark_discarded (m, e->serial);   /* under the pile's top */
          expect_remove (m, i);
          /* one change may do two things asked: a two-sided card turned
           * over and moved in one look */
          for (int j = m->n_expect - 1; j >= 0; j--)
            if ((m->expect[j].kind == ENG_EXPECT_TO_ZONE || m->expect[j].kind == ENG_EXPECT_SIDE_UP)
                && fulfils (it, &m->expect[j], c))
              expect_remove (m, j);
          return true;
        }
      if (breaks (it, e, c))
        {
          broken_expectation (it, e, c, out);
          *broken = true;
          return false;
        }
    }
  return false;
}

bool
eng_live_match_expectation (EngInterpreter *live, const EngLiveChange *c, EngEvents *out)
{
  bool broken;
  if (match_expectation (live, c, out, &broken))
    return true;
  if (broken)
    eng_live_complaint_add (live, c);
  return false;
}

/* The generic part of reading one change: expectations and complaints
 * first, then the game's protocol. */
void
live_handle_change (EngInterpreter *it, EngLiveChange *c, EngEvents *out)
{
  bool broken = false;
  if (match_expectation (it, c, out, &broken))
    return;
  Complaint *k = live_complaint_find (it, c);
  if (broken && k == NULL)
    {
      eng_live_complaint_add (it, c);
      return;
    }
  if (k != NULL)
    {
      k->seen = true;
      return;
    }
  /* a face that reached a pile before is the same card found again */
  if (c->kind == ENG_LIVE_APPEAR && c->item.kind == 'F' && c->item.zone.kind == ENG_ZONE_DISCARD
      && eng_live_was_discarded (&it->mind, c->item.serial))
    {
      eng_live_accept (it, c);
      return;
    }
  /* a card covered by the next one on a pile */
  if (c->kind == ENG_LIVE_VANISH && (it->klass->cover_zones >> c->item.zone.kind) & 1u)
    {
      eng_live_accept (it, c);
      return;
    }
  it->klass->change (it, c, out);
}

/* ---- K20 in refusals -------------------------------------------------------- */

/* Whether `text` names, as `word` and a number ("card 10"), a card whose
 * face is not up on the table now. */
static bool
names_unseen_card (const EngInterpreter *it, const char *text, const char *word)
{
  size_t len = strlen (word);
  if (len == 0)
    return false;
  for (const char *p = strstr (text, word); p != NULL; p = strstr (p + 1, word))
    {
      char *end;
      unsigned long serial = strtoul (p + len, &end, 10);
      if (end == p + len || serial == 0 || eng_live_face_visible (it, (unsigned) serial))
        continue;
      return true;
    }
  return false;
}

/* K20 is the interpreter's last duty before the screen: a refusal text that
 * names a card ("card 10") whose face is not up on the table now is
 * replaced by one that names none.  The rules' refusals come in the table's
 * language, so the word before the number is looked for in English and as
 * translated ("carta 10"). */
void
live_hide_unseen (const EngInterpreter *it, EngEvents *out, size_t from)
{
  if (out == NULL)
    return;
  for (size_t i = from; i < out->n; i++)
    {
      EngEvent *e = &out->items[i];
      if (e->kind != ENG_EVENT_ILLEGAL && e->kind != ENG_EVENT_CONSERVATION)
        continue;
      if (names_unseen_card (it, e->text, "card ")
          || names_unseen_card (it, e->text, ENG_C_ ("before a card's number", "card ")))
        snprintf (e->text, sizeof e->text, "%s",
                  ENG_ ("What the table shows does not match what the referee saw there before: "
                        "put the cards back as they were. The hidden card is not named"));
    }
}

/* ---- reading a snapshot ------------------------------------------------------ */

uint16_t
live_corrected (const EngInterpreter *it, uint16_t serial)
{
  for (size_t i = 0; i < it->n_corr; i++)
    if (it->corr[i].seen == serial)
      return it->corr[i].actual;
  return serial;
}

static bool
tracked_zone (const EngZone *z)
{
  return z->kind != ENG_ZONE_DECK && z->kind != ENG_ZONE_COMMAND;
}

/* A sticker complaint (foreign, doubled) is said once per track: false
 * when this one was said already; otherwise *c is the change to refuse. */
static bool
sticker_new_complaint (EngInterpreter *it, char kind, uint16_t serial, const EngSnapshotItem *si,
                       EngLiveChange *c)
{
  EngLiveItem bad = { kind, serial, si->track_id, si->zone };
  *c = (EngLiveChange) { ENG_LIVE_APPEAR, bad, si->zone, 0, 0, 0 };
  Complaint *k = live_complaint_find (it, c);
  if (k != NULL)
    k->seen = true;
  return k == NULL;
}

/* Whether zone `z` is one this game has, with a player at its seat. */
static bool
zone_known (const EngInterpreter *it, EngZone z)
{
  const EngLiveClass *k = it->klass;
  if (z.kind >= ENG_ZONE_KIND_COUNT)
    return false;
  bool seated = z.kind == ENG_ZONE_SLOT || z.kind == ENG_ZONE_ATTACK
                || z.kind == ENG_ZONE_CAPTURE || z.kind == ENG_ZONE_PLAY;
  if (seated && eng_live_player_of_seat (it, z.seat) < 0)
    return false;
  int n = z.kind == ENG_ZONE_SLOT ? k->n_slots : z.kind == ENG_ZONE_ATTACK ? k->n_spots
          : z.kind == ENG_ZONE_CENTRE ? k->n_centre : -1;
  return n < 0 || (z.index >= 0 && z.index < n);
}

/* Reads the snapshot's cards into it->cur; the command cards newly shown
 * go to new_cmds. */
void
live_read_snapshot (EngInterpreter *it, const EngSnapshot *snap, uint16_t *new_cmds,
                    size_t *n_new_cmds, EngEvents *out)
{
  uint16_t cmds[LIVE_MAX_COMMANDS];
  size_t n_cmds = 0;
  it->n_cur = 0;
  it->tracker = snap->tracker;
  *n_new_cmds = 0;
  for (size_t i = 0; i < snap->n_items && i < ENG_SNAPSHOT_MAX_ITEMS; i++)
    {
      const EngSnapshotItem *si = &snap->items[i];
      EngTag tag;
      EngTagMeaning meaning;
      size_t len = strnlen (si->payload, ENG_SNAPSHOT_PAYLOAD);
      if (eng_tag_parse (si->payload, len, &tag) != ENG_OK
          || eng_card_set_resolve (it->set, &tag, &meaning) != ENG_OK)
        {
          EngLiveChange c;
          if (sticker_new_complaint (it, 'U', 0, si, &c))
            eng_live_refuse (it, &c, out, ENG_EVENT_NOTE, "set",
                             ENG_N_ ("A sticker this card set does not know (%.11s) is on the "
                                     "table: remove it"), si->payload);
          continue;
        }
      if (tag.kind == ENG_TAG_COMMAND)
        {
          if (n_cmds < LIVE_MAX_COMMANDS)
            cmds[n_cmds++] = tag.serial;
          bool seen = false;
          for (size_t k = 0; k < it->n_commands_seen; k++)
            seen = seen || it->commands_seen[k] == tag.serial;
          if (!seen && *n_new_cmds < LIVE_MAX_COMMANDS)
            new_cmds[(*n_new_cmds)++] = tag.serial;
          continue;
        }
      if (tag.kind != ENG_TAG_FACE && tag.kind != ENG_TAG_BACK)
        continue;
      if (!tracked_zone (&si->zone))
        continue;
      if (si->flags & ENG_SNAP_DUPLICATE)
        {
          EngLiveChange c;
          if (sticker_new_complaint (it, 'D', tag.serial, si, &c))
            eng_live_refuse (it, &c, out, ENG_EVENT_CONSERVATION, "table",
                             ENG_N_ ("The same sticker (%.11s) is seen at two places: one is a "
                                     "copy; remove it"), si->payload);
          continue;
        }
      EngLiveItem item = { (char) tag.kind, tag.serial, si->track_id, si->zone };
      it->cur_read[it->n_cur] = tag.serial;
      if (item.kind == 'F')
        item.serial = live_corrected (it, tag.serial);
      if (!zone_known (it, item.zone))
        item.zone = eng_live_zone (ENG_ZONE_NONE, -1, -1);
      if (si->flags & ENG_SNAP_MOVING)
        {
          /* not at rest: count it where the view had it */
          int vi = eng_live_view_find (&it->mind, item.kind, item.serial, item.track);
          if (vi < 0)
            continue;
          item.zone = it->mind.view[vi].zone;
        }
      it->cur[it->n_cur] = item;
      it->cur_since[it->n_cur] = si->since_ns;
      it->n_cur++;
    }
  memcpy (it->commands_seen, cmds, n_cmds * sizeof cmds[0]);
  it->n_commands_seen = n_cmds;
}

/* ---- the diff: the latest look against the view ------------------------------ */

static void
add_change (EngInterpreter *it, EngLiveChangeKind kind, const EngLiveItem *item, EngZone from,
            uint32_t old_track, uint16_t old_serial, int64_t since)
{
  if (it->n_changes >= LIVE_MAX_CHANGES)
    return;
  it->changes[it->n_changes++] = (EngLiveChange) { (uint8_t) kind, *item, from, old_track,
                                                   old_serial, since };
}

/* A back the table was told to take away: a new back in its zone is
 * another card, not the same one seen again. */
static bool
leaving (const EngLiveMind *m, const EngLiveItem *v)
{
  for (int i = 0; i < m->n_expect; i++)
    if (m->expect[i].kind == ENG_EXPECT_LEAVE && m->expect[i].item_kind == v->kind
        && (v->kind == 'B' ? m->expect[i].track == v->track : m->expect[i].serial == v->serial))
      return true;
  return false;
}

/* Items of the view and the look that are the same card: faces by serial;
 * backs by track id in the same zone, then by track id, then by zone. */
static void
pair_same (EngInterpreter *it, bool *used_v, bool *used_c)
{
  EngLiveMind *m = &it->mind;
  for (int pass = 0; pass < 3; pass++)
    for (int ci = 0; ci < it->n_cur; ci++)
      {
        if (used_c[ci])
          continue;
        EngLiveItem *c = &it->cur[ci];
        for (int vi = 0; vi < m->n_view; vi++)
          {
            EngLiveItem *v = &m->view[vi];
            if (used_v[vi] || v->kind != c->kind || v->serial != c->serial)
              continue;
            if (pass == 2 && leaving (m, v))
              continue;
            /* a back that kept its track id but changed zone moved (a swap
             * of two hidden cards is two moves); only then may a back be
             * re-identified by its place (the tracker lost and found it) */
            bool same = c->kind == 'F' ? pass == 0
                        : pass == 0 ? v->track == c->track && eng_live_zone_eq (v->zone, c->zone)
                        : pass == 1 ? v->track == c->track
                        : eng_live_zone_eq (v->zone, c->zone);
            if (!same)
              continue;
            used_v[vi] = used_c[ci] = true;
            if (!eng_live_zone_eq (v->zone, c->zone))
              add_change (it, ENG_LIVE_MOVE, c, v->zone, 0, 0, it->cur_since[ci]);
            else
              v->track = c->track;
            break;
          }
      }
}

/* Cards turned over: the two sides of a two-sided card anywhere (first: a
 * side seen again is that card, even where it now covers a back); a back
 * and a face trading places in a zone where cards lie face down; and a
 * card turned up and carried off between two looks. */
static void
pair_flips (EngInterpreter *it, bool *used_v, bool *used_c)
{
  EngLiveMind *m = &it->mind;
  const EngLiveClass *k = it->klass;
  for (int vi = 0; vi < m->n_view; vi++)
    {
      uint16_t other = m->view[vi].kind == 'F' && !used_v[vi]
                       ? eng_card_set_other_side (it->set, m->view[vi].serial) : 0;
      for (int ci = 0; other != 0 && ci < it->n_cur; ci++)
        if (!used_c[ci] && it->cur[ci].kind == 'F' && it->cur[ci].serial == other)
          {
            used_v[vi] = used_c[ci] = true;
            add_change (it, ENG_LIVE_TURN_OVER, &it->cur[ci], m->view[vi].zone, 0,
                        m->view[vi].serial, it->cur_since[ci]);
            break;
          }
    }
  for (int vi = 0; vi < m->n_view; vi++)
    {
      if (used_v[vi] || !((k->flip_zones >> m->view[vi].zone.kind) & 1u)
          || leaving (m, &m->view[vi]))
        continue;
      for (int ci = 0; ci < it->n_cur; ci++)
        if (!used_c[ci] && it->cur[ci].kind != m->view[vi].kind
            && eng_live_zone_eq (it->cur[ci].zone, m->view[vi].zone))
          {
            used_v[vi] = used_c[ci] = true;
            bool up = m->view[vi].kind == 'B';
            add_change (it, up ? ENG_LIVE_FLIP_UP : ENG_LIVE_FLIP_DOWN, &it->cur[ci],
                        m->view[vi].zone, up ? m->view[vi].track : it->cur[ci].track, 0,
                        it->cur_since[ci]);
            break;
          }
    }
  if (k->moved_from == 0 && k->moved_to == 0)
    return;
  int lone_back = -1, lone_face = -1, n_back = 0, n_face = 0;
  for (int vi = 0; vi < m->n_view; vi++)
    if (!used_v[vi] && m->view[vi].kind == 'B' && m->view[vi].zone.kind == k->moved_from
        && !leaving (m, &m->view[vi]))
      lone_back = vi, n_back++;
  for (int ci = 0; ci < it->n_cur; ci++)
    if (!used_c[ci] && it->cur[ci].kind == 'F' && it->cur[ci].zone.kind == k->moved_to)
      lone_face = ci, n_face++;
  if (n_back == 1 && n_face == 1)
    {
      EngLiveItem up = it->cur[lone_face];
      up.zone = m->view[lone_back].zone;
      add_change (it, ENG_LIVE_FLIP_UP, &up, up.zone, m->view[lone_back].track, 0,
                  it->cur_since[lone_face]);
      add_change (it, ENG_LIVE_MOVE, &it->cur[lone_face], up.zone, 0, 0,
                  it->cur_since[lone_face]);
      used_v[lone_back] = used_c[lone_face] = true;
    }
}

void
live_diff (EngInterpreter *it)
{
  EngLiveMind *m = &it->mind;
  bool used_v[ENG_SNAPSHOT_MAX_ITEMS] = { false }, used_c[ENG_SNAPSHOT_MAX_ITEMS] = { false };
  it->n_changes = 0;
  pair_same (it, used_v, used_c);
  pair_flips (it, used_v, used_c);
  for (int ci = 0; ci < it->n_cur; ci++)
    if (!used_c[ci])
      add_change (it, ENG_LIVE_APPEAR, &it->cur[ci], eng_live_zone (ENG_ZONE_NONE, -1, -1), 0, 0,
                  it->cur_since[ci]);
  for (int vi = 0; vi < m->n_view; vi++)
    if (!used_v[vi])
      add_change (it, ENG_LIVE_VANISH, &m->view[vi], m->view[vi].zone, 0, 0, INT64_MAX);
  /* oldest first (stable: insertion sort over a short list) */
  for (size_t i = 1; i < it->n_changes; i++)
    {
      EngLiveChange t = it->changes[i];
      size_t j = i;
      while (j > 0 && it->changes[j - 1].since > t.since)
        {
          it->changes[j] = it->changes[j - 1];
          j--;
        }
      it->changes[j] = t;
    }
}

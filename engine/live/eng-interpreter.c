/* eng-interpreter.c: snapshots -> Katua moves (docs/interpreter.md).
 *
 * The interpreter keeps a "view": where every visible card on the table
 * should be, given the moves accepted so far.  Each snapshot is compared
 * with the view (not with the previous snapshot), so a difference the
 * interpreter refused stays a difference until the table fixes it, and is
 * reported once, not once per frame.  Cards in the decks are not tracked
 * (draws are announced, not observed); cards that reached the discard pile or
 * a capture area may disappear under others without complaint.
 */
#include "eng-interpreter.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "eng-i18n.h"
#include "katua.h"

#define LIVE_MAX_EXPECT 24
#define LIVE_MAX_COMPLAINTS 32
#define LIVE_MAX_QUEUE 4
#define LIVE_MAX_CHANGES (2 * ENG_SNAPSHOT_MAX_ITEMS)
#define LIVE_SERIALS 1000
#define LIVE_NOTES_MAX 32768
#define LIVE_JOURNAL_UNDO 8      /* saved views kept in the journal */
#define LIVE_RESUME_LOOKS 12     /* looks waited for after a resume before reading anyway */

typedef enum { CARD_NONE, CARD_CAT, CARD_FAKE, CARD_ABDUCTION, CARD_HOOK, CARD_ACTION } CardKind;

typedef struct {
  uint8_t kind;        /* CardKind */
  uint8_t deck;        /* deck index in the set */
  uint8_t action;      /* KatAction */
  char colour[12];
} CardInfo;

/* One card as the view holds it: faces by serial, backs by track id. */
typedef struct {
  char kind;           /* 'F' or 'B' */
  uint16_t serial;     /* face serial; for a back, the deck number */
  uint32_t track;
  EngZone zone;
} LiveItem;

typedef enum {
  EXP_TO_DISCARD,      /* face `serial` must reach the discard pile */
  EXP_TO_CAPTURE,      /* face `serial` must reach capture area of zone.seat */
  EXP_FACE_DOWN,       /* slot `zone` must show a back again (it shows serial) */
  EXP_NEW_BACK,        /* a new back must appear in slot `zone` */
  EXP_LEAVE,           /* the item must leave the table (hand, cat deck) */
} ExpectKind;

typedef struct {
  uint8_t kind;        /* ExpectKind */
  char item_kind;      /* EXP_LEAVE: 'F' or 'B' */
  uint16_t serial;
  uint32_t track;
  EngZone zone;
  char text[120];
} Expect;

typedef enum {
  PEND_NONE,
  PEND_XRAY,           /* X-Ray (or its Replicator) laid: waits for the flip */
  PEND_TELEPORT,       /* Teleporter (or Replicator) laid: waits for a swap */
  PEND_SHIELD,         /* Shield laid: waits for the beam's card to move */
  PEND_SHOW,           /* colour UFO on a tricolor beam: waits for the flip */
  PEND_INTERCEPT,      /* UFOs on the Hook waiting for an owner or an order */
} PendKind;

typedef struct {
  uint8_t kind;        /* PendKind */
  EngMove move;        /* the move being completed */
  uint16_t card;       /* the face that started it */
  EngZone zone;
  /* teleport: the first half of a swap already seen */
  bool half;
  EngZone half_from, half_to;
  /* intercepts waiting: serials in the order they are to count */
  uint16_t queue[LIVE_MAX_QUEUE];
  uint8_t n_queue;
  bool tie;            /* queue[0] and queue[1] landed in one snapshot */
  bool asked;          /* the question for queue[0] is out */
  int8_t named;        /* "whose?" asked: the candidate the question names */
} Pending;

/* Everything the table's physical state means to the interpreter; copied
 * whole onto the undo stack before each accepted move. */
typedef struct {
  LiveItem view[ENG_SNAPSHOT_MAX_ITEMS];
  uint16_t n_view;
  Expect expect[LIVE_MAX_EXPECT];
  uint8_t n_expect;
  Pending pend;
  /* cards laid on the discard pile for a `discard` turn, not yet commanded */
  LiveItem to_discard[4];
  uint8_t n_to_discard;
  uint8_t discarded[LIVE_SERIALS / 8 + 1];   /* faces that reached the pile */
  /* on the undo stack: no view was saved for this move (it completed a card
   * laid before a restart): undo then waits for the state's table */
  uint8_t no_view;
} Mind;

typedef enum { CH_APPEAR, CH_VANISH, CH_MOVE, CH_FLIP_UP, CH_FLIP_DOWN } ChangeKind;

typedef struct {
  uint8_t kind;        /* ChangeKind */
  LiveItem item;       /* the item as it is now (VANISH: as it was) */
  EngZone from;
  uint32_t old_track;  /* FLIP_UP: the back's; FLIP_DOWN: the new back's */
  int64_t since;
} Change;

typedef struct {
  uint8_t kind;
  char item_kind;
  uint16_t serial;
  uint32_t track;
  EngZone zone;
  bool seen;
} Complaint;

struct EngInterpreter {
  EngGame *game;
  const EngCardSet *set;
  const KatRules *rules;
  CardInfo info[LIVE_SERIALS];
  int cat_deck, ufo_deck;        /* deck indices (0-based) */
  bool started, restoring, paused;
  Mind mind;
  Mind pend_start;               /* the mind before the pending card was laid */
  int intercepts_this_feed;
  GArray *memo;                  /* of Mind, one per applied move */
  EngRecord *record;
  Complaint complaints[LIVE_MAX_COMPLAINTS];
  size_t n_complaints;
  uint16_t commands_seen[16];    /* command serials in the previous snapshot */
  /* The last "set up the table" NEED said before the baseline: said again
   * only when its text changes, not on every snapshot. */
  char setup_need[320];
  size_t n_commands_seen;
  /* misreads corrected: a face read as `seen` is taken for `actual` */
  struct {
    uint16_t seen, actual;
    char seen_payload[12], actual_payload[12];
  } corr[ENG_RECORD_MAX_CORRECTIONS];
  size_t n_corr;
  /* the record's first n_unsaved moves have no saved view (made before a
   * restart); memo holds one Mind per later move */
  size_t n_unsaved;
  bool pend_start_known;         /* pend_start is the mind before the pending card */
  bool resume_journal;           /* the journal's table notes are the mind to go on from */
  unsigned resume_looks;         /* looks not read yet after resuming: not all cards found */
  uint16_t resume_cmds[16];      /* the command cards up when the journal was written */
  size_t n_resume_cmds;
  bool undo_baseline;            /* undone with no saved view: waits for the state's table */
  /* the journal: what was last written into the record's table notes */
  bool journal_written;
  Mind journaled;
  bool journaled_flags[3];
  uint16_t journaled_cmds[16];
  size_t journaled_n_cmds;
  Complaint journaled_complaints[LIVE_MAX_COMPLAINTS];
  size_t journaled_n_complaints;
  LiveItem journaled_cur[ENG_SNAPSHOT_MAX_ITEMS];
  uint16_t journaled_cur_read[ENG_SNAPSHOT_MAX_ITEMS];
  int64_t journaled_cur_since[ENG_SNAPSHOT_MAX_ITEMS];
  uint16_t journaled_n_cur;
  unsigned memo_version;         /* bumped whenever the undo stack or pend_start change */
  unsigned journaled_memo_version;
  size_t memo_text_len;
  char notes[LIVE_NOTES_MAX + LIVE_JOURNAL_UNDO * LIVE_NOTES_MAX / 2];
  char memo_text[LIVE_JOURNAL_UNDO * LIVE_NOTES_MAX / 2];
  /* scratch, kept to avoid allocation per frame */
  uint16_t cur_read[ENG_SNAPSHOT_MAX_ITEMS];   /* face serials as read, before corrections */
  LiveItem cur[ENG_SNAPSHOT_MAX_ITEMS];
  int64_t cur_since[ENG_SNAPSHOT_MAX_ITEMS];
  uint16_t n_cur;
  Change changes[LIVE_MAX_CHANGES];
  size_t n_changes;
};

/* ---- small helpers ----------------------------------------------------- */

static const KatState *
kstate (const EngInterpreter *it)
{
  return eng_game_state (it->game);
}

static const char *
pname (const EngInterpreter *it, int p)
{
  const EngSetup *su = eng_game_setup (it->game);
  if (p < 0 || (unsigned) p >= su->n_players)
    return "?";
  return su->names[p];
}

static int
seat_of (const EngInterpreter *it, int p)
{
  const EngSetup *su = eng_game_setup (it->game);
  return su->seats[p] ? su->seats[p] - 1 : p;
}

static int
player_of_seat (const EngInterpreter *it, int seat)
{
  const EngSetup *su = eng_game_setup (it->game);
  for (unsigned p = 0; p < su->n_players; p++)
    if (seat_of (it, (int) p) == seat)
      return (int) p;
  return -1;
}

static bool
zone_eq (EngZone a, EngZone b)
{
  return a.kind == b.kind && a.seat == b.seat && a.index == b.index;
}

static EngZone
zone_make (int kind, int seat, int index)
{
  return (EngZone) { (uint8_t) kind, (int8_t) seat, (int8_t) index };
}

static const CardInfo *
card_info (const EngInterpreter *it, uint16_t serial)
{
  if (serial >= LIVE_SERIALS)
    return &it->info[0];
  return &it->info[serial];
}

/* Colour words agree with the noun in Spanish and Catalan ("ovni rojo",
 * "luz roja"), so a UFO's colour and a cat's are looked up in their own
 * contexts (the ones katua.c uses).  A colour the catalogue does not know
 * (data) stays as the card set spells it. */
static const char *
ufo_colour_words (const char *colour)
{
  if (strcmp (colour, "red") == 0) return ENG_C_ ("UFO", "red");
  if (strcmp (colour, "blue") == 0) return ENG_C_ ("UFO", "blue");
  if (strcmp (colour, "yellow") == 0) return ENG_C_ ("UFO", "yellow");
  if (strcmp (colour, "tricolor") == 0) return ENG_C_ ("UFO", "tricolor");
  return colour;
}

static const char *
cat_colour_words (const char *colour)
{
  if (strcmp (colour, "red") == 0) return ENG_C_ ("cat", "red");
  if (strcmp (colour, "blue") == 0) return ENG_C_ ("cat", "blue");
  if (strcmp (colour, "yellow") == 0) return ENG_C_ ("cat", "yellow");
  if (strcmp (colour, "tricolor") == 0) return ENG_C_ ("cat", "tricolor");
  return colour;
}

/* A short name for a face everyone can see ("red UFO", "Shield", "blue
 * cat"), in the table's language.  Only ever called for faces that are up
 * on the table (K20), and only to write a text.  With `definite`, the name
 * carries its definite article ("the red UFO"): Catalan's article depends
 * on the name ("l'ovni", "el Ganxo"), so it is translated with it. */
static void
face_name_in (const EngInterpreter *it, uint16_t serial, bool definite, char *buf, size_t size)
{
  const CardInfo *ci = card_info (it, serial);
  switch (ci->kind)
    {
    case CARD_ABDUCTION:
      snprintf (buf, size, definite ? ENG_ ("the %s UFO") : ENG_ ("%s UFO"),
                ufo_colour_words (ci->colour));
      break;
    case CARD_HOOK:
      snprintf (buf, size, "%s", definite ? ENG_ ("the Hook") : ENG_ ("Hook"));
      break;
    case CARD_ACTION:
      {
        const char *word;
        switch (ci->action < 6 ? ci->action : 0)
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
        snprintf (buf, size, "%s", word);
        break;
      }
    case CARD_CAT:
      snprintf (buf, size, definite ? ENG_ ("the %s cat") : ENG_ ("%s cat"),
                cat_colour_words (ci->colour));
      break;
    case CARD_FAKE:
      snprintf (buf, size, "%s", definite ? ENG_ ("the fake cat") : ENG_ ("fake cat"));
      break;
    default:
      snprintf (buf, size, definite ? ENG_ ("the card %u") : ENG_ ("card %u"), serial);
    }
}

/* "red UFO" */
static void
face_name (const EngInterpreter *it, uint16_t serial, char *buf, size_t size)
{
  face_name_in (it, serial, false, buf, size);
}

/* "the red UFO" */
static void
face_name_the (const EngInterpreter *it, uint16_t serial, char *buf, size_t size)
{
  face_name_in (it, serial, true, buf, size);
}

/* Where an item is, in words, without naming a face-down card. */
static void
zone_words (const EngInterpreter *it, EngZone z, char *buf, size_t size)
{
  int p = player_of_seat (it, z.seat);
  switch (z.kind)
    {
    case ENG_ZONE_SLOT:
      snprintf (buf, size, ENG_ ("%s's slot %d"), pname (it, p), z.index + 1);
      break;
    case ENG_ZONE_ATTACK:
      snprintf (buf, size, ENG_ ("in front of %s's slot %d"), pname (it, p), z.index + 1);
      break;
    case ENG_ZONE_CAPTURE:
      snprintf (buf, size, ENG_ ("%s's capture area"), pname (it, p));
      break;
    case ENG_ZONE_PLAY:
      snprintf (buf, size, ENG_ ("%s's play area"), pname (it, p));
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

/* An item in words ("the red UFO (Ana's slot 1)"); returns `buf`. */
static const char *
item_words (const EngInterpreter *it, const LiveItem *item, char *buf, size_t size)
{
  char where[64];
  zone_words (it, item->zone, where, sizeof where);
  if (item->kind == 'F')
    {
      char name[48];
      face_name_the (it, item->serial, name, sizeof name);
      snprintf (buf, size, "%s (%s)", name, where);
    }
  else if (item->serial == it->cat_deck + 1)
    snprintf (buf, size, ENG_ ("the face-down cat card (%s)"), where);
  else
    snprintf (buf, size, ENG_ ("the face-down UFO card (%s)"), where);
  return buf;
}

/* say(), refuse_change() and expect_face_leaves() take the English format
 * marked ENG_N_ at the call and translate it themselves, only when they
 * write the text (eng-i18n.h). */
static EngEvent *
say (EngEvents *out, EngEventKind kind, int player, const char *rule, const char *fmt, ...)
  __attribute__ ((format (printf, 5, 6)));

static EngEvent *
say (EngEvents *out, EngEventKind kind, int player, const char *rule, const char *fmt, ...)
{
  if (out == NULL)
    return NULL;   /* nothing is said: no catalogue lookup */
  va_list ap;
  va_start (ap, fmt);
  EngEvent *e = eng_events_vaddf (out, kind, player, rule, ENG_ (fmt), ap);
  va_end (ap);
  return e;
}

/* Copies a message, cut to fit (the texts are for people; a cut is safe). */
static void
text_copy (char *dst, size_t size, const char *src)
{
  size_t n = strnlen (src, size - 1);
  memcpy (dst, src, n);
  dst[n] = '\0';
}

/* ---- the view ---------------------------------------------------------- */

static int
view_find (const Mind *m, char kind, uint16_t serial, uint32_t track)
{
  for (int i = 0; i < m->n_view; i++)
    {
      const LiveItem *v = &m->view[i];
      if (v->kind != kind)
        continue;
      if (kind == 'F' ? v->serial == serial : v->track == track)
        return i;
    }
  return -1;
}

static int
view_find_at (const Mind *m, EngZone z)
{
  for (int i = 0; i < m->n_view; i++)
    if (zone_eq (m->view[i].zone, z))
      return i;
  return -1;
}

static void
view_remove_at (Mind *m, int i)
{
  if (i < 0)
    return;
  m->view[i] = m->view[--m->n_view];
}

static void
view_add (Mind *m, const LiveItem *item)
{
  if (m->n_view < ENG_SNAPSHOT_MAX_ITEMS)
    m->view[m->n_view++] = *item;
}

static void
mark_discarded (Mind *m, uint16_t serial)
{
  if (serial < LIVE_SERIALS)
    m->discarded[serial / 8] = (uint8_t) (m->discarded[serial / 8] | (1u << (serial % 8)));
}

static bool
was_discarded (const Mind *m, uint16_t serial)
{
  return serial < LIVE_SERIALS && (m->discarded[serial / 8] >> (serial % 8)) & 1;
}

/* Makes the view agree with one change. */
static void
accept_change (EngInterpreter *it, const Change *c)
{
  Mind *m = &it->mind;
  switch (c->kind)
    {
    case CH_APPEAR:
      view_add (m, &c->item);
      break;
    case CH_VANISH:
      view_remove_at (m, view_find (m, c->item.kind, c->item.serial, c->item.track));
      break;
    case CH_MOVE:
      {
        int i = view_find (m, c->item.kind, c->item.serial, c->item.track);
        if (i >= 0)
          m->view[i].zone = c->item.zone;
        break;
      }
    case CH_FLIP_UP:
      view_remove_at (m, view_find (m, 'B', 0, c->old_track));
      view_add (m, &c->item);
      break;
    case CH_FLIP_DOWN:
      for (int i = 0; i < m->n_view; i++)
        if (m->view[i].kind == 'F' && zone_eq (m->view[i].zone, c->item.zone))
          {
            view_remove_at (m, i);
            break;
          }
      {
        LiveItem back = { 'B', (uint16_t) (it->cat_deck + 1), c->old_track, c->item.zone };
        view_add (m, &back);
      }
      break;
    default:
      break;
    }
  if (c->item.kind == 'F' && c->item.zone.kind == ENG_ZONE_DISCARD && c->kind != CH_VANISH)
    mark_discarded (m, c->item.serial);
}

/* ---- complaints: a refused difference is reported once ----------------- */

static Complaint *
complaint_find (EngInterpreter *it, const Change *c)
{
  for (size_t i = 0; i < it->n_complaints; i++)
    {
      Complaint *k = &it->complaints[i];
      if (k->kind == c->kind && k->item_kind == c->item.kind && k->serial == c->item.serial
          && (c->item.kind == 'F' || k->track == c->item.track) && zone_eq (k->zone, c->item.zone))
        return k;
    }
  return NULL;
}

static void
complaint_add (EngInterpreter *it, const Change *c)
{
  if (it->n_complaints >= LIVE_MAX_COMPLAINTS)
    return;
  it->complaints[it->n_complaints++] = (Complaint) { c->kind, c->item.kind, c->item.serial,
                                                     c->item.track, c->item.zone, true };
}

/* ---- expectations ------------------------------------------------------ */

static Expect *
expect_add (Mind *m, ExpectKind kind, uint16_t serial, uint32_t track, EngZone zone)
{
  if (m->n_expect >= LIVE_MAX_EXPECT)
    return NULL;
  /* the table is told a thing once: a later move restating it adds nothing */
  for (int i = 0; i < m->n_expect; i++)
    if (m->expect[i].kind == kind && m->expect[i].serial == serial
        && m->expect[i].track == track && zone_eq (m->expect[i].zone, zone))
      return NULL;
  Expect *e = &m->expect[m->n_expect++];
  memset (e, 0, sizeof *e);
  e->kind = (uint8_t) kind;
  e->serial = serial;
  e->track = track;
  e->zone = zone;
  return e;
}

static void
expect_remove (Mind *m, int i)
{
  memmove (&m->expect[i], &m->expect[i + 1], (size_t) (m->n_expect - i - 1) * sizeof m->expect[0]);
  m->n_expect--;
}

/* Whether change `c` fulfils an expectation (then the view takes it), or
 * breaks one (then a mistake is reported and *broken is set). */
static bool
match_expectation (EngInterpreter *it, const Change *c, EngEvents *out, bool *broken)
{
  Mind *m = &it->mind;
  *broken = false;
  for (int i = 0; i < m->n_expect; i++)
    {
      Expect *e = &m->expect[i];
      bool same_face = c->item.kind == 'F' && c->item.serial == e->serial;
      switch (e->kind)
        {
        case EXP_TO_DISCARD:
          if (!same_face)
            break;
          if ((c->kind == CH_MOVE || c->kind == CH_APPEAR)
              && c->item.zone.kind == ENG_ZONE_DISCARD)
            {
              accept_change (it, c);
              expect_remove (m, i);
              return true;
            }
          {
            char name[48];
            face_name (it, e->serial, name, sizeof name);
            if (!complaint_find (it, c))
              say (out, ENG_EVENT_NOTE, -1, "K11", ENG_N_ ("The %s goes on the discard pile: %s"),
                   name, e->text);
            *broken = true;
            return false;
          }
        case EXP_TO_CAPTURE:
          if (!same_face || c->kind == CH_FLIP_UP)
            break;
          if (c->kind == CH_MOVE && c->item.zone.kind == ENG_ZONE_CAPTURE
              && c->item.zone.seat == e->zone.seat)
            {
              accept_change (it, c);
              expect_remove (m, i);
              return true;
            }
          if (!complaint_find (it, c))
            {
              int taker = player_of_seat (it, e->zone.seat);
              if (c->item.zone.kind == ENG_ZONE_CAPTURE)
                say (out, ENG_EVENT_ILLEGAL, player_of_seat (it, c->item.zone.seat), "K11",
                     ENG_N_ ("Wrong capture area: this cat belongs to %s, not %s. %s"),
                     pname (it, taker), pname (it, player_of_seat (it, c->item.zone.seat)),
                     e->text);
              else
                say (out, ENG_EVENT_NOTE, taker, "K11", ENG_N_ ("Not there: %s"), e->text);
            }
          *broken = true;
          return false;
        case EXP_FACE_DOWN:
          if (c->kind == CH_FLIP_DOWN && zone_eq (c->item.zone, e->zone))
            {
              accept_change (it, c);
              expect_remove (m, i);
              return true;
            }
          if (same_face)
            {
              if (!complaint_find (it, c))
                say (out, ENG_EVENT_NOTE, player_of_seat (it, e->zone.seat), "K11", "%s",
                     e->text);
              *broken = true;
              return false;
            }
          break;
        case EXP_NEW_BACK:
          if (c->kind == CH_APPEAR && c->item.kind == 'B' && zone_eq (c->item.zone, e->zone))
            {
              accept_change (it, c);
              expect_remove (m, i);
              return true;
            }
          break;
        case EXP_LEAVE:
          {
            bool same = c->item.kind == e->item_kind
                        && (e->item_kind == 'F' ? c->item.serial == e->serial
                                                : c->item.track == e->track);
            if (!same)
              break;
            if (c->kind == CH_VANISH
                || (c->kind == CH_MOVE && c->item.zone.kind == ENG_ZONE_DECK))
              {
                Change v = *c;
                v.kind = CH_VANISH;
                accept_change (it, &v);
                expect_remove (m, i);
                return true;
              }
            break;
          }
        default:
          break;
        }
    }
  return false;
}

/* ---- applying a move ---------------------------------------------------- */

static void
push_memo (EngInterpreter *it, const Mind *before)
{
  g_array_append_vals (it->memo, before, 1);
  g_array_index (it->memo, Mind, it->memo->len - 1).no_view = 0;
  it->memo_version++;
}

static int
find_slot_of (const KatState *s, uint8_t idx, int *slot)
{
  for (int p = 0; p < s->n_players; p++)
    for (int k = 0; k < KAT_SLOTS; k++)
      if (s->slot[p][k] == idx)
        {
          *slot = k;
          return p;
        }
  return -1;
}

static bool
in_list (const uint8_t *list, int n, uint8_t v)
{
  for (int i = 0; i < n; i++)
    if (list[i] == v)
      return true;
  return false;
}

/* After a move: what the table must now do, from the state difference. */
static void
derive_expectations (EngInterpreter *it, const KatState *b, const EngMove *mv, EngEvents *out)
{
  const KatState *a = kstate (it);
  const KatRules *r = it->rules;
  Mind *m = &it->mind;
  char names[160] = "";
  uint16_t named[KAT_MAX_IN_PLAY + KAT_MAX_UFOS];   /* the cards in `names` */
  int n_names = 0;
  /* K18: a reshuffle turned the pile back into the UFO deck.  Faces seen on
   * the pile before it are in the deck now: when one reaches the pile again
   * it is a new card (a discard to count), not an old one found under the
   * others.  Found by test-live-random (script katua-2p-reshuffle). */
  if (a->discard_n < b->discard_n)
    for (uint16_t serial = 0; serial < LIVE_SERIALS; serial++)
      if (was_discarded (m, serial)
          && !in_list (a->discard, a->discard_n, katua_card_index (r, serial)))
        m->discarded[serial / 8] &= (uint8_t) ~(1u << (serial % 8));
  /* UFOs leaving play for the discard pile */
  uint8_t cand[KAT_MAX_IN_PLAY + KAT_MAX_UFOS];
  int n_cand = 0;
  for (int i = 0; i < b->in_play_n; i++)
    if (!in_list (a->in_play, a->in_play_n, b->in_play[i]))
      cand[n_cand++] = b->in_play[i];
  for (int i = b->discard_n; i < a->discard_n; i++)
    if (!in_list (cand, n_cand, a->discard[i]))
      cand[n_cand++] = a->discard[i];
  for (int i = 0; i < n_cand; i++)
    {
      uint8_t idx = cand[i];
      if (idx >= r->n_cards)
        continue;
      uint16_t serial = r->cards[idx].serial;
      int vi = view_find (m, 'F', serial, 0);
      bool returned = false;
      for (int p = 0; p < a->n_players; p++)
        returned = returned || in_list (a->hand[p], a->hand_n[p], idx);
      if (vi < 0 || m->view[vi].zone.kind == ENG_ZONE_DISCARD)
        continue;
      Expect *e = returned ? expect_add (m, EXP_LEAVE, serial, 0, m->view[vi].zone)
                           : expect_add (m, EXP_TO_DISCARD, serial, 0, zone_make (ENG_ZONE_DISCARD, -1, 1));
      if (e == NULL)
        continue;
      char name[48];
      face_name_the (it, serial, name, sizeof name);
      /* two cards of one name in one sentence: "the blue UFO and the other
       * blue UFO", not the same words twice */
      for (int j = 0; j < n_names && !returned; j++)
        {
          char earlier[48];
          face_name_the (it, named[j], earlier, sizeof earlier);
          if (strcmp (earlier, name) == 0)
            {
              char bare[40];
              face_name (it, serial, bare, sizeof bare);
              snprintf (name, sizeof name, ENG_ ("the other %s"), bare);
              break;
            }
        }
      if (returned)
        {
          e->item_kind = 'F';
          snprintf (e->text, sizeof e->text, ENG_ ("Take %s back into its owner's hand"), name);
          continue;
        }
      size_t l = strlen (names);
      snprintf (names + l, sizeof names - l, "%s %s", n_names ? "," : "", name);
      named[n_names++] = serial;
    }
  /* the discard expectations share one sentence */
  if (n_names > 0)
    {
      char sentence[200];
      /* " the red UFO, the Shield" -> " the red UFO and the Shield"; each
       * name comes with its leading space, which the formats glue on */
      char *last = strrchr (names, ',');
      if (last != NULL)
        {
          char tail[160];
          snprintf (tail, sizeof tail, "%s%s", ENG_ (" and "), last + 2);
          *last = '\0';
          snprintf (sentence, sizeof sentence, ENG_ ("Put%s%s on the discard pile"), names, tail);
        }
      else
        snprintf (sentence, sizeof sentence, ENG_ ("Put%s on the discard pile"), names);
      for (int i = 0; i < m->n_expect; i++)
        if (m->expect[i].kind == EXP_TO_DISCARD && m->expect[i].text[0] == '\0')
          text_copy (m->expect[i].text, sizeof m->expect[i].text, sentence);
      say (out, ENG_EVENT_NEED, -1, "K11", "%s", sentence);
    }
  /* a late answer to a Hook goes back to its owner's hand (K12) */
  if (mv->verb == KAT_INTERCEPT && mv->card != 0)
    {
      uint8_t idx = katua_card_index (r, mv->card);
      int vi = view_find (m, 'F', mv->card, 0);
      if (idx != KAT_NONE && !in_list (a->in_play, a->in_play_n, idx) && vi >= 0)
        {
          Expect *e = expect_add (m, EXP_LEAVE, mv->card, 0, m->view[vi].zone);
          if (e != NULL)
            {
              char name[48];
              face_name (it, mv->card, name, sizeof name);
              e->item_kind = 'F';
              snprintf (e->text, sizeof e->text, ENG_ ("%s: take your %s back into your hand"),
                        pname (it, mv->player), name);
              say (out, ENG_EVENT_NEED, mv->player, "K12", "%s", e->text);
            }
        }
    }
  /* captures: the cat goes from its slot to the taker's capture area */
  for (int p = 0; p < a->n_players; p++)
    for (int i = b->captured_n[p]; i < a->captured_n[p]; i++)
      {
        uint8_t idx = a->captured[p][i];
        int slot = -1;
        int owner = find_slot_of (b, idx, &slot);
        /* a cat first seen in this move was an unknown token before it */
        for (int q = 0; q < a->n_players && owner < 0; q++)
          for (int k = 0; k < KAT_SLOTS && owner < 0; k++)
            if (b->slot[q][k] == KAT_UNKNOWN && a->slot[q][k] == KAT_NONE)
              owner = q, slot = k;
        uint16_t serial = r->cards[idx].serial;
        Expect *e = expect_add (m, EXP_TO_CAPTURE, serial, 0,
                                zone_make (ENG_ZONE_CAPTURE, seat_of (it, p), -1));
        if (e == NULL)
          continue;
        if (owner == p)
          snprintf (e->text, sizeof e->text, ENG_ ("%s: take the cat from your slot %d into "
                                                   "your capture area"), pname (it, p), slot + 1);
        else
          snprintf (e->text, sizeof e->text, ENG_ ("%s: take the cat from %s's slot %d into "
                                                   "your capture area"),
                    pname (it, p), pname (it, owner), slot + 1);
        say (out, ENG_EVENT_NEED, p, "K11", "%s", e->text);
      }
  /* a face shown then hidden again (forced show, escape) */
  for (int p = 0; p < a->n_players; p++)
    for (int k = 0; k < KAT_SLOTS; k++)
      {
        EngZone z = zone_make (ENG_ZONE_SLOT, seat_of (it, p), k);
        int vi = view_find_at (m, z);
        if (a->slot[p][k] == KAT_NONE || a->face_up[p][k] || vi < 0 || m->view[vi].kind != 'F')
          continue;
        if (mv->verb == KAT_STAMPEDE || (mv->verb == KAT_REPLICATE && b->slot[p][k] != a->slot[p][k]))
          continue;
        /* K10 option: an X-Ray or Teleporter waiting for its answer already
         * shows its flip or swap on the table; the rules make it when the
         * card acts (no-defence) */
        bool held = false;
        for (int i = 0; a->phase == KAT_PHASE_ANSWER && i < (a->answer_verb == KAT_XRAY ? 1 : 2); i++)
          held = held || (a->answer_p[i] == p && a->answer_s[i] == k);
        if (held)
          continue;
        Expect *e = expect_add (m, EXP_FACE_DOWN, m->view[vi].serial, 0, z);
        if (e != NULL)
          snprintf (e->text, sizeof e->text, ENG_ ("%s: turn your cat in slot %d face down again"),
                    pname (it, p), k + 1);
      }
  /* a Stampede: the old cats leave, three new backs arrive */
  for (int p = 0; p < a->n_players; p++)
    {
      bool renewed = (mv->verb == KAT_STAMPEDE || mv->verb == KAT_REPLICATE)
                     && (mv->target[0] == p) && a->turn == b->turn;
      if (!renewed || (mv->verb == KAT_REPLICATE && b->rep_effect != KAT_STAMPEDE))
        continue;
      for (int k = 0; k < KAT_SLOTS; k++)
        {
          EngZone z = zone_make (ENG_ZONE_SLOT, seat_of (it, p), k);
          int vi = view_find_at (m, z);
          if (vi >= 0)
            {
              Expect *e = expect_add (m, EXP_LEAVE, m->view[vi].serial, m->view[vi].track, z);
              if (e != NULL)
                {
                  e->item_kind = m->view[vi].kind;
                  snprintf (e->text, sizeof e->text, ENG_ ("%s: set aside your cat from slot %d"),
                            pname (it, p), k + 1);
                }
            }
          if (a->slot[p][k] != KAT_NONE)
            {
              Expect *e = expect_add (m, EXP_NEW_BACK, 0, 0, z);
              if (e != NULL)
                snprintf (e->text, sizeof e->text,
                          ENG_ ("%s: place a new cat face down in slot %d"), pname (it, p), k + 1);
            }
        }
    }
  /* end of turn: empty slots refilled */
  if (mv->verb == KAT_END || mv->verb == KAT_PASS || mv->verb == KAT_DISCARD)
    {
      char text[200];
      int l = snprintf (text, sizeof text, "%s", ENG_ ("End of turn:"));
      int n_refills = 0;
      for (int i = 0; i < b->n_players; i++)
        {
          int p = (b->active + i) % b->n_players;
          int n = 0;
          char slots[32] = "";
          for (int k = 0; k < KAT_SLOTS; k++)
            if (b->slot[p][k] == KAT_NONE && a->slot[p][k] != KAT_NONE)
              {
                EngZone z = zone_make (ENG_ZONE_SLOT, seat_of (it, p), k);
                Expect *e = expect_add (m, EXP_NEW_BACK, 0, 0, z);
                if (e != NULL)
                  snprintf (e->text, sizeof e->text,
                            ENG_ ("%s: place a new cat face down in slot %d"), pname (it, p),
                            k + 1);
                size_t sl = strlen (slots);
                snprintf (slots + sl, sizeof slots - sl, "%s%d", n ? ENG_ (" and ") : "", k + 1);
                n++;
              }
          if (n > 0 && l > 0 && (size_t) l < sizeof text)
            {
              l += snprintf (text + l, sizeof text - (size_t) l, "%s ", n_refills ? ";" : "");
              if ((size_t) l < sizeof text)
                l += snprintf (text + l, sizeof text - (size_t) l,
                               ENG_NG_ ("%s refills slot %s", "%s refills slots %s", n),
                               pname (it, p), slots);
              n_refills++;
            }
        }
      if (a->phase != KAT_PHASE_OVER && l > 0 && (size_t) l < sizeof text)
        {
          snprintf (text + l, sizeof text - (size_t) l, "%s %s", n_refills ? ";" : "",
                    ENG_ ("everyone draws up to 3 UFO cards"));
          say (out, ENG_EVENT_NEED, -1, "K15", "%s", text);
        }
    }
}

/* Applies `mv`; on success the view takes the triggering change `c` (may be
 * NULL), the move is recorded and what follows becomes expectations.  On
 * refusal nothing changes and the engine's ILLEGAL event is in `out`. */
/* Whether the face of `serial` is up on the table right now. */
static bool
face_visible (const EngInterpreter *it, unsigned serial)
{
  for (int i = 0; i < it->n_cur; i++)
    if (it->cur[i].kind == 'F' && it->cur[i].serial == serial)
      return true;
  return false;
}

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
      if (end == p + len || serial == 0 || face_visible (it, (unsigned) serial))
        continue;
      return true;
    }
  return false;
}

/* K20 is the interpreter's last duty before the screen: a refusal text that
 * names a card ("card 10") whose face is not up on the table now is
 * replaced by one that names none.  Katua's refusals come in the table's
 * language, so the word before the number is looked for in English and as
 * translated ("carta 10"). */
static void
hide_unseen (const EngInterpreter *it, EngEvents *out, size_t from)
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
                        "put the cards back as they were (the hidden card is not named, K20)"));
    }
}

static bool
try_apply (EngInterpreter *it, const EngMove *mv, const Change *c, EngEvents *out)
{
  KatState before = *kstate (it);
  Mind memo = it->mind;
  EngVerdict why;
  size_t mark = out != NULL ? out->n : 0;
  EngStatus st = eng_game_apply (it->game, mv, out, &why);
  hide_unseen (it, out, mark);
  if (st != ENG_OK)
    return false;
  push_memo (it, &memo);
  eng_record_append (it->record, mv, 0);
  if (c != NULL)
    accept_change (it, c);
  derive_expectations (it, &before, mv, out);
  return true;
}

/* Completes the pending move: on success undo goes back to before the
 * pending card was laid; on refusal the pending card stays waiting. */
static bool
complete_pending (EngInterpreter *it, const EngMove *mv, const Change *c, EngEvents *out)
{
  Mind keep = it->mind;
  it->mind.pend.kind = PEND_NONE;
  if (!try_apply (it, mv, c, out))
    {
      it->mind = keep;
      return false;
    }
  Mind *top = &g_array_index (it->memo, Mind, it->memo->len - 1);
  *top = it->pend_start;
  top->no_view = it->pend_start_known ? 0 : 1;
  it->memo_version++;
  return true;
}

/* A change the interpreter cannot justify: said once, not applied.  `fmt`
 * is English, marked ENG_N_ at the call: translated only when written. */
static void
refuse_change (EngInterpreter *it, const Change *c, EngEvents *out, EngEventKind kind,
               const char *rule, const char *fmt, ...) __attribute__ ((format (printf, 6, 7)));

static void
refuse_change (EngInterpreter *it, const Change *c, EngEvents *out, EngEventKind kind,
               const char *rule, const char *fmt, ...)
{
  complaint_add (it, c);
  EngEvent *e = eng_events_add (out, kind);
  if (e == NULL)
    return;
  snprintf (e->rule, sizeof e->rule, "%s", rule);
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (e->text, sizeof e->text, ENG_ (fmt), ap);
  va_end (ap);
}

/* The engine refused a card: tell the table to take it back. */
static void
take_back (EngInterpreter *it, const Change *c, EngEvents *out)
{
  char what[128];
  item_words (it, &c->item, what, sizeof what);
  complaint_add (it, c);
  say (out, ENG_EVENT_NEED, -1, "table", ENG_N_ ("Take back %s: it was not accepted"), what);
}

/* ---- interpretation per change ----------------------------------------- */

static void
move_for (EngMove *mv, int verb, int player)
{
  eng_move_init (mv, (unsigned) verb, player);
}

static void
start_pending (EngInterpreter *it, PendKind kind, const EngMove *mv, const Change *c)
{
  Mind *m = &it->mind;
  it->pend_start = it->mind;
  it->pend_start_known = true;
  it->memo_version++;
  memset (&m->pend, 0, sizeof m->pend);
  m->pend.kind = (uint8_t) kind;
  m->pend.move = *mv;
  m->pend.card = c ? c->item.serial : 0;
  m->pend.zone = c ? c->item.zone : zone_make (ENG_ZONE_NONE, -1, -1);
  if (c != NULL)
    accept_change (it, c);
}

/* A UFO face laid in an attack zone (or a play area: seat's slot -1). */
static void
card_laid (EngInterpreter *it, const Change *c, EngEvents *out)
{
  const KatState *s = kstate (it);
  const CardInfo *ci = card_info (it, c->item.serial);
  int at = player_of_seat (it, c->item.zone.seat);
  int slot = c->item.zone.kind == ENG_ZONE_ATTACK ? c->item.zone.index : -1;
  int active = s->active;
  EngMove mv;
  /* the card's name, written only for a refusal ("the red UFO") */
  char name[48];
  if (s->phase == KAT_PHASE_OVER)
    {
      face_name_the (it, c->item.serial, name, sizeof name);
      refuse_change (it, c, out, ENG_EVENT_ILLEGAL, "K15",
                     ENG_N_ ("The game is over: take back %s"), name);
      return;
    }
  if (it->mind.pend.kind != PEND_NONE && it->mind.pend.kind != PEND_INTERCEPT)
    {
      face_name_the (it, c->item.serial, name, sizeof name);
      refuse_change (it, c, out, ENG_EVENT_NOTE, "table",
                     ENG_N_ ("Finish the card in play first (or show cancel); take back %s for "
                             "now"), name);
      return;
    }
  if (s->phase == KAT_PHASE_HOOK)
    {
      bool on_hook = c->item.zone.kind == ENG_ZONE_ATTACK && at == active && slot == s->hook_slot;
      if (!on_hook || ci->kind != CARD_ABDUCTION)
        {
          face_name_the (it, c->item.serial, name, sizeof name);
          refuse_change (it, c, out, ENG_EVENT_ILLEGAL, "K12",
                         ENG_N_ ("Nothing else is played until %s's Hook resolves; rivals answer "
                                 "only with an abduction UFO on it: take back %s"),
                         pname (it, active), name);
          return;
        }
      Pending *pd = &it->mind.pend;
      if (pd->kind != PEND_INTERCEPT)
        {
          memset (pd, 0, sizeof *pd);
          pd->kind = PEND_INTERCEPT;
        }
      if (pd->n_queue < LIVE_MAX_QUEUE)
        pd->queue[pd->n_queue++] = c->item.serial;
      /* two landing between the same two looks: the camera cannot order them */
      if (it->intercepts_this_feed++ > 0 && pd->n_queue == 2)
        {
          pd->tie = true;
          pd->asked = false;
        }
      accept_change (it, c);
      return;
    }
  if (s->phase == KAT_PHASE_ATTACK)
    {
      const KatAttempt *a = &s->att[0];
      bool on_attempt = c->item.zone.kind == ENG_ZONE_ATTACK && at == a->player && slot == a->slot;
      int d = a->player;
      if (ci->kind == CARD_ACTION && ci->action == KAT_ACT_REPLICATOR && !on_attempt
          && s->rep_open && c->item.zone.kind == ENG_ZONE_ATTACK)
        {
          move_for (&mv, KAT_REPLICATE, s->rep_player);
          mv.card = c->item.serial;
          mv.target[0] = (int8_t) at;
          mv.slot[0] = (int8_t) slot;
          if (!try_apply (it, &mv, c, out))
            take_back (it, c, out);
          return;
        }
      if (!on_attempt)
        {
          face_name_the (it, c->item.serial, name, sizeof name);
          refuse_change (it, c, out, ENG_EVENT_ILLEGAL, "K6",
                         ENG_N_ ("%s must first defend the cat in slot %d or let the beam hit: "
                                 "take back %s"), pname (it, d), a->slot + 1, name);
          return;
        }
      if (ci->kind == CARD_ABDUCTION)
        {
          /* K5: a colour UFO against a tricolor beam needs the hidden cat shown */
          bool needs_show = a->colour == KAT_TRICOLOR && strcmp (ci->colour, "tricolor") != 0
                            && !s->face_up[d][a->slot];
          move_for (&mv, KAT_NEUTRALISE, d);
          mv.card = c->item.serial;
          if (needs_show)
            {
              start_pending (it, PEND_SHOW, &mv, c);
              say (out, ENG_EVENT_NEED, d, "K5",
                   ENG_N_ ("%s: a %s UFO against a tricolor beam: turn your cat in slot %d face "
                           "up for all to see"), pname (it, d),
                   out != NULL ? ufo_colour_words (ci->colour) : ci->colour, a->slot + 1);
              return;
            }
          if (!try_apply (it, &mv, c, out))
            take_back (it, c, out);
          return;
        }
      if (ci->kind == CARD_ACTION)
        switch (ci->action)
          {
          case KAT_ACT_SHIELD:
            move_for (&mv, KAT_SHIELD, d);
            mv.card = c->item.serial;
            start_pending (it, PEND_SHIELD, &mv, c);
            say (out, ENG_EVENT_NEED, d, "K7",
                 ENG_N_ ("%s: move %s's UFO in front of the cat of %s's you choose"),
                 pname (it, d), pname (it, a->launcher), pname (it, a->launcher));
            return;
          case KAT_ACT_TELEPORTER:
            move_for (&mv, KAT_TELEPORT, d);
            mv.card = c->item.serial;
            start_pending (it, PEND_TELEPORT, &mv, c);
            say (out, ENG_EVENT_NEED, d, "K8",
                 ENG_N_ ("%s: swap two cats in slots (faces unchanged)"), pname (it, d));
            return;
          case KAT_ACT_STAMPEDE:
            move_for (&mv, KAT_STAMPEDE, d);
            mv.card = c->item.serial;
            mv.target[0] = (int8_t) d;
            if (!try_apply (it, &mv, c, out))
              take_back (it, c, out);
            return;
          case KAT_ACT_REPLICATOR:
            move_for (&mv, KAT_REPLICATE, d);
            mv.card = c->item.serial;
            /* the copy takes the targets of the defence it copies (K13): a
             * Teleporter's swap is still to come, a Stampede renews the
             * defender's own cats.  Found by test-live-random (script
             * katua-2p-replicate-defence). */
            if (s->rep_effect == KAT_TELEPORT && s->rep_player == d)
              {
                start_pending (it, PEND_TELEPORT, &mv, c);
                say (out, ENG_EVENT_NEED, d, "K8",
                     ENG_N_ ("%s: swap two cats in slots (faces unchanged)"), pname (it, d));
                return;
              }
            if (s->rep_effect == KAT_STAMPEDE)
              mv.target[0] = (int8_t) d;
            /* a copied colour neutraliser on a tricolor beam: the hidden cat
             * is shown first (K5), as for the UFO itself.  Found by
             * test-live-random (script katua-4p-replicate-forced-show). */
            if (s->rep_effect == KAT_NEUTRALISE && a->colour == KAT_TRICOLOR
                && s->rep_colour != KAT_TRICOLOR && !s->face_up[d][a->slot])
              {
                const char *colour = s->rep_colour == KAT_RED    ? "red"
                                     : s->rep_colour == KAT_BLUE ? "blue" : "yellow";
                start_pending (it, PEND_SHOW, &mv, c);
                say (out, ENG_EVENT_NEED, d, "K5",
                     ENG_N_ ("%s: a %s UFO against a tricolor beam: turn your cat in slot %d face "
                             "up for all to see"), pname (it, d),
                     out != NULL ? ufo_colour_words (colour) : colour, a->slot + 1);
                return;
              }
            if (!try_apply (it, &mv, c, out))
              take_back (it, c, out);
            return;
          default:
            break;
          }
      face_name (it, c->item.serial, name, sizeof name);
      refuse_change (it, c, out, ENG_EVENT_ILLEGAL, "K6",
                     ENG_N_ ("The %s does not answer an abduction attempt: take it back"), name);
      return;
    }
  /* the active player's turn */
  if (ci->kind == CARD_ABDUCTION)
    {
      if (at == active)
        {
          face_name_the (it, c->item.serial, name, sizeof name);
          refuse_change (it, c, out, ENG_EVENT_ILLEGAL, "K21",
                         ENG_N_ ("It is %s's turn and an abduction UFO at %s's own slot is not a "
                                 "play (K12: only the Hook): take back %s"),
                         pname (it, active), pname (it, active), name);
          return;
        }
      move_for (&mv, KAT_ATTACK, active);
      mv.card = c->item.serial;
      mv.target[0] = (int8_t) at;
      mv.slot[0] = (int8_t) slot;
      if (!try_apply (it, &mv, c, out))
        take_back (it, c, out);
      return;
    }
  if (ci->kind == CARD_HOOK)
    {
      move_for (&mv, KAT_HOOK, active);
      mv.card = c->item.serial;
      mv.target[0] = (int8_t) at;
      mv.slot[0] = (int8_t) slot;
      if (!try_apply (it, &mv, c, out))
        take_back (it, c, out);
      return;
    }
  bool replicate = ci->kind == CARD_ACTION && ci->action == KAT_ACT_REPLICATOR;
  int effect = replicate ? (s->rep_effect < KAT_VERB_COUNT ? s->rep_effect : -1) : -1;
  int action = replicate ? -1 : ci->action;
  if (action == KAT_ACT_XRAY || effect == KAT_XRAY)
    {
      move_for (&mv, replicate ? KAT_REPLICATE : KAT_XRAY, active);
      mv.card = c->item.serial;
      mv.target[0] = (int8_t) at;
      mv.slot[0] = (int8_t) slot;
      if (slot < 0 || at == active || s->face_up[at][slot] || s->slot[at][slot] == KAT_NONE)
        {
          face_name_the (it, c->item.serial, name, sizeof name);
          refuse_change (it, c, out, ENG_EVENT_ILLEGAL, "K14",
                         ENG_N_ ("An X-Ray goes in front of a rival's face-down cat: take back "
                                 "%s"), name);
          return;
        }
      start_pending (it, PEND_XRAY, &mv, c);
      say (out, ENG_EVENT_NEED, at, "K14", ENG_N_ ("%s: turn your cat in slot %d face up"),
           pname (it, at), slot + 1);
      return;
    }
  if (action == KAT_ACT_TELEPORTER || effect == KAT_TELEPORT)
    {
      move_for (&mv, replicate ? KAT_REPLICATE : KAT_TELEPORT, active);
      mv.card = c->item.serial;
      start_pending (it, PEND_TELEPORT, &mv, c);
      say (out, ENG_EVENT_NEED, active, "K8",
           ENG_N_ ("%s: swap two cats in slots (faces unchanged)"), pname (it, active));
      return;
    }
  if (action == KAT_ACT_STAMPEDE || effect == KAT_STAMPEDE)
    {
      move_for (&mv, replicate ? KAT_REPLICATE : KAT_STAMPEDE, active);
      mv.card = c->item.serial;
      mv.target[0] = (int8_t) at;
      if (!try_apply (it, &mv, c, out))
        take_back (it, c, out);
      return;
    }
  if (replicate)
    {
      move_for (&mv, KAT_REPLICATE, active);
      mv.card = c->item.serial;
      mv.target[0] = (int8_t) at;
      mv.slot[0] = (int8_t) slot;
      if (!try_apply (it, &mv, c, out))
        take_back (it, c, out);
      return;
    }
  /* a Shield with no attempt: the engine gives the reason */
  move_for (&mv, KAT_SHIELD, active);
  mv.card = c->item.serial;
  mv.target[0] = (int8_t) (at >= 0 ? at : active);
  mv.slot[0] = (int8_t) (slot >= 0 ? slot : 0);
  if (!try_apply (it, &mv, c, out))
    take_back (it, c, out);
}


/* The table must take the face card `card` away from where it lies (a
 * refused or cancelled play); the expectation reads as `fmt` says (English,
 * marked ENG_N_ at the call, written translated). */
static void expect_face_leaves (EngInterpreter *it, uint16_t card, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

static void
expect_face_leaves (EngInterpreter *it, uint16_t card, const char *fmt, ...)
{
  int vi = view_find (&it->mind, 'F', card, 0);
  if (vi < 0)
    return;
  Expect *e = expect_add (&it->mind, EXP_LEAVE, card, 0, it->mind.view[vi].zone);
  if (e == NULL)
    return;
  e->item_kind = 'F';
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (e->text, sizeof e->text, ENG_ (fmt), ap);
  va_end (ap);
}

static void
cat_flipped_up (EngInterpreter *it, const Change *c, EngEvents *out)
{
  const KatState *s = kstate (it);
  int p = player_of_seat (it, c->item.zone.seat);
  int k = c->item.zone.index;
  Pending *pd = &it->mind.pend;
  EngMove mv;
  if (card_info (it, c->item.serial)->kind != CARD_CAT
      && card_info (it, c->item.serial)->kind != CARD_FAKE)
    {
      refuse_change (it, c, out, ENG_EVENT_CONSERVATION, "table",
                     ENG_N_ ("A face-down card in %s's slot %d turned out not to be a cat: put it "
                             "back where it belongs"), pname (it, p), k + 1);
      return;
    }
  bool xray_here = pd->kind == PEND_XRAY && pd->move.target[0] == p && pd->move.slot[0] == k;
  bool show_here = pd->kind == PEND_SHOW && s->phase == KAT_PHASE_ATTACK
                   && s->att[0].player == p && s->att[0].slot == k;
  if (xray_here || show_here)
    {
      mv = pd->move;
      mv.show = c->item.serial;
      if (complete_pending (it, &mv, c, out))
        return;
      /* refused (the engine said why): the card goes back, the cat down */
      char name[48];
      face_name_the (it, pd->card, name, sizeof name);
      expect_face_leaves (it, pd->card, ENG_N_ ("Take back %s"), name);
      pd->kind = PEND_NONE;
      complaint_add (it, c);
      say (out, ENG_EVENT_NEED, p, "table",
           ENG_N_ ("%s: turn your cat in slot %d face down again; take back %s"),
           pname (it, p), k + 1, name);
      return;
    }
  if (s->phase == KAT_PHASE_QUICK_START)
    {
      /* K19: each player shows one of their own cats before the first turn */
      move_for (&mv, KAT_REVEAL, p);
      mv.target[0] = (int8_t) p;
      mv.slot[0] = (int8_t) k;
      mv.show = c->item.serial;
      if (!try_apply (it, &mv, c, out))
        take_back (it, c, out);
      return;
    }
  if (pd->kind != PEND_NONE && pd->kind != PEND_INTERCEPT)
    {
      refuse_change (it, c, out, ENG_EVENT_NOTE, "table",
                     ENG_N_ ("Not that cat: finish the card in play first; %s, turn your cat in "
                             "slot %d face down again"), pname (it, p), k + 1);
      return;
    }
  if (s->phase == KAT_PHASE_ATTACK && s->att[0].player == p && s->att[0].slot == k)
    {
      move_for (&mv, KAT_HIT, p);
      mv.show = c->item.serial;
      if (!try_apply (it, &mv, c, out))
        take_back (it, c, out);
      return;
    }
  if (s->phase == KAT_PHASE_HOOK && p == s->active && k == s->hook_slot)
    {
      if (pd->kind == PEND_INTERCEPT && pd->n_queue > 0)
        {
          refuse_change (it, c, out, ENG_EVENT_NOTE, "K12", ENG_N_ ("First say whose UFO is on the "
                                 "Hook; %s, turn the cat face down until then"), pname (it, p));
          return;
        }
      move_for (&mv, KAT_FLIP, p);
      mv.show = c->item.serial;
      if (!try_apply (it, &mv, c, out))
        take_back (it, c, out);
      return;
    }
  refuse_change (it, c, out, ENG_EVENT_ILLEGAL, "K20",
                 ENG_N_ ("%s's cat in slot %d was turned face up with no card that allows it: %s, "
                         "turn it face down again"), pname (it, p), k + 1, pname (it, p));
}

/* A face-up cat carried from its slot to a capture area is the move that
 * was waiting for it, `verb` by `player`: the impact on a face-up target,
 * or the turn of a hooked cat that was already face up. */
static void
apply_carried_off (EngInterpreter *it, const Change *c, int verb, int player, EngEvents *out)
{
  EngMove mv;
  move_for (&mv, verb, player);
  if (try_apply (it, &mv, NULL, out))
    {
      bool broken;
      if (!match_expectation (it, c, out, &broken))
        complaint_add (it, c);
    }
  else
    take_back (it, c, out);
}

/* A card moved between slots while a Teleporter waits: a swap, in one
 * snapshot or in two halves. */
static bool
teleport_move (EngInterpreter *it, const Change *c, EngEvents *out)
{
  Pending *pd = &it->mind.pend;
  if (pd->kind != PEND_TELEPORT || c->from.kind != ENG_ZONE_SLOT
      || c->item.zone.kind != ENG_ZONE_SLOT)
    return false;
  if (!pd->half)
    {
      pd->half = true;
      pd->half_from = c->from;
      pd->half_to = c->item.zone;
      accept_change (it, c);
      return true;
    }
  if (!zone_eq (c->from, pd->half_to) || !zone_eq (c->item.zone, pd->half_from))
    return false;
  EngMove mv = pd->move;
  mv.target[0] = (int8_t) player_of_seat (it, pd->half_from.seat);
  mv.slot[0] = pd->half_from.index;
  mv.target[1] = (int8_t) player_of_seat (it, pd->half_to.seat);
  mv.slot[1] = pd->half_to.index;
  if (!complete_pending (it, &mv, c, out))
    {
      say (out, ENG_EVENT_NEED, -1, "K8", ENG_N_ ("Put both cats back in their slots"));
      complaint_add (it, c);
    }
  return true;
}

static void
card_moved (EngInterpreter *it, const Change *c, EngEvents *out)
{
  const KatState *s = kstate (it);
  Pending *pd = &it->mind.pend;
  char what[128];
  if (teleport_move (it, c, out))
    return;
  if (c->item.kind == 'F' && pd->kind == PEND_SHIELD && s->phase == KAT_PHASE_ATTACK
      && c->item.serial == it->rules->cards[s->att[0].card].serial
      && c->item.zone.kind == ENG_ZONE_ATTACK)
    {
      EngMove mv = pd->move;
      mv.target[0] = (int8_t) player_of_seat (it, c->item.zone.seat);
      mv.slot[0] = c->item.zone.index;
      if (!complete_pending (it, &mv, c, out))
        refuse_change (it, c, out, ENG_EVENT_NOTE, "K7", ENG_N_ ("Put the UFO back where it was"));
      return;
    }
  /* a face-up cat under attack taken straight to the attacker: the impact */
  if (c->item.kind == 'F' && c->from.kind == ENG_ZONE_SLOT && s->phase == KAT_PHASE_ATTACK
      && pd->kind == PEND_NONE && c->item.zone.kind == ENG_ZONE_CAPTURE)
    {
      const KatAttempt *a = &s->att[0];
      if (player_of_seat (it, c->from.seat) == a->player && c->from.index == a->slot
          && s->face_up[a->player][a->slot])
        {
          apply_carried_off (it, c, KAT_HIT, a->player, out);
          return;
        }
    }
  /* A Hook on a cat that is already face up (K12): there is nothing to turn
   * over, so the table resolves it by carrying the cat off, as with a
   * face-up target under attack.  Found by test-live-random (script
   * katua-3p-hook-face-up). */
  if (c->item.kind == 'F' && c->from.kind == ENG_ZONE_SLOT && s->phase == KAT_PHASE_HOOK
      && c->item.zone.kind == ENG_ZONE_CAPTURE
      && (pd->kind == PEND_NONE || (pd->kind == PEND_INTERCEPT && pd->n_queue == 0))
      && player_of_seat (it, c->from.seat) == s->active && c->from.index == s->hook_slot
      && s->face_up[s->active][s->hook_slot])
    {
      apply_carried_off (it, c, KAT_FLIP, s->active, out);
      return;
    }
  item_words (it, &c->item, what, sizeof what);
  char from[64];
  zone_words (it, c->from, from, sizeof from);
  refuse_change (it, c, out, ENG_EVENT_NOTE, "table",
                 ENG_N_ ("Unexpected move: %s came from %s; put it back"), what, from);
}

static void
handle_change (EngInterpreter *it, Change *c, EngEvents *out)
{
  bool broken = false;
  if (match_expectation (it, c, out, &broken))
    return;
  if (broken)
    {
      if (complaint_find (it, c) != NULL)
        complaint_find (it, c)->seen = true;
      else
        complaint_add (it, c);
      return;
    }
  if (complaint_find (it, c) != NULL)
    {
      complaint_find (it, c)->seen = true;
      return;
    }
  const KatState *s = kstate (it);
  /* the item in words, written only for a complaint */
  char what[128];
  const CardInfo *ci = card_info (it, c->item.serial);
  switch (c->kind)
    {
    case CH_APPEAR:
      if (c->item.zone.kind == ENG_ZONE_DISCARD)
        {
          if (c->item.kind == 'F' && was_discarded (&it->mind, c->item.serial))
            {
              accept_change (it, c);
              return;
            }
          bool ufo = c->item.kind == 'B' ? c->item.serial == it->ufo_deck + 1
                                         : ci->deck == it->ufo_deck;
          if (ufo && s->phase == KAT_PHASE_TURN && !s->played_any
              && it->mind.n_to_discard < 3)
            {
              it->mind.to_discard[it->mind.n_to_discard++] = c->item;
              accept_change (it, c);
              if (it->mind.n_to_discard == 1)
                say (out, ENG_EVENT_NEED, s->active, "K3", ENG_N_ ("%s: when every card to discard "
                             "is on the pile, show the discard command"), pname (it, s->active));
              return;
            }
          refuse_change (it, c, out, ENG_EVENT_ILLEGAL, "K3",
                         ENG_N_ ("A card reached the discard pile that was not played: take back "
                                 "%s"), item_words (it, &c->item, what, sizeof what));
          return;
        }
      if (c->item.kind == 'F' && ci->deck == it->ufo_deck
          && (c->item.zone.kind == ENG_ZONE_ATTACK || c->item.zone.kind == ENG_ZONE_PLAY))
        {
          card_laid (it, c, out);
          return;
        }
      if (c->item.kind == 'B' && c->item.zone.kind == ENG_ZONE_SLOT)
        {
          refuse_change (it, c, out, ENG_EVENT_ILLEGAL, "K15",
                         ENG_N_ ("A new cat appeared in %s's slot %d: cats are drawn only at the "
                                 "end of a turn (K15) or by a Stampede (K9); take it away"),
                         pname (it, player_of_seat (it, c->item.zone.seat)),
                         c->item.zone.index + 1);
          return;
        }
      if (c->item.zone.kind == ENG_ZONE_NONE && c->item.kind == 'B')
        return;  /* a face-down card lying outside every zone is nothing yet */
      refuse_change (it, c, out, ENG_EVENT_NOTE, "table",
                     ENG_N_ ("Unexpected card: %s; take it away"),
                     item_words (it, &c->item, what, sizeof what));
      return;
    case CH_FLIP_UP:
      cat_flipped_up (it, c, out);
      return;
    case CH_FLIP_DOWN:
      refuse_change (it, c, out, ENG_EVENT_NOTE, "K14",
                     ENG_N_ ("%s's cat in slot %d was turned face down but must stay face up: "
                             "turn it back up"),
                     pname (it, player_of_seat (it, c->item.zone.seat)), c->item.zone.index + 1);
      return;
    case CH_MOVE:
      card_moved (it, c, out);
      return;
    case CH_VANISH:
      if (c->item.zone.kind == ENG_ZONE_DISCARD || c->item.zone.kind == ENG_ZONE_CAPTURE)
        {
          /* covered by the next card on the pile (a card laid for a discard
           * turn still counts: taking one back is said with `cancel`) */
          accept_change (it, c);
          return;
        }
      refuse_change (it, c, out, ENG_EVENT_CONSERVATION, "table",
                     ENG_N_ ("A card vanished: %s; put it back"),
                     item_words (it, &c->item, what, sizeof what));
      return;
    default:
      return;
    }
}

/* ---- snapshot diff ------------------------------------------------------ */

static bool
tracked_zone (const EngZone *z)
{
  return z->kind != ENG_ZONE_DECK && z->kind != ENG_ZONE_COMMAND;
}

static void
add_change (EngInterpreter *it, ChangeKind kind, const LiveItem *item, EngZone from,
            uint32_t old_track, int64_t since)
{
  if (it->n_changes >= LIVE_MAX_CHANGES)
    return;
  it->changes[it->n_changes++] = (Change) { (uint8_t) kind, *item, from, old_track, since };
}

/* A back the table was told to take away: a new back in its zone is
 * another card, not the same one seen again. */
static bool
leaving (const Mind *m, const LiveItem *v)
{
  for (int i = 0; i < m->n_expect; i++)
    if (m->expect[i].kind == EXP_LEAVE && m->expect[i].item_kind == v->kind
        && (v->kind == 'B' ? m->expect[i].track == v->track : m->expect[i].serial == v->serial))
      return true;
  return false;
}

static void
diff (EngInterpreter *it)
{
  Mind *m = &it->mind;
  bool used_v[ENG_SNAPSHOT_MAX_ITEMS] = { false }, used_c[ENG_SNAPSHOT_MAX_ITEMS] = { false };
  it->n_changes = 0;
  /* faces by serial; backs by track id in the same zone, then by zone */
  for (int pass = 0; pass < 3; pass++)
    for (int ci = 0; ci < it->n_cur; ci++)
      {
        if (used_c[ci])
          continue;
        LiveItem *c = &it->cur[ci];
        for (int vi = 0; vi < m->n_view; vi++)
          {
            LiveItem *v = &m->view[vi];
            if (used_v[vi] || v->kind != c->kind || v->serial != c->serial)
              continue;
            if (pass == 2 && leaving (m, v))
              continue;
            /* a back that kept its track id but changed zone moved (a swap
             * of two hidden cats is two moves); only then may a back be
             * re-identified by its place (the tracker lost and found it) */
            bool same = c->kind == 'F' ? pass == 0
                        : pass == 0 ? v->track == c->track && zone_eq (v->zone, c->zone)
                        : pass == 1 ? v->track == c->track
                        : zone_eq (v->zone, c->zone);
            if (!same)
              continue;
            used_v[vi] = used_c[ci] = true;
            if (!zone_eq (v->zone, c->zone))
              add_change (it, CH_MOVE, c, v->zone, 0, it->cur_since[ci]);
            else
              v->track = c->track;
            break;
          }
      }
  /* flips: a back and a face trading places in one slot */
  for (int vi = 0; vi < m->n_view; vi++)
    {
      if (used_v[vi] || m->view[vi].zone.kind != ENG_ZONE_SLOT || leaving (m, &m->view[vi]))
        continue;
      for (int ci = 0; ci < it->n_cur; ci++)
        if (!used_c[ci] && it->cur[ci].kind != m->view[vi].kind
            && zone_eq (it->cur[ci].zone, m->view[vi].zone))
          {
            used_v[vi] = used_c[ci] = true;
            bool up = m->view[vi].kind == 'B';
            add_change (it, up ? CH_FLIP_UP : CH_FLIP_DOWN, &it->cur[ci], m->view[vi].zone,
                        up ? m->view[vi].track : it->cur[ci].track, it->cur_since[ci]);
            break;
          }
    }
  /* a back leaving a slot while exactly one cat face appears elsewhere: the
   * cat was turned up and carried off between two looks */
  int lone_back = -1, lone_face = -1, n_back = 0, n_face = 0;
  for (int vi = 0; vi < m->n_view; vi++)
    if (!used_v[vi] && m->view[vi].kind == 'B' && m->view[vi].zone.kind == ENG_ZONE_SLOT
        && !leaving (m, &m->view[vi]))
      lone_back = vi, n_back++;
  for (int ci = 0; ci < it->n_cur; ci++)
    if (!used_c[ci] && it->cur[ci].kind == 'F' && it->cur[ci].zone.kind == ENG_ZONE_CAPTURE)
      lone_face = ci, n_face++;
  if (n_back == 1 && n_face == 1)
    {
      LiveItem up = it->cur[lone_face];
      up.zone = m->view[lone_back].zone;
      add_change (it, CH_FLIP_UP, &up, up.zone, m->view[lone_back].track, it->cur_since[lone_face]);
      add_change (it, CH_MOVE, &it->cur[lone_face], up.zone, 0, it->cur_since[lone_face]);
      used_v[lone_back] = used_c[lone_face] = true;
    }
  for (int ci = 0; ci < it->n_cur; ci++)
    if (!used_c[ci])
      add_change (it, CH_APPEAR, &it->cur[ci], zone_make (ENG_ZONE_NONE, -1, -1), 0,
                  it->cur_since[ci]);
  for (int vi = 0; vi < m->n_view; vi++)
    if (!used_v[vi])
      add_change (it, CH_VANISH, &m->view[vi], m->view[vi].zone, 0, INT64_MAX);
  /* oldest first (stable: insertion sort over a short list) */
  for (size_t i = 1; i < it->n_changes; i++)
    {
      Change t = it->changes[i];
      size_t j = i;
      while (j > 0 && it->changes[j - 1].since > t.since)
        {
          it->changes[j] = it->changes[j - 1];
          j--;
        }
      it->changes[j] = t;
    }
}

/* ---- public ------------------------------------------------------------- */

EngStatus
eng_interpreter_new (EngGame *game, const EngCardSet *set, EngInterpreter **out)
{
  if (out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  *out = NULL;
  if (game == NULL || set == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (eng_game_class (game) != &katua_game_class)
    return ENG_ERR_NOT_SUPPORTED;
  EngInterpreter *it = calloc (1, sizeof *it);
  if (it == NULL)
    return ENG_ERR_NO_MEMORY;
  it->game = game;
  it->set = set;
  it->rules = eng_game_rules (game);
  size_t di;
  it->cat_deck = eng_card_set_find_deck (set, "cat", &di) == ENG_OK ? (int) di : 0;
  it->ufo_deck = eng_card_set_find_deck (set, "ufo", &di) == ENG_OK ? (int) di : 1;
  for (size_t i = 0; i < eng_card_set_n_cards (set); i++)
    {
      const EngCard *card = eng_card_set_card (set, i);
      if (card->serial >= LIVE_SERIALS)
        continue;
      CardInfo *ci = &it->info[card->serial];
      const char *kind = eng_card_attr (card, "kind");
      const char *colour = eng_card_attr (card, "colour");
      const char *action = eng_card_attr (card, "action");
      ci->deck = (uint8_t) card->deck;
      ci->kind = kind == NULL ? CARD_NONE
                 : strcmp (kind, "cat") == 0 ? CARD_CAT
                 : strcmp (kind, "fake") == 0 ? CARD_FAKE
                 : strcmp (kind, "abduction") == 0 ? CARD_ABDUCTION
                 : strcmp (kind, "hook") == 0 ? CARD_HOOK : CARD_ACTION;
      snprintf (ci->colour, sizeof ci->colour, "%s", colour ? colour : "");
      ci->action = action == NULL ? KAT_ACT_NONE
                   : strcmp (action, "shield") == 0 ? KAT_ACT_SHIELD
                   : strcmp (action, "replicator") == 0 ? KAT_ACT_REPLICATOR
                   : strcmp (action, "teleporter") == 0 ? KAT_ACT_TELEPORTER
                   : strcmp (action, "xray") == 0 ? KAT_ACT_XRAY : KAT_ACT_STAMPEDE;
    }
  it->memo = g_array_new (FALSE, FALSE, sizeof (Mind));
  it->record = eng_record_new (eng_game_class (game), eng_game_setup (game), NULL);
  if (it->record == NULL)
    {
      eng_interpreter_free (it);
      return ENG_ERR_NO_MEMORY;
    }
  *out = it;
  return ENG_OK;
}

void
eng_interpreter_free (EngInterpreter *interp)
{
  if (interp == NULL)
    return;
  if (interp->memo != NULL)
    g_array_free (interp->memo, TRUE);
  eng_record_free (interp->record);
  free (interp);
}

static EngStatus face_of_payload (const EngInterpreter *it, const char *payload,
                                  uint16_t *serial);
static uint16_t corrected (const EngInterpreter *it, uint16_t serial);
static bool notes_parse (EngInterpreter *it, const char *text, Mind *m, GArray *memos,
                         size_t *first_memo, Mind *pend_start, bool *pend_known);

EngStatus
eng_interpreter_adopt_record (EngInterpreter *interp, const EngRecord *record)
{
  if (interp == NULL || record == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (interp->record->n_moves > 0 || interp->memo->len > 0)
    return ENG_ERR_STATE;
  interp->record->options = record->options;
  for (size_t i = 0; i < record->n_moves; i++)
    if (eng_record_append (interp->record, &record->moves[i].move, 0) != ENG_OK)
      {
        interp->record->n_moves = 0;
        return ENG_ERR_NO_MEMORY;
      }
  interp->n_unsaved = record->n_moves;
  /* corrections naming cards this set does not have are dropped */
  for (size_t i = 0; i < record->n_corrections; i++)
    {
      uint16_t seen, actual;
      const EngRecordCorrection *c = &record->corrections[i];
      if (face_of_payload (interp, c->seen, &seen) != ENG_OK
          || face_of_payload (interp, c->actual, &actual) != ENG_OK
          || interp->n_corr >= ENG_RECORD_MAX_CORRECTIONS
          || eng_record_set_correction (interp->record, c->seen, c->actual) != ENG_OK)
        continue;
      interp->corr[interp->n_corr].seen = seen;
      interp->corr[interp->n_corr].actual = actual;
      memcpy (interp->corr[interp->n_corr].seen_payload, c->seen, 12);
      memcpy (interp->corr[interp->n_corr].actual_payload, c->actual, 12);
      interp->n_corr++;
    }
  /* the table notes: the mind to go on from; unreadable ones are ignored
   * (the first look is then a baseline against the state) */
  Mind *m = calloc (1, sizeof *m);
  size_t first_memo = 0;
  bool pend_known = false;
  if (m == NULL)
    return ENG_ERR_NO_MEMORY;
  if (record->notes != NULL && record->notes_len > 0 && !interp->started
      && notes_parse (interp, record->notes, m, interp->memo, &first_memo, &interp->pend_start,
                      &pend_known)
      && (interp->memo->len == 0 || first_memo + interp->memo->len == record->n_moves))
    {
      interp->mind = *m;
      for (int i = 0; i < interp->n_cur; i++)
        if (interp->cur[i].kind == 'F')
          interp->cur[i].serial = corrected (interp, interp->cur_read[i]);
      /* the last look, to tell whether the tracker is the same one */
      memcpy (interp->journaled_cur, interp->cur, interp->n_cur * sizeof interp->cur[0]);
      interp->journaled_n_cur = interp->n_cur;
      interp->started = true;
      interp->resume_journal = true;
      memcpy (interp->resume_cmds, interp->commands_seen, sizeof interp->commands_seen);
      interp->n_resume_cmds = interp->n_commands_seen;
      interp->pend_start_known = pend_known;
      interp->n_unsaved = record->n_moves - interp->memo->len;
      if (eng_record_set_notes (interp->record, record->notes, record->notes_len) != ENG_OK)
        eng_record_set_notes (interp->record, "", 0);
    }
  else
    {
      g_array_set_size (interp->memo, 0);
      memset (&interp->pend_start, 0, sizeof interp->pend_start);
      interp->pend_start_known = false;
      interp->restoring = false;
      interp->paused = false;
      interp->n_commands_seen = 0;
      interp->n_complaints = 0;
      interp->n_cur = 0;
    }
  free (m);
  return ENG_OK;
}

EngStatus
eng_interpreter_set_record_options (EngInterpreter *interp, const EngOptions *overrides)
{
  if (interp == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (interp->record->n_moves > 0)
    return ENG_ERR_STATE;
  if (overrides != NULL)
    interp->record->options = *overrides;
  else
    memset (&interp->record->options, 0, sizeof interp->record->options);
  return ENG_OK;
}

const EngRecord *
eng_interpreter_record (const EngInterpreter *interp)
{
  return interp ? interp->record : NULL;
}

size_t
eng_interpreter_n_expectations (const EngInterpreter *interp)
{
  return interp ? interp->mind.n_expect : 0;
}

const char *
eng_interpreter_expectation (const EngInterpreter *interp, size_t index)
{
  if (interp == NULL || index >= interp->mind.n_expect)
    return NULL;
  return interp->mind.expect[index].text;
}

bool
eng_interpreter_started (const EngInterpreter *interp)
{
  return interp != NULL && interp->started;
}

bool
eng_interpreter_restoring (const EngInterpreter *interp)
{
  return interp != NULL && interp->restoring;
}

/* The card a face read as `serial` is (a corrected misread), or itself. */
static uint16_t
corrected (const EngInterpreter *it, uint16_t serial)
{
  for (size_t i = 0; i < it->n_corr; i++)
    if (it->corr[i].seen == serial)
      return it->corr[i].actual;
  return serial;
}

/* Reads the snapshot's cards into it->cur; runs command cards newly shown. */
static void read_snapshot (EngInterpreter *it, const EngSnapshot *snap, uint16_t *new_cmds,
                           size_t *n_new_cmds, EngEvents *out);

static void
read_snapshot (EngInterpreter *it, const EngSnapshot *snap, uint16_t *new_cmds,
               size_t *n_new_cmds, EngEvents *out)
{
  uint16_t cmds[16];
  size_t n_cmds = 0;
  it->n_cur = 0;
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
          /* a foreign or unknown sticker: said once per track */
          LiveItem bad = { 'U', 0, si->track_id, si->zone };
          Change c = { CH_APPEAR, bad, si->zone, 0, 0 };
          if (complaint_find (it, &c) == NULL)
            refuse_change (it, &c, out, ENG_EVENT_NOTE, "set",
                           ENG_N_ ("A sticker this card set does not know (%.11s) is on the "
                                   "table: remove it"), si->payload);
          else
            complaint_find (it, &c)->seen = true;
          continue;
        }
      if (tag.kind == ENG_TAG_COMMAND)
        {
          if (n_cmds < 16)
            cmds[n_cmds++] = tag.serial;
          bool seen = false;
          for (size_t k = 0; k < it->n_commands_seen; k++)
            seen = seen || it->commands_seen[k] == tag.serial;
          if (!seen && *n_new_cmds < 16)
            new_cmds[(*n_new_cmds)++] = tag.serial;
          continue;
        }
      if (tag.kind != ENG_TAG_FACE && tag.kind != ENG_TAG_BACK)
        continue;
      if (!tracked_zone (&si->zone))
        continue;
      if (si->flags & ENG_SNAP_DUPLICATE)
        {
          LiveItem dup = { 'D', tag.serial, si->track_id, si->zone };
          Change c = { CH_APPEAR, dup, si->zone, 0, 0 };
          if (complaint_find (it, &c) == NULL)
            refuse_change (it, &c, out, ENG_EVENT_CONSERVATION, "table", ENG_N_ ("The same sticker "
                                   "(%.11s) is seen at two places: one is a copy; remove it"),
                           si->payload);
          else
            complaint_find (it, &c)->seen = true;
          continue;
        }
      LiveItem item = { (char) tag.kind, tag.serial, si->track_id, si->zone };
      it->cur_read[it->n_cur] = tag.serial;
      if (item.kind == 'F')
        item.serial = corrected (it, tag.serial);
      /* a seat no player sits at, or a slot Katua does not have, is no zone */
      bool seated = item.zone.kind == ENG_ZONE_SLOT || item.zone.kind == ENG_ZONE_ATTACK
                    || item.zone.kind == ENG_ZONE_CAPTURE || item.zone.kind == ENG_ZONE_PLAY;
      bool indexed = item.zone.kind == ENG_ZONE_SLOT || item.zone.kind == ENG_ZONE_ATTACK;
      if (item.zone.kind >= ENG_ZONE_KIND_COUNT
          || (seated && player_of_seat (it, item.zone.seat) < 0)
          || (indexed && (item.zone.index < 0 || item.zone.index >= KAT_SLOTS)))
        item.zone = zone_make (ENG_ZONE_NONE, -1, -1);
      if (si->flags & ENG_SNAP_MOVING)
        {
          /* not at rest: count it where the view had it */
          int vi = view_find (&it->mind, item.kind, item.serial, item.track);
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

static bool
in_places (const uint8_t *list, int n, uint8_t idx)
{
  return idx < KAT_MAX_CARDS && in_list (list, n, idx);
}

/* The first snapshot must agree with the game's state: a new game shows
 * every player's three cats face down and nothing in play; a game rebuilt
 * from its record after a restart shows its slots as the state has them
 * (face-up cats by their faces), its UFOs in play in attack zones and its
 * captured cats in capture areas.  UFOs the state has discarded but still
 * lying in an attack zone become expectations.  Returns false (and says
 * what to fix) when the table disagrees. */
static bool
take_baseline (EngInterpreter *it, EngEvents *out)
{
  const KatState *s = kstate (it);
  const KatRules *r = it->rules;
  int in_slot[KAT_MAX_PLAYERS][KAT_SLOTS] = { { 0 } };
  char why[160] = "";
  for (int i = 0; i < it->n_cur && why[0] == '\0'; i++)
    {
      const LiveItem *c = &it->cur[i];
      int p = player_of_seat (it, c->zone.seat);
      uint8_t idx = c->kind == 'F' ? katua_card_index (r, c->serial) : KAT_NONE;
      /* what to do with the item, written (and worded) only when wrong */
      enum { KEEP, TAKE_AWAY, TURN_DOWN } todo = KEEP;
      switch (c->zone.kind)
        {
        case ENG_ZONE_SLOT:
          {
            int k = c->zone.index;
            in_slot[p][k]++;
            bool up = s->slot[p][k] != KAT_NONE && s->face_up[p][k];
            if (s->slot[p][k] == KAT_NONE || in_slot[p][k] > 1)
              todo = TAKE_AWAY;
            else if (up && (c->kind != 'F' || idx != s->slot[p][k]))
              snprintf (why, sizeof why, ENG_ ("%s's cat in slot %d lies face up"), pname (it, p),
                        k + 1);
            else if (!up && c->kind != 'B')
              todo = TURN_DOWN;
            break;
          }
        case ENG_ZONE_ATTACK:
          if (c->kind != 'F' || !(in_places (s->in_play, s->in_play_n, idx)
                                  || in_places (s->discard, s->discard_n, idx)))
            todo = TAKE_AWAY;
          break;
        case ENG_ZONE_CAPTURE:
          if (c->kind != 'F' || p < 0
              || !in_places (s->captured[p], s->captured_n[p], idx))
            todo = TAKE_AWAY;
          break;
        case ENG_ZONE_PLAY:
          todo = TAKE_AWAY;
          break;
        default:
          break;
        }
      char what[128];
      if (todo == TAKE_AWAY)
        snprintf (why, sizeof why, ENG_ ("take away %s"), item_words (it, c, what, sizeof what));
      else if (todo == TURN_DOWN)
        snprintf (why, sizeof why, ENG_ ("turn %s face down"),
                  item_words (it, c, what, sizeof what));
    }
  for (int p = 0; p < s->n_players && why[0] == '\0'; p++)
    for (int k = 0; k < KAT_SLOTS && why[0] == '\0'; k++)
      if (s->slot[p][k] != KAT_NONE && in_slot[p][k] == 0)
        snprintf (why, sizeof why, ENG_ ("%s's slot %d needs its cat"), pname (it, p), k + 1);
  /* the cards in play lie where cards are played (their faces are public) */
  for (int i = 0; i < s->in_play_n && why[0] == '\0'; i++)
    {
      uint16_t serial = s->in_play[i] < r->n_cards ? r->cards[s->in_play[i]].serial : 0;
      bool shown = false;
      for (int c = 0; c < it->n_cur && !shown; c++)
        shown = it->cur[c].kind == 'F' && it->cur[c].serial == serial
                && (it->cur[c].zone.kind == ENG_ZONE_ATTACK || it->cur[c].zone.kind == ENG_ZONE_PLAY);
      if (!shown && serial != 0)
        {
          char name[48];
          face_name_the (it, serial, name, sizeof name);
          snprintf (why, sizeof why, ENG_ ("put %s back where it was played"), name);
        }
    }
  if (why[0] != '\0')
    {
      bool fresh = !it->undo_baseline && eng_game_history_depth (it->game) == 0
                   && s->turn <= 1;
      char text[sizeof it->setup_need];
      if (fresh)
        snprintf (text, sizeof text, ENG_ ("Set up the table: each player places 3 cats face "
                                           "down in slots 1 to 3, and nothing else lies in the "
                                           "slots, attack spots or capture areas (%s)"), why);
      else if (it->undo_baseline)
        snprintf (text, sizeof text, ENG_ ("Put the table back as it was before that move: %s"),
                  why);
      else
        snprintf (text, sizeof text, ENG_ ("Put the table as the game left it: %s"), why);
      if (strcmp (text, it->setup_need) != 0)
        {
          say (out, ENG_EVENT_NEED, -1, fresh ? "K2" : "table", "%s", text);
          memcpy (it->setup_need, text, sizeof text);
        }
      return false;
    }
  it->setup_need[0] = '\0';
  it->mind.n_view = 0;
  for (int i = 0; i < it->n_cur; i++)
    {
      const LiveItem *c = &it->cur[i];
      if (c->zone.kind == ENG_ZONE_NONE)
        continue;
      view_add (&it->mind, c);
      uint8_t idx = c->kind == 'F' ? katua_card_index (r, c->serial) : KAT_NONE;
      if (c->zone.kind == ENG_ZONE_DISCARD && c->kind == 'F')
        mark_discarded (&it->mind, c->serial);
      if (c->zone.kind == ENG_ZONE_ATTACK && in_places (s->discard, s->discard_n, idx))
        {
          Expect *e = expect_add (&it->mind, EXP_TO_DISCARD, c->serial, 0,
                                  zone_make (ENG_ZONE_DISCARD, -1, 1));
          if (e != NULL)
            {
              char name[48];
              face_name_the (it, c->serial, name, sizeof name);
              snprintf (e->text, sizeof e->text, ENG_ ("Put %s on the discard pile"), name);
            }
        }
    }
  it->started = true;
  if (it->undo_baseline)
    {
      it->undo_baseline = false;
      say (out, ENG_EVENT_NOTE, -1, "", ENG_N_ ("The table is as it was: play on"));
    }
  else if (s->phase == KAT_PHASE_OVER)
    say (out, ENG_EVENT_NOTE, -1, "", ENG_N_ ("The referee sees the table: the game is over"));
  else
    say (out, ENG_EVENT_NOTE, -1, "",
         s->turn <= 1 && eng_game_history_depth (it->game) == 0
         ? ENG_N_ ("The referee sees the table: %s starts")
         : ENG_N_ ("The referee sees the table: %s is to play"), pname (it, s->active));
  for (int i = 0; i < it->mind.n_expect; i++)
    say (out, ENG_EVENT_NEED, -1, "K11", "%s", it->mind.expect[i].text);
  return true;
}

static EngStatus run_command (EngInterpreter *it, const char *id, EngEvents *out);
static void settle_intercepts (EngInterpreter *it, EngEvents *out);

/* Compares the table (it->cur) with the view and interprets the changes
 * (or, while restoring, waits for the table to match). */
static void
read_table (EngInterpreter *it, EngEvents *out)
{
  if (it->restoring)
    {
      diff (it);
      if (it->n_changes == 0)
        {
          it->restoring = false;
          say (out, ENG_EVENT_NOTE, -1, "", ENG_N_ ("The table is as it was: play on"));
        }
    }
  else if (!it->paused)
    {
      diff (it);
      it->intercepts_this_feed = 0;
      for (size_t i = 0; i < it->n_changes; i++)
        handle_change (it, &it->changes[i], out);
      settle_intercepts (it, out);
    }
}

/* ---- the journal: the table notes kept in the record ------------------- */

/* Expectation texts travel as one word: '+' for a space, %XX for the rest
 * of what a record word cannot hold. */
static size_t
notes_word (char *dst, size_t size, const char *text)
{
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *) text; *p != '\0' && n + 4 < size; p++)
    {
      if (*p == ' ')
        dst[n++] = '+';
      else if (*p > ' ' && *p < 0x7f && *p != '+' && *p != '%' && *p != '#')
        dst[n++] = (char) *p;
      else
        n += (size_t) snprintf (dst + n, size - n, "%%%02X", *p);
    }
  if (n == 0 && size > 1)
    dst[n++] = '-';
  dst[n] = '\0';
  return n;
}

static void
notes_unword (char *dst, size_t size, const char *word)
{
  size_t n = 0;
  if (strcmp (word, "-") == 0)
    word = "";
  for (const char *p = word; *p != '\0' && n + 1 < size; p++)
    {
      if (*p == '+')
        dst[n++] = ' ';
      else if (*p == '%' && g_ascii_isxdigit (p[1]) && g_ascii_isxdigit (p[2]))
        {
          int c = g_ascii_xdigit_value (p[1]) * 16 + g_ascii_xdigit_value (p[2]);
          dst[n++] = c >= ' ' && c < 0x7f ? (char) c : ' ';
          p += 2;
        }
      else
        dst[n++] = *p;
    }
  dst[n] = '\0';
}

typedef struct {
  char *buf;
  size_t n, size;
  bool full;
} Notes;

static void notes_add (Notes *o, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

static void
notes_add (Notes *o, const char *fmt, ...)
{
  if (o->full)
    return;
  va_list ap;
  va_start (ap, fmt);
  int l = vsnprintf (o->buf + o->n, o->size - o->n, fmt, ap);
  va_end (ap);
  if (l < 0 || (size_t) l >= o->size - o->n)
    o->full = true;
  else
    o->n += (size_t) l;
}

static void
notes_item (Notes *o, const char *key, const LiveItem *v)
{
  notes_add (o, "%s %c %u %u %d %d %d\n", key, v->kind, v->serial, (unsigned) v->track,
             v->zone.kind, v->zone.seat, v->zone.index);
}

static void
notes_mind (Notes *o, const Mind *m)
{
  for (int i = 0; i < m->n_view; i++)
    notes_item (o, "v", &m->view[i]);
  for (int i = 0; i < m->n_expect; i++)
    {
      const Expect *e = &m->expect[i];
      char word[3 * sizeof e->text + 2];
      notes_word (word, sizeof word, e->text);
      notes_add (o, "e %u %c %u %u %d %d %d %s\n", e->kind, e->item_kind ? e->item_kind : '-',
                 e->serial, (unsigned) e->track, e->zone.kind, e->zone.seat, e->zone.index, word);
    }
  const Pending *pd = &m->pend;
  if (pd->kind != PEND_NONE)
    {
      const EngMove *mv = &pd->move;
      notes_add (o, "p %u %u %d %d %d %d %d %d %d %d %d %d %d %d %d %u", pd->kind, pd->card,
                 pd->zone.kind, pd->zone.seat, pd->zone.index, pd->half, pd->half_from.kind,
                 pd->half_from.seat, pd->half_from.index, pd->half_to.kind, pd->half_to.seat,
                 pd->half_to.index, pd->tie, pd->asked, pd->named, pd->n_queue);
      for (int i = 0; i < pd->n_queue; i++)
        notes_add (o, " %u", pd->queue[i]);
      notes_add (o, " %u %d %d %d %d %d %u %u %u", mv->verb, mv->player, mv->target[0],
                 mv->slot[0], mv->target[1], mv->slot[1], mv->card, mv->show, mv->n_cards);
      for (unsigned i = 0; i < mv->n_cards && i < ENG_MOVE_MAX_CARDS; i++)
        notes_add (o, " %u", mv->cards[i]);
      notes_add (o, "\n");
    }
  for (int i = 0; i < m->n_to_discard; i++)
    notes_item (o, "t", &m->to_discard[i]);
  int on_line = 0;
  for (unsigned serial = 0; serial < LIVE_SERIALS; serial++)
    if (was_discarded (m, (uint16_t) serial))
      {
        notes_add (o, "%s%u", on_line == 0 ? "x " : " ", serial);
        if (++on_line == 100)
          {
            notes_add (o, "\n");
            on_line = 0;
          }
      }
  if (on_line > 0)
    notes_add (o, "\n");
}

static bool
complaints_same (const Complaint *a, const Complaint *b, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (a[i].kind != b[i].kind || a[i].item_kind != b[i].item_kind || a[i].serial != b[i].serial
        || a[i].track != b[i].track || !zone_eq (a[i].zone, b[i].zone))
      return false;
  return true;
}

/* Writes the referee's understanding of the table (the view, what the table
 * still has to do, the card waiting for its second step, the cards laid for
 * a discard) into the record's notes when it changed, so that a journal
 * saved after any move lets a restarted referee go on exactly from there.
 * No allocation once the notes have reached their size. */
static void
journal_sync (EngInterpreter *it)
{
  bool flags[3] = { it->started, it->restoring, it->paused };
  if (it->journal_written && memcmp (&it->journaled, &it->mind, sizeof it->mind) == 0
      && memcmp (it->journaled_flags, flags, sizeof flags) == 0
      && it->journaled_n_cmds == it->n_commands_seen
      && memcmp (it->journaled_cmds, it->commands_seen,
                 it->n_commands_seen * sizeof it->commands_seen[0]) == 0
      && it->journaled_n_complaints == it->n_complaints
      && complaints_same (it->journaled_complaints, it->complaints, it->n_complaints)
      && it->journaled_memo_version == it->memo_version
      && it->journaled_n_cur == it->n_cur
      && memcmp (it->journaled_cur, it->cur, it->n_cur * sizeof it->cur[0]) == 0
      && memcmp (it->journaled_cur_read, it->cur_read, it->n_cur * sizeof it->cur_read[0]) == 0
      && memcmp (it->journaled_cur_since, it->cur_since, it->n_cur * sizeof it->cur_since[0]) == 0)
    return;
  it->journaled_n_cur = it->n_cur;
  memcpy (it->journaled_cur, it->cur, it->n_cur * sizeof it->cur[0]);
  memcpy (it->journaled_cur_read, it->cur_read, it->n_cur * sizeof it->cur_read[0]);
  memcpy (it->journaled_cur_since, it->cur_since, it->n_cur * sizeof it->cur_since[0]);
  memcpy (it->journaled_complaints, it->complaints, it->n_complaints * sizeof it->complaints[0]);
  it->journaled_n_complaints = it->n_complaints;
  it->journal_written = true;
  it->journaled = it->mind;
  memcpy (it->journaled_flags, flags, sizeof flags);
  memcpy (it->journaled_cmds, it->commands_seen, sizeof it->commands_seen);
  it->journaled_n_cmds = it->n_commands_seen;
  if (!it->started)
    {
      /* no view yet: a restarted referee takes its baseline afresh */
      eng_record_set_notes (it->record, "", 0);
      return;
    }
  Notes o = { it->notes, 0, sizeof it->notes, false };
  notes_add (&o, "s %d %d\n", it->restoring, it->paused);
  if (it->n_commands_seen > 0)
    {
      notes_add (&o, "c");
      for (size_t i = 0; i < it->n_commands_seen; i++)
        notes_add (&o, " %u", it->commands_seen[i]);
      notes_add (&o, "\n");
    }
  /* the differences already complained about are not said again */
  for (size_t i = 0; i < it->n_complaints; i++)
    {
      const Complaint *k = &it->complaints[i];
      notes_add (&o, "k %u %d %u %u %d %d %d\n", k->kind, k->item_kind, k->serial,
                 (unsigned) k->track, k->zone.kind, k->zone.seat, k->zone.index);
    }
  /* the table as last read (what a correction reads again) */
  for (int i = 0; i < it->n_cur; i++)
    {
      const LiveItem *c = &it->cur[i];
      notes_add (&o, "r %c %u %u %d %d %d %" G_GINT64_FORMAT "\n", c->kind, it->cur_read[i],
                 (unsigned) c->track, c->zone.kind, c->zone.seat, c->zone.index,
                 (gint64) it->cur_since[i]);
    }
  notes_mind (&o, &it->mind);
  /* the views saved for undo of the last moves, and the mind before the
   * card waiting for its second step: text kept until they change */
  if (it->journaled_memo_version != it->memo_version || it->memo_text_len == 0)
    {
      Notes mo = { it->memo_text, 0, sizeof it->memo_text, false };
      guint from = it->memo->len > LIVE_JOURNAL_UNDO ? it->memo->len - LIVE_JOURNAL_UNDO : 0;
      for (guint j = from; j < it->memo->len; j++)
        {
          const Mind *saved = &g_array_index (it->memo, Mind, j);
          notes_add (&mo, "u %zu %d\n", it->n_unsaved + j, saved->no_view);
          notes_mind (&mo, saved);
        }
      if (it->mind.pend.kind != PEND_NONE && it->pend_start_known)
        {
          notes_add (&mo, "w\n");
          notes_mind (&mo, &it->pend_start);
        }
      /* too big to keep: undo across a restart then waits for the state's table */
      it->memo_text_len = mo.full ? 0 : mo.n;
      it->journaled_memo_version = it->memo_version;
    }
  if (o.n + it->memo_text_len < o.size)
    {
      memcpy (o.buf + o.n, it->memo_text, it->memo_text_len);
      o.n += it->memo_text_len;
    }
  /* a notes text that does not fit (it cannot, with these limits) or is
   * refused leaves none: a restart then takes its baseline afresh */
  if (o.full || eng_record_set_notes (it->record, it->notes, o.n) != ENG_OK)
    eng_record_set_notes (it->record, "", 0);
}

static bool
notes_zone (const char *const *w, EngZone *z)
{
  long k = strtol (w[0], NULL, 10), seat = strtol (w[1], NULL, 10),
       index = strtol (w[2], NULL, 10);
  if (k < 0 || k >= ENG_ZONE_KIND_COUNT || seat < -1 || seat >= ENG_MAX_PLAYERS || index < -1
      || index > 127)
    return false;
  *z = zone_make ((int) k, (int) seat, (int) index);
  return true;
}

static bool
notes_serial (const char *w, uint16_t *out)
{
  char *end;
  long v = strtol (w, &end, 10);
  if (end == w || *end != '\0' || v < 0 || v > 0xFFFF)
    return false;
  *out = (uint16_t) v;
  return true;
}

/* An item: KIND SERIAL TRACK ZONE(3). */
static bool
notes_parse_item (char *const *w, int nw, LiveItem *v)
{
  if (nw != 7 || (w[1][0] != 'F' && w[1][0] != 'B') || w[1][1] != '\0')
    return false;
  v->kind = w[1][0];
  char *end;
  unsigned long track = strtoul (w[3], &end, 10);
  if (*end != '\0' || track > UINT32_MAX || !notes_serial (w[2], &v->serial)
      || (v->kind == 'F' && v->serial >= LIVE_SERIALS))
    return false;
  v->track = (uint32_t) track;
  return notes_zone ((const char *const *) w + 4, &v->zone);
}

/* Reads the journal's table notes into *m, the flags and complaints, the
 * saved views into `memos` (with the index of their move in *first_memo)
 * and the mind before a waiting card into *pend_start (*pend_known);
 * false (and the outputs undefined) for notes this interpreter cannot have
 * written. */
static bool
notes_parse (EngInterpreter *it, const char *text, Mind *m, GArray *memos, size_t *first_memo,
             Mind *pend_start, bool *pend_known)
{
  memset (m, 0, sizeof *m);
  it->n_complaints = 0;
  it->n_cur = 0;
  *pend_known = false;
  *first_memo = 0;
  Mind *target = m;
  bool seen_state = false;
  char line[1100];
  while (*text != '\0')
    {
      const char *end = strchr (text, '\n');
      size_t len = end ? (size_t) (end - text) : strlen (text);
      if (len >= sizeof line)
        return false;
      memcpy (line, text, len);
      line[len] = '\0';
      text += len + (end ? 1 : 0);
      char *w[40];
      int nw = 0;
      char *save = NULL;
      for (char *tok = strtok_r (line, " ", &save); tok != NULL && nw < 40;
           tok = strtok_r (NULL, " ", &save))
        w[nw++] = tok;
      if (nw == 0)
        continue;
      if (strcmp (w[0], "s") == 0 && nw == 3)
        {
          it->restoring = strcmp (w[1], "1") == 0;
          it->paused = strcmp (w[2], "1") == 0;
          seen_state = true;
        }
      else if (strcmp (w[0], "c") == 0 && nw - 1 <= 16)
        {
          it->n_commands_seen = 0;
          for (int i = 1; i < nw; i++)
            if (!notes_serial (w[i], &it->commands_seen[it->n_commands_seen++]))
              return false;
        }
      else if (strcmp (w[0], "v") == 0)
        {
          if (target->n_view >= ENG_SNAPSHOT_MAX_ITEMS || !notes_parse_item (w, nw, &target->view[target->n_view]))
            return false;
          target->n_view++;
        }
      else if (strcmp (w[0], "t") == 0)
        {
          if (target->n_to_discard >= 3 || !notes_parse_item (w, nw, &target->to_discard[target->n_to_discard]))
            return false;
          target->n_to_discard++;
        }
      else if (strcmp (w[0], "e") == 0)
        {
          if (nw != 9 || target->n_expect >= LIVE_MAX_EXPECT)
            return false;
          Expect *e = &target->expect[target->n_expect];
          uint16_t kind;
          char *tend;
          unsigned long track = strtoul (w[4], &tend, 10);
          if (!notes_serial (w[1], &kind) || kind > EXP_LEAVE || strlen (w[2]) != 1
              || !notes_serial (w[3], &e->serial) || *tend != '\0' || track > UINT32_MAX
              || !notes_zone ((const char *const *) w + 5, &e->zone))
            return false;
          e->kind = (uint8_t) kind;
          e->item_kind = w[2][0] == '-' ? 0 : w[2][0];
          e->track = (uint32_t) track;
          notes_unword (e->text, sizeof e->text, w[8]);
          target->n_expect++;
        }
      else if (strcmp (w[0], "p") == 0)
        {
          Pending *pd = &target->pend;
          uint16_t v[40];
          if (nw < 17 || nw > 40)
            return false;
          for (int i = 1; i < nw; i++)
            {
              char *vend;
              long x = strtol (w[i], &vend, 10);
              if (*vend != '\0' || x < -128 || x > 0xFFFF)
                return false;
              v[i] = (uint16_t) (int16_t) x;
            }
          int nq = v[16];
          if (nq > LIVE_MAX_QUEUE || nw < 17 + nq + 9)
            return false;
          EngMove *mv = &pd->move;
          const uint16_t *q = &v[17 + nq];
          int ncards = q[8];
          if (ncards > ENG_MOVE_MAX_CARDS || nw != 17 + nq + 9 + ncards || v[1] > PEND_INTERCEPT)
            return false;
          const char *zw[3];
          pd->kind = (uint8_t) v[1];
          pd->card = v[2];
          for (int z = 0; z < 3; z++)
            {
              const char *const *zs = (const char *const *) w + 3 + (z == 0 ? 0 : z == 1 ? 4 : 7);
              zw[0] = zs[0], zw[1] = zs[1], zw[2] = zs[2];
              EngZone *dst = z == 0 ? &pd->zone : z == 1 ? &pd->half_from : &pd->half_to;
              if (!notes_zone (zw, dst))
                return false;
            }
          pd->half = v[6] != 0;
          pd->tie = v[13] != 0;
          pd->asked = v[14] != 0;
          pd->named = (int8_t) v[15];
          pd->n_queue = (uint8_t) nq;
          for (int i = 0; i < nq; i++)
            pd->queue[i] = v[17 + i];
          eng_move_init (mv, q[0], (int8_t) q[1]);
          mv->target[0] = (int8_t) q[2];
          mv->slot[0] = (int8_t) q[3];
          mv->target[1] = (int8_t) q[4];
          mv->slot[1] = (int8_t) q[5];
          mv->card = q[6];
          mv->show = q[7];
          mv->n_cards = (uint8_t) ncards;
          for (int i = 0; i < ncards; i++)
            mv->cards[i] = q[9 + i];
        }
      else if (strcmp (w[0], "k") == 0)
        {
          long kind = nw == 8 ? strtol (w[1], NULL, 10) : -1;
          long item_kind = nw == 8 ? strtol (w[2], NULL, 10) : -1;
          uint16_t serial;
          char *tend;
          unsigned long track = nw == 8 ? strtoul (w[4], &tend, 10) : 0;
          if (nw != 8 || kind < 0 || kind > CH_FLIP_DOWN || item_kind < 0 || item_kind > 127
              || !notes_serial (w[3], &serial) || *tend != '\0' || track > UINT32_MAX
              || it->n_complaints >= LIVE_MAX_COMPLAINTS)
            return false;
          Complaint *k = &it->complaints[it->n_complaints];
          if (!notes_zone ((const char *const *) w + 5, &k->zone))
            return false;
          k->kind = (uint8_t) kind;
          k->item_kind = (char) item_kind;
          k->serial = serial;
          k->track = (uint32_t) track;
          k->seen = true;
          it->n_complaints++;
        }
      else if (strcmp (w[0], "r") == 0 && nw == 8)
        {
          LiveItem item;
          char *send;
          gint64 since = g_ascii_strtoll (w[7], &send, 10);
          if (*send != '\0' || it->n_cur >= ENG_SNAPSHOT_MAX_ITEMS
              || !notes_parse_item (w, 7, &item))
            return false;
          it->cur_read[it->n_cur] = item.serial;
          it->cur_since[it->n_cur] = since;
          it->cur[it->n_cur++] = item;
        }
      else if (strcmp (w[0], "u") == 0 && nw == 3)
        {
          char *uend;
          unsigned long j = strtoul (w[1], &uend, 10);
          if (*uend != '\0' || memos->len >= LIVE_JOURNAL_UNDO
              || (memos->len > 0 && j != *first_memo + memos->len))
            return false;
          if (memos->len == 0)
            *first_memo = j;
          g_array_set_size (memos, memos->len + 1);
          target = &g_array_index (memos, Mind, memos->len - 1);
          memset (target, 0, sizeof *target);
          target->no_view = strcmp (w[2], "1") == 0;
        }
      else if (strcmp (w[0], "w") == 0 && nw == 1)
        {
          target = pend_start;
          memset (target, 0, sizeof *target);
          *pend_known = true;
        }
      else if (strcmp (w[0], "x") == 0)
        {
          for (int i = 1; i < nw; i++)
            {
              uint16_t serial;
              if (!notes_serial (w[i], &serial) || serial >= LIVE_SERIALS)
                return false;
              mark_discarded (target, serial);
            }
        }
      else
        return false;
    }
  return seen_state;
}

/* Track ids are the tracker's: a tracker started afresh numbers again from
 * the start, so the ids of the journal's last look may now name other
 * cards.  The tracker is the same one when the look agrees with the last
 * look's ids (faces by serial, backs by zone, mostly with the same id);
 * otherwise every remembered id becomes one no tracker gives, and backs
 * are found again by their zone. */
static uint32_t
forgotten (uint32_t track)
{
  return 0xF0000000u | (track & 0x0FFFFFFFu);
}

static void
forget_in_mind (Mind *m)
{
  for (int i = 0; i < m->n_view; i++)
    m->view[i].track = forgotten (m->view[i].track);
  for (int i = 0; i < m->n_expect; i++)
    m->expect[i].track = forgotten (m->expect[i].track);
  for (int i = 0; i < m->n_to_discard; i++)
    m->to_discard[i].track = forgotten (m->to_discard[i].track);
}

/* Whether the look shows again every card the view has in a slot: a card
 * in that slot, or for a face, the face anywhere (carried off). */
static bool
resume_look_complete (const EngInterpreter *it)
{
  const Mind *m = &it->mind;
  for (int i = 0; i < m->n_view; i++)
    {
      const LiveItem *v = &m->view[i];
      if (v->zone.kind != ENG_ZONE_SLOT)
        continue;
      bool found = false;
      for (int c = 0; c < it->n_cur && !found; c++)
        found = zone_eq (it->cur[c].zone, v->zone)
                || (v->kind == 'F' && it->cur[c].kind == 'F' && it->cur[c].serial == v->serial);
      if (!found)
        return false;
    }
  return true;
}

static bool
same_tracker (const EngInterpreter *it)
{
  int same = 0, differ = 0;
  for (int i = 0; i < it->n_cur; i++)
    for (int j = 0; j < it->journaled_n_cur; j++)
      {
        const LiveItem *now = &it->cur[i], *then = &it->journaled_cur[j];
        bool counterpart = now->kind == then->kind
                           && (now->kind == 'F' ? now->serial == then->serial
                                                : zone_eq (now->zone, then->zone));
        if (!counterpart)
          continue;
        if (now->track == then->track)
          same++;
        else
          differ++;
        break;
      }
  return same > differ;
}

static void
forget_old_tracks (EngInterpreter *it)
{
  forget_in_mind (&it->mind);
  forget_in_mind (&it->pend_start);
  for (guint j = 0; j < it->memo->len; j++)
    forget_in_mind (&g_array_index (it->memo, Mind, j));
  for (size_t i = 0; i < it->n_complaints; i++)
    it->complaints[i].track = forgotten (it->complaints[i].track);
  it->memo_version++;
}

/* After an undo of a move the table did not show (a pass, an end of turn
 * with nothing to refill), the table is already as it was, and a still
 * table sends no new look (the pipeline feeds only changes): the last look
 * settles it before the next look or command is read.  Without this the
 * referee waited for ever, reading no play.  Found by test-live-random
 * (script katua-2p-undo-pass). */
static void
restored_by_last_look (EngInterpreter *it, EngEvents *out)
{
  if (!it->restoring || !it->started)
    return;
  diff (it);
  if (it->n_changes == 0)
    {
      it->restoring = false;
      say (out, ENG_EVENT_NOTE, -1, "", ENG_N_ ("The table is as it was: play on"));
    }
}

EngStatus
eng_interpreter_feed (EngInterpreter *interp, const EngSnapshot *snap, EngEvents *out)
{
  if (interp == NULL || snap == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  EngInterpreter *it = interp;
  uint16_t new_cmds[16];
  size_t n_new_cmds = 0;
  restored_by_last_look (it, out);
  for (size_t i = 0; i < it->n_complaints; i++)
    it->complaints[i].seen = false;
  /* until the first full look after a resume, a command card counts as
   * new only against those up when the journal was written */
  if (it->resume_journal)
    {
      memcpy (it->commands_seen, it->resume_cmds, sizeof it->resume_cmds);
      it->n_commands_seen = it->n_resume_cmds;
    }
  read_snapshot (it, snap, new_cmds, &n_new_cmds, out);
  if (!snap->calibrated)
    {
      journal_sync (it);
      return ENG_OK;
    }
  bool baseline = false;
  bool waiting = false;
  if (it->resume_journal)
    {
      /* the journal kept the table as the referee last understood it: the
       * first full look is read against that, like any other.  A tracker
       * started afresh finds the cards a few at a time: until every card
       * the view has in a slot is found again (or for a few looks), its
       * looks are not read, so a card not found yet is no "vanished" card */
      bool same = same_tracker (it);
      if (!same && !resume_look_complete (it) && ++it->resume_looks < LIVE_RESUME_LOOKS)
        {
          waiting = true;
          n_new_cmds = 0;
        }
      else
        {
          if (!same)
            forget_old_tracks (it);
          it->resume_journal = false;
          say (out, ENG_EVENT_NOTE, -1, "",
               ENG_N_ ("The referee goes on where the game was: %s is to play"),
               pname (it, kstate (it)->active));
        }
    }
  if (!it->started)
    {
      bool undoing = it->undo_baseline;
      if (!take_baseline (it, out) && !undoing)
        {
          journal_sync (it);
          return ENG_OK;
        }
      baseline = true;
    }
  if (waiting)
    for (size_t i = 0; i < it->n_complaints; i++)
      it->complaints[i].seen = true;
  else if (!baseline)
    read_table (it, out);
  /* complaints whose difference has gone were fixed by the table */
  size_t keep = 0;
  for (size_t i = 0; i < it->n_complaints; i++)
    if (it->complaints[i].seen)
      it->complaints[keep++] = it->complaints[i];
  it->n_complaints = keep;
  for (size_t i = 0; i < n_new_cmds; i++)
    {
      const EngCommand *cmd = eng_card_set_command (it->set, (size_t) new_cmds[i] - 1);
      if (cmd != NULL)
        run_command (it, cmd->id, out);
    }
  journal_sync (it);
  return ENG_OK;
}

static bool
expectations_block (EngInterpreter *it, EngEvents *out)
{
  if (it->mind.n_expect == 0)
    return false;
  say (out, ENG_EVENT_NOTE, -1, "table", ENG_N_ ("First: %s"), it->mind.expect[0].text);
  return true;
}

static void
resolve_intercept (EngInterpreter *it, int player, EngEvents *out)
{
  Pending *pd = &it->mind.pend;
  EngMove mv;
  move_for (&mv, KAT_INTERCEPT, player);
  mv.card = pd->queue[0];
  memmove (&pd->queue[0], &pd->queue[1], (size_t) (pd->n_queue - 1) * sizeof pd->queue[0]);
  pd->n_queue--;
  pd->asked = false;
  pd->tie = false;
  if (pd->n_queue == 0)
    pd->kind = PEND_NONE;
  if (try_apply (it, &mv, NULL, out))
    {
      /* undo goes back to before this UFO was laid, as for any card that
       * waited for its second step: otherwise the undone view keeps it on
       * the Hook with no move to account for it, and the table laying it
       * again is not read.  Found by test-live-random (script
       * katua-3p-undo-intercept). */
      Mind *top = &g_array_index (it->memo, Mind, it->memo->len - 1);
      int vi = view_find (top, 'F', mv.card, 0);
      if (vi >= 0)
        {
          view_remove_at (top, vi);
          it->memo_version++;
        }
    }
  else
    {
      int vi = view_find (&it->mind, 'F', mv.card, 0);
      if (vi >= 0)
        {
          Expect *e = expect_add (&it->mind, EXP_LEAVE, mv.card, 0, it->mind.view[vi].zone);
          if (e != NULL)
            {
              e->item_kind = 'F';
              snprintf (e->text, sizeof e->text, "%s", ENG_ ("Take that UFO back from the Hook"));
            }
        }
    }
}

/* The players who may own a UFO on the Hook: the hook owner's rivals who
 * have not answered this Hook yet, in turn order from the owner's left. */
static size_t
hook_candidates (const EngInterpreter *it, int *players)
{
  const KatState *s = kstate (it);
  size_t n = 0;
  for (int i = 1; i < s->n_players; i++)
    {
      int p = (s->active + i) % s->n_players;
      if (!((s->hook_answered >> p) & 1))
        players[n++] = p;
    }
  return n;
}

/* The "whose?" question names one candidate: confirm takes them, cancel
 * names the next one (wrapping), so command cards alone can answer it. */
static void
ask_whose (EngInterpreter *it, EngEvents *out)
{
  Pending *pd = &it->mind.pend;
  int cand[KAT_MAX_PLAYERS];
  size_t n = hook_candidates (it, cand);
  size_t i = 0;
  if (n == 0)
    return;
  while (i < n && cand[i] != pd->named)
    i++;
  if (i == n)
    i = 0;
  pd->named = (int8_t) cand[i];
  if (out == NULL)
    return;
  /* only abduction UFOs stay on the Hook: the name is "blue UFO" */
  char name[48];
  face_name (it, pd->queue[0], name, sizeof name);
  say (out, ENG_EVENT_NEED, -1, "K12",
       ENG_N_ ("Whose %s is on %s's Hook? Is it %s's? Confirm, or cancel to ask about %s"),
       name, pname (it, kstate (it)->active), pname (it, cand[i]),
       pname (it, cand[(i + 1) % n]));
}

/* Intercepts waiting on the Hook: order a tie (ask: confirm / cancel), then
 * attribute each (2 players, or one rival left: theirs; otherwise ask). */
static void
settle_intercepts (EngInterpreter *it, EngEvents *out)
{
  Pending *pd = &it->mind.pend;
  const KatState *s = kstate (it);
  while (pd->kind == PEND_INTERCEPT && pd->n_queue > 0 && !pd->asked)
    {
      if (pd->tie && pd->n_queue > 1)
        {
          char name[48], other[48];
          face_name_the (it, pd->queue[0], name, sizeof name);
          face_name_the (it, pd->queue[1], other, sizeof other);
          pd->asked = true;
          say (out, ENG_EVENT_NEED, -1, "K12",
               ENG_N_ ("Two UFOs landed on %s's Hook at once: was %s placed before %s? Confirm "
                       "or cancel"), pname (it, s->active), name, other);
          return;
        }
      int cand[KAT_MAX_PLAYERS];
      size_t n = hook_candidates (it, cand);
      if (n <= 1)
        {
          /* no rival left to answer: the rules refuse it and it goes back */
          resolve_intercept (it, n == 1 ? cand[0] : (s->active + 1) % s->n_players, out);
          continue;
        }
      pd->asked = true;
      pd->named = (int8_t) cand[0];
      ask_whose (it, out);
    }
}

static bool
whose_asked (const EngInterpreter *it)
{
  const Pending *pd = &it->mind.pend;
  return pd->kind == PEND_INTERCEPT && pd->n_queue > 0 && pd->asked && !pd->tie;
}

/* Takes back the last move in the game, the record and the undo stack.
 * *view gets the mind saved before it; false when no view was saved (a
 * move made before a restart, or completing a card laid before one). */
static bool
take_back_move (EngInterpreter *it, Mind *view)
{
  bool saved = false;
  it->memo_version++;
  if (it->memo->len > 0)
    {
      *view = g_array_index (it->memo, Mind, it->memo->len - 1);
      g_array_set_size (it->memo, it->memo->len - 1);
      saved = !view->no_view;
    }
  else if (it->n_unsaved > 0)
    it->n_unsaved--;
  if (it->record->n_moves > 0)
    it->record->n_moves--;
  return saved;
}

static void
undo (EngInterpreter *it, EngEvents *out)
{
  if (it->record->n_moves == 0 || eng_game_undo (it->game) != ENG_OK)
    {
      say (out, ENG_EVENT_NOTE, -1, "", ENG_N_ ("Nothing to undo"));
      return;
    }
  Mind view;
  bool saved = take_back_move (it, &view);
  it->n_complaints = 0;
  say (out, ENG_EVENT_NOTE, -1, "", ENG_N_ ("Undone: the last move is forgotten"));
  if (saved)
    {
      it->mind = view;
      it->restoring = true;
      say (out, ENG_EVENT_NEED, -1, "", ENG_N_ ("Put the table back as it was before that move"));
      return;
    }
  /* no view saved for it: the table must show what the rules' state says,
   * checked like the baseline of a resumed game */
  memset (&it->mind, 0, sizeof it->mind);
  it->started = false;
  it->restoring = false;
  it->undo_baseline = true;
  it->setup_need[0] = '\0';
  say (out, ENG_EVENT_NEED, -1, "", ENG_N_ ("Put the table back as it was before that move"));
  take_baseline (it, out);
}

static EngStatus
run_command (EngInterpreter *it, const char *id, EngEvents *out)
{
  const KatState *s = kstate (it);
  Pending *pd = &it->mind.pend;
  EngMove mv;
  if (strcmp (id, "undo") == 0)
    {
      undo (it, out);
      return ENG_OK;
    }
  if (strcmp (id, "pause") == 0)
    {
      it->paused = !it->paused;
      say (out, ENG_EVENT_NOTE, -1, "",
           it->paused ? ENG_N_ ("Referee paused") : ENG_N_ ("Referee resumed"));
      return ENG_OK;
    }
  if (strcmp (id, "new-game") == 0)
    return ENG_ERR_NOT_SUPPORTED;
  if (!it->started)
    {
      say (out, ENG_EVENT_NOTE, -1, "table", ENG_N_ ("The referee has not seen the table yet"));
      return ENG_OK;
    }
  restored_by_last_look (it, out);
  if (it->restoring)
    {
      say (out, ENG_EVENT_NOTE, -1, "table", ENG_N_ ("First put the table back as it was"));
      return ENG_OK;
    }
  if (strcmp (id, "confirm") == 0 || strcmp (id, "cancel") == 0)
    {
      bool yes = id[1] == 'o';
      if (pd->kind == PEND_INTERCEPT && pd->tie && pd->asked)
        {
          if (!yes)
            {
              uint16_t t = pd->queue[0];
              pd->queue[0] = pd->queue[1];
              pd->queue[1] = t;
            }
          pd->tie = false;
          pd->asked = false;
          settle_intercepts (it, out);
          return ENG_OK;
        }
      if (whose_asked (it))
        {
          if (yes)
            {
              resolve_intercept (it, pd->named, out);
              settle_intercepts (it, out);
            }
          else
            {
              int cand[KAT_MAX_PLAYERS];
              size_t n = hook_candidates (it, cand);
              size_t i = 0;
              while (i < n && cand[i] != pd->named)
                i++;
              if (n > 0)
                pd->named = (int8_t) cand[(i + 1) % n];
              ask_whose (it, out);
            }
          return ENG_OK;
        }
      if (!yes && pd->kind == PEND_NONE && it->mind.n_to_discard > 0)
        {
          /* the discard count starts again from what the pile shows next */
          Mind *m = &it->mind;
          for (int i = 0; i < m->n_to_discard; i++)
            {
              const LiveItem *d = &m->to_discard[i];
              if (d->kind == 'F' && d->serial < LIVE_SERIALS)
                m->discarded[d->serial / 8] &= (uint8_t) ~(1u << (d->serial % 8));
              view_remove_at (m, view_find (m, d->kind, d->serial, d->track));
            }
          m->n_to_discard = 0;
          say (out, ENG_EVENT_NEED, s->active, "K3",
               ENG_N_ ("%s: the cards to discard are counted again from the pile; show discard "
                       "when they are all there"), pname (it, s->active));
          return ENG_OK;
        }
      if (!yes && pd->kind != PEND_NONE)
        {
          char name[48];
          face_name_the (it, pd->card, name, sizeof name);
          expect_face_leaves (it, pd->card, ENG_N_ ("Take %s back into your hand"), name);
          pd->kind = PEND_NONE;
          say (out, ENG_EVENT_NEED, -1, "",
               ENG_N_ ("Cancelled: take %s back into your hand"), name);
          return ENG_OK;
        }
      say (out, ENG_EVENT_NOTE, -1, "",
           strcmp (id, "confirm") == 0 ? ENG_N_ ("Nothing to confirm")
                                       : ENG_N_ ("Nothing to cancel"));
      return ENG_OK;
    }
  if (strcmp (id, "no-defence") == 0)
    {
      /* K10 option (xray_teleporter_answerable): the table has already done
       * the held card's second step (the swap, the flip) when the move was
       * read; `no-defence` is the answering rival letting it act.  Without
       * this the game could not go on.  Found by test-live-random (script
       * katua-2p-answerable). */
      if (s->phase == KAT_PHASE_ANSWER && pd->kind == PEND_NONE)
        {
          move_for (&mv, KAT_HIT, s->answer_player);
          if (s->answer_verb == KAT_XRAY && s->answer_p[0] >= 0 && s->answer_s[0] >= 0)
            {
              int vi = view_find_at (&it->mind, zone_make (ENG_ZONE_SLOT,
                                                           seat_of (it, s->answer_p[0]),
                                                           s->answer_s[0]));
              if (vi >= 0 && it->mind.view[vi].kind == 'F')
                mv.show = it->mind.view[vi].serial;
            }
          try_apply (it, &mv, NULL, out);
          return ENG_OK;
        }
      if (s->phase != KAT_PHASE_ATTACK)
        {
          say (out, ENG_EVENT_ILLEGAL, -1, "K6",
               ENG_N_ ("There is no abduction attempt to let through"));
          return ENG_OK;
        }
      int d = s->att[0].player;
      if (!s->face_up[d][s->att[0].slot])
        {
          say (out, ENG_EVENT_NEED, d, "K11", ENG_N_ ("%s: turn your cat in slot %d face up"),
               pname (it, d), s->att[0].slot + 1);
          return ENG_OK;
        }
      move_for (&mv, KAT_HIT, d);
      try_apply (it, &mv, NULL, out);
      return ENG_OK;
    }
  if (strcmp (id, "end-turn") == 0 || strcmp (id, "pass") == 0 || strcmp (id, "discard") == 0)
    {
      if (expectations_block (it, out))
        return ENG_OK;
      if (pd->kind != PEND_NONE)
        {
          say (out, ENG_EVENT_NOTE, -1, "table",
               ENG_N_ ("First finish the card in play (or cancel it)"));
          return ENG_OK;
        }
      int verb = id[0] == 'e' ? KAT_END : id[0] == 'p' ? KAT_PASS : KAT_DISCARD;
      move_for (&mv, verb, s->active);
      if (verb == KAT_DISCARD)
        {
          Mind *m = &it->mind;
          if (m->n_to_discard == 0)
            {
              say (out, ENG_EVENT_NEED, s->active, "K3", ENG_N_ ("%s: put the cards to discard on "
                           "the discard pile first"), pname (it, s->active));
              return ENG_OK;
            }
          for (int i = 0; i < m->n_to_discard; i++)
            {
              uint16_t serial = m->to_discard[i].kind == 'F' ? m->to_discard[i].serial
                                                             : ENG_SERIAL_UNKNOWN;
              if (i == 0)
                mv.card = serial;
              else
                mv.cards[mv.n_cards++] = serial;
            }
        }
      else if (it->mind.n_to_discard > 0)
        {
          say (out, ENG_EVENT_NOTE, s->active, "K3", ENG_N_ ("Cards lie on the discard pile: show "
                       "discard to discard them, or take them back"));
          return ENG_OK;
        }
      Mind before = it->mind;
      it->mind.n_to_discard = 0;
      if (!try_apply (it, &mv, NULL, out))
        it->mind = before;
      else
        g_array_index (it->memo, Mind, it->memo->len - 1) = before;
      it->memo_version++;
      return ENG_OK;
    }
  return ENG_ERR_NOT_FOUND;
}

EngStatus
eng_interpreter_command (EngInterpreter *interp, const char *command_id, EngEvents *out)
{
  if (interp == NULL || command_id == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (eng_card_set_find_command (interp->set, command_id) == NULL)
    return ENG_ERR_NOT_FOUND;
  EngStatus st = run_command (interp, command_id, out);
  journal_sync (interp);
  return st;
}

EngStatus
eng_interpreter_choose_player (EngInterpreter *interp, int player, EngEvents *out)
{
  if (interp == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  const KatState *s = kstate (interp);
  Pending *pd = &interp->mind.pend;
  if (pd->kind != PEND_INTERCEPT || pd->n_queue == 0)
    return ENG_ERR_STATE;
  if (player < 0 || player >= s->n_players)
    return ENG_ERR_INVALID_ARGUMENT;
  if (pd->tie)
    {
      say (out, ENG_EVENT_NOTE, -1, "K12",
           ENG_N_ ("First say which UFO came first (confirm or cancel)"));
      return ENG_ERR_STATE;
    }
  resolve_intercept (interp, player, out);
  settle_intercepts (interp, out);
  journal_sync (interp);
  return ENG_OK;
}

size_t
eng_interpreter_choice (const EngInterpreter *interp, int *players, size_t max)
{
  if (interp == NULL || !whose_asked (interp))
    return 0;
  int cand[KAT_MAX_PLAYERS];
  size_t n = hook_candidates (interp, cand);
  size_t first = 0;
  while (first < n && cand[first] != interp->mind.pend.named)
    first++;
  if (first == n)
    first = 0;
  size_t k = 0;
  for (size_t i = 0; i < n && k < max && players != NULL; i++)
    players[k++] = cand[(first + i) % n];
  return k;
}

/* ---- corrections of misreads ------------------------------------------- */

static bool
move_uses (const EngMove *mv, uint16_t serial)
{
  if (mv->card == serial || mv->show == serial)
    return true;
  for (unsigned i = 0; i < mv->n_cards && i < ENG_MOVE_MAX_CARDS; i++)
    if (mv->cards[i] == serial)
      return true;
  return false;
}

/* The referee took `from` for the card that is `to`: renames it in a mind. */
static void
rename_in_mind (Mind *m, uint16_t from, uint16_t to)
{
  for (int i = 0; i < m->n_view; i++)
    if (m->view[i].kind == 'F' && m->view[i].serial == from)
      m->view[i].serial = to;
  for (int i = 0; i < m->n_to_discard; i++)
    if (m->to_discard[i].kind == 'F' && m->to_discard[i].serial == from)
      m->to_discard[i].serial = to;
  for (int i = 0; i < m->n_expect; i++)
    if (m->expect[i].serial == from && (m->expect[i].kind != EXP_LEAVE
                                        || m->expect[i].item_kind == 'F'))
      m->expect[i].serial = to;
  Pending *pd = &m->pend;
  if (pd->card == from)
    pd->card = to;
  if (pd->move.card == from)
    pd->move.card = to;
  if (pd->move.show == from)
    pd->move.show = to;
  for (int i = 0; i < pd->n_queue; i++)
    if (pd->queue[i] == from)
      pd->queue[i] = to;
  if (was_discarded (m, from))
    {
      m->discarded[from / 8] &= (uint8_t) ~(1u << (from % 8));
      mark_discarded (m, to);
    }
}

static EngStatus
face_of_payload (const EngInterpreter *it, const char *payload, uint16_t *serial)
{
  EngTag tag;
  EngTagMeaning meaning;
  size_t len = strnlen (payload, ENG_TAG_PAYLOAD_LEN + 1);
  if (len != ENG_TAG_PAYLOAD_LEN || eng_tag_parse (payload, len, &tag) != ENG_OK
      || eng_card_set_resolve (it->set, &tag, &meaning) != ENG_OK)
    return ENG_ERR_NOT_FOUND;
  if (tag.kind != ENG_TAG_FACE)
    return ENG_ERR_INVALID_ARGUMENT;
  if (tag.serial >= LIVE_SERIALS)
    return ENG_ERR_NOT_FOUND;
  *serial = tag.serial;
  return ENG_OK;
}

EngStatus
eng_interpreter_correct_card (EngInterpreter *interp, const char *seen_payload,
                              const char *actual_payload, EngEvents *out)
{
  if (interp == NULL || seen_payload == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  EngInterpreter *it = interp;
  uint16_t seen, actual;
  EngStatus st = face_of_payload (it, seen_payload, &seen);
  if (st != ENG_OK)
    return st;
  actual = seen;
  if (actual_payload != NULL && (st = face_of_payload (it, actual_payload, &actual)) != ENG_OK)
    return st;
  if (card_info (it, seen)->deck != card_info (it, actual)->deck)
    return ENG_ERR_INVALID_ARGUMENT;
  bool removing = actual == seen;
  size_t ci = 0;
  while (ci < it->n_corr && it->corr[ci].seen != seen)
    ci++;
  if (!removing && ci == it->n_corr && it->n_corr >= ENG_RECORD_MAX_CORRECTIONS)
    return ENG_ERR_LIMIT;
  /* the identity the referee gave the card so far, and the one it has */
  uint16_t was = ci < it->n_corr ? it->corr[ci].actual : seen;
  if (was == actual)
    {
      say (out, ENG_EVENT_NOTE, -1, "",
           ENG_N_ ("Nothing to correct: the referee already reads it so"));
      return ENG_OK;
    }
  st = eng_record_set_correction (it->record, seen_payload, removing ? NULL : actual_payload);
  if (st != ENG_OK)
    return st;
  if (removing)
    {
      memmove (&it->corr[ci], &it->corr[ci + 1], (it->n_corr - ci - 1) * sizeof it->corr[0]);
      it->n_corr--;
    }
  else
    {
      if (ci == it->n_corr)
        {
          it->n_corr++;
          it->corr[ci].seen = seen;
          memcpy (it->corr[ci].seen_payload, seen_payload, ENG_TAG_PAYLOAD_LEN);
          it->corr[ci].seen_payload[ENG_TAG_PAYLOAD_LEN] = '\0';
        }
      it->corr[ci].actual = actual;
      memcpy (it->corr[ci].actual_payload, actual_payload, ENG_TAG_PAYLOAD_LEN);
      it->corr[ci].actual_payload[ENG_TAG_PAYLOAD_LEN] = '\0';
    }
  /* K20: the card is named only when its face is up (the referee saw it
   * so, or the table shows it) */
  bool named = view_find (&it->mind, 'F', was, 0) >= 0;
  /* the moves that used the misread identity are taken back, from the
   * first of them, when a view was saved for each (not before a restart) */
  const EngRecord *rec = it->record;
  size_t first = rec->n_moves;
  bool before_restart = false;
  for (size_t j = 0; j < rec->n_moves && first == rec->n_moves; j++)
    if (move_uses (&rec->moves[j].move, was))
      {
        if (j < it->n_unsaved)
          before_restart = true;
        else
          first = j;
      }
  for (size_t j = first; j < rec->n_moves && !before_restart; j++)
    if (g_array_index (it->memo, Mind, j - it->n_unsaved).no_view)
      before_restart = true;
  size_t n_back = 0;
  char again[64] = "";
  if (it->started && !it->restoring && !before_restart)
    while (rec->n_moves > first && eng_game_undo (it->game) == ENG_OK)
      {
        const EngMove *mv = &rec->moves[rec->n_moves - 1].move;
        if (mv->verb == KAT_END || mv->verb == KAT_PASS || mv->verb == KAT_DISCARD)
          snprintf (again, sizeof again, "%s", mv->verb == KAT_END ? "end-turn"
                    : mv->verb == KAT_PASS ? "pass" : "discard");
        take_back_move (it, &it->mind);
        n_back++;
      }
  if (n_back > 0)
    it->pend_start_known = false;
  /* from now on the referee knows the card for what it is */
  rename_in_mind (&it->mind, was, actual);
  rename_in_mind (&it->pend_start, was, actual);
  for (guint j = 0; j < it->memo->len; j++)
    rename_in_mind (&g_array_index (it->memo, Mind, j), was, actual);
  it->memo_version++;
  for (int i = 0; i < it->n_cur; i++)
    if (it->cur[i].kind == 'F')
      it->cur[i].serial = corrected (it, it->cur_read[i]);
  it->n_complaints = 0;
  /* K20: the card is named only when its face is up on the table */
  char what[128];
  if (named || face_visible (it, actual))
    {
      char now[48], before[48];
      face_name_the (it, actual, now, sizeof now);
      face_name_the (it, was, before, sizeof before);
      snprintf (what, sizeof what, ENG_ ("the card read as %s is %s"), before, now);
    }
  else
    snprintf (what, sizeof what, "%s", ENG_ ("a card was misread"));
  if (n_back > 0)
    {
      /* the command to show again keeps its id: it names a command card */
      char show[96] = "";
      if (again[0] != '\0')
        snprintf (show, sizeof show, ENG_ ("; show again: %s"), again);
      char text[sizeof ((EngEvent *) NULL)->text];
      snprintf (text, sizeof text,
                ENG_NG_ ("Corrected: %s; %zu move taken back and the table read again%s",
                         "Corrected: %s; %zu moves taken back and the table read again%s", n_back),
                what, n_back, show);
      say (out, ENG_EVENT_NOTE, -1, "", "%s", text);
    }
  else if (before_restart || first < rec->n_moves)
    say (out, ENG_EVENT_NOTE, -1, "",
         ENG_N_ ("Corrected from now on: %s; the moves already made keep what was read"), what);
  else
    say (out, ENG_EVENT_NOTE, -1, "", ENG_N_ ("Corrected: %s; no move used it"), what);
  if (it->started)
    read_table (it, out);
  journal_sync (it);
  return ENG_OK;
}

size_t
eng_interpreter_n_corrections (const EngInterpreter *interp)
{
  return interp ? interp->n_corr : 0;
}

bool
eng_interpreter_correction (const EngInterpreter *interp, size_t index,
                            const char **seen_payload, const char **actual_payload)
{
  if (interp == NULL || index >= interp->n_corr)
    return false;
  if (seen_payload != NULL)
    *seen_payload = interp->corr[index].seen_payload;
  if (actual_payload != NULL)
    *actual_payload = interp->corr[index].actual_payload;
  return true;
}

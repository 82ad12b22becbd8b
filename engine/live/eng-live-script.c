/* eng-live-script.c: snapshot scripts, parsed then run through the
 * interpreter (docs/snapshot-script-format.md). */
#include "eng-live-script.h"

#include "eng-data.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-record.h"
#include "eng-replay.h"
#include "eng-live.h"
#include "eng-name.h"
#include "eng-view.h"

#include <glib.h>

#define SCRIPT_MAX_OPS 4096
#define SCRIPT_MAX_TABLE 160
#define SCRIPT_STEP_EVENTS 256
#define SCRIPT_TEXT 200
#define SCRIPT_WORDS 48

typedef enum {
  OP_PUT, OP_FLIP, OP_MOVE, OP_REMOVE, OP_DEAL, OP_COMMAND, OP_KEY, OP_CHOOSE, OP_SNAP,
  OP_EXPECT, OP_MISREAD, OP_CORRECT, OP_RESTART
} OpKind;

typedef enum {
  EX_MOVE, EX_NEED, EX_SAY, EX_ILLEGAL, EX_NOTE, EX_QUIET, EX_SCORE, EX_TURN, EX_WINNER,
  EX_OVER, EX_TODO, EX_MOVES, EX_CHOICE
} ExpectKind;

typedef struct {
  unsigned line;
  uint8_t op;          /* OpKind */
  uint8_t ex;          /* ExpectKind for OP_EXPECT */
  uint16_t cards[ENG_LIVE_SCRIPT_MAX_CARDS];
  uint8_t n_cards;
  bool face;
  EngZone zone;
  int player;
  int number;
  uint16_t winners;
  uint8_t event_kind;
  char text[SCRIPT_TEXT];
} Op;

struct EngLiveScript {
  char source[256];
  const EngGameClass *game;   /* the `game` line's, else the registry's first */
  EngSetup setup;
  EngOptions options;
  Op *ops;
  size_t n_ops;
};

/* ---- parsing ------------------------------------------------------------ */

typedef struct {
  char *words[SCRIPT_WORDS];
  bool quoted[SCRIPT_WORDS]; /* written in quotes: a name ("Mari Carmen") */
  int n;
} Words;

/* The closing quote of a quoted name at p ("Mari Carmen"), one a blank or
 * the line's end follows; NULL when p starts no such name. */
static char *
closing_quote (char *p)
{
  char *close = p[0] == '"' ? strchr (p + 1, '"') : NULL;
  if (close == NULL || close == p + 1)
    return NULL;
  return strchr (" \t\r#", close[1]) != NULL ? close : NULL;
}

/* Splits `line` (modified) into words; '#' at a word's start begins a
 * comment; a quoted name is one word, without its quotes.  Returns false
 * when there are too many words. */
static bool
split (char *line, Words *w)
{
  w->n = 0;
  char *p = line;
  for (;;)
    {
      while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
      if (*p == '\0' || *p == '#')
        {
          *p = '\0';
          return true;
        }
      if (w->n >= SCRIPT_WORDS)
        return false;
      char *close = closing_quote (p);
      w->quoted[w->n] = close != NULL;
      if (close != NULL)
        {
          w->words[w->n++] = p + 1;
          *close = '\0';
          p = close + 1;
          continue;
        }
      w->words[w->n++] = p;
      while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r')
        p++;
      if (*p == '\0')
        return true;
      *p++ = '\0';
    }
}

static bool
parse_int (const char *s, long lo, long hi, long *out)
{
  char *end;
  errno = 0;
  long v = strtol (s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}

static int
player_by_name (const EngSetup *su, const char *name)
{
  for (unsigned p = 0; p < su->n_players; p++)
    if (strcmp (su->names[p], name) == 0)
      return (int) p;
  return -1;
}

/* A seat: a 0-based number or a player's name (that player's seat). */
static bool
parse_seat (const EngSetup *su, const char *s, int *seat)
{
  long v;
  if (parse_int (s, 0, ENG_MAX_PLAYERS - 1, &v))
    {
      *seat = (int) v;
      return true;
    }
  int p = player_by_name (su, s);
  if (p < 0)
    return false;
  *seat = su->seats[p] ? su->seats[p] - 1 : p;
  return true;
}

/* How many slots a seat has in the script's game (its live class), which
 * is also how many cards `deal` lays. */
static int
slots_of (const EngLiveScript *sc)
{
  const EngLiveClass *live = eng_live_class_find (sc->game->name);
  int n = live != NULL && live->n_slots > 0 ? live->n_slots : ENG_LIVE_SCRIPT_MAX_INDEX;
  return MIN (n, ENG_LIVE_SCRIPT_MAX_CARDS);
}

/* A deck of the script's game: its number in the set (1-based, as its
 * back sticker counts it) or its id, read from the game's bundled set;
 * the 0-based index, -1 when the set has no such deck. */
static int
deck_of_word (const EngLiveScript *sc, const char *word)
{
  long n;
  if (parse_int (word, 1, 99, &n))
    return (int) n - 1;
  char rel[96];
  snprintf (rel, sizeof rel, "cards/%s.set", sc->game->name);
  char *path = eng_data_path (rel);
  EngCardSet *set = NULL;
  size_t index = 0;
  bool found = path != NULL && eng_card_set_load_file (path, &set, NULL) == ENG_OK
               && eng_card_set_find_deck (set, word, &index) == ENG_OK;
  eng_card_set_free (set);
  free (path);
  return found && index < 99 ? (int) index : -1;
}

static bool
parse_card (const char *s, uint16_t *out)
{
  long v;
  if (!parse_int (s, 1, 999, &v))
    return false;
  *out = (uint16_t) v;
  return true;
}

static const char *const event_kinds[] = {
  "accepted", "illegal", "need", "shown", "capture", "escape", "score", "refill",
  "reshuffle", "return", "turn", "game-over", "conservation", "note"
};

/* One line being parsed: the script it adds to, its words, the statement
 * it becomes and where the reason goes when it is refused. */
typedef struct Keyword Keyword;
typedef struct {
  EngLiveScript *sc;
  const Words *w;
  Op *op;
  const Keyword *kw;   /* the keyword (or expectation) being parsed */
  char *why;
  size_t size;
} Line;

/* A handler returns ENG_OK for a statement, HEADER_LINE for a line that
 * sets the script up and adds no statement, or ENG_ERR_SYNTAX with why. */
#define HEADER_LINE ENG_ERR_NOT_FOUND
typedef EngStatus (*LineFn) (Line *l);

/* A keyword's word count (the keyword itself included) outside
 * [min_words, max_words] is refused with `usage`; a keyword whose count
 * depends on the game or the players has no usage and checks it itself. */
struct Keyword {
  const char *name;
  int min_words, max_words;
  const char *usage;
  bool header;     /* may come before `players` */
  uint8_t op;      /* the OpKind the line becomes */
  LineFn parse;    /* NULL: the words are all there is */
};

#define ANY_WORDS 1, INT_MAX, NULL

static EngStatus refuse (Line *l, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

static EngStatus
refuse (Line *l, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (l->why, l->size, fmt, ap);
  va_end (ap);
  return ENG_ERR_SYNTAX;
}

static EngStatus
usage (Line *l)
{
  return refuse (l, "%s", l->kw->usage);
}

static const Keyword *
find_keyword (const Keyword *table, size_t n, const char *word)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp (table[i].name, word) == 0)
      return &table[i];
  return NULL;
}

static EngStatus
dispatch (Line *l, const Keyword *kw)
{
  l->kw = kw;
  if (l->w->n < kw->min_words || l->w->n > kw->max_words)
    return usage (l);
  return kw->parse != NULL ? kw->parse (l) : ENG_OK;
}

/* words[from..] glued back with single spaces (they were split in place);
 * `requote`: quoted names in their quotes again, for a record line */
static void
glue_words (const Words *w, int from, bool requote, char *out, size_t size)
{
  size_t l = 0;
  out[0] = '\0';
  for (int i = from; i < w->n && l < size; i++)
    l += (size_t) snprintf (out + l, size - l, requote && w->quoted[i] ? "%s\"%s\"" : "%s%s",
                            i > from ? " " : "", w->words[i]);
}

/* ---- zones: one reader per zone word ---- */

/* A zone word's reader: the zone at words[at..] (its word first) into *z;
 * the number of words it used, 0 when refused (why says it). */
typedef struct ZoneWord ZoneWord;
typedef int (*ZoneFn) (Line *l, const ZoneWord *zw, int at, EngZone *z);

struct ZoneWord {
  const char *name;
  EngZoneKind kind;
  ZoneFn parse;
};

/* slot|attack SEAT INDEX */
static int
zone_seat_index (Line *l, const ZoneWord *zw, int at, EngZone *z)
{
  const Words *w = l->w;
  int seat;
  long idx;
  if (at + 2 >= w->n)
    return refuse (l, "'%s' takes SEAT INDEX", zw->name), 0;
  if (!parse_seat (&l->sc->setup, w->words[at + 1], &seat))
    return refuse (l, "'%s' is not a seat (0-%d) or a player", w->words[at + 1],
                   ENG_MAX_PLAYERS - 1), 0;
  int n = slots_of (l->sc);
  if (!parse_int (w->words[at + 2], 0, n - 1, &idx))
    return refuse (l, "'%s' is not a slot index (0-%d)", w->words[at + 2], n - 1), 0;
  *z = (EngZone) { (uint8_t) zw->kind, (int8_t) seat, (int8_t) idx };
  return 3;
}

/* capture|play SEAT */
static int
zone_seat (Line *l, const ZoneWord *zw, int at, EngZone *z)
{
  int seat;
  if (at + 1 >= l->w->n || !parse_seat (&l->sc->setup, l->w->words[at + 1], &seat))
    return refuse (l, "'%s' takes a SEAT (0-%d or a player)", zw->name, ENG_MAX_PLAYERS - 1), 0;
  *z = (EngZone) { (uint8_t) zw->kind, (int8_t) seat, -1 };
  return 2;
}

/* discard: the snapshot contract's pile 1 */
static int
zone_discard (Line *l, const ZoneWord *zw, int at, EngZone *z)
{
  (void) l, (void) zw, (void) at;
  *z = (EngZone) { ENG_ZONE_DISCARD, -1, 1 };
  return 1;
}

/* table: outside every zone */
static int
zone_table (Line *l, const ZoneWord *zw, int at, EngZone *z)
{
  (void) l, (void) zw, (void) at;
  *z = (EngZone) { ENG_ZONE_NONE, -1, -1 };
  return 1;
}

/* deck DECK */
static int
zone_deck (Line *l, const ZoneWord *zw, int at, EngZone *z)
{
  (void) zw;
  int deck = at + 1 < l->w->n ? deck_of_word (l->sc, l->w->words[at + 1]) : -1;
  if (deck < 0)
    return refuse (l, "'deck' takes one of the card set's decks: its number (1 the first) or "
                   "its id"), 0;
  *z = (EngZone) { ENG_ZONE_DECK, -1, (int8_t) deck };
  return 2;
}

/* centre INDEX: as many places as the game's centre has (its live class) */
static int
zone_centre (Line *l, const ZoneWord *zw, int at, EngZone *z)
{
  (void) zw;
  const EngLiveClass *live = eng_live_class_find (l->sc->game->name);
  int places = live != NULL && live->n_centre > 0 ? live->n_centre : ENG_LIVE_SCRIPT_MAX_INDEX;
  long idx;
  if (at + 1 >= l->w->n || !parse_int (l->w->words[at + 1], 0, places - 1, &idx))
    return refuse (l, "'centre' takes an INDEX (0-%d)", places - 1), 0;
  *z = (EngZone) { ENG_ZONE_CENTRE, -1, (int8_t) idx };
  return 2;
}

static const ZoneWord zone_words[] = {
  { "slot", ENG_ZONE_SLOT, zone_seat_index },
  { "attack", ENG_ZONE_ATTACK, zone_seat_index },
  { "capture", ENG_ZONE_CAPTURE, zone_seat },
  { "play", ENG_ZONE_PLAY, zone_seat },
  { "discard", ENG_ZONE_DISCARD, zone_discard },
  { "deck", ENG_ZONE_DECK, zone_deck },
  { "table", ENG_ZONE_NONE, zone_table },
  { "centre", ENG_ZONE_CENTRE, zone_centre },
};

/* ZONE at words[at..]: the number of words it used, 0 when refused. */
static int
parse_zone (Line *l, int at, EngZone *z)
{
  if (at >= l->w->n)
    return refuse (l, "a zone is missing (slot, attack, capture, play, discard, deck, table)"), 0;
  const char *k = l->w->words[at];
  for (size_t i = 0; i < G_N_ELEMENTS (zone_words); i++)
    if (strcmp (k, zone_words[i].name) == 0)
      return zone_words[i].parse (l, &zone_words[i], at, z);
  return refuse (l, "unknown zone '%s' (slot, attack, capture, play, discard, deck, centre, "
                 "table)", k), 0;
}

/* The zone at words[at..], which must end the line. */
static EngStatus
zone_ends_line (Line *l, int at)
{
  int used = parse_zone (l, at, &l->op->zone);
  if (used == 0)
    return ENG_ERR_SYNTAX;
  if (at + used != l->w->n)
    return refuse (l, "unexpected '%s' after the zone", l->w->words[at + used]);
  return ENG_OK;
}

/* ---- the header: game, players, first, seats, option ---- */

static EngStatus
parse_game (Line *l)
{
  if (l->sc->setup.n_players != 0)
    return usage (l);
  l->sc->game = eng_game_class_find (l->w->words[1]);
  if (l->sc->game == NULL)
    return refuse (l, "no game '%.20s' (see tablero-cli --help)", l->w->words[1]);
  return HEADER_LINE;
}

static EngStatus
parse_players (Line *l)
{
  const Words *w = l->w;
  EngSetup *su = &l->sc->setup;
  unsigned lo = l->sc->game->min_players, hi = MIN (l->sc->game->max_players, ENG_MAX_PLAYERS);
  if (su->n_players != 0)
    return refuse (l, "players given twice");
  if ((unsigned) w->n < 1 + lo || (unsigned) w->n > 1 + hi)
    return refuse (l, "'players' takes %u to %u names", lo, hi);
  for (int i = 1; i < w->n; i++)
    {
      EngNameCheck check = eng_name_check (w->words[i], strlen (w->words[i]));
      if (check != ENG_NAME_OK)
        {
          g_autofree char *shown = g_strescape (w->words[i], NULL);
          return refuse (l, "bad player name '%.40s': %s", shown,
                         eng_name_check_to_string (check));
        }
      for (unsigned q = 0; q < su->n_players; q++)
        if (eng_names_same (su->names[q], w->words[i]))
          return refuse (l, "player '%s' named twice", w->words[i]);
      snprintf (su->names[su->n_players], ENG_NAME_MAX, "%s", w->words[i]);
      su->n_players++;
    }
  return HEADER_LINE;
}

static EngStatus
parse_first (Line *l)
{
  int p = player_by_name (&l->sc->setup, l->w->words[1]);
  if (p < 0)
    return usage (l);
  l->sc->setup.first = p;
  return HEADER_LINE;
}

static EngStatus
parse_seats (Line *l)
{
  const Words *w = l->w;
  EngSetup *su = &l->sc->setup;
  long v;
  if (w->n != 1 + (int) su->n_players)
    return refuse (l, "'seats' takes one seat marker number (1-%d) per player", ENG_MAX_PLAYERS);
  for (int i = 1; i < w->n; i++)
    {
      if (!parse_int (w->words[i], 1, ENG_MAX_PLAYERS, &v))
        return refuse (l, "'%.20s' is not a seat marker number (1-%d)", w->words[i],
                       ENG_MAX_PLAYERS);
      for (int j = 1; j < i; j++)
        if (su->seats[j - 1] == v)
          return refuse (l, "seat %ld given twice", v);
      su->seats[i - 1] = (uint8_t) v;
    }
  return HEADER_LINE;
}

static EngStatus
parse_option (Line *l)
{
  if (eng_options_set (&l->sc->options, l->w->words[1], l->w->words[2]) != ENG_OK)
    return refuse (l, "option does not fit");
  return HEADER_LINE;
}

/* ---- what the table does ---- */

static EngStatus
parse_put (Line *l)
{
  const Words *w = l->w;
  if (!parse_card (w->words[1], &l->op->cards[0]))
    return usage (l);
  if (strcmp (w->words[2], "face") != 0 && strcmp (w->words[2], "back") != 0)
    return refuse (l, "'put' takes face or back, not '%s'", w->words[2]);
  l->op->face = w->words[2][0] == 'f';
  return zone_ends_line (l, 3);
}

static EngStatus
parse_move (Line *l)
{
  if (!parse_card (l->w->words[1], &l->op->cards[0]))
    return usage (l);
  return zone_ends_line (l, 2);
}

/* flip, remove: one card */
static EngStatus
parse_one_card (Line *l)
{
  return parse_card (l->w->words[1], &l->op->cards[0]) ? ENG_OK : usage (l);
}

static EngStatus
parse_deal (Line *l)
{
  const Words *w = l->w;
  Op *op = l->op;
  int seat;
  const EngLiveClass *live = eng_live_class_find (l->sc->game->name);
  int n = slots_of (l->sc);
  if (w->n != 2 + n || !parse_seat (&l->sc->setup, w->words[1], &seat))
    return refuse (l, "'deal' takes SEAT and %d %s serials", n,
                   live != NULL && live->slot_noun != NULL ? live->slot_noun : "card");
  op->zone = (EngZone) { ENG_ZONE_SLOT, (int8_t) seat, 0 };
  for (int i = 0; i < n; i++)
    if (!parse_card (w->words[2 + i], &op->cards[i]))
      return refuse (l, "'%s' is not a card serial", w->words[2 + i]);
  op->n_cards = (uint8_t) n;
  return ENG_OK;
}

/* command, key: one command id, checked against the set when the script runs */
static EngStatus
parse_command (Line *l)
{
  snprintf (l->op->text, sizeof l->op->text, "%s", l->w->words[1]);
  return ENG_OK;
}

/* The player named by words[i]; a name that is no player's is refused. */
static EngStatus
player_word (Line *l, int i)
{
  l->op->player = player_by_name (&l->sc->setup, l->w->words[i]);
  return l->op->player < 0 ? usage (l) : ENG_OK;
}

static EngStatus
parse_choose (Line *l)
{
  return player_word (l, 1);
}

/* misread CARD AS|none: the camera reads CARD's face as AS's;
 * correct SEEN ACTUAL|none: eng_interpreter_correct_card */
static EngStatus
parse_card_pair (Line *l)
{
  const Words *w = l->w;
  bool none = strcmp (w->words[2], "none") == 0;
  if (!parse_card (w->words[1], &l->op->cards[0])
      || (!none && !parse_card (w->words[2], &l->op->cards[1])))
    return usage (l);
  return ENG_OK;
}

/* restart [after SECONDS]: the referee was away that long, and the table
 * may have played on meanwhile (docs/interpreter.md) */
static EngStatus
parse_restart (Line *l)
{
  const Words *w = l->w;
  l->op->number = 0;
  char *end = NULL;
  double secs = w->n == 3 ? strtod (w->words[2], &end) : 0;
  if (w->n == 3 && strcmp (w->words[1], "after") == 0 && end != w->words[2] && *end == '\0'
      && secs > 0 && secs <= 3600)
    l->op->number = (int) (secs * 1000);
  else if (w->n != 1)
    return usage (l);
  return ENG_OK;
}

/* ---- expect lines ---- */

/* expect move|need TEXT... (a move is a record line: its quoted names keep
 * their quotes) */
static EngStatus
parse_expect_text (Line *l)
{
  glue_words (l->w, 2, strcmp (l->w->words[1], "move") == 0, l->op->text, sizeof l->op->text);
  return ENG_OK;
}

/* expect say KIND TEXT... */
static EngStatus
parse_expect_say (Line *l)
{
  size_t i;
  for (i = 0; i < G_N_ELEMENTS (event_kinds); i++)
    if (strcmp (event_kinds[i], l->w->words[2]) == 0)
      break;
  if (i == G_N_ELEMENTS (event_kinds))
    return refuse (l, "unknown event kind '%.20s'", l->w->words[2]);
  l->op->event_kind = (uint8_t) i;
  glue_words (l->w, 3, false, l->op->text, sizeof l->op->text);
  return ENG_OK;
}

/* expect illegal|note RULE */
static EngStatus
parse_expect_rule (Line *l)
{
  if (strlen (l->w->words[2]) >= 8)
    return usage (l);
  snprintf (l->op->text, sizeof l->op->text, "%s", l->w->words[2]);
  return ENG_OK;
}

static EngStatus
parse_expect_score (Line *l)
{
  long v;
  if ((l->op->player = player_by_name (&l->sc->setup, l->w->words[2])) < 0
      || !parse_int (l->w->words[3], -99, 99, &v))
    return usage (l);
  l->op->number = (int) v;
  return ENG_OK;
}

static EngStatus
parse_expect_turn (Line *l)
{
  return player_word (l, 2);
}

static EngStatus
parse_expect_winner (Line *l)
{
  for (int i = 2; i < l->w->n; i++)
    {
      int p = player_by_name (&l->sc->setup, l->w->words[i]);
      if (p < 0)
        return refuse (l, "no player '%.20s'", l->w->words[i]);
      l->op->winners = (uint16_t) (l->op->winners | (1u << p));
    }
  return ENG_OK;
}

/* expect todo|moves COUNT */
static EngStatus
parse_expect_count (Line *l)
{
  long v;
  if (!parse_int (l->w->words[2], 0, 100000, &v))
    return usage (l);
  l->op->number = (int) v;
  return ENG_OK;
}

/* expect choice PLAYER...|none: the candidates eng_interpreter_choice
 * lists, in order (kept in cards[]) */
static EngStatus
parse_expect_choice (Line *l)
{
  const Words *w = l->w;
  if (w->n < 3 || w->n > 1 + ENG_MAX_PLAYERS)
    return refuse (l, "'expect choice' takes PLAYER... (up to %d) or none", ENG_MAX_PLAYERS - 1);
  if (w->n == 3 && strcmp (w->words[2], "none") == 0)
    return ENG_OK;
  for (int i = 2; i < w->n; i++)
    {
      int p = player_by_name (&l->sc->setup, w->words[i]);
      if (p < 0)
        return refuse (l, "no player '%.20s'", w->words[i]);
      l->op->cards[l->op->n_cards++] = (uint16_t) p;
    }
  return ENG_OK;
}

/* In ExpectKind order (an expectation's index is its kind); word counts
 * include `expect` and the expectation's name. */
static const Keyword expectations[] = {
  { "move", 3, INT_MAX, "'expect move' takes the text", false, 0, parse_expect_text },
  { "need", 3, INT_MAX, "'expect need' takes the text", false, 0, parse_expect_text },
  { "say", 4, INT_MAX, "'expect say' takes KIND TEXT", false, 0, parse_expect_say },
  { "illegal", 3, 3, "'expect illegal' takes a RULE id", false, 0, parse_expect_rule },
  { "note", 3, 3, "'expect note' takes a RULE id", false, 0, parse_expect_rule },
  { "quiet", 2, 2, "'expect quiet' takes nothing", false, 0, NULL },
  { "score", 4, 4, "'expect score' takes PLAYER POINTS", false, 0, parse_expect_score },
  { "turn", 3, 3, "'expect turn' takes PLAYER", false, 0, parse_expect_turn },
  { "winner", 3, INT_MAX, "'expect winner' takes PLAYER...", false, 0, parse_expect_winner },
  { "over", 2, 2, "'expect over' takes nothing", false, 0, NULL },
  { "todo", 3, 3, "'expect todo' takes a count", false, 0, parse_expect_count },
  { "moves", 3, 3, "'expect moves' takes a count", false, 0, parse_expect_count },
  { "choice", ANY_WORDS, false, 0, parse_expect_choice },
};
G_STATIC_ASSERT (G_N_ELEMENTS (expectations) == EX_CHOICE + 1);

static EngStatus
parse_expect (Line *l)
{
  const char *e = l->w->words[1];
  const Keyword *ex = find_keyword (expectations, G_N_ELEMENTS (expectations), e);
  if (ex == NULL)
    return refuse (l, "unknown expectation '%.20s' (move, need, say, illegal, note, quiet, score, "
                   "turn, winner, over, todo, moves, choice)", e);
  l->op->ex = (uint8_t) (ex - expectations);
  return dispatch (l, ex);
}

static const Keyword keywords[] = {
  { "game", 2, 2, "'game' takes one NAME, before 'players'", true, 0, parse_game },
  { "players", ANY_WORDS, true, 0, parse_players },
  { "first", 2, 2, "'first' takes a player's name", false, 0, parse_first },
  { "seats", ANY_WORDS, false, 0, parse_seats },
  { "option", 3, 3, "'option' takes NAME VALUE", false, 0, parse_option },
  { "put", 4, INT_MAX, "'put' takes CARD face|back ZONE (CARD a serial 1-999)", false, OP_PUT,
    parse_put },
  { "move", 3, INT_MAX, "'move' takes CARD ZONE", false, OP_MOVE, parse_move },
  { "flip", 2, 2, "'flip' takes one CARD serial", false, OP_FLIP, parse_one_card },
  { "remove", 2, 2, "'remove' takes one CARD serial", false, OP_REMOVE, parse_one_card },
  { "deal", ANY_WORDS, false, OP_DEAL, parse_deal },
  { "command", 2, 2, "'command' takes one command id (end-turn, undo, ...)", false, OP_COMMAND,
    parse_command },
  { "key", 2, 2, "'key' takes one command id (end-turn, undo, ...)", false, OP_KEY,
    parse_command },
  { "choose", 2, 2, "'choose' takes a player's name", false, OP_CHOOSE, parse_choose },
  { "misread", 3, 3, "'misread' takes CARD CARD (or CARD none)", false, OP_MISREAD,
    parse_card_pair },
  { "correct", 3, 3, "'correct' takes CARD CARD (or CARD none)", false, OP_CORRECT,
    parse_card_pair },
  { "restart", 1, 3, "'restart' takes nothing, or 'after SECONDS' (0-3600)", false, OP_RESTART,
    parse_restart },
  { "snap", 1, 1, "'snap' takes nothing", false, OP_SNAP, NULL },
  { "expect", 2, INT_MAX, "'expect' takes what to check", false, OP_EXPECT, parse_expect },
};

/* One line into *op: ENG_OK, HEADER_LINE (no statement), or an error with why. */
static EngStatus
parse_line (EngLiveScript *sc, Words *w, unsigned line, Op *op, char *why, size_t size)
{
  memset (op, 0, sizeof *op);
  op->line = line;
  op->player = -1;
  Line l = { sc, w, op, NULL, why, size };
  const Keyword *kw = find_keyword (keywords, G_N_ELEMENTS (keywords), w->words[0]);
  if ((kw == NULL || !kw->header) && sc->setup.n_players == 0)
    return refuse (&l, "the script must start with 'players'");
  if (kw == NULL)
    return refuse (&l, "unknown keyword '%.20s'", w->words[0]);
  op->op = kw->op;
  return dispatch (&l, kw);
}

EngStatus
eng_live_script_parse (const char *text, size_t len, const char *source, EngLiveScript **out,
                       EngParseError *err)
{
  if (out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  *out = NULL;
  if (text == NULL && len > 0)
    return ENG_ERR_INVALID_ARGUMENT;
  EngLiveScript *sc = calloc (1, sizeof *sc);
  if (sc == NULL)
    return ENG_ERR_NO_MEMORY;
  eng_setup_init (&sc->setup);
  sc->game = eng_game_class_get (0);
  snprintf (sc->source, sizeof sc->source, "%s", source ? source : "script");
  size_t cap = 64;
  sc->ops = malloc (cap * sizeof *sc->ops);
  char *line = malloc (len + 1);
  if (sc->ops == NULL || line == NULL)
    {
      free (line);
      eng_live_script_free (sc);
      return ENG_ERR_NO_MEMORY;
    }
  EngStatus st = ENG_OK;
  unsigned lineno = 0;
  size_t pos = 0;
  while (pos < len && st == ENG_OK)
    {
      size_t end = pos;
      while (end < len && text[end] != '\n')
        end++;
      lineno++;
      size_t n = end - pos;
      memcpy (line, text + pos, n);
      line[n] = '\0';
      pos = end + 1;
      if (strlen (line) != n)
        {
          eng_parse_error_set (err, source, lineno, "a NUL byte in the line");
          st = ENG_ERR_SYNTAX;
          break;
        }
      Words w;
      if (!split (line, &w))
        {
          eng_parse_error_set (err, source, lineno, "too many words");
          st = ENG_ERR_SYNTAX;
          break;
        }
      if (w.n == 0)
        continue;
      char why[240] = "";
      Op op;
      EngStatus ls = parse_line (sc, &w, lineno, &op, why, sizeof why);
      if (ls == HEADER_LINE)
        continue;
      if (ls != ENG_OK)
        {
          eng_parse_error_set (err, source, lineno, "%s", why);
          st = ls;
          break;
        }
      if (sc->n_ops >= SCRIPT_MAX_OPS)
        {
          eng_parse_error_set (err, source, lineno, "more than %d lines", SCRIPT_MAX_OPS);
          st = ENG_ERR_LIMIT;
          break;
        }
      if (sc->n_ops == cap)
        {
          Op *grown = realloc (sc->ops, 2 * cap * sizeof *sc->ops);
          if (grown == NULL)
            {
              st = ENG_ERR_NO_MEMORY;
              break;
            }
          sc->ops = grown;
          cap *= 2;
        }
      sc->ops[sc->n_ops++] = op;
    }
  free (line);
  if (st == ENG_OK && sc->setup.n_players == 0)
    {
      eng_parse_error_set (err, source, 0, "no 'players' line");
      st = ENG_ERR_SYNTAX;
    }
  if (st != ENG_OK)
    {
      eng_live_script_free (sc);
      return st;
    }
  *out = sc;
  return ENG_OK;
}

EngStatus
eng_live_script_load_file (const char *path, EngLiveScript **out, EngParseError *err)
{
  if (out == NULL || path == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  *out = NULL;
  char *text = NULL;
  size_t len = 0;
  EngStatus st = eng_read_text_file (path, 1u << 20, &text, &len, err);
  if (st != ENG_OK)
    return st;
  st = eng_live_script_parse (text, len, path, out, err);
  free (text);
  return st;
}

void
eng_live_script_free (EngLiveScript *script)
{
  if (script == NULL)
    return;
  free (script->ops);
  free (script);
}

const EngGameClass *
eng_live_script_game (const EngLiveScript *script)
{
  return script->game;
}

const EngSetup *
eng_live_script_setup (const EngLiveScript *script)
{
  return script ? &script->setup : NULL;
}

const EngOptions *
eng_live_script_options (const EngLiveScript *script)
{
  return script ? &script->options : NULL;
}

size_t
eng_live_script_n_ops (const EngLiveScript *script)
{
  return script ? script->n_ops : 0;
}

bool
eng_live_script_op (const EngLiveScript *script, size_t index, EngLiveScriptOp *out)
{
  if (script == NULL || out == NULL || index >= script->n_ops)
    return false;
  const Op *op = &script->ops[index];
  memset (out, 0, sizeof *out);
  out->line = op->line;
  out->kind = (EngLiveOpKind) op->op;
  for (unsigned i = 0; i < ENG_LIVE_SCRIPT_MAX_CARDS; i++)
    out->cards[i] = op->cards[i];
  out->n_cards = op->op == OP_DEAL ? op->n_cards
                 : op->op <= OP_REMOVE ? 1u
                 : op->op == OP_MISREAD || op->op == OP_CORRECT ? (op->cards[1] ? 2u : 1u) : 0u;
  out->face = op->face;
  out->zone = op->zone;
  out->player = op->player;
  out->number = op->number;
  out->expect = op->op == OP_EXPECT ? expectations[op->ex].name : "";
  out->text = op->text;
  return true;
}

/* ---- running ------------------------------------------------------------ */

typedef struct {
  uint16_t serial;
  bool face;
  EngZone zone;
  int64_t since;
} TableCard;

typedef struct {
  const EngLiveScript *sc;
  const char *source;          /* names the script in errors */
  EngParseError *err;          /* where a statement that cannot run says why */
  const EngCardSet *set;
  EngGame *game;
  EngInterpreter *interp;
  TableCard table[SCRIPT_MAX_TABLE];
  size_t n_table;
  EngSnapshot snap;
  int64_t clock;
  int64_t tick;                /* orders the changes written between two snaps */
  EngEvent step_storage[SCRIPT_STEP_EVENTS];
  EngEvents step;
  size_t moves_checked;
  EngLiveScriptSink sink;
  EngLiveScriptChoiceSink choices;
  void *user;
  EngLiveScriptResult *res;
  const char *command_shown;   /* id of the command card up for one snapshot */
  EngOptions opts;             /* the game's option switches */
  uint16_t read_as[1000];      /* misread: the face serial the camera reads; 0: its own */
  size_t kill_after;           /* restart the referee after this many snapshots; 0 never */
  EngStatus restart_status;    /* a restart that failed stops the run */
  char restart_why[256];
} Run;

static TableCard *
table_find (Run *r, uint16_t serial)
{
  for (size_t i = 0; i < r->n_table; i++)
    if (r->table[i].serial == serial)
      return &r->table[i];
  return NULL;
}

static void
fail (Run *r, unsigned line, const char *fmt, ...) __attribute__ ((format (printf, 3, 4)));

static void
fail (Run *r, unsigned line, const char *fmt, ...)
{
  r->res->failures++;
  if (r->res->failures > 1)
    return;
  r->res->first_failure_line = line;
  int l = snprintf (r->res->first_failure, sizeof r->res->first_failure, "line %u: ", line);
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (r->res->first_failure + l, sizeof r->res->first_failure - (size_t) l, fmt, ap);
  va_end (ap);
}

static void
add_item (Run *r, char kind, uint16_t serial, uint32_t track, EngZone zone, int64_t since)
{
  EngSnapshot *s = &r->snap;
  if (s->n_items >= ENG_SNAPSHOT_MAX_ITEMS)
    return;
  EngSnapshotItem *it = &s->items[s->n_items++];
  memset (it, 0, sizeof *it);
  EngTag tag = { eng_card_set_game_letter (r->set), "", (EngTagKind) kind, serial };
  snprintf (tag.set, sizeof tag.set, "%s", eng_card_set_id (r->set));
  char payload[ENG_TAG_PAYLOAD_LEN + 1] = "";
  eng_tag_format (&tag, payload);
  memcpy (it->payload, payload, sizeof payload);
  it->tag_kind = kind;
  it->serial = serial;
  it->track_id = track;
  it->zone = zone;
  it->since_ns = since;
}

static void
begin_step (Run *r)
{
  eng_events_init (&r->step, r->step_storage, SCRIPT_STEP_EVENTS);
}

/* Hidden cards stay hidden, checked on every step: no text may name a card
 * lying face down. */
static void
check_hidden (Run *r, unsigned line)
{
  for (size_t i = 0; i < r->n_table; i++)
    {
      /* both sides of a two-sided card are public */
      if (r->table[i].face || eng_card_set_other_side (r->set, r->table[i].serial) != 0)
        continue;
      const EngCard *card = eng_card_set_find_serial (r->set, r->table[i].serial);
      char serial_words[16];
      snprintf (serial_words, sizeof serial_words, "card %u", r->table[i].serial);
      for (size_t k = 0; k < r->step.n; k++)
        {
          const char *text = r->step.items[k].text;
          /* "card 1" as words: not "discard 1" (a player named discard, slot 1) */
          const char *hit = strstr (text, serial_words);
          while (hit != NULL && hit > text && g_ascii_isalpha (hit[-1]))
            hit = strstr (hit + 1, serial_words);
          bool named = hit != NULL && !isdigit ((unsigned char) hit[strlen (serial_words)]);
          if (named || (card != NULL && strstr (text, card->label) != NULL))
            fail (r, line, "a text names card %u, which lies face down: %s", r->table[i].serial, text);
        }
    }
}

static void
end_step (Run *r, unsigned line)
{
  check_hidden (r, line);
  /* an undo takes moves back: `expect move` goes on from what remains */
  size_t n = eng_interpreter_record (r->interp)->n_moves;
  if (r->moves_checked > n)
    r->moves_checked = n;
  for (size_t i = 0; i < r->step.n; i++)
    if (r->sink != NULL)
      r->sink (r->user, line, &r->step.items[i]);
}

/* Kills the referee and starts a new one from its journal, as
 * eng_session_resume does: the record as text, replayed by the rules, and
 * a new interpreter that adopts it.  The step's events stay. */
static void
restart_referee (Run *r, int away_ms)
{
  EngRecord *rec = NULL;
  EngParseError perr = { .reason = "" };
  EngReplayResult rr = { 0 };
  EngVerdict why = { "", "" };
  EngInterpreter *interp = NULL;
  char *text = eng_record_write (eng_interpreter_record (r->interp));
  EngStatus st = text == NULL ? ENG_ERR_NO_MEMORY
                 : eng_record_parse (text, strlen (text), "journal", &rec, &perr);
  free (text);
  if (st == ENG_OK)
    st = eng_replay (rec, r->set, NULL, false, true, NULL, NULL, &rr, &why);
  if (st == ENG_OK && rr.illegal > 0)
    st = ENG_ERR_INCONSISTENT;
  if (st == ENG_OK)
    st = eng_interpreter_new (rr.game, r->set, &interp);
  if (st == ENG_OK)
    st = eng_interpreter_adopt_record (interp, rec);
  eng_record_free (rec);
  if (st != ENG_OK)
    {
      snprintf (r->restart_why, sizeof r->restart_why, "the referee cannot resume: %s %.80s %.80s",
                eng_status_to_string (st), perr.reason, why.reason);
      r->restart_status = st == ENG_ERR_NO_MEMORY ? st : ENG_ERR_INCONSISTENT;
      eng_interpreter_free (interp);
      eng_game_free (rr.game);
      return;
    }
  eng_interpreter_set_away (interp, (int64_t) away_ms * 1000000);
  eng_interpreter_free (r->interp);
  eng_game_free (r->game);
  r->interp = interp;
  r->game = rr.game;
}

static void
feed (Run *r, unsigned line)
{
  EngSnapshot *s = &r->snap;
  s->seq++;
  r->clock += 500000000;
  r->tick = 0;   /* half a second between committed snapshots */
  s->time_ns = r->clock;
  s->calibrated = 1;
  s->n_foreign = 0;
  s->n_items = 0;
  for (size_t i = 0; i < r->n_table; i++)
    {
      const TableCard *c = &r->table[i];
      const EngCard *card = eng_card_set_find_serial (r->set, c->serial);
      /* a two-sided card "face down" shows its other side */
      uint16_t other = eng_card_set_other_side (r->set, c->serial);
      if (c->face)
        add_item (r, 'F', r->read_as[c->serial] ? r->read_as[c->serial] : c->serial, c->serial,
                  c->zone, c->since);
      else if (other != 0)
        add_item (r, 'F', other, c->serial, c->zone, c->since);
      else
        add_item (r, 'B', (uint16_t) (card->deck + 1), 10000u + c->serial, c->zone, c->since);
    }
  if (r->command_shown != NULL)
    {
      const EngCommand *cmd = eng_card_set_find_command (r->set, r->command_shown);
      add_item (r, 'X', cmd->serial, 20000u + cmd->serial,
                (EngZone) { ENG_ZONE_COMMAND, -1, -1 }, r->clock);
    }
  begin_step (r);
  eng_interpreter_feed (r->interp, s, &r->step);
  end_step (r, line);
  r->res->snapshots++;
  if (r->kill_after != 0 && r->res->snapshots == r->kill_after)
    restart_referee (r, 0);
}

static bool
step_has (const Run *r, EngEventKind kind, const char *rule, const char *text, bool exact)
{
  for (size_t i = 0; i < r->step.n; i++)
    {
      const EngEvent *e = &r->step.items[i];
      bool kind_ok = e->kind == kind
                     || (kind == ENG_EVENT_ILLEGAL && e->kind == ENG_EVENT_CONSERVATION);
      if (!kind_ok)
        continue;
      if (rule != NULL && strcmp (e->rule, rule) != 0)
        continue;
      if (text != NULL && (exact ? strcmp (e->text, text) != 0 : strstr (e->text, text) == NULL))
        continue;
      return true;
    }
  return false;
}

/* ---- expect lines, checked: one checker per ExpectKind ---- */

static void
check_move (Run *r, const Op *op)
{
  const EngRecord *rec = eng_interpreter_record (r->interp);
  const EngSetup *su = eng_game_setup (r->game);
  if (r->moves_checked >= rec->n_moves)
    {
      fail (r, op->line, "expected move '%s', but no further move was applied", op->text);
      return;
    }
  EngMove want;
  EngParseError perr;
  if (eng_record_parse_move (rec, op->text, &want, &perr) != ENG_OK)
    {
      fail (r, op->line, "expected move '%s' does not parse: %s", op->text, perr.reason);
      return;
    }
  char want_s[256], applied[256];
  eng_record_format_move (rec->klass, su, &want, want_s, sizeof want_s);
  eng_record_format_move (rec->klass, su, &rec->moves[r->moves_checked].move, applied,
                          sizeof applied);
  r->moves_checked++;
  if (strcmp (want_s, applied) != 0)
    fail (r, op->line, "expected move '%s', applied '%s'", want_s, applied);
}

static void
check_need (Run *r, const Op *op)
{
  if (!step_has (r, ENG_EVENT_NEED, NULL, op->text, true))
    fail (r, op->line, "no NEED '%s' in the last step", op->text);
}

static void
check_say (Run *r, const Op *op)
{
  if (!step_has (r, (EngEventKind) op->event_kind, NULL, op->text, false))
    fail (r, op->line, "no %s event containing '%s' in the last step",
          event_kinds[op->event_kind], op->text);
}

static void
check_illegal (Run *r, const Op *op)
{
  if (!step_has (r, ENG_EVENT_ILLEGAL, op->text, NULL, false))
    fail (r, op->line, "no ILLEGAL event with rule %s in the last step", op->text);
}

static void
check_note (Run *r, const Op *op)
{
  if (!step_has (r, ENG_EVENT_NOTE, op->text, NULL, false))
    fail (r, op->line, "no NOTE event with rule %s in the last step", op->text);
}

static void
check_quiet (Run *r, const Op *op)
{
  for (size_t i = 0; i < r->step.n; i++)
    {
      const EngEvent *e = &r->step.items[i];
      if (e->kind == ENG_EVENT_ILLEGAL || e->kind == ENG_EVENT_CONSERVATION
          || (e->kind == ENG_EVENT_NOTE && strcmp (e->rule, "table") == 0))
        {
          fail (r, op->line, "expected no complaint, got %s [%s] %s",
                eng_event_kind_to_string (e->kind), e->rule, e->text);
          return;
        }
    }
}

static void
check_score (Run *r, const Op *op)
{
  int sc = eng_game_score (r->game, (unsigned) op->player);
  if (sc != op->number)
    fail (r, op->line, "%s has %d points, not %d", eng_game_setup (r->game)->names[op->player], sc,
          op->number);
}

static void
check_turn (Run *r, const Op *op)
{
  EngView *view = g_new (EngView, 1);
  eng_game_public_view (r->game, view);
  if (view->over || view->active != op->player)
    fail (r, op->line, "it is not %s's turn", eng_game_setup (r->game)->names[op->player]);
  g_free (view);
}

static void
check_winner (Run *r, const Op *op)
{
  unsigned w = eng_game_winners (r->game, NULL);
  if (w != op->winners)
    fail (r, op->line, "winners are 0x%x, not 0x%x", w, op->winners);
}

static void
check_over (Run *r, const Op *op)
{
  if (!eng_game_is_over (r->game))
    fail (r, op->line, "the game is not over");
}

static void
check_todo (Run *r, const Op *op)
{
  size_t n = eng_interpreter_n_expectations (r->interp);
  if (n != (size_t) op->number)
    fail (r, op->line, "%zu things left for the table to do, not %d%s%s", n, op->number,
          n ? "; first: " : "", n ? eng_interpreter_expectation (r->interp, 0) : "");
}

static void
check_moves (Run *r, const Op *op)
{
  size_t n = eng_interpreter_record (r->interp)->n_moves;
  if (n != (size_t) op->number)
    fail (r, op->line, "%zu moves applied, not %d", n, op->number);
}

static void
check_choice (Run *r, const Op *op)
{
  int got[ENG_MAX_PLAYERS];
  size_t n = eng_interpreter_choice (r->interp, got, ENG_MAX_PLAYERS);
  bool same = n == op->n_cards;
  for (size_t i = 0; same && i < n; i++)
    same = got[i] == op->cards[i];
  if (same)
    return;
  const EngSetup *su = eng_game_setup (r->game);
  char buf[256];
  size_t l = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n && l < sizeof buf; i++)
    l += (size_t) snprintf (buf + l, sizeof buf - l, " %s", su->names[got[i]]);
  fail (r, op->line, "the choice offered is%s", n ? buf : " none");
}

typedef void (*CheckFn) (Run *r, const Op *op);

static const CheckFn checkers[] = {
  [EX_MOVE] = check_move, [EX_NEED] = check_need, [EX_SAY] = check_say,
  [EX_ILLEGAL] = check_illegal, [EX_NOTE] = check_note, [EX_QUIET] = check_quiet,
  [EX_SCORE] = check_score, [EX_TURN] = check_turn, [EX_WINNER] = check_winner,
  [EX_OVER] = check_over, [EX_TODO] = check_todo, [EX_MOVES] = check_moves,
  [EX_CHOICE] = check_choice,
};
G_STATIC_ASSERT (G_N_ELEMENTS (checkers) == EX_CHOICE + 1);

static bool
same_move (const EngMove *a, const EngMove *b)
{
  bool same = a->verb == b->verb && a->player == b->player && a->card == b->card
              && a->show == b->show && a->n_cards == b->n_cards;
  for (int i = 0; i < 2; i++)
    same = same && a->target[i] == b->target[i] && a->slot[i] == b->slot[i];
  for (unsigned i = 0; same && i < a->n_cards && i < ENG_MOVE_MAX_CARDS; i++)
    same = a->cards[i] == b->cards[i];
  return same;
}

/* ---- statements, run: one runner per OpKind ---- */

static EngStatus
not_in_set (Run *r, const Op *op, uint16_t serial)
{
  eng_parse_error_set (r->err, r->source, op->line, "card %u is not in the set", serial);
  return ENG_ERR_SYNTAX;
}

/* put, deal: cards laid on the table */
static EngStatus
run_lay (Run *r, const Op *op)
{
  for (int i = 0; i < (op->op == OP_DEAL ? op->n_cards : 1); i++)
    {
      uint16_t serial = op->cards[i];
      if (eng_card_set_find_serial (r->set, serial) == NULL)
        return not_in_set (r, op, serial);
      if (table_find (r, serial) != NULL)
        {
          eng_parse_error_set (r->err, r->source, op->line, "card %u is already on the table",
                               serial);
          return ENG_ERR_SYNTAX;
        }
      if (r->n_table >= SCRIPT_MAX_TABLE)
        {
          eng_parse_error_set (r->err, r->source, op->line, "too many cards on the table");
          return ENG_ERR_LIMIT;
        }
      EngZone z = op->zone;
      if (op->op == OP_DEAL)
        z.index = (int8_t) i;
      r->table[r->n_table++] = (TableCard) { serial, op->op == OP_PUT && op->face, z,
                                             r->clock + ++r->tick };
    }
  return ENG_OK;
}

/* flip, move, remove: a card already on the table */
static EngStatus
run_change (Run *r, const Op *op)
{
  TableCard *c = table_find (r, op->cards[0]);
  if (c == NULL)
    {
      eng_parse_error_set (r->err, r->source, op->line, "card %u is not on the table",
                           op->cards[0]);
      return ENG_ERR_SYNTAX;
    }
  if (op->op == OP_FLIP)
    c->face = !c->face;
  else if (op->op == OP_MOVE)
    c->zone = op->zone;
  else
    *c = r->table[--r->n_table];
  if (op->op != OP_REMOVE)
    c->since = r->clock + ++r->tick;
  return ENG_OK;
}

static EngStatus
run_snap (Run *r, const Op *op)
{
  feed (r, op->line);
  return ENG_OK;
}

static bool
command_known (Run *r, const Op *op)
{
  if (eng_card_set_find_command (r->set, op->text) != NULL)
    return true;
  eng_parse_error_set (r->err, r->source, op->line, "no command '%s' in the card set", op->text);
  return false;
}

/* The command card is up for one snapshot, then taken away; the step is
 * the command's: what it said, plus anything said after. */
static EngStatus
run_command (Run *r, const Op *op)
{
  if (!command_known (r, op))
    return ENG_ERR_SYNTAX;
  r->command_shown = op->text;
  feed (r, op->line);
  r->command_shown = NULL;
  EngEvents keep = r->step;
  EngEvent saved[SCRIPT_STEP_EVENTS];
  memcpy (saved, r->step_storage, keep.n * sizeof saved[0]);
  feed (r, op->line);
  size_t n_after = r->step.n;
  EngEvent after[SCRIPT_STEP_EVENTS];
  memcpy (after, r->step_storage, n_after * sizeof after[0]);
  memcpy (r->step_storage, saved, keep.n * sizeof saved[0]);
  size_t total = keep.n;
  for (size_t i = 0; i < n_after && total < SCRIPT_STEP_EVENTS; i++)
    r->step_storage[total++] = after[i];
  r->step.n = total;
  return ENG_OK;
}

static EngStatus
run_key (Run *r, const Op *op)
{
  if (!command_known (r, op))
    return ENG_ERR_SYNTAX;
  begin_step (r);
  eng_interpreter_command (r->interp, op->text, &r->step);
  end_step (r, op->line);
  return ENG_OK;
}

static EngStatus
run_choose (Run *r, const Op *op)
{
  if (r->choices != NULL)
    {
      int players[ENG_MAX_PLAYERS];
      size_t n = eng_interpreter_choice (r->interp, players, ENG_MAX_PLAYERS);
      r->choices (r->user, op->line, players, n);
    }
  begin_step (r);
  if (eng_interpreter_choose_player (r->interp, op->player, &r->step) != ENG_OK)
    eng_events_addf (&r->step, ENG_EVENT_NOTE, "script", "nothing was asked");
  end_step (r, op->line);
  return ENG_OK;
}

static EngStatus
run_expect (Run *r, const Op *op)
{
  r->res->expects++;
  checkers[op->ex] (r, op);
  return ENG_OK;
}

static EngStatus
run_misread (Run *r, const Op *op)
{
  for (int i = 0; i < 2; i++)
    if ((i == 0 || op->cards[1] != 0) && eng_card_set_find_serial (r->set, op->cards[i]) == NULL)
      return not_in_set (r, op, op->cards[i]);
  r->read_as[op->cards[0]] = op->cards[1];
  return ENG_OK;
}

/* correct SEEN ACTUAL|none: moves taken back and re-read; `expect move`
 * goes on from the first one that changed. */
static EngStatus
run_correct (Run *r, const Op *op)
{
  char seen[ENG_TAG_PAYLOAD_LEN + 1], actual[ENG_TAG_PAYLOAD_LEN + 1];
  for (int i = 0; i < 2; i++)
    {
      EngTag tag = { eng_card_set_game_letter (r->set), "", ENG_TAG_FACE, op->cards[i] };
      snprintf (tag.set, sizeof tag.set, "%s", eng_card_set_id (r->set));
      if (i == 1 && op->cards[1] == 0)
        break;
      if (eng_card_set_find_serial (r->set, op->cards[i]) == NULL
          || eng_tag_format (&tag, i == 0 ? seen : actual) != ENG_OK)
        return not_in_set (r, op, op->cards[i]);
    }
  const EngRecord *rec = eng_interpreter_record (r->interp);
  size_t n_before = rec->n_moves;
  EngMove *before = malloc ((n_before + 1) * sizeof *before);
  if (before == NULL)
    return ENG_ERR_NO_MEMORY;
  for (size_t i = 0; i < n_before; i++)
    before[i] = rec->moves[i].move;
  begin_step (r);
  EngStatus st = eng_interpreter_correct_card (r->interp, seen, op->cards[1] ? actual : NULL,
                                               &r->step);
  if (st != ENG_OK)
    eng_events_addf (&r->step, ENG_EVENT_NOTE, "script", "correct: %s", eng_status_to_string (st));
  rec = eng_interpreter_record (r->interp);
  size_t same = 0;
  while (same < n_before && same < rec->n_moves
         && same_move (&before[same], &rec->moves[same].move))
    same++;
  free (before);
  if (r->moves_checked > same)
    r->moves_checked = same;
  end_step (r, op->line);
  return ENG_OK;
}

static EngStatus
run_restart (Run *r, const Op *op)
{
  restart_referee (r, op->number);
  return ENG_OK;
}

typedef EngStatus (*RunFn) (Run *r, const Op *op);

static const RunFn runners[] = {
  [OP_PUT] = run_lay, [OP_FLIP] = run_change, [OP_MOVE] = run_change, [OP_REMOVE] = run_change,
  [OP_DEAL] = run_lay, [OP_COMMAND] = run_command, [OP_KEY] = run_key, [OP_CHOOSE] = run_choose,
  [OP_SNAP] = run_snap, [OP_EXPECT] = run_expect, [OP_MISREAD] = run_misread,
  [OP_CORRECT] = run_correct, [OP_RESTART] = run_restart,
};
G_STATIC_ASSERT (G_N_ELEMENTS (runners) == OP_RESTART + 1);

static EngStatus run_script (const EngLiveScript *script, const EngCardSet *set,
                             const EngOptions *options, size_t kill_after,
                             EngLiveScriptSink sink, EngLiveScriptChoiceSink choices, void *user,
                             EngLiveScriptResult *result, EngParseError *err);

EngStatus
eng_live_script_run (const EngLiveScript *script, const EngCardSet *set,
                     const EngOptions *options, EngLiveScriptSink sink, void *user,
                     EngLiveScriptResult *result, EngParseError *err)
{
  return run_script (script, set, options, 0, sink, NULL, user, result, err);
}

EngStatus
eng_live_script_run_choices (const EngLiveScript *script, const EngCardSet *set,
                             EngLiveScriptChoiceSink choices, void *user,
                             EngLiveScriptResult *result, EngParseError *err)
{
  return run_script (script, set, NULL, 0, NULL, choices, user, result, err);
}

EngStatus
eng_live_script_run_killed (const EngLiveScript *script, const EngCardSet *set,
                            const EngOptions *options, size_t kill_after,
                            EngLiveScriptSink sink, void *user, EngLiveScriptResult *result,
                            EngParseError *err)
{
  return run_script (script, set, options, kill_after, sink, NULL, user, result, err);
}

static EngStatus
run_script (const EngLiveScript *script, const EngCardSet *set, const EngOptions *options,
            size_t kill_after, EngLiveScriptSink sink, EngLiveScriptChoiceSink choices, void *user,
            EngLiveScriptResult *result, EngParseError *err)
{
  if (script == NULL || set == NULL || result == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  memset (result, 0, sizeof *result);
  const char *source = script->source;
  EngOptions opts;
  memset (&opts, 0, sizeof opts);
  if (options != NULL)
    opts = *options;
  for (size_t i = 0; i < script->options.n; i++)
    if (eng_options_set (&opts, script->options.items[i].name,
                         script->options.items[i].value) != ENG_OK)
      {
        eng_parse_error_set (err, source, 0, "too many options");
        return ENG_ERR_LIMIT;
      }
  Run *r = calloc (1, sizeof *r);
  if (r == NULL)
    return ENG_ERR_NO_MEMORY;
  r->sc = script;
  r->set = set;
  r->opts = opts;
  r->kill_after = kill_after;
  r->sink = sink;
  r->choices = choices;
  r->user = user;
  r->res = result;
  r->err = err;
  r->source = source;
  EngVerdict why;
  EngRng rng;
  eng_rng_seed (&rng, 1);
  EngEvent setup_storage[32];
  EngEvents setup_events;
  eng_events_init (&setup_events, setup_storage, 32);
  /* a script plays with one game's cards */
  const EngGameClass *klass = script->game;
  if (strcmp (klass->name, eng_card_set_game (set)) != 0)
    {
      eng_parse_error_set (err, source, 0, "the script is a %s game but the card set is %s's",
                           klass->name, eng_card_set_game (set));
      free (r);
      return ENG_ERR_INVALID_ARGUMENT;
    }
  EngStatus st = eng_game_new (klass, set, &opts, &script->setup, &rng, &setup_events, &r->game,
                               &why);
  if (st != ENG_OK)
    {
      eng_parse_error_set (err, source, 0, "the game cannot start: %s", why.reason);
      free (r);
      return st == ENG_ERR_NO_MEMORY ? st : ENG_ERR_INVALID_ARGUMENT;
    }
  for (size_t i = 0; i < setup_events.n && sink != NULL; i++)
    sink (user, 0, &setup_events.items[i]);
  st = eng_interpreter_new (r->game, set, &r->interp);
  /* the journal keeps the switches, so that a restarted referee plays alike */
  if (st == ENG_OK)
    st = eng_interpreter_set_record_options (r->interp, &opts);
  if (st != ENG_OK)
    eng_parse_error_set (err, source, 0, "no interpreter: %s", eng_status_to_string (st));
  begin_step (r);
  for (size_t i = 0; st == ENG_OK && i < script->n_ops; i++)
    {
      st = runners[script->ops[i].op] (r, &script->ops[i]);
      if (st == ENG_OK && r->restart_status != ENG_OK)
        {
          eng_parse_error_set (err, source, script->ops[i].line, "%s", r->restart_why);
          st = r->restart_status;
        }
    }
  if (st == ENG_OK)
    {
      result->moves = eng_interpreter_record (r->interp)->n_moves;
      result->over = eng_game_is_over (r->game);
      result->winners = eng_game_winners (r->game, NULL);
      for (unsigned p = 0; p < script->setup.n_players; p++)
        result->scores[p] = eng_game_score (r->game, p);
      /* the record with the script's own option lines, so it replays alike */
      const EngRecord *applied = eng_interpreter_record (r->interp);
      EngRecord *rec = eng_record_new (applied->klass, &applied->setup, &script->options);
      bool ok = rec != NULL;
      for (size_t i = 0; ok && i < applied->n_moves; i++)
        ok = eng_record_append (rec, &applied->moves[i].move, 0) == ENG_OK;
      for (size_t i = 0; ok && i < applied->n_corrections; i++)
        ok = eng_record_set_correction (rec, applied->corrections[i].seen,
                                        applied->corrections[i].actual) == ENG_OK;
      result->record = ok ? eng_record_write (rec) : NULL;
      eng_record_free (rec);
    }
  eng_interpreter_free (r->interp);
  eng_game_free (r->game);
  free (r);
  return st;
}

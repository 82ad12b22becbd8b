/* eng-live-script.c: snapshot scripts, parsed then run through the
 * interpreter (docs/snapshot-script-format.md). */
#include "eng-live-script.h"

#include "eng-data.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
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
  char *words[24];
  int n;
  const char *rest[24];   /* the raw text from word i to the end of line */
} Words;

/* Splits `line` (modified) into words; '#' at a word's start begins a
 * comment.  Returns false when there are too many words. */
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
      if (w->n >= 24)
        return false;
      w->rest[w->n] = p;
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

/* ZONE at words[i..]: returns the number of words used, 0 on error. */
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

static int
parse_zone (const EngLiveScript *sc, const Words *w, int i, EngZone *z, char *why, size_t size)
{
  const EngSetup *su = &sc->setup;
  if (i >= w->n)
    {
      snprintf (why, size, "a zone is missing (slot, attack, capture, play, discard, deck, table)");
      return 0;
    }
  const char *k = w->words[i];
  int seat;
  long idx;
  if (strcmp (k, "slot") == 0 || strcmp (k, "attack") == 0)
    {
      if (i + 2 >= w->n)
        {
          snprintf (why, size, "'%s' takes SEAT INDEX", k);
          return 0;
        }
      if (!parse_seat (su, w->words[i + 1], &seat))
        {
          snprintf (why, size, "'%s' is not a seat (0-%d) or a player", w->words[i + 1],
                    ENG_MAX_PLAYERS - 1);
          return 0;
        }
      int n = slots_of (sc);
      if (!parse_int (w->words[i + 2], 0, n - 1, &idx))
        {
          snprintf (why, size, "'%s' is not a slot index (0-%d)", w->words[i + 2], n - 1);
          return 0;
        }
      *z = (EngZone) { (uint8_t) (k[0] == 's' ? ENG_ZONE_SLOT : ENG_ZONE_ATTACK), (int8_t) seat,
                       (int8_t) idx };
      return 3;
    }
  if (strcmp (k, "capture") == 0 || strcmp (k, "play") == 0)
    {
      if (i + 1 >= w->n || !parse_seat (su, w->words[i + 1], &seat))
        {
          snprintf (why, size, "'%s' takes a SEAT (0-%d or a player)", k, ENG_MAX_PLAYERS - 1);
          return 0;
        }
      *z = (EngZone) { (uint8_t) (k[0] == 'c' ? ENG_ZONE_CAPTURE : ENG_ZONE_PLAY), (int8_t) seat,
                       -1 };
      return 2;
    }
  if (strcmp (k, "discard") == 0)
    {
      *z = (EngZone) { ENG_ZONE_DISCARD, -1, 1 };
      return 1;
    }
  if (strcmp (k, "deck") == 0)
    {
      int deck = i + 1 < w->n ? deck_of_word (sc, w->words[i + 1]) : -1;
      if (deck < 0)
        {
          snprintf (why, size, "'deck' takes one of the card set's decks: its number (1 the "
                    "first) or its id");
          return 0;
        }
      *z = (EngZone) { ENG_ZONE_DECK, -1, (int8_t) deck };
      return 2;
    }
  if (strcmp (k, "table") == 0)
    {
      *z = (EngZone) { ENG_ZONE_NONE, -1, -1 };
      return 1;
    }
  if (strcmp (k, "centre") == 0)
    {
      /* as many places as the game's centre has (its live class) */
      const EngLiveClass *live = eng_live_class_find (sc->game->name);
      int places = live != NULL && live->n_centre > 0 ? live->n_centre : ENG_LIVE_SCRIPT_MAX_INDEX;
      if (i + 1 >= w->n || !parse_int (w->words[i + 1], 0, places - 1, &idx))
        {
          snprintf (why, size, "'centre' takes an INDEX (0-%d)", places - 1);
          return 0;
        }
      *z = (EngZone) { ENG_ZONE_CENTRE, -1, (int8_t) idx };
      return 2;
    }
  snprintf (why, size, "unknown zone '%s' (slot, attack, capture, play, discard, deck, centre, "
            "table)", k);
  return 0;
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

static EngStatus
parse_line (EngLiveScript *sc, Words *w, unsigned line, Op *op, char *why, size_t size)
{
  const char *k = w->words[0];
  EngSetup *su = &sc->setup;
  memset (op, 0, sizeof *op);
  op->line = line;
  op->player = -1;
  if (strcmp (k, "game") == 0)
    {
      if (su->n_players != 0 || w->n != 2)
        return snprintf (why, size, "'game' takes one NAME, before 'players'"), ENG_ERR_SYNTAX;
      sc->game = eng_game_class_find (w->words[1]);
      if (sc->game == NULL)
        return snprintf (why, size, "no game '%.20s' (see tablero-cli --help)", w->words[1]),
               ENG_ERR_SYNTAX;
      return ENG_ERR_NOT_FOUND;   /* a header line: no op */
    }
  if (strcmp (k, "players") == 0)
    {
      unsigned lo = sc->game->min_players, hi = MIN (sc->game->max_players, ENG_MAX_PLAYERS);
      if (su->n_players != 0)
        return snprintf (why, size, "players given twice"), ENG_ERR_SYNTAX;
      if ((unsigned) w->n < 1 + lo || (unsigned) w->n > 1 + hi)
        return snprintf (why, size, "'players' takes %u to %u names", lo, hi),
               ENG_ERR_SYNTAX;
      for (int i = 1; i < w->n; i++)
        {
          EngNameCheck check = eng_name_check (w->words[i], strlen (w->words[i]));
          if (check != ENG_NAME_OK)
            {
              g_autofree char *shown = g_strescape (w->words[i], NULL);
              return snprintf (why, size, "bad player name '%.40s': %s", shown,
                               eng_name_check_to_string (check)), ENG_ERR_SYNTAX;
            }
          for (unsigned q = 0; q < su->n_players; q++)
            if (eng_names_same (su->names[q], w->words[i]))
              return snprintf (why, size, "player '%s' named twice", w->words[i]),
                     ENG_ERR_SYNTAX;
          snprintf (su->names[su->n_players], ENG_NAME_MAX, "%s", w->words[i]);
          su->n_players++;
        }
      return ENG_ERR_NOT_FOUND;   /* a header line: no op */
    }
  if (su->n_players == 0)
    return snprintf (why, size, "the script must start with 'players'"), ENG_ERR_SYNTAX;
  if (strcmp (k, "first") == 0)
    {
      if (w->n != 2 || player_by_name (su, w->words[1]) < 0)
        return snprintf (why, size, "'first' takes a player's name"), ENG_ERR_SYNTAX;
      su->first = player_by_name (su, w->words[1]);
      return ENG_ERR_NOT_FOUND;
    }
  if (strcmp (k, "seats") == 0)
    {
      long v;
      if (w->n != 1 + (int) su->n_players)
        return snprintf (why, size, "'seats' takes one seat marker number (1-%d) per player",
                         ENG_MAX_PLAYERS), ENG_ERR_SYNTAX;
      for (int i = 1; i < w->n; i++)
        {
          if (!parse_int (w->words[i], 1, ENG_MAX_PLAYERS, &v))
            return snprintf (why, size, "'%.20s' is not a seat marker number (1-%d)",
                             w->words[i], ENG_MAX_PLAYERS), ENG_ERR_SYNTAX;
          for (int j = 1; j < i; j++)
            if (su->seats[j - 1] == v)
              return snprintf (why, size, "seat %ld given twice", v), ENG_ERR_SYNTAX;
          su->seats[i - 1] = (uint8_t) v;
        }
      return ENG_ERR_NOT_FOUND;
    }
  if (strcmp (k, "option") == 0)
    {
      if (w->n != 3)
        return snprintf (why, size, "'option' takes NAME VALUE"), ENG_ERR_SYNTAX;
      if (eng_options_set (&sc->options, w->words[1], w->words[2]) != ENG_OK)
        return snprintf (why, size, "option does not fit"), ENG_ERR_SYNTAX;
      return ENG_ERR_NOT_FOUND;
    }
  if (strcmp (k, "put") == 0)
    {
      op->op = OP_PUT;
      if (w->n < 4 || !parse_card (w->words[1], &op->cards[0]))
        return snprintf (why, size, "'put' takes CARD face|back ZONE (CARD a serial 1-999)"),
               ENG_ERR_SYNTAX;
      if (strcmp (w->words[2], "face") != 0 && strcmp (w->words[2], "back") != 0)
        return snprintf (why, size, "'put' takes face or back, not '%s'", w->words[2]),
               ENG_ERR_SYNTAX;
      op->face = w->words[2][0] == 'f';
      int used = parse_zone (sc, w, 3, &op->zone, why, size);
      if (used == 0)
        return ENG_ERR_SYNTAX;
      if (3 + used != w->n)
        return snprintf (why, size, "unexpected '%s' after the zone", w->words[3 + used]),
               ENG_ERR_SYNTAX;
      return ENG_OK;
    }
  if (strcmp (k, "move") == 0)
    {
      op->op = OP_MOVE;
      if (w->n < 3 || !parse_card (w->words[1], &op->cards[0]))
        return snprintf (why, size, "'move' takes CARD ZONE"), ENG_ERR_SYNTAX;
      int used = parse_zone (sc, w, 2, &op->zone, why, size);
      if (used == 0)
        return ENG_ERR_SYNTAX;
      if (2 + used != w->n)
        return snprintf (why, size, "unexpected '%s' after the zone", w->words[2 + used]),
               ENG_ERR_SYNTAX;
      return ENG_OK;
    }
  if (strcmp (k, "flip") == 0 || strcmp (k, "remove") == 0)
    {
      op->op = k[0] == 'f' ? OP_FLIP : OP_REMOVE;
      if (w->n != 2 || !parse_card (w->words[1], &op->cards[0]))
        return snprintf (why, size, "'%s' takes one CARD serial", k), ENG_ERR_SYNTAX;
      return ENG_OK;
    }
  if (strcmp (k, "deal") == 0)
    {
      op->op = OP_DEAL;
      int seat;
      const EngLiveClass *live = eng_live_class_find (sc->game->name);
      int n = slots_of (sc);
      if (w->n != 2 + n || !parse_seat (su, w->words[1], &seat))
        return snprintf (why, size, "'deal' takes SEAT and %d %s serials", n,
                         live != NULL && live->slot_noun != NULL ? live->slot_noun : "card"),
               ENG_ERR_SYNTAX;
      op->zone = (EngZone) { ENG_ZONE_SLOT, (int8_t) seat, 0 };
      for (int i = 0; i < n; i++)
        if (!parse_card (w->words[2 + i], &op->cards[i]))
          return snprintf (why, size, "'%s' is not a card serial", w->words[2 + i]),
                 ENG_ERR_SYNTAX;
      op->n_cards = (uint8_t) n;
      return ENG_OK;
    }
  if (strcmp (k, "command") == 0 || strcmp (k, "key") == 0)
    {
      op->op = k[0] == 'c' ? OP_COMMAND : OP_KEY;
      if (w->n != 2)
        return snprintf (why, size, "'%s' takes one command id (end-turn, undo, ...)", k),
               ENG_ERR_SYNTAX;
      snprintf (op->text, sizeof op->text, "%s", w->words[1]);
      return ENG_OK;
    }
  if (strcmp (k, "choose") == 0)
    {
      op->op = OP_CHOOSE;
      if (w->n != 2 || (op->player = player_by_name (su, w->words[1])) < 0)
        return snprintf (why, size, "'choose' takes a player's name"), ENG_ERR_SYNTAX;
      return ENG_OK;
    }
  if (strcmp (k, "misread") == 0 || strcmp (k, "correct") == 0)
    {
      /* misread CARD AS|none: the camera reads CARD's face as AS's;
       * correct SEEN ACTUAL|none: eng_interpreter_correct_card */
      op->op = k[0] == 'm' ? OP_MISREAD : OP_CORRECT;
      bool none = w->n == 3 && strcmp (w->words[2], "none") == 0;
      if (w->n != 3 || !parse_card (w->words[1], &op->cards[0])
          || (!none && !parse_card (w->words[2], &op->cards[1])))
        return snprintf (why, size, "'%s' takes CARD CARD (or CARD none)", k), ENG_ERR_SYNTAX;
      return ENG_OK;
    }
  if (strcmp (k, "restart") == 0)
    {
      /* restart [after SECONDS]: the referee was away that long, and the
       * table may have played on meanwhile (docs/interpreter.md) */
      op->op = OP_RESTART;
      op->number = 0;
      char *end = NULL;
      double secs = w->n == 3 ? strtod (w->words[2], &end) : 0;
      if (w->n == 3 && strcmp (w->words[1], "after") == 0 && end != w->words[2] && *end == '\0'
          && secs > 0 && secs <= 3600)
        op->number = (int) (secs * 1000);
      else if (w->n != 1)
        return snprintf (why, size, "'restart' takes nothing, or 'after SECONDS' (0-3600)"),
               ENG_ERR_SYNTAX;
      return ENG_OK;
    }
  if (strcmp (k, "snap") == 0)
    {
      op->op = OP_SNAP;
      if (w->n != 1)
        return snprintf (why, size, "'snap' takes nothing"), ENG_ERR_SYNTAX;
      return ENG_OK;
    }
  if (strcmp (k, "expect") == 0)
    {
      op->op = OP_EXPECT;
      if (w->n < 2)
        return snprintf (why, size, "'expect' takes what to check"), ENG_ERR_SYNTAX;
      const char *e = w->words[1];
      const char *rest = w->n > 2 ? w->rest[2] : "";
      long v;
      if (strcmp (e, "move") == 0 || strcmp (e, "need") == 0)
        {
          op->ex = e[0] == 'm' ? EX_MOVE : EX_NEED;
          if (w->n < 3)
            return snprintf (why, size, "'expect %s' takes the text", e), ENG_ERR_SYNTAX;
          /* words were split in place: glue them back */
          size_t l = 0;
          for (int i = 2; i < w->n && l < sizeof op->text; i++)
            l += (size_t) snprintf (op->text + l, sizeof op->text - l, "%s%s", i > 2 ? " " : "",
                                    w->words[i]);
          return ENG_OK;
        }
      (void) rest;
      if (strcmp (e, "say") == 0)
        {
          op->ex = EX_SAY;
          if (w->n < 4)
            return snprintf (why, size, "'expect say' takes KIND TEXT"), ENG_ERR_SYNTAX;
          size_t kinds = sizeof event_kinds / sizeof event_kinds[0];
          size_t i;
          for (i = 0; i < kinds; i++)
            if (strcmp (event_kinds[i], w->words[2]) == 0)
              break;
          if (i == kinds)
            return snprintf (why, size, "unknown event kind '%.20s'", w->words[2]), ENG_ERR_SYNTAX;
          op->event_kind = (uint8_t) i;
          size_t l = 0;
          for (int j = 3; j < w->n && l < sizeof op->text; j++)
            l += (size_t) snprintf (op->text + l, sizeof op->text - l, "%s%s", j > 3 ? " " : "",
                                    w->words[j]);
          return ENG_OK;
        }
      if (strcmp (e, "illegal") == 0 || strcmp (e, "note") == 0)
        {
          op->ex = e[0] == 'i' ? EX_ILLEGAL : EX_NOTE;
          if (w->n != 3 || strlen (w->words[2]) >= 8)
            return snprintf (why, size, "'expect %s' takes a RULE id", e), ENG_ERR_SYNTAX;
          snprintf (op->text, sizeof op->text, "%s", w->words[2]);
          return ENG_OK;
        }
      if (strcmp (e, "quiet") == 0 || strcmp (e, "over") == 0)
        {
          op->ex = e[0] == 'q' ? EX_QUIET : EX_OVER;
          if (w->n != 2)
            return snprintf (why, size, "'expect %s' takes nothing", e), ENG_ERR_SYNTAX;
          return ENG_OK;
        }
      if (strcmp (e, "score") == 0)
        {
          op->ex = EX_SCORE;
          if (w->n != 4 || (op->player = player_by_name (su, w->words[2])) < 0
              || !parse_int (w->words[3], -99, 99, &v))
            return snprintf (why, size, "'expect score' takes PLAYER POINTS"), ENG_ERR_SYNTAX;
          op->number = (int) v;
          return ENG_OK;
        }
      if (strcmp (e, "turn") == 0)
        {
          op->ex = EX_TURN;
          if (w->n != 3 || (op->player = player_by_name (su, w->words[2])) < 0)
            return snprintf (why, size, "'expect turn' takes PLAYER"), ENG_ERR_SYNTAX;
          return ENG_OK;
        }
      if (strcmp (e, "winner") == 0)
        {
          op->ex = EX_WINNER;
          if (w->n < 3)
            return snprintf (why, size, "'expect winner' takes PLAYER..."), ENG_ERR_SYNTAX;
          for (int i = 2; i < w->n; i++)
            {
              int p = player_by_name (su, w->words[i]);
              if (p < 0)
                return snprintf (why, size, "no player '%.20s'", w->words[i]), ENG_ERR_SYNTAX;
              op->winners = (uint16_t) (op->winners | (1u << p));
            }
          return ENG_OK;
        }
      if (strcmp (e, "todo") == 0 || strcmp (e, "moves") == 0)
        {
          op->ex = e[0] == 't' ? EX_TODO : EX_MOVES;
          if (w->n != 3 || !parse_int (w->words[2], 0, 100000, &v))
            return snprintf (why, size, "'expect %s' takes a count", e), ENG_ERR_SYNTAX;
          op->number = (int) v;
          return ENG_OK;
        }
      if (strcmp (e, "choice") == 0)
        {
          /* the candidates eng_interpreter_choice lists, in order; none */
          op->ex = EX_CHOICE;
          if (w->n < 3 || w->n > 1 + ENG_MAX_PLAYERS)
            return snprintf (why, size, "'expect choice' takes PLAYER... (up to %d) or none",
                             ENG_MAX_PLAYERS - 1), ENG_ERR_SYNTAX;
          if (w->n == 3 && strcmp (w->words[2], "none") == 0)
            return ENG_OK;
          for (int i = 2; i < w->n; i++)
            {
              int p = player_by_name (su, w->words[i]);
              if (p < 0)
                return snprintf (why, size, "no player '%.20s'", w->words[i]), ENG_ERR_SYNTAX;
              op->cards[op->n_cards++] = (uint16_t) p;
            }
          return ENG_OK;
        }
      return snprintf (why, size, "unknown expectation '%.20s' (move, need, say, illegal, note, "
                       "quiet, score, turn, winner, over, todo, moves, choice)", e),
             ENG_ERR_SYNTAX;
    }
  return snprintf (why, size, "unknown keyword '%.20s'", k), ENG_ERR_SYNTAX;
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
      if (ls == ENG_ERR_NOT_FOUND)
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
  static const char *const expect_names[] = {
    "move", "need", "say", "illegal", "note", "quiet", "score", "turn", "winner", "over",
    "todo", "moves", "choice"
  };
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
  out->expect = op->op == OP_EXPECT ? expect_names[op->ex] : "";
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

static void
check (Run *r, const Op *op)
{
  const EngRecord *rec = eng_interpreter_record (r->interp);
  const EngSetup *su = eng_game_setup (r->game);
  r->res->expects++;
  char buf[256];
  switch (op->ex)
    {
    case EX_MOVE:
      {
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
        char want_s[256];
        eng_record_format_move (rec->klass, su, &want, want_s, sizeof want_s);
        eng_record_format_move (rec->klass, su, &rec->moves[r->moves_checked].move, buf,
                                sizeof buf);
        r->moves_checked++;
        if (strcmp (want_s, buf) != 0)
          fail (r, op->line, "expected move '%s', applied '%s'", want_s, buf);
        return;
      }
    case EX_NEED:
      if (!step_has (r, ENG_EVENT_NEED, NULL, op->text, true))
        fail (r, op->line, "no NEED '%s' in the last step", op->text);
      return;
    case EX_SAY:
      if (!step_has (r, (EngEventKind) op->event_kind, NULL, op->text, false))
        fail (r, op->line, "no %s event containing '%s' in the last step",
              event_kinds[op->event_kind], op->text);
      return;
    case EX_ILLEGAL:
      if (!step_has (r, ENG_EVENT_ILLEGAL, op->text, NULL, false))
        fail (r, op->line, "no ILLEGAL event with rule %s in the last step", op->text);
      return;
    case EX_NOTE:
      if (!step_has (r, ENG_EVENT_NOTE, op->text, NULL, false))
        fail (r, op->line, "no NOTE event with rule %s in the last step", op->text);
      return;
    case EX_QUIET:
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
      return;
    case EX_SCORE:
      {
        int sc = eng_game_score (r->game, (unsigned) op->player);
        if (sc != op->number)
          fail (r, op->line, "%s has %d points, not %d", su->names[op->player], sc, op->number);
        return;
      }
    case EX_TURN:
      {
        EngView *view = g_new (EngView, 1);
        eng_game_public_view (r->game, view);
        if (view->over || view->active != op->player)
          fail (r, op->line, "it is not %s's turn", su->names[op->player]);
        g_free (view);
        return;
      }
    case EX_WINNER:
      {
        unsigned w = eng_game_winners (r->game, NULL);
        if (w != op->winners)
          fail (r, op->line, "winners are 0x%x, not 0x%x", w, op->winners);
        return;
      }
    case EX_OVER:
      if (!eng_game_is_over (r->game))
        fail (r, op->line, "the game is not over");
      return;
    case EX_TODO:
      if (eng_interpreter_n_expectations (r->interp) != (size_t) op->number)
        fail (r, op->line, "%zu things left for the table to do, not %d%s%s",
              eng_interpreter_n_expectations (r->interp), op->number,
              eng_interpreter_n_expectations (r->interp) ? "; first: " : "",
              eng_interpreter_n_expectations (r->interp)
              ? eng_interpreter_expectation (r->interp, 0) : "");
      return;
    case EX_MOVES:
      if (rec->n_moves != (size_t) op->number)
        fail (r, op->line, "%zu moves applied, not %d", rec->n_moves, op->number);
      return;
    case EX_CHOICE:
      {
        int got[ENG_MAX_PLAYERS];
        size_t n = eng_interpreter_choice (r->interp, got, ENG_MAX_PLAYERS);
        bool same = n == op->n_cards;
        for (size_t i = 0; same && i < n; i++)
          same = got[i] == op->cards[i];
        if (!same)
          {
            size_t l = 0;
            buf[0] = '\0';
            for (size_t i = 0; i < n && l < sizeof buf; i++)
              l += (size_t) snprintf (buf + l, sizeof buf - l, " %s", su->names[got[i]]);
            fail (r, op->line, "the choice offered is%s", n ? buf : " none");
          }
        return;
      }
    default:
      return;
    }
}

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

static EngStatus
run_op (Run *r, const Op *op, EngParseError *err, const char *source)
{
  TableCard *c;
  switch (op->op)
    {
    case OP_PUT:
    case OP_DEAL:
      for (int i = 0; i < (op->op == OP_DEAL ? op->n_cards : 1); i++)
        {
          uint16_t serial = op->cards[i];
          if (eng_card_set_find_serial (r->set, serial) == NULL)
            {
              eng_parse_error_set (err, source, op->line, "card %u is not in the set", serial);
              return ENG_ERR_SYNTAX;
            }
          if (table_find (r, serial) != NULL)
            {
              eng_parse_error_set (err, source, op->line, "card %u is already on the table",
                                   serial);
              return ENG_ERR_SYNTAX;
            }
          if (r->n_table >= SCRIPT_MAX_TABLE)
            {
              eng_parse_error_set (err, source, op->line, "too many cards on the table");
              return ENG_ERR_LIMIT;
            }
          EngZone z = op->zone;
          if (op->op == OP_DEAL)
            z.index = (int8_t) i;
          r->table[r->n_table++] = (TableCard) { serial, op->op == OP_PUT && op->face, z,
                                                 r->clock + ++r->tick };
        }
      return ENG_OK;
    case OP_FLIP:
    case OP_MOVE:
    case OP_REMOVE:
      c = table_find (r, op->cards[0]);
      if (c == NULL)
        {
          eng_parse_error_set (err, source, op->line, "card %u is not on the table",
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
    case OP_SNAP:
      feed (r, op->line);
      return ENG_OK;
    case OP_COMMAND:
    case OP_KEY:
      if (eng_card_set_find_command (r->set, op->text) == NULL)
        {
          eng_parse_error_set (err, source, op->line, "no command '%s' in the card set",
                               op->text);
          return ENG_ERR_SYNTAX;
        }
      if (op->op == OP_COMMAND)
        {
          /* the command card is up for one snapshot, then taken away */
          r->command_shown = op->text;
          feed (r, op->line);
          r->command_shown = NULL;
          EngEvents keep = r->step;
          EngEvent saved[SCRIPT_STEP_EVENTS];
          memcpy (saved, r->step_storage, keep.n * sizeof saved[0]);
          feed (r, op->line);
          /* the step is the command's: keep what it said, plus anything after */
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
      begin_step (r);
      eng_interpreter_command (r->interp, op->text, &r->step);
      end_step (r, op->line);
      return ENG_OK;
    case OP_CHOOSE:
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
    case OP_EXPECT:
      check (r, op);
      return ENG_OK;
    case OP_MISREAD:
      for (int i = 0; i < 2; i++)
        if ((i == 0 || op->cards[1] != 0) && eng_card_set_find_serial (r->set, op->cards[i]) == NULL)
          {
            eng_parse_error_set (err, source, op->line, "card %u is not in the set",
                                 op->cards[i]);
            return ENG_ERR_SYNTAX;
          }
      r->read_as[op->cards[0]] = op->cards[1];
      return ENG_OK;
    case OP_CORRECT:
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
              {
                eng_parse_error_set (err, source, op->line, "card %u is not in the set",
                                     op->cards[i]);
                return ENG_ERR_SYNTAX;
              }
          }
        /* moves taken back and re-read: `expect move` goes on from the
         * first one that changed */
        const EngRecord *rec = eng_interpreter_record (r->interp);
        size_t n_before = rec->n_moves;
        EngMove *before = malloc ((n_before + 1) * sizeof *before);
        if (before == NULL)
          return ENG_ERR_NO_MEMORY;
        for (size_t i = 0; i < n_before; i++)
          before[i] = rec->moves[i].move;
        begin_step (r);
        EngStatus st = eng_interpreter_correct_card (r->interp, seen,
                                                     op->cards[1] ? actual : NULL, &r->step);
        if (st != ENG_OK)
          eng_events_addf (&r->step, ENG_EVENT_NOTE, "script", "correct: %s",
                           eng_status_to_string (st));
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
    case OP_RESTART:
      restart_referee (r, op->number);
      return ENG_OK;
    default:
      return ENG_OK;
    }
}

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
      st = run_op (r, &script->ops[i], err, source);
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

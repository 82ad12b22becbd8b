#include "eng-record.h"

#include "eng-data.h"
#include "eng-name.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#define MAX_LINE 1024
#define MAX_TOKENS 160

/* A word of a line; a quoted one ("game") is a player's name whatever it
 * reads as, and s/n are the name inside the quotes. */
typedef struct {
  const char *s;
  size_t n;
  bool quoted;
} Token;

/* Whether t is the keyword `word` (a quoted name never is). */
static bool
tok_is (const Token *t, const char *word)
{
  size_t n = strlen (word);
  return !t->quoted && t->n == n && memcmp (t->s, word, n) == 0;
}

/* Unsigned decimal in [lo, hi]; false otherwise. */
static bool
tok_uint (const Token *t, unsigned long long lo, unsigned long long hi,
          unsigned long long *out)
{
  if (t->quoted || t->n == 0 || t->n > 20)
    return false;
  unsigned long long v = 0;
  for (size_t i = 0; i < t->n; i++)
    {
      if (!isdigit ((unsigned char) t->s[i]))
        return false;
      unsigned d = (unsigned) (t->s[i] - '0');
      if (v > (UINT64_MAX - d) / 10)
        return false;
      v = v * 10 + d;
    }
  if (v < lo || v > hi)
    return false;
  *out = v;
  return true;
}

/* Only decimal digits: a number, whatever its size. */
static bool
tok_digits (const Token *t)
{
  if (t->quoted)
    return false;
  for (size_t i = 0; i < t->n; i++)
    if (!isdigit ((unsigned char) t->s[i]))
      return false;
  return t->n > 0;
}

/* The words a player's name must be quoted as ("game"): the keywords of
 * the header, and those inside a line. */
static const char *const reserved[] = { "show", "game", "set", "option", "player",
                                        "first", "last-winner", "seed", "deal", "seat" };

static bool
is_reserved (const char *s, size_t n)
{
  for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
    if (strlen (reserved[i]) == n && memcmp (reserved[i], s, n) == 0)
      return true;
  return false;
}

/* Whether a word reads as a player's name where a card or a name may
 * stand: quoted, or starting with a letter of any script. */
static bool
tok_names (const Token *t)
{
  if (t->quoted)
    return true;
  gunichar u = g_utf8_get_char_validated (t->s, (gssize) t->n);
  return u != (gunichar) -1 && u != (gunichar) -2 && g_unichar_isalpha (u);
}

static int
find_player (const EngSetup *setup, const Token *t)
{
  for (unsigned p = 0; p < setup->n_players; p++)
    if (strlen (setup->names[p]) == t->n && memcmp (setup->names[p], t->s, t->n) == 0)
      return (int) p;
  return -1;
}

/* A card token: a serial 1..999 or '?'. */
static bool
tok_card (const Token *t, uint16_t *out)
{
  if (tok_is (t, "?"))
    {
      *out = ENG_SERIAL_UNKNOWN;
      return true;
    }
  unsigned long long v;
  if (!tok_uint (t, 1, 999, &v))
    return false;
  *out = (uint16_t) v;
  return true;
}

static void
tok_copy (const Token *t, char *buf, size_t size)
{
  size_t n = t->n < size - 1 ? t->n : size - 1;
  memcpy (buf, t->s, n);
  buf[n] = '\0';
}

typedef struct RecKeyword RecKeyword;

typedef struct {
  EngRecord *rec;
  const char *source;
  EngParseError *err;
  bool seen_game, seen_move;
  const RecKeyword *kw;   /* the header or journal keyword being parsed */
} Parser;

typedef EngStatus (*RecLineFn) (Parser *p, unsigned line, const Token *tok, size_t nt);

/* A line's first word and what it takes; a word count (the keyword
 * included) outside [min_tokens, max_tokens] is refused with `usage`.
 * Header lines come before the first move; any other first word is a
 * player's, whose move the line is. */
struct RecKeyword {
  const char *name;
  size_t min_tokens, max_tokens;
  const char *usage;
  bool header;
  RecLineFn parse;
};

#define FAIL(p, line, ...) \
  do { eng_parse_error_set ((p)->err, (p)->source, (line), __VA_ARGS__); \
       return ENG_ERR_SYNTAX; } while (0)

static EngStatus
move_from_tokens (Parser *p, unsigned line, const Token *tok, size_t nt, EngMove *out)
{
  const EngRecord *rec = p->rec;
  int actor = find_player (&rec->setup, &tok[0]);
  if (actor < 0)
    FAIL (p, line, "'%.*s' is neither a header keyword nor a player's name",
          (int) tok[0].n, tok[0].s);
  if (nt < 2)
    FAIL (p, line, "a move needs a verb after the player's name");
  char verb[32];
  tok_copy (&tok[1], verb, sizeof verb);
  int v = eng_game_class_verb (rec->klass, verb);
  if (v < 0 || tok[1].n >= sizeof verb)
    FAIL (p, line, "unknown verb '%.*s' for %s", (int) (tok[1].n > 40 ? 40 : tok[1].n),
          tok[1].s, rec->klass->name);
  EngMove m;
  eng_move_init (&m, (unsigned) v, actor);
  int n_targets = 0;
  bool have_card = false;
  for (size_t i = 2; i < nt; i++)
    {
      const Token *t = &tok[i];
      if (tok_is (t, "show"))
        {
          if (i + 1 >= nt || m.show != 0)
            FAIL (p, line, "'show' needs one card serial (once)");
          uint16_t s;
          if (!tok_card (&tok[i + 1], &s) || s == ENG_SERIAL_UNKNOWN)
            FAIL (p, line, "'show' needs a card serial 1-999");
          m.show = s;
          i++;
          continue;
        }
      if (tok_names (t))
        {
          int pl = find_player (&rec->setup, t);
          if (pl < 0)
            FAIL (p, line, "unknown player '%.*s'", (int) (t->n > 40 ? 40 : t->n), t->s);
          if (n_targets >= 2)
            FAIL (p, line, "at most two players can be named in a move");
          m.target[n_targets++] = (int8_t) pl;
          /* a number right after a player's name is that player's slot */
          unsigned long long slot;
          if (i + 1 < nt && tok_uint (&tok[i + 1], 1, 99, &slot))
            {
              m.slot[n_targets - 1] = (int8_t) (slot - 1);
              i++;
            }
          else if (i + 1 < nt && tok_digits (&tok[i + 1]))
            FAIL (p, line, "slot '%.*s' of %s is out of range (1-99)",
                  (int) (tok[i + 1].n > 40 ? 40 : tok[i + 1].n), tok[i + 1].s,
                  rec->setup.names[pl]);
          continue;
        }
      if (n_targets > 0)
        FAIL (p, line, "cards come before the players named in a move");
      uint16_t c;
      if (!tok_card (t, &c))
        FAIL (p, line, "expected a card serial (1-999) or '?', got '%.*s'",
              (int) (t->n > 40 ? 40 : t->n), t->s);
      if (!have_card)
        {
          m.card = c;
          have_card = true;
        }
      else
        {
          if (m.n_cards >= ENG_MOVE_MAX_CARDS)
            FAIL (p, line, "too many cards in one move (at most %d)", ENG_MOVE_MAX_CARDS + 1);
          m.cards[m.n_cards++] = c;
        }
    }
  char why[160] = "";
  if (!eng_game_class_move_shape_ok (rec->klass, &m, why, sizeof why))
    FAIL (p, line, "%s", why);
  *out = m;
  return ENG_OK;
}

static EngStatus
parse_move_line (Parser *p, unsigned line, const Token *tok, size_t nt)
{
  EngMove m;
  EngStatus st = move_from_tokens (p, line, tok, nt, &m);
  if (st != ENG_OK)
    return st;
  p->seen_move = true;
  if (eng_record_append (p->rec, &m, line) != ENG_OK)
    {
      eng_parse_error_set (p->err, p->source, line, "out of memory");
      return ENG_ERR_NO_MEMORY;
    }
  return ENG_OK;
}

static EngStatus
parse_deal (Parser *p, unsigned line, const Token *tok, size_t nt)
{
  EngSetup *su = &p->rec->setup;
  if (su->n_deals >= ENG_MAX_DEALS)
    FAIL (p, line, "too many deal lines (at most %d)", ENG_MAX_DEALS);
  EngDeal d;
  memset (&d, 0, sizeof d);
  d.player = -1;
  size_t i = 1;
  if (i < nt)
    {
      int pl = find_player (su, &tok[i]);
      if (pl >= 0)
        {
          d.player = (int8_t) pl;
          i++;
        }
    }
  if (i >= nt)
    FAIL (p, line, "deal needs a place (e.g. 'deal Ana slots 1 2 3')");
  if (tok[i].n >= sizeof d.place || tok[i].quoted || !isalpha ((unsigned char) tok[i].s[0]))
    FAIL (p, line, "bad place name in deal");
  tok_copy (&tok[i], d.place, sizeof d.place);
  for (i++; i < nt; i++)
    {
      if (d.n_cards >= ENG_DEAL_MAX_CARDS)
        FAIL (p, line, "too many cards in one deal line");
      if (!tok_card (&tok[i], &d.cards[d.n_cards]))
        FAIL (p, line, "expected a card serial (1-999) or '?' in deal");
      d.n_cards++;
    }
  su->deals[su->n_deals++] = d;
  return ENG_OK;
}

/* A start time as `@id` writes it (UTC, whole seconds). */
static bool
parse_started (const Token *t, int64_t *out)
{
  char text[32];
  if (t->n >= sizeof text || t->n < 20 || t->s[t->n - 1] != 'Z')
    return false;
  tok_copy (t, text, sizeof text);
  GDateTime *when = g_date_time_new_from_iso8601 (text, NULL);
  if (when == NULL)
    return false;
  *out = g_date_time_to_unix (when);
  g_date_time_unref (when);
  return *out > 0;
}

/* The first line: `game NAME`. */
static EngStatus
parse_game_line (Parser *p, unsigned line, const Token *tok, size_t nt)
{
  if (!tok_is (&tok[0], "game") || nt != 2)
    FAIL (p, line, "a record starts with 'game NAME'");
  char name[32];
  if (tok[1].n >= sizeof name)
    FAIL (p, line, "unknown game");
  tok_copy (&tok[1], name, sizeof name);
  p->rec->klass = eng_game_class_find (name);
  if (p->rec->klass == NULL)
    {
      eng_parse_error_set (p->err, p->source, line, "unknown game '%s'", name);
      return ENG_ERR_NOT_FOUND;
    }
  p->seen_game = true;
  return ENG_OK;
}

#define USAGE(p, line) FAIL (p, line, "%s", (p)->kw->usage)

/* ---- journal lines: a first word no player name can be ---- */

static EngStatus
parse_correct (Parser *p, unsigned line, const Token *tok, size_t nt)
{
  EngRecord *rec = p->rec;
  char seen[16] = "", actual[16] = "";
  (void) nt;
  if (tok[1].n != 11 || tok[2].n != 11)
    USAGE (p, line);
  tok_copy (&tok[1], seen, sizeof seen);
  tok_copy (&tok[2], actual, sizeof actual);
  for (size_t i = 0; i < rec->n_corrections; i++)
    if (strcmp (rec->corrections[i].seen, seen) == 0)
      FAIL (p, line, "'%s' is corrected twice", seen);
  if (strcmp (seen, actual) == 0)
    FAIL (p, line, "a correction names two different payloads");
  EngStatus cst = eng_record_set_correction (rec, seen, actual);
  if (cst == ENG_ERR_LIMIT)
    FAIL (p, line, "more than %d corrections", ENG_RECORD_MAX_CORRECTIONS);
  if (cst != ENG_OK)
    FAIL (p, line, "a sticker payload is 11 characters of 0-9 and A-Z");
  return ENG_OK;
}

static EngStatus
parse_id (Parser *p, unsigned line, const Token *tok, size_t nt)
{
  char id[ENG_RECORD_ID_MAX] = "";
  int64_t started = 0;
  if (p->rec->id[0] != '\0')
    FAIL (p, line, "a record has one '@id'");
  if (nt < 2 || nt > 3 || tok[1].n >= sizeof id)
    FAIL (p, line, "'@id ID [STARTED]' takes an id and the time the game started");
  tok_copy (&tok[1], id, sizeof id);
  if (nt == 3 && !parse_started (&tok[2], &started))
    FAIL (p, line, "'@id': the start time is written 2026-11-28T19:05:00Z");
  if (eng_record_set_id (p->rec, id, started) != ENG_OK)
    FAIL (p, line, "'@id': an id is letters, digits and '-'");
  return ENG_OK;
}

/* @table WORDS...: kept as one line, opaque to the record, the words as
 * written (quotes and all). */
static EngStatus
parse_table (Parser *p, unsigned line, const Token *tok, size_t nt)
{
  EngRecord *rec = p->rec;
  size_t need = 1;
  for (size_t i = 1; i < nt; i++)
    need += tok[i].n + 3;
  if (rec->notes_len + need > rec->notes_cap)
    {
      size_t cap = (rec->notes_len + need) * 2;
      char *grown = realloc (rec->notes, cap);
      if (grown == NULL)
        {
          eng_parse_error_set (p->err, p->source, line, "out of memory");
          return ENG_ERR_NO_MEMORY;
        }
      rec->notes = grown;
      rec->notes_cap = cap;
    }
  for (size_t i = 1; i < nt; i++)
    {
      memcpy (rec->notes + rec->notes_len, tok[i].s - tok[i].quoted,
              tok[i].n + 2 * tok[i].quoted);
      rec->notes_len += tok[i].n + 2 * tok[i].quoted;
      if (i + 1 < nt)
        rec->notes[rec->notes_len++] = ' ';
    }
  rec->notes[rec->notes_len++] = '\n';
  rec->notes[rec->notes_len] = '\0';
  return ENG_OK;
}

/* ---- the header ---- */

static EngStatus
parse_game_again (Parser *p, unsigned line, const Token *tok, size_t nt)
{
  (void) tok;
  (void) nt;
  FAIL (p, line, "a record names its game once");
}

static EngStatus
parse_set (Parser *p, unsigned line, const Token *tok, size_t nt)
{
  EngRecord *rec = p->rec;
  (void) nt;
  if (tok[1].n >= sizeof rec->set_id || rec->set_id[0] != '\0')
    USAGE (p, line);
  tok_copy (&tok[1], rec->set_id, sizeof rec->set_id);
  return ENG_OK;
}

static EngStatus
parse_option (Parser *p, unsigned line, const Token *tok, size_t nt)
{
  char name[32], value[32];
  (void) nt;
  if (tok[1].n >= sizeof name || tok[2].n >= sizeof value)
    FAIL (p, line, "option name or value too long");
  tok_copy (&tok[1], name, sizeof name);
  tok_copy (&tok[2], value, sizeof value);
  if (eng_options_set (&p->rec->options, name, value) != ENG_OK)
    FAIL (p, line, "too many options");
  return ENG_OK;
}

static EngStatus
parse_player (Parser *p, unsigned line, const Token *tok, size_t nt)
{
  EngRecord *rec = p->rec;
  EngSetup *su = &rec->setup;
  if (!(nt == 2 || (nt == 4 && tok_is (&tok[2], "seat"))))
    USAGE (p, line);
  EngNameCheck check = eng_name_check (tok[1].s, tok[1].n);
  if (check != ENG_NAME_OK)
    FAIL (p, line, "not a player's name: %s", eng_name_check_to_string (check));
  if (!tok[1].quoted && is_reserved (tok[1].s, tok[1].n))
    FAIL (p, line, "not a player's name as it stands: '%.*s' is a word of the record "
          "(write it in quotes: \"%.*s\")", (int) tok[1].n, tok[1].s, (int) tok[1].n,
          tok[1].s);
  char name[ENG_NAME_MAX];
  snprintf (name, sizeof name, "%.*s", (int) tok[1].n, tok[1].s);
  for (unsigned q = 0; q < su->n_players; q++)
    if (eng_names_same (su->names[q], name))
      FAIL (p, line, "player '%s' listed twice (names differ by more than case)", name);
  /* a deal line read before it took the name for a place: written back
   * after the players, it would read as this player's deal */
  for (unsigned k = 0; k < su->n_deals; k++)
    if (su->deals[k].player < 0 && eng_names_same (su->deals[k].place, name))
      FAIL (p, line, "player '%s' is named like the place of an earlier deal line (list "
            "players first)", name);
  if (su->n_players >= ENG_MAX_PLAYERS || su->n_players >= rec->klass->max_players)
    FAIL (p, line, "too many players for %s (at most %u)", rec->klass->name,
          rec->klass->max_players);
  unsigned long long seat = 0;
  if (nt == 4 && !tok_uint (&tok[3], 1, 99, &seat))
    FAIL (p, line, "seat is a number 1-99");
  tok_copy (&tok[1], su->names[su->n_players], ENG_NAME_MAX);
  su->seats[su->n_players] = (uint8_t) seat;
  su->n_players++;
  return ENG_OK;
}

/* first NAME, last-winner NAME */
static EngStatus
parse_named_player (Parser *p, unsigned line, const Token *tok, size_t nt)
{
  EngSetup *su = &p->rec->setup;
  (void) nt;
  int pl = find_player (su, &tok[1]);
  if (pl < 0)
    FAIL (p, line, "unknown player '%.*s' (list players first)",
          (int) (tok[1].n > 40 ? 40 : tok[1].n), tok[1].s);
  int *slot = tok_is (&tok[0], "first") ? &su->first : &su->last_winner;
  if (*slot >= 0)
    FAIL (p, line, "'%.*s' given twice", (int) tok[0].n, tok[0].s);
  *slot = pl;
  return ENG_OK;
}

static EngStatus
parse_seed (Parser *p, unsigned line, const Token *tok, size_t nt)
{
  EngSetup *su = &p->rec->setup;
  unsigned long long v;
  (void) nt;
  if (su->has_seed || !tok_uint (&tok[1], 0, UINT64_MAX, &v))
    USAGE (p, line);
  su->has_seed = true;
  su->seed = v;
  return ENG_OK;
}

#define ANY_TOKENS 1, SIZE_MAX, NULL

static const RecKeyword rec_keywords[] = {
  { "@correct", 3, 3, "'@correct SEEN ACTUAL' takes two 11-character sticker payloads", false,
    parse_correct },
  { "@id", ANY_TOKENS, false, parse_id },   /* "one @id" is said before its count */
  { "@table", 2, SIZE_MAX, "'@table' takes the referee's words", false, parse_table },
  { "game", ANY_TOKENS, true, parse_game_again },
  { "set", 2, 2, "'set ID' (once, a short id)", true, parse_set },
  { "option", 3, 3, "'option NAME VALUE'", true, parse_option },
  { "player", 2, 4, "'player NAME [seat N]'", true, parse_player },
  { "first", 2, 2, "'first NAME'", true, parse_named_player },
  { "last-winner", 2, 2, "'last-winner NAME'", true, parse_named_player },
  { "seed", 2, 2, "'seed N' (once, a decimal number)", true, parse_seed },
  { "deal", ANY_TOKENS, true, parse_deal },
};

static EngStatus
parse_line (Parser *p, unsigned line, const Token *tok, size_t nt)
{
  if (!p->seen_game)
    return parse_game_line (p, line, tok, nt);
  const RecKeyword *kw = NULL;
  for (size_t i = 0; kw == NULL && i < G_N_ELEMENTS (rec_keywords); i++)
    if (tok_is (&tok[0], rec_keywords[i].name))
      kw = &rec_keywords[i];
  if (kw == NULL)
    return parse_move_line (p, line, tok, nt);
  if (kw->header && p->seen_move)
    FAIL (p, line, "header line '%.*s' after the first move", (int) tok[0].n, tok[0].s);
  p->kw = kw;
  if (nt < kw->min_tokens || nt > kw->max_tokens)
    USAGE (p, line);
  return kw->parse (p, line, tok, nt);
}

/* Where the word at s[i] ends when it is a quoted name with spaces
 * ("Mari Carmen"): just after its closing quote, which a blank, '#' or the
 * line's end follows; otherwise i (the word is read up to the next blank). */
static size_t
quoted_end (const char *s, size_t i, size_t n)
{
  if (s[i] != '"')
    return i;
  const char *close = memchr (s + i + 1, '"', n - i - 1);
  if (close == NULL)
    return i;
  size_t j = (size_t) (close - s) + 1;
  return j == n || s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '#' ? j : i;
}

static EngStatus
tokenize (const char *s, size_t n, const char *source, unsigned line, Token *tok,
          size_t *out_nt, EngParseError *err)
{
  size_t nt = 0;
  for (size_t i = 0; i < n;)
    {
      unsigned char c = (unsigned char) s[i];
      if (c == '#')
        break;
      if (c == ' ' || c == '\t' || c == '\r')
        {
          i++;
          continue;
        }
      size_t j = quoted_end (s, i, n);
      while (j < n && s[j] != ' ' && s[j] != '\t' && s[j] != '\r' && s[j] != '#')
        j++;
      for (size_t k = i; k < j; k++)
        if ((unsigned char) s[k] < 0x20 || s[k] == 0x7f)
          {
            eng_parse_error_set (err, source, line, "unexpected control byte 0x%02x",
                                 (unsigned char) s[k]);
            return ENG_ERR_SYNTAX;
          }
      /* words are ASCII but for player names, which are UTF-8 (eng-name.h) */
      const char *bad = NULL;
      if (!g_utf8_validate_len (s + i, j - i, &bad))
        {
          eng_parse_error_set (err, source, line, "byte 0x%02x at column %zu is not UTF-8 text",
                               (unsigned char) *bad, (size_t) (bad - s) + 1);
          return ENG_ERR_SYNTAX;
        }
      if (nt >= MAX_TOKENS)
        {
          eng_parse_error_set (err, source, line, "too many words on one line");
          return ENG_ERR_SYNTAX;
        }
      /* "NAME": a player's name, quoted because it reads as a keyword or
       * holds a space */
      bool quoted = j - i >= 3 && s[i] == '"' && s[j - 1] == '"'
                    && memchr (s + i + 1, '"', j - i - 2) == NULL;
      tok[nt].s = s + i + quoted;
      tok[nt].n = j - i - 2 * quoted;
      tok[nt].quoted = quoted;
      nt++;
      i = j;
    }
  *out_nt = nt;
  return ENG_OK;
}

EngStatus
eng_record_parse_move (const EngRecord *record, const char *text, EngMove *out,
                       EngParseError *err)
{
  if (record == NULL || record->klass == NULL || text == NULL || out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  size_t n = strlen (text);
  if (n > MAX_LINE)
    {
      eng_parse_error_set (err, "move", 1, "line longer than %d characters", MAX_LINE);
      return ENG_ERR_SYNTAX;
    }
  Token tok[MAX_TOKENS];
  size_t nt = 0;
  EngStatus st = tokenize (text, n, "move", 1, tok, &nt, err);
  if (st != ENG_OK)
    return st;
  if (nt == 0)
    {
      eng_parse_error_set (err, "move", 1, "empty move");
      return ENG_ERR_SYNTAX;
    }
  Parser p = { (EngRecord *) record, "move", err, true, true };
  return move_from_tokens (&p, 1, tok, nt, out);
}

EngStatus
eng_record_parse (const char *text, size_t len, const char *source,
                  EngRecord **out, EngParseError *err)
{
  if (out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  *out = NULL;
  if (text == NULL && len > 0)
    return ENG_ERR_INVALID_ARGUMENT;
  if (source == NULL)
    source = "record";
  EngRecord *rec = calloc (1, sizeof *rec);
  if (rec == NULL)
    return ENG_ERR_NO_MEMORY;
  eng_setup_init (&rec->setup);
  Parser p = { rec, source, err, false, false };
  Token tok[MAX_TOKENS];
  unsigned line = 0;
  size_t pos = 0;
  EngStatus st = ENG_OK;
  while (pos < len && st == ENG_OK)
    {
      size_t end = pos;
      while (end < len && text[end] != '\n')
        end++;
      line++;
      const char *s = text + pos;
      size_t n = end - pos;
      pos = end + 1;
      if (n > MAX_LINE)
        {
          eng_parse_error_set (err, source, line, "line longer than %d characters", MAX_LINE);
          st = ENG_ERR_SYNTAX;
          break;
        }
      size_t nt = 0;
      st = tokenize (s, n, source, line, tok, &nt, err);
      if (st != ENG_OK || nt == 0)
        continue;
      st = parse_line (&p, line, tok, nt);
    }
  if (st == ENG_OK && !p.seen_game)
    {
      eng_parse_error_set (err, source, line, "empty record: no 'game' line");
      st = ENG_ERR_SYNTAX;
    }
  if (st == ENG_OK && (rec->setup.n_players < rec->klass->min_players))
    {
      eng_parse_error_set (err, source, line, "%s needs %u to %u players, the record lists %u",
                           rec->klass->name, rec->klass->min_players,
                           rec->klass->max_players, rec->setup.n_players);
      st = ENG_ERR_SYNTAX;
    }
  if (st != ENG_OK)
    {
      eng_record_free (rec);
      return st;
    }
  *out = rec;
  return ENG_OK;
}

EngStatus
eng_record_load_file (const char *path, EngRecord **out, EngParseError *err)
{
  if (out == NULL || path == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  *out = NULL;
  char *text = NULL;
  size_t len = 0;
  EngStatus st = eng_read_text_file (path, 4u << 20, &text, &len, err);
  if (st != ENG_OK)
    return st;
  st = eng_record_parse (text, len, path, out, err);
  free (text);
  return st;
}

EngRecord *
eng_record_new (const EngGameClass *klass, const EngSetup *setup, const EngOptions *options)
{
  EngRecord *rec = calloc (1, sizeof *rec);
  if (rec == NULL)
    return NULL;
  rec->klass = klass;
  if (setup != NULL)
    rec->setup = *setup;
  else
    eng_setup_init (&rec->setup);
  if (options != NULL)
    rec->options = *options;
  return rec;
}

EngStatus
eng_record_append (EngRecord *rec, const EngMove *move, unsigned line)
{
  if (rec->n_moves == rec->cap_moves)
    {
      size_t cap = rec->cap_moves ? rec->cap_moves * 2 : 64;
      EngRecordMove *m = realloc (rec->moves, cap * sizeof *m);
      if (m == NULL)
        return ENG_ERR_NO_MEMORY;
      rec->moves = m;
      rec->cap_moves = cap;
    }
  rec->moves[rec->n_moves].line = line;
  rec->moves[rec->n_moves].move = *move;
  rec->n_moves++;
  return ENG_OK;
}

void
eng_record_free (EngRecord *rec)
{
  if (rec == NULL)
    return;
  free (rec->moves);
  free (rec->notes);
  free (rec);
}

static bool
payload_ok (const char *s)
{
  if (s == NULL || strlen (s) != 11)
    return false;
  for (size_t i = 0; i < 11; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'A' && s[i] <= 'Z')))
      return false;
  return true;
}

EngStatus
eng_record_set_correction (EngRecord *rec, const char *seen, const char *actual)
{
  if (rec == NULL || !payload_ok (seen) || (actual != NULL && !payload_ok (actual)))
    return ENG_ERR_INVALID_ARGUMENT;
  size_t i = 0;
  while (i < rec->n_corrections && strcmp (rec->corrections[i].seen, seen) != 0)
    i++;
  if (actual == NULL || strcmp (actual, seen) == 0)
    {
      if (i < rec->n_corrections)
        {
          memmove (&rec->corrections[i], &rec->corrections[i + 1],
                   (rec->n_corrections - i - 1) * sizeof rec->corrections[0]);
          rec->n_corrections--;
        }
      return ENG_OK;
    }
  if (i == rec->n_corrections)
    {
      if (rec->n_corrections >= ENG_RECORD_MAX_CORRECTIONS)
        return ENG_ERR_LIMIT;
      rec->n_corrections++;
      memcpy (rec->corrections[i].seen, seen, 12);
    }
  memcpy (rec->corrections[i].actual, actual, 12);
  return ENG_OK;
}

EngStatus
eng_record_set_id (EngRecord *rec, const char *id, int64_t started)
{
  if (rec == NULL || started < 0)
    return ENG_ERR_INVALID_ARGUMENT;
  size_t n = id != NULL ? strlen (id) : 0;
  if (n >= ENG_RECORD_ID_MAX)
    return ENG_ERR_INVALID_ARGUMENT;
  for (size_t i = 0; i < n; i++)
    if (!g_ascii_isalnum (id[i]) && id[i] != '-')
      return ENG_ERR_INVALID_ARGUMENT;
  memcpy (rec->id, n > 0 ? id : "", n + 1);
  rec->started = n > 0 ? started : 0;
  return ENG_OK;
}

EngStatus
eng_record_set_notes (EngRecord *rec, const char *text, size_t len)
{
  if (rec == NULL || (text == NULL && len > 0) || (len > 0 && text[len - 1] != '\n'))
    return ENG_ERR_INVALID_ARGUMENT;
  size_t col = 0;
  for (size_t i = 0; i < len; i++)
    {
      unsigned char c = (unsigned char) text[i];
      bool space_ok = c == ' ' && col > 0 && text[i - 1] != ' ' && text[i + 1] != '\n';
      if (c == '\n')
        {
          if (col == 0)
            return ENG_ERR_INVALID_ARGUMENT;
          col = 0;
          continue;
        }
      if (++col > 1000 || c == '#' || c >= 0x7f || (c <= ' ' && !space_ok))
        return ENG_ERR_INVALID_ARGUMENT;
    }
  if (len + 1 > rec->notes_cap)
    {
      char *grown = realloc (rec->notes, len + 1 + len / 2);
      if (grown == NULL)
        return ENG_ERR_NO_MEMORY;
      rec->notes = grown;
      rec->notes_cap = len + 1 + len / 2;
    }
  if (rec->notes != NULL)
    {
      if (len > 0)
        memcpy (rec->notes, text, len);
      rec->notes[len] = '\0';
    }
  rec->notes_len = len;
  return ENG_OK;
}

/* ---- writer ----------------------------------------------------------- */

typedef struct {
  char *buf;
  size_t n, cap;
  bool failed;
} Out;

static void
out_add (Out *o, const char *s, size_t n)
{
  if (o->failed)
    return;
  if (o->n + n + 1 > o->cap)
    {
      size_t cap = o->cap ? o->cap : 1024;
      while (o->n + n + 1 > cap)
        cap *= 2;
      char *b = realloc (o->buf, cap);
      if (b == NULL)
        {
          o->failed = true;
          return;
        }
      o->buf = b;
      o->cap = cap;
    }
  memcpy (o->buf + o->n, s, n);
  o->n += n;
  o->buf[o->n] = '\0';
}

static void out_printf (Out *o, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

static void
out_printf (Out *o, const char *fmt, ...)
{
  char tmp[MAX_LINE + 64];
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (tmp, sizeof tmp, fmt, ap);
  va_end (ap);
  if (n < 0)
    return;
  out_add (o, tmp, (size_t) n < sizeof tmp ? (size_t) n : sizeof tmp - 1);
}

int
eng_record_name_word (const char *name, char *buf, size_t size)
{
  bool quote = is_reserved (name, strlen (name)) || strchr (name, ' ') != NULL;
  return quote ? snprintf (buf, size, "\"%s\"", name) : snprintf (buf, size, "%s", name);
}

/* A player's name, quoted when it reads as a keyword ("game") or holds a
 * space ("Mari Carmen"), after a space. */
static void
out_name (Out *o, const char *name)
{
  char word[ENG_NAME_MAX + 2];
  eng_record_name_word (name, word, sizeof word);
  out_printf (o, " %s", word);
}

static void
out_card (Out *o, uint16_t c)
{
  if (c == ENG_SERIAL_UNKNOWN)
    out_add (o, " ?", 2);
  else
    out_printf (o, " %u", (unsigned) c);
}

int
eng_record_format_move (const EngGameClass *klass, const EngSetup *setup,
                        const EngMove *m, char *buf, size_t size)
{
  Out o = { 0 };
  const char *verb = m->verb < klass->n_verbs ? klass->verbs[m->verb] : "?";
  const char *actor = (m->player >= 0 && (unsigned) m->player < setup->n_players)
                        ? setup->names[m->player] : "?";
  out_name (&o, actor);
  out_printf (&o, " %s", verb);
  if (m->card != 0)
    out_card (&o, m->card);
  for (unsigned i = 0; i < m->n_cards && i < ENG_MOVE_MAX_CARDS; i++)
    out_card (&o, m->cards[i]);
  for (int i = 0; i < 2; i++)
    if (m->target[i] >= 0 && (unsigned) m->target[i] < setup->n_players)
      {
        out_name (&o, setup->names[m->target[i]]);
        if (m->slot[i] >= 0)
          out_printf (&o, " %d", m->slot[i] + 1);
      }
  if (m->show != 0)
    out_printf (&o, " show %u", (unsigned) m->show);
  /* the line without the space out_name puts before the first word */
  int n = o.failed || o.buf == NULL ? 0 : (int) o.n - 1;
  if (size > 0)
    snprintf (buf, size, "%s", o.buf ? o.buf + 1 : "");
  free (o.buf);
  return n;
}

char *
eng_record_write (const EngRecord *rec)
{
  Out o = { 0 };
  const EngSetup *su = &rec->setup;
  out_printf (&o, "# Tablero game record (docs/record-format.md)\n");
  out_printf (&o, "game %s\n", rec->klass ? rec->klass->name : "?");
  if (rec->set_id[0] != '\0')
    out_printf (&o, "set %s\n", rec->set_id);
  for (size_t i = 0; i < rec->options.n; i++)
    out_printf (&o, "option %s %s\n", rec->options.items[i].name, rec->options.items[i].value);
  for (unsigned p = 0; p < su->n_players; p++)
    {
      out_printf (&o, "player");
      out_name (&o, su->names[p]);
      if (su->seats[p] != 0)
        out_printf (&o, " seat %u", (unsigned) su->seats[p]);
      out_add (&o, "\n", 1);
    }
  if (su->first >= 0)
    {
      out_printf (&o, "first");
      out_name (&o, su->names[su->first]);
      out_add (&o, "\n", 1);
    }
  if (su->last_winner >= 0)
    {
      out_printf (&o, "last-winner");
      out_name (&o, su->names[su->last_winner]);
      out_add (&o, "\n", 1);
    }
  if (su->has_seed)
    out_printf (&o, "seed %" PRIu64 "\n", su->seed);
  for (size_t i = 0; i < su->n_deals; i++)
    {
      const EngDeal *d = &su->deals[i];
      out_printf (&o, "deal");
      if (d->player >= 0)
        out_name (&o, su->names[d->player]);
      out_printf (&o, " %s", d->place);
      for (unsigned c = 0; c < d->n_cards; c++)
        out_card (&o, d->cards[c]);
      out_add (&o, "\n", 1);
    }
  if (rec->id[0] != '\0')
    {
      GDateTime *when = rec->started > 0 ? g_date_time_new_from_unix_utc (rec->started) : NULL;
      char *started = when != NULL ? g_date_time_format (when, " %Y-%m-%dT%H:%M:%SZ") : NULL;
      out_printf (&o, "@id %s%s\n", rec->id, started != NULL ? started : "");
      g_free (started);
      if (when != NULL)
        g_date_time_unref (when);
    }
  for (size_t i = 0; i < rec->n_corrections; i++)
    out_printf (&o, "@correct %s %s\n", rec->corrections[i].seen, rec->corrections[i].actual);
  for (size_t i = 0; i < rec->n_moves; i++)
    {
      char line[MAX_LINE];
      eng_record_format_move (rec->klass, su, &rec->moves[i].move, line, sizeof line);
      out_printf (&o, "%s\n", line);
    }
  for (size_t i = 0; i < rec->notes_len;)
    {
      size_t end = i;
      while (end < rec->notes_len && rec->notes[end] != '\n')
        end++;
      out_printf (&o, "@table %.*s\n", (int) (end - i), rec->notes + i);
      i = end + 1;
    }
  if (o.failed)
    {
      free (o.buf);
      return NULL;
    }
  return o.buf;
}

static bool
move_equal (const EngMove *a, const EngMove *b)
{
  if (a->verb != b->verb || a->player != b->player || a->card != b->card
      || a->n_cards != b->n_cards || a->show != b->show)
    return false;
  for (int i = 0; i < 2; i++)
    if (a->target[i] != b->target[i] || a->slot[i] != b->slot[i])
      return false;
  for (unsigned i = 0; i < a->n_cards && i < ENG_MOVE_MAX_CARDS; i++)
    if (a->cards[i] != b->cards[i])
      return false;
  return true;
}

bool
eng_record_equal (const EngRecord *a, const EngRecord *b)
{
  if (a->klass != b->klass || strcmp (a->set_id, b->set_id) != 0 || a->n_moves != b->n_moves)
    return false;
  if (a->options.n != b->options.n)
    return false;
  for (size_t i = 0; i < a->options.n; i++)
    if (strcmp (a->options.items[i].name, b->options.items[i].name) != 0
        || strcmp (a->options.items[i].value, b->options.items[i].value) != 0)
      return false;
  const EngSetup *x = &a->setup, *y = &b->setup;
  if (x->n_players != y->n_players || x->first != y->first || x->last_winner != y->last_winner
      || x->has_seed != y->has_seed || (x->has_seed && x->seed != y->seed)
      || x->n_deals != y->n_deals)
    return false;
  for (unsigned p = 0; p < x->n_players; p++)
    if (strcmp (x->names[p], y->names[p]) != 0 || x->seats[p] != y->seats[p])
      return false;
  for (size_t i = 0; i < x->n_deals; i++)
    {
      const EngDeal *d = &x->deals[i], *e = &y->deals[i];
      if (strcmp (d->place, e->place) != 0 || d->player != e->player || d->n_cards != e->n_cards
          || memcmp (d->cards, e->cards, d->n_cards * sizeof d->cards[0]) != 0)
        return false;
    }
  for (size_t i = 0; i < a->n_moves; i++)
    if (!move_equal (&a->moves[i].move, &b->moves[i].move))
      return false;
  if (a->n_corrections != b->n_corrections)
    return false;
  for (size_t i = 0; i < a->n_corrections; i++)
    if (strcmp (a->corrections[i].seen, b->corrections[i].seen) != 0
        || strcmp (a->corrections[i].actual, b->corrections[i].actual) != 0)
      return false;
  return true;
}

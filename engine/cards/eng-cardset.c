/* eng-cardset.c: the card-set loader (docs/card-sets.md is the format).
 *
 * One pass over the lines, declarations before use (the schema before the
 * cards that use it, a deck before its cards), then whole-set checks
 * (totals, required declarations), then the faces are expanded: serials
 * 1..N in file order, type after type, copy after copy.  Everything the set
 * hands out (strings, cards, attributes) is allocated here and lives until
 * eng_card_set_free(); nothing is touched after loading, so a loaded set can
 * be shared read-only between threads.
 */
#include "eng-cardset.h"

#include <glib.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SET_MAX_LINE 1024       /* bytes per line, comments included */
#define SET_MAX_TOKENS 64
#define SET_MAX_SERIAL 999      /* three decimal digits in the payload */
#define SET_MAX_DECKS 99
#define SET_MAX_ATTRS 32
#define SET_MAX_ENUM_VALUES 64
#define SET_MAX_TYPES 999
#define SET_MAX_SEATS 99
#define SET_MAX_ANCHORS 99
#define SET_MAX_TEXT 200        /* a quoted label or title, in bytes */
#define SET_MAX_ID 48

/* Commands every referee relies on; a set without them cannot be played. */
#define SET_MAX_CREDITS 8

/* The core's own commands every table has: undo.  What else a set
 * declares (end-turn, confirm, cancel, pass...) is its game's. */
static const char *const required_commands[] = { "undo" };

typedef struct {
  const char *key;
  gboolean is_int;
  long min, max;
  const char *unit;           /* for int attributes: "points" -> "3 points" */
  GPtrArray *values;          /* enum values (chunk strings) */
} AttrDecl;

typedef struct {
  const char *value;          /* a value of the `colour` attribute */
  const char *word;
  const char *symbol;
} ColourDecl;

typedef struct {
  const char *id;
  const char *name;
  uint16_t deck;
  uint16_t count;
  EngAttr *attrs;
  size_t n_attrs;
  unsigned line;
} CardType;

typedef struct {
  uint16_t declared_total;
  unsigned line;
} DeckInfo;

struct EngCardSet {
  GStringChunk *strings;
  const char *game;
  const char *game_name;
  char letter;
  char set_id[3];
  const char *title;
  int n_seats;                /* -1 until declared */
  int n_anchors;
  GArray *attr_decls;         /* AttrDecl */
  GArray *colours;            /* ColourDecl */
  GArray *types;              /* CardType */
  GArray *decks;              /* EngDeck */
  GArray *deck_info;          /* DeckInfo, parallel to decks */
  GArray *commands;           /* EngCommand */
  const char *credits[SET_MAX_CREDITS];
  size_t n_credits;
  EngCard *cards;
  size_t n_cards;
};

/* ------------------------------------------------------------------ */
/* Tokens */

typedef struct {
  const char *key;            /* NULL for a positional token */
  const char *value;
} Token;

typedef struct {
  const char *source;
  unsigned line;
  EngParseError *err;
} Ctx;

static EngStatus
fail (const Ctx *ctx, EngStatus status, const char *fmt, ...) __attribute__ ((format (printf, 3, 4)));

static EngStatus
fail (const Ctx *ctx, EngStatus status, const char *fmt, ...)
{
  char reason[256];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (reason, sizeof reason, fmt, ap);
  va_end (ap);
  eng_parse_error_set (ctx->err, ctx->source, ctx->line, "%s", reason);
  return status;
}

static gboolean
is_id_char (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
         || c == '-' || c == '_';
}

static gboolean
is_id (const char *s)
{
  size_t n = strlen (s);
  if (n == 0 || n > SET_MAX_ID)
    return FALSE;
  for (size_t i = 0; i < n; i++)
    if (!is_id_char (s[i]))
      return FALSE;
  return TRUE;
}

/* Reads a quoted string starting at *p (on the opening quote), unescaping
 * \" and \\ in place.  Returns the start of the text or NULL on error. */
static char *
read_quoted (char **p)
{
  char *src = *p + 1;
  char *start = src;
  char *dst = src;
  for (;;)
    {
      char c = *src;
      if (c == '\0')
        return NULL;
      if (c == '"')
        break;
      if (c == '\\')
        {
          char next = src[1];
          if (next != '"' && next != '\\')
            return NULL;
          *dst++ = next;
          src += 2;
          continue;
        }
      *dst++ = c;
      src++;
    }
  char *after = src + 1;
  if (*after != '\0' && *after != ' ' && *after != '\t')
    return NULL;
  *dst = '\0';
  *p = after;
  return start;
}

/* Splits a mutable line into tokens; stops at a '#' that starts a token.
 * Returns the number of tokens or -1 (with `err` set) on a syntax error. */
static int
tokenize (const Ctx *ctx, char *line, Token *tokens, EngStatus *status)
{
  int n = 0;
  char *p = line;
  for (;;)
    {
      while (*p == ' ' || *p == '\t')
        p++;
      if (*p == '\0' || *p == '#')
        return n;
      if (n == SET_MAX_TOKENS)
        {
          *status = fail (ctx, ENG_ERR_SYNTAX, "too many words on one line (at most %d)",
                          SET_MAX_TOKENS);
          return -1;
        }
      Token *t = &tokens[n++];
      t->key = NULL;
      if (*p == '"')
        {
          t->value = read_quoted (&p);
          if (t->value == NULL)
            {
              *status = fail (ctx, ENG_ERR_SYNTAX, "unterminated or malformed quoted text");
              return -1;
            }
          continue;
        }
      char *start = p;
      while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '=')
        p++;
      if (*p == '=')
        {
          if (p == start)
            {
              *status = fail (ctx, ENG_ERR_SYNTAX, "'=' without a key before it");
              return -1;
            }
          *p++ = '\0';
          t->key = start;
          if (!is_id (t->key))
            {
              *status = fail (ctx, ENG_ERR_SYNTAX, "bad key '%s'", t->key);
              return -1;
            }
          if (*p == '"')
            {
              t->value = read_quoted (&p);
              if (t->value == NULL)
                {
                  *status = fail (ctx, ENG_ERR_SYNTAX,
                                  "unterminated or malformed quoted text after '%s='", t->key);
                  return -1;
                }
              continue;
            }
          start = p;
          while (*p != '\0' && *p != ' ' && *p != '\t')
            p++;
          if (*p != '\0')
            *p++ = '\0';
          t->value = start;
          if (strchr (t->value, '=') != NULL || strchr (t->value, '"') != NULL)
            {
              *status = fail (ctx, ENG_ERR_SYNTAX, "bad value for '%s' (quote it)", t->key);
              return -1;
            }
          continue;
        }
      if (*p != '\0')
        *p++ = '\0';
      t->value = start;
      if (strchr (t->value, '"') != NULL)
        {
          *status = fail (ctx, ENG_ERR_SYNTAX, "stray quote in '%s'", t->value);
          return -1;
        }
    }
}

/* Strict decimal integer: optional '-', digits, nothing else, bounded. */
static gboolean
parse_long (const char *s, long min, long max, long *out)
{
  const char *p = s;
  if (*p == '-')
    p++;
  if (*p == '\0' || strlen (p) > 9)
    return FALSE;
  for (const char *q = p; *q; q++)
    if (*q < '0' || *q > '9')
      return FALSE;
  long v = strtol (s, NULL, 10);
  if (v < min || v > max)
    return FALSE;
  *out = v;
  return TRUE;
}

static gboolean
text_ok (const char *s)
{
  return *s != '\0' && strlen (s) <= SET_MAX_TEXT;
}

/* ------------------------------------------------------------------ */
/* Lookups */

static const AttrDecl *
find_attr_decl (const EngCardSet *set, const char *key)
{
  for (guint i = 0; i < set->attr_decls->len; i++)
    {
      const AttrDecl *d = &g_array_index (set->attr_decls, AttrDecl, i);
      if (strcmp (d->key, key) == 0)
        return d;
    }
  return NULL;
}

static const ColourDecl *
find_colour (const EngCardSet *set, const char *value)
{
  for (guint i = 0; i < set->colours->len; i++)
    {
      const ColourDecl *c = &g_array_index (set->colours, ColourDecl, i);
      if (strcmp (c->value, value) == 0)
        return c;
    }
  return NULL;
}

static int
find_deck_index (const EngCardSet *set, const char *id)
{
  for (guint i = 0; i < set->decks->len; i++)
    if (strcmp (g_array_index (set->decks, EngDeck, i).id, id) == 0)
      return (int) i;
  return -1;
}

static gboolean
attr_value_allowed (const AttrDecl *d, const char *value)
{
  if (d->is_int)
    {
      long v;
      return parse_long (value, d->min, d->max, &v);
    }
  for (guint i = 0; i < d->values->len; i++)
    if (strcmp (g_ptr_array_index (d->values, i), value) == 0)
      return TRUE;
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Directives */

static const char *
intern (EngCardSet *set, const char *s)
{
  return g_string_chunk_insert_const (set->strings, s);
}

static EngStatus
expect_positional (const Ctx *ctx, const char *directive, const Token *t, int n, int want,
                   const char *usage)
{
  if (n != want + 1)
    return fail (ctx, ENG_ERR_SYNTAX, "'%s' takes %s", directive, usage);
  for (int i = 1; i < n; i++)
    if (t[i].key != NULL)
      return fail (ctx, ENG_ERR_SYNTAX, "'%s' takes %s", directive, usage);
  return ENG_OK;
}

static EngStatus
do_game (EngCardSet *set, const Ctx *ctx, const Token *t, int n)
{
  EngStatus st = expect_positional (ctx, "game", t, n, 3, "an id, a letter A-Z and a name");
  if (st != ENG_OK)
    return st;
  if (set->game != NULL)
    return fail (ctx, ENG_ERR_DUPLICATE_ID, "'game' declared twice");
  if (!is_id (t[1].value))
    return fail (ctx, ENG_ERR_SYNTAX, "bad game id '%s'", t[1].value);
  const char *l = t[2].value;
  if (l[0] < 'A' || l[0] > 'Z' || l[1] != '\0')
    return fail (ctx, ENG_ERR_SYNTAX, "game letter must be one character A-Z, not '%s'", l);
  if (!text_ok (t[3].value))
    return fail (ctx, ENG_ERR_SYNTAX, "game name must be 1-%d bytes", SET_MAX_TEXT);
  set->game = intern (set, t[1].value);
  set->letter = l[0];
  set->game_name = intern (set, t[3].value);
  return ENG_OK;
}

static EngStatus
do_set (EngCardSet *set, const Ctx *ctx, const Token *t, int n)
{
  EngStatus st = expect_positional (ctx, "set", t, n, 1, "a 2-character id [0-9A-Z]");
  if (st != ENG_OK)
    return st;
  if (set->set_id[0] != '\0')
    return fail (ctx, ENG_ERR_DUPLICATE_ID, "'set' declared twice");
  const char *id = t[1].value;
  gboolean ok = strlen (id) == 2;
  for (int i = 0; ok && i < 2; i++)
    ok = (id[i] >= '0' && id[i] <= '9') || (id[i] >= 'A' && id[i] <= 'Z');
  if (!ok)
    return fail (ctx, ENG_ERR_SYNTAX, "bad set id '%s': two characters from 0-9 and A-Z", id);
  /* The one adjacent swap Luhn mod 36 misses is 0Z <-> Z0: with neither id
   * allowed, a swapped set id never names a loadable set (docs/tags.md). */
  if (strcmp (id, "0Z") == 0 || strcmp (id, "Z0") == 0)
    return fail (ctx, ENG_ERR_SYNTAX,
                 "set id '%s' is reserved: its swap passes the check character", id);
  set->set_id[0] = id[0];
  set->set_id[1] = id[1];
  set->set_id[2] = '\0';
  return ENG_OK;
}

static EngStatus
do_title (EngCardSet *set, const Ctx *ctx, const Token *t, int n)
{
  EngStatus st = expect_positional (ctx, "title", t, n, 1, "one (quoted) text");
  if (st != ENG_OK)
    return st;
  if (set->title != NULL)
    return fail (ctx, ENG_ERR_DUPLICATE_ID, "'title' declared twice");
  if (!text_ok (t[1].value))
    return fail (ctx, ENG_ERR_SYNTAX, "title must be 1-%d bytes", SET_MAX_TEXT);
  set->title = intern (set, t[1].value);
  return ENG_OK;
}

static EngStatus
do_credit (EngCardSet *set, const Ctx *ctx, const Token *t, int n)
{
  EngStatus st = expect_positional (ctx, "credit", t, n, 1, "one (quoted) text");
  if (st != ENG_OK)
    return st;
  if (set->n_credits >= SET_MAX_CREDITS)
    return fail (ctx, ENG_ERR_INCONSISTENT, "at most %d credit lines", SET_MAX_CREDITS);
  if (!text_ok (t[1].value))
    return fail (ctx, ENG_ERR_SYNTAX, "a credit must be 1-%d bytes", SET_MAX_TEXT);
  set->credits[set->n_credits++] = intern (set, t[1].value);
  return ENG_OK;
}

static EngStatus
do_number (const Ctx *ctx, const char *directive, const Token *t, int n, int max, int *slot)
{
  EngStatus st = expect_positional (ctx, directive, t, n, 1, "one number");
  if (st != ENG_OK)
    return st;
  if (*slot >= 0)
    return fail (ctx, ENG_ERR_DUPLICATE_ID, "'%s' declared twice", directive);
  long v;
  if (!parse_long (t[1].value, 0, max, &v))
    return fail (ctx, ENG_ERR_SYNTAX, "'%s' must be a number 0-%d, not '%s'", directive, max,
                 t[1].value);
  *slot = (int) v;
  return ENG_OK;
}

static gboolean
is_reserved_key (const char *key)
{
  return strcmp (key, "deck") == 0 || strcmp (key, "count") == 0 || strcmp (key, "name") == 0;
}

static EngStatus
do_attr (EngCardSet *set, const Ctx *ctx, const Token *t, int n)
{
  static const char usage[] = "a key, then 'enum VALUE...' or 'int MIN MAX [unit=WORD]'";
  if (n < 3 || t[1].key != NULL || t[2].key != NULL)
    return fail (ctx, ENG_ERR_SYNTAX, "'attr' takes %s", usage);
  const char *key = t[1].value;
  if (!is_id (key))
    return fail (ctx, ENG_ERR_SYNTAX, "bad attribute key '%s'", key);
  if (is_reserved_key (key))
    return fail (ctx, ENG_ERR_SYNTAX, "'%s' is reserved for the card line itself", key);
  if (find_attr_decl (set, key) != NULL)
    return fail (ctx, ENG_ERR_DUPLICATE_ID, "attribute '%s' declared twice", key);
  if (set->attr_decls->len >= SET_MAX_ATTRS)
    return fail (ctx, ENG_ERR_SYNTAX, "too many attributes (at most %d)", SET_MAX_ATTRS);

  AttrDecl d = { .key = intern (set, key) };
  if (strcmp (t[2].value, "int") == 0)
    {
      const char *unit = NULL;
      int pos = 0;
      long bounds[2] = { 0, 0 };
      for (int i = 3; i < n; i++)
        {
          if (t[i].key == NULL && pos < 2)
            {
              if (!parse_long (t[i].value, -99999, 99999, &bounds[pos]))
                return fail (ctx, ENG_ERR_SYNTAX, "bad bound '%s' for attribute '%s'",
                             t[i].value, key);
              pos++;
            }
          else if (t[i].key != NULL && strcmp (t[i].key, "unit") == 0 && unit == NULL
                   && text_ok (t[i].value))
            unit = t[i].value;
          else
            return fail (ctx, ENG_ERR_SYNTAX, "'attr' takes %s", usage);
        }
      if (pos != 2 || bounds[0] > bounds[1])
        return fail (ctx, ENG_ERR_SYNTAX, "attribute '%s' needs MIN <= MAX", key);
      d.is_int = TRUE;
      d.min = bounds[0];
      d.max = bounds[1];
      d.unit = unit ? intern (set, unit) : NULL;
    }
  else if (strcmp (t[2].value, "enum") == 0)
    {
      if (n < 4)
        return fail (ctx, ENG_ERR_SYNTAX, "enum attribute '%s' needs at least one value", key);
      if (n - 3 > SET_MAX_ENUM_VALUES)
        return fail (ctx, ENG_ERR_SYNTAX, "too many values for '%s'", key);
      d.values = g_ptr_array_new ();
      for (int i = 3; i < n; i++)
        {
          EngStatus st = ENG_OK;
          if (t[i].key != NULL || !is_id (t[i].value))
            st = fail (ctx, ENG_ERR_SYNTAX, "bad value '%s' for attribute '%s'", t[i].value, key);
          for (guint j = 0; st == ENG_OK && j < d.values->len; j++)
            if (strcmp (g_ptr_array_index (d.values, j), t[i].value) == 0)
              st = fail (ctx, ENG_ERR_DUPLICATE_ID, "value '%s' listed twice for '%s'",
                         t[i].value, key);
          if (st != ENG_OK)
            {
              g_ptr_array_free (d.values, TRUE);
              return st;
            }
          g_ptr_array_add (d.values, (gpointer) intern (set, t[i].value));
        }
    }
  else
    return fail (ctx, ENG_ERR_SYNTAX, "'attr' takes %s", usage);
  g_array_append_val (set->attr_decls, d);
  return ENG_OK;
}

static EngStatus
do_colour (EngCardSet *set, const Ctx *ctx, const Token *t, int n)
{
  static const char usage[] = "a value of the 'colour' attribute, word=TEXT and symbol=TEXT";
  if (n != 4 || t[1].key != NULL)
    return fail (ctx, ENG_ERR_SYNTAX, "'colour' takes %s", usage);
  const AttrDecl *d = find_attr_decl (set, "colour");
  if (d == NULL)
    return fail (ctx, ENG_ERR_SYNTAX, "'colour' before 'attr colour ...' declares its values");
  if (!attr_value_allowed (d, t[1].value))
    return fail (ctx, ENG_ERR_UNKNOWN_ATTRIBUTE, "'%s' is not a value of attribute 'colour'",
                 t[1].value);
  if (find_colour (set, t[1].value) != NULL)
    return fail (ctx, ENG_ERR_DUPLICATE_ID, "colour '%s' described twice", t[1].value);
  const char *word = NULL, *symbol = NULL;
  for (int i = 2; i < 4; i++)
    {
      if (t[i].key != NULL && strcmp (t[i].key, "word") == 0 && word == NULL)
        word = t[i].value;
      else if (t[i].key != NULL && strcmp (t[i].key, "symbol") == 0 && symbol == NULL)
        symbol = t[i].value;
    }
  if (word == NULL || symbol == NULL || !text_ok (word) || !text_ok (symbol))
    return fail (ctx, ENG_ERR_SYNTAX, "'colour' takes %s", usage);
  ColourDecl c = { intern (set, t[1].value), intern (set, word), intern (set, symbol) };
  g_array_append_val (set->colours, c);
  return ENG_OK;
}

static EngStatus
do_deck (EngCardSet *set, const Ctx *ctx, const Token *t, int n)
{
  static const char usage[] = "an id, total=N, label=TEXT and optionally back=yes|no";
  if (n < 2 || t[1].key != NULL)
    return fail (ctx, ENG_ERR_SYNTAX, "'deck' takes %s", usage);
  if (!is_id (t[1].value))
    return fail (ctx, ENG_ERR_SYNTAX, "bad deck id '%s'", t[1].value);
  if (find_deck_index (set, t[1].value) >= 0)
    return fail (ctx, ENG_ERR_DUPLICATE_ID, "deck '%s' declared twice", t[1].value);
  if (set->decks->len >= SET_MAX_DECKS)
    return fail (ctx, ENG_ERR_SYNTAX, "too many decks (at most %d)", SET_MAX_DECKS);
  const char *label = NULL, *back = NULL;
  long total = -1;
  for (int i = 2; i < n; i++)
    {
      const char *k = t[i].key;
      if (k == NULL)
        return fail (ctx, ENG_ERR_SYNTAX, "'deck' takes %s", usage);
      if (strcmp (k, "total") == 0 && total < 0)
        {
          if (!parse_long (t[i].value, 0, SET_MAX_SERIAL, &total))
            return fail (ctx, ENG_ERR_SYNTAX, "deck total must be 0-%d, not '%s'",
                         SET_MAX_SERIAL, t[i].value);
        }
      else if (strcmp (k, "label") == 0 && label == NULL)
        label = t[i].value;
      else if (strcmp (k, "back") == 0 && back == NULL)
        back = t[i].value;
      else
        return fail (ctx, ENG_ERR_SYNTAX, "'deck' takes %s ('%s=' is unknown or repeated)",
                     usage, k);
    }
  if (total < 0 || label == NULL || !text_ok (label))
    return fail (ctx, ENG_ERR_SYNTAX, "'deck' takes %s", usage);
  if (back != NULL && strcmp (back, "yes") != 0 && strcmp (back, "no") != 0)
    return fail (ctx, ENG_ERR_SYNTAX, "back= must be yes or no, not '%s'", back);
  EngDeck deck = {
    .id = intern (set, t[1].value),
    .label = intern (set, label),
    .n_cards = 0,
    .has_back = back == NULL || strcmp (back, "yes") == 0,
  };
  DeckInfo info = { (uint16_t) total, ctx->line };
  g_array_append_val (set->decks, deck);
  g_array_append_val (set->deck_info, info);
  return ENG_OK;
}

static EngStatus
do_card (EngCardSet *set, const Ctx *ctx, const Token *t, int n)
{
  static const char usage[] = "an id, deck=ID, count=N, name=TEXT and KEY=VALUE attributes";
  if (n < 2 || t[1].key != NULL)
    return fail (ctx, ENG_ERR_SYNTAX, "'card' takes %s", usage);
  const char *id = t[1].value;
  if (!is_id (id))
    return fail (ctx, ENG_ERR_SYNTAX, "bad card type id '%s'", id);
  for (guint i = 0; i < set->types->len; i++)
    if (strcmp (g_array_index (set->types, CardType, i).id, id) == 0)
      return fail (ctx, ENG_ERR_DUPLICATE_ID, "card type '%s' declared twice (first on line %u)",
                   id, g_array_index (set->types, CardType, i).line);
  if (set->types->len >= SET_MAX_TYPES)
    return fail (ctx, ENG_ERR_SYNTAX, "too many card types (at most %d)", SET_MAX_TYPES);

  const char *deck = NULL, *name = NULL;
  long count = -1;
  const Token *attrs[SET_MAX_TOKENS];
  size_t n_attrs = 0;
  for (int i = 2; i < n; i++)
    {
      const char *k = t[i].key;
      if (k == NULL)
        return fail (ctx, ENG_ERR_SYNTAX, "'card' takes %s (stray '%s')", usage, t[i].value);
      if (strcmp (k, "deck") == 0 || strcmp (k, "count") == 0 || strcmp (k, "name") == 0)
        {
          if ((k[0] == 'd' && deck) || (k[0] == 'c' && count >= 0) || (k[0] == 'n' && name))
            return fail (ctx, ENG_ERR_DUPLICATE_ID, "'%s=' given twice", k);
          if (k[0] == 'd')
            deck = t[i].value;
          else if (k[0] == 'n')
            name = t[i].value;
          else if (!parse_long (t[i].value, LONG_MIN / 2, LONG_MAX / 2, &count))
            return fail (ctx, ENG_ERR_SYNTAX, "count must be a number, not '%s'", t[i].value);
          else if (count < 0 || count > SET_MAX_SERIAL)
            return fail (ctx, ENG_ERR_INCONSISTENT, "count %ld is not 0-%d", count,
                         SET_MAX_SERIAL);
          continue;
        }
      const AttrDecl *d = find_attr_decl (set, k);
      if (d == NULL)
        return fail (ctx, ENG_ERR_UNKNOWN_ATTRIBUTE, "unknown attribute '%s' (no 'attr %s')", k, k);
      if (!attr_value_allowed (d, t[i].value))
        {
          if (d->is_int)
            return fail (ctx, ENG_ERR_UNKNOWN_ATTRIBUTE, "%s=%s is not an integer %ld..%ld", k,
                         t[i].value, d->min, d->max);
          return fail (ctx, ENG_ERR_UNKNOWN_ATTRIBUTE, "'%s' is not a value of attribute '%s'",
                       t[i].value, k);
        }
      for (size_t j = 0; j < n_attrs; j++)
        if (strcmp (attrs[j]->key, k) == 0)
          return fail (ctx, ENG_ERR_DUPLICATE_ID, "attribute '%s' given twice", k);
      if (strcmp (k, "colour") == 0 && set->colours->len > 0 && find_colour (set, t[i].value) == NULL)
        return fail (ctx, ENG_ERR_INCONSISTENT, "colour '%s' has no 'colour' line (word, symbol)",
                     t[i].value);
      attrs[n_attrs++] = &t[i];
    }
  if (deck == NULL || count < 0 || name == NULL)
    return fail (ctx, ENG_ERR_SYNTAX, "'card' takes %s (deck=, count= and name= are required)",
                 usage);
  if (!text_ok (name))
    return fail (ctx, ENG_ERR_SYNTAX, "card name must be 1-%d bytes", SET_MAX_TEXT);
  int deck_index = find_deck_index (set, deck);
  if (deck_index < 0)
    return fail (ctx, ENG_ERR_INCONSISTENT, "card '%s' names deck '%s', which no 'deck' line declares",
                 id, deck);
  if (set->n_cards + (size_t) count > SET_MAX_SERIAL)
    return fail (ctx, ENG_ERR_INCONSISTENT, "more than %d card faces in one set (serials are 3 digits)",
                 SET_MAX_SERIAL);

  CardType type = {
    .id = intern (set, id),
    .name = intern (set, name),
    .deck = (uint16_t) deck_index,
    .count = (uint16_t) count,
    .n_attrs = n_attrs,
    .line = ctx->line,
  };
  type.attrs = g_new0 (EngAttr, n_attrs ? n_attrs : 1);
  for (size_t j = 0; j < n_attrs; j++)
    {
      type.attrs[j].key = find_attr_decl (set, attrs[j]->key)->key;
      type.attrs[j].value = intern (set, attrs[j]->value);
    }
  g_array_append_val (set->types, type);
  set->n_cards += (size_t) count;
  g_array_index (set->decks, EngDeck, deck_index).n_cards += (uint16_t) count;
  return ENG_OK;
}

static EngStatus
do_command (EngCardSet *set, const Ctx *ctx, const Token *t, int n)
{
  /* an optional key=LETTER last: the window's keyboard shortcut */
  char key = 0;
  if (n == 4 && t[3].key != NULL && strcmp (t[3].key, "key") == 0)
    {
      const char *k = t[3].value;
      if (k[0] < 'a' || k[0] > 'z' || k[1] != '\0')
        return fail (ctx, ENG_ERR_SYNTAX, "a command's key is one letter a-z, not '%s'", k);
      key = k[0];
      n--;
    }
  EngStatus st = expect_positional (ctx, "command", t, n, 2,
                                    "an id, a (quoted) label and optionally key=LETTER");
  if (st != ENG_OK)
    return st;
  if (!is_id (t[1].value))
    return fail (ctx, ENG_ERR_SYNTAX, "bad command id '%s'", t[1].value);
  for (guint i = 0; i < set->commands->len; i++)
    if (strcmp (g_array_index (set->commands, EngCommand, i).id, t[1].value) == 0)
      return fail (ctx, ENG_ERR_DUPLICATE_ID, "command '%s' declared twice", t[1].value);
  if (set->commands->len >= SET_MAX_SERIAL)
    return fail (ctx, ENG_ERR_SYNTAX, "too many commands");
  if (!text_ok (t[2].value))
    return fail (ctx, ENG_ERR_SYNTAX, "command label must be 1-%d bytes", SET_MAX_TEXT);
  EngCommand c = {
    .serial = (uint16_t) (set->commands->len + 1),
    .id = intern (set, t[1].value),
    .label = intern (set, t[2].value),
    .key = key,
  };
  for (guint i = 0; key != 0 && i < set->commands->len; i++)
    if (g_array_index (set->commands, EngCommand, i).key == key)
      return fail (ctx, ENG_ERR_DUPLICATE_ID, "key '%c' given to two commands", key);
  g_array_append_val (set->commands, c);
  return ENG_OK;
}

static EngStatus
parse_line (EngCardSet *set, const Ctx *ctx, char *line)
{
  Token tokens[SET_MAX_TOKENS];
  EngStatus st = ENG_OK;
  int n = tokenize (ctx, line, tokens, &st);
  if (n < 0)
    return st;
  if (n == 0)
    return ENG_OK;
  if (tokens[0].key != NULL)
    return fail (ctx, ENG_ERR_SYNTAX, "a line starts with a directive, not '%s='", tokens[0].key);
  const char *d = tokens[0].value;
  if (strcmp (d, "game") == 0)
    return do_game (set, ctx, tokens, n);
  if (strcmp (d, "set") == 0)
    return do_set (set, ctx, tokens, n);
  if (strcmp (d, "title") == 0)
    return do_title (set, ctx, tokens, n);
  if (strcmp (d, "credit") == 0)
    return do_credit (set, ctx, tokens, n);
  if (strcmp (d, "seats") == 0)
    return do_number (ctx, "seats", tokens, n, SET_MAX_SEATS, &set->n_seats);
  if (strcmp (d, "anchors") == 0)
    return do_number (ctx, "anchors", tokens, n, SET_MAX_ANCHORS, &set->n_anchors);
  if (strcmp (d, "attr") == 0)
    return do_attr (set, ctx, tokens, n);
  if (strcmp (d, "colour") == 0)
    return do_colour (set, ctx, tokens, n);
  if (strcmp (d, "deck") == 0)
    return do_deck (set, ctx, tokens, n);
  if (strcmp (d, "card") == 0)
    return do_card (set, ctx, tokens, n);
  if (strcmp (d, "command") == 0)
    return do_command (set, ctx, tokens, n);
  return fail (ctx, ENG_ERR_SYNTAX, "unknown directive '%.40s'", d);
}

/* ------------------------------------------------------------------ */
/* Whole-set checks and expansion */

static EngStatus
check_whole (EngCardSet *set, Ctx *ctx)
{
  ctx->line = 0;
  if (set->game == NULL)
    return fail (ctx, ENG_ERR_SYNTAX, "missing 'game' declaration");
  if (set->set_id[0] == '\0')
    return fail (ctx, ENG_ERR_SYNTAX, "missing 'set' declaration");
  if (set->title == NULL)
    return fail (ctx, ENG_ERR_SYNTAX, "missing 'title' declaration");
  if (set->n_seats < 0)
    return fail (ctx, ENG_ERR_SYNTAX, "missing 'seats' declaration");
  if (set->n_anchors < 0)
    return fail (ctx, ENG_ERR_SYNTAX, "missing 'anchors' declaration");
  if (set->decks->len == 0)
    return fail (ctx, ENG_ERR_SYNTAX, "missing 'deck' declaration");
  if (set->n_seats == 0)
    return fail (ctx, ENG_ERR_INCONSISTENT, "a set needs at least one seat");
  for (guint i = 0; i < set->decks->len; i++)
    {
      const EngDeck *deck = &g_array_index (set->decks, EngDeck, i);
      const DeckInfo *info = &g_array_index (set->deck_info, DeckInfo, i);
      if (deck->n_cards != info->declared_total)
        {
          ctx->line = info->line;
          return fail (ctx, ENG_ERR_INCONSISTENT,
                       "deck '%s' declares total=%u but its cards count %u", deck->id,
                       (unsigned) info->declared_total, (unsigned) deck->n_cards);
        }
      if (!deck->has_back && deck->n_cards % 2 != 0)
        {
          ctx->line = info->line;
          return fail (ctx, ENG_ERR_INCONSISTENT,
                       "deck '%s' has no back, so its faces are the two sides of its cards, "
                       "but it counts %u faces (an odd number)", deck->id,
                       (unsigned) deck->n_cards);
        }
    }
  if (set->n_cards == 0)
    return fail (ctx, ENG_ERR_INCONSISTENT, "the set has no card faces");
  for (size_t i = 0; i < G_N_ELEMENTS (required_commands); i++)
    {
      gboolean found = FALSE;
      for (guint j = 0; j < set->commands->len && !found; j++)
        found = strcmp (g_array_index (set->commands, EngCommand, j).id, required_commands[i]) == 0;
      if (!found)
        return fail (ctx, ENG_ERR_INCONSISTENT, "missing required command '%s'",
                     required_commands[i]);
    }
  return ENG_OK;
}

static const char *
make_label (EngCardSet *set, const CardType *type, unsigned copy)
{
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "%s: %s", set->game_name, type->name);
  for (size_t i = 0; i < type->n_attrs; i++)
    if (strcmp (type->attrs[i].key, "colour") == 0)
      {
        const ColourDecl *c = find_colour (set, type->attrs[i].value);
        if (c != NULL)
          g_string_append_printf (s, ", %s (symbol: %s)", c->word, c->symbol);
        else
          g_string_append_printf (s, ", %s", type->attrs[i].value);
      }
  for (size_t i = 0; i < type->n_attrs; i++)
    if (strcmp (type->attrs[i].key, "value") == 0)
      {
        const AttrDecl *d = find_attr_decl (set, "value");
        const char *v = type->attrs[i].value;
        if (d != NULL && d->unit != NULL)
          {
            /* "1 point", "-2 points": labels are English. */
            size_t n = strlen (d->unit);
            gboolean one = strcmp (v, "1") == 0 || strcmp (v, "-1") == 0;
            int keep = (int) (one && n > 1 && d->unit[n - 1] == 's' ? n - 1 : n);
            g_string_append_printf (s, ", %s %.*s", v, keep, d->unit);
          }
        else
          g_string_append_printf (s, ", value %s", v);
      }
  g_string_append_printf (s, ", copy %u/%u", copy, (unsigned) type->count);
  const char *label = intern (set, s->str);
  g_string_free (s, TRUE);
  return label;
}

static void
expand_cards (EngCardSet *set)
{
  set->cards = g_new0 (EngCard, set->n_cards ? set->n_cards : 1);
  size_t k = 0;
  for (guint i = 0; i < set->types->len; i++)
    {
      const CardType *type = &g_array_index (set->types, CardType, i);
      for (unsigned copy = 1; copy <= type->count; copy++, k++)
        {
          EngCard *card = &set->cards[k];
          card->serial = (uint16_t) (k + 1);
          card->type_id = type->id;
          card->name = type->name;
          card->label = make_label (set, type, copy);
          card->deck = type->deck;
          card->copy = (uint16_t) copy;
          card->copies = type->count;
          card->attrs = type->attrs;
          card->n_attrs = type->n_attrs;
        }
    }
}

static EngCardSet *
set_new (void)
{
  EngCardSet *set = g_new0 (EngCardSet, 1);
  set->strings = g_string_chunk_new (4096);
  set->n_seats = -1;
  set->n_anchors = -1;
  set->attr_decls = g_array_new (FALSE, TRUE, sizeof (AttrDecl));
  set->colours = g_array_new (FALSE, TRUE, sizeof (ColourDecl));
  set->types = g_array_new (FALSE, TRUE, sizeof (CardType));
  set->decks = g_array_new (FALSE, TRUE, sizeof (EngDeck));
  set->deck_info = g_array_new (FALSE, TRUE, sizeof (DeckInfo));
  set->commands = g_array_new (FALSE, TRUE, sizeof (EngCommand));
  return set;
}

void
eng_card_set_free (EngCardSet *set)
{
  if (set == NULL)
    return;
  for (guint i = 0; i < set->attr_decls->len; i++)
    {
      AttrDecl *d = &g_array_index (set->attr_decls, AttrDecl, i);
      if (d->values != NULL)
        g_ptr_array_free (d->values, TRUE);
    }
  for (guint i = 0; i < set->types->len; i++)
    g_free (g_array_index (set->types, CardType, i).attrs);
  g_array_free (set->attr_decls, TRUE);
  g_array_free (set->colours, TRUE);
  g_array_free (set->types, TRUE);
  g_array_free (set->decks, TRUE);
  g_array_free (set->deck_info, TRUE);
  g_array_free (set->commands, TRUE);
  g_free (set->cards);
  g_string_chunk_free (set->strings);
  g_free (set);
}

EngStatus
eng_card_set_parse (const char *text, size_t len, const char *source_name, EngCardSet **out,
                    EngParseError *err)
{
  if (out != NULL)
    *out = NULL;
  Ctx ctx = { source_name ? source_name : "(card set)", 0, err };
  if (out == NULL || (text == NULL && len > 0))
    return fail (&ctx, ENG_ERR_INVALID_ARGUMENT, "no text or no place for the result");

  EngCardSet *set = set_new ();
  char buf[SET_MAX_LINE + 1];
  size_t pos = 0;
  EngStatus st = ENG_OK;
  while (pos < len && st == ENG_OK)
    {
      ctx.line++;
      const char *start = text + pos;
      const char *nl = memchr (start, '\n', len - pos);
      size_t line_len = nl ? (size_t) (nl - start) : len - pos;
      pos += line_len + (nl ? 1 : 0);
      if (line_len > 0 && start[line_len - 1] == '\r')
        line_len--;
      if (line_len > SET_MAX_LINE)
        {
          st = fail (&ctx, ENG_ERR_SYNTAX, "line longer than %d bytes", SET_MAX_LINE);
          break;
        }
      for (size_t i = 0; i < line_len && st == ENG_OK; i++)
        {
          unsigned char c = (unsigned char) start[i];
          if ((c < 0x20 && c != '\t') || c == 0x7f)
            st = fail (&ctx, ENG_ERR_SYNTAX, "control character 0x%02x in column %zu", c, i + 1);
        }
      if (st != ENG_OK)
        break;
      if (!g_utf8_validate (start, (gssize) line_len, NULL))
        {
          st = fail (&ctx, ENG_ERR_SYNTAX, "text is not valid UTF-8");
          break;
        }
      memcpy (buf, start, line_len);
      buf[line_len] = '\0';
      st = parse_line (set, &ctx, buf);
    }
  if (st == ENG_OK)
    st = check_whole (set, &ctx);
  if (st != ENG_OK)
    {
      eng_card_set_free (set);
      return st;
    }
  expand_cards (set);
  *out = set;
  return ENG_OK;
}

EngStatus
eng_card_set_load_file (const char *path, EngCardSet **out, EngParseError *err)
{
  if (out != NULL)
    *out = NULL;
  if (path == NULL || out == NULL)
    {
      eng_parse_error_set (err, path, 0, "no file name or no place for the result");
      return ENG_ERR_INVALID_ARGUMENT;
    }
  char *text = NULL;
  gsize len = 0;
  GError *error = NULL;
  if (!g_file_get_contents (path, &text, &len, &error))
    {
      eng_parse_error_set (err, path, 0, "%s", error->message);
      g_error_free (error);
      return ENG_ERR_IO;
    }
  EngStatus st = eng_card_set_parse (text, len, path, out, err);
  g_free (text);
  return st;
}

/* ------------------------------------------------------------------ */
/* Queries */

const char *
eng_card_set_game (const EngCardSet *set)
{
  return set->game;
}

const char *
eng_card_set_game_name (const EngCardSet *set)
{
  return set->game_name;
}

char
eng_card_set_game_letter (const EngCardSet *set)
{
  return set->letter;
}

const char *
eng_card_set_id (const EngCardSet *set)
{
  return set->set_id;
}

const char *
eng_card_set_title (const EngCardSet *set)
{
  return set->title;
}

size_t
eng_card_set_n_credits (const EngCardSet *set)
{
  return set->n_credits;
}

const char *
eng_card_set_credit (const EngCardSet *set, size_t index)
{
  return index < set->n_credits ? set->credits[index] : NULL;
}

size_t
eng_card_set_n_cards (const EngCardSet *set)
{
  return set->n_cards;
}

const EngCard *
eng_card_set_card (const EngCardSet *set, size_t index)
{
  return index < set->n_cards ? &set->cards[index] : NULL;
}

const EngCard *
eng_card_set_find_serial (const EngCardSet *set, uint16_t serial)
{
  /* Serials are dense and in file order, so the serial is the index + 1. */
  if (serial < 1 || serial > set->n_cards)
    return NULL;
  return &set->cards[serial - 1];
}

uint16_t
eng_card_set_other_side (const EngCardSet *set, uint16_t serial)
{
  const EngCard *card = eng_card_set_find_serial (set, serial);
  if (card == NULL)
    return 0;
  const EngDeck *deck = &g_array_index (set->decks, EngDeck, card->deck);
  if (deck->has_back)
    return 0;
  /* the deck's faces pair up in file order: 1st with 2nd, 3rd with 4th */
  size_t first = 0;
  while (set->cards[first].deck != card->deck)
    first++;
  size_t k = (size_t) (serial - 1) - first;
  size_t other = first + (k % 2 == 0 ? k + 1 : k - 1);
  return other < set->n_cards && set->cards[other].deck == card->deck
         ? set->cards[other].serial : 0;
}

size_t
eng_card_set_n_decks (const EngCardSet *set)
{
  return set->decks->len;
}

const EngDeck *
eng_card_set_deck (const EngCardSet *set, size_t index)
{
  return index < set->decks->len ? &g_array_index (set->decks, EngDeck, index) : NULL;
}

EngStatus
eng_card_set_find_deck (const EngCardSet *set, const char *id, size_t *index)
{
  if (id == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  int i = find_deck_index (set, id);
  if (i < 0)
    return ENG_ERR_NOT_FOUND;
  if (index != NULL)
    *index = (size_t) i;
  return ENG_OK;
}

unsigned
eng_card_set_n_anchors (const EngCardSet *set)
{
  return (unsigned) set->n_anchors;
}

unsigned
eng_card_set_n_seats (const EngCardSet *set)
{
  return (unsigned) set->n_seats;
}

size_t
eng_card_set_n_commands (const EngCardSet *set)
{
  return set->commands->len;
}

const EngCommand *
eng_card_set_command (const EngCardSet *set, size_t index)
{
  return index < set->commands->len ? &g_array_index (set->commands, EngCommand, index) : NULL;
}

const EngCommand *
eng_card_set_find_command (const EngCardSet *set, const char *id)
{
  if (id == NULL)
    return NULL;
  for (guint i = 0; i < set->commands->len; i++)
    if (strcmp (g_array_index (set->commands, EngCommand, i).id, id) == 0)
      return &g_array_index (set->commands, EngCommand, i);
  return NULL;
}

const char *
eng_card_set_colour_word (const EngCardSet *set, const char *colour)
{
  const ColourDecl *c = colour ? find_colour (set, colour) : NULL;
  return c ? c->word : NULL;
}

const char *
eng_card_set_attr_unit (const EngCardSet *set, const char *key)
{
  const AttrDecl *d = set != NULL && key != NULL ? find_attr_decl (set, key) : NULL;
  return d != NULL ? d->unit : NULL;
}

const char *
eng_card_set_colour_symbol (const EngCardSet *set, const char *colour)
{
  const ColourDecl *c = colour ? find_colour (set, colour) : NULL;
  return c ? c->symbol : NULL;
}

const char *
eng_card_attr (const EngCard *card, const char *key)
{
  if (card == NULL || key == NULL)
    return NULL;
  for (size_t i = 0; i < card->n_attrs; i++)
    if (strcmp (card->attrs[i].key, key) == 0)
      return card->attrs[i].value;
  return NULL;
}

EngStatus
eng_card_attr_int (const EngCard *card, const char *key, long *out)
{
  const char *value = eng_card_attr (card, key);
  if (value == NULL)
    return ENG_ERR_NOT_FOUND;
  long v;
  if (!parse_long (value, -999999999L, 999999999L, &v))
    return ENG_ERR_SYNTAX;
  if (out != NULL)
    *out = v;
  return ENG_OK;
}

EngStatus
eng_card_set_resolve (const EngCardSet *set, const EngTag *tag, EngTagMeaning *out)
{
  if (set == NULL || tag == NULL || out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (tag->game != set->letter || tag->set[0] != set->set_id[0] || tag->set[1] != set->set_id[1])
    return ENG_ERR_TAG_UNKNOWN;
  EngTagMeaning m = { .tag = *tag };
  unsigned serial = tag->serial;
  switch (tag->kind)
    {
    case ENG_TAG_FACE:
      m.card = eng_card_set_find_serial (set, tag->serial);
      if (m.card == NULL)
        return ENG_ERR_TAG_UNKNOWN;
      break;
    case ENG_TAG_BACK:
      m.deck = eng_card_set_deck (set, serial - 1u);
      if (serial < 1 || m.deck == NULL || !m.deck->has_back)
        return ENG_ERR_TAG_UNKNOWN;
      break;
    case ENG_TAG_ANCHOR:
      if (serial < 1 || serial > (unsigned) set->n_anchors)
        return ENG_ERR_TAG_UNKNOWN;
      m.anchor = serial;
      break;
    case ENG_TAG_SEAT:
      if (serial < 1 || serial > (unsigned) set->n_seats)
        return ENG_ERR_TAG_UNKNOWN;
      m.seat = serial;
      break;
    case ENG_TAG_COMMAND:
      m.command = eng_card_set_command (set, serial - 1u);
      if (serial < 1 || m.command == NULL)
        return ENG_ERR_TAG_UNKNOWN;
      break;
    default:
      return ENG_ERR_TAG_UNKNOWN;
    }
  *out = m;
  return ENG_OK;
}

static size_t
n_backs (const EngCardSet *set)
{
  size_t n = 0;
  for (guint i = 0; i < set->decks->len; i++)
    {
      const EngDeck *d = &g_array_index (set->decks, EngDeck, i);
      if (d->has_back)
        n += d->n_cards;
    }
  return n;
}

size_t
eng_card_set_n_stickers (const EngCardSet *set)
{
  return set->n_cards + n_backs (set) + (size_t) set->n_anchors + (size_t) set->n_seats
         + set->commands->len;
}

EngStatus
eng_card_set_sticker (const EngCardSet *set, size_t index, EngTagMeaning *out)
{
  if (set == NULL || out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  EngTag tag = { .game = set->letter };
  memcpy (tag.set, set->set_id, sizeof tag.set);
  if (index < set->n_cards)
    {
      tag.kind = ENG_TAG_FACE;
      tag.serial = set->cards[index].serial;
      return eng_card_set_resolve (set, &tag, out);
    }
  index -= set->n_cards;
  for (guint i = 0; i < set->decks->len; i++)
    {
      const EngDeck *d = &g_array_index (set->decks, EngDeck, i);
      size_t backs = d->has_back ? d->n_cards : 0;
      if (index < backs)
        {
          tag.kind = ENG_TAG_BACK;
          tag.serial = (uint16_t) (i + 1);
          return eng_card_set_resolve (set, &tag, out);
        }
      index -= backs;
    }
  static const EngTagKind tail[] = { ENG_TAG_ANCHOR, ENG_TAG_SEAT, ENG_TAG_COMMAND };
  size_t tail_n[] = { (size_t) set->n_anchors, (size_t) set->n_seats, set->commands->len };
  for (size_t i = 0; i < G_N_ELEMENTS (tail); i++)
    {
      if (index < tail_n[i])
        {
          tag.kind = tail[i];
          tag.serial = (uint16_t) (index + 1);
          return eng_card_set_resolve (set, &tag, out);
        }
      index -= tail_n[i];
    }
  return ENG_ERR_NOT_FOUND;
}

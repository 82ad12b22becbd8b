#include "eng-game.h"
#include "eng-i18n.h"
#include "eng-name.h"

#include "eng-card-table.h"
#include "eng-data.h"
#include "eng-play.h"
#include "eng-record.h"
#include "eng-view.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
eng_move_init (EngMove *move, unsigned verb, int player)
{
  memset (move, 0, sizeof *move);
  move->verb = (uint8_t) verb;
  move->player = (int8_t) player;
  move->target[0] = move->target[1] = -1;
  move->slot[0] = move->slot[1] = -1;
}

const char *
eng_event_kind_to_string (EngEventKind kind)
{
  static const char *const names[ENG_EVENT_KIND_COUNT] = {
    [ENG_EVENT_ACCEPTED] = "accepted",
    [ENG_EVENT_ILLEGAL] = "illegal",
    [ENG_EVENT_NEED] = "need",
    [ENG_EVENT_SHOWN] = "shown",
    [ENG_EVENT_TAKEN] = "capture",
    [ENG_EVENT_STAYED] = "escape",
    [ENG_EVENT_SCORE] = "score",
    [ENG_EVENT_DEALT] = "refill",
    [ENG_EVENT_RESHUFFLE] = "reshuffle",
    [ENG_EVENT_RETURN] = "return",
    [ENG_EVENT_TURN] = "turn",
    [ENG_EVENT_GAME_OVER] = "game-over",
    [ENG_EVENT_CONSERVATION] = "conservation",
    [ENG_EVENT_NOTE] = "note",
  };
  if ((unsigned) kind >= ENG_EVENT_KIND_COUNT)
    return "unknown";
  return names[kind];
}

void
eng_events_init (EngEvents *events, EngEvent *storage, size_t cap)
{
  events->items = storage;
  events->n = 0;
  events->cap = cap;
  events->dropped = 0;
}

EngEvent *
eng_events_add (EngEvents *events, EngEventKind kind)
{
  if (events == NULL)
    return NULL;
  if (events->n >= events->cap || events->items == NULL)
    {
      events->dropped++;
      return NULL;
    }
  EngEvent *ev = &events->items[events->n++];
  memset (ev, 0, sizeof *ev);
  ev->kind = kind;
  ev->player = ev->other = -1;
  return ev;
}

EngEvent *
eng_events_vaddf (EngEvents *events, EngEventKind kind, int player, const char *rule,
                  const char *fmt, va_list ap)
{
  EngEvent *ev = eng_events_add (events, kind);
  if (ev == NULL)
    return NULL;
  ev->player = (int8_t) player;
  snprintf (ev->rule, sizeof ev->rule, "%s", rule ? rule : "");
  va_list words;
  va_copy (words, ap);
  vsnprintf (ev->text, sizeof ev->text, fmt, words);
  va_end (words);
  /* names known only now: "de Ana" -> "d'Ana" where the language elides */
  eng_i18n_elide (ev->text);
  /* an accepted move's text is its record line, left as the record says */
  if (kind != ENG_EVENT_ACCEPTED)
    eng_text_capitalize (ev->text, fmt, ap);
  return ev;
}

/* The argument a sentence made from `fmt` starts with ("%s: ..." or
 * "%1$s: ...", after the opening marks eng_i18n_capitalize skips), or NULL
 * when it starts with words of the format or another argument. */
static const char *
first_string_argument (const char *fmt, va_list ap)
{
  const unsigned char *f = (const unsigned char *) fmt;
  for (;;)
    {
      if (f[0] == 0xC2 && (f[1] == 0xA1 || f[1] == 0xBF || f[1] == 0xAB))
        f += 2;
      else if (*f == '"' || *f == '\'' || *f == '(')
        f++;
      else
        break;
    }
  if (strncmp ((const char *) f, "%s", 2) != 0 && strncmp ((const char *) f, "%1$s", 4) != 0)
    return NULL;
  va_list copy;
  va_copy (copy, ap);
  const char *first = va_arg (copy, const char *);
  va_end (copy);
  return first;
}

void
eng_text_capitalize (char *text, const char *fmt, va_list ap)
{
  /* a player's name is said as it is written ("àngel: take..."): a sentence
   * that starts with one word, name-shaped, starts with a name (a reason
   * that starts a sentence is words; so a name with a space, "mari
   * carmen", is capitalized like one: the price of telling them apart
   * without the table's names); so does one that
   * starts with a name-shaped word and a colon, the way the table is told
   * who must act ("núria: take the Nope into your hand"), whether the
   * sentence came whole or in parts; the format's own first word is
   * always capitalized ("correct: ..." -> "Correct: ...") */
  const char *first = first_string_argument (fmt, ap);
  if (first != NULL)
    {
      size_t len = strcspn (first, " ");
      if (first[len] == '\0' && eng_name_check (first, len) == ENG_NAME_OK)
        return;
    }
  size_t word = strcspn (text, " :");
  if (first != NULL && text[word] == ':' && eng_name_check (text, word) == ENG_NAME_OK)
    return;
  eng_i18n_capitalize (text);
}

EngEvent *
eng_events_addf (EngEvents *events, EngEventKind kind, const char *rule,
                 const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  EngEvent *ev = eng_events_vaddf (events, kind, -1, rule, fmt, ap);
  va_end (ap);
  return ev;
}

/* ---- options ---------------------------------------------------------- */

static bool
option_name_ok (const char *s, size_t n)
{
  if (n == 0)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!(isalnum ((unsigned char) s[i]) || s[i] == '_' || s[i] == '-'))
      return false;
  return true;
}

EngStatus
eng_options_set (EngOptions *opts, const char *name, const char *value)
{
  if (opts == NULL || name == NULL || value == NULL
      || strlen (name) >= sizeof opts->items[0].name
      || strlen (value) >= sizeof opts->items[0].value)
    return ENG_ERR_INVALID_ARGUMENT;
  for (size_t i = 0; i < opts->n; i++)
    if (strcmp (opts->items[i].name, name) == 0)
      {
        snprintf (opts->items[i].value, sizeof opts->items[i].value, "%s", value);
        return ENG_OK;
      }
  if (opts->n >= ENG_MAX_OPTIONS)
    return ENG_ERR_LIMIT;
  snprintf (opts->items[opts->n].name, sizeof opts->items[0].name, "%s", name);
  snprintf (opts->items[opts->n].value, sizeof opts->items[0].value, "%s", value);
  opts->n++;
  return ENG_OK;
}

const char *
eng_options_get (const EngOptions *opts, const char *name)
{
  if (opts == NULL)
    return NULL;
  for (size_t i = 0; i < opts->n; i++)
    if (strcmp (opts->items[i].name, name) == 0)
      return opts->items[i].value;
  return NULL;
}

EngStatus
eng_options_parse (const char *text, size_t len, const char *source,
                   EngOptions *out, EngParseError *err)
{
  if (out == NULL || (text == NULL && len > 0))
    return ENG_ERR_INVALID_ARGUMENT;
  EngOptions opts = { 0 };
  unsigned line_no = 0;
  size_t pos = 0;
  while (pos < len)
    {
      size_t end = pos;
      while (end < len && text[end] != '\n')
        end++;
      line_no++;
      const char *s = text + pos;
      size_t n = end - pos;
      pos = end + 1;
      for (size_t i = 0; i < n; i++)
        if (s[i] == '#')
          {
            n = i;
            break;
          }
      for (size_t i = 0; i < n; i++)
        if (s[i] == '\0')
          {
            eng_parse_error_set (err, source, line_no, "NUL byte in the text");
            return ENG_ERR_SYNTAX;
          }
      while (n > 0 && isspace ((unsigned char) *s))
        s++, n--;
      while (n > 0 && isspace ((unsigned char) s[n - 1]))
        n--;
      if (n == 0)
        continue;
      const char *eq = memchr (s, '=', n);
      if (eq == NULL)
        {
          eng_parse_error_set (err, source, line_no, "expected 'name = value'");
          return ENG_ERR_SYNTAX;
        }
      size_t kn = (size_t) (eq - s);
      while (kn > 0 && isspace ((unsigned char) s[kn - 1]))
        kn--;
      const char *v = eq + 1;
      size_t vn = n - (size_t) (v - s);
      while (vn > 0 && isspace ((unsigned char) *v))
        v++, vn--;
      if (!option_name_ok (s, kn) || kn >= sizeof opts.items[0].name)
        {
          eng_parse_error_set (err, source, line_no, "bad option name");
          return ENG_ERR_SYNTAX;
        }
      if (vn == 0 || vn >= sizeof opts.items[0].value || !option_name_ok (v, vn))
        {
          eng_parse_error_set (err, source, line_no,
                               "bad option value (one word of letters, digits, '-' or '_')");
          return ENG_ERR_SYNTAX;
        }
      char name[32], value[32];
      memcpy (name, s, kn);
      name[kn] = '\0';
      memcpy (value, v, vn);
      value[vn] = '\0';
      if (eng_options_set (&opts, name, value) != ENG_OK)
        {
          eng_parse_error_set (err, source, line_no, "too many options (at most %d)",
                               ENG_MAX_OPTIONS);
          return ENG_ERR_LIMIT;
        }
    }
  *out = opts;
  return ENG_OK;
}

EngStatus
eng_options_read (const EngOptions *options, const EngOptionSpec *specs, size_t n,
                  const char *game, int *values, EngParseError *err)
{
  for (size_t i = 0; options != NULL && i < options->n; i++)
    {
      size_t k = 0;
      while (k < n && strcmp (options->items[i].name, specs[k].name) != 0)
        k++;
      if (k == n)
        {
          eng_parse_error_set (err, "options", 0, "unknown %s option '%s'", game,
                               options->items[i].name);
          return ENG_ERR_UNKNOWN_ATTRIBUTE;
        }
    }
  for (size_t k = 0; k < n; k++)
    {
      const EngOptionSpec *o = &specs[k];
      const char *v = eng_options_get (options, o->name);
      values[k] = o->def;
      if (v == NULL)
        continue;
      bool ok = false;
      if (o->kind == ENG_OPTION_YESNO)
        {
          ok = strcmp (v, "yes") == 0 || strcmp (v, "no") == 0;
          values[k] = v[0] == 'y';
        }
      else if (o->kind == ENG_OPTION_CHOICE)
        {
          size_t len = strlen (v);
          int idx = 0;
          for (const char *w = o->choices; *w != '\0' && !ok; idx++)
            {
              size_t wn = strcspn (w, " ");
              if ((ok = wn == len && strncmp (w, v, wn) == 0))
                values[k] = idx;
              w += wn;
              w += strspn (w, " ");
            }
        }
      else
        {
          char *end = NULL;
          long x = strtol (v, &end, 10);
          ok = end != v && *end == '\0' && x >= o->lo && x <= o->hi;
          values[k] = (int) x;
        }
      if (!ok)
        {
          if (o->kind == ENG_OPTION_YESNO)
            eng_parse_error_set (err, "options", 0, "option %s: '%s' is not yes or no", o->name, v);
          else if (o->kind == ENG_OPTION_CHOICE)
            eng_parse_error_set (err, "options", 0, "option %s: '%s' is not one of: %s", o->name,
                                 v, o->choices);
          else
            eng_parse_error_set (err, "options", 0, "option %s: '%s' is not %d-%d", o->name, v,
                                 o->lo, o->hi);
          return ENG_ERR_SYNTAX;
        }
    }
  return ENG_OK;
}

EngStatus
eng_options_load_file (const char *path, EngOptions *out, EngParseError *err)
{
  char *text = NULL;
  size_t len = 0;
  EngStatus st = eng_read_text_file (path, 16384, &text, &len, err);
  if (st != ENG_OK)
    return st;
  st = eng_options_parse (text, len, path, out, err);
  free (text);
  return st;
}

void
eng_setup_init (EngSetup *setup)
{
  memset (setup, 0, sizeof *setup);
  setup->first = -1;
  setup->last_winner = -1;
}

/* The registry itself (eng_game_class_find, _count, _get) is generated from
 * the one list of games in engine/meson.build (eng-registry.c). */

void
eng_game_class_names (char *buf, size_t size)
{
  size_t n = 0;
  if (size > 0)
    buf[0] = '\0';
  for (size_t i = 0; i < eng_game_class_count () && n < size; i++)
    n += (size_t) snprintf (buf + n, size - n, "%s%s", i ? ", " : "", eng_game_class_get (i)->name);
}

int
eng_game_class_verb (const EngGameClass *klass, const char *name)
{
  if (klass == NULL || name == NULL)
    return -1;
  for (size_t i = 0; i < klass->n_verbs; i++)
    if (klass->verbs[i] != NULL && strcmp (klass->verbs[i], name) == 0)
      return (int) i;
  return -1;
}

/* ---- EngGame ---------------------------------------------------------- */

struct EngGame {
  const EngGameClass *klass;
  void *rules;
  EngSetup setup;
  unsigned char *state;      /* state_size bytes */
  unsigned char *history;    /* depth * state_size bytes */
  size_t depth, capacity;
};

EngStatus
eng_game_new (const EngGameClass *klass, const EngCardSet *set,
              const EngOptions *options, const EngSetup *setup,
              const EngRng *rng, EngEvents *events, EngGame **out, EngVerdict *why)
{
  if (out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  *out = NULL;
  if (klass == NULL || set == NULL || setup == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  EngGame *g = calloc (1, sizeof *g);
  if (g == NULL)
    return ENG_ERR_NO_MEMORY;
  g->klass = klass;
  g->setup = *setup;
  EngParseError perr = { 0 };
  EngStatus st = eng_game_class_rules_new (klass, set, options, &g->rules, &perr);
  if (st != ENG_OK)
    {
      if (why != NULL)
        {
          snprintf (why->rule, sizeof why->rule, "options");
          snprintf (why->reason, sizeof why->reason, "%.190s", perr.reason);
        }
      free (g);
      return st;
    }
  g->state = calloc (1, klass->state_size);
  if (g->state == NULL)
    {
      eng_game_class_rules_free (klass, g->rules);
      free (g);
      return ENG_ERR_NO_MEMORY;
    }
  EngRng fallback;
  if (rng == NULL)
    {
      eng_rng_seed (&fallback, setup->seed);
      rng = &fallback;
    }
  st = klass->setup (g->rules, setup, rng, g->state, events, why);
  if (st != ENG_OK)
    {
      eng_game_free (g);
      return st;
    }
  *out = g;
  return ENG_OK;
}

void
eng_game_free (EngGame *game)
{
  if (game == NULL)
    return;
  if (game->rules != NULL)
    eng_game_class_rules_free (game->klass, game->rules);
  free (game->state);
  free (game->history);
  free (game);
}

const EngGameClass *eng_game_class (const EngGame *game) { return game->klass; }
const void *eng_game_rules (const EngGame *game) { return game->rules; }
const void *eng_game_state (const EngGame *game) { return game->state; }
const EngSetup *eng_game_setup (const EngGame *game) { return &game->setup; }

EngStatus
eng_game_class_apply (const EngGameClass *klass, const void *rules, const EngSetup *setup,
                      void *state, const EngMove *move, EngEvents *events, EngVerdict *why)
{
  if (klass->apply != NULL)
    return klass->apply (rules, state, move, events, why);
  return eng_play_apply (klass, rules, setup, state, move, events, why);
}

EngStatus
eng_game_class_check (const EngGameClass *klass, const void *rules, const EngSetup *setup,
                      const void *state, const EngMove *move, EngVerdict *why)
{
  if (klass->check != NULL)
    return klass->check (rules, state, move, why);
  return eng_play_check (klass, rules, setup, state, move, why);
}

EngStatus
eng_game_class_rules_new (const EngGameClass *klass, const EngCardSet *set,
                          const EngOptions *options, void **out, EngParseError *err)
{
  if (klass->rules_new != NULL)
    return klass->rules_new (set, options, out, err);
  *out = NULL;
  if (klass->rules_size < sizeof (EngCardTable))
    return ENG_ERR_INVALID_ARGUMENT;
  unsigned char *r = calloc (1, klass->rules_size);
  if (r == NULL)
    return ENG_ERR_NO_MEMORY;
  EngCardTable *t = (EngCardTable *) r;
  EngStatus st = eng_card_table_init (t, set, klass, klass->max_cards, err);
  for (size_t i = 0; st == ENG_OK && i < klass->n_attrs; i++)
    {
      const EngAttrSpec *a = &klass->attrs[i];
      st = a->values != NULL ? eng_card_table_enum (t, a->key, a->values, r + a->offset, err)
                             : eng_card_table_int (t, a->key, a->lo, a->hi,
                                                   (int8_t *) (r + a->offset), err);
    }
  int values[ENG_MAX_OPTIONS];
  if (st == ENG_OK && klass->n_options > ENG_MAX_OPTIONS)
    st = ENG_ERR_LIMIT;
  if (st == ENG_OK)
    st = eng_options_read (options, klass->options, klass->n_options,
                           klass->title != NULL ? klass->title : klass->name, values, err);
  for (size_t i = 0; st == ENG_OK && i < klass->n_options; i++)
    memcpy (r + klass->options[i].offset, &values[i], sizeof values[i]);
  if (st == ENG_OK && klass->rules_check != NULL)
    st = klass->rules_check (r, err);
  if (st != ENG_OK)
    {
      free (r);
      return st;
    }
  *out = r;
  return ENG_OK;
}

void
eng_game_class_rules_free (const EngGameClass *klass, void *rules)
{
  if (klass->rules_free != NULL)
    klass->rules_free (rules);
  else
    free (rules);
}

int
eng_game_class_score (const EngGameClass *klass, const void *rules, const void *state,
                      unsigned player)
{
  if (klass->score != NULL)
    return klass->score (rules, state, player);
  return player < ENG_MAX_PLAYERS ? ((const EngPlayHeader *) state)->score[player] : 0;
}

bool
eng_game_class_is_over (const EngGameClass *klass, const void *rules, const void *state)
{
  if (klass->is_over != NULL)
    return klass->is_over (rules, state);
  return ((const EngPlayHeader *) state)->over != 0;
}

unsigned
eng_game_class_winners (const EngGameClass *klass, const void *rules, const void *state,
                        const char **tiebreak)
{
  if (klass->winners != NULL)
    return klass->winners (rules, state, tiebreak);
  const EngPlayHeader *h = state;
  if (tiebreak != NULL)
    *tiebreak = h->over ? "score" : NULL;
  return h->over ? h->winners : 0;
}

int
eng_game_class_to_move (const EngGameClass *klass, const void *rules, const void *state)
{
  if (klass->to_move != NULL)
    return klass->to_move (rules, state);
  const EngPlayHeader *h = state;
  return h->over ? -1 : h->to_move;
}

bool
eng_game_class_move_shape_ok (const EngGameClass *klass, const EngMove *m, char *reason,
                              size_t size)
{
  if (klass->move_shape_ok != NULL)
    return klass->move_shape_ok (m, reason, size);
  if (klass->shapes == NULL || m->verb >= klass->n_verbs)
    {
      if (reason != NULL && size > 0)
        snprintf (reason, size, "a known verb");
      return klass->shapes != NULL ? false : true;
    }
  const EngVerbShape *v = &klass->shapes[m->verb];
  unsigned cards = (m->card != 0) + m->n_cards, players = 0;
  bool ok = (m->card != 0 || m->n_cards == 0) && cards >= v->min_cards && cards <= v->max_cards
            && (v->show || m->show == 0);
  for (unsigned i = 0; i < 2; i++)
    {
      players += m->target[i] >= 0;
      ok = ok && (m->slot[i] < 0 || (v->slots && m->target[i] >= 0));
    }
  ok = ok && players <= v->players;
  for (unsigned i = 0; ok && !v->unseen && i <= m->n_cards; i++)
    ok = (i == 0 ? m->card : m->cards[i - 1]) != ENG_SERIAL_UNKNOWN;
  if (!ok && reason != NULL && size > 0)
    snprintf (reason, size, "'%s' takes %u to %u cards%s%s", klass->verbs[m->verb],
              (unsigned) v->min_cards, (unsigned) v->max_cards,
              v->players > 0 ? " and players" : ", no player", v->show ? ", show N" : "");
  return ok;
}

EngStatus
eng_game_check (const EngGame *game, const EngMove *move, EngVerdict *why)
{
  return eng_game_class_check (game->klass, game->rules, &game->setup, game->state, move, why);
}

EngStatus
eng_game_apply (EngGame *game, const EngMove *move, EngEvents *events, EngVerdict *why)
{
  size_t sz = game->klass->state_size;
  if (game->depth == game->capacity)
    {
      size_t cap = game->capacity ? game->capacity * 2 : 64;
      unsigned char *h = realloc (game->history, cap * sz);
      if (h == NULL)
        return ENG_ERR_NO_MEMORY;
      game->history = h;
      game->capacity = cap;
    }
  memcpy (game->history + game->depth * sz, game->state, sz);
  size_t first = events != NULL ? events->n : 0;
  EngStatus st = eng_game_class_apply (game->klass, game->rules, &game->setup, game->state, move,
                                       events, why);
  if (st == ENG_OK)
    {
      game->depth++;
      /* the accepted event quotes the move as a record line, with what
       * passed face down as '?' */
      if (events != NULL && first < events->n && events->items[first].kind == ENG_EVENT_ACCEPTED)
        {
          EngMove open = *move;
          if (game->klass->public_move != NULL)
            game->klass->public_move (game->rules, game->history + (game->depth - 1) * sz, &open);
          eng_record_format_move (game->klass, &game->setup, &open, events->items[first].text,
                                  sizeof events->items[first].text);
        }
    }
  return st;
}

EngStatus
eng_game_undo (EngGame *game)
{
  if (game->depth == 0)
    return ENG_ERR_STATE;
  size_t sz = game->klass->state_size;
  game->depth--;
  memcpy (game->state, game->history + game->depth * sz, sz);
  return ENG_OK;
}

size_t eng_game_history_depth (const EngGame *game) { return game->depth; }

size_t
eng_game_legal_moves (const EngGame *game, EngMove *out, size_t max)
{
  return game->klass->legal_moves (game->rules, game->state, out, max);
}

int
eng_game_score (const EngGame *game, unsigned player)
{
  return eng_game_class_score (game->klass, game->rules, game->state, player);
}

bool
eng_game_is_over (const EngGame *game)
{
  return eng_game_class_is_over (game->klass, game->rules, game->state);
}

unsigned
eng_game_winners (const EngGame *game, const char **tiebreak)
{
  return eng_game_class_winners (game->klass, game->rules, game->state, tiebreak);
}

int
eng_game_to_move (const EngGame *game)
{
  return eng_game_class_to_move (game->klass, game->rules, game->state);
}

EngStatus
eng_game_check_conservation (const EngGame *game, EngVerdict *why)
{
  return game->klass->check_conservation (game->rules, game->state, why);
}

bool
eng_game_card_public (const EngGame *game, unsigned serial)
{
  return game != NULL && game->klass->card_public != NULL
         && game->klass->card_public (game->rules, game->state, serial);
}

void
eng_game_public_view (const EngGame *game, EngView *view)
{
  eng_view_init (view);
  view->n_players = game->setup.n_players;
  for (unsigned p = 0; p < game->setup.n_players && p < ENG_MAX_PLAYERS; p++)
    memcpy (view->players[p].name, game->setup.names[p], ENG_NAME_MAX);
  if (game->klass->public_view != NULL)
    game->klass->public_view (game->rules, game->state, &game->setup, view);
}

bool
eng_game_class_random_move (const EngGameClass *klass, const void *rules, const void *state,
                            EngRng *rng, EngMove *out)
{
  if (klass->random_move != NULL)
    return klass->random_move (rules, state, rng, out);
  EngMove moves[256];
  size_t n = klass->legal_moves (rules, state, moves, sizeof moves / sizeof moves[0]);
  if (n == 0)
    return false;
  if (n > sizeof moves / sizeof moves[0])
    n = sizeof moves / sizeof moves[0];
  *out = moves[eng_rng_below (rng, (uint32_t) n)];
  return true;
}

void
eng_game_card_name (const EngGame *game, unsigned serial, bool definite, char *buf, size_t size)
{
  if (size == 0)
    return;
  if (game->klass->card_name != NULL)
    game->klass->card_name (game->rules, serial, definite, buf, size);
  else
    snprintf (buf, size, "%u", serial);
}

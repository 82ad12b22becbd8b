#include "eng-replay.h"

#include "eng-i18n.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  char *buf;
  size_t size, n;
} Json;

static void
put (Json *j, const char *s, size_t len)
{
  for (size_t i = 0; i < len; i++)
    {
      if (j->n + 1 < j->size)
        j->buf[j->n] = s[i];
      j->n++;
    }
  if (j->size > 0)
    j->buf[j->n < j->size ? j->n : j->size - 1] = '\0';
}

static void
puts_raw (Json *j, const char *s)
{
  put (j, s, strlen (s));
}

static void
put_string (Json *j, const char *s)
{
  puts_raw (j, "\"");
  for (; *s; s++)
    {
      unsigned char c = (unsigned char) *s;
      char tmp[8];
      if (c == '"' || c == '\\')
        {
          tmp[0] = '\\', tmp[1] = (char) c;
          put (j, tmp, 2);
        }
      else if (c < 0x20)
        {
          snprintf (tmp, sizeof tmp, "\\u%04x", c);
          puts_raw (j, tmp);
        }
      else
        put (j, (const char *) &c, 1);
    }
  puts_raw (j, "\"");
}

static void
put_int (Json *j, long v)
{
  char tmp[32];
  snprintf (tmp, sizeof tmp, "%ld", v);
  puts_raw (j, tmp);
}

static const char *
player_name (const EngSetup *su, int p)
{
  return (p >= 0 && (unsigned) p < su->n_players) ? su->names[p] : NULL;
}

int
eng_event_to_json (const EngEvent *e, const EngSetup *su, unsigned line, char *buf, size_t size)
{
  Json j = { buf, size, 0 };
  if (size > 0)
    buf[0] = '\0';
  puts_raw (&j, "{\"line\":");
  put_int (&j, line);
  puts_raw (&j, ",\"event\":");
  put_string (&j, eng_event_kind_to_string (e->kind));
  const char *p = player_name (su, e->player);
  if (p != NULL)
    {
      puts_raw (&j, ",\"player\":");
      put_string (&j, p);
    }
  const char *o = player_name (su, e->other);
  if (o != NULL)
    {
      puts_raw (&j, ",\"other\":");
      put_string (&j, o);
    }
  if (e->rule[0] != '\0')
    {
      puts_raw (&j, ",\"rule\":");
      put_string (&j, e->rule);
    }
  switch (e->kind)
    {
    case ENG_EVENT_SCORE:
      puts_raw (&j, ",\"score\":");
      put_int (&j, e->value);
      puts_raw (&j, ",\"delta\":");
      put_int (&j, e->delta);
      break;
    case ENG_EVENT_SHOWN:
    case ENG_EVENT_TAKEN:
      puts_raw (&j, ",\"card\":");
      put_int (&j, e->value);
      break;
    case ENG_EVENT_DEALT:
      puts_raw (&j, ",\"refill\":{");
      for (unsigned i = 0; i < su->n_players && i < ENG_MAX_PLAYERS; i++)
        {
          if (i)
            puts_raw (&j, ",");
          put_string (&j, su->names[i]);
          puts_raw (&j, ":[");
          put_int (&j, e->counts[i][0]);
          puts_raw (&j, ",");
          put_int (&j, e->counts[i][1]);
          puts_raw (&j, "]");
        }
      puts_raw (&j, "}");
      break;
    case ENG_EVENT_GAME_OVER:
      puts_raw (&j, ",\"winners\":[");
      for (unsigned i = 0, k = 0; i < su->n_players && i < 16; i++)
        if ((e->winners >> i) & 1)
          {
            if (k++)
              puts_raw (&j, ",");
            put_string (&j, su->names[i]);
          }
      puts_raw (&j, "],\"tiebreak\":");
      put_string (&j, e->tiebreak);
      break;
    default:
      break;
    }
  puts_raw (&j, ",\"text\":");
  put_string (&j, e->text);
  puts_raw (&j, "}");
  return (int) j.n;
}

EngStatus
eng_replay (const EngRecord *rec, const EngCardSet *set, const EngOptions *base,
            bool keep_going, bool keep_game, EngReplaySink sink, void *user,
            EngReplayResult *res, EngVerdict *why)
{
  memset (res, 0, sizeof *res);
  EngOptions opts = { 0 };
  if (base != NULL)
    opts = *base;
  for (size_t i = 0; i < rec->options.n; i++)
    if (eng_options_set (&opts, rec->options.items[i].name, rec->options.items[i].value)
        != ENG_OK)
      {
        if (why != NULL)
          {
            snprintf (why->rule, sizeof why->rule, "options");
            snprintf (why->reason, sizeof why->reason, "%s", ENG_ ("too many options"));
          }
        return ENG_ERR_LIMIT;
      }
  EngEvent storage[64];
  EngEvents events;
  eng_events_init (&events, storage, 64);
  EngGame *game = NULL;
  EngStatus st = eng_game_new (rec->klass, set, &opts, &rec->setup, NULL, &events, &game, why);
  if (st != ENG_OK)
    return st;
  for (size_t i = 0; sink != NULL && i < events.n; i++)
    sink (user, 0, &storage[i]);
  for (size_t m = 0; m < rec->n_moves; m++)
    {
      eng_events_init (&events, storage, 64);
      EngVerdict v;
      EngStatus ms = eng_game_apply (game, &rec->moves[m].move, &events, &v);
      for (size_t i = 0; sink != NULL && i < events.n; i++)
        sink (user, rec->moves[m].line, &storage[i]);
      if (ms == ENG_OK)
        res->applied++;
      else
        {
          if (res->illegal++ == 0)
            res->first_illegal_line = rec->moves[m].line;
          if (!keep_going)
            break;
        }
    }
  res->over = eng_game_is_over (game);
  const char *tb = NULL;
  res->winners = eng_game_winners (game, &tb);
  snprintf (res->tiebreak, sizeof res->tiebreak, "%s", tb ? tb : "");
  if (keep_game)
    res->game = game;
  else
    eng_game_free (game);
  return ENG_OK;
}

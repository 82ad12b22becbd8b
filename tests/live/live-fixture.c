/* live-fixture.c: see live-fixture.h. */
#include "live-fixture.h"

#include "eng-live-script.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

EngCardSet *live_fixture_set;
static EngCardSet *other_set;
static char other_name[32];

static EngCardSet *
load (const char *name)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir, "TABLERO_DATADIR is set by meson");
  char path[1024];
  snprintf (path, sizeof path, "%s/cards/%s.set", dir, name);
  EngParseError err;
  EngCardSet *set = NULL;
  cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s: %s", path, err.reason);
  return set;
}

void
live_fixture_load_set (void)
{
  live_fixture_set = load ("katua");
}

const EngCardSet *
live_fixture_set_of (const char *name)
{
  if (strcmp (name, "katua") == 0)
    return live_fixture_set;
  if (other_set == NULL || strcmp (other_name, name) != 0)
    {
      eng_card_set_free (other_set);
      other_set = load (name);
      snprintf (other_name, sizeof other_name, "%s", name);
    }
  return other_set;
}

void
live_fixture_free_set (void)
{
  eng_card_set_free (live_fixture_set);
  live_fixture_set = NULL;
  eng_card_set_free (other_set);
  other_set = NULL;
  other_name[0] = '\0';
}

bool
live_fixture_same_moves (const EngRecord *a, const EngRecord *b, char *why, size_t size)
{
  for (size_t i = 0; i < a->n_moves || i < b->n_moves; i++)
    {
      char x[128] = "(none)", y[128] = "(none)";
      if (i < a->n_moves)
        eng_record_format_move (a->klass, &a->setup, &a->moves[i].move, x, sizeof x);
      if (i < b->n_moves)
        eng_record_format_move (b->klass, &b->setup, &b->moves[i].move, y, sizeof y);
      if (strcmp (x, y) != 0)
        {
          snprintf (why, size, "move %zu: rules '%s', referee '%s'", i + 1, x, y);
          return false;
        }
    }
  return true;
}

void
live_fixture_complaint_sink (void *user, unsigned line, const EngEvent *e)
{
  bool complaint = e->kind == ENG_EVENT_ILLEGAL || e->kind == ENG_EVENT_CONSERVATION
                   || (e->kind == ENG_EVENT_NOTE && strcmp (e->rule, "table") == 0);
  if (complaint && *(char *) user == '\0')
    snprintf (user, 256, "line %u: %s [%s] %s", line, eng_event_kind_to_string (e->kind), e->rule,
              e->text);
}

size_t
live_fixture_referee (const char *text, size_t len, const EngCardSet *set, const EngRecord *want,
                      unsigned long long seed)
{
  EngLiveScript *sc = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_live_script_parse (text, len, "random", &sc, &err), ENG_OK,
                "seed %llu: line %u: %s", seed, err.line, err.reason);
  char complaint[256] = "";
  EngLiveScriptResult res;
  cr_assert_eq (eng_live_script_run (sc, set, NULL, live_fixture_complaint_sink, complaint, &res,
                                     &err), ENG_OK, "%s", err.reason);
  EngRecord *got = NULL;
  cr_assert_eq (eng_record_parse (res.record, strlen (res.record), "referee", &got, &err), ENG_OK,
                "%s", err.reason);
  char why[512];
  cr_assert (live_fixture_same_moves (want, got, why, sizeof why), "seed %llu: %s", seed, why);
  cr_assert_str_empty (complaint, "seed %llu: %s", seed, complaint);
  cr_assert (res.over, "seed %llu: the referee's game is not over", seed);
  size_t k = 1 + (size_t) (seed * 2654435761u % (res.snapshots - 1));
  EngLiveScriptResult killed;
  cr_assert_eq (eng_live_script_run_killed (sc, set, NULL, k, NULL, NULL, &killed, &err), ENG_OK,
                "%s", err.reason);
  cr_assert_str_eq (killed.record, res.record, "seed %llu: killed after look %zu", seed, k);
  size_t looks = res.snapshots;
  free (killed.record);
  free (res.record);
  eng_record_free (got);
  eng_live_script_free (sc);
  return looks;
}

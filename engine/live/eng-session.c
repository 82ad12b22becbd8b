#include "eng-session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-data.h"
#include "eng-record.h"
#include "eng-replay.h"

#include <glib.h>
#include <glib/gstdio.h>

struct EngSession
{
  EngCardSet *set;
  EngGame *game;
  EngInterpreter *interp;
};

void
eng_session_free (EngSession *session)
{
  if (session == NULL)
    return;
  eng_interpreter_free (session->interp);
  eng_game_free (session->game);
  eng_card_set_free (session->set);
  free (session);
}

/* Writes the one-line reason when the caller wants it. */
#define SAY(...)                                                                                   \
  do                                                                                               \
    {                                                                                              \
      if (why != NULL && why_size > 0)                                                             \
        snprintf (why, why_size, __VA_ARGS__);                                                     \
    }                                                                                              \
  while (0)

/* Loads the set and the rule options of `game`, then lays `overrides` (may be
 * NULL) over the options. */
static EngStatus
load_data (EngSession *session, const char *game, const EngOptions *overrides,
           EngOptions *options, char *why, size_t why_size)
{
  char rel[64];
  EngParseError perr = { "" };
  snprintf (rel, sizeof rel, "cards/%s.set", game);
  char *path = eng_data_path (rel);
  EngStatus status = path ? eng_card_set_load_file (path, &session->set, &perr) : ENG_ERR_NO_MEMORY;
  free (path);
  memset (options, 0, sizeof *options);
  if (status == ENG_OK)
    {
      snprintf (rel, sizeof rel, "rules/%s.options", game);
      path = eng_data_path (rel);
      status = path ? eng_options_load_file (path, options, &perr) : ENG_ERR_NO_MEMORY;
      free (path);
    }
  if (status != ENG_OK)
    {
      SAY ("%s:%u: %s", perr.source, perr.line, perr.reason);
      return status;
    }
  for (size_t i = 0; overrides != NULL && i < overrides->n && status == ENG_OK; i++)
    status = eng_options_set (options, overrides->items[i].name, overrides->items[i].value);
  if (status != ENG_OK)
    SAY ("too many or too long rule options");
  return status;
}

EngStatus
eng_session_new (const char *game, const EngSetup *setup, const EngOptions *overrides,
                 uint64_t seed, EngSession **out, char *why, size_t why_size)
{
  if (game == NULL || setup == NULL || out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  *out = NULL;
  const EngGameClass *klass = eng_game_class_find (game);
  if (klass == NULL)
    {
      SAY ("no rules for the game '%s'", game);
      return ENG_ERR_NOT_FOUND;
    }
  EngSession *session = calloc (1, sizeof *session);
  if (session == NULL)
    return ENG_ERR_NO_MEMORY;
  EngOptions options;
  EngStatus status = load_data (session, game, overrides, &options, why, why_size);
  if (status != ENG_OK)
    {
      eng_session_free (session);
      return status;
    }
  EngRng rng;
  eng_rng_seed (&rng, seed);
  EngVerdict verdict = { "", "" };
  status = eng_game_new (klass, session->set, &options, setup, &rng, NULL, &session->game, &verdict);
  if (status != ENG_OK)
    {
      SAY ("%s%s%s%s", verdict.reason[0] ? verdict.reason : eng_status_to_string (status),
           verdict.rule[0] ? " (" : "", verdict.rule, verdict.rule[0] ? ")" : "");
      eng_session_free (session);
      return status;
    }
  status = eng_interpreter_new (session->game, session->set, &session->interp);
  /* the journal keeps the table's own option switches, so it replays alike */
  if (status == ENG_OK && overrides != NULL)
    status = eng_interpreter_set_record_options (session->interp, overrides);
  /* a new game's identity, kept by its journal across restarts (the time
   * of its first move is stamped by whoever keeps the history) */
  if (status == ENG_OK)
    {
      char *id = g_uuid_string_random ();
      status = eng_interpreter_set_record_id (session->interp, id, 0);
      g_free (id);
    }
  if (status != ENG_OK)
    {
      SAY ("the live referee cannot follow %s", game);
      eng_session_free (session);
      return status;
    }
  *out = session;
  return ENG_OK;
}

/* How long ago the journal was last written: how long the referee has
 * been away, at least 1 ns for a restart (the table may have played on). */
static int64_t
journal_age (const char *path)
{
  GStatBuf st;
  if (g_stat (path, &st) != 0)
    return 1;
  int64_t age = g_get_real_time () * 1000 - (int64_t) st.st_mtime * 1000000000;
  return age > 0 ? age : 1;
}

EngStatus
eng_session_resume (const char *record_path, EngSession **out, char *why, size_t why_size)
{
  if (record_path == NULL || out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  *out = NULL;
  EngRecord *record = NULL;
  EngParseError perr = { "" };
  EngStatus status = eng_record_load_file (record_path, &record, &perr);
  if (status != ENG_OK)
    {
      SAY ("%s:%u: %s", perr.source, perr.line, perr.reason);
      return status;
    }
  EngSession *session = calloc (1, sizeof *session);
  if (session == NULL)
    {
      eng_record_free (record);
      return ENG_ERR_NO_MEMORY;
    }
  EngOptions options;
  status = load_data (session, record->klass->name, NULL, &options, why, why_size);
  EngReplayResult result = { 0 };
  EngVerdict verdict = { "", "" };
  if (status == ENG_OK)
    status = eng_replay (record, session->set, &options, false, true, NULL, NULL, &result, &verdict);
  session->game = result.game;
  if (status == ENG_OK && result.illegal > 0)
    {
      /* The journal only ever holds accepted moves: a refused one means the
       * file was edited or the data changed under it.  Refuse to guess. */
      SAY ("%s:%u: the saved game does not replay: %s", record_path, result.first_illegal_line,
           verdict.reason[0] ? verdict.reason : "a move is refused");
      status = ENG_ERR_INCONSISTENT;
    }
  else if (status != ENG_OK && why != NULL && why[0] == '\0')
    SAY ("%s: %s", record_path, verdict.reason[0] ? verdict.reason : eng_status_to_string (status));
  if (status == ENG_OK)
    status = eng_interpreter_new (session->game, session->set, &session->interp);
  if (status == ENG_OK)
    status = eng_interpreter_adopt_record (session->interp, record);
  if (status == ENG_OK)
    eng_interpreter_set_away (session->interp, journal_age (record_path));
  eng_record_free (record);
  if (status != ENG_OK)
    {
      if (why != NULL && why[0] == '\0')
        SAY ("%s: %s", record_path, eng_status_to_string (status));
      eng_session_free (session);
      return status;
    }
  *out = session;
  return ENG_OK;
}

const EngCardSet *
eng_session_card_set (const EngSession *session)
{
  return session->set;
}

EngGame *
eng_session_game (EngSession *session)
{
  return session->game;
}

EngInterpreter *
eng_session_interpreter (EngSession *session)
{
  return session->interp;
}

unsigned
eng_session_clean_journal_leftovers (const char *journal_path)
{
  if (journal_path == NULL)
    return 0;
  g_autofree char *dir_path = g_path_get_dirname (journal_path);
  g_autofree char *base = g_path_get_basename (journal_path);
  GDir *dir = g_dir_open (dir_path, 0, NULL);
  if (dir == NULL)
    return 0;
  size_t n = strlen (base);
  unsigned removed = 0;
  const char *entry;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      /* exactly BASE.XXXXXX, the six characters g_mkstemp puts there */
      if (strlen (entry) != n + 7 || strncmp (entry, base, n) != 0 || entry[n] != '.')
        continue;
      bool random = true;
      for (size_t i = n + 1; i < n + 7; i++)
        random = random && g_ascii_isalnum (entry[i]);
      g_autofree char *path = g_build_filename (dir_path, entry, NULL);
      if (random && g_file_test (path, G_FILE_TEST_IS_REGULAR) && g_unlink (path) == 0)
        removed++;
    }
  g_dir_close (dir);
  return removed;
}

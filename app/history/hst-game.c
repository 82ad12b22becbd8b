/* hst-game.c: a game as the history keeps it, made from its record by
 * replaying it (hst-game.h). */
#include "hst-game.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "eng-data.h"
#include "eng-view.h"
#include "hst-store.h"

#define EVENT_CAPACITY 64

HstGame *
hst_game_new (void)
{
  HstGame *game = g_new0 (HstGame, 1);
  game->checkpoints = g_array_new (FALSE, TRUE, sizeof (HstCheckpoint));
  game->refusals = g_array_new (FALSE, TRUE, sizeof (HstRefusal));
  game->tiebreak = g_strdup ("");
  return game;
}

void
hst_game_free (HstGame *game)
{
  if (game == NULL)
    return;
  g_free (game->uid);
  g_free (game->game);
  g_free (game->tiebreak);
  g_free (game->record);
  g_array_unref (game->checkpoints);
  g_array_unref (game->refusals);
  g_free (game);
}

void
hst_game_add_refusals (HstGame *game, int position, const char *rule, guint count)
{
  for (guint i = 0; i < game->refusals->len; i++)
    {
      HstRefusal *r = &g_array_index (game->refusals, HstRefusal, i);
      if (r->position == position && strcmp (r->rule, rule) == 0)
        {
          r->count += count;
          return;
        }
    }
  HstRefusal r = { .position = position, .count = count };
  g_strlcpy (r.rule, rule, sizeof r.rule);
  g_array_append_val (game->refusals, r);
}

guint
hst_game_winners (const HstGame *game)
{
  guint winners = 0;
  for (guint p = 0; p < game->n_seats; p++)
    if (game->seats[p].won)
      winners |= 1u << p;
  return winners;
}

const char *
hst_game_title (const HstGame *game)
{
  const EngGameClass *klass = eng_game_class_find (game->game);
  return klass != NULL && klass->title != NULL ? klass->title : game->game;
}

char *
hst_format_time (gint64 when)
{
  if (when <= 0)
    return g_strdup ("");
  g_autoptr (GDateTime) utc = g_date_time_new_from_unix_utc (when);
  g_autoptr (GDateTime) local = utc != NULL ? g_date_time_to_local (utc) : NULL;
  return local != NULL ? g_date_time_format (local, "%Y-%m-%d %H:%M") : g_strdup ("");
}

/* ---- replaying a record ---------------------------------------------- */

/* The card set and rules file of `game`, from data/. */
static gboolean
load_game_data (const char *game, EngCardSet **set, EngOptions *options, GError **error)
{
  g_autofree char *set_rel = g_strdup_printf ("cards/%s.set", game);
  g_autofree char *options_rel = g_strdup_printf ("rules/%s.options", game);
  char *set_path = eng_data_path (set_rel);
  char *options_path = eng_data_path (options_rel);
  EngParseError perr = { "" };
  EngStatus st = set_path != NULL ? eng_card_set_load_file (set_path, set, &perr) : ENG_ERR_NO_MEMORY;
  memset (options, 0, sizeof *options);
  if (st == ENG_OK)
    st = options_path != NULL ? eng_options_load_file (options_path, options, &perr) : ENG_ERR_NO_MEMORY;
  free (set_path);
  free (options_path);
  if (st != ENG_OK)
    {
      g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_INPUT, "%s:%u: %s", perr.source, perr.line,
                   perr.reason[0] ? perr.reason : eng_status_to_string (st));
      if (*set != NULL)
        g_clear_pointer (set, eng_card_set_free);
      return FALSE;
    }
  return TRUE;
}

static void
add_checkpoint (HstGame *hg, const EngGame *game, guint move)
{
  EngView view;
  eng_game_public_view (game, &view);
  HstCheckpoint cp = { .move = move };
  for (unsigned p = 0; p < view.n_players && p < ENG_MAX_PLAYERS; p++)
    cp.scores[p] = view.players[p].score;
  hg->scored = view.scored;
  g_array_append_val (hg->checkpoints, cp);
}

/* Whether a move's events close what the game counts: a turn begins, a
 * score changes, the game ends. */
static gboolean
counts (const EngEvents *events, int *turn_player)
{
  gboolean found = FALSE;
  for (size_t i = 0; i < events->n; i++)
    {
      EngEventKind kind = events->items[i].kind;
      if (kind == ENG_EVENT_TURN && *turn_player < 0)
        *turn_player = events->items[i].player;
      found = found || kind == ENG_EVENT_TURN || kind == ENG_EVENT_SCORE || kind == ENG_EVENT_GAME_OVER;
    }
  return found;
}

static uint16_t
open_serial (const EngGame *game, uint16_t serial)
{
  if (serial == 0 || serial == ENG_SERIAL_UNKNOWN || eng_game_card_public (game, serial))
    return serial;
  return ENG_SERIAL_UNKNOWN;
}

/* The record as the history keeps it: the header, `@id` and the moves,
 * every card face down at the end written `?` (K20, C11, E16); no table
 * notes and no sticker corrections (they name stickers, not moves). */
static char *
public_record_text (const EngRecord *record, const EngGame *end, gboolean with_id)
{
  EngSetup setup = record->setup;
  for (size_t d = 0; d < setup.n_deals; d++)
    for (unsigned c = 0; c < setup.deals[d].n_cards; c++)
      setup.deals[d].cards[c] = open_serial (end, setup.deals[d].cards[c]);
  EngRecord *copy = eng_record_new (record->klass, &setup, &record->options);
  if (copy == NULL)
    return NULL;
  memcpy (copy->set_id, record->set_id, sizeof copy->set_id);
  if (with_id)
    eng_record_set_id (copy, record->id, record->started);
  for (size_t i = 0; i < record->n_moves; i++)
    {
      EngMove m = record->moves[i].move;
      m.card = open_serial (end, m.card);
      /* a face shown then turned down again: the show is left out */
      m.show = open_serial (end, m.show) == ENG_SERIAL_UNKNOWN ? 0 : m.show;
      for (unsigned c = 0; c < m.n_cards && c < ENG_MOVE_MAX_CARDS; c++)
        m.cards[c] = open_serial (end, m.cards[c]);
      if (eng_record_append (copy, &m, 0) != ENG_OK)
        {
          eng_record_free (copy);
          return NULL;
        }
    }
  char *text = eng_record_write (copy);
  eng_record_free (copy);
  char *owned = g_strdup (text);
  free (text);
  return owned;
}

/* "rec-" and the first 32 hex digits of the SHA-256 of the record's header
 * and moves: the same record is the same game. */
static char *
digest_uid (const EngRecord *record)
{
  EngRecord *copy = eng_record_new (record->klass, &record->setup, &record->options);
  if (copy == NULL)
    return NULL;
  memcpy (copy->set_id, record->set_id, sizeof copy->set_id);
  for (size_t i = 0; i < record->n_moves; i++)
    if (eng_record_append (copy, &record->moves[i].move, 0) != ENG_OK)
      {
        eng_record_free (copy);
        return NULL;
      }
  char *text = eng_record_write (copy);
  eng_record_free (copy);
  if (text == NULL)
    return NULL;
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
  free (text);
  return g_strdup_printf ("rec-%.32s", sum);
}

/* Replays `record` on `game` (made from its setup), one checkpoint per
 * turn, trick, hand or score.  FALSE with `error` naming the line refused. */
static gboolean
replay_moves (HstGame *hg, EngGame *game, const EngRecord *record, int *first, GError **error)
{
  EngEvent storage[EVENT_CAPACITY];
  EngEvents events;
  for (size_t m = 0; m < record->n_moves; m++)
    {
      eng_events_init (&events, storage, EVENT_CAPACITY);
      EngVerdict why = { "", "" };
      if (eng_game_apply (game, &record->moves[m].move, &events, &why) != ENG_OK)
        {
          char line[256];
          eng_record_format_move (record->klass, &record->setup, &record->moves[m].move, line, sizeof line);
          g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_INPUT,
                       _ ("move %zu (%s) does not replay: %s%s%s%s"), m + 1, line, why.reason,
                       why.rule[0] ? " (" : "", why.rule, why.rule[0] ? ")" : "");
          return FALSE;
        }
      if (counts (&events, first))
        add_checkpoint (hg, game, (guint) (m + 1));
    }
  return TRUE;
}

static void
fill_seats (HstGame *hg, const EngGame *game, const EngSetup *setup, int first)
{
  EngView view;
  eng_game_public_view (game, &view);
  const char *tiebreak = NULL;
  unsigned winners = eng_game_is_over (game) ? eng_game_winners (game, &tiebreak) : 0;
  hg->n_seats = MIN (setup->n_players, (unsigned) ENG_MAX_PLAYERS);
  for (guint p = 0; p < hg->n_seats; p++)
    {
      HstSeat *s = &hg->seats[p];
      g_strlcpy (s->name, setup->names[p], sizeof s->name);
      s->marker = setup->seats[p];
      s->first = first >= 0 ? (int) p == first : (int) p == MAX (setup->first, 0);
      s->score = view.players[p].score;
      s->won = (winners >> p) & 1;
    }
  hg->finished = eng_game_is_over (game);
  g_free (hg->tiebreak);
  hg->tiebreak = g_strdup (tiebreak != NULL ? tiebreak : "");
}

HstGame *
hst_game_from_record (const EngRecord *record, gint64 ended, GError **error)
{
  g_return_val_if_fail (record != NULL && record->klass != NULL, NULL);
  if (record->n_moves == 0)
    {
      g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_INPUT, "%s",
                   _ ("the game has no move yet: nothing to remember"));
      return NULL;
    }
  EngCardSet *set = NULL;
  EngOptions options;
  if (!load_game_data (record->klass->name, &set, &options, error))
    return NULL;
  for (size_t i = 0; i < record->options.n; i++)
    eng_options_set (&options, record->options.items[i].name, record->options.items[i].value);
  EngEvent storage[EVENT_CAPACITY];
  EngEvents events;
  eng_events_init (&events, storage, EVENT_CAPACITY);
  EngGame *game = NULL;
  EngVerdict why = { "", "" };
  EngStatus st = eng_game_new (record->klass, set, &options, &record->setup, NULL, &events, &game, &why);
  if (st != ENG_OK)
    {
      g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_INPUT, _ ("the game cannot be set up: %s"),
                   why.reason[0] ? why.reason : eng_status_to_string (st));
      eng_card_set_free (set);
      return NULL;
    }
  g_autoptr (HstGame) hg = hst_game_new ();
  hg->game = g_strdup (record->klass->name);
  hg->uid = record->id[0] != '\0' ? g_strdup (record->id) : digest_uid (record);
  hg->started = record->started;
  hg->ended = ended;
  hg->options = record->options;
  hg->n_moves = (guint) record->n_moves;
  int first = -1;
  counts (&events, &first);
  add_checkpoint (hg, game, 0);
  gboolean ok = replay_moves (hg, game, record, &first, error);
  if (ok)
    {
      fill_seats (hg, game, &record->setup, first);
      /* the scores at the end, when the last move changed them unsaid */
      const HstCheckpoint *last = &g_array_index (hg->checkpoints, HstCheckpoint, hg->checkpoints->len - 1);
      for (guint p = 0; p < hg->n_seats; p++)
        if (last->scores[p] != hg->seats[p].score)
          {
            add_checkpoint (hg, game, hg->n_moves);
            break;
          }
      hg->record = public_record_text (record, game, TRUE);
      ok = hg->record != NULL && hg->uid != NULL;
      if (!ok)
        g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_INPUT, "%s", _ ("out of memory"));
    }
  eng_game_free (game);
  eng_card_set_free (set);
  return ok ? g_steal_pointer (&hg) : NULL;
}

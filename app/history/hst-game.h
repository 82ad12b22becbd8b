/* hst-game.h: one game as the history keeps it.
 *
 * An HstGame is plain data: who sat where and how it ended, the score of
 * every player after each turn, hand or trick the game counted, the
 * refusals by rule, and the record.  It is made from a game record by
 * replaying it through the engine (hst_game_from_record: the live referee
 * at the end of a game, and the importer), or read back from the history
 * (hst-store.h).  Nothing in it names a card face down at the end of the
 * game: the record keeps such a card as `?`.
 */
#pragma once

#include <glib.h>

#include "eng-game.h"
#include "eng-record.h"

G_BEGIN_DECLS

typedef struct {
  char name[ENG_NAME_MAX];   /* as given, UTF-8 */
  guint marker;              /* seat marker on the table, 0 unknown */
  gboolean first;            /* took the first turn */
  int score;                 /* at the end (EngView score: public) */
  gboolean won;
} HstSeat;

/* The scores after one turn, trick or hand: `move` moves into the game
 * (0: as dealt), one score per seat. */
typedef struct {
  guint move;
  int scores[ENG_MAX_PLAYERS];
} HstCheckpoint;

typedef struct {
  int position;              /* the seat that was refused, -1 nobody */
  char rule[8];              /* "K12" */
  guint count;
} HstRefusal;

typedef struct {
  gint64 id;                 /* in the history; 0 not stored */
  char *uid;                 /* the record's `@id`, or "rec-" and a digest of the record */
  char *game;                /* the registry's name of the game */
  gint64 started;            /* seconds since 1970 UTC; 0 unknown */
  gint64 ended;
  gboolean finished;         /* played to its end (else abandoned) */
  gboolean scored;           /* the game keeps points (else the scores count who is still in) */
  guint n_moves;
  char *tiebreak;            /* how a tie was settled ("score", ...), "" none */
  EngOptions options;        /* the table's switches over the rules file */
  guint n_seats;
  HstSeat seats[ENG_MAX_PLAYERS];
  GArray *checkpoints;       /* HstCheckpoint, oldest first */
  GArray *refusals;          /* HstRefusal */
  char *record;              /* the record text, hidden faces as `?`; NULL in a list */
} HstGame;

/* An empty game (no seats, no checkpoints). */
HstGame *hst_game_new (void);
void hst_game_free (HstGame *game);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HstGame, hst_game_free)

/* The game `record` holds, replayed through the engine on the game's card
 * set and rules file (eng_data_dir()): seats, scores after every turn,
 * hand or trick (each accepted move that starts a turn or changes a
 * score), winners, and the record text with hidden faces as `?` and no
 * table notes.  `ended` is when it ended (seconds, UTC).  A record without
 * `@id` gets the uid "rec-" + a digest of its header and moves, so the
 * same record imported twice is one game.  NULL with `error`
 * (HST_STORE_ERROR_INPUT) when the game's data cannot be loaded, no move
 * was made, or a move does not replay (saying which line and why). */
HstGame *hst_game_from_record (const EngRecord *record, gint64 ended, GError **error);

/* Adds `count` refusals of `rule` to the seat at `position` (-1 nobody). */
void hst_game_add_refusals (HstGame *game, int position, const char *rule, guint count);

/* Bit p set: seat p won. */
guint hst_game_winners (const HstGame *game);

/* The game's title (as the box spells it), or its name when the registry lacks it. */
const char *hst_game_title (const HstGame *game);

/* A readable report of the game (Markdown, in the table's language): when,
 * how long, the players with seat, score and the winners, the house rules,
 * the refusals by rule, and the record.  Newly allocated (g_free). */
char *hst_game_report (const HstGame *game);

/* "Finished after 13 moves · 23 minutes" (or "Abandoned after ...") in
 * the table's language.  Newly allocated (g_free). */
char *hst_game_summary (const HstGame *game);

/* "2026-11-28 19:05" in local time for `when` (seconds UTC; "" for 0).
 * Newly allocated (g_free). */
char *hst_format_time (gint64 when);

G_END_DECLS

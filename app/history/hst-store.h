/* hst-store.h: the history of every game a table played (docs/history.md).
 *
 * One SQLite file, history.db, in g_get_user_data_dir()/tablero/ beside
 * the printing keys (TABLERO_HISTORY names another file; the tests use
 * it).  The window and tablero-cli may hold it open at once: it is in WAL
 * mode, every write is one IMMEDIATE transaction, and a writer waits for
 * another one (busy timeout) rather than failing.  Every statement is a
 * prepared one with bound values: no SQL is ever built from a name or a
 * record.
 *
 * Opening migrates the schema (PRAGMA user_version) to HST_SCHEMA_VERSION.
 * A file that is not a Tablero history (another program's database,
 * random bytes, a truncated or damaged file) is set aside, renamed
 * "history.db.damaged-YYYYMMDD-HHMMSS", and a fresh history starts: the
 * open succeeds and `notice` says what was moved where.
 *
 * An HstStore is one connection: use it from one thread.
 */
#pragma once

#include <glib.h>

#include "hst-game.h"

G_BEGIN_DECLS

#define HST_STORE_ERROR (hst_store_error_quark ())
GQuark hst_store_error_quark (void);

typedef enum {
  HST_STORE_ERROR_IO,         /* the file or its folder cannot be made, read or renamed */
  HST_STORE_ERROR_NEWER,      /* written by a newer Tablero (a schema this one does not know) */
  HST_STORE_ERROR_BUSY,       /* another program held the history longer than the busy timeout */
  HST_STORE_ERROR_DAMAGED,    /* found damaged while in use (the next open sets it aside) */
  HST_STORE_ERROR_NOT_FOUND,  /* no such game or player */
  HST_STORE_ERROR_INPUT,      /* a record or play list that cannot become history */
  HST_STORE_ERROR_FAILED,     /* any other SQLite failure */
} HstStoreError;

/* The schema this build writes; docs/history.md lists every version. */
#define HST_SCHEMA_VERSION 2

typedef struct HstStore HstStore;

/* The history file: $TABLERO_HISTORY, else history.db in the user's data
 * folder (newly allocated, g_free). */
char *hst_store_default_path (void);

/* Opens (making it and its folder when missing) the history at `path`
 * (NULL: hst_store_default_path) and migrates it to HST_SCHEMA_VERSION.
 * A damaged or foreign file is set aside first and *notice (may be NULL)
 * receives a sentence saying where it went (g_free; NULL when nothing was
 * set aside).  Returns a new store (hst_store_free), or NULL with `error`
 * (HST_STORE_ERROR_IO, _NEWER, _BUSY, _FAILED) naming the file. */
HstStore *hst_store_open (const char *path, char **notice, GError **error);

/* The same, migrating only as far as `version` (1 to HST_SCHEMA_VERSION):
 * how the tests make a history of an earlier version to migrate from. */
HstStore *hst_store_open_version (const char *path, int version, char **notice, GError **error);

void hst_store_free (HstStore *store);

/* FALSE: commits are no longer flushed to disk before they return (a power
 * cut may lose the last ones; a killed process loses none).  Only for bulk
 * loads, as the bench's; every store opens durable. */
void hst_store_set_durable (HstStore *store, gboolean durable);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HstStore, hst_store_free)

/* The file's path (owned by the store). */
const char *hst_store_path (const HstStore *store);
/* PRAGMA user_version as the file has it now. */
int hst_store_schema_version (HstStore *store);

/* What hst_store_put_game did. */
typedef enum {
  HST_PUT_ADDED,      /* a game the history did not have */
  HST_PUT_REPLACED,   /* the same game (uid) again, further on or finished since: replaces it */
  HST_PUT_KEPT,       /* the history already has this game as far or further: nothing changed */
} HstPut;

const char *hst_put_to_string (HstPut put);

/* Writes `game` (its players matched by name, as given, or added; seats,
 * options, scores, refusals, record) in one transaction, with the
 * refusals noted for its uid while it was played (hst_store_note_refusal,
 * added to game->refusals).  A game already stored under the same uid is
 * replaced (keeping its id) unless what is stored is further on: finished
 * when `game` is not, more moves, or the same moves ended no earlier
 * (HST_PUT_KEPT).  Sets game->id.  A kill at any moment leaves the history
 * with the whole game or without it.  FALSE with `error` (nothing
 * written). */
gboolean hst_store_put_game (HstStore *store, HstGame *game, HstPut *put, GError **error);

/* One refusal (`rule`, by the player at `position`, -1 nobody) in the
 * game `uid` still being played: kept until the game is written, so a
 * game resumed after a crash keeps the refusals made before it. */
gboolean hst_store_note_refusal (HstStore *store, const char *uid, int position, const char *rule,
                                 GError **error);

/* Deletes game `id` (and what hangs on it).  *forgotten (may be NULL)
 * receives the game as it was (hst_game_free).  HST_STORE_ERROR_NOT_FOUND
 * for an id the history does not have. */
gboolean hst_store_forget_game (HstStore *store, gint64 id, HstGame **forgotten, GError **error);

/* Deletes the player named exactly `name` and every game they played:
 * *n_games (may be NULL) receives how many.  HST_STORE_ERROR_NOT_FOUND
 * when nobody has that name. */
gboolean hst_store_forget_player (HstStore *store, const char *name, guint *n_games, GError **error);

/* ---- reading (hst-query.c) ------------------------------------------ */

/* Which games to list; zero fields do not filter. */
typedef struct {
  const char *game;       /* the registry's name of the game */
  const char *player;     /* a player's name as given */
  gint64 since, until;    /* ended within [since, until), seconds since 1970 UTC */
  guint limit;            /* at most this many (0: all) */
  guint offset;
} HstFilter;

/* The games `filter` selects, newest first (ended), with their seats but
 * without scores over the game, refusals or record: a GPtrArray of
 * HstGame (free with g_ptr_array_unref).  *total (may be NULL) receives
 * how many match in all.  NULL with `error`. */
GPtrArray *hst_store_list (HstStore *store, const HstFilter *filter, guint *total, GError **error);

/* The whole game `id` (hst_game_free), or NULL with `error`
 * (HST_STORE_ERROR_NOT_FOUND for an id not stored). */
HstGame *hst_store_get_game (HstStore *store, gint64 id, GError **error);
/* The id of the game with `uid`, 0 when there is none (or on error). */
gint64 hst_store_find_uid (HstStore *store, const char *uid, GError **error);

/* Every player's name, sorted, NULL-terminated (g_strfreev); NULL with
 * `error`. */
char **hst_store_player_names (HstStore *store, GError **error);
/* The games the history holds (registry names, sorted; g_strfreev). */
char **hst_store_game_names (HstStore *store, GError **error);

G_END_DECLS

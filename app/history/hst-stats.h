/* hst-stats.h: a player's record across every game the history holds. */
#pragma once

#include <glib.h>

#include "hst-store.h"

G_BEGIN_DECLS

/* A player's games of one kind (a registry name). */
typedef struct {
  char *game;            /* registry name */
  guint played;          /* finished games */
  guint abandoned;
  guint won;
  gboolean scored;       /* the game keeps points: average and best mean something */
  double average;        /* mean score at the end of the finished games */
  int best;
} HstKindStats;

/* Against one other player, over the finished games both played. */
typedef struct {
  char *name;
  guint together;
  guint won;             /* games the player won */
  guint rival_won;       /* games the rival won (both, when shared) */
} HstRival;

/* How often the player was refused by one rule of one game. */
typedef struct {
  char *game;
  char *rule;            /* "K12" */
  guint count;
} HstRuleCount;

typedef struct {
  char *name;
  guint played, abandoned, won;   /* over every kind */
  GArray *kinds;                  /* HstKindStats, most played first */
  GArray *rivals;                 /* HstRival, most met first */
  GArray *refusals;               /* HstRuleCount, most frequent first */
} HstPlayerStats;

/* The record of the player named exactly `name` (hst_player_stats_free),
 * or NULL with `error` (HST_STORE_ERROR_NOT_FOUND when nobody has that
 * name).  At most `max_refusals` refusal rows (0: all). */
HstPlayerStats *hst_store_player_stats (HstStore *store, const char *name, guint max_refusals,
                                        GError **error);
void hst_player_stats_free (HstPlayerStats *stats);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HstPlayerStats, hst_player_stats_free)

/* won / played as a percentage, 0 when nothing was played. */
double hst_win_rate (guint won, guint played);

G_END_DECLS

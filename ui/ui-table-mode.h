/* ui-table-mode.h: the game read from across the table.
 *
 * Large type for whom the table waits for and what to do next, the scores
 * and the last refusal, readable at two metres on a 1080p screen.  Fed from
 * the referee's public view (ui_referee_get_view and its texts), like the
 * sidebar; never from a game's state. */
#pragma once

#include <gtk/gtk.h>

#include "ui-referee.h"

G_BEGIN_DECLS

#define UI_TYPE_TABLE_MODE (ui_table_mode_get_type ())
G_DECLARE_FINAL_TYPE (UiTableMode, ui_table_mode, UI, TABLE_MODE, GtkBox)

GtkWidget *ui_table_mode_new (void);

/* Follows `referee` (a new reference is kept; NULL shows no game).  A new
 * referee clears the refusal shown. */
void ui_table_mode_set_referee (UiTableMode *self, UiReferee *referee);

/* Shows the referee's refusal `what` (what to do instead); the name of
 * the rule it breaks (may be NULL) is its tooltip, never an id.  Both
 * copied.  Cleared by ui_table_mode_clear_refusal. */
void ui_table_mode_show_refusal (UiTableMode *self, const char *what, const char *rule_title);
void ui_table_mode_clear_refusal (UiTableMode *self);

/* Sizes the type for a screen `width` x `height` px (the monitor table
 * mode fills): read at two metres on 1080 lines, and still all on screen
 * at 1024x600. */
void ui_table_mode_fit (UiTableMode *self, int width, int height);

/* A line of news from the camera or the app ("Camera disconnected"),
 * shown for a few seconds under the headline, where it covers nothing
 * (copied; a newer one replaces it). */
void ui_table_mode_show_notice (UiTableMode *self, const char *text);
const char *ui_table_mode_get_notice (UiTableMode *self);

/* The texts shown now, for tests: the headline, what to do next and the
 * refusal ("" when hidden).  Owned by the widget. */
const char *ui_table_mode_get_headline (UiTableMode *self);
const char *ui_table_mode_get_next (UiTableMode *self);
const char *ui_table_mode_get_refusal (UiTableMode *self);

G_END_DECLS

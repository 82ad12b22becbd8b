/* ui-command-bar.h: the bar under the picture with what the camera cannot
 * see: undo, and one button per command card of the game's set, labelled
 * as the card is ("End of turn", "Pass").  It stays on screen in table
 * mode.  Once the game is over the commands give way to "New game": a
 * button shown is one that can act. */
#pragma once

#include <gtk/gtk.h>

#include "eng-cardset.h"

G_BEGIN_DECLS

#define UI_TYPE_COMMAND_BAR (ui_command_bar_get_type ())
G_DECLARE_FINAL_TYPE (UiCommandBar, ui_command_bar, UI, COMMAND_BAR, GtkWidget)

GtkWidget *ui_command_bar_new (void);

/* One button per command card of `set` (borrowed, read at once; NULL: no
 * command buttons).  Undo, confirm, cancel, pause and a new game have
 * their own places, so their cards get no button here.  Each button runs
 * win.command with the card's id. */
void ui_command_bar_set_card_set (UiCommandBar *self, const EngCardSet *set);

/* What the table may do now: `over` hides the commands and shows "New
 * game"; `turn_command` highlights the first command (the turn's own)
 * while the player in turn decides with nothing else open. */
void ui_command_bar_update (UiCommandBar *self, gboolean over, gboolean turn_command);

/* The number of command buttons shown (tests). */
guint ui_command_bar_get_n_shown (UiCommandBar *self);

G_END_DECLS

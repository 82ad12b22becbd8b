/* ui-rules-dialog.h: the rules of the game on the table (F1), as the app
 * has them installed: the referee's explanation of every rule it cites
 * (data/rules/GAME[.LANG].rules, in the table's language) and each house
 * rule switch with what it does (data/rules/GAME.options). */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define UI_TYPE_RULES_DIALOG (ui_rules_dialog_get_type ())
G_DECLARE_FINAL_TYPE (UiRulesDialog, ui_rules_dialog, UI, RULES_DIALOG, AdwWindow)

/* A dialog for `game` ("katua") over `parent` (may be NULL).  A file that
 * is missing or unreadable is said in the dialog, never fatal. */
UiRulesDialog *ui_rules_dialog_new (GtkWindow *parent, const char *game);

G_END_DECLS

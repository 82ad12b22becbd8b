/* ui-rules-dialog.h: the rules of the game on the table (F1), as the app
 * has them installed: the referee's explanation of every rule it cites
 * (data/rules/GAME[.LANG].rules, in the table's language, grouped and
 * searchable) and each house rule switch with what it does
 * (data/rules/GAME.options). */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define UI_TYPE_RULES_DIALOG (ui_rules_dialog_get_type ())
G_DECLARE_FINAL_TYPE (UiRulesDialog, ui_rules_dialog, UI, RULES_DIALOG, AdwWindow)

/* A dialog for `game` (a registry name) over `parent` (may be NULL).  A file that
 * is missing or unreadable is said in the dialog, never fatal.  The rules
 * stand under the headings of the rules file (as the rulebook groups
 * them), each by its name with its plain explanation, the id small beside
 * it; typing searches them (ui_rule_doc_matches). */
UiRulesDialog *ui_rules_dialog_new (GtkWindow *parent, const char *game);

/* Searches as if `query` were typed ("" shows every rule). */
void ui_rules_dialog_search (UiRulesDialog *self, const char *query);
/* What the dialog shows now, in order: "[heading]" then the ids of the
 * rules shown under it, NULL-terminated (g_strfreev).  For tests. */
char **ui_rules_dialog_dup_shown (UiRulesDialog *self);

G_END_DECLS

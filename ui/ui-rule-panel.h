/* ui-rule-panel.h: explains a refused or unexpected play: what happened,
 * the rule it breaks (its id) and the rule in plain words, so new players
 * learn while they play. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define UI_TYPE_RULE_PANEL (ui_rule_panel_get_type ())
G_DECLARE_FINAL_TYPE (UiRulePanel, ui_rule_panel, UI, RULE_PANEL, GtkBox)

GtkWidget *ui_rule_panel_new (void);

/* Shows `what` (the referee's words), `rule_id` ("K5"; may be empty) and
 * `explanation` (may be NULL).  All copied. */
void ui_rule_panel_explain (UiRulePanel *self, const char *what, const char *rule_id,
                            const char *explanation);

/* Hides the panel. */
void ui_rule_panel_dismiss (UiRulePanel *self);

G_END_DECLS

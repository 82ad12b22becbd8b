#include "ui-rules-dialog.h"

#include <glib/gi18n-lib.h>

#include <stdlib.h>
#include <string.h>

#include "eng-data.h"
#include "eng-game.h"
#include "ui-option-docs.h"

struct _UiRulesDialog
{
  AdwWindow parent_instance;

  AdwPreferencesGroup *rules_group;
  AdwPreferencesGroup *options_group;
};

G_DEFINE_FINAL_TYPE (UiRulesDialog, ui_rules_dialog, ADW_TYPE_WINDOW)

static void
add_row (AdwPreferencesGroup *group, const char *title, const char *text)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *escaped_title = g_markup_escape_text (title, -1);
  g_autofree char *escaped_text = g_markup_escape_text (text, -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped_title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped_text);
  adw_preferences_group_add (group, row);
}

/* "ID: text" lines, the format the referee reads its explanations in. */
static void
fill_rules (UiRulesDialog *self, const char *game)
{
  g_autofree char *name = g_strdup_printf ("rules/%s.rules", game);
  char *path = eng_data_localized_path (name);
  g_autofree char *text = NULL;
  guint n = 0;
  if (path != NULL && g_file_get_contents (path, &text, NULL, NULL))
    {
      g_autoptr (GPtrArray) docs = ui_rule_docs_parse (text);
      for (guint i = 0; i < docs->len; i++)
        {
          const UiRuleDoc *doc = docs->pdata[i];
          add_row (self->rules_group, doc->id, doc->text);
          n++;
        }
    }
  free (path);
  if (n == 0)
    adw_preferences_group_set_description (self->rules_group,
                                           _ ("The referee has no written explanations for this game: its refusals say the rule they apply."));
}

static void
fill_options (UiRulesDialog *self, const char *game)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) docs = ui_option_docs_load_game (game, &error);
  if (docs == NULL)
    {
      g_autofree char *why = g_strdup_printf (_ ("This game's rule options could not be read: %s"),
                                              error ? error->message : _ ("no data directory"));
      adw_preferences_group_set_description (self->options_group, why);
      return;
    }
  if (docs->len == 0)
    adw_preferences_group_set_description (self->options_group, _ ("This game has no rule options."));
  for (guint i = 0; i < docs->len; i++)
    {
      const UiOptionDoc *doc = docs->pdata[i];
      g_autofree char *title = doc->rule[0] ? g_strdup_printf ("%s (%s)", doc->title, doc->rule)
                                            : g_strdup (doc->title);
      GString *text = g_string_new (doc->description);
      for (guint k = 0; doc->choices != NULL && doc->choices[k] != NULL; k++)
        g_string_append_printf (text, "\n%s: %s", doc->labels[k],
                                doc->meanings != NULL && doc->meanings[k] != NULL ? doc->meanings[k] : "");
      /* Translators: the value a rule switch has unless the table changes it. */
      const char *shown = doc->value;
      for (guint k = 0; doc->choices != NULL && doc->choices[k] != NULL; k++)
        if (g_strcmp0 (doc->choices[k], doc->value) == 0)
          shown = doc->labels[k];
      g_string_append_printf (text, "\n%s %s", _ ("Default:"), shown);
      add_row (self->options_group, title, text->str);
      g_string_free (text, TRUE);
    }
}

static void
ui_rules_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), UI_TYPE_RULES_DIALOG);
  G_OBJECT_CLASS (ui_rules_dialog_parent_class)->dispose (object);
}

static void
ui_rules_dialog_class_init (UiRulesDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_rules_dialog_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-rules-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, UiRulesDialog, rules_group);
  gtk_widget_class_bind_template_child (widget_class, UiRulesDialog, options_group);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
ui_rules_dialog_init (UiRulesDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

UiRulesDialog *
ui_rules_dialog_new (GtkWindow *parent, const char *game)
{
  UiRulesDialog *self = g_object_new (UI_TYPE_RULES_DIALOG, "transient-for", parent, NULL);
  if (parent != NULL)
    gtk_window_set_application (GTK_WINDOW (self), gtk_window_get_application (parent));
  const EngGameClass *klass = eng_game_class_find (game);
  if (klass != NULL)
    {
      /* Translators: the dialog's title, with the game's name ("Katua"). */
      g_autofree char *title = g_strdup_printf (_ ("Rules of %s"),
                                                klass->title != NULL ? klass->title : klass->name);
      gtk_window_set_title (GTK_WINDOW (self), title);
    }
  fill_rules (self, game);
  fill_options (self, game);
  return self;
}

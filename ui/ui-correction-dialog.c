#include "ui-correction-dialog.h"

#include <glib/gi18n-lib.h>

#include <string.h>

#include "eng-tag.h"
#include "ui-list.h"
#include "ui-words.h"

struct _UiCorrectionDialog
{
  AdwWindow parent_instance;

  UiReferee *referee;
  GPtrArray *seen_payloads;     /* parallel to seen_row's model */
  GPtrArray *actual_payloads;   /* parallel to actual_row's model */

  AdwComboRow *seen_row;
  AdwComboRow *actual_row;
  GtkLabel *message;
  GtkListBox *corrections_list;
};

G_DEFINE_FINAL_TYPE (UiCorrectionDialog, ui_correction_dialog, ADW_TYPE_WINDOW)

/* "slot 2 of Bea", "the discard pile": where a card lies, in words. */
static char *
zone_words (UiReferee *referee, const EngZone *zone)
{
  const EngSetup *setup = ui_referee_get_setup (referee);
  const char *owner = zone->seat >= 0 && (unsigned) zone->seat < setup->n_players ? setup->names[zone->seat] : NULL;
  const char *place = ui_zone_kind_word ((EngZoneKind) zone->kind);
  if (place == NULL)
    return g_strdup (_ ("on the table, outside the zones"));
  GString *text = g_string_new (place);
  if (zone->index >= 0 && (zone->kind == ENG_ZONE_SLOT || zone->kind == ENG_ZONE_ATTACK))
    g_string_append_printf (text, " %d", zone->index + 1);
  if (owner != NULL)
    /* Translators: glued after a zone: "slot 2 of Bea". */
    g_string_append_printf (text, _ (" of %s"), owner);
  return g_string_free (text, FALSE);
}

/* A refusal in red; a mere state ("no card in view") dimmed. */
static void
set_message (UiCorrectionDialog *self, const char *text, gboolean refusal)
{
  gtk_label_set_text (self->message, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message), text != NULL);
  if (refusal)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
      gtk_widget_remove_css_class (GTK_WIDGET (self->message), "dim-label");
    }
  else
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->message), "dim-label");
      gtk_widget_remove_css_class (GTK_WIDGET (self->message), "error");
    }
}

/* Apply answers only what the user picked: both rows chosen. */
static void
update_apply (UiCorrectionDialog *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "correction.apply",
                                 ui_correction_dialog_can_apply (self));
}

/* The faces of the chosen card's deck, the chosen one left out.  None is
 * chosen for the user: a guess here would rewrite the game. */
static void
fill_actual (UiCorrectionDialog *self)
{
  g_ptr_array_set_size (self->actual_payloads, 0);
  GtkStringList *names = gtk_string_list_new (NULL);
  guint index = adw_combo_row_get_selected (self->seen_row);
  const EngCardSet *set = ui_referee_get_card_set (self->referee);
  EngTag seen_tag;
  EngTagMeaning seen;
  if (index < self->seen_payloads->len)
    {
      const char *payload = self->seen_payloads->pdata[index];
      if (eng_tag_parse (payload, strlen (payload), &seen_tag) == ENG_OK
          && eng_card_set_resolve (set, &seen_tag, &seen) == ENG_OK && seen.card != NULL)
        for (size_t i = 0; i < eng_card_set_n_cards (set); i++)
          {
            const EngCard *card = eng_card_set_card (set, i);
            if (card->deck != seen.card->deck || card->serial == seen.card->serial)
              continue;
            EngTag tag = seen_tag;
            tag.serial = card->serial;
            char actual[ENG_TAG_PAYLOAD_LEN + 1];
            if (eng_tag_format (&tag, actual) != ENG_OK)
              continue;
            g_autofree char *name = ui_referee_dup_card_name (self->referee, actual);
            gtk_string_list_append (names, name);
            g_ptr_array_add (self->actual_payloads, g_strdup (actual));
          }
    }
  adw_combo_row_set_model (self->actual_row, G_LIST_MODEL (names));
  adw_combo_row_set_selected (self->actual_row, GTK_INVALID_LIST_POSITION);
  g_object_unref (names);
  update_apply (self);
}

/* Every face the camera reads now, with where it lies. */
static void
fill_seen (UiCorrectionDialog *self)
{
  g_ptr_array_set_size (self->seen_payloads, 0);
  GtkStringList *names = gtk_string_list_new (NULL);
  const EngSnapshot *snapshot = ui_referee_get_last_snapshot (self->referee);
  /* The card the last move played is the likeliest to have been misread:
   * said so, not chosen. */
  guint in_play = ui_referee_get_card_in_play (self->referee);
  for (unsigned i = 0; i < snapshot->n_items; i++)
    {
      const EngSnapshotItem *item = &snapshot->items[i];
      if (item->tag_kind != ENG_TAG_FACE)
        continue;
      g_autofree char *name = ui_referee_dup_card_name (self->referee, item->payload);
      g_autofree char *where = zone_words (self->referee, &item->zone);
      g_autofree char *label = in_play != 0 && item->serial == in_play
                                 /* Translators: a card, where it lies; it is the card just played. */
                                 ? g_strdup_printf (_ ("%s · %s · just played"), name, where)
                                 : g_strdup_printf ("%s · %s", name, where);
      gtk_string_list_append (names, label);
      g_ptr_array_add (self->seen_payloads, g_strdup (item->payload));
    }
  adw_combo_row_set_model (self->seen_row, G_LIST_MODEL (names));
  adw_combo_row_set_selected (self->seen_row, GTK_INVALID_LIST_POSITION);
  g_object_unref (names);
  gboolean any = self->seen_payloads->len > 0;
  set_message (self, any ? NULL : _ ("No face-up card is in view now: lay the misread card face up where the camera sees it."),
               FALSE);
  fill_actual (self);
}

static void
fill_corrections (UiCorrectionDialog *self)
{
  ui_list_clear (self->corrections_list);
  guint n = ui_referee_n_corrections (self->referee);
  for (guint i = 0; i < n; i++)
    {
      const char *seen = NULL, *actual = NULL;
      if (!ui_referee_correction (self->referee, i, &seen, &actual))
        break;
      g_autofree char *seen_name = ui_referee_dup_card_name (self->referee, seen);
      g_autofree char *actual_name = ui_referee_dup_card_name (self->referee, actual);
      GtkWidget *row = adw_action_row_new ();
      /* Translators: the card the camera reads, the card it really is. */
      g_autofree char *title = g_strdup_printf (_ ("Read as %s: it is %s"), seen_name, actual_name);
      g_autofree char *title_markup = g_markup_escape_text (title, -1);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title_markup);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), seen);
      GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");
      gtk_widget_set_tooltip_text (remove, _ ("Remove this correction"));
      gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (remove, "flat");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (remove), "correction.remove");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (remove), "s", seen);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);
      gtk_list_box_append (self->corrections_list, row);
    }
  if (n == 0)
    {
      GtkWidget *none = gtk_label_new (_ ("None: every sticker is taken as printed."));
      gtk_widget_add_css_class (none, "dim-label");
      gtk_widget_set_margin_top (none, 8);
      gtk_widget_set_margin_bottom (none, 8);
      gtk_list_box_append (self->corrections_list, none);
    }
}

static void
correct (UiCorrectionDialog *self, const char *seen, const char *actual)
{
  g_autoptr (GError) error = NULL;
  gboolean done = ui_referee_correct_card (self->referee, seen, actual, &error);
  fill_corrections (self);
  fill_seen (self);
  if (!done)
    set_message (self, error->message, TRUE);
}

static void
apply_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiCorrectionDialog *self = UI_CORRECTION_DIALOG (widget);
  guint seen = adw_combo_row_get_selected (self->seen_row);
  guint actual = adw_combo_row_get_selected (self->actual_row);
  if (seen >= self->seen_payloads->len || actual >= self->actual_payloads->len)
    {
      set_message (self, _ ("Pick the card the camera reads and what it really is."), TRUE);
      return;
    }
  correct (self, self->seen_payloads->pdata[seen], self->actual_payloads->pdata[actual]);
}

static void
remove_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  correct (UI_CORRECTION_DIALOG (widget), g_variant_get_string (parameter, NULL), NULL);
}

static void
ui_correction_dialog_dispose (GObject *object)
{
  UiCorrectionDialog *self = UI_CORRECTION_DIALOG (object);
  g_clear_object (&self->referee);
  gtk_widget_dispose_template (GTK_WIDGET (object), UI_TYPE_CORRECTION_DIALOG);
  G_OBJECT_CLASS (ui_correction_dialog_parent_class)->dispose (object);
}

static void
ui_correction_dialog_finalize (GObject *object)
{
  UiCorrectionDialog *self = UI_CORRECTION_DIALOG (object);
  g_ptr_array_unref (self->seen_payloads);
  g_ptr_array_unref (self->actual_payloads);
  G_OBJECT_CLASS (ui_correction_dialog_parent_class)->finalize (object);
}

static void
ui_correction_dialog_class_init (UiCorrectionDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_correction_dialog_dispose;
  G_OBJECT_CLASS (klass)->finalize = ui_correction_dialog_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-correction-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, UiCorrectionDialog, seen_row);
  gtk_widget_class_bind_template_child (widget_class, UiCorrectionDialog, actual_row);
  gtk_widget_class_bind_template_child (widget_class, UiCorrectionDialog, message);
  gtk_widget_class_bind_template_child (widget_class, UiCorrectionDialog, corrections_list);
  gtk_widget_class_install_action (widget_class, "correction.apply", NULL, apply_action);
  gtk_widget_class_install_action (widget_class, "correction.remove", "s", remove_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
ui_correction_dialog_init (UiCorrectionDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->seen_payloads = g_ptr_array_new_with_free_func (g_free);
  self->actual_payloads = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect_swapped (self->seen_row, "notify::selected", G_CALLBACK (fill_actual), self);
  g_signal_connect_swapped (self->actual_row, "notify::selected", G_CALLBACK (update_apply), self);
}

UiCorrectionDialog *
ui_correction_dialog_new (GtkWindow *parent, UiReferee *referee)
{
  g_return_val_if_fail (UI_IS_REFEREE (referee), NULL);
  UiCorrectionDialog *self = g_object_new (UI_TYPE_CORRECTION_DIALOG, "transient-for", parent,
                                           "application", gtk_window_get_application (parent), NULL);
  self->referee = g_object_ref (referee);
  fill_seen (self);
  fill_corrections (self);
  return self;
}

void
ui_correction_dialog_select (UiCorrectionDialog *self, const char *payload)
{
  g_return_if_fail (UI_IS_CORRECTION_DIALOG (self));
  for (guint i = 0; i < self->seen_payloads->len; i++)
    if (g_strcmp0 (self->seen_payloads->pdata[i], payload) == 0)
      adw_combo_row_set_selected (self->seen_row, i);
}

gboolean
ui_correction_dialog_can_apply (UiCorrectionDialog *self)
{
  g_return_val_if_fail (UI_IS_CORRECTION_DIALOG (self), FALSE);
  return adw_combo_row_get_selected (self->seen_row) < self->seen_payloads->len
         && adw_combo_row_get_selected (self->actual_row) < self->actual_payloads->len;
}

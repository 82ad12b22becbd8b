#include "ui-calibration-page.h"

#include <glib/gi18n-lib.h>

#include <string.h>

#include "ui-list.h"

#define MAX_ADVICE 8

struct _UiCalibrationPage
{
  GtkBox parent_instance;

  GtkListBox *advice_list;
  AdwActionRow *anchors[4];
  GtkImage *anchor_icons[4];
  GtkListBox *seat_list;
  AdwActionRow *state_row;
  AdwActionRow *scale_row;
  AdwActionRow *module_row;
  AdwActionRow *lens_row;
  char *advice_shown;   /* the advice and seat lists as last built: rebuilt */
  char *seats_shown;    /* only when their words change */
};

G_DEFINE_FINAL_TYPE (UiCalibrationPage, ui_calibration_page, GTK_TYPE_BOX)

/* Rebuilds `list` from the '\n'-separated lines of `text` when they differ
 * from what it shows (`*shown`). */
static void
show_lines (GtkListBox *list, char **shown, const char *text)
{
  if (g_strcmp0 (*shown, text) == 0)
    return;
  g_free (*shown);
  *shown = g_strdup (text);
  ui_list_clear (list);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (char **l = lines; *l; l++)
    if (**l != '\0')
      gtk_list_box_append (list, ui_list_label (*l));
}

static void
set_subtitle (AdwActionRow *row, const char *text)
{
  if (g_strcmp0 (adw_action_row_get_subtitle (row), text) != 0)
    adw_action_row_set_subtitle (row, text);
}

static const char *
seat_player (const EngSetup *setup, guint marker)
{
  for (unsigned p = 0; setup != NULL && p < setup->n_players; p++)
    if (setup->seats[p] == marker)
      return setup->names[p];
  return NULL;
}

void
ui_calibration_page_update (UiCalibrationPage *self, const UiCalibrationFacts *f, const EngSetup *setup)
{
  g_return_if_fail (UI_IS_CALIBRATION_PAGE (self));

  char *advice[MAX_ADVICE];
  guint n = ui_calibration_facts_advice (f, advice, MAX_ADVICE);
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (text, "%s\n", advice[i]);
      g_free (advice[i]);
    }
  show_lines (self->advice_list, &self->advice_shown, text->str);

  for (int a = 0; a < 4; a++)
    {
      g_autofree char *where = f->anchor_seen[a]
                                 ? g_strdup_printf (_ ("Seen at %.0f, %.0f px"), f->anchor_x[a], f->anchor_y[a])
                                 : g_strdup (_ ("Not in view"));
      set_subtitle (self->anchors[a], where);
      const char *icon = f->anchor_seen[a] ? "emblem-ok-symbolic" : "dialog-warning-symbolic";
      if (g_strcmp0 (gtk_image_get_icon_name (self->anchor_icons[a]), icon) != 0)
        gtk_image_set_from_icon_name (self->anchor_icons[a], icon);
      if (f->anchor_seen[a])
        gtk_widget_remove_css_class (GTK_WIDGET (self->anchor_icons[a]), "warning");
      else
        gtk_widget_add_css_class (GTK_WIDGET (self->anchor_icons[a]), "warning");
    }

  /* Seats: every marker in view with its player, then the players whose
   * marker is not in view. */
  g_string_truncate (text, 0);
  for (guint s = 0; s < f->n_seats; s++)
    {
      const char *player = seat_player (setup, f->seat_number[s]);
      if (player != NULL)
        g_string_append_printf (text, _ ("Seat %u: %s (at %.0f, %.0f px)\n"), f->seat_number[s], player,
                                f->seat_x[s], f->seat_y[s]);
      else
        g_string_append_printf (text, _ ("Seat %u: no player sits here in this game\n"), f->seat_number[s]);
    }
  for (unsigned p = 0; setup != NULL && p < setup->n_players; p++)
    {
      gboolean seen = FALSE;
      for (guint s = 0; s < f->n_seats; s++)
        seen |= f->seat_number[s] == setup->seats[p];
      if (!seen)
        /* Translators: the seat number, the player, the player again. */
        g_string_append_printf (text, _ ("Seat %u (%s) is not in view: put the marker in front of %s.\n"),
                                setup->seats[p], setup->names[p], setup->names[p]);
    }
  if (text->len == 0)
    g_string_append (text, _ ("No seat marker in view.\n"));
  show_lines (self->seat_list, &self->seats_shown, text->str);

  g_autofree char *state = !f->calibrated ? g_strdup (_ ("Not calibrated: all four anchors must be seen at once"))
                           : f->calibrations == 0 ? g_strdup (_ ("Calibrated from the saved file"))
                           : f->calibrations == 1 ? g_strdup (_ ("Calibrated from the anchors (once)"))
                           : g_strdup_printf (_ ("Calibrated; recalibrated %u times since the start (camera or table moved)"),
                                              f->calibrations - 1);
  set_subtitle (self->state_row, state);
  g_autofree char *scale = f->px_per_mm > 0
                             ? g_strdup_printf (_ ("%.2f px per mm on the table (%d × %d image)"), f->px_per_mm,
                                                f->width, f->height)
                             : f->width == 0 ? g_strdup (_ ("Unknown until calibrated (no picture yet)"))
                             : g_strdup_printf (_ ("Unknown until calibrated (%d × %d image)"), f->width, f->height);
  set_subtitle (self->scale_row, scale);
  g_autofree char *module = f->n_cards == 0
                              ? g_strdup_printf (_ ("No card sticker in view (the detector needs %.1f px a module)"),
                                                 UI_CALIBRATION_GOOD_MODULE_PX)
                              : g_strdup_printf (_ ("%.1f px a module on average, %.1f the smallest, of %u card stickers (%.1f needed)"),
                                                 f->module_px_mean, f->module_px_min, f->n_cards,
                                                 UI_CALIBRATION_GOOD_MODULE_PX);
  set_subtitle (self->module_row, module);
  set_subtitle (self->lens_row, f->lens_loaded ? _ ("Lens calibration loaded: detections are undistorted")
                                : f->from_file ? _ ("Saved calibration loaded, without a lens calibration (none needed for ordinary webcams)")
                                               : _ ("No lens calibration (none needed for ordinary webcams)"));
  g_string_free (text, TRUE);
}

static void
ui_calibration_page_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), UI_TYPE_CALIBRATION_PAGE);
  G_OBJECT_CLASS (ui_calibration_page_parent_class)->dispose (object);
}

static void
ui_calibration_page_finalize (GObject *object)
{
  UiCalibrationPage *self = UI_CALIBRATION_PAGE (object);
  g_free (self->advice_shown);
  g_free (self->seats_shown);
  G_OBJECT_CLASS (ui_calibration_page_parent_class)->finalize (object);
}

static void
ui_calibration_page_class_init (UiCalibrationPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_calibration_page_dispose;
  G_OBJECT_CLASS (klass)->finalize = ui_calibration_page_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-calibration-page.ui");
  gtk_widget_class_bind_template_child (widget_class, UiCalibrationPage, advice_list);
  gtk_widget_class_bind_template_child (widget_class, UiCalibrationPage, seat_list);
  gtk_widget_class_bind_template_child (widget_class, UiCalibrationPage, state_row);
  gtk_widget_class_bind_template_child (widget_class, UiCalibrationPage, scale_row);
  gtk_widget_class_bind_template_child (widget_class, UiCalibrationPage, module_row);
  gtk_widget_class_bind_template_child (widget_class, UiCalibrationPage, lens_row);
  static const char *const anchor_ids[] = { "anchor1", "anchor2", "anchor3", "anchor4" };
  static const char *const icon_ids[] = { "anchor_icon1", "anchor_icon2", "anchor_icon3", "anchor_icon4" };
  for (int a = 0; a < 4; a++)
    {
      gtk_widget_class_bind_template_child_full (widget_class, anchor_ids[a], FALSE,
                                                 G_STRUCT_OFFSET (UiCalibrationPage, anchors[0])
                                                   + (gssize) a * (gssize) sizeof (AdwActionRow *));
      gtk_widget_class_bind_template_child_full (widget_class, icon_ids[a], FALSE,
                                                 G_STRUCT_OFFSET (UiCalibrationPage, anchor_icons[0])
                                                   + (gssize) a * (gssize) sizeof (GtkImage *));
    }
}

static void
ui_calibration_page_init (UiCalibrationPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  UiCalibrationFacts none = { 0 };
  ui_calibration_page_update (self, &none, NULL);
}

GtkWidget *
ui_calibration_page_new (void)
{
  return g_object_new (UI_TYPE_CALIBRATION_PAGE, NULL);
}

#include "ui-table-map.h"

#include <glib/gi18n-lib.h>

#include <math.h>

#include "katua.h"

struct _UiTableMap
{
  GtkWidget parent_instance;

  UiReferee *referee;
  gulong changed_id;
};

G_DEFINE_FINAL_TYPE (UiTableMap, ui_table_map, GTK_TYPE_WIDGET)

#define CARD_W 34.0
#define CARD_H 48.0

static void
draw_text_centred (cairo_t *cr, double x, double y, const char *text, double size)
{
  cairo_set_font_size (cr, size);
  cairo_text_extents_t ext;
  cairo_text_extents (cr, text, &ext);
  cairo_move_to (cr, x - ext.width / 2 - ext.x_bearing, y - ext.height / 2 - ext.y_bearing);
  cairo_show_text (cr, text);
}

/* One card at (x, y), its centre; `serial` 0 draws a back. */
static void
draw_card (cairo_t *cr, double x, double y, const EngCardSet *set, int serial)
{
  cairo_rectangle (cr, x - CARD_W / 2, y - CARD_H / 2, CARD_W, CARD_H);
  if (serial < 0)
    {
      cairo_set_source_rgba (cr, 1, 1, 1, 0.25);
      cairo_set_dash (cr, (double[]){ 3, 3 }, 2, 0);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      return;
    }
  if (serial == 0)
    {
      cairo_set_source_rgb (cr, 0.14, 0.22, 0.50);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, 0.85, 0.85, 0.9);
      cairo_stroke (cr);
      return;
    }
  const EngCard *card = eng_card_set_find_serial (set, (uint16_t) serial);
  cairo_set_source_rgb (cr, 0.97, 0.96, 0.92);
  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
  cairo_stroke (cr);
  if (card == NULL)
    return;
  const char *colour = eng_card_attr (card, "colour");
  const char *value = eng_card_attr (card, "value");
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  draw_text_centred (cr, x, y - 8, card->name, 8);
  if (colour != NULL)
    draw_text_centred (cr, x, y + 3, colour, 8);
  if (value != NULL)
    draw_text_centred (cr, x, y + 14, value, 10);
}

static void
ui_table_map_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  UiTableMap *self = UI_TABLE_MAP (widget);
  double w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, (float) w, (float) h);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &bounds);
  cairo_set_source_rgb (cr, 0.17, 0.32, 0.22);
  cairo_rectangle (cr, 0, 0, w, h);
  cairo_fill (cr);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_line_width (cr, 1);

  if (self->referee == NULL)
    {
      cairo_destroy (cr);
      return;
    }
  const EngGame *game = ui_referee_get_game (self->referee);
  const EngSetup *setup = ui_referee_get_setup (self->referee);
  const KatState *s = eng_game_state (game);
  const KatRules *rules = eng_game_rules (game);
  const EngCardSet *set = ui_referee_get_card_set (self->referee);
  double cx = w / 2, cy = h / 2;

  /* Shared area: decks and discard pile, with counts the referee can prove. */
  char text[64];
  draw_card (cr, cx - 45, cy, set, s->cat_deck_n > 0 ? 0 : -1);
  draw_card (cr, cx, cy, set, s->ufo_deck_n > 0 ? 0 : -1);
  draw_card (cr, cx + 45, cy, set, -1);
  cairo_set_source_rgb (cr, 1, 1, 1);
  char pile_text[3][64];
  g_snprintf (pile_text[0], sizeof pile_text[0], _ ("cats %u"), s->cat_deck_n);
  g_snprintf (pile_text[1], sizeof pile_text[1], _ ("UFOs %u"), s->ufo_deck_n);
  g_snprintf (pile_text[2], sizeof pile_text[2], _ ("discard %u"), s->discard_n);
  /* The piles are 45 px apart: a longer translation ("descarte 12") is
   * drawn smaller rather than over its neighbour's label. */
  double pile_width[3];
  cairo_set_font_size (cr, 9);
  for (int i = 0; i < 3; i++)
    {
      cairo_text_extents_t ext;
      cairo_text_extents (cr, pile_text[i], &ext);
      pile_width[i] = ext.x_advance;
    }
  double pile_size = 9 * MIN (1.0, MIN (88 / (pile_width[0] + pile_width[1]), 88 / (pile_width[1] + pile_width[2])));
  for (int i = 0; i < 3; i++)
    draw_text_centred (cr, cx + 45 * (i - 1), cy + CARD_H / 2 + 9, pile_text[i], pile_size);

  /* Seats around the table, clockwise from the bottom (seat order). */
  unsigned n = setup->n_players;
  double rx = w / 2 - 70, ry = h / 2 - 45;
  for (unsigned p = 0; p < n; p++)
    {
      double angle = G_PI / 2 + 2 * G_PI * p / n;
      double px = cx + rx * cos (angle), py = cy + ry * sin (angle);
      cairo_save (cr);
      cairo_translate (cr, px, py);
      if (p == s->active && s->phase != KAT_PHASE_OVER)
        {
          cairo_set_source_rgba (cr, 1, 0.85, 0.2, 0.35);
          cairo_rectangle (cr, -62, -CARD_H / 2 - 6, 124, CARD_H + 26);
          cairo_fill (cr);
        }
      for (unsigned k = 0; k < KAT_SLOTS; k++)
        draw_card (cr, (k - 1.0) * 40, 0, set, katua_public_slot (rules, s, p, k));
      cairo_set_source_rgb (cr, 1, 1, 1);
      /* Translators: the player, their cards in hand, the cats they captured. */
      g_snprintf (text, sizeof text, _ ("%s · hand %u · captured %u"), setup->names[p], s->hand_n[p],
                  s->captured_n[p]);
      draw_text_centred (cr, 0, CARD_H / 2 + 11, text, 10);
      cairo_restore (cr);
    }
  cairo_destroy (cr);
}

static void
ui_table_map_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                      int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 300 : 240;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 320 : 260;
}

void
ui_table_map_set_referee (UiTableMap *self, UiReferee *referee)
{
  g_return_if_fail (UI_IS_TABLE_MAP (self));
  if (self->referee != NULL)
    g_clear_signal_handler (&self->changed_id, self->referee);
  g_set_object (&self->referee, referee);
  if (referee != NULL)
    self->changed_id = g_signal_connect_swapped (referee, "changed",
                                                 G_CALLBACK (gtk_widget_queue_draw), self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ui_table_map_dispose (GObject *object)
{
  UiTableMap *self = UI_TABLE_MAP (object);
  if (self->referee != NULL)
    g_clear_signal_handler (&self->changed_id, self->referee);
  g_clear_object (&self->referee);
  G_OBJECT_CLASS (ui_table_map_parent_class)->dispose (object);
}

static void
ui_table_map_class_init (UiTableMapClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ui_table_map_dispose;
  GTK_WIDGET_CLASS (klass)->snapshot = ui_table_map_snapshot;
  GTK_WIDGET_CLASS (klass)->measure = ui_table_map_measure;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "tablemap");
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ui_table_map_init (UiTableMap *self)
{
}

GtkWidget *
ui_table_map_new (void)
{
  return g_object_new (UI_TYPE_TABLE_MAP, NULL);
}

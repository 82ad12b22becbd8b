#include "ui-table-map.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "ui-text-fit.h"
#include "ui-words.h"

struct _UiTableMap
{
  GtkWidget parent_instance;

  UiReferee *referee;
  gulong changed_id;
  char *description;           /* what the map shows, in words (accessible description) */
};

G_DEFINE_FINAL_TYPE (UiTableMap, ui_table_map, GTK_TYPE_WIDGET)

#define CARD_W 34.0
#define CARD_H 48.0

/* A view card as draw_card takes it: -1 an empty position, 0 a back, else
 * the face's serial. */
static int
view_card (const EngViewCard *card)
{
  return card->empty ? -1 : card->serial;
}

/* What a place shows on top: its last card, a back while it holds cards
 * nobody sees, or an empty outline. */
static int
place_top (const EngViewPlace *place)
{
  if (place->n_cards > 0)
    return view_card (&place->cards[place->n_cards - 1]);
  return place->count > 0 ? 0 : -1;
}

/* `text` centred on (x, y) within `width` px: broken at spaces into up
 * to `lines` lines and made smaller (down to 6 px) rather than cut
 * (ui-text-fit.h). */
static void
draw_text_centred (cairo_t *cr, double x, double y, const char *text, double size, double width,
                   int lines)
{
  PangoLayout *layout = ui_text_fit_layout (cr, text, width, lines, size, MIN (size, 6.0), FALSE);
  ui_text_fit_show_centred (cr, layout, x, y);
  g_object_unref (layout);
}

/* One card at (x, y), its centre; `serial` 0 draws a back.  A face shows
 * the game's name for the card (the table's language, eng_game_card_name)
 * on two lines, and its value when the name lacks it. */
static void
draw_card (cairo_t *cr, double x, double y, const EngCardSet *set, const EngGame *game, int serial)
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
  char name[64];
  eng_game_card_name (game, (unsigned) serial, false, name, sizeof name);
  const char *value = eng_card_attr (card, "value");
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  gboolean show_value = value != NULL && strstr (name, value) == NULL;
  /* the name in the card's upper part (the value, when shown, below it),
   * broken at spaces and made smaller rather than cut mid-word */
  double room = show_value ? CARD_H - 18 : CARD_H - 4;
  PangoLayout *layout = ui_text_fit_layout (cr, name, CARD_W - 4, 4, 8, 5, FALSE);
  double lw, lh;
  ui_text_fit_size (layout, &lw, &lh);
  double top = y - CARD_H / 2 + 2;
  ui_text_fit_show_centred (cr, layout, x, top + MIN (lh, room) / 2);
  g_object_unref (layout);
  if (show_value)
    draw_text_centred (cr, x, y + CARD_H / 2 - 8, value, 10, CARD_W - 4, 1);
}

/* Shared places (decks, piles, a path), with counts the referee can
 * prove: each shows its top card, a back while it holds hidden cards. */
static void
draw_shared (cairo_t *cr, const EngView *view, const EngCardSet *set, const EngGame *game,
             double w, double cx, double cy)
{
  unsigned n = view->n_players;
  unsigned n_shared = MIN (view->n_shared, (unsigned) ENG_VIEW_SHARED_PLACES);
  char pile_text[ENG_VIEW_SHARED_PLACES][ENG_VIEW_TEXT + 16];
  double pile_width[ENG_VIEW_SHARED_PLACES];
  cairo_set_font_size (cr, 9);
  double widest_pair = 1;
  for (unsigned i = 0; i < n_shared; i++)
    {
      const EngViewPlace *place = &view->shared[i];
      g_snprintf (pile_text[i], sizeof pile_text[i], "%s %d", place->label, place->count);
      cairo_text_extents_t ext;
      cairo_text_extents (cr, pile_text[i], &ext);
      pile_width[i] = ext.x_advance;
      if (i > 0)
        widest_pair = MAX (widest_pair, pile_width[i - 1] + pile_width[i]);
    }
  /* The places spread apart as far as their labels need, within the
   * middle of the map (seats at the sides stand in the same row from
   * three players on), 45 px at least; a label still too long is drawn
   * smaller rather than over its neighbour's. */
  double room = (n > 2 ? w - 2 * 140 : w - 20) / MAX (n_shared, 1u);
  double pile_step = CLAMP (widest_pair / 2 + 6, 45, MAX (room, 45));
  for (unsigned i = 0; i < n_shared; i++)
    draw_card (cr, cx + pile_step * (i - (n_shared - 1) / 2.0), cy, set, game,
               place_top (&view->shared[i]));
  cairo_set_source_rgb (cr, 1, 1, 1);
  for (unsigned i = 0; i < n_shared; i++)
    draw_text_centred (cr, cx + pile_step * (i - (n_shared - 1) / 2.0), cy + CARD_H / 2 + 12,
                       pile_text[i], 9, 2 * pile_step - 4, 2);
}

/* One seat at (px, py) of a w-wide map of n seats: the seat's first place
 * (where it plays) drawn, the others counted under the name. */
static void
draw_seat (cairo_t *cr, const EngViewPlayer *vp, const EngCardSet *set, const EngGame *game,
           double w, unsigned n, double px, double py)
{
  cairo_save (cr);
  cairo_translate (cr, px, py);
  if (vp->flags & (ENG_VIEW_PLAYER_ACTIVE | ENG_VIEW_PLAYER_DECIDING))
    {
      double alpha = (vp->flags & ENG_VIEW_PLAYER_ACTIVE) ? 0.35 : 0.18;
      cairo_set_source_rgba (cr, 1, 0.85, 0.2, alpha);
      cairo_rectangle (cr, -62, -CARD_H / 2 - 6, 124, CARD_H + 26);
      cairo_fill (cr);
    }
  if (vp->n_places > 0)
    {
      const EngViewPlace *own = &vp->places[0];
      unsigned k_max = MIN (own->n_cards, 5u);
      double step = k_max > 3 ? 24 : 40;
      for (unsigned k = 0; k < k_max; k++)
        draw_card (cr, (k - (k_max - 1) / 2.0) * step, 0, set, game, view_card (&own->cards[k]));
    }
  GString *text = g_string_new (vp->name);
  /* Translators: after a player's name on the table map. */
  if (vp->hand >= 0)
    g_string_append_printf (text, _ (" · %d in hand"), vp->hand);
  for (unsigned i = 1; i < vp->n_places; i++)
    g_string_append_printf (text, " · %s %d", vp->places[i].label, vp->places[i].count);
  if (vp->flags & ENG_VIEW_PLAYER_OUT)
    g_string_append_printf (text, " · %s", _ ("out"));
  cairo_set_source_rgb (cr, 1, 1, 1);
  /* a seat at a side keeps its whole line inside the map: as wide as
   * the map allows around it, in two lines when it must */
  double line_room = n > 2 ? MIN (w - 8, 2 * MIN (px, w - px) - 8) : w - 8;
  PangoLayout *layout = ui_text_fit_layout (cr, text->str, line_room, 2, 10, 7, FALSE);
  double lw, lh;
  ui_text_fit_size (layout, &lw, &lh);
  double half = lw / 2 + 4;
  double tx = CLAMP (0.0, half - px, MAX (half - px, w - half - px));
  ui_text_fit_show_centred (cr, layout, tx, CARD_H / 2 + 4 + lh / 2);
  g_object_unref (layout);
  g_string_free (text, TRUE);
  cairo_restore (cr);
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
  const EngView *view = ui_referee_get_view (self->referee);
  const EngCardSet *set = ui_referee_get_card_set (self->referee);
  const EngGame *game = ui_referee_get_game (self->referee);
  double cx = w / 2, cy = h / 2;
  unsigned n = view->n_players;
  draw_shared (cr, view, set, game, w, cx, cy);
  /* Seats around the table, clockwise from the bottom (seat order) */
  double rx = w / 2 - 70, ry = h / 2 - 45;
  for (unsigned p = 0; p < n; p++)
    {
      double angle = G_PI / 2 + 2 * G_PI * p / n;
      draw_seat (cr, &view->players[p], set, game, w, n, cx + rx * cos (angle),
                 cy + ry * sin (angle));
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

/* The map in words, for a screen reader: updated when the game changes,
 * said again only when the words change. */
static void
describe (UiTableMap *self)
{
  g_autofree char *text = self->referee != NULL
                            ? ui_words_describe_view (ui_referee_get_view (self->referee),
                                                      ui_referee_get_card_set (self->referee),
                                                      ui_referee_get_game (self->referee))
                            : g_strdup (_ ("No game"));
  if (g_strcmp0 (text, self->description) == 0)
    return;
  g_free (self->description);
  self->description = g_steal_pointer (&text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  self->description, -1);
}

static void
on_changed (UiTableMap *self)
{
  describe (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
ui_table_map_get_description (UiTableMap *self)
{
  g_return_val_if_fail (UI_IS_TABLE_MAP (self), NULL);
  return self->description;
}

void
ui_table_map_set_referee (UiTableMap *self, UiReferee *referee)
{
  g_return_if_fail (UI_IS_TABLE_MAP (self));
  if (self->referee != NULL)
    g_clear_signal_handler (&self->changed_id, self->referee);
  g_set_object (&self->referee, referee);
  if (referee != NULL)
    self->changed_id = g_signal_connect_swapped (referee, "changed", G_CALLBACK (on_changed), self);
  on_changed (self);
}

static void
ui_table_map_dispose (GObject *object)
{
  UiTableMap *self = UI_TABLE_MAP (object);
  if (self->referee != NULL)
    g_clear_signal_handler (&self->changed_id, self->referee);
  g_clear_object (&self->referee);
  g_clear_pointer (&self->description, g_free);
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
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _ ("Table map"), -1);
  describe (self);
}

GtkWidget *
ui_table_map_new (void)
{
  return g_object_new (UI_TYPE_TABLE_MAP, NULL);
}

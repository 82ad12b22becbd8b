/* ui-score-chart.c: the score over a game (ui-score-chart.h). */
#include "ui-score-chart.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <math.h>

#define MARGIN_LEFT 56.0
#define MARGIN_RIGHT 16.0
#define MARGIN_TOP 40.0
#define MARGIN_BOTTOM 44.0

struct _UiScoreChart
{
  GtkWidget parent_instance;

  guint n_seats;
  char names[ENG_MAX_PLAYERS][ENG_NAME_MAX];
  gboolean scored;
  guint n_moves;
  GArray *points;      /* HstCheckpoint */
};

G_DEFINE_FINAL_TYPE (UiScoreChart, ui_score_chart, GTK_TYPE_WIDGET)

/* GNOME's palette: the 3 shade for a light background, the 1 shade for a
 * dark one, so every line stands out from the page it is drawn on. */
static const char *const light_colours[ENG_MAX_PLAYERS] = {
  "#1c71d8", "#e66100", "#26a269", "#813d9c", "#c01c28", "#986a44",
};
static const char *const dark_colours[ENG_MAX_PLAYERS] = {
  "#99c1f1", "#ffbe6f", "#8ff0a4", "#dc8add", "#f66151", "#cdab8f",
};

const char *
ui_score_chart_seat_colour (guint seat, gboolean dark)
{
  return (dark ? dark_colours : light_colours)[seat % ENG_MAX_PLAYERS];
}

static gboolean
is_dark (void)
{
  return adw_style_manager_get_dark (adw_style_manager_get_default ());
}

/* A step between grid lines that gives about `lines` lines over `range`:
 * 1, 2 or 5 times a power of ten. */
static double
nice_step (double range, int lines)
{
  double raw = range / lines;
  double power = pow (10, floor (log10 (raw)));
  double step = power;
  if (raw > 5 * power)
    step = 10 * power;
  else if (raw > 2 * power)
    step = 5 * power;
  else if (raw > power)
    step = 2 * power;
  return MAX (step, 1);
}

static void
text_at (cairo_t *cr, PangoLayout *layout, const char *text, double x, double y, double align_x, double align_y)
{
  int w, h;
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x - w * align_x, y - h * align_y);
  pango_cairo_show_layout (cr, layout);
}

typedef struct {
  double x0, y0, w, h;    /* the plot area */
  int lo, hi;             /* score range */
  guint moves;
} Frame;

static double
fx (const Frame *f, double move)
{
  return f->x0 + (f->moves > 0 ? move / f->moves : 0) * f->w;
}

static double
fy (const Frame *f, double score)
{
  return f->y0 + f->h - (score - f->lo) / (double) (f->hi - f->lo) * f->h;
}

static void
draw_axes (UiScoreChart *self, cairo_t *cr, PangoLayout *layout, const Frame *f, const GdkRGBA *fg)
{
  cairo_set_line_width (cr, 1);
  double step = nice_step (f->hi - f->lo, self->scored ? 5 : 1);
  for (double v = ceil (f->lo / step) * step; v <= f->hi + 1e-9; v += step)
    {
      double y = round (fy (f, v)) + 0.5;
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, v == 0 ? 0.45 : 0.15);
      cairo_move_to (cr, f->x0, y);
      cairo_line_to (cr, f->x0 + f->w, y);
      cairo_stroke (cr);
      g_autofree char *label = self->scored ? g_strdup_printf ("%g", v) : g_strdup (v > 0 ? _ ("in") : _ ("out"));
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.8);
      text_at (cr, layout, label, f->x0 - 8, y, 1, 0.5);
    }
  double mstep = nice_step (MAX (f->moves, 1), 6);
  for (double m = 0; m <= f->moves + 1e-9; m += mstep)
    {
      g_autofree char *label = g_strdup_printf ("%g", m);
      text_at (cr, layout, label, fx (f, m), f->y0 + f->h + 4, 0.5, 0);
    }
  /* Translators: the chart's horizontal axis: moves made in the game */
  text_at (cr, layout, _ ("Moves"), f->x0 + f->w / 2, f->y0 + f->h + 22, 0.5, 0);
  cairo_save (cr);
  cairo_translate (cr, 12, f->y0 + f->h / 2);
  cairo_rotate (cr, -G_PI / 2);
  /* Translators: the chart's vertical axis: points, or (a game without
   * points) whether each player is still in */
  text_at (cr, layout, self->scored ? _ ("Points") : _ ("Still in"), 0, 0, 0.5, 0);
  cairo_restore (cr);
}

static void
draw_lines (UiScoreChart *self, cairo_t *cr, const Frame *f, gboolean dark)
{
  for (guint p = 0; p < self->n_seats; p++)
    {
      GdkRGBA colour;
      gdk_rgba_parse (&colour, ui_score_chart_seat_colour (p, dark));
      gdk_cairo_set_source_rgba (cr, &colour);
      cairo_set_line_width (cr, 3);
      cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
      /* lines a little apart where scores are equal, so each is seen */
      double offset = (p - (self->n_seats - 1) / 2.0) * 3.5;
      for (guint c = 0; c < self->points->len; c++)
        {
          const HstCheckpoint *cp = &g_array_index (self->points, HstCheckpoint, c);
          double x = fx (f, cp->move), y = fy (f, cp->scores[p]) + offset;
          if (c == 0)
            cairo_move_to (cr, x, y);
          else
            {
              double px, py;
              cairo_get_current_point (cr, &px, &py);
              cairo_line_to (cr, x, py);   /* a score holds until it changes */
              cairo_line_to (cr, x, y);
            }
        }
      cairo_stroke (cr);
    }
}

/* The players' names in their colours across the top. */
static void
draw_legend (UiScoreChart *self, cairo_t *cr, PangoLayout *layout, const GdkRGBA *fg, gboolean dark, double width)
{
  double x = MARGIN_LEFT;
  for (guint p = 0; p < self->n_seats; p++)
    {
      GdkRGBA colour;
      gdk_rgba_parse (&colour, ui_score_chart_seat_colour (p, dark));
      int w, h;
      pango_layout_set_text (layout, self->names[p], -1);
      pango_layout_get_pixel_size (layout, &w, &h);
      if (x + 26 + w > width)
        break;
      gdk_cairo_set_source_rgba (cr, &colour);
      cairo_rectangle (cr, x, 12 + h / 2.0 - 3, 18, 6);
      cairo_fill (cr);
      gdk_cairo_set_source_rgba (cr, fg);
      cairo_move_to (cr, x + 24, 12);
      pango_cairo_show_layout (cr, layout);
      x += 24 + w + 20;
    }
}

static void
ui_score_chart_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  UiScoreChart *self = UI_SCORE_CHART (widget);
  double width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  if (self->points->len == 0 || width < MARGIN_LEFT + MARGIN_RIGHT + 20 || height < MARGIN_TOP + MARGIN_BOTTOM + 20)
    return;
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  GdkRGBA fg;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  gboolean dark = is_dark ();
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, NULL);
  Frame f = { MARGIN_LEFT, MARGIN_TOP, width - MARGIN_LEFT - MARGIN_RIGHT, height - MARGIN_TOP - MARGIN_BOTTOM,
              0, 1, MAX (self->n_moves, 1) };
  for (guint c = 0; c < self->points->len; c++)
    for (guint p = 0; p < self->n_seats; p++)
      {
        int v = g_array_index (self->points, HstCheckpoint, c).scores[p];
        f.lo = MIN (f.lo, v);
        f.hi = MAX (f.hi, v);
      }
  gdk_cairo_set_source_rgba (cr, &fg);
  draw_axes (self, cr, layout, &f, &fg);
  draw_lines (self, cr, &f, dark);
  draw_legend (self, cr, layout, &fg, dark, width);
  g_object_unref (layout);
  cairo_destroy (cr);
}

static void
ui_score_chart_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
                        int *minimum_baseline, int *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 240 : 180;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 560 : 240;
  *minimum_baseline = *natural_baseline = -1;
}

static void
ui_score_chart_finalize (GObject *object)
{
  UiScoreChart *self = UI_SCORE_CHART (object);
  g_array_unref (self->points);
  G_OBJECT_CLASS (ui_score_chart_parent_class)->finalize (object);
}

static void
on_dark_changed (UiScoreChart *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ui_score_chart_class_init (UiScoreChartClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ui_score_chart_finalize;
  GTK_WIDGET_CLASS (klass)->snapshot = ui_score_chart_snapshot;
  GTK_WIDGET_CLASS (klass)->measure = ui_score_chart_measure;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "scorechart");
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ui_score_chart_init (UiScoreChart *self)
{
  self->points = g_array_new (FALSE, TRUE, sizeof (HstCheckpoint));
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (on_dark_changed), self,
                           G_CONNECT_SWAPPED);
}

GtkWidget *
ui_score_chart_new (void)
{
  return g_object_new (UI_TYPE_SCORE_CHART, NULL);
}

/* What a screen reader says for the picture: each player's score at the
 * end. */
static void
describe (UiScoreChart *self)
{
  GString *text = g_string_new (_ ("Score over the game."));
  const HstCheckpoint *last = self->points->len > 0
                                ? &g_array_index (self->points, HstCheckpoint, self->points->len - 1) : NULL;
  for (guint p = 0; last != NULL && p < self->n_seats; p++)
    g_string_append_printf (text, " %s: %d.", self->names[p], last->scores[p]);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, text->str, -1);
  g_string_free (text, TRUE);
}

void
ui_score_chart_set_game (UiScoreChart *self, const HstGame *game)
{
  g_return_if_fail (UI_IS_SCORE_CHART (self));
  g_array_set_size (self->points, 0);
  self->n_seats = 0;
  if (game != NULL)
    {
      self->n_seats = game->n_seats;
      for (guint p = 0; p < game->n_seats; p++)
        g_strlcpy (self->names[p], game->seats[p].name, ENG_NAME_MAX);
      self->scored = game->scored;
      self->n_moves = game->n_moves;
      g_array_append_vals (self->points, game->checkpoints->data, game->checkpoints->len);
    }
  describe (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

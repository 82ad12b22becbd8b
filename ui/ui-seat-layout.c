#include "ui-seat-layout.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cal-zones.h"
#include "eng-cardset.h"
#include "eng-data.h"
#include "ui-words.h"

#define MAX_SEATS 8
#define LEGEND_H 22.0   /* px under the table for the seat zones' key */
#define MARKER_R 10.0   /* px, a seat marker's disc */
#define NAME_GAP 30.0   /* px kept above and below the table for the names */
#define SIDE_GAP 64.0   /* px kept at each side for a side seat's name */

struct _UiSeatLayout
{
  GtkWidget parent_instance;

  CalZones zones;
  gboolean have_zones;
  /* a shared zone's words, in the table's language (see shared_label) */
  char labels[CAL_ZONES_MAX][64];
  guint n;
  char *names[MAX_SEATS];
  guint seats[MAX_SEATS];
};

G_DEFINE_FINAL_TYPE (UiSeatLayout, ui_seat_layout, GTK_TYPE_WIDGET)

/* ---- geometry, in table millimetres (screen axes: x right, y down) ------ */

typedef struct {
  double ux, uy;   /* from the table centre towards the seat */
  double rx, ry;   /* the player's right as they face the centre */
} SeatFrame;

/* Seats clockwise from the bottom in turn order, as the table map draws
 * them; the frame of cal-zones.h: forward = -u, right = forward turned a
 * quarter clockwise on screen. */
static SeatFrame
seat_frame (guint i, guint n)
{
  double a = G_PI / 2 + 2 * G_PI * i / MAX (n, 1u);
  SeatFrame f = { cos (a), sin (a), 0, 0 };
  f.rx = f.uy;     /* -fwd_y with fwd = -u */
  f.ry = -f.ux;    /* fwd_x */
  return f;
}

static void
seat_point (const SeatFrame *f, double radius, double right, double forward, double *x, double *y)
{
  *x = f->ux * (radius - forward) + f->rx * right;
  *y = f->uy * (radius - forward) + f->ry * right;
}

/* The distance from the centre to each seat marker: far enough that the
 * zones in front of a seat clear the shared ones, and (three seats or
 * more) that neighbouring seats' zones stay within their own wedge. */
static double
seat_radius (const UiSeatLayout *self)
{
  double reach = 0, shared = 0;
  for (size_t k = 0; self->have_zones && k < self->zones.n; k++)
    {
      const CalZoneRect *z = &self->zones.zones[k];
      if (z->per_seat)
        reach = MAX (reach, z->at_y + z->depth / 2);
      else
        for (guint i = 0; i < MAX (self->n, 1u); i++)
          {
            SeatFrame f = seat_frame (i, self->n);
            for (int c = 0; c < 4; c++)
              {
                double x = z->at_x + (c & 1 ? 1 : -1) * z->width / 2;
                double y = z->at_y + (c & 2 ? 1 : -1) * z->depth / 2;
                shared = MAX (shared, x * f.ux + y * f.uy);
              }
          }
    }
  double radius = MAX (reach + shared + 20, 120);
  if (self->n < 3 || !self->have_zones)
    return radius;
  double wedge = G_PI / self->n * 0.95;
  for (int tries = 0; tries < 400; tries++, radius += 10)
    {
      gboolean fits = TRUE;
      for (size_t k = 0; k < self->zones.n && fits; k++)
        {
          const CalZoneRect *z = &self->zones.zones[k];
          for (int c = 0; z->per_seat && c < 4 && fits; c++)
            {
              double r = fabs (z->at_x) + z->width / 2;
              double fwd = z->at_y + (c & 2 ? 1 : -1) * z->depth / 2;
              fits = radius - fwd > 0 && atan2 (r, radius - fwd) < wedge;
            }
        }
      if (fits)
        break;
    }
  return radius;
}

/* ---- words ---------------------------------------------------------------- */

/* "Cat deck (dark blue back)" -> "Cat deck", translated first. */
static void
deck_words (const EngCardSet *set, int index, char *out, gsize size)
{
  const EngDeck *deck = set != NULL && index >= 0 ? eng_card_set_deck (set, (size_t) index) : NULL;
  if (deck == NULL || deck->label == NULL)
    {
      g_strlcpy (out, ui_zone_kind_word (ENG_ZONE_DECK), size);
      return;
    }
  g_strlcpy (out, _ (deck->label), size);
  char *paren = strstr (out, " (");
  if (paren != NULL)
    *paren = '\0';
}

/* What a shared zone is called on the picture: a lone deck is the draw
 * pile, several are told apart by their deck's label in the card set; a
 * centre position by its number, as the table counts them. */
static void
shared_label (const UiSeatLayout *self, const EngCardSet *set, const CalZoneRect *z, char *out,
              gsize size)
{
  guint decks = 0;
  for (size_t k = 0; k < self->zones.n; k++)
    decks += !self->zones.zones[k].per_seat && self->zones.zones[k].kind == ENG_ZONE_DECK;
  switch (z->kind)
    {
    case ENG_ZONE_DECK:
      if (decks > 1)
        deck_words (set, z->index, out, size);
      else
        g_strlcpy (out, _ ("Draw pile"), size);
      break;
    case ENG_ZONE_DISCARD:
      g_strlcpy (out, _ ("Discard pile"), size);
      break;
    case ENG_ZONE_CENTRE:
      g_snprintf (out, size, "%d", z->index + 1);
      break;
    default:
      g_strlcpy (out, ui_zone_kind_word ((EngZoneKind) z->kind) ? ui_zone_kind_word ((EngZoneKind) z->kind) : "", size);
      break;
    }
}

/* ---- drawing ---------------------------------------------------------------- */

static void
zone_style (cairo_t *cr, EngZoneKind kind)
{
  cairo_set_dash (cr, NULL, 0, 0);
  switch (kind)
    {
    case ENG_ZONE_SLOT:
      cairo_set_source_rgba (cr, 0.97, 0.96, 0.92, 0.85);
      break;
    case ENG_ZONE_ATTACK:
      cairo_set_source_rgba (cr, 1, 1, 1, 0.10);
      break;
    case ENG_ZONE_CAPTURE:
      cairo_set_source_rgba (cr, 1.0, 0.82, 0.30, 0.45);
      break;
    case ENG_ZONE_PLAY:
      cairo_set_source_rgba (cr, 0.55, 0.75, 1.0, 0.40);
      break;
    case ENG_ZONE_DECK:
      cairo_set_source_rgb (cr, 0.14, 0.22, 0.50);
      break;
    case ENG_ZONE_DISCARD:
      cairo_set_source_rgba (cr, 1, 1, 1, 0.18);
      break;
    case ENG_ZONE_CENTRE:
      cairo_set_source_rgba (cr, 0.90, 0.80, 0.58, 0.85);
      break;
    default:
      cairo_set_source_rgba (cr, 1, 1, 1, 0.08);
      break;
    }
}

/* The path is filled in its kind's colour and outlined; an attack spot
 * is only a dashed outline (cards are laid there, none lie there). */
static void
paint_zone (cairo_t *cr, EngZoneKind kind)
{
  zone_style (cr, kind);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 1, 1, 1, kind == ENG_ZONE_DECK ? 0.85 : 0.6);
  if (kind == ENG_ZONE_ATTACK)
    cairo_set_dash (cr, (double[]){ 3, 2 }, 2, 0);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

/* `text` laid out within `width` px: wrapped at words on `lines` lines at
 * most, smaller (down to `least` points) rather than cut, cut only then;
 * *fits says whether it went in whole. */
static PangoLayout *
fit_text (GtkWidget *widget, const char *text, double width, double points, double least,
          gboolean bold, int lines, gboolean *fits)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  PangoFontDescription *font = pango_font_description_copy (
    pango_context_get_font_description (pango_layout_get_context (layout)));
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD);
  *fits = FALSE;
  for (double pt = points; pt >= least && !*fits; pt -= 0.5)
    {
      pango_font_description_set_size (font, (int) (pt * PANGO_SCALE));
      pango_layout_set_font_description (layout, font);
      /* a word wider than the line is broken inside: that is no fit */
      gboolean whole = TRUE;
      for (PangoLayoutIter *it = pango_layout_get_iter (layout); it != NULL;)
        {
          PangoRectangle line;
          pango_layout_iter_get_line_extents (it, NULL, &line);
          whole &= line.width <= (width + 0.5) * PANGO_SCALE;
          if (!pango_layout_iter_next_line (it))
            {
              pango_layout_iter_free (it);
              it = NULL;
            }
        }
      *fits = whole && pango_layout_get_line_count (layout) <= lines
              && (pango_layout_get_line_count (layout) == 1 || strchr (text, ' ') != NULL);
    }
  pango_font_description_free (font);
  pango_layout_set_height (layout, -lines);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  return layout;
}

static void
show_centred (cairo_t *cr, PangoLayout *layout, double x, double y, double width)
{
  int lw, lh;
  pango_layout_get_pixel_size (layout, &lw, &lh);
  cairo_move_to (cr, x - width / 2, y - lh / 2.0);
  pango_cairo_show_layout (cr, layout);
}

/* Text centred on (x, y) within `width` px (fit_text, down to 6 points). */
static void
draw_text (GtkWidget *widget, cairo_t *cr, const char *text, double x, double y, double width,
           double points, gboolean bold, int lines)
{
  width = MAX (width, 8);
  gboolean fits;
  PangoLayout *layout = fit_text (widget, text, width, points, 6, bold, lines, &fits);
  show_centred (cr, layout, x, y, width);
  g_object_unref (layout);
}

typedef struct {
  double scale, ox, oy;   /* px = o + scale * mm */
} View;

static void
rect_path (cairo_t *cr, const View *v, const double pt[4][2])
{
  cairo_move_to (cr, v->ox + v->scale * pt[0][0], v->oy + v->scale * pt[0][1]);
  for (int c = 1; c < 4; c++)
    cairo_line_to (cr, v->ox + v->scale * pt[c][0], v->oy + v->scale * pt[c][1]);
  cairo_close_path (cr);
}

/* A seat zone's corners around the table, in mm. */
static void
seat_zone_corners (const CalZoneRect *z, const SeatFrame *f, double radius, double pt[4][2])
{
  static const int sr[4] = { -1, 1, 1, -1 }, sf[4] = { -1, -1, 1, 1 };
  for (int c = 0; c < 4; c++)
    seat_point (f, radius, z->at_x + sr[c] * z->width / 2, z->at_y + sf[c] * z->depth / 2,
                &pt[c][0], &pt[c][1]);
}

static void
shared_zone_corners (const CalZoneRect *z, double pt[4][2])
{
  static const int sx[4] = { -1, 1, 1, -1 }, sy[4] = { -1, -1, 1, 1 };
  for (int c = 0; c < 4; c++)
    {
      pt[c][0] = z->at_x + sx[c] * z->width / 2;
      pt[c][1] = z->at_y + sy[c] * z->depth / 2;
    }
}

/* The scale and offset that fit every zone and marker into w x h px,
 * with room around for the names. */
static View
fit_view (const UiSeatLayout *self, double radius, double w, double h)
{
  double lo_x = 0, hi_x = 0, lo_y = 0, hi_y = 0;
  for (guint i = 0; i < self->n; i++)
    {
      SeatFrame f = seat_frame (i, self->n);
      lo_x = MIN (lo_x, f.ux * radius), hi_x = MAX (hi_x, f.ux * radius);
      lo_y = MIN (lo_y, f.uy * radius), hi_y = MAX (hi_y, f.uy * radius);
    }
  double pt[4][2];
  for (size_t k = 0; self->have_zones && k < self->zones.n; k++)
    {
      const CalZoneRect *z = &self->zones.zones[k];
      for (guint i = 0; i < (z->per_seat ? self->n : 1); i++)
        {
          SeatFrame f = seat_frame (i, self->n);
          if (z->per_seat)
            seat_zone_corners (z, &f, radius, pt);
          else
            shared_zone_corners (z, pt);
          for (int c = 0; c < 4; c++)
            {
              lo_x = MIN (lo_x, pt[c][0]), hi_x = MAX (hi_x, pt[c][0]);
              lo_y = MIN (lo_y, pt[c][1]), hi_y = MAX (hi_y, pt[c][1]);
            }
        }
    }
  /* names sit beyond the markers: more room at the sides with side seats */
  double side = self->n > 2 ? SIDE_GAP : 8;
  double sx = (w - 2 * side) / MAX (hi_x - lo_x, 1), sy = (h - 2 * NAME_GAP) / MAX (hi_y - lo_y, 1);
  View v = { MAX (MIN (sx, sy), 0.01), 0, 0 };
  v.ox = w / 2 - v.scale * (lo_x + hi_x) / 2;
  v.oy = h / 2 - v.scale * (lo_y + hi_y) / 2;
  return v;
}

static void
draw_seat (UiSeatLayout *self, cairo_t *cr, const View *v, double radius, guint i)
{
  GtkWidget *widget = GTK_WIDGET (self);
  SeatFrame f = seat_frame (i, self->n);
  double pt[4][2];
  for (size_t k = 0; self->have_zones && k < self->zones.n; k++)
    {
      const CalZoneRect *z = &self->zones.zones[k];
      if (!z->per_seat)
        continue;
      seat_zone_corners (z, &f, radius, pt);
      rect_path (cr, v, pt);
      paint_zone (cr, z->kind);
    }
  double mx = v->ox + v->scale * f.ux * radius, my = v->oy + v->scale * f.uy * radius;
  cairo_arc (cr, mx, my, MARKER_R, 0, 2 * G_PI);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke (cr);
  char number[8];
  g_snprintf (number, sizeof number, "%u", self->seats[i] > 0 ? self->seats[i] : i + 1);
  draw_text (widget, cr, number, mx, my, 2 * MARKER_R, 8, TRUE, 1);
  cairo_set_source_rgb (cr, 1, 1, 1);
  const char *name = self->names[i] != NULL && *self->names[i] ? self->names[i] : NULL;
  /* the name the game will give the player if none is typed */
  g_autofree char *fallback = g_strdup_printf (_ ("Player%u"), i + 1);
  /* the name beyond the marker, away from the table: under or over it
   * for a seat at the bottom or top, beside it (two lines) at a side */
  gboolean side = fabs (f.ux) > 0.5;
  double width = side ? SIDE_GAP - MARKER_R - 6 : 2 * SIDE_GAP;
  double along = MARKER_R + (side ? 3 + width / 2 : 10);
  double nx = mx + f.ux * along, ny = my + f.uy * along;
  if (name == NULL)
    cairo_set_source_rgba (cr, 1, 1, 1, 0.7);
  draw_text (widget, cr, name != NULL ? name : fallback, nx, ny, width, 9, name != NULL,
             side ? 2 : 1);
}

/* The key to the seat zones' colours: one swatch and word per kind the
 * zone file places at a seat, in a row centred under the table. */
static void
draw_legend (UiSeatLayout *self, cairo_t *cr, double w, double y)
{
  gboolean has[ENG_ZONE_KIND_COUNT] = { FALSE };
  for (size_t k = 0; self->have_zones && k < self->zones.n; k++)
    if (self->zones.zones[k].per_seat)
      has[self->zones.zones[k].kind] = ui_zone_kind_word (self->zones.zones[k].kind) != NULL;
  PangoLayout *items[ENG_ZONE_KIND_COUNT] = { NULL };
  double total = 0;
  for (int kind = 0; kind < ENG_ZONE_KIND_COUNT; kind++)
    if (has[kind])
      {
        items[kind] = gtk_widget_create_pango_layout (GTK_WIDGET (self),
                                                      ui_zone_kind_word ((EngZoneKind) kind));
        PangoFontDescription *font = pango_font_description_copy (
          pango_context_get_font_description (pango_layout_get_context (items[kind])));
        pango_font_description_set_size (font, 8 * PANGO_SCALE);
        pango_layout_set_font_description (items[kind], font);
        pango_font_description_free (font);
        int lw, lh;
        pango_layout_get_pixel_size (items[kind], &lw, &lh);
        total += 18 + lw + 14;
      }
  double x = MAX (6, (w - total + 14) / 2);
  for (int kind = 0; kind < ENG_ZONE_KIND_COUNT; kind++)
    {
      if (items[kind] == NULL)
        continue;
      int lw, lh;
      pango_layout_get_pixel_size (items[kind], &lw, &lh);
      cairo_rectangle (cr, x, y - 5, 14, 10);
      paint_zone (cr, (EngZoneKind) kind);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_move_to (cr, x + 18, y - lh / 2.0);
      pango_cairo_show_layout (cr, items[kind]);
      x += 18 + lw + 14;
      g_object_unref (items[kind]);
    }
}

/* The shared zones, each named inside.  When a name does not fit its
 * zone at a readable size (many seats make the middle small), the named
 * zones show letters instead and the names follow as a key under the
 * zones (a centre position keeps its number). */
static void
draw_shared (UiSeatLayout *self, cairo_t *cr, const View *v)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean all_fit = TRUE;
  for (size_t k = 0; self->have_zones && k < self->zones.n; k++)
    {
      const CalZoneRect *z = &self->zones.zones[k];
      gboolean fits = TRUE;
      if (!z->per_seat)
        g_object_unref (fit_text (widget, self->labels[k], MAX (v->scale * (z->width + 8), 8),
                                  7.5, 6.5, FALSE, 3, &fits));
      all_fit &= fits;
    }
  GString *key = g_string_new (NULL);
  double lo_x = G_MAXDOUBLE, hi_x = -G_MAXDOUBLE, hi_y = -G_MAXDOUBLE;
  char letter = 'A';
  double pt[4][2];
  for (size_t k = 0; self->have_zones && k < self->zones.n; k++)
    {
      const CalZoneRect *z = &self->zones.zones[k];
      if (z->per_seat)
        continue;
      shared_zone_corners (z, pt);
      rect_path (cr, v, pt);
      paint_zone (cr, z->kind);
      lo_x = MIN (lo_x, z->at_x - z->width / 2), hi_x = MAX (hi_x, z->at_x + z->width / 2);
      hi_y = MAX (hi_y, z->at_y + z->depth / 2);
      if (z->kind == ENG_ZONE_CENTRE)
        cairo_set_source_rgb (cr, 0.15, 0.12, 0.05);
      else
        cairo_set_source_rgb (cr, 1, 1, 1);
      double width = MAX (v->scale * (z->width + 8), 8);
      double x = v->ox + v->scale * z->at_x, y = v->oy + v->scale * z->at_y;
      gboolean fits;
      PangoLayout *layout = fit_text (widget, self->labels[k], width, 7.5, 6.5, FALSE, 3, &fits);
      if (fits && (all_fit || z->kind == ENG_ZONE_CENTRE))
        show_centred (cr, layout, x, y, width);
      else
        {
          char mark[2] = { letter++, '\0' };
          draw_text (widget, cr, mark, x, y, width, 8, TRUE, 1);
          /* the key breaks between entries, never inside one */
          g_autofree char *label = g_strdup (self->labels[k]);
          g_auto (GStrv) words = g_strsplit (label, " ", -1);
          g_autofree char *joined = g_strjoinv ("\u00a0", words);
          g_string_append_printf (key, "%s%s\u00a0%s", key->len ? " · " : "", mark, joined);
        }
      g_object_unref (layout);
    }
  if (key->len > 0)
    {
      double width = MAX (v->scale * (hi_x - lo_x) * 1.6, 120);
      PangoLayout *layout = fit_text (widget, key->str, width, 8, 7, FALSE, 3, &(gboolean){ 0 });
      int lw, lh;
      pango_layout_get_pixel_size (layout, &lw, &lh);
      cairo_set_source_rgb (cr, 1, 1, 1);
      show_centred (cr, layout, v->ox + v->scale * (lo_x + hi_x) / 2,
                    v->oy + v->scale * hi_y + 4 + lh / 2.0, width);
      g_object_unref (layout);
    }
  g_string_free (key, TRUE);
}

static void
ui_seat_layout_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  UiSeatLayout *self = UI_SEAT_LAYOUT (widget);
  double w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, (float) w, (float) h);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &bounds);
  double r = 10;
  cairo_new_sub_path (cr);
  cairo_arc (cr, w - r, r, r, -G_PI / 2, 0);
  cairo_arc (cr, w - r, h - r, r, 0, G_PI / 2);
  cairo_arc (cr, r, h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, r, r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
  cairo_set_source_rgb (cr, 0.17, 0.32, 0.22);
  cairo_fill (cr);

  double radius = seat_radius (self);
  double legend = self->have_zones ? LEGEND_H : 0;
  View v = fit_view (self, radius, w, h - legend);
  draw_shared (self, cr, &v);
  for (guint i = 0; i < self->n; i++)
    draw_seat (self, cr, &v, radius, i);
  draw_legend (self, cr, w, h - legend / 2 - 2);
  cairo_destroy (cr);
}

static void
ui_seat_layout_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                        int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 260 : 220;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 400 : 300;
}

/* ---- state -------------------------------------------------------------------- */

/* "Seat 1: Ana, seat 2: Bea" for a screen reader. */
static void
update_description (UiSeatLayout *self)
{
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < self->n; i++)
    {
      g_autofree char *seat = g_strdup_printf (_ ("Seat %u"), self->seats[i] > 0 ? self->seats[i] : i + 1);
      g_autofree char *fallback = g_strdup_printf (_ ("Player%u"), i + 1);
      g_string_append_printf (text, "%s%s: %s", i ? ", " : "", seat,
                              self->names[i] != NULL && *self->names[i] ? self->names[i] : fallback);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text->str, -1);
  g_string_free (text, TRUE);
}

gboolean
ui_seat_layout_set_game (UiSeatLayout *self, const char *game, GError **error)
{
  g_return_val_if_fail (UI_IS_SEAT_LAYOUT (self) && game != NULL, FALSE);
  self->have_zones = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_autofree char *zones_name = g_strdup_printf ("zones/%s.zones", game);
  char *zones_path = eng_data_path (zones_name);
  EngParseError err = { .reason = "" };
  EngStatus st = zones_path != NULL ? cal_zones_load_file (zones_path, &self->zones, &err)
                                    : ENG_ERR_IO;
  if (st != ENG_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s:%u: %s", zones_path ? zones_path : zones_name,
                   err.line, err.reason[0] ? err.reason : eng_status_to_string (st));
      free (zones_path);
      return FALSE;
    }
  free (zones_path);
  /* the card set only names the decks; the picture does without it */
  g_autofree char *set_name = g_strdup_printf ("cards/%s.set", game);
  char *set_path = eng_data_path (set_name);
  EngCardSet *set = NULL;
  if (set_path == NULL || eng_card_set_load_file (set_path, &set, NULL) != ENG_OK)
    set = NULL;
  free (set_path);
  for (size_t k = 0; k < self->zones.n; k++)
    shared_label (self, set, &self->zones.zones[k], self->labels[k], sizeof self->labels[k]);
  if (set != NULL)
    eng_card_set_free (set);
  self->have_zones = TRUE;
  return TRUE;
}

void
ui_seat_layout_set_players (UiSeatLayout *self, guint n, const char *const *names,
                            const guint *seats)
{
  g_return_if_fail (UI_IS_SEAT_LAYOUT (self));
  self->n = MIN (n, (guint) MAX_SEATS);
  for (guint i = 0; i < MAX_SEATS; i++)
    {
      g_free (self->names[i]);
      self->names[i] = i < self->n ? g_strdup (names != NULL && names[i] != NULL ? names[i] : "")
                                   : NULL;
      self->seats[i] = i < self->n && seats != NULL ? seats[i] : 0;
    }
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
ui_seat_layout_get_n_seats (UiSeatLayout *self)
{
  g_return_val_if_fail (UI_IS_SEAT_LAYOUT (self), 0);
  return self->n;
}

const char *
ui_seat_layout_get_name (UiSeatLayout *self, guint i)
{
  g_return_val_if_fail (UI_IS_SEAT_LAYOUT (self), NULL);
  return i < self->n ? self->names[i] : NULL;
}

guint
ui_seat_layout_get_n_shared (UiSeatLayout *self)
{
  g_return_val_if_fail (UI_IS_SEAT_LAYOUT (self), 0);
  guint n = 0;
  for (size_t k = 0; self->have_zones && k < self->zones.n; k++)
    n += !self->zones.zones[k].per_seat;
  return n;
}

static void
ui_seat_layout_finalize (GObject *object)
{
  UiSeatLayout *self = UI_SEAT_LAYOUT (object);
  for (guint i = 0; i < MAX_SEATS; i++)
    g_free (self->names[i]);
  G_OBJECT_CLASS (ui_seat_layout_parent_class)->finalize (object);
}

static void
ui_seat_layout_class_init (UiSeatLayoutClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ui_seat_layout_finalize;
  GTK_WIDGET_CLASS (klass)->snapshot = ui_seat_layout_snapshot;
  GTK_WIDGET_CLASS (klass)->measure = ui_seat_layout_measure;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "seatlayout");
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ui_seat_layout_init (UiSeatLayout *self)
{
}

GtkWidget *
ui_seat_layout_new (void)
{
  return g_object_new (UI_TYPE_SEAT_LAYOUT, NULL);
}

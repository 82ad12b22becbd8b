#include "ui-camera-view.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ui-text-fit.h"
#include "ui-words.h"

struct _UiCameraView
{
  GtkWidget parent_instance;

  GdkTexture *texture;
  VisDetection *detections;
  guint n_detections;
  guint capacity;
  const EngCardSet *set;
  const EngGame *game;         /* names the cards; NULL: the set's names */
  CalZoneOutline *zones;
  guint n_zones;
  guint zones_capacity;
  guint highlight;
  guint doubled_anchors;       /* bit n-1: anchor n seen twice */
  guint doubled_seats[8];
  guint n_doubled_seats;
  char *placeholder;
  int hovered_zone;            /* the zone under the pointer, labelled; -1 none */
  double pointer_x, pointer_y; /* widget px, while the pointer is over the picture */
  gboolean pointer_in;
  guint counts[4];             /* faces, backs, markers, commands: described when they change */
};

G_DEFINE_FINAL_TYPE (UiCameraView, ui_camera_view, GTK_TYPE_WIDGET)

enum { SIGNAL_STICKER_ACTIVATED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* Draws `text` centred on (cx, cy) on a dark plate, broken at spaces into
 * lines no wider than `max_width` and made smaller rather than cut
 * (ui-text-fit.h): labels of neighbouring cards then stay over their own
 * card.  The plate is kept inside `frame` (a sticker at the picture's
 * edge keeps its whole label). */
static void
draw_label (cairo_t *cr, const char *text, double cx, double cy, double max_width, double size,
            const graphene_rect_t *frame)
{
  PangoLayout *layout = ui_text_fit_layout (cr, text, MAX (max_width, 24), 3, size, 7, TRUE);
  double w, h;
  ui_text_fit_size (layout, &w, &h);
  double left = frame->origin.x + w / 2 + 3, right = frame->origin.x + frame->size.width - w / 2 - 3;
  double top = frame->origin.y + h / 2 + 2, bottom = frame->origin.y + frame->size.height - h / 2 - 2;
  cx = left <= right ? CLAMP (cx, left, right) : cx;
  cy = top <= bottom ? CLAMP (cy, top, bottom) : cy;
  cairo_set_source_rgba (cr, 0, 0, 0, 0.65);
  cairo_rectangle (cr, cx - w / 2 - 3, cy - h / 2 - 2, w + 6, h + 4);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  ui_text_fit_show_centred (cr, layout, cx, cy);
  g_object_unref (layout);
}

/* The frame's place in the widget: scale and offset of the letterbox. */
static gboolean
frame_box (UiCameraView *self, double *scale, double *ox, double *oy)
{
  if (self->texture == NULL)
    return FALSE;
  int width = gtk_widget_get_width (GTK_WIDGET (self)), height = gtk_widget_get_height (GTK_WIDGET (self));
  double tw = gdk_texture_get_width (self->texture), th = gdk_texture_get_height (self->texture);
  *scale = MIN (width / tw, height / th);
  *ox = (width - tw * *scale) / 2;
  *oy = (height - th * *scale) / 2;
  return TRUE;
}

/* The zone under the pointer (-1 none): the only one labelled, so zone
 * labels never lie over each other. */
static int
zone_under_pointer (UiCameraView *self)
{
  double scale, ox, oy;
  if (!self->pointer_in || !frame_box (self, &scale, &ox, &oy))
    return -1;
  double x = (self->pointer_x - ox) / scale, y = (self->pointer_y - oy) / scale;
  for (guint i = 0; i < self->n_zones; i++)
    {
      VisPoint pt[4];
      for (int k = 0; k < 4; k++)
        pt[k] = (VisPoint) { (float) self->zones[i].pt[k][0], (float) self->zones[i].pt[k][1] };
      if (vis_quad_contains (pt, x, y))
        return (int) i;
    }
  return -1;
}

static void
update_hover (UiCameraView *self)
{
  int zone = zone_under_pointer (self);
  if (zone == self->hovered_zone)
    return;
  self->hovered_zone = zone;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, UiCameraView *self)
{
  self->pointer_in = TRUE;
  self->pointer_x = x;
  self->pointer_y = y;
  update_hover (self);
}

static void
on_leave (GtkEventControllerMotion *motion, UiCameraView *self)
{
  self->pointer_in = FALSE;
  update_hover (self);
}

static gboolean
is_doubled (const UiCameraView *self, const EngTag *tag)
{
  if (tag->kind == ENG_TAG_ANCHOR)
    return tag->serial >= 1 && tag->serial <= 4 && (self->doubled_anchors & (1u << (tag->serial - 1))) != 0;
  if (tag->kind == ENG_TAG_SEAT)
    for (guint s = 0; s < self->n_doubled_seats; s++)
      if (self->doubled_seats[s] == tag->serial)
        return TRUE;
  return FALSE;
}

static void
kind_colour (EngTagKind kind, gboolean highlighted, double rgb[3])
{
  static const double face[3] = { 0.18, 0.76, 0.49 }, back[3] = { 0.21, 0.52, 0.89 },
                      marker[3] = { 0.96, 0.60, 0.07 }, command[3] = { 0.57, 0.25, 0.67 },
                      hot[3] = { 0.93, 0.11, 0.14 };
  const double *c = highlighted ? hot : kind == ENG_TAG_FACE ? face : kind == ENG_TAG_BACK ? back
                                      : kind == ENG_TAG_COMMAND ? command : marker;
  memcpy (rgb, c, sizeof face);
}

static void
ui_camera_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  UiCameraView *self = UI_CAMERA_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, width, height);
  GdkRGBA dark = { 0.12, 0.12, 0.13, 1 };
  gtk_snapshot_append_color (snapshot, &dark, &all);

  if (self->texture == NULL)
    {
      if (self->placeholder != NULL)
        {
          cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &all);
          cairo_set_source_rgb (cr, 0.85, 0.85, 0.85);
          PangoLayout *layout = ui_text_fit_layout (cr, self->placeholder, MAX (width - 40, 40), 4, 16, 10, FALSE);
          ui_text_fit_show_centred (cr, layout, width / 2.0, height / 2.0);
          g_object_unref (layout);
          cairo_destroy (cr);
        }
      return;
    }

  /* Letterbox the frame: keep its aspect, centre it. */
  double tw = gdk_texture_get_width (self->texture), th = gdk_texture_get_height (self->texture);
  double scale = MIN (width / tw, height / th);
  double ox = (width - tw * scale) / 2, oy = (height - th * scale) / 2;
  graphene_rect_t frame = GRAPHENE_RECT_INIT (ox, oy, tw * scale, th * scale);
  gtk_snapshot_append_texture (snapshot, self->texture, &frame);

  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &frame);
  /* Zones first, faint, so the stickers stay readable over them; only the
   * one under the pointer is named (all of them would overlap). */
  for (guint i = 0; i < self->n_zones; i++)
    {
      const CalZoneOutline *z = &self->zones[i];
      for (int k = 0; k < 4; k++)
        {
          double x = ox + z->pt[k][0] * scale, y = oy + z->pt[k][1] * scale;
          if (k == 0)
            cairo_move_to (cr, x, y);
          else
            cairo_line_to (cr, x, y);
        }
      cairo_close_path (cr);
      cairo_set_source_rgba (cr, 1, 1, 0.6, 0.07);
      cairo_fill_preserve (cr);
      gboolean hovered = (int) i == self->hovered_zone;
      cairo_set_source_rgba (cr, 1, 1, 0.7, hovered ? 0.9 : 0.45);
      cairo_set_line_width (cr, hovered ? 2 : 1);
      cairo_stroke (cr);
    }
  if (self->hovered_zone >= 0 && (guint) self->hovered_zone < self->n_zones)
    {
      const CalZoneOutline *z = &self->zones[self->hovered_zone];
      char label[96];
      ui_words_zone_label (&z->zone, z->name, label, sizeof label);
      /* above the pointer, kept inside the picture */
      double x = CLAMP (self->pointer_x, ox + 80, ox + tw * scale - 80);
      double y = CLAMP (self->pointer_y - 24, oy + 16, oy + th * scale - 16);
      draw_label (cr, label, x, y, 160, 12, &frame);
    }
  for (guint i = 0; i < self->n_detections; i++)
    {
      const VisDetection *d = &self->detections[i];
      gboolean doubled = is_doubled (self, &d->tag);
      gboolean hot = doubled
                     || (self->highlight != 0 && d->tag.kind == ENG_TAG_FACE && d->tag.serial == self->highlight);
      double rgb[3];
      kind_colour (d->tag.kind, hot, rgb);
      cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.95);
      cairo_set_line_width (cr, hot ? 4 : 2);
      for (int k = 0; k < 4; k++)
        {
          double x = ox + d->corners[k].x * scale, y = oy + d->corners[k].y * scale;
          if (k == 0)
            cairo_move_to (cr, x, y);
          else
            cairo_line_to (cr, x, y);
        }
      cairo_close_path (cr);
      cairo_stroke (cr);

      char name[96];
      ui_words_sticker_name (self->set, self->game, &d->tag, d->payload, name, sizeof name);
      if (doubled)
        {
          /* Translators: a table anchor or seat marker's name, then why it is drawn in red. */
          g_autofree char *marked = g_strdup_printf (_ ("%s: seen twice, not used"), name);
          g_strlcpy (name, marked, sizeof name);
        }
      double side = hypot (d->corners[1].x - d->corners[0].x, d->corners[1].y - d->corners[0].y) * scale;
      /* the zones' slots are 85 mm apart, 2.5 code sides of a 40 mm sticker:
       * a label this wide stays over its own card. */
      /* an anchor or a seat marker stands alone: its label need not
       * keep to a card's width */
      gboolean card = d->tag.kind == ENG_TAG_FACE || d->tag.kind == ENG_TAG_BACK;
      draw_label (cr, name, ox + d->centre.x * scale, oy + d->centre.y * scale,
                  card ? 2.4 * side : MAX (2.4 * side, 90), 11, &frame);
    }
  cairo_destroy (cr);
}

static void
ui_camera_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                        int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 320 : 180;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 960 : 540;
}

/* Whether image point (x, y) lies inside the sticker's outline. */
static gboolean
inside (const VisDetection *d, double x, double y)
{
  return vis_quad_contains (d->corners, x, y);
}

/* A double click on a card's face sticker names it (::sticker-activated),
 * e.g. to correct a misread. */
static void
on_pressed (GtkGestureClick *gesture, int n_press, double wx, double wy, UiCameraView *self)
{
  double scale, ox, oy;
  if (n_press != 2 || !frame_box (self, &scale, &ox, &oy))
    return;
  double x = (wx - ox) / scale, y = (wy - oy) / scale;
  for (guint i = 0; i < self->n_detections; i++)
    if (self->detections[i].tag.kind == ENG_TAG_FACE && inside (&self->detections[i], x, y))
      {
        g_signal_emit (self, signals[SIGNAL_STICKER_ACTIVATED], 0, self->detections[i].payload);
        return;
      }
}

static void
ui_camera_view_finalize (GObject *object)
{
  UiCameraView *self = UI_CAMERA_VIEW (object);
  g_clear_object (&self->texture);
  g_free (self->detections);
  g_free (self->zones);
  g_free (self->placeholder);
  G_OBJECT_CLASS (ui_camera_view_parent_class)->finalize (object);
}

static void
ui_camera_view_class_init (UiCameraViewClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ui_camera_view_finalize;
  GTK_WIDGET_CLASS (klass)->snapshot = ui_camera_view_snapshot;
  GTK_WIDGET_CLASS (klass)->measure = ui_camera_view_measure;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "cameraview");
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_IMG);
  signals[SIGNAL_STICKER_ACTIVATED] = g_signal_new ("sticker-activated", G_TYPE_FROM_CLASS (klass),
                                                    G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                                    G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
ui_camera_view_init (UiCameraView *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  self->hovered_zone = -1;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _ ("Camera picture"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _ ("No picture yet"), -1);
}

GtkWidget *
ui_camera_view_new (void)
{
  return g_object_new (UI_TYPE_CAMERA_VIEW, NULL);
}

void
ui_camera_view_set_card_set (UiCameraView *self, const EngCardSet *set)
{
  self->set = set;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ui_camera_view_set_game (UiCameraView *self, const EngGame *game)
{
  self->game = game;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* What the picture shows, for a screen reader: said again only when the
 * counts change, not at every frame. */
static void
describe (UiCameraView *self)
{
  guint counts[4] = { 0 };
  for (guint i = 0; i < self->n_detections; i++)
    switch (self->detections[i].tag.kind)
      {
      case ENG_TAG_FACE: counts[0]++; break;
      case ENG_TAG_BACK: counts[1]++; break;
      case ENG_TAG_COMMAND: counts[3]++; break;
      default: counts[2]++; break;
      }
  if (memcmp (counts, self->counts, sizeof counts) == 0 && self->texture != NULL)
    return;
  memcpy (self->counts, counts, sizeof counts);
  g_autofree char *text = ui_words_describe_stickers (counts[0], counts[1], counts[2], counts[3]);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

void
ui_camera_view_set_frame (UiCameraView *self, GdkTexture *texture,
                          const VisDetection *detections, guint n_detections)
{
  g_set_object (&self->texture, texture);
  if (n_detections > self->capacity)
    {
      self->detections = g_renew (VisDetection, self->detections, n_detections);
      self->capacity = n_detections;
    }
  if (n_detections > 0)
    memcpy (self->detections, detections, n_detections * sizeof *detections);
  self->n_detections = n_detections;
  describe (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ui_camera_view_set_zones (UiCameraView *self, const CalZoneOutline *zones, guint n_zones)
{
  if (n_zones > self->zones_capacity)
    {
      self->zones = g_renew (CalZoneOutline, self->zones, n_zones);
      self->zones_capacity = n_zones;
    }
  if (n_zones > 0)
    memcpy (self->zones, zones, n_zones * sizeof *zones);
  self->n_zones = n_zones;
  update_hover (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ui_camera_view_set_doubled (UiCameraView *self, guint anchors_mask, const guint *seats, guint n_seats)
{
  n_seats = MIN (n_seats, G_N_ELEMENTS (self->doubled_seats));
  if (self->doubled_anchors == anchors_mask && self->n_doubled_seats == n_seats
      && (n_seats == 0 || memcmp (self->doubled_seats, seats, n_seats * sizeof *seats) == 0))
    return;
  self->doubled_anchors = anchors_mask;
  self->n_doubled_seats = n_seats;
  if (n_seats > 0)
    memcpy (self->doubled_seats, seats, n_seats * sizeof *seats);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ui_camera_view_set_highlight (UiCameraView *self, guint serial)
{
  self->highlight = serial;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ui_camera_view_set_placeholder (UiCameraView *self, const char *text)
{
  g_free (self->placeholder);
  self->placeholder = g_strdup (text);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

#include "ui-calibration-facts.h"

#include <glib/gi18n-lib.h>
#include <math.h>

static void
add (char **advice, guint *n, guint max, char *text)
{
  if (*n < max)
    advice[(*n)++] = text;
  else
    g_free (text);
}

/* Stickers too small in the picture: how small, and the three ways out
 * with the figure each needs (a module grows with the resolution, with the
 * inverse of the camera's height and with the sticker's size). */
static void
sticker_size_advice (const UiCalibrationFacts *f, char **advice, guint *n, guint max)
{
  const double have = f->module_px_min, want = UI_CALIBRATION_GOOD_MODULE_PX;
  if (f->module_px_mean > 0 && f->module_px_mean < UI_CALIBRATION_MIN_MODULE_PX)
    add (advice, n, max,
         g_strdup_printf (_ ("Stickers are small in the image (%.1f px a module, %.1f wanted): some are not read at all."),
                          f->module_px_mean, want));
  else
    add (advice, n, max,
         g_strdup_printf (_ ("Some stickers are at the edge of what can be read (%.1f px a module, %.1f wanted)."),
                          have, want));
  if (f->width > 0 && f->width < UI_CALIBRATION_UHD_WIDTH)
    add (advice, n, max,
         g_strdup_printf (_ ("If the camera can give a larger picture, choose its highest resolution: at 3840 × 2160 they would show %.1f px a module."),
                          have * UI_CALIBRATION_UHD_WIDTH / f->width));
  add (advice, n, max,
       g_strdup_printf (_ ("Or lower the camera to about %d%% of its height above the table."),
                        (int) lround (100.0 * have / want)));
  /* the printed size: from the table's scale when calibrated, else the
   * default 40 mm (25 modules across with its quiet zone) */
  double size = 40.0;
  if (f->px_per_mm > 0)
    size = have / f->px_per_mm * 25.0;
  int need = (int) (ceil (size * want / have / 5.0 - 1e-6) * 5.0);
  add (advice, n, max,
       g_strdup_printf (_ ("Or print bigger stickers: tablero-cli stickers --size-mm %d."), need));
}

/* The exposure metered on the stickers, when it cannot do its job. */
static void
exposure_trouble (const UiCalibrationFacts *f, char **advice, guint *n, guint max)
{
  double ms = f->exposure_time / 10.0;
  if (f->exposure_meter == UI_EXPOSURE_METER_NO_CONTROL)
    add (advice, n, max,
         g_strdup (_ ("Meter on the stickers is on, but this camera does not let Tablero set its exposure time.")));
  else if (f->exposure_meter == UI_EXPOSURE_METER_CLIPS_AT_LIMIT)
    add (advice, n, max,
         g_strdup_printf (_ ("The stickers still wash out at the shortest exposure that keeps them readable (%.1f ms): move the lamp aside or use matte stickers."),
                          ms));
  else if (f->exposure_meter == UI_EXPOSURE_METER_DIM_AT_LIMIT)
    add (advice, n, max,
         g_strdup_printf (_ ("The stickers are dim even at the camera's longest exposure (%.1f ms): more light on the table helps."),
                          ms));
}

/* The exposure metered on the stickers, at work: said after the rest. */
static void
exposure_progress (const UiCalibrationFacts *f, char **advice, guint *n, guint max)
{
  double ms = f->exposure_time / 10.0;
  if (f->exposure_meter == UI_EXPOSURE_METER_WAITING)
    add (advice, n, max, g_strdup (_ ("The exposure is set by the stickers once one is in view.")));
  else if (f->exposure_meter == UI_EXPOSURE_METER_ADJUSTING)
    add (advice, n, max, g_strdup_printf (_ ("The exposure is being set by the stickers: %.1f ms now."), ms));
  else if (f->exposure_meter == UI_EXPOSURE_METER_HOLDING)
    add (advice, n, max,
         g_strdup_printf (_ ("The exposure is set by the stickers (%.1f ms): their white does not wash out."), ms));
}

guint
ui_calibration_facts_advice (const UiCalibrationFacts *f, char **advice, guint max)
{
  guint n = 0;
  guint seen = 0;
  if (f->width == 0 || f->height == 0)
    {
      add (advice, &n, max,
           g_strdup (_ ("No picture from the camera yet: pick a camera in the Game page's Setup group, or check that it is plugged in.")));
      return n;
    }
  /* A doubled sticker first: it holds calibration or a seat back, and
   * only a person can take the extra copy away. */
  for (guint a = 0; a < 4; a++)
    if (f->doubled_anchors & (1u << a))
      add (advice, &n, max,
           g_strdup_printf (_ ("Anchor %u is seen at two places (a reprint or a forged sticker): neither is used and the table keeps its last good calibration. Take the extra copy off the table."),
                            a + 1));
  for (guint s = 0; s < f->n_doubled_seats && s < UI_CALIBRATION_MAX_SEATS; s++)
    add (advice, &n, max,
         g_strdup_printf (_ ("Seat marker %u is seen at two places (a reprint or a forged sticker): neither is used and the seat stays where it was. Take the extra copy off the table."),
                          f->doubled_seat[s]));
  for (int a = 0; a < 4; a++)
    seen += f->anchor_seen[a] ? 1 : 0;
  /* Missing anchors first: without all four the table cannot be placed. */
  if (seen == 0)
    add (advice, &n, max,
         g_strdup (_ ("No anchor is in view: point the camera at the play area and stick the four anchor stickers at its corners, clockwise 1-2-3-4.")));
  else
    for (int a = 0; a < 4; a++)
      if (!f->anchor_seen[a])
        add (advice, &n, max,
             g_strdup_printf (f->calibrated
                                ? _ ("Anchor %d is not in view (the saved placement is used): move the camera or the anchor so it shows.")
                                : _ ("Anchor %d is not in view: move the camera or the anchor."),
                              a + 1));
  if (f->n_cards > 0 && f->module_px_min > 0 && f->module_px_min < UI_CALIBRATION_GOOD_MODULE_PX)
    sticker_size_advice (f, advice, &n, max);
  if (f->n_glare > 0 && f->exposure_meter == UI_EXPOSURE_METER_OFF)
    add (advice, &n, max,
         g_strdup_printf (ngettext ("%u sticker catches the lamp: it is read through the glare, but matte stickers or a lamp moved aside are safer. In Camera controls, turn off Automatic exposure and turn on Meter on the stickers: the exposure is then set by the stickers, not the room, and shiny ones do not wash out.",
                                    "%u stickers catch the lamp: they are read through the glare, but matte stickers or a lamp moved aside are safer. In Camera controls, turn off Automatic exposure and turn on Meter on the stickers: the exposure is then set by the stickers, not the room, and shiny ones do not wash out.",
                                    f->n_glare),
                          f->n_glare));
  else if (f->n_glare > 0)
    add (advice, &n, max,
         g_strdup_printf (ngettext ("%u sticker catches the lamp: it is read through the glare, but matte stickers or a lamp moved aside are safer.",
                                    "%u stickers catch the lamp: they are read through the glare, but matte stickers or a lamp moved aside are safer.",
                                    f->n_glare),
                          f->n_glare));
  exposure_trouble (f, advice, &n, max);
  if (f->calibrated && f->n_seats == 0)
    add (advice, &n, max,
         g_strdup (_ ("No seat marker is in view: put one in front of each player, at the table edge.")));
  if (n == 0)
    add (advice, &n, max,
         g_strdup (f->calibrated ? _ ("The table is calibrated and every anchor is in view: ready to play.")
                                 : _ ("All four anchors are in view: calibrating...")));
  exposure_progress (f, advice, &n, max);
  return n;
}

gboolean
ui_calibration_facts_is_doubled (const UiCalibrationFacts *f, int kind, guint number)
{
  if (kind == 'A')
    return number >= 1 && number <= 4 && (f->doubled_anchors & (1u << (number - 1))) != 0;
  if (kind == 'S')
    for (guint s = 0; s < f->n_doubled_seats && s < UI_CALIBRATION_MAX_SEATS; s++)
      if (f->doubled_seat[s] == number)
        return TRUE;
  return FALSE;
}

char *
ui_calibration_facts_doubles (const UiCalibrationFacts *f)
{
  guint n_anchors = (guint) __builtin_popcount (f->doubled_anchors);
  guint n_seats = MIN (f->n_doubled_seats, UI_CALIBRATION_MAX_SEATS);
  if (n_anchors + n_seats == 0)
    return NULL;
  /* the stickers named in a list ("anchor 2, seat marker 3"): a list of
   * names reads the same in every language the app speaks */
  GString *names = g_string_new (NULL);
  for (guint a = 0; a < 4; a++)
    if (f->doubled_anchors & (1u << a))
      {
        if (names->len > 0)
          g_string_append (names, ", ");
        g_string_append_printf (names, _ ("anchor %u"), a + 1);
      }
  for (guint s = 0; s < n_seats; s++)
    {
      if (names->len > 0)
        g_string_append (names, ", ");
      g_string_append_printf (names, _ ("seat marker %u"), f->doubled_seat[s]);
    }
  char *text = g_strdup_printf (ngettext ("Seen at two places, not used: %s. Take the extra copy off the table.",
                                          "Seen at two places, not used: %s. Take the extra copies off the table.",
                                          n_anchors + n_seats),
                                names->str);
  g_string_free (names, TRUE);
  return text;
}

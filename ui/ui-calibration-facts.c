#include "ui-calibration-facts.h"

#include <glib/gi18n-lib.h>

static void
add (char **advice, guint *n, guint max, char *text)
{
  if (*n < max)
    advice[(*n)++] = text;
  else
    g_free (text);
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
  if (f->n_cards > 0 && f->module_px_mean > 0 && f->module_px_mean < UI_CALIBRATION_MIN_MODULE_PX)
    add (advice, &n, max,
         g_strdup_printf (_ ("Stickers are small in the image (%.1f px a module, %.1f needed): lower the camera or use 50 mm stickers."),
                          f->module_px_mean, UI_CALIBRATION_MIN_MODULE_PX));
  else if (f->n_cards > 0 && f->module_px_min > 0 && f->module_px_min < UI_CALIBRATION_MIN_MODULE_PX)
    add (advice, &n, max,
         g_strdup_printf (_ ("Some stickers are at the edge of what can be read (%.1f px a module): keep the cards nearer the middle or lower the camera."),
                          f->module_px_min));
  if (f->calibrated && f->n_seats == 0)
    add (advice, &n, max,
         g_strdup (_ ("No seat marker is in view: put one in front of each player, at the table edge.")));
  if (n == 0)
    add (advice, &n, max,
         g_strdup (f->calibrated ? _ ("The table is calibrated and every anchor is in view: ready to play.")
                                 : _ ("All four anchors are in view: calibrating...")));
  return n;
}

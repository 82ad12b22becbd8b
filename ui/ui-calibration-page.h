/* ui-calibration-page.h: setting up the camera, with live feedback.
 *
 * Shown beside the camera view (which keeps drawing the zones): which of the
 * four anchors are seen and where, the seat markers seen and the player
 * each one seats, the scale and the sticker size in the image against what
 * the detector needs, the lens and recalibration state, and plain-words
 * advice.  Its buttons activate win.save-calibration and win.recalibrate.
 */
#pragma once

#include <adwaita.h>

#include "eng-game.h"
#include "ui-calibration-facts.h"

G_BEGIN_DECLS

#define UI_TYPE_CALIBRATION_PAGE (ui_calibration_page_get_type ())
G_DECLARE_FINAL_TYPE (UiCalibrationPage, ui_calibration_page, UI, CALIBRATION_PAGE, GtkBox)

GtkWidget *ui_calibration_page_new (void);

/* Shows `facts` (copied); `setup` (may be NULL) names the player behind
 * each seat marker.  Rows are rewritten only when their words change. */
void ui_calibration_page_update (UiCalibrationPage *self, const UiCalibrationFacts *facts,
                                 const EngSetup *setup);

G_END_DECLS

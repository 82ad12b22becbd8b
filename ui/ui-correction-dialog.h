/* ui-correction-dialog.h: correcting a misread sticker by hand.
 *
 * The table picks a card the camera reads now (the referee's newest
 * snapshot: face name and zone) and what it really is (a face of the same
 * deck); Apply hands it to the referee (ui_referee_correct_card), which
 * takes back the moves made with the wrong card and reads the table again.
 * The corrections in force are listed, each with a button to remove it.
 */
#pragma once

#include <adwaita.h>

#include "ui-referee.h"

G_BEGIN_DECLS

#define UI_TYPE_CORRECTION_DIALOG (ui_correction_dialog_get_type ())
G_DECLARE_FINAL_TYPE (UiCorrectionDialog, ui_correction_dialog, UI, CORRECTION_DIALOG, AdwWindow)

/* A dialog over `parent` for `referee` (a reference is kept). */
UiCorrectionDialog *ui_correction_dialog_new (GtkWindow *parent, UiReferee *referee);

/* Picks the card read as `payload` when the camera reads it now (else the
 * choice is left as it is). */
void ui_correction_dialog_select (UiCorrectionDialog *self, const char *payload);

/* TRUE when Apply would act: the user picked both the card the camera
 * reads and what it really is (nothing is picked for them). */
gboolean ui_correction_dialog_can_apply (UiCorrectionDialog *self);

G_END_DECLS

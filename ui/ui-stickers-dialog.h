/* ui-stickers-dialog.h: print the sticker sheets of a game from the app.
 * Shows page 1 as it will print (vis_sheet_draw_page), says how many pages
 * and stickers there are, prints them through the desktop's print dialog at
 * actual size, or saves the whole PDF (the same sheets as `tablero-cli
 * stickers`) where the table chooses. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define UI_TYPE_STICKERS_DIALOG (ui_stickers_dialog_get_type ())
G_DECLARE_FINAL_TYPE (UiStickersDialog, ui_stickers_dialog, UI, STICKERS_DIALOG, AdwWindow)

/* A dialog for the bundled card set of `game` over `parent` (may be NULL).
 * A set that cannot be loaded or laid out is said in the dialog, and saving
 * is then disabled. */
UiStickersDialog *ui_stickers_dialog_new (GtkWindow *parent, const char *game);

/* Writes the sheets to `path` (through a temporary file renamed over it, so
 * a failure leaves no half-written PDF).  FALSE with `error` set
 * (G_IO_ERROR) when there is nothing to write or it cannot be written. */
gboolean ui_stickers_dialog_save (UiStickersDialog *self, const char *path, GError **error);

/* Runs the print operation the Print button runs, exported to the PDF
 * `path` instead of a printer (GTK_PRINT_OPERATION_ACTION_EXPORT): what a
 * printer would be sent.  FALSE with `error` set when it fails. */
gboolean ui_stickers_dialog_print_to_pdf (UiStickersDialog *self, const char *path, GError **error);

G_END_DECLS

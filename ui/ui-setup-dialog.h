/* ui-setup-dialog.h: a new game: which game (one toggle per game of the
 * registry; picking another refills the rest for it), number of players, their names in seat
 * order, the seat marker each one sits at, the first player (K21), and the
 * rule switches and variants of RULINGS.md, from the game's options file. */
#pragma once

#include <adwaita.h>

#include "eng-game.h"
#include "ui-seat-layout.h"

G_BEGIN_DECLS

#define UI_TYPE_SETUP_DIALOG (ui_setup_dialog_get_type ())
G_DECLARE_FINAL_TYPE (UiSetupDialog, ui_setup_dialog, UI, SETUP_DIALOG, AdwWindow)

/* A dialog for `game` (a registry name) prefilled with the players, seats and
 * house rules the table last started this game with (ui-settings.h), else
 * from `setup` (may be NULL: two players), with one row per rule switch of
 * data/rules/GAME.options (ui-option-docs.h), set as kept or as `options`
 * says (may be NULL; switches neither names keep the file's value).  When
 * the table confirms, the choice is kept in the settings, then ::start is
 * emitted; read the choice with the getters. */
UiSetupDialog *ui_setup_dialog_new (GtkWindow *parent, const char *game, const EngSetup *setup,
                                    const EngOptions *options);

/* The game chosen (a registry name, owned by the dialog). */
const char *ui_setup_dialog_get_game (UiSetupDialog *self);

/* The setup and option overrides chosen (filled into caller storage). */
void ui_setup_dialog_get_setup (UiSetupDialog *self, EngSetup *setup);
void ui_setup_dialog_get_options (UiSetupDialog *self, EngOptions *options);

/* The dialog's picture of the table (owned by the dialog), for tests. */
UiSeatLayout *ui_setup_dialog_get_seat_layout (UiSetupDialog *self);

G_END_DECLS

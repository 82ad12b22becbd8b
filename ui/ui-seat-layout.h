/* ui-seat-layout.h: a small drawing of the table a game is set up for:
 * the seats around it (clockwise in turn order, each with its seat
 * marker's number and its player's name), the zones in front of each seat
 * and the shared zones in the middle, all from the game's zone file
 * (data/zones/GAME.zones, cal-zones.h), so nothing here knows a game. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define UI_TYPE_SEAT_LAYOUT (ui_seat_layout_get_type ())
G_DECLARE_FINAL_TYPE (UiSeatLayout, ui_seat_layout, UI, SEAT_LAYOUT, GtkWidget)

GtkWidget *ui_seat_layout_new (void);

/* Loads data/zones/GAME.zones.  FALSE with `error` set (G_IO_ERROR) when
 * the file is missing or malformed: the picture then shows the seats
 * alone. */
gboolean ui_seat_layout_set_game (UiSeatLayout *self, const char *game, GError **error);

/* The players in turn order: `n` of them (at most 8), names[i] (NULL or
 * "" for a name not typed yet) sitting behind seat marker seats[i] (0:
 * not known).  Both arrays are copied. */
void ui_seat_layout_set_players (UiSeatLayout *self, guint n, const char *const *names,
                                 const guint *seats);

/* What the picture shows now, for tests: seats drawn, the name at seat
 * position i (NULL past the last; "" when not typed), shared zones drawn. */
guint ui_seat_layout_get_n_seats (UiSeatLayout *self);
const char *ui_seat_layout_get_name (UiSeatLayout *self, guint i);
guint ui_seat_layout_get_n_shared (UiSeatLayout *self);

G_END_DECLS

/* ui-camera-view.h: the live camera picture with what Tablero recognised
 * drawn over it: each sticker outlined and labelled, the card in play
 * highlighted.  Face-down cards show only their back's label (K20). */
#pragma once

#include <gtk/gtk.h>

#include "eng-cardset.h"
#include "eng-game.h"
#include "cal-zones.h"
#include "vis-detect.h"

G_BEGIN_DECLS

#define UI_TYPE_CAMERA_VIEW (ui_camera_view_get_type ())
G_DECLARE_FINAL_TYPE (UiCameraView, ui_camera_view, UI, CAMERA_VIEW, GtkWidget)

GtkWidget *ui_camera_view_new (void);

/* The set used to name stickers; borrowed, must outlive the view (NULL:
 * stickers are labelled with their payload only). */
void ui_camera_view_set_card_set (UiCameraView *self, const EngCardSet *set);

/* The game whose names for the cards label the face stickers, in the
 * table's language (eng_game_card_name); borrowed, must outlive the view
 * or be replaced (NULL: the set's names, which are English data). */
void ui_camera_view_set_game (UiCameraView *self, const EngGame *game);

/* Shows `texture` (a new reference is taken) with `detections` (copied). */
void ui_camera_view_set_frame (UiCameraView *self, GdkTexture *texture,
                               const VisDetection *detections, guint n_detections);

/* The table's zones to draw under the stickers (copied; corners in image
 * pixels).  n_zones 0 hides them. */
void ui_camera_view_set_zones (UiCameraView *self, const CalZoneOutline *zones, guint n_zones);

/* The anchors and seat markers seen at two places (bit n-1 of
 * `anchors_mask` is anchor n; `seats` lists seat numbers, copied, at most
 * 8): drawn in red and labelled as doubled, so the table sees which copy
 * to take away.  0 and 0 clear it. */
void ui_camera_view_set_doubled (UiCameraView *self, guint anchors_mask, const guint *seats, guint n_seats);

/* Highlights the sticker with this face serial (0: none). */
void ui_camera_view_set_highlight (UiCameraView *self, guint serial);

/* A line drawn over the picture when there is no frame (e.g. "No camera"). */
void ui_camera_view_set_placeholder (UiCameraView *self, const char *text);

/* Signals:
 *   ::sticker-activated (const char *payload)   a card's face sticker was
 *       double-clicked (the window offers to correct it)
 */

G_END_DECLS

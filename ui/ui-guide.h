/* ui-guide.h: the first-run guide, from the box to the first refereed
 * turn: what is needed, print the stickers, stick them, place the anchors
 * and seat markers, check the camera page, start a game.  Pages of an
 * AdwCarousel; its buttons run the app's own actions (app.stickers,
 * win.show-page, win.new-game), so the guide never does a thing twice. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define UI_TYPE_GUIDE (ui_guide_get_type ())
G_DECLARE_FINAL_TYPE (UiGuide, ui_guide, UI, GUIDE, AdwWindow)

/* A guide over `parent` (the main window, whose actions its buttons use). */
UiGuide *ui_guide_new (GtkWindow *parent);

/* Shows page `index` (0-based; clamped), for screenshots and tests. */
void ui_guide_show_page (UiGuide *self, guint index);
guint ui_guide_get_n_pages (UiGuide *self);

G_END_DECLS

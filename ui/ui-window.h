/* ui-window.h: the main window: the camera picture with the referee's
 * latest words under it, the game panel beside it (scores, what to do
 * next, the table map, the announcements; the camera setup), the command
 * bar, and table mode.  It opens at a size its monitor holds
 * (ui-window-fit.h). */
#pragma once

#include <adwaita.h>

#include "eng-cardset.h"
#include "ui-referee.h"

G_BEGIN_DECLS

#define UI_TYPE_WINDOW (ui_window_get_type ())
G_DECLARE_FINAL_TYPE (UiWindow, ui_window, UI, WINDOW, AdwApplicationWindow)

/* `game` is a registry name, `source` a frame source spec
 * ("demo", "v4l2:/dev/video0"), `players` the names in seat order (NULL
 * terminated); all copied.  The window is owned by GTK's window list. */
UiWindow *ui_window_new (GtkApplication *app, const char *game, const char *source,
                         const char *const *players);

const char *ui_window_get_game (UiWindow *self);
const char *ui_window_get_source (UiWindow *self);
/* The card set of the game shown (owned by the window; NULL when it could
 * not be loaded). */
const EngCardSet *ui_window_get_card_set (UiWindow *self);

/* How many camera frames the window has shown since it opened. */
guint ui_window_get_frames_shown (UiWindow *self);
/* A testing aid (--screenshot-freeze): the table's source stops at its
 * `n`th frame, now and after a restart of the pipeline; and whether it has
 * stopped there with that frame shown. */
void ui_window_freeze_at_frame (UiWindow *self, guint n);
gboolean ui_window_get_frozen (UiWindow *self);
/* Sentences the voice has begun to say (0 without a voice). */
guint ui_window_get_sentences_said (UiWindow *self);

/* The referee of the game shown (owned by the window; NULL when none
 * could be started).  For tests and views that follow the game. */
UiReferee *ui_window_get_referee (UiWindow *self);

/* Shows the notice that no camera was found and the demo table plays
 * instead, with what to do (a button opens the camera setup). */
void ui_window_show_no_camera (UiWindow *self);
gboolean ui_window_get_notice_shown (UiWindow *self);

/* The first run: the table (camera or demo, and the referee's voice)
 * waits until `guide` (borrowed) is closed, then starts, and table mode is
 * offered once.  ui_window_get_held() is TRUE while it waits. */
void ui_window_first_run (UiWindow *self, GtkWindow *guide);
gboolean ui_window_get_held (UiWindow *self);

/* Property "table-mode" (boolean, action win.table-mode, F11): the window
 * fills the screen with the game in large type (UiTableMode). */

/* Property "muted" (boolean): the referee's voice says nothing (the action
 * win.mute, Ctrl+Shift+M and the header's speaker button toggle it). */

/* Property "voice" (string): the espeak-ng voice name the referee speaks
 * with ("" or NULL: the default voice of the table's language).  A name
 * espeak-ng does not have is kept in the property (it is the table's
 * setting) but the default voice speaks, and the log and a toast say so.
 * Property "speech-rate" (int, SPK_VOICE_RATE_MIN..MAX words a minute).
 * Both apply to the next sentence; GSettings' "voice" and "speech-rate"
 * bind to them (ui_settings_bind_window). */

#define UI_WINDOW_ERROR (ui_window_error_quark ())
GQuark ui_window_error_quark (void);

typedef enum {
  UI_WINDOW_ERROR_NO_VOICE,   /* built without speech, or espeak-ng could not start or speak */
  UI_WINDOW_ERROR_MUTED,      /* the referee is muted */
} UiWindowError;

/* Says a sample sentence in the table's language with the voice and speed
 * set now, so a table can hear its choice.  FALSE with UI_WINDOW_ERROR set
 * when nothing can be heard (muted, no voice). */
gboolean ui_window_try_voice (UiWindow *self, GError **error);

#ifdef TABLERO_HAVE_SPEECH
/* The referee's voice (owned by the window; NULL when espeak-ng could not
 * start or speak).  For tests of what reaches it. */
struct _SpkVoice *ui_window_get_voice (UiWindow *self);
#endif

G_END_DECLS

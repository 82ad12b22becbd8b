/* ui-settings.h: what a table sets once and finds again (GSettings schema
 * org.tablero.Tablero, data/org.tablero.Tablero.gschema.xml): the last game
 * and camera, and per game the last players, their seats and the house-rule
 * options.
 *
 * The app runs without the schema installed (a build tree moved elsewhere,
 * a partial install): ui_settings_new() then returns NULL and every other
 * function takes NULL as "nothing kept", so callers need no special case.
 * Stored values are checked as if typed (eng-name.h for names): a value that
 * does not pass is ignored, never trusted.
 */
#pragma once

#include <gio/gio.h>

#include "eng-game.h"
#include "vis-camera.h"

G_BEGIN_DECLS

/* A new GSettings for org.tablero.Tablero (transfer full), or NULL when the
 * schema is not installed.  Never aborts. */
GSettings *ui_settings_new (void);

/* Fills `setup` (eng_setup_init'ed: names, seats, n_players; first is 0)
 * with the last players and seats kept for `game`.  FALSE, `setup` still
 * initialised but empty, when none are kept or they are not valid (a name
 * eng-name.h refuses, two alike, a count outside the game's). */
gboolean ui_settings_get_setup (GSettings *settings, const char *game, EngSetup *setup);

/* Fills `options` with the house-rule options kept for `game` (only those
 * switches; the rules file gives the rest).  FALSE, `options` emptied, when
 * none are kept. */
gboolean ui_settings_get_options (GSettings *settings, const char *game, EngOptions *options);

/* Keeps `game` as the last game and, for it, the players and seats of
 * `setup` and the switches of `options` (may be NULL: keeps none). */
void ui_settings_save_game (GSettings *settings, const char *game, const EngSetup *setup,
                            const EngOptions *options);

/* Sets a string key (the last "game", the "camera") when the settings exist. */
void ui_settings_set_string (GSettings *settings, const char *key, const char *value);

/* Binds the keys "muted", "voice", "speech-rate" and "learning" to the properties of
 * the same names of `window` (a UiWindow, or any object with them), both
 * ways, for as long as both live: the referee speaks as the table chose
 * last, and a change from anywhere (the preferences, dconf-editor) reaches
 * the voice at once.  A NULL `settings` binds nothing. */
void ui_settings_bind_window (GSettings *settings, gpointer window);

/* Keeps the state of the stateful action `action_name` of `group` (a
 * GApplication, a GtkApplicationWindow, a GSimpleActionGroup) and the
 * settings key `key` equal both ways: the action starts in the key's value;
 * changing the action's state writes the key; changing the key (another
 * window, dconf-editor) changes the action's state.  The key's type must be
 * the action's state type ("muted" and "table-mode" are booleans).  The
 * binding lives as long as both objects; a NULL `settings` binds nothing. */
void ui_settings_bind_action (GSettings *settings, const char *key, GActionGroup *group,
                              const char *action_name);

/* The camera controls kept in the camera-* keys (docs/frame-sources.md,
 * "Settings"): camera-focus-locked false is autofocus, true locks at
 * camera-focus (-1: where autofocus settles); camera-exposure-auto true is
 * automatic, false fixes camera-exposure (tenths of a millisecond, -1: the
 * camera's default); camera-anti-flicker as vis_anti_flicker_parse reads
 * it.  The numbers are kept in `controls` whatever the switches say, so the
 * rows show them.  NULL settings: the camera's own ways (autofocus,
 * automatic exposure, its anti-flicker), numbers -1. */
void ui_settings_get_camera_controls (GSettings *settings, VisCameraControls *controls);

/* Whether `settings` (may be NULL) has `key`: a schema installed by an
 * older Tablero lacks the newer keys, and GSettings aborts on those. */
gboolean ui_settings_has_key (GSettings *settings, const char *key);

/* Sets one camera-* `key` to `value` in `controls`: TRUE when `key` is one
 * of the five and `value` of its type and range (the schema's), FALSE and
 * `controls` unchanged otherwise.  What win.camera-control checks before
 * anything is kept. */
gboolean ui_settings_apply_camera_control (VisCameraControls *controls, const char *key, GVariant *value);

G_END_DECLS

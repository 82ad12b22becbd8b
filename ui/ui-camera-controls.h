/* ui-camera-controls.h: the "Camera controls" expander of the camera
 * setup page: lock focus (and where), automatic exposure (or a fixed
 * time, which may follow the stickers: "Meter on the stickers"),
 * anti-flicker.
 *
 * The rows only ask: every change activates win.camera-control with the
 * settings key and its new value, "(sv)" ("camera-focus-locked", <true>);
 * whoever owns that action keeps the value (GSettings) and hands it to the
 * camera, then shows the result back with ui_camera_controls_show.  The
 * keys and their meaning: ui-settings.h, docs/frame-sources.md. */
#pragma once

#include <adwaita.h>

#include "vis-camera.h"

G_BEGIN_DECLS

#define UI_TYPE_CAMERA_CONTROLS (ui_camera_controls_get_type ())
G_DECLARE_FINAL_TYPE (UiCameraControls, ui_camera_controls, UI, CAMERA_CONTROLS, AdwExpanderRow)

UiCameraControls *ui_camera_controls_new (void);

/* Shows `controls` (as ui_settings_get_camera_controls reads them): the
 * switches, the numbers, the anti-flicker choice; the focus position only
 * while the focus is locked, the exposure time and the metering on the
 * stickers only while it is fixed.
 * Showing activates nothing. */
void ui_camera_controls_show (UiCameraControls *self, const VisCameraControls *controls);

G_END_DECLS

/* vis-camera.h: what a camera offers and what Tablero asks of it, as plain
 * data and pure functions.
 *
 * The V4L2 source (vis-source.cpp) fills these structs from the device
 * (VIDIOC_ENUM_FMT / ENUM_FRAMESIZES / ENUM_FRAMEINTERVALS, VIDIOC_QUERYCTRL /
 * QUERYMENU); the tests fill them from recorded `v4l2-ctl --list-formats-ext`
 * and `v4l2-ctl --list-ctrls-menus` output (tests/render/cameras/).  Both
 * then go through the same choices: which mode to stream, which controls to
 * set to what.  docs/frame-sources.md explains them.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vis-convert.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- modes: formats, sizes, frame rates -------------------------------- */

/* One size of one pixel format and the frame rates offered at it.  A
 * discrete size has min_width == 0; a stepwise or continuous range of sizes
 * runs from min_width x min_height to width x height in steps of
 * step_width / step_height (1 for continuous).  Likewise a discrete rate
 * has min_fps == 0; a range of rates runs from min_fps to fps.  fps == 0:
 * the camera did not say (taken as able to give the rate asked for). */
typedef struct {
  uint32_t fourcc;
  int width, height;
  int min_width, min_height;
  int step_width, step_height;
  double fps;
  double min_fps;
} VisCameraMode;

#define VIS_CAMERA_MODES_MAX 512

typedef struct {
  unsigned n;
  bool truncated;               /* more modes were offered than fit */
  VisCameraMode modes[VIS_CAMERA_MODES_MAX];
} VisCameraModes;

/* Appends `mode`; false (and `truncated` set) when the list is full. */
bool vis_camera_modes_add (VisCameraModes *modes, const VisCameraMode *mode);

/* Whether frames of `fourcc` can be turned into BGR8/GRAY8: MJPG (and
 * JPEG), YUYV and NV12. */
bool vis_camera_fourcc_supported (uint32_t fourcc);

/* The four characters of `fourcc` in `buf` ("MJPG"); unprintable bytes as
 * '?'.  Returns `buf`. */
const char *vis_fourcc_name (uint32_t fourcc, char buf[5]);

/* The mode to stream: format, size, and the rate to ask for. */
typedef struct {
  uint32_t fourcc;
  int width, height;
  double fps;                   /* 0: the camera did not say; ask for the wanted rate */
} VisCameraChoice;

/* The rate below which a table reads poorly (cards are moved by hand):
 * modes at or above min(wanted, this) count as fast enough. */
#define VIS_CAMERA_MIN_GOOD_FPS 25.0

/* Picks from `modes` the one closest to `width` x `height` at `fps` (0 =
 * 1920x1080, 30), among the formats Tablero converts:
 *
 *   1. fast enough first: a mode giving at least min(fps, 25) beats any
 *      slower one, and among slower ones the faster wins (so a USB 2 webcam
 *      that gives 1080p only as YUYV at 5 fps streams 720p MJPEG at 30);
 *   2. then the size nearest the wanted one (the same size, else the least
 *      sum of how far off the width and the height are, on a log scale);
 *   3. then the rate nearest the wanted one;
 *   4. then uncompressed (NV12, YUYV) before MJPEG: no JPEG artefacts, no
 *      decoding.
 *
 * A range of sizes or rates gives the wanted value, clamped to the range
 * and rounded to its step.  Returns false, `why` saying what the camera
 * offers, when nothing is usable. */
bool vis_camera_choose_mode (const VisCameraModes *modes, int width, int height, double fps,
                             VisCameraChoice *out, char *why, size_t why_size);

/* "MJPG 1920x1080 at 30 fps" into `buf`. */
void vis_camera_choice_describe (const VisCameraChoice *choice, char *buf, size_t size);

/* Reads `v4l2-ctl --list-formats-ext` output (both the "[0]: 'MJPG' (...)"
 * layout and the older "Pixel Format: 'MJPG'" one; blank lines and lines
 * starting with '#' are skipped).  Returns false with `why` naming the line
 * and what is wrong with it for anything else, and when no mode is found. */
bool vis_camera_modes_parse (const char *text, size_t len, VisCameraModes *out, char *why,
                             size_t why_size);

/* ---- controls ------------------------------------------------------------ */

/* The controls Tablero sets, by their V4L2 ids (V4L2_CID_*). */
#define VIS_CID_EXPOSURE_AUTO 0x009a0901u          /* menu: 0 auto, 1 manual, 2 shutter p., 3 aperture p. */
#define VIS_CID_EXPOSURE_ABSOLUTE 0x009a0902u      /* int, units of 100 us */
#define VIS_CID_FOCUS_ABSOLUTE 0x009a090au         /* int, the camera's own units */
#define VIS_CID_FOCUS_AUTO 0x009a090cu             /* bool */
#define VIS_CID_POWER_LINE_FREQUENCY 0x00980918u   /* menu: 0 off, 1 50 Hz, 2 60 Hz, 3 auto */

typedef enum {
  VIS_CAMERA_CTRL_INT = 1,
  VIS_CAMERA_CTRL_BOOL,
  VIS_CAMERA_CTRL_MENU,
  VIS_CAMERA_CTRL_OTHER,        /* strings, buttons, 64-bit, ...: never set */
} VisCameraCtrlType;

/* One control as VIDIOC_QUERYCTRL (and QUERYMENU) describe it. */
typedef struct {
  uint32_t id;
  char name[32];
  VisCameraCtrlType type;
  int32_t min, max, step, def;
  uint64_t menu;                /* menu items present: bit i for item i (i < 64);
                                   0 = not listed (every item min..max taken as present) */
  bool inactive, read_only, disabled;
} VisCameraCtrl;

#define VIS_CAMERA_CTRLS_MAX 64

typedef struct {
  unsigned n;
  VisCameraCtrl ctrls[VIS_CAMERA_CTRLS_MAX];
} VisCameraCtrls;

/* The control `id` of `ctrls`, NULL when the camera has none. */
const VisCameraCtrl *vis_camera_ctrls_find (const VisCameraCtrls *ctrls, uint32_t id);

/* Reads `v4l2-ctl --list-ctrls-menus` (or --list-ctrls) output: one line a
 * control ("name 0x00980900 (int) : min=0 max=255 step=1 default=128
 * value=128 flags=inactive"), menu items under menu controls ("1: 50 Hz"),
 * class headings ("Camera Controls"), blank lines, '#' comments.  Returns
 * false with `why` naming the line for anything else, a control listed
 * twice, more than VIS_CAMERA_CTRLS_MAX, or none. */
bool vis_camera_ctrls_parse (const char *text, size_t len, VisCameraCtrls *out, char *why,
                             size_t why_size);

/* What a table wants of its camera.  All zero: leave the camera as it is. */
typedef enum {
  VIS_FOCUS_UNSET = 0,          /* leave the focus as the camera has it */
  VIS_FOCUS_AUTO,               /* autofocus on (a fixed-focus camera: nothing to do) */
  VIS_FOCUS_LOCKED,             /* autofocus off, the lens at focus_position */
} VisFocusMode;

typedef enum {
  VIS_EXPOSURE_UNSET = 0,       /* leave the exposure as the camera has it */
  VIS_EXPOSURE_AUTO,            /* the camera's automatic exposure */
  VIS_EXPOSURE_MANUAL,          /* a fixed exposure_time */
} VisExposureMode;

typedef enum {
  VIS_ANTI_FLICKER_UNSET = 0,   /* leave the camera's power-line setting */
  VIS_ANTI_FLICKER_OFF,
  VIS_ANTI_FLICKER_50HZ,
  VIS_ANTI_FLICKER_60HZ,
  VIS_ANTI_FLICKER_AUTO,
} VisAntiFlicker;

typedef struct {
  VisFocusMode focus;
  int focus_position;           /* LOCKED: in the camera's units (clamped to its range);
                                   < 0: lock where autofocus settles */
  VisExposureMode exposure;
  int exposure_time;            /* MANUAL: in units of 100 us (100 = 10 ms);
                                   < 0: the camera's default time */
  VisAntiFlicker anti_flicker;
  bool meter_stickers;          /* MANUAL: the time follows the stickers' own exposure
                                   (VisExposureMeter, vis-exposure.h); exposure_time is
                                   where it starts */
} VisCameraControls;

/* The manual exposure times a camera takes, in units of 100 us (as
 * VisCameraControls.exposure_time), and its default. */
typedef struct {
  int min, max, step, def;
} VisExposureRange;

/* The controls to set when the user's `asked` replaces their `before` on a
 * camera whose controls are `now` (the metered time in it): `asked`, except
 * that while the exposure stays metered on the stickers from the same
 * starting time (the user changed focus or flicker), the time the meter
 * reached is kept rather than thrown back to the start. */
void vis_camera_controls_follow (const VisCameraControls *before, const VisCameraControls *asked,
                                 const VisCameraControls *now, VisCameraControls *out);

/* The range of the exposure time control in `have`; false when there is
 * none (or it is read-only or disabled). */
bool vis_camera_exposure_range (const VisCameraCtrls *have, VisExposureRange *out);

/* Largest values taken (the camera clamps further). */
#define VIS_CAMERA_FOCUS_MAX 100000
#define VIS_CAMERA_EXPOSURE_MAX 100000   /* 10 s */

/* How long autofocus runs before a "lock where it settles" takes effect. */
#define VIS_CAMERA_SETTLE_MS 2000

/* One control to set, in order. */
typedef struct {
  uint32_t id;
  int32_t value;
  bool after_settling;          /* set VIS_CAMERA_SETTLE_MS after the others */
} VisCameraSetting;

#define VIS_CAMERA_SETTINGS_MAX 8

typedef struct {
  unsigned n;
  VisCameraSetting settings[VIS_CAMERA_SETTINGS_MAX];
  char notes[512];              /* what is not done as asked, one line each; "" when all is */
} VisCameraPlan;

/* Maps what is wanted onto what the camera has: the controls to set, in the
 * order to set them (an automatic switch before the value it frees), each
 * value clamped to the control's range and rounded to its step, menu
 * values checked against the items the camera lists.  A control the camera
 * lacks (or that is disabled or read-only) is skipped; `notes` says which
 * and why, and every value that had to be changed.  Not said: focus AUTO
 * or exposure AUTO on a camera without that control (it already does as
 * asked).  Focus LOCKED with focus_position < 0 turns autofocus on, then off
 * again after settling. */
void vis_camera_plan_controls (const VisCameraControls *want, const VisCameraCtrls *have,
                               VisCameraPlan *plan);

/* The words a message uses for control `id` ("focus position"). */
const char *vis_camera_ctrl_label (uint32_t id);

/* Appends `line` to `notes` (size `size`) as a line of its own. */
void vis_camera_notes_add (char *notes, size_t size, const char *line);

/* Words for settings and command lines.  Each returns false, leaving `out`
 * alone, for anything but the words listed:
 *   anti-flicker: "camera" (UNSET), "off", "50", "60", "auto"
 *   focus:        "auto", "lock" (where autofocus settles), or a position
 *                 0 to VIS_CAMERA_FOCUS_MAX (locked there)
 *   exposure:     "auto", "manual" (the camera's default time), "stickers"
 *                 (manual, from the camera's default time, metered on the
 *                 stickers), or a time in milliseconds, 0.1 to 10000 ("10",
 *                 "8.3"), to 0.1 ms */
bool vis_anti_flicker_parse (const char *text, VisAntiFlicker *out);
const char *vis_anti_flicker_name (VisAntiFlicker value);
bool vis_camera_focus_parse (const char *text, VisCameraControls *out);
bool vis_camera_exposure_parse (const char *text, VisCameraControls *out);

/* "focus locked at 40, exposure 10.0 ms, anti-flicker 50 Hz" (only what is
 * set; "camera defaults" when nothing is). */
void vis_camera_controls_describe (const VisCameraControls *controls, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

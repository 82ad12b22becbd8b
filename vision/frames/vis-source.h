/* vis-source.h: where frames come from, chosen by one string.
 *
 *   camera[:N]        libcamera camera N (default 0), when built with libcamera
 *   v4l2:/dev/videoN  a UVC webcam through V4L2: the mode nearest 1920x1080
 *                     at 30 fps among MJPEG, YUYV and NV12 (vis-camera.h),
 *                     two mmap buffers, always the newest frame
 *   file:PATH         a video file, a folder of images (sorted by name) or
 *                     one image
 *   demo              the synthetic renderer playing the game's demo,
 *                     data/scenes/demo-GAME-game.scene (VisSourceOptions.game;
 *                     a scripted game, data/games/demo-GAME.script)
 *                     in a loop at its frame rate (demo:SCENE plays another)
 *
 * docs/frame-sources.md is the reference.  No camera present is a normal
 * state (VIS_SOURCE_NO_CAMERA), not an error.  A device that goes away
 * mid-stream gives VIS_SOURCE_DISCONNECTED from read; the source keeps trying
 * to reopen it on later reads and returns VIS_SOURCE_RECONNECTED with the
 * first frame after it came back.
 *
 * A VisSource is used by one thread at a time.  After the first frames, reads
 * allocate nothing (buffers are reused).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vis-camera.h"
#include "vis-image.h"

#ifdef __cplusplus
extern "C" {
#endif

struct EngPrinting;  /* engine/cards/eng-printing.h */

typedef enum {
  VIS_SOURCE_OK = 0,           /* a new frame was delivered */
  VIS_SOURCE_RECONNECTED,      /* the device came back; a new frame was delivered */
  VIS_SOURCE_AGAIN,            /* no new frame yet (timeout); try again */
  VIS_SOURCE_END,              /* a file or folder played to its end (no loop) */
  VIS_SOURCE_DISCONNECTED,     /* the device went away; later reads retry */
  VIS_SOURCE_NO_CAMERA,        /* open: no such camera is present (normal) */
  VIS_SOURCE_ERR_INVALID_ARGUMENT, /* a malformed spec or option */
  VIS_SOURCE_ERR_NOT_SUPPORTED,    /* e.g. camera: in a build without libcamera */
  VIS_SOURCE_ERR_IO,           /* a file or device that cannot be opened or read */
  VIS_SOURCE_ERR_FORMAT,       /* a corrupt, truncated or empty image/stream */
  VIS_SOURCE_ERR_NO_MEMORY,
  VIS_SOURCE_STATUS_COUNT
} VisSourceStatus;

/* Static English phrase; never NULL. */
const char *vis_source_status_to_string (VisSourceStatus status);
/* True for the statuses that deliver a frame (OK, RECONNECTED). */
static inline bool
vis_source_status_has_frame (VisSourceStatus status)
{
  return status == VIS_SOURCE_OK || status == VIS_SOURCE_RECONNECTED;
}

/* Details of the last non-OK status: which file, which device, why. */
typedef struct {
  char message[512];
} VisSourceError;

typedef struct {
  int width, height;          /* wanted size; 0 = the source's default
                                 (1920x1080 for cameras) */
  double fps;                 /* wanted rate; 0 = default (30) */
  VisPixelFormat format;      /* 0 = VIS_PIXEL_BGR8 */
  bool loop;                  /* file: and demo: start again at the end
                                 (demo always loops) */
  int read_timeout_ms;        /* cameras: wait at most this long (0 = 1000) */
  int reconnect_interval_ms;  /* min time between reopen attempts (0 = 500) */
  const char *data_dir;       /* demo: where data/ is (NULL = eng_data_dir ()) */
  const char *game;           /* demo: whose demo plays, data/scenes/demo-GAME-game.scene
                                 (NULL = the first game the registry lists) */
  VisCameraControls controls; /* cameras: focus, exposure, anti-flicker (vis-camera.h);
                                 all zero = leave the camera as it is */
  const struct EngPrinting *printing; /* demo: the table's printing the painted stickers are
                                 sealed with (borrowed; must outlive the source);
                                 NULL paints old unsealed stickers the referee refuses */
} VisSourceOptions;

typedef struct VisSource VisSource;

/* Opens `spec`.  `options` may be NULL (defaults).  On success *out owns a new
 * source (vis_source_close) and VIS_SOURCE_OK is returned.  Otherwise *out is
 * NULL, `err` (may be NULL) explains, and the status is NO_CAMERA,
 * ERR_INVALID_ARGUMENT, ERR_NOT_SUPPORTED, ERR_IO or ERR_FORMAT. */
VisSourceStatus vis_source_open (const char *spec, const VisSourceOptions *options,
                                 VisSource **out, VisSourceError *err);
void vis_source_close (VisSource *source);

/* Reads the next frame (cameras: the newest one).  On OK/RECONNECTED fills
 * `frame`, whose pixels the source owns until the next read or close.  On
 * other statuses `frame` is untouched and `err` (may be NULL) explains.  An
 * image inside a folder that is corrupt, or missing or unreadable since the
 * folder was listed, gives ERR_FORMAT naming it; the next read moves on to
 * the following image.  Only the folder itself going away ends the source
 * (DISCONNECTED). */
VisSourceStatus vis_source_read (VisSource *source, VisFrame *frame, VisSourceError *err);

/* The spec it was opened with, and a human description ("USB webcam (v4l2,
 * /dev/video0) 1920x1080 MJPEG"). */
const char *vis_source_spec (const VisSource *source);
const char *vis_source_description (const VisSource *source);

/* Camera controls.  set_controls keeps `controls` for every later (re)open
 * and, on a camera that is open, sets them at once (no reopen: turn the
 * focus and watch the picture).  Other sources keep them and do nothing.
 * VIS_SOURCE_OK unless an argument is NULL: a control the camera lacks or
 * refuses is not an error but a line of the report.
 *
 * controls_report says what the last setting (at open, at a reconnection,
 * or by set_controls) did not do as asked, one line per control ("focus: this
 * camera has no focus control (a fixed-focus lens?); nothing to lock", "anti-
 * flicker 50 Hz: the camera refused it (...)"); "" when all was done or
 * nothing asked.  A focus locked where autofocus settles is set
 * VIS_CAMERA_SETTLE_MS after the others, during a read, so the report may
 * change then.  Valid until the next call on the source; never NULL. */
VisSourceStatus vis_source_set_controls (VisSource *source, const VisCameraControls *controls,
                                         VisSourceError *err);
const char *vis_source_controls_report (const VisSource *source);

/* The manual exposure times of the open camera (vis-camera.h): false for
 * files, the demo, a camera without an exposure time control and one not
 * open now.  set_exposure_time keeps `time` (100 us units) as
 * controls.exposure_time and, on an open camera, sets that control alone,
 * clamped to its range, and nothing else (a metered exposure changes a few
 * times a second; focus and flicker stay untouched).  VIS_SOURCE_OK unless
 * `source` is NULL or `time` is below 1 or above VIS_CAMERA_EXPOSURE_MAX. */
bool vis_source_exposure_range (const VisSource *source, VisExposureRange *out);
VisSourceStatus vis_source_set_exposure_time (VisSource *source, int time);

/* Test hook: while `unplugged` is true the source behaves as if its device
 * were gone (read returns DISCONNECTED, reopen attempts fail), so reconnection
 * can be tested without hardware.  Works for every kind of source. */
void vis_source_simulate_unplug (VisSource *source, bool unplugged);

/* Writes `n` frames (same size, BGR8 or GRAY8) to `path` as a Motion-JPEG
 * AVI at `fps`, for file: sources to play back (a recorded table, a test
 * clip).  VIS_SOURCE_ERR_INVALID_ARGUMENT for frames of mixed sizes or an
 * unknown format, VIS_SOURCE_ERR_IO when no writer can open `path`; `err`
 * (may be NULL) says which. */
VisSourceStatus vis_video_write (const char *path, const VisImage *frames, size_t n, double fps,
                                 VisSourceError *err);

/* ---- listing ----------------------------------------------------------- */

#define VIS_SOURCE_LIST_MAX 16

typedef struct {
  char spec[64];              /* what to pass to vis_source_open */
  char name[128];             /* human name */
  char detail[128];           /* "libcamera", "v4l2 MJPG 1920x1080 at 30 fps (uvcvideo)", ... */
} VisSourceInfo;

typedef struct {
  unsigned n;
  VisSourceInfo sources[VIS_SOURCE_LIST_MAX];
} VisSourceList;

/* Lists the cameras present (libcamera when built with it, and V4L2 capture
 * devices).  Returns VIS_SOURCE_OK with n >= 1, or VIS_SOURCE_NO_CAMERA with
 * n == 0 and a clear message in `err` (may be NULL): that is a normal state.
 * Never fails otherwise. */
VisSourceStatus vis_source_list (VisSourceList *out, VisSourceError *err);

#ifdef __cplusplus
}
#endif

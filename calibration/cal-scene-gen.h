/* cal-scene-gen.h: a snapshot script (eng-live-script.h) turned into a
 * render scene (docs/render-scene-format.md) of the same game.
 *
 * Every card the script names becomes a physical card with its QR sticker;
 * every put/flip/move/remove/deal happens at a time on the scene's timeline,
 * the card laid at the centre of the zone the script names (zones from a
 * zone file, data/zones/GAME.zones, placed relative to seat markers and the
 * anchors' centroid exactly as the calibration places them).  Command cards
 * (`command` and `key` lines) are shown to the camera for a moment; a
 * `choose NAME` (the answer to a question naming players) becomes the cancel
 * and confirm cards that name NAME.  Two cards trading slots slide at once,
 * in view; two cards put on one attack spot between two looks land at once.
 * Hands pass over the card being handled, the image can be degraded, and the
 * camera can be nudged.  docs/e2e.md describes the layout and the timing.
 *
 * Pure C (libc); the result is text, rendered by vis-render or played by the
 * `demo:SCENE` frame source.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cal-zones.h"
#include "eng-cardset.h"
#include "eng-live-script.h"
#include "eng-session.h"
#include "eng-snapshot.h"
#include "eng-status.h"
#include "vis-render.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  CAL_SCENE_DEGRADE_LIGHT = 1u << 0,
  CAL_SCENE_DEGRADE_BLUR = 1u << 1,
  CAL_SCENE_DEGRADE_NOISE = 1u << 2,
  CAL_SCENE_DEGRADE_JPEG = 1u << 3,
  CAL_SCENE_DEGRADE_ALL = 0xfu,
};

typedef struct {
  double fps;             /* scene frame rate; 0 = 5 */
  double px_per_mm;       /* image scale on the table; 0 = 2.2 (3.5 px per
                             module of a 40 mm sticker with 2 quiet modules) */
  int width, height;      /* the camera's frame in px; 0 = as large as the
                             table at px_per_mm.  Given, the generator picks
                             the table layout and the camera's yaw that show
                             the table at the largest scale in that frame
                             (px_per_mm is then ignored; the result says the
                             scale) */
  unsigned degrade;       /* CAL_SCENE_DEGRADE_* bits */
  double blur_px;         /* with CAL_SCENE_DEGRADE_BLUR: the blur's sigma in
                             image px; 0 = 0.6 (a soft webcam's is about 1) */
  bool hands;             /* a hand carries every card that is handled */
  double nudge_s;         /* bump the camera at the first quiet moment after
                             this scene time; < 0 = never */
  double change_s;        /* time given to one physical change; 0 = 1.0 */
  bool gather;            /* cards taken away one after another between two
                             looks leave in one sweep: each takes change_s,
                             and the tracker's grace for a card gone (2 s)
                             is waited once, after the last (a hand ends:
                             the table is gathered) */
  uint64_t seed;          /* scene seed; 0 = 1 */
  const char *source_name; /* the script's name for comments and errors;
                              NULL = "script" */
} CalSceneOptions;

/* Defaults: everything above at 0 except nudge_s = -1. */
void cal_scene_options_init (CalSceneOptions *opts);

#define CAL_SCENE_MAX_RESTS 1024

/* When each change of the script is complete on the table: the card lies
 * still and nothing covers it any more (scene seconds), and the script line
 * that asked for it. */
typedef struct {
  double t_s;
  unsigned line;
} CalSceneRest;

typedef struct {
  char *text;             /* the scene; the caller frees it with free() */
  double duration_s;
  int width, height;
  double px_per_mm;       /* the image scale on the table */
  size_t n_rests;
  CalSceneRest rests[CAL_SCENE_MAX_RESTS];
} CalSceneResult;

/* Writes the scene of `script` with cards from `set` (borrowed) and the
 * zones `zones` into `out` (caller-owned; out->text allocated on success,
 * NULL on error).  `opts` may be NULL (defaults).  Scripts with `choose`
 * are first run on ideal snapshots (eng_live_script_run) to learn the
 * questions they answer.  Errors name the script line in `err` (may be
 * NULL): ENG_ERR_NOT_SUPPORTED for a zone the zone file does not place,
 * more players than the layouts seat, or a `choose` no command card can
 * answer (no question naming players asked, or NAME not a candidate);
 * ENG_ERR_SYNTAX for a card not in the set or not on the table;
 * ENG_ERR_INCONSISTENT when a computed place would fall in another zone;
 * ENG_ERR_LIMIT, ENG_ERR_NO_MEMORY. */
EngStatus cal_scene_generate (const EngLiveScript *script, const EngCardSet *set,
                              const CalZones *zones, const CalSceneOptions *opts,
                              CalSceneResult *out, EngParseError *err);


/* ---- refereeing a scene ------------------------------------------------ */

/* Called after every frame with its scene time, the committed snapshot,
 * whether it changed, and the events the interpreter gave for it (empty
 * when the snapshot did not change).  All borrowed for the call. */
typedef void (*CalRefereeSink) (void *user, double t_s, const EngSnapshot *snapshot, bool changed,
                                const EngEvents *events);

/* Called for each code the detector missed in a frame although the
 * renderer's ground truth has it wholly in view and uncovered (a card's
 * sticker, an anchor, a seat marker or a command card; foreign codes are
 * not counted).  Borrowed for the call. */
typedef void (*CalRefereeMissSink) (void *user, double t_s, const VisTruthTag *tag);

typedef struct {
  unsigned frames;
  unsigned calibrations;     /* anchors calibrations, the first included */
  size_t events;             /* interpreter events in all */
  double pipeline_ms;        /* wall time in the observer and the interpreter */
  double render_ms;          /* wall time drawing the frames */
  /* The detector's per-frame recall, as the observer ran it: codes wholly
   * in view and uncovered, summed over the frames, and those it found in
   * that frame (its payload within half a code of the true centre). */
  unsigned codes_expected, codes_found;
  unsigned frames_complete;  /* frames where every such code was found */
  double min_module_px, max_module_px;   /* of the codes expected */
} CalRefereeStats;

typedef struct {
  const char *zones_path;    /* may be NULL: no zones */
  const EngPrinting *printing; /* the table's printing: seals the stickers rendered
                                  and is the one the detector reads (borrowed);
                                  NULL: stickers painted unsealed, none read */
  CalRefereeSink sink;       /* may be NULL */
  CalRefereeMissSink missed; /* may be NULL */
  void *user;                /* for both sinks */
} CalRefereeOptions;

/* Renders `scene_text` frame by frame at its own rate (vis-render) and
 * referees every frame exactly as `tablero-cli watch` does: a CalObserver
 * with `zones_path` (may be NULL) then the session's interpreter on each
 * changed snapshot, to the scene's end (a game over is refereed on: cards
 * laid after it are refused, K15).
 * `session` is borrowed (its game and record then hold the result); `sink`
 * and `stats` may be NULL.  Errors: the scene's parse status with `err`
 * naming the line, ENG_ERR_IO / ENG_ERR_SYNTAX for the zone file,
 * ENG_ERR_NO_MEMORY. */
EngStatus cal_scene_referee (const char *scene_text, size_t len, EngSession *session,
                             const EngPrinting *printing, const char *zones_path,
                             CalRefereeSink sink, void *user, CalRefereeStats *stats,
                             EngParseError *err);

/* The same with the detector's misses reported too (`opts` may be NULL). */
EngStatus cal_scene_referee_with (const char *scene_text, size_t len, EngSession *session,
                                  const CalRefereeOptions *opts, CalRefereeStats *stats,
                                  EngParseError *err);

#ifdef __cplusplus
}
#endif

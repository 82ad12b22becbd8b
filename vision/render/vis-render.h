/* vis-render.h: the synthetic table renderer.
 *
 * A scene (docs/render-scene-format.md) describes a table seen by a camera:
 * cards carrying QR stickers, anchors, seat markers, foreign QR codes, hands
 * passing over, camera nudges and image degradations, on a timeline.  The
 * renderer draws the frame at any time t into a caller buffer and reports the
 * ground truth: every sticker with its payload, its four image corners, its
 * table position and whether something covers it.
 *
 * Coordinates.  Table: millimetres, origin at the table's top-left corner as
 * seen with camera yaw 0, x to the right, y towards the camera's near side
 * (down in the image).  A rotation of 0 means the sticker reads upright in
 * that view; positive angles turn clockwise in the image.  Image: pixels,
 * origin at the top-left pixel's top-left corner (pixel centres at +0.5).
 *
 * Corners: the code's four outer corners (the 21x21 module square, quiet zone
 * excluded) in the order top-left, top-right, bottom-right, bottom-left of the
 * symbol as printed upright (finder patterns at the first, second and fourth).
 *
 * Threads: a VisScene is immutable once parsed and can be shared; a
 * VisRenderer is used by one thread at a time.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The engine headers are plain C without their own extern "C". */
#ifdef __cplusplus
extern "C" {
#endif

#include "eng-status.h"
#include "eng-cardset.h"
#include "eng-printing.h"
#include "vis-image.h"

typedef struct VisScene VisScene;
typedef struct VisRenderer VisRenderer;

/* ---- scenes ----------------------------------------------------------- */

/* Parses a scene.  On success *out owns a new scene (vis_scene_free).  On
 * failure *out is NULL, `err` (may be NULL) names `source_name`, the 1-based
 * line and the reason, and the result is ENG_ERR_SYNTAX (malformed line),
 * ENG_ERR_UNKNOWN_ATTRIBUTE (an unknown keyword or key), ENG_ERR_DUPLICATE_ID
 * (two objects with one id), ENG_ERR_NOT_FOUND (an event names an unknown
 * object), ENG_ERR_LIMIT (too many objects/events), ENG_ERR_NO_MEMORY.
 * Any bytes are accepted as input (NULs included) without crashing. */
EngStatus vis_scene_parse (const char *text, size_t len, const char *source_name,
                           VisScene **out, EngParseError *err);
/* Same, from a file; ENG_ERR_IO when it cannot be read. */
EngStatus vis_scene_load_file (const char *path, VisScene **out, EngParseError *err);
void vis_scene_free (VisScene *scene);

/* Cards given by card type ("card c1 type=cat-red-3 copy=1") and cards whose
 * back (deck) the scene leaves out need the card set: this fills them in.
 * Returns ENG_ERR_NOT_FOUND (err says which line) for a type/copy the set does
 * not hold, ENG_ERR_INCONSISTENT when the scene's game letter or set id differ
 * from the set's.  A scene that needs no set renders without this call. */
EngStatus vis_scene_resolve (VisScene *scene, const EngCardSet *set, EngParseError *err);
/* The printing whose seals the stickers painted carry (borrowed: it must
 * outlive the scene's renderers; set it before making one).  Without it
 * (NULL, the default) stickers are painted in the unsealed format 1, which
 * the detector refuses: that is how a test shows an old sticker. */
void vis_scene_set_printing (VisScene *scene, const EngPrinting *printing);
/* True when some card still needs vis_scene_resolve(). */
bool vis_scene_needs_card_set (const VisScene *scene);
/* The game letter and set id of the scene's stickers (its `tags` line). */
char vis_scene_game_letter (const VisScene *scene);
const char *vis_scene_set_id (const VisScene *scene);
/* The scene's `game` name (a registry name), or NULL when it names none. */
const char *vis_scene_game (const VisScene *scene);

int vis_scene_width (const VisScene *scene);          /* pixels */
int vis_scene_height (const VisScene *scene);
double vis_scene_fps (const VisScene *scene);
double vis_scene_duration (const VisScene *scene);    /* seconds */
unsigned vis_scene_n_frames (const VisScene *scene);  /* ceil(duration * fps) */
uint64_t vis_scene_seed (const VisScene *scene);
/* "png" or "jpg": the file format the scene asks frames to be saved in. */
const char *vis_scene_file_format (const VisScene *scene);

/* ---- ground truth ------------------------------------------------------ */

#define VIS_TRUTH_MAX_TAGS 256
#define VIS_TRUTH_PAYLOAD_MAX 128

typedef enum {
  VIS_TRUTH_CARD = 0,     /* a card's sticker (face or deck back) */
  VIS_TRUTH_ANCHOR,
  VIS_TRUTH_SEAT,
  VIS_TRUTH_FOREIGN,      /* a QR code that is not Tablero's (a URL, ...) */
  VIS_TRUTH_COMMAND,      /* a command card's sticker, held up on its own */
} VisTruthKind;

typedef struct {
  char id[32];                    /* the scene's object id, e.g. "c7" */
  char payload[VIS_TRUTH_PAYLOAD_MAX]; /* a Tablero sticker's 11-character tag (what
                                         the detector reports; the seal painted is
                                         left out), a foreign code's text (NUL-ended) */
  VisTruthKind kind;
  bool face_up;                   /* cards: face sticker (true) or back */
  float corners[4][2];            /* image px, order in the header comment */
  double table_x_mm, table_y_mm;  /* code centre on the table */
  double rotation_deg;            /* code rotation on the table */
  double module_px;               /* mean module size in the image */
  bool in_view;                   /* all four corners inside the image */
  bool occluded;                  /* part of the code is covered (hand, card)
                                     or outside the image */
  float visible_fraction;         /* 0..1 of the code area neither covered
                                     nor outside the image (sampled) */
} VisTruthTag;

/* Everything true about one rendered frame.  Tags are listed when the centre
 * of their code projects inside the image (covered or not); tags fully
 * outside are omitted. */
typedef struct {
  double t_s;
  unsigned n_tags;
  bool truncated;                 /* more than VIS_TRUTH_MAX_TAGS qualified */
  double table_to_image[3][3];    /* homography, table mm -> undistorted px */
  bool distorted;                 /* the lens distortion below was applied */
  double camera_k[3][3];          /* intrinsics */
  double camera_dist[5];          /* k1 k2 p1 p2 k3 (OpenCV order) */
  VisTruthTag tags[VIS_TRUTH_MAX_TAGS];
} VisTruth;

/* Writes `truth` as one JSON object and a newline:
 * {"frame":N,"t":T,"tags":[{"id":..,"payload":..,"kind":"card",
 *  "face":"up","corners":[[x,y],..],"table_mm":[x,y],"rotation_deg":r,
 *  "module_px":m,"in_view":true,"occluded":false,"visible":1.0},..],
 *  "homography":[[..],[..],[..]]}
 * Returns ENG_ERR_IO when writing fails. */
EngStatus vis_truth_write_json (const VisTruth *truth, unsigned frame, FILE *out);

/* Reads the truth of a frame rendered elsewhere (the physically based test
 * table, tests/vision/physical/render-table.py), `len` bytes of text:
 *
 *   frame NAME WIDTH HEIGHT
 *   sticker TAG FINISH IN_VIEW VISIBLE MODULE_PX X0 Y0 X1 Y1 X2 Y2 X3 Y3
 *
 * ('#' lines are comments).  A sticker's TAG is its 11-character tag, or
 * '-' for one no reader may take (a forged seal, the old format): those
 * become VIS_TRUTH_FOREIGN tags whose payload is "-".  FINISH (glossy,
 * matte) goes to the tag's `id`; `occluded` is VISIBLE < 1.  Fills `out`
 * and *width, *height.  Returns ENG_ERR_SYNTAX (with the line in
 * err->line and why in err->reason) for anything else, ENG_ERR_LIMIT past
 * VIS_TRUTH_MAX_TAGS stickers. */
EngStatus vis_truth_read_text (const char *text, size_t len, VisTruth *out, int *width, int *height,
                               EngParseError *err);

/* ---- rendering --------------------------------------------------------- */

/* Makes a renderer for `scene`, which must outlive it.  `seed` overrides the
 * scene's seed when nonzero.  Returns ENG_ERR_STATE when the scene still
 * needs a card set (vis_scene_needs_card_set), ENG_ERR_NO_MEMORY.
 * Warm-up (textures, the table background) happens here and on the first
 * frames; after that rendering allocates nothing. */
EngStatus vis_renderer_new (const VisScene *scene, uint64_t seed, VisRenderer **out);
void vis_renderer_free (VisRenderer *renderer);

/* Renders the scene at time `t_s` (clamped to [0, duration]) into `out`,
 * which the caller owns: vis_scene_width x vis_scene_height, VIS_PIXEL_BGR8
 * or VIS_PIXEL_GRAY8, any stride.  `truth` (may be NULL) receives the ground
 * truth.  The result depends only on the scene, the seed and t_s (noise is
 * seeded per frame from the seed and t), so rendering is deterministic and
 * frames can be drawn in any order.  Returns ENG_ERR_INVALID_ARGUMENT when
 * `out` does not match the scene's size or has another format. */
EngStatus vis_renderer_render (VisRenderer *renderer, double t_s, VisImage *out,
                               VisTruth *truth);

/* Encodes the last rendered frame the way the scene asks (png or jpg, and
 * the scene's JPEG quality) into `path`; ENG_ERR_IO on failure. */
EngStatus vis_renderer_save_last (VisRenderer *renderer, const char *path);

#ifdef __cplusplus
}
#endif

/* vis-scene-private.h: the parsed scene, shared by the parser (vis-scene.c)
 * and the renderer (vis-render.cpp).  Not a public header. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "vis-render.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VIS_SCENE_MAX_OBJECTS 512
#define VIS_SCENE_MAX_EVENTS 4096
#define VIS_SCENE_ID_MAX 32
#define VIS_SCENE_TEXT_MAX 128
#define VIS_SCENE_TYPE_MAX 64
#define VIS_SCENE_MOTION_MAX 64   /* px of motion blur (one tap per pixel) */

typedef enum {
  VIS_OBJ_CARD,
  VIS_OBJ_ANCHOR,
  VIS_OBJ_SEAT,
  VIS_OBJ_FOREIGN,
  VIS_OBJ_COMMAND,        /* a command card held up: a lone sticker, like `foreign` */
} VisObjectKind;

/* Where a card's glare spot sits on its sticker's code. */
typedef enum {
  VIS_GLARE_NONE = 0,
  VIS_GLARE_FINDER_TL,    /* on a finder pattern (as the symbol is printed) */
  VIS_GLARE_FINDER_TR,
  VIS_GLARE_FINDER_BL,
  VIS_GLARE_DATA,         /* on data modules only, clear of finders and format */
  VIS_GLARE_AT,           /* centred at glare_mx, glare_my (modules of the symbol) */
} VisGlareSpot;

typedef struct {
  char id[VIS_SCENE_ID_MAX];
  VisObjectKind kind;
  unsigned number;        /* card: face serial (0 = by type); anchor/seat number */
  unsigned back;          /* card: deck number (0 = unknown yet) */
  unsigned other_side;    /* card: a two-sided card's other face serial (0: it has a back) */
  char type_id[VIS_SCENE_TYPE_MAX];  /* card by type, "" otherwise */
  unsigned copy;
  char text[VIS_SCENE_TEXT_MAX];     /* foreign payload */
  double x, y, rot;       /* initial pose */
  bool up;
  bool present;
  double size_mm;         /* sticker size; 0 = the scene's */
  double off_x, off_y;    /* sticker offset on the card */
  VisGlareSpot glare;     /* card: a specular highlight on its sticker */
  double glare_modules;   /* its saturated core's diameter, in modules */
  double glare_mx, glare_my;  /* VIS_GLARE_AT: its centre, symbol modules from the top-left */
  double motion_px;       /* card: smeared this long in the image (a slide) */
  double motion_angle;    /* its direction, image degrees (0 right, 90 down) */
  unsigned line;
} VisSceneObject;

typedef enum {
  VIS_EV_PLACE,
  VIS_EV_MOVE,
  VIS_EV_FLIP,
  VIS_EV_UP,
  VIS_EV_DOWN,
  VIS_EV_REMOVE,
  VIS_EV_CAMERA,
  VIS_EV_HAND,
  VIS_EV_DEGRADE,
} VisEventKind;

typedef struct {
  double height, tilt, yaw, roll;
  double fov, focal;      /* focal (px) wins when > 0 */
  double target_x, target_y;
  bool target_set;
  double dist[5];         /* k1 k2 p1 p2 k3 */
} VisCameraPose;

typedef struct {
  double light, light_angle, blur, noise;
  int jpeg;
  bool glare;             /* a highlight fixed on the table at glare_x/y (mm) */
  double glare_x, glare_y;
  double glare_mm;        /* its saturated core's diameter (mm) */
  double motion_px;       /* the whole frame smeared (camera shake), px */
  double motion_angle;    /* image degrees (0 right, 90 down) */
  double exposure;        /* s the shutter is open: sliding cards smear */
} VisDegrade;

/* Which optional fields an event sets. */
enum {
  VIS_EV_HAS_POS = 1 << 0,
  VIS_EV_HAS_ROT = 1 << 1,
  VIS_EV_HAS_UP = 1 << 2,
  VIS_EV_HAS_HEIGHT = 1 << 3,
  VIS_EV_HAS_TILT = 1 << 4,
  VIS_EV_HAS_YAW = 1 << 5,
  VIS_EV_HAS_ROLL = 1 << 6,
  VIS_EV_HAS_TARGET = 1 << 7,
  VIS_EV_HAS_FOV = 1 << 8,
  VIS_EV_HAS_LIGHT = 1 << 9,
  VIS_EV_HAS_BLUR = 1 << 10,
  VIS_EV_HAS_NOISE = 1 << 11,
  VIS_EV_HAS_JPEG = 1 << 12,
  VIS_EV_HAS_TO = 1 << 13,
  VIS_EV_HAS_LIGHT_ANGLE = 1 << 14,
  VIS_EV_HAS_GLARE = 1 << 15,
  VIS_EV_HAS_GLARE_SIZE = 1 << 16,
  VIS_EV_HAS_MOTION = 1 << 17,
  VIS_EV_HAS_MOTION_ANGLE = 1 << 18,
  VIS_EV_HAS_EXPOSURE = 1 << 19,
};

typedef struct {
  double t;
  VisEventKind kind;
  int object;             /* index, or -1 */
  unsigned has;
  double x, y, rot;       /* place at= / move to= / hand from= */
  double x2, y2;          /* hand to= */
  double over;            /* move/camera: seconds; hand: for= */
  bool up;
  double size, arm;       /* hand */
  VisCameraPose camera;   /* fields per `has` */
  VisDegrade degrade;     /* fields per `has` */
  unsigned line;
  unsigned order;         /* file order, for a stable sort */
} VisSceneEvent;

struct VisScene {
  char source[256];
  int width, height;
  double fps, duration;
  uint64_t seed;
  char format[4];         /* "png" / "jpg" */
  VisCameraPose camera;
  double table_w, table_h;
  uint8_t table_rgb[3];
  double grain;
  char game_letter;
  char set_id[3];
  char game[32];
  double sticker_mm;
  int quiet;              /* -1 = auto */
  double card_w, card_h;
  VisDegrade degrade;
  VisSceneObject *objects;
  unsigned n_objects;
  VisSceneEvent *events;  /* sorted by (t, order) */
  unsigned n_events;
  const EngPrinting *printing;  /* seals the stickers painted (borrowed); NULL: none */
};

/* The payload an object shows when face up (`up`) or down: a Tablero
 * object's 11-character tag (its identity, as the ground truth reports it;
 * vis_scene_sticker_text gives what its QR code holds), a foreign object's
 * text.  False when it cannot be formed (card set unresolved, field out of
 * range). */
bool vis_scene_object_payload (const VisScene *scene, const VisSceneObject *obj,
                               bool up, char *out, size_t out_len);
/* What the QR code of a Tablero object whose tag is `payload` holds: the
 * tag and its seal when the scene's printing has that sticker, the bare tag
 * (a sticker of the unsealed format 1, which readers refuse) otherwise.
 * `out` holds at least ENG_STICKER_TEXT_LEN + 1 bytes. */
void vis_scene_sticker_text (const VisScene *scene, const char *payload, char *out, size_t out_len);
/* Quiet zone (modules per side) of a sticker `sticker_mm` wide. */
int vis_scene_quiet_modules (const VisScene *scene, double sticker_mm);
/* Sticker size of an object in mm. */
double vis_scene_object_sticker_mm (const VisScene *scene, const VisSceneObject *obj);

#ifdef __cplusplus
}
#endif

/* vis-scene.c: the scene text format (docs/render-scene-format.md). */
#include "vis-scene-private.h"
#include "eng-data.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-game.h"
#include "eng-tag.h"
#include "vis-sticker.h"

#define LINE_MAX_LEN 4096
#define MAX_WORDS 32

typedef struct {
  char *key;     /* the whole word for flags */
  char *value;   /* NULL for flags */
} Word;

typedef struct {
  VisScene *scene;
  const char *source;
  unsigned line;
  EngParseError *err;
} Parser;

static EngStatus fail (Parser *p, EngStatus status, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

static EngStatus
fail (Parser *p, EngStatus status, const char *fmt, ...)
{
  char reason[256];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (reason, sizeof reason, fmt, ap);
  va_end (ap);
  eng_parse_error_set (p->err, p->source, p->line, "%s", reason);
  return status;
}

/* Splits `line` in place into words; `"..."` values keep their spaces; a
 * word starting with `#` (outside quotes) begins a comment, so `colour=#2d5a3c`
 * is a value, not a comment. */
static EngStatus
split_words (Parser *p, char *line, Word *words, unsigned *n_words)
{
  unsigned n = 0;
  char *s = line;
  for (;;)
    {
      while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
      if (*s == '\0' || *s == '#')
        break;
      if (n == MAX_WORDS)
        return fail (p, ENG_ERR_SYNTAX, "too many words on one line (max 32)");
      Word *w = &words[n++];
      w->key = s;
      w->value = NULL;
      while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\r' && *s != '=')
        s++;
      if (*s == '=')
        {
          *s++ = '\0';
          if (*s == '"')
            {
              s++;
              w->value = s;
              while (*s != '\0' && *s != '"')
                s++;
              if (*s != '"')
                return fail (p, ENG_ERR_SYNTAX, "unterminated quoted value for '%s'", w->key);
              *s++ = '\0';
              if (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\r')
                return fail (p, ENG_ERR_SYNTAX, "text after closing quote of '%s'", w->key);
            }
          else
            {
              w->value = s;
              while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\r')
                s++;
            }
          if (*w->key == '\0')
            return fail (p, ENG_ERR_SYNTAX, "'=' without a key");
        }
      if (*s != '\0')
        *s++ = '\0';
    }
  *n_words = n;
  return ENG_OK;
}

static EngStatus
parse_double (Parser *p, const Word *w, double lo, double hi, double *out)
{
  if (w->value == NULL || *w->value == '\0')
    return fail (p, ENG_ERR_SYNTAX, "'%s' needs a value", w->key);
  char *end = NULL;
  errno = 0;
  double v = strtod (w->value, &end);
  if (end == w->value || *end != '\0' || errno != 0 || !isfinite (v))
    {
      char msg[200];
      snprintf (msg, sizeof msg, "'%.40s' is not a number for '%.40s'", w->value, w->key);
      return fail (p, ENG_ERR_SYNTAX, "%s", msg);
    }
  if (v < lo || v > hi)
    {
      char msg[200];
      snprintf (msg, sizeof msg, "'%.40s' out of range [%g, %g] for '%.40s'", w->value, lo, hi, w->key);
      return fail (p, ENG_ERR_SYNTAX, "%s", msg);
    }
  *out = v;
  return ENG_OK;
}

static EngStatus
parse_uint (Parser *p, const Word *w, unsigned lo, unsigned hi, unsigned *out)
{
  double v;
  EngStatus st = parse_double (p, w, lo, hi, &v);
  if (st != ENG_OK)
    return st;
  if (v != floor (v))
    return fail (p, ENG_ERR_SYNTAX, "'%s' must be a whole number", w->key);
  *out = (unsigned) v;
  return ENG_OK;
}

static EngStatus
parse_point (Parser *p, const Word *w, double *x, double *y)
{
  if (w->value == NULL)
    return fail (p, ENG_ERR_SYNTAX, "'%s' needs a value X,Y", w->key);
  const char *comma = strchr (w->value, ',');
  if (comma == NULL)
    return fail (p, ENG_ERR_SYNTAX, "'%s' needs a point X,Y (mm)", w->key);
  char buf[64];
  size_t n = (size_t) (comma - w->value);
  if (n >= sizeof buf)
    return fail (p, ENG_ERR_SYNTAX, "'%s' value too long", w->key);
  memcpy (buf, w->value, n);
  buf[n] = '\0';
  Word wx = { w->key, buf }, wy = { w->key, (char *) comma + 1 };
  EngStatus st = parse_double (p, &wx, -1e6, 1e6, x);
  if (st == ENG_OK)
    st = parse_double (p, &wy, -1e6, 1e6, y);
  return st;
}

static EngStatus
parse_colour (Parser *p, const Word *w, uint8_t rgb[3])
{
  const char *v = w->value;
  if (v == NULL || v[0] != '#' || strlen (v) != 7)
    return fail (p, ENG_ERR_SYNTAX, "'%s' needs a colour #RRGGBB", w->key);
  for (int i = 1; i < 7; i++)
    if (!isxdigit ((unsigned char) v[i]))
      return fail (p, ENG_ERR_SYNTAX, "'%s' needs a colour #RRGGBB", w->key);
  unsigned long c = strtoul (v + 1, NULL, 16);
  rgb[0] = (uint8_t) (c >> 16);
  rgb[1] = (uint8_t) (c >> 8);
  rgb[2] = (uint8_t) c;
  return ENG_OK;
}

static EngStatus
unknown_key (Parser *p, const Word *w, const char *keyword)
{
  char msg[200];
  snprintf (msg, sizeof msg, "unknown %s '%.60s' for '%.30s'", w->value ? "key" : "flag",
            w->key, keyword);
  return fail (p, ENG_ERR_UNKNOWN_ATTRIBUTE, "%s", msg);
}

static bool
valid_id (const char *id)
{
  size_t n = strlen (id);
  if (n == 0 || n >= VIS_SCENE_ID_MAX)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!isalnum ((unsigned char) id[i]) && id[i] != '-' && id[i] != '_')
      return false;
  return true;
}

static int
find_object (const VisScene *s, const char *id)
{
  for (unsigned i = 0; i < s->n_objects; i++)
    if (strcmp (s->objects[i].id, id) == 0)
      return (int) i;
  return -1;
}

#define KEY(w, name) (strcmp ((w)->key, name) == 0 && (w)->value != NULL)
#define FLAG(w, name) (strcmp ((w)->key, name) == 0 && (w)->value == NULL)
#define TRY(expr) do { EngStatus st_ = (expr); if (st_ != ENG_OK) return st_; } while (0)

static EngStatus
parse_camera_words (Parser *p, Word *words, unsigned n, VisCameraPose *cam, unsigned *has,
                    double *over)
{
  for (unsigned i = 0; i < n; i++)
    {
      Word *w = &words[i];
      if (KEY (w, "height"))
        { TRY (parse_double (p, w, 50, 100000, &cam->height)); *has |= VIS_EV_HAS_HEIGHT; }
      else if (KEY (w, "tilt"))
        { TRY (parse_double (p, w, 0, 75, &cam->tilt)); *has |= VIS_EV_HAS_TILT; }
      else if (KEY (w, "yaw"))
        { TRY (parse_double (p, w, -360, 360, &cam->yaw)); *has |= VIS_EV_HAS_YAW; }
      else if (KEY (w, "roll"))
        { TRY (parse_double (p, w, -180, 180, &cam->roll)); *has |= VIS_EV_HAS_ROLL; }
      else if (KEY (w, "fov"))
        { TRY (parse_double (p, w, 5, 150, &cam->fov)); cam->focal = 0; *has |= VIS_EV_HAS_FOV; }
      else if (KEY (w, "focal") && over == NULL)
        TRY (parse_double (p, w, 10, 100000, &cam->focal));
      else if (KEY (w, "target"))
        {
          TRY (parse_point (p, w, &cam->target_x, &cam->target_y));
          cam->target_set = true;
          *has |= VIS_EV_HAS_TARGET;
        }
      else if (over == NULL && (KEY (w, "k1") || KEY (w, "k2") || KEY (w, "p1")
                                || KEY (w, "p2") || KEY (w, "k3")))
        {
          static const char *const names[5] = { "k1", "k2", "p1", "p2", "k3" };
          for (int k = 0; k < 5; k++)
            if (strcmp (w->key, names[k]) == 0)
              TRY (parse_double (p, w, -10, 10, &cam->dist[k]));
        }
      else if (over != NULL && KEY (w, "over"))
        TRY (parse_double (p, w, 0, 1e5, over));
      else
        return unknown_key (p, w, "camera");
    }
  return ENG_OK;
}

static EngStatus
parse_degrade_words (Parser *p, Word *words, unsigned n, VisDegrade *d, unsigned *has)
{
  for (unsigned i = 0; i < n; i++)
    {
      Word *w = &words[i];
      unsigned q;
      if (KEY (w, "light"))
        { TRY (parse_double (p, w, 0, 1, &d->light)); *has |= VIS_EV_HAS_LIGHT; }
      else if (KEY (w, "light-angle"))
        { TRY (parse_double (p, w, -360, 360, &d->light_angle)); *has |= VIS_EV_HAS_LIGHT_ANGLE; }
      else if (KEY (w, "blur"))
        { TRY (parse_double (p, w, 0, 20, &d->blur)); *has |= VIS_EV_HAS_BLUR; }
      else if (KEY (w, "noise"))
        { TRY (parse_double (p, w, 0, 60, &d->noise)); *has |= VIS_EV_HAS_NOISE; }
      else if (KEY (w, "jpeg"))
        { TRY (parse_uint (p, w, 0, 100, &q)); d->jpeg = (int) q; *has |= VIS_EV_HAS_JPEG; }
      else if (KEY (w, "glare") && strcmp (w->value, "off") == 0)
        { d->glare = false; *has |= VIS_EV_HAS_GLARE; }
      else if (KEY (w, "glare"))
        {
          TRY (parse_point (p, w, &d->glare_x, &d->glare_y));
          d->glare = true;
          *has |= VIS_EV_HAS_GLARE;
        }
      else if (KEY (w, "glare-size"))
        { TRY (parse_double (p, w, 0.5, 1000, &d->glare_mm)); *has |= VIS_EV_HAS_GLARE_SIZE; }
      else if (KEY (w, "motion"))
        { TRY (parse_double (p, w, 0, VIS_SCENE_MOTION_MAX, &d->motion_px)); *has |= VIS_EV_HAS_MOTION; }
      else if (KEY (w, "motion-angle"))
        { TRY (parse_double (p, w, -360, 360, &d->motion_angle)); *has |= VIS_EV_HAS_MOTION_ANGLE; }
      else if (KEY (w, "exposure"))
        { TRY (parse_double (p, w, 0, 1, &d->exposure)); *has |= VIS_EV_HAS_EXPOSURE; }
      else
        return unknown_key (p, w, "degrade");
    }
  return ENG_OK;
}

static EngStatus
parse_glare_spot (Parser *p, const Word *w, VisSceneObject *o)
{
  VisGlareSpot *out = &o->glare;
  if (strchr (w->value, ',') != NULL)
    {
      /* a spot anywhere: its centre in modules of the symbol (the quiet
       * zone around it from -4 to 25) */
      char *end = NULL;
      double mx = strtod (w->value, &end), my = NAN;
      if (end != NULL && *end == ',')
        my = strtod (end + 1, &end);
      if (end == NULL || *end != '\0' || !(mx >= -4 && mx <= 25) || !(my >= -4 && my <= 25))
        return fail (p, ENG_ERR_SYNTAX, "glare=MX,MY takes modules of the symbol, -4 to 25, not '%.40s'",
                     w->value);
      o->glare_mx = mx;
      o->glare_my = my;
      *out = VIS_GLARE_AT;
      return ENG_OK;
    }
  static const struct { const char *name; VisGlareSpot spot; } spots[] = {
    { "none", VIS_GLARE_NONE }, { "finder-tl", VIS_GLARE_FINDER_TL },
    { "finder-tr", VIS_GLARE_FINDER_TR }, { "finder-bl", VIS_GLARE_FINDER_BL },
    { "data", VIS_GLARE_DATA },
  };
  for (size_t k = 0; k < sizeof spots / sizeof spots[0]; k++)
    if (strcmp (w->value, spots[k].name) == 0)
      {
        *out = spots[k].spot;
        return ENG_OK;
      }
  return fail (p, ENG_ERR_SYNTAX,
               "glare= is finder-tl, finder-tr, finder-bl, data, none or MX,MY, not '%.40s'", w->value);
}

static EngStatus
parse_object (Parser *p, VisObjectKind kind, const char *keyword, Word *words, unsigned n)
{
  VisScene *s = p->scene;
  if (n < 1 || words[0].value != NULL)
    return fail (p, ENG_ERR_SYNTAX, "'%s' needs an id first", keyword);
  if (!valid_id (words[0].key))
    return fail (p, ENG_ERR_SYNTAX, "bad id '%.40s' (letters, digits, '-', '_'; max 31)", words[0].key);
  if (find_object (s, words[0].key) >= 0)
    return fail (p, ENG_ERR_DUPLICATE_ID, "id '%s' is already used", words[0].key);
  if (s->n_objects == VIS_SCENE_MAX_OBJECTS)
    return fail (p, ENG_ERR_LIMIT, "too many objects (max 512)");
  VisSceneObject o;
  memset (&o, 0, sizeof o);
  snprintf (o.id, sizeof o.id, "%s", words[0].key);
  o.kind = kind;
  o.up = true;
  o.present = true;
  o.glare_modules = 4;
  o.line = p->line;
  bool have_pos = false, have_ident = false;
  for (unsigned i = 1; i < n; i++)
    {
      Word *w = &words[i];
      if (KEY (w, "at"))
        { TRY (parse_point (p, w, &o.x, &o.y)); have_pos = true; }
      else if (KEY (w, "rot"))
        TRY (parse_double (p, w, -3600, 3600, &o.rot));
      else if (KEY (w, "size"))
        TRY (parse_double (p, w, 5, 500, &o.size_mm));
      else if ((kind == VIS_OBJ_ANCHOR || kind == VIS_OBJ_SEAT || kind == VIS_OBJ_COMMAND)
               && KEY (w, "number"))
        { TRY (parse_uint (p, w, 1, 999, &o.number)); have_ident = true; }
      else if (kind == VIS_OBJ_CARD && KEY (w, "face"))
        { TRY (parse_uint (p, w, 1, 999, &o.number)); have_ident = true; }
      else if (kind == VIS_OBJ_CARD && KEY (w, "back"))
        TRY (parse_uint (p, w, 1, 999, &o.back));
      else if (kind == VIS_OBJ_CARD && KEY (w, "other"))
        TRY (parse_uint (p, w, 1, 999, &o.other_side));
      else if (kind == VIS_OBJ_CARD && KEY (w, "type"))
        {
          if (strlen (w->value) == 0 || strlen (w->value) >= VIS_SCENE_TYPE_MAX)
            return fail (p, ENG_ERR_SYNTAX, "bad card type '%.60s'", w->value);
          snprintf (o.type_id, sizeof o.type_id, "%s", w->value);
          have_ident = true;
        }
      else if (kind == VIS_OBJ_CARD && KEY (w, "copy"))
        TRY (parse_uint (p, w, 1, 999, &o.copy));
      else if (kind == VIS_OBJ_CARD && KEY (w, "sticker-offset"))
        TRY (parse_point (p, w, &o.off_x, &o.off_y));
      else if (kind == VIS_OBJ_CARD && KEY (w, "glare"))
        TRY (parse_glare_spot (p, w, &o));
      else if (kind == VIS_OBJ_CARD && KEY (w, "glare-size"))
        TRY (parse_double (p, w, 0.5, 40, &o.glare_modules));
      else if (kind == VIS_OBJ_CARD && KEY (w, "motion"))
        TRY (parse_double (p, w, 0, VIS_SCENE_MOTION_MAX, &o.motion_px));
      else if (kind == VIS_OBJ_CARD && KEY (w, "motion-angle"))
        TRY (parse_double (p, w, -360, 360, &o.motion_angle));
      else if (kind == VIS_OBJ_CARD && FLAG (w, "up"))
        o.up = true;
      else if (kind == VIS_OBJ_CARD && FLAG (w, "down"))
        o.up = false;
      else if (kind == VIS_OBJ_CARD && FLAG (w, "absent"))
        o.present = false;
      else if (kind == VIS_OBJ_FOREIGN && KEY (w, "text"))
        {
          size_t len = strlen (w->value);
          if (len == 0 || len >= VIS_SCENE_TEXT_MAX)
            return fail (p, ENG_ERR_SYNTAX, "foreign text must be 1-127 bytes");
          memcpy (o.text, w->value, len + 1);
          have_ident = true;
        }
      else
        return unknown_key (p, w, keyword);
    }
  if (!have_pos)
    return fail (p, ENG_ERR_SYNTAX, "'%s' needs at=X,Y", keyword);
  if (!have_ident)
    return fail (p, ENG_ERR_SYNTAX, "'%s' needs %s", keyword,
                 kind == VIS_OBJ_CARD ? "face=SERIAL or type=TYPE"
                 : kind == VIS_OBJ_FOREIGN ? "text=\"...\"" : "number=N");
  if (o.number != 0 && o.type_id[0] != '\0')
    return fail (p, ENG_ERR_SYNTAX, "give face= or type=, not both");
  if (o.type_id[0] != '\0' && o.copy == 0)
    o.copy = 1;
  s->objects[s->n_objects++] = o;
  return ENG_OK;
}

/* ---- events (`at T ACTION ...`): one reader per action ---- */

typedef EngStatus (*EventFn) (Parser *p, VisSceneEvent *e, const char *action, Word *rest,
                              unsigned nrest);

/* place|move|flip|up|down|remove OBJECT [key=value...] */
static EngStatus
event_object (Parser *p, VisSceneEvent *e, const char *action, Word *rest, unsigned nrest)
{
  VisScene *s = p->scene;
  if (nrest < 1 || rest[0].value != NULL)
    return fail (p, ENG_ERR_SYNTAX, "'%s' needs an object id", action);
  e->object = find_object (s, rest[0].key);
  if (e->object < 0)
    return fail (p, ENG_ERR_NOT_FOUND, "unknown object '%.60s' (declare it before its events)",
                 rest[0].key);
  e->over = e->kind == VIS_EV_MOVE ? 0.3 : 0;
  for (unsigned i = 1; i < nrest; i++)
    {
      Word *w = &rest[i];
      if (e->kind == VIS_EV_PLACE && KEY (w, "at"))
        { TRY (parse_point (p, w, &e->x, &e->y)); e->has |= VIS_EV_HAS_POS; }
      else if (e->kind == VIS_EV_MOVE && KEY (w, "to"))
        { TRY (parse_point (p, w, &e->x, &e->y)); e->has |= VIS_EV_HAS_POS; }
      else if ((e->kind == VIS_EV_PLACE || e->kind == VIS_EV_MOVE) && KEY (w, "rot"))
        { TRY (parse_double (p, w, -3600, 3600, &e->rot)); e->has |= VIS_EV_HAS_ROT; }
      else if (e->kind == VIS_EV_MOVE && KEY (w, "over"))
        TRY (parse_double (p, w, 0, 1e5, &e->over));
      else if (e->kind == VIS_EV_PLACE && (FLAG (w, "up") || FLAG (w, "down")))
        { e->up = FLAG (w, "up"); e->has |= VIS_EV_HAS_UP; }
      else
        return unknown_key (p, w, action);
    }
  if (e->kind == VIS_EV_MOVE && !(e->has & VIS_EV_HAS_POS))
    return fail (p, ENG_ERR_SYNTAX, "'move' needs to=X,Y");
  if (e->kind != VIS_EV_PLACE && e->kind != VIS_EV_MOVE && e->kind != VIS_EV_REMOVE
      && s->objects[e->object].kind != VIS_OBJ_CARD)
    return fail (p, ENG_ERR_SYNTAX, "only cards can be turned over ('%s')", rest[0].key);
  return ENG_OK;
}

static EngStatus
event_camera (Parser *p, VisSceneEvent *e, const char *action, Word *rest, unsigned nrest)
{
  (void) action;
  return parse_camera_words (p, rest, nrest, &e->camera, &e->has, &e->over);
}

static EngStatus
event_degrade (Parser *p, VisSceneEvent *e, const char *action, Word *rest, unsigned nrest)
{
  (void) action;
  return parse_degrade_words (p, rest, nrest, &e->degrade, &e->has);
}

/* hand from=X,Y for=SECONDS [to=X,Y] [size=MM] [arm=DEG] */
static EngStatus
event_hand (Parser *p, VisSceneEvent *e, const char *action, Word *rest, unsigned nrest)
{
  e->size = 180;
  e->arm = 90;
  bool have_from = false, have_for = false;
  for (unsigned i = 0; i < nrest; i++)
    {
      Word *w = &rest[i];
      if (KEY (w, "from"))
        { TRY (parse_point (p, w, &e->x, &e->y)); have_from = true; }
      else if (KEY (w, "to"))
        { TRY (parse_point (p, w, &e->x2, &e->y2)); e->has |= VIS_EV_HAS_TO; }
      else if (KEY (w, "for"))
        { TRY (parse_double (p, w, 0.001, 1e5, &e->over)); have_for = true; }
      else if (KEY (w, "size"))
        TRY (parse_double (p, w, 20, 1000, &e->size));
      else if (KEY (w, "arm"))
        TRY (parse_double (p, w, -360, 360, &e->arm));
      else
        return unknown_key (p, w, action);
    }
  if (!have_from || !have_for)
    return fail (p, ENG_ERR_SYNTAX, "'hand' needs from=X,Y and for=SECONDS");
  if (!(e->has & VIS_EV_HAS_TO))
    {
      e->x2 = e->x;
      e->y2 = e->y;
    }
  return ENG_OK;
}

static const struct {
  const char *name;
  VisEventKind kind;
  EventFn parse;
} event_actions[] = {
  { "place", VIS_EV_PLACE, event_object }, { "move", VIS_EV_MOVE, event_object },
  { "flip", VIS_EV_FLIP, event_object }, { "up", VIS_EV_UP, event_object },
  { "down", VIS_EV_DOWN, event_object }, { "remove", VIS_EV_REMOVE, event_object },
  { "camera", VIS_EV_CAMERA, event_camera }, { "degrade", VIS_EV_DEGRADE, event_degrade },
  { "hand", VIS_EV_HAND, event_hand },
};

static EngStatus
parse_event (Parser *p, Word *words, unsigned n)
{
  VisScene *s = p->scene;
  if (n < 2 || words[0].value != NULL || words[1].value != NULL)
    return fail (p, ENG_ERR_SYNTAX, "'at' needs a time and an action: at T ACTION ...");
  if (s->n_events == VIS_SCENE_MAX_EVENTS)
    return fail (p, ENG_ERR_LIMIT, "too many events (max 4096)");
  VisSceneEvent e;
  memset (&e, 0, sizeof e);
  Word tw = { "at", words[0].key };
  TRY (parse_double (p, &tw, 0, 1e6, &e.t));
  e.line = p->line;
  e.order = s->n_events;
  e.object = -1;
  const char *action = words[1].key;
  for (size_t k = 0; k < sizeof event_actions / sizeof event_actions[0]; k++)
    if (strcmp (action, event_actions[k].name) == 0)
      {
        e.kind = event_actions[k].kind;
        TRY (event_actions[k].parse (p, &e, action, words + 2, n - 2));
        s->events[s->n_events++] = e;
        return ENG_OK;
      }
  return fail (p, ENG_ERR_UNKNOWN_ATTRIBUTE, "unknown action '%.60s'", action);
}

/* ---- the header lines: one handler each ---- */

typedef struct SceneKeyword SceneKeyword;
typedef EngStatus (*SceneLineFn) (Parser *p, const SceneKeyword *k, Word *args, unsigned nargs);
/* A settings line's keys that are not plain numbers: false for a key not
 * its own, else true with *st. */
typedef bool (*SceneKeyFn) (Parser *p, Word *w, EngStatus *st);

/* A line's keyword; a count of words after it outside [min_args, max_args]
 * is refused with `usage`.  Objects' lines say which object they declare;
 * settings lines which of their keys are not plain numbers. */
struct SceneKeyword {
  const char *name;
  unsigned min_args, max_args;
  const char *usage;
  VisObjectKind object;
  SceneKeyFn own_keys;
  SceneLineFn parse;
};

/* The settings lines' plain numbers: the line, the key, its range and the
 * scene's field it sets. */
static const struct {
  const char *line, *key;
  double lo, hi;
  size_t offset;
} scene_numbers[] = {
  { "image", "fps", 0.1, 1000, offsetof (VisScene, fps) },
  { "image", "duration", 0, 1e5, offsetof (VisScene, duration) },
  { "table", "width", 50, 20000, offsetof (VisScene, table_w) },
  { "table", "height", 50, 20000, offsetof (VisScene, table_h) },
  { "table", "grain", 0, 1, offsetof (VisScene, grain) },
  { "sticker", "size", 5, 500, offsetof (VisScene, sticker_mm) },
  { "card-size", "width", 10, 1000, offsetof (VisScene, card_w) },
  { "card-size", "height", 10, 1000, offsetof (VisScene, card_h) },
};

/* key=value words of a settings line (image, table, tags, sticker,
 * card-size), each set as it is read. */
static EngStatus
parse_settings (Parser *p, const SceneKeyword *k, Word *args, unsigned nargs)
{
  for (unsigned i = 0; i < nargs; i++)
    {
      Word *w = &args[i];
      EngStatus st = ENG_OK;
      size_t n = 0;
      while (n < sizeof scene_numbers / sizeof scene_numbers[0]
             && !(strcmp (scene_numbers[n].line, k->name) == 0 && KEY (w, scene_numbers[n].key)))
        n++;
      if (n < sizeof scene_numbers / sizeof scene_numbers[0])
        st = parse_double (p, w, scene_numbers[n].lo, scene_numbers[n].hi,
                           (double *) ((char *) p->scene + scene_numbers[n].offset));
      else if (k->own_keys == NULL || !k->own_keys (p, w, &st))
        return unknown_key (p, w, k->name);
      TRY (st);
    }
  return ENG_OK;
}

static bool
image_key (Parser *p, Word *w, EngStatus *st)
{
  VisScene *s = p->scene;
  unsigned u;
  double d;
  if (KEY (w, "width") || KEY (w, "height"))
    {
      *st = parse_uint (p, w, 16, 8192, &u);
      if (*st == ENG_OK)
        *(w->key[0] == 'w' ? &s->width : &s->height) = (int) u;
    }
  else if (KEY (w, "seed"))
    {
      *st = parse_double (p, w, 0, 4294967295.0, &d);
      if (*st == ENG_OK)
        s->seed = (uint64_t) d;
    }
  else if (KEY (w, "format"))
    {
      if (strcmp (w->value, "png") != 0 && strcmp (w->value, "jpg") != 0)
        *st = fail (p, ENG_ERR_SYNTAX, "format must be png or jpg, not '%.40s'", w->value);
      else
        snprintf (s->format, sizeof s->format, "%s", w->value);
    }
  else
    return false;
  return true;
}

static EngStatus
parse_image (Parser *p, const SceneKeyword *k, Word *args, unsigned nargs)
{
  TRY (parse_settings (p, k, args, nargs));
  if (p->scene->duration * p->scene->fps > 1e6)
    return fail (p, ENG_ERR_LIMIT, "more than a million frames");
  return ENG_OK;
}

static bool
table_key (Parser *p, Word *w, EngStatus *st)
{
  if (!KEY (w, "colour") && !KEY (w, "color"))
    return false;
  *st = parse_colour (p, w, p->scene->table_rgb);
  return true;
}

static bool
tag_char (char c)
{
  return isdigit ((unsigned char) c) || isupper ((unsigned char) c);
}

static bool
tags_key (Parser *p, Word *w, EngStatus *st)
{
  VisScene *s = p->scene;
  if (KEY (w, "game"))
    {
      if (strlen (w->value) != 1 || !isupper ((unsigned char) w->value[0]))
        *st = fail (p, ENG_ERR_SYNTAX, "tags game= is one letter A-Z, not '%.40s'", w->value);
      else
        s->game_letter = w->value[0];
    }
  else if (KEY (w, "set"))
    {
      const char *v = w->value;
      if (strlen (v) != 2 || !tag_char (v[0]) || !tag_char (v[1]))
        *st = fail (p, ENG_ERR_SYNTAX, "tags set= is two characters [0-9A-Z], not '%.40s'", v);
      else
        memcpy (s->set_id, v, 3);
    }
  else
    return false;
  return true;
}

/* sticker quiet=auto|N */
static bool
sticker_key (Parser *p, Word *w, EngStatus *st)
{
  unsigned u;
  if (KEY (w, "quiet") && strcmp (w->value, "auto") == 0)
    p->scene->quiet = -1;
  else if (KEY (w, "quiet"))
    {
      *st = parse_uint (p, w, 0, 10, &u);
      if (*st == ENG_OK)
        p->scene->quiet = (int) u;
    }
  else
    return false;
  return true;
}

static EngStatus
parse_camera_line (Parser *p, const SceneKeyword *k, Word *args, unsigned nargs)
{
  unsigned has = 0;
  (void) k;
  return parse_camera_words (p, args, nargs, &p->scene->camera, &has, NULL);
}

static EngStatus
parse_game (Parser *p, const SceneKeyword *k, Word *args, unsigned nargs)
{
  VisScene *s = p->scene;
  (void) nargs;
  if (args[0].value != NULL || strlen (args[0].key) >= sizeof s->game)
    return fail (p, ENG_ERR_SYNTAX, "%s", k->usage);
  snprintf (s->game, sizeof s->game, "%s", args[0].key);
  return ENG_OK;
}

static EngStatus
parse_degrade_line (Parser *p, const SceneKeyword *k, Word *args, unsigned nargs)
{
  unsigned has = 0;
  (void) k;
  return parse_degrade_words (p, args, nargs, &p->scene->degrade, &has);
}

/* anchor, seat, card, foreign, command */
static EngStatus
parse_object_line (Parser *p, const SceneKeyword *k, Word *args, unsigned nargs)
{
  return parse_object (p, k->object, k->name, args, nargs);
}

static EngStatus
parse_event_line (Parser *p, const SceneKeyword *k, Word *args, unsigned nargs)
{
  (void) k;
  return parse_event (p, args, nargs);
}

#define ANY_ARGS 0, UINT_MAX, NULL

static const SceneKeyword scene_keywords[] = {
  { "image", ANY_ARGS, 0, image_key, parse_image },
  { "camera", ANY_ARGS, 0, NULL, parse_camera_line },
  { "table", ANY_ARGS, 0, table_key, parse_settings },
  { "tags", ANY_ARGS, 0, tags_key, parse_settings },
  { "game", 1, 1, "'game' needs one name, the game's short name", 0, NULL, parse_game },
  { "sticker", ANY_ARGS, 0, sticker_key, parse_settings },
  { "card-size", ANY_ARGS, 0, NULL, parse_settings },
  { "degrade", ANY_ARGS, 0, NULL, parse_degrade_line },
  { "anchor", ANY_ARGS, VIS_OBJ_ANCHOR, NULL, parse_object_line },
  { "seat", ANY_ARGS, VIS_OBJ_SEAT, NULL, parse_object_line },
  { "card", ANY_ARGS, VIS_OBJ_CARD, NULL, parse_object_line },
  { "foreign", ANY_ARGS, VIS_OBJ_FOREIGN, NULL, parse_object_line },
  { "command", ANY_ARGS, VIS_OBJ_COMMAND, NULL, parse_object_line },
  { "at", ANY_ARGS, 0, NULL, parse_event_line },
};

static EngStatus
parse_line (Parser *p, char *line)
{
  Word words[MAX_WORDS];
  unsigned n = 0;
  TRY (split_words (p, line, words, &n));
  if (n == 0)
    return ENG_OK;
  if (words[0].value != NULL)
    return fail (p, ENG_ERR_SYNTAX, "a line starts with a keyword, not '%s=...'", words[0].key);
  for (size_t i = 0; i < sizeof scene_keywords / sizeof scene_keywords[0]; i++)
    {
      const SceneKeyword *k = &scene_keywords[i];
      if (strcmp (words[0].key, k->name) != 0)
        continue;
      if (n - 1 < k->min_args || n - 1 > k->max_args)
        return fail (p, ENG_ERR_SYNTAX, "%s", k->usage);
      return k->parse (p, k, words + 1, n - 1);
    }
  return fail (p, ENG_ERR_UNKNOWN_ATTRIBUTE, "unknown keyword '%.60s'", words[0].key);
}

static int
compare_events (const void *a, const void *b)
{
  const VisSceneEvent *x = a, *y = b;
  if (x->t != y->t)
    return x->t < y->t ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static void
scene_defaults (VisScene *s)
{
  s->width = 1920;
  s->height = 1080;
  s->fps = 10;
  s->duration = 5;
  s->seed = 1;
  snprintf (s->format, sizeof s->format, "png");
  s->camera.height = 1000;
  s->camera.fov = 60;
  s->table_w = 1200;
  s->table_h = 800;
  s->table_rgb[0] = 0x2d;
  s->table_rgb[1] = 0x5a;
  s->table_rgb[2] = 0x3c;
  s->grain = 0.5;
  s->game_letter = 0;   /* not said: the game's set's (default_letter) */
  memcpy (s->set_id, "01", 3);
  s->sticker_mm = 40;
  s->quiet = -1;
  s->card_w = 63;
  s->card_h = 88;
  s->degrade.light_angle = 30;
  s->degrade.glare_mm = 10;
}

void
vis_scene_free (VisScene *scene)
{
  if (scene == NULL)
    return;
  free (scene->objects);
  free (scene->events);
  free (scene);
}

/* A scene that names no letter (`tags game=`) prints the letter of its
 * game's set: the `game` line's game, else the registry's first. */
static char
default_letter (const VisScene *s)
{
  const EngGameClass *k = s->game[0] ? eng_game_class_find (s->game) : eng_game_class_get (0);
  char rel[96], letter = 0;
  snprintf (rel, sizeof rel, "cards/%s.set", k != NULL ? k->name : s->game);
  char *path = eng_data_path (rel);
  EngCardSet *set = NULL;
  if (path != NULL && eng_card_set_load_file (path, &set, NULL) == ENG_OK)
    letter = eng_card_set_game_letter (set);
  eng_card_set_free (set);
  free (path);
  return letter;
}

EngStatus
vis_scene_parse (const char *text, size_t len, const char *source_name, VisScene **out,
                 EngParseError *err)
{
  if (out == NULL || (text == NULL && len > 0))
    return ENG_ERR_INVALID_ARGUMENT;
  *out = NULL;
  const char *source = source_name ? source_name : "<scene>";
  VisScene *s = calloc (1, sizeof *s);
  if (s == NULL)
    return ENG_ERR_NO_MEMORY;
  s->objects = calloc (VIS_SCENE_MAX_OBJECTS, sizeof *s->objects);
  s->events = calloc (VIS_SCENE_MAX_EVENTS, sizeof *s->events);
  if (s->objects == NULL || s->events == NULL)
    {
      vis_scene_free (s);
      return ENG_ERR_NO_MEMORY;
    }
  scene_defaults (s);
  snprintf (s->source, sizeof s->source, "%s", source);
  Parser p = { s, source, 0, err };
  char line[LINE_MAX_LEN + 1];
  size_t pos = 0;
  EngStatus st = ENG_OK;
  while (pos < len && st == ENG_OK)
    {
      p.line++;
      size_t end = pos;
      while (end < len && text[end] != '\n')
        end++;
      size_t n = end - pos;
      if (memchr (text + pos, '\0', n) != NULL)
        st = fail (&p, ENG_ERR_SYNTAX, "NUL byte in the text");
      else if (n > LINE_MAX_LEN)
        st = fail (&p, ENG_ERR_SYNTAX, "line longer than 4096 bytes");
      else
        {
          memcpy (line, text + pos, n);
          line[n] = '\0';
          st = parse_line (&p, line);
        }
      pos = end + 1;
    }
  if (st == ENG_OK)
    {
      const VisCameraPose *c = &s->camera;
      if (!c->target_set)
        {
          s->camera.target_x = s->table_w / 2;
          s->camera.target_y = s->table_h / 2;
        }
      (void) c;
      if (s->game_letter == 0 && (s->game_letter = default_letter (s)) == 0)
        {
          p.line = 0;
          st = fail (&p, ENG_ERR_INCONSISTENT, "the scene names no game letter (tags game=) and "
                     "its game's card set cannot be read");
        }
      else if (s->sticker_mm > s->card_w || s->sticker_mm > s->card_h)
        {
          p.line = 0;
          st = fail (&p, ENG_ERR_INCONSISTENT, "the sticker is larger than the card");
        }
    }
  if (st != ENG_OK)
    {
      vis_scene_free (s);
      return st;
    }
  qsort (s->events, s->n_events, sizeof *s->events, compare_events);
  *out = s;
  return ENG_OK;
}

EngStatus
vis_scene_load_file (const char *path, VisScene **out, EngParseError *err)
{
  if (out == NULL || path == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  *out = NULL;
  char *text = NULL;
  size_t len = 0;
  EngStatus st = eng_read_text_file (path, 64u << 20, &text, &len, err);
  if (st != ENG_OK)
    return st;
  st = vis_scene_parse (text, len, path, out, err);
  free (text);
  return st;
}

bool
vis_scene_needs_card_set (const VisScene *scene)
{
  for (unsigned i = 0; i < scene->n_objects; i++)
    {
      const VisSceneObject *o = &scene->objects[i];
      if (o->kind == VIS_OBJ_CARD && (o->number == 0 || o->back == 0))
        return true;
    }
  return false;
}

const char *
vis_scene_game (const VisScene *scene)
{
  return scene->game[0] ? scene->game : NULL;
}

EngStatus
vis_scene_resolve (VisScene *scene, const EngCardSet *set, EngParseError *err)
{
  if (scene == NULL || set == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (eng_card_set_game_letter (set) != scene->game_letter
      || strcmp (eng_card_set_id (set), scene->set_id) != 0)
    {
      eng_parse_error_set (err, scene->source, 0,
                           "the scene's tags (game %c, set %s) are not this card set's (%c, %s)",
                           scene->game_letter, scene->set_id, eng_card_set_game_letter (set),
                           eng_card_set_id (set));
      return ENG_ERR_INCONSISTENT;
    }
  for (unsigned i = 0; i < scene->n_objects; i++)
    {
      VisSceneObject *o = &scene->objects[i];
      if (o->kind != VIS_OBJ_CARD)
        continue;
      const EngCard *card = NULL;
      if (o->number == 0)
        {
          for (size_t k = 0; k < eng_card_set_n_cards (set) && card == NULL; k++)
            {
              const EngCard *c = eng_card_set_card (set, k);
              if (strcmp (c->type_id, o->type_id) == 0 && c->copy == o->copy)
                card = c;
            }
          if (card == NULL)
            {
              eng_parse_error_set (err, scene->source, o->line,
                                   "the card set has no card type '%s' copy %u", o->type_id, o->copy);
              return ENG_ERR_NOT_FOUND;
            }
          o->number = card->serial;
        }
      else
        card = eng_card_set_find_serial (set, (uint16_t) o->number);
      if (card == NULL)
        {
          eng_parse_error_set (err, scene->source, o->line,
                               "the card set has no card with serial %u", o->number);
          return ENG_ERR_NOT_FOUND;
        }
      if (o->back == 0)
        o->back = (unsigned) card->deck + 1;   /* decks are numbered from 1 on backs */
      /* a two-sided card turned over shows its other face, not a back */
      o->other_side = eng_card_set_other_side (set, card->serial);
    }
  return ENG_OK;
}

int vis_scene_width (const VisScene *s) { return s->width; }
int vis_scene_height (const VisScene *s) { return s->height; }
double vis_scene_fps (const VisScene *s) { return s->fps; }
double vis_scene_duration (const VisScene *s) { return s->duration; }
uint64_t vis_scene_seed (const VisScene *s) { return s->seed; }
const char *vis_scene_file_format (const VisScene *s) { return s->format; }

unsigned
vis_scene_n_frames (const VisScene *s)
{
  double n = ceil (s->duration * s->fps - 1e-9);
  return n < 1 ? 1 : (unsigned) n;
}

int
vis_scene_quiet_modules (const VisScene *scene, double sticker_mm)
{
  if (scene->quiet >= 0)
    return scene->quiet;
  /* The printed stickers' rule, so rendered and printed stickers agree. */
  return sticker_mm >= VIS_STICKER_WIDE_QUIET_MM ? 4 : 2;
}

double
vis_scene_object_sticker_mm (const VisScene *scene, const VisSceneObject *obj)
{
  return obj->size_mm > 0 ? obj->size_mm : scene->sticker_mm;
}

char
vis_scene_game_letter (const VisScene *scene)
{
  return scene->game_letter;
}

const char *
vis_scene_set_id (const VisScene *scene)
{
  return scene->set_id;
}

void
vis_scene_set_printing (VisScene *scene, const EngPrinting *printing)
{
  if (scene != NULL)
    scene->printing = printing;
}

void
vis_scene_sticker_text (const VisScene *scene, const char *payload, char *out, size_t out_len)
{
  EngTag tag;
  char sealed[ENG_STICKER_TEXT_LEN + 1];
  if (scene->printing != NULL && eng_tag_parse (payload, strlen (payload), &tag) == ENG_OK
      && eng_printing_sticker_text (scene->printing, &tag, sealed) == ENG_OK)
    snprintf (out, out_len, "%s", sealed);
  else
    snprintf (out, out_len, "%s", payload);
}

bool
vis_scene_object_payload (const VisScene *scene, const VisSceneObject *obj, bool up,
                          char *out, size_t out_len)
{
  if (obj->kind == VIS_OBJ_FOREIGN)
    {
      if (strlen (obj->text) >= out_len)
        return false;
      snprintf (out, out_len, "%s", obj->text);
      return true;
    }
  EngTag tag;
  memset (&tag, 0, sizeof tag);
  tag.game = scene->game_letter;
  memcpy (tag.set, scene->set_id, 3);
  switch (obj->kind)
    {
    case VIS_OBJ_ANCHOR:
      tag.kind = ENG_TAG_ANCHOR;
      tag.serial = (uint16_t) obj->number;
      break;
    case VIS_OBJ_SEAT:
      tag.kind = ENG_TAG_SEAT;
      tag.serial = (uint16_t) obj->number;
      break;
    case VIS_OBJ_COMMAND:
      tag.kind = ENG_TAG_COMMAND;
      tag.serial = (uint16_t) obj->number;
      break;
    case VIS_OBJ_CARD:
      tag.kind = up || obj->other_side != 0 ? ENG_TAG_FACE : ENG_TAG_BACK;
      tag.serial = (uint16_t) (up ? obj->number : obj->other_side != 0 ? obj->other_side
                                                                         : obj->back);
      break;
    default:
      return false;
    }
  if (tag.serial == 0 || out_len < ENG_TAG_PAYLOAD_LEN + 1)
    return false;
  return eng_tag_format (&tag, out) == ENG_OK;
}

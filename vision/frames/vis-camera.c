/* vis-camera.c: camera modes and controls as data (vis-camera.h).
 *
 * Everything here is pure: no device, no allocation, no locale (numbers
 * are read with a point whatever LC_NUMERIC says, as v4l2-ctl writes
 * them). */
#include "vis-camera.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define MAX_SIDE 16384          /* as VIS_IMAGE_MAX_SIDE: no camera streams more */
#define MAX_FPS 1000.0
#define LINE_MAX_CHARS 512

/* ---- small helpers -------------------------------------------------------- */

static void
say (char *why, size_t size, const char *fmt, ...) __attribute__ ((format (printf, 3, 4)));

static void
say (char *why, size_t size, const char *fmt, ...)
{
  if (why == NULL || size == 0)
    return;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (why, size, fmt, ap);
  va_end (ap);
  /* what is quoted from a file stays one printable line */
  for (char *p = why; *p; p++)
    if ((unsigned char) *p < 0x20 || (unsigned char) *p == 0x7f)
      *p = '?';
}

void
vis_camera_notes_add (char *notes, size_t size, const char *line)
{
  if (notes == NULL || size == 0 || line == NULL || *line == '\0')
    return;
  size_t used = strnlen (notes, size - 1);
  snprintf (notes + used, size - used, "%s%s", used > 0 ? "\n" : "", line);
}

static void
note (VisCameraPlan *plan, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

static void
note (VisCameraPlan *plan, const char *fmt, ...)
{
  char line[256];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (line, sizeof line, fmt, ap);
  va_end (ap);
  vis_camera_notes_add (plan->notes, sizeof plan->notes, line);
}

static bool
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static bool
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

static const char *
skip_spaces (const char *s)
{
  while (is_space (*s))
    s++;
  return s;
}

/* `s` starts with `prefix`: returns what follows, else NULL. */
static const char *
after (const char *s, const char *prefix)
{
  size_t n = strlen (prefix);
  return strncmp (s, prefix, n) == 0 ? s + n : NULL;
}

/* "Key   : value": returns the value (spaces skipped) when `s` is `key`
 * followed by spaces and a colon, else NULL. */
static const char *
after_key (const char *s, const char *key)
{
  const char *p = after (s, key);
  if (p == NULL)
    return NULL;
  p = skip_spaces (p);
  return *p == ':' ? skip_spaces (p + 1) : NULL;
}

/* A whole number with an optional sign (or 0x hex), no overflow. */
static bool
read_long (const char **p, long long *out)
{
  const char *s = *p;
  bool neg = false;
  if (*s == '-' || *s == '+')
    neg = *s++ == '-';
  long long v = 0;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    {
      s += 2;
      const char *start = s;
      for (;; s++)
        {
          int d = is_digit (*s) ? *s - '0' : (*s >= 'a' && *s <= 'f') ? *s - 'a' + 10
                  : (*s >= 'A' && *s <= 'F') ? *s - 'A' + 10 : -1;
          if (d < 0)
            break;
          if (v > (0x7fffffffffffffffLL - d) / 16)
            return false;
          v = v * 16 + d;
        }
      if (s == start)
        return false;
    }
  else
    {
      const char *start = s;
      for (; is_digit (*s); s++)
        {
          if (v > (0x7fffffffffffffffLL - (*s - '0')) / 10)
            return false;
          v = v * 10 + (*s - '0');
        }
      if (s == start)
        return false;
    }
  *out = neg ? -v : v;
  *p = s;
  return true;
}

/* A non-negative decimal ("30", "0.033", "29.970"), point only. */
static bool
read_decimal (const char **p, double *out)
{
  const char *s = *p;
  double v = 0;
  int digits = 0;
  for (; is_digit (*s); s++, digits++)
    if (digits < 12)
      v = v * 10 + (*s - '0');
    else
      return false;
  if (*s == '.')
    {
      double scale = 0.1;
      for (s++; is_digit (*s); s++, digits++, scale /= 10)
        if (scale > 1e-12)
          v += (*s - '0') * scale;
    }
  if (digits == 0)
    return false;
  *out = v;
  *p = s;
  return true;
}

/* "1920x1080" */
static bool
read_size (const char **p, int *w, int *h)
{
  long long a, b;
  const char *s = *p;
  if (*s == '-' || *s == '+' || !read_long (&s, &a) || *s != 'x')
    return false;
  s++;
  if (*s == '-' || *s == '+' || !read_long (&s, &b))
    return false;
  if (a < 1 || a > MAX_SIDE || b < 1 || b > MAX_SIDE)
    return false;
  *w = (int) a;
  *h = (int) b;
  *p = s;
  return true;
}

/* Copies the next line of `text` into `line`; false at the end.  *too_long
 * when it did not fit (the rest of it is skipped). */
static bool
next_line (const char *text, size_t len, size_t *pos, char *line, size_t size, bool *too_long)
{
  if (*pos >= len)
    return false;
  size_t end = *pos;
  while (end < len && text[end] != '\n')
    end++;
  size_t n = end - *pos;
  *too_long = n >= size;
  if (n >= size)
    n = size - 1;
  memcpy (line, text + *pos, n);
  line[n] = '\0';
  *too_long = *too_long || memchr (line, '\0', n) != NULL;   /* a NUL inside: not text */
  *pos = end + 1;
  return true;
}

/* Trims spaces at both ends, in place. */
static char *
trim (char *s)
{
  s = (char *) skip_spaces (s);
  size_t n = strlen (s);
  while (n > 0 && is_space (s[n - 1]))
    s[--n] = '\0';
  return s;
}

/* ---- modes ------------------------------------------------------------------ */

bool
vis_camera_modes_add (VisCameraModes *modes, const VisCameraMode *mode)
{
  if (modes->n >= VIS_CAMERA_MODES_MAX)
    {
      modes->truncated = true;
      return false;
    }
  modes->modes[modes->n++] = *mode;
  return true;
}

bool
vis_camera_fourcc_supported (uint32_t fourcc)
{
  return fourcc == VIS_FOURCC_MJPEG || fourcc == VIS_FOURCC_JPEG || fourcc == VIS_FOURCC_YUYV
         || fourcc == VIS_FOURCC_NV12;
}

const char *
vis_fourcc_name (uint32_t fourcc, char buf[5])
{
  for (int i = 0; i < 4; i++)
    {
      char c = (char) ((fourcc >> (8 * i)) & 0xff);
      buf[i] = c >= 0x20 && c < 0x7f ? c : '?';
    }
  buf[4] = '\0';
  return buf;
}

/* Uncompressed first: no artefacts, no decoding. */
static int
format_rank (uint32_t fourcc)
{
  return fourcc == VIS_FOURCC_NV12 ? 0 : fourcc == VIS_FOURCC_YUYV ? 1
         : fourcc == VIS_FOURCC_MJPEG ? 2 : 3;
}

/* `want` clamped to [lo, hi] and rounded to lo + k * step. */
static int
snap (int want, int lo, int hi, int step)
{
  if (step < 1)
    step = 1;
  if (hi < lo)
    hi = lo;
  long long v = want < lo ? lo : want > hi ? hi : want;
  long long k = (v - lo + step / 2) / step;
  long long r = lo + k * step;
  while (r > hi)
    r -= step;
  return (int) (r < lo ? lo : r);
}

static void
mode_size (const VisCameraMode *m, int want_w, int want_h, int *w, int *h)
{
  if (m->min_width > 0 && m->min_height > 0)
    {
      *w = snap (want_w, m->min_width, m->width, m->step_width);
      *h = snap (want_h, m->min_height, m->height, m->step_height);
    }
  else
    {
      *w = m->width;
      *h = m->height;
    }
}

static double
mode_rate (const VisCameraMode *m, double want)
{
  if (m->fps <= 0)
    return want;   /* not said: taken as able to */
  if (m->min_fps > 0 && m->min_fps < m->fps)
    return want < m->min_fps ? m->min_fps : want > m->fps ? m->fps : want;
  return m->fps;
}

/* 0 for the wanted size, else how far off each side is, on a log scale
 * (twice as wide counts as much as half as wide). */
static double
size_distance (int w, int h, int want_w, int want_h)
{
  if (w == want_w && h == want_h)
    return 0;
  return fabs (log ((double) w / want_w)) + fabs (log ((double) h / want_h));
}

typedef struct {
  double enough;       /* min (fps, floor): higher is better */
  double distance;     /* lower */
  double rate_off;     /* lower */
  int rank;            /* lower */
} Score;

static bool
better (const Score *a, const Score *b)
{
  if (fabs (a->enough - b->enough) > 0.01)
    return a->enough > b->enough;
  if (fabs (a->distance - b->distance) > 1e-9)
    return a->distance < b->distance;
  if (fabs (a->rate_off - b->rate_off) > 0.01)
    return a->rate_off < b->rate_off;
  return a->rank < b->rank;
}

bool
vis_camera_choose_mode (const VisCameraModes *modes, int width, int height, double fps,
                        VisCameraChoice *out, char *why, size_t why_size)
{
  int want_w = width > 0 ? width : 1920, want_h = height > 0 ? height : 1080;
  double want_fps = fps > 0 ? fps : 30;
  double floor_fps = want_fps < VIS_CAMERA_MIN_GOOD_FPS ? want_fps : VIS_CAMERA_MIN_GOOD_FPS;
  bool found = false;
  Score best = { 0 };
  for (unsigned i = 0; modes != NULL && i < modes->n; i++)
    {
      const VisCameraMode *m = &modes->modes[i];
      if (!vis_camera_fourcc_supported (m->fourcc))
        continue;
      int w, h;
      mode_size (m, want_w, want_h, &w, &h);
      double f = mode_rate (m, want_fps);
      Score s = { f < floor_fps ? f : floor_fps, size_distance (w, h, want_w, want_h),
                  fabs (f - want_fps), format_rank (m->fourcc) };
      if (!found || better (&s, &best))
        {
          found = true;
          best = s;
          *out = (VisCameraChoice) { m->fourcc, w, h, f };
        }
    }
  if (found)
    return true;
  if (modes == NULL || modes->n == 0)
    {
      say (why, why_size, "the camera lists no formats");
      return false;
    }
  /* say what it offers instead */
  char list[128] = "";
  uint32_t seen[16];
  unsigned n_seen = 0;
  for (unsigned i = 0; i < modes->n && n_seen < 16; i++)
    {
      bool dup = false;
      for (unsigned k = 0; k < n_seen; k++)
        dup |= seen[k] == modes->modes[i].fourcc;
      if (dup)
        continue;
      seen[n_seen++] = modes->modes[i].fourcc;
      char name[5];
      size_t used = strlen (list);
      snprintf (list + used, sizeof list - used, "%s%s", used ? ", " : "",
                vis_fourcc_name (modes->modes[i].fourcc, name));
    }
  say (why, why_size, "the camera offers only %s; Tablero reads MJPEG, YUYV and NV12", list);
  return false;
}

void
vis_camera_choice_describe (const VisCameraChoice *c, char *buf, size_t size)
{
  char name[5];
  snprintf (buf, size, "%s %dx%d at %g fps", vis_fourcc_name (c->fourcc, name), c->width, c->height,
            round (c->fps * 100) / 100);
}

/* "'MJPG' (Motion-JPEG, compressed)" or "'MJPG'": the four characters. */
static bool
read_fourcc (const char *s, uint32_t *out)
{
  const char *q = strchr (s, '\'');
  if (q == NULL || strlen (q) < 6 || (q[5] != '\'' && q[5] != '-'))
    return false;
  *out = VIS_FOURCC (q[1], q[2], q[3], q[4]);
  return true;
}

/* "Discrete 1920x1080", "Stepwise 16x16 - 1920x1080 with step 16/8",
 * "Continuous 16x16 - 1920x1080" */
static bool
read_frame_size (const char *s, VisCameraMode *m, const char **what)
{
  const char *p;
  *what = "a size (Discrete WxH, Stepwise WxH - WxH with step X/Y, Continuous WxH - WxH)";
  if ((p = after (s, "Discrete")) != NULL)
    {
      p = skip_spaces (p);
      if (!read_size (&p, &m->width, &m->height))
        return false;
      return *skip_spaces (p) == '\0';
    }
  bool stepwise = (p = after (s, "Stepwise")) != NULL;
  if (!stepwise && (p = after (s, "Continuous")) == NULL)
    return false;
  p = skip_spaces (p);
  if (!read_size (&p, &m->min_width, &m->min_height))
    return false;
  p = skip_spaces (p);
  if (*p++ != '-')
    return false;
  p = skip_spaces (p);
  if (!read_size (&p, &m->width, &m->height))
    return false;
  m->step_width = m->step_height = 1;
  p = skip_spaces (p);
  if (stepwise)
    {
      long long a, b;
      if ((p = after (p, "with step")) == NULL)
        return false;
      p = skip_spaces (p);
      if (!read_long (&p, &a) || *p++ != '/' || !read_long (&p, &b) || a < 1 || b < 1
          || a > MAX_SIDE || b > MAX_SIDE)
        {
          *what = "a size step (X/Y, 1 or more)";
          return false;
        }
      m->step_width = (int) a;
      m->step_height = (int) b;
      p = skip_spaces (p);
    }
  if (*p != '\0')
    return false;
  if (m->min_width > m->width || m->min_height > m->height)
    {
      *what = "a size range whose smallest is not larger than its largest";
      return false;
    }
  return true;
}

/* "0.033s" or "0.033 s": seconds, > 0. */
static bool
read_seconds (const char **p, double *out)
{
  const char *s = *p;
  if (!read_decimal (&s, out) || *out <= 0)
    return false;
  s = skip_spaces (s);
  if (*s != 's')
    return false;
  *p = s + 1;
  return true;
}

static bool
fps_ok (double f)
{
  return f > 0 && f <= MAX_FPS;
}

/* "Discrete 0.033s (30.000 fps)", "Stepwise 0.033s - 1.000s with step
 * 0.001s (1.000-30.000 fps)", "Continuous 0.033s - 1.000s (1.000-30.000 fps)";
 * the bracket is optional (the rate is then 1 / seconds). */
static bool
read_interval (const char *s, VisCameraMode *m)
{
  const char *p;
  double a, b, lo_fps = 0, hi_fps = 0;
  if ((p = after (s, "Discrete")) != NULL)
    {
      p = skip_spaces (p);
      if (!read_seconds (&p, &a))
        return false;
      hi_fps = 1 / a;
      p = skip_spaces (p);
      if (*p == '(')
        {
          p++;
          if (!read_decimal (&p, &hi_fps) || (p = after (skip_spaces (p), "fps)")) == NULL)
            return false;
          p = skip_spaces (p);
        }
      if (*p != '\0' || !fps_ok (hi_fps))
        return false;
      m->fps = hi_fps;
      m->min_fps = 0;
      return true;
    }
  bool stepwise = (p = after (s, "Stepwise")) != NULL;
  if (!stepwise && (p = after (s, "Continuous")) == NULL)
    return false;
  p = skip_spaces (p);
  if (!read_seconds (&p, &a))
    return false;
  p = skip_spaces (p);
  if (*p++ != '-')
    return false;
  p = skip_spaces (p);
  if (!read_seconds (&p, &b) || b < a)
    return false;
  hi_fps = 1 / a;
  lo_fps = 1 / b;
  p = skip_spaces (p);
  if (stepwise)
    {
      double step;
      if ((p = after (p, "with step")) == NULL)
        return false;
      p = skip_spaces (p);
      /* a step of 0.000s is what v4l2-ctl prints for a range of one rate */
      if (!read_decimal (&p, &step) || *skip_spaces (p) != 's')
        return false;
      p = skip_spaces (skip_spaces (p) + 1);
    }
  if (*p == '(')
    {
      p++;
      if (!read_decimal (&p, &lo_fps) || *p++ != '-' || !read_decimal (&p, &hi_fps)
          || (p = after (skip_spaces (p), "fps)")) == NULL)
        return false;
      p = skip_spaces (p);
    }
  if (*p != '\0' || !fps_ok (hi_fps) || !fps_ok (lo_fps) || lo_fps > hi_fps + 1e-6)
    return false;
  m->fps = hi_fps;
  m->min_fps = hi_fps - lo_fps < 1e-3 ? 0 : lo_fps;
  return true;
}

bool
vis_camera_modes_parse (const char *text, size_t len, VisCameraModes *out, char *why, size_t why_size)
{
  out->n = 0;
  out->truncated = false;
  if (text == NULL)
    len = 0;
  uint32_t fourcc = 0;
  bool have_format = false, have_size = false, size_rated = false;
  VisCameraMode size = { 0 };
  size_t pos = 0;
  unsigned line_no = 0;
  char buf[LINE_MAX_CHARS];
  bool too_long;
  while (next_line (text, len, &pos, buf, sizeof buf, &too_long))
    {
      line_no++;
      if (too_long)
        {
          say (why, why_size, "line %u: too long or not text", line_no);
          return false;
        }
      char *s = trim (buf);
      const char *p;
      if (*s == '\0' || *s == '#' || after (s, "ioctl:") != NULL || after_key (s, "Type") != NULL
          || after_key (s, "Index") != NULL || after_key (s, "Name") != NULL)
        continue;
      bool new_format = *s == '[';
      if (new_format || (p = after_key (s, "Pixel Format")) != NULL)
        {
          if (have_size && !size_rated)
            vis_camera_modes_add (out, &size);
          if (!read_fourcc (s, &fourcc))
            {
              say (why, why_size, "line %u: a format without its four-character code in quotes "
                   "('MJPG'): %.80s", line_no, s);
              return false;
            }
          have_format = true;
          have_size = false;
          continue;
        }
      if ((p = after_key (s, "Size")) != NULL)
        {
          if (!have_format)
            {
              say (why, why_size, "line %u: a size before any format", line_no);
              return false;
            }
          if (have_size && !size_rated)
            vis_camera_modes_add (out, &size);
          size = (VisCameraMode) { .fourcc = fourcc };
          const char *what;
          if (!read_frame_size (p, &size, &what))
            {
              say (why, why_size, "line %u: not %s, sides 1 to %d: %.80s", line_no, what, MAX_SIDE, p);
              return false;
            }
          have_size = true;
          size_rated = false;
          continue;
        }
      if ((p = after_key (s, "Interval")) != NULL)
        {
          if (!have_size)
            {
              say (why, why_size, "line %u: a frame interval before any size", line_no);
              return false;
            }
          VisCameraMode m = size;
          if (!read_interval (p, &m))
            {
              say (why, why_size, "line %u: not a frame interval (Discrete 0.033s (30.000 fps), "
                   "Stepwise/Continuous 0.033s - 1.000s ...; rates up to %g fps): %.80s",
                   line_no, MAX_FPS, p);
              return false;
            }
          vis_camera_modes_add (out, &m);
          size_rated = true;
          continue;
        }
      say (why, why_size, "line %u: not a line of v4l2-ctl --list-formats-ext: %.80s", line_no, s);
      return false;
    }
  if (have_size && !size_rated)
    vis_camera_modes_add (out, &size);
  if (out->n == 0)
    {
      say (why, why_size, "no format with a size found (is this v4l2-ctl --list-formats-ext output?)");
      return false;
    }
  if (out->truncated)
    {
      say (why, why_size, "more than %d modes", VIS_CAMERA_MODES_MAX);
      return false;
    }
  return true;
}

/* ---- controls --------------------------------------------------------------- */

const VisCameraCtrl *
vis_camera_ctrls_find (const VisCameraCtrls *ctrls, uint32_t id)
{
  for (unsigned i = 0; ctrls != NULL && i < ctrls->n; i++)
    if (ctrls->ctrls[i].id == id)
      return &ctrls->ctrls[i];
  return NULL;
}

static VisCameraCtrlType
ctrl_type (const char *name)
{
  if (strcmp (name, "int") == 0)
    return VIS_CAMERA_CTRL_INT;
  if (strcmp (name, "bool") == 0)
    return VIS_CAMERA_CTRL_BOOL;
  if (strcmp (name, "menu") == 0 || strcmp (name, "intmenu") == 0)
    return VIS_CAMERA_CTRL_MENU;
  static const char *const others[] = { "int64", "str", "button", "bitmask", "u8", "u16", "u32",
                                        "unknown", "area", "hdr10-cll-info", "hdr10-mastering-display" };
  for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
    if (strcmp (name, others[i]) == 0)
      return VIS_CAMERA_CTRL_OTHER;
  return 0;
}

/* A heading v4l2-ctl prints between classes: "User Controls". */
static bool
is_class_heading (const char *s)
{
  size_t n = strlen (s);
  if (n < 8 || strcmp (s + n - 8, "Controls") != 0)
    return false;
  for (const char *p = s; *p; p++)
    if (!(is_space (*p) || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || is_digit (*p)
          || *p == '-' || *p == '&' || *p == '/'))
      return false;
  return true;
}

/* The numeric fields of a control line that matter; value=, elems=, dims
 * and the like are skipped. */
enum { HAVE_MIN = 1, HAVE_MAX = 2, HAVE_STEP = 4, HAVE_DEF = 8 };
static const struct {
  const char *key;
  size_t offset;
  unsigned have;
} ctrl_fields[] = {
  { "min", offsetof (VisCameraCtrl, min), HAVE_MIN },
  { "max", offsetof (VisCameraCtrl, max), HAVE_MAX },
  { "step", offsetof (VisCameraCtrl, step), HAVE_STEP },
  { "default", offsetof (VisCameraCtrl, def), HAVE_DEF },
};

/* "brightness 0x00980900 (int)    :": the name, id and type.  Returns what
 * follows the colon, NULL when the head is not one. */
static const char *
read_ctrl_head (const char *s, VisCameraCtrl *c, const char **what)
{
  const char *p = s;
  const char *name_end = p;
  while (*name_end && !is_space (*name_end))
    name_end++;
  size_t name_len = (size_t) (name_end - p);
  if (name_len == 0)
    return NULL;
  snprintf (c->name, sizeof c->name, "%.*s", (int) (name_len < sizeof c->name ? name_len : sizeof c->name - 1), p);
  p = skip_spaces (name_end);
  long long id;
  if (p[0] != '0' || p[1] != 'x' || !read_long (&p, &id) || id <= 0 || id > 0xffffffffLL)
    return NULL;
  c->id = (uint32_t) id;
  p = skip_spaces (p);
  if (*p++ != '(')
    return NULL;
  const char *type_end = strchr (p, ')');
  if (type_end == NULL || type_end - p >= 32)
    return NULL;
  char type[32];
  snprintf (type, sizeof type, "%.*s", (int) (type_end - p), p);
  c->type = ctrl_type (type);
  if (c->type == 0)
    {
      *what = "a control of a known type (int, bool, menu, intmenu, ...)";
      return NULL;
    }
  p = skip_spaces (type_end + 1);
  return *p == ':' ? p + 1 : NULL;
}

/* "min=0 max=255 ... flags=inactive": the fields after the colon into `c`,
 * which of ctrl_fields were there into `have`. */
static bool
read_ctrl_fields (const char *p, VisCameraCtrl *c, unsigned *have, const char **what)
{
  for (;;)
    {
      p = skip_spaces (p);
      if (*p == '\0')
        return true;
      const char *flags = after (p, "flags=");
      if (flags != NULL)
        {
          /* "flags=inactive, volatile": the rest of the line */
          c->inactive = strstr (flags, "inactive") != NULL;
          c->read_only = strstr (flags, "read-only") != NULL;
          c->disabled = strstr (flags, "disabled") != NULL;
          return true;
        }
      const char *eq = p;
      while (*eq && *eq != '=' && !is_space (*eq))
        eq++;
      if (*eq != '=')
        {
          *what = "key=value fields after the colon";
          return false;
        }
      size_t key_len = (size_t) (eq - p);
      const char *v = eq + 1;
      const char *end = v;
      while (*end && !is_space (*end))
        end++;
      for (size_t f = 0; f < sizeof ctrl_fields / sizeof ctrl_fields[0] && c->type != VIS_CAMERA_CTRL_OTHER; f++)
        {
          if (key_len != strlen (ctrl_fields[f].key) || strncmp (p, ctrl_fields[f].key, key_len) != 0)
            continue;
          long long n;
          const char *q = v;
          if (!read_long (&q, &n) || q != end || n < INT32_MIN || n > INT32_MAX)
            {
              *what = "whole numbers in min=, max=, step= and default=";
              return false;
            }
          *(int32_t *) ((char *) c + ctrl_fields[f].offset) = (int32_t) n;
          *have |= ctrl_fields[f].have;
          break;
        }
      p = end;
    }
}

/* "brightness 0x00980900 (int)    : min=0 max=255 step=1 default=128 ..." */
static bool
read_ctrl (const char *s, VisCameraCtrl *c, const char **what)
{
  *what = "NAME 0xID (TYPE) : min=... max=... step=... default=...";
  const char *p = read_ctrl_head (s, c, what);
  if (p == NULL)
    return false;
  c->min = 0;
  c->max = c->type == VIS_CAMERA_CTRL_BOOL ? 1 : 0;
  c->step = 1;
  unsigned have = 0;
  if (!read_ctrl_fields (p, c, &have, what))
    return false;
  if (c->type == VIS_CAMERA_CTRL_OTHER)
    return true;
  if (!(have & HAVE_DEF) || (c->type != VIS_CAMERA_CTRL_BOOL && (!(have & HAVE_MIN) || !(have & HAVE_MAX)))
      || (c->type == VIS_CAMERA_CTRL_INT && !(have & HAVE_STEP)))
    {
      *what = c->type == VIS_CAMERA_CTRL_INT ? "an int control with min=, max=, step= and default="
              : c->type == VIS_CAMERA_CTRL_MENU ? "a menu control with min=, max= and default="
              : "a bool control with default=";
      return false;
    }
  if (c->min > c->max || c->step < 1)
    {
      *what = "a range whose min is not above its max, in steps of 1 or more";
      return false;
    }
  return true;
}

bool
vis_camera_ctrls_parse (const char *text, size_t len, VisCameraCtrls *out, char *why, size_t why_size)
{
  out->n = 0;
  if (text == NULL)
    len = 0;
  VisCameraCtrl *menu = NULL;   /* the menu control the item lines belong to */
  size_t pos = 0;
  unsigned line_no = 0;
  char buf[LINE_MAX_CHARS];
  bool too_long;
  while (next_line (text, len, &pos, buf, sizeof buf, &too_long))
    {
      line_no++;
      if (too_long)
        {
          say (why, why_size, "line %u: too long or not text", line_no);
          return false;
        }
      char *s = trim (buf);
      if (*s == '\0' || *s == '#' || is_class_heading (s))
        continue;
      if (is_digit (*s))
        {
          /* "1: 50 Hz": an item of the menu above */
          const char *p = s;
          long long item;
          if (!read_long (&p, &item) || *p != ':')
            {
              say (why, why_size, "line %u: not a menu item (N: NAME): %.80s", line_no, s);
              return false;
            }
          if (menu == NULL)
            {
              say (why, why_size, "line %u: a menu item under no menu control", line_no);
              return false;
            }
          if (item < menu->min || item > menu->max || item > 63)
            {
              say (why, why_size, "line %u: menu item %lld of %s is outside its range %d to %d%s",
                   line_no, item, menu->name, (int) menu->min, (int) menu->max,
                   item > 63 ? " (or beyond 63)" : "");
              return false;
            }
          menu->menu |= 1ull << item;
          continue;
        }
      VisCameraCtrl c = { 0 };
      const char *what;
      if (!read_ctrl (s, &c, &what))
        {
          say (why, why_size, "line %u: not a control line (%s): %.80s", line_no, what, s);
          return false;
        }
      if (vis_camera_ctrls_find (out, c.id) != NULL)
        {
          say (why, why_size, "line %u: control 0x%08x (%s) is listed twice", line_no, (unsigned) c.id,
               c.name);
          return false;
        }
      if (out->n >= VIS_CAMERA_CTRLS_MAX)
        {
          say (why, why_size, "line %u: more than %d controls", line_no, VIS_CAMERA_CTRLS_MAX);
          return false;
        }
      out->ctrls[out->n++] = c;
      menu = c.type == VIS_CAMERA_CTRL_MENU ? &out->ctrls[out->n - 1] : NULL;
    }
  if (out->n == 0)
    {
      say (why, why_size, "no controls found (is this v4l2-ctl --list-ctrls-menus output?)");
      return false;
    }
  return true;
}

const char *
vis_camera_ctrl_label (uint32_t id)
{
  switch (id)
    {
    case VIS_CID_FOCUS_AUTO: return "autofocus";
    case VIS_CID_FOCUS_ABSOLUTE: return "focus position";
    case VIS_CID_EXPOSURE_AUTO: return "exposure mode";
    case VIS_CID_EXPOSURE_ABSOLUTE: return "exposure time";
    case VIS_CID_POWER_LINE_FREQUENCY: return "anti-flicker";
    default: return "control";
    }
}

/* The control when it can be set; else NULL, and `why` says what is wrong
 * with it ("" when the camera simply has none). */
static const VisCameraCtrl *
settable (const VisCameraCtrls *have, uint32_t id, const char **why)
{
  const VisCameraCtrl *c = vis_camera_ctrls_find (have, id);
  *why = "";
  if (c == NULL)
    return NULL;
  if (c->disabled)
    *why = "disabled";
  else if (c->read_only)
    *why = "read-only";
  else if (c->type == VIS_CAMERA_CTRL_OTHER)
    *why = "of a type Tablero does not set";
  return **why ? NULL : c;
}

static bool
has_item (const VisCameraCtrl *c, int item)
{
  if (item < c->min || item > c->max)
    return false;
  if (c->type != VIS_CAMERA_CTRL_MENU || c->menu == 0 || item > 63)
    return true;
  return (c->menu >> item) & 1;
}

/* `v` clamped to the control's range and rounded to its step. */
static int32_t
fit (const VisCameraCtrl *c, long long v)
{
  return (int32_t) snap (v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : (int) v, c->min,
                         c->max, c->type == VIS_CAMERA_CTRL_INT ? c->step : 1);
}

static void
add (VisCameraPlan *plan, uint32_t id, int32_t value, bool after_settling)
{
  if (plan->n < VIS_CAMERA_SETTINGS_MAX)
    plan->settings[plan->n++] = (VisCameraSetting) { id, value, after_settling };
}

/* Sets `c` to `want`, saying so when it had to be changed to fit. */
static void
add_fitted (VisCameraPlan *plan, const VisCameraCtrl *c, long long want, const char *unit)
{
  int32_t v = fit (c, want);
  if (v != want)
    note (plan, "%s %lld%s: the camera takes %d to %d in steps of %d; set to %d%s",
          vis_camera_ctrl_label (c->id), want, unit, (int) c->min, (int) c->max, (int) c->step, (int) v, unit);
  add (plan, c->id, v, false);
}

static void
plan_focus (const VisCameraControls *want, const VisCameraCtrls *have, VisCameraPlan *plan)
{
  const char *auto_why, *pos_why;
  const VisCameraCtrl *af = settable (have, VIS_CID_FOCUS_AUTO, &auto_why);
  const VisCameraCtrl *pos = settable (have, VIS_CID_FOCUS_ABSOLUTE, &pos_why);
  if (want->focus == VIS_FOCUS_AUTO)
    {
      if (af != NULL)
        add (plan, af->id, fit (af, 1), false);
      else if (*auto_why)
        note (plan, "focus: the camera's autofocus switch is %s; left as it is", auto_why);
      return;
    }
  if (want->focus != VIS_FOCUS_LOCKED)
    return;
  if (af == NULL && pos == NULL)
    {
      if (*auto_why || *pos_why)
        note (plan, "focus: the camera's focus controls are %s; not locked", *auto_why ? auto_why : pos_why);
      else
        note (plan, "focus: this camera has no focus control (a fixed-focus lens?); nothing to lock");
      return;
    }
  if (want->focus_position >= 0 && pos != NULL)
    {
      if (af != NULL)
        add (plan, af->id, fit (af, 0), false);
      add_fitted (plan, pos, want->focus_position, "");
      return;
    }
  if (want->focus_position >= 0)
    note (plan, "focus: this camera has no focus position control%s%s; locked where autofocus settles",
          *pos_why ? " that can be set: it is " : "", pos_why);
  if (af != NULL)
    {
      /* autofocus runs, then stops where it found the table */
      add (plan, af->id, fit (af, 1), false);
      add (plan, af->id, fit (af, 0), true);
    }
  /* no autofocus switch: the lens does not move by itself; nothing to do */
}

static void
plan_exposure (const VisCameraControls *want, const VisCameraCtrls *have, VisCameraPlan *plan)
{
  const char *mode_why, *time_why;
  const VisCameraCtrl *mode = settable (have, VIS_CID_EXPOSURE_AUTO, &mode_why);
  const VisCameraCtrl *time = settable (have, VIS_CID_EXPOSURE_ABSOLUTE, &time_why);
  if (want->exposure == VIS_EXPOSURE_AUTO)
    {
      if (mode == NULL)
        {
          if (*mode_why)
            note (plan, "exposure: the camera's exposure mode is %s; left as it is", mode_why);
          return;
        }
      /* V4L2_EXPOSURE_AUTO where offered, else aperture priority (what UVC
       * webcams call automatic: the time follows the light) */
      if (has_item (mode, 0))
        add (plan, mode->id, 0, false);
      else if (has_item (mode, 3))
        add (plan, mode->id, 3, false);
      else
        note (plan, "exposure: the camera offers no automatic exposure mode; left as it is");
      return;
    }
  if (want->exposure != VIS_EXPOSURE_MANUAL)
    return;
  if (mode == NULL && time == NULL)
    {
      if (*mode_why || *time_why)
        note (plan, "exposure: the camera's exposure controls are %s; left as they are",
              *mode_why ? mode_why : time_why);
      else
        note (plan, "exposure: this camera has no exposure control; it sets its own");
      return;
    }
  if (mode != NULL)
    {
      if (!has_item (mode, 1))
        {
          note (plan, "exposure: the camera offers no manual exposure mode; left as it is");
          return;
        }
      add (plan, mode->id, 1, false);
    }
  if (time == NULL)
    {
      note (plan, "exposure: this camera has no exposure time control%s%s; manual at the time it has",
            *time_why ? " that can be set: it is " : "", time_why);
      return;
    }
  if (want->exposure_time >= 0)
    add_fitted (plan, time, want->exposure_time, " (x 0.1 ms)");
  else
    add (plan, time->id, fit (time, time->def), false);
}

static const char *const flicker_words[] = { "off", "50 Hz", "60 Hz", "auto" };

static void
plan_flicker (const VisCameraControls *want, const VisCameraCtrls *have, VisCameraPlan *plan)
{
  if (want->anti_flicker < VIS_ANTI_FLICKER_OFF || want->anti_flicker > VIS_ANTI_FLICKER_AUTO)
    return;
  const char *why;
  const VisCameraCtrl *c = settable (have, VIS_CID_POWER_LINE_FREQUENCY, &why);
  int item = (int) want->anti_flicker - (int) VIS_ANTI_FLICKER_OFF;   /* 0 off .. 3 auto */
  if (c == NULL)
    {
      if (*why)
        note (plan, "anti-flicker: the camera's power-line frequency control is %s; left as it is", why);
      else
        note (plan, "anti-flicker: this camera has no power-line frequency control; left as it is");
      return;
    }
  if (has_item (c, item))
    {
      add (plan, c->id, item, false);
      return;
    }
  char offered[64] = "";
  for (int i = 0; i < 4; i++)
    if (has_item (c, i))
      {
        size_t used = strlen (offered);
        snprintf (offered + used, sizeof offered - used, "%s%s", used ? ", " : "", flicker_words[i]);
      }
  note (plan, "anti-flicker %s: the camera does not offer it (only %s); left as it is",
        flicker_words[item], offered[0] ? offered : "nothing Tablero knows");
}

void
vis_camera_plan_controls (const VisCameraControls *want, const VisCameraCtrls *have, VisCameraPlan *plan)
{
  memset (plan, 0, sizeof *plan);
  if (want == NULL)
    return;
  plan_focus (want, have, plan);
  plan_exposure (want, have, plan);
  plan_flicker (want, have, plan);
}

/* ---- words ------------------------------------------------------------------ */

static const char *const flicker_names[] = { "camera", "off", "50", "60", "auto" };

bool
vis_anti_flicker_parse (const char *text, VisAntiFlicker *out)
{
  for (int i = 0; text != NULL && i < 5; i++)
    if (strcmp (text, flicker_names[i]) == 0)
      {
        *out = (VisAntiFlicker) i;
        return true;
      }
  return false;
}

const char *
vis_anti_flicker_name (VisAntiFlicker value)
{
  return value >= VIS_ANTI_FLICKER_UNSET && value <= VIS_ANTI_FLICKER_AUTO ? flicker_names[value] : "camera";
}

bool
vis_camera_focus_parse (const char *text, VisCameraControls *out)
{
  if (text == NULL)
    return false;
  if (strcmp (text, "auto") == 0)
    {
      out->focus = VIS_FOCUS_AUTO;
      return true;
    }
  if (strcmp (text, "lock") == 0)
    {
      out->focus = VIS_FOCUS_LOCKED;
      out->focus_position = -1;
      return true;
    }
  const char *p = text;
  long long v;
  if (!is_digit (*p) || !read_long (&p, &v) || *p != '\0' || v > VIS_CAMERA_FOCUS_MAX)
    return false;
  out->focus = VIS_FOCUS_LOCKED;
  out->focus_position = (int) v;
  return true;
}

bool
vis_camera_exposure_parse (const char *text, VisCameraControls *out)
{
  if (text == NULL)
    return false;
  if (strcmp (text, "auto") == 0 || strcmp (text, "manual") == 0 || strcmp (text, "stickers") == 0)
    {
      out->exposure = text[0] == 'a' ? VIS_EXPOSURE_AUTO : VIS_EXPOSURE_MANUAL;
      out->exposure_time = -1;
      out->meter_stickers = text[0] == 's';
      return true;
    }
  const char *p = text;
  double ms;
  if (!read_decimal (&p, &ms) || *p != '\0')
    return false;
  long long units = llround (ms * 10);
  if (ms < 0.1 - 1e-9 || units < 1 || units > VIS_CAMERA_EXPOSURE_MAX)
    return false;
  out->exposure = VIS_EXPOSURE_MANUAL;
  out->exposure_time = (int) units;
  out->meter_stickers = false;
  return true;
}

/* Appends `part` to `buf` after ", " unless it is the first. */
static void
join (char *buf, size_t size, const char *part)
{
  size_t used = strnlen (buf, size - 1);
  snprintf (buf + used, size - used, "%s%s", used > 0 ? ", " : "", part);
}

void
vis_camera_controls_follow (const VisCameraControls *before, const VisCameraControls *asked,
                            const VisCameraControls *now, VisCameraControls *out)
{
  bool metered = before->meter_stickers && before->exposure == VIS_EXPOSURE_MANUAL;
  bool still = asked->meter_stickers && asked->exposure == VIS_EXPOSURE_MANUAL
               && asked->exposure_time == before->exposure_time;
  int time = now->exposure_time;
  *out = *asked;
  if (metered && still && time > 0)
    out->exposure_time = time;
}

bool
vis_camera_exposure_range (const VisCameraCtrls *have, VisExposureRange *out)
{
  const VisCameraCtrl *c = have != NULL ? vis_camera_ctrls_find (have, VIS_CID_EXPOSURE_ABSOLUTE) : NULL;
  if (c == NULL || c->type != VIS_CAMERA_CTRL_INT || c->read_only || c->disabled || c->max < 1)
    return false;
  int min = c->min < 1 ? 1 : c->min;
  if (c->max < min)
    return false;
  int def = c->def < min ? min : c->def > c->max ? c->max : c->def;
  *out = (VisExposureRange) { min, c->max, c->step > 0 ? c->step : 1, def };
  return true;
}

void
vis_camera_controls_describe (const VisCameraControls *c, char *buf, size_t size)
{
  if (size == 0)
    return;
  buf[0] = '\0';
  char part[96];
  if (c->focus == VIS_FOCUS_AUTO)
    join (buf, size, "autofocus");
  else if (c->focus == VIS_FOCUS_LOCKED)
    {
      if (c->focus_position >= 0)
        snprintf (part, sizeof part, "focus locked at %d", c->focus_position);
      else
        snprintf (part, sizeof part, "focus locked where autofocus settles");
      join (buf, size, part);
    }
  if (c->exposure == VIS_EXPOSURE_AUTO)
    join (buf, size, "automatic exposure");
  else if (c->exposure == VIS_EXPOSURE_MANUAL)
    {
      if (c->exposure_time >= 0)
        snprintf (part, sizeof part, "exposure %.1f ms", c->exposure_time / 10.0);
      else
        snprintf (part, sizeof part, "manual exposure at the camera's default time");
      join (buf, size, part);
      if (c->meter_stickers)
        join (buf, size, "metered on the stickers");
    }
  if (c->anti_flicker > VIS_ANTI_FLICKER_UNSET && c->anti_flicker <= VIS_ANTI_FLICKER_AUTO)
    {
      snprintf (part, sizeof part, "anti-flicker %s", flicker_words[c->anti_flicker - 1]);
      join (buf, size, part);
    }
  if (buf[0] == '\0')
    snprintf (buf, size, "camera defaults");
}

/* Cameras without a camera: the pixel conversions (vis-convert.h) on
 * hand-made pixels; the mode choice and the control plan (vis-camera.h)
 * against recorded `v4l2-ctl --list-formats-ext` and `--list-ctrls-menus`
 * output of a C920-like, a C270-like, a cheap generic, an NV12 and a
 * stepwise camera (tests/render/cameras/); odd recordings giving clear
 * errors; the words settings and command lines use; and the settings
 * schema's camera keys, which must read back as those words. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <gio/gio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "vis-camera.h"
#include "vis-convert.h"
#include "vis-source.h"

#ifndef CAMERA_FIXTURES
#error "CAMERA_FIXTURES: the folder of recorded cameras"
#endif

/* ---- conversions ------------------------------------------------------------ */

/* BT.601 video range, in doubles: what the integer code must match to 1
 * (Y below black counts as black, as vis-convert.h says). */
static void
reference_bgr (int y, int u, int v, double bgr[3])
{
  double c = 1.164383 * (y > 16 ? y - 16 : 0), d = u - 128, e = v - 128;
  bgr[2] = c + 1.596027 * e;
  bgr[1] = c - 0.391762 * d - 0.812968 * e;
  bgr[0] = c + 2.017232 * d;
  for (int i = 0; i < 3; i++)
    bgr[i] = bgr[i] < 0 ? 0 : bgr[i] > 255 ? 255 : bgr[i];
}

static void
expect_pixel (const uint8_t *p, int y, int u, int v, const char *what)
{
  double ref[3];
  reference_bgr (y, u, v, ref);
  for (int i = 0; i < 3; i++)
    cr_expect (fabs (p[i] - ref[i]) <= 1.0, "%s: Y%d U%d V%d channel %d is %d, reference %.2f", what, y, u,
               v, i, p[i], ref[i]);
}

Test (convert, known_colours)
{
  /* two pixels a row, one row: white, black; mid grey, BT.601 red */
  static const struct { uint8_t y, u, v; uint8_t b, g, r; } cases[] = {
    { 235, 128, 128, 255, 255, 255 },   /* white */
    { 16, 128, 128, 0, 0, 0 },          /* black */
    { 126, 128, 128, 128, 128, 128 },   /* grey: (126 - 16) * 1.164 = 128 */
    { 255, 128, 128, 255, 255, 255 },   /* above white: clamped */
    { 0, 128, 128, 0, 0, 0 },           /* below black: clamped */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      uint8_t yuyv[4] = { cases[i].y, cases[i].u, cases[i].y, cases[i].v };
      uint8_t bgr[6] = { 0 };
      vis_convert_yuyv_to_bgr (yuyv, 4, 2, 1, bgr, 6);
      for (int px = 0; px < 2; px++)
        {
          cr_expect_eq (bgr[3 * px + 0], cases[i].b, "case %zu: B %d", i, bgr[3 * px]);
          cr_expect_eq (bgr[3 * px + 1], cases[i].g, "case %zu: G %d", i, bgr[3 * px + 1]);
          cr_expect_eq (bgr[3 * px + 2], cases[i].r, "case %zu: R %d", i, bgr[3 * px + 2]);
        }
    }
  /* saturated red, green and blue of BT.601 (Y U V), within 2 of 255 / 0 */
  static const struct { uint8_t y, u, v; int channel; const char *name; } primaries[] = {
    { 81, 90, 240, 2, "red" }, { 145, 54, 34, 1, "green" }, { 41, 240, 110, 0, "blue" } };
  for (size_t i = 0; i < 3; i++)
    {
      uint8_t yuyv[4] = { primaries[i].y, primaries[i].u, primaries[i].y, primaries[i].v };
      uint8_t bgr[6];
      vis_convert_yuyv_to_bgr (yuyv, 4, 2, 1, bgr, 6);
      for (int c = 0; c < 3; c++)
        cr_expect (c == primaries[i].channel ? bgr[c] >= 253 : bgr[c] <= 2, "%s came out as B%d G%d R%d",
                   primaries[i].name, bgr[0], bgr[1], bgr[2]);
    }
}

/* A WxH image of varied Y, U, V, laid out as YUYV (with `pad` bytes after
 * each row) and as NV12 (two planes, the same pad), chroma shared as both
 * formats share it: by pairs of columns, and in NV12 by pairs of rows too,
 * so the YUYV rows of a pair of rows repeat the same chroma. */
typedef struct {
  int w, h;
  size_t yuyv_stride, nv12_stride;
  uint8_t *yuyv, *y, *uv;
} TestImage;

static void
test_image_make (TestImage *t, int w, int h, size_t pad, unsigned seed)
{
  int pairs = (w + 1) / 2;
  t->w = w;
  t->h = h;
  t->yuyv_stride = 4 * (size_t) pairs + pad;
  t->nv12_stride = 2 * (size_t) pairs + pad;
  t->yuyv = calloc (t->yuyv_stride * h, 1);
  t->y = calloc (t->nv12_stride * h, 1);
  t->uv = calloc (t->nv12_stride * ((h + 1) / 2), 1);
  srand (seed);
  for (int row = 0; row < h; row++)
    for (int x = 0; x < 2 * pairs; x++)
      {
        uint8_t yv = (uint8_t) (rand () % 256);
        t->y[row * t->nv12_stride + x] = yv;
        t->yuyv[row * t->yuyv_stride + 2 * x] = yv;
      }
  for (int crow = 0; crow < (h + 1) / 2; crow++)
    for (int p = 0; p < pairs; p++)
      {
        uint8_t u = (uint8_t) (rand () % 256), v = (uint8_t) (rand () % 256);
        t->uv[crow * t->nv12_stride + 2 * p] = u;
        t->uv[crow * t->nv12_stride + 2 * p + 1] = v;
        for (int row = 2 * crow; row < 2 * crow + 2 && row < h; row++)
          {
            t->yuyv[row * t->yuyv_stride + 4 * p + 1] = u;
            t->yuyv[row * t->yuyv_stride + 4 * p + 3] = v;
          }
      }
}

static void
test_image_free (TestImage *t)
{
  free (t->yuyv);
  free (t->y);
  free (t->uv);
}

Test (convert, yuyv_and_nv12_match_the_reference_and_each_other)
{
  /* odd and even sizes, padded rows both sides */
  static const int sizes[][2] = { { 8, 4 }, { 7, 5 }, { 1, 1 }, { 33, 17 } };
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
    {
      int w = sizes[k][0], h = sizes[k][1];
      TestImage t;
      test_image_make (&t, w, h, 6, 7 + (unsigned) k);
      size_t bgr_stride = 3 * (size_t) w + 5, gray_stride = (size_t) w + 3;
      uint8_t *a = malloc (bgr_stride * h), *b = malloc (bgr_stride * h);
      uint8_t *ga = malloc (gray_stride * h), *gb = malloc (gray_stride * h);
      memset (a, 0xA5, bgr_stride * h);
      memset (b, 0x5A, bgr_stride * h);
      memset (ga, 0xA5, gray_stride * h);
      memset (gb, 0x5A, gray_stride * h);
      vis_convert_yuyv_to_bgr (t.yuyv, t.yuyv_stride, w, h, a, bgr_stride);
      vis_convert_nv12_to_bgr (t.y, t.nv12_stride, t.uv, t.nv12_stride, w, h, b, bgr_stride);
      vis_convert_yuyv_to_gray (t.yuyv, t.yuyv_stride, w, h, ga, gray_stride);
      vis_convert_nv12_to_gray (t.y, t.nv12_stride, w, h, gb, gray_stride);
      for (int row = 0; row < h; row++)
        {
          cr_expect_arr_eq (a + row * bgr_stride, b + row * bgr_stride, 3 * (size_t) w,
                            "%dx%d row %d: YUYV and NV12 differ", w, h, row);
          cr_expect_arr_eq (ga + row * gray_stride, gb + row * gray_stride, (size_t) w,
                            "%dx%d row %d: grey from YUYV and NV12 differ", w, h, row);
          /* the padding after each row is left alone */
          for (size_t i = 3 * (size_t) w; i < bgr_stride; i++)
            cr_expect_eq (a[row * bgr_stride + i], 0xA5, "%dx%d: row %d padding written", w, h, row);
          for (size_t i = (size_t) w; i < gray_stride; i++)
            cr_expect_eq (ga[row * gray_stride + i], 0xA5, "%dx%d: grey row %d padding written", w, h, row);
          for (int x = 0; x < w; x++)
            {
              int y = t.y[row * t.nv12_stride + x];
              int u = t.uv[(row / 2) * t.nv12_stride + (x & ~1)];
              int v = t.uv[(row / 2) * t.nv12_stride + (x & ~1) + 1];
              expect_pixel (a + row * bgr_stride + 3 * x, y, u, v, "yuyv");
              double grey[3];
              reference_bgr (y, 128, 128, grey);
              cr_expect (fabs (ga[row * gray_stride + x] - grey[0]) <= 1.0, "grey of Y%d is %d, reference %.2f",
                         y, ga[row * gray_stride + x], grey[0]);
            }
        }
      free (a);
      free (b);
      free (ga);
      free (gb);
      test_image_free (&t);
    }
}

Test (convert, grey_is_the_colour_frame_without_its_colour)
{
  /* neutral chroma: the grey frame is B = G = R of the colour one, exactly */
  uint8_t yuyv[256 * 2], bgr[256 * 3], gray[256];
  for (int i = 0; i < 256; i++)
    {
      yuyv[2 * i] = (uint8_t) i;
      yuyv[2 * i + 1] = 128;
    }
  vis_convert_yuyv_to_bgr (yuyv, sizeof yuyv, 256, 1, bgr, sizeof bgr);
  vis_convert_yuyv_to_gray (yuyv, sizeof yuyv, 256, 1, gray, sizeof gray);
  for (int i = 0; i < 256; i++)
    {
      cr_expect (bgr[3 * i] == gray[i] && bgr[3 * i + 1] == gray[i] && bgr[3 * i + 2] == gray[i],
                 "Y%d: grey %d, colour B%d G%d R%d", i, gray[i], bgr[3 * i], bgr[3 * i + 1], bgr[3 * i + 2]);
      if (i > 16 && i <= 235)
        cr_expect_geq (gray[i], gray[i - 1], "grey is not monotonic at Y%d", i);
    }
  cr_expect_eq (gray[16], 0);
  cr_expect_eq (gray[235], 255);
}

Test (convert, frame_bytes)
{
  cr_expect_eq (vis_convert_frame_bytes (VIS_FOURCC_YUYV, 1920, 1080, 0), 1920u * 1080 * 2);
  cr_expect_eq (vis_convert_frame_bytes (VIS_FOURCC_YUYV, 7, 3, 0), 8u * 2 * 3);
  cr_expect_eq (vis_convert_frame_bytes (VIS_FOURCC_YUYV, 640, 480, 1536), 1536u * 480);
  cr_expect_eq (vis_convert_frame_bytes (VIS_FOURCC_NV12, 1920, 1080, 0), 1920u * 1080 * 3 / 2);
  cr_expect_eq (vis_convert_frame_bytes (VIS_FOURCC_NV12, 5, 3, 0), 6u * 3 + 6u * 2);
  cr_expect_eq (vis_convert_frame_bytes (VIS_FOURCC_NV12, 1920, 1080, 2048), 2048u * 1080 + 2048u * 540);
  cr_expect_eq (vis_convert_frame_bytes (VIS_FOURCC_MJPEG, 1920, 1080, 0), 0u);
  cr_expect_eq (vis_convert_frame_bytes (VIS_FOURCC_YUYV, 0, 1080, 0), 0u);
}

/* Not a pass/fail: how long a 1080p frame takes, said in the log. */
Test (convert, time_for_a_1080p_frame)
{
  int w = 1920, h = 1080;
  uint8_t *src = malloc ((size_t) w * h * 2), *dst = malloc ((size_t) w * h * 3);
  cr_assert (src != NULL && dst != NULL);
  for (size_t i = 0; i < (size_t) w * h * 2; i++)
    src[i] = (uint8_t) (i * 37);
  const char *names[] = { "YUYV to BGR", "YUYV to grey", "NV12 to BGR", "NV12 to grey" };
  vis_convert_yuyv_to_bgr (src, 2 * (size_t) w, w, h, dst, 3 * (size_t) w);   /* pages touched once */
  for (int k = 0; k < 4; k++)
    {
      struct timespec t0, t1;
      clock_gettime (CLOCK_MONOTONIC, &t0);
      for (int rep = 0; rep < 5; rep++)
        switch (k)
          {
          case 0: vis_convert_yuyv_to_bgr (src, 2 * (size_t) w, w, h, dst, 3 * (size_t) w); break;
          case 1: vis_convert_yuyv_to_gray (src, 2 * (size_t) w, w, h, dst, (size_t) w); break;
          case 2: vis_convert_nv12_to_bgr (src, (size_t) w, src + (size_t) w * h, (size_t) w, w, h, dst, 3 * (size_t) w); break;
          default: vis_convert_nv12_to_gray (src, (size_t) w, w, h, dst, (size_t) w); break;
          }
      clock_gettime (CLOCK_MONOTONIC, &t1);
      double ms = ((t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6) / 5;
      cr_log_info ("%s, 1920x1080: %.2f ms a frame", names[k], ms);
      cr_expect (ms > 0);
    }
  free (src);
  free (dst);
}

/* ---- recorded cameras ------------------------------------------------------- */

static char *
read_fixture (const char *name, size_t *len)
{
  char path[512];
  snprintf (path, sizeof path, "%s/%s", CAMERA_FIXTURES, name);
  FILE *f = fopen (path, "rb");
  cr_assert_not_null (f, "fixture %s is missing", path);
  char *buf = malloc (1 << 20);
  *len = fread (buf, 1, (1 << 20) - 1, f);
  buf[*len] = '\0';
  fclose (f);
  return buf;
}

static VisCameraModes *
load_modes (const char *name)
{
  size_t len;
  char *text = read_fixture (name, &len);
  VisCameraModes *modes = malloc (sizeof *modes);
  char why[256] = "";
  bool ok = vis_camera_modes_parse (text, len, modes, why, sizeof why);
  free (text);
  cr_assert (ok, "%s: %s", name, why);
  return modes;
}

static VisCameraCtrls *
load_ctrls (const char *name)
{
  size_t len;
  char *text = read_fixture (name, &len);
  VisCameraCtrls *ctrls = malloc (sizeof *ctrls);
  char why[256] = "";
  bool ok = vis_camera_ctrls_parse (text, len, ctrls, why, sizeof why);
  free (text);
  cr_assert (ok, "%s: %s", name, why);
  return ctrls;
}

static bool
has_mode (const VisCameraModes *m, uint32_t fourcc, int w, int h, double fps)
{
  for (unsigned i = 0; i < m->n; i++)
    if (m->modes[i].fourcc == fourcc && m->modes[i].width == w && m->modes[i].height == h
        && fabs (m->modes[i].fps - fps) < 0.01)
      return true;
  return false;
}

Test (modes, recorded_cameras_parse)
{
  VisCameraModes *c920 = load_modes ("c920-formats.txt");
  cr_expect_eq (c920->n, 336u);
  cr_expect (has_mode (c920, VIS_FOURCC_MJPEG, 1920, 1080, 30));
  cr_expect (has_mode (c920, VIS_FOURCC_YUYV, 1920, 1080, 5));
  cr_expect (!has_mode (c920, VIS_FOURCC_YUYV, 1920, 1080, 30));
  cr_expect (has_mode (c920, VIS_FOURCC_YUYV, 1600, 896, 7.5));
  cr_expect (has_mode (c920, VIS_FOURCC ('H', '2', '6', '4'), 1920, 1080, 30), "H.264 is listed, if unused");
  free (c920);

  /* the older layout (Index / Pixel Format / Name) reads the same way */
  VisCameraModes *c270 = load_modes ("c270-formats.txt");
  cr_expect (has_mode (c270, VIS_FOURCC_MJPEG, 1280, 720, 30));
  cr_expect (has_mode (c270, VIS_FOURCC_YUYV, 1280, 960, 7.5));
  cr_expect (!has_mode (c270, VIS_FOURCC_MJPEG, 1280, 960, 30));
  free (c270);

  VisCameraModes *step = load_modes ("stepwise-formats.txt");
  cr_assert_eq (step->n, 4u, "one mode a size range, one for each discrete size");
  const VisCameraMode *nv12 = &step->modes[0];
  cr_expect_eq (nv12->fourcc, VIS_FOURCC_NV12);
  cr_expect (nv12->min_width == 64 && nv12->min_height == 64 && nv12->width == 2592 && nv12->height == 1944);
  cr_expect (nv12->step_width == 16 && nv12->step_height == 8);
  cr_expect (fabs (nv12->fps - 30) < 0.01 && fabs (nv12->min_fps - 1) < 0.01, "%g-%g fps", nv12->min_fps, nv12->fps);
  const VisCameraMode *yuyv = &step->modes[1];
  cr_expect (yuyv->min_width == 64 && yuyv->width == 1280 && yuyv->step_width == 1, "continuous sizes step by 1");
  cr_expect (fabs (yuyv->min_fps - 5) < 0.01 && fabs (yuyv->fps - 30) < 0.01);
  cr_expect (fabs (step->modes[2].fps - 30) < 0.01 && step->modes[2].min_fps == 0,
             "a range of one rate is that rate");
  cr_expect_eq (step->modes[3].fps, 0, "a size with no rates listed says none");
  free (step);
}

/* Bad or foreign recordings: false, and the reason names the line. */
Test (modes, odd_recordings_are_clear_errors)
{
  static const struct { const char *file, *says; } cases[] = {
    { "bad/empty.txt", "no format with a size found" },
    { "bad/interval-before-size.txt", "line 5: a frame interval before any size" },
    { "bad/size-not-a-size.txt", "line 5: not a size" },
    { "bad/size-zero.txt", "line 2: not a size" },
    { "bad/rate-too-high.txt", "line 3: not a frame interval" },
    { "bad/not-formats.txt", "line 1: not a line of v4l2-ctl --list-formats-ext" },
    { "bad/ctrls-as-formats.txt", "line 1: not a line of v4l2-ctl --list-formats-ext" },
    { "c920-ctrls.txt", "not a line of v4l2-ctl --list-formats-ext" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      size_t len;
      char *text = read_fixture (cases[i].file, &len);
      VisCameraModes *modes = malloc (sizeof *modes);
      char why[256] = "";
      cr_expect_not (vis_camera_modes_parse (text, len, modes, why, sizeof why), "%s was taken", cases[i].file);
      cr_expect (strstr (why, cases[i].says) != NULL, "%s: '%s' does not say '%s'", cases[i].file, why,
                 cases[i].says);
      free (modes);
      free (text);
    }
  /* inline: a size before any format, a NUL byte, an overlong line, a bad quote */
  static const struct { const char *text; size_t len; const char *says; } inline_cases[] = {
    { "\tSize: Discrete 640x480\n", 0, "line 1: a size before any format" },
    { "\t[0]: 'YU\0V' (x)\n", 17, "line 1: too long or not text" },
    { "\t[0]: MJPG (Motion-JPEG)\n", 0, "line 1: a format without its four-character code" },
    { "\t[0]: 'YUYV'\n\t\tSize: Stepwise 640x480 - 320x240 with step 2/2\n", 0, "smallest is not larger" },
    { "\t[0]: 'YUYV'\n\t\tSize: Stepwise 64x64 - 640x480 with step 0/2\n", 0, "line 2: not a size step" },
    { "\t[0]: 'YUYV'\n\t\tSize: Discrete 640x480\n\t\t\tInterval: Continuous 1.000s - 0.033s\n", 0,
      "line 3: not a frame interval" },
    { "\t[0]: 'YUYV'\n\t\tSize: Discrete 640x480\n\t\t\tInterval: Discrete 0.033s (30.000 fps) extra\n", 0,
      "line 3: not a frame interval" },
  };
  for (size_t i = 0; i < sizeof inline_cases / sizeof inline_cases[0]; i++)
    {
      size_t len = inline_cases[i].len ? inline_cases[i].len : strlen (inline_cases[i].text);
      VisCameraModes *modes = malloc (sizeof *modes);
      char why[256] = "";
      cr_expect_not (vis_camera_modes_parse (inline_cases[i].text, len, modes, why, sizeof why),
                     "case %zu was taken", i);
      cr_expect (strstr (why, inline_cases[i].says) != NULL, "case %zu: '%s' does not say '%s'", i, why,
                 inline_cases[i].says);
      for (const char *p = why; *p; p++)
        cr_expect ((unsigned char) *p >= 0x20, "case %zu: a control byte in the message", i);
      free (modes);
    }
  char *longline = malloc (2000);
  memset (longline, 'x', 1999);
  longline[1999] = '\0';
  VisCameraModes *modes = malloc (sizeof *modes);
  char why[256] = "";
  cr_expect_not (vis_camera_modes_parse (longline, 1999, modes, why, sizeof why));
  cr_expect (strstr (why, "line 1: too long") != NULL, "%s", why);
  cr_expect_not (vis_camera_modes_parse (NULL, 10, modes, why, sizeof why));
  free (modes);
  free (longline);
}

static VisCameraChoice
choose (const char *fixture, int w, int h, double fps)
{
  VisCameraModes *modes = load_modes (fixture);
  VisCameraChoice c = { 0 };
  char why[256] = "";
  bool ok = vis_camera_choose_mode (modes, w, h, fps, &c, why, sizeof why);
  free (modes);
  cr_assert (ok, "%s: %s", fixture, why);
  char said[96];
  vis_camera_choice_describe (&c, said, sizeof said);
  cr_log_info ("%s asked %dx%d at %g fps: %s", fixture, w, h, fps, said);
  return c;
}

static void
expect_choice (VisCameraChoice c, uint32_t fourcc, int w, int h, double fps, const char *what)
{
  char got[96], name[5];
  vis_camera_choice_describe (&c, got, sizeof got);
  cr_expect (c.fourcc == fourcc && c.width == w && c.height == h && fabs (c.fps - fps) < 0.01,
             "%s: chose %s, not %s %dx%d at %g fps", what, got, vis_fourcc_name (fourcc, name), w, h, fps);
}

Test (modes, choice_on_recorded_cameras)
{
  /* The defaults (1920x1080 at 30): the C920 gives 1080p only as MJPEG at
   * 30 fps (its YUYV 1080p is 5 fps, its H.264 is not read). */
  expect_choice (choose ("c920-formats.txt", 0, 0, 0), VIS_FOURCC_MJPEG, 1920, 1080, 30, "C920 defaults");
  /* the same size at the same rate in both: uncompressed wins */
  expect_choice (choose ("c920-formats.txt", 640, 480, 30), VIS_FOURCC_YUYV, 640, 480, 30, "C920 VGA");
  /* a table that asks for 5 fps gets 1080p uncompressed */
  expect_choice (choose ("c920-formats.txt", 1920, 1080, 5), VIS_FOURCC_YUYV, 1920, 1080, 5, "C920 1080p5");
  /* 1296 lines exist only at 2 fps: the fastest near size wins */
  expect_choice (choose ("c920-formats.txt", 2304, 1296, 30), VIS_FOURCC_MJPEG, 1920, 1080, 30, "C920 above 1080p");
  /* 24 fps asked: an exact 24 is offered and nearer than 30 */
  expect_choice (choose ("c920-formats.txt", 1280, 720, 24), VIS_FOURCC_MJPEG, 1280, 720, 24, "C920 720p24");

  /* A 720p camera asked for 1080p: its biggest fast mode, not 1280x960 at 7.5 fps. */
  expect_choice (choose ("c270-formats.txt", 0, 0, 0), VIS_FOURCC_MJPEG, 1280, 720, 30, "C270 defaults");

  /* The cheap camera: 1080p is YUYV at 5 fps only, so the fastest near size
   * (MJPEG 1024x768 at 30) is taken; asked for 5 fps, it gives 1080p. */
  expect_choice (choose ("generic-formats.txt", 0, 0, 0), VIS_FOURCC_MJPEG, 1024, 768, 30, "generic defaults");
  expect_choice (choose ("generic-formats.txt", 1920, 1080, 5), VIS_FOURCC_YUYV, 1920, 1080, 5, "generic 1080p5");
  /* asked for 25 fps at VGA: raw 640x480 at 25 */
  expect_choice (choose ("generic-formats.txt", 640, 480, 25), VIS_FOURCC_YUYV, 640, 480, 25, "generic VGA25");

  /* NV12 at 1080p30 beats MJPEG's 1080p30; 4K asked: MJPEG 4K at 30 */
  expect_choice (choose ("nv12-formats.txt", 0, 0, 0), VIS_FOURCC_NV12, 1920, 1080, 30, "NV12 defaults");
  expect_choice (choose ("nv12-formats.txt", 3840, 2160, 30), VIS_FOURCC_MJPEG, 3840, 2160, 30, "NV12 cam 4K");
  expect_choice (choose ("nv12-formats.txt", 1280, 720, 60), VIS_FOURCC_NV12, 1280, 720, 60, "NV12 cam 720p60");

  /* Ranges give the size asked for, on their step, at the rate asked for. */
  expect_choice (choose ("stepwise-formats.txt", 0, 0, 0), VIS_FOURCC_NV12, 1920, 1080, 30, "stepwise defaults");
  expect_choice (choose ("stepwise-formats.txt", 1500, 1000, 12), VIS_FOURCC_NV12, 1504, 1000, 12, "stepwise snapped");
  expect_choice (choose ("stepwise-formats.txt", 4000, 3000, 30), VIS_FOURCC_NV12, 2592, 1944, 30, "stepwise clamped");
  /* a continuous range gives any size in it exactly */
  expect_choice (choose ("stepwise-formats.txt", 1001, 701, 12), VIS_FOURCC_YUYV, 1001, 701, 12, "continuous");
}

Test (modes, a_size_without_rates_is_taken_as_able)
{
  const char *text = "\t[0]: 'MJPG' (Motion-JPEG)\n\t\tSize: Discrete 640x480\n"
                     "\t[1]: 'YUYV' (YUYV 4:2:2)\n\t\tSize: Discrete 640x480\n"
                     "\t\t\tInterval: Discrete 0.200s (5.000 fps)\n";
  VisCameraModes *modes = malloc (sizeof *modes);
  char why[256] = "";
  cr_assert (vis_camera_modes_parse (text, strlen (text), modes, why, sizeof why), "%s", why);
  VisCameraChoice c;
  cr_assert (vis_camera_choose_mode (modes, 640, 480, 30, &c, why, sizeof why), "%s", why);
  expect_choice (c, VIS_FOURCC_MJPEG, 640, 480, 30, "rate not listed");
  free (modes);
}

Test (modes, nothing_usable_says_what_is_offered)
{
  VisCameraModes *modes = load_modes ("h264-only-formats.txt");
  VisCameraChoice c;
  char why[256] = "";
  cr_expect_not (vis_camera_choose_mode (modes, 0, 0, 0, &c, why, sizeof why));
  cr_expect (strstr (why, "offers only H264, Z16") != NULL, "%s", why);
  cr_expect (strstr (why, "MJPEG, YUYV and NV12") != NULL, "%s", why);
  modes->n = 0;
  cr_expect_not (vis_camera_choose_mode (modes, 0, 0, 0, &c, why, sizeof why));
  cr_expect (strstr (why, "lists no formats") != NULL, "%s", why);
  free (modes);
}

/* ---- controls ---------------------------------------------------------------- */

Test (controls, recorded_controls_parse)
{
  VisCameraCtrls *c920 = load_ctrls ("c920-ctrls.txt");
  cr_expect_eq (c920->n, 17u);
  const VisCameraCtrl *af = vis_camera_ctrls_find (c920, VIS_CID_FOCUS_AUTO);
  cr_assert_not_null (af);
  cr_expect_str_eq (af->name, "focus_automatic_continuous");
  cr_expect (af->type == VIS_CAMERA_CTRL_BOOL && af->min == 0 && af->max == 1 && af->def == 1);
  const VisCameraCtrl *focus = vis_camera_ctrls_find (c920, VIS_CID_FOCUS_ABSOLUTE);
  cr_assert_not_null (focus);
  cr_expect (focus->min == 0 && focus->max == 250 && focus->step == 5 && focus->inactive && !focus->read_only);
  const VisCameraCtrl *exp = vis_camera_ctrls_find (c920, VIS_CID_EXPOSURE_AUTO);
  cr_assert_not_null (exp);
  cr_expect (exp->type == VIS_CAMERA_CTRL_MENU && exp->menu == ((1u << 1) | (1u << 3)), "menu 0x%llx",
             (unsigned long long) exp->menu);
  const VisCameraCtrl *plf = vis_camera_ctrls_find (c920, VIS_CID_POWER_LINE_FREQUENCY);
  cr_assert_not_null (plf);
  cr_expect (plf->menu == 7 && plf->def == 2);
  const VisCameraCtrl *pan = vis_camera_ctrls_find (c920, 0x009a0908);
  cr_assert_not_null (pan);
  cr_expect (pan->min == -36000 && pan->step == 3600);
  free (c920);

  VisCameraCtrls *c270 = load_ctrls ("c270-ctrls.txt");
  cr_expect_null (vis_camera_ctrls_find (c270, VIS_CID_FOCUS_AUTO));
  cr_expect_null (vis_camera_ctrls_find (c270, VIS_CID_FOCUS_ABSOLUTE));
  cr_expect_str_eq (vis_camera_ctrls_find (c270, VIS_CID_EXPOSURE_AUTO)->name, "exposure_auto");
  free (c270);

  VisCameraCtrls *generic = load_ctrls ("generic-ctrls.txt");
  const VisCameraCtrl *t = vis_camera_ctrls_find (generic, VIS_CID_EXPOSURE_ABSOLUTE);
  cr_assert_not_null (t);
  cr_expect (t->inactive && t->read_only, "flags=inactive, read-only");
  free (generic);
}

Test (controls, odd_recordings_are_clear_errors)
{
  static const struct { const char *file, *says; } cases[] = {
    { "bad/empty.txt", "no controls found" },
    { "bad/ctrl-missing-max.txt", "line 3: not a control line (an int control with min=, max=, step= and default=)" },
    { "bad/ctrl-twice.txt", "line 2: control 0x00980900 (brightness) is listed twice" },
    { "bad/menu-item-alone.txt", "line 3: a menu item under no menu control" },
    { "bad/menu-item-outside.txt", "line 3: menu item 7 of power_line_frequency is outside its range 0 to 2" },
    { "bad/ctrl-min-above-max.txt", "line 1: not a control line (a range whose min is not above its max" },
    { "bad/ctrl-bad-number.txt", "line 1: not a control line (whole numbers" },
    { "bad/ctrl-unknown-type.txt", "line 1: not a control line (a control of a known type" },
    { "c920-formats.txt", "not a control line" },
    { "bad/not-formats.txt", "line 1: not a control line" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      size_t len;
      char *text = read_fixture (cases[i].file, &len);
      VisCameraCtrls *ctrls = malloc (sizeof *ctrls);
      char why[256] = "";
      cr_expect_not (vis_camera_ctrls_parse (text, len, ctrls, why, sizeof why), "%s was taken", cases[i].file);
      cr_expect (strstr (why, cases[i].says) != NULL, "%s: '%s' does not say '%s'", cases[i].file, why,
                 cases[i].says);
      free (ctrls);
      free (text);
    }
  /* more controls than fit */
  GString *many = g_string_new (NULL);
  for (int i = 0; i <= VIS_CAMERA_CTRLS_MAX; i++)
    g_string_append_printf (many, "c%d 0x%08x (int) : min=0 max=1 step=1 default=0\n", i, 0x00980900 + i);
  VisCameraCtrls *ctrls = malloc (sizeof *ctrls);
  char why[256] = "";
  cr_expect_not (vis_camera_ctrls_parse (many->str, many->len, ctrls, why, sizeof why));
  cr_expect (strstr (why, "line 65: more than 64 controls") != NULL, "%s", why);
  g_string_free (many, TRUE);
  free (ctrls);
}

static VisCameraPlan
plan_for (const char *fixture, VisCameraControls want)
{
  VisCameraCtrls *ctrls = load_ctrls (fixture);
  VisCameraPlan plan;
  vis_camera_plan_controls (&want, ctrls, &plan);
  free (ctrls);
  for (unsigned i = 0; i < plan.n; i++)
    cr_log_info ("%s: set %s = %d%s", fixture, vis_camera_ctrl_label (plan.settings[i].id),
                 (int) plan.settings[i].value, plan.settings[i].after_settling ? " (after settling)" : "");
  if (plan.notes[0])
    cr_log_info ("%s: notes: %s", fixture, plan.notes);
  return plan;
}

static void
expect_setting (const VisCameraPlan *plan, unsigned i, uint32_t id, int32_t value, bool after)
{
  cr_assert_lt (i, plan->n, "setting %u is missing (%u set)", i, plan->n);
  const VisCameraSetting *s = &plan->settings[i];
  cr_expect (s->id == id && s->value == value && s->after_settling == after,
             "setting %u: %s = %d%s, not %s = %d%s", i, vis_camera_ctrl_label (s->id), (int) s->value,
             s->after_settling ? " (after settling)" : "", vis_camera_ctrl_label (id), (int) value,
             after ? " (after settling)" : "");
}

Test (controls, table_settings_on_a_c920)
{
  /* focus locked at 42: autofocus off first, then the position, on the step of 5 */
  VisCameraPlan p = plan_for ("c920-ctrls.txt", (VisCameraControls) { .focus = VIS_FOCUS_LOCKED, .focus_position = 42,
                                                                     .exposure = VIS_EXPOSURE_MANUAL,
                                                                     .exposure_time = 100,
                                                                     .anti_flicker = VIS_ANTI_FLICKER_50HZ });
  cr_expect_eq (p.n, 5u);
  expect_setting (&p, 0, VIS_CID_FOCUS_AUTO, 0, false);
  expect_setting (&p, 1, VIS_CID_FOCUS_ABSOLUTE, 40, false);
  expect_setting (&p, 2, VIS_CID_EXPOSURE_AUTO, 1, false);
  expect_setting (&p, 3, VIS_CID_EXPOSURE_ABSOLUTE, 100, false);
  expect_setting (&p, 4, VIS_CID_POWER_LINE_FREQUENCY, 1, false);
  cr_expect_str_eq (p.notes, "focus position 42: the camera takes 0 to 250 in steps of 5; set to 40");

  /* focus locked where autofocus settles: on now, off after settling */
  p = plan_for ("c920-ctrls.txt", (VisCameraControls) { .focus = VIS_FOCUS_LOCKED, .focus_position = -1 });
  cr_expect_eq (p.n, 2u);
  expect_setting (&p, 0, VIS_CID_FOCUS_AUTO, 1, false);
  expect_setting (&p, 1, VIS_CID_FOCUS_AUTO, 0, true);
  cr_expect_str_eq (p.notes, "");

  /* out of range both ways: clamped, and said */
  p = plan_for ("c920-ctrls.txt", (VisCameraControls) { .focus = VIS_FOCUS_LOCKED, .focus_position = 999,
                                                       .exposure = VIS_EXPOSURE_MANUAL, .exposure_time = 1 });
  expect_setting (&p, 1, VIS_CID_FOCUS_ABSOLUTE, 250, false);
  expect_setting (&p, 3, VIS_CID_EXPOSURE_ABSOLUTE, 3, false);
  cr_expect (strstr (p.notes, "focus position 999: the camera takes 0 to 250 in steps of 5; set to 250") != NULL,
             "%s", p.notes);
  cr_expect (strstr (p.notes, "exposure time 1 (x 0.1 ms): the camera takes 3 to 2047") != NULL, "%s", p.notes);

  /* manual exposure at the camera's own default time */
  p = plan_for ("c920-ctrls.txt", (VisCameraControls) { .exposure = VIS_EXPOSURE_MANUAL, .exposure_time = -1 });
  cr_expect_eq (p.n, 2u);
  expect_setting (&p, 1, VIS_CID_EXPOSURE_ABSOLUTE, 250, false);

  /* automatic: autofocus on; exposure "aperture priority", UVC's automatic */
  p = plan_for ("c920-ctrls.txt", (VisCameraControls) { .focus = VIS_FOCUS_AUTO, .exposure = VIS_EXPOSURE_AUTO,
                                                       .anti_flicker = VIS_ANTI_FLICKER_60HZ });
  cr_expect_eq (p.n, 3u);
  expect_setting (&p, 0, VIS_CID_FOCUS_AUTO, 1, false);
  expect_setting (&p, 1, VIS_CID_EXPOSURE_AUTO, 3, false);
  expect_setting (&p, 2, VIS_CID_POWER_LINE_FREQUENCY, 2, false);
  cr_expect_str_eq (p.notes, "");

  /* anti-flicker "auto" is not in its menu: left as it is, and said */
  p = plan_for ("c920-ctrls.txt", (VisCameraControls) { .anti_flicker = VIS_ANTI_FLICKER_AUTO });
  cr_expect_eq (p.n, 0u);
  cr_expect_str_eq (p.notes, "anti-flicker auto: the camera does not offer it (only off, 50 Hz, 60 Hz); "
                             "left as it is");

  /* nothing asked: nothing set, nothing said */
  p = plan_for ("c920-ctrls.txt", (VisCameraControls) { 0 });
  cr_expect_eq (p.n, 0u);
  cr_expect_str_eq (p.notes, "");
}

Test (controls, a_fixed_focus_camera_says_what_it_lacks)
{
  /* locking the C270's focus: nothing to lock, said; autofocus asked: silent */
  VisCameraPlan p = plan_for ("c270-ctrls.txt", (VisCameraControls) { .focus = VIS_FOCUS_LOCKED, .focus_position = 30 });
  cr_expect_eq (p.n, 0u);
  cr_expect_str_eq (p.notes, "focus: this camera has no focus control (a fixed-focus lens?); nothing to lock");
  p = plan_for ("c270-ctrls.txt", (VisCameraControls) { .focus = VIS_FOCUS_AUTO, .exposure = VIS_EXPOSURE_AUTO });
  cr_expect_eq (p.n, 1u);
  expect_setting (&p, 0, VIS_CID_EXPOSURE_AUTO, 3, false);
  cr_expect_str_eq (p.notes, "");
  /* a 2 s exposure on a camera that stops at 1 s */
  p = plan_for ("c270-ctrls.txt", (VisCameraControls) { .exposure = VIS_EXPOSURE_MANUAL, .exposure_time = 20000 });
  expect_setting (&p, 1, VIS_CID_EXPOSURE_ABSOLUTE, 10000, false);
  cr_expect (strstr (p.notes, "set to 10000") != NULL, "%s", p.notes);
}

Test (controls, read_only_and_missing_controls_are_skipped_and_said)
{
  /* the generic camera's exposure time is read-only: manual mode is set,
   * the time is not, and the note says why */
  VisCameraPlan p = plan_for ("generic-ctrls.txt", (VisCameraControls) { .exposure = VIS_EXPOSURE_MANUAL,
                                                                        .exposure_time = 100,
                                                                        .focus = VIS_FOCUS_LOCKED,
                                                                        .focus_position = -1 });
  cr_expect_eq (p.n, 1u);
  expect_setting (&p, 0, VIS_CID_EXPOSURE_AUTO, 1, false);
  cr_expect (strstr (p.notes, "focus: this camera has no focus control") != NULL, "%s", p.notes);
  cr_expect (strstr (p.notes, "exposure: this camera has no exposure time control that can be set: it is "
                              "read-only; manual at the time it has") != NULL, "%s", p.notes);

  /* a camera with no anti-flicker and a disabled autofocus */
  const char *text = "focus_automatic_continuous 0x009a090c (bool) : default=1 value=1 flags=disabled\n";
  VisCameraCtrls ctrls;
  char why[256];
  cr_assert (vis_camera_ctrls_parse (text, strlen (text), &ctrls, why, sizeof why), "%s", why);
  VisCameraControls want = { .focus = VIS_FOCUS_AUTO, .anti_flicker = VIS_ANTI_FLICKER_50HZ };
  vis_camera_plan_controls (&want, &ctrls, &p);
  cr_expect_eq (p.n, 0u);
  cr_expect_str_eq (p.notes, "focus: the camera's autofocus switch is disabled; left as it is\n"
                             "anti-flicker: this camera has no power-line frequency control; left as it is");
  /* no controls at all (a camera that lists none) */
  vis_camera_plan_controls (&want, NULL, &p);
  cr_expect_eq (p.n, 0u);
  cr_expect (strstr (p.notes, "no power-line frequency control") != NULL);
}

Test (controls, a_camera_with_everything)
{
  VisCameraPlan p = plan_for ("nv12-ctrls.txt", (VisCameraControls) { .focus = VIS_FOCUS_LOCKED, .focus_position = 300,
                                                                     .exposure = VIS_EXPOSURE_AUTO,
                                                                     .anti_flicker = VIS_ANTI_FLICKER_AUTO });
  cr_expect_eq (p.n, 4u);
  expect_setting (&p, 0, VIS_CID_FOCUS_AUTO, 0, false);
  expect_setting (&p, 1, VIS_CID_FOCUS_ABSOLUTE, 300, false);
  expect_setting (&p, 2, VIS_CID_EXPOSURE_AUTO, 0, false);   /* V4L2_EXPOSURE_AUTO is offered here */
  expect_setting (&p, 3, VIS_CID_POWER_LINE_FREQUENCY, 3, false);
  cr_expect_str_eq (p.notes, "");
  /* an exposure mode menu with no manual item */
  const char *text = "auto_exposure 0x009a0901 (menu) : min=0 max=3 default=0\n0: Auto Mode\n";
  VisCameraCtrls ctrls;
  char why[256];
  cr_assert (vis_camera_ctrls_parse (text, strlen (text), &ctrls, why, sizeof why), "%s", why);
  VisCameraControls want = { .exposure = VIS_EXPOSURE_MANUAL, .exposure_time = 10 };
  vis_camera_plan_controls (&want, &ctrls, &p);
  cr_expect_eq (p.n, 0u);
  cr_expect_str_eq (p.notes, "exposure: the camera offers no manual exposure mode; left as it is");
}

/* ---- words -------------------------------------------------------------------- */

Test (words, anti_flicker)
{
  static const struct { const char *word; VisAntiFlicker value; } ok[] = {
    { "camera", VIS_ANTI_FLICKER_UNSET }, { "off", VIS_ANTI_FLICKER_OFF }, { "50", VIS_ANTI_FLICKER_50HZ },
    { "60", VIS_ANTI_FLICKER_60HZ },      { "auto", VIS_ANTI_FLICKER_AUTO },
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
    {
      VisAntiFlicker v = 99;
      cr_expect (vis_anti_flicker_parse (ok[i].word, &v), "%s", ok[i].word);
      cr_expect_eq (v, ok[i].value, "%s", ok[i].word);
      cr_expect_str_eq (vis_anti_flicker_name (v), ok[i].word);
    }
  static const char *const bad[] = { "", "50Hz", "5", "Auto", "on", " 50", NULL };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      VisAntiFlicker v = 99;
      cr_expect_not (vis_anti_flicker_parse (bad[i], &v), "'%s' was taken", bad[i] ? bad[i] : "(null)");
      cr_expect_eq (v, 99);
    }
}

Test (words, focus_and_exposure)
{
  VisCameraControls c = { 0 };
  cr_expect (vis_camera_focus_parse ("auto", &c) && c.focus == VIS_FOCUS_AUTO);
  cr_expect (vis_camera_focus_parse ("lock", &c) && c.focus == VIS_FOCUS_LOCKED && c.focus_position == -1);
  cr_expect (vis_camera_focus_parse ("0", &c) && c.focus == VIS_FOCUS_LOCKED && c.focus_position == 0);
  cr_expect (vis_camera_focus_parse ("250", &c) && c.focus_position == 250);
  cr_expect (vis_camera_focus_parse ("100000", &c) && c.focus_position == 100000);
  static const char *const bad_focus[] = { "", "-1", "+5", "x", "100001", "12a", "locked", "99999999999999999999", NULL };
  for (size_t i = 0; i < sizeof bad_focus / sizeof bad_focus[0]; i++)
    {
      VisCameraControls d = { .focus = 77, .focus_position = 77 };
      cr_expect_not (vis_camera_focus_parse (bad_focus[i], &d), "focus '%s' was taken", bad_focus[i] ? bad_focus[i] : "");
      cr_expect (d.focus == 77 && d.focus_position == 77, "a refused word changed the controls");
    }

  cr_expect (vis_camera_exposure_parse ("auto", &c) && c.exposure == VIS_EXPOSURE_AUTO);
  cr_expect (vis_camera_exposure_parse ("manual", &c) && c.exposure == VIS_EXPOSURE_MANUAL && c.exposure_time == -1);
  cr_expect (vis_camera_exposure_parse ("stickers", &c) && c.exposure == VIS_EXPOSURE_MANUAL && c.exposure_time == -1
             && c.meter_stickers);
  cr_expect (vis_camera_exposure_parse ("manual", &c) && !c.meter_stickers, "a fixed time is not metered");
  cr_expect (vis_camera_exposure_parse ("10", &c) && c.exposure == VIS_EXPOSURE_MANUAL && c.exposure_time == 100);
  cr_expect (vis_camera_exposure_parse ("8.3", &c) && c.exposure_time == 83);
  cr_expect (vis_camera_exposure_parse ("8.33", &c) && c.exposure_time == 83);
  cr_expect (vis_camera_exposure_parse ("0.1", &c) && c.exposure_time == 1);
  cr_expect (vis_camera_exposure_parse ("10000", &c) && c.exposure_time == 100000);
  static const char *const bad_exp[] = { "", "0", "0.04", "10000.1", "-5", "1e3", "10ms", "8,3", ".", NULL };
  for (size_t i = 0; i < sizeof bad_exp / sizeof bad_exp[0]; i++)
    {
      VisCameraControls d = { .exposure = 77, .exposure_time = 77 };
      cr_expect_not (vis_camera_exposure_parse (bad_exp[i], &d), "exposure '%s' was taken", bad_exp[i] ? bad_exp[i] : "");
      cr_expect (d.exposure == 77 && d.exposure_time == 77, "a refused word changed the controls");
    }

  char said[160];
  vis_camera_controls_describe (&(VisCameraControls) { 0 }, said, sizeof said);
  cr_expect_str_eq (said, "camera defaults");
  vis_camera_controls_describe (&(VisCameraControls) { .focus = VIS_FOCUS_LOCKED, .focus_position = 40,
                                                       .exposure = VIS_EXPOSURE_AUTO,
                                                       .anti_flicker = VIS_ANTI_FLICKER_50HZ },
                                said, sizeof said);
  cr_expect_str_eq (said, "focus locked at 40, automatic exposure, anti-flicker 50 Hz");
}

/* ---- sources ------------------------------------------------------------------ */

Test (sources, controls_on_sources_without_a_camera)
{
  /* the demo and files keep the controls and set nothing; no report */
  VisSourceOptions opts = { .format = VIS_PIXEL_GRAY8,
                            .controls = { .focus = VIS_FOCUS_LOCKED, .anti_flicker = VIS_ANTI_FLICKER_50HZ } };
  VisSource *src = NULL;
  VisSourceError err = { "" };
  cr_assert_eq (vis_source_open ("demo", &opts, &src, &err), VIS_SOURCE_OK, "%s", err.message);
  cr_expect_str_eq (vis_source_controls_report (src), "");
  VisCameraControls c = { .exposure = VIS_EXPOSURE_MANUAL, .exposure_time = 100 };
  cr_expect_eq (vis_source_set_controls (src, &c, &err), VIS_SOURCE_OK);
  cr_expect_str_eq (vis_source_controls_report (src), "");
  VisFrame frame;
  cr_expect (vis_source_status_has_frame (vis_source_read (src, &frame, &err)), "%s", err.message);
  cr_expect_eq (vis_source_set_controls (src, NULL, &err), VIS_SOURCE_ERR_INVALID_ARGUMENT);
  cr_expect_eq (vis_source_set_controls (NULL, &c, &err), VIS_SOURCE_ERR_INVALID_ARGUMENT);
  cr_expect_str_eq (vis_source_controls_report (NULL), "");
  vis_source_close (src);

  /* a webcam that is not there is still "no camera", controls or not */
  src = NULL;
  cr_expect_eq (vis_source_open ("v4l2:/dev/video-tablero-none", &opts, &src, &err), VIS_SOURCE_NO_CAMERA);
  cr_expect_null (src);
}

/* ---- tablero-cli watch ---------------------------------------------------------- */

/* Runs tablero-cli watch with `args` after --source demo; its exit status,
 * and its standard error in *err (g_free). */
static int
run_watch (const char *const *args, char **err)
{
  const char *cli = g_getenv ("TABLERO_CLI");
  cr_assert_not_null (cli, "TABLERO_CLI names the tablero-cli to run");
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) cli);
  g_ptr_array_add (argv, "watch");
  g_ptr_array_add (argv, "--source");
  g_ptr_array_add (argv, "demo");
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  int status = -1;
  GError *error = NULL;
  gboolean ran = g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                               err, &status, &error);
  g_ptr_array_free (argv, TRUE);
  cr_assert (ran, "%s", error ? error->message : "?");
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* A metered time survives a change of focus or flicker; a new starting
 * time, metering switched off or automatic exposure take over. */
Test (controls, a_metered_time_is_kept_while_metering_goes_on)
{
  VisCameraControls before = { .exposure = VIS_EXPOSURE_MANUAL, .exposure_time = 200, .meter_stickers = true };
  VisCameraControls now = before, out;
  now.exposure_time = 34;
  VisCameraControls asked = before;
  asked.anti_flicker = VIS_ANTI_FLICKER_50HZ;
  asked.focus = VIS_FOCUS_LOCKED;
  vis_camera_controls_follow (&before, &asked, &now, &out);
  cr_expect (out.exposure_time == 34 && out.anti_flicker == VIS_ANTI_FLICKER_50HZ && out.focus == VIS_FOCUS_LOCKED
             && out.meter_stickers, "time %d", out.exposure_time);
  asked.exposure_time = 100;
  vis_camera_controls_follow (&before, &asked, &now, &out);
  cr_expect_eq (out.exposure_time, 100, "a new starting time is where it starts again");
  asked = before;
  asked.meter_stickers = false;
  vis_camera_controls_follow (&before, &asked, &now, &out);
  cr_expect (out.exposure_time == 200 && !out.meter_stickers, "switched off: the fixed time asked");
  asked = before;
  asked.exposure = VIS_EXPOSURE_AUTO;
  vis_camera_controls_follow (&before, &asked, &now, &out);
  cr_expect_eq (out.exposure, VIS_EXPOSURE_AUTO);
  cr_expect_eq (out.exposure_time, 200);
  /* not metered before: nothing to keep */
  before.meter_stickers = false;
  asked = before;
  asked.meter_stickers = true;
  vis_camera_controls_follow (&before, &asked, &now, &out);
  cr_expect_eq (out.exposure_time, 200);
}

Test (cli, watch_camera_options)
{
  static const struct { const char *args[3]; const char *says; } bad[] = {
    { { "--focus", "near" }, "--focus takes auto, lock or a focus position from 0 to 100000, not 'near'" },
    { { "--focus", "-1" }, "--focus takes" },
    { { "--exposure", "0" }, "--exposure takes auto, manual, stickers or a time in milliseconds from 0.1 to 10000, not '0'" },
    { { "--exposure", "10ms" }, "not '10ms'" },
    { { "--anti-flicker", "55" }, "--anti-flicker takes off, 50, 60, auto or camera, not '55'" },
    { { "--anti-flicker", "50\x1b[2J" }, "not '50\\x1b[2J'" },   /* escaped, not sent to the terminal */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      char *err = NULL;
      cr_expect_eq (run_watch (bad[i].args, &err), 2, "%s %s", bad[i].args[0], bad[i].args[1]);
      cr_expect (strstr (err, bad[i].says) != NULL, "%s %s: stderr '%s'", bad[i].args[0], bad[i].args[1], err);
      g_free (err);
    }
  /* good values: the demo has no camera controls and referees as before */
  const char *good[] = { "--focus", "lock", "--exposure", "8.3", "--anti-flicker", "50", "--frames", "2", NULL };
  char *err = NULL;
  cr_expect_eq (run_watch (good, &err), 0, "stderr: %s", err);
  g_free (err);
  const char *metered[] = { "--exposure", "stickers", "--frames", "2", NULL };
  cr_expect_eq (run_watch (metered, &err), 0, "stderr: %s", err);
  g_free (err);
}

/* ---- settings schema -------------------------------------------------------- */

static bool
in_range (GSettingsSchemaKey *key, int value)
{
  GVariant *v = g_variant_ref_sink (g_variant_new_int32 (value));
  bool ok = g_settings_schema_key_range_check (key, v);
  g_variant_unref (v);
  return ok;
}

/* The camera keys of data/org.tablero.Tablero.gschema.xml (compiled into
 * GSETTINGS_SCHEMA_DIR): present, of the documented type, defaults that
 * are the camera's own way (autofocus, automatic exposure, its own
 * anti-flicker), and the anti-flicker choices exactly the words
 * vis_anti_flicker_parse takes. */
Test (schema, camera_keys)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  cr_assert_not_null (source, "no schema source (GSETTINGS_SCHEMA_DIR)");
  GSettingsSchema *schema = g_settings_schema_source_lookup (source, "org.tablero.Tablero", TRUE);
  cr_assert_not_null (schema, "org.tablero.Tablero is not compiled in GSETTINGS_SCHEMA_DIR");
  static const struct { const char *key, *type, *def; } keys[] = {
    { "camera-focus-locked", "b", "false" },
    { "camera-focus", "i", "-1" },
    { "camera-exposure-auto", "b", "true" },
    { "camera-exposure", "i", "-1" },
    { "camera-anti-flicker", "s", "'camera'" },
  };
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    {
      cr_assert (g_settings_schema_has_key (schema, keys[i].key), "no key %s", keys[i].key);
      GSettingsSchemaKey *key = g_settings_schema_get_key (schema, keys[i].key);
      gchar *type = g_variant_type_dup_string (g_settings_schema_key_get_value_type (key));
      cr_expect_str_eq (type, keys[i].type, "%s", keys[i].key);
      g_free (type);
      GVariant *def = g_settings_schema_key_get_default_value (key);
      gchar *text = g_variant_print (def, FALSE);
      cr_expect_str_eq (text, keys[i].def, "%s", keys[i].key);
      g_free (text);
      g_variant_unref (def);
      g_settings_schema_key_unref (key);
    }
  /* the anti-flicker choices */
  GSettingsSchemaKey *key = g_settings_schema_get_key (schema, "camera-anti-flicker");
  GVariant *range = g_settings_schema_key_get_range (key);
  const char *kind;
  GVariant *values;
  g_variant_get (range, "(&sv)", &kind, &values);
  cr_expect_str_eq (kind, "enum");
  GVariantIter iter;
  const char *word;
  unsigned n = 0;
  g_variant_iter_init (&iter, values);
  while (g_variant_iter_next (&iter, "&s", &word))
    {
      VisAntiFlicker v;
      cr_expect (vis_anti_flicker_parse (word, &v), "choice '%s' is not a word Tablero reads", word);
      n++;
    }
  cr_expect_eq (n, 5u);
  g_variant_unref (values);
  g_variant_unref (range);
  g_settings_schema_key_unref (key);
  /* the numbers: -1 (the camera's own) up to the largest the sources take */
  static const struct { const char *key; int max; } ranges[] = {
    { "camera-focus", VIS_CAMERA_FOCUS_MAX }, { "camera-exposure", VIS_CAMERA_EXPOSURE_MAX } };
  for (size_t i = 0; i < 2; i++)
    {
      key = g_settings_schema_get_key (schema, ranges[i].key);
      cr_expect (in_range (key, -1), "%s: -1", ranges[i].key);
      cr_expect (in_range (key, ranges[i].max), "%s: max", ranges[i].key);
      cr_expect_not (in_range (key, -2), "%s: -2", ranges[i].key);
      cr_expect_not (in_range (key, ranges[i].max + 1), "%s: max+1", ranges[i].key);
      g_settings_schema_key_unref (key);
    }
  g_settings_schema_unref (schema);
}

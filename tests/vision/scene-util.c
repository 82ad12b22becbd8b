#include "scene-util.h"

#include <criterion/criterion.h>

#include "eng-game.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const uint8_t test_printing_key[ENG_PRINTING_KEY_LEN] = {
  0x74, 0x65, 0x73, 0x74, 0x20, 0x70, 0x72, 0x69, 0x6e, 0x74, 0x69, 0x6e, 0x67, 0x01, 0x02, 0x03,
  0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13,
};

const EngPrinting *
test_printing (void)
{
  static EngPrinting *printing;
  if (printing != NULL)
    return printing;
  const char *datadir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (datadir, "TABLERO_DATADIR is not set");
  for (size_t i = 0; i < eng_game_class_count (); i++)
    {
      char path[1024];
      snprintf (path, sizeof path, "%s/cards/%s.set", datadir, eng_game_class_get (i)->name);
      EngCardSet *set = NULL;
      EngParseError err = { 0 };
      cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s: %s", path, err.reason);
      EngStatus st = printing == NULL ? eng_printing_new (set, test_printing_key, &printing)
                                      : eng_printing_add (printing, set, test_printing_key);
      cr_assert_eq (st, ENG_OK);
      eng_card_set_free (set);
    }
  return printing;
}

VisDetector *
test_detector_new (const VisDetectorOptions *opts)
{
  VisDetector *det = vis_detector_new (opts);
  if (det != NULL)
    vis_detector_set_printing (det, test_printing ());
  return det;
}

void
test_scene_open (TestScene *ts, const char *text)
{
  memset (ts, 0, sizeof *ts);
  EngParseError err = { 0 };
  EngStatus st = vis_scene_parse (text, strlen (text), "test scene", &ts->scene, &err);
  cr_assert_eq (st, ENG_OK, "scene: %s:%u: %s", err.source, err.line, err.reason);
  vis_scene_set_printing (ts->scene, test_printing ());
  cr_assert_eq (vis_renderer_new (ts->scene, 0, &ts->renderer), ENG_OK);
  int w = vis_scene_width (ts->scene), h = vis_scene_height (ts->scene);
  ts->image.width = w;
  ts->image.height = h;
  ts->image.stride = (size_t) w * 3;
  ts->image.format = VIS_PIXEL_BGR8;
  ts->image.data = malloc ((size_t) w * h * 3);
  ts->truth = malloc (sizeof *ts->truth);
  cr_assert_not_null (ts->image.data);
  cr_assert_not_null (ts->truth);
}

void
test_scene_render (TestScene *ts, double t_s)
{
  cr_assert_eq (vis_renderer_render (ts->renderer, t_s, &ts->image, ts->truth), ENG_OK);
}

void
test_scene_close (TestScene *ts)
{
  vis_renderer_free (ts->renderer);
  vis_scene_free (ts->scene);
  free (ts->image.data);
  free (ts->truth);
  memset (ts, 0, sizeof *ts);
}

TestScore
test_score (const VisTruth *truth, const VisDetection *d, size_t n)
{
  TestScore s = { 0, 0, 0, 0 };
  for (unsigned t = 0; t < truth->n_tags; t++)
    {
      const VisTruthTag *tag = &truth->tags[t];
      if (tag->kind == VIS_TRUTH_FOREIGN || !tag->in_view || tag->occluded)
        continue;
      s.expected++;
      for (size_t i = 0; i < n; i++)
        {
          float err = 0;
          for (int k = 0; k < 4; k++)
            err = fmaxf (err, hypotf (d[i].corners[k].x - tag->corners[k][0], d[i].corners[k].y - tag->corners[k][1]));
          if (strcmp (d[i].payload, tag->payload) == 0 && err < 0.5f * 21 * (float) tag->module_px)
            {
              s.found++;
              s.max_corner_err = fmaxf (s.max_corner_err, err);
              break;
            }
        }
    }
  for (size_t i = 0; i < n; i++)
    {
      bool ok = false;
      for (unsigned t = 0; t < truth->n_tags && !ok; t++)
        {
          const VisTruthTag *tag = &truth->tags[t];
          float cx = 0, cy = 0;
          for (int k = 0; k < 4; k++)
            cx += tag->corners[k][0] / 4, cy += tag->corners[k][1] / 4;
          ok = strcmp (d[i].payload, tag->payload) == 0
               && hypotf (d[i].centre.x - cx, d[i].centre.y - cy) < 21 * (float) tag->module_px;
        }
      s.wrong += !ok;
    }
  return s;
}

char *
test_grid_scene (int n_cards, double tilt_deg, const char *extra)
{
  /* 8 columns at most; rows as needed; the camera frames the grid. */
  int cols = n_cards < 8 ? n_cards : 8;
  int rows = (n_cards + cols - 1) / cols;
  size_t cap = 4096 + (size_t) n_cards * 96 + strlen (extra);
  char *s = malloc (cap);
  int len = snprintf (s, cap,
                      "image width=1920 height=1080 fps=10 duration=6 seed=21 format=png\n"
                      "camera height=680 tilt=%.1f fov=62 target=440,%d\n"
                      "table width=880 height=%d\n"
                      "tags game=K set=01\n"
                      "sticker size=40 quiet=2\n"
                      "card-size width=63 height=88\n",
                      tilt_deg, 65 + (rows - 1) * 49, 130 + rows * 98);
  unsigned rng = 777u + (unsigned) n_cards;
  for (int i = 0; i < n_cards; i++)
    {
      int r = i / cols, c = i % cols;
      rng = rng * 1103515245u + 12345u;
      int jitter = (int) ((rng >> 16) % 9) - 4;
      rng = rng * 1103515245u + 12345u;
      int rot = (int) ((rng >> 16) % 4) * 90 + (int) ((rng >> 8) % 31) - 15;
      len += snprintf (s + len, cap - (size_t) len, "card c%d face=%d back=1 at=%d,%d rot=%d\n", i + 1, i + 1,
                       75 + c * 104 + jitter, 65 + r * 98 - jitter, rot);
    }
  snprintf (s + len, cap - (size_t) len, "%s", extra);
  return s;
}

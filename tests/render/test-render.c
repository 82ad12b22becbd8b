/* The synthetic renderer: determinism, ground truth checked by decoding the
 * rendered stickers with zbar (payloads and corners), occlusion, events. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zbar.h>

#include "eng-printing.h"
#include "vis-render.h"

typedef struct {
  VisScene *scene;
  VisRenderer *renderer;
  VisImage img;
  VisTruth *truth;
} Fixture;

static VisScene *
load_scene (const char *name)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir);
  char path[1024];
  snprintf (path, sizeof path, "%s/scenes/%s", dir, name);
  VisScene *s = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (vis_scene_load_file (path, &s, &err), ENG_OK, "%s:%u: %s", err.source, err.line,
                err.reason);
  return s;
}

static void
fixture_open_scene (Fixture *f, VisScene *scene, VisPixelFormat format, uint64_t seed)
{
  f->scene = scene;
  cr_assert_eq (vis_renderer_new (f->scene, seed, &f->renderer), ENG_OK);
  int w = vis_scene_width (f->scene), h = vis_scene_height (f->scene);
  int bpp = vis_pixel_format_bpp (format);
  /* A stride wider than the row, to prove strides are honoured. */
  size_t stride = (size_t) w * bpp + 64;
  f->img = (VisImage) { w, h, stride, format, calloc ((size_t) h, stride) };
  f->truth = calloc (1, sizeof *f->truth);
}

static void
fixture_open (Fixture *f, const char *name, VisPixelFormat format, uint64_t seed)
{
  fixture_open_scene (f, load_scene (name), format, seed);
}

static void
fixture_close (Fixture *f)
{
  vis_renderer_free (f->renderer);
  vis_scene_free (f->scene);
  free (f->img.data);
  free (f->truth);
}

static const VisTruthTag *
find_tag (const VisTruth *t, const char *id)
{
  for (unsigned i = 0; i < t->n_tags; i++)
    if (strcmp (t->tags[i].id, id) == 0)
      return &t->tags[i];
  return NULL;
}

/* Decodes the crop around `tag` in the grey image and checks the payload and
 * that every true corner lies within `tol` px of a corner zbar reports.
 * Returns true when the payload was found; *corner_err gets the worst corner
 * distance. */
static bool
decode_crop (zbar_image_scanner_t *scanner, const VisImage *img, const VisTruthTag *tag,
             double margin_modules, double *corner_err)
{
  double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
  for (int k = 0; k < 4; k++)
    {
      x0 = fmin (x0, tag->corners[k][0]);
      x1 = fmax (x1, tag->corners[k][0]);
      y0 = fmin (y0, tag->corners[k][1]);
      y1 = fmax (y1, tag->corners[k][1]);
    }
  double margin = margin_modules * tag->module_px + 4;
  int cx0 = (int) fmax (0, floor (x0 - margin)), cy0 = (int) fmax (0, floor (y0 - margin));
  int cx1 = (int) fmin (img->width, ceil (x1 + margin));
  int cy1 = (int) fmin (img->height, ceil (y1 + margin));
  int w = cx1 - cx0, h = cy1 - cy0;
  cr_assert (w > 0 && h > 0);
  uint8_t *crop = malloc ((size_t) w * h);
  for (int y = 0; y < h; y++)
    memcpy (crop + (size_t) y * w, img->data + (size_t) (y + cy0) * img->stride + cx0, (size_t) w);
  zbar_image_t *zi = zbar_image_create ();
  zbar_image_set_format (zi, zbar_fourcc ('Y', '8', '0', '0'));
  zbar_image_set_size (zi, (unsigned) w, (unsigned) h);
  zbar_image_set_data (zi, crop, (unsigned long) w * h, NULL);
  zbar_scan_image (scanner, zi);
  bool found = false;
  *corner_err = 1e9;
  for (const zbar_symbol_t *sym = zbar_image_first_symbol (zi); sym; sym = zbar_symbol_next (sym))
    {
      if (strcmp (zbar_symbol_get_data (sym), tag->payload) != 0)
        continue;
      found = true;
      unsigned n = zbar_symbol_get_loc_size (sym);
      double worst = 0;
      for (int k = 0; k < 4; k++)
        {
          double best = 1e9;
          for (unsigned i = 0; i < n; i++)
            {
              double dx = zbar_symbol_get_loc_x (sym, i) + cx0 - tag->corners[k][0];
              double dy = zbar_symbol_get_loc_y (sym, i) + cy0 - tag->corners[k][1];
              best = fmin (best, hypot (dx, dy));
            }
          worst = fmax (worst, best);
        }
      *corner_err = fmin (*corner_err, worst);
    }
  zbar_image_destroy (zi);
  free (crop);
  return found;
}

/* zbar is sensitive to what surrounds a code in a crop, so a few margins
 * are tried; any success proves the truth's corners frame a readable code. */
static bool
decode_tag (zbar_image_scanner_t *scanner, const VisImage *img, const VisTruthTag *tag,
            double *corner_err)
{
  static const double margins[] = { 4, 6, 9 };
  for (size_t i = 0; i < sizeof margins / sizeof margins[0]; i++)
    if (decode_crop (scanner, img, tag, margins[i], corner_err))
      return true;
  return false;
}

static zbar_image_scanner_t *
qr_scanner (void)
{
  zbar_image_scanner_t *s = zbar_image_scanner_create ();
  zbar_image_scanner_set_config (s, 0, ZBAR_CFG_ENABLE, 0);
  zbar_image_scanner_set_config (s, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1);
  return s;
}

/* Renders `scene` at each time and decodes every fully visible tag. */
static void
check_decodes (const char *scene, const double *times, int n_times, const double *min_recall,
               double corner_tol, unsigned expect_tags)
{
  Fixture f;
  fixture_open (&f, scene, VIS_PIXEL_GRAY8, 0);
  zbar_image_scanner_t *scanner = qr_scanner ();
  for (int i = 0; i < n_times; i++)
    {
      cr_assert_eq (vis_renderer_render (f.renderer, times[i], &f.img, f.truth), ENG_OK);
      unsigned tried = 0, decoded = 0;
      double worst_corner = 0;
      for (unsigned k = 0; k < f.truth->n_tags; k++)
        {
          const VisTruthTag *tag = &f.truth->tags[k];
          if (tag->occluded)
            continue;
          cr_assert_geq (tag->module_px, 3.5, "%s: %s modules %.2f px", scene, tag->id, tag->module_px);
          tried++;
          double err;
          if (!decode_tag (scanner, &f.img, tag, &err))
            cr_log_info ("%s t=%.1f: %s (%s) not decoded, module %.2f px", scene, times[i], tag->id,
                         tag->payload, tag->module_px);
          else
            {
              decoded++;
              worst_corner = fmax (worst_corner, err);
              cr_expect_leq (err, corner_tol, "%s t=%.1f %s: corners off by %.2f px", scene,
                             times[i], tag->id, err);
            }
        }
      if (expect_tags)
        cr_assert_eq (tried, expect_tags, "%s t=%.1f: %u unoccluded tags", scene, times[i], tried);
      double recall = tried ? (double) decoded / tried : 0;
      cr_expect_geq (recall, min_recall[i], "%s t=%.1f: zbar decoded %u of %u crops", scene,
                     times[i], decoded, tried);
      cr_log_info ("%s t=%.1f: %u/%u decoded, worst corner %.2f px", scene, times[i], decoded,
                   tried, worst_corner);
    }
  zbar_image_scanner_destroy (scanner);
  fixture_close (&f);
}

/* Frames 0-5 of the cards-N scenes: clean, light, blur, noise, JPEG, all. */
static const double degrade_times[6] = { 0, 1, 2, 3, 4, 5 };
static const double degrade_recall[6] = { 1.0, 1.0, 0.9, 0.95, 0.95, 0.9 };

Test (render, truth_decodes_10_cards_every_degradation)
{
  check_decodes ("cards-10.scene", degrade_times, 6, degrade_recall, 3.0, 14);
}

Test (render, truth_decodes_40_cards_clean_and_degraded)
{
  const double times[2] = { 0, 5 };
  const double recall[2] = { 1.0, 0.9 };
  check_decodes ("cards-40.scene", times, 2, recall, 3.0, 40);
}

Test (render, foreign_codes_carry_their_text)
{
  const double times[1] = { 0 };
  const double recall[1] = { 1.0 };
  check_decodes ("foreign-codes.scene", times, 1, recall, 3.0, 17);
  Fixture f;
  fixture_open (&f, "foreign-codes.scene", VIS_PIXEL_BGR8, 0);
  cr_assert_eq (vis_renderer_render (f.renderer, 0, &f.img, f.truth), ENG_OK);
  const VisTruthTag *t = find_tag (f.truth, "f1");
  cr_assert_not_null (t);
  cr_assert_eq (t->kind, VIS_TRUTH_FOREIGN);
  cr_assert_str_eq (t->payload, "https://example.org/katua/rules?lang=es");
  fixture_close (&f);
}

/* Grey level at symbol coordinates (u, v) in modules (0..21 across the
 * symbol), mapped bilinearly from the truth's four corners. */
static int
grey_at (const VisImage *img, const VisTruthTag *t, double u, double v)
{
  double a = u / 21, b = v / 21;
  double x = (1 - a) * (1 - b) * t->corners[0][0] + a * (1 - b) * t->corners[1][0]
             + a * b * t->corners[2][0] + (1 - a) * b * t->corners[3][0];
  double y = (1 - a) * (1 - b) * t->corners[0][1] + a * (1 - b) * t->corners[1][1]
             + a * b * t->corners[2][1] + (1 - a) * b * t->corners[3][1];
  /* Corner convention: pixel centres at +0.5. */
  int px = (int) floor (x), py = (int) floor (y);
  cr_assert (px >= 0 && py >= 0 && px < img->width && py < img->height);
  return img->data[(size_t) py * img->stride + px];
}

/* Sub-module check of the truth corners, independent of any decoder: inside
 * each finder pattern the rings must be where the corners say they are. */
Test (render, truth_corners_frame_the_finder_patterns)
{
  Fixture f;
  fixture_open (&f, "cards-40.scene", VIS_PIXEL_GRAY8, 0);
  cr_assert_eq (vis_renderer_render (f.renderer, 0, &f.img, f.truth), ENG_OK);
  /* (u, v) of each finder's top-left module corner, in modules. */
  static const double finders[3][2] = { { 0, 0 }, { 14, 0 }, { 0, 14 } };
  for (unsigned i = 0; i < f.truth->n_tags; i++)
    {
      const VisTruthTag *t = &f.truth->tags[i];
      for (int k = 0; k < 3; k++)
        {
          double u = finders[k][0], v = finders[k][1];
          int outer = grey_at (&f.img, t, u + 0.5, v + 0.5);     /* dark ring */
          int ring = grey_at (&f.img, t, u + 1.5, v + 3.5);      /* light ring */
          int centre = grey_at (&f.img, t, u + 3.5, v + 3.5);    /* dark centre */
          int edge = grey_at (&f.img, t, u + 6.5, v + 3.5);      /* dark ring */
          int sep = grey_at (&f.img, t, u == 0 ? u + 7.5 : u - 0.5, v + 3.5); /* separator */
          cr_expect (outer < 100 && centre < 100 && edge < 100, "%s finder %d dark: %d %d %d",
                     t->id, k, outer, centre, edge);
          cr_expect (ring > 150 && sep > 150, "%s finder %d light: %d %d", t->id, k, ring, sep);
        }
      /* The quiet zone just outside the symbol is light. */
      cr_expect_gt (grey_at (&f.img, t, -0.6, 10.5), 150, "%s", t->id);
      cr_expect_gt (grey_at (&f.img, t, 21.6, 10.5), 150, "%s", t->id);
      cr_expect_gt (grey_at (&f.img, t, 10.5, -0.6), 150, "%s", t->id);
    }
  fixture_close (&f);
}

Test (render, lens_distortion_moves_the_corners_with_the_pixels)
{
  static const char text[] =
    "camera height=570 tilt=6 fov=62 target=370,222 k1=-0.25 k2=0.08\n"
    "table width=740 height=410\n"
    "card c1 face=1 back=1 at=80,70\n"
    "card c2 face=2 back=1 at=660,350 rot=30\n"
    "card c3 face=3 back=1 at=370,205 rot=-45 down\n"
    "anchor a1 number=1 at=650,60\n";
  VisScene *s = NULL;
  cr_assert_eq (vis_scene_parse (text, sizeof text - 1, "dist", &s, NULL), ENG_OK);
  Fixture f;
  fixture_open_scene (&f, s, VIS_PIXEL_GRAY8, 0);
  cr_assert_eq (vis_renderer_render (f.renderer, 0, &f.img, f.truth), ENG_OK);
  cr_assert (f.truth->distorted);
  zbar_image_scanner_t *scanner = qr_scanner ();
  cr_assert_eq (f.truth->n_tags, 4);
  for (unsigned k = 0; k < f.truth->n_tags; k++)
    {
      double err;
      cr_expect (decode_tag (scanner, &f.img, &f.truth->tags[k], &err), "%s", f.truth->tags[k].id);
      cr_expect_leq (err, 2.5, "%s corners off by %.2f", f.truth->tags[k].id, err);
    }
  zbar_image_scanner_destroy (scanner);
  fixture_close (&f);
}

Test (render, deterministic_for_a_seed_and_any_order)
{
  Fixture a, b, c;
  fixture_open (&a, "cards-10.scene", VIS_PIXEL_BGR8, 0);
  fixture_open (&b, "cards-10.scene", VIS_PIXEL_BGR8, 0);
  fixture_open (&c, "cards-10.scene", VIS_PIXEL_BGR8, 99);
  size_t bytes = a.img.stride * (size_t) a.img.height;
  cr_assert_eq (vis_renderer_render (a.renderer, 5, &a.img, NULL), ENG_OK);
  /* b draws other frames first: the result must not depend on history. */
  cr_assert_eq (vis_renderer_render (b.renderer, 2, &b.img, NULL), ENG_OK);
  cr_assert_eq (vis_renderer_render (b.renderer, 0, &b.img, NULL), ENG_OK);
  cr_assert_eq (vis_renderer_render (b.renderer, 5, &b.img, NULL), ENG_OK);
  cr_assert_eq (memcmp (a.img.data, b.img.data, bytes), 0, "same seed, same time: same pixels");
  cr_assert_eq (vis_renderer_render (c.renderer, 5, &c.img, NULL), ENG_OK);
  cr_assert_neq (memcmp (a.img.data, c.img.data, bytes), 0, "another seed: other noise");
  /* Another time with noise differs too. */
  cr_assert_eq (vis_renderer_render (b.renderer, 5.4, &b.img, NULL), ENG_OK);
  cr_assert_neq (memcmp (a.img.data, b.img.data, bytes), 0);
  fixture_close (&a);
  fixture_close (&b);
  fixture_close (&c);
}

Test (render, bad_output_buffers_are_refused)
{
  Fixture f;
  fixture_open (&f, "cards-10.scene", VIS_PIXEL_BGR8, 0);
  VisImage small = f.img;
  small.width = 640;
  cr_assert_eq (vis_renderer_render (f.renderer, 0, &small, NULL), ENG_ERR_INVALID_ARGUMENT);
  VisImage narrow = f.img;
  narrow.stride = 100;
  cr_assert_eq (vis_renderer_render (f.renderer, 0, &narrow, NULL), ENG_ERR_INVALID_ARGUMENT);
  VisImage none = f.img;
  none.data = NULL;
  cr_assert_eq (vis_renderer_render (f.renderer, 0, &none, NULL), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_renderer_render (f.renderer, NAN, &f.img, NULL), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_renderer_render (NULL, 0, &f.img, NULL), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_renderer_save_last (f.renderer, "/tmp/x.png"), ENG_ERR_INVALID_ARGUMENT,
                "nothing rendered yet");
  fixture_close (&f);
}

Test (render, hand_occludes_then_leaves)
{
  Fixture f;
  fixture_open (&f, "occlusion.scene", VIS_PIXEL_GRAY8, 0);
  cr_assert_eq (vis_renderer_render (f.renderer, 0.0, &f.img, f.truth), ENG_OK);
  unsigned n0 = f.truth->n_tags;
  for (unsigned i = 0; i < n0; i++)
    cr_assert_not (f.truth->tags[i].occluded, "%s occluded before the hand", f.truth->tags[i].id);
  cr_assert_eq (vis_renderer_render (f.renderer, 2.5, &f.img, f.truth), ENG_OK);
  const VisTruthTag *t = find_tag (f.truth, "c3");
  cr_assert_not_null (t, "a covered tag stays in the truth");
  cr_assert (t->occluded);
  cr_assert_lt (t->visible_fraction, 0.5f);
  /* The covered code really is gone from the pixels. */
  zbar_image_scanner_t *scanner = qr_scanner ();
  double err;
  cr_assert_not (decode_tag (scanner, &f.img, t, &err));
  cr_assert_eq (vis_renderer_render (f.renderer, 4.9, &f.img, f.truth), ENG_OK);
  t = find_tag (f.truth, "c3");
  cr_assert_not (t->occluded);
  cr_assert (decode_tag (scanner, &f.img, t, &err));
  zbar_image_scanner_destroy (scanner);
  fixture_close (&f);
}

Test (render, timeline_places_flips_and_moves)
{
  Fixture f;
  fixture_open (&f, "demo-katua.scene", VIS_PIXEL_BGR8, 0);
  cr_assert_eq (vis_renderer_render (f.renderer, 0, &f.img, f.truth), ENG_OK);
  cr_assert_null (find_tag (f.truth, "p1-ufo"), "absent until placed");
  const VisTruthTag *cat = find_tag (f.truth, "p2-cat2");
  cr_assert_not_null (cat);
  cr_assert_not (cat->face_up);
  char back[VIS_TRUTH_PAYLOAD_MAX];
  snprintf (back, sizeof back, "%s", cat->payload);
  cr_assert_eq (back[6], 'B', "a face-down card shows its back sticker: %s", back);

  cr_assert_eq (vis_renderer_render (f.renderer, 5.5, &f.img, f.truth), ENG_OK);
  cat = find_tag (f.truth, "p2-cat2");
  cr_assert (cat->face_up);
  cr_assert_eq (cat->payload[6], 'F');
  cr_assert_float_eq (cat->table_x_mm, 330, 0.2);
  const VisTruthTag *ufo = find_tag (f.truth, "p1-ufo");
  cr_assert_not_null (ufo);
  cr_assert_float_eq (ufo->table_x_mm, 330, 0.2);
  cr_assert_float_eq (ufo->table_y_mm, 160, 0.2);

  cr_assert_eq (vis_renderer_render (f.renderer, 7.2, &f.img, f.truth), ENG_OK);
  cat = find_tag (f.truth, "p2-cat2");
  cr_assert_float_eq (cat->table_x_mm, 620, 0.2, "moved to the capture area");
  cr_assert_float_eq (cat->table_y_mm, 330, 0.2);
  /* Half way through a move it is half way. */
  cr_assert_eq (vis_renderer_render (f.renderer, 6.5, &f.img, f.truth), ENG_OK);
  cat = find_tag (f.truth, "p2-cat2");
  cr_assert_float_eq (cat->table_x_mm, 475, 0.2);
  fixture_close (&f);
}

Test (render, duplicate_stickers_both_in_truth)
{
  Fixture f;
  fixture_open (&f, "duplicate.scene", VIS_PIXEL_GRAY8, 0);
  cr_assert_eq (vis_renderer_render (f.renderer, 0, &f.img, f.truth), ENG_OK);
  const VisTruthTag *a = find_tag (f.truth, "c1"), *b = find_tag (f.truth, "c2");
  cr_assert (a && b);
  cr_assert_str_eq (a->payload, b->payload);
  zbar_image_scanner_t *scanner = qr_scanner ();
  double err;
  cr_assert (decode_tag (scanner, &f.img, a, &err));
  cr_assert (decode_tag (scanner, &f.img, b, &err));
  zbar_image_scanner_destroy (scanner);
  fixture_close (&f);
}

Test (render, camera_nudge_moves_the_homography)
{
  Fixture f;
  fixture_open (&f, "camera-nudge.scene", VIS_PIXEL_GRAY8, 0);
  cr_assert_eq (vis_renderer_render (f.renderer, 0.5, &f.img, f.truth), ENG_OK);
  double before[3][3];
  memcpy (before, f.truth->table_to_image, sizeof before);
  float c_before = find_tag (f.truth, "c1")->corners[0][0];
  cr_assert_eq (vis_renderer_render (f.renderer, 2.0, &f.img, f.truth), ENG_OK);
  cr_assert_neq (memcmp (before, f.truth->table_to_image, sizeof before), 0);
  cr_assert_gt (fabsf (find_tag (f.truth, "c1")->corners[0][0] - c_before), 5.0f);
  const double times[1] = { 3.9 };
  const double recall[1] = { 1.0 };
  fixture_close (&f);
  check_decodes ("camera-nudge.scene", times, 1, recall, 3.0, 0);
}

Test (render, truth_json_line)
{
  Fixture f;
  fixture_open (&f, "foreign-codes.scene", VIS_PIXEL_GRAY8, 0);
  cr_assert_eq (vis_renderer_render (f.renderer, 0, &f.img, f.truth), ENG_OK);
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream (&buf, &len);
  cr_assert_eq (vis_truth_write_json (f.truth, 7, mem), ENG_OK);
  fclose (mem);
  cr_assert (strncmp (buf, "{\"frame\":7,", 11) == 0);
  cr_assert_eq (buf[len - 1], '\n');
  cr_assert_eq (strchr (buf, '\n'), buf + len - 1, "one line");
  cr_assert (strstr (buf, "\"payload\":\"https://example.org/katua/rules?lang=es\"") != NULL);
  cr_assert (strstr (buf, "\"kind\":\"foreign\"") != NULL);
  cr_assert (strstr (buf, "\"homography\":[[") != NULL);
  free (buf);
  fixture_close (&f);
}

/* With the table's printing, every Tablero sticker painted holds its tag and
 * its seal (what zbar reads), while the ground truth names the card by its
 * 11-character tag as the detector reports it; a `command` entry is a lone
 * command card, sealed the same way; a `foreign` text stays as written. */
Test (render, stickers_are_painted_sealed_with_the_printing)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  char path[1024];
  snprintf (path, sizeof path, "%s/cards/katua.set", dir);
  EngCardSet *set = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s", err.reason);
  static const uint8_t key[ENG_PRINTING_KEY_LEN] = { 9, 8, 7 };
  EngPrinting *printing = NULL;
  cr_assert_eq (eng_printing_new (set, key, &printing), ENG_OK);
  static const char text[] =
    "image width=1280 height=720 fps=1 duration=1 seed=3 format=png\n"
    "camera height=500 tilt=0 fov=62\n"
    "table width=500 height=300\n"
    "tags game=K set=01\n"
    "sticker size=40 quiet=2\n"
    "anchor a1 number=1 at=60,60\n"
    "card c1 face=7 back=1 at=180,150\n"
    "card c2 face=40 back=2 at=280,150 down\n"
    "command x5 number=5 at=400,100\n"
    "foreign old text=\"TB1K01F001W\" at=400,220\n";
  VisScene *scene = NULL;
  cr_assert_eq (vis_scene_parse (text, sizeof text - 1, "sealed", &scene, &err), ENG_OK, "%s", err.reason);
  vis_scene_set_printing (scene, printing);
  Fixture f;
  fixture_open_scene (&f, scene, VIS_PIXEL_GRAY8, 0);
  cr_assert_eq (vis_renderer_render (f.renderer, 0, &f.img, f.truth), ENG_OK);
  zbar_image_scanner_t *scanner = zbar_image_scanner_create ();
  zbar_image_scanner_set_config (scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0);
  zbar_image_scanner_set_config (scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1);
  static const char *const ids[] = { "a1", "c1", "c2", "x5", "old" };
  static const char *const tags[] = { "TB1K01A0011", "TB1K01F007K", "TB1K01B002Y", "TB1K01X0056",
                                      "TB1K01F001W" };
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
    {
      const VisTruthTag *t = find_tag (f.truth, ids[i]);
      cr_assert_not_null (t, "%s not in the truth", ids[i]);
      cr_expect_str_eq (t->payload, tags[i], "%s: the truth names %s", ids[i], t->payload);
      if (strcmp (ids[i], "x5") == 0)
        cr_expect_eq (t->kind, VIS_TRUTH_COMMAND);
      /* what the code holds: the sealed text, or the foreign text as given */
      VisTruthTag painted = *t;
      if (strcmp (ids[i], "old") != 0)
        {
          EngTag tag;
          cr_assert_eq (eng_tag_parse (t->payload, strlen (t->payload), &tag), ENG_OK);
          char sealed[ENG_STICKER_TEXT_LEN + 1];
          cr_assert_eq (eng_printing_sticker_text (printing, &tag, sealed), ENG_OK);
          snprintf (painted.payload, sizeof painted.payload, "%s", sealed);
        }
      double corner_err;
      cr_expect (decode_tag (scanner, &f.img, &painted, &corner_err), "%s: zbar did not read %s", ids[i],
                 painted.payload);
    }
  zbar_image_scanner_destroy (scanner);
  fixture_close (&f);
  eng_printing_free (printing);
  eng_card_set_free (set);
}

/* tablero-cli scan end to end, and still-image loading: good images give
 * JSON lines with meaning, table position and zone; missing, empty,
 * truncated and corrupt files give a clear message and exit 2 while the
 * other images are still scanned; a duplicate sticker is reported twice;
 * foreign codes are not reported. */
#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "scene-util.h"
#include "vis-imageio.h"

static const char *const scene =
  "image width=1920 height=1080 fps=10 duration=1 seed=9 format=png\n"
  "camera height=800 tilt=0 fov=62\n"
  "table width=900 height=560\n"
  "tags game=K set=01\n"
  "sticker size=40 quiet=2\n"
  "anchor a1 number=1 at=60,60\n"
  "anchor a2 number=2 at=840,60\n"
  "anchor a3 number=3 at=840,500\n"
  "anchor a4 number=4 at=60,500\n"
  "seat s1 number=1 at=450,500\n"
  "card c1 face=1 back=1 at=365,390\n"
  "card c2 face=2 back=1 at=450,390\n"
  "card dup face=1 back=1 at=700,200\n"
  "foreign f1 text=\"https://example.org/menu\" at=250,250 size=40\n";

static char *dir;
static char *good;

static void
setup (void)
{
  dir = g_dir_make_tmp ("tablero-scan-XXXXXX", NULL);
  cr_assert_not_null (dir);
  TestScene ts;
  test_scene_open (&ts, scene);
  test_scene_render (&ts, 0.0);
  good = g_build_filename (dir, "good.png", NULL);
  cr_assert_eq (vis_renderer_save_last (ts.renderer, good), ENG_OK);
  test_scene_close (&ts);
}

static void
teardown (void)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      g_unlink (p);
    }
  if (d != NULL)
    g_dir_close (d);
  g_rmdir (dir);
  g_free (dir);
  g_free (good);
}

static char *
write_file (const char *name, const void *bytes, gsize len)
{
  char *p = g_build_filename (dir, name, NULL);
  cr_assert (g_file_set_contents (p, bytes, (gssize) len, NULL));
  return p;
}

/* A new data folder whose printings.ini holds the tests' key for every
 * bundled set, so tablero-cli reads the stickers test_scene_open() sealed;
 * the key file is the one the app writes (docs/tags.md).  Removed with
 * remove_key_home. */
static char *
make_key_home (void)
{
  char *home = g_dir_make_tmp ("tablero-scan-keys-XXXXXX", NULL);
  cr_assert_not_null (home);
  g_autofree char *folder = g_build_filename (home, "tablero", NULL);
  cr_assert_eq (g_mkdir_with_parents (folder, 0700), 0);
  GString *hex = g_string_new (NULL);
  for (size_t i = 0; i < ENG_PRINTING_KEY_LEN; i++)
    g_string_append_printf (hex, "%02x", test_printing_key[i]);
  g_autofree char *text = g_strdup_printf ("[K01]\nkey=%s\ncreated=2026-01-01T00:00:00Z\n"
                                           "[C01]\nkey=%s\ncreated=2026-01-01T00:00:00Z\n"
                                           "[E01]\nkey=%s\ncreated=2026-01-01T00:00:00Z\n",
                                           hex->str, hex->str, hex->str);
  g_string_free (hex, TRUE);
  g_autofree char *ini = g_build_filename (folder, "printings.ini", NULL);
  cr_assert (g_file_set_contents (ini, text, -1, NULL));
  return home;
}

static void
remove_key_home (const char *home)
{
  g_autofree char *ini = g_build_filename (home, "tablero", "printings.ini", NULL);
  g_autofree char *lock = g_build_filename (home, "tablero", "printings.ini.lock", NULL);
  g_autofree char *folder = g_build_filename (home, "tablero", NULL);
  g_unlink (ini);
  g_unlink (lock);
  g_rmdir (folder);
  g_rmdir (home);
}

static int
run_scan (char **argv_tail, char **out, char **err)
{
  const char *cli = g_getenv ("TABLERO_CLI");
  cr_assert_not_null (cli, "TABLERO_CLI must name the built tablero-cli");
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) cli);
  g_ptr_array_add (argv, "scan");
  for (char **a = argv_tail; *a != NULL; a++)
    g_ptr_array_add (argv, *a);
  g_ptr_array_add (argv, NULL);
  int status = 0;
  GError *error = NULL;
  g_autofree char *home = make_key_home ();
  g_auto (GStrv) env = g_environ_setenv (g_get_environ (), "XDG_DATA_HOME", home, TRUE);
  gboolean spawned = g_spawn_sync (NULL, (char **) argv->pdata, env, G_SPAWN_DEFAULT, NULL, NULL, out, err,
                                   &status, &error);
  remove_key_home (home);
  cr_assert (spawned, "spawn: %s", error ? error->message : "?");
  g_ptr_array_unref (argv);
  cr_assert (WIFEXITED (status), "tablero-cli crashed:\n%s", *err);
  return WEXITSTATUS (status);
}

static unsigned
count (const char *hay, const char *needle)
{
  unsigned n = 0;
  for (const char *p = strstr (hay, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

Test (scan, good_image_gives_meaning_position_and_zone, .init = setup, .fini = teardown, .timeout = 60)
{
  g_autofree char *out = NULL, *err = NULL;
  char *args[] = { good, NULL };
  cr_assert_eq (run_scan (args, &out, &err), 0, "stderr: %s", err);
  /* 4 anchors + 1 seat + 3 cards; the foreign code is not listed. */
  cr_expect_eq (count (out, "\"payload\""), 8u, "%s", out);
  cr_expect_eq (count (out, "example.org"), 0u);
  cr_expect (strstr (err, "not Tablero tags") != NULL, "the foreign code should be counted: %s", err);
  cr_expect_eq (count (out, "\"payload\":\"TB1K01F001W\""), 2u, "a duplicate sticker is reported at both places");
  cr_expect (strstr (out, "\"card\":\"cat-red-1\"") != NULL, "%s", out);
  cr_expect_eq (count (out, "\"table_mm\""), 8u, "four anchors in view calibrate the image");
  cr_expect (strstr (out, "\"zone\":{\"kind\":\"slot\",\"seat\":1,\"index\":1}") != NULL,
             "c2 lies in seat 1's middle slot:\n%s", out);
}

Test (scan, bad_files_are_reported_and_the_rest_scanned, .init = setup, .fini = teardown, .timeout = 60)
{
  gchar *bytes = NULL;
  gsize len = 0;
  cr_assert (g_file_get_contents (good, &bytes, &len, NULL));
  g_autofree char *empty = write_file ("empty.png", "", 0);
  g_autofree char *truncated = write_file ("truncated.png", bytes, len / 2);
  static const char junk[] = "\x89PNG\r\n\x1a\nthis is not an image at all, IEND\xae\x42\x60\x82";
  g_autofree char *corrupt = write_file ("corrupt.png", junk, sizeof junk - 1);
  g_autofree char *text = write_file ("notes.jpg", "hello", 5);
  static const char cut[] = "\xff\xd8\xff\xe0\x00\x10JFIF";
  g_autofree char *jpeg_cut = write_file ("cut.jpg", cut, sizeof cut - 1);
  g_autofree char *missing = g_build_filename (dir, "missing.png", NULL);
  g_free (bytes);
  g_autofree char *out = NULL, *err = NULL;
  char *args[] = { empty, good, truncated, corrupt, text, jpeg_cut, missing, good, NULL };
  cr_expect_eq (run_scan (args, &out, &err), 2);
  cr_expect_eq (count (out, "\"payload\""), 16u, "both good images scanned:\n%s", out);
  cr_expect (strstr (err, "empty.png: empty file") != NULL, "%s", err);
  cr_expect (strstr (err, "truncated.png: truncated PNG") != NULL, "%s", err);
  cr_expect (strstr (err, "corrupt.png: not a readable image") != NULL, "%s", err);
  cr_expect (strstr (err, "notes.jpg: not a readable image") != NULL, "%s", err);
  cr_expect (strstr (err, "cut.jpg: truncated JPEG") != NULL, "%s", err);
  cr_expect (strstr (err, "missing.png: No such file") != NULL, "%s", err);
}

Test (scan, usage_errors)
{
  g_autofree char *out = NULL, *err = NULL;
  char *none[] = { NULL };
  cr_expect_eq (run_scan (none, &out, &err), 2);
  cr_expect (strstr (err, "no IMAGE") != NULL);
  g_autofree char *out2 = NULL, *err2 = NULL;
  char *bad_cal[] = { "--calibration", "/nonexistent.cal", "x.png", NULL };
  cr_expect_eq (run_scan (bad_cal, &out2, &err2), 2);
  cr_expect (strstr (err2, "/nonexistent.cal") != NULL, "%s", err2);
}

Test (imageio, load_reasons)
{
  VisImage img;
  char reason[128];
  cr_expect_eq (vis_image_load ("/nonexistent/x.png", &img, reason, sizeof reason), ENG_ERR_IO);
  cr_expect_null (img.data);
  cr_expect_neq (reason[0], '\0');
  cr_expect_eq (vis_image_load (NULL, &img, reason, sizeof reason), ENG_ERR_INVALID_ARGUMENT);
}

/* Headers declaring 20000 x 20000 px (400 Mpx) in files of a few bytes. */
static const unsigned char huge_png[] = {
  0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n',
  0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0x4e, 0x20, 0, 0, 0x4e, 0x20, 8, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x35, 0xaf, 0x06, 0x1e,
  0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82,
};
static const unsigned char huge_jpeg[] = {
  0xff, 0xd8, 0xff, 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
  0xff, 0xc0, 0, 11, 8, 0x4e, 0x20, 0x4e, 0x20, 1, 1, 0x11, 0,
  0xff, 0xd9,
};

/* An image larger than Tablero reads is refused from its header, before a
 * decoder is asked for gigabytes. */
Test (imageio, oversized_images_refused_from_the_header)
{
  int w = 0, h = 0;
  cr_assert (vis_image_declared_size (huge_png, sizeof huge_png, &w, &h));
  cr_expect_eq (w, 20000);
  cr_expect_eq (h, 20000);
  cr_assert (vis_image_declared_size (huge_jpeg, sizeof huge_jpeg, &w, &h));
  cr_expect_eq (w, 20000);
  cr_expect_eq (h, 20000);
  cr_expect (vis_image_size_ok (1920, 1080, NULL, 0));
  cr_expect (vis_image_size_ok (8160, 6120, NULL, 0), "a 50 Mpx phone photo");
  cr_expect (!vis_image_size_ok (VIS_IMAGE_MAX_SIDE + 1, 16, NULL, 0));
  cr_expect (!vis_image_size_ok (0, 16, NULL, 0));

  g_autofree char *tmp = g_dir_make_tmp ("tablero-huge-XXXXXX", NULL);
  const struct { const char *name; const unsigned char *bytes; size_t len; } files[] = {
    { "huge.png", huge_png, sizeof huge_png },
    { "huge.jpg", huge_jpeg, sizeof huge_jpeg },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (tmp, files[i].name, NULL);
      cr_assert (g_file_set_contents (path, (const char *) files[i].bytes, (gssize) files[i].len, NULL));
      VisImage img;
      char reason[160] = "";
      EngStatus st = vis_image_load (path, &img, reason, sizeof reason);
      g_unlink (path);
      cr_expect_eq (st, ENG_ERR_LIMIT, "%s: %s (%s)", files[i].name, eng_status_to_string (st), reason);
      cr_expect (strstr (reason, "20000x20000 px is larger") != NULL, "%s: %s", files[i].name, reason);
      cr_expect_null (img.data);
    }
  g_rmdir (tmp);
}

/* A second anchor 2 and a second seat marker 1 printed on the table: both
 * flagged on stderr and in the JSON lines, and the image does not calibrate
 * on either copy (exit 1: a negative result, not bad usage). */
Test (scan, doubled_anchor_and_seat_marker_are_flagged, .timeout = 60)
{
  static const char *const doubled_scene =
    "image width=1920 height=1080 fps=10 duration=1 seed=9 format=png\n"
    "camera height=800 tilt=0 fov=62\n"
    "table width=900 height=560\n"
    "tags game=K set=01\n"
    "sticker size=40 quiet=2\n"
    "anchor a1 number=1 at=60,60\n"
    "anchor a2 number=2 at=840,60\n"
    "anchor a3 number=3 at=840,500\n"
    "anchor a4 number=4 at=60,500\n"
    "anchor forged number=2 at=600,300\n"
    "seat s1 number=1 at=450,500\n"
    "seat s1b number=1 at=250,380\n"
    "card c1 face=1 back=1 at=365,390\n";
  dir = g_dir_make_tmp ("tablero-scan-XXXXXX", NULL);
  cr_assert_not_null (dir);
  TestScene ts;
  test_scene_open (&ts, doubled_scene);
  test_scene_render (&ts, 0.0);
  good = g_build_filename (dir, "doubled.png", NULL);
  cr_assert_eq (vis_renderer_save_last (ts.renderer, good), ENG_OK);
  test_scene_close (&ts);
  g_autofree char *out = NULL, *err = NULL;
  char *args[] = { good, NULL };
  int rc = run_scan (args, &out, &err);
  teardown ();
  cr_expect_eq (rc, 1, "stderr: %s", err);
  cr_expect (strstr (err, "anchor 2 and seat marker 1 seen twice") != NULL, "%s", err);
  cr_expect_eq (count (out, "\"doubled\":true"), 4u, "both copies of each flagged:\n%s", out);
  cr_expect_eq (count (out, "\"table_mm\""), 0u, "no calibration on a doubled anchor:\n%s", out);
  cr_expect_eq (count (out, "\"payload\""), 8u, "%s", out);
}

/* scan --all: every code in view, with why each is not taken: a foreign
 * code, a hand-made code with a Tablero-shaped payload and a wrong check
 * character, a sticker of the older unsealed format, a sealed sticker whose
 * seal is not this table's (a forgery of card 1, which also lies there for
 * real), a sticker of a game this table does not have; the stickers read
 * say so. */
Test (scan, all_reports_every_code_with_why_it_is_refused, .timeout = 60)
{
  /* card 1's genuine seal, one character changed: a forgery */
  char seal[ENG_SEAL_LEN + 1];
  cr_assert_eq (eng_seal_compute (test_printing_key, ENG_PRINTING_KEY_LEN, "TB1K01F001W", seal), ENG_OK);
  seal[2] = seal[2] == 'Q' ? 'R' : 'Q';
  g_autofree char *all_scene = g_strdup_printf (
    "image width=1920 height=1080 fps=10 duration=1 seed=9 format=png\n"
    "camera height=800 tilt=0 fov=62\n"
    "table width=900 height=560\n"
    "tags game=K set=01\n"
    "sticker size=40 quiet=2\n"
    "card c1 face=1 back=1 at=365,390\n"
    "card c2 face=2 back=1 at=450,390\n"
    "foreign f1 text=\"https://example.org/menu\" at=250,250 size=40\n"
    "foreign f2 text=\"TB1K01F001A\" at=600,250 size=40\n"
    "foreign f3 text=\"\x1b[31mred\" at=750,400 size=40\n"
    "foreign old text=\"TB1K01F003S\" at=150,420 size=40\n"
    "foreign forged text=\"TB1K01F001W%s\" at=780,180 size=40\n", seal);
  dir = g_dir_make_tmp ("tablero-scan-XXXXXX", NULL);
  cr_assert_not_null (dir);
  TestScene ts;
  test_scene_open (&ts, all_scene);
  test_scene_render (&ts, 0.0);
  good = g_build_filename (dir, "all.png", NULL);
  cr_assert_eq (vis_renderer_save_last (ts.renderer, good), ENG_OK);
  test_scene_close (&ts);
  g_autofree char *out = NULL, *err = NULL, *out_plain = NULL, *err_plain = NULL;
  char *args[] = { "--all", good, NULL };
  int rc = run_scan (args, &out, &err);
  char *plain[] = { good, NULL };
  int rc_plain = run_scan (plain, &out_plain, &err_plain);
  teardown ();
  cr_expect_eq (rc, 0, "stderr: %s", err);
  cr_expect_eq (rc_plain, 0, "stderr: %s", err_plain);
  cr_expect_eq (count (out, "\"status\":\"read\""), 2u, "the two cards are read:\n%s", out);
  cr_expect (strstr (out, "\"code\":\"https://example.org/menu\",\"status\":\"refused\",\"why\":\"not a "
                          "Tablero sticker") != NULL, "%s", out);
  cr_expect (strstr (out, "\"code\":\"TB1K01F001A\",\"status\":\"refused\",\"why\":\"shaped like a Tablero "
                          "sticker but its check character is wrong") != NULL, "%s", out);
  cr_expect (strchr (out, '\x1b') == NULL, "control bytes are escaped:\n%s", out);
  cr_expect (strstr (out, "\\u001b[31mred") != NULL, "%s", out);
  cr_expect (strstr (out, "\"code\":\"TB1K01F003S\",\"status\":\"refused\",\"why\":\"printed in an older "
                          "format: print the stickers again") != NULL, "%s", out);
  g_autofree char *forged = g_strdup_printf ("\"code\":\"TB1K01F001W%s\",\"status\":\"refused\",\"why\":"
                                             "\"from another printing or made by hand: its seal is not "
                                             "this table's\"", seal);
  cr_expect (strstr (out, forged) != NULL, "%s", out);
  cr_expect_eq (count (out, "\"status\""), 7u, "%s", out);
  cr_expect_eq (count (out, "\"payload\""), 2u, "only the genuine stickers are cards:\n%s", out);
  cr_expect_eq (count (out_plain, "\"status\""), 0u, "without --all the lines are as before:\n%s", out_plain);
  cr_expect (strstr (err_plain, "ignored 5 QR code(s)") != NULL, "%s", err_plain);
}

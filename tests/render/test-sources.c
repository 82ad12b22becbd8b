/* Frame sources: folders of images, bad files, single images, the demo,
 * disconnect/reconnect, and "no camera" as a normal state. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vis-render.h"
#include "vis-source.h"

static char tmpdir[256];

static void
make_tmpdir (void)
{
  snprintf (tmpdir, sizeof tmpdir, "/tmp/tablero-test-sources-XXXXXX");
  cr_assert_not_null (mkdtemp (tmpdir));
}

static void
remove_tree (const char *dir)
{
  char cmd[600];
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq (system (cmd), 0);
}

/* A 32x24 grey PGM whose pixels all hold `value`. */
static void
write_pgm (const char *dir, const char *name, unsigned char value)
{
  char path[512];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen (path, "wb");
  cr_assert_not_null (f);
  fprintf (f, "P5\n32 24\n255\n");
  for (int i = 0; i < 32 * 24; i++)
    fputc (value, f);
  fclose (f);
}

static void
write_bytes (const char *dir, const char *name, const void *data, size_t n)
{
  char path[512];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen (path, "wb");
  cr_assert_not_null (f);
  cr_assert_eq (fwrite (data, 1, n, f), n);
  fclose (f);
}

/* A real PNG or JPEG of a small rendered scene, in memory. */
static unsigned char *
rendered_file (const char *format, size_t *len)
{
  char text[256];
  snprintf (text, sizeof text,
            "image width=160 height=120 format=%s\ncamera height=300\ntable width=200 height=150\n"
            "card c1 face=3 back=1 at=100,75\n", format);
  VisScene *s = NULL;
  cr_assert_eq (vis_scene_parse (text, strlen (text), "small", &s, NULL), ENG_OK);
  VisRenderer *r = NULL;
  cr_assert_eq (vis_renderer_new (s, 0, &r), ENG_OK);
  static unsigned char pixels[160 * 120 * 3];
  VisImage img = { 160, 120, 160 * 3, VIS_PIXEL_BGR8, pixels };
  cr_assert_eq (vis_renderer_render (r, 0, &img, NULL), ENG_OK);
  char path[512];
  snprintf (path, sizeof path, "%s/render.%s", tmpdir, format);
  cr_assert_eq (vis_renderer_save_last (r, path), ENG_OK);
  FILE *f = fopen (path, "rb");
  cr_assert_not_null (f);
  unsigned char *buf = malloc (1 << 20);
  *len = fread (buf, 1, 1 << 20, f);
  fclose (f);
  unlink (path);
  cr_assert_gt (*len, 100);
  vis_renderer_free (r);
  vis_scene_free (s);
  return buf;
}

static VisSource *
open_ok (const char *spec, const VisSourceOptions *opts)
{
  VisSource *src = NULL;
  VisSourceError err = { { 0 } };
  VisSourceStatus st = vis_source_open (spec, opts, &src, &err);
  cr_assert_eq (st, VIS_SOURCE_OK, "%s: %s: %s", spec, vis_source_status_to_string (st), err.message);
  cr_assert_not_null (src);
  return src;
}

Test (sources, folder_in_name_order_then_end_or_loop)
{
  make_tmpdir ();
  write_pgm (tmpdir, "frame-2.pgm", 20);
  write_pgm (tmpdir, "frame-1.pgm", 10);
  write_pgm (tmpdir, "frame-3.pgm", 30);
  write_bytes (tmpdir, "notes.txt", "not an image", 12);   /* ignored */
  char spec[300];
  snprintf (spec, sizeof spec, "file:%s", tmpdir);
  VisSourceOptions opts = { .format = VIS_PIXEL_GRAY8 };
  VisSource *src = open_ok (spec, &opts);
  cr_assert (strstr (vis_source_description (src), "3 images") != NULL, "%s",
             vis_source_description (src));
  VisFrame f;
  VisSourceError err;
  for (int i = 0; i < 3; i++)
    {
      cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK, "%s", err.message);
      cr_assert_eq (f.image.width, 32);
      cr_assert_eq (f.image.height, 24);
      cr_assert_eq (f.image.format, VIS_PIXEL_GRAY8);
      cr_assert_eq (f.sequence, (uint64_t) i);
      cr_assert_eq (f.image.data[5 * f.image.stride + 7], 10 * (i + 1), "name order");
    }
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_END);
  vis_source_close (src);

  opts.loop = true;
  opts.format = VIS_PIXEL_BGR8;
  src = open_ok (spec, &opts);
  for (int i = 0; i < 4; i++)
    cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK);
  cr_assert_eq (f.image.format, VIS_PIXEL_BGR8);
  cr_assert_geq (f.image.stride, 32u * 3);
  cr_assert_eq (f.image.data[0], 10, "looped back to the first image");
  cr_assert_eq (f.sequence, 3);
  vis_source_close (src);
  remove_tree (tmpdir);
}

Test (sources, bad_images_are_clear_errors_and_the_folder_goes_on)
{
  make_tmpdir ();
  size_t png_len, jpg_len;
  unsigned char *png = rendered_file ("png", &png_len);
  unsigned char *jpg = rendered_file ("jpg", &jpg_len);
  write_bytes (tmpdir, "a-good.png", png, png_len);
  write_bytes (tmpdir, "b-empty.png", "", 0);
  /* PNG-shaped at both ends (signature, IEND), junk in between. */
  static const char junk_png[] = "\x89PNG\r\n\x1a\n this is not really a png IEND1234";
  write_bytes (tmpdir, "c-junk.png", junk_png, sizeof junk_png - 1);
  write_bytes (tmpdir, "d-truncated.png", png, png_len / 2);
  write_bytes (tmpdir, "e-truncated.jpg", jpg, jpg_len * 2 / 3);
  write_bytes (tmpdir, "f-good.jpg", jpg, jpg_len);
  char spec[300];
  snprintf (spec, sizeof spec, "file:%s", tmpdir);
  VisSource *src = open_ok (spec, NULL);
  VisFrame f;
  VisSourceError err;
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK, "%s", err.message);
  cr_assert_eq (f.image.width, 160);
  static const char *const bad[] = { "b-empty.png", "c-junk.png", "d-truncated.png", "e-truncated.jpg" };
  static const char *const why[] = { "empty", "not a readable image", "truncated", "truncated" };
  for (int i = 0; i < 4; i++)
    {
      memset (&err, 0, sizeof err);
      VisSourceStatus st = vis_source_read (src, &f, &err);
      cr_assert_eq (st, VIS_SOURCE_ERR_FORMAT, "%s: %s", bad[i], vis_source_status_to_string (st));
      cr_assert (strstr (err.message, bad[i]) != NULL, "names the file: %s", err.message);
      cr_assert (strstr (err.message, why[i]) != NULL, "says why: %s", err.message);
    }
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK, "the good JPEG after the bad ones");
  cr_assert_eq (f.image.width, 160);
  cr_assert_eq (f.sequence, 1, "errors deliver no frame and take no sequence number");
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_END);
  vis_source_close (src);

  /* The same files opened one by one. */
  static const char *const single_bad[] = { "b-empty.png", "c-junk.png", "d-truncated.png",
                                            "e-truncated.jpg" };
  for (int i = 0; i < 4; i++)
    {
      snprintf (spec, sizeof spec, "file:%s/%s", tmpdir, single_bad[i]);
      VisSource *s = (VisSource *) 0x1;
      cr_assert_eq (vis_source_open (spec, NULL, &s, &err), VIS_SOURCE_ERR_FORMAT, "%s", spec);
      cr_assert_null (s);
    }
  snprintf (spec, sizeof spec, "file:%s/a-good.png", tmpdir);
  src = open_ok (spec, NULL);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_END);
  vis_source_close (src);

  /* An empty file that is not named like an image, and junk named like a video. */
  write_bytes (tmpdir, "empty.mp4", "", 0);
  write_bytes (tmpdir, "junk.mp4", "garbage garbage garbage", 23);
  VisSource *s = NULL;
  snprintf (spec, sizeof spec, "file:%s/empty.mp4", tmpdir);
  cr_assert_eq (vis_source_open (spec, NULL, &s, &err), VIS_SOURCE_ERR_FORMAT);
  snprintf (spec, sizeof spec, "file:%s/junk.mp4", tmpdir);
  cr_assert_eq (vis_source_open (spec, NULL, &s, &err), VIS_SOURCE_ERR_FORMAT);
  free (png);
  free (jpg);
  remove_tree (tmpdir);
}

Test (sources, missing_and_empty_paths)
{
  VisSource *s = NULL;
  VisSourceError err = { { 0 } };
  cr_assert_eq (vis_source_open ("file:/nonexistent/frames", NULL, &s, &err), VIS_SOURCE_ERR_IO);
  cr_assert (strstr (err.message, "/nonexistent/frames") != NULL);
  make_tmpdir ();
  char spec[300];
  snprintf (spec, sizeof spec, "file:%s", tmpdir);
  cr_assert_eq (vis_source_open (spec, NULL, &s, &err), VIS_SOURCE_ERR_FORMAT);
  cr_assert (strstr (err.message, "no images") != NULL, "%s", err.message);
  remove_tree (tmpdir);
  cr_assert_eq (vis_source_open ("", NULL, &s, &err), VIS_SOURCE_ERR_INVALID_ARGUMENT);
  cr_assert_eq (vis_source_open ("bogus", NULL, &s, &err), VIS_SOURCE_ERR_INVALID_ARGUMENT);
  cr_assert (strstr (err.message, "unknown source") != NULL);
  cr_assert_eq (vis_source_open ("camera:x", NULL, &s, &err), VIS_SOURCE_ERR_INVALID_ARGUMENT);
  cr_assert_null (s);
}

Test (sources, folder_that_disappears_and_comes_back)
{
  make_tmpdir ();
  char dir[300], moved[320];
  snprintf (dir, sizeof dir, "%s/cam", tmpdir);
  snprintf (moved, sizeof moved, "%s/cam-away", tmpdir);
  cr_assert_eq (mkdir (dir, 0755), 0);
  for (int i = 0; i < 4; i++)
    {
      char name[32];
      snprintf (name, sizeof name, "f%d.pgm", i);
      write_pgm (dir, name, (unsigned char) (i * 40 + 1));
    }
  char spec[330];
  snprintf (spec, sizeof spec, "file:%s", dir);
  VisSourceOptions opts = { .format = VIS_PIXEL_GRAY8, .reconnect_interval_ms = 5 };
  VisSource *src = open_ok (spec, &opts);
  VisFrame f;
  VisSourceError err;
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK);
  cr_assert_eq (f.image.data[0], 1);
  cr_assert_eq (rename (dir, moved), 0);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_DISCONNECTED);
  cr_assert (strstr (err.message, "went away") != NULL, "%s", err.message);
  for (int i = 0; i < 3; i++)
    {
      cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_DISCONNECTED);
      cr_assert (strstr (err.message, "retrying") != NULL, "%s", err.message);
    }
  cr_assert_eq (rename (moved, dir), 0);
  VisSourceStatus st = vis_source_read (src, &f, &err);
  cr_assert_eq (st, VIS_SOURCE_RECONNECTED, "%s: %s", vis_source_status_to_string (st), err.message);
  cr_assert (vis_source_status_has_frame (st));
  cr_assert_eq (f.image.data[0], 41, "carries on with the image that was due; nothing lost");
  cr_assert_eq (f.sequence, 1);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK);
  cr_assert_eq (f.image.data[0], 81);
  vis_source_close (src);
  remove_tree (tmpdir);
}

Test (sources, demo_plays_the_bundled_scene_and_simulated_unplug)
{
  VisSourceOptions opts = { .fps = 200, .reconnect_interval_ms = 5 };
  VisSource *src = open_ok ("demo", &opts);
  cr_assert (strstr (vis_source_description (src), "demo-katua-game.scene") != NULL);
  VisFrame f;
  VisSourceError err;
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK, "%s", err.message);
  cr_assert_eq (f.image.width, 1920);
  cr_assert_eq (f.image.height, 1568, "the bundled demo game is drawn 1920x1568");
  cr_assert_eq (f.image.format, VIS_PIXEL_BGR8);
  int64_t t0 = f.timestamp_ns;
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK);
  cr_assert_eq (f.sequence, 1);
  cr_assert_eq (f.timestamp_ns - t0, 5000000, "timestamps follow the frame rate");
  vis_source_simulate_unplug (src, true);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_DISCONNECTED);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_DISCONNECTED);
  vis_source_simulate_unplug (src, false);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_RECONNECTED, "%s", err.message);
  cr_assert_eq (f.sequence, 2);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK);
  vis_source_close (src);
}

Test (sources, no_camera_is_a_normal_state)
{
  VisSourceList list;
  VisSourceError err = { { 0 } };
  VisSourceStatus st = vis_source_list (&list, &err);
  cr_assert (st == VIS_SOURCE_OK || st == VIS_SOURCE_NO_CAMERA, "%s", vis_source_status_to_string (st));
  if (st == VIS_SOURCE_NO_CAMERA)
    {
      cr_assert_eq (list.n, 0);
      cr_assert (strstr (err.message, "no camera") != NULL, "%s", err.message);
    }
  else
    {
      cr_assert_gt (list.n, 0);
      for (unsigned i = 0; i < list.n; i++)
        cr_assert_neq (list.sources[i].spec[0], '\0');
    }
  /* A V4L2 device that is not there. */
  VisSource *s = NULL;
  memset (&err, 0, sizeof err);
  cr_assert_eq (vis_source_open ("v4l2:/dev/video-none-here", NULL, &s, &err), VIS_SOURCE_NO_CAMERA);
  cr_assert_null (s);
  cr_assert (strstr (err.message, "no camera") != NULL, "%s", err.message);
  /* camera:N with a number beyond what is present. */
  st = vis_source_open ("camera:63", NULL, &s, &err);
  cr_assert (st == VIS_SOURCE_NO_CAMERA || st == VIS_SOURCE_ERR_NOT_SUPPORTED,
             "%s: %s", vis_source_status_to_string (st), err.message);
  cr_assert_null (s);
  cr_assert_str_eq (vis_source_status_to_string (VIS_SOURCE_NO_CAMERA), "no camera present");
  cr_assert_str_eq (vis_source_status_to_string ((VisSourceStatus) 999), "unknown status");
}

Test (sources, video_file_plays_loops_and_reports_removal)
{
  make_tmpdir ();
  char path[300], moved[320], spec[330];
  snprintf (path, sizeof path, "%s/clip.avi", tmpdir);
  snprintf (moved, sizeof moved, "%s/clip-away.avi", tmpdir);
  /* three 64x48 grey frames, levels 20, 40, 60 */
  uint8_t pixels[3][48 * 64];
  VisImage clip[3];
  for (int i = 0; i < 3; i++)
    {
      memset (pixels[i], 20 * (i + 1), sizeof pixels[i]);
      clip[i] = (VisImage){ 64, 48, 64, VIS_PIXEL_GRAY8, pixels[i] };
    }
  VisSourceError werr = { { 0 } };
  cr_assert_eq (vis_video_write (path, clip, 3, 10, &werr), VIS_SOURCE_OK, "%s", werr.message);
  cr_assert_eq (vis_video_write (path, clip, 0, 10, &werr), VIS_SOURCE_ERR_INVALID_ARGUMENT);
  snprintf (spec, sizeof spec, "file:%s", path);
  VisSourceOptions opts = { .format = VIS_PIXEL_GRAY8 };
  VisSource *src = open_ok (spec, &opts);
  cr_assert (strstr (vis_source_description (src), "video") != NULL);
  VisFrame f;
  VisSourceError err;
  for (int i = 0; i < 3; i++)
    {
      cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK, "%s", err.message);
      cr_assert_eq (f.image.width, 64);
      cr_assert_eq (f.sequence, (uint64_t) i);
      cr_assert_eq (f.timestamp_ns, (int64_t) i * 100000000, "the video's own 10 fps");
      int grey = f.image.data[10 * f.image.stride + 10];
      cr_assert (grey > 20 * (i + 1) - 6 && grey < 20 * (i + 1) + 6, "frame %d grey %d", i, grey);
    }
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_END);
  vis_source_close (src);

  opts.loop = true;
  src = open_ok (spec, &opts);
  for (int i = 0; i < 5; i++)
    cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK, "loop read %d: %s", i, err.message);
  cr_assert_eq (f.sequence, 4);
  vis_source_close (src);

  /* The file vanishes mid-play (FFmpeg keeps reading what it has open):
   * at its end the source says DISCONNECTED, not END; once the file is back
   * it carries on where it was, so nothing is played twice. */
  opts.loop = false;
  opts.reconnect_interval_ms = 5;
  src = open_ok (spec, &opts);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK);
  cr_assert_eq (rename (path, moved), 0);
  VisSourceStatus st = VIS_SOURCE_OK;
  int delivered = 1;
  while (st == VIS_SOURCE_OK && delivered < 10)
    {
      st = vis_source_read (src, &f, &err);
      delivered += st == VIS_SOURCE_OK;
    }
  cr_assert_eq (st, VIS_SOURCE_DISCONNECTED, "%s", vis_source_status_to_string (st));
  cr_assert_eq (rename (moved, path), 0);
  st = vis_source_read (src, &f, &err);
  if (delivered < 3)
    cr_assert_eq (st, VIS_SOURCE_RECONNECTED, "%s: %s", vis_source_status_to_string (st), err.message);
  else
    cr_assert_eq (st, VIS_SOURCE_END, "all 3 frames were played; none again: %s",
                  vis_source_status_to_string (st));
  vis_source_close (src);
  remove_tree (tmpdir);
}

/* An image listed but gone (a dangling link, or deleted while playing) is a
 * gap: skipped and said like a corrupt one, the folder goes on. */
Test (sources, missing_image_in_a_folder_is_skipped_and_said)
{
  make_tmpdir ();
  write_pgm (tmpdir, "frame-1.pgm", 10);
  write_pgm (tmpdir, "frame-3.pgm", 30);
  write_pgm (tmpdir, "frame-4.pgm", 40);
  write_pgm (tmpdir, "frame-5.pgm", 50);
  char link[512];
  snprintf (link, sizeof link, "%s/frame-2.pgm", tmpdir);
  cr_assert_eq (symlink ("never-written.pgm", link), 0);
  char spec[300];
  snprintf (spec, sizeof spec, "file:%s", tmpdir);
  VisSourceOptions opts = { .format = VIS_PIXEL_GRAY8 };
  VisSource *src = open_ok (spec, &opts);
  VisFrame f;
  VisSourceError err = { { 0 } };
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK, "%s", err.message);
  cr_assert_eq (f.image.data[0], 10);
  VisSourceStatus st = vis_source_read (src, &f, &err);
  cr_assert_eq (st, VIS_SOURCE_ERR_FORMAT, "a gap is not the end: %s (%s)", vis_source_status_to_string (st),
                err.message);
  cr_assert (strstr (err.message, "frame-2.pgm") != NULL, "names the image: %s", err.message);
  cr_assert (strstr (err.message, "skipped") != NULL, "says it was skipped: %s", err.message);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK, "%s", err.message);
  cr_assert_eq (f.image.data[0], 30);
  cr_assert_eq (f.sequence, 1);
  /* Deleted after the folder was listed. */
  char gone[512];
  snprintf (gone, sizeof gone, "%s/frame-4.pgm", tmpdir);
  cr_assert_eq (unlink (gone), 0);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_ERR_FORMAT);
  cr_assert (strstr (err.message, "frame-4.pgm") != NULL, "%s", err.message);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK, "%s", err.message);
  cr_assert_eq (f.image.data[0], 50);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_END);
  vis_source_close (src);
  remove_tree (tmpdir);
}

/* An image whose header declares more pixels than Tablero reads is one more
 * bad image in the folder: skipped and said, before it is decoded. */
Test (sources, oversized_image_in_a_folder_is_skipped_and_said)
{
  static const unsigned char huge_png[] = {
    0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n',
    0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0x4e, 0x20, 0, 0, 0x4e, 0x20, 8, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x35, 0xaf, 0x06, 0x1e,
    0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82,
  };
  make_tmpdir ();
  write_pgm (tmpdir, "frame-1.pgm", 10);
  write_bytes (tmpdir, "frame-2.png", huge_png, sizeof huge_png);
  write_pgm (tmpdir, "frame-3.pgm", 30);
  char spec[300];
  snprintf (spec, sizeof spec, "file:%s", tmpdir);
  VisSourceOptions opts = { .format = VIS_PIXEL_GRAY8 };
  VisSource *src = open_ok (spec, &opts);
  VisFrame f;
  VisSourceError err = { { 0 } };
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK, "%s", err.message);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_ERR_FORMAT);
  cr_assert (strstr (err.message, "frame-2.png: image of 20000x20000 px is larger") != NULL, "%s", err.message);
  cr_assert_eq (vis_source_read (src, &f, &err), VIS_SOURCE_OK, "%s", err.message);
  cr_assert_eq (f.image.data[0], 30);
  vis_source_close (src);
  remove_tree (tmpdir);
}

/* A spec or file name quoted back in an error is escaped. */
Test (sources, errors_never_echo_control_bytes)
{
  VisSource *s = NULL;
  VisSourceError err = { { 0 } };
  cr_assert_neq (vis_source_open ("bogus\x1b[2J", NULL, &s, &err), VIS_SOURCE_OK);
  cr_assert (strstr (err.message, "bogus\\x1b[2J") != NULL, "%s", err.message);
  cr_assert_neq (vis_source_open ("file:/nonexistent/\x1b]0;x\x07", NULL, &s, &err), VIS_SOURCE_OK);
  for (const unsigned char *p = (const unsigned char *) err.message; *p; p++)
    cr_assert (*p >= 0x20, "control byte 0x%02x in %s", *p, err.message);
}

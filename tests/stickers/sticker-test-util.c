#include "sticker-test-util.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

bool
st_run (const char *const *argv, const char *cwd, StRun *out)
{
  memset (out, 0, sizeof *out);
  out->exit_status = -1;
  int wait_status = 0;
  GError *error = NULL;
  if (!g_spawn_sync (cwd, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out->out,
                     &out->err, &wait_status, &error))
    {
      out->err = g_strdup (error->message);
      g_error_free (error);
      return false;
    }
  if (WIFEXITED (wait_status))
    out->exit_status = WEXITSTATUS (wait_status);
  return true;
}

bool
st_run_array (GPtrArray *argv, const char *cwd, StRun *out)
{
  g_ptr_array_add (argv, NULL);
  bool ok = st_run ((const char *const *) argv->pdata, cwd, out);
  g_ptr_array_remove_index (argv, argv->len - 1);
  return ok;
}

void
st_run_clear (StRun *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

char *
st_tmpdir (void)
{
  return g_dir_make_tmp ("tablero-stickers-XXXXXX", NULL);
}

void
st_rm_rf (const char *path)
{
  if (path == NULL)
    return;
  GDir *dir = g_dir_open (path, 0, NULL);
  if (dir != NULL)
    {
      const char *name;
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          char *child = g_build_filename (path, name, NULL);
          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            st_rm_rf (child);
          else
            g_unlink (child);
          g_free (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}

/* Skips whitespace and '#' comments of a PNM header. */
static const char *
pnm_skip (const char *p, const char *end)
{
  while (p < end && (g_ascii_isspace (*p) || *p == '#'))
    {
      if (*p == '#')
        while (p < end && *p != '\n')
          p++;
      else
        p++;
    }
  return p;
}

static const char *
pnm_int (const char *p, const char *end, int *out)
{
  p = pnm_skip (p, end);
  int v = 0;
  const char *start = p;
  while (p < end && g_ascii_isdigit (*p))
    v = v * 10 + (*p++ - '0');
  *out = v;
  return p > start ? p : NULL;
}

bool
st_gray_read_pgm (const char *path, StGray *out)
{
  memset (out, 0, sizeof *out);
  char *data = NULL;
  size_t len = 0;
  if (!g_file_get_contents (path, &data, &len, NULL))
    return false;
  const char *p = data, *end = data + len;
  int w = 0, h = 0, maxval = 0;
  bool ok = len > 2 && p[0] == 'P' && p[1] == '5'
            && (p = pnm_int (p + 2, end, &w)) != NULL
            && (p = pnm_int (p, end, &h)) != NULL
            && (p = pnm_int (p, end, &maxval)) != NULL
            && maxval == 255 && w > 0 && h > 0 && p < end
            && (size_t) (end - (p + 1)) >= (size_t) w * (size_t) h;
  if (ok)
    {
      out->width = w;
      out->height = h;
      out->pixels = g_memdup2 (p + 1, (size_t) w * (size_t) h);
    }
  g_free (data);
  return ok;
}

bool
st_gray_write_pgm_crop (const StGray *img, int x, int y, int w, int h, const char *path)
{
  int x0 = MAX (x, 0), y0 = MAX (y, 0);
  int x1 = MIN (x + w, img->width), y1 = MIN (y + h, img->height);
  if (x1 <= x0 || y1 <= y0)
    return false;
  FILE *f = fopen (path, "wb");
  if (f == NULL)
    return false;
  fprintf (f, "P5\n%d %d\n255\n", x1 - x0, y1 - y0);
  for (int row = y0; row < y1; row++)
    fwrite (img->pixels + (size_t) row * img->width + x0, 1, (size_t) (x1 - x0), f);
  return fclose (f) == 0;
}

void
st_gray_clear (StGray *img)
{
  g_clear_pointer (&img->pixels, g_free);
}

GPtrArray *
st_zbar_decode (const char *zbarimg, GPtrArray *paths)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) zbarimg);
  g_ptr_array_add (argv, (char *) "--xml");
  g_ptr_array_add (argv, (char *) "-q");
  g_ptr_array_add (argv, (char *) "-Sdisable");
  g_ptr_array_add (argv, (char *) "-Sqrcode.enable");
  for (guint i = 0; i < paths->len; i++)
    g_ptr_array_add (argv, paths->pdata[i]);
  StRun run;
  bool started = st_run_array (argv, NULL, &run);
  g_ptr_array_free (argv, TRUE);
  if (!started || run.out == NULL || strstr (run.out, "<barcodes") == NULL)
    {
      st_run_clear (&run);
      return NULL;
    }

  /* zbarimg writes one <source href='PATH'> element per image that held a
   * symbol, each with its <data><![CDATA[...]]></data> payloads. */
  GPtrArray *result = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < paths->len; i++)
    g_ptr_array_add (result, g_ptr_array_new_with_free_func (g_free));
  const char *p = run.out;
  GPtrArray *current = NULL;
  for (;;)
    {
      const char *source = strstr (p, "<source href='");
      const char *data = strstr (p, "<![CDATA[");
      if (source == NULL && data == NULL)
        break;
      if (source != NULL && (data == NULL || source < data))
        {
          const char *name = source + strlen ("<source href='");
          const char *name_end = strchr (name, '\'');
          if (name_end == NULL)
            break;
          current = NULL;
          for (guint i = 0; i < paths->len; i++)
            if (strlen (paths->pdata[i]) == (size_t) (name_end - name)
                && strncmp (paths->pdata[i], name, (size_t) (name_end - name)) == 0)
              current = result->pdata[i];
          p = name_end;
        }
      else
        {
          const char *payload = data + strlen ("<![CDATA[");
          const char *payload_end = strstr (payload, "]]>");
          if (payload_end == NULL)
            break;
          if (current != NULL)
            g_ptr_array_add (current, g_strndup (payload, (size_t) (payload_end - payload)));
          p = payload_end;
        }
    }
  st_run_clear (&run);
  return result;
}

#include "eng-data.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef TABLERO_SOURCE_DATADIR
#define TABLERO_SOURCE_DATADIR ""
#endif
#ifndef TABLERO_INSTALLED_DATADIR
#define TABLERO_INSTALLED_DATADIR "/usr/local/share/tablero"
#endif

static const char *
data_dir (void)
{
  const char *env = getenv ("TABLERO_DATADIR");
  if (env != NULL && *env != '\0')
    return env;
  struct stat st;
  if (TABLERO_SOURCE_DATADIR[0] != '\0' && stat (TABLERO_SOURCE_DATADIR, &st) == 0
      && S_ISDIR (st.st_mode))
    return TABLERO_SOURCE_DATADIR;
  return TABLERO_INSTALLED_DATADIR;
}

char *
eng_data_path (const char *relative)
{
  const char *dir = data_dir ();
  int n = snprintf (NULL, 0, "%s/%s", dir, relative);
  char *path = malloc ((size_t) n + 1);
  if (path != NULL)
    snprintf (path, (size_t) n + 1, "%s/%s", dir, relative);
  return path;
}

EngStatus
eng_read_text_file (const char *path, size_t max_bytes, char **text, size_t *len,
                    EngParseError *err)
{
  if (path == NULL || text == NULL || len == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  *text = NULL;
  *len = 0;
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    {
      eng_parse_error_set (err, path, 0, "cannot open the file: %s", strerror (errno));
      return ENG_ERR_IO;
    }
  /* Grow as the file does: most are a few KiB, and a size from stat()
   * would not hold for pipes and /proc files anyway. */
  size_t cap = 4096, n = 0;
  char *buf = NULL;
  EngStatus status = ENG_OK;
  for (;;)
    {
      if (buf == NULL || n == cap)
        {
          if (buf != NULL)
            cap *= 2;
          char *grown = realloc (buf, cap + 1);
          if (grown == NULL)
            {
              status = ENG_ERR_NO_MEMORY;
              break;
            }
          buf = grown;
        }
      size_t got = fread (buf + n, 1, cap - n, f);
      n += got;
      if (n > max_bytes)
        {
          eng_parse_error_set (err, path, 0, "the file is larger than %zu bytes", max_bytes);
          status = ENG_ERR_LIMIT;
          break;
        }
      if (got == 0)
        {
          if (ferror (f))
            {
              eng_parse_error_set (err, path, 0, "cannot read the file: %s", strerror (errno));
              status = ENG_ERR_IO;
            }
          break;
        }
    }
  fclose (f);
  if (status != ENG_OK)
    {
      free (buf);
      return status;
    }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return ENG_OK;
}

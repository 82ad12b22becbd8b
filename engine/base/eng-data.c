#include "eng-data.h"

#include <stdio.h>
#include <stdlib.h>
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

#include "eng-data.h"
#include "eng-i18n.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>

#ifndef TABLERO_SOURCE_DATADIR
#define TABLERO_SOURCE_DATADIR ""
#endif
#ifndef TABLERO_INSTALLED_DATADIR
#define TABLERO_INSTALLED_DATADIR "/usr/local/share/tablero"
#endif
#ifndef TABLERO_BUILD_ROOT
#define TABLERO_BUILD_ROOT ""
#endif
#ifndef TABLERO_RELATIVE_DATADIR
#define TABLERO_RELATIVE_DATADIR ""
#endif
#ifndef TABLERO_RELATIVE_LOCALEDIR
#define TABLERO_RELATIVE_LOCALEDIR ""
#endif

/* Where the running executable is, and whether it is one meson built and
 * has not installed: an executable under the build root runs against the
 * source tree (whether or not that tree still exists); any other one is an
 * installed copy and looks beside itself.  Decided once per process: the
 * answer cannot change while it runs. */
typedef struct {
  char *exe_dir;      /* NULL when /proc/self/exe cannot be read */
  bool in_build_tree;
} ExeWhere;

static bool
path_is_under (const char *path, const char *root)
{
  size_t n = strlen (root);
  return n > 0 && strncmp (path, root, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static const ExeWhere *
exe_where (void)
{
  static ExeWhere where;
  static gsize done = 0;
  if (g_once_init_enter (&done))
    {
      char *exe = g_file_read_link ("/proc/self/exe", NULL);
      if (exe != NULL)
        {
          where.exe_dir = g_path_get_dirname (exe);
          /* Both sides resolved: /proc/self/exe names the real file, the
           * build root may have been given through a symbolic link. */
          char *root = TABLERO_BUILD_ROOT[0] != '\0' ? realpath (TABLERO_BUILD_ROOT, NULL) : NULL;
          where.in_build_tree = path_is_under (exe, TABLERO_BUILD_ROOT)
                                || (root != NULL && path_is_under (exe, root));
          free (root);
          g_free (exe);
        }
      g_once_init_leave (&done, 1);
    }
  return &where;
}

static bool
is_dir (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0 && S_ISDIR (st.st_mode);
}

/* `relative` (a path from the bin dir, "../share/tablero") beside the
 * installed executable when that directory exists, else NULL.  Newly
 * allocated, kept for the process lifetime by the callers. */
static char *
beside_exe (const char *relative)
{
  const ExeWhere *where = exe_where ();
  if (where->exe_dir == NULL || relative[0] == '\0')
    return NULL;
  char *joined = g_build_filename (where->exe_dir, relative, NULL);
  char *dir = g_canonicalize_filename (joined, NULL);
  g_free (joined);
  if (is_dir (dir))
    return dir;
  g_free (dir);
  return NULL;
}

const char *
eng_data_dir (void)
{
  const char *env = getenv ("TABLERO_DATADIR");
  if (env != NULL && *env != '\0')
    return env;
  static const char *dir;
  static gsize done = 0;
  if (g_once_init_enter (&done))
    {
      if (exe_where ()->in_build_tree && TABLERO_SOURCE_DATADIR[0] != '\0')
        dir = TABLERO_SOURCE_DATADIR;
      else
        {
          char *found = beside_exe (TABLERO_RELATIVE_DATADIR);
          dir = found != NULL ? found : TABLERO_INSTALLED_DATADIR;
        }
      g_once_init_leave (&done, 1);
    }
  return dir;
}

char *
eng_data_path (const char *relative)
{
  const char *dir = eng_data_dir ();
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

/* ---- localized data files and the engine's text domain ----------------- */

/* Copies language entry `entry` (n bytes) without codeset and modifier:
 * "es_ES.UTF-8@euro" -> "es_ES".  Returns its length (0 when it does not
 * fit or is empty). */
static size_t
language_name (const char *entry, size_t n, char *out, size_t size)
{
  size_t len = 0;
  while (len < n && entry[len] != '.' && entry[len] != '@')
    len++;
  if (len == 0 || len >= size)
    return 0;
  memcpy (out, entry, len);
  out[len] = '\0';
  return len;
}

static bool
is_english (const char *lang)
{
  return strcmp (lang, "C") == 0 || strcmp (lang, "POSIX") == 0
         || (strncmp (lang, "en", 2) == 0 && (lang[2] == '\0' || lang[2] == '_'));
}

/* eng_data_path() of `relative` with ".LANG" before its extension, when
 * that file exists; else NULL (and *no_memory tells why). */
static char *
variant_path (const char *relative, const char *lang, bool *no_memory)
{
  const char *base = strrchr (relative, '/');
  base = base != NULL ? base + 1 : relative;
  const char *dot = strrchr (base, '.');
  size_t stem = dot != NULL && dot != base ? (size_t) (dot - relative) : strlen (relative);
  int n = snprintf (NULL, 0, "%.*s.%s%s", (int) stem, relative, lang, relative + stem);
  char *name = malloc ((size_t) n + 1);
  if (name == NULL)
    {
      *no_memory = true;
      return NULL;
    }
  snprintf (name, (size_t) n + 1, "%.*s.%s%s", (int) stem, relative, lang, relative + stem);
  char *path = eng_data_path (name);
  free (name);
  if (path == NULL)
    {
      *no_memory = true;
      return NULL;
    }
  struct stat st;
  if (stat (path, &st) == 0 && S_ISREG (st.st_mode))
    return path;
  free (path);
  return NULL;
}

char *
eng_data_localized_path_for (const char *relative, const char *languages)
{
  const char *entry = languages != NULL ? languages : "";
  while (*entry != '\0')
    {
      size_t n = strcspn (entry, ":");
      char lang[64];
      if (language_name (entry, n, lang, sizeof lang) > 0)
        {
          if (is_english (lang))
            break;
          bool no_memory = false;
          char *path = variant_path (relative, lang, &no_memory);
          /* "es_ES" has no file of its own: the bare language may. */
          char *under = strchr (lang, '_');
          if (path == NULL && !no_memory && under != NULL)
            {
              *under = '\0';
              path = variant_path (relative, lang, &no_memory);
            }
          if (path != NULL || no_memory)
            return path;
        }
      entry += n;
      if (*entry == ':')
        entry++;
    }
  return eng_data_path (relative);
}

char *
eng_data_localized_path (const char *relative)
{
  const char *messages = setlocale (LC_MESSAGES, NULL);
  if (messages == NULL || strcmp (messages, "C") == 0 || strcmp (messages, "POSIX") == 0)
    return eng_data_path (relative);
  const char *language = getenv ("LANGUAGE");
  return eng_data_localized_path_for (relative, language != NULL && *language != '\0'
                                                  ? language : messages);
}

const char *
eng_i18n_pgettext (const char *key, const char *msgid)
{
  const char *text = dgettext (GETTEXT_PACKAGE, key);
  return text == key ? msgid : text;
}

bool
eng_i18n_init (const char *localedir)
{
  const char *env = getenv ("TABLERO_LOCALEDIR");
  const char *dir = env;
  char *beside = NULL;
  if (dir == NULL || *dir == '\0')
    {
#ifdef TABLERO_BUILD_LOCALEDIR
      /* A build run in place finds its catalogues where meson compiled
       * them, as it finds data/ in the source tree. */
      if (exe_where ()->in_build_tree)
        dir = TABLERO_BUILD_LOCALEDIR;
      else
#endif
      if ((beside = beside_exe (TABLERO_RELATIVE_LOCALEDIR)) != NULL)
        dir = beside;
      else
        dir = localedir;
    }
  bool ok = dir != NULL && bindtextdomain (GETTEXT_PACKAGE, dir) != NULL;
  g_free (beside);
  return ok && bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8") != NULL;
}

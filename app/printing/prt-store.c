/* prt-store.c: printings.ini, the table's sticker keys (prt-store.h). */
#include "prt-store.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <unistd.h>

G_DEFINE_QUARK (tablero-printing-store-error-quark, prt_store_error)

char *
prt_store_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "tablero", "printings.ini", NULL);
}

static char *
group_name (const EngCardSet *set)
{
  return g_strdup_printf ("%c%s", eng_card_set_game_letter (set), eng_card_set_id (set));
}

/* Reads printings.ini into `kf`; a missing file is an empty one. */
static gboolean
read_file (const char *path, GKeyFile *kf, GError **error)
{
  g_autoptr (GError) local = NULL;
  if (g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, &local))
    return TRUE;
  if (g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    return TRUE;
  if (local->domain == G_KEY_FILE_ERROR)
    g_set_error (error, PRT_STORE_ERROR, PRT_STORE_ERROR_CORRUPT,
                 _ ("%s is not a printing key file (%s): move it away to start new printings"), path,
                 local->message);
  else
    g_set_error (error, PRT_STORE_ERROR, PRT_STORE_ERROR_IO, _ ("cannot read %s: %s"), path, local->message);
  return FALSE;
}

/* The key of `group` in `kf` into `key`.  Returns 1 when found, 0 when the
 * group or its key is missing, -1 (with `error`) when it is malformed. */
static int
get_key (GKeyFile *kf, const char *path, const char *group, guint8 key[ENG_PRINTING_KEY_LEN],
         GError **error)
{
  g_autofree char *hex = g_key_file_get_string (kf, group, "key", NULL);
  if (hex == NULL)
    return 0;
  gboolean ok = strlen (hex) == 2 * ENG_PRINTING_KEY_LEN;
  for (size_t i = 0; ok && i < ENG_PRINTING_KEY_LEN; i++)
    {
      int hi = g_ascii_xdigit_value (hex[2 * i]), lo = g_ascii_xdigit_value (hex[2 * i + 1]);
      ok = hi >= 0 && lo >= 0;
      key[i] = (guint8) (hi * 16 + lo);
    }
  memset (hex, 0, strlen (hex));
  if (!ok)
    {
      memset (key, 0, ENG_PRINTING_KEY_LEN);
      g_set_error (error, PRT_STORE_ERROR, PRT_STORE_ERROR_CORRUPT,
                   _ ("%s: the key of set [%s] is not %d hexadecimal digits: start a new printing "
                   "(tablero-cli stickers --new-printing) and print the stickers again"),
                   path, group, 2 * ENG_PRINTING_KEY_LEN);
      return -1;
    }
  return 1;
}

/* Holds an exclusive lock on printings.ini.lock (creating the folder) until
 * the returned descriptor is closed; -1 with `error` set. */
static int
lock_store (const char *path, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int e = errno;
      g_set_error (error, PRT_STORE_ERROR, PRT_STORE_ERROR_IO, _ ("cannot create %s: %s"), dir, g_strerror (e));
      return -1;
    }
  g_autofree char *lock_path = g_strconcat (path, ".lock", NULL);
  int fd = g_open (lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  int e = errno;
  if (fd >= 0)
    {
      while (flock (fd, LOCK_EX) != 0)
        if (errno != EINTR)
          {
            e = errno;
            close (fd);
            fd = -1;
            break;
          }
    }
  if (fd < 0)
    g_set_error (error, PRT_STORE_ERROR, PRT_STORE_ERROR_IO, _ ("cannot lock %s: %s"), lock_path, g_strerror (e));
  return fd;
}

/* Puts a fresh random key for `group` into `kf` and writes the file (the
 * caller holds the lock).  `key` receives the new key. */
static gboolean
write_new_key (GKeyFile *kf, const char *path, const char *group, guint8 key[ENG_PRINTING_KEY_LEN],
               char **created_out, GError **error)
{
  size_t got = 0;
  while (got < ENG_PRINTING_KEY_LEN)
    {
      ssize_t n = getrandom (key + got, ENG_PRINTING_KEY_LEN - got, 0);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          g_set_error (error, PRT_STORE_ERROR, PRT_STORE_ERROR_RANDOM,
                       _ ("the system gave no random bytes for a new printing key: %s"), g_strerror (errno));
          return FALSE;
        }
      got += (size_t) n;
    }
  char hex[2 * ENG_PRINTING_KEY_LEN + 1];
  for (size_t i = 0; i < ENG_PRINTING_KEY_LEN; i++)
    g_snprintf (hex + 2 * i, 3, "%02x", key[i]);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *created = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  g_key_file_set_string (kf, group, "key", hex);
  g_key_file_set_string (kf, group, "created", created);
  memset (hex, 0, sizeof hex);
  gsize len = 0;
  g_autofree char *text = g_key_file_to_data (kf, &len, NULL);
  g_autoptr (GError) local = NULL;
  gboolean ok = g_file_set_contents_full (path, text, (gssize) len,
                                          G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                          0600, &local);
  memset (text, 0, len);
  if (!ok)
    {
      g_set_error (error, PRT_STORE_ERROR, PRT_STORE_ERROR_IO, _ ("cannot write %s: %s"), path, local->message);
      return FALSE;
    }
  if (created_out != NULL)
    *created_out = g_steal_pointer (&created);
  return TRUE;
}

/* The key of `set`: read, or made under the lock when missing (or always
 * made anew when `fresh`). */
static gboolean
set_key (const EngCardSet *set, gboolean fresh, guint8 key[ENG_PRINTING_KEY_LEN], char **created_out,
         GError **error)
{
  g_autofree char *path = prt_store_path ();
  g_autofree char *group = group_name (set);
  if (!fresh)
    {
      g_autoptr (GKeyFile) kf = g_key_file_new ();
      if (!read_file (path, kf, error))
        return FALSE;
      int found = get_key (kf, path, group, key, error);
      if (found != 0)
        return found > 0;
    }
  int fd = lock_store (path, error);
  if (fd < 0)
    return FALSE;
  /* read again under the lock: another process may have made it meanwhile */
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  gboolean ok = read_file (path, kf, error);
  int found = ok && !fresh ? get_key (kf, path, group, key, error) : 0;
  if (found < 0)
    ok = FALSE;
  else if (ok && found == 0)
    ok = write_new_key (kf, path, group, key, created_out, error);
  close (fd);
  return ok;
}

gboolean
prt_store_add (EngPrinting *printing, const EngCardSet *set, GError **error)
{
  g_return_val_if_fail (printing != NULL && set != NULL, FALSE);
  guint8 key[ENG_PRINTING_KEY_LEN];
  if (!set_key (set, FALSE, key, NULL, error))
    return FALSE;
  EngStatus st = eng_printing_add (printing, set, key);
  memset (key, 0, sizeof key);
  if (st != ENG_OK && st != ENG_ERR_DUPLICATE_ID)
    {
      g_set_error (error, PRT_STORE_ERROR, PRT_STORE_ERROR_SET, _ ("cannot seal the %s card set: %s"),
                   eng_card_set_game (set), eng_status_to_string (st));
      return FALSE;
    }
  return TRUE;
}

EngPrinting *
prt_store_printing (const EngCardSet *set, GError **error)
{
  g_return_val_if_fail (set != NULL, NULL);
  guint8 key[ENG_PRINTING_KEY_LEN];
  if (!set_key (set, FALSE, key, NULL, error))
    return NULL;
  EngPrinting *printing = NULL;
  EngStatus st = eng_printing_new (set, key, &printing);
  memset (key, 0, sizeof key);
  if (st != ENG_OK)
    {
      g_set_error (error, PRT_STORE_ERROR, PRT_STORE_ERROR_SET, _ ("cannot seal the %s card set: %s"),
                   eng_card_set_game (set), eng_status_to_string (st));
      return NULL;
    }
  return printing;
}

gboolean
prt_store_new_printing (const EngCardSet *set, char **created_out, GError **error)
{
  g_return_val_if_fail (set != NULL, FALSE);
  guint8 key[ENG_PRINTING_KEY_LEN];
  gboolean ok = set_key (set, TRUE, key, created_out, error);
  memset (key, 0, sizeof key);
  return ok;
}

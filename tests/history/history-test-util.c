/* history-test-util.c: what the history's tests share. */
#include "history-test-util.h"

#include <criterion/criterion.h>
#include <glib/gstdio.h>

char *
history_test_make_dir (void)
{
  char *dir = g_dir_make_tmp ("tablero-history-XXXXXX", NULL);
  cr_assert_not_null (dir);
  return dir;
}

void
history_test_remove_dir (char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
  g_free (dir);
}

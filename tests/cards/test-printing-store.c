/* printings.ini (app/printing/prt-store.h): a key is made once even when
 * many processes need it at the same moment, kept by later calls, replaced
 * by a new printing, and a damaged file is refused with its name, never
 * silently replaced. */
#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eng-data.h"
#include "prt-store.h"

static EngCardSet *
load_set (const char *game)
{
  g_autofree char *name = g_strdup_printf ("cards/%s.set", game);
  char *path = eng_data_path (name);
  cr_assert_not_null (path);
  EngCardSet *set = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s", err.reason);
  free (path);
  return set;
}

/* A fresh data folder for this test process (criterion runs each test in
 * its own process). */
static char *
fresh_home (void)
{
  char *home = g_dir_make_tmp ("tablero-printings-XXXXXX", NULL);
  cr_assert_not_null (home);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  return home;
}

/* Removes what the store wrote under `home`, and `home`. */
static void
remove_home (const char *home)
{
  g_autofree char *ini = prt_store_path ();
  g_autofree char *lock = g_strconcat (ini, ".lock", NULL);
  g_autofree char *folder = g_path_get_dirname (ini);
  g_unlink (ini);
  g_unlink (lock);
  g_rmdir (folder);
  g_rmdir (home);
}

static void
sticker_of (const EngPrinting *p, char game, unsigned serial, char out[ENG_STICKER_TEXT_LEN + 1])
{
  EngTag tag = { game, "01", ENG_TAG_FACE, (uint16_t) serial };
  cr_assert_eq (eng_printing_sticker_text (p, &tag, out), ENG_OK);
}

Test (printing_store, many_processes_at_once_share_one_key, .timeout = 60)
{
  g_autofree char *home = fresh_home ();
  enum { N = 12 };
  int fds[N][2];
  pid_t pids[N];
  for (int i = 0; i < N; i++)
    {
      cr_assert_eq (pipe (fds[i]), 0);
      pids[i] = fork ();
      cr_assert_geq (pids[i], 0);
      if (pids[i] == 0)
        {
          /* each child makes or reads the key for two sets, in either order */
          EngCardSet *k = load_set ("katua"), *c = load_set ("catchy");
          EngPrinting *pk = prt_store_printing (i % 2 ? k : c, NULL);
          EngPrinting *pc = prt_store_printing (i % 2 ? c : k, NULL);
          char line[64] = "";
          if (pk != NULL && pc != NULL)
            {
              char a[17], b[17];
              sticker_of (i % 2 ? pk : pc, 'K', 1, a);
              sticker_of (i % 2 ? pc : pk, 'C', 1, b);
              snprintf (line, sizeof line, "%s %s", a, b);
            }
          ssize_t w = write (fds[i][1], line, strlen (line));
          _exit (w == (ssize_t) strlen (line) && line[0] != '\0' ? 0 : 1);
        }
      close (fds[i][1]);
    }
  char first[64] = "";
  for (int i = 0; i < N; i++)
    {
      char buf[64] = "";
      ssize_t n = read (fds[i][0], buf, sizeof buf - 1);
      close (fds[i][0]);
      int status = 0;
      cr_assert_eq (waitpid (pids[i], &status, 0), pids[i]);
      cr_assert (WIFEXITED (status) && WEXITSTATUS (status) == 0, "child %d failed", i);
      cr_assert_gt (n, 0);
      if (i == 0)
        strcpy (first, buf);
      else
        cr_expect_str_eq (buf, first, "child %d sealed with another key", i);
    }
  g_autofree char *ini = prt_store_path ();
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  cr_assert (g_key_file_load_from_file (kf, ini, G_KEY_FILE_NONE, NULL));
  gsize n_groups = 0;
  g_auto (GStrv) groups = g_key_file_get_groups (kf, &n_groups);
  cr_expect_eq (n_groups, 2u, "one group per set");
  cr_expect (g_key_file_has_group (kf, "K01") && g_key_file_has_group (kf, "C01"));
  remove_home (home);
}

Test (printing_store, a_key_is_kept_and_a_new_printing_replaces_it)
{
  g_autofree char *home = fresh_home ();
  EngCardSet *set = load_set ("kittens");
  GError *error = NULL;
  EngPrinting *a = prt_store_printing (set, &error);
  cr_assert_not_null (a, "%s", error ? error->message : "");
  EngPrinting *b = prt_store_printing (set, &error);
  cr_assert_not_null (b);
  char ta[17], tb[17];
  sticker_of (a, 'E', 5, ta);
  sticker_of (b, 'E', 5, tb);
  cr_expect_str_eq (ta, tb, "the same printing seals the same");
  g_autofree char *created = NULL;
  cr_assert (prt_store_new_printing (set, &created, &error), "%s", error ? error->message : "");
  cr_expect_not_null (created);
  EngPrinting *c = prt_store_printing (set, &error);
  cr_assert_not_null (c);
  char tc[17];
  sticker_of (c, 'E', 5, tc);
  cr_expect_str_neq (tc, ta, "a new printing gives new seals");
  cr_expect_eq (eng_printing_check (c, ta, 16, NULL), ENG_ERR_TAG_SEAL, "the old sticker is refused");
  eng_printing_free (a);
  eng_printing_free (b);
  eng_printing_free (c);
  eng_card_set_free (set);
  remove_home (home);
}

Test (printing_store, a_damaged_file_is_refused_with_its_name)
{
  g_autofree char *home = fresh_home ();
  g_autofree char *ini = prt_store_path ();
  g_autofree char *folder = g_path_get_dirname (ini);
  cr_assert_eq (g_mkdir_with_parents (folder, 0700), 0);
  EngCardSet *set = load_set ("katua");

  static const char short_key[] = "[K01]\nkey=00ff\ncreated=2026-01-01T00:00:00Z\n";
  cr_assert (g_file_set_contents (ini, short_key, -1, NULL));
  GError *error = NULL;
  cr_expect_null (prt_store_printing (set, &error));
  cr_assert_not_null (error);
  cr_expect (g_error_matches (error, PRT_STORE_ERROR, PRT_STORE_ERROR_CORRUPT), "%s", error->message);
  cr_expect (strstr (error->message, ini) != NULL && strstr (error->message, "K01") != NULL, "%s",
             error->message);
  cr_expect (strstr (error->message, "00ff") == NULL, "the key is shown: %s", error->message);
  g_clear_error (&error);
  g_autofree char *kept = NULL;
  cr_assert (g_file_get_contents (ini, &kept, NULL, NULL));
  cr_expect_str_eq (kept, short_key, "a damaged file is not replaced");

  cr_assert (g_file_set_contents (ini, "this is not [a key file\n", -1, NULL));
  cr_expect_null (prt_store_printing (set, &error));
  cr_assert_not_null (error);
  cr_expect (g_error_matches (error, PRT_STORE_ERROR, PRT_STORE_ERROR_CORRUPT), "%s", error->message);
  g_clear_error (&error);
  eng_card_set_free (set);
  remove_home (home);
}

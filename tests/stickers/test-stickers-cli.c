/* tablero-cli stickers refuses bad input with exit 2 and a clear reason, and
 * never leaves a half-written or clobbered output behind. */
#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "sticker-test-util.h"

/* Runs `tablero-cli stickers ARGS...`; expects exit 2 and `reason` in stderr. */
static void
expect_refusal (const char *reason, const char *const *args)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) TABLERO_CLI);
  g_ptr_array_add (argv, (char *) "stickers");
  for (; *args != NULL; args++)
    g_ptr_array_add (argv, (char *) *args);
  StRun run;
  cr_assert (st_run_array (argv, NULL, &run), "cannot start tablero-cli");
  cr_assert_eq (run.exit_status, 2, "exit %d (want 2), stderr: %s", run.exit_status, run.err);
  cr_assert (strstr (run.err, reason) != NULL, "stderr lacks \"%s\": %s", reason, run.err);
  cr_assert (strstr (run.err, "tablero-cli") != NULL, "stderr does not say who: %s", run.err);
  st_run_clear (&run);
  g_ptr_array_free (argv, TRUE);
}

/* True when `dir` holds nothing but the names in `keep`. */
static bool
only_these (const char *dir, const char *const *keep)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  cr_assert_not_null (d);
  const char *name;
  bool ok = true;
  while ((name = g_dir_read_name (d)) != NULL)
    if (!g_strv_contains (keep, name))
      {
        cr_log_error ("unexpected file left behind: %s", name);
        ok = false;
      }
  g_dir_close (d);
  return ok;
}

Test (stickers_cli, bad_arguments_exit_2)
{
  g_autofree char *dir = st_tmpdir ();
  g_autofree char *out = g_build_filename (dir, "out.pdf", NULL);
  expect_refusal ("--game", (const char *[]) { "-o", out, NULL });
  expect_refusal ("-o FILE.pdf is required", (const char *[]) { "--game", "katua", NULL });
  expect_refusal ("unknown game 'poker'", (const char *[]) { "--game", "poker", "-o", out, NULL });
  expect_refusal ("unknown paper 'a5'",
                  (const char *[]) { "--game", "katua", "--paper", "a5", "-o", out, NULL });
  expect_refusal ("not 'big'",
                  (const char *[]) { "--game", "katua", "--size-mm", "big", "-o", out, NULL });
  expect_refusal ("not '40mm'",
                  (const char *[]) { "--game", "katua", "--size-mm", "40mm", "-o", out, NULL });
  expect_refusal ("too small",
                  (const char *[]) { "--game", "katua", "--size-mm", "10", "-o", out, NULL });
  expect_refusal ("do not fit on a Letter page",
                  (const char *[]) { "--game", "katua", "--size-mm", "205", "--paper", "letter",
                                     "-o", out, NULL });
  expect_refusal ("unexpected argument 'extra'",
                  (const char *[]) { "--game", "katua", "-o", out, "extra", NULL });
  expect_refusal ("Missing argument for --size-mm", (const char *[]) { "--game", "katua", "--size-mm", NULL });
  cr_assert (only_these (dir, (const char *[]) { NULL }));
  st_rm_rf (dir);
}

Test (stickers_cli, unwritable_output_exit_2_and_leaves_nothing)
{
  g_autofree char *dir = st_tmpdir ();
  g_autofree char *out = g_build_filename (dir, "no-such-dir", "out.pdf", NULL);
  expect_refusal ("cannot write", (const char *[]) { "--game", "catchy", "-o", out, NULL });
  cr_assert (only_these (dir, (const char *[]) { NULL }));
  st_rm_rf (dir);
}

Test (stickers_cli, a_bad_set_is_refused_with_file_and_line_and_keeps_the_old_pdf)
{
  g_autofree char *dir = st_tmpdir ();
  const char *datadir = g_getenv ("TABLERO_DATADIR");
  cr_assert_not_null (datadir);
  g_autofree char *good = g_build_filename (datadir, "cards", "katua.set", NULL);
  g_autofree char *text = NULL;
  cr_assert (g_file_get_contents (good, &text, NULL, NULL));
  /* A deck total that no longer matches its cards: inconsistent. */
  char *total = strstr (text, "total=34");
  cr_assert_not_null (total, "katua.set changed: update this test");
  total[7] = '5';
  g_autofree char *bad = g_build_filename (dir, "bad.set", NULL);
  cr_assert (g_file_set_contents (bad, text, -1, NULL));

  g_autofree char *out = g_build_filename (dir, "out.pdf", NULL);
  cr_assert (g_file_set_contents (out, "previous sheets", -1, NULL));
  g_autofree char *where = g_strdup_printf ("%s:", bad);
  expect_refusal (where, (const char *[]) { "--set", bad, "-o", out, NULL });

  /* file:LINE: names a line. */
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) TABLERO_CLI);
  g_ptr_array_add (argv, (char *) "stickers");
  g_ptr_array_add (argv, (char *) "--set");
  g_ptr_array_add (argv, bad);
  g_ptr_array_add (argv, (char *) "-o");
  g_ptr_array_add (argv, out);
  StRun run;
  cr_assert (st_run_array (argv, NULL, &run));
  const char *after = strstr (run.err, where) + strlen (where);
  cr_assert (g_ascii_isdigit (*after), "no line number: %s", run.err);
  st_run_clear (&run);
  g_ptr_array_free (argv, TRUE);

  g_autofree char *kept = NULL;
  cr_assert (g_file_get_contents (out, &kept, NULL, NULL));
  cr_assert_str_eq (kept, "previous sheets", "a failed run touched the existing output");
  expect_refusal ("/nonexistent/x.set", (const char *[]) { "--set", "/nonexistent/x.set", "-o", out, NULL });
  cr_assert (only_these (dir, (const char *[]) { "bad.set", "out.pdf", NULL }));
  st_rm_rf (dir);
}

Test (stickers_cli, set_of_another_game_is_refused)
{
  g_autofree char *dir = st_tmpdir ();
  const char *datadir = g_getenv ("TABLERO_DATADIR");
  g_autofree char *catchy = g_build_filename (datadir, "cards", "catchy.set", NULL);
  g_autofree char *out = g_build_filename (dir, "out.pdf", NULL);
  expect_refusal ("not 'katua'",
                  (const char *[]) { "--game", "katua", "--set", catchy, "-o", out, NULL });
  cr_assert (only_these (dir, (const char *[]) { NULL }));
  st_rm_rf (dir);
}

Test (stickers_cli, writes_a_pdf_with_a_one_line_summary)
{
  g_autofree char *dir = st_tmpdir ();
  g_autofree char *out = g_build_filename (dir, "catchy.pdf", NULL);
  cr_assert (g_file_set_contents (out, "old", -1, NULL));
  const char *argv[] = { TABLERO_CLI, "stickers", "--game", "catchy", "--paper", "letter",
                         "--size-mm=30", "-o", out, NULL };
  StRun run;
  cr_assert (st_run (argv, NULL, &run));
  cr_assert_eq (run.exit_status, 0, "%s", run.err);
  cr_assert_str_empty (run.out);
  cr_assert (g_str_has_suffix (run.err, "\n") && strchr (run.err, '\n') == run.err + strlen (run.err) - 1,
             "summary is not one line: %s", run.err);
  cr_assert (strstr (run.err, "stickers") && strstr (run.err, "pages") && strstr (run.err, "30 mm")
             && strstr (run.err, "Letter"), "summary: %s", run.err);
  st_run_clear (&run);
  g_autofree char *pdf = NULL;
  gsize len = 0;
  cr_assert (g_file_get_contents (out, &pdf, &len, NULL));
  cr_assert (len > 1000 && memcmp (pdf, "%PDF-", 5) == 0, "not a PDF");
  cr_assert (only_these (dir, (const char *[]) { "catchy.pdf", NULL }));
  st_rm_rf (dir);
}

/* The printing key: made on first need in the data folder (XDG_DATA_HOME),
 * kept by later runs, replaced by --new-printing, which says so; the key is
 * never printed; a sticker of the old printing is then refused by tag. */
Test (stickers_cli, a_new_printing_replaces_the_key_and_refuses_old_stickers)
{
  g_autofree char *dir = st_tmpdir ();
  g_setenv ("XDG_DATA_HOME", dir, TRUE);
  g_autofree char *pdf = g_build_filename (dir, "out.pdf", NULL);
  g_autofree char *ini = g_build_filename (dir, "tablero", "printings.ini", NULL);
  const char *argv[] = { TABLERO_CLI, "stickers", "--game", "kittens", "-o", pdf, NULL, NULL };
  StRun run;
  cr_assert (st_run (argv, NULL, &run) && run.exit_status == 0, "%s", run.err);
  st_run_clear (&run);
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  cr_assert (g_key_file_load_from_file (kf, ini, G_KEY_FILE_NONE, NULL), "no %s", ini);
  g_autofree char *first = g_key_file_get_string (kf, "E01", "key", NULL);
  cr_assert_not_null (first);
  cr_expect_eq (strlen (first), 64u);
  GStatBuf st;
  cr_assert_eq (g_stat (ini, &st), 0);
  cr_expect_eq (st.st_mode & 0077, 0u, "printings.ini is readable by others");

  /* a second run keeps the key: the same stickers come out */
  cr_assert (st_run (argv, NULL, &run) && run.exit_status == 0, "%s", run.err);
  st_run_clear (&run);
  cr_assert (g_key_file_load_from_file (kf, ini, G_KEY_FILE_NONE, NULL));
  g_autofree char *again = g_key_file_get_string (kf, "E01", "key", NULL);
  cr_expect_str_eq (again, first);

  /* the first sticker of the sheet as printed now, from the PDF's text */
  const char *text_argv[] = { PDFTOTEXT, "-raw", pdf, "-", NULL };
  cr_assert (st_run (text_argv, NULL, &run) && run.exit_status == 0, "%s", run.err);
  const char *at = strstr (run.out, "TB1E01F001");
  cr_assert_not_null (at, "no sticker text in the sheet");
  g_autofree char *old_sticker = g_strndup (at, 16);
  st_run_clear (&run);
  const char *tag_argv[] = { TABLERO_CLI, "tag", old_sticker, NULL };
  cr_assert (st_run (tag_argv, NULL, &run));
  cr_expect_eq (run.exit_status, 0, "%s is this printing's: %s", old_sticker, run.err);
  st_run_clear (&run);

  argv[6] = "--new-printing";
  cr_assert (st_run (argv, NULL, &run) && run.exit_status == 0, "%s", run.err);
  cr_expect (strstr (run.err, "new printing") != NULL, "%s", run.err);
  cr_expect (strstr (run.err, first) == NULL && strstr (run.out, first) == NULL, "the key was printed");
  st_run_clear (&run);
  cr_assert (g_key_file_load_from_file (kf, ini, G_KEY_FILE_NONE, NULL));
  g_autofree char *fresh = g_key_file_get_string (kf, "E01", "key", NULL);
  cr_expect_str_neq (fresh, first);
  cr_expect (g_key_file_has_key (kf, "E01", "created", NULL));

  cr_assert (st_run (tag_argv, NULL, &run));
  cr_expect_eq (run.exit_status, 1, "%s of the old printing is still taken: %s", old_sticker, run.out);
  cr_expect (strstr (run.err, "another printing") != NULL, "%s", run.err);
  st_run_clear (&run);
  st_rm_rf (dir);
}

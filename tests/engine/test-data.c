/* eng-data: finding data/ and reading text files for every loader. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eng-data.h"

static char *
write_temp (const char *content, size_t len)
{
  char *path = strdup ("/tmp/tablero-data-XXXXXX");
  int fd = mkstemp (path);
  cr_assert_geq (fd, 0);
  cr_assert_eq (write (fd, content, len), (ssize_t) len);
  close (fd);
  return path;
}

Test (data, reads_whole_file_nul_terminated)
{
  static const char content[] = "game katua\nplayer Ana\n";
  char *path = write_temp (content, sizeof content - 1);
  char *text = NULL;
  size_t len = 0;
  cr_assert_eq (eng_read_text_file (path, 1024, &text, &len, NULL), ENG_OK);
  cr_assert_eq (len, sizeof content - 1);
  cr_assert_str_eq (text, content);
  free (text);
  unlink (path);
  free (path);
}

Test (data, larger_than_limit_is_refused_and_named)
{
  char big[10000];
  memset (big, 'x', sizeof big);
  char *path = write_temp (big, sizeof big);
  char *text = (char *) 1;
  size_t len = 7;
  EngParseError err = { "" };
  cr_assert_eq (eng_read_text_file (path, 4096, &text, &len, &err), ENG_ERR_LIMIT);
  cr_assert_null (text);
  cr_assert_eq (len, 0);
  cr_assert_str_eq (err.source, path);
  cr_assert_not_null (strstr (err.reason, "larger than 4096"), "%s", err.reason);
  /* exactly at the limit is fine */
  cr_assert_eq (eng_read_text_file (path, sizeof big, &text, &len, NULL), ENG_OK);
  cr_assert_eq (len, sizeof big);
  free (text);
  unlink (path);
  free (path);
}

Test (data, missing_file_is_io_error_with_reason)
{
  char *text = NULL;
  size_t len = 0;
  EngParseError err = { "" };
  cr_assert_eq (eng_read_text_file ("/nonexistent/tablero", 100, &text, &len, &err), ENG_ERR_IO);
  cr_assert_null (text);
  cr_assert_not_null (strstr (err.reason, "cannot open"), "%s", err.reason);
}

Test (data, data_path_follows_environment)
{
  setenv ("TABLERO_DATADIR", "/some/where", 1);
  char *path = eng_data_path ("cards/katua.set");
  cr_assert_str_eq (path, "/some/where/cards/katua.set");
  free (path);
}

/* This test program lives in the build tree, so without the variable it
 * reads the source tree's data/, as a build run in place does
 * (docs/architecture.md, "Install and data lookup"; tests/install covers
 * an installed copy). */
Test (data, data_dir_of_a_build_run_in_place_is_the_source_tree)
{
  unsetenv ("TABLERO_DATADIR");
  cr_assert_str_eq (eng_data_dir (), TABLERO_SOURCE_DATADIR);
  char *path = eng_data_path ("cards/katua.set");
  cr_assert_str_eq (path, TABLERO_SOURCE_DATADIR "/cards/katua.set");
  free (path);
}

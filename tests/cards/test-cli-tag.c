/* tablero-cli tag, run as a user would: exit codes, one valid JSON object a
 * line, the meaning of good payloads and the reason for bad ones. */
#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sys/wait.h>
#include <string.h>

#include "eng-printing.h"

typedef struct {
  int status;
  char *out;
  char *err;
} Run;

static Run
run_cli (const char *datadir, const char *const *args)
{
  const char *cli = g_getenv ("TABLERO_CLI");
  cr_assert_not_null (cli, "TABLERO_CLI must name the built tablero-cli");
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) cli);
  g_ptr_array_add (argv, (gpointer) "tag");
  for (size_t i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  char **envp = g_get_environ ();
  if (datadir != NULL)
    envp = g_environ_setenv (envp, "TABLERO_DATADIR", datadir, TRUE);
  Run r = { 0 };
  GError *error = NULL;
  int wait_status = 0;
  gboolean ok = g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                              &r.out, &r.err, &wait_status, &error);
  cr_assert (ok, "spawn %s: %s", cli, error ? error->message : "?");
  cr_assert (WIFEXITED (wait_status));
  r.status = WEXITSTATUS (wait_status);
  g_strfreev (envp);
  g_ptr_array_free (argv, TRUE);
  return r;
}

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
}

/* A small strict JSON checker (objects, arrays, strings, numbers, literals):
 * enough to prove each line is one well-formed object. */
static const char *json_value (const char *p);

static const char *
json_ws (const char *p)
{
  while (*p == ' ' || *p == '\t')
    p++;
  return p;
}

static const char *
json_string (const char *p)
{
  if (*p != '"')
    return NULL;
  for (p++; *p != '"'; p++)
    {
      unsigned char c = (unsigned char) *p;
      if (c < 0x20)
        return NULL;
      if (c == '\\')
        {
          p++;
          if (*p == 'u')
            {
              for (int i = 1; i <= 4; i++)
                if (!g_ascii_isxdigit (p[i]))
                  return NULL;
              p += 4;
            }
          else if (strchr ("\"\\/bfnrt", *p) == NULL || *p == '\0')
            return NULL;
        }
    }
  return p + 1;
}

static const char *
json_container (const char *p, char open, char close, gboolean keyed)
{
  if (*p != open)
    return NULL;
  p = json_ws (p + 1);
  if (*p == close)
    return p + 1;
  for (;;)
    {
      if (keyed)
        {
          p = json_string (json_ws (p));
          if (p == NULL || *(p = json_ws (p)) != ':')
            return NULL;
          p++;
        }
      p = json_value (json_ws (p));
      if (p == NULL)
        return NULL;
      p = json_ws (p);
      if (*p == close)
        return p + 1;
      if (*p != ',')
        return NULL;
      p++;
    }
}

static const char *
json_value (const char *p)
{
  if (*p == '{')
    return json_container (p, '{', '}', TRUE);
  if (*p == '[')
    return json_container (p, '[', ']', FALSE);
  if (*p == '"')
    return json_string (p);
  if (*p == '-' || g_ascii_isdigit (*p))
    {
      p += *p == '-';
      if (!g_ascii_isdigit (*p))
        return NULL;
      while (g_ascii_isdigit (*p))
        p++;
      return p;
    }
  static const char *const lits[] = { "true", "false", "null" };
  for (int i = 0; i < 3; i++)
    if (strncmp (p, lits[i], strlen (lits[i])) == 0)
      return p + strlen (lits[i]);
  return NULL;
}

/* Splits stdout into lines and checks each is exactly one JSON object. */
static char **
json_lines (const char *out, size_t expected)
{
  cr_assert (g_str_has_suffix (out, "\n"), "output ends with a newline");
  char **lines = g_strsplit (out, "\n", -1);
  cr_assert_eq (g_strv_length (lines), expected + 1, "got:\n%s", out);
  for (size_t i = 0; i < expected; i++)
    {
      const char *end = json_value (lines[i]);
      cr_assert (end != NULL && *end == '\0' && lines[i][0] == '{', "not one JSON object: %s",
                 lines[i]);
    }
  return lines;
}

Test (cli_tag, valid_payloads_exit_0_with_meaning)
{
  const char *args[] = { "TB1K01F001W", "TB1K01F108G", "TB1K01B002Y", "TB1E01X001R", NULL };
  Run r = run_cli (NULL, args);
  cr_assert_eq (r.status, 0, "stderr: %s", r.err);
  char **lines = json_lines (r.out, 4);
  cr_assert_not_null (strstr (lines[0], "\"payload\":\"TB1K01F001W\""));
  cr_assert_not_null (strstr (lines[0], "\"kind\":\"face\""));
  cr_assert_not_null (strstr (lines[0], "\"serial\":1,"));
  cr_assert_not_null (strstr (lines[0], "\"type\":\"cat-red-1\""));
  cr_assert_not_null (strstr (lines[0], "\"deck\":\"cat\""));
  cr_assert_not_null (strstr (lines[0], "\"colour\":\"red\""));
  cr_assert_not_null (strstr (lines[0], "\"value\":\"1\""));
  cr_assert_not_null (strstr (lines[1], "\"action\":\"stampede\""));
  cr_assert_not_null (strstr (lines[2], "\"kind\":\"back\""));
  cr_assert_not_null (strstr (lines[2], "\"deck\":\"ufo\""));
  cr_assert_not_null (strstr (lines[3], "\"command\":\"end-turn\""));
  for (size_t i = 0; i < 4; i++)
    cr_assert_null (strstr (lines[i], "\"error\""));
  g_strfreev (lines);
  run_clear (&r);
}

Test (cli_tag, invalid_payloads_exit_1_and_others_still_reported)
{
  const char *args[] = {
    "TB1K01F001W",
    "TB1K01F001X",               /* wrong check character */
    "https://example.com/\"q\\", /* foreign, with characters JSON must escape */
    "tb1k01f001w",
    "TB1E01F057S",               /* valid shape, past the 56 base cards */
    "TB1C01S003W",               /* Catchy! has two seats */
    "TB1K01S004D",
    NULL,
  };
  Run r = run_cli (NULL, args);
  cr_assert_eq (r.status, 1);
  char **lines = json_lines (r.out, 7);
  cr_assert_null (strstr (lines[0], "\"error\""));
  cr_assert_not_null (strstr (lines[1], "\"error\":\"tag check character does not match\""));
  cr_assert_not_null (strstr (lines[2], "\"payload\":\"https://example.com/\\\"q\\\\\""), "%s", lines[2]);
  cr_assert_not_null (strstr (lines[2], "\"error\":\"not a Tablero tag\""));
  cr_assert_not_null (strstr (lines[3], "\"error\":\"not a Tablero tag\""));
  cr_assert_not_null (strstr (lines[4], "\"error\":\"tag not in this card set\""));
  cr_assert_not_null (strstr (lines[5], "\"error\":\"tag not in this card set\""));
  cr_assert_not_null (strstr (lines[6], "\"seat\":4"));
  cr_assert_null (strstr (lines[6], "\"error\""));
  /* One clear reason per bad payload on stderr. */
  char **errs = g_strsplit (g_strchomp (r.err), "\n", -1);
  cr_assert_eq (g_strv_length (errs), 5, "stderr:\n%s", r.err);
  cr_assert_not_null (strstr (errs[0], "TB1K01F001X"));
  cr_assert_not_null (strstr (errs[0], "check character"));
  g_strfreev (errs);
  g_strfreev (lines);
  run_clear (&r);
}

Test (cli_tag, control_and_non_utf8_bytes_stay_valid_json)
{
  const char *args[] = { "a\tb\001c", "caf\xc3\xa9", "bad\xff", NULL };
  Run r = run_cli (NULL, args);
  cr_assert_eq (r.status, 1);
  char **lines = json_lines (r.out, 3);
  cr_assert_not_null (strstr (lines[0], "a\\tb\\u0001c"), "%s", lines[0]);
  cr_assert (g_utf8_validate (r.out, -1, NULL));
  g_strfreev (lines);
  run_clear (&r);
}

Test (cli_tag, bad_usage_exits_2)
{
  const char *none[] = { NULL };
  Run r = run_cli (NULL, none);
  cr_assert_eq (r.status, 2);
  cr_assert_not_null (strstr (r.err, "usage"));
  run_clear (&r);
}

Test (cli_tag, broken_set_file_exits_2_with_line)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-cards-XXXXXX", NULL);
  cr_assert_not_null (dir);
  g_autofree char *cards = g_build_filename (dir, "cards", NULL);
  cr_assert_eq (g_mkdir (cards, 0700), 0);
  g_autofree char *file = g_build_filename (cards, "katua.set", NULL);
  cr_assert (g_file_set_contents (file, "game katua K Katua\nset 01\nbogus line\n", -1, NULL));
  const char *args[] = { "TB1K01F001W", NULL };
  Run r = run_cli (dir, args);
  cr_assert_eq (r.status, 2);
  cr_assert_not_null (strstr (r.err, "katua.set:3:"), "stderr: %s", r.err);
  run_clear (&r);
  g_unlink (file);
  g_rmdir (cards);
  g_rmdir (dir);
}

/* A sticker's 16-character text: its tag explained, and whether its seal is
 * this table's (the key in printings.ini under XDG_DATA_HOME, here one the
 * test writes); an 11-character tag is explained with the note that as a
 * sticker it is of the older format. */
Test (cli_tag, sealed_payloads_are_checked_against_the_table_printing)
{
  g_autofree char *home = g_dir_make_tmp ("tablero-tag-keys-XXXXXX", NULL);
  cr_assert_not_null (home);
  g_autofree char *folder = g_build_filename (home, "tablero", NULL);
  cr_assert_eq (g_mkdir_with_parents (folder, 0700), 0);
  uint8_t key[ENG_PRINTING_KEY_LEN];
  GString *hex = g_string_new (NULL);
  for (size_t i = 0; i < sizeof key; i++)
    {
      key[i] = (uint8_t) (i * 7 + 3);
      g_string_append_printf (hex, "%02X", key[i]);
    }
  g_autofree char *ini = g_build_filename (folder, "printings.ini", NULL);
  g_autofree char *text = g_strdup_printf ("[K01]\nkey=%s\ncreated=2026-01-01T00:00:00Z\n", hex->str);
  g_string_free (hex, TRUE);
  cr_assert (g_file_set_contents (ini, text, -1, NULL));
  g_setenv ("XDG_DATA_HOME", home, TRUE);

  char seal[ENG_SEAL_LEN + 1];
  cr_assert_eq (eng_seal_compute (key, sizeof key, "TB1K01F001W", seal), ENG_OK);
  g_autofree char *genuine = g_strdup_printf ("TB1K01F001W%s", seal);
  seal[0] = seal[0] == 'A' ? 'B' : 'A';
  g_autofree char *forged = g_strdup_printf ("TB1K01F001W%s", seal);

  Run r = run_cli (NULL, (const char *const[]) { genuine, NULL });
  cr_expect_eq (r.status, 0, "%s", r.err);
  cr_expect (strstr (r.out, "\"tag\":\"TB1K01F001W\"") != NULL, "%s", r.out);
  cr_expect (strstr (r.out, "\"type\":\"cat-red-1\"") != NULL, "%s", r.out);
  cr_expect (strstr (r.out, "\"seal_matches\":true") != NULL, "%s", r.out);
  run_clear (&r);

  r = run_cli (NULL, (const char *const[]) { forged, "TB1K01F001W", NULL });
  cr_expect_eq (r.status, 1, "%s", r.err);
  cr_expect (strstr (r.out, "\"seal_matches\":false") != NULL, "%s", r.out);
  cr_expect (strstr (r.out, "from another printing or made by hand") != NULL, "%s", r.out);
  cr_expect (strstr (r.err, "its seal is not this table's") != NULL, "%s", r.err);
  cr_expect (strstr (r.out, "older format") != NULL, "the 11-character tag gets its note: %s", r.out);
  run_clear (&r);

  /* the key file is read, not rewritten, and nothing prints the key */
  g_autofree char *after = NULL;
  cr_assert (g_file_get_contents (ini, &after, NULL, NULL));
  cr_expect_str_eq (after, text);
  g_unlink (ini);
  g_rmdir (folder);
  g_rmdir (home);
}

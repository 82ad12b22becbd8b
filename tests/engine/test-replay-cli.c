/* tablero-cli replay on the records under tests/engine/records: exit codes
 * (0 legal, 1 illegal, 2 malformed), the reported line and rule, --continue,
 * and inputs that must not crash it. */
#include "kat-test.h"

#include <fcntl.h>
#include <glib.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct {
  int code;
  char out[1 << 20];
} Run;

static void run_cli_to (Run *r, bool merged, const char *a1, const char *a2, const char *a3);

static void
run_cli (Run *r, const char *a1, const char *a2, const char *a3)
{
  run_cli_to (r, false, a1, a2, a3);
}

/* `merged`: standard error goes to the same file as the output (a shell's
 * 2>&1), otherwise to /dev/null. */
static void
run_cli_to (Run *r, bool merged, const char *a1, const char *a2, const char *a3)
{
  const char *cli = getenv ("TABLERO_CLI");
  cr_assert_not_null (cli, "TABLERO_CLI must be set (meson test sets it)");
  char tmpl[] = "/tmp/tablero-replay-XXXXXX";
  int fd = mkstemp (tmpl);
  cr_assert_geq (fd, 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init (&fa);
  posix_spawn_file_actions_adddup2 (&fa, fd, 1);
  if (merged)
    posix_spawn_file_actions_adddup2 (&fa, fd, 2);
  else
    posix_spawn_file_actions_addopen (&fa, 2, "/dev/null", O_WRONLY, 0);
  char *argv[] = { (char *) cli, (char *) a1, (char *) a2, (char *) a3, NULL };
  pid_t pid;
  cr_assert_eq (posix_spawn (&pid, cli, &fa, NULL, argv, environ), 0);
  int status = 0;
  waitpid (pid, &status, 0);
  posix_spawn_file_actions_destroy (&fa);
  cr_assert (WIFEXITED (status), "tablero-cli must not crash (status %d)", status);
  r->code = WEXITSTATUS (status);
  lseek (fd, 0, SEEK_SET);
  ssize_t n = read (fd, r->out, sizeof r->out - 1);
  r->out[n > 0 ? n : 0] = '\0';
  close (fd);
  unlink (tmpl);
}

static char *
record_path (const char *name)
{
  const char *dir = getenv ("TABLERO_ENGINE_RECORDS");
  cr_assert_not_null (dir);
  size_t n = strlen (dir) + strlen (name) + 2;
  char *p = malloc (n);
  snprintf (p, n, "%s/%s", dir, name);
  return p;
}

static void
assert_json_lines (const char *out)
{
  for (const char *line = out; *line; )
    {
      const char *end = strchr (line, '\n');
      cr_assert_not_null (end, "every line ends with a newline");
      cr_assert_eq (line[0], '{', "a JSON object per line: %.60s", line);
      cr_assert_eq (end[-1], '}', "a JSON object per line: %.60s", line);
      line = end + 1;
    }
}

static void
replay_ok (const char *name)
{
  Run *run = calloc (1, sizeof *run);
  char *p = record_path (name);
  run_cli (run, "replay", p, NULL);
  cr_assert_eq (run->code, 0, "%s: exit %d\n%s", name, run->code, run->out);
  cr_assert_not_null (strstr (run->out, "\"event\":\"game-over\""), "%s: a complete game", name);
  cr_assert_not_null (strstr (run->out, "\"illegal\":0,"));
  cr_assert_null (strstr (run->out, "\"event\":\"illegal\""));
  assert_json_lines (run->out);
  free (p);
  free (run);
}

Test (replay, complete_two_player_game) { replay_ok ("katua-2p-seeded.rec"); }
Test (replay, complete_three_player_game) { replay_ok ("katua-3p-seeded.rec"); }
Test (replay, complete_four_player_game) { replay_ok ("katua-4p-seeded.rec"); }
Test (replay, complete_live_table_game_with_unseen_cards) { replay_ok ("katua-2p-live.rec"); }
Test (replay, complete_catchy_game) { replay_ok ("catchy-2p-seeded.rec"); }
Test (replay, complete_catchy_live_game_with_unseen_cards) { replay_ok ("catchy-2p-live.rec"); }
Test (replay, complete_escoba_game_to_21_at_a_live_table) { replay_ok ("escoba-2p-live.rec"); }
Test (replay, complete_escoba_seeded_game_in_pairs) { replay_ok ("escoba-4p-pairs-seeded.rec"); }

Test (replay, catchy_late_revoke_is_flagged_naming_the_trick)
{
  Run *run = calloc (1, sizeof *run);
  char *p = record_path ("catchy-2p-revoke.rec");
  run_cli (run, "replay", p, NULL);
  cr_assert_eq (run->code, 0, "%s", run->out);
  cr_assert_not_null (strstr (run->out, "{\"line\":16,\"event\":\"note\",\"player\":\"Bea\","
                                       "\"rule\":\"C8\",\"text\":\"Revoke in trick 1:"), "%s",
                      run->out);
  cr_assert_null (strstr (run->out, "\"line\":13,\"event\":\"note\",\"player\":\"Bea\","
                                    "\"rule\":\"C8\""), "not flagged before it is proven");
  assert_json_lines (run->out);
  free (p);
  free (run);
}

Test (replay, stops_at_first_illegal_line_with_reason_and_rule)
{
  Run *run = calloc (1, sizeof *run);
  char *p = record_path ("katua-3p-illegal.rec");
  run_cli (run, "replay", p, NULL);
  cr_assert_eq (run->code, 1);
  cr_assert_not_null (strstr (run->out, "{\"line\":18,\"event\":\"illegal\",\"player\":\"Cai\","
                                       "\"rule\":\"K6\""), "%s", run->out);
  cr_assert_null (strstr (run->out, "\"line\":19,"), "nothing after the illegal line");
  assert_json_lines (run->out);
  free (p);
  free (run);
}

Test (replay, continue_reports_every_illegal_line)
{
  Run *run = calloc (1, sizeof *run);
  char *p = record_path ("katua-3p-illegal.rec");
  run_cli (run, "replay", "--continue", p);
  cr_assert_eq (run->code, 1);
  cr_assert_not_null (strstr (run->out, "{\"line\":18,\"event\":\"illegal\""));
  cr_assert_not_null (strstr (run->out, "{\"line\":23,\"event\":\"illegal\",\"player\":\"Bea\","
                                       "\"rule\":\"K3\""), "%s", run->out);
  cr_assert_not_null (strstr (run->out, "\"line\":25,"), "goes on to the end");
  cr_assert_not_null (strstr (run->out, "\"illegal\":2,"));
  free (p);
  free (run);
}

/* Both streams on one file (2>&1): the error summary comes after the JSON
 * lines it sums up, never inside one, however long the output. */
Test (replay, errors_never_land_inside_a_json_line)
{
  Run *run = calloc (1, sizeof *run);
  char *p = record_path ("katua-4p-seeded.rec");
  g_autofree char *text = NULL;
  cr_assert (g_file_get_contents (p, &text, NULL, NULL));
  /* a move after the game is over: illegal, and the summary goes to stderr */
  g_autofree char *longer = g_strconcat (text, "Ana pass\n", NULL);
  char tmpl[] = "/tmp/tablero-replay-long-XXXXXX";
  int fd = mkstemp (tmpl);
  cr_assert_geq (fd, 0);
  cr_assert_eq (write (fd, longer, strlen (longer)), (ssize_t) strlen (longer));
  close (fd);
  run_cli_to (run, true, "replay", "--continue", tmpl);
  unlink (tmpl);
  cr_assert_eq (run->code, 1, "%s", run->out);
  cr_assert_gt (strlen (run->out), 8192, "output long enough to be written in several blocks");
  const char *summary = strstr (run->out, "tablero-cli replay: ");
  cr_assert_not_null (summary, "the summary is said");
  cr_assert (summary == run->out || summary[-1] == '\n', "the summary starts a line");
  const char *end = strchr (summary, '\n');
  cr_assert_not_null (end);
  cr_assert_eq (end[1], '\0', "the summary comes after every JSON line: %.200s", end + 1);
  *(char *) summary = '\0';
  assert_json_lines (run->out);
  free (p);
  free (run);
}

Test (replay, conservation_breach_is_reported_not_absorbed)
{
  Run *run = calloc (1, sizeof *run);
  char *p = record_path ("katua-2p-conservation.rec");
  run_cli (run, "replay", p, NULL);
  cr_assert_eq (run->code, 1);
  cr_assert_not_null (strstr (run->out, "{\"line\":12,\"event\":\"conservation\""), "%s", run->out);
  free (p);
  free (run);
}

Test (replay, malformed_record_exits_2_with_line)
{
  Run *run = calloc (1, sizeof *run);
  char *p = record_path ("katua-malformed.rec");
  run_cli (run, "replay", p, NULL);
  cr_assert_eq (run->code, 2);
  cr_assert_not_null (strstr (run->out, "\"event\":\"malformed\",\"line\":9,"), "%s", run->out);
  free (p);
  free (run);
}

Test (replay, bad_usage_and_unreadable_input_exit_2)
{
  Run *run = calloc (1, sizeof *run);
  run_cli (run, "replay", NULL, NULL);
  cr_assert_eq (run->code, 2);
  run_cli (run, "replay", "/nonexistent/record.rec", NULL);
  cr_assert_eq (run->code, 2);
  /* binary garbage */
  char tmpl[] = "/tmp/tablero-garbage-XXXXXX";
  int fd = mkstemp (tmpl);
  unsigned char junk[4096];
  for (size_t i = 0; i < sizeof junk; i++)
    junk[i] = (unsigned char) (i * 131 + 7);
  cr_assert_eq (write (fd, junk, sizeof junk), (ssize_t) sizeof junk);
  close (fd);
  run_cli (run, "replay", tmpl, NULL);
  cr_assert_eq (run->code, 2);
  unlink (tmpl);
  free (run);
}

Test (replay, records_replay_identically_through_the_library)
{
  const char *names[] = { "katua-2p-seeded.rec", "katua-3p-seeded.rec", "katua-4p-seeded.rec",
                          "katua-2p-live.rec" };
  EngCardSet *set = gt_load_set ("katua");
  EngOptions opts;
  gt_load_options ("katua", &opts);
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    {
      char *p = record_path (names[i]);
      EngRecord *rec = NULL;
      EngParseError err;
      cr_assert_eq (eng_record_load_file (p, &rec, &err), ENG_OK, "%s: %s", p, err.reason);
      /* written and read back: the same record */
      char *text = eng_record_write (rec);
      EngRecord *back = NULL;
      cr_assert_eq (eng_record_parse (text, strlen (text), "w", &back, &err), ENG_OK);
      cr_assert (eng_record_equal (rec, back), "%s round trip", names[i]);
      EngReplayResult a, b;
      EngVerdict v;
      cr_assert_eq (eng_replay (rec, set, &opts, false, true, NULL, NULL, &a, &v), ENG_OK);
      cr_assert_eq (eng_replay (back, set, &opts, false, true, NULL, NULL, &b, &v), ENG_OK);
      cr_assert_eq (a.illegal, 0);
      cr_assert (a.over);
      cr_assert_eq (memcmp (eng_game_state (a.game), eng_game_state (b.game),
                            sizeof (KatState)), 0);
      eng_game_free (a.game);
      eng_game_free (b.game);
      eng_record_free (back);
      eng_record_free (rec);
      free (text);
      free (p);
    }
  eng_card_set_free (set);
}

/* The details behind the plain words are there for who asks: --verbose
 * adds each ruling's name and explanation to the events that name one;
 * without it the lines are the public format as it was. */
Test (replay, verbose_adds_the_rules_explanation)
{
  Run *run = calloc (1, sizeof *run);
  char *p = record_path ("katua-2p-seeded.rec");
  run_cli (run, "replay", p, NULL);
  cr_assert_eq (run->code, 0, "%s", run->out);
  cr_expect_null (strstr (run->out, "\"explanation\""), "explanations without --verbose");
  cr_expect_not_null (strstr (run->out, "\"rule\":\"K21\""), "the rule ids stay in the public format");
  run_cli (run, "replay", "--verbose", p);
  cr_assert_eq (run->code, 0, "%s", run->out);
  cr_expect_not_null (strstr (run->out, "\"rule\":\"K21\",\"text\":\"Ana's turn\",\"rule_title\":\"Turn order\","
                                        "\"explanation\":\"Play goes clockwise."),
                      "%s", run->out);
  assert_json_lines (run->out);
  free (p);
  free (run);
}

/* The generic core: RNG, options, registry, the record parser (errors with
 * line and reason) and writer (round trip), event JSON. */
#include "kat-test.h"
#include <unistd.h>

#include "eng-data.h"
#include "eng-name.h"

Test (core, rng_is_deterministic_and_bounded)
{
  EngRng a, b, c;
  eng_rng_seed (&a, 42);
  eng_rng_seed (&b, 42);
  eng_rng_seed (&c, 43);
  int differ = 0;
  for (int i = 0; i < 1000; i++)
    {
      uint32_t x = eng_rng_next (&a), y = eng_rng_next (&b), z = eng_rng_next (&c);
      cr_assert_eq (x, y);
      differ += x != z;
    }
  cr_assert_gt (differ, 990, "another seed gives another sequence");
  int seen[7] = { 0 };
  for (int i = 0; i < 7000; i++)
    {
      uint32_t v = eng_rng_below (&a, 7);
      cr_assert_lt (v, 7u);
      seen[v]++;
    }
  for (int i = 0; i < 7; i++)
    cr_assert_gt (seen[i], 800, "roughly uniform");
  cr_assert_eq (eng_rng_below (&a, 0), 0u);
  uint8_t items[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
  eng_rng_shuffle_u8 (&a, items, 10);
  int sum = 0;
  for (int i = 0; i < 10; i++)
    sum += items[i];
  cr_assert_eq (sum, 45, "a shuffle is a permutation");
}

Test (core, registry_finds_katua_only_by_name)
{
  cr_assert_eq (eng_game_class_find ("katua"), &katua_game_class);
  cr_assert_null (eng_game_class_find ("chess"));
  cr_assert_null (eng_game_class_find (NULL));
  cr_assert_geq (eng_game_class_count (), 1);
  cr_assert_null (eng_game_class_get (eng_game_class_count ()));
  cr_assert_eq (eng_game_class_verb (&katua_game_class, "attack"), KAT_ATTACK);
  cr_assert_eq (eng_game_class_verb (&katua_game_class, "abduct"), -1);
}

Test (core, options_parse_comments_overrides_and_errors)
{
  const char *text = "# comment\n a = yes  # trailing\n\nb=no\na = no\n";
  EngOptions o;
  EngParseError err = { 0 };
  cr_assert_eq (eng_options_parse (text, strlen (text), "t", &o, &err), ENG_OK);
  cr_assert_eq (o.n, 2);
  cr_assert_str_eq (eng_options_get (&o, "a"), "no", "later lines override");
  cr_assert_str_eq (eng_options_get (&o, "b"), "no");
  cr_assert_null (eng_options_get (&o, "c"));
  const char *bad = "a = yes\nthis line has no equals\n";
  EngOptions keep = o;
  cr_assert_eq (eng_options_parse (bad, strlen (bad), "bad.options", &o, &err), ENG_ERR_SYNTAX);
  cr_assert_eq (err.line, 2);
  cr_assert_str_eq (err.source, "bad.options");
  cr_assert_gt (strlen (err.reason), 0);
  cr_assert_eq (memcmp (&keep, &o, sizeof o), 0, "a refused parse leaves the output alone");
  const char *two = "a = two words\n";
  cr_assert_eq (eng_options_parse (two, strlen (two), "t", &o, &err), ENG_ERR_SYNTAX);
  cr_assert_eq (eng_options_load_file ("/nonexistent/x.options", &o, &err), ENG_ERR_IO);
}

Test (core, shipped_katua_options_name_every_switch)
{
  EngOptions o;
  gt_load_options ("katua", &o);
  const char *names[] = { "xray_teleporter_answerable", "ufo_deck_out", "total_memory",
                          "quick_start", "winning_score" };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    cr_assert_not_null (eng_options_get (&o, names[i]), "%s missing", names[i]);
  cr_assert_str_eq (eng_options_get (&o, "xray_teleporter_answerable"), "no", "K10 default");
  cr_assert_str_eq (eng_options_get (&o, "ufo_deck_out"), "reshuffle", "K18 default");
}

Test (core, every_shipped_rules_file_parses)
{
  /* a game with no option ruling ships no options file */
  for (size_t i = 0; i < eng_game_class_count (); i++)
    {
      char rel[64];
      snprintf (rel, sizeof rel, "rules/%s.options", eng_game_class_get (i)->name);
      char *path = eng_data_path (rel);
      if (access (path, R_OK) != 0)
        {
          free (path);
          continue;
        }
      EngOptions o;
      EngParseError err = { 0 };
      cr_assert_eq (eng_options_load_file (path, &o, &err), ENG_OK, "%s:%u: %s", path, err.line,
                    err.reason);
      cr_assert_gt (o.n, 0);
      free (path);
    }
}

Test (core, unknown_option_is_refused)
{
  GameTest t;
  EngStatus st = gt_try_new (&t, "game katua\nplayer A\nplayer B\noption house_rule yes\n");
  cr_assert_eq (st, ENG_ERR_UNKNOWN_ATTRIBUTE);
  cr_assert_null (t.game);
  gt_free (&t);
}

static void
expect_malformed (const char *text, unsigned line, const char *fragment)
{
  EngRecord *rec = (EngRecord *) 1;
  EngParseError err = { 0 };
  EngStatus st = eng_record_parse (text, strlen (text), "bad.rec", &rec, &err);
  cr_assert_neq (st, ENG_OK, "should be refused: %s", text);
  cr_assert_null (rec);
  cr_assert_eq (err.line, line, "line %u, wanted %u (%s) for:\n%s", err.line, line, err.reason,
                text);
  cr_assert_not_null (strstr (err.reason, fragment), "reason '%s' lacks '%s'", err.reason,
                      fragment);
  cr_assert_str_eq (err.source, "bad.rec");
}

Test (core, record_errors_name_line_and_reason)
{
  expect_malformed ("", 0, "no 'game' line");
  expect_malformed ("player Ana\n", 1, "starts with 'game");
  expect_malformed ("game chess\n", 1, "unknown game");
  expect_malformed ("game katua\nplayer Ana\n", 2, "needs 2 to 4 players");
  expect_malformed ("game katua\nplayer Ana\nplayer Ana\n", 3, "twice");
  expect_malformed ("game katua\nplayer 9lives\n", 2, "a player's name");
  expect_malformed ("game katua\nplayer show\n", 2, "a player's name");
  expect_malformed ("game katua\nplayer A\nplayer B\nplayer C\nplayer D\nplayer E\n", 6,
                    "too many players");
  expect_malformed ("game katua\nplayer A\nplayer B\nA pass\nseed 4\n", 5, "after the first move");
  expect_malformed ("game katua\nplayer A\nplayer B\nfirst Zed\n", 4, "unknown player");
  expect_malformed ("game katua\nplayer A\nplayer B\nseed x\n", 4, "seed");
  expect_malformed ("game katua\nplayer A\nplayer B\nA abduct 35 B 1\n", 4, "unknown verb");
  expect_malformed ("game katua\nplayer A\nplayer B\nA attack 35\n", 4, "CARD PLAYER SLOT");
  expect_malformed ("game katua\nplayer A\nplayer B\nA attack 1000 B 1\n", 4, "card serial");
  expect_malformed ("game katua\nplayer A\nplayer B\nA attack B 1 35\n", 4, "before the players");
  expect_malformed ("game katua\nplayer A\nplayer B\nA hit show\n", 4, "'show'");
  expect_malformed ("game katua\nplayer A\nplayer B\nA pass 3\n", 4, "no arguments");
  expect_malformed ("game katua\nplayer A\nplayer B\nA discard 1 2 3 4\n", 4, "at most 3");
  expect_malformed ("game katua\nplayer A\nplayer B\nA pass\xff\n", 4, "byte");
  expect_malformed ("game katua\nplayer A\nplayer B\nA pa\001ss\n", 4, "byte");
  expect_malformed ("game katua\nplayer A\nplayer B\ndeal A 3\n", 4, "place");
  /* a number too big for anything is named, not taken for a misplaced card */
  expect_malformed ("game katua\nplayer Ana\nplayer Bea\nAna attack 71 Bea "
                    "99999999999999999999999\n", 4, "slot '99999999999999999999999' of Bea");
  expect_malformed ("game katua\nplayer Ana\nplayer Bea\nAna attack 71 Bea 100\n", 4,
                    "out of range (1-99)");
  expect_malformed ("game katua\nplayer A\nplayer B\noption a\n", 4, "option NAME VALUE");
}

Test (core, record_accepts_comments_blank_lines_and_crlf)
{
  const char *text = "# header comment\r\n\r\ngame katua # trailing\r\n"
                     "player Ana seat 2\r\nplayer Bea\r\n   \r\nAna pass # done\r\n";
  EngRecord *rec = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_record_parse (text, strlen (text), "crlf", &rec, &err), ENG_OK, "%s",
                err.reason);
  cr_assert_eq (rec->setup.n_players, 2);
  cr_assert_eq (rec->setup.seats[0], 2);
  cr_assert_eq (rec->n_moves, 1);
  cr_assert_eq (rec->moves[0].line, 7, "moves keep their source line");
  eng_record_free (rec);
}

Test (core, record_writer_round_trips)
{
  const char *text =
    "game katua\nset 01\noption quick_start yes\nplayer Ana seat 1\nplayer Bea seat 3\n"
    "player Cai\nlast-winner Bea\nfirst Bea\nseed 77\ndeal Ana slots 1 ? 3\n"
    "deal cat-deck 5 6\ndeal Bea hand 35 ?\n"
    "Bea reveal Bea 2 show 9\nAna discard ? 36 37\nBea teleport 95 Ana 1 Cai 3\n"
    "Cai replicate 89 Ana 2\nAna hit show 12\n";
  EngRecord *a = NULL, *b = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_record_parse (text, strlen (text), "t", &a, &err), ENG_OK, "%s", err.reason);
  char *w = eng_record_write (a);
  cr_assert_not_null (w);
  cr_assert_eq (eng_record_parse (w, strlen (w), "w", &b, &err), ENG_OK, "%s\n%s", err.reason, w);
  cr_assert (eng_record_equal (a, b), "written:\n%s", w);
  /* and the text is stable: writing the re-read record gives the same text */
  char *w2 = eng_record_write (b);
  cr_assert_str_eq (w, w2);
  /* a different record is not equal */
  b->moves[1].move.cards[0] = 38;
  cr_assert_not (eng_record_equal (a, b));
  free (w);
  free (w2);
  eng_record_free (a);
  eng_record_free (b);
}

Test (core, parse_single_move_line)
{
  const char *hdr = "game katua\nplayer Ana\nplayer Bea\n";
  EngRecord *rec = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_record_parse (hdr, strlen (hdr), "h", &rec, &err), ENG_OK);
  EngMove m;
  cr_assert_eq (eng_record_parse_move (rec, "Bea shield 83 Ana 2", &m, &err), ENG_OK);
  cr_assert_eq (m.verb, KAT_SHIELD);
  cr_assert_eq (m.player, 1);
  cr_assert_eq (m.card, 83);
  cr_assert_eq (m.target[0], 0);
  cr_assert_eq (m.slot[0], 1);
  cr_assert_eq (eng_record_parse_move (rec, "Bea shield", &m, &err), ENG_ERR_SYNTAX);
  cr_assert_eq (eng_record_parse_move (rec, "", &m, &err), ENG_ERR_SYNTAX);
  cr_assert_eq (eng_record_parse_move (rec, "Cai pass", &m, &err), ENG_ERR_SYNTAX);
  char line[128];
  EngMove d;
  cr_assert_eq (eng_record_parse_move (rec, "Ana discard ? 36", &d, &err), ENG_OK);
  eng_record_format_move (&katua_game_class, &rec->setup, &d, line, sizeof line);
  cr_assert_str_eq (line, "Ana discard ? 36");
  eng_record_free (rec);
}

Test (core, event_json_escapes_and_names_players)
{
  EngSetup su;
  eng_setup_init (&su);
  su.n_players = 2;
  snprintf (su.names[0], sizeof su.names[0], "Ana");
  snprintf (su.names[1], sizeof su.names[1], "Bea");
  EngEvent e = { .kind = ENG_EVENT_DEALT, .player = 0, .other = -1 };
  snprintf (e.rule, sizeof e.rule, "K15");
  snprintf (e.text, sizeof e.text, "say \"hi\"\\\n");
  e.counts[0][0] = 1;
  e.counts[1][1] = 2;
  char buf[512];
  eng_event_to_json (&e, &su, 7, buf, sizeof buf);
  cr_assert_str_eq (buf, "{\"line\":7,\"event\":\"refill\",\"player\":\"Ana\",\"rule\":\"K15\","
                         "\"refill\":{\"Ana\":[1,0],\"Bea\":[0,2]},"
                         "\"text\":\"say \\\"hi\\\"\\\\\\u000a\"}");
  char small[16];
  int n = eng_event_to_json (&e, &su, 7, small, sizeof small);
  cr_assert_gt (n, 15, "reports the length wanted");
  cr_assert_eq (strlen (small), 15, "truncates safely");
}

/* Player names are UTF-8 text everywhere (eng-name.h): a record with them
 * reads, writes back the same and replays; what is refused says why. */
Test (core, player_names_are_utf8_text)
{
  cr_assert_eq (eng_name_check ("José", strlen ("José")), ENG_NAME_OK);
  cr_assert_eq (eng_name_check ("Núria", strlen ("Núria")), ENG_NAME_OK);
  cr_assert_eq (eng_name_check ("O'Neil-2", strlen ("O'Neil-2")), ENG_NAME_OK);
  cr_assert_eq (eng_name_check ("Ана", strlen ("Ана")), ENG_NAME_OK);
  cr_assert_eq (eng_name_check ("", 0), ENG_NAME_EMPTY);
  cr_assert_eq (eng_name_check ("Ana María", strlen ("Ana María")), ENG_NAME_OK);
  cr_assert_eq (eng_name_check ("Ana  María", strlen ("Ana  María")), ENG_NAME_SPACE);
  cr_assert_eq (eng_name_check ("9lives", 6), ENG_NAME_FIRST_NOT_LETTER);
  cr_assert_eq (eng_name_check ("Jo\x1bse", 5), ENG_NAME_CONTROL);
  cr_assert_eq (eng_name_check ("Jo\xc2\x85se", 6), ENG_NAME_CONTROL, "C1 controls too");
  cr_assert_eq (eng_name_check ("Jo\xc3", 3), ENG_NAME_NOT_UTF8);
  cr_assert_eq (eng_name_check ("Ana#1", 5), ENG_NAME_BAD_CHARACTER);
  cr_assert_eq (eng_name_check ("Maximiliàààààààààààààààààà", strlen ("Maximiliàààààààààààààààààà")),
                ENG_NAME_TOO_LONG);
  cr_assert (eng_names_same ("josé", "JOSÉ"));
  cr_assert_not (eng_names_same ("Jose", "José"));
  const char *names[] = { "Àlex", "Bea", "àlex" };
  EngNameCheck check;
  cr_assert_eq (eng_names_find_fault (names, 3, &check), 2);
  cr_assert_eq (check, ENG_NAME_OK, "a repeated name");
  cr_assert_eq (eng_names_find_fault (names, 2, &check), -1);

  const char *text = "game katua\nplayer José seat 1\nplayer María seat 2\nfirst María\n"
                     "María attack 54 José 1\n";
  EngRecord *a = NULL, *b = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_record_parse (text, strlen (text), "t", &a, &err), ENG_OK, "%s", err.reason);
  cr_assert_str_eq (a->setup.names[0], "José");
  cr_assert_eq (a->moves[0].move.player, 1);
  char *w = eng_record_write (a);
  cr_assert_not_null (strstr (w, "player María"), "%s", w);
  cr_assert_eq (eng_record_parse (w, strlen (w), "w", &b, &err), ENG_OK, "%s\n%s", err.reason, w);
  cr_assert (eng_record_equal (a, b));
  free (w);
  eng_record_free (a);
  eng_record_free (b);
  expect_malformed ("game katua\nplayer José\nplayer Jo\xc3\n", 3, "not UTF-8");
  expect_malformed ("game katua\nplayer José\nplayer JOSÉ\n", 3, "twice");
}

/* No byte that could drive a terminal: C0 controls, DEL, C1 controls. */
static void
expect_no_control_bytes (const char *text)
{
  for (const unsigned char *p = (const unsigned char *) text; *p; p++)
    {
      cr_assert (*p >= 0x20 && *p != 0x7f, "control byte 0x%02x in '%s'", *p, text);
      cr_assert (!(p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f), "C1 control in '%s'", text);
    }
}

Test (core, escape_text_writes_controls_as_hex_and_keeps_letters)
{
  char out[64];
  const char in[] = "a\x1b[31mb\tc\x7f\xc2\x9b" "d\xff\xc3\xa9" "\xe2\x82\xac\\";
  size_t need = eng_escape_text (out, sizeof out, in, sizeof in - 1);
  cr_assert_str_eq (out, "a\\x1b[31mb\\x09c\\x7f\\xc2\\x9bd\\xff\xc3\xa9\xe2\x82\xac\\");
  cr_assert_eq (need, strlen (out));
  /* Too small: whole escapes only, the needed length still reported. */
  char small[6];
  cr_assert_eq (eng_escape_text (small, sizeof small, "ab\x1b" "cd", 5), 8);
  cr_assert_str_eq (small, "ab");
  cr_assert_eq (eng_escape_text (NULL, 0, "\x01", 1), 4);
  /* Overlong and surrogate encodings are not text either. */
  cr_assert_eq (eng_escape_text (out, sizeof out, "\xc0\x9b\xed\xa0\x80", 5), 20);
  expect_no_control_bytes (out);
}

Test (core, parse_errors_never_echo_control_bytes)
{
  EngRecord *rec = NULL;
  EngParseError err = { 0 };
  const char text[] = "game katua\nplayer A\nplayer B\nA \x1b]0;pwned\x07 1 2\n";
  cr_assert_neq (eng_record_parse (text, strlen (text), "bad\x1b[2J.rec", &rec, &err), ENG_OK);
  expect_no_control_bytes (err.reason);
  expect_no_control_bytes (err.source);
  cr_assert_str_eq (err.source, "bad\\x1b[2J.rec");
  /* Every parser goes through eng_parse_error_set, which escapes. */
  eng_parse_error_set (&err, "s", 1, "unknown word '%s'", "\x1b[31mred\r\n");
  cr_assert_str_eq (err.reason, "unknown word '\\x1b[31mred\\x0d\\x0a'");
}

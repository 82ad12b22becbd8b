/* Names as people write them: any letter of any script, accents at the
 * start, names that are words of the record.  Each game's script is played
 * by tables of such names; the journal the referee writes must resume after
 * a kill at every snapshot to the same game, and replay by the rules alone
 * (docs/record-format.md, "Player names"). */
#include "live-fixture.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-live-script.h"
#include "eng-name.h"
#include "eng-record.h"
#include "eng-replay.h"

#include <glib.h>

/* Letters of many scripts (right-to-left ones with their vowel marks),
 * accents and marks at the start, apostrophes, and every keyword a record
 * line holds (header words, `show`, `seat`) and verbs of the games. */
static const char *const names[] = {
  "Àngel", "Núria", "李雷", "Zoë", "سارة", "עמית", "Ørjan", "Łukasz", "Ñandú", "Σοφία",
  "Ёлка", "अमित", "สมชาย", "민준", "さくら", "Արամ", "ნინო", "ʻAkau", "Ǆemal", "O'Neil",
  "Ana-María", "Núria.B", "game", "set", "option", "player", "first", "last-winner", "seed",
  "deal", "seat", "show", "end", "attack", "pass", "hit", "discard", "play", "swap", "draw",
  "give", "nope", "hook", "slots", "hand", "pile", "path", "Game", "capture", "escoba",
  "مُحَمَّد", "יִצְחָק", "D'Arcy", "N'Golo", "José2", "ليلى", "Ǉubica", "İlkay", "ß", "Ωmega",
  "Ááááááááááááááá",   /* 30 bytes: about the longest a name may be */
  "Mari Carmen", "José Luis", "Anna Maria", "Àngel Mª", "Jean-Luc O'Neil", "李 雷",
  "سارة نور", "Game Over",   /* spaces: written quoted */
};

/* The script at `path` with its players `from` (as the script names them)
 * renamed `to`.  Where a name stands as a word (the record, `expect move`,
 * `players`, `first`, `seats`...) it is written as a record word (quoted
 * when it reads as a keyword or holds a space); in the texts the table is
 * told (`expect need`, `expect say`) it is written as it is said. */
static char *
renamed (const char *path, const char *const *from, const char *const *to, size_t n)
{
  g_autofree char *text = NULL;
  cr_assert (g_file_get_contents (path, &text, NULL, NULL), "%s", path);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);
  for (char **l = lines; *l != NULL; l++)
    {
      bool said = g_str_has_prefix (*l, "expect need ") || g_str_has_prefix (*l, "expect say ");
      char *line = g_strdup (*l);
      if (line[0] != '#')
        for (size_t i = 0; i < n; i++)
          {
            char word[ENG_NAME_MAX + 2];
            if (said)
              g_strlcpy (word, to[i], sizeof word);
            else
              eng_record_name_word (to[i], word, sizeof word);
            g_autofree char *pattern = g_strdup_printf ("\\b%s\\b", from[i]);
            g_autoptr (GRegex) re = g_regex_new (pattern, 0, 0, NULL);
            char *next = g_regex_replace_literal (re, line, -1, 0, word, 0, NULL);
            g_free (line);
            line = next;
          }
      g_string_append (out, line);
      if (l[1] != NULL)
        g_string_append_c (out, '\n');
      g_free (line);
    }
  return g_string_free (out, FALSE);
}

/* The game of `script` (its name under tests/live/scripts, players `from`)
 * played by a table named `to`: the whole run gives the script's record,
 * renamed; a kill after every snapshot resumes to it; and the record
 * replays by the rules with no illegal move.  Names go in the journal text
 * and are read back from it. */
static void
play_named (const char *script, const char *const *from, const char *const *to, size_t n)
{
  g_autofree char *path = g_build_filename (TESTS_LIVE_DIR, "scripts", script, NULL);
  g_autofree char *rec_name = g_strndup (script, strlen (script) - strlen (".script"));
  g_autofree char *rec_path = g_strdup_printf ("%s/scripts/%s.rec", TESTS_LIVE_DIR, rec_name);
  g_autofree char *text = renamed (path, from, to, n);
  g_autofree char *want_text = renamed (rec_path, from, to, n);
  GString *names_said = g_string_new (NULL);
  for (size_t p = 0; p < n; p++)
    g_string_append_printf (names_said, "%s%s", p ? "," : "", to[p]);
  g_autofree char *who = g_string_free (names_said, FALSE);
  EngLiveScript *sc = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_live_script_parse (text, strlen (text), script, &sc, &err), ENG_OK,
                "%s for %s: %u: %s", script, who, err.line, err.reason);
  const EngCardSet *set = live_fixture_set_of (eng_live_script_game (sc)->name);
  EngRecord *want = NULL;
  cr_assert_eq (eng_record_parse (want_text, strlen (want_text), rec_path, &want, &err), ENG_OK,
                "%s for %s: %u: %s", rec_path, who, err.line, err.reason);
  EngLiveScriptResult whole;
  cr_assert_eq (eng_live_script_run (sc, set, NULL, NULL, NULL, &whole, &err), ENG_OK,
                "%s for %s: %u: %s", script, who, err.line, err.reason);
  cr_assert_eq (whole.failures, 0, "%s for %s: %s", script, who, whole.first_failure);
  for (size_t k = 0; k <= whole.snapshots; k++)
    {
      EngLiveScriptResult killed = whole;
      if (k > 0)
        {
          EngStatus st = eng_live_script_run_killed (sc, set, NULL, k, NULL, NULL, &killed,
                                                     &err);
          cr_assert_eq (st, ENG_OK, "%s for %s, killed after snapshot %zu: %u: %s", script,
                        who, k, err.line, err.reason);
          cr_assert_eq (killed.failures, 0, "%s for %s, killed after snapshot %zu: %s", script,
                        who, k, killed.first_failure);
        }
      cr_assert_not_null (killed.record);
      EngRecord *got = NULL;
      cr_assert_eq (eng_record_parse (killed.record, strlen (killed.record), "journal", &got,
                                      &err), ENG_OK, "%s for %s: the journal reads back: %u: %s",
                    script, who, err.line, err.reason);
      for (unsigned p = 0; p < n; p++)
        cr_assert_str_eq (got->setup.names[p], to[p]);
      cr_assert (eng_record_equal (want, got), "%s for %s, killed after snapshot %zu:\n%s", script,
                 who, k, killed.record);
      EngReplayResult replay;
      EngVerdict why = { "", "" };
      cr_assert_eq (eng_replay (got, set, NULL, false, true, NULL, NULL, &replay, &why), ENG_OK,
                    "%s for %s: %s", script, who, why.reason);
      cr_assert_eq (replay.illegal, 0, "%s for %s replays legally", script, who);
      eng_game_free (replay.game);
      eng_record_free (got);
      if (k > 0)
        free (killed.record);
    }
  free (whole.record);
  eng_record_free (want);
  eng_live_script_free (sc);
}

/* Every name of the list plays every game, with its neighbours. */
static void
every_name_plays (const char *script, const char *const *from, size_t n)
{
  size_t count = sizeof names / sizeof names[0];
  for (size_t i = 0; i < count; i++)
    {
      const char *to[ENG_MAX_PLAYERS];
      for (size_t p = 0; p < n; p++)
        to[p] = names[(i + p) % count];
      EngNameCheck check;
      cr_assert_lt (eng_names_find_fault (to, n, &check), 0, "%s is a name (%s)", to[0],
                    eng_name_check_to_string (check));
      play_named (script, from, to, n);
    }
}

/* A script of each game and the players it names; every game the registry
 * holds must have one (test every_registered_game_has_a_table). */
typedef struct {
  const char *game;
  const char *script;
  const char *from[ENG_MAX_PLAYERS];
  size_t n;
} NamedTable;

static const NamedTable tables[] = {
  { "katua", "katua-2p-restart.script", { "Ana", "Bea" }, 2 },
  { "catchy", "catchy-2p-gap.script", { "Ana", "Bea" }, 2 },
  { "kittens", "kittens-3p-pair-favor.script", { "Ana", "Bea", "Cai" }, 3 },
  { "escoba", "escoba-2p-turns.script", { "Ana", "Bea" }, 2 },
};

static void
every_name_plays_game (const char *game)
{
  for (size_t t = 0; t < G_N_ELEMENTS (tables); t++)
    if (strcmp (tables[t].game, game) == 0)
      {
        every_name_plays (tables[t].script, tables[t].from, tables[t].n);
        return;
      }
  cr_assert_fail ("no table of names plays %s", game);
}

TestSuite (live_names, .init = live_fixture_load_set, .fini = live_fixture_free_set);

Test (live_names, every_registered_game_has_a_table)
{
  cr_assert_geq (eng_game_class_count (), 4);
  for (size_t i = 0; i < eng_game_class_count (); i++)
    {
      const char *game = eng_game_class_get (i)->name;
      bool found = false;
      for (size_t t = 0; t < G_N_ELEMENTS (tables); t++)
        found = found || strcmp (tables[t].game, game) == 0;
      cr_expect (found, "%s: add a script of it to tables[] so that names in any script play it",
                 game);
    }
}

Test (live_names, katua_tables_of_every_script_and_keyword, .timeout = 600)
{
  every_name_plays_game ("katua");
}

Test (live_names, catchy_tables_of_every_script_and_keyword, .timeout = 600)
{
  every_name_plays_game ("catchy");
}

Test (live_names, kittens_tables_of_every_script_and_keyword, .timeout = 600)
{
  every_name_plays_game ("kittens");
}

Test (live_names, escoba_tables_of_every_script_and_keyword, .timeout = 600)
{
  every_name_plays_game ("escoba");
}

/* What a record line cannot hold is refused, saying why: a space other
 * than one between words, an emoji, a double quote, a '#', a digit or mark
 * first. */
Test (live_names, names_no_record_can_hold_are_refused_with_the_reason)
{
  static const struct { const char *name; EngNameCheck why; } bad[] = {
    { "Ana  María", ENG_NAME_SPACE },       { "Zoë\u00a0B", ENG_NAME_SPACE },
    { "Ana ", ENG_NAME_SPACE },             { " Ana", ENG_NAME_SPACE },
    { "🐱", ENG_NAME_FIRST_NOT_LETTER },    { "Leo🦁", ENG_NAME_BAD_CHARACTER },
    { "Ana\"la\"", ENG_NAME_BAD_CHARACTER }, { "\"game\"", ENG_NAME_FIRST_NOT_LETTER },
    { "Ana#2", ENG_NAME_BAD_CHARACTER },    { "2Ana", ENG_NAME_FIRST_NOT_LETTER },
    { "\u0301Ana", ENG_NAME_FIRST_NOT_LETTER }, { "Ana\tBea", ENG_NAME_CONTROL },
    { "", ENG_NAME_EMPTY },                 { "Ááááááááááááááááá", ENG_NAME_TOO_LONG },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      EngNameCheck why = eng_name_check (bad[i].name, strlen (bad[i].name));
      cr_expect_eq (why, bad[i].why, "'%s': %s", bad[i].name, eng_name_check_to_string (why));
      cr_expect_str_neq (eng_name_check_to_string (why), "", "'%s' says why", bad[i].name);
    }
}

/* Bare, a keyword is refused with its line and the way to write it; the
 * old records' names read as they did. */
Test (live_names, a_keyword_named_bare_is_refused_and_quoted_reads)
{
  EngRecord *rec = NULL;
  EngParseError err = { .reason = "" };
  const char *bare = "game katua\nplayer game\nplayer Ana\n";
  cr_assert_eq (eng_record_parse (bare, strlen (bare), "bare", &rec, &err), ENG_ERR_SYNTAX);
  cr_assert_eq (err.line, 2);
  cr_assert_not_null (strstr (err.reason, "\"game\""), "%s", err.reason);
  const char *quoted = "game katua\nplayer \"game\" seat 1\nplayer Àngel seat 2\nfirst \"game\"\n"
                       "\"game\" attack 71 Àngel 1\nÀngel hit show 26\n";
  cr_assert_eq (eng_record_parse (quoted, strlen (quoted), "quoted", &rec, &err), ENG_OK, "%s",
                err.reason);
  cr_assert_str_eq (rec->setup.names[0], "game");
  cr_assert_eq (rec->moves[0].move.target[0], 1);
  char *back = eng_record_write (rec);
  cr_assert_not_null (strstr (back, "\n\"game\" attack 71 Àngel 1\n"), "%s", back);
  cr_assert_not_null (strstr (back, "\nplayer \"game\" seat 1\n"), "%s", back);
  free (back);
  eng_record_free (rec);
}

/* A name with a space is one quoted word of the record wherever it
 * stands, and is written back the same way. */
Test (live_names, a_name_with_a_space_reads_and_writes_quoted)
{
  EngRecord *rec = NULL;
  EngParseError err = { .reason = "" };
  const char *text = "game katua\nplayer \"Mari Carmen\" seat 1\nplayer \"José Luis\"\n"
                     "first \"Mari Carmen\"\n\"Mari Carmen\" attack 71 \"José Luis\" 1\n";
  cr_assert_eq (eng_record_parse (text, strlen (text), "spaced", &rec, &err), ENG_OK, "%u: %s",
                err.line, err.reason);
  cr_assert_str_eq (rec->setup.names[0], "Mari Carmen");
  cr_assert_str_eq (rec->setup.names[1], "José Luis");
  cr_assert_eq (rec->moves[0].move.player, 0);
  cr_assert_eq (rec->moves[0].move.target[0], 1);
  char *back = eng_record_write (rec);
  cr_assert_not_null (strstr (back, "\n\"Mari Carmen\" attack 71 \"José Luis\" 1\n"), "%s", back);
  cr_assert_not_null (strstr (back, "\nplayer \"José Luis\"\n"), "%s", back);
  free (back);
  eng_record_free (rec);
  const char *bare = "game katua\nplayer Mari Carmen\nplayer Bea\n";
  cr_assert_eq (eng_record_parse (bare, strlen (bare), "bare", &rec, &err), ENG_ERR_SYNTAX,
                "a bare name with a space is two words");
  cr_assert_eq (err.line, 2);
}

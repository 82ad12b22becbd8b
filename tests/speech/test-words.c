/* tests/speech: the referee's words, as a family at the table reads and
 * hears them.  Every live script of the three games (tests/live/scripts
 * and the bundled demos, data/games) is run in English, Spanish and
 * Catalan, once with the scripts' players and once with names that swap
 * vowel-initial and consonant-initial ones (Catalan elides "de" before a
 * vowel: "d'Ana", "d'Hug"), and every sentence the table would hear
 * (spk_event_sentence: what the screen and the voice say) is checked:
 *
 *   - no card serial, no command id, no rule id, no record line;
 *   - no sentence longer than one breath (20 words);
 *   - none of the language's traps (tests/speech/traps/LANG.traps and
 *     all.traps: one regular expression a line, then " ## " and why).
 *
 * The rules files' briefs (said when a rule first comes up) and names
 * (the rule panel's heading) are checked the same way; their explanations
 * for the traps only.
 *
 * Each offending sentence is listed once with its reason, then counted: the
 * test fails while any is left.  TABLERO_WORDS_DUMP=FILE also writes every
 * distinct sentence said (a person's proof-reading copy). */
#include <criterion/criterion.h>

#include <glib.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-i18n.h"
#include "eng-live-script.h"
#include "eng-record.h"
#include "eng-replay.h"
#include "eng-rule-docs.h"
#include "spk-sentence.h"
#include "../test-i18n-util.h"

#define MAX_WORDS 20

typedef struct {
  GRegex *re;
  char *why;
} Trap;

typedef struct {
  const char *language;       /* "en", "es", "ca" */
  GPtrArray *traps;           /* of Trap* */
  GHashTable *seen;           /* sentence -> NULL: each checked once */
  GHashTable *offending;      /* sentence -> reason */
  const EngGameClass *game;
  const EngCardSet *set;
  const char *const *names;   /* the players of the run */
  size_t n_names;
  size_t sentences;
  FILE *dump;
  const char *script;
} Words;

static void
trap_free (gpointer p)
{
  Trap *t = p;
  g_regex_unref (t->re);
  g_free (t->why);
  g_free (t);
}

static void
load_traps (GPtrArray *traps, const char *file)
{
  g_autofree char *path = g_build_filename (TESTS_SPEECH_DIR, "traps", file, NULL);
  g_autofree char *text = NULL;
  cr_assert (g_file_get_contents (path, &text, NULL, NULL), "cannot read %s", path);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      if (line[0] == '\0' || line[0] == ';')
        continue;
      const char *sep = strstr (line, " ## ");
      cr_assert_not_null (sep, "%s:%u: a trap is REGEX ## WHY", path, i + 1);
      g_autofree char *pattern = g_strndup (line, (gsize) (sep - line));
      g_autoptr (GError) error = NULL;
      Trap *t = g_new0 (Trap, 1);
      t->re = g_regex_new (pattern, G_REGEX_OPTIMIZE, 0, &error);
      cr_assert_not_null (t->re, "%s:%u: %s", path, i + 1, error ? error->message : "");
      t->why = g_strdup (sep + 4);
      g_ptr_array_add (traps, t);
    }
}

static void
add_trap (GPtrArray *traps, const char *pattern, const char *why)
{
  Trap *t = g_new0 (Trap, 1);
  g_autoptr (GError) error = NULL;
  t->re = g_regex_new (pattern, G_REGEX_OPTIMIZE, 0, &error);
  cr_assert_not_null (t->re, "%s: %s", pattern, error ? error->message : "");
  t->why = g_strdup (why);
  g_ptr_array_add (traps, t);
}

/* The game's own words that must never reach the table: its record verbs
 * right after a player's name ("Bea hit show 26"), and its command ids
 * ("show end-turn"; a hyphenated id anywhere, a plain one after "show" or,
 * in Spanish and Catalan, anywhere as an English word). */
static void
add_game_traps (Words *w)
{
  GString *names = g_string_new (NULL);
  for (size_t i = 0; i < w->n_names; i++)
    {
      g_autofree char *quoted = g_regex_escape_string (w->names[i], -1);
      g_string_append_printf (names, "%s%s", i > 0 ? "|" : "", quoted);
    }
  GString *verbs = g_string_new (NULL);
  for (size_t v = 0; v < w->game->n_verbs; v++)
    if (w->game->verbs[v] != NULL)
      g_string_append_printf (verbs, "%s%s", verbs->len > 0 ? "|" : "", w->game->verbs[v]);
  /* a verb followed by its arguments or nothing: "does Ana play?" is words */
  g_autofree char *record = g_strdup_printf ("(?<![\\w'])(%s) (%s)( [0-9?]| show\\b| (%s)\\b|$)",
                                             names->str, verbs->str, names->str);
  add_trap (w->traps, record, "a record line");
  for (size_t c = 0; c < eng_card_set_n_commands (w->set); c++)
    {
      const char *id = eng_card_set_command (w->set, c)->id;
      g_autofree char *quoted = g_regex_escape_string (id, -1);
      g_autofree char *pattern = NULL;
      if (strchr (id, '-') != NULL || strcmp (w->language, "en") != 0)
        pattern = g_strdup_printf ("(?<![\\w·-])%s(?![\\w·-])", quoted);
      else
        pattern = g_strdup_printf ("(?i)\\bshow %s\\b", quoted);
      add_trap (w->traps, pattern, "a command id");
    }
  g_string_free (names, TRUE);
  g_string_free (verbs, TRUE);
}

/* The longest sentence of `text`, in words: sentences end at . ! ? ; */
static unsigned
longest_sentence (const char *text)
{
  unsigned longest = 0, words = 0;
  gboolean in_word = FALSE;
  for (const char *p = text;; p++)
    {
      char ch = *p;
      gboolean space = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\0';
      if (!space && !in_word)
        words++;
      in_word = !space;
      gboolean end = ch == '\0'
                     || (strchr (".!?;", ch) != NULL && (p[1] == ' ' || p[1] == '\0'));
      if (end)
        {
          longest = MAX (longest, words);
          words = 0;
        }
      if (ch == '\0')
        break;
    }
  return longest;
}

static void
check_sentence (Words *w, const char *sentence)
{
  w->sentences++;
  if (g_hash_table_contains (w->seen, sentence))
    return;
  g_hash_table_add (w->seen, g_strdup (sentence));
  if (w->dump != NULL)
    fprintf (w->dump, "%s\t%s\t%s\n", w->language, w->script, sentence);
  GString *why = g_string_new (NULL);
  unsigned n = longest_sentence (sentence);
  if (n > MAX_WORDS)
    g_string_append_printf (why, "%s%u words in one sentence", why->len ? "; " : "", n);
  for (guint i = 0; i < w->traps->len; i++)
    {
      const Trap *t = g_ptr_array_index (w->traps, i);
      if (g_regex_match (t->re, sentence, 0, NULL))
        g_string_append_printf (why, "%s%s (/%s/)", why->len ? "; " : "", t->why,
                                g_regex_get_pattern (t->re));
    }
  if (why->len > 0)
    g_hash_table_insert (w->offending, g_strdup (sentence), g_string_free (why, FALSE));
  else
    g_string_free (why, TRUE);
}

static void
on_event (void *user, unsigned line, const EngEvent *event)
{
  (void) line;
  Words *w = user;
  /* the script runner's own notes ("correct: invalid argument") are not
   * the referee's */
  if (strcmp (event->rule, "script") == 0)
    return;
  const char *sentence = spk_event_sentence (event);
  if (sentence != NULL)
    check_sentence (w, sentence);
}

/* The script with each player's name replaced, word for word, by its
 * counterpart in `rename` (pairs old, new; NULL-terminated). */
static char *
renamed (const char *text, const char *const *rename)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *start = lines[i] + strspn (lines[i], " \t");
      /* expect lines quote the English texts: not checked here */
      if (g_str_has_prefix (start, "expect"))
        {
          g_string_append_c (out, '\n');
          continue;
        }
      g_auto (GStrv) words = g_strsplit (lines[i], " ", -1);
      for (guint k = 0; words[k] != NULL; k++)
        {
          const char *word = words[k];
          for (guint r = 0; rename != NULL && rename[r] != NULL; r += 2)
            if (strcmp (word, rename[r]) == 0)
              {
                word = rename[r + 1];
                break;
              }
          g_string_append_printf (out, "%s%s", k > 0 ? " " : "", word);
        }
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

static const EngCardSet *
set_of (GHashTable *sets, const char *game)
{
  EngCardSet *set = g_hash_table_lookup (sets, game);
  if (set == NULL)
    {
      g_autofree char *path = g_strdup_printf ("%s/cards/%s.set", getenv ("TABLERO_DATADIR"), game);
      EngParseError err = { .reason = "" };
      cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s: %s", path, err.reason);
      g_hash_table_insert (sets, g_strdup (game), set);
    }
  return set;
}

static void
run_script (Words *w, GHashTable *sets, const char *path, const char *const *rename)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  cr_assert (g_file_get_contents (path, &text, &len, NULL), "cannot read %s", path);
  g_autofree char *script_text = renamed (text, rename);
  EngLiveScript *sc = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_live_script_parse (script_text, strlen (script_text), path, &sc, &err), ENG_OK,
                "%s:%u: %s", path, err.line, err.reason);
  w->game = eng_live_script_game (sc);
  w->set = set_of (sets, w->game->name);
  w->script = path;
  /* the players, read back from the script's own players line */
  const char *names[ENG_MAX_PLAYERS] = { 0 };
  g_auto (GStrv) lines = g_strsplit (script_text, "\n", -1);
  g_auto (GStrv) words = NULL;
  for (guint i = 0; lines[i] != NULL && words == NULL; i++)
    if (g_str_has_prefix (lines[i], "players "))
      words = g_strsplit (lines[i] + strlen ("players "), " ", -1);
  cr_assert_not_null (words, "%s: a players line", path);
  w->n_names = 0;
  for (guint i = 0; words[i] != NULL && w->n_names < ENG_MAX_PLAYERS; i++)
    if (words[i][0] != '\0' && words[i][0] != '#')
      names[w->n_names++] = words[i];
  w->names = names;
  guint n_traps = w->traps->len;
  add_game_traps (w);

  EngLiveScriptResult result;
  cr_assert_eq (eng_live_script_run (sc, w->set, NULL, on_event, w, &result, &err), ENG_OK,
                "%s:%u: %s", path, err.line, err.reason);
  free (result.record);
  eng_live_script_free (sc);
  g_ptr_array_remove_range (w->traps, n_traps, w->traps->len - n_traps);
  w->names = NULL;
}

static void
on_replayed (void *user, unsigned line, const EngEvent *event)
{
  on_event (user, line, event);
}

/* A game record (tests/engine/records, data/games), replayed by the rules
 * alone with every illegal line reported: what `tablero-cli replay` and a
 * resumed game say. */
static void
run_record (Words *w, GHashTable *sets, const char *path, const char *const *rename)
{
  g_autofree char *text = NULL;
  cr_assert (g_file_get_contents (path, &text, NULL, NULL), "cannot read %s", path);
  g_autofree char *record_text = renamed (text, rename);
  EngRecord *rec = NULL;
  EngParseError err = { .reason = "" };
  if (eng_record_parse (record_text, strlen (record_text), path, &rec, &err) != ENG_OK)
    return;   /* a malformed record on purpose: it says nothing to a table */
  w->game = rec->klass;
  w->set = set_of (sets, rec->klass->name);
  w->script = path;
  const char *names[ENG_MAX_PLAYERS] = { 0 };
  w->n_names = 0;
  for (unsigned p = 0; p < rec->setup.n_players && p < ENG_MAX_PLAYERS; p++)
    names[w->n_names++] = rec->setup.names[p];
  w->names = names;
  guint n_traps = w->traps->len;
  add_game_traps (w);
  EngReplayResult result;
  EngVerdict why = { "", "" };
  eng_replay (rec, w->set, NULL, true, false, on_replayed, w, &result, &why);
  g_ptr_array_remove_range (w->traps, n_traps, w->traps->len - n_traps);
  w->names = NULL;
  eng_record_free (rec);
}

/* Names that start the other way round from the scripts' own (Ana, Bea,
 * Cai, Cid, Dan, Dani, Eva): Catalan's elision and Spanish's articles
 * depend on the first letter.  "Hug" starts with a silent h. */
static const char *const swapped_names[] = {
  "Ana", "Pau", "Bea", "Olga", "Cai", "Hug", "Cid", "Èlia", "Dan", "Úrsula", "Dani", "Iu",
  "Eva", "Quim", NULL,
};

/* The rules files' words the table hears or reads as it plays: each
 * rule's brief (said the first time it comes up, learning on) and its
 * name (the rule panel's heading); explanations are read in the panel
 * and F1, so only the traps apply to them, not the breath. */
static void
check_rules_words (Words *w)
{
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      EngRuleDocs *docs = eng_rule_docs_load_game (eng_game_class_get (g)->name);
      cr_assert_gt (eng_rule_docs_count (docs), 0, "%s explains its rules",
                    eng_game_class_get (g)->name);
      for (size_t i = 0; i < eng_rule_docs_count (docs); i++)
        {
          const EngRuleDoc *doc = eng_rule_docs_get (docs, i);
          cr_expect_neq (doc->brief[0], '\0', "%s has no brief", doc->id);
          check_sentence (w, doc->brief);
          check_sentence (w, doc->title);
          /* the explanation: traps only (it may be longer than a breath) */
          for (guint t = 0; t < w->traps->len; t++)
            {
              const Trap *trap = g_ptr_array_index (w->traps, t);
              if (g_regex_match (trap->re, doc->text, 0, NULL))
                g_hash_table_insert (w->offending, g_strdup (doc->text),
                                     g_strdup_printf ("%s (/%s/)", trap->why, g_regex_get_pattern (trap->re)));
            }
        }
      eng_rule_docs_free (docs);
    }
}

typedef void (*RunFile) (Words *w, GHashTable *sets, const char *path, const char *const *rename);

/* Runs `run` on every file of `dir` named *`suffix`, with the files' own
 * players and with the swapped names; returns how many files. */
static size_t
run_each (Words *w, GHashTable *sets, const char *dir, const char *suffix, RunFile run)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  cr_assert_not_null (d, "%s", dir);
  size_t n = 0;
  for (const char *name; (name = g_dir_read_name (d)) != NULL;)
    if (g_str_has_suffix (name, suffix))
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);
        run (w, sets, path, NULL);
        run (w, sets, path, swapped_names);
        n++;
      }
  g_dir_close (d);
  return n;
}

/* Runs every script in `language` (NULL: English) with both name sets;
 * returns the offending sentences (sentence -> reason). */
static GHashTable *
offending_sentences (const char *language, size_t *n_sentences)
{
  speak (language);
  Words w = { .language = language != NULL ? language : "en" };
  w.traps = g_ptr_array_new_with_free_func (trap_free);
  load_traps (w.traps, "all.traps");
  g_autofree char *file = g_strdup_printf ("%s.traps", w.language);
  load_traps (w.traps, file);
  w.seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w.offending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *dump = getenv ("TABLERO_WORDS_DUMP");
  if (dump != NULL && *dump != '\0')
    w.dump = fopen (dump, "a");
  GHashTable *sets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                            (GDestroyNotify) eng_card_set_free);
  g_autofree char *games = g_build_filename (getenv ("TABLERO_DATADIR"), "games", NULL);
  size_t scripts = run_each (&w, sets, TESTS_LIVE_SCRIPTS, ".script", run_script)
                   + run_each (&w, sets, games, ".script", run_script);
  cr_assert_gt (scripts, 40, "the scripts of the three games are found (%zu)", scripts);
  size_t records = run_each (&w, sets, TESTS_ENGINE_RECORDS, ".rec", run_record)
                   + run_each (&w, sets, games, ".rec", run_record);
  cr_assert_gt (records, 10, "the records are found (%zu)", records);
  cr_assert_gt (w.sentences, 2000, "the scripts say enough to check (%zu)", w.sentences);
  check_rules_words (&w);
  *n_sentences = g_hash_table_size (w.seen);
  if (w.dump != NULL)
    fclose (w.dump);
  g_hash_table_unref (sets);
  g_hash_table_unref (w.seen);
  g_ptr_array_unref (w.traps);
  return w.offending;
}

static void
check_language (const char *language)
{
  size_t n = 0;
  GHashTable *bad = offending_sentences (language, &n);
  GHashTableIter it;
  gpointer sentence, why;
  g_hash_table_iter_init (&it, bad);
  while (g_hash_table_iter_next (&it, &sentence, &why))
    cr_log_warn ("[%s] \"%s\": %s", language ? language : "en", (char *) sentence, (char *) why);
  guint n_bad = g_hash_table_size (bad);
  cr_log_info ("[%s] %u of %zu distinct sentences offend", language ? language : "en", n_bad, n);
  g_hash_table_unref (bad);
  cr_expect_eq (n_bad, 0, "%u of %zu sentences the table hears in %s are not plain words", n_bad,
                n, language ? language : "en");
}

TestSuite (words);

Test (words, english_sentences_are_plain, .timeout = 600)
{
  check_language (NULL);
}

Test (words, spanish_sentences_are_plain, .timeout = 600)
{
  check_language ("es");
}

Test (words, catalan_sentences_are_plain, .timeout = 600)
{
  check_language ("ca");
}

/* The checks can fail: each kind of slip is caught. */
Test (words, the_checks_catch_each_slip)
{
  Words w = { .language = "ca" };
  w.traps = g_ptr_array_new_with_free_func (trap_free);
  load_traps (w.traps, "all.traps");
  load_traps (w.traps, "ca.traps");
  w.seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w.offending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTable *sets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                            (GDestroyNotify) eng_card_set_free);
  w.game = eng_game_class_find ("katua");
  w.set = set_of (sets, "katua");
  static const char *const names[] = { "Ana", "Bea" };
  w.names = names;
  w.n_names = 2;
  add_game_traps (&w);
  static const char *const slips[] = {
    "Bea juga el Remenar #28",                  /* a serial */
    "Ana: mostra end-turn",                     /* a command id */
    "Ana captura el gat (K11)",                 /* a rule id */
    "Bea hit show 26",                          /* a record line */
    "És el torn de Ana",                        /* no elision */
    "Ana se surt amb la seva",                  /* "es surt" */
    "Porta el gat a la teva zona de joc",       /* a capture area */
    "Ana ha de jugar un ovni, o mostrar una carta d'ordre, o passar el torn sense jugar res, "
    "o descartar les cartes que vulgui",        /* longer than one breath */
  };
  for (size_t i = 0; i < G_N_ELEMENTS (slips); i++)
    {
      check_sentence (&w, slips[i]);
      if (!g_hash_table_contains (w.offending, slips[i]))
        cr_log_error ("not caught: \"%s\"", slips[i]);
      cr_expect (g_hash_table_contains (w.offending, slips[i]));
    }
  static const char *const fine[] = {
    "És el torn d'Ana", "Bea: porta el gat a la teva zona de captura",
    "Ana captura el gat vermell 3 de Bea",
  };
  for (size_t i = 0; i < G_N_ELEMENTS (fine); i++)
    {
      check_sentence (&w, fine[i]);
      cr_expect (!g_hash_table_contains (w.offending, fine[i]), "caught: \"%s\": %s", fine[i],
                 (char *) g_hash_table_lookup (w.offending, fine[i]));
    }
  g_hash_table_unref (sets);
  g_hash_table_unref (w.seen);
  g_hash_table_unref (w.offending);
  g_ptr_array_unref (w.traps);
}

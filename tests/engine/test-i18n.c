/* The referee in the table's language: Katua's events and refusals come out
 * in Spanish or Catalan from the compiled catalogues (TABLERO_LOCALEDIR,
 * set by meson to the build's po/), in English in the C locale; and the
 * localized rule explanations (data/rules/GAME.LANG.rules) of every
 * registered game explain every rule id the English file does, which are all
 * the ids its engine can name.
 *
 * Criterion runs each test in its own process, so each one picks its
 * locale and LANGUAGE freely. */
#include "kat-test.h"
#include "catchy-test.h"

#include <locale.h>

#include <glib.h>

#include "eng-data.h"
#include "eng-i18n.h"
#include "../test-i18n-util.h"

#define TWO "game katua\nplayer Ana\nplayer Bea\nfirst Ana\n"
/* Ana: red-1, blue-2, tricolor-1 / Bea: red-2, blue-3, fake-1 */
#define SLOTS2 "deal Ana slots 1 10 19\ndeal Bea slots 4 12 29\n"
/* Ana holds a red and a tricolor UFO and a Shield. */
#define HANDS "deal Ana hand 35 72 83\ndeal Bea hand 60 61 62\n"

static const char *
text_of (const GameTest *t, EngEventKind kind, const char *rule)
{
  const EngEvent *e = gt_event (t, kind, rule);
  cr_assert_not_null (e, "no %s event (rule %s)", eng_event_kind_to_string (kind), rule);
  return e->text;
}

/* One short game: an attack, its capture and score, a refusal.  The
 * capture names the card as the game does, in the table's language (the
 * card set's label is the sticker's English caption). */
static void
play_short_game (const char *language, const char *aims, const char *capture,
                 const char *score, const char *refusal)
{
  speak (language);
  GameTest t;
  gt_new (&t, TWO SLOTS2 HANDS);
  gt_ok (&t, "Ana attack 72 Bea 3");   /* tricolor beam at the fake-1 */
  cr_assert_str_eq (text_of (&t, ENG_EVENT_NOTE, "K4"), aims);
  gt_ok (&t, "Bea hit");
  cr_assert_str_eq (text_of (&t, ENG_EVENT_TAKEN, "K11"), capture);
  cr_assert_str_eq (text_of (&t, ENG_EVENT_SCORE, "K11"), score);
  gt_refused (&t, "Ana attack 35 Bea 1", ENG_ERR_ILLEGAL, "K3");
  cr_assert_str_eq (t.why.reason, refusal);
  gt_free (&t);
}

Test (i18n, english_in_the_c_locale_even_with_language_set)
{
  /* LANGUAGE alone must not translate: the C locale is English. */
  setenv ("LANGUAGE", "es", 1);
  cr_assert_not_null (setlocale (LC_ALL, "C"));
  cr_assert (eng_i18n_init (NULL));
  GameTest t;
  gt_new (&t, TWO SLOTS2 HANDS);
  gt_ok (&t, "Ana attack 72 Bea 3");
  cr_assert_str_eq (text_of (&t, ENG_EVENT_NOTE, "K4"),
                    "Ana aims a tricolor beam at Bea's cat in slot 3");
  gt_free (&t);
  play_short_game (NULL, "Ana aims a tricolor beam at Bea's cat in slot 3",
                   "Ana captures Bea's cat from slot 3: fake cat",
                   "Ana now has -1 points", "only one abduction card per turn");
}

Test (i18n, spanish_table)
{
  play_short_game ("es", "Ana apunta una luz abductora tricolor al gato del hueco 3 de Bea",
                   "Ana captura el gato del hueco 3 de Bea: gato falso",
                   "Ana tiene ahora -1 Puntos Katua", "solo una carta de captura por turno");
}

Test (i18n, catalan_table)
{
  play_short_game ("ca", "Ana apunta una llum abductora tricolor al gat del forat 3 de Bea",
                   "Ana abdueix el gat del forat 3 de Bea: gat fals",
                   "Ana ara té -1 punts Katua", "només una carta d'abducció per torn");
}

/* Catchy!: a trick's result, the cat's move and a refusal, in `lang`. */
static void
play_catchy_trick (const char *lang, const char *won, const char *moved, const char *refusal,
                   const char *card)
{
  speak (lang);
  GameTest t;
  gt_new (&t, "game catchy\nplayer Ana\nplayer Bea\ndeal path 11 12 13\n"
              "deal Ana hand 17 1 2 3 4 5 6\ndeal Bea hand 7 8 9 10 14 15 16\n");
  gt_ok (&t, "Ana swap Ana 1");
  gt_ok (&t, "Ana play 6");
  gt_refused (&t, "Bea play 14", ENG_ERR_ILLEGAL, "C3");
  cr_assert_str_eq (t.why.reason, refusal);
  gt_ok (&t, "Bea play 7");
  const EngEvent *e = gt_event (&t, ENG_EVENT_NOTE, "C4");
  cr_assert_not_null (e);
  cr_assert_str_eq (e->text, won);
  e = gt_event (&t, ENG_EVENT_NOTE, "C5");
  cr_assert_not_null (e);
  cr_assert_str_eq (e->text, moved);
  char name[48];
  eng_game_card_name (t.game, 16, true, name, sizeof name);
  cr_assert_str_eq (name, card);
  gt_free (&t);
}

Test (i18n, catchy_english)
{
  play_catchy_trick (NULL, "Trick 1: Bea wins (orange 2 against orange 1)",
                     "The red cat moves one space toward Bea, who won the trick",
                     "Bea must follow the led colour", "the wild 3");
}

Test (i18n, catchy_spanish)
{
  play_catchy_trick ("es", "Baza 1: gana Bea (naranja 2 contra naranja 1)",
                     "El gato rojo avanza un espacio hacia Bea, que ha ganado la baza",
                     "Bea debe seguir el color de salida", "el comodín 3");
}

Test (i18n, catchy_catalan)
{
  play_catchy_trick ("ca", "Basa 1: guanya Bea (taronja 2 contra taronja 1)",
                     "El gat vermell avança un espai cap a Bea, que ha guanyat la basa",
                     "Bea ha de seguir el color de sortida", "el comodí 3");
}

Test (i18n, spanish_first_in_a_language_list_and_region_falls_back)
{
  /* "es_AR" has no catalogue of its own: gettext falls back to "es". */
  speak ("fr:es_AR:ca");
  GameTest t;
  gt_new (&t, TWO SLOTS2 HANDS);
  gt_ok (&t, "Ana attack 72 Bea 3");
  cr_assert_str_eq (text_of (&t, ENG_EVENT_NOTE, "K4"),
                    "Ana apunta una luz abductora tricolor al gato del hueco 3 de Bea");
  gt_free (&t);
}

/* ---- a whole recorded game: every event but the echo is translated ---- */

typedef struct {
  char texts[4096][sizeof ((EngEvent *) 0)->text];
  EngEventKind kinds[4096];
  size_t n;
} Texts;

static void
collect (void *user, unsigned line, const EngEvent *event)
{
  Texts *t = user;
  cr_assert_lt (t->n, 4096, "too many events");
  t->kinds[t->n] = event->kind;
  snprintf (t->texts[t->n], sizeof t->texts[0], "%s", event->text);
  t->n++;
}

static void
replay (const char *file, Texts *out)
{
  const char *dir = getenv ("TABLERO_ENGINE_RECORDS");
  cr_assert_not_null (dir, "TABLERO_ENGINE_RECORDS must be set");
  char path[1024];
  snprintf (path, sizeof path, "%s/%s", dir, file);
  EngRecord *rec = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_record_load_file (path, &rec, &err), ENG_OK, "%s: %s", file, err.reason);
  EngCardSet *set = gt_load_set ("katua");
  EngOptions base;
  gt_load_options ("katua", &base);
  EngReplayResult res;
  EngVerdict why;
  out->n = 0;
  cr_assert_eq (eng_replay (rec, set, &base, true, false, collect, out, &res, &why), ENG_OK,
                "%s: %s", file, why.reason);
  eng_card_set_free (set);
  eng_record_free (rec);
}

static void
whole_game_translated (const char *language, const char *file)
{
  static Texts english, translated;
  speak (NULL);
  replay (file, &english);
  speak (language);
  replay (file, &translated);
  cr_assert_eq (english.n, translated.n, "%s: the language changed the game", file);
  cr_assert_gt (english.n, 20, "%s: too short a game to tell", file);
  size_t compared = 0;
  for (size_t i = 0; i < english.n; i++)
    {
      cr_assert_eq (english.kinds[i], translated.kinds[i]);
      if (english.kinds[i] == ENG_EVENT_ACCEPTED)
        continue;   /* "Ana attack": the record's own words */
      cr_assert_str_neq (english.texts[i], translated.texts[i],
                         "%s event %zu left in English (%s): %s", file, i,
                         eng_event_kind_to_string (english.kinds[i]), english.texts[i]);
      compared++;
    }
  cr_assert_gt (compared, 10);
}

Test (i18n, whole_games_in_spanish)
{
  whole_game_translated ("es", "katua-2p-seeded.rec");
  whole_game_translated ("es", "katua-3p-seeded.rec");
  whole_game_translated ("es", "katua-4p-seeded.rec");
  whole_game_translated ("es", "katua-3p-illegal.rec");
}

Test (i18n, whole_games_in_catalan)
{
  whole_game_translated ("ca", "katua-2p-seeded.rec");
  whole_game_translated ("ca", "katua-3p-seeded.rec");
  whole_game_translated ("ca", "katua-4p-seeded.rec");
  whole_game_translated ("ca", "katua-3p-illegal.rec");
}

/* ---- localized rule explanations --------------------------------------- */

/* Parses an "ID: title | text | brief" file as the app does; returns how many ids it has
 * and writes them (in order) into ids.  Fails the test on a line that is
 * neither a comment, blank, nor "ID: text" with both parts non-empty, or on
 * an id given twice. */
static size_t
load_rule_ids (const char *path, char ids[][8], size_t max)
{
  char *text = NULL;
  size_t len = 0;
  EngParseError err = { 0 };
  cr_assert_eq (eng_read_text_file (path, 1 << 20, &text, &len, &err), ENG_OK, "%s: %s", path,
                err.reason);
  size_t n = 0;
  unsigned line_no = 0;
  for (char *line = strtok (text, "\n"); line != NULL; line = strtok (NULL, "\n"))
    {
      line_no++;
      if (line[0] == '#' || line[0] == '\0' || line[0] == '[')
        continue;   /* comments and group headings */
      char *colon = strchr (line, ':');
      cr_assert_not_null (colon, "%s: line %u is not 'ID: text'", path, line_no);
      size_t id_len = (size_t) (colon - line);
      cr_assert (id_len > 0 && id_len < 8, "%s: line %u: bad id", path, line_no);
      cr_assert_gt (strlen (colon + 1), 10, "%s: line %u: no explanation", path, line_no);
      cr_assert_lt (n, max);
      memcpy (ids[n], line, id_len);
      ids[n][id_len] = '\0';
      for (size_t k = 0; k < n; k++)
        cr_assert_str_neq (ids[k], ids[n], "%s: %s given twice", path, ids[n]);
      n++;
    }
  free (text);
  return n;
}

static void
same_ids_as_english (const char *file, size_t at_least, const char *language)
{
  char english[64][8], localized[64][8];
  char *en_path = eng_data_localized_path_for (file, NULL);
  char *path = eng_data_localized_path_for (file, language);
  cr_assert_str_neq (en_path, path, "no %s variant of %s", language, file);
  size_t n_en = load_rule_ids (en_path, english, 64);
  size_t n = load_rule_ids (path, localized, 64);
  cr_assert_geq (n_en, at_least, "%s explains every ruling", file);
  cr_assert_eq (n, n_en, "%s has %zu explanations, the English file %zu", path, n, n_en);
  for (size_t i = 0; i < n_en; i++)
    {
      bool found = false;
      for (size_t k = 0; k < n && !found; k++)
        found = strcmp (english[i], localized[k]) == 0;
      cr_assert (found, "%s does not explain %s", path, english[i]);
    }
  free (en_path);
  free (path);
}

/* Every registered game explains its rulings in every language of the
 * table; a translation has exactly the English file's ids. */
Test (i18n, localized_rules_explain_every_rule)
{
  static const char *const languages[] = { "es", "ca" };
  cr_assert_geq (eng_game_class_count (), 3);
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      char file[64];
      snprintf (file, sizeof file, "rules/%s.rules", eng_game_class_get (g)->name);
      for (size_t l = 0; l < G_N_ELEMENTS (languages); l++)
        same_ids_as_english (file, 1, languages[l]);   /* every emitted id: below */
    }
}

/* Adds to `ids` every string literal of `path` that looks like one of the
 * game's rule ids: "`letter` digits" ("E12"). */
static void
scan_rule_ids (const char *path, char letter, GHashTable *ids)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  cr_assert (g_file_get_contents (path, &text, NULL, &error), "%s", error->message);
  for (const char *p = strchr (text, '"'); p != NULL; p = strchr (p + 1, '"'))
    {
      if (p[1] != letter)
        continue;
      size_t digits = strspn (p + 2, "0123456789");
      if (digits > 0 && digits < 4 && p[2 + digits] == '"')
        g_hash_table_add (ids, g_strndup (p + 1, digits + 1));
    }
}

/* Every rule id a game's engine can put in an event or a refusal (the
 * string literals of engine/GAME/, rules and live class alike) has an
 * explanation in the English file, hence in every translation. */
Test (i18n, every_emitted_rule_id_is_explained)
{
  const char *src = getenv ("TABLERO_ENGINE_SOURCE");
  cr_assert (src != NULL && *src != '\0', "TABLERO_ENGINE_SOURCE must be set (meson test sets it)");
  for (size_t g = 0; g < eng_game_class_count (); g++)
    {
      const char *game = eng_game_class_get (g)->name;
      char file[64];
      snprintf (file, sizeof file, "rules/%s.rules", game);
      char *path = eng_data_localized_path_for (file, NULL);
      char explained[64][8];
      size_t n = load_rule_ids (path, explained, 64);
      free (path);
      cr_assert_gt (n, 0, "%s explains nothing", file);
      g_autoptr (GHashTable) emitted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autofree char *dir_path = g_build_filename (src, game, NULL);
      g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
      cr_assert_not_null (dir, "no engine directory %s", dir_path);
      for (const char *f; (f = g_dir_read_name (dir)) != NULL;)
        if (g_str_has_suffix (f, ".c") || g_str_has_suffix (f, ".h"))
          {
            g_autofree char *c = g_build_filename (dir_path, f, NULL);
            scan_rule_ids (c, explained[0][0], emitted);
          }
      cr_assert_gt (g_hash_table_size (emitted), 0, "%s: no rule ids found in %s", game, dir_path);
      GHashTableIter it;
      gpointer id;
      g_hash_table_iter_init (&it, emitted);
      while (g_hash_table_iter_next (&it, &id, NULL))
        {
          bool found = false;
          for (size_t k = 0; k < n && !found; k++)
            found = strcmp (explained[k], id) == 0;
          cr_assert (found, "%s: the engine names rule %s, %s does not explain it", game,
                     (char *) id, file);
        }
    }
}

static bool
ends_with (const char *s, const char *suffix)
{
  size_t n = strlen (s), k = strlen (suffix);
  return n >= k && strcmp (s + n - k, suffix) == 0;
}

Test (i18n, localized_path_follows_the_messages_language)
{
  char *p = eng_data_localized_path_for ("rules/katua.rules", "es_ES.UTF-8@euro");
  cr_assert (ends_with (p, "/rules/katua.es.rules"), "%s", p);
  free (p);
  p = eng_data_localized_path_for ("rules/katua.rules", "fr:ca_ES");
  cr_assert (ends_with (p, "/rules/katua.ca.rules"), "%s", p);
  free (p);
  /* English first wins over a later translation; unknown languages fall back */
  p = eng_data_localized_path_for ("rules/katua.rules", "en_GB:es");
  cr_assert (ends_with (p, "/rules/katua.rules"), "%s", p);
  free (p);
  p = eng_data_localized_path_for ("rules/katua.rules", "fr:de");
  cr_assert (ends_with (p, "/rules/katua.rules"), "%s", p);
  free (p);
  /* a file with no translation at all */
  p = eng_data_localized_path_for ("cards/katua.set", "es");
  cr_assert (ends_with (p, "/cards/katua.set"), "%s", p);
  free (p);

  speak ("ca");
  p = eng_data_localized_path ("rules/katua.rules");
  cr_assert (ends_with (p, "/rules/katua.ca.rules"), "%s", p);
  free (p);
  speak (NULL);
  setenv ("LANGUAGE", "ca", 1);   /* ignored in the C locale, as gettext does */
  p = eng_data_localized_path ("rules/katua.rules");
  cr_assert (ends_with (p, "/rules/katua.rules"), "%s", p);
  free (p);
}

/* Catalan elides "de" before a vowel, names known only at run time
 * included ("d'Ana", "d'Hug", "d'Úrsula"), but not before a gliding i or u
 * ("de Iolanda"); Spanish and English elide nothing.  The rule is the
 * catalogue's (context "grammar"), so the code names no language. */
Test (i18n, names_are_elided_as_the_language_writes_them)
{
  static const struct { const char *in, *ca; } cases[] = {
    { "la zona de captura de Ana", "la zona de captura d'Ana" },
    { "el Ganxo de Hug i el de Úrsula", "el Ganxo d'Hug i el d'Úrsula" },
    { "De Èlia? De Bea?", "D'Èlia? De Bea?" },
    { "torn de Iu", "torn d'Iu" },
    { "torn de Iolanda", "torn de Iolanda" },
    { "podem de 3 en 3; pode Ana", "podem de 3 en 3; pode Ana" },
    { "«de Oriol»", "«d'Oriol»" },
  };
  char buf[128];
  speak ("ca");
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_strlcpy (buf, cases[i].in, sizeof buf);
      eng_i18n_elide (buf);
      cr_expect_str_eq (buf, cases[i].ca);
    }
}

/* (another process: gettext keeps what it found for the locale) */
Test (i18n, spanish_elides_no_name)
{
  char buf[64] = "la zona de captura de Ana";
  speak ("es");
  eng_i18n_elide (buf);
  cr_expect_str_eq (buf, "la zona de captura de Ana");
  speak (NULL);
  eng_i18n_elide (buf);
  cr_expect_str_eq (buf, "la zona de captura de Ana", "English elides nothing");
}

/* tests/live: the live referee in the table's language.  The snapshot
 * scripts of tests/live/scripts are run through the interpreter in the C
 * locale (English, every `expect` line holding), then with LANGUAGE=es and
 * LANGUAGE=ca in a UTF-8 locale, without their `expect` lines (they quote
 * the English texts).  The referee must decide the same in every language
 * (same events, rules and moves) and say it in the table's language: the
 * questions and instructions a table reads are checked word for word for
 * the 3-player Hook script, and every NEED, NOTE, ILLEGAL and CONSERVATION
 * text of every script must differ from the English one.
 *
 * The catalogues are the build's (TABLERO_LOCALEDIR, set by meson).
 * Criterion runs each test in its own process, so each one sets its own
 * locale and LANGUAGE. */
#include "live-fixture.h"
#include <criterion/criterion.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "eng-cardset.h"
#include "eng-i18n.h"
#include "eng-live-script.h"

#define MAX_SAID 1024

typedef struct {
  EngEvent items[MAX_SAID];
  size_t n;
  bool overflow;
} Said;

typedef struct {
  Said said;
  EngLiveScriptResult result;
} Run;


/* Selects the messages' language as a user would: a UTF-8 locale and
 * LANGUAGE (gettext ignores LANGUAGE when LC_MESSAGES is "C").  NULL: the
 * C locale. */
static void
speak (const char *language)
{
  const char *dir = getenv ("TABLERO_LOCALEDIR");
  cr_assert (dir != NULL && *dir != '\0', "TABLERO_LOCALEDIR must be set (meson test sets it)");
  if (language == NULL)
    cr_assert_not_null (setlocale (LC_ALL, "C"));
  else
    {
      setenv ("LANGUAGE", language, 1);
      cr_assert_not_null (setlocale (LC_ALL, "C.UTF-8"), "the C.UTF-8 locale is needed");
    }
  cr_assert (eng_i18n_init (NULL), "binding the text domain failed");
}

static void
sink (void *user, unsigned line, const EngEvent *e)
{
  (void) line;
  Said *said = user;
  if (said->n < MAX_SAID)
    said->items[said->n++] = *e;
  else
    said->overflow = true;
}

/* Runs tests/live/scripts/NAME into *run; `with_expects` false drops the
 * script's `expect` lines (they quote English texts). */
static void
run_script (const char *name, bool with_expects, Run *run)
{
  char path[1024];
  snprintf (path, sizeof path, "%s/scripts/%s", TESTS_LIVE_DIR, name);
  gchar *text = NULL;
  gsize len = 0;
  cr_assert (g_file_get_contents (path, &text, &len, NULL), "cannot read %s", path);
  GString *kept = g_string_sized_new (len);
  gchar **lines = g_strsplit (text, "\n", -1);
  for (gchar **l = lines; *l != NULL; l++)
    {
      /* a dropped line stays as an empty one: the line numbers hold */
      const char *word = *l + strspn (*l, " \t");
      if (with_expects || !g_str_has_prefix (word, "expect"))
        g_string_append (kept, *l);
      g_string_append_c (kept, '\n');
    }
  g_strfreev (lines);
  g_free (text);

  EngLiveScript *sc = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_live_script_parse (kept->str, kept->len, name, &sc, &err), ENG_OK,
                "%s:%u: %s", name, err.line, err.reason);
  g_string_free (kept, TRUE);
  memset (run, 0, sizeof *run);
  const EngCardSet *set = live_fixture_set_of (eng_live_script_game (sc)->name);
  EngStatus st = eng_live_script_run (sc, set, NULL, sink, &run->said, &run->result, &err);
  eng_live_script_free (sc);
  cr_assert_eq (st, ENG_OK, "%s:%u: %s", name, err.line, err.reason);
  cr_assert (!run->said.overflow, "%s: more than %d events", name, MAX_SAID);
  cr_assert_not_null (run->result.record);
}

static void
run_free (Run *run)
{
  free (run->result.record);
  run->result.record = NULL;
}

/* Whether the referee said `text` as a NEED. */
static bool
needs (const Run *run, const char *text)
{
  for (size_t i = 0; i < run->said.n; i++)
    if (run->said.items[i].kind == ENG_EVENT_NEED && strcmp (run->said.items[i].text, text) == 0)
      return true;
  return false;
}

static void
print_needs (const char *language, const Run *run)
{
  fprintf (stderr, "NEED texts (%s):\n", language);
  for (size_t i = 0; i < run->said.n; i++)
    if (run->said.items[i].kind == ENG_EVENT_NEED)
      fprintf (stderr, "  %s\n", run->said.items[i].text);
}

/* A script's questions and instructions, as the table reads them. */
static void
check_script_needs (const char *script, const char *language, const char *const *want,
                    size_t n_want)
{
  speak (language);
  Run *run = g_new0 (Run, 1);
  run_script (script, language == NULL, run);
  if (language == NULL)
    cr_assert_eq (run->result.failures, 0, "English: %zu failed expectations; first: %s",
                  run->result.failures, run->result.first_failure);
  for (size_t i = 0; i < n_want; i++)
    {
      if (!needs (run, want[i]))
        print_needs (language ? language : "C", run);
      cr_assert (needs (run, want[i]), "%s: the referee should say \"%s\"",
                 language ? language : "C", want[i]);
    }
  run_free (run);
  g_free (run);
}

static void
check_hook_needs (const char *language, const char *const *want, size_t n_want)
{
  check_script_needs ("katua-3p-hook.script", language, want, n_want);
}

TestSuite (live_i18n, .init = live_fixture_load_set, .fini = live_fixture_free_set);

Test (live_i18n, hook_questions_in_english_in_the_c_locale)
{
  /* LANGUAGE alone does not translate: the C locale is English */
  setenv ("LANGUAGE", "es", 1);
  static const char *const want[] = {
    "Two UFOs landed on Ana's Hook at once: was the blue UFO placed before the yellow UFO? "
    "Confirm or cancel",
    "Whose blue UFO is on Ana's Hook? Is it Bea's? Confirm, or cancel to ask about Cid",
    "Whose blue UFO is on Ana's Hook? Is it Cid's? Confirm, or cancel to ask about Bea",
    "Bea: take your yellow UFO back into your hand",
    "Ana: take the cat from your slot 3 into your capture area",
    "Put the Hook and the blue UFO on the discard pile",
    "End of turn: Ana refills slot 3; everyone draws up to 3 UFO cards",
    "Cid: take the cat from Bea's slot 1 into your capture area",
    "Cid: the cards to discard are counted again from the pile. Show the Discard card when "
    "they are all there",
  };
  check_hook_needs (NULL, want, G_N_ELEMENTS (want));
}

Test (live_i18n, hook_questions_in_spanish)
{
  static const char *const want[] = {
    "Dos ovnis han caído a la vez sobre el Gancho de Ana. ¿Se puso el ovni azul antes que "
    "el ovni amarillo? Confirma o cancela",
    "¿De quién es el ovni azul que está sobre el Gancho de Ana? ¿Es de Bea? Confirma, o cancela "
    "para preguntar por Cid",
    "¿De quién es el ovni azul que está sobre el Gancho de Ana? ¿Es de Cid? Confirma, o cancela "
    "para preguntar por Bea",
    "Bea: devuelve tu ovni amarillo a la mano",
    "Ana: lleva el gato de tu hueco 3 a tu zona de captura",
    "Pon el Ovni Gancho y el ovni azul en el mazo de descarte",
    "Fin del turno: Ana rellena el hueco 3; todos roban hasta tener 3 cartas de ovni",
    "Cid: lleva el gato del hueco 1 de Bea a tu zona de captura",
  };
  check_hook_needs ("es", want, G_N_ELEMENTS (want));
}

Test (live_i18n, hook_questions_in_catalan)
{
  static const char *const want[] = {
    /* the preposition elided before the name, as a Catalan writes it */
    "Dos ovnis han arribat alhora sobre el Ganxo d'Ana. Es va posar l'ovni blau abans que "
    "l'ovni groc? Confirma o cancel·la",
    "De qui és l'ovni blau que hi ha sobre el Ganxo d'Ana? És de Bea? Confirma, o cancel·la "
    "per preguntar per Cid",
    "De qui és l'ovni tricolor que hi ha sobre el Ganxo de Bea? És d'Ana? Confirma, o "
    "cancel·la per preguntar per Cid",
    "Bea: torna el teu ovni groc a la mà",
    "Ana: porta el gat del teu forat 3 a la teva zona de captura",
    "Posa el Ganxo i l'ovni blau a la pila de descarts",
    "Final del torn: Ana reomple el forat 3; tothom roba fins a tenir 3 cartes d'ovni",
  };
  check_hook_needs ("ca", want, G_N_ELEMENTS (want));
}

/* The texts a table reads (not the ACCEPTED echo of a move, which stays in
 * the records' English syntax). */
static bool
is_read_by_the_table (EngEventKind kind)
{
  return kind == ENG_EVENT_NEED || kind == ENG_EVENT_NOTE || kind == ENG_EVENT_ILLEGAL
         || kind == ENG_EVENT_CONSERVATION;
}

/* Every script: the same decisions in `language` as in English, and every
 * text the table reads translated. */
static void
check_all_scripts (const char *language)
{
  static const char *const scripts[] = {
    "katua-2p-basic.script", "katua-2p-corrections.script", "katua-2p-defences.script",
    "katua-2p-mistakes.script", "katua-2p-restart.script", "katua-2p-shield-chain.script",
    "katua-2p-variants.script", "katua-3p-hook.script", "katua-4p-game.script",
    "katua-2p-shield-replicated.script", "catchy-2p-hand.script", "catchy-2p-game.script",
    "catchy-2p-tie.script",
    "kittens-2p-play-nope.script", "kittens-2p-kittens.script", "kittens-3p-pair-favor.script",
    "kittens-3p-attack-out.script", "kittens-2p-five.script", "kittens-2p-five-one-look.script",
    "kittens-5p-game.script", "kittens-2p-draw-done.script", "kittens-4p-attack-to-winner.script",
    "escoba-2p-turns.script", "escoba-2p-mistakes.script", "escoba-4p-pairs-round.script",
    "escoba-2p-game.script",
  };
  Run *english = g_new0 (Run, 1);
  Run *local = g_new0 (Run, 1);
  size_t n_read = 0;
  for (size_t s = 0; s < G_N_ELEMENTS (scripts); s++)
    {
      const char *name = scripts[s];
      speak (NULL);
      run_script (name, false, english);
      speak (language);
      run_script (name, false, local);
      cr_assert_str_eq (local->result.record, english->result.record,
                        "%s: the moves must not depend on the language", name);
      cr_assert_eq (local->said.n, english->said.n, "%s: as many events in %s as in English",
                    name, language);
      for (size_t i = 0; i < english->said.n; i++)
        {
          const EngEvent *en = &english->said.items[i], *tr = &local->said.items[i];
          cr_assert_eq (tr->kind, en->kind, "%s: event %zu", name, i);
          cr_assert_str_eq (tr->rule, en->rule, "%s: event %zu", name, i);
          /* rule "script": the script runner's own notes, not the referee's */
          if (!is_read_by_the_table (en->kind) || strcmp (en->rule, "script") == 0)
            continue;
          cr_assert_str_neq (tr->text, en->text, "%s: not translated into %s: \"%s\"", name,
                             language, en->text);
          n_read++;
        }
      run_free (english);
      run_free (local);
    }
  cr_assert_gt (n_read, 100, "the scripts say enough to check (%zu texts)", n_read);
  g_free (english);
  g_free (local);
}

Test (live_i18n, every_script_says_the_same_in_spanish)
{
  check_all_scripts ("es");
}

Test (live_i18n, every_script_says_the_same_in_catalan)
{
  check_all_scripts ("ca");
}

/* Exploding Kittens: the question naming a target and the instructions
 * after a Favor and a kitten drawn, word for word. */
Test (live_i18n, kittens_questions_in_spanish)
{
  static const char *const want[] = {
    "¿Contra quién juega Ana? ¿Es Bea? Confirma, o cancela para nombrar a Cai",
    /* the command card by the word printed on it (its label in the table's language) */
    ("Bea: da a Ana una carta que elijas, boca abajo, y luego muestra la carta "
     "«Confirmar»"),
    "Pon el Favor en el mazo de descarte",
  };
  check_script_needs ("kittens-3p-pair-favor.script", "es", want, G_N_ELEMENTS (want));
}

Test (live_i18n, kittens_questions_in_catalan)
{
  static const char *const want[] = {
    "Contra qui juga Ana? És Cai? Confirma, o cancel·la per anomenar Bea",
    "Ana: posa una Desactivació al teu espai de jugades, o mostra la carta «Fi del torn» si "
    "no en tens",
  };
  check_script_needs ("kittens-3p-pair-favor.script", "ca", want, 1);
  check_script_needs ("kittens-2p-kittens.script", "ca", want + 1, 1);
}

/* Escoba: the cards by their names in the Spanish deck's tradition, the
 * capture asked for and the escoba's card, word for word. */
Test (live_i18n, escoba_in_spanish)
{
  static const char *const want[] = {
    "Ana: llévate 15 con el cinco de oros, o muestra la carta «Fin de turno»",
    "Bea: pon el caballo de copas boca arriba atravesado en tu montón",
  };
  check_script_needs ("escoba-2p-turns.script", "es", want, G_N_ELEMENTS (want));
}

Test (live_i18n, escoba_in_catalan)
{
  static const char *const want[] = {
    "Ana: endú-te 15 amb el cinc d'oros, o mostra la carta «Fi del torn»",
    "Bea: posa el cavall de copes cap per amunt travessat al teu munt",
  };
  check_script_needs ("escoba-2p-turns.script", "ca", want, G_N_ELEMENTS (want));
}

/* The Exploding Kittens referee in the table's language: a whole recorded
 * live game's events, a refusal and the card names come out in Spanish or
 * Catalan from the compiled catalogues (TABLERO_LOCALEDIR, set by meson to
 * the build's po/), in English in the C locale.  Criterion runs each test
 * in its own process, so each one picks its locale freely. */
#include "kittens-test.h"

#include <locale.h>

#include "eng-i18n.h"
#include "eng-replay.h"
#include "../test-i18n-util.h"

typedef struct {
  char texts[256][sizeof ((EngEvent *) 0)->text];
  EngEventKind kinds[256];
  size_t n;
} Texts;

static void
collect (void *user, unsigned line, const EngEvent *event)
{
  Texts *t = user;
  (void) line;
  cr_assert_lt (t->n, 256, "too many events");
  t->kinds[t->n] = event->kind;
  snprintf (t->texts[t->n], sizeof t->texts[0], "%s", event->text);
  t->n++;
}

static void
replay (Texts *out)
{
  const char *dir = getenv ("TABLERO_ENGINE_RECORDS");
  cr_assert_not_null (dir, "TABLERO_ENGINE_RECORDS must be set");
  char path[1024];
  snprintf (path, sizeof path, "%s/kittens-2p-live.rec", dir);
  EngRecord *rec = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_record_load_file (path, &rec, &err), ENG_OK, "%s", err.reason);
  EngCardSet *set = kx_load_set (NULL, 0);
  EngOptions base;
  memset (&base, 0, sizeof base);
  gt_load_options ("kittens", &base);
  EngReplayResult res;
  EngVerdict why;
  out->n = 0;
  cr_assert_eq (eng_replay (rec, set, &base, true, false, collect, out, &res, &why), ENG_OK,
                "%s", why.reason);
  cr_assert (res.over);
  eng_card_set_free (set);
  eng_record_free (rec);
}

static bool
said (const Texts *t, const char *text)
{
  for (size_t i = 0; i < t->n; i++)
    if (strcmp (t->texts[i], text) == 0)
      return true;
  return false;
}

static void
whole_game_translated (const char *language, const char *attack, const char *refusal,
                       const char *definite)
{
  static Texts english, translated;
  speak (NULL);
  replay (&english);
  cr_assert (said (&english, "Ana plays an Attack"));
  speak (language);
  replay (&translated);
  cr_assert_eq (english.n, translated.n, "the language changed the game");
  size_t compared = 0;
  for (size_t i = 0; i < english.n; i++)
    {
      cr_assert_eq (english.kinds[i], translated.kinds[i]);
      if (english.kinds[i] == ENG_EVENT_ACCEPTED)
        continue;   /* "Ana play 28": the record's own words */
      cr_assert_str_neq (english.texts[i], translated.texts[i], "event %zu left in English: %s",
                         i, english.texts[i]);
      compared++;
    }
  cr_assert_gt (compared, 30);
  cr_assert (said (&translated, attack), "no '%s'", attack);

  GameTest t;
  gt_new (&t, "game kittens\nplayer Ana\nplayer Bea\nseed 3\n"
          "deal Ana hand 16 5\ndeal Bea hand 11 6\n");
  gt_refused (&t, "Bea nope 11", ENG_ERR_ILLEGAL, "E12");
  cr_assert_str_eq (t.why.reason, refusal);
  char name[64];
  eng_game_card_name (t.game, 16, true, name, sizeof name);
  cr_assert_str_eq (name, definite);
  gt_free (&t);
}

Test (kittens_i18n, a_whole_game_in_spanish)
{
  whole_game_translated ("es", "Ana juega un Ataque",
                         "no hay ninguna carta abierta a la que decir ¡No!: el ¡No! vuelve a "
                         "la mano", "el Ataque");
}

Test (kittens_i18n, a_whole_game_in_catalan)
{
  whole_game_translated ("ca", "Ana juga un Atac",
                         "no hi ha cap carta oberta a la qual dir No!: el No! torna a la mà",
                         "l'Atac");
}

/* tests/speech: the referee's voice.  Nobody can listen here, so speech is
 * measured: a WAV of a sentence in each language must be a valid RIFF file,
 * not silent, and as long as its text suggests; the dropping rules are
 * checked through the voice's test hooks (a fake clock, a held worker, the
 * sentences it speaks), never by timing; and the sentences built from the
 * live scripts of every game never name a card lying face down. */
#include <criterion/criterion.h>

#include <ctype.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-live-script.h"
#include "spk-sentence.h"
#include "spk-voice.h"

/* ---- WAV files, read back independently of the writer ---- */

typedef struct {
  guint rate_hz;
  double seconds;
  double rms;           /* of the 16-bit samples */
} Wav;

static guint32
u32 (const guint8 *p)
{
  return p[0] | p[1] << 8 | p[2] << 16 | (guint32) p[3] << 24;
}

static guint16
u16 (const guint8 *p)
{
  return (guint16) (p[0] | p[1] << 8);
}

static Wav
read_wav (const char *path)
{
  gchar *bytes = NULL;
  gsize len = 0;
  cr_assert (g_file_get_contents (path, &bytes, &len, NULL), "%s is written", path);
  const guint8 *b = (const guint8 *) bytes;
  cr_assert_geq (len, 44, "%s holds a header (%zu bytes)", path, len);
  cr_assert (memcmp (b, "RIFF", 4) == 0 && memcmp (b + 8, "WAVE", 4) == 0, "a RIFF WAVE file");
  cr_assert_eq (u32 (b + 4), len - 8, "RIFF size %u for a file of %zu bytes", u32 (b + 4), len);
  cr_assert (memcmp (b + 12, "fmt ", 4) == 0 && u32 (b + 16) == 16, "a PCM format chunk");
  cr_assert_eq (u16 (b + 20), 1, "PCM");
  cr_assert_eq (u16 (b + 22), 1, "mono");
  cr_assert_eq (u16 (b + 34), 16, "16-bit");
  Wav w = { .rate_hz = u32 (b + 24) };
  cr_assert (w.rate_hz >= 8000 && w.rate_hz <= 48000, "rate %u Hz", w.rate_hz);
  cr_assert_eq (u32 (b + 28), w.rate_hz * 2, "bytes per second");
  cr_assert (memcmp (b + 36, "data", 4) == 0, "a data chunk");
  guint32 data = u32 (b + 40);
  cr_assert_eq (data, len - 44, "data size %u, %zu bytes follow", data, len - 44);
  size_t n = data / 2;
  double sum = 0;
  for (size_t i = 0; i < n; i++)
    {
      double s = (gint16) u16 (b + 44 + 2 * i);
      sum += s * s;
    }
  w.seconds = (double) n / w.rate_hz;
  w.rms = n > 0 ? sqrt (sum / (double) n) : 0;
  g_free (bytes);
  return w;
}

/* Speech is loud where silence (or a stuck DC value near zero) is not. */
#define RMS_FLOOR 300.0
/* espeak-ng at its default rate says about 14 characters a second */
#define MIN_SECONDS_PER_CHAR 0.04
#define MAX_SECONDS_PER_CHAR 0.25

static Wav
render (const char *language, const char *text)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-speech-XXXXXX", NULL);
  cr_assert_not_null (dir);
  g_autofree char *path = g_build_filename (dir, "said.wav", NULL);
  GError *error = NULL;
  SpkVoice *voice = spk_voice_new (SPK_OUTPUT_WAV, language, path, &error);
  cr_assert_not_null (voice, "%s: %s", language, error ? error->message : "?");
  spk_voice_say (voice, text, SPK_PRIORITY_NORMAL);
  spk_voice_free (voice);   /* says what waits, then closes the file */
  Wav w = read_wav (path);
  g_unlink (path);
  g_rmdir (dir);
  return w;
}

static void
check_language (const char *language, const char *shorter, const char *longer)
{
  Wav s = render (language, shorter), l = render (language, longer);
  const struct { const char *text; Wav wav; } said[] = { { shorter, s }, { longer, l } };
  for (size_t i = 0; i < G_N_ELEMENTS (said); i++)
    {
      double chars = (double) g_utf8_strlen (said[i].text, -1);
      cr_log_info ("%s: %.2f s, RMS %.0f, %.3f s a character: %s", language, said[i].wav.seconds,
                   said[i].wav.rms, said[i].wav.seconds / chars, said[i].text);
      cr_expect_gt (said[i].wav.rms, RMS_FLOOR, "%s is not silent (RMS %.0f)", language, said[i].wav.rms);
      cr_expect (said[i].wav.seconds >= MIN_SECONDS_PER_CHAR * chars
                   && said[i].wav.seconds <= MAX_SECONDS_PER_CHAR * chars,
                 "%s: %.2f s for %.0f characters", language, said[i].wav.seconds, chars);
    }
  cr_expect_gt (l.seconds, s.seconds * 1.5, "%s: the longer text lasts longer (%.2f s, %.2f s)",
                language, l.seconds, s.seconds);
}

Test (speech_wav, english_is_heard_and_lasts_as_its_text)
{
  check_language ("en", "Bea's turn.",
                  "Bea captures the red cat: 3 points. Ana: play UFO cards, discard, or pass.");
}

Test (speech_wav, spanish_is_heard_and_lasts_as_its_text)
{
  check_language ("es", "Turno de Bea.",
                  "Bea captura el gato rojo: 3 puntos. Ana: juega cartas OVNI, descarta o pasa.");
}

Test (speech_wav, catalan_is_heard_and_lasts_as_its_text)
{
  check_language ("ca", "Torn de la Bea.",
                  "La Bea captura el gat vermell: 3 punts. Ana: juga cartes OVNI, descarta o passa.");
}

Test (speech_wav, the_measure_tells_silence_from_speech)
{
  /* the floor can fail: a WAV of zeros is below it */
  g_autofree char *dir = g_dir_make_tmp ("tablero-speech-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "silent.wav", NULL);
  guint8 file[44 + 2 * 22050] = { 0 };
  memcpy (file, "RIFF", 4);
  file[4] = (guint8) ((sizeof file - 8) & 0xff), file[5] = (guint8) ((sizeof file - 8) >> 8);
  memcpy (file + 8, "WAVEfmt ", 8);
  file[16] = 16, file[20] = 1, file[22] = 1;
  file[24] = 0x22, file[25] = 0x56;                 /* 22050 Hz */
  file[28] = 0x44, file[29] = 0xac;                 /* 44100 bytes a second */
  file[32] = 2, file[34] = 16;
  memcpy (file + 36, "data", 4);
  file[40] = (guint8) ((2 * 22050) & 0xff), file[41] = (guint8) ((2 * 22050) >> 8);
  cr_assert (g_file_set_contents (path, (const char *) file, sizeof file, NULL));
  Wav w = read_wav (path);
  cr_expect_float_eq (w.seconds, 1.0, 1e-9);
  cr_expect_lt (w.rms, RMS_FLOOR);
  g_unlink (path);
  g_rmdir (dir);
}

/* ---- the dropping rules, with a fake clock and a held worker ---- */

typedef struct {
  GMutex lock;
  GPtrArray *said;
  gint64 now;
} Ear;

static void
on_spoken (const char *text, gpointer data)
{
  Ear *ear = data;
  g_mutex_lock (&ear->lock);
  g_ptr_array_add (ear->said, g_strdup (text));
  g_mutex_unlock (&ear->lock);
}

static gint64
fake_clock (gpointer data)
{
  return ((Ear *) data)->now;
}

static SpkVoice *
listened_voice (Ear *ear)
{
  g_mutex_init (&ear->lock);
  ear->said = g_ptr_array_new_with_free_func (g_free);
  ear->now = 1000 * G_USEC_PER_SEC;
  SpkVoice *voice = spk_voice_new (SPK_OUTPUT_NONE, "en", NULL, NULL);
  cr_assert_not_null (voice);
  spk_voice_set_spoken_hook (voice, on_spoken, ear);
  spk_voice_set_clock (voice, fake_clock, ear);
  return voice;
}

static void
ear_clear (Ear *ear)
{
  g_ptr_array_unref (ear->said);
  g_mutex_clear (&ear->lock);
}

static const char *
said (Ear *ear, guint i)
{
  return i < ear->said->len ? g_ptr_array_index (ear->said, i) : "(nothing)";
}

Test (speech_rules, a_newer_sentence_replaces_the_waiting_one)
{
  Ear ear;
  SpkVoice *voice = listened_voice (&ear);
  spk_voice_hold (voice, TRUE);
  spk_voice_say (voice, "Ana's turn", SPK_PRIORITY_NORMAL);
  spk_voice_say (voice, "Bea's turn", SPK_PRIORITY_NORMAL);
  spk_voice_hold (voice, FALSE);
  spk_voice_flush (voice);
  cr_expect_eq (ear.said->len, 1, "only the newest is said (%u said)", ear.said->len);
  cr_expect_str_eq (said (&ear, 0), "Bea's turn");
  SpkVoiceStats stats;
  spk_voice_get_stats (voice, &stats);
  cr_expect_eq (stats.replaced, 1);
  cr_expect_eq (stats.said, 1);
  spk_voice_free (voice);
  ear_clear (&ear);
}

Test (speech_rules, a_refusal_waiting_is_not_replaced_by_a_lesser_sentence)
{
  Ear ear;
  SpkVoice *voice = listened_voice (&ear);
  spk_voice_hold (voice, TRUE);
  spk_voice_say (voice, "a Defuse is played only on an Exploding Kitten", SPK_PRIORITY_HIGH);
  spk_voice_say (voice, "Bea's turn", SPK_PRIORITY_NORMAL);
  spk_voice_hold (voice, FALSE);
  spk_voice_flush (voice);
  cr_expect_eq (ear.said->len, 1);
  cr_expect_str_eq (said (&ear, 0), "a Defuse is played only on an Exploding Kitten");
  SpkVoiceStats stats;
  spk_voice_get_stats (voice, &stats);
  cr_expect_eq (stats.outranked, 1);
  spk_voice_free (voice);
  ear_clear (&ear);
}

Test (speech_rules, a_sentence_gone_stale_is_dropped_not_said_late)
{
  Ear ear;
  SpkVoice *voice = listened_voice (&ear);
  spk_voice_hold (voice, TRUE);
  spk_voice_say (voice, "Ana's turn", SPK_PRIORITY_NORMAL);
  ear.now += SPK_VOICE_STALE_US + 1;   /* the worker was busy that long */
  spk_voice_hold (voice, FALSE);
  spk_voice_flush (voice);
  cr_expect_eq (ear.said->len, 0, "said late: %s", said (&ear, 0));
  SpkVoiceStats stats;
  spk_voice_get_stats (voice, &stats);
  cr_expect_eq (stats.stale, 1);
  /* one just in time is said */
  spk_voice_hold (voice, TRUE);
  spk_voice_say (voice, "Bea's turn", SPK_PRIORITY_NORMAL);
  ear.now += SPK_VOICE_STALE_US;
  spk_voice_hold (voice, FALSE);
  spk_voice_flush (voice);
  cr_expect_str_eq (said (&ear, 0), "Bea's turn");
  spk_voice_free (voice);
  ear_clear (&ear);
}

Test (speech_rules, the_same_sentence_is_not_said_twice_in_a_row)
{
  Ear ear;
  SpkVoice *voice = listened_voice (&ear);
  spk_voice_say (voice, "Put the Defuse on the discard pile", SPK_PRIORITY_NORMAL);
  spk_voice_flush (voice);
  ear.now += SPK_VOICE_REPEAT_US - 1;
  spk_voice_say (voice, "Put the Defuse on the discard pile", SPK_PRIORITY_NORMAL);
  spk_voice_flush (voice);
  cr_expect_eq (ear.said->len, 1, "a repeat was said");
  ear.now += SPK_VOICE_REPEAT_US;      /* said again a while later: heard */
  spk_voice_say (voice, "Put the Defuse on the discard pile", SPK_PRIORITY_NORMAL);
  spk_voice_flush (voice);
  cr_expect_eq (ear.said->len, 2);
  SpkVoiceStats stats;
  spk_voice_get_stats (voice, &stats);
  cr_expect_eq (stats.repeated, 1);
  spk_voice_free (voice);
  ear_clear (&ear);
}

Test (speech_rules, nothing_is_said_while_muted)
{
  Ear ear;
  SpkVoice *voice = listened_voice (&ear);
  spk_voice_hold (voice, TRUE);
  spk_voice_say (voice, "Ana's turn", SPK_PRIORITY_NORMAL);
  spk_voice_set_muted (voice, TRUE);   /* drops what waits */
  cr_expect (spk_voice_get_muted (voice));
  spk_voice_say (voice, "Bea's turn", SPK_PRIORITY_HIGH);
  spk_voice_hold (voice, FALSE);
  spk_voice_flush (voice);
  cr_expect_eq (ear.said->len, 0, "said while muted: %s", said (&ear, 0));
  spk_voice_set_muted (voice, FALSE);
  spk_voice_say (voice, "Cai's turn", SPK_PRIORITY_NORMAL);
  spk_voice_flush (voice);
  cr_expect_str_eq (said (&ear, 0), "Cai's turn");
  SpkVoiceStats stats;
  spk_voice_get_stats (voice, &stats);
  cr_expect_eq (stats.muted, 2);
  spk_voice_free (voice);
  ear_clear (&ear);
}

Test (speech_rules, bad_rates_and_voices_are_refused)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-speech-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "v.wav", NULL);
  GError *error = NULL;
  SpkVoice *voice = spk_voice_new (SPK_OUTPUT_WAV, "es", path, &error);
  cr_assert_not_null (voice, "%s", error ? error->message : "?");
  cr_expect_not (spk_voice_set_rate (voice, SPK_VOICE_RATE_MIN - 1, &error));
  cr_expect (g_error_matches (error, SPK_VOICE_ERROR, SPK_VOICE_ERROR_RATE));
  g_clear_error (&error);
  cr_expect (spk_voice_set_rate (voice, 250, NULL));
  cr_expect_not (spk_voice_set_voice (voice, "no-such-voice", &error));
  cr_expect (g_error_matches (error, SPK_VOICE_ERROR, SPK_VOICE_ERROR_VOICE));
  g_clear_error (&error);
  cr_expect (spk_voice_set_voice (voice, "ca", NULL));
  spk_voice_free (voice);
  cr_expect_null (spk_voice_new (SPK_OUTPUT_WAV, "xx-nowhere", path, &error));
  cr_expect (g_error_matches (error, SPK_VOICE_ERROR, SPK_VOICE_ERROR_VOICE));
  g_clear_error (&error);
  g_autofree char *nowhere = g_build_filename (dir, "no", "such", "dir.wav", NULL);
  cr_expect_null (spk_voice_new (SPK_OUTPUT_WAV, "en", nowhere, &error));
  cr_expect (g_error_matches (error, SPK_VOICE_ERROR, SPK_VOICE_ERROR_FILE));
  g_clear_error (&error);
  g_unlink (path);
  g_rmdir (dir);
}

Test (speech_rules, the_voice_follows_the_table_language)
{
  cr_assert_not_null (setlocale (LC_ALL, "C"));
  setenv ("LANGUAGE", "es", 1);
  cr_expect_str_eq (spk_table_language (), "en", "gettext ignores LANGUAGE in the C locale");
  cr_assert_not_null (setlocale (LC_ALL, "C.UTF-8"), "the C.UTF-8 locale is needed");
  cr_expect_str_eq (spk_table_language (), "es");
  setenv ("LANGUAGE", "fr:ca_ES:es", 1);
  cr_expect_str_eq (spk_table_language (), "ca");
  setenv ("LANGUAGE", "fr", 1);
  cr_expect_str_eq (spk_table_language (), "en");
  unsetenv ("LANGUAGE");
  cr_expect_str_eq (spk_table_language (), "en");
  setlocale (LC_ALL, "C");
}

/* ---- nothing hidden is said (K20, C11, E16) ---- */

/* The table as a script lays it: which cards lie there, and face up. */
typedef struct {
  const EngLiveScript *script;
  const EngCardSet *set;
  size_t next_op;
  gboolean on_table[1024];
  gboolean face_up[1024];
  gboolean taken[1024];        /* was on the table, now in a hand or a deck */
  GString *utterance;          /* the sentences of the current step */
  SpkPriority priority;
  unsigned utterance_line;
  size_t utterances, checked_hidden;
  char named[32];              /* what names_hidden found */
  char failure[512];
} Table;

static void
table_apply (Table *t, const EngLiveScriptOp *op)
{
  for (unsigned i = 0; i < op->n_cards && op->kind <= ENG_LIVE_OP_DEAL; i++)
    {
      uint16_t c = op->cards[i] & 1023;
      switch (op->kind)
        {
        case ENG_LIVE_OP_PUT:
          t->on_table[c] = TRUE, t->face_up[c] = op->face, t->taken[c] = FALSE;
          break;
        case ENG_LIVE_OP_DEAL:
          t->on_table[c] = TRUE, t->face_up[c] = FALSE, t->taken[c] = FALSE;
          break;
        case ENG_LIVE_OP_FLIP:
          t->face_up[c] = !t->face_up[c];
          break;
        case ENG_LIVE_OP_REMOVE:
          t->on_table[c] = FALSE, t->taken[c] = TRUE;
          break;
        default:
          break;
        }
    }
}

/* The check of eng-live-script.c's check_hidden, on what is spoken: no
 * face-down card by its label, "card N" or "#N"; and, as the Kittens rules
 * tests check (kx_names_hidden), no card the referee saw that went into a
 * hand or a deck since ("#N", "card N": labels such as "Exploding Kitten"
 * are shared by several cards and name none). */
static const char *
names_hidden (Table *t, const char *text)
{
  for (unsigned c = 1; c < 1024; c++)
    {
      gboolean down = t->on_table[c] && !t->face_up[c];
      if ((!down && !t->taken[c]) || eng_card_set_other_side (t->set, (uint16_t) c) != 0)
        continue;
      t->checked_hidden++;
      const EngCard *card = eng_card_set_find_serial (t->set, (uint16_t) c);
      char words[2][16];
      snprintf (words[0], sizeof words[0], "card %u", c);
      snprintf (words[1], sizeof words[1], "#%u", c);
      for (int w = 0; w < 2; w++)
        for (const char *hit = strstr (text, words[w]); hit != NULL; hit = strstr (hit + 1, words[w]))
          if (!isdigit ((unsigned char) hit[strlen (words[w])]))
            {
              g_strlcpy (t->named, words[w], sizeof t->named);
              return t->named;
            }
      if (down && card != NULL && strstr (text, card->label) != NULL)
        return card->label;
    }
  return NULL;
}

static void
finish_utterance (Table *t)
{
  if (t->utterance->len > 0 && t->failure[0] == '\0')
    {
      const char *hidden = names_hidden (t, t->utterance->str);
      if (hidden != NULL)
        snprintf (t->failure, sizeof t->failure, "line %u says face-down '%s': %s",
                  t->utterance_line, hidden, t->utterance->str);
      t->utterances++;
    }
  g_string_truncate (t->utterance, 0);
  t->priority = SPK_PRIORITY_NORMAL;
}

static void
on_event (void *user, unsigned line, const EngEvent *event)
{
  Table *t = user;
  if (line != t->utterance_line)
    {
      /* a new step: the last one's utterance against the table it saw */
      finish_utterance (t);
      EngLiveScriptOp op;
      while (eng_live_script_op (t->script, t->next_op, &op) && op.line <= line)
        {
          table_apply (t, &op);
          t->next_op++;
        }
      t->utterance_line = line;
    }
  spk_utterance_add (t->utterance, &t->priority, event);
}

static void
check_script (const char *path, size_t *hidden_cards_checked)
{
  EngLiveScript *sc = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_live_script_load_file (path, &sc, &err), ENG_OK, "%s:%u: %s", path, err.line,
                err.reason);
  const char *game = eng_live_script_game (sc)->name;
  g_autofree char *set_name = g_strdup_printf ("%s/cards/%s.set", getenv ("TABLERO_DATADIR"), game);
  EngCardSet *set = NULL;
  cr_assert_eq (eng_card_set_load_file (set_name, &set, &err), ENG_OK, "%s: %s", set_name, err.reason);
  Table *t = g_new0 (Table, 1);
  t->script = sc;
  t->set = set;
  t->utterance = g_string_new (NULL);
  EngLiveScriptResult r;
  cr_assert_eq (eng_live_script_run (sc, set, NULL, on_event, t, &r, &err), ENG_OK, "%s: %s", path,
                err.reason);
  finish_utterance (t);
  cr_expect_str_empty (t->failure, "%s: %s", path, t->failure);
  cr_expect_gt (t->utterances, 3, "%s: the table was told something (%zu)", path, t->utterances);
  *hidden_cards_checked += t->checked_hidden;
  free (r.record);
  g_string_free (t->utterance, TRUE);
  g_free (t);
  eng_card_set_free (set);
  eng_live_script_free (sc);
}

Test (speech_hidden, no_spoken_sentence_names_a_face_down_card)
{
  const char *dirs[] = { TESTS_LIVE_SCRIPTS, NULL };
  g_autofree char *games = g_build_filename (getenv ("TABLERO_DATADIR"), "games", NULL);
  dirs[1] = games;
  size_t scripts = 0, checked = 0;
  for (size_t d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      GDir *dir = g_dir_open (dirs[d], 0, NULL);
      cr_assert_not_null (dir, "%s", dirs[d]);
      for (const char *name; (name = g_dir_read_name (dir)) != NULL;)
        if (g_str_has_suffix (name, ".script"))
          {
            g_autofree char *path = g_build_filename (dirs[d], name, NULL);
            check_script (path, &checked);
            scripts++;
          }
      g_dir_close (dir);
    }
  cr_log_info ("%zu scripts, %zu face-down cards checked against what was said", scripts, checked);
  cr_expect_gt (scripts, 20);
  cr_expect_gt (checked, 1000, "face-down cards were on the table while the referee spoke");
}

Test (speech_hidden, the_check_finds_a_face_down_card_said)
{
  /* the check can fail: a sentence naming a dealt cat by its label */
  g_autofree char *set_name = g_strdup_printf ("%s/cards/katua.set", getenv ("TABLERO_DATADIR"));
  EngCardSet *set = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_card_set_load_file (set_name, &set, &err), ENG_OK, "%s", err.reason);
  Table *t = g_new0 (Table, 1);
  t->set = set;
  EngLiveScriptOp deal = { .kind = ENG_LIVE_OP_DEAL, .cards = { 12 }, .n_cards = 1 };
  table_apply (t, &deal);
  const EngCard *card = eng_card_set_find_serial (set, 12);
  cr_assert_not_null (card);
  g_autofree char *sentence = g_strdup_printf ("Bea has %s in slot 1", card->label);
  cr_expect_not_null (names_hidden (t, sentence));
  cr_expect_not_null (names_hidden (t, "card 12 lies there"));
  cr_expect_null (names_hidden (t, "card 120 lies there"));
  EngLiveScriptOp flip = { .kind = ENG_LIVE_OP_FLIP, .cards = { 12 }, .n_cards = 1 };
  table_apply (t, &flip);
  cr_expect_null (names_hidden (t, sentence), "face up it may be said");
  EngLiveScriptOp take = { .kind = ENG_LIVE_OP_REMOVE, .cards = { 12 }, .n_cards = 1 };
  table_apply (t, &take);
  cr_expect_not_null (names_hidden (t, "Bea takes card 12"), "taken into a hand it is hidden again");
  cr_expect_not_null (names_hidden (t, "Bea takes Cat #12"));
  g_free (t);
  eng_card_set_free (set);
}

/* ---- tablero-cli watch --speak-wav ---- */
#ifdef TABLERO_HAVE_VISION

Test (speech_cli, watch_says_the_demo_into_a_wav, .timeout = 240)
{
  g_autofree char *dir = g_dir_make_tmp ("tablero-speech-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "demo.wav", NULL);
  const char *argv[] = { getenv ("TABLERO_CLI"), "watch", "--source", "demo", "--frames", "40",
                         "--speak-wav", path, NULL };
  cr_assert_not_null (argv[0], "TABLERO_CLI is set by meson");
  g_autofree char *out = NULL, *errors = NULL;
  int status = -1;
  cr_assert (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &errors,
                           &status, NULL));
  cr_assert (g_spawn_check_wait_status (status, NULL), "watch failed: %s", errors);
  cr_expect_not_null (strstr (out, "\"text\":"), "announcements were printed");
  Wav w = read_wav (path);
  cr_log_info ("demo, 40 frames: %.2f s of speech, RMS %.0f", w.seconds, w.rms);
  cr_expect_gt (w.rms, RMS_FLOOR, "the demo's announcements are heard (RMS %.0f)", w.rms);
  cr_expect_gt (w.seconds, 2.0, "%.2f s", w.seconds);
  /* a bad rate is a usage error, and no file is left half made */
  g_autofree char *bad_path = g_build_filename (dir, "bad.wav", NULL);
  const char *bad[] = { getenv ("TABLERO_CLI"), "watch", "--source", "demo", "--frames", "2",
                        "--speak-wav", bad_path, "--speech-rate", "fast", NULL };
  g_autofree char *bad_err = NULL;
  cr_assert (g_spawn_sync (NULL, (char **) bad, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                           &bad_err, &status, NULL));
  cr_expect (g_spawn_check_wait_status (status, NULL) == FALSE && WEXITSTATUS (status) == 2,
             "exit 2 for a bad rate");
  cr_expect_not_null (strstr (bad_err, "--speech-rate"), "%s", bad_err);
  cr_expect_not (g_file_test (bad_path, G_FILE_TEST_EXISTS));
  g_unlink (path);
  g_rmdir (dir);
}
#endif

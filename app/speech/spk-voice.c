/* spk-voice.c: the worker, the dropping rules and espeak-ng. */
#include "spk-voice.h"

#include <errno.h>
#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK (spk-voice-error-quark, spk_voice_error)

#define SPK_NAME_MAX 128

struct _SpkVoice
{
  GMutex lock;               /* guards everything below but the worker's own */
  GCond cond;
  GThread *worker;
  SpkOutput output;

  char waiting[SPK_VOICE_TEXT_MAX];
  gboolean has_waiting;
  SpkPriority waiting_priority;
  gint64 waiting_since;
  char last[SPK_VOICE_TEXT_MAX];   /* the sentence accepted last */
  gint64 last_at;
  gboolean has_last;

  gboolean speaking, held, muted, quitting;
  char name[SPK_NAME_MAX];   /* the espeak-ng voice */
  int rate;
  GError *error;             /* the first failure; the voice is then silent */
  SpkVoiceStats stats;
  SpkSpokenHook hook;
  gpointer hook_data;
  SpkClock clock;
  gpointer clock_data;

  /* SPK_OUTPUT_WAV; written by the worker only */
  FILE *wav;
  char *wav_path;
  guint32 wav_bytes;
};

/* ---- the process's one espeak-ng engine ---- */

static GMutex engine_lock;
static gboolean engine_ready;
static int engine_rate_hz;
static int engine_mode = -1;          /* the output mode set last */
static char engine_voice[SPK_NAME_MAX];
static int engine_wpm;
static GPtrArray *engine_names;       /* every voice's name, file and languages;
                                         set once, before the first voice */
static GPtrArray *engine_voices;      /* SpkVoiceInfo of every voice, set with
                                         engine_names */
static gint engine_listed;            /* atomic: both lists are set */
static SpkVoice *engine_target;       /* whose WAV the callback writes */
static gboolean engine_write_failed;

static void
set_engine_error (GError **error, SpkVoiceError code, espeak_ng_STATUS status, const char *what)
{
  char message[512] = "";
  espeak_ng_GetStatusCodeMessage (status, message, sizeof message);
  g_set_error (error, SPK_VOICE_ERROR, code, "%s: %s", what, message);
}

/* Samples from espeak-ng (retrieval mode) go to the target's WAV. */
static int
on_samples (short *samples, int n, espeak_EVENT *events)
{
  SpkVoice *v = engine_target;
  if (samples == NULL || n <= 0 || v == NULL || v->wav == NULL)
    return 0;
  if (fwrite (samples, sizeof (short), (size_t) n, v->wav) != (size_t) n)
    engine_write_failed = TRUE;
  v->wav_bytes += (guint32) n * sizeof (short);
  return 0;
}

static SpkVoiceInfo *
voice_info_new (const char *name, const char *identifier, const char *language)
{
  SpkVoiceInfo *info = g_new0 (SpkVoiceInfo, 1);
  info->name = g_strdup (name);
  info->identifier = g_strdup (identifier);
  info->language = g_strdup (language);
  return info;
}

static void
remember_voice_names (void)
{
  engine_names = g_ptr_array_new_with_free_func (g_free);
  engine_voices = g_ptr_array_new ();
  const espeak_VOICE **voices = espeak_ListVoices (NULL);
  for (size_t i = 0; voices != NULL && voices[i] != NULL; i++)
    {
      /* languages: a priority byte, then the language */
      const char *first = voices[i]->languages != NULL && voices[i]->languages[0] != '\0'
                            ? voices[i]->languages + 1 : "";
      if (voices[i]->name != NULL && strlen (voices[i]->name) < SPK_NAME_MAX)
        {
          g_ptr_array_add (engine_voices,
                           voice_info_new (voices[i]->name, voices[i]->identifier, first));
        }
      g_ptr_array_add (engine_names, g_ascii_strdown (voices[i]->name, -1));
      g_ptr_array_add (engine_names, g_ascii_strdown (voices[i]->identifier, -1));
      /* languages: (priority byte, language string) pairs, ending at a 0 byte */
      for (const char *l = voices[i]->languages; l != NULL && l[0] != '\0'; l += strlen (l + 1) + 2)
        g_ptr_array_add (engine_names, g_ascii_strdown (l + 1, -1));
    }
}

/* Starts espeak-ng once per process.  Call with engine_lock held. */
static gboolean
engine_start (GError **error)
{
  if (engine_ready)
    return TRUE;
  espeak_ng_InitializePath (NULL);
  espeak_ng_ERROR_CONTEXT context = NULL;
  espeak_ng_STATUS status = espeak_ng_Initialize (&context);
  if (status != ENS_OK)
    {
      espeak_ng_ClearErrorContext (&context);
      set_engine_error (error, SPK_VOICE_ERROR_ENGINE, status, "espeak-ng cannot start");
      return FALSE;
    }
  status = espeak_ng_InitializeOutput (ENOUTPUT_MODE_SYNCHRONOUS, 0, NULL);
  if (status != ENS_OK)
    {
      set_engine_error (error, SPK_VOICE_ERROR_ENGINE, status, "espeak-ng has no output");
      return FALSE;
    }
  engine_mode = ENOUTPUT_MODE_SYNCHRONOUS;
  engine_rate_hz = espeak_ng_GetSampleRate ();
  espeak_SetSynthCallback (on_samples);
  remember_voice_names ();
  engine_ready = TRUE;
  g_atomic_int_set (&engine_listed, 1);
  return TRUE;
}

static gboolean
engine_knows (const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);
  for (guint i = 0; i < engine_names->len; i++)
    if (strcmp (lower, g_ptr_array_index (engine_names, i)) == 0)
      return TRUE;
  return FALSE;
}

/* Speaks one sentence as `v` asks.  Call with engine_lock held. */
static gboolean
engine_speak (SpkVoice *v, const char *text, const char *name, int wpm, GError **error)
{
  int mode = v->output == SPK_OUTPUT_SOUND ? ENOUTPUT_MODE_SYNCHRONOUS | ENOUTPUT_MODE_SPEAK_AUDIO
                                           : ENOUTPUT_MODE_SYNCHRONOUS;
  espeak_ng_STATUS status = ENS_OK;
  if (mode != engine_mode)
    {
      status = espeak_ng_InitializeOutput (mode, 0, NULL);
      if (status != ENS_OK)
        {
          set_engine_error (error, SPK_VOICE_ERROR_SYNTH, status, "cannot open the sound output");
          return FALSE;
        }
      engine_mode = mode;
    }
  if (strcmp (name, engine_voice) != 0)
    {
      status = espeak_ng_SetVoiceByName (name);
      if (status != ENS_OK)
        {
          set_engine_error (error, SPK_VOICE_ERROR_VOICE, status, name);
          engine_voice[0] = '\0';
          return FALSE;
        }
      g_strlcpy (engine_voice, name, sizeof engine_voice);
      engine_wpm = 0;   /* a new voice starts at its own rate */
    }
  if (wpm != engine_wpm)
    {
      espeak_ng_SetParameter (espeakRATE, wpm, 0);
      engine_wpm = wpm;
    }
  engine_target = v;
  engine_write_failed = FALSE;
  status = espeak_ng_Synthesize (text, strlen (text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8,
                                 NULL, NULL);
  if (status == ENS_OK)
    status = espeak_ng_Synchronize ();
  engine_target = NULL;
  if (status != ENS_OK)
    {
      set_engine_error (error, SPK_VOICE_ERROR_SYNTH, status, "cannot speak");
      return FALSE;
    }
  if (engine_write_failed)
    {
      g_set_error (error, SPK_VOICE_ERROR, SPK_VOICE_ERROR_FILE, "cannot write %s", v->wav_path);
      return FALSE;
    }
  return TRUE;
}

/* ---- WAV: a RIFF header with the sizes rewritten after each sentence ---- */

static void
put_u32 (guint8 *at, guint32 value)
{
  for (int i = 0; i < 4; i++)
    at[i] = (guint8) (value >> (8 * i));
}

static void
put_u16 (guint8 *at, guint16 value)
{
  at[0] = (guint8) value;
  at[1] = (guint8) (value >> 8);
}

static gboolean
wav_write_header (FILE *f, int rate_hz, guint32 data_bytes)
{
  guint8 h[44];
  memcpy (h, "RIFF", 4);
  put_u32 (h + 4, 36 + data_bytes);
  memcpy (h + 8, "WAVEfmt ", 8);
  put_u32 (h + 16, 16);                      /* PCM format chunk */
  put_u16 (h + 20, 1);                       /* PCM */
  put_u16 (h + 22, 1);                       /* mono */
  put_u32 (h + 24, (guint32) rate_hz);
  put_u32 (h + 28, (guint32) rate_hz * 2);   /* bytes per second */
  put_u16 (h + 32, 2);                       /* bytes per frame */
  put_u16 (h + 34, 16);                      /* bits per sample */
  memcpy (h + 36, "data", 4);
  put_u32 (h + 40, data_bytes);
  long end = ftell (f);
  gboolean ok = fseek (f, 0, SEEK_SET) == 0 && fwrite (h, 1, sizeof h, f) == sizeof h;
  if (end > (long) sizeof h)
    ok = ok && fseek (f, end, SEEK_SET) == 0;
  return ok && fflush (f) == 0;
}

/* ---- the worker ---- */

static gint64
voice_now (SpkVoice *v)
{
  return v->clock != NULL ? v->clock (v->clock_data) : g_get_monotonic_time ();
}

static void
say_one (SpkVoice *v, const char *text, const char *name, int wpm)
{
  if (v->hook != NULL)
    v->hook (text, v->hook_data);
  if (v->output == SPK_OUTPUT_NONE)
    return;
  GError *error = NULL;
  g_mutex_lock (&engine_lock);
  gboolean ok = engine_speak (v, text, name, wpm, &error);
  g_mutex_unlock (&engine_lock);
  if (ok && v->wav != NULL && !wav_write_header (v->wav, engine_rate_hz, v->wav_bytes))
    g_set_error (&error, SPK_VOICE_ERROR, SPK_VOICE_ERROR_FILE, "cannot write %s", v->wav_path);
  if (error != NULL)
    {
      g_mutex_lock (&v->lock);
      if (v->error == NULL)
        v->error = error;
      else
        g_error_free (error);
      g_mutex_unlock (&v->lock);
    }
}

static gpointer
worker_main (gpointer data)
{
  SpkVoice *v = data;
  char text[SPK_VOICE_TEXT_MAX];
  char name[SPK_NAME_MAX];
  g_mutex_lock (&v->lock);
  for (;;)
    {
      while (!v->quitting && (!v->has_waiting || v->held))
        g_cond_wait (&v->cond, &v->lock);
      if (!v->has_waiting)
        break;   /* quitting with nothing left to say */
      v->has_waiting = FALSE;
      if (voice_now (v) - v->waiting_since > SPK_VOICE_STALE_US || v->error != NULL)
        {
          v->stats.stale += v->error == NULL;
          g_cond_broadcast (&v->cond);
          continue;
        }
      g_strlcpy (text, v->waiting, sizeof text);
      g_strlcpy (name, v->name, sizeof name);
      int wpm = v->rate;
      v->speaking = TRUE;
      v->stats.said++;
      g_mutex_unlock (&v->lock);
      say_one (v, text, name, wpm);
      g_mutex_lock (&v->lock);
      v->speaking = FALSE;
      g_cond_broadcast (&v->cond);
    }
  g_mutex_unlock (&v->lock);
  return NULL;
}

/* ---- the public side ---- */

SpkVoice *
spk_voice_new (SpkOutput output, const char *language, const char *wav_path, GError **error)
{
  g_return_val_if_fail (output != SPK_OUTPUT_WAV || wav_path != NULL, NULL);
  if (language == NULL)
    language = spk_table_language ();
  if (output != SPK_OUTPUT_NONE)
    {
      g_mutex_lock (&engine_lock);
      gboolean ok = engine_start (error);
      gboolean known = ok && engine_knows (language);
      g_mutex_unlock (&engine_lock);
      if (!ok)
        return NULL;
      if (!known)
        {
          g_set_error (error, SPK_VOICE_ERROR, SPK_VOICE_ERROR_VOICE,
                       "espeak-ng has no voice for the language '%s'", language);
          return NULL;
        }
    }
  SpkVoice *v = g_new0 (SpkVoice, 1);
  g_mutex_init (&v->lock);
  g_cond_init (&v->cond);
  v->output = output;
  v->rate = SPK_VOICE_RATE_DEFAULT;
  g_strlcpy (v->name, language, sizeof v->name);
  if (output == SPK_OUTPUT_WAV)
    {
      v->wav_path = g_strdup (wav_path);
      v->wav = fopen (wav_path, "w+b");
      if (v->wav == NULL || !wav_write_header (v->wav, engine_rate_hz, 0))
        {
          g_set_error (error, SPK_VOICE_ERROR, SPK_VOICE_ERROR_FILE, "cannot write %s: %s",
                       wav_path, g_strerror (errno));
          spk_voice_free (v);
          return NULL;
        }
    }
  v->worker = g_thread_new ("spk-voice", worker_main, v);
  return v;
}

void
spk_voice_free (SpkVoice *v)
{
  if (v == NULL)
    return;
  if (v->worker != NULL)
    {
      g_mutex_lock (&v->lock);
      v->quitting = TRUE;
      v->held = FALSE;
      g_cond_broadcast (&v->cond);
      g_mutex_unlock (&v->lock);
      g_thread_join (v->worker);
    }
  if (v->wav != NULL)
    fclose (v->wav);
  g_free (v->wav_path);
  g_clear_error (&v->error);
  g_mutex_clear (&v->lock);
  g_cond_clear (&v->cond);
  g_free (v);
}

/* Copies at most size - 1 bytes of `text`, cut at a character boundary. */
static void
copy_text (char *out, size_t size, const char *text)
{
  size_t n = strlen (text);
  if (n >= size)
    {
      n = size - 1;
      while (n > 0 && ((unsigned char) text[n] & 0xC0) == 0x80)
        n--;
    }
  memcpy (out, text, n);
  out[n] = '\0';
}

void
spk_voice_say (SpkVoice *v, const char *text, SpkPriority priority)
{
  g_return_if_fail (v != NULL);
  if (text == NULL || text[0] == '\0')
    return;
  g_mutex_lock (&v->lock);
  gint64 now = voice_now (v);
  char copy[SPK_VOICE_TEXT_MAX];
  copy_text (copy, sizeof copy, text);
  gboolean same = v->has_last && now - v->last_at < SPK_VOICE_REPEAT_US && strcmp (v->last, copy) == 0;
  if (v->muted)
    v->stats.muted++;
  else if (same)
    v->stats.repeated++;
  else if (v->has_waiting && v->waiting_priority > priority)
    v->stats.outranked++;
  else
    {
      v->stats.replaced += v->has_waiting;
      memcpy (v->waiting, copy, sizeof copy);
      v->has_waiting = TRUE;
      v->waiting_priority = priority;
      v->waiting_since = now;
      memcpy (v->last, copy, sizeof copy);
      v->last_at = now;
      v->has_last = TRUE;
      g_cond_broadcast (&v->cond);
    }
  g_mutex_unlock (&v->lock);
}

void
spk_voice_set_muted (SpkVoice *v, gboolean muted)
{
  g_return_if_fail (v != NULL);
  g_mutex_lock (&v->lock);
  v->muted = muted;
  if (muted && v->has_waiting)
    {
      v->has_waiting = FALSE;
      v->stats.muted++;
      g_cond_broadcast (&v->cond);
    }
  g_mutex_unlock (&v->lock);
}

gboolean
spk_voice_get_muted (SpkVoice *v)
{
  g_return_val_if_fail (v != NULL, TRUE);
  g_mutex_lock (&v->lock);
  gboolean muted = v->muted;
  g_mutex_unlock (&v->lock);
  return muted;
}

gboolean
spk_voice_set_voice (SpkVoice *v, const char *name, GError **error)
{
  g_return_val_if_fail (v != NULL && name != NULL, FALSE);
  if (v->output != SPK_OUTPUT_NONE)
    {
      /* The names were listed before this voice was made and never change:
       * read without engine_lock, which a sentence being spoken holds. */
      gboolean known = engine_knows (name);
      if (!known || strlen (name) >= SPK_NAME_MAX)
        {
          g_set_error (error, SPK_VOICE_ERROR, SPK_VOICE_ERROR_VOICE, "espeak-ng has no voice '%s'",
                       name);
          return FALSE;
        }
    }
  g_mutex_lock (&v->lock);
  /* the sentence said last sounds new in another voice (a table trying voices) */
  v->has_last = v->has_last && strcmp (v->name, name) == 0;
  g_strlcpy (v->name, name, sizeof v->name);
  g_mutex_unlock (&v->lock);
  return TRUE;
}

gboolean
spk_voice_set_rate (SpkVoice *v, int words_per_minute, GError **error)
{
  g_return_val_if_fail (v != NULL, FALSE);
  if (words_per_minute < SPK_VOICE_RATE_MIN || words_per_minute > SPK_VOICE_RATE_MAX)
    {
      g_set_error (error, SPK_VOICE_ERROR, SPK_VOICE_ERROR_RATE,
                   "the speech rate is %d to %d words a minute, not %d", SPK_VOICE_RATE_MIN,
                   SPK_VOICE_RATE_MAX, words_per_minute);
      return FALSE;
    }
  g_mutex_lock (&v->lock);
  v->has_last = v->has_last && v->rate == words_per_minute;
  v->rate = words_per_minute;
  g_mutex_unlock (&v->lock);
  return TRUE;
}

char *
spk_voice_dup_voice (SpkVoice *v)
{
  g_return_val_if_fail (v != NULL, NULL);
  g_mutex_lock (&v->lock);
  char *name = g_strdup (v->name);
  g_mutex_unlock (&v->lock);
  return name;
}

int
spk_voice_get_rate (SpkVoice *v)
{
  g_return_val_if_fail (v != NULL, 0);
  g_mutex_lock (&v->lock);
  int rate = v->rate;
  g_mutex_unlock (&v->lock);
  return rate;
}

void
spk_voice_info_free (SpkVoiceInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->name);
  g_free (info->identifier);
  g_free (info->language);
  g_free (info);
}

/* Whether `language` is `base` or a variety of it ("en-gb-scotland" of "en"). */
static gboolean
language_of (const char *language, const char *base)
{
  size_t n = strlen (base);
  return g_ascii_strncasecmp (language, base, n) == 0 && (language[n] == '\0' || language[n] == '-');
}

GPtrArray *
spk_voice_list (const char *const *languages, GError **error)
{
  g_return_val_if_fail (languages != NULL, NULL);
  /* once started, the list never changes and is read without engine_lock,
   * which a sentence being spoken holds for as long as it sounds */
  if (!g_atomic_int_get (&engine_listed))
    {
      g_mutex_lock (&engine_lock);
      gboolean ok = engine_start (error);
      g_mutex_unlock (&engine_lock);
      if (!ok)
        return NULL;
    }
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) spk_voice_info_free);
  for (guint i = 0; i < engine_voices->len; i++)
    {
      const SpkVoiceInfo *voice = g_ptr_array_index (engine_voices, i);
      gboolean wanted = FALSE;
      for (const char *const *l = languages; *l != NULL && !wanted; l++)
        wanted = language_of (voice->language, *l);
      if (!wanted)
        continue;
      g_ptr_array_add (list, voice_info_new (voice->name, voice->identifier, voice->language));
    }
  return list;
}

gboolean
spk_voice_check (SpkVoice *v, GError **error)
{
  g_return_val_if_fail (v != NULL, FALSE);
  g_mutex_lock (&v->lock);
  gboolean ok = v->error == NULL;
  if (!ok && error != NULL)
    *error = g_error_copy (v->error);
  g_mutex_unlock (&v->lock);
  return ok;
}

void
spk_voice_flush (SpkVoice *v)
{
  g_return_if_fail (v != NULL);
  g_mutex_lock (&v->lock);
  while ((v->has_waiting && !v->held) || v->speaking)
    g_cond_wait (&v->cond, &v->lock);
  g_mutex_unlock (&v->lock);
}

void
spk_voice_set_spoken_hook (SpkVoice *v, SpkSpokenHook hook, gpointer user_data)
{
  g_return_if_fail (v != NULL);
  g_mutex_lock (&v->lock);
  v->hook = hook;
  v->hook_data = user_data;
  g_mutex_unlock (&v->lock);
}

void
spk_voice_set_clock (SpkVoice *v, SpkClock clock, gpointer user_data)
{
  g_return_if_fail (v != NULL);
  g_mutex_lock (&v->lock);
  v->clock = clock;
  v->clock_data = user_data;
  g_mutex_unlock (&v->lock);
}

void
spk_voice_hold (SpkVoice *v, gboolean held)
{
  g_return_if_fail (v != NULL);
  g_mutex_lock (&v->lock);
  v->held = held;
  g_cond_broadcast (&v->cond);
  g_mutex_unlock (&v->lock);
}

void
spk_voice_get_stats (SpkVoice *v, SpkVoiceStats *stats)
{
  g_return_if_fail (v != NULL && stats != NULL);
  g_mutex_lock (&v->lock);
  *stats = v->stats;
  g_mutex_unlock (&v->lock);
}

/* The first of es, ca, en in the list gettext reads; gettext ignores
 * LANGUAGE in the C locale, and so does the voice. */
const char *
spk_table_language (void)
{
  const char *messages = setlocale (LC_MESSAGES, NULL);
  if (messages == NULL || strcmp (messages, "C") == 0 || strcmp (messages, "POSIX") == 0)
    return "en";
  const char *language = g_getenv ("LANGUAGE");
  const char *list = language != NULL && language[0] != '\0' ? language : messages;
  g_auto (GStrv) names = g_strsplit (list, ":", -1);
  for (char **n = names; *n != NULL; n++)
    {
      if (g_str_has_prefix (*n, "C") && ((*n)[1] == '\0' || (*n)[1] == '.'))
        return "en";   /* C.UTF-8: gettext's English */
      static const char *const known[] = { "es", "ca", "en" };
      for (gsize k = 0; k < G_N_ELEMENTS (known); k++)
        if (g_str_has_prefix (*n, known[k]) && strchr ("_.@", (*n)[2]) != NULL)
          return known[k];
    }
  return "en";
}

/* spk-voice.h: the referee's voice (espeak-ng through libespeak-ng).
 *
 * A SpkVoice speaks short sentences on its own worker thread, so whoever
 * calls spk_voice_say() (the frame loop, the GTK main thread) never waits
 * for synthesis or for the sound card.  The table only wants to hear what
 * is true now, so a voice keeps at most one sentence waiting:
 *
 *  - a newer sentence replaces the waiting one (unless the waiting one has
 *    a higher priority, then the newer one is dropped);
 *  - a sentence older than SPK_VOICE_STALE_US when the worker reaches it
 *    is dropped, not spoken late;
 *  - a sentence identical to the one said last, within
 *    SPK_VOICE_REPEAT_US and in the same voice and speed, is not said
 *    again;
 *  - while muted nothing is said (and the waiting sentence is dropped).
 *
 * espeak-ng is one engine per process: every voice shares it, one sentence
 * at a time, and sets its own language and rate before each sentence.  No
 * sentence is allocated on the caller's side: spk_voice_say() copies into
 * a fixed buffer (SPK_VOICE_TEXT_MAX bytes, longer text cut at a UTF-8
 * character boundary).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SPK_VOICE_ERROR (spk_voice_error_quark ())
GQuark spk_voice_error_quark (void);

typedef enum {
  SPK_VOICE_ERROR_ENGINE,    /* espeak-ng (or its data) could not start */
  SPK_VOICE_ERROR_VOICE,     /* no espeak-ng voice of that name or language */
  SPK_VOICE_ERROR_RATE,      /* a rate outside SPK_VOICE_RATE_MIN..MAX */
  SPK_VOICE_ERROR_FILE,      /* the WAV file could not be written */
  SPK_VOICE_ERROR_SYNTH,     /* a sentence could not be spoken (no sound card) */
} SpkVoiceError;

typedef enum {
  SPK_OUTPUT_SOUND,          /* the sound card (espeak-ng's own playback) */
  SPK_OUTPUT_WAV,            /* every sentence appended to one WAV file */
  SPK_OUTPUT_NONE,           /* nothing synthesised: only the spoken hook sees
                                the sentences (tests of what is said) */
} SpkOutput;

typedef enum {
  SPK_PRIORITY_NORMAL,       /* turns, results, what to do next */
  SPK_PRIORITY_HIGH,         /* refusals and the end of the game */
} SpkPriority;

#define SPK_VOICE_TEXT_MAX 1024
#define SPK_VOICE_STALE_US (2 * G_USEC_PER_SEC)
#define SPK_VOICE_REPEAT_US (4 * G_USEC_PER_SEC)
/* espeak-ng's words per minute */
#define SPK_VOICE_RATE_MIN 80
#define SPK_VOICE_RATE_MAX 450
#define SPK_VOICE_RATE_DEFAULT 165

typedef struct _SpkVoice SpkVoice;

/* A voice speaking `language` ("en", "es", "ca"; NULL: the table's,
 * spk_table_language()) to `output`; `wav_path` names the file for
 * SPK_OUTPUT_WAV (created or truncated; a valid WAV after every sentence)
 * and is ignored otherwise.  Returns a new voice (spk_voice_free), or NULL
 * with `error` set: SPK_VOICE_ERROR_ENGINE when espeak-ng or its data
 * cannot start, SPK_VOICE_ERROR_VOICE for a language espeak-ng has no voice
 * for, SPK_VOICE_ERROR_FILE when the WAV file cannot be created.  A missing
 * sound card shows only when the first sentence fails (spk_voice_check). */
SpkVoice *spk_voice_new (SpkOutput output, const char *language, const char *wav_path,
                         GError **error);

/* Speaks the waiting sentence (unless it went stale), waits for it and for
 * the sentence being spoken, then frees the voice and closes its file.
 * NULL is ignored. */
void spk_voice_free (SpkVoice *voice);

/* Asks for `text` (UTF-8; copied) to be said, following the rules above.
 * Never waits for synthesis.  Empty text and NULL are ignored. */
void spk_voice_say (SpkVoice *voice, const char *text, SpkPriority priority);

/* Mute: nothing said while muted; muting drops the waiting sentence. */
void spk_voice_set_muted (SpkVoice *voice, gboolean muted);
gboolean spk_voice_get_muted (SpkVoice *voice);

/* Another espeak-ng voice for the next sentences: a voice name or file
 * ("Spanish (Latin America)", "roa/es-419") or a language ("es-419").
 * FALSE with SPK_VOICE_ERROR_VOICE when espeak-ng has none of that name. */
gboolean spk_voice_set_voice (SpkVoice *voice, const char *name, GError **error);

/* The speed in words per minute, SPK_VOICE_RATE_MIN..MAX; FALSE with
 * SPK_VOICE_ERROR_RATE (and the rate unchanged) outside it. */
gboolean spk_voice_set_rate (SpkVoice *voice, int words_per_minute, GError **error);

/* What the next sentence is said with: the espeak-ng voice name (or
 * language) set last (transfer full), and the rate. */
char *spk_voice_dup_voice (SpkVoice *voice);
int spk_voice_get_rate (SpkVoice *voice);

/* One espeak-ng voice a table may choose. */
typedef struct {
  char *name;          /* "Spanish (Latin America)": what spk_voice_set_voice takes */
  char *identifier;    /* "roa/es-419" */
  char *language;      /* its first language, "es-419" */
} SpkVoiceInfo;

void spk_voice_info_free (SpkVoiceInfo *info);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpkVoiceInfo, spk_voice_info_free)

/* The voices espeak-ng offers whose first language is one of `languages`
 * ("en" takes "en", "en-us", "en-gb-scotland"...), in espeak-ng's order (by
 * language).  Returns a new array of SpkVoiceInfo (transfer full; it frees
 * its items), possibly empty, or NULL with SPK_VOICE_ERROR_ENGINE when
 * espeak-ng cannot start. */
GPtrArray *spk_voice_list (const char *const *languages, GError **error);

/* Whether every sentence so far could be spoken: FALSE with a copy of the
 * first failure (SPK_VOICE_ERROR_SYNTH or _FILE) otherwise.  After a
 * failure the voice says nothing more (the table still reads the screen). */
gboolean spk_voice_check (SpkVoice *voice, GError **error);

/* Blocks until nothing waits and nothing is being spoken (the WAV file then
 * holds every sentence said).  Not for the frame path. */
void spk_voice_flush (SpkVoice *voice);

/* The table's language as gettext picks it (LANGUAGE unless LC_MESSAGES is
 * "C", then LC_MESSAGES): "es", "ca", or "en" for anything else.  Static
 * string. */
const char *spk_table_language (void);

/* ---- for tests: deterministic control of the worker ---- */

/* Called on the worker with each sentence it is about to speak (after the
 * dropping rules), before synthesis. */
typedef void (*SpkSpokenHook) (const char *text, gpointer user_data);
void spk_voice_set_spoken_hook (SpkVoice *voice, SpkSpokenHook hook, gpointer user_data);

/* The clock the rules read (microseconds, monotonic); NULL: g_get_monotonic_time. */
typedef gint64 (*SpkClock) (gpointer user_data);
void spk_voice_set_clock (SpkVoice *voice, SpkClock clock, gpointer user_data);

/* While held the worker takes no sentence (one being spoken finishes). */
void spk_voice_hold (SpkVoice *voice, gboolean held);

typedef struct {
  guint said;        /* sentences spoken (handed to synthesis) */
  guint replaced;    /* waiting sentences replaced by a newer one */
  guint outranked;   /* dropped: a higher-priority sentence was waiting */
  guint stale;       /* dropped because too old when the worker got them */
  guint repeated;    /* dropped as a repeat of the sentence said last */
  guint muted;       /* dropped while muted */
} SpkVoiceStats;
void spk_voice_get_stats (SpkVoice *voice, SpkVoiceStats *stats);

G_END_DECLS

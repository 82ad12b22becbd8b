/* tablero-cli watch: what the referee says besides the events: status
 * lines (exposure, speech that stopped) and the voice of --speak. */
#include "cmd-watch-private.h"

#include <glib/gstdio.h>
#include <stdio.h>

void
watch_print_status (int64_t time_ns, const char *text)
{
  g_autoptr (GString) line = g_string_new (NULL);
  g_string_printf (line, "{\"kind\":\"status\",\"time\":%.3f,\"text\":", time_ns / 1e9);
  cli_json_cstring (line, text);
  printf ("%s}\n", line->str);
}

void
watch_say_exposure (VisExposureMeter *meter, VisSource *source, VisCameraControls *controls,
                    const VisFrame *frame, const VisDetectResult *seen, VisExposureVerdict *said)
{
  VisExposureReading r;
  if (!controls->meter_stickers || controls->exposure != VIS_EXPOSURE_MANUAL)
    return;
  vis_exposure_meter_serve (meter, source, controls, frame, seen->detections, seen->n_detections, &r);
  if (r.verdict != VIS_EXPOSURE_WELL && r.verdict != VIS_EXPOSURE_AT_LIMIT)
    {
      if (r.verdict != VIS_EXPOSURE_SETTLING && r.verdict != VIS_EXPOSURE_NO_STICKERS)
        *said = r.verdict;
      return;
    }
  if (r.verdict == *said)
    return;
  *said = r.verdict;
  char text[160];
  if (r.verdict == VIS_EXPOSURE_WELL)
    g_snprintf (text, sizeof text, "exposure set by the stickers: %.1f ms", r.time / 10.0);
  else
    g_snprintf (text, sizeof text, "exposure set by the stickers: %.1f ms, as far as it goes (%.0f%% of a "
                "sticker's white washed out)", r.time / 10.0, 100.0 * r.clipped);
  watch_print_status (frame->timestamp_ns, text);
}

SpkVoice *
watch_open_voice (const WatchArgs *a, bool *failed)
{
  *failed = false;
#ifdef TABLERO_HAVE_SPEECH
  if (!a->speak && a->speak_wav == NULL)
    return NULL;
  GError *error = NULL;
  SpkVoice *voice = spk_voice_new (a->speak ? SPK_OUTPUT_SOUND : SPK_OUTPUT_WAV, NULL, a->speak_wav,
                                   &error);
  bool made = voice != NULL;
  if (voice != NULL && a->voice != NULL && !spk_voice_set_voice (voice, a->voice, &error))
    g_clear_pointer (&voice, spk_voice_free);
  if (voice != NULL && a->speech_rate > 0 && !spk_voice_set_rate (voice, (int) a->speech_rate, &error))
    g_clear_pointer (&voice, spk_voice_free);
  if (voice == NULL)
    {
      if (made && a->speak_wav != NULL)
        g_unlink (a->speak_wav);   /* the empty file made for a voice then refused */
      cli_say ("watch", "%s: %s", a->speak ? "--speak" : "--speak-wav", error->message);
      g_error_free (error);
      *failed = true;
    }
  return voice;
#else
  (void) a;
  return NULL;
#endif
}

void
watch_check_voice (SpkVoice *voice, bool *reported, int64_t time_ns)
{
#ifdef TABLERO_HAVE_SPEECH
  GError *error = NULL;
  if (voice == NULL || *reported || spk_voice_check (voice, &error))
    return;
  g_autofree char *text = g_strdup_printf ("speech stopped: %s", error->message);
  watch_print_status (time_ns, text);
  g_error_free (error);
  *reported = true;
#else
  (void) voice, (void) reported, (void) time_ns;
#endif
}

void
watch_close_voice (SpkVoice *voice)
{
#ifdef TABLERO_HAVE_SPEECH
  spk_voice_free (voice);
#else
  (void) voice;
#endif
}

/* spk-sentence.c: announcements to utterances. */
#include "spk-sentence.h"

#include <string.h>

const char *
spk_event_sentence (const EngEvent *event)
{
  if (event->kind == ENG_EVENT_ACCEPTED || event->text[0] == '\0')
    return NULL;
  return event->text;
}

SpkPriority
spk_event_priority (const EngEvent *event)
{
  switch (event->kind)
    {
    case ENG_EVENT_ILLEGAL:
    case ENG_EVENT_CONSERVATION:
    case ENG_EVENT_GAME_OVER:
      return SPK_PRIORITY_HIGH;
    default:
      return SPK_PRIORITY_NORMAL;
    }
}

gboolean
spk_utterance_add (GString *utterance, SpkPriority *priority, const EngEvent *event)
{
  const char *sentence = spk_event_sentence (event);
  if (sentence == NULL)
    return FALSE;
  if (utterance->len > 0)
    {
      /* a pause between sentences: a full stop unless one is there */
      char end = utterance->str[utterance->len - 1];
      g_string_append (utterance, strchr (".!?:;", end) != NULL ? " " : ". ");
    }
  g_string_append (utterance, sentence);
  if (spk_event_priority (event) > *priority)
    *priority = spk_event_priority (event);
  return TRUE;
}

char *
spk_events_utterance (const EngEvents *events, SpkPriority *priority)
{
  GString *utterance = g_string_new (NULL);
  *priority = SPK_PRIORITY_NORMAL;
  for (size_t i = 0; i < events->n; i++)
    spk_utterance_add (utterance, priority, &events->items[i]);
  return g_string_free (utterance, FALSE);
}

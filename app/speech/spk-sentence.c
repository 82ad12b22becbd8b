/* spk-sentence.c: announcements to utterances. */
#include "spk-sentence.h"

#include <string.h>

/* Every event but an accepted move's record line ("Bea hit show 26", for
 * the scorekeeper): what the move did follows as events of its own. */
static const char *
sentence_of (EngEventKind kind, const char *text)
{
  if (kind == ENG_EVENT_ACCEPTED || text == NULL || text[0] == '\0')
    return NULL;
  return text;
}

static SpkPriority
priority_of (EngEventKind kind)
{
  switch (kind)
    {
    case ENG_EVENT_ILLEGAL:
    case ENG_EVENT_CONSERVATION:
    case ENG_EVENT_GAME_OVER:
      return SPK_PRIORITY_HIGH;
    default:
      return SPK_PRIORITY_NORMAL;
    }
}

const char *
spk_event_sentence (const EngEvent *event)
{
  return sentence_of (event->kind, event->text);
}

SpkPriority
spk_event_priority (const EngEvent *event)
{
  return priority_of (event->kind);
}

gboolean
spk_utterance_add_text (GString *utterance, SpkPriority *priority, EngEventKind kind, const char *text)
{
  const char *sentence = sentence_of (kind, text);
  if (sentence == NULL)
    return FALSE;
  if (utterance->len > 0)
    {
      /* a pause between sentences: a full stop unless one is there */
      char end = utterance->str[utterance->len - 1];
      g_string_append (utterance, strchr (".!?:;", end) != NULL ? " " : ". ");
    }
  g_string_append (utterance, sentence);
  if (priority_of (kind) > *priority)
    *priority = priority_of (kind);
  return TRUE;
}

gboolean
spk_utterance_add (GString *utterance, SpkPriority *priority, const EngEvent *event)
{
  return spk_utterance_add_text (utterance, priority, event->kind, event->text);
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

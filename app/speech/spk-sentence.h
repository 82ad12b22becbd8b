/* spk-sentence.h: what the referee says aloud, taken from the engine's
 * announcements.
 *
 * Speech says the same public text the screen and tablero-cli's JSON lines
 * show (EngEvent.text, which never names a face-down card: K20, C11, E16),
 * nothing else: the app and the CLI both build their sentences here, so the
 * hidden-card tests of the spoken text test what is really said.  A batch of
 * events (one look at the table, one command) becomes one utterance, so a
 * result and what to do next are not dropped as out of date by each other.
 */
#pragma once

#include <glib.h>

#include "eng-game.h"
#include "spk-voice.h"

/* The words of one event for the table, or NULL for events that are not
 * spoken (an accepted move's record line: its results are spoken as the
 * events that follow it).  Points into the event. */
const char *spk_event_sentence (const EngEvent *event);

/* The priority of an event's words: refusals, contradictions and the end of
 * the game are SPK_PRIORITY_HIGH. */
SpkPriority spk_event_priority (const EngEvent *event);

/* Appends one event's words to `utterance` (a sentence break between
 * sentences) and raises *priority to the event's.  Returns whether
 * anything was appended. */
gboolean spk_utterance_add (GString *utterance, SpkPriority *priority, const EngEvent *event);
/* The same for an event the app received as its kind and text (the
 * referee's ::announce signal). */
gboolean spk_utterance_add_text (GString *utterance, SpkPriority *priority, EngEventKind kind,
                                 const char *text);

/* The utterance of a whole batch of events ("" when none is spoken), and
 * its priority.  Newly allocated (g_free). */
char *spk_events_utterance (const EngEvents *events, SpkPriority *priority);

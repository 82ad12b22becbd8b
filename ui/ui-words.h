/* ui-words.h: what the table reads over the camera picture and on the
 * command buttons, in the table's language.
 *
 * Card sets and zone files are data typed in English ("Cat", "slot-left",
 * "Pass (K3: ...)"); the table reads the words the rest of the app uses
 * instead: a card by the game's own name for it (eng_game_card_name, the
 * name the log and the scoreboard say), a zone by its kind, a deck or a
 * command by the catalogue's word for its id or label (as typed when the
 * catalogue has none).  Plain GLib and the engine: no widget, so tests
 * build it from source. */
#pragma once

#include <glib.h>

#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-snapshot.h"
#include "eng-view.h"

G_BEGIN_DECLS

/* The word for a zone's kind ("slot", "discard pile"), translated; NULL
 * for ENG_ZONE_NONE and kinds without one.  Static string. */
const char *ui_zone_kind_word (EngZoneKind kind);

/* A zone's label over the picture: its kind and number ("slot 2"), then
 * its seat ("slot 2 · seat 1"); `data_name` (the zone file's name) when its
 * kind has no word.  Cut to `size`. */
void ui_words_zone_label (const EngZone *zone, const char *data_name, char *out, gsize size);

/* A short name for a sticker seen with `tag` (its `payload` as read): a
 * face by `game`'s name for the card, with its value when the name does
 * not carry it ("gato rojo 3"); a back by its deck; a command by its label;
 * seats and anchors by number.  `game` may be NULL (no referee): faces are
 * then named by the set's data.  The payload itself when `set` is NULL or
 * does not know the tag.  Cut to `size`. */
void ui_words_sticker_name (const EngCardSet *set, const EngGame *game, const EngTag *tag,
                            const char *payload, char *out, gsize size);

/* A command card's label up to its explanation ("Pass" of "Pass (K3: play
 * nothing this turn)"), translated when the catalogue has it (transfer
 * full). */
char *ui_words_command_label (const EngCommand *command);

/* What the camera picture shows, said for a screen reader: how many
 * stickers are seen and of which kind ("12 stickers seen: 6 card faces,
 * 2 card backs, 4 table markers").  Transfer full. */
char *ui_words_describe_stickers (guint faces, guint backs, guint markers, guint commands);

/* The table map said in words for a screen reader, from the public view
 * only: whose turn, then per player the cards in hand and each place
 * ("Ana's turn. Ana: 3 in hand; slots: 3 face down. Bea: ...; Cat deck:
 * 28."), the face-up cards by `game`'s names with their value from `set`
 * (either may be NULL: the set's names, or no value), a
 * face-down card never named (K20, C11, E16).  Transfer full. */
char *ui_words_describe_view (const EngView *view, const EngCardSet *set, const EngGame *game);

/* Names as a sentence says them: "Ana", "Ana and Bea", "Ana, Bea and
 * Cai" (the last joined by the language's "and").  Transfer full. */
char *ui_words_join_names (const char *const *names, guint n);

/* When `then` was, said from `now` (both local time): "today at 21:40",
 * "yesterday at 21:40", "on Tuesday at 21:40" within the last week, else
 * "on 12/11/2026 at 21:40" (the date as the language writes it).
 * Transfer full. */
char *ui_words_when (GDateTime *then, GDateTime *now);

G_END_DECLS

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

G_END_DECLS

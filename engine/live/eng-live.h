/* eng-live.h: the per-game side of the live referee (docs/interpreter.md).
 *
 * The interpreter (eng-interpreter.h) is written once for every game: it
 * reads snapshots into a list of cards on the table, compares them with its
 * "view" (where every visible card should be, given the moves accepted so
 * far), keeps what the table still has to do (expectations), complaints
 * said once, the undo views, the journal and resume, corrections of
 * misread cards, command cards, keys and buttons.  What a change on the
 * table *means* is the game's: an EngLiveClass, found in the registry by the
 * game's name, turns the changes nothing expected into moves (the physical
 * protocol), says what the table must do after a move, checks the table a
 * game starts from, runs the game's own commands and asks its questions.
 *
 * Game modules (engine/<game>/<game>-live.c) see the interpreter only
 * through the functions below.  Everything they write for people goes
 * through eng_live_say() and friends, in the table's language, and never
 * names a face that is down now (K20, C11, E16).
 */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-record.h"
#include "eng-snapshot.h"
#include "eng-view.h"

typedef struct EngInterpreter EngInterpreter;

#define ENG_LIVE_SERIALS 1000       /* face serials the interpreter tracks */
#define ENG_LIVE_MAX_EXPECT 24
#define ENG_LIVE_MIND_GAME 192      /* bytes of a game's own part of a mind */
#define ENG_LIVE_TEXT 120

/* One card as the view holds it: faces by serial, backs by track id. */
typedef struct {
  char kind;           /* 'F' face or 'B' back */
  uint16_t serial;     /* face serial; for a back, its deck number + 1 */
  uint32_t track;
  EngZone zone;
} EngLiveItem;

typedef enum {
  ENG_LIVE_APPEAR,     /* an item not in the view appeared */
  ENG_LIVE_VANISH,     /* an item of the view is gone (item: as it was) */
  ENG_LIVE_MOVE,       /* from `from` to item.zone */
  ENG_LIVE_FLIP_UP,    /* a back turned face up in place (old_track: the back's) */
  ENG_LIVE_FLIP_DOWN,  /* a face turned face down in place (old_track: the new back's) */
  ENG_LIVE_TURN_OVER,  /* a two-sided card shows its other side (old_serial), maybe moved */
} EngLiveChangeKind;

typedef struct {
  uint8_t kind;        /* EngLiveChangeKind */
  EngLiveItem item;    /* the item as it is now (VANISH: as it was) */
  EngZone from;
  uint32_t old_track;
  uint16_t old_serial; /* TURN_OVER: the side that was up */
  int64_t since;       /* when it came to rest (orders the changes of one look) */
} EngLiveChange;

/* What the table must do, kept until a look shows it done. */
typedef enum {
  ENG_EXPECT_TO_DISCARD,   /* face `serial` must reach a discard pile */
  ENG_EXPECT_TO_PILE,      /* face `serial` must reach the own pile (CAPTURE zone) of
                              zone.seat: a card taken, face up */
  ENG_EXPECT_FACE_DOWN,    /* the card in `zone` must be turned face down again */
  ENG_EXPECT_NEW_BACK,     /* a new face-down card must appear in `zone` */
  ENG_EXPECT_LEAVE,        /* the item must leave the table (into a hand or deck) */
  ENG_EXPECT_TO_ZONE,      /* face `serial` must reach exactly `zone` (any side of a
                              two-sided card counts) */
  ENG_EXPECT_SIDE_UP,      /* two-sided card: side `serial` must be up (anywhere) */
  ENG_EXPECT_KIND_COUNT
} EngExpectKind;

typedef struct {
  uint8_t kind;        /* EngExpectKind */
  char item_kind;      /* LEAVE: 'F' or 'B' */
  uint16_t serial;
  uint32_t track;
  EngZone zone;
  char text[ENG_LIVE_TEXT];
} EngLiveExpect;

/* Everything the table's physical state means to the referee; copied whole
 * onto the undo stack before each accepted move, and journaled.  `game` is
 * the game's own part (pending second steps and the like), ENG_LIVE_MIND_GAME
 * bytes it casts to its own struct: keep it free of pointers, and write it
 * whole (memset) so equal minds compare equal bytewise. */
typedef struct {
  EngLiveItem view[ENG_SNAPSHOT_MAX_ITEMS];
  uint16_t n_view;
  EngLiveExpect expect[ENG_LIVE_MAX_EXPECT];
  uint8_t n_expect;
  uint8_t discarded[ENG_LIVE_SERIALS / 8 + 1];   /* faces that reached a pile */
  uint8_t no_view;     /* undo stack: no view saved for this move (see below) */
  _Alignas (8) unsigned char game[ENG_LIVE_MIND_GAME];
} EngLiveMind;

/* A question naming players that the table answers on screen (or with
 * command cards: confirm takes the first, cancel names the next).  The
 * players are 0-based, the one the question names first. */
typedef struct {
  unsigned n;
  int player[ENG_MAX_PLAYERS];
} EngLiveChoice;

/* Journal notes writer (the game's mind lines). */
typedef struct EngLiveNotes EngLiveNotes;
void eng_live_notes_add (EngLiveNotes *o, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));
/* An item as the journal writes it: KEY KIND SERIAL TRACK ZONE(3). */
void eng_live_notes_item (EngLiveNotes *o, const char *key, const EngLiveItem *v);
/* Reads words[0..7) written by eng_live_notes_item; false when malformed. */
bool eng_live_notes_parse_item (char *const *words, int n_words, EngLiveItem *v);
bool eng_live_notes_zone (const char *const *words, EngZone *z);
/* A game's journal line of whole numbers: `key` and the n values.  Read
 * back: the count of values (at most max, each within lo..hi) when the
 * words are that key's line, -1 otherwise. */
void eng_live_notes_numbers (EngLiveNotes *o, const char *key, const long *values, size_t n);
int eng_live_notes_parse_numbers (char *const *words, int n_words, const char *key, long lo,
                                  long hi, long *values, size_t max);

/* A command card a table may have shown while the referee was away, and
 * the question that asks whether it did, when nothing on the table proves
 * it (English, marked ENG_N_; %s: the player it was asked of): "While the
 * referee was away, did %s end the turn? Confirm, or cancel". */
typedef struct {
  const char *command;
  const char *question;
} EngLiveGapCommand;

typedef struct EngLiveClass EngLiveClass;

struct EngLiveClass {
  const char *name;                /* the EngGameClass name it referees */
  size_t data_size;                /* the game's per-interpreter data (zeroed) */
  /* Zone kinds (bit 1u << EngZoneKind) where a card lies face down and may
   * be turned over in place; where a face may vanish under the next card
   * (piles); and how many indexed places a seat has of SLOT zones (its
   * cards in a row) and of ATTACK zones (n_spots: the spots in front of them where
   * cards are laid at that card), and the centre of CENTRE zones (0: none;
   * an index outside is read as no zone). */
  uint32_t flip_zones;
  uint32_t cover_zones;
  uint8_t n_slots, n_spots, n_centre;
  /* What lies in a slot, for snapshot-script messages ("cat", "card"). */
  const char *slot_noun;
  /* A card turned face up and carried off between two looks: a back
   * leaving a zone of kind `moved_from` while one face appears in a zone of
   * kind `moved_to` reads as the card turned up in place, then moved
   * (0: never; e.g. a card from its slot to a capture area). */
  uint8_t moved_from, moved_to;
  /* The rule id complaints about tidying up cite (cards to the discard
   * pile or a capture area, cards turned back down): "K11". */
  const char *cleanup_rule;
  /* The rule id complaints cite when a card asked to a place or to turn a
   * side up (ENG_EXPECT_TO_ZONE, ENG_EXPECT_SIDE_UP) went elsewhere, e.g.
   * a card moved the wrong way.  NULL: cleanup_rule. */
  const char *place_rule;
  /* The command cards a table may have shown while the referee was away
   * (a restart), likeliest first, ended by { NULL, NULL }: the first look
   * after it is explained with them, and the table is asked about one
   * nothing it shows proves (docs/interpreter.md).  NULL: none. */
  const EngLiveGapCommand *gap_commands;

  /* Fills the game's data (card tables from the set).  ENG_ERR_* refuses. */
  EngStatus (*init) (EngInterpreter *live, void *data);

  /* The first look (or the look after an undo with no saved view) must
   * show the table as the state has it: true when it does; otherwise
   * `why` says what to fix, in words ("take away the red 3 ..."). */
  bool (*baseline_check) (EngInterpreter *live, char *why, size_t size);
  /* The NEED for a new game's table that is not set up yet, and its rule. */
  void (*setup_need) (EngInterpreter *live, const char *why, char *text, size_t size,
                      const char **rule);
  /* Whether the game waits for a freshly dealt table (a new hand's, before
   * its first move): a first look then asks for it with setup_need's words,
   * also after a restart that lost eng_live_new_deal's mark (the journal
   * keeps no view until the table is seen).  May be NULL: only a new game. */
  bool (*deal_start) (const EngInterpreter *live);
  /* After the baseline view is taken: expectations it implies (may be NULL). */
  void (*baseline_done) (EngInterpreter *live);

  /* Each look: begin_look before its changes (may be NULL), `change` for
   * each change no expectation took and no complaint covers, settle after
   * them (also after commands and choices; may be NULL). */
  void (*begin_look) (EngInterpreter *live);
  void (*change) (EngInterpreter *live, const EngLiveChange *c, EngEvents *out);
  void (*settle) (EngInterpreter *live, EngEvents *out);

  /* After a move applied through eng_live_try_apply: what the table must now
   * do, from the state before (`before`, state_size bytes) and after. */
  void (*after_move) (EngInterpreter *live, const void *before, const EngMove *move,
                      EngEvents *out);

  /* The game's commands ("end-turn", "confirm", ...): ENG_OK when handled
   * (refusals are events), ENG_ERR_NOT_FOUND for an id it does not handle. */
  EngStatus (*command) (EngInterpreter *live, const char *id, EngEvents *out);
  /* The question naming players now pending (true), or none; and its
   * answer: ENG_ERR_STATE when nothing is asked, ENG_ERR_INVALID_ARGUMENT
   * for a player out of range (both may be NULL: never asks). */
  bool (*choice) (const EngInterpreter *live, EngLiveChoice *out);
  EngStatus (*choose) (EngInterpreter *live, int player, EngEvents *out);
  /* Says the question now pending again (after a restart: the table's
   * answer while the referee was away is not known) and returns true;
   * false when nothing is asked.  May be NULL: never asks. */
  bool (*ask_again) (EngInterpreter *live, EngEvents *out);

  /* The command id that makes `move` ("end-turn"), for "show again" after
   * a correction took it back; NULL when the table makes it with cards. */
  const char *(*command_of_move) (const EngMove *move);
  /* Where a zone is, in words ("Ana's slot 1"); NULL: the generic words. */
  void (*zone_words) (const EngInterpreter *live, EngZone z, char *buf, size_t size);
  /* The same as a place something lies at ("in Ana's slot 1", "on the
   * discard pile"), for "the Defuse in Ana's play area"; NULL: the
   * generic words. */
  void (*zone_at_words) (const EngInterpreter *live, EngZone z, char *buf, size_t size);
  /* A face-down card of deck `deck` lying `where` (at-words: "in Ana's
   * slot 1"), in words ("the face-down cat card in Ana's slot 1"); NULL:
   * generic words. */
  void (*back_words) (const EngInterpreter *live, unsigned deck, const char *where, char *buf,
                      size_t size);
  /* Adds what only the live referee knows to the public view (whose answer
   * it waits for); may be NULL. */
  void (*view) (const EngInterpreter *live, EngView *view);

  /* The game's part of a mind: whether a card waits for its second step;
   * journal lines (written between the view/expectations and the discard
   * lines) and their reading (true: a line of the game's, read); a face
   * renamed by a correction; track ids forgotten after a restart. */
  bool (*pending) (const EngLiveMind *m);
  void (*mind_notes) (const EngLiveMind *m, EngLiveNotes *o);
  bool (*mind_parse) (EngLiveMind *m, char *const *words, int n_words);
  /* Or, with mind_notes and mind_parse NULL: the first mind_size bytes of
   * the game's part of a mind are the core's to journal (one line "m HEX",
   * while they are not all zero), and mind_valid (may be NULL) says whether
   * bytes read back make a mind the game can use (a tampered journal's are
   * refused). */
  size_t mind_size;
  bool (*mind_valid) (const EngLiveMind *m);
  void (*mind_rename) (EngLiveMind *m, uint16_t from, uint16_t to);
  void (*mind_forget) (EngLiveMind *m, uint32_t (*forget) (uint32_t track));
};

/* The live class of a game (registry), NULL when it has none. */
const EngLiveClass *eng_live_class_find (const char *name);

/* ---- for game modules: the interpreter they work in -------------------- */

EngGame *eng_live_game (const EngInterpreter *live);
const void *eng_live_state (const EngInterpreter *live);
const void *eng_live_rules (const EngInterpreter *live);
const EngCardSet *eng_live_set (const EngInterpreter *live);
void *eng_live_data (const EngInterpreter *live);
const EngRecord *eng_live_record (const EngInterpreter *live);
/* The current mind (view, expectations, the game's part). */
EngLiveMind *eng_live_mind (EngInterpreter *live);
const EngLiveMind *eng_live_mind_const (const EngInterpreter *live);
/* The game's part of the current mind. */
void *eng_live_mind_game (EngInterpreter *live);
const void *eng_live_mind_game_const (const EngInterpreter *live);

const char *eng_live_player_name (const EngInterpreter *live, int player);   /* "?" */
int eng_live_seat_of (const EngInterpreter *live, int player);
int eng_live_player_of_seat (const EngInterpreter *live, int seat);           /* -1 */
unsigned eng_live_n_players (const EngInterpreter *live);
EngZone eng_live_zone (int kind, int seat, int index);
bool eng_live_zone_eq (EngZone a, EngZone b);
/* The rules' card index of a face serial (ENG_CARD_NONE when the set has
 * none such), for a game whose rules the core builds (they begin with an
 * EngCardTable, EngGameClass.rules_size). */
uint8_t eng_live_card_index (const EngInterpreter *live, uint16_t serial);
/* The deck index of a face serial (0 when unknown). */
unsigned eng_live_deck_of (const EngInterpreter *live, uint16_t serial);

/* Words, in the table's language, only ever for faces that are up. */
void eng_live_face_name (const EngInterpreter *live, uint16_t serial, bool definite, char *buf,
                         size_t size);
/* The words printed on command card `id` ("End of turn"), in the table's
 * language: its set's label without the note in brackets; the id when the
 * set has no such card. */
void eng_live_command_words (const EngInterpreter *live, const char *id, char *buf, size_t size);
/* "Put the red 3, the Shield and the other red 3 on the discard pile":
 * the `n` faces `serials` (n >= 1) in one sentence, in the table's
 * language, into `buf`; more than three as "Put the 5 played cards on the
 * discard pile" (one breath). */
void eng_live_discard_words (const EngInterpreter *live, const uint16_t *serials, int n, char *buf,
                             size_t size);
void eng_live_zone_words (const EngInterpreter *live, EngZone z, char *buf, size_t size);
/* Where a card lies, as said after its name: "in Ana's slot 1", "in front
 * of Bea's slot 2", "on the discard pile" (the class's zone_at_words). */
void eng_live_zone_at_words (const EngInterpreter *live, EngZone z, char *buf, size_t size);
/* "the red 3 (Ana's slot 1)" or "the face-down card (...)"; returns buf. */
const char *eng_live_item_words (const EngInterpreter *live, const EngLiveItem *item, char *buf,
                                 size_t size);
/* An event whose text is `fmt` (English, marked ENG_N_ at the call),
 * translated and formatted only when `out` is not NULL. */
EngEvent *eng_live_say (EngEvents *out, EngEventKind kind, int player, const char *rule,
                        const char *fmt, ...) __attribute__ ((format (printf, 5, 6)));
/* Whether the face of `serial` is up on the table in the latest look. */
bool eng_live_face_visible (const EngInterpreter *live, unsigned serial);
/* The latest look: number of items and item i (faces corrected). */
size_t eng_live_n_table (const EngInterpreter *live);
const EngLiveItem *eng_live_table_item (const EngInterpreter *live, size_t i);

/* The view of a mind. */
int eng_live_view_find (const EngLiveMind *m, char kind, uint16_t serial, uint32_t track);
int eng_live_view_find_at (const EngLiveMind *m, EngZone z);
void eng_live_view_add (EngLiveMind *m, const EngLiveItem *item);
void eng_live_view_remove_at (EngLiveMind *m, int index);
void eng_live_mark_discarded (EngLiveMind *m, uint16_t serial);
void eng_live_unmark_discarded (EngLiveMind *m, uint16_t serial);
bool eng_live_was_discarded (const EngLiveMind *m, uint16_t serial);

/* Adds an expectation (its text still empty) unless the same is already
 * there or the list is full (NULL). */
EngLiveExpect *eng_live_expect_add (EngLiveMind *m, EngExpectKind kind, uint16_t serial,
                                    uint32_t track, EngZone zone);
/* The table must take face `card` away from where it lies; the
 * expectation reads as `fmt` says (English, marked ENG_N_). */
void eng_live_expect_face_leaves (EngInterpreter *live, uint16_t card, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
/* When the table still has things to do: says "First: ..." and true. */
bool eng_live_expectations_block (EngInterpreter *live, EngEvents *out);

/* The view takes a change as it is. */
void eng_live_accept (EngInterpreter *live, const EngLiveChange *c);
/* Whether an expectation takes change `c` (then the view takes it too). */
bool eng_live_match_expectation (EngInterpreter *live, const EngLiveChange *c, EngEvents *out);

/* A difference the referee cannot justify: said once (until the table
 * changes it), not applied.  `fmt` English, marked ENG_N_ at the call. */
void eng_live_refuse (EngInterpreter *live, const EngLiveChange *c, EngEvents *out,
                      EngEventKind kind, const char *rule, const char *fmt, ...)
  __attribute__ ((format (printf, 6, 7)));
/* Marks `c` as complained about without saying anything. */
void eng_live_complaint_add (EngInterpreter *live, const EngLiveChange *c);
/* The rules refused a card: "Take back X: it was not accepted". */
void eng_live_take_back (EngInterpreter *live, const EngLiveChange *c, EngEvents *out);

/* Applies `move`; on success the view takes `c` (may be NULL), the move is
 * recorded and journaled, the undo view saved, and the class's after_move
 * says what follows.  On refusal nothing changes and the rules' ILLEGAL
 * event is in `out`. */
bool eng_live_try_apply (EngInterpreter *live, const EngMove *move, const EngLiveChange *c,
                         EngEvents *out);
/* A card waits for its second step: remembers the mind before it (undo
 * goes back there) and the view takes `c` (may be NULL).  Call before
 * setting the game's pending state. */
void eng_live_begin_pending (EngInterpreter *live, const EngLiveChange *c);
/* Completes the pending move (the game has cleared its pending state):
 * as eng_live_try_apply, and undo then goes back to before the card was
 * laid.  On refusal the mind is as it was before the call. */
bool eng_live_complete_pending (EngInterpreter *live, const EngMove *move,
                                const EngLiveChange *c, EngEvents *out);

/* The game dealt afresh (a new hand): the table is gathered and set up
 * again, so the next look is a baseline, checked as a new game's is
 * (baseline_check, with setup_need's words).  The view, expectations and
 * the game's part of the mind are cleared; undo still goes back. */
void eng_live_new_deal (EngInterpreter *live);

/* ---- for game modules: typed access and questions --------------------- */

/* Defines a game's typed accessors in its live files' private header:
 * PREFIX_state (it), PREFIX_rules (it) and PREFIX_data (it) (const), its
 * part of the current mind PREFIX_mind (it), and of any mind
 * PREFIX_mind_of (m); checks that Mind fits a mind.
 *
 *   ENG_LIVE_DEFINE_ACCESSORS (esc_live, EscState, EscRules, EscLiveMind, EscLive)
 */
#define ENG_LIVE_DEFINE_ACCESSORS(prefix, State, Rules, Mind, Data)                         \
  _Static_assert (sizeof (Mind) <= ENG_LIVE_MIND_GAME, #Mind " fits a mind");               \
  static inline const State *prefix##_state (const EngInterpreter *it)                      \
  { return (const State *) eng_live_state (it); }                                           \
  static inline const Rules *prefix##_rules (const EngInterpreter *it)                      \
  { return (const Rules *) eng_live_rules (it); }                                           \
  static inline const Data *prefix##_data (const EngInterpreter *it)                        \
  { return (const Data *) eng_live_data (it); }                                             \
  static inline Mind *prefix##_mind (EngInterpreter *it)                                    \
  { return (Mind *) eng_live_mind_game (it); }                                              \
  static inline const Mind *prefix##_mind_of (const EngLiveMind *m)                         \
  { return (const Mind *) (const void *) m->game; }

/* A question that names one candidate at a time, so command cards alone
 * answer it: "Is it Bea's? Confirm, or cancel to ask about Cai".  The
 * game keeps `named` in its mind and lists the candidates afresh (players
 * in the order cancel names them).
 * eng_live_ask_named: the candidate named now: `named` when it is one of
 * cand[0..n), else the first (-1 when n is 0).  eng_live_ask_next: the one
 * after it, wrapping (what cancel names).  eng_live_ask_choice: the
 * question for buttons (EngLiveClass.choice): the named one first, then in
 * the order cancel names them; false when n is 0. */
int eng_live_ask_named (const int *cand, size_t n, int named);
int eng_live_ask_next (const int *cand, size_t n, int named);
bool eng_live_ask_choice (const int *cand, size_t n, int named, EngLiveChoice *out);

/* The undo stack's newest saved mind (NULL when empty), and a note that it
 * changed (so the journal writes it again). */
EngLiveMind *eng_live_memo_top (EngInterpreter *live);
void eng_live_memo_changed (EngInterpreter *live);

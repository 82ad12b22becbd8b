/* eng-game.h: the generic referee core shared by every game.
 *
 * A game is an EngGameClass (a table of functions, found by name in the
 * registry) plus three kinds of data:
 *   - rules: built once from a card set and the option switches; immutable,
 *     shared by any number of states;
 *   - state: a fixed-size value struct (no pointers, no heap) holding where
 *     every physical card is, so it copies with memcpy (undo, search);
 *   - moves and events: small value structs in and out.
 * EngGame bundles the three with an undo history for callers that want one
 * object; the bench and the random simulator call the class directly.
 *
 * Knowledge model (docs/engine.md): every place holds card indices; a card
 * the referee has not seen is the token ENG_CARD_UNKNOWN.  A game dealt from
 * a seed knows every card (simulation); a live table starts with unknown
 * tokens that become known when the table shows a face.  The same rules code
 * serves both: whenever a rule needs a hidden identity the move must carry
 * the observed face (`show`), or the move is refused.
 */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eng-cardset.h"
#include "eng-rng.h"
#include "eng-status.h"

#define ENG_MAX_PLAYERS 6
#define ENG_NAME_MAX 32          /* player names in UTF-8 bytes, NUL included (eng-name.h) */
#define ENG_MOVE_MAX_CARDS 8       /* a card and up to 8 more (a capture of small cards) */
#define ENG_SERIAL_UNKNOWN 0xFFFF  /* "?" in a record: a card nobody saw */

/* A move or an observation, as the table does it.  Field meaning per verb is
 * the game's (docs/record-format.md lists them); unused fields are -1 / 0. */
typedef struct {
  uint8_t verb;                   /* game-specific verb number */
  int8_t player;                  /* who acts, 0-based seat order */
  int8_t target[2];               /* players named in the move, -1 none */
  int8_t slot[2];                 /* their positions, 0-based, -1 none */
  uint16_t card;                  /* main card's serial, 0 none */
  uint16_t cards[ENG_MOVE_MAX_CARDS]; /* further cards (serials) */
  uint8_t n_cards;
  uint16_t show;                  /* serial of a face the table showed, 0 none */
} EngMove;

/* Initialises a move for `verb` by `player` with every other field empty. */
void eng_move_init (EngMove *move, unsigned verb, int player);

/* What the referee says, in words any game's table understands: cards,
 * places, players and points.  The kinds' names (eng_event_kind_to_string)
 * and the fields each carries are the public JSON format of `replay` and
 * `watch` (docs/record-format.md). */
typedef enum {
  ENG_EVENT_ACCEPTED,      /* the move is legal and applied */
  ENG_EVENT_ILLEGAL,       /* refused: text = reason, rule = rule id */
  ENG_EVENT_NEED,          /* what the table must do next (plain words) */
  ENG_EVENT_SHOWN,         /* a face was shown to everyone: value = serial */
  ENG_EVENT_TAKEN,         /* player takes face-up card `value` (serial) into their
                              own pile or capture area (the card led, when several);
                              "capture" in the JSON lines */
  ENG_EVENT_STAYED,        /* a card a move aimed at stays where it was (value);
                              "escape" in the JSON lines */
  ENG_EVENT_SCORE,         /* player's score is now value (delta) */
  ENG_EVENT_DEALT,         /* cards given out ("refill"): counts[p][d] to player p from the
                              set's deck d (its `deck` lines' order) */
  ENG_EVENT_RESHUFFLE,     /* a discard pile became a deck */
  ENG_EVENT_RETURN,        /* a card goes back to its owner's hand */
  ENG_EVENT_TURN,          /* player's turn begins */
  ENG_EVENT_GAME_OVER,     /* winners bitmask, tiebreak names the rule used */
  ENG_EVENT_CONSERVATION,  /* an observation contradicts where cards are */
  ENG_EVENT_NOTE,          /* anything else the table should read */
  ENG_EVENT_KIND_COUNT
} EngEventKind;

#define ENG_EVENT_DECKS 2   /* decks a REFILL counts per player */

/* "accepted", "illegal", ...; "unknown" otherwise. */
const char *eng_event_kind_to_string (EngEventKind kind);

typedef struct {
  EngEventKind kind;
  int8_t player;           /* -1 when none */
  int8_t other;            /* second player involved, -1 when none */
  int16_t value;
  int16_t delta;
  uint8_t counts[ENG_MAX_PLAYERS][ENG_EVENT_DECKS];
  uint16_t winners;        /* bit p set: player p wins (shared when >1) */
  char rule[8];            /* stable rule id, e.g. "K12"; "" when none */
  char tiebreak[24];       /* game over: "score", "authentic-ranks", ... */
  char text[200];          /* plain English; never names a hidden card */
} EngEvent;

/* Caller-owned event buffer.  Events past `cap` are counted in `dropped`.
 * Rules functions accept NULL for "no events" (the fast simulation path
 * formats no text at all). */
typedef struct {
  EngEvent *items;
  size_t n;
  size_t cap;
  size_t dropped;
} EngEvents;

void eng_events_init (EngEvents *events, EngEvent *storage, size_t cap);
/* Appends one event and returns it zeroed (player/other -1), or NULL when
 * events is NULL or full. */
EngEvent *eng_events_add (EngEvents *events, EngEventKind kind);
/* The same with the acting player (-1 none) and a va_list, for games and
 * tools that wrap it in their own printf-style helper. */
EngEvent *eng_events_vaddf (EngEvents *events, EngEventKind kind, int player, const char *rule,
                            const char *fmt, va_list ap) __attribute__ ((format (printf, 5, 0)));
/* Capitalizes sentence `text`, made by formatting `fmt` with `ap`, as
 * eng_i18n_capitalize does, unless it starts with a player's name (a first
 * argument that is one name-shaped word, or a name-shaped word before a
 * colon): names are said as written ("àngel: ...").  `ap` is only copied. */
void eng_text_capitalize (char *text, const char *fmt, va_list ap);
EngEvent *eng_events_addf (EngEvents *events, EngEventKind kind, const char *rule,
                           const char *fmt, ...) __attribute__ ((format (printf, 4, 5)));

/* Option switches: "name = value" pairs (docs/engine.md).  Fixed capacity. */
#define ENG_MAX_OPTIONS 32
typedef struct {
  char name[32];
  char value[32];
} EngOption;

typedef struct {
  EngOption items[ENG_MAX_OPTIONS];
  size_t n;
} EngOptions;

/* Parses an options file text: lines "name = value", '#' comments, blank
 * lines.  Later lines override earlier ones with the same name.  Returns
 * ENG_ERR_SYNTAX (err filled) or ENG_ERR_LIMIT. */
EngStatus eng_options_parse (const char *text, size_t len, const char *source,
                             EngOptions *out, EngParseError *err);
EngStatus eng_options_load_file (const char *path, EngOptions *out, EngParseError *err);
/* Sets or replaces one option; ENG_ERR_LIMIT when full, ENG_ERR_INVALID_ARGUMENT
 * for names or values that do not fit. */
EngStatus eng_options_set (EngOptions *opts, const char *name, const char *value);
/* NULL when absent. */
const char *eng_options_get (const EngOptions *opts, const char *name);

/* A game's switch, for eng_options_read: `yes`/`no`, one of a list of
 * words, or a whole number in a range. */
typedef enum { ENG_OPTION_YESNO, ENG_OPTION_CHOICE, ENG_OPTION_NUMBER } EngOptionKind;
typedef struct {
  const char *name;
  EngOptionKind kind;
  const char *choices;     /* CHOICE: the values, separated by spaces */
  int def;                 /* YESNO 0/1, CHOICE an index, NUMBER the number */
  int lo, hi;              /* NUMBER: the range */
  size_t offset;           /* rules built by the core: the int field it goes to */
} EngOptionSpec;

/* A card attribute a class's rules hold per card, for rules the core
 * builds: an enum (`values`, words separated by spaces: its position into
 * a uint8_t array) or an integer (`values` NULL: lo..hi into an int8_t
 * array), at `offset` in the rules struct. */
typedef struct {
  const char *key;
  const char *values;
  int lo, hi;
  size_t offset;
} EngAttrSpec;

/* Reads every switch of `specs` from `options` (NULL: all defaults) into
 * values[i].  A switch no spec names is refused (ENG_ERR_UNKNOWN_ATTRIBUTE),
 * a value its kind does not take too (ENG_ERR_SYNTAX); `err` says which and
 * `game` (the title) is named in the message. */
EngStatus eng_options_read (const EngOptions *options, const EngOptionSpec *specs, size_t n,
                            const char *game, int *values, EngParseError *err);

/* A table's setup, from a record header (or built by a caller). */
#define ENG_MAX_DEALS 16
#define ENG_DEAL_MAX_CARDS 128
typedef struct {
  char place[16];          /* game-specific: a place the game names ("hand", "pile", a deck id) */
  int8_t player;           /* -1 for shared places */
  uint16_t cards[ENG_DEAL_MAX_CARDS];  /* serials, ENG_SERIAL_UNKNOWN allowed */
  uint16_t n_cards;
} EngDeal;

typedef struct {
  unsigned n_players;
  char names[ENG_MAX_PLAYERS][ENG_NAME_MAX];
  uint8_t seats[ENG_MAX_PLAYERS];   /* seat marker numbers; 0 unknown */
  int first;                        /* first player, -1: not said */
  int last_winner;                  /* winner of the previous game, -1 */
  bool has_seed;                    /* true: the engine deals (knows all) */
  uint64_t seed;
  EngDeal deals[ENG_MAX_DEALS];
  size_t n_deals;
} EngSetup;

void eng_setup_init (EngSetup *setup);

/* Why a move is refused: a plain-English reason and the stable rule id. */
typedef struct {
  char rule[8];
  char reason[200];
} EngVerdict;

/* What a verb's move carries, for a class that describes its verbs as data
 * instead of writing move_shape_ok: cards (the main one and the further
 * ones together), players named (each may have a slot when `slots`),
 * whether `show N` and '?' (a card nobody saw) are allowed. */
typedef struct {
  uint8_t min_cards, max_cards;
  uint8_t players;
  bool slots, show, unseen;
} EngVerbShape;

typedef struct EngGameClass EngGameClass;
struct EngView;   /* eng-view.h */
struct EngPlay;   /* eng-play.h */

struct EngGameClass {
  const char *name;                 /* registry name: lowercase, data/cards/NAME.set */
  const char *title;                /* as the box spells it (not translated) */
  unsigned min_players, max_players;
  size_t state_size;
  const char *const *verbs;         /* verb names indexed by verb number */
  size_t n_verbs;

  /* Builds the immutable rules from the set and options.  On failure the
   * reason goes to err and *out stays NULL. */
  EngStatus (*rules_new) (const EngCardSet *set, const EngOptions *options,
                          void **out, EngParseError *err);
  void (*rules_free) (void *rules);

  /* Or, with rules_new and rules_free NULL, the core builds them (callers
   * go through eng_game_class_rules_new): a zeroed struct of rules_size
   * bytes that begins with an EngCardTable of the set's faces (at most
   * max_cards), the attributes `attrs` read per face and the switches
   * `options` read into its int fields; then rules_check (may be NULL)
   * completes it or refuses the set with `err`. */
  size_t rules_size;
  unsigned max_cards;
  const EngAttrSpec *attrs;
  size_t n_attrs;
  const EngOptionSpec *options;
  size_t n_options;
  EngStatus (*rules_check) (void *rules, EngParseError *err);

  /* Fills `state` (state_size bytes) for a new game. ENG_ERR_INVALID_ARGUMENT
   * / ENG_ERR_CONSERVATION with a reason in `why` on a bad setup. */
  EngStatus (*setup) (const void *rules, const EngSetup *setup, const EngRng *rng,
                      void *state, EngEvents *events, EngVerdict *why);

  /* Every legal move (up to max; returns the total count, which may exceed
   * max).  Moves needing an unseen identity are listed only when known. */
  size_t (*legal_moves) (const void *rules, const void *state, EngMove *out, size_t max);

  /* ENG_OK, or ENG_ERR_ILLEGAL / ENG_ERR_CONSERVATION with `why` filled. */
  EngStatus (*check) (const void *rules, const void *state, const EngMove *move,
                      EngVerdict *why);

  /* Checks then applies; the state is unchanged when refused.  Emits
   * accepted/illegal and consequences into `events` (may be NULL). */
  EngStatus (*apply) (const void *rules, void *state, const EngMove *move,
                      EngEvents *events, EngVerdict *why);

  /* Instead of apply and check (leave both NULL): the move itself, applied
   * to the scratch copy the core's transaction hands over with the
   * players' names (eng-play.h); callers go through eng_game_class_apply.
   * Or `plays`, one function per verb (play NULL).  A class whose state
   * begins with an EngPlayHeader gets a move after the end refused for it
   * (ENG_ERR_STATE, rule `over_rule`). */
  EngStatus (*play) (struct EngPlay *play, const EngMove *move);
  EngStatus (*const *plays) (struct EngPlay *play, const EngMove *move);
  const char *over_rule;
  /* With `play`: true when play itself refuses, in the game's own words, a
   * move by a player, at a target or with a verb the table does not have;
   * false: the core does ("no such player", "unknown move", rule "turn"). */
  bool play_checks_shape;

  /* The four queries below may be NULL when the state starts with an
   * EngPlayHeader (eng-play.h) the game keeps up to date: the core reads
   * it (callers go through eng_game_class_score and friends). */
  int (*score) (const void *rules, const void *state, unsigned player);
  bool (*is_over) (const void *rules, const void *state);
  /* Bitmask of winners (0 while the game goes on); tiebreak may be NULL. */
  unsigned (*winners) (const void *rules, const void *state, const char **tiebreak);
  /* Whose decision the table waits for (-1 when over). */
  int (*to_move) (const void *rules, const void *state);

  /* ENG_OK or ENG_ERR_CONSERVATION with the reason. */
  EngStatus (*check_conservation) (const void *rules, const void *state, EngVerdict *why);

  /* Whether a move has the arguments its verb needs, independent of any
   * state (a record line failing this is malformed, not illegal).  NULL:
   * `shapes` says it (callers go through eng_game_class_move_shape_ok). */
  bool (*move_shape_ok) (const EngMove *move, char *reason, size_t size);
  const EngVerbShape *shapes;       /* per verb, or NULL */

  /* What everyone at the table may see (eng-view.h): `view` comes cleared
   * by eng_view_init with n_players and names set from `setup`; the game
   * fills scores, public cards and counts, whose turn, the phase in words
   * and its own panels.  Never a face that is down now. */
  void (*public_view) (const void *rules, const void *state, const EngSetup *setup,
                       struct EngView *view);

  /* A card's name in the table's language ("red 3", "Attack"), or with
   * `definite` its definite article too ("the red 3": Catalan's article
   * depends on the name).  Callers name only faces that are up now (K20);
   * an unknown serial gives "card N". */
  void (*card_name) (const void *rules, unsigned serial, bool definite, char *buf, size_t size);

  /* Whether card `serial` lies open for all to see now: face up in play, on
   * a discard or played pile, in a capture area.  False for a card face down
   * now, in a hand or a deck, even one the referee saw earlier (K20, C11,
   * E16), and for a serial the set does not have.  What the screen, speech
   * and exports may still name: an old announcement naming a card for which
   * this is false is shown redacted. */
  bool (*card_public) (const void *rules, const void *state, unsigned serial);

  /* A random legal move drawn with `rng` (simulators, the bench); false when
   * there is none.  NULL: callers draw uniformly from legal_moves. */
  bool (*random_move) (const void *rules, const void *state, EngRng *rng, EngMove *out);

  /* The move as the table may read it in announcements and events: a card
   * that passed face down (a Favor's card, E16) becomes ENG_SERIAL_UNKNOWN.
   * `state` is the state before the move.  NULL: every card of a move is
   * open. */
  void (*public_move) (const void *rules, const void *state, EngMove *move);
};

/* Registry: the classes compiled in.  NULL for an unknown name. */
const EngGameClass *eng_game_class_find (const char *name);
size_t eng_game_class_count (void);
const EngGameClass *eng_game_class_get (size_t index);
/* "NAME, NAME, ...": the registry's names for a message, into buf
 * (cut to fit). */
void eng_game_class_names (char *buf, size_t size);

/* Verb number for a name, -1 when the class has none such. */
int eng_game_class_verb (const EngGameClass *klass, const char *name);

/* The class's apply / check, or the core's transaction around its `play`
 * (eng-play.h) with the names of `setup` (may be NULL: names "?"). */
EngStatus eng_game_class_apply (const EngGameClass *klass, const void *rules,
                                const EngSetup *setup, void *state, const EngMove *move,
                                EngEvents *events, EngVerdict *why);
EngStatus eng_game_class_check (const EngGameClass *klass, const void *rules,
                                const EngSetup *setup, const void *state, const EngMove *move,
                                EngVerdict *why);
/* The class's rules_new / rules_free, or the core's building from its
 * specs (see EngGameClass.rules_size). */
EngStatus eng_game_class_rules_new (const EngGameClass *klass, const EngCardSet *set,
                                    const EngOptions *options, void **out, EngParseError *err);
void eng_game_class_rules_free (const EngGameClass *klass, void *rules);

/* The class's queries, or the core's reading of the state's EngPlayHeader
 * when the class has none (and its verb shapes for move_shape_ok). */
int eng_game_class_score (const EngGameClass *klass, const void *rules, const void *state,
                          unsigned player);
bool eng_game_class_is_over (const EngGameClass *klass, const void *rules, const void *state);
unsigned eng_game_class_winners (const EngGameClass *klass, const void *rules, const void *state,
                                 const char **tiebreak);
int eng_game_class_to_move (const EngGameClass *klass, const void *rules, const void *state);
bool eng_game_class_move_shape_ok (const EngGameClass *klass, const EngMove *move, char *reason,
                                   size_t size);

/* EngGame: rules + state + undo history, one object. */
typedef struct EngGame EngGame;

/* Builds rules from set/options and a state from setup.  *out owns a new
 * game (eng_game_free); the set must outlive it.  On error *out is NULL and
 * `why` says why. */
EngStatus eng_game_new (const EngGameClass *klass, const EngCardSet *set,
                        const EngOptions *options, const EngSetup *setup,
                        const EngRng *rng, EngEvents *events, EngGame **out,
                        EngVerdict *why);
void eng_game_free (EngGame *game);

const EngGameClass *eng_game_class (const EngGame *game);
const void *eng_game_rules (const EngGame *game);
const void *eng_game_state (const EngGame *game);
const EngSetup *eng_game_setup (const EngGame *game);

/* Applies a move, keeping the previous state for undo. */
EngStatus eng_game_apply (EngGame *game, const EngMove *move, EngEvents *events,
                          EngVerdict *why);
EngStatus eng_game_check (const EngGame *game, const EngMove *move, EngVerdict *why);
/* Restores the state before the last applied move; ENG_ERR_STATE when there
 * is nothing to undo.  Any depth. */
EngStatus eng_game_undo (EngGame *game);
size_t eng_game_history_depth (const EngGame *game);
size_t eng_game_legal_moves (const EngGame *game, EngMove *out, size_t max);
int eng_game_score (const EngGame *game, unsigned player);
bool eng_game_is_over (const EngGame *game);
unsigned eng_game_winners (const EngGame *game, const char **tiebreak);
int eng_game_to_move (const EngGame *game);
EngStatus eng_game_check_conservation (const EngGame *game, EngVerdict *why);
/* A card's name in the table's language (EngGameClass.card_name). */
void eng_game_card_name (const EngGame *game, unsigned serial, bool definite, char *buf,
                         size_t size);
/* EngGameClass.card_public for the game now; false for a class without it. */
bool eng_game_card_public (const EngGame *game, unsigned serial);
/* The game's public view (eng-view.h) into caller-owned `view`. */
void eng_game_public_view (const EngGame *game, struct EngView *view);

/* A random legal move for the class's rules and state: the class's own
 * random_move, else one drawn uniformly from legal_moves.  false when there
 * is none (the game is over). */
bool eng_game_class_random_move (const EngGameClass *klass, const void *rules, const void *state,
                                 EngRng *rng, EngMove *out);

/* eng-live-private.h: the interpreter's insides, shared by its own files
 * (eng-interpreter.c, eng-live-table.c, eng-live-journal.c,
 * eng-live-correct.c) and nothing else.  Games see eng-live.h only. */
#pragma once

#include <glib.h>

#include "eng-interpreter.h"
#include "eng-live.h"

#define LIVE_MAX_COMPLAINTS 32
#define LIVE_MAX_CHANGES (2 * ENG_SNAPSHOT_MAX_ITEMS)
#define LIVE_NOTES_MAX 32768
#define LIVE_JOURNAL_UNDO 8      /* saved views kept in the journal */
#define LIVE_RESUME_LOOKS 12     /* looks not read after a resume before reading anyway */
/* nor for longer than this much frame time: meanwhile the table plays on,
 * and a look read later would hold several moves at once */
#define LIVE_RESUME_WAIT_NS (1500 * 1000 * 1000LL)
#define LIVE_MAX_COMMANDS 16
/* after a restart, the looks of this much frame time may show what the
 * table did meanwhile (the tracker finds the cards a few at a time) */
#define LIVE_CATCH_UP_NS (5000 * 1000 * 1000LL)

typedef struct {
  uint8_t kind;                  /* EngLiveChangeKind */
  char item_kind;
  uint16_t serial;
  uint32_t track;
  EngZone zone;
  bool seen;
} Complaint;

struct EngLiveNotes {
  char *buf;
  size_t n, size;
  bool full;
};

struct EngInterpreter {
  EngGame *game;
  const EngCardSet *set;
  const EngLiveClass *klass;
  void *data;                    /* the game's, data_size bytes */
  unsigned char *before;         /* state_size bytes: the state before a move */
  uint8_t deck_of[ENG_LIVE_SERIALS];
  bool started, restoring, paused;
  EngLiveMind mind;
  EngLiveMind pend_start;        /* the mind before the pending card was laid */
  GArray *memo;                  /* of EngLiveMind, one per applied move */
  EngRecord *record;
  Complaint complaints[LIVE_MAX_COMPLAINTS];
  size_t n_complaints;
  unsigned complaints_made;      /* complaints ever added (a step of a catch-up made none) */
  uint16_t commands_seen[LIVE_MAX_COMMANDS];   /* command serials in the previous look */
  size_t n_commands_seen;
  /* the last "set up the table" NEED said before the baseline: said again
   * only when its text changes, not on every snapshot */
  char setup_need[320];
  /* misreads corrected: a face read as `seen` is taken for `actual` */
  struct {
    uint16_t seen, actual;
    char seen_payload[ENG_SNAPSHOT_PAYLOAD], actual_payload[ENG_SNAPSHOT_PAYLOAD];
  } corr[ENG_RECORD_MAX_CORRECTIONS];
  size_t n_corr;
  /* the record's first n_unsaved moves have no saved view (made before a
   * restart); memo holds one mind per later move */
  size_t n_unsaved;
  bool pend_start_known;         /* pend_start is the mind before the pending card */
  bool resume_journal;           /* the journal's table notes are the mind to go on from */
  unsigned resume_looks;         /* looks not read yet after resuming */
  int64_t resume_first_ns;       /* frame time of the first look after resuming, -1 before */
  uint64_t resume_seq;           /* EngSnapshot.seq of the latest look while resuming */
  int64_t resume_change_ns;      /* frame time it was first seen */
  int64_t away_ns;               /* eng_interpreter_set_away */
  bool catch_up;                 /* looks until catch_up_until_ns may hold a gap's moves */
  int64_t catch_up_until_ns;     /* 0: never armed */
  /* a command card the story of a gap needed and nothing on the table
   * proves: the table is asked, and no look is read until it answers */
  const EngLiveGapCommand *gap_asked;   /* NULL: nothing asked */
  int gap_player;                /* whom it was asked of */
  bool asked_again;              /* a question pending at the restart was asked again */
  bool restoring_journaled;      /* restoring since before the restart (the journal's) */
  uint16_t held_answers[LIVE_MAX_COMMANDS];   /* confirm / cancel cards held meanwhile */
  size_t n_held_answers;
  uint32_t tracker;              /* EngSnapshot.tracker of the latest look */
  uint32_t journaled_tracker;    /* and of the look the journal was written from */
  uint16_t resume_cmds[LIVE_MAX_COMMANDS];     /* command cards up when the journal was written */
  size_t n_resume_cmds;
  bool undo_baseline;            /* undone with no saved view: waits for the state's table */
  bool new_deal;                 /* the game asked for a table dealt afresh (eng_live_new_deal) */
  /* the journal: what was last written into the record's table notes */
  bool journal_written;
  EngLiveMind journaled;
  bool journaled_flags[3];
  uint16_t journaled_cmds[LIVE_MAX_COMMANDS];
  size_t journaled_n_cmds;
  Complaint journaled_complaints[LIVE_MAX_COMPLAINTS];
  size_t journaled_n_complaints;
  EngLiveItem journaled_cur[ENG_SNAPSHOT_MAX_ITEMS];
  uint16_t journaled_cur_read[ENG_SNAPSHOT_MAX_ITEMS];
  int64_t journaled_cur_since[ENG_SNAPSHOT_MAX_ITEMS];
  uint16_t journaled_n_cur;
  uint32_t journal_tracker;      /* the tracker written in the notes' state line */
  const EngLiveGapCommand *journaled_gap;
  int journaled_gap_player;
  bool journaled_catch_up;
  size_t journaled_n_held;
  bool resume_catch_up;          /* the journal was written while catching up */
  unsigned memo_version;         /* bumped whenever the undo stack or pend_start change */
  unsigned journaled_memo_version;
  size_t memo_text_len;
  char notes[LIVE_NOTES_MAX + LIVE_JOURNAL_UNDO * LIVE_NOTES_MAX / 2];
  char memo_text[LIVE_JOURNAL_UNDO * LIVE_NOTES_MAX / 2];
  /* the latest look; kept to avoid allocation per frame */
  uint16_t cur_read[ENG_SNAPSHOT_MAX_ITEMS];   /* face serials as read, before corrections */
  EngLiveItem cur[ENG_SNAPSHOT_MAX_ITEMS];
  int64_t cur_since[ENG_SNAPSHOT_MAX_ITEMS];
  uint16_t n_cur;
  EngLiveChange changes[LIVE_MAX_CHANGES];
  size_t n_changes;
};

/* eng-live-table.c */
Complaint *live_complaint_find (EngInterpreter *it, const EngLiveChange *c);
/* Before a look is read: no complaint seen yet.  After it: the complaints
 * whose difference the look no longer shows were fixed by the table, and go. */
void live_complaints_unseen (EngInterpreter *it);
void live_complaints_fixed (EngInterpreter *it);
void live_read_snapshot (EngInterpreter *it, const EngSnapshot *snap, uint16_t *new_cmds,
                         size_t *n_new_cmds, EngEvents *out);
void live_diff (EngInterpreter *it);
void live_handle_change (EngInterpreter *it, EngLiveChange *c, EngEvents *out);
void live_hide_unseen (const EngInterpreter *it, EngEvents *out, size_t from);
uint16_t live_corrected (const EngInterpreter *it, uint16_t serial);

/* eng-live-journal.c */
void live_journal_sync (EngInterpreter *it);
bool live_notes_parse (EngInterpreter *it, const char *text, EngLiveMind *m, GArray *memos,
                       size_t *first_memo, EngLiveMind *pend_start, bool *pend_known);
bool live_resume_look_complete (const EngInterpreter *it);
bool live_same_tracker (const EngInterpreter *it);
void live_forget_old_tracks (EngInterpreter *it);

/* eng-interpreter.c */
bool live_take_baseline (EngInterpreter *it, EngEvents *out);
void live_read_table (EngInterpreter *it, EngEvents *out);
bool live_take_back_move (EngInterpreter *it, EngLiveMind *view);
EngStatus live_run_command (EngInterpreter *it, const char *id, EngEvents *out);

/* eng-live-catchup.c: the first look after a restart shows what several
 * moves did; tells them in order (true) when a story of steps the protocol
 * reads without complaint leads to it.  `shown` (may be NULL) holds the
 * serials of the command cards the look shows that were not run yet: the
 * story may use each once, and those it used are removed (*n_shown
 * updated).  it->cur is the look on return. */
bool live_catch_up (EngInterpreter *it, uint16_t *shown, size_t *n_shown, EngEvents *out);
/* While a gap's command card is asked about (it->gap_asked): runs command
 * `id` as the answer (confirm or the card itself: it is made, and the rest
 * of the look told; cancel: the look is read as it is; undo: the question
 * goes and undo runs) and returns true; false for a command that answers
 * nothing (the question is said again). */
bool live_gap_answer (EngInterpreter *it, const char *id, EngEvents *out);
EngStatus live_face_of_payload (const EngInterpreter *it, const char *payload, uint16_t *serial);

/* The game's part of a mind in the journal: its class's own lines, or the
 * core's "m HEX" line of EngLiveClass.mind_size bytes (eng-live-game.c). */
void live_mind_write (const EngLiveClass *klass, const EngLiveMind *m, EngLiveNotes *o);
bool live_mind_read (const EngLiveClass *klass, EngLiveMind *m, char *const *words, int n_words);

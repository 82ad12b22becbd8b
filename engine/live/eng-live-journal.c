/* eng-live-journal.c: the referee's table notes in the journal, and going
 * on from them after a restart (docs/record-format.md, "@table").
 *
 * The notes are the mind (view, what the table still has to do, the game's
 * own part), the complaints already made, the last look and the saved undo
 * views, so that a journal written after any look lets a restarted referee
 * go on exactly where it was.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-live-private.h"

/* ---- writing ---------------------------------------------------------------- */

/* Expectation texts travel as one word: '+' for a space, %XX for the rest
 * of what a record word cannot hold. */
static size_t
notes_word (char *dst, size_t size, const char *text)
{
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *) text; *p != '\0' && n + 4 < size; p++)
    {
      if (*p == ' ')
        dst[n++] = '+';
      else if (*p > ' ' && *p < 0x7f && *p != '+' && *p != '%' && *p != '#')
        dst[n++] = (char) *p;
      else
        n += (size_t) snprintf (dst + n, size - n, "%%%02X", *p);
    }
  if (n == 0 && size > 1)
    dst[n++] = '-';
  dst[n] = '\0';
  return n;
}

/* The inverse of notes_word; bytes that make no valid UTF-8 in the end are
 * kept as they came (texts are the referee's own, in the table's language). */
static void
notes_unword (char *dst, size_t size, const char *word)
{
  size_t n = 0;
  if (strcmp (word, "-") == 0)
    word = "";
  for (const char *p = word; *p != '\0' && n + 1 < size; p++)
    {
      if (*p == '+')
        dst[n++] = ' ';
      else if (*p == '%' && g_ascii_isxdigit (p[1]) && g_ascii_isxdigit (p[2]))
        {
          int c = g_ascii_xdigit_value (p[1]) * 16 + g_ascii_xdigit_value (p[2]);
          dst[n++] = c >= ' ' && c != 0x7f ? (char) c : ' ';
          p += 2;
        }
      else
        dst[n++] = *p;
    }
  dst[n] = '\0';
  /* a cut in the middle of a character leaves a valid text */
  const char *end;
  if (!g_utf8_validate (dst, -1, &end))
    dst[end - dst] = '\0';
}

void
eng_live_notes_add (EngLiveNotes *o, const char *fmt, ...)
{
  if (o->full)
    return;
  va_list ap;
  va_start (ap, fmt);
  int l = vsnprintf (o->buf + o->n, o->size - o->n, fmt, ap);
  va_end (ap);
  if (l < 0 || (size_t) l >= o->size - o->n)
    o->full = true;
  else
    o->n += (size_t) l;
}

void
eng_live_notes_item (EngLiveNotes *o, const char *key, const EngLiveItem *v)
{
  eng_live_notes_add (o, "%s %c %u %u %d %d %d\n", key, v->kind, v->serial, (unsigned) v->track,
                      v->zone.kind, v->zone.seat, v->zone.index);
}

static void
notes_mind (const EngInterpreter *it, EngLiveNotes *o, const EngLiveMind *m)
{
  for (int i = 0; i < m->n_view; i++)
    eng_live_notes_item (o, "v", &m->view[i]);
  for (int i = 0; i < m->n_expect; i++)
    {
      const EngLiveExpect *e = &m->expect[i];
      char word[3 * sizeof e->text + 2];
      notes_word (word, sizeof word, e->text);
      eng_live_notes_add (o, "e %u %c %u %u %d %d %d %s\n", e->kind,
                          e->item_kind ? e->item_kind : '-', e->serial, (unsigned) e->track,
                          e->zone.kind, e->zone.seat, e->zone.index, word);
    }
  live_mind_write (it->klass, m, o);
  int on_line = 0;
  for (unsigned serial = 0; serial < ENG_LIVE_SERIALS; serial++)
    if (eng_live_was_discarded (m, (uint16_t) serial))
      {
        eng_live_notes_add (o, "%s%u", on_line == 0 ? "x " : " ", serial);
        if (++on_line == 100)
          {
            eng_live_notes_add (o, "\n");
            on_line = 0;
          }
      }
  if (on_line > 0)
    eng_live_notes_add (o, "\n");
}

static bool
complaints_same (const Complaint *a, const Complaint *b, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (a[i].kind != b[i].kind || a[i].item_kind != b[i].item_kind || a[i].serial != b[i].serial
        || a[i].track != b[i].track || !eng_live_zone_eq (a[i].zone, b[i].zone))
      return false;
  return true;
}

/* Whether anything the notes hold changed since they were last written. */
static bool
journal_stale (const EngInterpreter *it, const bool *flags)
{
  return !it->journal_written || memcmp (&it->journaled, &it->mind, sizeof it->mind) != 0
         || memcmp (it->journaled_flags, flags, sizeof it->journaled_flags) != 0
         || it->journaled_n_cmds != it->n_commands_seen
         || memcmp (it->journaled_cmds, it->commands_seen,
                    it->n_commands_seen * sizeof it->commands_seen[0]) != 0
         || it->journaled_n_complaints != it->n_complaints
         || !complaints_same (it->journaled_complaints, it->complaints, it->n_complaints)
         || it->journaled_memo_version != it->memo_version
         || it->journaled_n_cur != it->n_cur || it->journal_tracker != it->tracker
         || it->journaled_gap != it->gap_asked || it->journaled_gap_player != it->gap_player
         || it->journaled_catch_up != it->catch_up || it->journaled_n_held != it->n_held_answers
         || memcmp (it->journaled_cur, it->cur, it->n_cur * sizeof it->cur[0]) != 0
         || memcmp (it->journaled_cur_read, it->cur_read, it->n_cur * sizeof it->cur_read[0]) != 0
         || memcmp (it->journaled_cur_since, it->cur_since,
                    it->n_cur * sizeof it->cur_since[0]) != 0;
}

/* The undo views of the last moves and the mind before a waiting card, as
 * text kept until they change. */
static void
notes_memos (EngInterpreter *it)
{
  EngLiveNotes mo = { it->memo_text, 0, sizeof it->memo_text, false };
  guint from = it->memo->len > LIVE_JOURNAL_UNDO ? it->memo->len - LIVE_JOURNAL_UNDO : 0;
  for (guint j = from; j < it->memo->len; j++)
    {
      const EngLiveMind *saved = &g_array_index (it->memo, EngLiveMind, j);
      eng_live_notes_add (&mo, "u %zu %d\n", it->n_unsaved + j, saved->no_view);
      notes_mind (it, &mo, saved);
    }
  if (it->klass->pending != NULL && it->klass->pending (&it->mind) && it->pend_start_known)
    {
      eng_live_notes_add (&mo, "w\n");
      notes_mind (it, &mo, &it->pend_start);
    }
  /* too big to keep: undo across a restart then waits for the state's table */
  it->memo_text_len = mo.full ? 0 : mo.n;
  it->journaled_memo_version = it->memo_version;
}

/* Writes the referee's understanding of the table into the record's notes
 * when it changed.  No allocation once the notes have reached their size. */
void
live_journal_sync (EngInterpreter *it)
{
  bool flags[3] = { it->started, it->restoring, it->paused };
  if (!journal_stale (it, flags))
    return;
  it->journaled_n_cur = it->n_cur;
  it->journal_tracker = it->tracker;
  it->journaled_gap = it->gap_asked;
  it->journaled_gap_player = it->gap_player;
  it->journaled_catch_up = it->catch_up;
  it->journaled_n_held = it->n_held_answers;
  memcpy (it->journaled_cur, it->cur, it->n_cur * sizeof it->cur[0]);
  memcpy (it->journaled_cur_read, it->cur_read, it->n_cur * sizeof it->cur_read[0]);
  memcpy (it->journaled_cur_since, it->cur_since, it->n_cur * sizeof it->cur_since[0]);
  memcpy (it->journaled_complaints, it->complaints, it->n_complaints * sizeof it->complaints[0]);
  it->journaled_n_complaints = it->n_complaints;
  it->journal_written = true;
  it->journaled = it->mind;
  memcpy (it->journaled_flags, flags, sizeof flags);
  memcpy (it->journaled_cmds, it->commands_seen, sizeof it->commands_seen);
  it->journaled_n_cmds = it->n_commands_seen;
  if (!it->started)
    {
      /* no view yet: a restarted referee takes its baseline afresh */
      eng_record_set_notes (it->record, "", 0);
      return;
    }
  EngLiveNotes o = { it->notes, 0, sizeof it->notes, false };
  eng_live_notes_add (&o, "s %d %d %u\n", it->restoring, it->paused, (unsigned) it->tracker);
  if (it->n_commands_seen > 0)
    {
      eng_live_notes_add (&o, "c");
      for (size_t i = 0; i < it->n_commands_seen; i++)
        eng_live_notes_add (&o, " %u", it->commands_seen[i]);
      eng_live_notes_add (&o, "\n");
    }
  /* the looks after a restart are still read as what the table did
   * meanwhile (and the answer cards held then) */
  if (it->catch_up)
    {
      eng_live_notes_add (&o, "a %d", it->asked_again);
      for (size_t i = 0; i < it->n_held_answers; i++)
        eng_live_notes_add (&o, " %u", it->held_answers[i]);
      eng_live_notes_add (&o, "\n");
    }
  /* a command card of a gap the table is asked about */
  if (it->gap_asked != NULL)
    eng_live_notes_add (&o, "q %s %d\n", it->gap_asked->command, it->gap_player);
  /* the differences already complained about are not said again */
  for (size_t i = 0; i < it->n_complaints; i++)
    {
      const Complaint *k = &it->complaints[i];
      eng_live_notes_add (&o, "k %u %d %u %u %d %d %d\n", k->kind, k->item_kind, k->serial,
                          (unsigned) k->track, k->zone.kind, k->zone.seat, k->zone.index);
    }
  /* the table as last read (what a correction reads again) */
  for (int i = 0; i < it->n_cur; i++)
    {
      const EngLiveItem *c = &it->cur[i];
      eng_live_notes_add (&o, "r %c %u %u %d %d %d %" G_GINT64_FORMAT "\n", c->kind,
                          it->cur_read[i], (unsigned) c->track, c->zone.kind, c->zone.seat,
                          c->zone.index, (gint64) it->cur_since[i]);
    }
  notes_mind (it, &o, &it->mind);
  if (it->journaled_memo_version != it->memo_version || it->memo_text_len == 0)
    notes_memos (it);
  if (o.n + it->memo_text_len < o.size)
    {
      memcpy (o.buf + o.n, it->memo_text, it->memo_text_len);
      o.n += it->memo_text_len;
    }
  /* a notes text that does not fit or is refused leaves none: a restart
   * then takes its baseline afresh */
  if (o.full || eng_record_set_notes (it->record, it->notes, o.n) != ENG_OK)
    eng_record_set_notes (it->record, "", 0);
}

/* ---- reading ------------------------------------------------------------------ */

bool
eng_live_notes_zone (const char *const *w, EngZone *z)
{
  char *end[3];
  long k = strtol (w[0], &end[0], 10), seat = strtol (w[1], &end[1], 10),
       index = strtol (w[2], &end[2], 10);
  for (int i = 0; i < 3; i++)
    if (end[i] == w[i] || *end[i] != '\0')
      return false;
  if (k < 0 || k >= ENG_ZONE_KIND_COUNT || seat < -1 || seat >= ENG_MAX_PLAYERS || index < -1
      || index > 127)
    return false;
  *z = eng_live_zone ((int) k, (int) seat, (int) index);
  return true;
}

static bool
notes_serial (const char *w, uint16_t *out)
{
  char *end;
  long v = strtol (w, &end, 10);
  if (end == w || *end != '\0' || v < 0 || v > 0xFFFF)
    return false;
  *out = (uint16_t) v;
  return true;
}

static bool
notes_track (const char *w, uint32_t *out)
{
  char *end;
  unsigned long v = strtoul (w, &end, 10);
  if (end == w || *end != '\0' || w[0] == '-' || v > UINT32_MAX)
    return false;
  *out = (uint32_t) v;
  return true;
}

bool
eng_live_notes_parse_item (char *const *w, int nw, EngLiveItem *v)
{
  if (nw != 7 || (w[1][0] != 'F' && w[1][0] != 'B') || w[1][1] != '\0')
    return false;
  v->kind = w[1][0];
  if (!notes_track (w[3], &v->track) || !notes_serial (w[2], &v->serial)
      || (v->kind == 'F' && v->serial >= ENG_LIVE_SERIALS))
    return false;
  return eng_live_notes_zone ((const char *const *) w + 4, &v->zone);
}

/* What reading the notes fills in, line by line: the interpreter, the mind
 * the next lines describe (the current one, a saved view's or the one
 * before a waiting card) and the outputs of live_notes_parse. */
typedef struct {
  EngInterpreter *it;
  EngLiveMind *target;
  GArray *memos;
  size_t *first_memo;
  EngLiveMind *pend_start;
  bool *pend_known;
  bool seen_state;
} Notes;

/* "s RESTORING PAUSED [TRACKER]": journals written before trackers were
 * numbered have no tracker. */
static bool
notes_state (Notes *n, char *const *w, int nw)
{
  n->it->restoring = strcmp (w[1], "1") == 0;
  n->it->paused = strcmp (w[2], "1") == 0;
  n->it->journaled_tracker = nw == 4 ? (uint32_t) strtoul (w[3], NULL, 10) : 0;
  n->seen_state = true;
  return true;
}

/* "c SERIAL...": the command cards seen */
static bool
notes_commands (Notes *n, char *const *w, int nw)
{
  EngInterpreter *it = n->it;
  bool ok = true;
  it->n_commands_seen = 0;
  for (int i = 1; i < nw && ok; i++)
    ok = notes_serial (w[i], &it->commands_seen[it->n_commands_seen++]);
  return ok;
}

/* "v ...": one item of the view */
static bool
notes_view (Notes *n, char *const *w, int nw)
{
  EngLiveMind *t = n->target;
  bool ok = t->n_view < ENG_SNAPSHOT_MAX_ITEMS
            && eng_live_notes_parse_item (w, nw, &t->view[t->n_view]);
  t->n_view += ok;
  return ok;
}

/* "e KIND ITEM SERIAL TRACK ZONE TEXT": a thing the table is to do */
static bool
notes_expect (Notes *n, char *const *w, int nw)
{
  EngLiveMind *target = n->target;
  if (nw != 9 || target->n_expect >= ENG_LIVE_MAX_EXPECT)
    return false;
  EngLiveExpect *e = &target->expect[target->n_expect];
  uint16_t kind;
  if (!notes_serial (w[1], &kind) || kind >= ENG_EXPECT_KIND_COUNT || strlen (w[2]) != 1
      || !notes_serial (w[3], &e->serial) || !notes_track (w[4], &e->track)
      || !eng_live_notes_zone ((const char *const *) w + 5, &e->zone))
    return false;
  e->kind = (uint8_t) kind;
  e->item_kind = w[2][0] == '-' ? 0 : w[2][0];
  notes_unword (e->text, sizeof e->text, w[8]);
  target->n_expect++;
  return true;
}

/* "k KIND ITEM SERIAL TRACK ZONE": a complaint already made */
static bool
notes_complaint (Notes *n, char *const *w, int nw)
{
  EngInterpreter *it = n->it;
  uint16_t kind, item_kind, serial;
  uint32_t track;
  if (nw != 8 || !notes_serial (w[1], &kind) || kind > ENG_LIVE_TURN_OVER
      || !notes_serial (w[2], &item_kind) || item_kind > 127 || !notes_serial (w[3], &serial)
      || !notes_track (w[4], &track) || it->n_complaints >= LIVE_MAX_COMPLAINTS)
    return false;
  Complaint *k = &it->complaints[it->n_complaints];
  if (!eng_live_notes_zone ((const char *const *) w + 5, &k->zone))
    return false;
  k->kind = (uint8_t) kind;
  k->item_kind = (char) item_kind;
  k->serial = serial;
  k->track = track;
  k->seen = true;
  it->n_complaints++;
  return true;
}

/* "q COMMAND PLAYER": the gap's command card the table is asked about. */
static bool
notes_gap_question (Notes *n, char *const *w, int nw)
{
  EngInterpreter *it = n->it;
  char *end;
  (void) nw;
  long player = strtol (w[2], &end, 10);
  if (*end != '\0' || player < 0 || player >= (long) eng_live_n_players (it)
      || it->klass->gap_commands == NULL)
    return false;
  for (const EngLiveGapCommand *g = it->klass->gap_commands; g->command != NULL; g++)
    if (strcmp (g->command, w[1]) == 0)
      {
        it->gap_asked = g;
        it->gap_player = (int) player;
        return true;
      }
  return false;
}

/* "a ASKED-AGAIN SERIAL...": catching up after a restart, the answers held */
static bool
notes_catch_up (Notes *n, char *const *w, int nw)
{
  EngInterpreter *it = n->it;
  bool ok = true;
  it->resume_catch_up = true;
  it->asked_again = strcmp (w[1], "1") == 0;
  it->n_held_answers = 0;
  for (int i = 2; i < nw && ok; i++)
    ok = notes_serial (w[i], &it->held_answers[it->n_held_answers++]);
  return ok;
}

/* "r ITEM... SINCE": a card of the current look, and since when */
static bool
notes_current (Notes *n, char *const *w, int nw)
{
  EngInterpreter *it = n->it;
  EngLiveItem item;
  char *send;
  (void) nw;
  gint64 since = g_ascii_strtoll (w[7], &send, 10);
  if (*send != '\0' || it->n_cur >= ENG_SNAPSHOT_MAX_ITEMS
      || !eng_live_notes_parse_item (w, 7, &item))
    return false;
  it->cur_read[it->n_cur] = item.serial;
  it->cur_since[it->n_cur] = since;
  it->cur[it->n_cur++] = item;
  return true;
}

/* "u MOVE NO-VIEW": the saved view before move MOVE (numbered on from the
 * first); the lines after it describe that view */
static bool
notes_memo (Notes *n, char *const *w, int nw)
{
  GArray *memos = n->memos;
  char *uend;
  (void) nw;
  unsigned long j = strtoul (w[1], &uend, 10);
  if (*uend != '\0' || uend == w[1] || memos->len >= LIVE_JOURNAL_UNDO
      || (memos->len > 0 && j != *n->first_memo + memos->len))
    return false;
  if (memos->len == 0)
    *n->first_memo = j;
  g_array_set_size (memos, memos->len + 1);
  n->target = &g_array_index (memos, EngLiveMind, memos->len - 1);
  memset (n->target, 0, sizeof *n->target);
  n->target->no_view = strcmp (w[2], "1") == 0;
  return true;
}

/* "w": the lines after it describe the mind before the waiting card */
static bool
notes_waiting (Notes *n, char *const *w, int nw)
{
  (void) w;
  (void) nw;
  n->target = n->pend_start;
  memset (n->target, 0, sizeof *n->target);
  *n->pend_known = true;
  return true;
}

/* "x SERIAL...": cards known discarded */
static bool
notes_discarded (Notes *n, char *const *w, int nw)
{
  bool ok = true;
  for (int i = 1; i < nw && ok; i++)
    {
      uint16_t serial;
      ok = notes_serial (w[i], &serial) && serial < ENG_LIVE_SERIALS;
      if (ok)
        eng_live_mark_discarded (n->target, serial);
    }
  return ok;
}

/* The core's note lines and their word counts (the letter included); a
 * line that is none of them, or has another count, is the game's own
 * (live_mind_read). */
static const struct {
  const char *name;
  int min_words, max_words;
  bool (*parse) (Notes *n, char *const *w, int nw);
} notes_lines[] = {
  { "s", 3, 4, notes_state },
  { "c", 1, 1 + LIVE_MAX_COMMANDS, notes_commands },
  { "v", 1, INT_MAX, notes_view },
  { "e", 1, INT_MAX, notes_expect },
  { "k", 1, INT_MAX, notes_complaint },
  { "q", 3, 3, notes_gap_question },
  { "a", 2, 2 + LIVE_MAX_COMMANDS, notes_catch_up },
  { "r", 8, 8, notes_current },
  { "u", 3, 3, notes_memo },
  { "w", 1, 1, notes_waiting },
  { "x", 1, INT_MAX, notes_discarded },
};

static bool
notes_line (Notes *n, char *const *w, int nw)
{
  for (size_t i = 0; i < G_N_ELEMENTS (notes_lines); i++)
    if (strcmp (w[0], notes_lines[i].name) == 0 && nw >= notes_lines[i].min_words
        && nw <= notes_lines[i].max_words)
      return notes_lines[i].parse (n, w, nw);
  return live_mind_read (n->it->klass, n->target, w, nw);
}

/* Reads the journal's table notes into *m, the flags and complaints, the
 * saved views into `memos` (with the index of their move in *first_memo)
 * and the mind before a waiting card into *pend_start (*pend_known);
 * false (and the outputs undefined) for notes this interpreter cannot have
 * written. */
bool
live_notes_parse (EngInterpreter *it, const char *text, EngLiveMind *m, GArray *memos,
                  size_t *first_memo, EngLiveMind *pend_start, bool *pend_known)
{
  memset (m, 0, sizeof *m);
  it->n_complaints = 0;
  it->n_cur = 0;
  it->gap_asked = NULL;
  it->resume_catch_up = false;
  it->asked_again = false;
  it->n_held_answers = 0;
  *pend_known = false;
  *first_memo = 0;
  Notes n = { it, m, memos, first_memo, pend_start, pend_known, false };
  char line[1100];
  while (*text != '\0')
    {
      const char *end = strchr (text, '\n');
      size_t len = end ? (size_t) (end - text) : strlen (text);
      if (len >= sizeof line)
        return false;
      memcpy (line, text, len);
      line[len] = '\0';
      text += len + (end ? 1 : 0);
      char *w[128];   /* an "x" line holds up to 100 serials */
      int nw = 0;
      char *save = NULL;
      for (char *tok = strtok_r (line, " ", &save); tok != NULL; tok = strtok_r (NULL, " ", &save))
        {
          if (nw == (int) G_N_ELEMENTS (w))
            return false;
          w[nw++] = tok;
        }
      if (nw != 0 && !notes_line (&n, w, nw))
        return false;
    }
  return n.seen_state;
}

/* ---- after a restart ---------------------------------------------------------- */

/* Track ids are the tracker's: a tracker started afresh numbers again from
 * the start, so the ids of the journal's last look may now name other
 * cards.  Every tracker says which it is (EngSnapshot.tracker), and the
 * journal keeps it; for a journal or snapshots that do not say, the tracker
 * is the same one when the look agrees with the last look's ids (faces by
 * serial, backs by zone, mostly with the same id).  Otherwise every
 * remembered id becomes one no tracker gives, and backs are found again by
 * their zone. */
static uint32_t
forgotten (uint32_t track)
{
  return 0xF0000000u | (track & 0x0FFFFFFFu);
}

static void
forget_in_mind (const EngInterpreter *it, EngLiveMind *m)
{
  for (int i = 0; i < m->n_view; i++)
    m->view[i].track = forgotten (m->view[i].track);
  for (int i = 0; i < m->n_expect; i++)
    m->expect[i].track = forgotten (m->expect[i].track);
  if (it->klass->mind_forget != NULL)
    it->klass->mind_forget (m, forgotten);
}

/* Whether the look shows again every card the view has where cards lie
 * face down (a card in that place, or for a face, the face anywhere), and
 * after time away (eng_interpreter_set_away) every face the view has off
 * the piles (anywhere): a card the new tracker has not found yet is no
 * card taken away, and its absence would be read as the table's doing. */
bool
live_resume_look_complete (const EngInterpreter *it)
{
  const EngLiveMind *m = &it->mind;
  for (int i = 0; i < m->n_view; i++)
    {
      const EngLiveItem *v = &m->view[i];
      bool flip = (it->klass->flip_zones >> v->zone.kind) & 1u;
      bool pile = (it->klass->cover_zones >> v->zone.kind) & 1u;
      if (!flip && (v->kind != 'F' || pile || it->away_ns == 0))
        continue;
      bool found = false;
      for (int c = 0; c < it->n_cur && !found; c++)
        found = (flip && eng_live_zone_eq (it->cur[c].zone, v->zone))
                || (v->kind == 'F' && it->cur[c].kind == 'F' && it->cur[c].serial == v->serial);
      if (!found)
        return false;
    }
  return true;
}

bool
live_same_tracker (const EngInterpreter *it)
{
  if (it->tracker != 0 && it->journaled_tracker != 0)
    return it->tracker == it->journaled_tracker;
  int same = 0, differ = 0;
  for (int i = 0; i < it->n_cur; i++)
    for (int j = 0; j < it->journaled_n_cur; j++)
      {
        const EngLiveItem *now = &it->cur[i], *then = &it->journaled_cur[j];
        bool counterpart = now->kind == then->kind
                           && (now->kind == 'F' ? now->serial == then->serial
                                                : eng_live_zone_eq (now->zone, then->zone));
        if (!counterpart)
          continue;
        if (now->track == then->track)
          same++;
        else
          differ++;
        break;
      }
  return same > differ;
}

void
live_forget_old_tracks (EngInterpreter *it)
{
  forget_in_mind (it, &it->mind);
  forget_in_mind (it, &it->pend_start);
  for (guint j = 0; j < it->memo->len; j++)
    forget_in_mind (it, &g_array_index (it->memo, EngLiveMind, j));
  for (size_t i = 0; i < it->n_complaints; i++)
    it->complaints[i].track = forgotten (it->complaints[i].track);
  it->memo_version++;
}

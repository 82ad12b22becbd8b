/* eng-live-catchup.c: what the table did while the referee was away
 * (docs/interpreter.md, "After a restart").
 *
 * While the referee restarts, the table plays on.  The first looks after
 * the gap show only where the cards ended up: a card already on the
 * discard pile, the card it took already in a capture area, a turn
 * already ended.
 * Read as they come, they hold a heap of differences no single move
 * explains, and the referee would complain about each.  So it looks for a
 * story: a sequence of looks, each one step from the one before (one card
 * put down, moved, turned over or taken away; or a command card shown),
 * that its own protocol reads without a complaint, and after which the
 * camera's look reads without one too, its changes in any order (a new
 * tracker finds the cards in its own order).  A step may put a card where
 * the camera does not show it: a card laid in front of a slot before it
 * went to the discard pile, a card turned up in its slot before it went
 * to a capture area.
 *
 * The search is depth first and tries the look's own differences first,
 * then cards turned up where backs of their deck lie, then cards laid
 * where cards are laid, then cards put on a pile the look shows covered
 * since, then the answers to the question the table was asked, then the
 * command cards a game names for a gap (EngLiveClass.gap_commands,
 * likeliest first), so the first story found is a short one.  Nobody was
 * there to hear the table answer a question, so a story answers one only
 * when the look proves the answer: no story gives another (the start
 * card's swapper is the one who led since); otherwise the story answers
 * none and the table is asked.  The search is bounded (steps, trials,
 * command cards, answers);
 * when it finds no story the look is read as it is, complaints and all.
 * The story found is told for real, in order, so the record, the journal
 * and the announcements are those of a referee that never left.  What the
 * end cannot tell (which of two face-down cards a play took, when both
 * places now hold a new back) is decided by that order; undo corrects it.
 *
 * A referee restarted before it saw the table starts its story with the
 * setup: the look without the cards laid since.
 *
 * Only after a restart that took time (eng_interpreter_set_away), and
 * only for the looks of the first seconds: later, a heap of differences is
 * the table's mistake, said as such.  This runs once per restart, not per
 * frame: it allocates its stacks for the search and frees them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-i18n.h"
#include "eng-live-private.h"

#define CATCH_MAX_STEPS 24       /* looks and commands in one story */
#define CATCH_MAX_TRIALS 20000   /* steps tried in one search */
#define CATCH_MAX_COMMANDS 6     /* command cards in one story */
#define CATCH_SEEN_BITS 14       /* table of configurations already tried */
#define CATCH_EVENTS 256
#define CATCH_MAX_ORDERED 6      /* changes of the camera's look tried in every order */
#define CATCH_MAX_ANSWERS 2      /* questions answered in one story */

typedef enum {
  STEP_LOOK,       /* the table as `look` shows it */
  STEP_COMMAND,    /* command card `command` shown */
  STEP_ANSWER,     /* the question answered with `player` */
} StepKind;

typedef struct {
  uint8_t kind;    /* StepKind */
  int8_t player;
  const char *command;
  const EngLiveGapCommand *gap;   /* a gap's command card (NULL: undo or shown) */
  int8_t shown;                   /* a command card the look shows: its index, -1 */
  uint16_t n_look;
  EngLiveItem look[ENG_SNAPSHOT_MAX_ITEMS];
} Step;

/* What a step may change in the interpreter, to go back to it. */
typedef struct {
  EngLiveMind mind, pend_start, memo_top;
  bool has_top, pend_start_known, started, restoring, paused, new_deal, undo_baseline;
  Complaint complaints[LIVE_MAX_COMPLAINTS];
  size_t n_complaints, n_moves, n_memo, n_unsaved, depth;
  char setup_need[sizeof ((EngInterpreter *) 0)->setup_need];
} Checkpoint;

typedef struct {
  EngInterpreter *it;
  /* the camera's look the story must end at */
  EngLiveItem target[ENG_SNAPSHOT_MAX_ITEMS];
  uint16_t target_read[ENG_SNAPSHOT_MAX_ITEMS];
  int64_t target_since[ENG_SNAPSHOT_MAX_ITEMS];
  uint16_t n_target;
  Checkpoint *cp;                /* [CATCH_MAX_STEPS + 1], one per depth */
  unsigned char *data;           /* the game's data at each depth */
  Step *path;                    /* [CATCH_MAX_STEPS] */
  Step *story;                   /* [CATCH_MAX_STEPS]: the story to tell */
  EngLiveChange *diff;           /* [CATCH_MAX_STEPS + 1][LIVE_MAX_CHANGES] */
  Step trial;
  EngLiveMind before_act;
  EngEvents scratch;
  EngEvent *storage;
  uint64_t *seen;                /* hashes of configurations reached */
  const int64_t *order;          /* the camera's look read in this order (NULL: its own) */
  int64_t since[ENG_SNAPSHOT_MAX_ITEMS];
  unsigned trials, commands, answers;
  /* the command cards the look shows, not run yet: a story may use each
   * once (the table proves them); bit k of shown_used: shown[k] used */
  const uint16_t *shown;
  size_t n_shown;
  unsigned shown_used;
  int length;                    /* steps of the story found, -1 none */
  /* an answer a story may not give: `ban_player` where the configuration
   * hashes to `ban_config` (0: none) */
  uint64_t ban_config;
  int ban_player;
  /* the last move before the gap, for going back over an undo of it */
  bool has_last;
  EngRecordMove last;
} Plan;

/* ---- going back ---------------------------------------------------------------- */

static void
save (Plan *p, int level)
{
  EngInterpreter *it = p->it;
  Checkpoint *c = &p->cp[level];
  c->mind = it->mind;
  c->pend_start = it->pend_start;
  c->has_top = it->memo->len > 0;
  if (c->has_top)
    c->memo_top = *eng_live_memo_top (it);
  c->pend_start_known = it->pend_start_known;
  c->started = it->started;
  c->restoring = it->restoring;
  c->paused = it->paused;
  c->new_deal = it->new_deal;
  c->undo_baseline = it->undo_baseline;
  memcpy (c->complaints, it->complaints, sizeof it->complaints);
  c->n_complaints = it->n_complaints;
  c->n_moves = it->record->n_moves;
  c->n_memo = it->memo->len;
  c->n_unsaved = it->n_unsaved;
  c->depth = eng_game_history_depth (it->game);
  memcpy (c->setup_need, it->setup_need, sizeof c->setup_need);
  if (it->klass->data_size > 0)
    memcpy (p->data + (size_t) level * it->klass->data_size, it->data, it->klass->data_size);
}

static void
restore (Plan *p, int level)
{
  EngInterpreter *it = p->it;
  const Checkpoint *c = &p->cp[level];
  while (eng_game_history_depth (it->game) > c->depth)
    if (eng_game_undo (it->game) != ENG_OK)
      break;
  /* a story that began with an undo of the last move (level 0 only) */
  if (eng_game_history_depth (it->game) < c->depth && p->has_last)
    {
      EngVerdict why;
      eng_game_apply (it->game, &p->last.move, NULL, &why);
      it->record->moves[c->n_moves - 1] = p->last;
    }
  it->record->n_moves = c->n_moves;
  g_array_set_size (it->memo, c->n_memo);
  if (c->has_top)
    *eng_live_memo_top (it) = c->memo_top;
  it->mind = c->mind;
  it->pend_start = c->pend_start;
  it->pend_start_known = c->pend_start_known;
  it->started = c->started;
  it->restoring = c->restoring;
  it->paused = c->paused;
  it->new_deal = c->new_deal;
  it->undo_baseline = c->undo_baseline;
  memcpy (it->complaints, c->complaints, sizeof it->complaints);
  it->n_complaints = c->n_complaints;
  it->n_unsaved = c->n_unsaved;
  memcpy (it->setup_need, c->setup_need, sizeof c->setup_need);
  if (it->klass->data_size > 0)
    memcpy (it->data, p->data + (size_t) level * it->klass->data_size, it->klass->data_size);
  it->memo_version++;
}

/* ---- one step ------------------------------------------------------------------ */

static void
show_target (Plan *p)
{
  EngInterpreter *it = p->it;
  memcpy (it->cur, p->target, p->n_target * sizeof p->target[0]);
  memcpy (it->cur_read, p->target_read, p->n_target * sizeof p->target_read[0]);
  memcpy (it->cur_since, p->target_since, p->n_target * sizeof p->target_since[0]);
  it->n_cur = p->n_target;
}

/* Whether the events from `mark` on hold a refusal. */
static bool
refused (const EngEvents *out, size_t mark)
{
  if (out->dropped > 0)
    return true;
  for (size_t i = mark; i < out->n; i++)
    if (out->items[i].kind == ENG_EVENT_ILLEGAL || out->items[i].kind == ENG_EVENT_CONSERVATION)
      return true;
  return false;
}

/* Reads a look as a camera's look is read (eng_interpreter_feed).  True
 * when it was read without a complaint and, for a step of the story (not
 * the camera's own look), the view took all of it. */
static bool
read_look (Plan *p, const Step *s, bool camera, EngEvents *out)
{
  EngInterpreter *it = p->it;
  if (camera)
    {
      show_target (p);
      if (p->order != NULL)
        memcpy (it->cur_since, p->order, p->n_target * sizeof p->order[0]);
    }
  else
    {
      memcpy (it->cur, s->look, s->n_look * sizeof s->look[0]);
      for (uint16_t i = 0; i < s->n_look; i++)
        {
          it->cur_read[i] = s->look[i].serial;
          it->cur_since[i] = 0;
        }
      it->n_cur = s->n_look;
    }
  unsigned made = it->complaints_made;
  size_t mark = out->n;
  live_complaints_unseen (it);
  if (!it->started)
    {
      if (!live_take_baseline (it, out))
        return false;
    }
  else
    live_read_table (it, out);
  live_complaints_fixed (it);
  if (it->complaints_made != made || refused (out, mark))
    return false;
  if (camera)
    return !it->restoring;
  live_diff (it);
  return it->n_changes == 0;
}

static bool
same_mind (const EngLiveMind *a, const EngLiveMind *b)
{
  return memcmp (a, b, sizeof *a) == 0;
}

/* A command card shown or the question answered: true when it made a
 * move or changed what the referee waits for, without a refusal. */
static bool
run_act_step (Plan *p, const Step *s, EngEvents *out)
{
  EngInterpreter *it = p->it;
  unsigned made = it->complaints_made;
  size_t mark = out->n, n_moves = it->record->n_moves;
  p->before_act = it->mind;
  EngStatus st = s->kind == STEP_ANSWER ? it->klass->choose (it, s->player, out)
                                        : live_run_command (it, s->command, out);
  if (st != ENG_OK || it->complaints_made != made || refused (out, mark))
    return false;
  return it->record->n_moves != n_moves || !same_mind (&p->before_act, &it->mind);
}

static bool
run_step (Plan *p, const Step *s, EngEvents *out)
{
  if (s->kind == STEP_LOOK)
    return read_look (p, s, false, out);
  return run_act_step (p, s, out);
}

/* ---- configurations already reached ---------------------------------------------- */

static uint64_t
hash_bytes (uint64_t h, const void *data, size_t n)
{
  const unsigned char *b = data;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

static int
item_cmp (const void *a, const void *b)
{
  const EngLiveItem *x = a, *y = b;
  if (x->kind != y->kind)
    return x->kind - y->kind;
  if (x->serial != y->serial)
    return x->serial - y->serial;
  if (x->zone.kind != y->zone.kind)
    return x->zone.kind - y->zone.kind;
  if (x->zone.seat != y->zone.seat)
    return x->zone.seat - y->zone.seat;
  return x->zone.index - y->zone.index;
}

/* The game's state and the view (as cards in places, whatever their
 * order) and what the referee waits for, hashed; never 0. */
static uint64_t
config_hash (Plan *p)
{
  EngInterpreter *it = p->it;
  EngLiveItem items[ENG_SNAPSHOT_MAX_ITEMS];
  uint16_t n = it->mind.n_view;
  memcpy (items, it->mind.view, n * sizeof items[0]);
  for (uint16_t i = 0; i < n; i++)
    items[i].track = 0;
  qsort (items, n, sizeof items[0], item_cmp);
  uint64_t h = 14695981039346656037ull;
  h = hash_bytes (h, eng_game_state (it->game), eng_game_class (it->game)->state_size);
  h = hash_bytes (h, items, n * sizeof items[0]);
  for (int i = 0; i < it->mind.n_expect; i++)
    h = hash_bytes (h, &it->mind.expect[i].kind, 1);
  h = hash_bytes (h, &it->mind.n_expect, sizeof it->mind.n_expect);
  bool flags[2] = { it->started, it->restoring };
  h = hash_bytes (h, flags, sizeof flags);
  return h | 1;
}

/* True the first time the story reaches this configuration. */
static bool
first_visit (Plan *p)
{
  uint64_t h = config_hash (p);
  size_t mask = ((size_t) 1 << CATCH_SEEN_BITS) - 1;
  for (size_t i = (size_t) h & mask, probes = 0; probes <= mask; i = (i + 1) & mask, probes++)
    {
      if (p->seen[i] == h)
        return false;
      if (p->seen[i] == 0)
        {
          p->seen[i] = h;
          return true;
        }
    }
  return true;   /* full: keep searching, within the trial budget */
}

/* ---- the search -------------------------------------------------------------------- */

/* The view with change `d` made: the look a step shows. */
static void
look_with (const EngInterpreter *it, const EngLiveChange *d, Step *s)
{
  const EngLiveMind *m = &it->mind;
  s->kind = STEP_LOOK;
  s->n_look = 0;
  bool done = false;
  for (int i = 0; i < m->n_view; i++)
    {
      EngLiveItem v = m->view[i];
      bool same = v.kind == d->item.kind
                  && (v.kind == 'F' ? v.serial == d->item.serial : v.track == d->item.track);
      switch (d->kind)
        {
        case ENG_LIVE_VANISH:
          if (same && !done)
            {
              done = true;
              continue;
            }
          break;
        case ENG_LIVE_MOVE:
          if (same && !done)
            v.zone = d->item.zone, done = true;
          break;
        case ENG_LIVE_FLIP_UP:
          if (v.kind == 'B' && v.track == d->old_track && !done)
            v = d->item, done = true;
          break;
        case ENG_LIVE_FLIP_DOWN:
          if (v.kind == 'F' && eng_live_zone_eq (v.zone, d->item.zone) && !done)
            v = d->item, done = true;
          break;
        case ENG_LIVE_TURN_OVER:
          if (v.kind == 'F' && v.serial == d->old_serial && !done)
            v = d->item, done = true;
          break;
        default:
          break;
        }
      s->look[s->n_look++] = v;
    }
  if (!done && s->n_look < ENG_SNAPSHOT_MAX_ITEMS)
    s->look[s->n_look++] = d->item;
}

static bool search (Plan *p, int level);

/* Tries step `s` from the configuration saved at `level`: true when the
 * story goes on from it to the end. */
static bool
try_step (Plan *p, int level, const Step *s)
{
  if (++p->trials > CATCH_MAX_TRIALS)
    return false;
  p->scratch.n = 0;
  p->scratch.dropped = 0;
  bool ok = run_step (p, s, &p->scratch) && first_visit (p);
  if (ok)
    {
      p->path[level] = *s;
      if (search (p, level + 1))
        return true;
    }
  restore (p, level);
  return false;
}

/* The places cards are laid for what they do: every attack spot, play
 * area and centre place the game has, at seats with a player. */
static size_t
lay_zones (const EngInterpreter *it, EngZone *out, size_t max)
{
  size_t n = 0;
  const EngLiveClass *k = it->klass;
  for (unsigned p = 0; p < eng_live_n_players (it); p++)
    {
      int seat = eng_live_seat_of (it, (int) p);
      for (int i = 0; i < k->n_spots && n < max; i++)
        out[n++] = eng_live_zone (ENG_ZONE_ATTACK, seat, i);
      if (n < max)
        out[n++] = eng_live_zone (ENG_ZONE_PLAY, seat, -1);
    }
  for (int i = 0; i < k->n_centre && n < max; i++)
    out[n++] = eng_live_zone (ENG_ZONE_CENTRE, -1, i);
  return n;
}

/* Steps through a place the look does not show: face `d` (which appears in
 * the look) first turned up where a back of its deck lies, or first laid
 * where cards are laid. */
static bool
try_detours (Plan *p, int level, const EngLiveChange *d)
{
  EngInterpreter *it = p->it;
  Step *s = &p->trial;
  unsigned deck = eng_live_deck_of (it, d->item.serial);
  for (int i = 0; i < it->mind.n_view; i++)
    {
      const EngLiveItem *b = &it->mind.view[i];
      if (b->kind != 'B' || b->serial != deck + 1 || !((it->klass->flip_zones >> b->zone.kind) & 1u))
        continue;
      EngLiveChange up = *d;
      up.kind = ENG_LIVE_FLIP_UP;
      up.item.zone = b->zone;
      up.old_track = b->track;
      look_with (it, &up, s);
      if (try_step (p, level, s))
        return true;
    }
  EngZone zones[4 * ENG_MAX_PLAYERS + 16];
  size_t n = lay_zones (it, zones, sizeof zones / sizeof zones[0]);
  for (size_t z = 0; z < n; z++)
    {
      if (eng_live_zone_eq (zones[z], d->item.zone))
        continue;
      EngLiveChange laid = *d;
      laid.item.zone = zones[z];
      look_with (it, &laid, s);
      if (try_step (p, level, s))
        return true;
    }
  return false;
}

/* A step through a pile: face `d` (which vanishes from the look) first put
 * on a pile where the look shows a card that is not there yet, which
 * covered it since (a trick's first card under its second).  A card
 * already on the pile cannot have covered it. */
static bool
try_buried (Plan *p, int level, const EngLiveChange *d)
{
  EngInterpreter *it = p->it;
  EngZone tried[8];
  size_t n_tried = 0;
  for (uint16_t i = 0; i < p->n_target && n_tried < sizeof tried / sizeof tried[0]; i++)
    {
      EngZone z = p->target[i].zone;
      bool seen = eng_live_zone_eq (z, d->item.zone) || !((it->klass->cover_zones >> z.kind) & 1u)
                  || p->target[i].kind != 'F';
      int there = seen ? -1 : eng_live_view_find (&it->mind, 'F', p->target[i].serial, 0);
      seen = seen || (there >= 0 && eng_live_zone_eq (it->mind.view[there].zone, z));
      for (size_t j = 0; j < n_tried && !seen; j++)
        seen = eng_live_zone_eq (tried[j], z);
      if (seen)
        continue;
      tried[n_tried++] = z;
      EngLiveChange put = *d;
      put.kind = ENG_LIVE_MOVE;
      put.item.zone = z;
      look_with (it, &put, &p->trial);
      if (try_step (p, level, &p->trial))
        return true;
    }
  return false;
}

/* The question the table was asked, answered each way it can be.  The
 * answer is the one the rest of the look proves (e.g. the start card's
 * swapper leads the first trick); live_catch_up tells a story with an
 * answer only when no story gives another. */
static bool
try_answers (Plan *p, int level)
{
  EngInterpreter *it = p->it;
  EngLiveChoice choice;
  if (p->answers >= CATCH_MAX_ANSWERS || it->klass->choice == NULL || it->klass->choose == NULL
      || !it->klass->choice (it, &choice))
    return false;
  uint64_t here = p->ban_config != 0 ? config_hash (p) : 0;
  Step *s = &p->trial;
  p->answers++;
  for (unsigned i = 0; i < choice.n; i++)
    {
      if (here == p->ban_config && choice.player[i] == p->ban_player)
        continue;
      s->kind = STEP_ANSWER;
      s->player = (int8_t) choice.player[i];
      s->shown = -1;
      if (try_step (p, level, s))
        {
          p->answers--;
          return true;
        }
    }
  p->answers--;
  return false;
}

/* Command cards shown: first those the look shows (each once), then the
 * game's for a gap, likeliest first (EngLiveClass.gap_commands). */
static bool
try_commands (Plan *p, int level)
{
  EngInterpreter *it = p->it;
  Step *s = &p->trial;
  for (size_t k = 0; k < p->n_shown; k++)
    {
      const EngCommand *cmd = eng_card_set_command (it->set, (size_t) p->shown[k] - 1);
      if (cmd == NULL || (p->shown_used >> k) & 1u)
        continue;
      s->kind = STEP_COMMAND;
      s->command = cmd->id;
      s->gap = NULL;
      s->shown = (int8_t) k;
      p->shown_used |= 1u << k;
      if (try_step (p, level, s))
        return true;
      p->shown_used &= ~(1u << k);
    }
  s->shown = -1;
  if (p->commands >= CATCH_MAX_COMMANDS || it->klass->gap_commands == NULL)
    return false;
  p->commands++;
  for (const EngLiveGapCommand *g = it->klass->gap_commands; g->command != NULL; g++)
    {
      const EngCommand *cmd = eng_card_set_find_command (it->set, g->command);
      if (cmd == NULL)
        continue;
      s->kind = STEP_COMMAND;
      s->command = cmd->id;
      s->gap = g;
      if (try_step (p, level, s))
        {
          p->commands--;
          return true;
        }
    }
  p->commands--;
  return false;
}

/* The camera's look read from the configuration saved at `level`, its
 * changes in the order `since` gives (NULL: the tracker's): true when
 * without a complaint, and that order is kept for telling the story. */
static bool
camera_try (Plan *p, int level, const int64_t *since)
{
  p->scratch.n = 0;
  p->scratch.dropped = 0;
  p->trials++;
  p->order = since;
  bool ok = read_look (p, NULL, true, &p->scratch);
  p->order = NULL;
  if (ok)
    {
      if (since != NULL)
        memcpy (p->target_since, since, p->n_target * sizeof since[0]);
      return true;
    }
  restore (p, level);
  return false;
}

/* The cards of the look that changed, as indices into the look. */
static size_t
changed_items (Plan *p, int *idx, size_t max)
{
  EngInterpreter *it = p->it;
  show_target (p);
  live_diff (it);
  size_t k = 0;
  for (size_t c = 0; c < it->n_changes; c++)
    {
      const EngLiveChange *ch = &it->changes[c];
      if (ch->kind == ENG_LIVE_VANISH)
        continue;
      for (int i = 0; i < p->n_target; i++)
        {
          const EngLiveItem *t = &p->target[i];
          if (t->kind != ch->item.kind || t->serial != ch->item.serial
              || t->track != ch->item.track)
            continue;
          bool dup = false;
          for (size_t j = 0; j < k; j++)
            dup = dup || idx[j] == i;
          if (!dup)
            {
              if (k == max)
                return max + 1;
              idx[k++] = i;
            }
          break;
        }
    }
  return k;
}

/* The camera's look reads without a complaint from here, its changes in
 * the tracker's order or another: a card at rest a moment before another
 * after a restart may have been laid after it (a new tracker finds the
 * cards in its own order).  All orders of a few changes are tried. */
static bool
camera_reads (Plan *p, int level)
{
  if (camera_try (p, level, NULL))
    return true;
  int idx[CATCH_MAX_ORDERED];
  size_t max = level == 0 ? CATCH_MAX_ORDERED : CATCH_MAX_ORDERED - 2;
  size_t k = changed_items (p, idx, max);
  if (k < 2 || k > max)
    return false;
  /* Heap's algorithm over the changed cards; each order gives them times
   * 1..k before every other card of the look */
  int64_t *since = p->since;
  int c[CATCH_MAX_ORDERED] = { 0 };
  for (size_t i = 1; i < k;)
    {
      if (c[i] < (int) i)
        {
          size_t j = i % 2 == 0 ? 0 : (size_t) c[i];
          int t = idx[j];
          idx[j] = idx[i];
          idx[i] = t;
          for (int n = 0; n < p->n_target; n++)
            since[n] = 0;
          for (size_t r = 0; r < k; r++)
            since[idx[r]] = (int64_t) r + 1;
          if (p->trials > CATCH_MAX_TRIALS)
            return false;
          if (camera_try (p, level, since))
            return true;
          c[i]++;
          i = 1;
        }
      else
        c[i++] = 0;
    }
  return false;
}

/* Whether zone z is one where cards are laid for what they do. */
static bool
is_lay_zone (const EngInterpreter *it, EngZone z)
{
  EngZone zones[4 * ENG_MAX_PLAYERS + 16];
  size_t n = lay_zones (it, zones, sizeof zones / sizeof zones[0]);
  for (size_t i = 0; i < n; i++)
    if (eng_live_zone_eq (zones[i], z))
      return true;
  return false;
}

/* Whether the look `s` has a card at zone z. */
static bool
look_has (const Step *s, EngZone z)
{
  for (uint16_t i = 0; i < s->n_look; i++)
    if (eng_live_zone_eq (s->look[i].zone, z))
      return true;
  return false;
}

/* A face-down card where face `f` (now in a capture area) was before it
 * was taken: the first empty place of a rival's where cards lie face
 * down, with an id no tracker gives.  False when there is none. */
static bool
back_for_captured (const EngInterpreter *it, const EngLiveItem *f, Step *s)
{
  const EngLiveClass *k = it->klass;
  for (unsigned p = 0; p < eng_live_n_players (it); p++)
    {
      int seat = eng_live_seat_of (it, (int) p);
      for (int i = 0; i < k->n_slots && seat != f->zone.seat; i++)
        {
          EngZone z = eng_live_zone (ENG_ZONE_SLOT, seat, i);
          if (!((k->flip_zones >> ENG_ZONE_SLOT) & 1u) || look_has (s, z)
              || s->n_look >= ENG_SNAPSHOT_MAX_ITEMS)
            continue;
          EngLiveItem back = { 'B', (uint16_t) (eng_live_deck_of (it, f->serial) + 1),
                               0xE0000000u | s->n_look, z };
          s->look[s->n_look++] = back;
          return true;
        }
    }
  return false;
}

/* The camera's look without the faces whose bits are set in `without`
 * (indices into `faces`), read as the game's setup: the story's first
 * look.  A face taken out of a capture area leaves a face-down card in
 * the place it was captured from. */
static bool
try_setup_without (Plan *p, const int *faces, int n_faces, unsigned without)
{
  Step *s = &p->trial;
  s->kind = STEP_LOOK;
  s->n_look = 0;
  for (int i = 0; i < p->n_target; i++)
    {
      bool out = false;
      for (int f = 0; f < n_faces && !out; f++)
        out = faces[f] == i && ((without >> f) & 1u);
      if (!out)
        s->look[s->n_look++] = p->target[i];
    }
  for (int f = 0; f < n_faces; f++)
    {
      const EngLiveItem *face = &p->target[faces[f]];
      if (((without >> f) & 1u) && face->zone.kind == p->it->klass->moved_to
          && face->zone.kind != 0 && !back_for_captured (p->it, face, s))
        return false;
    }
  return try_step (p, 0, s);
}

/* The story's first look, when the referee has not seen the table yet:
 * the camera's look without one, two or three faces laid where cards are
 * laid, taken to a capture area or put on a pile (the table set up, then
 * played on), fewest first. */
static bool
try_setups (Plan *p)
{
  const EngLiveClass *k = p->it->klass;
  int faces[12];
  int n = 0;
  for (uint16_t i = 0; i < p->n_target && n < (int) G_N_ELEMENTS (faces); i++)
    {
      const EngLiveItem *t = &p->target[i];
      bool played = is_lay_zone (p->it, t->zone)
                    || (k->moved_to != 0 && t->zone.kind == k->moved_to)
                    || ((k->cover_zones >> t->zone.kind) & 1u);
      if (t->kind == 'F' && played)
        faces[n++] = i;
    }
  for (int size = 1; size <= 3; size++)
    for (unsigned without = 1; without < (1u << n); without++)
      if (__builtin_popcount (without) == size && try_setup_without (p, faces, n, without))
        return true;
  return false;
}

/* Whether change `c` puts a face that was not on the table onto a pile. */
static bool
on_pile (const EngInterpreter *it, const EngLiveChange *c)
{
  return c->kind == ENG_LIVE_APPEAR && c->item.kind == 'F'
         && ((it->klass->cover_zones >> c->item.zone.kind) & 1u);
}

/* Depth first from the configuration now in the interpreter, `level`
 * steps into the story. */
static bool
search (Plan *p, int level)
{
  EngInterpreter *it = p->it;
  save (p, level);
  if (camera_reads (p, level))
    {
      p->length = level;
      return true;
    }
  if (level >= CATCH_MAX_STEPS || p->trials > CATCH_MAX_TRIALS)
    return false;
  if (!it->started)
    return level == 0 && try_setups (p);
  /* after an undo: the table put back as it was before the move */
  if (it->restoring)
    {
      Step *s = &p->trial;
      s->kind = STEP_LOOK;
      s->n_look = it->mind.n_view;
      memcpy (s->look, it->mind.view, it->mind.n_view * sizeof s->look[0]);
      return try_step (p, level, s);
    }
  show_target (p);
  live_diff (it);
  EngLiveChange *diff = p->diff + (size_t) level * LIVE_MAX_CHANGES;
  size_t n = it->n_changes;
  memcpy (diff, it->changes, n * sizeof diff[0]);
  /* a face that reached a pile while the referee was away was played
   * first, most likely: put straight there only after its detours */
  for (int piled = 0; piled < 2; piled++)
    {
      for (size_t i = 0; i < n; i++)
        {
          if (on_pile (it, &diff[i]) != piled)
            continue;
          look_with (it, &diff[i], &p->trial);
          if (try_step (p, level, &p->trial))
            return true;
        }
      for (size_t i = 0; i < n && !piled; i++)
        if (diff[i].kind == ENG_LIVE_APPEAR && diff[i].item.kind == 'F'
            && try_detours (p, level, &diff[i]))
          return true;
    }
  for (size_t i = 0; i < n; i++)
    if (diff[i].kind == ENG_LIVE_VANISH && diff[i].item.kind == 'F' && try_buried (p, level, &diff[i]))
      return true;
  if (try_answers (p, level) || try_commands (p, level))
    return true;
  /* the table took back the last move before the gap (a card laid and
   * taken away again): an undo, first in the story or not at all */
  if (level > 0 || !p->has_last)
    return false;
  p->trial.kind = STEP_COMMAND;
  p->trial.command = "undo";
  p->trial.gap = NULL;
  p->trial.shown = -1;
  return try_step (p, level, &p->trial);
}

/* ---- the entry point ------------------------------------------------------------------ */

/* A search from the configuration saved at level 0, which it leaves the
 * interpreter in: the steps of the story found, -1 none (also when the
 * search was cut short).  `answers` false: no question is answered. */
static int
find_story (Plan *p, bool answers)
{
  memset (p->seen, 0, ((size_t) 1 << CATCH_SEEN_BITS) * sizeof *p->seen);
  p->trials = p->commands = 0;
  p->shown_used = 0;
  p->answers = answers ? 0 : CATCH_MAX_ANSWERS;
  p->length = -1;
  bool found = search (p, 0);
  restore (p, 0);
  return found ? p->length : -1;
}

/* Whether each answer of story[0..length) is the only one a story can
 * give: the search with that answer barred where it was given finds no
 * story, and was not cut short. */
static bool
answers_proven (Plan *p, int length)
{
  for (int i = 0; i < length; i++)
    {
      if (p->story[i].kind != STEP_ANSWER)
        continue;
      for (int j = 0; j < i; j++)
        {
          p->scratch.n = 0;
          p->scratch.dropped = 0;
          run_step (p, &p->story[j], &p->scratch);
        }
      p->ban_config = config_hash (p);
      p->ban_player = p->story[i].player;
      restore (p, 0);
      int other = find_story (p, true);
      bool short_of_trials = p->trials > CATCH_MAX_TRIALS;
      p->ban_config = 0;
      if (other >= 0 || short_of_trials)
        return false;
    }
  return true;
}

static bool
has_answer (const Plan *p, int length)
{
  for (int i = 0; i < length; i++)
    if (p->story[i].kind == STEP_ANSWER)
      return true;
  return false;
}

/* The story to tell, into p->story: its steps (0: the look reads as it is;
 * -1: none).  A story that answers a question the proof of answers_proven
 * does not hold for gives way to one that answers none. */
static int
plan_story (Plan *p)
{
  save (p, 0);
  int length = find_story (p, true);
  if (length > 0)
    memcpy (p->story, p->path, (size_t) length * sizeof *p->story);
  if (length <= 0 || !has_answer (p, length) || answers_proven (p, length))
    return length;
  length = find_story (p, false);
  if (length > 0)
    memcpy (p->story, p->path, (size_t) length * sizeof *p->story);
  return length;
}

/* ---- what the table proves ------------------------------------------------------ */

/* A command card of a story and what would prove it: a later step of the
 * story or the camera's look going on past it: a move by another player
 * than the one it was made for (the next player's attack proves the end of
 * the turn before it), or a look meeting what it asked of the table (the
 * refill an end of turn asks for). */
typedef struct {
  int step;
  int player;                    /* whose move it made, or whose turn it was */
  uint8_t n_added;
  EngLiveExpect added[ENG_LIVE_MAX_EXPECT];
  bool proven;
} Claim;

static bool
expect_same (const EngLiveExpect *a, const EngLiveExpect *b)
{
  return a->kind == b->kind && a->serial == b->serial && a->track == b->track
         && eng_live_zone_eq (a->zone, b->zone);
}

static bool
mind_expects (const EngLiveMind *m, const EngLiveExpect *e)
{
  for (int i = 0; i < m->n_expect; i++)
    if (expect_same (&m->expect[i], e))
      return true;
  return false;
}

/* A look of the story (or the camera's) made moves [from, record end) and
 * left the mind as it is: the claims it proves. */
static void
prove_claims (const EngInterpreter *it, Claim *claims, int n, size_t from)
{
  for (int c = 0; c < n; c++)
    {
      Claim *k = &claims[c];
      for (size_t m = from; m < it->record->n_moves && !k->proven; m++)
        k->proven = it->record->moves[m].move.player != k->player;
      for (int e = 0; e < k->n_added && !k->proven; e++)
        k->proven = !mind_expects (&it->mind, &k->added[e]);
    }
}

/* The first step of story[0..length) the table does not prove: a gap's
 * command card that nothing after it shows (length: none).  The story is
 * run from the configuration saved at level 0 and undone. */
static int
first_unproven (Plan *p, int length, int *player)
{
  EngInterpreter *it = p->it;
  Claim *claims = calloc (CATCH_MAX_COMMANDS + 1, sizeof *claims);
  EngLiveMind *before = malloc (sizeof *before);
  int n = 0, first = length;
  if (claims == NULL || before == NULL)
    {
      free (claims);
      free (before);
      return -1;   /* told nothing: the look is read as it is */
    }
  for (int i = 0; i < length; i++)
    {
      const Step *s = &p->story[i];
      size_t moves = it->record->n_moves;
      int to_move = eng_game_to_move (it->game);
      *before = it->mind;
      p->scratch.n = 0;
      p->scratch.dropped = 0;
      run_step (p, s, &p->scratch);
      if (s->kind == STEP_COMMAND && s->gap != NULL && n <= CATCH_MAX_COMMANDS)
        {
          Claim *k = &claims[n++];
          k->step = i;
          k->player = it->record->n_moves > moves ? it->record->moves[moves].move.player
                                                  : to_move;
          for (int e = 0; e < it->mind.n_expect; e++)
            if (!mind_expects (before, &it->mind.expect[e]))
              k->added[k->n_added++] = it->mind.expect[e];
        }
      else if (s->kind == STEP_LOOK)
        prove_claims (it, claims, n, moves);
    }
  size_t moves = it->record->n_moves;
  p->scratch.n = 0;
  p->scratch.dropped = 0;
  read_look (p, NULL, true, &p->scratch);
  prove_claims (it, claims, n, moves);
  for (int c = 0; c < n; c++)
    if (!claims[c].proven && claims[c].step < first)
      {
        first = claims[c].step;
        *player = claims[c].player;
      }
  restore (p, 0);
  free (claims);
  free (before);
  return first;
}

/* Asks the table whether it showed the gap's command card `g` for
 * `player`; no look is read until it answers (live_gap_answer). */
static void
ask_gap (EngInterpreter *it, const EngLiveGapCommand *g, int player, EngEvents *out)
{
  it->gap_asked = g;
  it->gap_player = player;
  if (out == NULL)
    return;
  /* the question holds the player's name where its %s stands */
  const char *q = ENG_ (g->question), *at = strstr (q, "%s");
  char text[sizeof out->items[0].text];
  if (at != NULL)
    snprintf (text, sizeof text, "%.*s%s%s", (int) (at - q), q,
              eng_live_player_name (it, player), at + 2);
  else
    snprintf (text, sizeof text, "%s", q);
  eng_live_say (out, ENG_EVENT_NEED, player, "", "%s", text);
}

bool
live_gap_answer (EngInterpreter *it, const char *id, EngEvents *out)
{
  const EngLiveGapCommand *g = it->gap_asked;
  if (g == NULL)
    return false;
  bool yes = strcmp (id, "confirm") == 0 || strcmp (id, g->command) == 0;
  if (!yes && strcmp (id, "cancel") != 0)
    {
      ask_gap (it, g, it->gap_player, out);   /* the question first */
      return true;
    }
  it->gap_asked = NULL;
  live_complaints_unseen (it);
  if (yes)
    {
      /* the card made, and the rest of the look told from there */
      live_run_command (it, g->command, out);
      live_catch_up (it, NULL, NULL, out);
    }
  else
    it->catch_up = false;   /* the look is read as it is, complaints and all */
  if (it->gap_asked == NULL)
    live_read_table (it, out);
  live_complaints_fixed (it);
  return true;
}

bool
live_catch_up (EngInterpreter *it, uint16_t *shown, size_t *n_shown, EngEvents *out)
{
  /* a table being put back after an undo made before the restart may
   * have been put back, and played on, meanwhile: the search starts from
   * the table put back.  An undo made since is the table's to finish. */
  if (it->paused || (it->restoring && !it->restoring_journaled))
    return false;
  Plan *p = calloc (1, sizeof *p);
  if (p == NULL)
    return false;
  p->it = it;
  p->length = -1;
  p->shown = shown;
  p->n_shown = n_shown != NULL ? MIN (*n_shown, 8 * sizeof p->shown_used) : 0;
  p->has_last = it->record->n_moves > 0
                && eng_game_history_depth (it->game) == it->record->n_moves;
  if (p->has_last)
    p->last = it->record->moves[it->record->n_moves - 1];
  p->n_target = it->n_cur;
  memcpy (p->target, it->cur, it->n_cur * sizeof it->cur[0]);
  memcpy (p->target_read, it->cur_read, it->n_cur * sizeof it->cur_read[0]);
  memcpy (p->target_since, it->cur_since, it->n_cur * sizeof it->cur_since[0]);
  size_t data_size = it->klass->data_size;
  p->cp = calloc (CATCH_MAX_STEPS + 2, sizeof *p->cp);
  p->data = data_size > 0 ? calloc (CATCH_MAX_STEPS + 2, data_size) : NULL;
  p->path = calloc (CATCH_MAX_STEPS, sizeof *p->path);
  p->story = calloc (CATCH_MAX_STEPS, sizeof *p->story);
  p->diff = calloc (CATCH_MAX_STEPS + 1, LIVE_MAX_CHANGES * sizeof *p->diff);
  p->storage = calloc (CATCH_EVENTS, sizeof *p->storage);
  p->seen = calloc ((size_t) 1 << CATCH_SEEN_BITS, sizeof *p->seen);
  bool told = false;
  if (p->cp != NULL && (data_size == 0 || p->data != NULL) && p->path != NULL
      && p->story != NULL && p->diff != NULL && p->storage != NULL && p->seen != NULL)
    {
      eng_events_init (&p->scratch, p->storage, CATCH_EVENTS);
      int length = plan_story (p);
      /* a look that reads as it is needs no story; one that found none is
       * read as it is, complaints and all.  A command card nothing after it
       * proves is not told but asked, and the story stops there. */
      int player = -1;
      int proven = length > 0 ? first_unproven (p, length, &player) : length;
      unsigned used = 0;
      for (int i = 0; i < proven; i++)
        {
          run_step (p, &p->story[i], out != NULL ? out : &p->scratch);
          if (p->story[i].kind == STEP_COMMAND && p->story[i].shown >= 0)
            used |= 1u << p->story[i].shown;
        }
      if (proven >= 0 && proven < length)
        ask_gap (it, p->story[proven].gap, player, out);
      told = length > 0;
      /* the command cards the story made are not made again */
      size_t kept = 0;
      for (size_t k = 0; n_shown != NULL && k < *n_shown; k++)
        if (k >= p->n_shown || !((used >> k) & 1u))
          shown[kept++] = shown[k];
      if (n_shown != NULL)
        *n_shown = kept;
    }
  show_target (p);
  free (p->cp);
  free (p->data);
  free (p->path);
  free (p->story);
  free (p->diff);
  free (p->storage);
  free (p->seen);
  free (p);
  return told;
}

/* tests/live: random legal Katua games played at a simulated table and
 * refereed by the live interpreter.
 *
 * An omniscient engine game (dealt from a seed) picks random legal moves;
 * each move is turned into what the players physically do at the table,
 * following the protocol of docs/interpreter.md (cards laid face up in
 * attack zones and play areas, cats flipped and carried off, command cards,
 * refills with backs), written as snapshot-script text
 * (docs/snapshot-script-format.md).  After each move the simulated table
 * is put as the rules' state says (what the interpreter's NEEDs ask for).
 * The script then runs through the interpreter, which knows only what the
 * table shows, and must apply the same moves in the same order (with the
 * faces the table showed), complain about nothing, and end with the same
 * scores.  A failure prints the seed, the first divergence and saves the
 * script under the build dir (LIVE_RANDOM_OUT or the current directory).
 *
 * Games per test: TABLERO_LIVE_GAMES=N, else a few hundred (a fifth under
 * TABLERO_SANITIZED=1, the ASan CI run).  To explore or reproduce:
 * LIVE_RANDOM_SEED0=N shifts the seeds, LIVE_RANDOM_SEED=S plays only seed
 * S, LIVE_RANDOM_PRINT=1 prints the numbered script and every event of a
 * failing game, LIVE_RANDOM_OUT=DIR is where failing scripts are saved. */
#include "live-fixture.h"

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "eng-game.h"
#include "eng-live-script.h"
#include "eng-record.h"
#include "katua.h"

TestSuite (live_random, .init = live_fixture_load_set, .fini = live_fixture_free_set);

/* Extra coverage counters beyond the verbs. */
enum { COV_NO_DEFENCE = KAT_VERB_COUNT, COV_CAPTURE_HIT, COV_ASKED, COV_CONFIRM_CANCEL,
       COV_DISCARD_BACK, COV_FORCED_SHOW, COV_REFILL, COV_LATE_HOOK, COV_LET_ACT, COV_SEATS,
       COV_HALF_SWAP, COV_ONE_LOOK_CAPTURE, COV_KEY, COV_KILLED, COV_ONE_LOOK_TWO_STEPS, COV_UNDO, COV_TIE, COV_HOOK_FACE_UP,
       COV_COPIED_SHIELD, COV_N };

/* Where one physical card lies on the simulated table. */
typedef struct {
  bool on;
  bool face;
  char zone[24];
} Place;

typedef struct {
  const KatRules *r;
  KatState s;
  Place place[KAT_MAX_CARDS];
  GString *text;
  EngMove expected[1024];
  size_t n_expected;
  EngRng *policy;
  long coverage[COV_N];
} Table;



static uint16_t
serial (const Table *t, uint8_t idx)
{
  return t->r->cards[idx].serial;
}

static const char *
pname (const Table *t, int p)
{
  return t->s.names[p];
}

static void
emit (Table *t, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));
static void
emit (Table *t, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_string_append_vprintf (t->text, fmt, ap);
  va_end (ap);
  g_string_append_c (t->text, '\n');
}

/* A command: the command card shown, or the app's key (both run the
 * same function in the interpreter). */
static void
t_command (Table *t, const char *id)
{
  if (eng_rng_below (t->policy, 4) == 0)
    {
      emit (t, "key %s", id);
      t->coverage[COV_KEY]++;
    }
  else
    emit (t, "command %s", id);
}

static void
t_put (Table *t, uint8_t idx, bool face, const char *zone)
{
  emit (t, "put %u %s %s", serial (t, idx), face ? "face" : "back", zone);
  t->place[idx].on = true;
  t->place[idx].face = face;
  g_strlcpy (t->place[idx].zone, zone, sizeof t->place[idx].zone);
}

static void
t_move (Table *t, uint8_t idx, const char *zone)
{
  emit (t, "move %u %s", serial (t, idx), zone);
  g_strlcpy (t->place[idx].zone, zone, sizeof t->place[idx].zone);
}

static void
t_flip (Table *t, uint8_t idx)
{
  emit (t, "flip %u", serial (t, idx));
  t->place[idx].face = !t->place[idx].face;
}

static void
t_remove (Table *t, uint8_t idx)
{
  emit (t, "remove %u", serial (t, idx));
  t->place[idx].on = false;
}

/* A zone of player p's seat, written with the player's name (the script
 * maps names to seat markers, so games at any seats read the same). */
static const char *
zone (const Table *t, char *buf, const char *kind, int p, int index)
{
  if (index >= 0)
    snprintf (buf, 24, "%s %s %d", kind, pname (t, p), index);
  else
    snprintf (buf, 24, "%s %s", kind, pname (t, p));
  return buf;
}

static bool
in_list (const uint8_t *list, int n, uint8_t idx)
{
  for (int i = 0; i < n; i++)
    if (list[i] == idx)
      return true;
  return false;
}

/* K10 option: while an X-Ray or Teleporter waits for its answer, the
 * table already shows its flip or swap (done when it was played), which
 * the rules' state applies only when the rival lets it act. */
static bool
held_slot (const Table *t, const char *zone_text)
{
  const KatState *s = &t->s;
  if (s->phase != KAT_PHASE_ANSWER)
    return false;
  for (int i = 0; i < (s->answer_verb == KAT_XRAY ? 1 : 2); i++)
    {
      char z[24];
      zone (t, z, "slot", s->answer_p[i], s->answer_s[i]);
      if (strcmp (z, zone_text) == 0)
        return true;
    }
  return false;
}

/* Sometimes the tracker commits a look between two changes the table
 * makes to follow the referee's NEEDs. */
static void
maybe_look (Table *t)
{
  if (eng_rng_below (t->policy, 4) == 0)
    emit (t, "snap");
}

/* Puts the simulated table as the rules' state says: what every NEED of
 * the interpreter asks for (cards to the discard pile, cats to capture
 * areas, cats turned face down again, Stampede's old cats away and new
 * backs in, refills, late Hook answers back into the hand).  Emits a
 * `snap` when anything changed. */
static void
sync_table (Table *t)
{
  const KatState *s = &t->s;
  bool changed = false;
  char z[24];
  /* first what leaves or moves, then what arrives */
  /* the cats or the UFO cards first, as the table pleases */
  bool ufos_first = eng_rng_below (t->policy, 2) == 0;
  for (int n = 0; n < t->r->n_cards; n++)
    {
      int i = ufos_first ? t->r->n_cards - 1 - n : n;
      Place *pl = &t->place[i];
      if (!pl->on || held_slot (t, pl->zone))
        continue;
      uint8_t idx = (uint8_t) i;
      bool placed = false;
      for (int p = 0; p < s->n_players && !placed; p++)
        for (int k = 0; k < KAT_SLOTS && !placed; k++)
          if (s->slot[p][k] == idx)
            {
              placed = true;
              zone (t, z, "slot", p, k);
              if (strcmp (pl->zone, z) != 0)
                t_move (t, idx, z), changed = true, maybe_look (t);
            }
      for (int p = 0; p < s->n_players && !placed; p++)
        if (in_list (s->captured[p], s->captured_n[p], idx))
          {
            placed = true;
            zone (t, z, "capture", p, -1);
            if (strcmp (pl->zone, z) != 0)
              {
                if (!pl->face)
                  t_flip (t, idx);
                t_move (t, idx, z), changed = true, maybe_look (t);
              }
          }
      if (!placed && in_list (s->discard, s->discard_n, idx))
        {
          placed = true;
          if (strcmp (pl->zone, "discard") != 0)
            t_move (t, idx, "discard"), changed = true, maybe_look (t);
        }
      if (!placed && in_list (s->in_play, s->in_play_n, idx))
        placed = true;
      if (!placed)
        t_remove (t, idx), changed = true;   /* a hand or a deck */
    }
  for (int p = 0; p < s->n_players; p++)
    for (int k = 0; k < KAT_SLOTS; k++)
      {
        uint8_t idx = s->slot[p][k];
        if (idx >= t->r->n_cards || held_slot (t, zone (t, z, "slot", p, k)))
          continue;
        if (!t->place[idx].on)
          {
            t_put (t, idx, s->face_up[p][k], zone (t, z, "slot", p, k));
            changed = true;
            t->coverage[COV_REFILL]++;
          }
        else if (t->place[idx].face != (bool) s->face_up[p][k])
          t_flip (t, idx), changed = true;
      }
  if (changed)
    emit (t, "snap");
}

static int
slot_face_down (const Table *t, int p, int k)
{
  uint8_t idx = t->s.slot[p][k];
  return idx < t->r->n_cards && !t->s.face_up[p][k];
}

/* The hooks' "whose UFO?" candidates before `player` intercepts. */
static int
hook_candidates (const KatState *s, int *list)
{
  int n = 0;
  for (int i = 1; i < s->n_players; i++)
    {
      int q = (s->active + i) % s->n_players;
      if (!(s->hook_answered & (1u << q)))
        list[n++] = q;
    }
  return n;
}

/* Lays a card for the copied / played X-Ray or Teleporter effect. */
/* The look between a two-step card and its second step (the flip, the
 * swap, the UFO moved by a Shield): usually there, sometimes both steps
 * land between the same two looks (ordered by when each came to rest). */
static void
second_step_look (Table *t)
{
  if (eng_rng_below (t->policy, 4) == 0)
    t->coverage[COV_ONE_LOOK_TWO_STEPS]++;
  else
    emit (t, "snap");
}

static void
do_xray (Table *t, uint8_t card, int p, int k, EngMove *exp, const char *where)
{
  char z[24];
  t_put (t, card, true, where ? where : zone (t, z, "attack", p, k));
  uint8_t cat = t->s.slot[p][k];
  if (!slot_face_down (t, p, k))
    emit (t, "snap");
  else
    {
      second_step_look (t);
      t_flip (t, cat);
      exp->show = serial (t, cat);
      emit (t, "snap");
    }
}

/* The two cats of a swap change places, in one look or in two halves,
 * either one first; the referee names the first moved cat's slot first,
 * so *exp (may be NULL) gets its pair in that order. */
static void
do_swap (Table *t, const EngMove *m, EngMove *exp)
{
  char z[24];
  int first = (int) eng_rng_below (t->policy, 2), second = 1 - first;
  /* K10 option: the rules give the answer to the first rival the swap
   * names, so with two rivals' cats the order is not free (an ambiguity of
   * the protocol: the cat moved first names it); keep the rules' order */
  if (t->r->xray_teleporter_answerable && m->target[0] != m->player
      && m->target[1] != m->player && m->target[0] != m->target[1])
    first = 0, second = 1;
  uint8_t a = t->s.slot[m->target[first]][m->slot[first]];
  uint8_t b = t->s.slot[m->target[second]][m->slot[second]];
  t_move (t, a, zone (t, z, "slot", m->target[second], m->slot[second]));
  if (eng_rng_below (t->policy, 3) == 0)
    {
      emit (t, "snap");
      t->coverage[COV_HALF_SWAP]++;
    }
  t_move (t, b, zone (t, z, "slot", m->target[first], m->slot[first]));
  emit (t, "snap");
  if (exp != NULL)
    {
      exp->target[0] = m->target[first], exp->slot[0] = m->slot[first];
      exp->target[1] = m->target[second], exp->slot[1] = m->slot[second];
    }
}

/* After `undo`: the table is put back as `saved` shows it (what
 * docs/interpreter.md asks: "Put the table back as it was before that
 * move"). */
static void
restore_table (Table *t, const Place *saved)
{
  bool changed = false;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < t->r->n_cards; i++)
      {
        Place *now = &t->place[i];
        const Place *was = &saved[i];
        uint8_t idx = (uint8_t) i;
        if (pass == 0 && now->on && !was->on)
          t_remove (t, idx), changed = true;
        else if (pass == 0 && now->on && was->on && strcmp (now->zone, was->zone) != 0)
          t_move (t, idx, was->zone), changed = true;
        else if (pass == 1 && !now->on && was->on)
          t_put (t, idx, was->face, was->zone), changed = true;
        if (pass == 1 && now->on && now->face != was->face)
          t_flip (t, idx), changed = true;
      }
  if (changed)
    emit (t, "snap");
}

/* "Whose UFO is on the Hook?" (3-4 players): asked when at least two
 * rivals (of state s) may still answer; answered with command cards
 * (cancel to the owner, then confirm) or a key naming the player. */
static void
answer_whose (Table *t, const KatState *s, int player)
{
  int cand[KAT_MAX_PLAYERS];
  int n = hook_candidates (s, cand);
  if (n < 2)
    return;
  t->coverage[COV_ASKED]++;
  int at = 0;
  while (at < n && cand[at] != player)
    at++;
  if (eng_rng_below (t->policy, 2) == 0 && at < n)
    {
      t->coverage[COV_CONFIRM_CANCEL]++;
      for (int i = 0; i < at; i++)
        t_command (t, "cancel");
      t_command (t, "confirm");
    }
  else
    emit (t, "choose %s", pname (t, player));
}

/* Two rivals answer the Hook between the same two looks (K12): a and b in
 * that order.  The referee names the two in serial order (either card may
 * be written first) and asks whether the first it names came first, then
 * whose each one is. */
static void
intercept_tie (Table *t, const EngMove *a, const EngMove *b)
{
  char z[24];
  const KatState *s = &t->s;
  uint8_t ca = katua_card_index (t->r, a->card), cb = katua_card_index (t->r, b->card);
  bool a_written_first = eng_rng_below (t->policy, 2) == 0;
  zone (t, z, "attack", s->active, s->hook_slot);
  t_put (t, a_written_first ? ca : cb, true, z);
  t_put (t, a_written_first ? cb : ca, true, z);
  emit (t, "snap");
  t_command (t, a->card < b->card ? "confirm" : "cancel");
  answer_whose (t, s, a->player);
  KatState after = *s;
  cr_assert_eq (eng_game_class_apply (&katua_game_class, t->r, NULL, &after, a, NULL, NULL),
                                      ENG_OK);
  answer_whose (t, &after, b->player);
  t->coverage[COV_TIE]++;
}

/* Whether the `hit` m captures the attempt's target (it may escape). */
static bool
captured_by_hit (const Table *t, const EngMove *m)
{
  const KatAttempt *a = &t->s.att[0];
  uint8_t cat = t->s.slot[a->player][a->slot];
  KatState after = t->s;
  return eng_game_class_apply (&katua_game_class, t->r, NULL, &after, m, NULL, NULL) == ENG_OK
         && in_list (after.captured[a->launcher], after.captured_n[a->launcher], cat);
}

/* A discard turn (K3): the cards go on the pile first (face up or down,
 * over one or more looks), then the command; *exp gets `?` for the backs.
 * The referee's undo of a discard goes back to before the command, with
 * the cards on the pile. */
static void
lay_discards (Table *t, EngMove *exp)
{
  uint16_t *all[1 + ENG_MOVE_MAX_CARDS];
  int n = 0;
  if (exp->card)
    all[n++] = &exp->card;
  for (int i = 0; i < exp->n_cards; i++)
    all[n++] = &exp->cards[i];
  for (int i = 0; i < n; i++)
    {
      bool face = eng_rng_below (t->policy, 2) == 0;
      if (i > 0)
        maybe_look (t);
      t_put (t, katua_card_index (t->r, *all[i]), face, "discard");
      if (!face)
        *all[i] = ENG_SERIAL_UNKNOWN, t->coverage[COV_DISCARD_BACK]++;
    }
  if (n > 0)
    emit (t, "snap");
}

/* Does at the table what move m is, appending the script text; *exp
 * (initialised by the caller) becomes the move the interpreter must
 * record. */
static void
perform (Table *t, const EngMove *m, EngMove *exp)
{
  const KatState *s = &t->s;
  const KatRules *r = t->r;
  char z[24];
  uint8_t card = m->card ? katua_card_index (r, m->card) : KAT_NONE;
  int verb = m->verb;
  bool replica = verb == KAT_REPLICATE;
  if (replica)
    verb = s->rep_effect;
  const KatAttempt *a = &s->att[0];
  switch (verb)
    {
    case KAT_PASS:
      t_command (t, "pass");
      break;
    case KAT_END:
      t_command (t, "end-turn");
      break;
    case KAT_DISCARD:
      /* the cards were laid by lay_discards */
      t_command (t, "discard");
      break;
    case KAT_ATTACK:
    case KAT_HOOK:
      t_put (t, card, true, zone (t, z, "attack", m->target[0], m->slot[0]));
      emit (t, "snap");
      break;
    case KAT_INTERCEPT:
      if (s->hook_ufo != KAT_NONE && s->hook_ufo != KAT_UNKNOWN)
        t->coverage[COV_LATE_HOOK]++;
      t_put (t, card, true, zone (t, z, "attack", s->active, s->hook_slot));
      emit (t, "snap");
      answer_whose (t, s, m->player);
      break;
    case KAT_FLIP:
      {
        uint8_t cat = s->slot[s->active][s->hook_slot];
        if (slot_face_down (t, s->active, s->hook_slot))
          {
            t_flip (t, cat);
            exp->show = serial (t, cat);
            emit (t, "snap");
          }
        else
          {
            /* already face up: the cat carried off to whoever the rules
             * give it is what resolves the Hook, before anything else */
            KatState after = *s;
            cr_assert_eq (eng_game_class_apply (&katua_game_class, r, NULL, &after, m, NULL,
                                                NULL), ENG_OK);
            for (int p = 0; p < after.n_players; p++)
              if (in_list (after.captured[p], after.captured_n[p], cat))
                {
                  t_move (t, cat, zone (t, z, "capture", p, -1));
                  emit (t, "snap");
                  t->coverage[COV_HOOK_FACE_UP]++;
                }
          }
        break;
      }
    case KAT_REVEAL:
      {
        uint8_t cat = s->slot[m->target[0]][m->slot[0]];
        t_flip (t, cat);
        exp->show = serial (t, cat);
        emit (t, "snap");
        break;
      }
    case KAT_XRAY:
      do_xray (t, card, m->target[0], m->slot[0], exp, NULL);
      break;
    case KAT_TELEPORT:
      /* a defence is laid on the attempt; a turn card in the play area */
      if (s->phase == KAT_PHASE_ATTACK)
        t_put (t, card, true, zone (t, z, "attack", a->player, a->slot));
      else
        t_put (t, card, true, zone (t, z, "play", m->player, -1));
      second_step_look (t);
      do_swap (t, m, exp);
      break;
    case KAT_STAMPEDE:
      if (s->phase == KAT_PHASE_ATTACK)
        t_put (t, card, true, zone (t, z, "attack", a->player, a->slot));
      else
        t_put (t, card, true, zone (t, z, "play", m->target[0], -1));
      emit (t, "snap");
      break;
    case KAT_NEUTRALISE:
      {
        t_put (t, card, true, zone (t, z, "attack", a->player, a->slot));
        unsigned colour = replica ? s->rep_colour : r->cards[card].colour;
        if (!(a->colour == KAT_TRICOLOR && colour != KAT_TRICOLOR
              && slot_face_down (t, a->player, a->slot)))
          emit (t, "snap");
        else
          {
            second_step_look (t);
            t_flip (t, s->slot[a->player][a->slot]);
            exp->show = serial (t, s->slot[a->player][a->slot]);
            t->coverage[COV_FORCED_SHOW]++;
            emit (t, "snap");
          }
        break;
      }
    case KAT_SHIELD:
      {
        /* a Replicator copying the Shield is laid on the next attempt still
         * aimed at its player, whose UFO it turns (K13) */
        int i = replica ? katua_shield_copy_attempt (s, m->player) : 0;
        cr_assert_geq (i, 0);
        const KatAttempt *at = &s->att[i];
        t_put (t, card, true, zone (t, z, "attack", at->player, at->slot));
        second_step_look (t);
        t_move (t, at->card, zone (t, z, "attack", m->target[0], m->slot[0]));
        emit (t, "snap");
        if (replica)
          t->coverage[COV_COPIED_SHIELD]++;
        break;
      }
    case KAT_HIT:
      if (s->phase == KAT_PHASE_ANSWER)
        {
          /* K10 option: the table did the held card's flip or swap when it
           * was played; the answering rival lets it act */
          t_command (t, "no-defence");
          if (s->answer_verb == KAT_XRAY)
            exp->show = serial (t, s->slot[s->answer_p[0]][s->answer_s[0]]);
          t->coverage[COV_LET_ACT]++;
        }
      else if (slot_face_down (t, a->player, a->slot))
        {
          uint8_t cat = s->slot[a->player][a->slot];
          t_flip (t, cat);
          exp->show = serial (t, cat);
          /* sometimes turned and carried off between two looks, when the
           * rules will capture it */
          if (eng_rng_below (t->policy, 3) == 0 && captured_by_hit (t, m))
            {
              t_move (t, cat, zone (t, z, "capture", a->launcher, -1));
              t->coverage[COV_ONE_LOOK_CAPTURE]++;
            }
          emit (t, "snap");
        }
      else if (eng_rng_below (t->policy, 2) == 0 || !captured_by_hit (t, m))
        {
          /* a face-up cat that will escape stays: only the command says it */
          t->coverage[COV_NO_DEFENCE]++;
          t_command (t, "no-defence");
        }
      else
        {
          t->coverage[COV_CAPTURE_HIT]++;
          t_move (t, s->slot[a->player][a->slot], zone (t, z, "capture", a->launcher, -1));
          emit (t, "snap");
        }
      break;
    default:
      cr_assert_fail ("verb %d not simulated", verb);
    }
}

/* Moves the documented protocol does not read (docs/interpreter.md,
 * Limits). */
static bool
simulated (const KatState *s, const EngMove *m)
{
  /* K10 option: answering with a Teleporter has no table protocol yet */
  if (s->phase == KAT_PHASE_ANSWER && m->verb != KAT_HIT)
    return false;
  return true;
}

static void
load_options (EngOptions *opts)
{
  char path[1024];
  snprintf (path, sizeof path, "%s/rules/katua.options", getenv ("TABLERO_DATADIR"));
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_options_load_file (path, opts, &err), ENG_OK, "%s", err.reason);
}

typedef struct {
  char first[512];
  unsigned line;
  size_t n;
  GString *log;   /* every event, when LIVE_RANDOM_PRINT is set */
} Complaints;

static void
complaint_sink (void *user, unsigned line, const EngEvent *e)
{
  Complaints *c = user;
  if (c->log)
    g_string_append_printf (c->log, "  %4u %-12s [%s] %s\n", line,
                            eng_event_kind_to_string (e->kind), e->rule, e->text);
  bool bad = e->kind == ENG_EVENT_ILLEGAL || e->kind == ENG_EVENT_CONSERVATION
             || (e->kind == ENG_EVENT_NOTE && strcmp (e->rule, "table") == 0);
  if (!bad)
    return;
  if (c->n++ == 0)
    {
      c->line = line;
      snprintf (c->first, sizeof c->first, "%s [%s] %s", eng_event_kind_to_string (e->kind),
                e->rule, e->text);
    }
}

static void
save_script (const char *name, const char *text)
{
  const char *dir = getenv ("LIVE_RANDOM_OUT");
  char path[1024];
  snprintf (path, sizeof path, "%s/%s", dir && *dir ? dir : ".", name);
  FILE *f = fopen (path, "w");
  if (f)
    {
      fputs (text, f);
      fclose (f);
      fprintf (stderr, "script saved as %s\n", path);
    }
}

/* Plays one seeded game and referees it; returns false (after printing
 * why) on the first divergence. */
static bool
play_one (const KatRules *r, const EngOptions *opts, const char *const *overrides,
          unsigned n_players, uint64_t seed, long *coverage)
{
  Table *const t_ = g_new0 (Table, 1);   /* large (the expected moves): not on the stack */
  t_->r = r;
  t_->text = g_string_new (NULL);
  EngRng policy;
  eng_rng_seed (&policy, seed * 7919u + 17u);
  t_->policy = &policy;
  EngSetup su;
  eng_setup_init (&su);
  su.has_seed = true;
  su.seed = seed;
  su.n_players = n_players;
  su.first = (int) (seed % n_players);
  const char *names[] = { "Ana", "Bea", "Cid", "Dan" };
  for (unsigned p = 0; p < n_players; p++)
    g_strlcpy (su.names[p], names[p], sizeof su.names[p]);
  EngRng deal;
  eng_rng_seed (&deal, seed);
  cr_assert_eq (katua_game_class.setup (r, &su, &deal, &t_->s, NULL, NULL), ENG_OK);

  g_string_append_printf (t_->text, "# random game, seed %llu\nplayers", (unsigned long long) seed);
  for (unsigned p = 0; p < n_players; p++)
    g_string_append_printf (t_->text, " %s", names[p]);
  g_string_append_c (t_->text, '\n');
  if (eng_rng_below (&policy, 3) == 0)
    {
      /* the players at other seat markers: a random choice of n of the 4 */
      int markers[4] = { 1, 2, 3, 4 };
      for (int i = 3; i > 0; i--)
        {
          int j = (int) eng_rng_below (&policy, (uint32_t) i + 1), x = markers[i];
          markers[i] = markers[j], markers[j] = x;
        }
      g_string_append (t_->text, "seats");
      for (unsigned p = 0; p < n_players; p++)
        g_string_append_printf (t_->text, " %d", markers[p]);
      g_string_append_c (t_->text, '\n');
      t_->coverage[COV_SEATS]++;
    }
  emit (t_, "first %s", names[su.first]);
  for (int i = 0; overrides != NULL && overrides[i] != NULL; i += 2)
    emit (t_, "option %s %s", overrides[i], overrides[i + 1]);
  for (unsigned p = 0; p < n_players; p++)
    {
      emit (t_, "deal %s %u %u %u", names[p], serial (t_, t_->s.slot[p][0]), serial (t_, t_->s.slot[p][1]),
            serial (t_, t_->s.slot[p][2]));
      for (int k = 0; k < KAT_SLOTS; k++)
        {
          Place *pl = &t_->place[t_->s.slot[p][k]];
          pl->on = true;
          pl->face = false;
          zone (t_, pl->zone, "slot", (int) p, k);
        }
    }
  emit (t_, "snap");

  EngMove moves[512];
  EngMove pick[512];
  while (t_->s.phase != KAT_PHASE_OVER && t_->n_expected < 600)
    {
      size_t count = katua_game_class.legal_moves (r, &t_->s, moves, 512);
      cr_assert_gt (count, 0);
      if (count > 512)
        count = 512;
      size_t n = 0;
      for (size_t i = 0; i < count; i++)
        if (simulated (&t_->s, &moves[i]))
          pick[n++] = moves[i];
      cr_assert_gt (n, 0, "seed %llu: only unsimulated moves", (unsigned long long) seed);
      EngMove m = pick[eng_rng_below (&policy, (uint32_t) n)];
      /* sometimes a second rival's answer to the Hook lands in the same
       * look: the two moves are played as one tie */
      if (m.verb == KAT_INTERCEPT && eng_rng_below (&policy, 3) == 0)
        {
          KatState after = t_->s;
          cr_assert_eq (eng_game_class_apply (&katua_game_class, r, NULL, &after, &m, NULL, NULL),
                                              ENG_OK);
          size_t c2 = after.phase == KAT_PHASE_HOOK
                      ? katua_game_class.legal_moves (r, &after, moves, 512) : 0;
          if (c2 > 512)
            c2 = 512;
          size_t n2 = 0;
          for (size_t i = 0; i < c2; i++)
            if (moves[i].verb == KAT_INTERCEPT && moves[i].player != m.player)
              pick[n2++] = moves[i];
          if (n2 > 0)
            {
              EngMove b = pick[eng_rng_below (&policy, (uint32_t) n2)];
              intercept_tie (t_, &m, &b);
              EngMove both[2] = { m, b };
              for (int i = 0; i < 2; i++)
                {
                  EngVerdict why;
                  cr_assert_eq (eng_game_class_apply (&katua_game_class, r, NULL, &t_->s,
                                                      &both[i], NULL, &why), ENG_OK,
                                "%s", why.reason);
                  t_->expected[t_->n_expected++] = both[i];
                  t_->coverage[KAT_INTERCEPT]++;
                }
              sync_table (t_);
              continue;
            }
        }
      /* now and then the move is undone (the undo command, the table put
       * back) and made again */
      bool undo = eng_rng_below (&policy, 12) == 0;
      EngMove exp0 = m;
      exp0.show = 0;
      if (m.verb == KAT_DISCARD)
        lay_discards (t_, &exp0);
      Place saved_places[KAT_MAX_CARDS];
      KatState saved_state = t_->s;
      memcpy (saved_places, t_->place, sizeof saved_places);
      for (int attempt = 0; attempt < (undo ? 2 : 1); attempt++)
        {
          EngMove exp = exp0;
          perform (t_, &m, &exp);
          EngVerdict why;
          cr_assert_eq (eng_game_class_apply (&katua_game_class, r, NULL, &t_->s, &m, NULL, &why),
                                              ENG_OK, "%s",
                        why.reason);
          t_->expected[t_->n_expected++] = exp;
          sync_table (t_);
          if (attempt == 0 && undo)
            {
              if (t_->s.phase == KAT_PHASE_OVER)
                break;
              t_command (t_, "undo");
              restore_table (t_, saved_places);
              t_->s = saved_state;
              t_->n_expected--;
              t_->coverage[COV_UNDO]++;
            }
        }
      t_->coverage[m.verb]++;
    }
  emit (t_, "snap");

  /* referee it */
  bool ok = true;
  char why[8192] = "";
  EngLiveScript *sc = NULL;
  EngParseError err = { .reason = "" };
  EngStatus st = eng_live_script_parse (t_->text->str, t_->text->len, "random", &sc, &err);
  cr_assert_eq (st, ENG_OK, "seed %llu: script line %u: %s", (unsigned long long) seed, err.line,
                err.reason);
  Complaints c = { .first = "", .log = getenv ("LIVE_RANDOM_PRINT") ? g_string_new (NULL) : NULL };
  EngLiveScriptResult res;
  st = eng_live_script_run (sc, live_fixture_set, opts, complaint_sink, &c, &res, &err);
  EngRecord *rec = NULL;
  if (st != ENG_OK)
    ok = false, snprintf (why, sizeof why, "run: line %u: %s", err.line, err.reason);
  else if (eng_record_parse (res.record, strlen (res.record), "result", &rec, &err) != ENG_OK)
    ok = false, snprintf (why, sizeof why, "record: %s", err.reason);
  if (ok)
    {
      const EngSetup *lsu = eng_live_script_setup (sc);
      for (size_t i = 0; ok && i < t_->n_expected; i++)
        {
          char want[160], got[160] = "(none)";
          eng_record_format_move (&katua_game_class, lsu, &t_->expected[i], want, sizeof want);
          if (i < rec->n_moves)
            eng_record_format_move (&katua_game_class, lsu, &rec->moves[i].move, got, sizeof got);
          if (strcmp (want, got) != 0)
            ok = false, snprintf (why, sizeof why, "move %zu: engine '%s', referee '%s'", i + 1,
                                  want, got);
        }
      if (ok && rec->n_moves != t_->n_expected)
        ok = false, snprintf (why, sizeof why, "referee applied %zu moves, engine %zu",
                              rec->n_moves, t_->n_expected);
      if (ok && c.n > 0)
        ok = false, snprintf (why, sizeof why, "complaint at line %u: %s", c.line, c.first);
      for (unsigned p = 0; ok && p < n_players; p++)
        if (res.scores[p] != t_->s.score[p])
          ok = false, snprintf (why, sizeof why, "score of %s: engine %d, referee %d", names[p],
                                t_->s.score[p], res.scores[p]);
    }
  /* every 8th game: the referee is killed after a random snapshot and
   * resumed from its journal; it must end with the same record and
   * complain about nothing */
  if (ok && seed % 8 == 0 && res.snapshots > 1)
    {
      size_t k = 1 + eng_rng_below (&policy, (uint32_t) res.snapshots - 1);
      Complaints kc = { .first = "" };
      EngLiveScriptResult killed;
      EngRecord *krec = NULL;
      st = eng_live_script_run_killed (sc, live_fixture_set, opts, k, complaint_sink, &kc,
                                       &killed, &err);
      if (st != ENG_OK)
        ok = false, snprintf (why, sizeof why, "killed after snapshot %zu: line %u: %s", k,
                              err.line, err.reason);
      else if (eng_record_parse (killed.record, strlen (killed.record), "killed", &krec, &err)
                 != ENG_OK || !eng_record_equal (krec, rec))
        ok = false, snprintf (why, sizeof why, "killed after snapshot %zu: another record:\n%s",
                              k, killed.record);
      else if (kc.n > 0)
        ok = false, snprintf (why, sizeof why, "killed after snapshot %zu: complaint at line %u: %s",
                              k, kc.line, kc.first);
      else
        t_->coverage[COV_KILLED]++;
      if (krec)
        eng_record_free (krec);
      if (st == ENG_OK)
        free (killed.record);
    }
  if (!ok)
    {
      char name[64];
      snprintf (name, sizeof name, "live-random-%llu.script", (unsigned long long) seed);
      if (getenv ("LIVE_RANDOM_PRINT"))
        {
          /* numbered, to read with the events' line numbers */
          gchar **lines = g_strsplit (t_->text->str, "\n", -1);
          for (int i = 0; lines[i]; i++)
            fprintf (stderr, "%4d %s\n", i + 1, lines[i]);
          g_strfreev (lines);
        }
      fprintf (stderr, "seed %llu (%u players): %s\n", (unsigned long long) seed, n_players, why);
      save_script (name, t_->text->str);
      if (c.log)
        fprintf (stderr, "events:\n%s\n", c.log->str);
    }
  else
    for (int i = 0; i < COV_N; i++)
      coverage[i] += t_->coverage[i];
  if (c.log)
    g_string_free (c.log, TRUE);
  if (rec)
    eng_record_free (rec);
  if (st == ENG_OK)
    free (res.record);
  eng_live_script_free (sc);
  g_string_free (t_->text, TRUE);
  g_free (t_);
  return ok;
}

static long
games_to_play (long normal)
{
  const char *n = getenv ("TABLERO_LIVE_GAMES");
  if (n != NULL && *n)
    return strtol (n, NULL, 10);
  const char *san = getenv ("TABLERO_SANITIZED");
  return (san != NULL && *san && strcmp (san, "0") != 0) ? normal / 5 : normal;
}

static void
play_games (const char *const *overrides, long games, uint64_t seed0)
{
  EngOptions opts;
  load_options (&opts);
  for (int i = 0; overrides != NULL && overrides[i] != NULL; i += 2)
    cr_assert_eq (eng_options_set (&opts, overrides[i], overrides[i + 1]), ENG_OK);
  void *rules_v = NULL;
  EngParseError err;
  cr_assert_eq (katua_game_class.rules_new (live_fixture_set, &opts, &rules_v, &err), ENG_OK,
                "%s", err.reason);
  long coverage[COV_N] = { 0 };
  long failed = 0, first_failed = -1;
  const char *only = getenv ("LIVE_RANDOM_SEED");
  /* LIVE_RANDOM_SEED0=N: other games (seeds shifted by N) to explore */
  const char *shift = getenv ("LIVE_RANDOM_SEED0");
  if (shift != NULL && *shift)
    seed0 += strtoull (shift, NULL, 10);
  for (long g = 0; g < games; g++)
    {
      uint64_t seed = seed0 + (uint64_t) g;
      if (only && *only && strtoull (only, NULL, 10) != seed)
        continue;
      if (!play_one (rules_v, NULL, overrides, 2 + (unsigned) (seed % 3), seed, coverage))
        {
          if (failed++ == 0)
            first_failed = (long) seed;
          if (failed >= 5)
            break;
        }
    }
  static const char *const extra[] = { "no-defence", "capture-hit", "whose-asked",
                                       "confirm/cancel", "discard-back", "forced-show",
                                       "refill", "late-hook", "let-act", "games-at-seats",
                                       "swap-in-halves", "flip-and-carry-in-one-look",
                                       "key-commands", "killed-and-resumed",
                                       "two-steps-in-one-look", "undone-and-redone",
                                       "hook-ties", "hook-on-face-up-cat", "copied-shield" };
  GString *cov = g_string_new (NULL);
  for (int i = 0; i < COV_N; i++)
    g_string_append_printf (cov, " %s=%ld",
                            i < KAT_VERB_COUNT ? katua_game_class.verbs[i] : extra[i - KAT_VERB_COUNT],
                            coverage[i]);
  cr_log_info ("%ld games refereed:%s", games, cov->str);
  fprintf (stderr, "live random (%ld games):%s\n", games, cov->str);
  g_string_free (cov, TRUE);
  katua_game_class.rules_free (rules_v);
  cr_assert_eq (failed, 0, "%ld games diverged; first seed %ld", failed, first_failed);
}

Test (live_random, default_rules, .timeout = 600)
{
  play_games (NULL, games_to_play (300), 1000);
}

Test (live_random, xray_teleporter_answerable, .timeout = 600)
{
  static const char *const answerable[] = { "xray_teleporter_answerable", "yes", NULL };
  play_games (answerable, games_to_play (100), 50000);
}

Test (live_random, quick_start_total_memory, .timeout = 600)
{
  static const char *const quick[] = { "quick_start", "yes", "total_memory", "yes", NULL };
  play_games (quick, games_to_play (100), 60000);
}

Test (live_random, ufo_deck_no_draw, .timeout = 600)
{
  static const char *const no_draw[] = { "ufo_deck_out", "no-draw", "winning_score", "12", NULL };
  play_games (no_draw, games_to_play (60), 70000);
}

/* The scripts that reproduce the interpreter bugs this test found
 * (tests/live/scripts): each must hold all its expect lines and apply
 * exactly the moves of its .rec file. */
Test (live_random, scripts_of_the_bugs_found)
{
  static const char *const names[] = { "katua-2p-hook-face-up", "katua-2p-reshuffle",
                                       "katua-2p-replicate-defence",
                                       "katua-2p-replicate-forced-show", "katua-2p-answerable",
                                       "katua-2p-undo-pass", "katua-3p-undo-intercept" };
  for (size_t i = 0; i < G_N_ELEMENTS (names); i++)
    {
      char path[1024];
      snprintf (path, sizeof path, "%s/scripts/%s.script", TESTS_LIVE_DIR, names[i]);
      EngLiveScript *sc = NULL;
      EngParseError err = { .reason = "" };
      cr_assert_eq (eng_live_script_load_file (path, &sc, &err), ENG_OK, "%s:%u: %s", path,
                    err.line, err.reason);
      Complaints c = { .first = "" };
      EngLiveScriptResult res;
      cr_assert_eq (eng_live_script_run (sc, live_fixture_set, NULL, complaint_sink, &c, &res,
                                         &err), ENG_OK, "%s:%u: %s", path, err.line, err.reason);
      eng_live_script_free (sc);
      cr_assert_eq (res.failures, 0, "%s: %s", names[i], res.first_failure);
      cr_assert_gt (res.expects, 0);
      snprintf (path, sizeof path, "%s/scripts/%s.rec", TESTS_LIVE_DIR, names[i]);
      EngRecord *want = NULL, *got = NULL;
      cr_assert_eq (eng_record_load_file (path, &want, &err), ENG_OK, "%s: %s", path, err.reason);
      cr_assert_eq (eng_record_parse (res.record, strlen (res.record), "applied", &got, &err),
                    ENG_OK, "%s", err.reason);
      cr_assert (eng_record_equal (want, got), "%s: applied moves differ from the .rec:\n%s",
                 names[i], res.record);
      eng_record_free (want);
      eng_record_free (got);
      free (res.record);
    }
}

Test (live_random, ufo_deck_out_ends_the_game, .timeout = 600)
{
  static const char *const end[] = { "ufo_deck_out", "end", "winning_score", "15", NULL };
  play_games (end, games_to_play (40), 80000);
}

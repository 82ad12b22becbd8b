/* test-kittens-random.c: random legal Exploding Kittens games of 2 to 5
 * players played at a simulated table and refereed by the live
 * interpreter, as test-catchy-random does for Catchy! and test-live-random
 * for Katua.
 *
 * A game dealt from a seed (the rules know every card) is played with
 * random legal moves; each move is written as what a table does
 * (docs/kittens-live.md): a card or a Nope laid face up in its player's
 * play area; a question (whom a Favor, a pair or a trio is against, which
 * card a trio asks for) answered on screen or with confirm and cancel; a
 * play resolved by confirm or done; once no play is open, every played card
 * in a play area moved to the discard pile (in one look or two); a draw
 * told by end-turn or the draw card, or, when it is an Exploding Kitten,
 * the kitten laid in the drawer's play area; a Defuse laid, the kitten
 * taken back into the pile; no Defuse told by end-turn (the player out,
 * their hand sometimes laid face up in front of them); a Favor's card
 * handed face down (confirm); a trio's card laid by its target, then taken
 * into the asker's hand, or cancel when the target holds none; a pair or
 * a trio laid card by card when they are cats, together otherwise; five
 * different laid together (a cat first, alone, at times), the card taken
 * from the discard pile named by its kind and taken off the pile.  Commands
 * are shown as cards or pressed as keys, at the policy's whim; another
 * player's Nope, the tidying and the kitten put back are seen alone or in
 * one look with what the table does next (a command card seen with them; a
 * key is pressed after the camera saw them); a card played is seen alone
 * (cards the active player lays together are a combo); a card taken off
 * the table is seen gone before it comes back.
 *
 * The script goes to the referee, which knows no hidden card: it must apply
 * exactly the seeded game's moves as a table sees them (as_seen), complain
 * about nothing, and give the same record when killed after a random look
 * and resumed.
 *
 * 50 games per player count; TABLERO_SANITIZED=1 (the ASan CI run) plays
 * 25, KITTENS_LIVE_GAMES=N overrides both.  KITTENS_SCRIPT_OUT=DIR keeps
 * each game's script. */
#include <criterion/criterion.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-live-script.h"
#include "eng-record.h"
#include "kittens.h"
#include "live-fixture.h"

static const char *const names[KIT_MAX_PLAYERS] = { "Ana", "Bea", "Cai", "Dan", "Eva" };

typedef struct {
  size_t games, moves, looks, kills, hands_laid;
  size_t excluded[4];            /* picks replaced, by unreadable()'s reason */
  size_t kinds[KIT_KIND_COUNT];   /* cards laid face up, by kind */
  size_t verbs[KIT_VERB_COUNT];
} Tally;

typedef struct {
  GString *text;
  const KitRules *r;
  EngRng *policy;
  uint16_t laid[KIT_MAX_CARDS];   /* face-up cards lying in play areas */
  size_t n_laid;
  bool unsnapped;                 /* table changes written since the last snap */
  uint16_t gone[4];               /* cards taken off the table since then */
  size_t n_gone;
  Tally *tally;
} Table;

static long
games_per_count (void)
{
  const char *n = getenv ("KITTENS_LIVE_GAMES");
  if (n != NULL && *n)
    return strtol (n, NULL, 10);
  const char *san = getenv ("TABLERO_SANITIZED");
  return (san != NULL && *san && strcmp (san, "0") != 0) ? 25 : 50;
}

/* The move as a live table reports it: a card passed face down under a
 * Favor is unknown, a drawn card is shown only when it is a kitten (as in
 * tests/engine/test-kittens-random.c). */
static EngMove
as_seen (const KitRules *r, const KitState *s, const EngMove *m)
{
  EngMove seen = *m;
  if (m->verb == KIT_GIVE && s->give_type == KIT_NONE)
    seen.card = ENG_SERIAL_UNKNOWN;
  if (m->verb == KIT_DRAW)
    {
      bool resolving_bottom = s->open == KIT_OPEN_CARD
                              && r->cards[s->open_cards[0]].kind == KIT_KIND_BOTTOM
                              && !(s->nopes & 1);
      unsigned pos = s->draw_bottom || resolving_bottom ? 0u : s->pile_n - 1u;
      uint8_t k = s->pile[pos];
      if (k < r->n_cards && r->cards[k].kind == KIT_KIND_KITTEN)
        seen.show = r->cards[k].serial;
    }
  return seen;
}

/* A random legal move, as kittens_random_move picks it (a draw one time in
 * three, otherwise uniform), among the moves a live table can show: a trio
 * cannot ask for an Exploding Kitten there (the question names every card
 * type but the kitten, which is never held, E8), and after five different
 * the question names kinds, confirm taking the topmost card of the kind
 * named, so taking a card with another of its kind above it is not said.
 * When the policy picks one of those it picks another legal move instead;
 * each case is counted and printed. */

/* The question after five different names the kinds of the discard
 * pile's cards other than the five, from the top down, each once, and
 * confirm takes the topmost card of the kind named: the index of `serial`'s
 * kind in that order, or -1 when a card of its kind lies above it. */
static int
take_kind_index (const KitRules *r, const KitState *s, uint16_t serial)
{
  uint8_t seen[KIT_MAX_TYPES];
  int n = 0;
  for (int i = s->discard_n - 1; i >= 0; i--)
    {
      uint8_t k = s->discard[i];
      bool own = false;
      for (int j = 0; j < s->open_n; j++)
        own = own || s->open_cards[j] == k;
      if (own)
        continue;
      uint8_t type = r->cards[k].type;
      bool named = false;
      for (int j = 0; j < n; j++)
        named = named || seen[j] == type;
      if (r->cards[k].serial == serial)
        return named ? -1 : n;
      if (!named)
        seen[n++] = type;
    }
  return -1;
}

/* Why a legal move cannot be shown at a live table yet (0: it can). */
static int
unreadable (const KitRules *r, const KitState *s, const EngMove *m)
{
  if (m->verb == KIT_TAKE && take_kind_index (r, s, m->card) < 0)
    return 1;
  if (m->verb == KIT_TRIO
      && r->cards[kittens_card_index (r, m->cards[2])].kind == KIT_KIND_KITTEN)
    return 2;
  return 0;
}

static bool
table_move (const KitRules *r, const KitState *s, EngRng *policy, EngMove *out, Tally *tally)
{
  EngMove moves[512];
  size_t n = kittens_game_class.legal_moves (r, s, moves, 512);
  cr_assert_leq (n, 512);
  if (n == 0)
    return false;
  if (s->phase == KIT_PHASE_TURN && s->open == KIT_OPEN_NONE && eng_rng_below (policy, 3) == 0)
    {
      *out = moves[0];   /* an ordinary turn's draw, favoured so games end */
      return true;
    }
  *out = moves[eng_rng_below (policy, (uint32_t) n)];
  int why = unreadable (r, s, out);
  if (why == 0)
    return true;
  tally->excluded[why]++;
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (unreadable (r, s, &moves[i]) == 0)
      moves[kept++] = moves[i];
  cr_assert_gt (kept, 0, "a live table can always draw or resolve");
  *out = moves[eng_rng_below (policy, (uint32_t) kept)];
  return true;
}

static void
snap (Table *t)
{
  g_string_append (t->text, "snap\n");
  t->unsnapped = false;
  t->n_gone = 0;
}

/* A command shown as a card, or pressed as a key. */
static void
command (Table *t, const char *id)
{
  bool card = eng_rng_below (t->policy, 2);
  /* a key is pressed after what the camera saw; a command card is seen
   * with the table changes not yet committed (the same look) */
  if (!card && t->unsnapped)
    snap (t);
  g_string_append_printf (t->text, "%s %s\n", card ? "command" : "key", id);
  t->unsnapped = false;
  t->n_gone = 0;
}

static void
lay (Table *t, uint16_t serial, int player)
{
  t->tally->kinds[t->r->cards[kittens_card_index (t->r, serial)].kind]++;
  /* a card taken off is seen gone before it comes back (the trio's card
   * played, the kitten drawn again): in one look nothing would change */
  for (size_t i = 0; i < t->n_gone; i++)
    if (t->gone[i] == serial)
      snap (t);
  g_string_append_printf (t->text, "put %u face play %s\n", serial, names[player]);
  t->laid[t->n_laid++] = serial;
  t->unsnapped = true;
}

static void
unlay (Table *t, uint16_t serial)
{
  for (size_t i = 0; i < t->n_laid; i++)
    if (t->laid[i] == serial)
      {
        t->laid[i] = t->laid[--t->n_laid];
        return;
      }
  cr_assert_fail ("card %u is not in a play area", serial);
}

static void
taken_off (Table *t, uint16_t serial)
{
  g_string_append_printf (t->text, "remove %u\n", serial);
  unlay (t, serial);
  t->unsnapped = true;
  cr_assert_lt (t->n_gone, sizeof t->gone / sizeof t->gone[0]);
  t->gone[t->n_gone++] = serial;
}

static bool
discarded (const KitState *s, uint8_t k)
{
  for (int i = 0; i < s->discard_n; i++)
    if (s->discard[i] == k)
      return true;
  return false;
}

/* Once no play is open, every played card in a play area goes to the
 * discard pile (E12), in one look or two; returns whether any moved. */
static bool
tidy (Table *t, const KitState *s)
{
  if (s->open != KIT_OPEN_NONE)
    return false;
  size_t moved = 0;
  for (size_t i = 0; i < t->n_laid;)
    {
      uint16_t serial = t->laid[i];
      if (!discarded (s, kittens_card_index (t->r, serial)))
        {
          i++;
          continue;
        }
      if (moved > 0 && eng_rng_below (t->policy, 4) == 0)
        snap (t);
      g_string_append_printf (t->text, "move %u discard\n", serial);
      unlay (t, serial);
      t->unsnapped = true;
      moved++;
    }
  return moved > 0;
}

/* The players a Favor, pair or trio of `player` may name, from their left,
 * as the referee asks (alive, holding cards). */
static size_t
targets (const KitState *s, int player, int *out)
{
  size_t n = 0;
  for (int i = 1; i < s->n_players; i++)
    {
      int p = (player + i) % s->n_players;
      if (((s->alive >> p) & 1) && s->hand_n[p] > 0)
        out[n++] = p;
    }
  return n;
}

/* Answers "against whom?" for the named `target`: on screen, or cancel
 * until it is named, then confirm. */
static void
answer_target (Table *t, const KitState *s, int player, int target)
{
  if (eng_rng_below (t->policy, 3) == 0)
    {
      if (t->unsnapped)
        snap (t);
      g_string_append_printf (t->text, "choose %s\n", names[target]);
      return;
    }
  int cand[KIT_MAX_PLAYERS];
  size_t n = targets (s, player, cand), i = 0;
  while (i < n && cand[i] != target)
    i++;
  cr_assert_lt (i, n, "%s is not among the targets", names[target]);
  for (size_t c = 0; c < i; c++)
    command (t, "cancel");
  command (t, "confirm");
}

/* Names the card a trio asks for: the question goes through the set's
 * types in order, the kitten left out; cancel names the next one. */
static void
name_card (Table *t, uint16_t asked)
{
  const KitRules *r = t->r;
  uint8_t type = r->cards[kittens_card_index (r, asked)].type;
  for (unsigned ty = 0; ty < type; ty++)
    if (r->cards[r->type_first[ty]].kind != KIT_KIND_KITTEN)
      command (t, "cancel");
  command (t, "confirm");
}

/* Cats for a pair or a trio laid in one look or several. */
static void
lay_combo (Table *t, const EngMove *m)
{
  uint16_t cards[3] = { m->card, m->cards[0], m->cards[1] };
  int n = m->verb == KIT_TRIO ? 3 : 2;
  bool cat = t->r->cards[kittens_card_index (t->r, m->card)].kind == KIT_KIND_CAT;
  for (int i = 0; i < n; i++)
    {
      lay (t, cards[i], m->player);
      /* cats one by one or together; other cards together (one alone
       * would be played) */
      if (i == n - 1 || (cat && eng_rng_below (t->policy, 2)))
        snap (t);
    }
}

/* Writes the move m, applied to the state b (now a), as the table shows it. */
static void
write_move (Table *t, const KitState *b, const KitState *a, const EngMove *m, Tally *tally)
{
  const KitRules *r = t->r;
  int cand[KIT_MAX_PLAYERS];
  switch (m->verb)
    {
    case KIT_DRAW:
      {
        EngMove seen = as_seen (r, b, m);
        if (seen.show != 0)
          {
            lay (t, seen.show, m->player);
            snap (t);
          }
        else if (eng_rng_below (t->policy, 2))
          command (t, "end-turn");
        else
          command (t, "draw");
        break;
      }
    case KIT_PLAY:
      /* seen alone: cards the active player lays together are a combo */
      lay (t, m->card, m->player);
      snap (t);
      if (m->target[0] >= 0 && targets (b, m->player, cand) > 1)
        answer_target (t, b, m->player, m->target[0]);
      break;
    case KIT_NOPE:
      /* seen alone, or (another player's) with what follows */
      lay (t, m->card, m->player);
      if (m->player == b->active)
        snap (t);
      break;
    case KIT_DEFUSE:
      lay (t, m->card, m->player);
      snap (t);
      break;
    case KIT_RESOLVE:
      if (eng_rng_below (t->policy, 3) == 0)
        command (t, "done");
      else
        command (t, "confirm");
      break;
    case KIT_PAIR:
      /* with one player to name, the pair waits for confirm (or the
       * screen): a third card would make three of a kind */
      lay_combo (t, m);
      answer_target (t, b, m->player, m->target[0]);
      break;
    case KIT_TRIO:
      lay_combo (t, m);
      if (targets (b, m->player, cand) > 1)
        answer_target (t, b, m->player, m->target[0]);
      name_card (t, m->cards[2]);
      break;
    case KIT_FIVE:
      {
        /* a cat may come first, alone; the others together (an action
         * card alone would be played) */
        uint16_t cards[5] = { m->card, m->cards[0], m->cards[1], m->cards[2], m->cards[3] };
        for (int i = 0; i < 5; i++)
          {
            lay (t, cards[i], m->player);
            if (i == 0 && r->cards[kittens_card_index (r, cards[0])].kind == KIT_KIND_CAT
                && eng_rng_below (t->policy, 2))
              snap (t);
          }
        snap (t);
        break;
      }
    case KIT_TAKE:
      {
        int idx = take_kind_index (r, b, m->card);
        cr_assert_geq (idx, 0);
        for (int i = 0; i < idx; i++)
          command (t, "cancel");
        command (t, "confirm");
        /* from the discard pile into the hand */
        g_string_append_printf (t->text, "remove %u\n", m->card);
        t->unsnapped = true;
        t->gone[t->n_gone++] = m->card;
        break;
      }
    case KIT_GIVE:
      if (b->give_type == KIT_NONE)
        command (t, "confirm");   /* the Favor's card, handed face down */
      else if (m->card == 0)
        command (t, "cancel");    /* the trio's target holds none */
      else
        {
          /* shown in the target's play area, then taken into the hand */
          lay (t, m->card, m->player);
          snap (t);
          taken_off (t, m->card);
        }
      break;
    case KIT_REPLACE:
      {
        /* the kitten back into the pile; the Defuse to the discard pile in
         * the same look or the next */
        uint16_t kitten = r->cards[b->kitten].serial;
        if (eng_rng_below (t->policy, 2))
          {
            /* seen on the pile first, then slipped into it */
            g_string_append_printf (t->text, "move %u deck main\nsnap\n", kitten);
          }
        taken_off (t, kitten);
        if (eng_rng_below (t->policy, 2))
          snap (t);
        break;
      }
    case KIT_EXPLODE:
      command (t, "end-turn");
      /* the kitten stays where it was shown; the hand sometimes laid face
       * up beside it, out of play (E14) */
      if (b->hand_n[m->player] > 0 && eng_rng_below (t->policy, 2))
        {
          for (int i = 0; i < b->hand_n[m->player]; i++)
            g_string_append_printf (t->text, "put %u face play %s\n",
                                    r->cards[b->hand[m->player][i]].serial, names[m->player]);
          snap (t);
          tally->hands_laid++;
        }
      break;
    default:
      cr_assert_fail ("verb %u is not written", m->verb);
    }
  /* the Defuse waits for the kitten to go back (one look or two) */
  if (m->verb != KIT_DEFUSE && a->phase != KIT_PHASE_OVER)
    tidy (t, a);
  /* the tidying (the kitten put back) sometimes shares its look with what
   * the table does next; a card taken into a hand is seen gone first, as
   * it may come back in a combo laid together */
  bool to_hand = m->verb == KIT_TAKE || (m->verb == KIT_GIVE && m->card != 0
                                          && m->card != ENG_SERIAL_UNKNOWN);
  if (t->unsnapped && (to_hand || eng_rng_below (t->policy, 3) != 0))
    snap (t);
}

/* One seeded game played out as a script; returns the moves as seen. */
static EngRecord *
play_game (const KitRules *r, const EngOptions *opts, int players, uint64_t seed, GString *text,
           Tally *tally)
{
  EngSetup su;
  eng_setup_init (&su);
  su.n_players = (unsigned) players;
  for (int p = 0; p < players; p++)
    snprintf (su.names[p], sizeof su.names[p], "%s", names[p]);
  su.has_seed = true;
  su.seed = seed;
  su.first = (int) (seed % (uint64_t) players);
  EngRng rng, policy;
  eng_rng_seed (&rng, seed);
  eng_rng_seed (&policy, seed ^ 0x5eedu);
  KitState s;
  EngVerdict why;
  cr_assert_eq (kittens_game_class.setup (r, &su, &rng, &s, NULL, &why), ENG_OK, "%s",
                why.reason);
  EngRecord *rec = eng_record_new (&kittens_game_class, &su, opts);
  Table t = { .text = text, .r = r, .policy = &policy, .tally = tally };
  g_string_append (text, "game kittens\nplayers");
  for (int p = 0; p < players; p++)
    g_string_append_printf (text, " %s", names[p]);
  g_string_append_printf (text, "\nfirst %s\nsnap\n", names[su.first]);
  for (int n = 0; s.phase != KIT_PHASE_OVER; n++)
    {
      cr_assert_lt (n, 3000, "seed %llu: the game does not end", (unsigned long long) seed);
      EngMove m;
      cr_assert (table_move (r, &s, &policy, &m, tally), "seed %llu: no move",
                 (unsigned long long) seed);
      KitState before = s;
      EngMove seen = as_seen (r, &s, &m);
      cr_assert_eq (eng_game_class_apply (&kittens_game_class, r, NULL, &s, &m, NULL, &why),
                                          ENG_OK, "%s", why.reason);
      write_move (&t, &before, &s, &m, tally);
      eng_record_append (rec, &seen, 0);
      tally->verbs[m.verb]++;
    }
  if (t.unsnapped)
    snap (&t);
  return rec;
}

static void
referee_game (const EngCardSet *set, const EngOptions *opts, const KitRules *r, int players,
              uint64_t seed, Tally *tally)
{
  GString *text = g_string_new (NULL);
  EngRecord *want = play_game (r, opts, players, seed, text, tally);
  const char *keep = getenv ("KITTENS_SCRIPT_OUT");
  if (keep != NULL && *keep)
    {
      char out[1024];
      snprintf (out, sizeof out, "%s/kittens-random-%dp-%llu.script", keep, players,
                (unsigned long long) seed);
      g_file_set_contents (out, text->str, (gssize) text->len, NULL);
    }
  EngParseError err = { .reason = "" };
  EngLiveScript *sc = NULL;
  cr_assert_eq (eng_live_script_parse (text->str, text->len, "random", &sc, &err), ENG_OK,
                "seed %llu: line %u: %s\n%s", (unsigned long long) seed, err.line, err.reason,
                text->str);
  char complaint[256] = "";
  EngLiveScriptResult res;
  cr_assert_eq (eng_live_script_run (sc, set, opts, live_fixture_complaint_sink, complaint, &res, &err),
                ENG_OK, "seed %llu: line %u: %s", (unsigned long long) seed, err.line,
                err.reason);
  cr_assert_not_null (res.record);
  EngRecord *got = NULL;
  cr_assert_eq (eng_record_parse (res.record, strlen (res.record), "referee", &got, &err), ENG_OK,
                "%s", err.reason);
  char why[512];
  cr_assert (live_fixture_same_moves (want, got, why, sizeof why), "%d players, seed %llu: %s\n%s\n%s",
             players, (unsigned long long) seed, why, res.record, text->str);
  cr_assert_str_empty (complaint, "%d players, seed %llu: %s\n%s", players,
                       (unsigned long long) seed, complaint, text->str);
  cr_assert (res.over, "seed %llu: the referee's game is not over", (unsigned long long) seed);
  cr_assert_gt (res.snapshots, 1);
  /* killed after a random look, resumed from the journal */
  size_t k = 1 + (size_t) (seed * 2654435761u % (res.snapshots - 1));
  EngLiveScriptResult killed;
  cr_assert_eq (eng_live_script_run_killed (sc, set, opts, k, NULL, NULL, &killed, &err), ENG_OK,
                "%d players, seed %llu: killed after look %zu: line %u: %s", players,
                (unsigned long long) seed, k, err.line, err.reason);
  cr_assert_str_eq (killed.record, res.record, "%d players, seed %llu: killed after look %zu",
                    players, (unsigned long long) seed, k);
  tally->games++;
  tally->moves += want->n_moves;
  tally->looks += res.snapshots;
  tally->kills++;
  free (killed.record);
  free (res.record);
  eng_record_free (got);
  eng_record_free (want);
  eng_live_script_free (sc);
  g_string_free (text, TRUE);
}

Test (kittens_random, random_games_refereed_exactly_and_resumed_after_a_kill, .timeout = 600)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir);
  char path[1024];
  snprintf (path, sizeof path, "%s/cards/kittens.set", dir);
  EngCardSet *set = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s", err.reason);
  EngOptions opts;
  memset (&opts, 0, sizeof opts);
  snprintf (path, sizeof path, "%s/rules/kittens.options", dir);
  cr_assert_eq (eng_options_load_file (path, &opts, &err), ENG_OK, "%s", err.reason);
  void *rules = NULL;
  cr_assert_eq (kittens_game_class.rules_new (set, &opts, &rules, &err), ENG_OK, "%s",
                err.reason);
  long per_count = games_per_count ();
  cr_assert_gt (per_count, 0, "no game to referee");
  Tally tally = { 0 };
  for (int players = 2; players <= KIT_MAX_PLAYERS; players++)
    for (long g = 0; g < per_count; g++)
      referee_game (set, &opts, rules, players, (uint64_t) (players * 100000 + g) * 7777u,
                    &tally);
  cr_log_info ("kittens random: %zu games, %zu moves, %zu looks, %zu kills; %zu hands laid out "
               "of play; picked and replaced by another move (not read at a live table yet): "
               "taking a card under another of its kind %zu times, a trio asking for a kitten %zu", tally.games, tally.moves, tally.looks, tally.kills,
               tally.hands_laid, tally.excluded[1], tally.excluded[2]);
  GString *verbs = g_string_new (NULL);
  for (unsigned v = 0; v < KIT_VERB_COUNT; v++)
    g_string_append_printf (verbs, " %s %zu", kittens_game_class.verbs[v], tally.verbs[v]);
  cr_log_info ("kittens random moves:%s", verbs->str);
  g_string_free (verbs, TRUE);
  cr_assert_eq (tally.games, (size_t) (4 * per_count));
  cr_assert_geq (tally.moves, tally.games * 20, "games too short to prove anything");
  cr_assert_eq (tally.kills, tally.games);
  /* every kind the set deals was laid face up at the table */
  const KitRules *r = rules;
  for (unsigned k = 0; k < r->n_cards; k++)
    cr_assert_gt (tally.kinds[r->cards[k].kind], 0, "no card of kind %u (card %u) laid",
                  r->cards[k].kind, r->cards[k].serial);
  if (per_count >= 10)
    for (unsigned v = 0; v < KIT_VERB_COUNT; v++)
      cr_assert_gt (tally.verbs[v], 0, "no %s in %zu games", kittens_game_class.verbs[v],
                      tally.games);
  kittens_game_class.rules_free (rules);
  eng_card_set_free (set);
}

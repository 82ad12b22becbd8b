/* kittens.c: the Exploding Kittens class: its rules built from the card
 * set and the option switches, what makes a combo (E7) and a target (E13),
 * and the queries.  Applying a move is kittens-apply.c, the deal and
 * conservation kittens-setup.c, the legal moves kittens-moves.c, the public
 * view and card names kittens-view.c. */
#include "kittens-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const kittens_verbs[KIT_VERB_COUNT] = {
  [KIT_DRAW] = "draw", [KIT_PLAY] = "play", [KIT_NOPE] = "nope", [KIT_RESOLVE] = "resolve",
  [KIT_PAIR] = "pair", [KIT_TRIO] = "trio", [KIT_FIVE] = "five", [KIT_GIVE] = "give",
  [KIT_TAKE] = "take", [KIT_DEFUSE] = "defuse", [KIT_EXPLODE] = "explode",
  [KIT_REPLACE] = "replace",
};

/* ---- rules from the card set and options ------------------------------ */

static const char *const kind_ids[KIT_KIND_COUNT] = {
  [KIT_KIND_KITTEN] = "exploding-kitten", [KIT_KIND_DEFUSE] = "defuse",
  [KIT_KIND_NOPE] = "nope", [KIT_KIND_ATTACK] = "attack", [KIT_KIND_SKIP] = "skip",
  [KIT_KIND_FAVOR] = "favor", [KIT_KIND_SHUFFLE] = "shuffle",
  [KIT_KIND_SEE] = "see-the-future", [KIT_KIND_CAT] = "cat",
  [KIT_KIND_TARGETED] = "targeted-attack", [KIT_KIND_TRIPLE] = "triple-attack",
  [KIT_KIND_SUPER_SKIP] = "super-skip", [KIT_KIND_BOTTOM] = "draw-from-bottom",
  [KIT_KIND_ALTER] = "alter-the-future", [KIT_KIND_REVERSE] = "reverse",
  [KIT_KIND_SWAP] = "swap-top-bottom", [KIT_KIND_BURY] = "bury",
  [KIT_KIND_PERSONAL] = "personal-attack", [KIT_KIND_FERAL] = "feral-cat",
};

static const char *const cat_ids[] = { "black", "white", "grey", "tabby", "blond" };

static const char *const known_options[] = {
  "spare_defuses", "attack_stacking", "nope_on_combo", "two_ferals_pair",
};

static EngStatus
bool_option (const EngOptions *o, const char *name, bool def, bool *out, EngParseError *err)
{
  const char *v = eng_options_get (o, name);
  if (v == NULL)
    *out = def;
  else if (strcmp (v, "yes") == 0 || strcmp (v, "true") == 0 || strcmp (v, "on") == 0)
    *out = true;
  else if (strcmp (v, "no") == 0 || strcmp (v, "false") == 0 || strcmp (v, "off") == 0)
    *out = false;
  else
    {
      eng_parse_error_set (err, "options", 0, "option %s: '%s' is not yes or no", name, v);
      return ENG_ERR_SYNTAX;
    }
  return ENG_OK;
}

/* One of two words, or the default when absent. */
static EngStatus
choice_option (const EngOptions *o, const char *name, const char *a, const char *b,
               uint8_t *out, EngParseError *err)
{
  const char *v = eng_options_get (o, name);
  if (v == NULL || strcmp (v, a) == 0)
    *out = 0;
  else if (strcmp (v, b) == 0)
    *out = 1;
  else
    {
      eng_parse_error_set (err, "options", 0, "%s: '%s' is not %s or %s", name, v, a, b);
      return ENG_ERR_SYNTAX;
    }
  return ENG_OK;
}

static EngStatus
read_card (KitRules *r, const EngCard *c, const char **type_ids, EngParseError *err)
{
  const char *kind = eng_card_attr (c, "kind");
  KitCard k = { .serial = c->serial, .kind = KIT_KIND_COUNT };
  for (unsigned i = 0; kind != NULL && i < KIT_KIND_COUNT; i++)
    if (strcmp (kind, kind_ids[i]) == 0)
      k.kind = (uint8_t) i;
  if (k.kind == KIT_KIND_COUNT || c->serial >= 1000)
    {
      eng_parse_error_set (err, "card set", 0, "card %u: unknown kind '%s'", c->serial,
                           kind ? kind : "");
      return ENG_ERR_INCONSISTENT;
    }
  const char *cat = eng_card_attr (c, "cat");
  for (unsigned i = 0; cat != NULL && i < 5; i++)
    if (strcmp (cat, cat_ids[i]) == 0)
      k.cat = (uint8_t) (i + 1);
  if (k.kind == KIT_KIND_CAT && k.cat == 0)
    {
      eng_parse_error_set (err, "card set", 0, "cat card %u has no cat colour", c->serial);
      return ENG_ERR_INCONSISTENT;
    }
  long v = 0;
  if (eng_card_attr_int (c, "turns", &v) == ENG_OK)
    k.turns = (uint8_t) v;
  else if (k.kind == KIT_KIND_ATTACK || k.kind == KIT_KIND_TARGETED
           || k.kind == KIT_KIND_PERSONAL)
    k.turns = 2;
  else if (k.kind == KIT_KIND_TRIPLE)
    k.turns = 3;
  if (eng_card_attr_int (c, "depth", &v) == ENG_OK)
    k.depth = (uint8_t) v;
  else if (k.kind == KIT_KIND_SEE || k.kind == KIT_KIND_ALTER)
    k.depth = 3;
  unsigned t = 0;
  while (t < r->n_types && strcmp (type_ids[t], c->type_id) != 0)
    t++;
  if (t == r->n_types)
    {
      if (r->n_types >= KIT_MAX_TYPES)
        {
          eng_parse_error_set (err, "card set", 0, "more than %d card types", KIT_MAX_TYPES);
          return ENG_ERR_LIMIT;
        }
      type_ids[r->n_types] = c->type_id;
      r->type_first[r->n_types++] = r->n_cards;
    }
  k.type = (uint8_t) t;
  r->by_serial[k.serial] = r->n_cards;
  r->cards[r->n_cards++] = k;
  return ENG_OK;
}

static EngStatus
kittens_rules_new (const EngCardSet *set, const EngOptions *options, void **out,
                   EngParseError *err)
{
  *out = NULL;
  if (set == NULL || strcmp (eng_card_set_game (set), "kittens") != 0)
    {
      eng_parse_error_set (err, "card set", 0, "not an Exploding Kittens card set");
      return ENG_ERR_INVALID_ARGUMENT;
    }
  KitRules *r = calloc (1, sizeof *r);
  if (r == NULL)
    return ENG_ERR_NO_MEMORY;
  r->set = set;
  memset (r->by_serial, KIT_NONE, sizeof r->by_serial);
  const char *type_ids[KIT_MAX_TYPES];
  size_t n = eng_card_set_n_cards (set);
  EngStatus st = ENG_OK;
  if (n > KIT_MAX_CARDS - 2)
    {
      eng_parse_error_set (err, "card set", 0, "too many cards for the Exploding Kittens "
                           "engine (at most %d)", KIT_MAX_CARDS - 2);
      st = ENG_ERR_LIMIT;
    }
  for (size_t i = 0; i < n && st == ENG_OK; i++)
    st = read_card (r, eng_card_set_card (set, i), type_ids, err);
  if (st == ENG_OK && options != NULL)
    for (size_t i = 0; i < options->n && st == ENG_OK; i++)
      {
        bool ok = false;
        for (size_t k = 0; k < sizeof known_options / sizeof known_options[0]; k++)
          ok = ok || strcmp (options->items[i].name, known_options[k]) == 0;
        if (!ok)
          {
            eng_parse_error_set (err, "options", 0, "unknown Exploding Kittens option '%s'",
                                 options->items[i].name);
            st = ENG_ERR_UNKNOWN_ATTRIBUTE;
          }
      }
  if (st == ENG_OK)
    st = choice_option (options, "attack_stacking", "stack", "reset", &r->attack_stacking, err);
  if (st == ENG_OK)
    st = choice_option (options, "spare_defuses", "all", "two", &r->spare_defuses, err);
  if (st == ENG_OK)
    st = bool_option (options, "nope_on_combo", true, &r->nope_on_combo, err);
  if (st == ENG_OK)
    st = bool_option (options, "two_ferals_pair", true, &r->two_ferals_pair, err);
  if (st != ENG_OK)
    {
      free (r);
      return st;
    }
  *out = r;
  return ENG_OK;
}

static void
kittens_rules_free (void *rules)
{
  free (rules);
}

uint8_t
kittens_card_index (const KitRules *r, unsigned serial)
{
  return serial < 1000 ? r->by_serial[serial] : KIT_NONE;
}

/* ---- combos and targets (E7, E13) ------------------------------------- */

static bool
is_cat (const KitRules *r, uint8_t k)
{
  return r->cards[k].kind == KIT_KIND_CAT || r->cards[k].kind == KIT_KIND_FERAL;
}

/* n cards identical, a Feral Cat standing in for any cat (E7): all one
 * type, or all cats whose non-feral cards share one type. */
static bool
identical (const KitRules *r, const uint8_t *cards, unsigned n)
{
  bool same = true, cats = true;
  int type = -1;
  unsigned ferals = 0;
  for (unsigned i = 0; i < n; i++)
    {
      same = same && r->cards[cards[i]].type == r->cards[cards[0]].type;
      cats = cats && is_cat (r, cards[i]);
      if (r->cards[cards[i]].kind == KIT_KIND_FERAL)
        ferals++;
      else if (type < 0)
        type = r->cards[cards[i]].type;
      else if (type != r->cards[cards[i]].type)
        cats = false;
    }
  if (ferals == n && n == 2 && !r->two_ferals_pair)
    return false;
  return same || cats;
}

bool
kittens_pair_ok (const KitRules *r, const uint8_t *cards)
{
  if (r->cards[cards[0]].kind == KIT_KIND_FERAL && r->cards[cards[1]].kind == KIT_KIND_FERAL)
    return r->two_ferals_pair;
  return identical (r, cards, 2);
}

bool
kittens_trio_ok (const KitRules *r, const uint8_t *cards)
{
  return identical (r, cards, 3);
}

/* n different types; a Feral Cat counts as a further distinct kind. */
bool
kittens_differ_ok (const KitRules *r, const uint8_t *cards, unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = i + 1; j < n; j++)
      if (r->cards[cards[i]].kind != KIT_KIND_FERAL
          && r->cards[cards[i]].type == r->cards[cards[j]].type)
        return false;
  return true;
}

bool
kittens_five_ok (const KitRules *r, const uint8_t *cards)
{
  return kittens_differ_ok (r, cards, 5);
}

bool
kittens_kind_playable (unsigned kind)
{
  switch (kind)
    {
    case KIT_KIND_KITTEN:
    case KIT_KIND_DEFUSE:
    case KIT_KIND_NOPE:
    case KIT_KIND_CAT:
    case KIT_KIND_FERAL:
      return false;
    default:
      return kind < KIT_KIND_COUNT;
    }
}

bool
kittens_kind_targets (unsigned kind)
{
  return kind == KIT_KIND_FAVOR || kind == KIT_KIND_TARGETED;
}

bool
kittens_target_ok (const KitState *s, int p, int target, bool needs_cards)
{
  return target >= 0 && target < s->n_players && target != p && ((s->alive >> target) & 1)
         && (!needs_cards || s->hand_n[target] > 0);
}

/* ---- queries ---------------------------------------------------------- */

static int
kittens_score (const void *rules, const void *state, unsigned player)
{
  const KitState *s = state;
  (void) rules;
  return player < s->n_players && ((s->alive >> player) & 1) ? 1 : 0;
}

static bool
kittens_is_over (const void *rules, const void *state)
{
  (void) rules;
  return ((const KitState *) state)->phase == KIT_PHASE_OVER;
}

static unsigned
kittens_winners (const void *rules, const void *state, const char **tiebreak)
{
  const KitState *s = state;
  (void) rules;
  bool over = s->phase == KIT_PHASE_OVER;
  if (tiebreak != NULL)
    *tiebreak = over ? "last-alive" : NULL;
  return over ? 1u << s->winner : 0;
}

static int
kittens_to_move (const void *rules, const void *state)
{
  const KitState *s = state;
  (void) rules;
  switch (s->phase)
    {
    case KIT_PHASE_TURN:
      return s->open != KIT_OPEN_NONE ? s->open_player : s->active;
    case KIT_PHASE_GIVE:
      return s->give_from;
    case KIT_PHASE_TAKE:
      return s->give_to;
    case KIT_PHASE_KITTEN:
    case KIT_PHASE_PLACE:
      return s->active;
    default:
      return -1;
    }
}

static bool
kittens_move_shape_ok (const EngMove *m, char *reason, size_t size)
{
  const char *v = m->verb < KIT_VERB_COUNT ? kittens_verbs[m->verb] : "?";
  bool card = m->card != 0, t0 = m->target[0] >= 0, t1 = m->target[1] >= 0;
  bool slots = m->slot[0] >= 0 || m->slot[1] >= 0;
  const char *want = NULL;
  switch (m->verb)
    {
    case KIT_DRAW:
      if (card || t0 || m->n_cards)
        want = "only an optional 'show N' (a kitten drawn)";
      break;
    case KIT_RESOLVE:
    case KIT_EXPLODE:
    case KIT_REPLACE:
      if (card || t0 || m->n_cards || m->show)
        want = "no arguments";
      break;
    case KIT_PLAY:
      if (!card || t1 || m->n_cards || m->show)
        want = "CARD [PLAYER]";
      break;
    case KIT_NOPE:
    case KIT_DEFUSE:
    case KIT_TAKE:
      if (!card || t0 || m->n_cards || m->show)
        want = "CARD";
      break;
    case KIT_GIVE:
      if (t0 || m->n_cards || m->show)
        want = "CARD (or '?'), or nothing when the card asked for is not held";
      break;
    case KIT_PAIR:
      if (!card || m->n_cards != 1 || !t0 || t1 || m->show)
        want = "CARD CARD PLAYER";
      break;
    case KIT_TRIO:
      if (!card || m->n_cards != 3 || !t0 || t1 || m->show)
        want = "CARD CARD CARD NAMED PLAYER (NAMED: any serial of the card asked for)";
      break;
    case KIT_FIVE:
      if (!card || m->n_cards != 4 || t0 || m->show)
        want = "five CARDs";
      break;
    default:
      want = "a known verb";
    }
  if (want == NULL && slots)
    want = "no slot numbers";
  if (want != NULL)
    {
      if (reason != NULL && size > 0)
        snprintf (reason, size, "'%s' takes %s", v, want);
      return false;
    }
  return true;
}

/* A Favor's card passes face down (E13, E16): nobody but the two players
 * sees it, whatever the record knows. */
static void
kittens_public_move (const void *rules, const void *state, EngMove *move)
{
  (void) rules;
  const KitState *s = state;
  if (move->verb == KIT_GIVE && s->give_type == KIT_NONE && move->card != 0)
    move->card = ENG_SERIAL_UNKNOWN;
}

const EngGameClass kittens_game_class = {
  .name = "kittens",
  .title = "Exploding Kittens",
  .min_players = 2,
  .max_players = KIT_MAX_PLAYERS,
  .state_size = sizeof (KitState),
  .verbs = kittens_verbs,
  .n_verbs = KIT_VERB_COUNT,
  .rules_new = kittens_rules_new,
  .rules_free = kittens_rules_free,
  .setup = kittens_setup,
  .legal_moves = kittens_legal_moves,
  .play = kittens_play,
  .play_checks_shape = true,
  .score = kittens_score,
  .is_over = kittens_is_over,
  .winners = kittens_winners,
  .to_move = kittens_to_move,
  .check_conservation = kittens_check_conservation,
  .move_shape_ok = kittens_move_shape_ok,
  .public_view = kittens_public_view,
  .card_name = kittens_card_name,
  .card_public = kittens_card_public,
  .random_move = kittens_class_random_move,
  .public_move = kittens_public_move,
};

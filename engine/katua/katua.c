/* katua.c: Katua's rules from its card set and options, the queries, the
 * conservation check and the class the registry lists.  A move applied is
 * katua-apply.c, the setup katua-setup.c, the legal moves katua-moves.c,
 * the public view and card names katua-view.c.
 */
#include "katua-private.h"

#include "eng-i18n.h"
#include "eng-play.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const katua_verbs[KAT_VERB_COUNT] = {
  [KAT_PASS] = "pass", [KAT_END] = "end", [KAT_DISCARD] = "discard",
  [KAT_ATTACK] = "attack", [KAT_HOOK] = "hook", [KAT_INTERCEPT] = "intercept",
  [KAT_FLIP] = "flip", [KAT_XRAY] = "xray", [KAT_TELEPORT] = "teleport",
  [KAT_STAMPEDE] = "stampede", [KAT_REPLICATE] = "replicate",
  [KAT_NEUTRALISE] = "neutralise", [KAT_SHIELD] = "shield", [KAT_HIT] = "hit",
  [KAT_REVEAL] = "reveal",
};

/* ---- rules from the card set and options ------------------------------ */

static EngStatus
bool_option (const EngOptions *o, const char *name, bool def, bool *out, EngParseError *err)
{
  const char *v = eng_options_get (o, name);
  if (v == NULL)
    {
      *out = def;
      return ENG_OK;
    }
  if (strcmp (v, "yes") == 0 || strcmp (v, "true") == 0 || strcmp (v, "on") == 0)
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

static const char *const known_options[] = {
  "xray_teleporter_answerable", "ufo_deck_out", "total_memory", "quick_start",
  "winning_score",
};

/* The words of a card's attributes and what they mean to the engine. */
typedef struct {
  const char *word;
  uint8_t value;
} KatWord;

static const KatWord kat_kinds[] = {
  { "cat", KAT_KIND_CAT },   { "fake", KAT_KIND_FAKE },     { "abduction", KAT_KIND_ABDUCTION },
  { "hook", KAT_KIND_HOOK }, { "action", KAT_KIND_ACTION },
};
static const KatWord kat_colours[] = {
  { "red", KAT_RED }, { "blue", KAT_BLUE }, { "yellow", KAT_YELLOW }, { "tricolor", KAT_TRICOLOR },
};
static const KatWord kat_actions[] = {
  { "shield", KAT_ACT_SHIELD },         { "replicator", KAT_ACT_REPLICATOR },
  { "teleporter", KAT_ACT_TELEPORTER }, { "xray", KAT_ACT_XRAY },
  { "stampede", KAT_ACT_STAMPEDE },
};

/* Sets *out to what `word` (may be NULL) means in the table of n; false
 * (nothing set) for a word it does not have. */
static bool
kat_word (const KatWord *table, size_t n, const char *word, uint8_t *out)
{
  for (size_t i = 0; word != NULL && i < n; i++)
    if (strcmp (word, table[i].word) == 0)
      {
        *out = table[i].value;
        return true;
      }
  return false;
}
#define KAT_WORD(table, word, out) \
  kat_word ((table), sizeof (table) / sizeof (table)[0], (word), (out))

/* One card of the set as the engine knows it; an unknown colour or action
 * leaves it none, which the kind's check then refuses where it matters. */
static EngStatus
read_card (const EngCardSet *set, const EngCard *c, KatCard *out, EngParseError *err)
{
  const EngDeck *d = eng_card_set_deck (set, c->deck);
  const char *kind = eng_card_attr (c, "kind");
  KatCard k = { .serial = c->serial };
  if (d == NULL || kind == NULL || c->serial >= 1000)
    {
      eng_parse_error_set (err, "card set", 0, "card %u has no deck or kind", c->serial);
      return ENG_ERR_INCONSISTENT;
    }
  k.deck = strcmp (d->id, "cat") == 0 ? KAT_DECK_CAT : KAT_DECK_UFO;
  uint8_t w;
  if (!KAT_WORD (kat_kinds, kind, &w))
    {
      eng_parse_error_set (err, "card set", 0, "card %u: unknown kind '%s'", c->serial, kind);
      return ENG_ERR_INCONSISTENT;
    }
  k.kind = w;
  if (KAT_WORD (kat_colours, eng_card_attr (c, "colour"), &w))
    k.colour = w;
  if (KAT_WORD (kat_actions, eng_card_attr (c, "action"), &w))
    k.action = w;
  long v = 0;
  if (eng_card_attr_int (c, "value", &v) == ENG_OK)
    k.value = (int8_t) v;
  bool is_cat = k.kind == KAT_KIND_CAT || k.kind == KAT_KIND_FAKE;
  if (is_cat != (k.deck == KAT_DECK_CAT) || (k.kind == KAT_KIND_CAT && k.colour == 0)
      || (k.kind == KAT_KIND_ABDUCTION && k.colour == 0)
      || (k.kind == KAT_KIND_ACTION && k.action == KAT_ACT_NONE))
    {
      eng_parse_error_set (err, "card set", 0,
                           "card %u: kind, deck, colour and action do not fit Katua", c->serial);
      return ENG_ERR_INCONSISTENT;
    }
  *out = k;
  return ENG_OK;
}

/* Every card of the set into r's table, within the engine's capacity. */
static EngStatus
read_cards (KatRules *r, const EngCardSet *set, EngParseError *err)
{
  size_t n = eng_card_set_n_cards (set);
  for (size_t i = 0; i < n; i++)
    {
      KatCard k;
      EngStatus st = read_card (set, eng_card_set_card (set, i), &k, err);
      if (st != ENG_OK)
        return st;
      if (k.deck == KAT_DECK_CAT ? r->n_cats >= KAT_MAX_CATS : r->n_ufos >= KAT_MAX_UFOS)
        {
          eng_parse_error_set (err, "card set", 0, "too many cards for the Katua engine "
                               "(at most %d cats and %d UFOs)", KAT_MAX_CATS, KAT_MAX_UFOS);
          return ENG_ERR_LIMIT;
        }
      if (k.deck == KAT_DECK_CAT)
        r->n_cats++;
      else
        r->n_ufos++;
      r->by_serial[k.serial] = r->n_cards;
      r->cards[r->n_cards++] = k;
    }
  if (r->n_cats < 3 || r->n_ufos < 3)
    {
      eng_parse_error_set (err, "card set", 0, "a Katua set needs cats and UFO cards");
      return ENG_ERR_INCONSISTENT;
    }
  return ENG_OK;
}

/* The documented switches (RULINGS.md options) into r; an unknown name or
 * value is refused. */
static EngStatus
read_options (KatRules *r, const EngOptions *options, EngParseError *err)
{
  EngStatus st = ENG_OK;
  if (options != NULL)
    for (size_t i = 0; i < options->n && st == ENG_OK; i++)
      {
        bool ok = false;
        for (size_t k = 0; k < sizeof known_options / sizeof known_options[0]; k++)
          ok = ok || strcmp (options->items[i].name, known_options[k]) == 0;
        if (!ok)
          {
            eng_parse_error_set (err, "options", 0, "unknown Katua option '%s'",
                                 options->items[i].name);
            st = ENG_ERR_UNKNOWN_ATTRIBUTE;
          }
      }
  if (st == ENG_OK)
    st = bool_option (options, "xray_teleporter_answerable", false,
                      &r->xray_teleporter_answerable, err);
  if (st == ENG_OK)
    st = bool_option (options, "total_memory", false, &r->total_memory, err);
  if (st == ENG_OK)
    st = bool_option (options, "quick_start", false, &r->quick_start, err);
  if (st == ENG_OK)
    {
      const char *v = eng_options_get (options, "ufo_deck_out");
      if (v == NULL || strcmp (v, "reshuffle") == 0)
        r->ufo_deck_out = KAT_UFO_OUT_RESHUFFLE;
      else if (strcmp (v, "no-draw") == 0)
        r->ufo_deck_out = KAT_UFO_OUT_NO_DRAW;
      else if (strcmp (v, "end") == 0)
        r->ufo_deck_out = KAT_UFO_OUT_END;
      else
        {
          eng_parse_error_set (err, "options", 0,
                               "ufo_deck_out: '%s' is not reshuffle, no-draw or end", v);
          st = ENG_ERR_SYNTAX;
        }
    }
  if (st == ENG_OK)
    {
      const char *v = eng_options_get (options, "winning_score");
      r->winning_score = 7;
      if (v != NULL)
        {
          char *end = NULL;
          long w = strtol (v, &end, 10);
          if (end == v || *end != '\0' || w < 1 || w > 100)
            {
              eng_parse_error_set (err, "options", 0, "winning_score: '%s' is not 1-100", v);
              st = ENG_ERR_SYNTAX;
            }
          else
            r->winning_score = (uint8_t) w;
        }
    }
  return st;
}

static EngStatus
katua_rules_new (const EngCardSet *set, const EngOptions *options, void **out,
                 EngParseError *err)
{
  *out = NULL;
  if (set == NULL || strcmp (eng_card_set_game (set), "katua") != 0)
    {
      eng_parse_error_set (err, "card set", 0, "not a Katua card set");
      return ENG_ERR_INVALID_ARGUMENT;
    }
  KatRules *r = calloc (1, sizeof *r);
  if (r == NULL)
    return ENG_ERR_NO_MEMORY;
  r->set = set;
  memset (r->by_serial, KAT_NONE, sizeof r->by_serial);
  EngStatus st = read_cards (r, set, err);
  if (st == ENG_OK)
    st = read_options (r, options, err);
  if (st != ENG_OK)
    {
      free (r);
      return st;
    }
  *out = r;
  return ENG_OK;
}

static void
katua_rules_free (void *rules)
{
  free (rules);
}

uint8_t
katua_card_index (const KatRules *r, unsigned serial)
{
  return serial < 1000 ? r->by_serial[serial] : KAT_NONE;
}

/* ---- queries ---------------------------------------------------------- */

static int
katua_score (const void *rules, const void *state, unsigned player)
{
  const KatState *s = state;
  (void) rules;
  return player < s->n_players ? s->score[player] : 0;
}

static bool
katua_is_over (const void *rules, const void *state)
{
  (void) rules;
  return ((const KatState *) state)->phase == KAT_PHASE_OVER;
}

static unsigned
katua_winners (const void *rules, const void *state, const char **tiebreak)
{
  const KatState *s = state;
  (void) rules;
  if (s->phase != KAT_PHASE_OVER)
    {
      if (tiebreak != NULL)
        *tiebreak = NULL;
      return 0;
    }
  if (tiebreak != NULL)
    *tiebreak = katua_tiebreak_names[s->tiebreak];
  return s->winners;
}

static int
katua_to_move (const void *rules, const void *state)
{
  const KatState *s = state;
  (void) rules;
  switch (s->phase)
    {
    case KAT_PHASE_QUICK_START:
      for (int p = 0; p < s->n_players; p++)
        if (!((s->quick_start_done >> p) & 1))
          return p;
      return -1;
    case KAT_PHASE_TURN:
    case KAT_PHASE_HOOK:
      return s->active;
    case KAT_PHASE_ATTACK:
      return s->att[0].player;
    case KAT_PHASE_ANSWER:
      return s->answer_player;
    default:
      return -1;
    }
}

int
katua_public_slot (const KatRules *rules, const KatState *s, unsigned p, unsigned k)
{
  if (p >= s->n_players || k >= KAT_SLOTS || s->slot[p][k] == KAT_NONE)
    return -1;
  if (!s->face_up[p][k] || s->slot[p][k] == KAT_UNKNOWN)
    return 0;
  return rules->cards[s->slot[p][k]].serial;
}

/* Every physical card in exactly one place; unseen cards are tokens, and
 * each deck's tokens plus its known cards make the deck's total. */
static EngStatus
katua_check_conservation (const void *rules, const void *state, EngVerdict *why)
{
  const KatRules *r = rules;
  const KatState *s = state;
  uint8_t seen[KAT_MAX_CARDS] = { 0 };
  int unknown[2] = { 0, 0 };
  int bad = -1;
#define COUNT(idx, deck_, may_be_unknown)                                                     \
  do {                                                                                       \
    uint8_t k_ = (idx);                                                                      \
    if (k_ == KAT_UNKNOWN && (may_be_unknown))                                               \
      unknown[deck_]++;                                                                      \
    else if (k_ >= r->n_cards || r->cards[k_].deck != (deck_) || seen[k_]++)               \
      bad = k_;                                                                              \
  } while (0)
  for (int p = 0; p < s->n_players; p++)
    {
      for (int k = 0; k < KAT_SLOTS; k++)
        if (s->slot[p][k] != KAT_NONE)
          COUNT (s->slot[p][k], KAT_DECK_CAT, true);
      if (s->hand_n[p] > KAT_HAND)
        bad = 0;
      for (int k = 0; k < s->hand_n[p]; k++)
        COUNT (s->hand[p][k], KAT_DECK_UFO, true);
      for (int k = 0; k < s->captured_n[p]; k++)
        COUNT (s->captured[p][k], KAT_DECK_CAT, false);
    }
  for (int k = 0; k < s->cat_deck_n; k++)
    COUNT (s->cat_deck[k], KAT_DECK_CAT, true);
  for (int k = 0; k < s->ufo_deck_n; k++)
    COUNT (s->ufo_deck[k], KAT_DECK_UFO, true);
  for (int k = 0; k < s->discard_n; k++)
    COUNT (s->discard[k], KAT_DECK_UFO, true);
  for (int k = 0; k < s->in_play_n; k++)
    COUNT (s->in_play[k], KAT_DECK_UFO, false);
#undef COUNT
  int known[2] = { 0, 0 };
  for (int i = 0; i < r->n_cards; i++)
    known[r->cards[i].deck] += seen[i] ? 1 : 0;
  if (bad >= 0)
    {
      if (why != NULL)
        {
          snprintf (why->rule, sizeof why->rule, "K20");
          snprintf (why->reason, sizeof why->reason,
                    ENG_ ("card index %d is in two places or in the wrong deck's place"), bad);
        }
      return ENG_ERR_CONSERVATION;
    }
  if (known[0] + unknown[0] != r->n_cats || known[1] + unknown[1] != r->n_ufos)
    {
      if (why != NULL)
        {
          snprintf (why->rule, sizeof why->rule, "K20");
          snprintf (why->reason, sizeof why->reason,
                    ENG_ ("cards lost or invented: %d+%d cats of %d, %d+%d UFOs of %d"), known[0],
                    unknown[0], r->n_cats, known[1], unknown[1], r->n_ufos);
        }
      return ENG_ERR_CONSERVATION;
    }
  return ENG_OK;
}

static bool
katua_move_shape_ok (const EngMove *m, char *reason, size_t size)
{
  const char *v = m->verb < KAT_VERB_COUNT ? katua_verbs[m->verb] : "?";
  bool card = m->card != 0, t0 = m->target[0] >= 0, t1 = m->target[1] >= 0;
  bool s0 = m->slot[0] >= 0, s1 = m->slot[1] >= 0;
  const char *want = NULL;
  switch (m->verb)
    {
    case KAT_PASS:
    case KAT_END:
      if (card || t0 || m->show)
        want = "no arguments";
      break;
    case KAT_FLIP:
    case KAT_HIT:
      if (card || t0)
        want = "only an optional 'show N'";
      break;
    case KAT_DISCARD:
      if (!card || t0 || m->show)
        want = "1 to 3 card serials (or '?')";
      break;
    case KAT_ATTACK:
    case KAT_HOOK:
    case KAT_SHIELD:
      if (!card || !t0 || !s0 || t1 || m->show || m->n_cards)
        want = "CARD PLAYER SLOT";
      break;
    case KAT_XRAY:
      if (!card || !t0 || !s0 || t1 || m->n_cards)
        want = "CARD PLAYER SLOT [show N]";
      break;
    case KAT_INTERCEPT:
      if (!card || t0 || m->show || m->n_cards)
        want = "CARD";
      break;
    case KAT_NEUTRALISE:
      if (!card || t0 || m->n_cards)
        want = "CARD [show N]";
      break;
    case KAT_TELEPORT:
      if (!card || !t0 || !s0 || !t1 || !s1 || m->show || m->n_cards)
        want = "CARD PLAYER SLOT PLAYER SLOT";
      break;
    case KAT_STAMPEDE:
      if (!card || !t0 || s0 || t1 || m->show || m->n_cards)
        want = "CARD PLAYER";
      break;
    case KAT_REPLICATE:
      if (!card || m->n_cards)
        want = "CARD and the copied card's targets";
      break;
    case KAT_REVEAL:
      if (card || !t0 || !s0 || t1)
        want = "PLAYER SLOT [show N]";
      break;
    default:
      want = "a known verb";
    }
  if (m->n_cards > 0 && m->verb != KAT_DISCARD && want == NULL)
    want = "a single card";
  if (m->verb == KAT_DISCARD && m->n_cards > 2)
    want = "at most 3 cards (the hand limit)";
  if (want != NULL)
    {
      if (reason != NULL && size > 0)
        snprintf (reason, size, "'%s' takes %s", v, want);
      return false;
    }
  return true;
}

const EngGameClass katua_game_class = {
  .name = "katua",
  .title = "Katua",
  .min_players = 2,
  .max_players = KAT_MAX_PLAYERS,
  .state_size = sizeof (KatState),
  .verbs = katua_verbs,
  .n_verbs = KAT_VERB_COUNT,
  .rules_new = katua_rules_new,
  .rules_free = katua_rules_free,
  .setup = katua_setup,
  .legal_moves = katua_legal_moves,
  .play = katua_play,
  .play_checks_shape = true,
  .score = katua_score,
  .is_over = katua_is_over,
  .winners = katua_winners,
  .to_move = katua_to_move,
  .check_conservation = katua_check_conservation,
  .move_shape_ok = katua_move_shape_ok,
  .public_view = katua_public_view,
  .card_name = katua_card_name,
  .card_public = katua_card_public,
  .random_move = katua_class_random_move,
};

/* eng-play.c: the plumbing of a game's rules (eng-play.h). */
#include "eng-play.h"

#include "eng-i18n.h"

#include <stdio.h>
#include <string.h>

const char *
eng_play_name (const EngPlay *play, int player)
{
  const EngSetup *su = play->setup;
  return su != NULL && player >= 0 && (unsigned) player < su->n_players ? su->names[player] : "?";
}

static void
verdict_vset (EngVerdict *why, const char *rule, const char *fmt, va_list ap)
{
  snprintf (why->rule, sizeof why->rule, "%s", rule != NULL ? rule : "");
  vsnprintf (why->reason, sizeof why->reason, ENG_ (fmt), ap);
}

EngStatus
eng_play_refuse (EngPlay *play, EngStatus st, const char *rule, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  verdict_vset (play->why, rule, fmt, ap);
  va_end (ap);
  return st;
}

EngStatus
eng_verdict_refuse (EngVerdict *why, EngStatus st, const char *rule, const char *fmt, ...)
{
  if (why == NULL)
    return st;
  va_list ap;
  va_start (ap, fmt);
  verdict_vset (why, rule, fmt, ap);
  va_end (ap);
  return st;
}

static EngEvent *
events_vsay (EngEvents *events, EngEventKind kind, int player, const char *rule, const char *fmt,
             va_list ap)
{
  return events != NULL ? eng_events_vaddf (events, kind, player, rule, ENG_ (fmt), ap) : NULL;
}

EngEvent *
eng_play_say (EngPlay *play, EngEventKind kind, int player, const char *rule, const char *fmt,
              ...)
{
  va_list ap;
  va_start (ap, fmt);
  EngEvent *e = events_vsay (play->events, kind, player, rule, fmt, ap);
  va_end (ap);
  return e;
}

EngEvent *
eng_events_say (EngEvents *events, EngEventKind kind, int player, const char *rule,
                const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  EngEvent *e = events_vsay (events, kind, player, rule, fmt, ap);
  va_end (ap);
  return e;
}

EngEvent *
eng_play_sayn (EngPlay *play, EngEventKind kind, int player, const char *rule, const char *one,
               const char *many, unsigned long n, ...)
{
  if (play->events == NULL)
    return NULL;
  va_list ap;
  va_start (ap, n);
  EngEvent *e = eng_events_vaddf (play->events, kind, player, rule, ENG_NG_ (one, many, n), ap);
  va_end (ap);
  return e;
}

/* The checks every game's dispatch starts with: a player of the table,
 * targets that are players, a verb of the class. */
static EngStatus
shape_check (EngPlay *p, const EngGameClass *klass, const EngMove *m)
{
  unsigned n = p->setup != NULL ? p->setup->n_players : klass->max_players;
  if (m->player < 0 || (unsigned) m->player >= n || m->target[0] >= (int) n
      || m->target[1] >= (int) n)
    return ENG_ILLEGAL (p, "turn", ENG_N_ ("no such player"));
  if (m->verb >= klass->n_verbs)
    return ENG_ILLEGAL (p, "turn", ENG_N_ ("unknown move"));
  return ENG_OK;
}

EngStatus
eng_play_apply (const EngGameClass *klass, const void *rules, const EngSetup *setup,
                void *state, const EngMove *move, EngEvents *events, EngVerdict *why)
{
  _Alignas (16) unsigned char scratch[ENG_PLAY_STATE_MAX];
  EngVerdict local;
  if (why == NULL)
    why = &local;
  why->rule[0] = why->reason[0] = '\0';
  if ((klass->play == NULL && klass->plays == NULL) || klass->state_size > sizeof scratch)
    return ENG_ERR_LIMIT;
  memcpy (scratch, state, klass->state_size);
  size_t mark = events != NULL ? events->n : 0;
  EngPlay p = { rules, scratch, setup, events, why };
  /* the record line replaces this text once the move is accepted (eng_game_apply) */
  EngEvent *accepted = eng_events_addf (events, ENG_EVENT_ACCEPTED, "", "%s %s",
                                        eng_play_name (&p, move->player),
                                        move->verb < klass->n_verbs ? klass->verbs[move->verb] : "?");
  if (accepted != NULL)
    accepted->player = move->player;
  EngStatus st = klass->play != NULL && klass->play_checks_shape ? ENG_OK
                                                                 : shape_check (&p, klass, move);
  if (st == ENG_OK && klass->is_over == NULL && ((const EngPlayHeader *) state)->over)
    st = eng_play_refuse (&p, ENG_ERR_STATE, klass->over_rule != NULL ? klass->over_rule : "over",
                          ENG_N_ ("The game is over"));
  else if (st == ENG_OK)
    st = klass->play != NULL ? klass->play (&p, move) : klass->plays[move->verb] (&p, move);
  if (st != ENG_OK)
    {
      if (events != NULL)
        {
          events->n = mark;
          EngEvent *e = eng_events_addf (events, st == ENG_ERR_CONSERVATION
                                         ? ENG_EVENT_CONSERVATION : ENG_EVENT_ILLEGAL,
                                         why->rule, "%s", why->reason);
          if (e != NULL)
            e->player = move->player;
        }
      return st;
    }
  memcpy (state, scratch, klass->state_size);
  return ENG_OK;
}

EngStatus
eng_play_check (const EngGameClass *klass, const void *rules, const EngSetup *setup,
                const void *state, const EngMove *move, EngVerdict *why)
{
  _Alignas (16) unsigned char copy[ENG_PLAY_STATE_MAX];
  if (klass->state_size > sizeof copy)
    return ENG_ERR_LIMIT;
  memcpy (copy, state, klass->state_size);
  return eng_play_apply (klass, rules, setup, copy, move, NULL, why);
}

void
eng_text_append (char *buf, size_t size, const char *text)
{
  size_t n = strlen (buf), add = strlen (text);
  if (n + 1 >= size)
    return;
  if (add > size - n - 1)
    add = size - n - 1;
  memcpy (buf + n, text, add);
  buf[n + add] = '\0';
}

void
eng_text_list_add (char *buf, size_t size, const char *item, unsigned i, unsigned n)
{
  if (i > 0)
    eng_text_append (buf, size, i + 1 == n ? ENG_ (" and ") : ", ");
  eng_text_append (buf, size, item);
}

void
eng_move_list_push (EngMoveList *list, const EngMove *move)
{
  if (list->n < list->max)
    list->out[list->n] = *move;
  list->n++;
}

bool
eng_move_list_draw (const EngMove *moves, size_t n, size_t max, EngRng *rng, EngMove *out)
{
  if (n == 0)
    return false;
  if (n > max)
    n = max;
  *out = moves[eng_rng_below (rng, (uint32_t) n)];
  return true;
}

bool
eng_card_pool_take (EngCardPool *pool, bool known, uint8_t *out)
{
  if (pool->n == 0)
    return false;
  pool->n--;
  *out = known ? pool->items[pool->n] : ENG_CARD_UNKNOWN;
  return true;
}

unsigned
eng_scores_leaders (const int16_t *scores, unsigned n)
{
  unsigned mask = 0;
  int best = 0;
  for (unsigned p = 0; p < n && p < 16; p++)
    if (mask == 0 || scores[p] > best)
      best = scores[p], mask = 1u << p;
    else if (scores[p] == best)
      mask |= 1u << p;
  return mask;
}

EngEvent *
eng_play_score (EngPlay *play, int player, int score, int delta, const char *rule)
{
  if (!eng_play_words (play))
    return NULL;
  EngEvent *e = eng_play_sayn (play, ENG_EVENT_SCORE, player, rule,
                               "%s scores %d (now %d point)", "%s scores %d (now %d points)",
                               (unsigned long) (score < 0 ? -score : score),
                               eng_play_name (play, player), delta, score);
  if (e != NULL)
    e->value = (int16_t) score, e->delta = (int16_t) delta;
  return e;
}

EngEvent *
eng_play_game_over (EngPlay *play, unsigned winners, int score, const char *tiebreak,
                    const char *rule)
{
  if (!eng_play_words (play))
    return NULL;
  char names[ENG_MAX_PLAYERS * (ENG_NAME_MAX + 8)] = "";
  unsigned n = (unsigned) __builtin_popcount (winners), k = 0;
  int first = -1;
  for (int p = 0; p < ENG_MAX_PLAYERS; p++)
    if ((winners >> p) & 1)
      {
        first = first < 0 ? p : first;
        eng_text_list_add (names, sizeof names, eng_play_name (play, p), k++, n);
      }
  EngEvent *e = n == 1
    ? eng_play_sayn (play, ENG_EVENT_GAME_OVER, first, rule,
                     "Game over: %s wins with %d point", "Game over: %s wins with %d points",
                     (unsigned long) (score < 0 ? -score : score), names, score)
    : eng_play_sayn (play, ENG_EVENT_GAME_OVER, first, rule,
                     "Game over: %s win with %d point", "Game over: %s win with %d points",
                     (unsigned long) (score < 0 ? -score : score), names, score);
  if (e != NULL)
    {
      e->winners = (uint16_t) winners;
      e->value = (int16_t) score;
      snprintf (e->tiebreak, sizeof e->tiebreak, "%s", tiebreak != NULL ? tiebreak : "score");
    }
  return e;
}

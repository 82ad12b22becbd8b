/* eng-card-table.c: a game's cards from the set, and conservation counts
 * (eng-card-table.h). */
#include "eng-card-table.h"

#include "eng-i18n.h"

#include <stdio.h>
#include <string.h>

EngStatus
eng_card_table_init (EngCardTable *t, const EngCardSet *set, const EngGameClass *klass,
                     unsigned max, EngParseError *err)
{
  memset (t, 0, sizeof *t);
  memset (t->by_serial, ENG_CARD_NONE, sizeof t->by_serial);
  if (set == NULL || strcmp (eng_card_set_game (set), klass->name) != 0)
    {
      eng_parse_error_set (err, "card set", 0, "not a %s card set",
                           klass->title != NULL ? klass->title : klass->name);
      return ENG_ERR_INVALID_ARGUMENT;
    }
  size_t n = eng_card_set_n_cards (set);
  if (max > ENG_CARD_TABLE_MAX)
    max = ENG_CARD_TABLE_MAX;
  if (n > max)
    {
      eng_parse_error_set (err, "card set", 0, "too many cards for the %s engine (at most %u "
                           "faces)", klass->title != NULL ? klass->title : klass->name, max);
      return ENG_ERR_LIMIT;
    }
  t->set = set;
  for (size_t i = 0; i < n; i++)
    {
      const EngCard *c = eng_card_set_card (set, i);
      t->serial[i] = c->serial;
      t->deck[i] = (uint8_t) c->deck;
      if (c->serial < ENG_CARD_SERIALS)
        t->by_serial[c->serial] = (uint8_t) i;
    }
  t->n = (uint8_t) n;
  return ENG_OK;
}

const EngCard *
eng_card_table_card (const EngCardTable *t, unsigned idx)
{
  return idx < t->n ? eng_card_set_card (t->set, idx) : NULL;
}

int
eng_card_attr_index (const EngCard *card, const char *key, const char *values)
{
  const char *v = card != NULL ? eng_card_attr (card, key) : NULL;
  if (v == NULL)
    return -1;
  size_t len = strlen (v);
  int i = 0;
  for (const char *w = values; *w != '\0'; i++)
    {
      size_t n = strcspn (w, " ");
      if (n == len && strncmp (w, v, n) == 0)
        return i;
      w += n;
      w += strspn (w, " ");
    }
  return -1;
}

EngStatus
eng_card_table_enum (const EngCardTable *t, const char *key, const char *values, uint8_t *out,
                     EngParseError *err)
{
  for (unsigned k = 0; k < t->n; k++)
    {
      int v = eng_card_attr_index (eng_card_table_card (t, k), key, values);
      if (v < 0)
        {
          eng_parse_error_set (err, "card set", 0, "card %u: %s is not one of %s", t->serial[k],
                               key, values);
          return ENG_ERR_INCONSISTENT;
        }
      out[k] = (uint8_t) v;
    }
  return ENG_OK;
}

EngStatus
eng_card_table_int (const EngCardTable *t, const char *key, int lo, int hi, int8_t *out,
                    EngParseError *err)
{
  for (unsigned k = 0; k < t->n; k++)
    {
      long v = 0;
      if (eng_card_attr_int (eng_card_table_card (t, k), key, &v) != ENG_OK || v < lo || v > hi)
        {
          eng_parse_error_set (err, "card set", 0, "card %u needs a %s of %d to %d",
                               t->serial[k], key, lo, hi);
          return ENG_ERR_INCONSISTENT;
        }
      out[k] = (int8_t) v;
    }
  return ENG_OK;
}

int
eng_cards_find (const uint8_t *cards, unsigned n, uint8_t card)
{
  for (unsigned i = 0; i < n; i++)
    if (cards[i] == card)
      return (int) i;
  return -1;
}

void
eng_cards_remove_at (uint8_t *cards, uint8_t *n, unsigned i)
{
  memmove (cards + i, cards + i + 1, (size_t) (*n - i - 1));
  (*n)--;
}

void
eng_serials_sort (uint16_t *serials, unsigned n)
{
  for (unsigned i = 1; i < n; i++)
    for (unsigned j = i; j > 0 && serials[j] < serials[j - 1]; j--)
      {
        uint16_t x = serials[j];
        serials[j] = serials[j - 1];
        serials[j - 1] = x;
      }
}

void
eng_tally_init (EngTally *t)
{
  memset (t, 0, sizeof *t);
  t->bad = -1;
}

void
eng_tally_add (EngTally *t, const EngCardTable *table, const uint8_t *cards, size_t n,
               bool may_be_unknown)
{
  for (size_t i = 0; i < n; i++)
    {
      uint8_t k = cards[i];
      if (k == ENG_CARD_UNKNOWN && may_be_unknown)
        t->unknown++;
      else if (k >= table->n || t->seen[k]++)
        t->bad = k;
      else
        t->known++;
    }
}

EngStatus
eng_tally_check (const EngTally *t, const EngCardTable *table, unsigned total, const char *rule,
                 EngVerdict *why)
{
  if (t->bad < 0 && t->known + t->unknown == total)
    return ENG_OK;
  if (why != NULL)
    {
      snprintf (why->rule, sizeof why->rule, "%s", rule);
      if (t->bad >= 0 && t->bad < table->n)
        snprintf (why->reason, sizeof why->reason, ENG_ ("card %u is in two places"),
                  table->serial[t->bad]);
      else if (t->bad >= 0)
        snprintf (why->reason, sizeof why->reason, "%s", ENG_ ("a place holds no card of the set"));
      else
        snprintf (why->reason, sizeof why->reason,
                  ENG_ ("cards lost or invented: %u known + %u unseen of %u"), t->known, t->unknown,
                  total);
    }
  return ENG_ERR_CONSERVATION;
}

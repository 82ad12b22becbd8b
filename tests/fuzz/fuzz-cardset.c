/* libFuzzer target: eng_card_set_parse on arbitrary bytes.  Whatever loads
 * must hold together: every sticker resolves and round-trips through the
 * payload codec, every card's lookups answer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-util.h"
#include "eng-cardset.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_loaded (const EngCardSet *set)
{
  size_t n = eng_card_set_n_cards (set);
  if (n == 0 || n > 999)
    abort ();
  for (size_t i = 0; i < n; i++)
    {
      const EngCard *c = eng_card_set_card (set, i);
      if (c == NULL || c->serial != i + 1 || eng_card_set_find_serial (set, c->serial) != c
          || c->label == NULL || c->type_id == NULL || c->deck >= eng_card_set_n_decks (set))
        abort ();
      for (size_t a = 0; a < c->n_attrs; a++)
        {
          if (eng_card_attr (c, c->attrs[a].key) == NULL)
            abort ();
          long v;
          (void) eng_card_attr_int (c, c->attrs[a].key, &v);
        }
    }
  size_t n_stickers = eng_card_set_n_stickers (set);
  for (size_t i = 0; i < n_stickers; i++)
    {
      EngTagMeaning m, again;
      if (eng_card_set_sticker (set, i, &m) != ENG_OK)
        abort ();
      char payload[ENG_TAG_PAYLOAD_LEN + 1];
      EngTag tag;
      if (eng_tag_format (&m.tag, payload) != ENG_OK
          || eng_tag_parse (payload, ENG_TAG_PAYLOAD_LEN, &tag) != ENG_OK
          || eng_card_set_resolve (set, &tag, &again) != ENG_OK || again.card != m.card
          || again.deck != m.deck || again.command != m.command || again.seat != m.seat
          || again.anchor != m.anchor)
        abort ();
    }
  EngTagMeaning past;
  if (eng_card_set_sticker (set, n_stickers, &past) != ENG_ERR_NOT_FOUND)
    abort ();
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *text = fuzz_text (data, size);
  if (text == NULL)
    return 0;
  EngCardSet *set = NULL;
  EngParseError err;
  memset (&err, 0, sizeof err);
  EngStatus st = eng_card_set_parse (text, size, "fuzz", &set, &err);
  if (st == ENG_OK)
    {
      if (set == NULL)
        abort ();
      check_loaded (set);
      eng_card_set_free (set);
    }
  else
    fuzz_check_refusal (set != NULL, &err);
  free (text);
  return 0;
}

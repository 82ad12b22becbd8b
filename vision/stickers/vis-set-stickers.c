#include "vis-set-stickers.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *
vis_set_game_name (const EngCardSet *set)
{
  switch (eng_card_set_game_letter (set))
    {
    case 'K': return "Katua";
    case 'C': return "Catchy!";
    case 'E': return "Exploding Kittens";
    default: break;
    }
  const char *title = eng_card_set_title (set);
  return title != NULL ? title : eng_card_set_game (set);
}

void
vis_set_sheet_title (const EngCardSet *set, char *out, size_t size)
{
  const char *title = eng_card_set_title (set);
  if (title != NULL && *title != '\0')
    snprintf (out, size, "%s stickers \xe2\x80\x94 set %s (%s)", vis_set_game_name (set),
              eng_card_set_id (set), title);
  else
    snprintf (out, size, "%s stickers \xe2\x80\x94 set %s", vis_set_game_name (set),
              eng_card_set_id (set));
}

/* Sheet order: the kinds in the order a person sticks them, decks in the
 * set's order, the set's own order inside a group. */
static int
kind_rank (EngTagKind kind)
{
  switch (kind)
    {
    case ENG_TAG_FACE: return 0;
    case ENG_TAG_BACK: return 1;
    case ENG_TAG_ANCHOR: return 2;
    case ENG_TAG_SEAT: return 3;
    case ENG_TAG_COMMAND: return 4;
    default: return 5;
    }
}

typedef struct {
  EngTagMeaning meaning;
  int rank;
  unsigned deck;
  size_t index;
} Entry;

static int
compare_entries (const void *a, const void *b)
{
  const Entry *x = a, *y = b;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  if (x->deck != y->deck)
    return x->deck < y->deck ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static unsigned
deck_of (const EngCardSet *set, const EngTagMeaning *m)
{
  if (m->tag.kind == ENG_TAG_FACE && m->card != NULL)
    return m->card->deck;
  if (m->tag.kind == ENG_TAG_BACK && m->deck != NULL)
    for (size_t d = 0; d < eng_card_set_n_decks (set); d++)
      if (eng_card_set_deck (set, d) == m->deck)
        return (unsigned) d;
  return 0;
}

static void
upper_ascii (char *s)
{
  for (; *s != '\0'; s++)
    if ((unsigned char) *s < 0x80)
      *s = (char) toupper ((unsigned char) *s);
}

static const char *
deck_label (const EngCardSet *set, unsigned deck)
{
  const EngDeck *d = deck < eng_card_set_n_decks (set) ? eng_card_set_deck (set, deck) : NULL;
  if (d == NULL)
    return "deck";
  return d->label != NULL ? d->label : d->id;
}

EngStatus
vis_set_sticker_texts (const EngCardSet *set, VisStickerText **out, size_t *n_out,
                       VisStickerCounts *counts)
{
  if (out != NULL)
    *out = NULL;
  if (n_out != NULL)
    *n_out = 0;
  if (set == NULL || out == NULL || n_out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  size_t n = eng_card_set_n_stickers (set);
  if (n == 0)
    return ENG_ERR_INVALID_ARGUMENT;

  Entry *entries = calloc (n, sizeof *entries);
  VisStickerText *texts = calloc (n, sizeof *texts);
  if (entries == NULL || texts == NULL)
    {
      free (entries);
      free (texts);
      return ENG_ERR_NO_MEMORY;
    }
  VisStickerCounts c = { 0 };
  for (size_t i = 0; i < n; i++)
    {
      EngStatus status = eng_card_set_sticker (set, i, &entries[i].meaning);
      if (status != ENG_OK)
        {
          free (entries);
          free (texts);
          return status;
        }
      entries[i].rank = kind_rank (entries[i].meaning.tag.kind);
      entries[i].deck = deck_of (set, &entries[i].meaning);
      entries[i].index = i;
    }
  qsort (entries, n, sizeof *entries, compare_entries);

  /* A group is a run of equal (rank, deck); its size goes in the heading
   * and in each back's "i/n". */
  size_t group_start = 0;
  size_t group_end = 0;
  const char *game = vis_set_game_name (set);
  for (size_t i = 0; i < n; i++)
    {
      const Entry *e = &entries[i];
      if (i == group_end)
        {
          group_start = i;
          group_end = i;
          while (group_end < n && entries[group_end].rank == e->rank
                 && entries[group_end].deck == e->deck)
            group_end++;
        }
      size_t in_group = group_end - group_start;
      size_t nth = i - group_start + 1;

      const EngTagMeaning *m = &e->meaning;
      VisStickerText *t = &texts[i];
      EngStatus status = eng_tag_format (&m->tag, t->payload);
      if (status != ENG_OK)
        {
          free (entries);
          free (texts);
          return status;
        }
      switch (m->tag.kind)
        {
        case ENG_TAG_FACE:
          c.faces++;
          snprintf (t->title, sizeof t->title, "Card face");
          snprintf (t->body, sizeof t->body, "%s",
                    m->card != NULL && m->card->label != NULL ? m->card->label : "card");
          snprintf (t->section, sizeof t->section, "Card faces \xe2\x80\x94 %s: %zu stickers",
                    deck_label (set, e->deck), in_group);
          break;
        case ENG_TAG_BACK:
          c.backs++;
          snprintf (t->title, sizeof t->title, "Card back");
          snprintf (t->body, sizeof t->body,
                    "%s: back of the %s deck, %zu of %zu", game,
                    m->deck != NULL && m->deck->id != NULL ? m->deck->id : "",
                    nth, in_group);
          snprintf (t->section, sizeof t->section, "Card backs \xe2\x80\x94 %s: %zu stickers",
                    deck_label (set, e->deck), in_group);
          break;
        case ENG_TAG_ANCHOR:
          c.anchors++;
          snprintf (t->title, sizeof t->title, "Table anchor %u", m->anchor);
          snprintf (t->body, sizeof t->body,
                    "%s: table anchor %u of %u, flat at a corner of the play area "
                    "(clockwise)", game, m->anchor, eng_card_set_n_anchors (set));
          snprintf (t->section, sizeof t->section, "Table anchors: %zu stickers", in_group);
          break;
        case ENG_TAG_SEAT:
          c.seats++;
          snprintf (t->title, sizeof t->title, "Seat %u", m->seat);
          snprintf (t->body, sizeof t->body,
                    "%s: seat %u of %u, at the table edge in front of this player "
                    "(clockwise)", game, m->seat, eng_card_set_n_seats (set));
          snprintf (t->section, sizeof t->section, "Seat markers: %zu stickers", in_group);
          break;
        case ENG_TAG_COMMAND:
          c.commands++;
          snprintf (t->title, sizeof t->title, "Command");
          {
            /* The command in capitals is what a person looks for. */
            char command[sizeof t->body];
            snprintf (command, sizeof command, "%s",
                      m->command != NULL && m->command->label != NULL ? m->command->label
                                                                      : "command");
            upper_ascii (command);
            snprintf (t->body, sizeof t->body, "%s: %.200s \xe2\x80\x94 show this card to the camera",
                      game, command);
          }
          snprintf (t->section, sizeof t->section, "Command cards: %zu stickers", in_group);
          break;
        default:
          snprintf (t->title, sizeof t->title, "%s", game);
          snprintf (t->body, sizeof t->body, "%s", eng_tag_kind_to_string (m->tag.kind));
          snprintf (t->section, sizeof t->section, "Other tags");
          break;
        }
    }
  free (entries);
  *out = texts;
  *n_out = n;
  if (counts != NULL)
    *counts = c;
  return ENG_OK;
}

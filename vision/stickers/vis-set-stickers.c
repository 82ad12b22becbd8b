#include "vis-set-stickers.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-i18n.h"

/* A word of the set's data in the table's language (`word` when the
 * catalogue has none): every registered game's are in the catalogue
 * (po/data-words.c). */
static const char *
data_word (const char *word)
{
  return word != NULL && *word != '\0' ? ENG_ (word) : word;
}

const char *
vis_set_game_name (const EngCardSet *set)
{
  return eng_card_set_game_name (set);
}

void
vis_set_sheet_title (const EngCardSet *set, char *out, size_t size)
{
  const char *title = eng_card_set_title (set);
  if (title != NULL && *title != '\0')
    /* Translators: the game, the card set's id and its title. */
    snprintf (out, size, ENG_ ("%s stickers \xe2\x80\x94 set %s (%s)"), vis_set_game_name (set),
              eng_card_set_id (set), title);
  else
    snprintf (out, size, ENG_ ("%s stickers \xe2\x80\x94 set %s"), vis_set_game_name (set),
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

static const char *
deck_label (const EngCardSet *set, unsigned deck)
{
  const EngDeck *d = deck < eng_card_set_n_decks (set) ? eng_card_set_deck (set, deck) : NULL;
  if (d == NULL)
    return ENG_ ("deck");
  return d->label != NULL ? data_word (d->label) : d->id;
}

void
vis_set_card_label (const EngCardSet *set, const EngGameClass *klass, const void *rules,
                    const EngCard *card, char *out, size_t size)
{
  char name[96];
  if (klass != NULL && klass->card_name != NULL && rules != NULL)
    klass->card_name (rules, card->serial, false, name, sizeof name);
  else
    snprintf (name, sizeof name, "%s", card->name);
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "%s: %s", vis_set_game_name (set), name);
  const char *colour = eng_card_attr (card, "colour");
  const char *symbol = colour != NULL ? eng_card_set_colour_symbol (set, colour) : NULL;
  if (symbol != NULL)
    /* Translators: a colour-blind symbol's name ("flame") after a card's name. */
    g_string_append_printf (s, ENG_ (" (symbol: %s)"), data_word (symbol));
  const char *value = eng_card_attr (card, "value");
  if (value != NULL && strstr (name, value) == NULL)
    {
      const char *unit = eng_card_set_attr_unit (set, "value");
      long n = strtol (value, NULL, 10);
      if (unit != NULL && strcmp (unit, "points") == 0)
        g_string_append_printf (s, ENG_NG_ (", %s point", ", %s points", labs (n)), value);
      else if (unit != NULL)
        g_string_append_printf (s, ", %s %s", value, data_word (unit));
      else
        g_string_append_printf (s, ENG_ (", value %s"), value);
    }
  /* Translators: which copy of a card this is, of how many the set has. */
  g_string_append_printf (s, ENG_ (", copy %u/%u"), (unsigned) card->copy, (unsigned) card->copies);
  snprintf (out, size, "%s", s->str);
  g_string_free (s, TRUE);
}

/* The set's stickers in sheet order, in a new array of `n` (free()), or
 * NULL with `status` set. */
static Entry *
sorted_entries (const EngCardSet *set, size_t n, EngStatus *status)
{
  Entry *entries = calloc (n, sizeof *entries);
  if (entries == NULL)
    {
      *status = ENG_ERR_NO_MEMORY;
      return NULL;
    }
  for (size_t i = 0; i < n; i++)
    {
      *status = eng_card_set_sticker (set, i, &entries[i].meaning);
      if (*status != ENG_OK)
        {
          free (entries);
          return NULL;
        }
      entries[i].rank = kind_rank (entries[i].meaning.tag.kind);
      entries[i].deck = deck_of (set, &entries[i].meaning);
      entries[i].index = i;
    }
  qsort (entries, n, sizeof *entries, compare_entries);
  return entries;
}

/* What every sticker's text is written with. */
typedef struct {
  const EngCardSet *set;
  const char *game;
  /* the game's rules name the cards as the app does; a set no registered
   * game reads keeps its own names (rules NULL) */
  const EngGameClass *klass;
  void *rules;
  VisStickerCounts counts;
} SheetCtx;

/* Title, body and section heading of the `nth` sticker (from 1) of a group
 * of `in_group`, counted in ctx->counts. */
static void
write_text (SheetCtx *ctx, const Entry *e, size_t nth, size_t in_group, VisStickerText *t)
{
  const EngCardSet *set = ctx->set;
  const char *game = ctx->game;
  const EngTagMeaning *m = &e->meaning;
  VisStickerCounts *c = &ctx->counts;
  switch (m->tag.kind)
    {
    case ENG_TAG_FACE:
      c->faces++;
      snprintf (t->title, sizeof t->title, "%s", ENG_ ("Card face"));
      if (m->card != NULL)
        vis_set_card_label (set, ctx->klass, ctx->rules, m->card, t->body, sizeof t->body);
      else
        snprintf (t->body, sizeof t->body, "%s", ENG_ ("card"));
      snprintf (t->section, sizeof t->section, ENG_ ("Card faces \xe2\x80\x94 %s: %zu stickers"),
                deck_label (set, e->deck), in_group);
      break;
    case ENG_TAG_BACK:
      c->backs++;
      snprintf (t->title, sizeof t->title, "%s", ENG_ ("Card back"));
      /* Translators: the game, the deck's id ("cat", context "deck"), then which back of how many. */
      snprintf (t->body, sizeof t->body, ENG_ ("%s: back of the %s deck, %zu of %zu"), game,
                m->deck != NULL && m->deck->id != NULL
                  ? g_dpgettext2 (GETTEXT_PACKAGE, "deck", m->deck->id) : "",
                nth, in_group);
      snprintf (t->section, sizeof t->section, ENG_ ("Card backs \xe2\x80\x94 %s: %zu stickers"),
                deck_label (set, e->deck), in_group);
      break;
    case ENG_TAG_ANCHOR:
      c->anchors++;
      snprintf (t->title, sizeof t->title, ENG_ ("Table anchor %u"), m->anchor);
      snprintf (t->body, sizeof t->body,
                ENG_ ("%s: table anchor %u of %u, flat at a corner of the play area "
                      "(clockwise)"), game, m->anchor, eng_card_set_n_anchors (set));
      snprintf (t->section, sizeof t->section, ENG_ ("Table anchors: %zu stickers"), in_group);
      break;
    case ENG_TAG_SEAT:
      c->seats++;
      snprintf (t->title, sizeof t->title, ENG_ ("Seat %u"), m->seat);
      snprintf (t->body, sizeof t->body,
                ENG_ ("%s: seat %u of %u, at the table edge in front of this player "
                      "(clockwise)"), game, m->seat, eng_card_set_n_seats (set));
      snprintf (t->section, sizeof t->section, ENG_ ("Seat markers: %zu stickers"), in_group);
      break;
    case ENG_TAG_COMMAND:
      c->commands++;
      snprintf (t->title, sizeof t->title, "%s", ENG_ ("Command"));
      {
        /* The command in capitals is what a person looks for. */
        char *command = g_utf8_strup (m->command != NULL && m->command->label != NULL
                                        ? data_word (m->command->label) : ENG_ ("command"), -1);
        /* Translators: the game, then the command card's label in capitals. */
        snprintf (t->body, sizeof t->body, ENG_ ("%s: %.200s \xe2\x80\x94 show this card to the camera"),
                  game, command);
        g_free (command);
      }
      snprintf (t->section, sizeof t->section, ENG_ ("Command cards: %zu stickers"), in_group);
      break;
    default:
      snprintf (t->title, sizeof t->title, "%s", game);
      snprintf (t->body, sizeof t->body, "%s", eng_tag_kind_to_string (m->tag.kind));
      snprintf (t->section, sizeof t->section, "%s", ENG_ ("Other tags"));
      break;
    }
}

/* Every sticker's payload and texts, in sheet order.  A group is a run of
 * equal (rank, deck); its size goes in the heading and in each back's
 * "i/n". */
static EngStatus
write_texts (SheetCtx *ctx, const EngPrinting *printing, const Entry *entries, size_t n,
             VisStickerText *texts)
{
  size_t group_start = 0;
  size_t group_end = 0;
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
      EngStatus status = eng_printing_sticker_text (printing, &e->meaning.tag, texts[i].payload);
      if (status != ENG_OK)
        return status;
      write_text (ctx, e, i - group_start + 1, group_end - group_start, &texts[i]);
    }
  return ENG_OK;
}

EngStatus
vis_set_sticker_texts (const EngCardSet *set, const EngPrinting *printing, VisStickerText **out,
                       size_t *n_out, VisStickerCounts *counts)
{
  if (out != NULL)
    *out = NULL;
  if (n_out != NULL)
    *n_out = 0;
  if (set == NULL || printing == NULL || out == NULL || n_out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  size_t n = eng_card_set_n_stickers (set);
  if (n == 0)
    return ENG_ERR_INVALID_ARGUMENT;

  VisStickerText *texts = calloc (n, sizeof *texts);
  if (texts == NULL)
    return ENG_ERR_NO_MEMORY;
  EngStatus status;
  Entry *entries = sorted_entries (set, n, &status);
  if (entries == NULL)
    {
      free (texts);
      return status;
    }
  SheetCtx ctx = { .set = set, .game = vis_set_game_name (set) };
  ctx.klass = eng_game_class_find (eng_card_set_game (set));
  if (ctx.klass != NULL && eng_game_class_rules_new (ctx.klass, set, NULL, &ctx.rules, NULL) != ENG_OK)
    ctx.rules = NULL;
  status = write_texts (&ctx, printing, entries, n, texts);
  if (ctx.rules != NULL)
    eng_game_class_rules_free (ctx.klass, ctx.rules);
  free (entries);
  if (status != ENG_OK)
    {
      free (texts);
      return status;
    }
  *out = texts;
  *n_out = n;
  if (counts != NULL)
    *counts = ctx.counts;
  return ENG_OK;
}

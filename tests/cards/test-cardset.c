/* The card-set loader: the bundled sets hold exactly what the rulebooks and
 * RULINGS.md say, and malformed sets are refused with the right line. */
#include <criterion/criterion.h>
#include <glib.h>
#include <string.h>

#include "eng-cardset.h"

static char *
set_path (const char *game)
{
  const char *dir = g_getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir, "TABLERO_DATADIR must be set by meson");
  g_autofree char *name = g_strdup_printf ("%s.set", game);
  return g_build_filename (dir, "cards", name, NULL);
}

static EngCardSet *
load (const char *game)
{
  g_autofree char *path = set_path (game);
  EngCardSet *set = NULL;
  EngParseError err = { 0 };
  EngStatus st = eng_card_set_load_file (path, &set, &err);
  cr_assert_eq (st, ENG_OK, "%s:%u: %s", err.source, err.line, err.reason);
  cr_assert_not_null (set);
  return set;
}

static char *
read_set (const char *game)
{
  g_autofree char *path = set_path (game);
  char *text = NULL;
  cr_assert (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* Number of faces whose attributes all match (NULL value: attribute absent). */
static unsigned
count_where (const EngCardSet *set, const char *deck, const char *k1, const char *v1,
             const char *k2, const char *v2, const char *k3, const char *v3)
{
  unsigned n = 0;
  for (size_t i = 0; i < eng_card_set_n_cards (set); i++)
    {
      const EngCard *c = eng_card_set_card (set, i);
      if (deck && strcmp (eng_card_set_deck (set, c->deck)->id, deck) != 0)
        continue;
      const char *keys[] = { k1, k2, k3 }, *vals[] = { v1, v2, v3 };
      gboolean ok = TRUE;
      for (int j = 0; j < 3 && ok; j++)
        if (keys[j] != NULL)
          ok = g_strcmp0 (eng_card_attr (c, keys[j]), vals[j]) == 0;
      n += ok;
    }
  return n;
}

static const EngDeck *
deck_named (const EngCardSet *set, const char *id)
{
  size_t index = 99;
  cr_assert_eq (eng_card_set_find_deck (set, id, &index), ENG_OK, "deck %s", id);
  return eng_card_set_deck (set, index);
}

/* Invariants every loaded set keeps. */
static void
check_common (const EngCardSet *set)
{
  size_t n = eng_card_set_n_cards (set);
  size_t per_deck = 0;
  for (size_t d = 0; d < eng_card_set_n_decks (set); d++)
    per_deck += eng_card_set_deck (set, d)->n_cards;
  cr_assert_eq (per_deck, n);
  for (size_t i = 0; i < n; i++)
    {
      const EngCard *c = eng_card_set_card (set, i);
      cr_assert_eq (c->serial, i + 1, "serials are dense and in file order");
      cr_assert_eq (eng_card_set_find_serial (set, c->serial), c);
      cr_assert (c->copy >= 1 && c->copy <= c->copies);
      g_autofree char *copy = g_strdup_printf ("copy %u/%u", c->copy, c->copies);
      cr_assert_not_null (strstr (c->label, copy), "%s", c->label);
      cr_assert_not_null (strstr (c->label, eng_card_set_game_name (set)), "%s", c->label);
      cr_assert_not_null (strstr (c->label, c->name), "%s", c->label);
      const char *colour = eng_card_attr (c, "colour");
      if (colour != NULL)
        {
          cr_assert_not_null (strstr (c->label, eng_card_set_colour_word (set, colour)));
          cr_assert_not_null (strstr (c->label, eng_card_set_colour_symbol (set, colour)));
        }
    }
  cr_assert_null (eng_card_set_card (set, n));
  cr_assert_null (eng_card_set_find_serial (set, 0));
  cr_assert_null (eng_card_set_find_serial (set, (uint16_t) (n + 1)));
  for (size_t i = 0; i < 4; i++)
    {
      static const char *const required[] = { "end-turn", "undo", "confirm", "cancel" };
      const EngCommand *cmd = eng_card_set_find_command (set, required[i]);
      cr_assert_not_null (cmd, "%s", required[i]);
      cr_assert_eq (eng_card_set_command (set, cmd->serial - 1u), cmd);
    }
  cr_assert_eq (eng_card_set_n_anchors (set), 4);

  /* Every sticker formats to a payload that parses and resolves back to
   * the same thing; face payloads are all distinct. */
  GHashTable *faces = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  size_t n_stickers = eng_card_set_n_stickers (set);
  size_t backs = 0, anchors = 0, seats = 0, commands = 0;
  for (size_t i = 0; i < n_stickers; i++)
    {
      EngTagMeaning m, again;
      cr_assert_eq (eng_card_set_sticker (set, i, &m), ENG_OK);
      char payload[12];
      cr_assert_eq (eng_tag_format (&m.tag, payload), ENG_OK);
      EngTag parsed;
      cr_assert_eq (eng_tag_parse (payload, 11, &parsed), ENG_OK);
      cr_assert_eq (eng_card_set_resolve (set, &parsed, &again), ENG_OK);
      cr_assert_eq (again.card, m.card);
      cr_assert_eq (again.deck, m.deck);
      cr_assert_eq (again.command, m.command);
      cr_assert_eq (again.seat, m.seat);
      cr_assert_eq (again.anchor, m.anchor);
      switch (m.tag.kind)
        {
        case ENG_TAG_FACE:
          cr_assert_eq (i, m.card->serial - 1u);
          cr_assert (g_hash_table_add (faces, g_strdup (payload)), "duplicate %s", payload);
          break;
        case ENG_TAG_BACK:
          cr_assert (m.deck->has_back);
          backs++;
          break;
        case ENG_TAG_ANCHOR:
          anchors++;
          break;
        case ENG_TAG_SEAT:
          seats++;
          break;
        case ENG_TAG_COMMAND:
          commands++;
          break;
        }
    }
  EngTagMeaning past;
  cr_assert_eq (eng_card_set_sticker (set, n_stickers, &past), ENG_ERR_NOT_FOUND);
  cr_assert_eq (g_hash_table_size (faces), n);
  size_t want_backs = 0;
  for (size_t d = 0; d < eng_card_set_n_decks (set); d++)
    if (eng_card_set_deck (set, d)->has_back)
      want_backs += eng_card_set_deck (set, d)->n_cards;
  cr_assert_eq (backs, want_backs);
  cr_assert_eq (anchors, eng_card_set_n_anchors (set));
  cr_assert_eq (seats, eng_card_set_n_seats (set));
  cr_assert_eq (commands, eng_card_set_n_commands (set));
  g_hash_table_destroy (faces);
}

Test (cardset, katua_matches_rulings_k1)
{
  EngCardSet *set = load ("katua");
  cr_assert_str_eq (eng_card_set_game (set), "katua");
  cr_assert_eq (eng_card_set_game_letter (set), 'K');
  cr_assert_str_eq (eng_card_set_id (set), "01");
  cr_assert_eq (eng_card_set_n_cards (set), 108);
  cr_assert_eq (deck_named (set, "cat")->n_cards, 34);
  cr_assert_eq (deck_named (set, "ufo")->n_cards, 74);
  cr_assert_eq (eng_card_set_n_seats (set), 4);

  /* K1 default values, read from the file. */
  static const char *const colours[] = { "red", "blue", "yellow" };
  for (int c = 0; c < 3; c++)
    {
      cr_assert_eq (count_where (set, "cat", "kind", "cat", "colour", colours[c], NULL, NULL), 6);
      cr_assert_eq (count_where (set, "cat", "kind", "cat", "colour", colours[c], "value", "1"), 3);
      cr_assert_eq (count_where (set, "cat", "kind", "cat", "colour", colours[c], "value", "2"), 2);
      cr_assert_eq (count_where (set, "cat", "kind", "cat", "colour", colours[c], "value", "3"), 1);
      cr_assert_eq (count_where (set, "ufo", "kind", "abduction", "colour", colours[c], NULL, NULL), 12);
    }
  cr_assert_eq (count_where (set, "cat", "kind", "cat", "colour", "tricolor", "value", "1"), 4);
  cr_assert_eq (count_where (set, "cat", "kind", "cat", "colour", "tricolor", "value", "2"), 3);
  cr_assert_eq (count_where (set, "cat", "kind", "cat", "colour", "tricolor", "value", "3"), 3);
  cr_assert_eq (count_where (set, "cat", "kind", "cat", NULL, NULL, NULL, NULL), 28);
  cr_assert_eq (count_where (set, "cat", "kind", "fake", "value", "-1", NULL, NULL), 4);
  cr_assert_eq (count_where (set, "cat", "kind", "fake", "value", "-2", NULL, NULL), 2);
  cr_assert_eq (count_where (set, "cat", "kind", "fake", "colour", NULL, NULL, NULL), 6);

  cr_assert_eq (count_where (set, "ufo", "kind", "abduction", "colour", "tricolor", NULL, NULL), 6);
  /* The 48 abduction cards of the rulebook include the 6 Hooks (K3, K12). */
  cr_assert_eq (count_where (set, "ufo", "kind", "abduction", NULL, NULL, NULL, NULL), 42);
  cr_assert_eq (count_where (set, "ufo", "kind", "hook", "colour", NULL, NULL, NULL), 6);
  cr_assert_eq (count_where (set, "ufo", "kind", "action", NULL, NULL, NULL, NULL), 26);
  cr_assert_eq (count_where (set, "ufo", "kind", "action", "action", "shield", NULL, NULL), 6);
  cr_assert_eq (count_where (set, "ufo", "kind", "action", "action", "replicator", NULL, NULL), 6);
  cr_assert_eq (count_where (set, "ufo", "kind", "action", "action", "teleporter", NULL, NULL), 6);
  cr_assert_eq (count_where (set, "ufo", "kind", "action", "action", "xray", NULL, NULL), 5);
  cr_assert_eq (count_where (set, "ufo", "kind", "action", "action", "stampede", NULL, NULL), 3);

  /* Every cat scores: the value is an integer in the K1 range. */
  long total = 0;
  for (size_t i = 0; i < eng_card_set_n_cards (set); i++)
    {
      const EngCard *c = eng_card_set_card (set, i);
      long v;
      if (strcmp (eng_card_set_deck (set, c->deck)->id, "cat") == 0)
        {
          cr_assert_eq (eng_card_attr_int (c, "value", &v), ENG_OK);
          cr_assert (v >= -2 && v <= 3);
          total += v;
        }
      else
        cr_assert_eq (eng_card_attr_int (c, "value", &v), ENG_ERR_NOT_FOUND);
    }
  cr_assert_eq (total, 3 * (3 + 4 + 3) + (4 + 6 + 9) - 4 - 4);

  cr_assert_not_null (eng_card_set_find_command (set, "pass"));
  cr_assert_not_null (eng_card_set_find_command (set, "discard"));
  /* the window's keys come with the commands (key=) */
  cr_assert_eq (eng_card_set_find_command (set, "pass")->key, 'p');
  cr_assert_eq (eng_card_set_find_command (set, "undo")->key, 0);
  cr_assert_eq (eng_card_set_n_stickers (set), 108 + 108 + 4 + 4 + eng_card_set_n_commands (set));
  const EngCard *first = eng_card_set_find_serial (set, 1);
  cr_assert_str_eq (first->type_id, "cat-red-1");
  cr_assert_str_eq (first->label, "Katua: Cat, red (symbol: flame), 1 point, copy 1/3");
  check_common (set);
  eng_card_set_free (set);
}

Test (cardset, catchy_has_19_faces)
{
  EngCardSet *set = load ("catchy");
  cr_assert_eq (eng_card_set_game_letter (set), 'C');
  cr_assert_eq (eng_card_set_n_cards (set), 19);
  cr_assert_eq (eng_card_set_n_seats (set), 2);
  cr_assert_eq (count_where (set, "main", "kind", "number", NULL, NULL, NULL, NULL), 15);
  const char *colours[3] = { NULL };
  int n_colours = 0;
  for (size_t i = 0; i < eng_card_set_n_cards (set); i++)
    {
      const char *c = eng_card_attr (eng_card_set_card (set, i), "colour");
      if (c == NULL)
        continue;
      int j = 0;
      while (j < n_colours && strcmp (colours[j], c) != 0)
        j++;
      if (j == n_colours)
        {
          cr_assert_lt (n_colours, 3, "more than three colours");
          colours[n_colours++] = c;
        }
    }
  cr_assert_eq (n_colours, 3);
  for (int c = 0; c < 3; c++)
    for (int v = 1; v <= 5; v++)
      {
        char value[2] = { (char) ('0' + v), '\0' };
        cr_assert_eq (count_where (set, "main", "kind", "number", "colour", colours[c], "value", value), 1);
      }
  cr_assert_eq (count_where (set, "main", "kind", "wild", "value", "3", "colour", NULL), 1);
  cr_assert_eq (count_where (set, "main", "kind", "start", NULL, NULL, NULL, NULL), 1);
  cr_assert_eq (count_where (set, "mood", "kind", "mood", "side", "red", NULL, NULL), 1);
  cr_assert_eq (count_where (set, "mood", "kind", "mood", "side", "blue", NULL, NULL), 1);
  cr_assert_eq (deck_named (set, "main")->n_cards, 17);
  cr_assert (deck_named (set, "main")->has_back);
  cr_assert_not (deck_named (set, "mood")->has_back);
  /* One back per card of the main deck, none for the two-sided mood card. */
  cr_assert_eq (eng_card_set_n_stickers (set), 19 + 17 + 4 + 2 + eng_card_set_n_commands (set));
  size_t mood = 9;
  cr_assert_eq (eng_card_set_find_deck (set, "mood", &mood), ENG_OK);
  EngTag back = { .game = 'C', .set = "01", .kind = ENG_TAG_BACK, .serial = (uint16_t) (mood + 1) };
  EngTagMeaning m;
  cr_assert_eq (eng_card_set_resolve (set, &back, &m), ENG_ERR_TAG_UNKNOWN);
  check_common (set);
  eng_card_set_free (set);
}

static const char *const kittens_extra[] = {
  "targeted-attack", "triple-attack", "super-skip", "draw-from-bottom", "see-the-future-5",
  "alter-the-future-3", "alter-the-future-5", "reverse", "swap-top-bottom", "bury",
  "personal-attack", "feral-cat",
};

Test (cardset, kittens_base_56)
{
  EngCardSet *set = load ("kittens");
  cr_assert_eq (eng_card_set_game_letter (set), 'E');
  cr_assert_eq (eng_card_set_n_cards (set), 56);
  cr_assert_eq (eng_card_set_n_seats (set), 5);
  static const struct { const char *kind; unsigned n; } base[] = {
    { "exploding-kitten", 4 }, { "defuse", 6 }, { "nope", 5 }, { "attack", 4 }, { "skip", 4 },
    { "favor", 4 }, { "shuffle", 4 }, { "see-the-future", 5 }, { "cat", 20 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (base); i++)
    cr_assert_eq (count_where (set, NULL, "kind", base[i].kind, NULL, NULL, NULL, NULL), base[i].n,
                  "%s", base[i].kind);
  static const char *const cats[] = { "black", "white", "grey", "tabby", "blond" };
  for (size_t i = 0; i < 5; i++)
    cr_assert_eq (count_where (set, NULL, "kind", "cat", "cat", cats[i], NULL, NULL), 4);
  for (size_t i = 0; i < eng_card_set_n_cards (set); i++)
    for (size_t j = 0; j < G_N_ELEMENTS (kittens_extra); j++)
      cr_assert_str_neq (eng_card_set_card (set, i)->type_id, kittens_extra[j],
                         "count 0 types print nothing");
  check_common (set);
  eng_card_set_free (set);
}

/* Replaces the first occurrence of `from` in `text` (which must hold it). */
static char *
replace (const char *text, const char *from, const char *to)
{
  const char *at = strstr (text, from);
  cr_assert_not_null (at, "'%s' not in the text", from);
  return g_strdup_printf ("%.*s%s%s", (int) (at - text), text, to, at + strlen (from));
}

static unsigned
line_of (const char *text, const char *needle)
{
  const char *at = strstr (text, needle);
  cr_assert_not_null (at);
  unsigned line = 1;
  for (const char *p = text; p < at; p++)
    line += *p == '\n';
  return line;
}

Test (cardset, kittens_expansions_are_added_by_count)
{
  g_autofree char *text = read_set ("kittens");
  for (size_t j = 0; j < G_N_ELEMENTS (kittens_extra); j++)
    {
      g_autofree char *line = g_strdup_printf ("card %s ", kittens_extra[j]);
      const char *at = strstr (text, line);
      cr_assert_not_null (at, "type %s missing from kittens.set", kittens_extra[j]);
      const char *count = strstr (at, "count=0 ");
      cr_assert_not_null (count);
      g_autofree char *edited = g_strdup_printf ("%.*scount=2 %s", (int) (count - text), text,
                                                 count + strlen ("count=0 "));
      g_autofree char *edited2 = replace (edited, "total=56", "total=58");
      EngCardSet *set = NULL;
      EngParseError err = { 0 };
      cr_assert_eq (eng_card_set_parse (edited2, strlen (edited2), "kittens+", &set, &err), ENG_OK,
                    "%u: %s", err.line, err.reason);
      cr_assert_eq (eng_card_set_n_cards (set), 58);
      unsigned found = 0;
      for (size_t i = 0; i < 58; i++)
        found += strcmp (eng_card_set_card (set, i)->type_id, kittens_extra[j]) == 0;
      cr_assert_eq (found, 2, "%s", kittens_extra[j]);
      eng_card_set_free (set);

      /* Forgetting the total is refused at the deck line. */
      EngStatus st = eng_card_set_parse (edited, strlen (edited), "kittens+", &set, &err);
      cr_assert_eq (st, ENG_ERR_INCONSISTENT);
      cr_assert_null (set);
      cr_assert_eq (err.line, line_of (edited, "deck main"));
    }
}

Test (cardset, katua_edited_count_is_refused_at_deck_line)
{
  g_autofree char *text = read_set ("katua");
  g_autofree char *bad = replace (text, "deck=cat count=3 name=\"Cat\" kind=cat colour=red value=1",
                                  "deck=cat count=4 name=\"Cat\" kind=cat colour=red value=1");
  EngCardSet *set = (EngCardSet *) 0x1;
  EngParseError err = { 0 };
  cr_assert_eq (eng_card_set_parse (bad, strlen (bad), "katua.set", &set, &err), ENG_ERR_INCONSISTENT);
  cr_assert_null (set);
  cr_assert_str_eq (err.source, "katua.set");
  cr_assert_eq (err.line, line_of (bad, "deck cat "));
  cr_assert_not_null (strstr (err.reason, "35"), "%s", err.reason);
}

/* A small valid set the malformed cases below are edits of. */
static const char base_set[] =
  "# a test set\n"                                        /* 1 */
  "game test T \"Test game\"\n"                           /* 2 */
  "set 0A\n"                                              /* 3 */
  "title \"A \\\"quoted\\\" title\"\n"                    /* 4 */
  "seats 2\n"                                             /* 5 */
  "anchors 4\n"                                           /* 6 */
  "attr kind enum big small\n"                            /* 7 */
  "attr colour enum red\n"                                /* 8 */
  "attr value int -1 2 unit=points\n"                     /* 9 */
  "colour red word=rouge symbol=moon\n"                   /* 10 */
  "deck main total=3 label=\"Main deck\"\n"               /* 11 */
  "card a deck=main count=2 name=\"Big one\" kind=big colour=red value=2  # trailing\n" /* 12 */
  "card b deck=main count=1 name=Small kind=small value=-1\n" /* 13 */
  "command end-turn \"End\"\n"                            /* 14 */
  "command undo Undo\n"                                   /* 15 */
  "command confirm Confirm\n"                             /* 16 */
  "command cancel Cancel\n";                              /* 17 */

Test (cardset, small_valid_set)
{
  EngCardSet *set = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_card_set_parse (base_set, strlen (base_set), "base", &set, &err), ENG_OK,
                "%u: %s", err.line, err.reason);
  cr_assert_str_eq (eng_card_set_title (set), "A \"quoted\" title");
  cr_assert_str_eq (eng_card_set_id (set), "0A");
  cr_assert_eq (eng_card_set_n_cards (set), 3);
  cr_assert_str_eq (eng_card_set_card (set, 0)->label, "Test game: Big one, rouge (symbol: moon), 2 points, copy 1/2");
  cr_assert_str_eq (eng_card_set_card (set, 2)->label, "Test game: Small, -1 point, copy 1/1");
  long v = 0;
  cr_assert_eq (eng_card_attr_int (eng_card_set_card (set, 2), "value", &v), ENG_OK);
  cr_assert_eq (v, -1);
  cr_assert_eq (eng_card_attr_int (eng_card_set_card (set, 2), "kind", &v), ENG_ERR_SYNTAX);
  cr_assert_eq (eng_card_attr_int (eng_card_set_card (set, 2), "colour", &v), ENG_ERR_NOT_FOUND);
  cr_assert_null (eng_card_attr (eng_card_set_card (set, 2), "colour"));

  /* Resolve refuses other games, sets and out-of-range serials. */
  EngTagMeaning m;
  EngTag tag = { .game = 'T', .set = "0A", .kind = ENG_TAG_FACE, .serial = 3 };
  cr_assert_eq (eng_card_set_resolve (set, &tag, &m), ENG_OK);
  cr_assert_eq (m.card, eng_card_set_card (set, 2));
  tag.serial = 4;
  cr_assert_eq (eng_card_set_resolve (set, &tag, &m), ENG_ERR_TAG_UNKNOWN);
  tag.serial = 1;
  tag.game = 'K';
  cr_assert_eq (eng_card_set_resolve (set, &tag, &m), ENG_ERR_TAG_UNKNOWN);
  tag.game = 'T';
  tag.set[1] = 'B';
  cr_assert_eq (eng_card_set_resolve (set, &tag, &m), ENG_ERR_TAG_UNKNOWN);
  tag.set[1] = 'A';
  static const struct { EngTagKind kind; uint16_t last_ok; } limits[] = {
    { ENG_TAG_BACK, 1 }, { ENG_TAG_ANCHOR, 4 }, { ENG_TAG_SEAT, 2 }, { ENG_TAG_COMMAND, 4 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      tag.kind = limits[i].kind;
      tag.serial = limits[i].last_ok;
      cr_assert_eq (eng_card_set_resolve (set, &tag, &m), ENG_OK);
      tag.serial++;
      cr_assert_eq (eng_card_set_resolve (set, &tag, &m), ENG_ERR_TAG_UNKNOWN);
    }
  check_common (set);
  eng_card_set_free (set);
}

typedef struct {
  const char *from, *to;     /* edit of base_set */
  EngStatus status;
  unsigned line;
  const char *from2, *to2;   /* optional second edit */
} BadCase;

static const BadCase bad_cases[] = {
  /* totals */
  { "total=3", "total=4", ENG_ERR_INCONSISTENT, 11 },
  { "count=2", "count=1", ENG_ERR_INCONSISTENT, 11 },
  { "count=2", "count=1000", ENG_ERR_INCONSISTENT, 12 },
  { "count=2", "count=-1", ENG_ERR_INCONSISTENT, 12 },
  { "count=2", "count=two", ENG_ERR_SYNTAX, 12 },
  /* unknown attributes */
  { "kind=big", "size=big", ENG_ERR_UNKNOWN_ATTRIBUTE, 12 },
  { "kind=big", "kind=huge", ENG_ERR_UNKNOWN_ATTRIBUTE, 12 },
  { "value=2 ", "value=3 ", ENG_ERR_UNKNOWN_ATTRIBUTE, 12 },
  { "value=2 ", "value=x ", ENG_ERR_UNKNOWN_ATTRIBUTE, 12 },
  { "colour red word", "colour blue word", ENG_ERR_UNKNOWN_ATTRIBUTE, 10 },
  /* duplicates */
  { "card b ", "card a ", ENG_ERR_DUPLICATE_ID, 13 },
  { "command undo", "command end-turn", ENG_ERR_DUPLICATE_ID, 15 },
  { "kind=small", "kind=small kind=big", ENG_ERR_DUPLICATE_ID, 13 },
  { "attr colour", "attr kind", ENG_ERR_DUPLICATE_ID, 8 },
  { "set 0A\n", "set 0A\nset 0B\n", ENG_ERR_DUPLICATE_ID, 4 },
  { "enum big small", "enum big big", ENG_ERR_DUPLICATE_ID, 7 },
  { "seats 2\n", "seats 2\nseats 3\n", ENG_ERR_DUPLICATE_ID, 6 },
  { "deck main total=3 label=\"Main deck\"\n",
    "deck main total=3 label=\"Main deck\"\ndeck main total=0 label=x\n", ENG_ERR_DUPLICATE_ID, 12 },
  /* syntax */
  { "title \"A", "title \"A\\x", ENG_ERR_SYNTAX, 4 },
  { "label=\"Main deck\"", "label=\"Main deck", ENG_ERR_SYNTAX, 11 },
  { "command undo Undo", "command undo", ENG_ERR_SYNTAX, 15 },
  { "Undo\n", "Undo key=zz\n", ENG_ERR_SYNTAX, 15 },
  { "Undo\n", "Undo key=Z\n", ENG_ERR_SYNTAX, 15 },
  { "Undo\n", "Undo size=z\n", ENG_ERR_SYNTAX, 15 },
  { "Confirm\n", "Confirm key=c\n", ENG_ERR_DUPLICATE_ID, 17, "Cancel\n", "Cancel key=c\n" },
  { "anchors 4", "anchor 4", ENG_ERR_SYNTAX, 6 },
  { "anchors 4", "anchors four", ENG_ERR_SYNTAX, 6 },
  { "set 0A", "set 0a", ENG_ERR_SYNTAX, 3 },
  { "set 0A", "set 0AB", ENG_ERR_SYNTAX, 3 },
  { "set 0A", "set \"0 \"", ENG_ERR_SYNTAX, 3 },
  { "set 0A", "set 0Z", ENG_ERR_SYNTAX, 3 },   /* the Luhn mod 36 blind spot */
  { "set 0A", "set Z0", ENG_ERR_SYNTAX, 3 },
  { "game test T", "game test TT", ENG_ERR_SYNTAX, 2 },
  { "name=Small", "Small", ENG_ERR_SYNTAX, 13 },
  { "name=Small", "name=\"Small\"x", ENG_ERR_SYNTAX, 13 },
  { "name=Small", "=Small", ENG_ERR_SYNTAX, 13 },
  { "card b deck=main", "card b", ENG_ERR_SYNTAX, 13 },
  { "int -1 2", "int 2 -1", ENG_ERR_SYNTAX, 9 },
  { "int -1 2", "float -1 2", ENG_ERR_SYNTAX, 9 },
  { "attr kind", "attr count", ENG_ERR_SYNTAX, 7 },
  { "colour red word=rouge symbol=moon", "colour red word=rouge", ENG_ERR_SYNTAX, 10 },
  { "Undo\n", "Un\001do\n", ENG_ERR_SYNTAX, 15 },
  { "Undo\n", "Un\xff" "do\n", ENG_ERR_SYNTAX, 15 },
  /* cross references */
  { "card b deck=main", "card b deck=side", ENG_ERR_INCONSISTENT, 13 },
  { "colour=red value=2", "colour=green value=2", ENG_ERR_INCONSISTENT, 12,
    "attr colour enum red\n", "attr colour enum red green\n" },
  /* missing declarations: whole-set faults carry line 0 */
  { "game test T \"Test game\"\n", "", ENG_ERR_SYNTAX, 0 },
  { "title \"A \\\"quoted\\\" title\"\n", "", ENG_ERR_SYNTAX, 0 },
  { "seats 2\n", "", ENG_ERR_SYNTAX, 0 },
  { "command undo Undo\n", "", ENG_ERR_INCONSISTENT, 0 },
  { "seats 2", "seats 0", ENG_ERR_INCONSISTENT, 0 },
};

Test (cardset, malformed_sets_are_refused_with_line_and_reason)
{
  for (size_t i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      const BadCase *c = &bad_cases[i];
      g_autofree char *text = replace (base_set, c->from, c->to);
      if (c->from2 != NULL)
        {
          char *again = replace (text, c->from2, c->to2);
          g_free (text);
          text = again;
        }
      EngCardSet *set = (EngCardSet *) 0x1;
      EngParseError err = { .line = 12345 };
      EngStatus st = eng_card_set_parse (text, strlen (text), "bad.set", &set, &err);
      cr_assert_eq (st, c->status, "case %zu (%s -> %s): got %s (%u: %s)", i, c->from, c->to,
                    eng_status_to_string (st), err.line, err.reason);
      cr_assert_eq (err.line, c->line, "case %zu: line %u, want %u (%s)", i, err.line, c->line,
                    err.reason);
      cr_assert_null (set, "case %zu", i);
      cr_assert_str_eq (err.source, "bad.set");
      cr_assert_gt (strlen (err.reason), 5, "case %zu has no reason", i);
      /* A NULL error pointer is allowed and changes nothing. */
      cr_assert_eq (eng_card_set_parse (text, strlen (text), NULL, &set, NULL), c->status);
    }
}

Test (cardset, absurd_sizes_are_refused)
{
  /* 999 faces is the most three digits can number; one more is refused. */
  GString *s = g_string_new ("game big B Big\nset 01\ntitle Big\nseats 1\nanchors 0\n"
                             "command end-turn E\ncommand undo U\ncommand confirm C\n"
                             "command cancel X\ndeck d total=999 label=D\n");
  for (int i = 0; i < 9; i++)
    g_string_append_printf (s, "card t%d deck=d count=111 name=T\n", i);
  EngCardSet *set = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_card_set_parse (s->str, s->len, "big", &set, &err), ENG_OK, "%s", err.reason);
  cr_assert_eq (eng_card_set_n_cards (set), 999);
  EngTagMeaning m;
  cr_assert_eq (eng_card_set_sticker (set, 998, &m), ENG_OK);
  cr_assert_eq (m.card->serial, 999);
  eng_card_set_free (set);
  g_string_append (s, "card more deck=d count=1 name=T\n");
  cr_assert_eq (eng_card_set_parse (s->str, s->len, "big", &set, &err), ENG_ERR_INCONSISTENT);
  cr_assert_eq (err.line, 20);
  g_string_free (s, TRUE);

  /* A line longer than the format allows. */
  g_autofree char *pad = g_strnfill (2000, 'x');
  g_autofree char *long_line = g_strdup_printf ("%s# %s\n", base_set, pad);
  cr_assert_eq (eng_card_set_parse (long_line, strlen (long_line), "long", &set, &err), ENG_ERR_SYNTAX);
  cr_assert_eq (err.line, 18);
}

Test (cardset, embedded_nul_and_crlf)
{
  g_autofree char *crlf = NULL;
  {
    GString *s = g_string_new (NULL);
    for (const char *p = base_set; *p; p++)
      {
        if (*p == '\n')
          g_string_append_c (s, '\r');
        g_string_append_c (s, *p);
      }
    crlf = g_string_free (s, FALSE);
  }
  EngCardSet *set = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_card_set_parse (crlf, strlen (crlf), "crlf", &set, &err), ENG_OK, "%s", err.reason);
  eng_card_set_free (set);

  /* The length, not a NUL, ends the text: a NUL inside is refused. */
  char *nul = g_strdup (base_set);
  char *at = strstr (nul, "anchors");
  *at = '\0';
  cr_assert_eq (eng_card_set_parse (nul, sizeof base_set - 1, "nul", &set, &err), ENG_ERR_SYNTAX);
  cr_assert_eq (err.line, 6);
  g_free (nul);
  cr_assert_eq (eng_card_set_parse (NULL, 0, "empty", &set, &err), ENG_ERR_SYNTAX);
  cr_assert_eq (eng_card_set_parse (NULL, 5, "null", &set, &err), ENG_ERR_INVALID_ARGUMENT);
}

Test (cardset, every_truncation_of_a_real_set_is_handled)
{
  /* Cutting a file anywhere must give a clean error or a valid set, never a
   * crash or a half-loaded set (the fuzzer goes further). */
  g_autofree char *text = read_set ("katua");
  size_t len = strlen (text);
  size_t ok = 0;
  for (size_t cut = 0; cut < len; cut++)
    {
      EngCardSet *set = NULL;
      EngParseError err = { 0 };
      EngStatus st = eng_card_set_parse (text, cut, "cut", &set, &err);
      if (st == ENG_OK)
        {
          ok++;
          cr_assert_eq (eng_card_set_n_cards (set), 108);
          eng_card_set_free (set);
        }
      else
        {
          cr_assert_null (set);
          cr_assert_neq (err.reason[0], '\0');
        }
    }
  /* Only cuts inside the trailing command list and comments still load. */
  cr_assert_lt (ok, len / 4);
}

Test (cardset, missing_file_is_io_error)
{
  EngCardSet *set = (EngCardSet *) 0x1;
  EngParseError err = { 0 };
  cr_assert_eq (eng_card_set_load_file ("/nonexistent/tablero/x.set", &set, &err), ENG_ERR_IO);
  cr_assert_null (set);
  cr_assert_str_eq (err.source, "/nonexistent/tablero/x.set");
  cr_assert_neq (err.reason[0], '\0');
}

/* Only the core's undo is every table's command: a game that has no turns
 * to end and asks no question declares no end-turn, confirm or cancel.
 * Credits are the rulebook's, in file order. */
Test (cardset, game_commands_are_optional_and_credits_kept)
{
  const char *text = "game war W War\nset 01\ntitle War\ncredit \"Traditional\"\n"
                     "credit \"Tablero (rules summary)\"\nseats 2\nanchors 4\n"
                     "deck d total=2 label=D\ncard a deck=d count=2 name=A\n"
                     "command undo Undo\n";
  EngCardSet *set = NULL;
  EngParseError err = { 0 };
  cr_assert_eq (eng_card_set_parse (text, strlen (text), "war", &set, &err), ENG_OK, "%u: %s",
                err.line, err.reason);
  cr_assert_null (eng_card_set_find_command (set, "end-turn"));
  cr_assert_eq (eng_card_set_n_credits (set), 2);
  cr_assert_str_eq (eng_card_set_credit (set, 1), "Tablero (rules summary)");
  cr_assert_null (eng_card_set_credit (set, 2));
  eng_card_set_free (set);
  GString *many = g_string_new ("game war W War\nset 01\ntitle War\n");
  for (int i = 0; i < 9; i++)
    g_string_append (many, "credit \"x\"\n");
  g_string_append (many, "seats 2\nanchors 4\ndeck d total=1 label=D\ncard a deck=d count=1 name=A\n"
                         "command undo Undo\n");
  cr_assert_eq (eng_card_set_parse (many->str, many->len, "war", &set, &err), ENG_ERR_INCONSISTENT);
  cr_assert_eq (err.line, 12);
  g_string_free (many, TRUE);
}

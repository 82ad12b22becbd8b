/* referee-table.h: a table laid sticker by sticker and shown to a
 * UiReferee as the camera would (one committed snapshot a look), for the
 * app's tests.  Header only; needs Criterion, <string.h>, eng-tag.h and
 * ui-referee.h before it. */
#pragma once

typedef struct {
  EngSnapshot snap;
} Table;

static inline guint16
serial_of_type (UiReferee *referee, const char *type_id)
{
  const EngCardSet *set = ui_referee_get_card_set (referee);
  for (size_t i = 0; i < eng_card_set_n_cards (set); i++)
    if (strcmp (eng_card_set_card (set, i)->type_id, type_id) == 0)
      return eng_card_set_card (set, i)->serial;
  cr_assert_fail ("no card of type %s", type_id);
  return 0;
}

static inline void
table_put (UiReferee *referee, Table *t, char kind, guint16 serial, guint32 track, EngZone zone)
{
  const EngCardSet *set = ui_referee_get_card_set (referee);
  EngSnapshotItem *it = &t->snap.items[t->snap.n_items++];
  memset (it, 0, sizeof *it);
  EngTag tag = { .game = eng_card_set_game_letter (set), .kind = (EngTagKind) kind, .serial = serial };
  g_strlcpy (tag.set, eng_card_set_id (set), sizeof tag.set);
  cr_assert_eq (eng_tag_format (&tag, it->payload), ENG_OK);
  it->tag_kind = kind;
  it->serial = serial;
  it->track_id = track;
  it->zone = zone;
}

static inline void
table_take (Table *t, guint32 track)
{
  for (guint i = 0; i < t->snap.n_items; i++)
    if (t->snap.items[i].track_id == track)
      {
        t->snap.items[i] = t->snap.items[--t->snap.n_items];
        return;
      }
  cr_assert_fail ("no track %u on the table", track);
}

static inline void
table_show (UiReferee *referee, Table *t)
{
  t->snap.seq++;
  t->snap.time_ns += 1000000000;
  t->snap.calibrated = 1;
  ui_referee_feed (referee, &t->snap);
}


/* A new two-player Katua game's table: each player's three cats face down
 * (tracks 1-6, seat by seat), shown as the baseline. */
static inline void
table_deal (UiReferee *referee, Table *t)
{
  for (int seat = 0; seat < 2; seat++)
    for (int slot = 0; slot < 3; slot++)
      table_put (referee, t, 'B', 1, (guint32) (1 + seat * 3 + slot),
                 (EngZone){ ENG_ZONE_SLOT, (int8_t) seat, (int8_t) slot });
  table_show (referee, t);
}

/* On the dealt table: Ana's tricolor beam at Bea's slot 1 (track 20); Bea
 * answers with a red UFO (21), which forces her cat to be shown to all
 * (K5): the red cat 1 (22) turned up in place of the back (track 4).
 * Returns the cat's serial. */
static inline guint16
table_forced_show (UiReferee *referee, Table *t)
{
  guint16 cat = serial_of_type (referee, "cat-red-1");
  table_put (referee, t, 'F', serial_of_type (referee, "ufo-tricolor"), 20,
             (EngZone){ ENG_ZONE_ATTACK, 1, 0 });
  table_show (referee, t);
  table_put (referee, t, 'F', serial_of_type (referee, "ufo-red"), 21, (EngZone){ ENG_ZONE_ATTACK, 1, 0 });
  table_show (referee, t);
  table_take (t, 4);
  table_put (referee, t, 'F', cat, 22, (EngZone){ ENG_ZONE_SLOT, 1, 0 });
  table_show (referee, t);
  return cat;
}

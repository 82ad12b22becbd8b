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


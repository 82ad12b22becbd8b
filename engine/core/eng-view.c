/* eng-view.c: filling a public view (eng-view.h). */
#include "eng-view.h"
#include "eng-i18n.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void
eng_view_init (EngView *view)
{
  memset (view, 0, sizeof *view);
  view->active = -1;
  view->deciding = -1;
  for (unsigned p = 0; p < ENG_MAX_PLAYERS; p++)
    view->players[p].hand = -1;
}

void
eng_view_fill_common (EngView *view, const EngGameClass *klass, const void *rules,
                      const void *state)
{
  view->scored = true;
  view->over = eng_game_class_is_over (klass, rules, state);
  view->winners = (uint16_t) (view->over ? eng_game_class_winners (klass, rules, state, NULL) : 0);
  int who = view->over ? -1 : eng_game_class_to_move (klass, rules, state);
  view->active = view->deciding = (int8_t) who;
  for (unsigned p = 0; p < view->n_players && p < ENG_MAX_PLAYERS; p++)
    {
      EngViewPlayer *vp = &view->players[p];
      vp->score = (int16_t) eng_game_class_score (klass, rules, state, p);
      if ((int) p == who)
        vp->flags |= ENG_VIEW_PLAYER_ACTIVE | ENG_VIEW_PLAYER_DECIDING;
      if ((view->winners >> p) & 1)
        vp->flags |= ENG_VIEW_PLAYER_WINNER;
    }
}

static void
place_init (EngViewPlace *place, const char *label)
{
  memset (place, 0, sizeof *place);
  place->marker = -1;
  snprintf (place->label, sizeof place->label, "%s", label != NULL ? label : "");
}

EngViewPlace *
eng_view_add_shared (EngView *view, const char *label)
{
  if (view->n_shared >= ENG_VIEW_SHARED_PLACES)
    return NULL;
  EngViewPlace *place = &view->shared[view->n_shared++];
  place_init (place, label);
  return place;
}

EngViewPlace *
eng_view_add_player_place (EngViewPlayer *player, const char *label)
{
  if (player->n_places >= ENG_VIEW_PLAYER_PLACES)
    return NULL;
  EngViewPlace *place = &player->places[player->n_places++];
  place_init (place, label);
  return place;
}

EngViewPanel *
eng_view_add_panel (EngView *view, const char *title)
{
  if (view->n_panels >= ENG_VIEW_PANELS)
    return NULL;
  EngViewPanel *panel = &view->panels[view->n_panels++];
  memset (panel, 0, sizeof *panel);
  snprintf (panel->title, sizeof panel->title, "%s", title != NULL ? title : "");
  return panel;
}

EngViewRow *
eng_view_add_row (EngViewPanel *panel, const char *label, const char *fmt, ...)
{
  if (panel == NULL || panel->n_rows >= ENG_VIEW_PANEL_ROWS)
    return NULL;
  EngViewRow *row = &panel->rows[panel->n_rows++];
  snprintf (row->label, sizeof row->label, "%s", label != NULL ? label : "");
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (row->value, sizeof row->value, fmt, ap);
  va_end (ap);
  eng_i18n_elide (row->value);
  return row;
}

void
eng_view_place_add (EngViewPlace *place, uint16_t serial, unsigned deck, bool empty)
{
  if (place == NULL || place->n_cards >= ENG_VIEW_PLACE_CARDS)
    return;
  place->cards[place->n_cards++] = (EngViewCard) { serial, (uint8_t) deck, empty ? 1 : 0 };
  place->count = place->n_cards;
}

/* cal-scene-gen.c: a snapshot script laid out on a rendered table.
 *
 * Layout (docs/e2e.md): the centre frame has its origin at the anchors'
 * centroid, x towards anchor 2, y towards anchor 4, in mm, the same frame
 * the calibration places shared zones in.  Seat markers sit on the table's
 * edges facing the centre; a card in a seat zone lies at the zone's centre
 * turned to read upright for that seat's player.  Every place is checked
 * with cal_zones_find() against the seats as the calibration will find
 * them, so a layout that puts a card in the wrong zone is refused here and
 * not discovered by a failing referee. */
#include "cal-scene-gen.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cal-observer.h"
#include "eng-tag.h"
#include "vis-render.h"

#define GEN_MAX_CARDS 256
#define GEN_MAX_COMMANDS 16
#define GEN_MAX_QUESTIONS 32
#define GEN_PI 3.14159265358979323846
#define DISCARD_FAN_R_MM 26.0    /* several discards at once: a 2 x 2 fan whose */
#define DISCARD_FAN_F_MM 32.0    /* stickers no card of it covers */
#define ATTACK_ASIDE_MM 36.0     /* two cards across, side by side, on one
                                    attack spot: neither covers the other's
                                    sticker nor the first card's */
#define ATTACK_NEAR_MM -25.0     /* the first card, upright, nearer the slot */
#define ATTACK_FAR_MM 30.0       /* the second and third, across, further */
/* Four on one spot (80 x 100 mm): the near row, upright, two cards side by
 * side 60 mm apart (a card's half width and a code's half, 51.5 mm, plus a
 * margin; their outer edges stay 3.5 mm clear of a neighbouring spot's
 * middle code), 38 mm nearer the slot than the spot's middle: 3 mm clear of
 * the slot's cat code and 4 mm clear of the far row's codes. */
#define ATTACK_ROW_MM 30.0
#define ATTACK_NEAR4_MM -38.0

#define GEN_MAX_SEATS 5

typedef struct {
  double ax, ay;                 /* anchors at (+-ax, +-ay) */
  unsigned n_seats;
  double seat[GEN_MAX_SEATS][2]; /* marker positions, centre frame */
  double table_spot[2][2];       /* outside every zone: loose cards */
  double command_at[2], command_col[2], command_row[2];
  unsigned command_cols;         /* command cards: a grid of spots, one per
                                    command, outside every zone */
  double yaw;                    /* camera yaw, degrees */
  double view[2];                /* half extents in view along x and y, mm */
} Layout;

typedef struct {
  uint16_t serial;
  bool declared_present;         /* on the table from t = 0 */
  bool present, face;
  double x, y, rot;              /* centre frame */
  EngZone zone;
} GenCard;

/* The candidates of a question naming players the referee asked on ideal
 * snapshots (eng_interpreter_choice), and the `choose` line answering it. */
typedef struct {
  unsigned line;
  unsigned n;
  int players[ENG_MAX_PLAYERS];
} GenChoice;

typedef struct {
  GenChoice c[GEN_MAX_QUESTIONS];
  size_t n;
} GenChoices;

typedef struct {
  const EngLiveScript *script;
  const EngCardSet *set;
  const CalZones *zones;
  CalSceneOptions o;
  Layout lay;
  CalSeat seats[GEN_MAX_SEATS];  /* every seat position, by marker number - 1 */
  bool seated[GEN_MAX_SEATS];    /* a player sits there: its marker is drawn */
  CalSeat found[GEN_MAX_SEATS];  /* the seated ones, as the calibration finds them */
  size_t n_found;
  double cx, cy;                 /* scene coordinates of the centre */
  GenCard cards[GEN_MAX_CARDS];
  size_t n_cards;
  char *objects, *events;        /* two memory streams' buffers */
  size_t objects_len, events_len;
  FILE *obj, *ev;
  double clock;
  double command_gone[GEN_MAX_COMMANDS];   /* when each command card's track is gone */
  bool command_declared[GEN_MAX_COMMANDS];
  bool nudged;
  unsigned discards;
  unsigned attack_coming;        /* cards laid on the same attack spot in the
                                    same instant, after this one */
  bool same_instant;             /* the next put happens at the same time */
  bool same_instant_second;      /* this put is the second of such a pair */
  bool remove_follows;           /* opts.gather: the next statement takes another
                                    card away */
  int discard_fan;               /* >= 0: the place of this card among several
                                    discarded between two looks; else -1 */
  GenChoices *choices;           /* only when the script has `choose` */
  CalSceneResult *res;
  EngParseError *err;
  const char *source;
} Gen;

void
cal_scene_options_init (CalSceneOptions *opts)
{
  memset (opts, 0, sizeof *opts);
  opts->nudge_s = -1;
}

static EngStatus
gen_fail (Gen *g, unsigned line, EngStatus st, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

static EngStatus
gen_fail (Gen *g, unsigned line, EngStatus st, const char *fmt, ...)
{
  if (g->err != NULL)
    {
      char reason[sizeof g->err->reason];
      va_list ap;
      va_start (ap, fmt);
      vsnprintf (reason, sizeof reason, fmt, ap);
      va_end (ap);
      eng_parse_error_set (g->err, g->source, line, "%s", reason);
    }
  return st;
}

/* Seats round the table: two face to face across the piles, three or four
 * clockwise from the near side.  The distances keep every seat's zones clear
 * of its neighbours' and the attack spots clear of the piles with
 * every bundled game's zones; every place is checked against the zone file
 * anyway (check_place).  `view` is what the camera must see: the anchors,
 * the seat markers and every card laid, with a margin.
 *
 * Three or four players have two tables.  The square one (the default, 5 MP
 * at 2.2 px/mm) leaves room round every seat.  The wide one fits a 16:9
 * camera: the near and far markers come as close to the piles as their
 * attack spots allow (the spots' outer edge, 265 mm in front of the marker,
 * 5 mm from the piles' 60 mm half depth), and the side seats move out until
 * their attack spots' cards clear the near and far seats' capture areas
 * (the corners; 9 mm between cards), so the table is 1236 x 716 mm in view:
 * 1.51 px/mm (2.41 px per 1.6 mm module) on 1920x1080 (docs/e2e.md). */
#define GEN_LAYOUTS 2

static bool
layout_for (unsigned n_players, unsigned which, Layout *l)
{
  memset (l, 0, sizeof *l);
  if (n_players == 2 && which == 0)
    {
      /* face to face across the decks; the camera turned a quarter so the
       * long side of the image runs from seat to seat */
      *l = (Layout) { .ax = 310, .ay = 390, .n_seats = 2, .yaw = 90,
                      .seat = { { 0, 340 }, { 0, -340 } },
                      .table_spot = { { 230, -45 }, { 240, 55 } },
                      .command_at = { -290, 110 }, .command_col = { 50, 0 },
                      .command_row = { 0, 50 }, .command_cols = 3,
                      .view = { 355, 435 } };
      return true;
    }
  if ((n_players == 3 || n_players == 4) && which == 0)
    {
      *l = (Layout) { .ax = 490, .ay = 450, .n_seats = 4,
                      .seat = { { 0, 400 }, { -440, 0 }, { 0, -400 }, { 440, 0 } },
                      .table_spot = { { 300, 300 }, { -300, -300 } },
                      .command_at = { -300, -300 }, .command_col = { -45, 0 },
                      .command_row = { 0, -45 }, .command_cols = 4,
                      .view = { 535, 495 } };
      return true;
    }
  if (n_players == 5 && which == 0)
    {
      /* five seats (the bundled games' largest table): a regular
       * pentagon 360 mm from the centre, clockwise from the near side.  A
       * seat's play area (200 x 130 mm, 55-185 mm in front of its marker)
       * then clears the piles (its cards' inner edge 162 mm from the
       * centre, the piles' cards reach 106 mm that way) and its
       * neighbours' (72 degrees apart, each takes 70 at most); the command
       * cards and the loose cards in the free corners beside the near
       * seat.  950 x 870 mm in view: 2090 x 1914 px at 2.2 px/mm. */
      *l = (Layout) { .ax = 440, .ay = 400, .n_seats = 5,
                      .seat = { { 0, 360 }, { -342, 111 }, { -212, -291 }, { 212, -291 },
                                { 342, 111 } },
                      .table_spot = { { 200, 330 }, { 250, 330 } },
                      .command_at = { -190, 300 }, .command_col = { -45, 0 },
                      .command_row = { 0, 45 }, .command_cols = 3,
                      .view = { 475, 435 } };
      return true;
    }
  if ((n_players == 3 || n_players == 4) && which == 1)
    {
      /* the loose cards in the free corner at the near seat's right, the
       * command cards in the opposite one (3 x 3 spots, 45 mm apart); the
       * anchors beyond the side markers, level with the near and far ones */
      *l = (Layout) { .ax = 590, .ay = 312, .n_seats = 4,
                      .seat = { { 0, 330 }, { -560, 0 }, { 0, -330 }, { 560, 0 } },
                      .table_spot = { { 318, 255 }, { 395, 255 } },
                      .command_at = { -300, -290 }, .command_col = { -45, 0 },
                      .command_row = { 0, 45 }, .command_cols = 3,
                      .view = { 618, 358 } };
      return true;
    }
  return false;
}

/* For a frame of o.width x o.height: the table, and the camera's yaw, that
 * show it at the largest scale, the long image side along the table's long
 * side.  Leaves g->lay zeroed when no table seats `n_players`. */
static void
choose_layout (Gen *g, unsigned n_players)
{
  double best = 0;
  for (unsigned k = 0; k < GEN_LAYOUTS; k++)
    {
      Layout l;
      if (!layout_for (n_players, k, &l))
        continue;
      double vw = 2 * l.view[0], vh = 2 * l.view[1];
      bool turn = (vw >= vh) != (g->o.width >= g->o.height);
      l.yaw = turn ? 90 : 0;
      double ppm = turn ? fmin (g->o.width / vh, g->o.height / vw)
                        : fmin (g->o.width / vw, g->o.height / vh);
      if (ppm > best)
        {
          best = ppm;
          g->lay = l;
        }
    }
  if (best > 0)
    g->o.px_per_mm = best;
}

static void
seat_frame (const Gen *g, int seat, double *fx, double *fy)
{
  const CalSeat *s = &g->seats[seat];
  *fx = s->fwd_x;
  *fy = s->fwd_y;
}

/* Rotation making a card read upright for the player at `seat`. */
static double
seat_rot (const Gen *g, int seat)
{
  double fx, fy;
  seat_frame (g, seat, &fx, &fy);
  return atan2 (fx, -fy) * 180.0 / GEN_PI;
}

static const CalZoneRect *
zone_rect (const Gen *g, EngZoneKind kind, bool per_seat, int index)
{
  for (size_t i = 0; i < g->zones->n; i++)
    {
      const CalZoneRect *z = &g->zones->zones[i];
      if (z->kind == kind && z->per_seat == per_seat && (index < 0 || z->index == index))
        return z;
    }
  return NULL;
}

static size_t
cards_in (const Gen *g, EngZone z, uint16_t except)
{
  size_t n = 0;
  for (size_t i = 0; i < g->n_cards; i++)
    {
      const GenCard *c = &g->cards[i];
      if (c->present && c->serial != except && c->zone.kind == z.kind && c->zone.seat == z.seat
          && c->zone.index == z.index)
        n++;
    }
  return n;
}

/* A play area deep enough for two rows (five different cards)
 * lays five cards with every sticker in view: three across the far row,
 * two across the near one, in units of these steps.  Cards 63 x 88 mm with
 * the 46.4 mm sticker (its quiet zone) at the middle: a card covers no
 * sticker of another 54.7 mm beside it or 67.2 mm before or behind it.
 * The near row is laid last, so no hand reaches over a card laid before. */
#define PLAY_ROW_DR_MM 60.0
#define PLAY_ROW_DF_MM 34.0
static const double play_slots[][2] = { { -1, 1 }, { 1, 1 }, { 0, 1 }, { -0.5, -1 },
                                        { 0.5, -1 } };

/* Whether a card of zone `z` other than `except` lies within 20 mm of
 * (x, y). */
static bool
card_near (const Gen *g, EngZone z, uint16_t except, double x, double y)
{
  for (size_t i = 0; i < g->n_cards; i++)
    {
      const GenCard *c = &g->cards[i];
      if (c->present && c->serial != except && c->zone.kind == z.kind && c->zone.seat == z.seat
          && c->zone.index == z.index && hypot (c->x - x, c->y - y) < 20)
        return true;
    }
  return false;
}

/* Where a card going to `z` lies (centre frame) and how it is turned.
 * Cards sharing an attack spot are laid so that no sticker is covered (up
 * to three); capture areas take four cats side by side, play areas two;
 * the discard pile grows a little untidily, except that several cards
 * discarded between two looks are fanned out. */
static EngStatus
place_for (Gen *g, unsigned line, EngZone z, uint16_t serial, double *x, double *y, double *rot)
{
  bool per_seat = z.kind == ENG_ZONE_SLOT || z.kind == ENG_ZONE_ATTACK
                  || z.kind == ENG_ZONE_CAPTURE || z.kind == ENG_ZONE_PLAY;
  if (z.kind == ENG_ZONE_NONE)
    {
      size_t k = cards_in (g, z, serial) % 2;
      *x = g->lay.table_spot[k][0];
      *y = g->lay.table_spot[k][1];
      *rot = 0;
      return ENG_OK;
    }
  if (per_seat && (z.seat < 0 || (unsigned) z.seat >= g->lay.n_seats || !g->seated[z.seat]))
    return gen_fail (g, line, ENG_ERR_NOT_SUPPORTED, "seat %d has no marker on this table",
                     z.seat);
  /* a game has one discard pile, whatever its deck index */
  const CalZoneRect *r = zone_rect (g, (EngZoneKind) z.kind, per_seat,
                                    z.kind == ENG_ZONE_CAPTURE || z.kind == ENG_ZONE_PLAY
                                    || z.kind == ENG_ZONE_DISCARD ? -1 : z.index);
  if (r == NULL)
    return gen_fail (g, line, ENG_ERR_NOT_SUPPORTED,
                     "the zone file places no %s zone (index %d)",
                     cal_zone_kind_to_string ((EngZoneKind) z.kind), z.index);
  size_t n = cards_in (g, z, serial);
  double dr = 0, df = 0, turn = 0;
  bool rows = false;
  switch (z.kind)
    {
    case ENG_ZONE_ATTACK:
      /* one: upright, nearer the slot; two: the second across beyond it;
       * three: the second and third across, side by side (attack_make_room
       * moves a second laid alone aside, to the right, first; two laid at
       * once go left then right); four: the first slid left in a near row
       * (attack_make_room), the fourth upright at its right; a fifth
       * covers a sticker (docs/e2e.md) */
      df = n == 0 ? ATTACK_NEAR_MM : n == 3 ? ATTACK_NEAR4_MM : ATTACK_FAR_MM;
      turn = n == 0 || n == 3 ? 0 : 90;
      dr = n == 1 ? (g->attack_coming > 0 ? -ATTACK_ASIDE_MM : 0)
           : n == 2 ? (g->same_instant_second ? ATTACK_ASIDE_MM : -ATTACK_ASIDE_MM)
           : n == 3 ? ATTACK_ROW_MM : n > 3 ? 6.0 * (double) (n - 1) : 0;
      break;
    case ENG_ZONE_CAPTURE:
      dr = (n % 2 == 0 ? -1 : 1) * (r->width / 2 - 33);
      df = ((n / 2) % 2 == 0 ? -1 : 1) * (r->depth / 2 - 50);
      break;
    case ENG_ZONE_PLAY:
      /* two cards side by side, neither sticker covered; a third (a trio)
       * between them, in a play area wide enough for three; one deep
       * enough for two rows takes five (play_slot) */
      rows = r->width >= PLAY_ROW_DR_MM * 2 + 63 && r->depth >= PLAY_ROW_DF_MM * 2 + 60;
      dr = n == 2 && r->width >= 3 * 66 ? 0 : (n % 2 == 0 ? -1 : 1) * (r->width / 2 - 33);
      break;
    case ENG_ZONE_DISCARD:
      if (g->discard_fan >= 0)
        {
          /* several discarded at once are fanned out, each sticker in view
           * (the referee must count them, K3) */
          dr = (g->discard_fan % 2 == 0 ? -1 : 1) * DISCARD_FAN_R_MM;
          df = ((g->discard_fan / 2) % 2 == 0 ? -1 : 1) * DISCARD_FAN_F_MM;
          turn = (double) (g->discard_fan % 3) * 3 - 3;
          break;
        }
      dr = (double) (g->discards % 3) * 3 - 3;
      df = (double) (g->discards % 2) * 4 - 2;
      turn = (double) (g->discards % 5) * 4 - 8;
      break;
    default:
      break;
    }
  if (per_seat)
    {
      double fx, fy;
      seat_frame (g, z.seat, &fx, &fy);
      double rx = -fy, ry = fx;
      const CalSeat *s = &g->seats[z.seat];
      for (unsigned k = 0; rows && k < sizeof play_slots / sizeof play_slots[0]; k++)
        {
          /* the first of the five places no card of the area lies on */
          dr = play_slots[k][0] * PLAY_ROW_DR_MM;
          df = play_slots[k][1] * PLAY_ROW_DF_MM;
          double px = s->x + (r->at_x + dr) * rx + (r->at_y + df) * fx;
          double py = s->y + (r->at_x + dr) * ry + (r->at_y + df) * fy;
          if (!card_near (g, z, serial, px, py))
            break;
        }
      double rr = r->at_x + dr, ff = r->at_y + df;
      *x = s->x + rr * rx + ff * fx;
      *y = s->y + rr * ry + ff * fy;
      *rot = seat_rot (g, z.seat) + turn;
    }
  else
    {
      *x = r->at_x + dr;
      *y = r->at_y + df;
      *rot = turn;
    }
  return ENG_OK;
}

/* The zone the calibration will see at (x, y), compared with the one the
 * script names. */
static EngStatus
check_place (Gen *g, unsigned line, EngZone want, double x, double y)
{
  EngZone got = cal_zones_find (g->zones, g->found, g->n_found, 0, 0, x, y);
  bool same = got.kind == want.kind && (want.kind == ENG_ZONE_NONE || got.seat == want.seat)
              && (want.kind == ENG_ZONE_NONE || want.kind == ENG_ZONE_CAPTURE
                  || want.kind == ENG_ZONE_PLAY || want.kind == ENG_ZONE_DISCARD
                  || got.index == want.index);
  if (!same)
    return gen_fail (g, line, ENG_ERR_INCONSISTENT,
                     "the place (%.0f,%.0f) mm for a %s zone lies in a %s zone (seat %d, "
                     "index %d) with this zone file", x, y,
                     cal_zone_kind_to_string ((EngZoneKind) want.kind),
                     cal_zone_kind_to_string ((EngZoneKind) got.kind), got.seat, got.index);
  return ENG_OK;
}

static GenCard *
find_card (Gen *g, uint16_t serial)
{
  for (size_t i = 0; i < g->n_cards; i++)
    if (g->cards[i].serial == serial)
      return &g->cards[i];
  return NULL;
}

static double
sx (const Gen *g, double x)
{
  return g->cx + x;
}

static double
sy (const Gen *g, double y)
{
  return g->cy + y;
}

/* The seat marker nearest a point: whose hand reaches there. */
static int
nearest_seat (const Gen *g, double x, double y)
{
  int best = 0;
  double bd = 1e18;
  for (unsigned s = 0; s < g->lay.n_seats; s++)
    {
      if (!g->seated[s])
        continue;
      double d = hypot (g->seats[s].x - x, g->seats[s].y - y);
      if (d < bd)
        {
          bd = d;
          best = (int) s;
        }
    }
  return best;
}

/* A hand moving from (x0,y0) to (x1,y1) during `dur`, its forearm towards
 * the nearest seat. */
static void
hand (Gen *g, double t, double x0, double y0, double x1, double y1, double dur)
{
  if (!g->o.hands)
    return;
  int s = nearest_seat (g, x1, y1);
  double arm = atan2 (g->seats[s].y - y1, g->seats[s].x - x1) * 180.0 / GEN_PI;
  fprintf (g->ev, "at %.3f hand from=%.1f,%.1f to=%.1f,%.1f for=%.3f arm=%.1f\n", t,
           sx (g, x0), sy (g, y0), sx (g, x1), sy (g, y1), dur, arm);
}

static void
rest (Gen *g, double t, unsigned line)
{
  CalSceneResult *res = g->res;
  if (res->n_rests < CAL_SCENE_MAX_RESTS)
    res->rests[res->n_rests++] = (CalSceneRest) { t, line };
}

/* Room for one more card on an attack spot, made by sliding cards already
 * there within the spot (same zone: the referee sees no move).  A third:
 * the second one, lying across the spot's middle, goes aside to the right
 * so that the third lies across beside it.  A fourth: the first one, lying
 * upright in the middle nearer the slot, goes to the left of that near row
 * so that the fourth lies upright at its right (place_for: the 2 x 2
 * layout that keeps every sticker in view). */
static EngStatus
attack_make_room (Gen *g, unsigned line, EngZone z, uint16_t coming)
{
  size_t n = z.kind == ENG_ZONE_ATTACK ? cards_in (g, z, coming) : 0;
  if (n != 2 && n != 3)
    return ENG_OK;
  double fx, fy;
  seat_frame (g, z.seat, &fx, &fy);
  const CalZoneRect *r = zone_rect (g, ENG_ZONE_ATTACK, true, z.index);
  if (r == NULL)
    return ENG_OK;
  const CalSeat *st = &g->seats[z.seat];
  /* from: where the card to slide lies now; to: where it goes (seat frame) */
  double from_r = r->at_x, from_f = r->at_y + (n == 2 ? ATTACK_FAR_MM : ATTACK_NEAR_MM);
  double to_r = r->at_x + (n == 2 ? ATTACK_ASIDE_MM : -ATTACK_ROW_MM);
  double to_f = n == 2 ? from_f : r->at_y + ATTACK_NEAR4_MM;
  double rx = -fy, ry = fx;
  double mx = st->x + from_r * rx + from_f * fx, my = st->y + from_r * ry + from_f * fy;
  for (size_t i = 0; i < g->n_cards; i++)
    {
      GenCard *c = &g->cards[i];
      if (!c->present || c->serial == coming || c->zone.kind != z.kind || c->zone.seat != z.seat
          || c->zone.index != z.index || hypot (c->x - mx, c->y - my) > 1.0)
        continue;
      double x = st->x + to_r * rx + to_f * fx, y = st->y + to_r * ry + to_f * fy;
      EngStatus ok = check_place (g, line, z, x, y);
      if (ok != ENG_OK)
        return ok;
      double t = g->clock, dur = g->o.change_s * 0.6;
      hand (g, t, c->x, c->y, x, y, dur);
      fprintf (g->ev, "at %.3f move c%u to=%.1f,%.1f rot=%.1f over=%.3f\n", t, c->serial,
               sx (g, x), sy (g, y), c->rot, dur * 0.9);
      c->x = x;
      c->y = y;
      g->clock += g->o.change_s;
      break;
    }
  return ENG_OK;
}

static EngStatus
gen_put (Gen *g, unsigned line, uint16_t serial, bool face, EngZone zone, bool at_start)
{
  const EngCard *card = eng_card_set_find_serial (g->set, serial);
  if (card == NULL)
    return gen_fail (g, line, ENG_ERR_SYNTAX, "card %u is not in the set", serial);
  GenCard *c = find_card (g, serial);
  if (c != NULL && c->present)
    return gen_fail (g, line, ENG_ERR_SYNTAX, "card %u is already on the table", serial);
  EngStatus st = at_start ? ENG_OK : attack_make_room (g, line, zone, serial);
  double x, y, rot;
  if (st == ENG_OK)
    st = place_for (g, line, zone, serial, &x, &y, &rot);
  if (st == ENG_OK)
    st = check_place (g, line, zone, x, y);
  if (st != ENG_OK)
    return st;
  if (c == NULL)
    {
      if (g->n_cards == GEN_MAX_CARDS)
        return gen_fail (g, line, ENG_ERR_LIMIT, "more than %d cards", GEN_MAX_CARDS);
      c = &g->cards[g->n_cards++];
      *c = (GenCard) { .serial = serial, .declared_present = at_start };
      /* a two-sided card has no back: turned over it shows its other face */
      uint16_t other = eng_card_set_other_side (g->set, serial);
      char other_word[16] = "";
      if (other != 0)
        snprintf (other_word, sizeof other_word, " other=%u", other);
      fprintf (g->obj, "card c%u face=%u back=%u%s at=%.1f,%.1f rot=%.1f %s%s\n", serial, serial,
               card->deck + 1, other_word, sx (g, x), sy (g, y), rot, face ? "up" : "down",
               at_start ? "" : " absent");
    }
  if (zone.kind == ENG_ZONE_DISCARD)
    g->discards++;
  c->present = true;
  c->face = face;
  c->x = x;
  c->y = y;
  c->rot = rot;
  c->zone = zone;
  if (at_start)
    return ENG_OK;
  double t = g->clock, dur = g->o.change_s * 0.6;
  int s = nearest_seat (g, x, y);
  hand (g, t, g->seats[s].x, g->seats[s].y, x, y, dur);
  fprintf (g->ev, "at %.3f place c%u at=%.1f,%.1f rot=%.1f %s\n", g->o.hands ? t + dur * 0.8 : t,
           serial, sx (g, x), sy (g, y), rot, face ? "up" : "down");
  rest (g, g->o.hands ? t + dur : t, line);
  if (!g->same_instant)
    g->clock += g->o.change_s;
  return ENG_OK;
}

static EngStatus
gen_change (Gen *g, const EngLiveScriptOp *op)
{
  GenCard *c = find_card (g, op->cards[0]);
  if (c == NULL || !c->present)
    return gen_fail (g, op->line, ENG_ERR_SYNTAX, "card %u is not on the table", op->cards[0]);
  if (op->kind == ENG_LIVE_OP_MOVE)
    {
      EngStatus room = attack_make_room (g, op->line, op->zone, c->serial);
      if (room != ENG_OK)
        return room;
    }
  double t = g->clock, dur = g->o.change_s * 0.6;
  if (op->kind == ENG_LIVE_OP_MOVE)
    {
      if (op->zone.kind == ENG_ZONE_DISCARD)
        g->discards++;
      double x, y, rot;
      c->present = false;   /* not counted in its own new zone */
      EngStatus st = place_for (g, op->line, op->zone, c->serial, &x, &y, &rot);
      c->present = true;
      if (st == ENG_OK)
        st = check_place (g, op->line, op->zone, x, y);
      if (st != ENG_OK)
        return st;
      hand (g, t, c->x, c->y, x, y, dur);
      fprintf (g->ev, "at %.3f move c%u to=%.1f,%.1f rot=%.1f over=%.3f\n", t, c->serial,
               sx (g, x), sy (g, y), rot, dur * 0.9);
      c->x = x;
      c->y = y;
      c->rot = rot;
      c->zone = op->zone;
      rest (g, t + dur, op->line);
      g->clock += g->o.change_s;
      return ENG_OK;
    }
  int s = nearest_seat (g, c->x, c->y);
  double hx = c->x + (g->seats[s].x - c->x) * 0.5, hy = c->y + (g->seats[s].y - c->y) * 0.5;
  hand (g, t, hx, hy, c->x, c->y, dur);
  double at = g->o.hands ? t + dur * 0.7 : t;
  if (op->kind == ENG_LIVE_OP_FLIP)
    {
      /* turned over exactly where it lay: the detector's tracking reads
       * the new code at the same spot (tests/vision/test-flip-in-place.c) */
      c->face = !c->face;
      fprintf (g->ev, "at %.3f flip c%u\n", at, c->serial);
      rest (g, g->o.hands ? t + dur : t, op->line);
      g->clock += g->o.change_s;
    }
  else
    {
      /* a card taken away is kept by the tracker for its occlusion grace
       * (2 s) before it leaves the snapshot */
      c->present = false;
      fprintf (g->ev, "at %.3f remove c%u\n", at, c->serial);
      rest (g, at + 2.0, op->line);
      g->clock += g->o.change_s + (g->remove_follows ? 0.0 : 1.5);
    }
  return ENG_OK;
}

/* ---- two cats swapped between slots (a Teleporter) ------------------------
 *
 * A face-down cat is told from the others only by its track: the tracker
 * follows a back from frame to frame while it is seen and moves less than
 * its match radius (2.5 code sizes, 84 mm) a frame, pairs each sighting
 * with the nearest track of that payload (a resting track is remembered at
 * its committed place until its card rests again), and commits a move once
 * the card has rested 150 ms.  Laying one cat on the other and then moving
 * that one away hides a sticker and loses both identities, so a swap is
 * staged as two hands do it: both cats slide at once, in view, each about
 * SWAP_STEP_MM a frame and never resting on the way (only the arrivals are
 * committed), each hand holding its cat by the side away from the other.
 *
 * The cat that arrives first must not pass near the other cat's slot
 * middle, where the other's track is still remembered (two backs: it would
 * be taken for the other): it comes in from the end of the row, beside the
 * slot, and lands SWAP_LAND_MM nearer its owner than the middle (an end slot
 * only).  The second keeps clear of the first one's old place until that
 * one has rested, then slides into its slot from the front.  Both keep
 * clear of each other and of the other's hand, of every face-down card and
 * draw pile (no back near enough to be taken for the moving one, none
 * covered), of the anchors and of the seat markers; a face-up card on the
 * way may be slid over for a moment, as a hand passes over it (its sticker
 * is unique and waits out the occlusion).  The paths are searched among
 * lanes across the table; two hidden cats of one row have none and are
 * staged as two halves (gen_row_swap); any other swap with no lanes is made
 * as two moves one after the other (docs/e2e.md). */

#define SWAP_STEP_MM 34.0       /* a turn's chord stays above the tracker's
                                    move tolerance (half a code, 16.8 mm) */
#define SWAP_CLEAR_MM 72.0       /* a card's half diagonal plus a code's half */
#define SWAP_APART_MM 110.0
#define SWAP_THEFT_MM 44.0       /* a frame's step and a margin */
#define SWAP_HAND_MM 150.0       /* palm centre from the card centre */
#define SWAP_LAND_MM 45.0
#define SWAP_SAMPLES 64
#define SWAP_MAX_OBSTACLES (GEN_MAX_CARDS + CAL_ZONES_MAX + 8)

typedef struct {
  double p[6][2];
  int n;
  double len;
  double delay;                  /* rests in its slot this long first */
  double dur;                    /* then slides this long */
} SwapPath;

static void
swap_path_finish (SwapPath *sp, double fps)
{
  sp->len = 0;
  for (int k = 0; k + 1 < sp->n; k++)
    sp->len += hypot (sp->p[k + 1][0] - sp->p[k][0], sp->p[k + 1][1] - sp->p[k][1]);
  sp->dur = sp->len / (SWAP_STEP_MM * fps);
}

static void
swap_path_add (SwapPath *sp, double x, double y)
{
  sp->p[sp->n][0] = x;
  sp->p[sp->n][1] = y;
  sp->n++;
}

/* The point of the lane { q : q.n = lane } reached from (x, y) along n. */
static void
swap_lane_point (SwapPath *sp, double x, double y, double lane, double nx, double ny)
{
  double k = lane - (x * nx + y * ny);
  swap_path_add (sp, x + k * nx, y + k * ny);
}

/* Where the card is `t` seconds after the start (at rest at the end). */
static void
swap_path_at (const SwapPath *sp, double t, double *x, double *y)
{
  t -= sp->delay;
  double d = t <= 0 ? 0 : sp->dur > 0 ? fmin (t / sp->dur, 1.0) * sp->len : sp->len;
  *x = sp->p[sp->n - 1][0];
  *y = sp->p[sp->n - 1][1];
  for (int k = 0; k + 1 < sp->n; k++)
    {
      double seg = hypot (sp->p[k + 1][0] - sp->p[k][0], sp->p[k + 1][1] - sp->p[k][1]);
      if (d <= seg)
        {
          double u = seg > 0 ? d / seg : 1.0;
          *x = sp->p[k][0] + (sp->p[k + 1][0] - sp->p[k][0]) * u;
          *y = sp->p[k][1] + (sp->p[k + 1][1] - sp->p[k][1]) * u;
          return;
        }
      d -= seg;
    }
}

static size_t
swap_obstacles (const Gen *g, const GenCard *a, const GenCard *b, double out[][2])
{
  size_t n = 0;
  for (size_t i = 0; i < g->n_cards; i++)
    {
      const GenCard *c = &g->cards[i];
      if (c->present && !c->face && c != a && c != b)
        {
          out[n][0] = c->x;
          out[n][1] = c->y;
          n++;
        }
    }
  /* the draw piles (backs too), the anchors and the seated markers */
  for (size_t i = 0; i < g->zones->n; i++)
    {
      const CalZoneRect *z = &g->zones->zones[i];
      if (z->kind == ENG_ZONE_DECK && !z->per_seat)
        {
          out[n][0] = z->at_x;
          out[n][1] = z->at_y;
          n++;
        }
    }
  static const double corner[4][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } };
  for (int k = 0; k < 4; k++)
    {
      out[n][0] = corner[k][0] * g->lay.ax;
      out[n][1] = corner[k][1] * g->lay.ay;
      n++;
    }
  for (unsigned s = 0; s < g->lay.n_seats; s++)
    if (g->seated[s])
      {
        out[n][0] = g->seats[s].x;
        out[n][1] = g->seats[s].y;
        n++;
      }
  return n;
}

typedef struct {
  const Gen *g;
  const double (*obst)[2];
  size_t n_obst;
  double nx, ny;                 /* lanes run across n */
  bool backs;                    /* both cats face down: mind the tracks */
  double first_from[2];          /* the first one's old place */
  double second_from[2];
} SwapCheck;

/* Whether the first (pf) and second (ps) cats' paths keep everything clear
 * (see above); the hands are on the side `side` (first) and -side. */
static bool
swap_paths_clear (const SwapCheck *ck, const SwapPath *pf, const SwapPath *ps, double side)
{
  const Gen *g = ck->g;
  double span = fmax (pf->delay + pf->dur, ps->delay + ps->dur), rested = pf->dur + 0.4;
  for (int i = 0; i <= SWAP_SAMPLES; i++)
    {
      double t = span * i / SWAP_SAMPLES, ax, ay, bx, by;
      swap_path_at (pf, t, &ax, &ay);
      swap_path_at (ps, t, &bx, &by);
      if (fabs (ax) > g->lay.ax - 40 || fabs (ay) > g->lay.ay - 40 || fabs (bx) > g->lay.ax - 40
          || fabs (by) > g->lay.ay - 40)
        return false;
      if (hypot (ax - bx, ay - by) < SWAP_APART_MM)
        return false;
      double hax = ax + side * SWAP_HAND_MM * ck->nx, hay = ay + side * SWAP_HAND_MM * ck->ny;
      double hbx = bx - side * SWAP_HAND_MM * ck->nx, hby = by - side * SWAP_HAND_MM * ck->ny;
      if (hypot (hax - bx, hay - by) < SWAP_APART_MM || hypot (hbx - ax, hby - ay) < SWAP_APART_MM)
        return false;
      if (ck->backs
          && (hypot (ax - ck->second_from[0], ay - ck->second_from[1]) < SWAP_THEFT_MM
              || (t < rested
                  && hypot (bx - ck->first_from[0], by - ck->first_from[1]) < SWAP_THEFT_MM)))
        return false;
      for (size_t k = 0; k < ck->n_obst; k++)
        if (hypot (ax - ck->obst[k][0], ay - ck->obst[k][1]) < SWAP_CLEAR_MM
            || hypot (bx - ck->obst[k][0], by - ck->obst[k][1]) < SWAP_CLEAR_MM)
          return false;
    }
  return true;
}

static void
swap_slide (Gen *g, double t0, const GenCard *c, const SwapPath *sp, double side, double nx,
            double ny, double rot_to)
{
  double hx = side * SWAP_HAND_MM * nx, hy = side * SWAP_HAND_MM * ny;
  double arm = atan2 (side * ny, side * nx) * 180.0 / GEN_PI;
  double t = t0 + sp->delay;
  for (int k = 0; k + 1 < sp->n; k++)
    {
      double seg = hypot (sp->p[k + 1][0] - sp->p[k][0], sp->p[k + 1][1] - sp->p[k][1]);
      if (seg <= 0)
        continue;
      double d = sp->len > 0 ? sp->dur * seg / sp->len : 0;
      if (g->o.hands)
        fprintf (g->ev, "at %.3f hand from=%.1f,%.1f to=%.1f,%.1f for=%.3f arm=%.1f\n", t,
                 sx (g, sp->p[k][0] + hx), sy (g, sp->p[k][1] + hy), sx (g, sp->p[k + 1][0] + hx),
                 sy (g, sp->p[k + 1][1] + hy), d, arm);
      /* turned round on the last stretch, into the slot */
      fprintf (g->ev, "at %.3f move c%u to=%.1f,%.1f rot=%.1f over=%.3f\n", t, c->serial,
               sx (g, sp->p[k + 1][0]), sy (g, sp->p[k + 1][1]), k + 2 < sp->n ? c->rot : rot_to,
               d);
      t += d;
    }
}

typedef struct {
  GenCard *card;
  const EngLiveScriptOp *op;
  double to[3];                  /* the slot's middle, turned for its seat */
  double fwd_from[2], fwd_to[2];
} SwapSide;

/* The best pair of paths with `f` arriving first; false when none. */
static bool
swap_plan (const SwapCheck *ck, const SwapSide *f, const SwapSide *s, SwapPath *best_f,
           SwapPath *best_s, double *best_side)
{
  const Gen *g = ck->g;
  double fps = g->o.fps;
  int lanes = (int) ((fabs (ck->nx) * g->lay.ax + fabs (ck->ny) * g->lay.ay) / 20.0);
  double best = 1e18;
  /* two backs: the first lands beside the middle, nearer its owner, from
   * the end of the row; a face may land in the middle, from the front */
  double land[2] = { f->to[0] - SWAP_LAND_MM * f->fwd_to[0], f->to[1] - SWAP_LAND_MM * f->fwd_to[1] };
  for (int of = 0; of <= 3; of++)
    for (int i = -lanes; i <= lanes; i++)
      {
        SwapPath pf = { .n = 0 };
        double ox = f->card->x + 40.0 * of * f->fwd_from[0];
        double oy = f->card->y + 40.0 * of * f->fwd_from[1];
        swap_path_add (&pf, f->card->x, f->card->y);
        swap_path_add (&pf, ox, oy);
        swap_lane_point (&pf, ox, oy, 20.0 * i, ck->nx, ck->ny);
        if (ck->backs)
          {
            swap_lane_point (&pf, land[0], land[1], 20.0 * i, ck->nx, ck->ny);
            swap_path_add (&pf, land[0], land[1]);
          }
        else
          {
            double ix = f->to[0] + 40.0 * of * f->fwd_to[0];
            double iy = f->to[1] + 40.0 * of * f->fwd_to[1];
            swap_lane_point (&pf, ix, iy, 20.0 * i, ck->nx, ck->ny);
            swap_path_add (&pf, ix, iy);
            swap_path_add (&pf, f->to[0], f->to[1]);
          }
        swap_path_finish (&pf, fps);
        for (int os = 0; os <= 3; os++)
          for (int j = -lanes; j <= lanes; j++)
            {
              if (i == j)
                continue;
              SwapPath ps = { .n = 0 };
              double sx0 = s->card->x + 40.0 * os * s->fwd_from[0];
              double sy0 = s->card->y + 40.0 * os * s->fwd_from[1];
              double ix = s->to[0] + 40.0 * os * s->fwd_to[0], iy = s->to[1] + 40.0 * os * s->fwd_to[1];
              swap_path_add (&ps, s->card->x, s->card->y);
              swap_path_add (&ps, sx0, sy0);
              swap_lane_point (&ps, sx0, sy0, 20.0 * j, ck->nx, ck->ny);
              swap_lane_point (&ps, ix, iy, 20.0 * j, ck->nx, ck->ny);
              swap_path_add (&ps, ix, iy);
              swap_path_add (&ps, s->to[0], s->to[1]);
              swap_path_finish (&ps, fps);
              /* the second sets off late enough to arrive once the first
               * has rested */
              ps.delay = fmax (0, pf.dur + 0.6 + SWAP_THEFT_MM / (SWAP_STEP_MM * fps) - ps.dur);
              double cost = pf.len + ps.len + ps.delay * 100.0, side = i > j ? 1 : -1;
              if (cost < best && swap_paths_clear (ck, &pf, &ps, side))
                {
                  *best_f = pf;
                  *best_s = ps;
                  *best_side = side;
                  best = cost;
                }
            }
      }
  return best < 1e18;
}

/* Stages `a` (op_a: to b's slot) and `b` (op_b: to a's slot) as one swap.
 * Returns ENG_ERR_NOT_FOUND (nothing written) when no clear paths exist. */
static EngStatus
gen_swap (Gen *g, const EngLiveScriptOp *op_a, const EngLiveScriptOp *op_b)
{
  SwapSide side[2] = { { find_card (g, op_a->cards[0]), op_a, { 0 }, { 0 }, { 0 } },
                       { find_card (g, op_b->cards[0]), op_b, { 0 }, { 0 }, { 0 } } };
  side[0].card->present = side[1].card->present = false;
  EngStatus st = ENG_OK;
  for (int k = 0; k < 2 && st == ENG_OK; k++)
    st = place_for (g, side[k].op->line, side[k].op->zone, side[k].card->serial, &side[k].to[0],
                    &side[k].to[1], &side[k].to[2]);
  side[0].card->present = side[1].card->present = true;
  for (int k = 0; k < 2 && st == ENG_OK; k++)
    st = check_place (g, side[k].op->line, side[k].op->zone, side[k].to[0], side[k].to[1]);
  if (st != ENG_OK)
    return st;
  for (int k = 0; k < 2; k++)
    {
      seat_frame (g, side[k].card->zone.seat, &side[k].fwd_from[0], &side[k].fwd_from[1]);
      seat_frame (g, side[k].op->zone.seat, &side[k].fwd_to[0], &side[k].fwd_to[1]);
    }
  double (*obst)[2] = calloc (SWAP_MAX_OBSTACLES, sizeof *obst);
  if (obst == NULL)
    return ENG_ERR_NO_MEMORY;
  SwapCheck ck = { g, (const double (*)[2]) obst, swap_obstacles (g, side[0].card, side[1].card, obst),
                   -side[0].fwd_from[1], side[0].fwd_from[0],
                   !side[0].card->face && !side[1].card->face
                     && eng_card_set_find_serial (g->set, side[0].card->serial)->deck
                          == eng_card_set_find_serial (g->set, side[1].card->serial)->deck,
                   { 0 }, { 0 } };
  SwapPath pf, ps;
  double hand_side = 0;
  int first = -1;
  for (int k = 0; k < 2 && first < 0; k++)
    {
      const SwapSide *f = &side[k], *s = &side[1 - k];
      ck.first_from[0] = f->card->x;
      ck.first_from[1] = f->card->y;
      ck.second_from[0] = s->card->x;
      ck.second_from[1] = s->card->y;
      if (swap_plan (&ck, f, s, &pf, &ps, &hand_side))
        first = k;
    }
  free (obst);
  if (first < 0)
    return ENG_ERR_NOT_FOUND;
  SwapSide *f = &side[first], *s = &side[1 - first];
  double t0 = g->clock;
  swap_slide (g, t0, f->card, &pf, hand_side, ck.nx, ck.ny, f->to[2]);
  swap_slide (g, t0, s->card, &ps, -hand_side, ck.nx, ck.ny, s->to[2]);
  const SwapPath *paths[2] = { &pf, &ps };
  SwapSide *order[2] = { f, s };
  for (int k = 0; k < 2; k++)
    {
      GenCard *c = order[k]->card;
      const SwapPath *sp = paths[k];
      c->x = sp->p[sp->n - 1][0];
      c->y = sp->p[sp->n - 1][1];
      c->rot = order[k]->to[2];
      c->zone = order[k]->op->zone;
      rest (g, t0 + sp->delay + sp->dur, order[k]->op->line);
    }
  g->clock = t0 + fmax (pf.delay + pf.dur, ps.delay + ps.dur) + g->o.change_s * 0.4;
  return ENG_OK;
}

/* Two cats of one row (slots of one seat), at least one face down: no
 * lanes keep them SWAP_APART_MM apart, side by side they start 85 mm apart
 * (a face-up one is found again by its unique sticker anywhere, a back only
 * by its track).  Staged
 * as one hand does it: the other cat (second) is lifted off the table, the
 * first slides towards its owner and across into the second's slot, landing
 * SWAP_LAND_MM nearer the owner than the middle (the second's track, unseen,
 * is remembered there for the tracker's 2 s occlusion grace), and once it
 * has rested the second is put down in the first's old slot, ROW_DROP_MM
 * from where its track is remembered: within the tracker's match radius
 * (84 mm) of its own track and beyond it from the first's, so the tracker
 * reads two moves, slot to slot, the two halves of a swap (docs/interpreter.md:
 * "in one snapshot or in two halves"), first the first `move` line.  Two
 * slots apart (the third cat between them), b cannot be lifted (170 mm is
 * beyond the match radius): a slides the same way and b slides in view
 * round the front, into a's slot once a has rested.
 * Returns ENG_ERR_NOT_FOUND (nothing written) for any other pair, or when
 * at this frame rate b would stay off the table too near its grace. */
#define ROW_DROP_MM 75.0
#define ROW_SLOT_PITCH_MM 85.0
#define ROW_FRONT_MM 120.0

/* Where a row swap leaves the two cats (a at `a_at` turned `a_rot`, b at
 * `b_at` x, y, rot, each in its op's zone) and when the table is still
 * again after b came to rest at `t_rest`. */
static void
row_swap_done (Gen *g, GenCard *a, const EngLiveScriptOp *op_a, const double a_at[2], double a_rot,
               GenCard *b, const EngLiveScriptOp *op_b, const double b_at[3], double t_rest)
{
  a->x = a_at[0];
  a->y = a_at[1];
  a->rot = a_rot;
  a->zone = op_a->zone;
  b->x = b_at[0];
  b->y = b_at[1];
  b->rot = b_at[2];
  b->zone = op_b->zone;
  g->clock = t_rest + g->o.change_s * 0.4;
}

/* A row swap as planned: the two cats and their lines, each slot's middle
 * (as place_for lays a cat), the owner's direction (fx, fy), the way from
 * a's slot to b's (dx, dy, d long), and when each part happens. */
typedef struct {
  GenCard *a, *b;
  const EngLiveScriptOp *op_a, *op_b;
  double to_a[3], to_b[3];
  double fx, fy, dx, dy, d;
  bool apart;                 /* two slots apart, the third cat between them */
  double land[2], corner[2], drop[2];
  double t, reach, step_s, t1, leg1, leg2, a_rest, t2;
  int sb;                     /* the seat nearest b, whose hand lifts it */
} RowSwap;

/* Whether the pair is a row swap this staging can show, and its plan;
 * ENG_ERR_NOT_FOUND (nothing written) when it is not. */
static EngStatus
row_swap_plan (Gen *g, RowSwap *rs)
{
  GenCard *a = rs->a, *b = rs->b;
  if ((a->face && b->face) || a->zone.seat != b->zone.seat
      || eng_card_set_find_serial (g->set, a->serial)->deck
           != eng_card_set_find_serial (g->set, b->serial)->deck
      || abs (a->zone.index - b->zone.index) > 2)
    return ENG_ERR_NOT_FOUND;
  a->present = b->present = false;
  EngStatus st = place_for (g, rs->op_a->line, rs->op_a->zone, a->serial, &rs->to_a[0],
                            &rs->to_a[1], &rs->to_a[2]);
  if (st == ENG_OK)
    st = place_for (g, rs->op_b->line, rs->op_b->zone, b->serial, &rs->to_b[0], &rs->to_b[1],
                    &rs->to_b[2]);
  a->present = b->present = true;
  if (st != ENG_OK)
    return st;
  seat_frame (g, a->zone.seat, &rs->fx, &rs->fy);
  double fx = rs->fx, fy = rs->fy;
  rs->dx = rs->to_b[0] - rs->to_a[0];
  rs->dy = rs->to_b[1] - rs->to_a[1];
  rs->d = hypot (rs->dx, rs->dy);
  rs->apart = fabs (rs->d - 2 * ROW_SLOT_PITCH_MM) <= 5.0;
  if (fabs (rs->d - ROW_SLOT_PITCH_MM) > 5.0 && !rs->apart)
    return ENG_ERR_NOT_FOUND;
  /* a lands nearer its owner than b's slot middle, comes in along the row */
  rs->land[0] = rs->to_a[0] - SWAP_LAND_MM * fx;
  rs->land[1] = rs->to_a[1] - SWAP_LAND_MM * fy;
  rs->corner[0] = a->x - SWAP_LAND_MM * fx;
  rs->corner[1] = a->y - SWAP_LAND_MM * fy;
  /* b goes down in a's old slot, ROW_DROP_MM from its own old place */
  rs->drop[0] = rs->to_a[0] + rs->dx / rs->d * ROW_DROP_MM;
  rs->drop[1] = rs->to_a[1] + rs->dy / rs->d * ROW_DROP_MM;
  st = check_place (g, rs->op_a->line, rs->op_a->zone, rs->land[0], rs->land[1]);
  if (st == ENG_OK && !rs->apart)
    st = check_place (g, rs->op_b->line, rs->op_b->zone, rs->drop[0], rs->drop[1]);
  if (st != ENG_OK)
    return st;
  rs->t = g->clock;
  rs->reach = g->o.change_s * 0.3;
  rs->step_s = SWAP_STEP_MM * g->o.fps;   /* mm a second */
  rs->sb = nearest_seat (g, b->x, b->y);
  rs->t1 = rs->apart ? rs->t : rs->t + rs->reach + 0.2;
  rs->leg1 = hypot (rs->corner[0] - a->x, rs->corner[1] - a->y) / rs->step_s;
  rs->leg2 = hypot (rs->land[0] - rs->corner[0], rs->land[1] - rs->corner[1]) / rs->step_s;
  rs->a_rest = rs->t1 + rs->leg1 + rs->leg2;
  /* the lifted cat goes down once a has rested (the tracker's hold and a
   * frame), well within its occlusion grace, or the swap is not staged so */
  rs->t2 = rs->a_rest + 0.15 + 2.0 / g->o.fps;
  if (!rs->apart && rs->t2 - (rs->t + rs->reach) > 1.6)
    return ENG_ERR_NOT_FOUND;
  return ENG_OK;
}

/* b lifted (when next to a), then a slid towards its owner and along the
 * row, held by its side away from b's slot, at its owner's side. */
static void
row_swap_slide_a (Gen *g, const RowSwap *rs)
{
  GenCard *a = rs->a, *b = rs->b;
  const double *corner = rs->corner, *land = rs->land;
  if (!rs->apart)
    {
      const CalSeat *from = &g->seats[rs->sb];
      hand (g, rs->t, from->x, from->y, b->x, b->y, rs->reach);
      fprintf (g->ev, "at %.3f remove c%u\n", rs->t + rs->reach, b->serial);
      hand (g, rs->t + rs->reach, b->x, b->y, from->x, from->y, rs->reach);
    }
  double hx = (-rs->dx / rs->d - rs->fx) * SWAP_HAND_MM / sqrt (2.0);
  double hy = (-rs->dy / rs->d - rs->fy) * SWAP_HAND_MM / sqrt (2.0);
  double arm = atan2 (hy, hx) * 180.0 / GEN_PI;
  if (g->o.hands)
    {
      fprintf (g->ev, "at %.3f hand from=%.1f,%.1f to=%.1f,%.1f for=%.3f arm=%.1f\n", rs->t1,
               sx (g, a->x + hx), sy (g, a->y + hy), sx (g, corner[0] + hx), sy (g, corner[1] + hy),
               rs->leg1, arm);
      fprintf (g->ev, "at %.3f hand from=%.1f,%.1f to=%.1f,%.1f for=%.3f arm=%.1f\n",
               rs->t1 + rs->leg1, sx (g, corner[0] + hx), sy (g, corner[1] + hy),
               sx (g, land[0] + hx), sy (g, land[1] + hy), rs->leg2, arm);
    }
  fprintf (g->ev, "at %.3f move c%u to=%.1f,%.1f rot=%.1f over=%.3f\n", rs->t1, a->serial,
           sx (g, corner[0]), sy (g, corner[1]), a->rot, rs->leg1);
  fprintf (g->ev, "at %.3f move c%u to=%.1f,%.1f rot=%.1f over=%.3f\n", rs->t1 + rs->leg1,
           a->serial, sx (g, land[0]), sy (g, land[1]), rs->to_a[2], rs->leg2);
  rest (g, rs->a_rest, rs->op_a->line);
}

/* Two slots apart, the cat between them stays: b slides in view round the
 * front (over the attack spots, ROW_FRONT_MM beyond the slots' middles),
 * held by its far side, and comes down into a's slot only once a has
 * rested (b never nears a's remembered track before). */
static void
row_swap_round_front (Gen *g, const RowSwap *rs)
{
  GenCard *b = rs->b;
  const double *to_b = rs->to_b;
  double fx = rs->fx, fy = rs->fy;
  double p[4][2] = { { b->x, b->y },
                     { b->x + ROW_FRONT_MM * fx, b->y + ROW_FRONT_MM * fy },
                     { to_b[0] + ROW_FRONT_MM * fx, to_b[1] + ROW_FRONT_MM * fy },
                     { to_b[0], to_b[1] } };
  double bx = (rs->dx / rs->d + fx) * SWAP_HAND_MM / sqrt (2.0);
  double by = (rs->dy / rs->d + fy) * SWAP_HAND_MM / sqrt (2.0);
  double barm = atan2 (by, bx) * 180.0 / GEN_PI;
  double legs[3], before_last = 0;
  for (int k = 0; k < 3; k++)
    {
      legs[k] = hypot (p[k + 1][0] - p[k][0], p[k + 1][1] - p[k][1]) / rs->step_s;
      if (k < 2)
        before_last += legs[k];
    }
  double tb = fmax (rs->t1, rs->a_rest + 0.15 + 2.0 / g->o.fps - before_last);
  for (int k = 0; k < 3; k++)
    {
      if (g->o.hands)
        fprintf (g->ev, "at %.3f hand from=%.1f,%.1f to=%.1f,%.1f for=%.3f arm=%.1f\n", tb,
                 sx (g, p[k][0] + bx), sy (g, p[k][1] + by), sx (g, p[k + 1][0] + bx),
                 sy (g, p[k + 1][1] + by), legs[k], barm);
      fprintf (g->ev, "at %.3f move c%u to=%.1f,%.1f rot=%.1f over=%.3f\n", tb, b->serial,
               sx (g, p[k + 1][0]), sy (g, p[k + 1][1]), k == 2 ? to_b[2] : b->rot, legs[k]);
      tb += legs[k];
    }
  rest (g, tb, rs->op_b->line);
  row_swap_done (g, rs->a, rs->op_a, rs->land, rs->to_a[2], b, rs->op_b, to_b, tb);
}

/* Next to each other: the lifted b is put down in a's old slot. */
static void
row_swap_put_down (Gen *g, const RowSwap *rs)
{
  GenCard *b = rs->b;
  const CalSeat *from = &g->seats[rs->sb];
  hand (g, rs->t2 - rs->reach, from->x, from->y, rs->drop[0], rs->drop[1], rs->reach);
  fprintf (g->ev, "at %.3f place c%u at=%.1f,%.1f rot=%.1f %s\n", rs->t2, b->serial,
           sx (g, rs->drop[0]), sy (g, rs->drop[1]), rs->to_b[2], b->face ? "up" : "down");
  rest (g, rs->t2, rs->op_b->line);
  double b_at[3] = { rs->drop[0], rs->drop[1], rs->to_b[2] };
  row_swap_done (g, rs->a, rs->op_a, rs->land, rs->to_a[2], b, rs->op_b, b_at, rs->t2);
}

static EngStatus
gen_row_swap (Gen *g, const EngLiveScriptOp *op_a, const EngLiveScriptOp *op_b)
{
  RowSwap rs = { .a = find_card (g, op_a->cards[0]), .b = find_card (g, op_b->cards[0]),
                 .op_a = op_a, .op_b = op_b };
  EngStatus st = row_swap_plan (g, &rs);
  if (st != ENG_OK)
    return st;
  row_swap_slide_a (g, &rs);
  if (rs.apart)
    row_swap_round_front (g, &rs);
  else
    row_swap_put_down (g, &rs);
  return ENG_OK;
}

/* Two moves in a row that trade two cats' slots. */
static bool
is_swap (Gen *g, const EngLiveScriptOp *op_a, const EngLiveScriptOp *op_b)
{
  if (op_a->kind != ENG_LIVE_OP_MOVE || op_b->kind != ENG_LIVE_OP_MOVE
      || op_a->zone.kind != ENG_ZONE_SLOT || op_b->zone.kind != ENG_ZONE_SLOT)
    return false;
  const GenCard *a = find_card (g, op_a->cards[0]), *b = find_card (g, op_b->cards[0]);
  if (a == NULL || b == NULL || a == b || !a->present || !b->present)
    return false;
  EngZone za = a->zone, zb = b->zone;
  return za.kind == ENG_ZONE_SLOT && zb.kind == ENG_ZONE_SLOT
         && zb.seat == op_a->zone.seat && zb.index == op_a->zone.index
         && za.seat == op_b->zone.seat && za.index == op_b->zone.index;
}

static EngStatus
gen_command (Gen *g, const EngLiveScriptOp *op)
{
  const EngCommand *cmd = eng_card_set_find_command (g->set, op->text);
  if (cmd == NULL)
    return gen_fail (g, op->line, ENG_ERR_SYNTAX, "unknown command '%s'", op->text);
  unsigned k = cmd->serial % GEN_MAX_COMMANDS;
  EngTag tag = { eng_card_set_game_letter (g->set), "", ENG_TAG_COMMAND, cmd->serial };
  snprintf (tag.set, sizeof tag.set, "%s", eng_card_set_id (g->set));
  char payload[ENG_TAG_PAYLOAD_LEN + 1];
  if (eng_tag_format (&tag, payload) != ENG_OK)
    return gen_fail (g, op->line, ENG_ERR_SYNTAX, "command '%s' has no printable tag",
                     op->text);
  /* each command its own spot: the detector's tracking takes a code laid
   * exactly where another one was for that one (docs/e2e.md) */
  const Layout *l = &g->lay;
  unsigned col = (cmd->serial - 1) % l->command_cols, row = (cmd->serial - 1) / l->command_cols;
  double x = l->command_at[0] + col * l->command_col[0] + row * l->command_row[0];
  double y = l->command_at[1] + col * l->command_col[1] + row * l->command_row[1];
  if (!g->command_declared[k])
    {
      /* command cards are held up by a player: a sticker on its own, printed
       * as every sticker is (40 mm, 2 quiet modules: 1.6 mm modules); the
       * renderer draws a lone code with 4 quiet modules, so its paper is
       * larger for the same modules */
      fprintf (g->obj, "command cmd-%s number=%u at=%.1f,%.1f size=%.1f\n", op->text,
               (unsigned) cmd->serial, sx (g, x), sy (g, y), 40.0 * (21 + 2 * 4) / (21 + 2 * 2));
      fprintf (g->ev, "at 0 remove cmd-%s\n", op->text);
      g->command_declared[k] = true;
    }
  /* the same command again only once its last showing left the snapshot */
  if (g->clock < g->command_gone[k])
    g->clock = g->command_gone[k];
  double t = g->clock, dur = g->o.change_s * 0.6;
  int s = nearest_seat (g, x, y);
  hand (g, t, g->seats[s].x, g->seats[s].y, x, y, dur);
  double at = g->o.hands ? t + dur * 0.8 : t;
  fprintf (g->ev, "at %.3f place cmd-%s at=%.1f,%.1f\n", at, op->text, sx (g, x), sy (g, y));
  rest (g, g->o.hands ? t + dur : t, op->line);
  double gone = t + dur + 0.8;
  fprintf (g->ev, "at %.3f remove cmd-%s\n", gone, op->text);
  g->command_gone[k] = gone + 2.4;
  g->clock = gone + 0.4;
  return ENG_OK;
}

/* `choose NAME` answers a question naming players on screen.  A table
 * answers it with command cards (session 2, contract 1): the question names
 * one candidate; confirm takes it, cancel names the next one.  The
 * referee's candidates at that line, learnt on ideal snapshots (the named
 * one first, then in the order cancel names them: eng_interpreter_choice),
 * say how many cancels reach NAME before confirm. */
static EngStatus
gen_choose (Gen *g, const EngLiveScriptOp *op)
{
  const GenChoice *c = NULL;
  for (size_t i = 0; g->choices != NULL && i < g->choices->n && c == NULL; i++)
    if (g->choices->c[i].line == op->line)
      c = &g->choices->c[i];
  if (c == NULL || c->n == 0)
    return gen_fail (g, op->line, ENG_ERR_NOT_SUPPORTED,
                     "'choose' with no question naming players asked before it: no "
                     "command card answers it");
  unsigned cancels = 0;
  while (cancels < c->n && c->players[cancels] != op->player)
    cancels++;
  if (cancels == c->n)
    return gen_fail (g, op->line, ENG_ERR_NOT_SUPPORTED,
                     "%s is not a candidate of the question asked",
                     eng_live_script_setup (g->script)->names[op->player]);
  EngLiveScriptOp card = *op;
  card.kind = ENG_LIVE_OP_COMMAND;
  card.text = "cancel";
  for (unsigned k = 0; k < cancels; k++)
    {
      EngStatus st = gen_command (g, &card);
      if (st != ENG_OK)
        return st;
    }
  card.text = "confirm";
  return gen_command (g, &card);
}

static void
choice_sink (void *user, unsigned line, const int *players, size_t n)
{
  GenChoices *cs = user;
  if (cs->n == GEN_MAX_QUESTIONS)
    return;   /* gen_choose says the later ones were not asked */
  GenChoice *c = &cs->c[cs->n++];
  c->line = line;
  c->n = 0;
  for (size_t i = 0; i < n && i < ENG_MAX_PLAYERS; i++)
    c->players[c->n++] = players[i];
}

/* Runs the script on ideal snapshots to learn the questions `choose` lines
 * answer (only when there are any). */
static EngStatus
learn_choices (Gen *g)
{
  EngLiveScriptOp op;
  bool any = false;
  for (size_t i = 0; !any && eng_live_script_op (g->script, i, &op); i++)
    any = op.kind == ENG_LIVE_OP_CHOOSE;
  if (!any)
    return ENG_OK;
  g->choices = calloc (1, sizeof *g->choices);
  if (g->choices == NULL)
    return ENG_ERR_NO_MEMORY;
  EngLiveScriptResult res;
  EngParseError err = { 0 };
  EngStatus st = eng_live_script_run_choices (g->script, g->set, choice_sink, g->choices, &res, &err);
  if (st == ENG_OK)
    free (res.record);
  else
    st = gen_fail (g, err.line, st, "%s", err.reason);
  return st;
}

static void
gen_nudge (Gen *g)
{
  double t = g->clock;
  fprintf (g->ev, "at %.3f camera target=%.1f,%.1f yaw=%g over=0.3\n", t, sx (g, 8), sy (g, 5),
           g->lay.yaw + 0.6);
  g->nudged = true;
  g->clock += 1.5;
}

/* An unused card of deck `deck` to lie face down on that deck's pile. */
static uint16_t
spare_card (const Gen *g, const EngLiveScript *script, unsigned deck)
{
  for (uint16_t s = 999; s >= 1; s--)
    {
      const EngCard *c = eng_card_set_find_serial (g->set, s);
      if (c == NULL || c->deck != deck)
        continue;
      bool used = false;
      EngLiveScriptOp op;
      for (size_t i = 0; !used && eng_live_script_op (script, i, &op); i++)
        for (unsigned k = 0; k < op.n_cards; k++)
          used = used || op.cards[k] == s;
      if (!used)
        return s;
    }
  return 0;
}

static EngStatus
write_scene (Gen *g)
{
  const Layout *l = &g->lay;
  double ppm = g->o.px_per_mm;
  int w = g->o.width, h = g->o.height;
  if (w <= 0 || h <= 0)
    {
      double view_w = 2 * l->view[0], view_h = 2 * l->view[1];
      if (fabs (l->yaw) == 90)
        {
          double swap = view_w;
          view_w = view_h;
          view_h = swap;
        }
      w = ((int) ceil (view_w * ppm / 16.0)) * 16;
      h = ((int) ceil (view_h * ppm / 16.0)) * 16;
    }
  g->res->px_per_mm = ppm;
  double duration = g->clock + 1.5;
  g->res->width = w;
  g->res->height = h;
  g->res->duration_s = duration;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&text, &len);
  if (f == NULL)
    return ENG_ERR_NO_MEMORY;
  fprintf (f, "# Generated by cal_scene_generate (tablero-cli scene) from %s;\n"
              "# layout and timing: docs/e2e.md.  Format: docs/render-scene-format.md.\n",
           g->source);
  fprintf (f, "image width=%d height=%d fps=%g duration=%.3f seed=%llu format=png\n", w, h,
           g->o.fps, duration, (unsigned long long) g->o.seed);
  fprintf (f, "camera height=1000 focal=%.1f target=%.1f,%.1f yaw=%g\n", ppm * 1000, g->cx, g->cy,
           l->yaw);
  fprintf (f, "table width=%.0f height=%.0f colour=#2b5238 grain=0.5\n", 2 * g->cx, 2 * g->cy);
  fprintf (f, "tags game=%c set=%s\n", eng_card_set_game_letter (g->set), eng_card_set_id (g->set));
  /* the calibration measures the table in 40 mm stickers with 2 quiet modules */
  fprintf (f, "sticker size=40 quiet=2\ncard-size width=63 height=88\n");
  unsigned d = g->o.degrade;
  if (d != 0)
    fprintf (f, "degrade light=%g light-angle=200 blur=%g noise=%g jpeg=%d\n",
             d & CAL_SCENE_DEGRADE_LIGHT ? 0.25 : 0.0,
             d & CAL_SCENE_DEGRADE_BLUR ? (g->o.blur_px > 0 ? g->o.blur_px : 0.6) : 0.0,
             d & CAL_SCENE_DEGRADE_NOISE ? 3.0 : 0.0, d & CAL_SCENE_DEGRADE_JPEG ? 90 : 0);
  static const double corner[4][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } };
  for (int a = 0; a < 4; a++)
    fprintf (f, "anchor a%d number=%d at=%.1f,%.1f\n", a + 1, a + 1,
             sx (g, corner[a][0] * l->ax), sy (g, corner[a][1] * l->ay));
  for (unsigned s = 0; s < l->n_seats; s++)
    if (g->seated[s])
      fprintf (f, "seat s%u number=%u at=%.1f,%.1f rot=%.1f\n", s + 1, s + 1, sx (g, l->seat[s][0]),
             sy (g, l->seat[s][1]), seat_rot (g, (int) s));
  fwrite (g->objects, 1, g->objects_len, f);
  fwrite (g->events, 1, g->events_len, f);
  bool bad = ferror (f) != 0;
  fclose (f);
  if (bad || text == NULL)
    {
      free (text);
      return ENG_ERR_NO_MEMORY;
    }
  g->res->text = text;
  return ENG_OK;
}

/* Walking the script's statements: the one being staged (a handler that
 * stages it with the next one steps `i` past that), whether the table's
 * first look was taken (cards laid before it are the table as it starts)
 * and how many cards this look has fanned on the discard pile. */
typedef struct {
  Gen *g;
  size_t i;
  EngLiveScriptOp op;
  bool started;
  int fan;
} OpWalk;

static EngStatus
walk_deal (OpWalk *w)
{
  EngStatus st = ENG_OK;
  for (unsigned k = 0; k < w->op.n_cards && st == ENG_OK; k++)
    {
      EngZone z = w->op.zone;
      z.index = (int8_t) k;
      st = gen_put (w->g, w->op.line, w->op.cards[k], false, z, !w->started);
    }
  return st;
}

/* One of several cards put on the discard pile between two looks (they
 * are fanned so each is seen)? */
static EngStatus
walk_put_discard (OpWalk *w)
{
  Gen *g = w->g;
  EngLiveScriptOp next;
  bool several = w->fan > 0;
  for (size_t k = w->i + 1; !several && eng_live_script_op (g->script, k, &next); k++)
    {
      if (next.kind == ENG_LIVE_OP_SNAP || next.kind == ENG_LIVE_OP_COMMAND
          || next.kind == ENG_LIVE_OP_KEY || next.kind == ENG_LIVE_OP_CHOOSE)
        break;
      several = next.kind == ENG_LIVE_OP_PUT && next.zone.kind == ENG_ZONE_DISCARD;
    }
  g->discard_fan = several ? w->fan++ : -1;
  EngStatus st = gen_put (g, w->op.line, w->op.cards[0], w->op.face, w->op.zone, false);
  g->discard_fan = -1;
  return st;
}

/* Two cards laid on one attack spot between two looks land at once (two
 * hands): the referee must see them together (which came first is the
 * table's to say, K12). */
static EngStatus
walk_put_pair (OpWalk *w, const EngLiveScriptOp *next)
{
  Gen *g = w->g;
  g->attack_coming = 1;
  g->same_instant = true;
  EngStatus st = gen_put (g, w->op.line, w->op.cards[0], w->op.face, w->op.zone, false);
  g->attack_coming = 0;
  g->same_instant = false;
  g->same_instant_second = true;
  if (st == ENG_OK)
    st = gen_put (g, next->line, next->cards[0], next->face, next->zone, false);
  g->same_instant_second = false;
  w->i++;
  return st;
}

static EngStatus
walk_put (OpWalk *w)
{
  const EngLiveScriptOp *op = &w->op;
  EngLiveScriptOp next;
  if (w->started && op->zone.kind == ENG_ZONE_DISCARD)
    return walk_put_discard (w);
  if (w->started && op->zone.kind == ENG_ZONE_ATTACK
      && eng_live_script_op (w->g->script, w->i + 1, &next)
      && next.kind == ENG_LIVE_OP_PUT && next.zone.kind == op->zone.kind
      && next.zone.seat == op->zone.seat && next.zone.index == op->zone.index)
    return walk_put_pair (w, &next);
  return gen_put (w->g, op->line, op->cards[0], op->face, op->zone, !w->started);
}

/* flip, move, remove; two moves that trade places are staged as one swap */
static EngStatus
walk_change (OpWalk *w)
{
  Gen *g = w->g;
  EngLiveScriptOp next;
  if (!w->started)
    return gen_fail (g, w->op.line, ENG_ERR_NOT_SUPPORTED,
                     "a change before the first snap: lay the table with deal/put");
  if (eng_live_script_op (g->script, w->i + 1, &next) && is_swap (g, &w->op, &next))
    {
      EngStatus st = gen_swap (g, &w->op, &next);
      if (st == ENG_ERR_NOT_FOUND)
        st = gen_row_swap (g, &w->op, &next);
      if (st == ENG_OK)
        w->i++;
      if (st != ENG_ERR_NOT_FOUND)
        return st;
    }
  g->remove_follows = g->o.gather && w->op.kind == ENG_LIVE_OP_REMOVE
                      && eng_live_script_op (g->script, w->i + 1, &next)
                      && next.kind == ENG_LIVE_OP_REMOVE;
  EngStatus st = gen_change (g, &w->op);
  g->remove_follows = false;
  return st;
}

/* command, key: a command card held up */
static EngStatus
walk_command (OpWalk *w)
{
  w->started = true;
  return gen_command (w->g, &w->op);
}

static EngStatus
walk_choose (OpWalk *w)
{
  w->started = true;
  return gen_choose (w->g, &w->op);
}

static EngStatus
walk_snap (OpWalk *w)
{
  Gen *g = w->g;
  w->started = true;
  w->fan = 0;
  g->clock += 0.3;
  if (!g->nudged && g->o.nudge_s >= 0 && g->clock >= g->o.nudge_s)
    gen_nudge (g);
  return ENG_OK;
}

/* What each statement shows the camera; those with no handler (expect,
 * misread, correct, restart) show it nothing. */
static EngStatus (*const walkers[]) (OpWalk *w) = {
  [ENG_LIVE_OP_PUT] = walk_put, [ENG_LIVE_OP_FLIP] = walk_change,
  [ENG_LIVE_OP_MOVE] = walk_change, [ENG_LIVE_OP_REMOVE] = walk_change,
  [ENG_LIVE_OP_DEAL] = walk_deal, [ENG_LIVE_OP_COMMAND] = walk_command,
  [ENG_LIVE_OP_KEY] = walk_command, [ENG_LIVE_OP_CHOOSE] = walk_choose,
  [ENG_LIVE_OP_SNAP] = walk_snap, [ENG_LIVE_OP_RESTART] = NULL,
};

static EngStatus
run_ops (Gen *g)
{
  OpWalk w = { .g = g };
  for (w.i = 0; eng_live_script_op (g->script, w.i, &w.op); w.i++)
    {
      bool shown = (size_t) w.op.kind < sizeof walkers / sizeof walkers[0]
                   && walkers[w.op.kind] != NULL;
      EngStatus st = shown ? walkers[w.op.kind] (&w) : ENG_OK;
      if (st != ENG_OK)
        return st;
    }
  return ENG_OK;
}

EngStatus
cal_scene_generate (const EngLiveScript *script, const EngCardSet *set, const CalZones *zones,
                    const CalSceneOptions *opts, CalSceneResult *out, EngParseError *err)
{
  if (script == NULL || set == NULL || zones == NULL || out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  memset (out, 0, sizeof *out);
  Gen *g = calloc (1, sizeof *g);
  if (g == NULL)
    return ENG_ERR_NO_MEMORY;
  g->script = script;
  g->set = set;
  g->zones = zones;
  g->res = out;
  g->err = err;
  g->source = opts != NULL && opts->source_name != NULL ? opts->source_name : "script";
  if (opts != NULL)
    g->o = *opts;
  else
    cal_scene_options_init (&g->o);
  if (g->o.fps <= 0)
    g->o.fps = 5;
  if (g->o.px_per_mm <= 0)
    g->o.px_per_mm = 2.2;
  if (g->o.change_s <= 0)
    g->o.change_s = 1.0;
  if (g->o.seed == 0)
    g->o.seed = 1;
  const EngSetup *su = eng_live_script_setup (script);
  EngStatus st = ENG_OK;
  if (g->o.width > 0 && g->o.height > 0)
    choose_layout (g, su->n_players);
  else if (!layout_for (su->n_players, 0, &g->lay))
    st = gen_fail (g, 0, ENG_ERR_NOT_SUPPORTED, "no table layout for %u players", su->n_players);
  if (st == ENG_OK && g->lay.n_seats == 0)
    st = gen_fail (g, 0, ENG_ERR_NOT_SUPPORTED, "no table layout for %u players", su->n_players);
  /* seats as the calibration finds them: forward towards the centroid */
  for (unsigned s = 0; st == ENG_OK && s < g->lay.n_seats; s++)
    {
      double x = g->lay.seat[s][0], y = g->lay.seat[s][1], n = hypot (x, y);
      g->seats[s] = (CalSeat) { s + 1, x, y, -x / n, -y / n };
    }
  for (unsigned p = 0; st == ENG_OK && p < su->n_players; p++)
    {
      unsigned marker = su->seats[p] ? su->seats[p] : p + 1;
      if (marker > g->lay.n_seats)
        st = gen_fail (g, 0, ENG_ERR_NOT_SUPPORTED,
                       "seat marker %u: only %u seat places on this table", marker,
                       g->lay.n_seats);
      else
        g->seated[marker - 1] = true;
    }
  for (unsigned s = 0; st == ENG_OK && s < g->lay.n_seats; s++)
    if (g->seated[s])
      g->found[g->n_found++] = g->seats[s];
  g->cx = g->lay.ax + 300;
  g->cy = g->lay.ay + 300;
  g->clock = 1.5;   /* calibration and the baseline first */
  g->discard_fan = -1;
  if (st == ENG_OK)
    {
      g->obj = open_memstream (&g->objects, &g->objects_len);
      g->ev = open_memstream (&g->events, &g->events_len);
      if (g->obj == NULL || g->ev == NULL)
        st = ENG_ERR_NO_MEMORY;
    }
  if (st == ENG_OK)
    {
      /* the draw piles: one face-down card on each deck zone (a deck of the set) */
      for (size_t d = 0; d < eng_card_set_n_decks (g->set) && d < 8; d++)
        {
          const EngDeck *deck = eng_card_set_deck (g->set, d);
          const CalZoneRect *r = zone_rect (g, ENG_ZONE_DECK, false, (int) d);
          uint16_t spare = deck->has_back ? spare_card (g, script, (unsigned) d) : 0;
          if (r != NULL && spare != 0)
            fprintf (g->obj, "card %s-deck face=%u back=%zu at=%.1f,%.1f rot=%d down\n", deck->id,
                     spare, d + 1, sx (g, r->at_x), sy (g, r->at_y), d % 2 == 0 ? 2 : -3);
        }
      st = learn_choices (g);
      if (st == ENG_OK)
        st = run_ops (g);
    }
  if (g->obj != NULL)
    fclose (g->obj);
  if (g->ev != NULL)
    fclose (g->ev);
  if (st == ENG_OK)
    st = write_scene (g);
  free (g->objects);
  free (g->events);
  free (g->choices);
  free (g);
  if (st != ENG_OK)
    {
      free (out->text);
      out->text = NULL;
    }
  return st;
}

/* ---- refereeing a scene ------------------------------------------------ */

#define REFEREE_EVENTS 256

static double
now_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec / 1e6;
}

/* Scores the detector's last frame against the truth (see CalRefereeStats)
 * and reports each code it missed. */
static void
score_detections (const VisTruth *truth, const VisDetectResult *det, const CalRefereeOptions *o,
                  CalRefereeStats *stats)
{
  unsigned expected = 0, found = 0;
  for (unsigned t = 0; t < truth->n_tags; t++)
    {
      const VisTruthTag *tag = &truth->tags[t];
      if (tag->kind == VIS_TRUTH_FOREIGN || !tag->in_view || tag->occluded)
        continue;
      expected++;
      if (stats->min_module_px == 0 || tag->module_px < stats->min_module_px)
        stats->min_module_px = tag->module_px;
      if (tag->module_px > stats->max_module_px)
        stats->max_module_px = tag->module_px;
      double cx = 0, cy = 0;
      for (int k = 0; k < 4; k++)
        {
          cx += tag->corners[k][0] / 4.0;
          cy += tag->corners[k][1] / 4.0;
        }
      double side = hypot (tag->corners[1][0] - tag->corners[0][0],
                           tag->corners[1][1] - tag->corners[0][1]);
      bool hit = false;
      for (size_t i = 0; det != NULL && !hit && i < det->n_detections; i++)
        hit = strcmp (det->detections[i].payload, tag->payload) == 0
              && hypot (det->detections[i].centre.x - cx, det->detections[i].centre.y - cy)
                   < 0.5 * side + 4;
      if (hit)
        found++;
      else if (o->missed != NULL)
        o->missed (o->user, truth->t_s, tag);
    }
  stats->codes_expected += expected;
  stats->codes_found += found;
  if (found == expected)
    stats->frames_complete++;
}

EngStatus
cal_scene_referee (const char *scene_text, size_t len, EngSession *session, const EngPrinting *printing,
                   const char *zones_path, CalRefereeSink sink, void *user, CalRefereeStats *stats,
                   EngParseError *err)
{
  CalRefereeOptions o = { .zones_path = zones_path, .printing = printing, .sink = sink, .user = user };
  return cal_scene_referee_with (scene_text, len, session, &o, stats, err);
}

EngStatus
cal_scene_referee_with (const char *scene_text, size_t len, EngSession *session,
                        const CalRefereeOptions *opts, CalRefereeStats *stats, EngParseError *err)
{
  if (scene_text == NULL || session == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  CalRefereeOptions o = { 0 };
  if (opts != NULL)
    o = *opts;
  CalRefereeStats local;
  if (stats == NULL)
    stats = &local;
  memset (stats, 0, sizeof *stats);
  VisScene *scene = NULL;
  EngStatus st = vis_scene_parse (scene_text, len, "scene", &scene, err);
  if (st == ENG_OK && vis_scene_needs_card_set (scene))
    st = vis_scene_resolve (scene, eng_session_card_set (session), err);
  VisRenderer *renderer = NULL;
  if (st == ENG_OK)
    {
      vis_scene_set_printing (scene, o.printing);
      st = vis_renderer_new (scene, 0, &renderer);
    }
  CalObserver *observer = NULL;
  CalObserverOptions oopts = { .zones_path = o.zones_path, .printing = o.printing };
  if (st == ENG_OK)
    st = cal_observer_new (&oopts, &observer, err);
  int w = scene ? vis_scene_width (scene) : 0, h = scene ? vis_scene_height (scene) : 0;
  uint8_t *pixels = st == ENG_OK ? malloc ((size_t) w * (size_t) h * 3) : NULL;
  EngSnapshot *snap = st == ENG_OK ? calloc (1, sizeof *snap) : NULL;
  EngEvent *storage = st == ENG_OK ? calloc (REFEREE_EVENTS, sizeof *storage) : NULL;
  VisTruth *truth = st == ENG_OK ? calloc (1, sizeof *truth) : NULL;
  if (st == ENG_OK && (pixels == NULL || snap == NULL || storage == NULL || truth == NULL))
    st = ENG_ERR_NO_MEMORY;
  EngInterpreter *interp = eng_session_interpreter (session);
  unsigned n_frames = scene ? vis_scene_n_frames (scene) : 0;
  double fps = scene ? vis_scene_fps (scene) : 1;
  for (unsigned f = 0; st == ENG_OK && f < n_frames; f++)
    {
      double t = f / fps;
      VisImage img = { w, h, (size_t) w * 3, VIS_PIXEL_BGR8, pixels };
      double t0 = now_ms ();
      st = vis_renderer_render (renderer, t, &img, truth);
      if (st != ENG_OK)
        break;
      double t1 = now_ms ();
      bool changed = false;
      EngEvents events;
      eng_events_init (&events, storage, REFEREE_EVENTS);
      if (cal_observer_process (observer, &img, (int64_t) llround (t * 1e9), snap, &changed)
          == ENG_OK && changed)
        eng_interpreter_feed (interp, snap, &events);
      double t2 = now_ms ();
      stats->frames++;
      stats->render_ms += t1 - t0;
      stats->pipeline_ms += t2 - t1;
      stats->events += events.n;
      stats->calibrations = cal_observer_calibrations (observer);
      score_detections (truth, cal_observer_detections (observer), &o, stats);
      if (o.sink != NULL)
        o.sink (o.user, t, snap, changed, &events);
    }
  free (truth);
  free (storage);
  free (snap);
  free (pixels);
  cal_observer_free (observer);
  vis_renderer_free (renderer);
  vis_scene_free (scene);
  return st;
}

#include "ui-history-window.h"

#include <glib/gi18n-lib.h>

#include "hst-store.h"
#include "ui-history-game.h"
#include "ui-history-list.h"
#include "ui-history-player.h"

/* Where "back" goes: the pages opened before this one. */
typedef struct {
  char *page;       /* "list", "game" or "player" */
  gint64 game;      /* the game shown on "game" */
  char *player;     /* the player shown on "player" */
} Visit;

struct _UiHistoryWindow
{
  AdwWindow parent_instance;

  AdwToastOverlay *toast_overlay;
  GtkWidget *back_button;
  AdwWindowTitle *window_title;
  GtkStack *stack;
  UiHistoryList *list_page;
  UiHistoryGame *game_page;
  UiHistoryPlayer *player_page;

  HstStore *store;        /* NULL: the history cannot be read (said on the list) */
  GArray *visits;         /* Visit, the page shown last */
};

G_DEFINE_FINAL_TYPE (UiHistoryWindow, ui_history_window, ADW_TYPE_WINDOW)

static void
visit_clear (gpointer data)
{
  Visit *v = data;
  g_free (v->page);
  g_free (v->player);
}

/* Shows the page of `visit` (loaded again: the history may have grown). */
static gboolean
show_visit (UiHistoryWindow *self, const Visit *visit, gboolean animate)
{
  gboolean ok = TRUE;
  const char *subtitle = "";
  if (g_strcmp0 (visit->page, "game") == 0)
    {
      ok = ui_history_game_show (self->game_page, visit->game);
      subtitle = _ ("A game");
    }
  else if (g_strcmp0 (visit->page, "player") == 0)
    {
      ok = ui_history_player_show (self->player_page, visit->player);
      subtitle = visit->player;
    }
  else
    ui_history_list_reload (self->list_page);
  if (!ok)
    return FALSE;
  /* slid in when a person asks; shown at once for a screenshot */
  gtk_stack_set_visible_child_full (self->stack, visit->page,
                                    animate && gtk_widget_get_mapped (GTK_WIDGET (self->stack))
                                      ? GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT_RIGHT : GTK_STACK_TRANSITION_TYPE_NONE);
  adw_window_title_set_subtitle (self->window_title, subtitle);
  gtk_widget_set_visible (self->back_button, self->visits->len > 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "history.back", self->visits->len > 1);
  return TRUE;
}

static gboolean
open_visit (UiHistoryWindow *self, const char *page, gint64 game, const char *player, gboolean animate)
{
  Visit v = { g_strdup (page), game, g_strdup (player) };
  g_array_append_val (self->visits, v);
  if (show_visit (self, &v, animate))
    return TRUE;
  g_array_set_size (self->visits, self->visits->len - 1);
  return FALSE;
}

static void
show_game_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiHistoryWindow *self = UI_HISTORY_WINDOW (widget);
  open_visit (self, "game", g_variant_get_int64 (parameter), NULL, TRUE);
}

static void
show_player_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiHistoryWindow *self = UI_HISTORY_WINDOW (widget);
  open_visit (self, "player", 0, g_variant_get_string (parameter, NULL), TRUE);
}

static void
back_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiHistoryWindow *self = UI_HISTORY_WINDOW (widget);
  if (self->visits->len <= 1)
    return;
  g_array_set_size (self->visits, self->visits->len - 1);
  show_visit (self, &g_array_index (self->visits, Visit, self->visits->len - 1), TRUE);
}

/* The newest game, or 0 when there is none. */
static HstGame *
newest_game (UiHistoryWindow *self)
{
  if (self->store == NULL)
    return NULL;
  HstFilter newest = { .limit = 1 };
  g_autoptr (GPtrArray) games = hst_store_list (self->store, &newest, NULL, NULL);
  if (games == NULL || games->len == 0)
    return NULL;
  return g_ptr_array_steal_index (games, 0);
}

gboolean
ui_history_window_show (UiHistoryWindow *self, const char *page)
{
  g_return_val_if_fail (UI_IS_HISTORY_WINDOW (self), FALSE);
  if (page == NULL || g_strcmp0 (page, "list") == 0)
    return TRUE;
  g_autoptr (HstGame) game = newest_game (self);
  if (game == NULL)
    return FALSE;
  if (g_strcmp0 (page, "game") == 0)
    return open_visit (self, "game", game->id, NULL, FALSE);
  guint who = 0;
  for (guint p = 0; p < game->n_seats; p++)
    if (game->seats[p].won)
      {
        who = p;
        break;
      }
  return open_visit (self, "player", 0, game->seats[who].name, FALSE);
}

static void
ui_history_window_dispose (GObject *object)
{
  UiHistoryWindow *self = UI_HISTORY_WINDOW (object);
  gtk_widget_dispose_template (GTK_WIDGET (self), UI_TYPE_HISTORY_WINDOW);
  G_OBJECT_CLASS (ui_history_window_parent_class)->dispose (object);
}

static void
ui_history_window_finalize (GObject *object)
{
  UiHistoryWindow *self = UI_HISTORY_WINDOW (object);
  g_array_unref (self->visits);
  g_clear_pointer (&self->store, hst_store_free);
  G_OBJECT_CLASS (ui_history_window_parent_class)->finalize (object);
}

static void
ui_history_window_class_init (UiHistoryWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = ui_history_window_dispose;
  object_class->finalize = ui_history_window_finalize;
  g_type_ensure (UI_TYPE_HISTORY_LIST);
  g_type_ensure (UI_TYPE_HISTORY_GAME);
  g_type_ensure (UI_TYPE_HISTORY_PLAYER);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-history-window.ui");
  gtk_widget_class_bind_template_child (widget_class, UiHistoryWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryWindow, back_button);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryWindow, list_page);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryWindow, game_page);
  gtk_widget_class_bind_template_child (widget_class, UiHistoryWindow, player_page);
  gtk_widget_class_install_action (widget_class, "history.show-game", "x", show_game_action);
  gtk_widget_class_install_action (widget_class, "history.show-player", "s", show_player_action);
  gtk_widget_class_install_action (widget_class, "history.back", NULL, back_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "history.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "history.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
ui_history_window_init (UiHistoryWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->visits = g_array_new (FALSE, TRUE, sizeof (Visit));
  g_array_set_clear_func (self->visits, visit_clear);
  g_autofree char *notice = NULL;
  g_autoptr (GError) error = NULL;
  self->store = hst_store_open (NULL, &notice, &error);
  if (notice != NULL)
    {
      AdwToast *toast = adw_toast_new (notice);
      adw_toast_set_timeout (toast, 0);
      adw_toast_overlay_add_toast (self->toast_overlay, toast);
    }
  ui_history_list_set_store (self->list_page, self->store, error != NULL ? error->message : NULL);
  ui_history_game_set_store (self->game_page, self->store);
  ui_history_player_set_store (self->player_page, self->store);
  open_visit (self, "list", 0, NULL, FALSE);
}

UiHistoryWindow *
ui_history_window_new (GtkWindow *parent)
{
  return g_object_new (UI_TYPE_HISTORY_WINDOW, "transient-for", parent, "application",
                       parent != NULL ? gtk_window_get_application (parent) : NULL, NULL);
}

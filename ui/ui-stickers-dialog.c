#include "ui-stickers-dialog.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "eng-cardset.h"
#include "eng-data.h"
#include "prt-store.h"
#include "vis-set-stickers.h"
#include "vis-sheet.h"

/* Preview pixels per millimetre of paper: an A4 page is 630 x 891. */
#define PREVIEW_PX_PER_MM 3.0

struct _UiStickersDialog
{
  AdwWindow parent_instance;

  GtkLabel *summary;
  GtkLabel *status;
  GtkPicture *preview;
  char *game;
  char title[256];
  VisStickerText *texts;   /* malloc'ed, NULL when the set could not be read */
  size_t n_texts;
  VisSheetOptions options;
  VisSheetPlan plan;
};

G_DEFINE_FINAL_TYPE (UiStickersDialog, ui_stickers_dialog, ADW_TYPE_WINDOW)

/* Page 1 on white paper, drawn as the PDF draws it. */
static GdkTexture *
render_first_page (UiStickersDialog *self)
{
  int width = (int) (self->plan.page_width * PREVIEW_PX_PER_MM);
  int height = (int) (self->plan.page_height * PREVIEW_PX_PER_MM);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_scale (cr, PREVIEW_PX_PER_MM, PREVIEW_PX_PER_MM);
  EngStatus status = vis_sheet_draw_page (cr, &self->options, self->texts, self->n_texts, 1);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  GdkTexture *texture = NULL;
  if (status == ENG_OK)
    {
      g_autoptr (GBytes) bytes = g_bytes_new (cairo_image_surface_get_data (surface),
                                              (gsize) cairo_image_surface_get_stride (surface) * (gsize) height);
      texture = gdk_memory_texture_new (width, height, GDK_MEMORY_DEFAULT, bytes,
                                        (gsize) cairo_image_surface_get_stride (surface));
    }
  cairo_surface_destroy (surface);
  return texture;
}

/* Loads the game's card set and lays its stickers out; FALSE with the
 * reason in `why` (transfer full). */
static gboolean
load_stickers (UiStickersDialog *self, char **why)
{
  g_autofree char *name = g_strdup_printf ("cards/%s.set", self->game);
  char *path = eng_data_path (name);
  if (path == NULL)
    {
      *why = g_strdup_printf (_ ("%s: no data directory"), name);
      return FALSE;
    }
  EngCardSet *set = NULL;
  EngParseError perr = { 0 };
  EngStatus status = eng_card_set_load_file (path, &set, &perr);
  if (status != ENG_OK)
    {
      *why = perr.line > 0 ? g_strdup_printf ("%s:%u: %s", path, perr.line, perr.reason)
                           : g_strdup_printf ("%s: %s", path, eng_status_to_string (status));
      free (path);
      return FALSE;
    }
  free (path);
  /* sealed with the table's key for the set, made on first need */
  g_autoptr (GError) error = NULL;
  EngPrinting *printing = prt_store_printing (set, &error);
  if (printing == NULL)
    {
      *why = g_strdup (error->message);
      eng_card_set_free (set);
      return FALSE;
    }
  VisStickerCounts counts;
  status = vis_set_sticker_texts (set, printing, &self->texts, &self->n_texts, &counts);
  eng_printing_free (printing);
  vis_set_sheet_title (set, self->title, sizeof self->title);
  eng_card_set_free (set);
  self->options = (VisSheetOptions) { VIS_PAPER_A4, VIS_STICKER_DEFAULT_MM, self->title };
  if (status == ENG_OK)
    status = vis_sheet_plan (&self->options, self->texts, self->n_texts, &self->plan);
  if (status != ENG_OK)
    {
      *why = g_strdup (eng_status_to_string (status));
      g_clear_pointer (&self->texts, free);
      return FALSE;
    }
  /* Translators: the sheets' contents: pages, stickers, then what they are for. */
  g_autofree char *summary = g_strdup_printf (_ ("%d pages, %zu stickers: %zu card faces, %zu card backs, "
                                                 "%zu table anchors, %zu seat markers, %zu command cards; "
                                                 "%.0f mm wide, on A4 paper."),
                                              self->plan.n_pages, self->n_texts, counts.faces, counts.backs,
                                              counts.anchors, counts.seats, counts.commands,
                                              self->options.sticker_mm);
  gtk_label_set_text (self->summary, summary);
  return TRUE;
}

gboolean
ui_stickers_dialog_save (UiStickersDialog *self, const char *path, GError **error)
{
  g_return_val_if_fail (UI_IS_STICKERS_DIALOG (self), FALSE);
  if (self->texts == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _ ("No stickers to save"));
      return FALSE;
    }
  g_autofree char *tmp = g_strdup_printf ("%s.XXXXXX", path);
  int fd = g_mkstemp (tmp);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path, g_strerror (saved));
      return FALSE;
    }
  close (fd);
  EngStatus status = vis_sheet_write_pdf (tmp, &self->options, self->texts, self->n_texts, NULL);
  /* g_mkstemp made it private; a sheet is an ordinary document */
  if (status != ENG_OK || g_chmod (tmp, 0644) != 0 || g_rename (tmp, path) != 0)
    {
      g_unlink (tmp);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path,
                   status != ENG_OK ? eng_status_to_string (status) : g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

static void
on_save_response (GtkNativeDialog *chooser, int response, UiStickersDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr (GError) error = NULL;
      g_autofree char *text = NULL;
      if (path != NULL && ui_stickers_dialog_save (self, path, &error))
        /* Translators: the file the sheets went to. */
        text = g_strdup_printf (_ ("Saved to %s. Print it at 100 %% (actual size): the bar on each page must measure 50 mm."), path);
      else
        text = g_strdup_printf (_ ("Stickers not saved: %s"), error ? error->message : _ ("not a local file"));
      gtk_label_set_text (self->status, text);
    }
  g_object_unref (chooser);
  g_object_unref (self);
}

static void
save_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiStickersDialog *self = UI_STICKERS_DIALOG (widget);
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new (_ ("Save the sticker sheets"), GTK_WINDOW (self),
                                                               GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Save"), _ ("_Cancel"));
  g_autofree char *name = g_strdup_printf ("%s-stickers.pdf", self->game);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect (chooser, "response", G_CALLBACK (on_save_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
on_draw_page (GtkPrintOperation *operation, GtkPrintContext *context, int page, UiStickersDialog *self)
{
  /* the operation's unit is mm and its origin the paper's corner, as the PDF's */
  vis_sheet_draw_page (gtk_print_context_get_cairo_context (context), &self->options, self->texts,
                       self->n_texts, page + 1);
}

/* Runs a print operation at actual size: the sheets carry their own
 * margins and the 50 mm bar to check the scale.  `export_path` with
 * GTK_PRINT_OPERATION_ACTION_EXPORT writes what the printer would get. */
static GtkPrintOperationResult
run_print (UiStickersDialog *self, GtkPrintOperationAction action, const char *export_path, GError **error)
{
  g_autoptr (GtkPrintOperation) operation = gtk_print_operation_new ();
  g_autoptr (GtkPageSetup) page_setup = gtk_page_setup_new ();
  GtkPaperSize *paper = gtk_paper_size_new (self->options.paper == VIS_PAPER_LETTER
                                              ? GTK_PAPER_NAME_LETTER : GTK_PAPER_NAME_A4);
  gtk_page_setup_set_paper_size (page_setup, paper);
  gtk_paper_size_free (paper);
  gtk_print_operation_set_default_page_setup (operation, page_setup);
  gtk_print_operation_set_n_pages (operation, self->plan.n_pages);
  gtk_print_operation_set_unit (operation, GTK_UNIT_MM);
  gtk_print_operation_set_use_full_page (operation, TRUE);
  gtk_print_operation_set_job_name (operation, self->title);
  if (export_path != NULL)
    gtk_print_operation_set_export_filename (operation, export_path);
  g_signal_connect (operation, "draw-page", G_CALLBACK (on_draw_page), self);
  return gtk_print_operation_run (operation, action, GTK_WINDOW (self), error);
}

gboolean
ui_stickers_dialog_print_to_pdf (UiStickersDialog *self, const char *path, GError **error)
{
  g_return_val_if_fail (UI_IS_STICKERS_DIALOG (self), FALSE);
  if (self->texts == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _ ("No stickers to save"));
      return FALSE;
    }
  return run_print (self, GTK_PRINT_OPERATION_ACTION_EXPORT, path, error) != GTK_PRINT_OPERATION_RESULT_ERROR;
}

static void
print_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  UiStickersDialog *self = UI_STICKERS_DIALOG (widget);
  g_autoptr (GError) error = NULL;
  if (run_print (self, GTK_PRINT_OPERATION_ACTION_PRINT_DIALOG, NULL, &error) == GTK_PRINT_OPERATION_RESULT_ERROR)
    {
      g_autofree char *text = g_strdup_printf (_ ("Stickers not printed: %s"), error->message);
      gtk_label_set_text (self->status, text);
    }
}

static void
ui_stickers_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), UI_TYPE_STICKERS_DIALOG);
  G_OBJECT_CLASS (ui_stickers_dialog_parent_class)->dispose (object);
}

static void
ui_stickers_dialog_finalize (GObject *object)
{
  UiStickersDialog *self = UI_STICKERS_DIALOG (object);
  free (self->texts);
  g_free (self->game);
  G_OBJECT_CLASS (ui_stickers_dialog_parent_class)->finalize (object);
}

static void
ui_stickers_dialog_class_init (UiStickersDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = ui_stickers_dialog_dispose;
  G_OBJECT_CLASS (klass)->finalize = ui_stickers_dialog_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tablero/Tablero/ui-stickers-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, UiStickersDialog, summary);
  gtk_widget_class_bind_template_child (widget_class, UiStickersDialog, status);
  gtk_widget_class_bind_template_child (widget_class, UiStickersDialog, preview);
  gtk_widget_class_install_action (widget_class, "stickers.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "stickers.print", NULL, print_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
ui_stickers_dialog_init (UiStickersDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

UiStickersDialog *
ui_stickers_dialog_new (GtkWindow *parent, const char *game)
{
  UiStickersDialog *self = g_object_new (UI_TYPE_STICKERS_DIALOG, "transient-for", parent, NULL);
  if (parent != NULL)
    gtk_window_set_application (GTK_WINDOW (self), gtk_window_get_application (parent));
  self->game = g_strdup (game);
  g_autofree char *why = NULL;
  if (!load_stickers (self, &why))
    {
      g_autofree char *text = g_strdup_printf (_ ("This game's stickers cannot be made: %s"), why);
      gtk_label_set_text (self->summary, text);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "stickers.save", FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "stickers.print", FALSE);
      return self;
    }
  g_autoptr (GdkTexture) page = render_first_page (self);
  gtk_picture_set_paintable (self->preview, GDK_PAINTABLE (page));
  gtk_label_set_text (self->status, _ ("Page 1 as it prints. Print at 100 % (actual size, no “fit to page”), then stick one sticker on each card as its title says."));
  return self;
}

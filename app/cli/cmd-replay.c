/* tablero-cli replay [--continue] [--verbose] RECORD: applies a game record and prints
 * every event as a JSON line.  Exit 0: the whole record is legal; 1: an
 * illegal line (the first, or with --continue every one, is reported and
 * replay goes on); 2: bad usage, or a malformed record (line and reason). */
#include "cli.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-record.h"
#include "eng-replay.h"

typedef struct {
  const EngSetup *setup;
  const EngRuleDocs *details;   /* --verbose: the rules, else NULL */
} Sink;

static void
print_event (void *user, unsigned line, const EngEvent *event)
{
  Sink *s = user;
  g_autoptr (GString) json = g_string_new (NULL);
  cli_event_json (json, event, s->setup, line, s->details);
  printf ("%s\n", json->str);
}

static int
malformed (const char *file, unsigned line, const char *reason)
{
  char buf[600];
  GString *js = g_string_new ("{\"event\":\"malformed\",\"line\":");
  g_string_append_printf (js, "%u,\"reason\":\"", line);
  for (const char *p = reason; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (js, '\\');
      if ((unsigned char) *p < 0x20)
        continue;
      g_string_append_c (js, *p);
    }
  g_string_append (js, "\"}");
  printf ("%s\n", js->str);
  g_string_free (js, TRUE);
  snprintf (buf, sizeof buf, "%s", reason);
  cli_say ("replay", "%s:%u: %s", file, line, buf);
  return 2;
}

int
cli_cmd_replay (int argc, char **argv)
{
  gboolean keep_going = FALSE, verbose = FALSE;
  const GOptionEntry entries[] = {
    { "continue", 0, 0, G_OPTION_ARG_NONE, &keep_going, N_("Go on after an illegal move"), NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose,
      N_("Add each rule's name and explanation to the events that name one"), NULL },
    G_OPTION_ENTRY_NULL
  };
  int rc = cli_parse_options ("replay", "RECORD",
                              N_("Referees a game record (docs/record-format.md), one JSON line an event.\n"),
                              entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  if (argc != 2)
    {
      fprintf (stderr, "%s tablero-cli replay [--continue] [--verbose] RECORD\n", _("usage:"));
      cli_try_help ("replay");
      return 2;
    }
  const char *path = argv[1];
  EngParseError err = { 0 };
  EngRecord *rec = NULL;
  if (eng_record_load_file (path, &rec, &err) != ENG_OK)
    return malformed (path, err.line, err.reason);

  g_autofree char *set_path = cli_card_set_path (rec->klass->name);
  g_autofree char *rel = g_strdup_printf ("rules/%s.options", rec->klass->name);
  g_autofree char *opt_path = cli_data_path (rel);
  EngCardSet *set = NULL;
  if (set_path == NULL || eng_card_set_load_file (set_path, &set, &err) != ENG_OK)
    {
      cli_say ("replay", _("card set %s:%u: %s"), err.source, err.line, err.reason);
      eng_record_free (rec);
      return 2;
    }
  if (rec->set_id[0] != '\0' && strcmp (rec->set_id, eng_card_set_id (set)) != 0)
    {
      char reason[128];
      /* English: the reason is also the JSON line's "reason" */
      snprintf (reason, sizeof reason, "the record is for card set %s, the installed set is %s",
                rec->set_id, eng_card_set_id (set));
      eng_card_set_free (set);
      eng_record_free (rec);
      return malformed (path, 0, reason);
    }
  EngOptions opts = { 0 };
  if (eng_options_load_file (opt_path, &opts, &err) != ENG_OK)
    {
      cli_say ("replay", _("options %s:%u: %s"), err.source, err.line, err.reason);
      eng_card_set_free (set);
      eng_record_free (rec);
      return 2;
    }
  Sink sink = { &rec->setup, verbose ? eng_rule_docs_load_game (rec->klass->name) : NULL };
  EngReplayResult res;
  EngVerdict why = { "", "" };
  EngStatus st = eng_replay (rec, set, &opts, keep_going, false, print_event, &sink, &res, &why);
  int code;
  if (st != ENG_OK)
    code = malformed (path, 0, why.reason[0] ? why.reason : eng_status_to_string (st));
  else
    {
      printf ("{\"event\":\"end\",\"moves\":%zu,\"applied\":%zu,\"illegal\":%zu,"
              "\"first_illegal_line\":%u,\"over\":%s}\n",
              rec->n_moves, res.applied, res.illegal, res.first_illegal_line,
              res.over ? "true" : "false");
      if (res.illegal > 0)
        cli_say ("replay", _("%s:%u: illegal move (%zu in all)"), path, res.first_illegal_line, res.illegal);
      code = res.illegal > 0 ? 1 : 0;
    }
  eng_rule_docs_free ((EngRuleDocs *) sink.details);
  eng_card_set_free (set);
  eng_record_free (rec);
  return code;
}

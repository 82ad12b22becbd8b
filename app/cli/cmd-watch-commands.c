/* tablero-cli watch --commands: what the table says, typed on standard
 * input one command a line, read between frames without blocking them. */
#include "cmd-watch-private.h"
#include "cli-commands.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

void
command_input_init (CommandInput *in, bool enabled)
{
  *in = (CommandInput) { .pending = g_string_new (NULL), .held_frame = -1, .open = enabled };
  if (enabled)
    fcntl (STDIN_FILENO, F_SETFL, fcntl (STDIN_FILENO, F_GETFL) | O_NONBLOCK);
}

void
command_input_clear (CommandInput *in)
{
  g_string_free (in->pending, TRUE);
  g_free (in->held);
}

char *
command_input_next (CommandInput *in, long frames_done)
{
  while (in->held == NULL)
    {
      in->held = cli_commands_take_line (in->pending, !in->open, &in->held_frame);
      if (in->held != NULL)
        continue;
      if (!in->open)
        return NULL;
      char buf[256];
      ssize_t n = read (STDIN_FILENO, buf, sizeof buf);
      if (n > 0)
        g_string_append_len (in->pending, buf, n);
      else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
        in->open = false;
      else
        return NULL;
    }
  if (in->held_frame >= frames_done)
    return NULL;
  char *line = in->held;
  in->held = NULL;
  return line;
}

void
watch_run_command_line (EngInterpreter *interp, const EngCardSet *set, const EngSetup *setup,
                        const char *line, EngEvents *events)
{
  CliCommand cmd;
  g_autofree char *why = NULL;
  if (!cli_command_parse (line, set, setup, &cmd, &why))
    {
      cli_say ("watch", "%s", why);
      return;
    }
  EngStatus st;
  if (cmd.kind == CLI_COMMAND_CORRECT)
    st = eng_interpreter_correct_card (interp, cmd.seen, cmd.actual[0] ? cmd.actual : NULL, events);
  else if (cmd.kind == CLI_COMMAND_CHOOSE)
    st = eng_interpreter_choose_player (interp, cmd.player, events);
  else
    st = eng_interpreter_command (interp, cmd.id, events);
  if (st == ENG_ERR_NOT_FOUND)
    cli_say ("watch", _("'%s': no such command in this game's card set"), line);
  else if (st == ENG_ERR_STATE)
    cli_say ("watch", _("'%s': nobody is being asked to choose now"), line);
  else if (st == ENG_ERR_INVALID_ARGUMENT)
    cli_say ("watch", _("'%s': not two faces of the same deck"), line);
  else if (st != ENG_OK)
    cli_say ("watch", "'%s': %s", line, eng_status_to_string (st));
}

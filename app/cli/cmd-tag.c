/* Placeholder until its issue lands: says so and fails, never pretends. */
#include "cli.h"

#include <stdio.h>

int
cli_cmd_tag (int argc, char **argv)
{
  (void) argc;
  fprintf (stderr, "tablero-cli %s: not implemented yet\n", argv[0]);
  return 2;
}

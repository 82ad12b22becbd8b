#include "cli.h"

#include <stdio.h>
#include <string.h>

int
cli_cmd_bench (int argc, char **argv)
{
  if (argc >= 2 && strcmp (argv[1], "engine") == 0)
    return cli_bench_engine (argc - 1, argv + 1);
  if (argc >= 2 && strcmp (argv[1], "history") == 0)
    return cli_bench_history (argc - 1, argv + 1);
#ifdef TABLERO_HAVE_VISION
  if (argc >= 2 && strcmp (argv[1], "vision") == 0)
    return cli_bench_vision (argc - 1, argv + 1);
  if (argc >= 2 && strcmp (argv[1], "latency") == 0)
    return cli_bench_latency (argc - 1, argv + 1);
#endif
  fprintf (stderr, "%s tablero-cli bench engine|history|vision|latency [OPTIONS]\n", _("usage:"));
  return 2;
}

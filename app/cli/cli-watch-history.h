/* cli-watch-history.h: `tablero-cli watch` keeps the history
 * (docs/history.md, "Live games"): what it says goes out as JSON lines of
 * kind "history", and nothing it does stops the referee. */
#pragma once

#include "eng-interpreter.h"
#include "hst-recorder.h"

/* After each batch of events, before the journal is written: stamps the
 * game's identity, notes refusals, says what went wrong (once). */
void cli_watch_history_observe (HstRecorder *recorder, EngInterpreter *interp, const EngEvents *events);

/* When the referee stops: writes the game (when it has a move) and says
 * where as {"kind":"history","ok":true,"id":N,"result":"added",...}. */
void cli_watch_history_finish (HstRecorder *recorder, EngInterpreter *interp);

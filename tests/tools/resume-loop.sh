#!/usr/bin/env bash
# Kill-and-resume loop: the proof of "nothing is lost" under load.
#
#   tests/tools/resume-loop.sh [-n RUNS] [-g GAME] [-l LOADERS] [-s SEED] [-w WORKDIR]
#
# Renders GAME's demo at 5 fps with sensor noise, referees it once (the
# reference), then RUNS times: starts `tablero-cli watch --record` on the
# frames, kills it (SIGKILL) at a random moment, waits a random restart gap
# of 0.2-3 s and resumes the journal on the frames the camera shows from the
# kill on (the frames of the gap included, so a card played while the referee
# was down is seen only as it lies afterwards).  LOADERS busy processes
# compete for the CPU all along.  A run passes when the resumed journal is the
# reference record, move for move.  Prints one line per run and a total; exits
# 1 if any run differs.
set -euo pipefail
runs=50 game=katua loaders=2 seed=1 work=""
while getopts "n:g:l:s:w:" o; do
  case $o in
    n) runs=$OPTARG ;; g) game=$OPTARG ;; l) loaders=$OPTARG ;; s) seed=$OPTARG ;; w) work=$OPTARG ;;
    *) sed -n 2,15p "$0"; exit 2 ;;
  esac
done
here=$(cd "$(dirname "$0")/../.." && pwd)
cli=${TABLERO_CLI:-$here/build/app/tablero-cli}
export TABLERO_DATADIR=${TABLERO_DATADIR:-$here/data}
[ -x "$cli" ] || { echo "resume-loop: no $cli (build first)" >&2; exit 2; }
[ -n "$work" ] || work=$(mktemp -d /tmp/tablero-resume-loop-XXXXXX)
mkdir -p "$work"
cd "$work"
RANDOM=$seed
fps=5

loader_pids=()
cleanup() { for p in "${loader_pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
for ((i = 0; i < loaders; i++)); do (while :; do :; done) & loader_pids+=($!); done

if [ ! -f frames.done ]; then
  "$cli" scene "$TABLERO_DATADIR/games/demo-$game.script" -o game.scene --fps $fps --degrade noise >/dev/null
  rm -rf frames && "$cli" render game.scene -o frames >/dev/null
  touch frames.done
fi
start_ns=$(date +%s%N)
"$cli" watch --game "$game" --source file:frames --fps $fps --record reference.record >reference.jsonl
ref_ms=$((($(date +%s%N) - start_ns) / 1000000))
total=$(grep -c '"event":"accepted"' reference.jsonl || true)
n_frames=$(ls frames | grep -c '^frame-')
echo "reference: $total moves over $n_frames frames in $ref_ms ms"

same=0 skipped=0
for ((run = 1; run <= runs; run++)); do
  rm -f journal.record journal.record.* out.jsonl
  rm -rf rest && mkdir rest
  # a kill anywhere in the game: the reference's own pace under this load
  kill_ms=$((300 + (RANDOM * 32768 + RANDOM) % (ref_ms * 95 / 100)))
  "$cli" watch --game "$game" --source file:frames --fps $fps --record journal.record >out.jsonl 2>/dev/null &
  pid=$!
  sleep "$(printf '%d.%03d' $((kill_ms / 1000)) $((kill_ms % 1000)))"
  kill -KILL $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  # the last frame the killed referee got to, from its own output
  seen=$(grep -o '"kind":"frame","frame":[0-9]*' out.jsonl | tail -1 | grep -o '[0-9]*$' || echo 0)
  gap_ms=$((200 + RANDOM % 2800))
  sleep "$(printf '%d.%03d' $((gap_ms / 1000)) $((gap_ms % 1000)))"
  from=$((seen + 1 + gap_ms * fps / 1000))
  i=0
  for f in $(ls frames | grep '^frame-' | sort); do
    [ $i -ge $from ] && ln -s "$work/frames/$f" "rest/$f"
    i=$((i + 1))
  done
  moves_at_kill=0
  [ -f journal.record ] && moves_at_kill=$(grep -cvE '^(game|player|first|seed|option|setup|[#@]|$)' journal.record || true)
  if [ -z "$(ls rest)" ]; then
    verdict="skipped (killed after the last frame)"
    skipped=$((skipped + 1))
  elif [ ! -f journal.record ]; then
    verdict="skipped (killed before the first journal write)"
    skipped=$((skipped + 1))
  else
    "$cli" watch --source file:rest --fps $fps --resume journal.record >resumed.jsonl 2>resumed.err || true
    if cmp -s <(grep -vE '^[#@]' reference.record) <(grep -vE '^[#@]' journal.record); then
      verdict=same
      same=$((same + 1))
    else
      verdict="DIFFERS: $(grep -c '"event":"accepted"' resumed.jsonl || true) moves after resume, $(grep -c '"event":"illegal"\|"event":"need"' resumed.jsonl || true) complaints"
      cp journal.record "differs-$run.record"
      cp resumed.jsonl "differs-$run.jsonl"
    fi
  fi
  echo "run $run: killed at ${kill_ms} ms (frame $seen, $moves_at_kill moves journaled), gap ${gap_ms} ms, resumed from frame $from: $verdict"
done
echo "resume-loop: $same of $((runs - skipped)) resumed runs gave the reference record, $skipped skipped ($game, $loaders loaders, work $work)"
[ "$same" -eq "$((runs - skipped))" ]

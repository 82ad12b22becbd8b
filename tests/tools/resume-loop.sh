#!/usr/bin/env bash
# Kill-and-resume loop: the proof of "nothing is lost, nothing invented"
# under load.
#
#   tests/tools/resume-loop.sh [-n RUNS] [-g GAME] [-l LOADERS] [-s SEED] [-w WORKDIR] [-G MAX_GAP_MS]
#
# Renders GAME's demo at 5 fps with sensor noise and referees it once (the
# reference).  Then RUNS times: starts `tablero-cli watch --record` on the
# frames and kills it (SIGKILL) at a point taken from the journal's
# progress, not from the clock, so that every run kills mid-game however
# loaded the machine is:
#   move N      when the journal first holds N moves (N < the game's moves);
#   look        K more rewrites of the journal after N moves (the looks of
#               the table between two moves), and a few ms more;
#   write       while a write of the journal is under way (its temporary
#               file beside it; writes are slowed down by the journal-fault
#               shim when it is built, so that a kill can land there).
# It then waits a random restart gap of 0 to MAX_GAP_MS (default 3000) and
# resumes the journal on the frames the camera shows from then on (the
# frames of the gap skipped: a card played while the referee was down is
# seen only as it lies afterwards; after the film's last frame the table
# stays as it is for 4 s more, as a real table does).  LOADERS busy processes compete for the
# CPU all along.  Each run is one of:
#   same        the resumed journal holds the reference's moves;
#   unseen      the reference's moves, but for a Catchy! swap recorded with
#               no place (`Bea swap`): made during the gap, face down for face
#               down, its place left no trace (docs/interpreter.md);
#   question    it holds the first of them and the referee stopped at a
#               question the table can answer ("... Confirm, or cancel"),
#               or at a command card shown during the gap that it asks the
#               table to show again (the reference's next move is one a
#               command card makes);
#   differs     it holds the first of them, and nothing was asked;
#   INVENTED    it holds a move the reference does not have there;
#   untested    the kill landed before the journal existed or after the
#               game's last move: the run tested nothing (said, not counted).
# Prints one line per run and the counts; exits 1 if any run differs or
# invents.
set -euo pipefail
runs=50 game=katua loaders=1 seed=1 work="" max_gap=3000
while getopts "n:g:l:s:w:G:" o; do
  case $o in
    n) runs=$OPTARG ;; g) game=$OPTARG ;; l) loaders=$OPTARG ;; s) seed=$OPTARG ;;
    w) work=$OPTARG ;; G) max_gap=$OPTARG ;;
    *) sed -n 2,37p "$0"; exit 2 ;;
  esac
done
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${TABLERO_BUILD:-$here/build}
cli=${TABLERO_CLI:-$build/app/tablero-cli}
shim=$build/tests/app/libjournal-fault.so
export TABLERO_DATADIR=${TABLERO_DATADIR:-$here/data}
[ -x "$cli" ] || { echo "resume-loop: no $cli (build first)" >&2; exit 2; }
[ -n "$work" ] || work=$(mktemp -d /tmp/tablero-resume-loop-XXXXXX)
mkdir -p "$work"
cd "$work"
RANDOM=$seed
fps=5

loader_pids=() watch_pid=""
cleanup() {
  for p in "${loader_pids[@]}" $watch_pid; do kill "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
for ((i = 0; i < loaders; i++)); do (while :; do :; done) & loader_pids+=($!); done

if [ ! -f frames.done ]; then
  "$cli" scene "$TABLERO_DATADIR/games/demo-$game.script" -o game.scene --fps $fps --degrade noise >/dev/null
  rm -rf frames && "$cli" render game.scene -o frames >/dev/null
  touch frames.done
fi
"$cli" watch --game "$game" --source file:frames --fps $fps --record reference.record >reference.jsonl
moves_of() { grep -vE '^(#|@|game |set |option |player |first |last-winner |seed |deal |$)' "$1" || true; }
moves_of reference.record >reference.moves
total=$(wc -l <reference.moves)
n_frames=$(ls frames | grep -c '^frame-')
echo "reference: $total moves over $n_frames frames ($game)"
[ "$total" -gt 0 ] || { echo "resume-loop: the reference made no move" >&2; exit 2; }

rand() { echo $(((RANDOM * 32768 + RANDOM) % $1)); }
# the poll below runs no program unless the journal changed: it must not
# take the CPU from the referee it watches
exec {sleeper}<> <(:)
nap() { read -r -t "$1" -u "$sleeper" _ || true; }

same=0 unseen=0 question=0 differs=0 invented=0 untested=0
# the moves with a swap's place left out
placeless() { sed -E 's/^([^ ]+ swap)( .*)?$/\1/' "$1"; }
for ((run = 1; run <= runs; run++)); do
  rm -rf journal.record journal.record.* out.jsonl rest resumed.jsonl resumed.err
  mkdir rest
  touch -d '2000-01-01' stamp
  mode=$(rand 3) target=$(rand "$total") looks=$(($(rand 4) + 1))
  env_shim=()
  if [ "$mode" = 2 ] && [ -f "$shim" ]; then
    # writes of the journal take 200 ms more: a kill can land inside one
    env_shim=(env LD_PRELOAD="$shim" TABLERO_FAULT_DIR="$work" TABLERO_FAULT=slow
              ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}verify_asan_link_order=0")
  fi
  "${env_shim[@]}" "$cli" watch --game "$game" --source file:frames --fps $fps \
    --record journal.record >out.jsonl 2>/dev/null &
  watch_pid=$!
  # the kill point, from the journal's progress
  rewrites=0 point="" n=-1   # no journal yet: no kill point
  while kill -0 $watch_pid 2>/dev/null; do
    # a rewrite of the journal (a rename: a newer file)
    if [[ journal.record -nt stamp ]]; then
      touch -r journal.record stamp
      n=$(moves_of journal.record | wc -l)
      [ "$n" -ge "$target" ] && rewrites=$((rewrites + 1))
    fi
    case $mode in
      0) [ "$n" -ge "$target" ] && point="after move $n" ;;
      1) [ "$n" -ge "$target" ] && [ "$rewrites" -gt "$looks" ] && point="look $looks after move $target" ;;
      2) [ "$n" -ge "$target" ] && compgen -G "journal.record.??????" >/dev/null && point="during a write after move $n" ;;
    esac
    [ -n "$point" ] && break
    nap 0.01
  done
  [ "$mode" = 1 ] && [ -n "$point" ] && sleep "0.0$(rand 10)"
  kill -KILL $watch_pid 2>/dev/null || true
  wait $watch_pid 2>/dev/null || true
  watch_pid=""
  # the frame the killed referee had reached: its last frame line, or the
  # newest card time of its last look (notes 'r' lines, ns of frame time)
  printed=$(grep -o '"kind":"frame","frame":[0-9]*' out.jsonl | tail -1 | grep -o '[0-9]*$' || echo 0)
  looked=0
  [ -f journal.record ] && looked=$(awk '$1 == "@table" && $2 == "r" { t = $9 / 1e9 * '$fps'; if (t > m) m = t } END { printf "%d", m }' journal.record)
  reached=$((printed > looked ? printed : looked))
  gap_ms=$(rand $((max_gap + 1)))
  sleep "$(printf '%d.%03d' $((gap_ms / 1000)) $((gap_ms % 1000)))"
  from=$((reached + 1 + gap_ms * fps / 1000))
  ls frames | grep '^frame-' | sort | tail -n +$((from + 1)) | while read -r f; do ln -s "$work/frames/$f" "rest/$f"; done
  # the table stays as the film leaves it (4 s more of its last frame), as a
  # real table does: a restart just before the film's end still sees it rest
  if [ -n "$(ls rest)" ]; then
    last=$(ls frames | grep '^frame-' | sort | tail -1) n_frames=$(ls frames | grep -c '^frame-')
    for ((h = 0; h < 4 * fps; h++)); do
      ln -s "$work/frames/$last" "rest/$(printf 'frame-%05d.%s' $((n_frames + h)) "${last##*.}")"
    done
  fi
  moves_at_kill=0
  [ -f journal.record ] && moves_at_kill=$(moves_of journal.record | wc -l)
  left=$(compgen -G "journal.record.??????" | wc -l || true)
  verdict=""
  if [ -z "$point" ] || [ "$moves_at_kill" -ge "$total" ] || [ -z "$(ls rest)" ]; then
    verdict="untested (killed after the game's last move)"
  elif [ ! -f journal.record ]; then
    verdict="untested (killed before the journal existed)"
  fi
  if [ -n "$verdict" ]; then
    untested=$((untested + 1))
  else
    "$cli" watch --source file:rest --fps $fps --resume journal.record >resumed.jsonl 2>resumed.err || true
    leftover=$(compgen -G "journal.record.??????" | wc -l || true)
    moves_of journal.record >resumed.moves
    got=$(wc -l <resumed.moves)
    if cmp -s reference.moves resumed.moves; then
      verdict=same same=$((same + 1))
    elif cmp -s <(placeless reference.moves) <(placeless resumed.moves); then
      verdict="unseen (the swap's place: $(grep ' swap' resumed.moves))" unseen=$((unseen + 1))
    elif [ "$got" -le "$total" ] && cmp -s resumed.moves <(head -n "$got" reference.moves); then
      next=$(sed -n "$((got + 1))p" reference.moves | awk '{print $2}')
      asked=$(grep '"event":"need"' resumed.jsonl | tail -1 | grep -c 'Confirm, or cancel' || true)
      if [ "$asked" -gt 0 ] || [[ " end pass discard draw resolve explode " == *" $next "* ]]; then
        verdict="question (stopped before '$(sed -n "$((got + 1))p" reference.moves)')"
        question=$((question + 1))
      else
        verdict="DIFFERS (stopped before '$(sed -n "$((got + 1))p" reference.moves)', nothing asked)"
        differs=$((differs + 1))
      fi
    else
      verdict="INVENTED: $(diff reference.moves resumed.moves | grep '^>' | head -3 | tr '\n' ' ')"
      invented=$((invented + 1))
    fi
    [ "$verdict" = same ] || { cp journal.record "run-$run.record"; cp resumed.jsonl "run-$run.jsonl"; }
    [ "$left" -gt 0 ] && verdict="$verdict; the write killed left $left temporary file(s), $leftover after the restart"
  fi
  echo "run $run: killed $point ($moves_at_kill moves journaled, frame $reached), gap $gap_ms ms, resumed from frame $from: $verdict"
done
echo "resume-loop ($game, $runs runs, gaps 0-$max_gap ms, $loaders loaders): same $same, unseen swap place $unseen, question $question, differs $differs, invented $invented, untested $untested (work $work)"
[ "$differs" -eq 0 ] && [ "$invented" -eq 0 ]

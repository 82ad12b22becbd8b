#!/bin/sh
# screenshots.sh: the app as a family sees it, on real screens.  For each
# screen size and language it starts an X server of that size (Xvfb) with a
# real window manager (openbox), runs the built app on the bundled demo
# tables and saves, per scene, the whole screen (FILE-screen.png, the
# window manager's placing and sizing included) beside the app's own
# picture of its window (FILE.png) and of any dialog (FILE-dialog-N.png).
#
#   tests/tools/screenshots.sh [BUILD_DIR] [OUT_DIR]
#   meson compile -C build screenshots      (the same, into build/screenshots)
#
# SIZES (default "1280x720 1920x1080") and LANGS (default "en es ca") choose
# the screens and languages; SCENES a subset of the scenes below.  Needs
# Xvfb, openbox and xprop (Debian xvfb, openbox, x11-utils); x-shot (built
# from tests/tools/x-shot.c) saves the screen.  Look at the pictures: this
# script checks only that each one was made.
set -eu

build=${1:-build}
out=${2:-$build/screenshots}
sizes=${SIZES:-1280x720 1920x1080}
langs=${LANGS:-en es ca}
scenes=${SCENES:-katua-mid katua-end catchy-mid catchy-end kittens-mid kittens-end escoba-mid escoba-end table setup rules first-run resume}
src=$(cd "$(dirname "$0")/../.." && pwd)
app=$build/app/gui/tablero
shot=$build/tests/tools/x-shot
for tool in Xvfb openbox xprop "$app" "$shot"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "screenshots.sh: $tool not found" >&2; exit 2; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=$(cd "$build" && pwd)
app=$build/app/gui/tablero
shot=$build/tests/tools/x-shot

server=
wm=
state=
stop() {
  [ -n "$wm" ] && kill "$wm" 2>/dev/null && wait "$wm" 2>/dev/null || true
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  [ -n "$state" ] && rm -rf "$state"
  wm= server= state=
}
trap stop EXIT INT TERM

# The demo games' lengths (data/scenes/demo-*-game.scene, 10 frames a
# second): "mid" is about a third in, "end" just past the last move
# (Escoba's: just past the first round's count).
frames() {
  case $1 in
    katua-mid) echo 140 ;; katua-end) echo 380 ;;
    catchy-mid) echo 150 ;; catchy-end) echo 420 ;;
    kittens-mid) echo 100 ;; kittens-end) echo 260 ;;
    escoba-mid) echo 500 ;; escoba-end) echo 1480 ;;
    *) echo 30 ;;
  esac
}

for size in $sizes; do
  # one X server and window manager per screen size, waited for (the
  # display number Xvfb picks, then the manager's check window)
  fifo=$(mktemp -u)
  mkfifo "$fifo"
  Xvfb -displayfd 3 -screen 0 "${size}x24" -nolisten tcp 3>"$fifo" >/dev/null 2>&1 &
  server=$!
  read -r display <"$fifo"
  rm -f "$fifo"
  export DISPLAY=":$display"
  openbox >/dev/null 2>&1 &
  wm=$!
  tries=0
  until xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id'; do
    tries=$((tries + 1))
    [ $tries -lt 200 ] || { echo "screenshots.sh: openbox did not start on $DISPLAY" >&2; exit 1; }
    sleep 0.1
  done
  for lang in $langs; do
    for scene in $scenes; do
      state=$(mktemp -d)
      game=${scene%%-*}
      # the film stops at the scene's frame: the picture is that moment of
      # the game, however slow the machine
      args="--screenshot-freeze --screenshot-frames $(frames "$scene")"
      case $scene in
        table) args="--game katua --source demo --screenshot-page table --screenshot-freeze --screenshot-frames 140" ;;
        table-*) args="--game ${scene#table-} --source demo --screenshot-page table --screenshot-freeze --screenshot-frames 140" ;;
        setup) args="--game kittens --source demo --screenshot-page setup" ;;
        setup-*) args="--game ${scene#setup-} --source demo --screenshot-page setup" ;;
        rules) args="--game katua --source demo --screenshot-page rules" ;;
        rules-*) args="--game ${scene#rules-} --source demo --screenshot-page rules" ;;
        first-run) args="--game katua --screenshot-page first-run" ;;
        resume)
          # a game the app stopped in: the first moves of the Katua demo
          mkdir -p "$state/tablero"
          head -n 12 "$src/data/games/demo-katua.rec" >"$state/tablero/journal.record"
          args="--game katua --source demo"
          ;;
        *) args="--game $game --source demo $args" ;;
      esac
      file=$out/$size-$lang-$scene.png
      rm -f "$out/$size-$lang-$scene"*.png
      # shellcheck disable=SC2086
      env LC_ALL=C.UTF-8 LANGUAGE="$lang" XDG_STATE_HOME="$state" GSETTINGS_BACKEND=memory \
        GSETTINGS_SCHEMA_DIR="$build/data" TABLERO_DATADIR="$src/data" TABLERO_LOCALEDIR="$build/po" \
        TABLERO_SCREENSHOT_HOOK="$shot" NO_AT_BRIDGE=1 \
        "$app" $args --screenshot "$file" >"$out/$size-$lang-$scene.log" 2>&1 \
        || echo "screenshots.sh: $size $lang $scene failed (see $out/$size-$lang-$scene.log)" >&2
      [ -f "${file%.png}-screen.png" ] && echo "$size $lang $scene: ${file%.png}-screen.png"
      rm -rf "$state"
      state=
    done
  done
  stop
done

#!/bin/sh
# run-fuzzer.sh FUZZER CORPUS: runs a libFuzzer target for a bounded time on a
# scratch copy of its seed corpus, so the committed corpus never changes.
set -eu
fuzzer=$1
seeds=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -d "$seeds" ] && cp -r "$seeds"/. "$work"/ 2>/dev/null || true
# libFuzzer's own exit code for a crash is 77, which meson reads as "skipped":
# a finding must fail the test.
exec "$fuzzer" -max_total_time="${TABLERO_FUZZ_SECONDS:-30}" -timeout=10 \
  -error_exitcode=1 -timeout_exitcode=1 -rss_limit_mb=2048 -print_final_stats=1 "$work"

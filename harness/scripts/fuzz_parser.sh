#!/usr/bin/env bash
# make fuzz-parser: run the parser's libFuzzer target for SECONDS, from a seed corpus of every
# vector in the project and the malformed-input cases. A crash, hang, leak or wrong status is
# written as build/fuzz-parser/crash-* (libFuzzer's artifact) and fails the run; turn each into
# a tests/malformed case once fixed.
# usage: fuzz_parser.sh DIR SECONDS [EXECS]   (stops at SECONDS or after EXECS inputs, first)
set -u
cd "$(dirname "$0")/../.."
dir=${1:?dir}; secs=${2:?seconds}; execs=${3:--1}
mkdir -p "$dir/corpus" "$dir/start"
for f in vectors/*/*/*.vec tests/malformed/*.vec; do cp "$f" "$dir/start/$(echo "$f" | tr / _)"; done
echo "fuzz-parser: $secs s or $execs inputs (-1: no bound), starting from $(ls "$dir/start" | wc -l) vectors and malformed cases ($dir/start); corpus $dir/corpus"
# Inputs up to 8 KiB: every statement form fits, and long golden vectors would only slow it.
"$dir/fuzz_vec" -max_total_time="$secs" -runs="$execs" -max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$dir/" "$dir/corpus" "$dir/start" 2>&1 | tee "$dir/fuzz.log" \
  | grep -E '^#[0-9]+ +(INITED|DONE)|stat::|ERROR|SUMMARY|Test unit written' || true
rc=${PIPESTATUS[0]}
if [ "$rc" -ne 0 ]; then
  echo "fuzz-parser: FAIL (exit $rc); see $dir/fuzz.log and the crash-* files in $dir"
  exit 1
fi
# The parser's line coverage under the fuzz: the final corpus replayed once through the same
# target built with source coverage on the parser and the families' words.
rm -f "$dir/cov.profraw"
LLVM_PROFILE_FILE="$dir/cov.profraw" "$dir/fuzz_vec_cov" -runs=0 -max_len=8192 "$dir/corpus" "$dir/start" \
  >"$dir/cov.log" 2>&1
llvm-profdata-14 merge -o "$dir/cov.profdata" "$dir/cov.profraw"
echo "fuzz-parser: line coverage of the parser over the corpus ($(ls "$dir/corpus" | wc -l) inputs):"
llvm-cov-14 report "$dir/fuzz_vec_cov" -instr-profile="$dir/cov.profdata" harness/core/vec.c harness/rnp/rnp_word.c harness/sci/sci_word.c \
  | awk 'BEGIN {printf "  %-22s %6s %7s %8s\n", "file", "lines", "missed", "covered"}
         /\.c |^TOTAL/ {printf "  %-22s %6s %7s %8s\n", $1, $8, $9, $10}'
echo "fuzz-parser: PASS, no finding"

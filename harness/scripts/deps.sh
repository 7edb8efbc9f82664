#!/usr/bin/env bash
# Install what ftsim needs from Debian packages, only what is missing.
# Run as root it installs; otherwise it prints the one command to run and fails.
# Usage: deps.sh [--check] [fuzz|coverage]   (--check: report only, never install; fuzz: also
#        what make fuzz-parser needs, clang and its libFuzzer runtime; coverage: also what make
#        coverage needs, lcov (lcov, genhtml; gcov comes with gcc, verilator_coverage with
#        Verilator))
set -u
check=""; extra=""
for a in "$@"; do
  case "$a" in --check) check=1 ;; fuzz) extra=fuzz ;; coverage) extra=coverage ;; *) echo "deps: unknown argument $a" >&2; exit 2 ;; esac
done

# command-or-file : Debian package
need=(
  "verilator:verilator"
  "iverilog:iverilog"
  "gtkwave:gtkwave"
  "fst2vcd:gtkwave"
  "xvfb-run:xvfb"
  "python3:python3"
  "gcc:gcc"
  "g++:g++"
  "file:/usr/include/zlib.h:zlib1g-dev"
  "file:/usr/bin/python3:python3"
)
[ "$extra" = coverage ] && need+=("lcov:lcov" "genhtml:lcov" "gcov:gcc" "verilator_coverage:verilator")
[ "$extra" = fuzz ] && need+=("clang-14:clang-14" "file:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-14-dev")

missing=()
for item in "${need[@]}"; do
  case "$item" in
    file:*) rest=${item#file:}; path=${rest%%:*}; pkg=${rest#*:}
            [ -e "$path" ] || missing+=("$pkg") ;;
    *)      cmd=${item%%:*}; pkg=${item#*:}
            command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg") ;;
  esac
done

# The plots use Debian's own python3 (a python3 earlier on PATH may not see Debian's packages).
[ -x /usr/bin/python3 ] && ! /usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1 && missing+=("python3-matplotlib")

# de-duplicate
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | awk 'NF && !seen[$0]++')
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
if [ -n "$check" ]; then
  echo "deps: missing: ${missing[*]}"; exit 1
fi
if [ "$(id -u)" != 0 ]; then
  echo "deps: missing Debian packages: ${missing[*]}" >&2
  echo "deps: run as root:  $cmd" >&2
  exit 1
fi
echo "deps: installing ${missing[*]} (Debian packages)"
apt-get update -qq </dev/null >/dev/null && \
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null || {
    echo "deps: apt-get install failed; run: $cmd" >&2; exit 1; }
echo "deps: installed ${missing[*]}"

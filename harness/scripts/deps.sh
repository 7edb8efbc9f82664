#!/usr/bin/env bash
# Install what ftsim needs from Debian packages, only what is missing.
# Run as root it installs; otherwise it prints the one command to run and fails.
# Usage: deps.sh [--check] [fuzz] [systemc] [coverage] [cluster] [eda]   (--check: report only, never install;
#        fuzz: also what make fuzz-parser needs, clang, its libFuzzer runtime and llvm-cov;
#        systemc: also the SystemC kernel and its TLM-2.0 headers, for build/ftsim-sc; coverage:
#        also what make coverage needs, lcov (lcov, genhtml; gcov comes with gcc,
#        verilator_coverage with Verilator); cluster: also what make cluster-check needs, Slurm
#        (slurmctld, slurmd, sbatch), munge and GNU parallel; eda: also what make equiv needs
#        besides the pinned Yosys, ABC (berkeley-abc))
set -u
check=""; fuzz=""; systemc=""; coverage=""; cluster=""; eda=""
for a in "$@"; do
  case "$a" in
    --check) check=1 ;; fuzz) fuzz=1 ;; systemc) systemc=1 ;; coverage) coverage=1 ;;
    cluster) cluster=1 ;; eda) eda=1 ;;
    *) echo "deps: unknown argument $a" >&2; exit 2 ;;
  esac
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
  "file:/usr/include/json-c/json.h:libjson-c-dev"
  "file:/usr/bin/python3:python3"
)
[ -n "$fuzz" ] && need+=("clang-14:clang-14" "file:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-14-dev" "llvm-cov-14:llvm-14")
[ -n "$coverage" ] && need+=("lcov:lcov" "genhtml:lcov" "gcov:gcc" "verilator_coverage:verilator")
[ -n "$cluster" ] && need+=("slurmctld:slurmctld" "slurmd:slurmd" "sbatch:slurm-client" "munged:munge" "parallel:parallel")
[ -n "$eda" ] && need+=("berkeley-abc:berkeley-abc")
[ -n "$systemc" ] && need+=("file:/usr/include/systemc.h:libsystemc-dev" "file:/usr/include/tlm.h:libsystemc-dev")

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

# The cocotb test bench's venv (make cocotb-venv) is made by Debian's python3, which needs
# python3-venv for it (ensurepip; PEP 668 leaves the system interpreter to Debian).
[ -x /usr/bin/python3 ] && ! /usr/bin/python3 -c 'import ensurepip, venv' >/dev/null 2>&1 && missing+=("python3-venv")

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

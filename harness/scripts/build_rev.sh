#!/usr/bin/env bash
# Build revision REV of this repository in a scratch folder, for `make bench BASE=REV`.
# usage: build_rev.sh REV DIR   -> DIR/<sha>/src (a clean export of REV) with its own build/;
#                                  writes the binary's path to DIR/ftsim.path
# A revision already built there is reused.
set -euo pipefail
cd "$(dirname "$0")/../.."
rev=${1:?usage: build_rev.sh REV DIR}; dir=${2:?usage: build_rev.sh REV DIR}
sha=$(git rev-parse --verify --quiet "$rev^{commit}") || { echo "bench: BASE=$rev is not a revision of this repository" >&2; exit 2; }
src=$dir/$sha/src
if [ ! -x "$src/build/ftsim" ]; then
  echo "bench: building $rev ($sha) in $src"
  rm -rf "$src"; mkdir -p "$src"
  git archive "$sha" | tar -x -C "$src"
  make -C "$src" -s -j"${JOBS:-2}" build > "$dir/$sha/build.log" 2>&1 || {
    echo "bench: building $rev failed; see $dir/$sha/build.log" >&2; tail -20 "$dir/$sha/build.log" >&2; exit 1; }
fi
echo "$(cd "$src" && pwd)/build/ftsim" > "$dir/ftsim.path"

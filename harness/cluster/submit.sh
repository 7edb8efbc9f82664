#!/bin/bash
# submit.sh: an ftsim campaign as a Slurm job array of N shards (shards.sbatch), and a merge
# job that runs once every task has ended, however it ended.
#   harness/cluster/submit.sh [--tasks LIST] PREFIX N COMMAND [ARG...]
# From the checkout's root. Prints the array's job id and the merge's. The merge writes the
# report into PREFIX.txt and what went wrong into PREFIX.err (a failed shard, named with its K
# and the command that runs it again); --tasks K submits only those tasks (a shard run again),
# then the merge.
set -eu
tasks=""
[ "${1:-}" = --tasks ] && { tasks=$2; shift 2; }
if [ "${1:-}" = --help ]; then sed -n '2,8s/^# \{0,1\}//p' "$0"; exit 0; fi
if [ $# -lt 3 ]; then echo "submit.sh: PREFIX N COMMAND expected (--help)" >&2; exit 2; fi
prefix=$1 n=$2
shift 2
mkdir -p "$(dirname "$prefix")"
job=$(sbatch --parsable --array="${tasks:-1-$n}" --output="$prefix-%a.log" \
  harness/cluster/shards.sbatch "$prefix" "$n" "$@")
merge=$(sbatch --parsable --dependency=afterany:"$job" --output="$prefix.txt" \
  --error="$prefix.err" --wrap "build/ftsim merge $(printf %q "$prefix")-*.shard")
echo "$job $merge"

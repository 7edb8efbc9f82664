#!/usr/bin/env bash
# cluster_check.sh: ftsim campaigns as Slurm job arrays on a real one-node Slurm of this machine,
# and with GNU parallel, merged to the bytes of one process (make cluster-check).
#   harness/cluster/cluster_check.sh [--help]     (as root, from the checkout's root, after make)
# Installs Slurm, munge and GNU parallel from Debian where missing (deps.sh cluster), writes a
# one-node slurm.conf for this machine under build/cluster/ (CPUs and memory as slurmd -C reads
# them), starts its own munged, slurmctld and slurmd (own key, ports, state, spool and pid
# files), and for a faultcheck and an upset campaign: the run whole (the reference); the array
# of shards (harness/cluster/submit.sh) and the merge job, each shard recording its Slurm ids;
# in the upset array one task is cancelled (scancel) part way: the merge names it with the
# command that runs it again, and that task run again alone completes the merge; the same
# shards with GNU parallel. Each check is shown failing once on a broken input. Stops every
# daemon it (or the package install) started, also when a step fails. Exit 0 all passed,
# 1 a check failed, 2 not root or bad arguments. Environment: CLUSTER_PORT (slurmctld's port,
# default 16817; slurmd takes the next).
set -u -o pipefail
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then sed -n '2,15s/^# \{0,1\}//p' "$0"; exit 0; fi
if [ $# -gt 0 ]; then echo "cluster-check: unknown argument '$1' (--help)" >&2; exit 2; fi
if [ "$(id -u)" != 0 ]; then
  echo "cluster-check: needs root (it installs Slurm and starts munged, slurmctld and slurmd);" \
       "run: sudo make cluster-check" >&2
  exit 2
fi
cd "$(dirname "$0")/../.." || exit 2
[ -x build/ftsim ] || { echo "cluster-check: build/ftsim missing: run make first" >&2; exit 2; }

D=$PWD/build/cluster            # everything this cluster keeps
R=build/cluster/run             # the campaigns' files (relative: the jobs run in the checkout)
N=3                             # shards per campaign
FC=(faultcheck --torus 3x3 --quiet)                          # 15 runs, every single fault
UP=(upset --campaign lc3-regs --runs 12 --confirm 0)        # 12 upsets of a node's registers
PORT=${CLUSTER_PORT:-16817}
daemons() { for d in munged slurmctld slurmscriptd slurmd slurmstepd; do pgrep -x "$d"; done; }
export SLURM_CONF=$D/slurm.conf
T0=$(date +%s)
say() { echo "cluster-check: [$(( $(date +%s) - T0 )) s] $*"; }
FAILS=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; FAILS=$((FAILS + 1)); }
die() { echo "cluster-check: $*" >&2; FAILS=$((FAILS + 1)); exit 1; }

# ---- the daemons: what runs before we start, and stopping ours whatever happens ----------
before=$(pgrep -f "$D"; daemons)
before=$(echo $before)
ours() { # the daemons this run started (or the package install did): new since it began
  for p in $(daemons; pgrep -f "$D"); do
    case " $before " in *" $p "*) ;; *) echo "$p" ;; esac
  done | sort -u
}
stop_all() {
  trap - EXIT INT TERM
  if [ -f "$D/slurmctld.pid" ] && command -v scancel >/dev/null; then
    timeout 10 scancel --quiet --full -u root 2>/dev/null
  fi
  for f in "$D/slurmd.pid" "$D/slurmctld.pid" "$D/munge/munged.pid"; do
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
  done
  for _ in $(seq 50); do [ -z "$(ours)" ] && break; sleep 0.2; done
  local left; left=$(ours)
  [ -n "$left" ] && kill -9 $left 2>/dev/null && sleep 0.5
  left=$(ours)
  if [ -n "$left" ]; then
    echo "FAIL daemons still running: $(ps -o pid=,comm= -p "$left" | tr '\n' ' ')"; FAILS=$((FAILS + 1))
  else
    echo "ok   no Slurm or munge daemon of this check left running"
  fi
  say "$FAILS check(s) failed"
  [ "$FAILS" = 0 ] && { echo "PASS make cluster-check"; exit 0; }
  echo "FAIL make cluster-check"; exit 1
}
trap stop_all EXIT
trap 'echo "cluster-check: interrupted"; FAILS=$((FAILS + 1)); exit 1' INT TERM
for f in "$D/slurmd.pid" "$D/slurmctld.pid" "$D/munge/munged.pid"; do # a previous run's
  [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
done

say "Debian packages (harness/scripts/deps.sh cluster)"
services() { # the munge and Slurm services systemd runs, if it runs
  [ -d /run/systemd/system ] || return 0
  for u in munge slurmctld slurmd; do systemctl is-active --quiet "$u" 2>/dev/null && echo "$u"; done
}
services_before=$(services)
bash harness/scripts/deps.sh cluster || die "cannot install Slurm, munge and GNU parallel"
# Debian's postinst may start munge or Slurm services: stop those now (ours start below)
for u in $(services); do
  case " $(echo $services_before) " in *" $u "*) ;; *) say "stopping $u, which the install started"
    systemctl stop "$u" ;; esac
done
installed=$(ours)
[ -n "$installed" ] && { say "stopping what the install started: $installed"; kill $installed; sleep 1; }

# ---- a one-node Slurm of this machine ------------------------------------------------------
say "configuring a one-node Slurm in $D"
rm -rf "$D" && mkdir -p "$D/munge" "$D/state" "$D/spool" "$R" || die "cannot make $D"
chmod 755 "$D/munge"            # munged wants its socket's folder open to all, its key not
machine=$(slurmd -C | head -1)  # NodeName=... CPUs=... RealMemory=...
host=$(sed -n 's/.*NodeName=\([^ ]*\).*/\1/p' <<<"$machine")
cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$machine")
mem=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$machine")
[ -n "$host" ] && [ -n "$cpus" ] && [ -n "$mem" ] || die "slurmd -C gave '$machine'"
sed -e "s|@DIR@|$D|g" -e "s|@HOST@|$host|g" -e "s|@CTLD_PORT@|$PORT|" \
    -e "s|@SLURMD_PORT@|$((PORT + 1))|" -e "s|@CPUS@|$cpus|" -e "s|@MEM@|$mem|" \
    harness/cluster/slurm.conf.in > "$SLURM_CONF" || die "cannot write $SLURM_CONF"
say "node $host: $cpus CPUs, $mem MB; slurmctld on port $PORT, slurmd on $((PORT + 1))"
(umask 077 && head -c 1024 /dev/urandom > "$D/munge/munge.key") || die "cannot write a munge key"
munged --socket="$D/munge/munge.socket" --key-file="$D/munge/munge.key" \
  --pid-file="$D/munge/munged.pid" --log-file="$D/munge/munged.log" \
  --seed-file="$D/munge/munged.seed" || die "munged did not start: $D/munge/munged.log"
slurmctld -f "$SLURM_CONF" || die "slurmctld did not start: $D/slurmctld.log"
slurmd -f "$SLURM_CONF" || die "slurmd did not start: $D/slurmd.log"
for _ in $(seq 60); do [ "$(sinfo -h -n "$host" -o %T 2>/dev/null)" = idle ] && break; sleep 0.5; done
[ "$(sinfo -h -n "$host" -o %T 2>/dev/null)" = idle ] ||
  die "node $host not idle: $(sinfo 2>&1); see $D/slurmctld.log, $D/slurmd.log"
say "Slurm up: $(sinfo -h -o '%P %a %D %T %N' | head -1)"

# ---- the checks ------------------------------------------------------------------------------
# the report of one process, and its exit status; faultcheck's closing wall time (`; N s`,
# merged the sum of the shards') is the one figure that cannot be the same
whole() { build/ftsim "$@" > "$R/$NAME-whole.txt"; echo $? > "$R/$NAME-whole.rc"; }
same_report() { # FILE RC WHAT: FILE and RC are the run whole's report and exit status
  if cmp -s <(sed -E '$s/; [0-9]+ s$/; - s/' "$1") <(sed -E '$s/; [0-9]+ s$/; - s/' "$R/$NAME-whole.txt") &&
     [ "$2" = "$(cat "$R/$NAME-whole.rc")" ]; then
    return 0
  fi
  echo "     $1 (exit $2) differs from the run whole (exit $(cat "$R/$NAME-whole.rc")):"
  diff <(sed -E '$s/; [0-9]+ s$/; - s/' "$1") "$R/$NAME-whole.txt" | head -5 | sed 's/^/     /'
  return 1
}
# every shard PREFIX-1..N ran as task K of Slurm array job JOB (its `slurm` header line)
in_slurm() { # PREFIX JOB
  local k line
  for k in $(seq "$N"); do
    line=$(grep -m1 '^slurm ' "$1-$k.shard" 2>/dev/null)
    if ! [[ "$line" =~ ^slurm\ SLURM_JOB_ID=[0-9]+\ SLURM_ARRAY_JOB_ID=$2\ SLURM_ARRAY_TASK_ID=$k$ ]]; then
      echo "     $1-$k.shard: not task $k of Slurm array job $2: '${line:-no slurm line}'"
      return 1
    fi
  done
}
wait_job() { # JOB: until it has ended; prints its state and exit code
  for _ in $(seq 1200); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && break
    sleep 0.25
  done
  scontrol -o show job "$1" | sed -n 's/.*JobState=\([A-Z_]*\).*ExitCode=\([0-9]*\):.*/\1 \2/p' | head -1
}

# A campaign through Slurm: the array and the merge job (submit.sh), then the checks.
# CANCEL=K: task K is cancelled once it has written a run, the merge must name it, and the
# task run again alone must complete it.
slurm_campaign() { # NAME ARGS...
  NAME=$1; shift
  local p="$R/slurm/$NAME" ids job merge st
  say "$NAME: the run whole: build/ftsim $*"
  whole "$@"
  say "$NAME: $N shards as a Slurm job array: harness/cluster/submit.sh $p $N $*"
  read -r job merge < <(harness/cluster/submit.sh "$p" "$N" "$@") || { bad "$NAME: sbatch"; return; }
  if [ -n "${CANCEL:-}" ]; then
    for _ in $(seq 1200); do grep -qs '^run ' "$p-$CANCEL.shard" && break; sleep 0.05; done
    scancel "${job}_$CANCEL"
    st=$(wait_job "${job}_$CANCEL")
    say "$NAME: task $CANCEL cancelled part way: $st, $(grep -c '^run ' "$p-$CANCEL.shard") run(s) in its shard"
    [ "${st%% *}" = CANCELLED ] && ok "$NAME: task ${job}_$CANCEL cancelled while running" ||
      bad "$NAME: task ${job}_$CANCEL was to be cancelled while running, but it ended $st"
    st=$(wait_job "$merge")
    local named; named=$(grep -E "shard $CANCEL/$N (failed|missing).*: ftsim " "$p.err")
    if [ "${st#* }" = 2 ] && [ -n "$named" ]; then
      ok "$NAME: the merge names the cancelled shard and how to run it again (exit 2):"
      echo "     $named"
    else
      bad "$NAME: the merge ($st) does not name shard $CANCEL/$N: $(cat "$p.err")"
    fi
    local k; k=$(sed -En "s#.*shard ([0-9]+)/$N (failed|missing).*#\1#p" "$p.err" | head -1)
    [ -n "$k" ] || { bad "$NAME: no shard named in $p.err"; return; }
    say "$NAME: shard $k run again alone: harness/cluster/submit.sh --tasks $k $p $N $*"
    read -r job merge < <(harness/cluster/submit.sh --tasks "$k" "$p" "$N" "$@")
    st=$(wait_job "$merge")
    [ "$(wait_job "$job")" = "COMPLETED 0" ] && in_slurm "$p" "[0-9]+" &&
      grep -qs "SLURM_ARRAY_JOB_ID=$job SLURM_ARRAY_TASK_ID=$k\$" "$p-$k.shard" &&
      ok "$NAME: task $k ran again (job $job), in Slurm" || bad "$NAME: task $k run again: $(cat "$p-$k.log")"
  else
    st=$(wait_job "$merge")
    [ "$(wait_job "$job")" = "COMPLETED 0" ] && in_slurm "$p" "$job" &&
      ok "$NAME: every shard ran in Slurm as its task of array job $job" ||
      bad "$NAME: a task of array job $job failed or ran outside Slurm"
  fi
  same_report "$p.txt" "${st#* }" && ok "$NAME: merge job (${st% *}) == the run whole, byte for byte" ||
    bad "$NAME: merged through Slurm != the run whole"
}

# The same shards with GNU parallel on this machine.
parallel_campaign() { # NAME ARGS...
  NAME=$1; shift
  local p="$R/parallel/$NAME"
  mkdir -p "$R/parallel"
  say "$NAME: $N shards with GNU parallel"
  parallel --will-cite -j "$cpus" "build/ftsim $(printf '%q ' "$@")--shard {}/$N > $p-{}.shard" \
    ::: $(seq "$N") || { bad "$NAME: parallel"; return; }
  build/ftsim merge "$p"-*.shard > "$p.txt" 2> "$p.err"
  same_report "$p.txt" "$?" && ok "$NAME: GNU parallel's shards merged == the run whole, byte for byte" ||
    bad "$NAME: GNU parallel's shards merged != the run whole: $(cat "$p.err")"
}

slurm_campaign faultcheck "${FC[@]}"
CANCEL=2 slurm_campaign upset "${UP[@]}"
parallel_campaign faultcheck "${FC[@]}"
parallel_campaign upset "${UP[@]}"

# ---- each check fails once, on a broken input ------------------------------------------------
say "each check on a broken input (each must fail)"
x=$R/broken; mkdir -p "$x"
NAME=faultcheck
job=$(sed -n 's/.*SLURM_ARRAY_JOB_ID=\([0-9]*\).*/\1/p' "$R/slurm/faultcheck-1.shard")
cp "$R/slurm/faultcheck"-*.shard "$x/"
build/ftsim "${FC[@]}" --shard "2/$N" > "$x/faultcheck-2.shard"  # shard 2 outside Slurm
in_slurm "$x/faultcheck" "$job" > /dev/null && bad "a shard run outside Slurm passes" ||
  ok "a shard run outside Slurm is refused"
cp "$R/slurm/faultcheck-2.shard" "$x/"
sed -i '0,/^run /s/^run \([0-9]*\) {/run \1 [/' "$x/faultcheck-3.shard"  # a record made no JSON
build/ftsim merge "$x"/faultcheck-*.shard > "$x/m.txt" 2> "$x/m.err"
rc=$?
[ $rc = 2 ] && grep -q "faultcheck-3.shard" "$x/m.err" && ok "a corrupted shard is refused (exit 2): $(head -1 "$x/m.err")" ||
  bad "a corrupted shard: merge exit $rc: $(cat "$x/m.err")"
sed '1s/^/x/' "$R/faultcheck-whole.txt" > "$x/m.txt"
same_report "$x/m.txt" "$(cat "$R/faultcheck-whole.rc")" > /dev/null && bad "a report one byte off passes" ||
  ok "a report one byte off is refused"
same_report "$R/faultcheck-whole.txt" 9 > /dev/null && bad "another exit status passes" ||
  ok "another exit status is refused"
# stop_all (the EXIT trap) stops the daemons and says whether any is left

#!/usr/bin/env bash
# capacity.sh N [LABS] [--room]: how many people one broker holds, and what it costs the broker.
# Runs N participants at once, each `scripts/lab.sh --only LABS` (default 1,2,3) with its files
# in logs/capacity/capI, then prints one line a participant (held, or where its failure is) and
# a last line `capacity: N participants, K held every statement, W s, load average up to L;
# broker: C CPU s, C/N CPU s a participant, peak memory M MB (heap H MB)`. Exits 0 only if
# every variant held.
#
#   (default)  participants without logins (KRB_NS=capI), on the broker on KRB_BOOTSTRAP
#              (default localhost:9481); it starts none
#   --room     participants of the room scripts/room.sh started (KRB_ROOM_DIR, default room/):
#              adds those of cap1 to capN not in it yet (room.sh add), and runs each with its
#              handout capI.env sourced (KRB_BOOTSTRAP, KRB_NS, KRB_CONFIG)
#
# The broker's own cost, apart from the workers', over the labs (not the adding): the Java
# process listening on the bootstrap's first port on this machine; its CPU seconds (utime and
# stime of /proc/PID/stat), its peak resident memory (VmHWM of /proc/PID/status, reset at the
# start) and its peak heap in use (jstat, read every 5 s). A broker in Docker or on another
# machine is not measured. The load average is this machine's highest 1-minute one, read every 5 s.
#
# Every participant's workers run on this machine, as a room's would on forty laptops: past some
# N this machine's CPU, not the broker, is what breaks first. The workshop page says what was
# measured, on which machine.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh
bin=$(krb_bin "$PWD")
die() { echo "capacity.sh: $*" >&2; exit 2; }

room=0 args=()
for arg in "$@"; do
  case $arg in
    --room) room=1 ;;
    -*) die "unknown option $arg (see --help)" ;;
    *) args+=("$arg") ;;
  esac
done
case ${#args[@]} in 1 | 2) ;; *) die "usage: capacity.sh N [LABS] [--room]" ;; esac
n=${args[0]} labs=${args[1]:-1,2,3}
[[ $n =~ ^[1-9][0-9]*$ ]] || die "N is a count of participants, got $n"
[[ $labs =~ ^[1-8](,[1-8])*$ ]] || die "LABS is a list of lab numbers such as 1,2,3, got $labs"
root=logs/capacity
rm -rf "$root"
mkdir -p "$root"

bootstrap=${KRB_BOOTSTRAP:-localhost:9481}
if [ "$room" = 1 ]; then
  dir=${KRB_ROOM_DIR:-room}
  [ -s "$dir/admin.properties" ] || die "no room in $dir: start one first (scripts/room.sh start)"
  new=()
  for i in $(seq 1 "$n"); do [ -f "$dir/cap$i.env" ] || new+=("cap$i"); done
  if [ ${#new[@]} -gt 0 ]; then
    echo "capacity: adding ${#new[@]} participant(s) to the room in $dir (room.sh add, output in $root/add.out)"
    scripts/room.sh add "${new[@]}" >"$root/add.out"
  fi
  # shellcheck source=/dev/null
  bootstrap=$(source "$dir/cap1.env" && echo "$KRB_BOOTSTRAP")
fi

# The broker: the Java process that listens on the bootstrap's first port here.
port=${bootstrap%%,*} port=${port##*:}
pid=$(ss -Hltnp "sport = :$port" | awk -F 'pid=' '/"java"/ { split($2, f, ","); print f[1]; exit }')
[ -n "$pid" ] || echo "capacity: no Java process listens on port $port here: the broker's cost is not measured"
# cpu_ticks: the broker's CPU time so far, user and system, in clock ticks (fields 14 and 15 of
# its stat, counted after the command's name, which may hold spaces).
cpu_ticks() {
  local stat fields
  stat=$(<"/proc/$pid/stat")
  read -r -a fields <<<"${stat##*) }"
  echo $((fields[11] + fields[12]))
}

echo "capacity: $n participant(s) at once, lab.sh --only $labs each, files in $root/"
samplers=()
trap '[ ${#samplers[@]} = 0 ] || kill "${samplers[@]}" 2>/dev/null || true' EXIT
(while sleep 5; do cut -d ' ' -f 1 /proc/loadavg; done) >"$root/load" &
samplers+=($!)
if [ -n "$pid" ]; then
  ticks=$(cpu_ticks)
  echo 5 2>/dev/null >"/proc/$pid/clear_refs" ||
    die "cannot reset the broker's peak memory (/proc/$pid/clear_refs): run this as the broker's user"
  jstat -gc "$pid" 5s >"$root/heap" 2>&1 &
  samplers+=($!)
fi
start=$(date +%s)
pids=()
for i in $(seq 1 "$n"); do
  (
    if [ "$room" = 1 ]; then
      # shellcheck source=/dev/null
      source "$dir/cap$i.env"
    else
      export KRB_NS=cap$i
    fi
    KRB_LOGS=$root/cap$i exec scripts/lab.sh --only "$labs"
  ) >"$root/cap$i.out" 2>&1 &
  pids+=($!)
done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=1; done
wall=$(($(date +%s) - start))
load=$(awk 'max < $1 { max = $1 } END { print max }' "$root/load" /proc/loadavg)
broker="not measured"
if [ -n "$pid" ] && [ -d "/proc/$pid" ]; then
  cpu=$(awk -v t="$(($(cpu_ticks) - ticks))" -v hz="$(getconf CLK_TCK)" -v n="$n" \
    'BEGIN { printf "%.1f CPU s, %.2f CPU s a participant", t / hz, t / hz / n }')
  rss=$(awk '/^VmHWM:/ { printf "%d", $2 / 1024 }' "/proc/$pid/status")
  # jstat's columns by name: the heap in use is the survivor, eden and old spaces' (KB).
  heap=$(awk '$1 == "S0C" { for (i = 1; i <= NF; i++) c[$i] = i; next }
    c["OU"] && $1 ~ /^[0-9]/ { u = $c["S0U"] + $c["S1U"] + $c["EU"] + $c["OU"]; if (u > max) max = u }
    END { if (max) printf "heap %d MB", max / 1024; else printf "heap not read" }' "$root/heap")
  broker="$cpu, peak memory $rss MB ($heap)"
elif [ -n "$pid" ]; then
  broker="pid $pid exited during the run (see its log)"
fi

# Each participant's verdicts as krb-verify recorded them; its table says which did not hold.
ok=0
for i in $(seq 1 "$n"); do
  records=$root/cap$i/results.jsonl
  if [ ! -f "$records" ]; then
    echo "cap$i: FAILED, no results (see $root/cap$i.out)"
  elif "$bin/krb-verify" table "$records" >"$root/cap$i.table"; then
    echo "cap$i: held every statement"
    ok=$((ok + 1))
  else
    echo "cap$i: FAILED (see $root/cap$i.table and $root/cap$i.out)"
  fi
done
echo "capacity: $n participants, $ok held every statement, $wall s, load average up to $load; broker: $broker"
[ "$failed" = 0 ] && [ "$ok" = "$n" ]

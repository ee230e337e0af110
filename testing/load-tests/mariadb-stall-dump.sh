#!/usr/bin/env bash
# Dumps what MariaDB's threads wait for while its commit count stands still (the stalls in
# docs/performance.md's "Known not met"). mariadb-watch.sh samples the sessions' statements; this one takes, only during a
# standstill, what a sample cannot show: where each thread of mariadbd waits in the kernel.
#
#   testing/load-tests/mariadb-stall-dump.sh OUTDIR SECONDS [MAX_DUMPS]      e.g. start it beside LoadRun
#
# One mysql client polls Com_commit and Threads_running every 200 ms. Once the commit count has not
# moved for 400 ms while at least 5 threads run (a pause between LoadRun's phases has one or two),
# every poll until it moves again writes, up to MAX_DUMPS (default 15) in all:
#   OUTDIR/N.sessions  the time, and every session that is not sleeping: its OS thread id (TID),
#                      state, time in it and statement;
#   OUTDIR/N.disk      each block device's counters and its requests in flight (/sys/block);
#   OUTDIR/N.uring     each io_uring of mariadbd (InnoDB's asynchronous I/O): the submission and
#                      completion rings' heads and tails (/proc/<pid>/fdinfo), and how many io-wq
#                      worker threads (iou-wrk) the kernel runs for it. When InnoDB counts writes
#                      pending while both rings stand at the same position (everything submitted
#                      was completed and taken) and no device has a request in flight, the kernel
#                      holds none of them: the wait is inside mariadbd;
#   OUTDIR/N.threads   (the first 3 polls of a standstill) each thread of mariadbd: TID, state, kernel
#                      wait channel, the system call with its arguments (a futex's address names the
#                      lock word a thread waits on) and its kernel stack (/proc: needs root and
#                      mariadbd on this machine, else the script says so once at its start);
#   OUTDIR/N.innodb    (the first poll of a standstill) SHOW ENGINE INNODB STATUS (pending writes,
#                      the log, the transactions);
#   OUTDIR/N.stacks    (the first poll of a standstill, only with GDB_STACKS=1) every thread's
#                      user-space stack from gdb: the frames around each wait (mariadbd exports the
#                      server layer's and InnoDB's thread pool's symbols, few of InnoDB's own).
#                      gdb stops mariadbd while it reads them (a second or so), inside a standstill
#                      that stops it anyway, but it lengthens that run's stall: off by default.
#   OUTDIR/tpool.trace (only with TPOOL_TRACE=1, written at the end) the kernel's trace of InnoDB's
#                      thread pool (tpool), from uprobes on three functions mariadbd exports: each
#                      tick of its maintenance timer (which adds a worker when queued tasks make no
#                      progress: 400 ms apart, or 4 s once the pool has looked idle for a minute),
#                      each worker it adds and each switch of the timer (state 0 = the 4 s period,
#                      1 = 400 ms), with a marker at each standstill's start and end.
#                      Needs root, tracefs at /sys/kernel/tracing with uprobe events, nm and readelf;
#                      a few events a second, no measurable cost. At the end it also prints one line
#                      from it: the ticks, the share of the time they came 4 s apart, and when the
#                      pool added a worker (runs are compared by these).
# A thread dump reads /proc from one awk process, not a process per thread: it still costs some CPU,
# so only the first polls of a standstill take one. Connects as root without a password to DB_HOST
# (127.0.0.1) and DB_PORT (3306), the variables the services read.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 OUTDIR SECONDS [MAX_DUMPS]" >&2
  exit 2
fi
out=$1
seconds=$2
max_dumps=${3:-15}
if ! [[ $seconds =~ ^[0-9]+$ && $max_dumps =~ ^[0-9]+$ ]] || [ "$max_dumps" -lt 1 ]; then
  echo "SECONDS must be a whole number and MAX_DUMPS one of at least 1 (got '$seconds', '$max_dumps')" >&2
  exit 2
fi
if [ "${GDB_STACKS:-0}" = 1 ] && ! command -v gdb > /dev/null; then
  echo "GDB_STACKS=1 needs gdb on this machine" >&2
  exit 2
fi
mkdir -p "$out"
# The /proc dumps read mariadbd's process, found once: a restarted server would end the poll's connection.
mariadbd_pid=$(pidof -s mariadbd || true)
if [ -z "$mariadbd_pid" ]; then
  echo "no mariadbd process on this machine: no thread, io_uring or stack dumps (sessions, disks and InnoDB's status only)" >&2
fi
tracefs=/sys/kernel/tracing
tpool_events=mariadb_stall
mysql_args=(--protocol=tcp -h"${DB_HOST:-127.0.0.1}" -P"${DB_PORT:-3306}" -uroot)
first_still_poll=2      # polls with the same commit count as the one before: 2 = 400 ms standing still
last_thread_dump_poll=4 # thread dumps cost CPU: only the first three polls of a standstill take one

# Each thread of mariadbd as the kernel sees it, from one awk process.
thread_dump() {
  date +%T.%N
  ls "/proc/$mariadbd_pid/task" | awk -v dir="/proc/$mariadbd_pid/task" '
    function first_line(file,   line) { line = ""; getline line < file; close(file); return line }
    {
      task = dir "/" $1
      split(first_line(task "/stat"), stat, ") ")
      split(stat[2], fields, " ")
      stack = ""
      while ((getline line < (task "/stack")) > 0) { sub(/^\[<0>\] /, "", line); stack = stack " " line }
      close(task "/stack")
      print $1, fields[1], first_line(task "/wchan"), "|", first_line(task "/syscall"), "|" stack
    }'
}

# mariadbd's io_uring instances: what was submitted and completed, and the kernel's worker threads.
uring_dump() {
  local fd info
  date +%T.%N
  for fd in /proc/"$mariadbd_pid"/fd/*; do
    if [ "$(readlink "$fd" 2>/dev/null)" = "anon_inode:[io_uring]" ]; then
      info=/proc/$mariadbd_pid/fdinfo/${fd##*/}
      echo "fd ${fd##*/}: $(grep -E '^(SqHead|SqTail|CqHead|CqTail|SQEs|CQEs):' "$info" | tr '\t\n' '  ')"
      sed -n '/^CqOverflowList:/,/^NAPI/p' "$info" | grep -v '^NAPI' || true
    fi
  done
  echo "io-wq workers: $(cat /proc/"$mariadbd_pid"/task/*/comm 2>/dev/null | grep -c '^iou-wrk' || true)"
}

# Every thread's user-space stack; gdb stops mariadbd while it reads them.
stack_dump() {
  date +%T.%N
  timeout 30 gdb -p "$mariadbd_pid" -batch -nx -ex "set pagination off" -ex "thread apply all bt 25" 2>&1
  date +%T.%N
}

# The file offset of a function mariadbd exports (a uprobe's address): its address less the address
# of the LOAD segment holding it, plus that segment's offset in the file.
function_offset() {
  local binary=$1 symbol=$2 address type offset vaddr paddr filesz rest
  address=$(nm -D --defined-only "$binary" | awk -v name="$symbol" '$3 == name { print $1; exit }')
  [ -n "$address" ] || return 1
  while read -r type offset vaddr paddr filesz rest; do
    if [ "$type" = LOAD ] && (( 16#$address >= vaddr && 16#$address < vaddr + filesz )); then
      printf '0x%x\n' $((16#$address - vaddr + offset))
      return 0
    fi
  done < <(readelf -lW "$binary")
  return 1
}

start_tpool_trace() {
  local binary maintenance add_thread switch_timer
  binary=$(readlink "/proc/$mariadbd_pid/exe")
  maintenance=$(function_offset "$binary" _ZN5tpool19thread_pool_generic11maintenanceEv) \
    && add_thread=$(function_offset "$binary" _ZN5tpool19thread_pool_generic10add_threadEv) \
    && switch_timer=$(function_offset "$binary" _ZN5tpool19thread_pool_generic12switch_timerENS0_13timer_state_tE) \
    || { echo "$binary does not export tpool's maintenance, add_thread and switch_timer" >&2; exit 2; }
  # The timer's new state is switch_timer's second argument: %si on x86-64.
  {
    echo "p:$tpool_events/maintenance $binary:$maintenance"
    echo "p:$tpool_events/add_thread $binary:$add_thread"
    echo "r:$tpool_events/add_thread_ret $binary:$add_thread created=\$retval:u8"
    echo "p:$tpool_events/switch_timer $binary:$switch_timer state=%si:u32"
  } >> "$tracefs/uprobe_events"
  echo 1 > "$tracefs/events/$tpool_events/enable"
  trap stop_tpool_trace EXIT
  trap 'exit 143' TERM INT # the EXIT trap then runs: the probes do not outlive the script
  trace_mark "trace starts ($$)"
}

# Writes the kernel's trace from this script's start (its events and markers, and those of anyone
# else tracing meanwhile), then removes its probes.
stop_tpool_trace() {
  echo 0 > "$tracefs/events/$tpool_events/enable"
  awk -v start="trace starts ($$)" 'index($0, start) { on = 1 } on && !/^#/' "$tracefs/trace" > "$out/tpool.trace"
  grep "^[pr]:$tpool_events/" "$tracefs/uprobe_events" | sed 's/^[pr]:/-:/; s/ .*//' >> "$tracefs/uprobe_events"
  tpool_summary "$out/tpool.trace"
}

# One line from the trace: the timer's ticks, the share of the time they came 4 s apart, and the
# workers the pool added, in seconds after the trace's start (runs are compared by these).
tpool_summary() {
  awk '/trace starts/ { start = $4 + 0 }
    / maintenance:/ { if (last) { gap = $4 - last; if (gap > 3.5) slow += gap; else fast += gap } last = $4 + 0; ticks++ }
    /add_thread_ret:/ && / created=1$/ { added++; at = at sprintf(" %.1f", $4 - start) }
    END { period = slow + fast > 0 ? sprintf(", %.0f %% of the time 4 s apart", 100 * slow / (slow + fast)) : ""
      printf "tpool: %d ticks%s; %d worker(s) added%s%s\n", ticks, period, added,
        (added ? ", at (s after the start):" : ""), at }' "$1"
}

# A line in the kernel's trace beside the tpool events, with the wall-clock time.
trace_mark() {
  if [ "${TPOOL_TRACE:-0}" = 1 ]; then echo "stall-dump $(date +%T.%N) $1" > "$tracefs/trace_marker"; fi
}

stall_dump() {
  local n=$1 polls_still=$2
  if [ -n "$mariadbd_pid" ]; then uring_dump > "$out/$n.uring" 2>&1 & fi
  (date +%T.%N; for dev in /sys/block/*; do echo "${dev##*/} stat $(<"$dev/stat") inflight $(<"$dev/inflight")"; done) \
    > "$out/$n.disk" 2>&1 &
  mysql "${mysql_args[@]}" -e "select now(6) as at; select id, tid, time_ms, state, left(info, 120) as info
      from information_schema.processlist where command <> 'Sleep' order by time_ms desc" > "$out/$n.sessions" 2>&1 &
  if [ -n "$mariadbd_pid" ] && [ "$polls_still" -le "$last_thread_dump_poll" ]; then
    thread_dump > "$out/$n.threads" 2>&1 &
  fi
  if [ "$polls_still" -eq "$first_still_poll" ]; then
    timeout 20 mysql "${mysql_args[@]}" -e "select now(6); show engine innodb status\G" > "$out/$n.innodb" 2>&1 &
    if [ -n "$mariadbd_pid" ] && [ "${GDB_STACKS:-0}" = 1 ]; then stack_dump > "$out/$n.stacks" 2>&1 & fi
  fi
}

if [ "${TPOOL_TRACE:-0}" = 1 ]; then
  if [ -z "$mariadbd_pid" ] || [ ! -w "$tracefs/uprobe_events" ] || [ "$(uname -m)" != x86_64 ] \
      || ! command -v nm > /dev/null || ! command -v readelf > /dev/null; then
    echo "TPOOL_TRACE=1 needs mariadbd on this x86-64 machine, root, tracefs with uprobe events at $tracefs" \
      "(mount -t tracefs nodev $tracefs), nm and readelf" >&2
    exit 2
  fi
  start_tpool_trace
fi

coproc poller { mysql "${mysql_args[@]}" --unbuffered -N -B; }
exec {never_ready}<> <(:)
previous=""; polls_still=0; dumps=0; standstills=0; deadline=$((SECONDS + seconds))
while [ $SECONDS -lt $deadline ]; do
  echo "select concat(c.variable_value, ' ', r.variable_value) from information_schema.global_status c,
    information_schema.global_status r where c.variable_name = 'COM_COMMIT' and r.variable_name = 'THREADS_RUNNING';" \
    >&"${poller[1]}"
  if ! read -r -u "${poller[0]}" commits running; then
    echo "lost the connection to MariaDB (its message is above)" >&2
    exit 1
  fi
  if [ "$commits" = "$previous" ] && [ "$running" -ge 5 ]; then
    polls_still=$((polls_still + 1))
  else
    if [ "$polls_still" -ge "$first_still_poll" ]; then
      echo "$(date +%T.%N) commits moving again"
      trace_mark "standstill $standstills ends"
    fi
    polls_still=0
  fi
  previous=$commits
  if [ "$polls_still" -eq "$first_still_poll" ]; then
    standstills=$((standstills + 1))
    echo "$(date +%T.%N) commits standing still, $running threads running"
    trace_mark "standstill $standstills starts"
  fi
  if [ "$polls_still" -ge "$first_still_poll" ] && [ "$dumps" -lt "$max_dumps" ]; then
    dumps=$((dumps + 1))
    stall_dump "$dumps" "$polls_still"
  fi
  read -r -t 0.2 -u "$never_ready" _ || true
done
eval "exec ${poller[1]}>&-"  # mysql ends at its input's end
wait
echo "$standstills standstill(s), $dumps dump(s) in $out"

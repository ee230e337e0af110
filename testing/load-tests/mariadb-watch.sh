#!/usr/bin/env bash
# Watches MariaDB several times a second during a benchmark run, to catch what a stall waits for
# (docs/performance.md, "Known not met"): a second in which MariaDB commits nothing and the machine idles is
# too short for SHOW GLOBAL STATUS once a second (LoadRun --per-second) to say more than "it stopped".
#
#   testing/load-tests/mariadb-watch.sh OUT SECONDS [INTERVAL_MS]      e.g. start it 40 s after LoadRun
#
# One mysql client (not one per sample: a client start costs ~10 ms of CPU, several a second would
# disturb what it measures) runs, every INTERVAL_MS (default 200):
#   T <time> <InnoDB counters>         commits, free and dirty pages, reads, fsyncs, checkpoint age, ...
#   P <id> <db> <state> <ms> <sql>     each orderflow_perf_* statement running for over 100 ms
#   X <thread> <state> <started> ...   each transaction open for over a second
#   U <db.table> <last_update>         statistics InnoDB saved for a table in the last second
# into OUT, then prints the spans in which the commit count stood still for 3 samples or more, with
# the statements seen running meanwhile. Connects as root without a password to DB_HOST (127.0.0.1)
# and DB_PORT (3306), the variables the services read.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 OUT SECONDS [INTERVAL_MS]" >&2
  exit 2
fi
out=$1
seconds=$2
interval_ms=${3:-200}
if ! [[ $seconds =~ ^[0-9]+$ && $interval_ms =~ ^[0-9]+$ ]] || [ "$interval_ms" -lt 10 ]; then
  echo "SECONDS must be a whole number and INTERVAL_MS one of at least 10 (got '$seconds', '$interval_ms')" >&2
  exit 2
fi
samples=$(( seconds * 1000 / interval_ms ))
interval_s=$(awk -v ms="$interval_ms" 'BEGIN { printf "%.3f", ms / 1000 }')

# One sample's statements, written once: the loop below only prints them (a builtin, no process per sample).
sample_sql=$(cat <<SQL
select concat('T ', date_format(now(3), '%H:%i:%s.%f'), ' ', group_concat(concat(lower(variable_name), '=', variable_value)
    order by variable_name separator ' ')) from information_schema.global_status
  where variable_name in ('COM_COMMIT', 'INNODB_BUFFER_POOL_PAGES_FREE', 'INNODB_BUFFER_POOL_PAGES_DIRTY',
    'INNODB_BUFFER_POOL_WAIT_FREE', 'INNODB_DATA_READS', 'INNODB_DATA_PENDING_READS', 'INNODB_DATA_PENDING_WRITES',
    'INNODB_DATA_FSYNCS', 'INNODB_CHECKPOINT_AGE', 'INNODB_ROW_LOCK_CURRENT_WAITS', 'INNODB_HISTORY_LIST_LENGTH');
select concat('P ', id, ' ', db, ' ', ifnull(state, ''), ' ', round(time_ms), ' ', replace(left(ifnull(info, ''), 100), '\n', ' '))
  from information_schema.processlist where command <> 'Sleep' and db like 'orderflow_perf%' and time_ms > 100;
select concat('X ', trx_mysql_thread_id, ' ', trx_state, ' ', trx_started, ' ', ifnull(trx_operation_state, ''),
    ' tables ', trx_tables_locked, ' rows ', trx_rows_locked, ' modified ', trx_rows_modified, ' ', ifnull(left(trx_query, 60), ''))
  from information_schema.innodb_trx where trx_started < now() - interval 1 second;
select concat('U ', database_name, '.', table_name, ' ', last_update) from mysql.innodb_table_stats
  where database_name like 'orderflow_perf%' and last_update >= now() - interval 1 second;
do sleep($interval_s);
SQL
)

for _ in $(seq "$samples"); do printf '%s\n' "$sample_sql"; done \
  | mysql --protocol=tcp -h"${DB_HOST:-127.0.0.1}" -P"${DB_PORT:-3306}" -uroot -N -B > "$out"

# Spans with no commit: the samples' times, and each statement (by session) with its longest wait.
awk '
  function report() {
    if (still >= 3) {
      print "no commit from " first " to " last " (" still " samples)"
      for (s in seen) print "  " seen[s]
    }
    delete seen
  }
  /^T / {
    commits = ""
    for (i = 3; i <= NF; i++) if ($i ~ /^com_commit=/) commits = substr($i, 12)
    if (commits == previous) { if (still == 0) first = previousTime; still++; last = $2 }
    else { report(); still = 0 }
    previous = commits; previousTime = $2
  }
  /^P / && still > 0 { seen[$2] = $0 }
  END { report() }
' "$out"

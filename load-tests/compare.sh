#!/usr/bin/env bash
# Compares two builds of one service with interleaved LoadRun runs (A, B, A, B, ...), because on a
# shared 2-core machine the same build can differ by 20-30 % between two runs minutes apart: only
# alternating runs and the spread of each side tell a change from the machine's drift.
#
# Usage (from the repository root, load-tests built: mvn -B package -DskipTests -pl load-tests -am):
#   build version A, then: cp -a order-service/target/quarkus-app /tmp/order-a
#   build version B, then: cp -a order-service/target/quarkus-app /tmp/order-b
#   load-tests/compare.sh order-service /tmp/order-a /tmp/order-b 3 --orders 5000 --clients 32 --warmup 2000
# Arguments: SERVICE DIR_A DIR_B ROUNDS, then LoadRun's options (--label is set per run).
# Each run appends its LOAD-RESULT line to load-tests/target/compare-results.csv (labels
# "compare A r1", ...) and its whole output to load-tests/target/compare-<side>-<round>.log. The
# service's own quarkus-app folder is put back as it was at the end.
set -euo pipefail
[[ $# -ge 4 ]] || { sed -n '2,13p' "$0" >&2; exit 2; }
service=$1 dir_a=$2 dir_b=$3 rounds=$4
shift 4
app="$PWD/$service/target/quarkus-app"
for dir in "$dir_a" "$dir_b" "$app"; do
  [[ -f "$dir/quarkus-run.jar" ]] || { echo "no quarkus-run.jar in $dir" >&2; exit 2; }
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive number, not $rounds" >&2; exit 2; }
cp_file=load-tests/target/classpath.txt
[[ -f "$cp_file" ]] || { echo "load-tests is not built: mvn -B package -DskipTests -pl load-tests -am" >&2; exit 2; }
classpath="load-tests/target/classes:$(cat "$cp_file")"

saved=$(mktemp -d)
cp -a "$app" "$saved/quarkus-app"
trap 'rm -rf "$app" && cp -a "$saved/quarkus-app" "$app" && rm -rf "$saved"' EXIT

for round in $(seq 1 "$rounds"); do
  for side in A B; do
    dir=$dir_a
    [[ $side == B ]] && dir=$dir_b
    rm -rf "$app" && cp -a "$dir" "$app"
    log="load-tests/target/compare-$side-$round.log"
    status=0
    java -Xmx256m -XX:+UseSerialGC -cp "$classpath" dev.orderflow.load.LoadRun "$@" \
      --label "compare $side r$round" --results load-tests/target/compare-results.csv > "$log" 2>&1 || status=$?
    # Six JVMs' CPU seconds: the last column of the five services' and the broker's rows of the
    # per-process table (it ends before the counters; --startup-alone prints a table of its own later).
    cpu=$(awk '/^counters over the run/ {exit} /^(order|inventory|sms|points|status)-service |^broker / {s += $NF}
      END {printf "%.1f", s}' "$log")
    own=$(awk -v s="$service" '/^counters over the run/ {exit} $1 == s {print $NF}' "$log")
    echo "$side r$round exit=$status $(grep -h '^throughput:' "$log" | cut -d' ' -f2) orders/s," \
      "six JVMs ${cpu} CPU s, $service $own CPU s"
  done
done

#!/usr/bin/env bash
# Compares two builds of one service with interleaved LoadRun runs (A, B, A, B, ...), because on a
# shared 2-core machine the same build can differ by 20-30 % between two runs minutes apart: only
# alternating runs and the spread of each side tell a change from the machine's drift.
#
# Usage (from the repository root, load-tests built: mvn -B package -DskipTests -pl testing/load-tests -am):
#   build version A, then: cp -a order-service/target/quarkus-app /tmp/order-a
#   build version B, then: cp -a order-service/target/quarkus-app /tmp/order-b
#   testing/load-tests/compare.sh order-service /tmp/order-a /tmp/order-b 3 --orders 5000 --clients 32 --warmup 2000
# Several services changed together: name them with commas; DIR_A and DIR_B then hold one
# quarkus-app folder per service, named after it (/tmp/a/inventory-service/quarkus-run.jar, ...):
#   testing/load-tests/compare.sh inventory-service,points-service /tmp/a /tmp/b 3 --orders 5000 ...
# Arguments: SERVICE[,SERVICE...] DIR_A DIR_B ROUNDS, then LoadRun's options (--label is set per run).
# Each run appends its LOAD-RESULT line to testing/load-tests/target/compare-results.csv (labels
# "compare A r1", ...) and its whole output to testing/load-tests/target/compare-<side>-<round>.log. The
# services' own quarkus-app folders are put back as they were at the end.
set -euo pipefail
[[ $# -ge 4 ]] || { sed -n '2,16p' "$0" >&2; exit 2; }
IFS=, read -r -a services <<< "$1"
dir_a=$2 dir_b=$3 rounds=$4
shift 4
# The build of one service on one side: the folder itself, or its sub-folder when several are compared.
side_app() {
  if [[ ${#services[@]} -eq 1 ]]; then echo "$1"; else echo "$1/$2"; fi
}
for service in "${services[@]}"; do
  for dir in "$(side_app "$dir_a" "$service")" "$(side_app "$dir_b" "$service")" "$PWD/$service/target/quarkus-app"; do
    [[ -f "$dir/quarkus-run.jar" ]] || { echo "no quarkus-run.jar in $dir" >&2; exit 2; }
  done
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive number, not $rounds" >&2; exit 2; }
cp_file=testing/load-tests/target/classpath.txt
[[ -f "$cp_file" ]] || { echo "load-tests is not built: mvn -B package -DskipTests -pl testing/load-tests -am" >&2; exit 2; }
classpath="testing/load-tests/target/classes:$(cat "$cp_file")"

saved=$(mktemp -d)
for service in "${services[@]}"; do
  cp -a "$PWD/$service/target/quarkus-app" "$saved/$service"
done
restore() {
  for service in "${services[@]}"; do
    rm -rf "$PWD/$service/target/quarkus-app" && cp -a "$saved/$service" "$PWD/$service/target/quarkus-app"
  done
  rm -rf "$saved"
}
trap restore EXIT

for round in $(seq 1 "$rounds"); do
  for side in A B; do
    dir=$dir_a
    [[ $side == B ]] && dir=$dir_b
    for service in "${services[@]}"; do
      app="$PWD/$service/target/quarkus-app"
      rm -rf "$app" && cp -a "$(side_app "$dir" "$service")" "$app"
    done
    log="testing/load-tests/target/compare-$side-$round.log"
    status=0
    java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$classpath" dev.orderflow.load.LoadRun "$@" \
      --label "compare $side r$round" --results testing/load-tests/target/compare-results.csv > "$log" 2>&1 || status=$?
    # Six JVMs' CPU seconds: the "CPU during run" column (the sixth) of the five services' and the
    # broker's rows of the per-process table (it ends before the counters; --startup-alone prints a
    # table of its own later).
    cpu=$(awk '/^counters over the run/ {exit} /^(order|inventory|sms|points|status)-service |^broker / {s += $6}
      END {printf "%.1f", s}' "$log")
    own=""
    for service in "${services[@]}"; do
      own+=", $service $(awk -v s="$service" '/^counters over the run/ {exit} $1 == s {print $6}' "$log") CPU s"
    done
    echo "$side r$round exit=$status $(grep -h '^throughput:' "$log" | cut -d' ' -f2) orders/s," \
      "six JVMs ${cpu} CPU s$own"
  done
done

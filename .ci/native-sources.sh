#!/usr/bin/env bash
# Native image without GraalVM: runs every Quarkus native build step (-Dquarkus.native.sources-only=true)
# for the extension's sample application and for the five services, in one Maven invocation (the
# shared modules are built once), then checks the output:
# - the extension's sample app: what was generated (NativeSourcesIT: reflection, resources,
#   service providers, runtime initialization) and what it ships (ProductionLibrariesIT: no broker,
#   gRPC, OpenTelemetry SDK, netty-all or test jars). Details: quarkus-rocketmq/NATIVE.md.
# - each service: target/native-sources/native-image.args was written, i.e. the sources a native
#   compiler (deploy/docker/Dockerfile.native-build, or -Dquarkus.native.container-build=true) takes.
# No MariaDB and no broker are needed. ~2.5 min on 2 quiet cores with a warm ~/.m2, up to ~6.5 min
# on a loaded machine (deploy/README.md "Native sources in CI").
set -euo pipefail
cd "$(dirname "$0")/.."

services=(order-service inventory-service sms-service points-service status-service)
modules=$(IFS=,; echo "quarkus-rocketmq/integration-tests,${services[*]}")

# A native build also writes its own target/quarkus-app (native-flavoured: other recorded steps),
# which the local launcher, the e2e tests and the benchmark would then run. Each service's JVM build
# is set aside before and put back after, also when the build fails; a service not built before is
# left without one, so that the next run builds it.
# A quarkus-app.jvm left by a run killed outright (its trap never ran) is dropped first: what the
# trap puts back is the quarkus-app this run found (a build made since then is the newer one).
restore_jvm_builds() {
  for service in "${services[@]}"; do
    rm -rf "$service/target/quarkus-app"
    if [[ -d "$service/target/quarkus-app.jvm" ]]; then
      mv "$service/target/quarkus-app.jvm" "$service/target/quarkus-app"
    fi
  done
}
for service in "${services[@]}"; do
  rm -rf "$service/target/quarkus-app.jvm"
  if [[ -d "$service/target/quarkus-app" ]]; then
    mv "$service/target/quarkus-app" "$service/target/quarkus-app.jvm"
  fi
done
trap restore_jvm_builds EXIT

# -DskipTests skips the unit and Quarkus tests of the reactor; the native-sources profile turns
# the sample app's build checks back on (it also sets the two native properties for that module;
# the services get them from the command line).
started=$(date +%s)
mvn -B -ntp ${MAVEN_ARGS:-} verify -DskipTests -Pnative-sources \
  -Dquarkus.native.enabled=true -Dquarkus.native.sources-only=true \
  -pl "$modules" -am

for module in quarkus-rocketmq/integration-tests "${services[@]}"; do
  test -s "$module/target/native-sources/native-image.args" \
    || { echo "native sources missing: $module/target/native-sources/native-image.args" >&2; exit 1; }
  echo "== native sources: $module/target/native-sources"
done
echo "== native sources: $(( $(date +%s) - started )) s"

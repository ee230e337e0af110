#!/usr/bin/env bash
# Validates deploy/compose/compose.yaml and the Kubernetes kustomizations with real parsers and
# schemas, without a container engine or a cluster (none runs on the project's machines):
#   1. kubectl kustomize renders deploy/kubernetes/base and every overlay (from a scratch copy whose
#      overlays get throwaway secrets from their make-secrets.sh: the real ones are git-ignored and
#      not needed);
#   2. validate/validate.mjs: compose file against the compose-spec JSON schema plus
#      cross-checks; every rendered object against the Kubernetes schema of its kind
#      (kubernetes-models) plus reference checks (selectors, ports, ConfigMaps, Secrets, probes);
#   3. tsc: the rendered objects as typed literals, which rejects unknown (misspelt) fields;
#   4. docker compose config (or docker-compose config) of compose.yaml with compose.tls.yaml and
#      throwaway secrets, where one is installed;
#   5. promtool: the Prometheus alert rules in prometheus/ checked and unit-tested
#      (prometheus/orderflow-alerts.test.yml).
# Needs kubectl (with its built-in kustomize), Node.js and npm (registry packages pinned in
# validate/package-lock.json, installed on first use), promtool (Debian package prometheus,
# installed by .ci/run). ~20-40 s.
set -euo pipefail
cd "$(dirname "$0")"
deploy_dir=$PWD
validate_dir=$deploy_dir/validate
rendered_dir=$validate_dir/.generated
command -v kubectl >/dev/null || { echo "validate: kubectl (with kustomize) is required" >&2; exit 1; }
command -v promtool >/dev/null || { echo "validate: promtool is required (apt-get install prometheus)" >&2; exit 1; }
command -v openssl >/dev/null || { echo "validate: openssl is required (the overlays' make-secrets.sh)" >&2; exit 1; }

# Dependencies: installed again only when the lock file changed.
if ! cmp -s "$validate_dir/package-lock.json" "$validate_dir/node_modules/.package-lock.json.installed" 2>/dev/null; then
  echo "== validate: npm ci (deploy/validate)"
  (cd "$validate_dir" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$validate_dir/package-lock.json" "$validate_dir/node_modules/.package-lock.json.installed"
fi

rm -rf "$rendered_dir" && mkdir -p "$rendered_dir"
# The overlays generate their Secrets from git-ignored files (make-secrets.sh): render a copy in
# which each overlay's script has made throwaway ones, never this machine's real secrets.
scratch=$rendered_dir/scratch
cp -r kubernetes "$scratch"
for script in "$scratch"/overlays/*/make-secrets.sh; do
  [ -e "$script" ] || continue
  rm -rf "$(dirname "$script")/secrets"
  bash "$script" >/dev/null
done
kubernetes_args=()
for kustomization in kubernetes/base kubernetes/overlays/*; do
  out=$rendered_dir/$(echo "$kustomization" | tr / -).yaml
  kubectl kustomize "$scratch/${kustomization#kubernetes/}" > "$out"
  echo "== validate: kubectl kustomize $kustomization: $(grep -c '^kind:' "$out") objects"
  kubernetes_args+=(--kubernetes "$out")
done
rm -rf "$scratch"

node "$validate_dir/validate.mjs" --compose compose/compose.yaml "${kubernetes_args[@]}" \
  --typescript-out "$rendered_dir"
(cd "$rendered_dir" && "$validate_dir/node_modules/.bin/tsc" -p tsconfig.json)
echo "== validate: tsc: no unknown or mistyped fields in $(grep -c '^export const' "$rendered_dir/manifests.ts") objects"

# compose requires its secrets and settings: throwaway ones from make-env.sh, never this machine's .env.
compose_env=$rendered_dir/compose.env
bash compose/make-env.sh "$compose_env" >/dev/null
printf 'OIDC_TOKEN_ISSUER=https://issuer.invalid\nSMS_GATEWAY_KIND=logging\nORDERFLOW_TLS_DIR=/nonexistent\n' >> "$compose_env"
compose_files=(-f compose/compose.yaml -f compose/compose.tls.yaml)
if docker compose version >/dev/null 2>&1; then
  docker compose --env-file "$compose_env" "${compose_files[@]}" config -q && echo "== validate: docker compose config: valid"
elif command -v docker-compose >/dev/null; then
  docker-compose --env-file "$compose_env" "${compose_files[@]}" config -q && echo "== validate: docker-compose config: valid"
else
  echo "== validate: no docker compose CLI here; compose checked by schema only"
fi
rm -f "$compose_env"
promtool check rules prometheus/orderflow-alerts.yml
(cd prometheus && promtool test rules orderflow-alerts.test.yml)
echo "== validate: promtool: alert rules valid and their tests pass"
echo "== validate: deploy/compose, deploy/kubernetes and deploy/prometheus are valid"

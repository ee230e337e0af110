#!/usr/bin/env bash
# Writes the secrets compose.yaml requires to .env beside it (git-ignored, readable by its owner
# only): random values (openssl rand) for each variable the file does not set yet, so a second run
# adds what is missing and changes nothing else. MariaDB and the broker keep the secrets they were
# first started with in their volumes: new ones need fresh volumes ("down -v") or the users changed
# by hand (deploy/README.md "Compose").
#
# The settings that are choices, not secrets, it leaves to you: OIDC_TOKEN_ISSUER with
# OIDC_ISSUER_URL or OIDC_PUBLIC_KEY, SMS_GATEWAY_KIND (and SMS_GATEWAY_URL). OIDC_STATUS_CLIENT_SECRET
# is the secret to register at the issuer for status-service's client (OIDC_STATUS_CLIENT_ID,
# default status-service), whose tokens must carry the service role.
#
#   deploy/compose/make-env.sh [<file>]      # default: .env beside this script
set -euo pipefail
command -v openssl >/dev/null || { echo "make-env: openssl is required" >&2; exit 1; }
env_file=${1:-$(cd "$(dirname "$0")" && pwd)/.env}
umask 077
touch "$env_file"
added=""
for variable in ORDERFLOW_DB_PASSWORD MARIADB_ROOT_PASSWORD ROCKETMQ_ADMIN_SECRET_KEY \
    ROCKETMQ_SECRET_KEY_ORDER_SERVICE ROCKETMQ_SECRET_KEY_INVENTORY_SERVICE ROCKETMQ_SECRET_KEY_SMS_SERVICE \
    ROCKETMQ_SECRET_KEY_POINTS_SERVICE ROCKETMQ_SECRET_KEY_STATUS_SERVICE OIDC_STATUS_CLIENT_SECRET; do
  if ! grep -q "^${variable}=" "$env_file"; then
    echo "${variable}=$(openssl rand -hex 24)" >> "$env_file"
    added="$added $variable"
  fi
done
if [ -n "$added" ]; then echo "make-env: added$added to $env_file"; else echo "make-env: $env_file has them all"; fi
for variable in OIDC_TOKEN_ISSUER SMS_GATEWAY_KIND; do
  grep -q "^${variable}=" "$env_file" || echo "make-env: still to set there (or in the environment): $variable"
done

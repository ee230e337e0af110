#!/usr/bin/env bash
# Makes the local overlay's secrets on this machine, in secrets/ (git-ignored, readable by its owner
# only), for kustomization.yaml's secretGenerator:
#   orderflow-db.env           MariaDB: root-password, username (orderflow), password
#   rocketmq-broker-auth.env   the brokers' super user and inner credentials: admin-secret-key,
#                              inner-secret-key
#   rocketmq-accounts.env      one secret key per service account (order-service, ...)
#   status-service-oidc-client.env  status-service's client at the token issuer: auth-server-url
#                              (empty: fill in the issuer's URL), client-id, client-secret (register
#                              the client there with it; its tokens must carry the service role)
#   ca.crt, ca.key             a local certificate authority; clients trust ca.crt
#   tls.crt, tls.key           the services' certificate, signed by it, for their names in the
#                              cluster (<service>, <service>.orderflow.svc, ...) and localhost
# Random values (openssl rand). A file that exists is kept: the brokers and MariaDB keep the
# secrets they were first started with in their volumes, so new ones need fresh volumes (or the
# users changed by hand: deploy/README.md "Secrets").
#
#   deploy/kubernetes/overlays/local/make-secrets.sh [<folder>]   # default: secrets/ beside this file
set -euo pipefail
command -v openssl >/dev/null || { echo "make-secrets: openssl is required" >&2; exit 1; }
dir=${1:-$(cd "$(dirname "$0")" && pwd)/secrets}
umask 077
mkdir -p "$dir"
cd "$dir"

services="order-service inventory-service sms-service points-service status-service"
random() { openssl rand -hex 24; }

made=""
if [ ! -e orderflow-db.env ]; then
  printf 'root-password=%s\nusername=orderflow\npassword=%s\n' "$(random)" "$(random)" > orderflow-db.env
  made="$made orderflow-db.env"
fi
if [ ! -e rocketmq-broker-auth.env ]; then
  printf 'admin-secret-key=%s\ninner-secret-key=%s\n' "$(random)" "$(random)" > rocketmq-broker-auth.env
  made="$made rocketmq-broker-auth.env"
fi
if [ ! -e rocketmq-accounts.env ]; then
  for service in $services; do printf '%s=%s\n' "$service" "$(random)"; done > rocketmq-accounts.env
  made="$made rocketmq-accounts.env"
fi

if [ ! -e status-service-oidc-client.env ]; then
  printf 'auth-server-url=\nclient-id=status-service\nclient-secret=%s\n' "$(random)" > status-service-oidc-client.env
  made="$made status-service-oidc-client.env"
fi

if [ ! -e ca.crt ] || [ ! -e ca.key ]; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 825 -subj "/CN=orderflow local CA" \
    -keyout ca.key -out ca.crt 2>/dev/null
  rm -f tls.crt tls.key
  made="$made ca.crt"
fi
if [ ! -e tls.crt ] || [ ! -e tls.key ]; then
  names="DNS:localhost,IP:127.0.0.1"
  for service in $services; do
    for suffix in "" .orderflow .orderflow.svc .orderflow.svc.cluster.local; do
      names="$names,DNS:$service$suffix"
    done
  done
  openssl req -newkey rsa:2048 -nodes -subj "/CN=orderflow" -keyout tls.key -out tls.csr 2>/dev/null
  openssl x509 -req -in tls.csr -CA ca.crt -CAkey ca.key -set_serial "0x$(openssl rand -hex 16)" \
    -days 365 -out tls.crt 2>/dev/null -extfile <(printf '%s\n' \
      "subjectAltName=$names" "basicConstraints=critical,CA:FALSE" \
      "keyUsage=critical,digitalSignature,keyEncipherment" "extendedKeyUsage=serverAuth")
  rm -f tls.csr
  made="$made tls.crt"
fi
echo "make-secrets: ${made:- nothing new} in $dir"

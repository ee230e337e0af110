#!/usr/bin/env bash
# Provisions the brokers for orderflow with their super user's credentials: waits until the expected
# brokers are registered at the name servers, creates the topics (CREATE_TOPICS=true), then creates on
# every broker of the cluster, masters and replicas, one user per service and that user's grants
# (RocketMQ 5.3 access control, ACL 2.0). Users and grants are stored by each broker itself (RocksDB
# under <storePathRootDir>/config); a replica does not copy them from its master, hence every broker.
#
# Idempotent, so it is safe to run again (and has to be after a broker lost its store): a user that
# exists gets its current secret key again; grants are merged per resource. A grant removed from the
# list below stays on the brokers until removed by hand (mqadmin deleteAcl -s User:<name> -r <resource>).
#
# Run in the apache/rocketmq image by the Kubernetes Job rocketmq-provision (provision-job.yaml) and by
# the compose service rocketmq-provision (deploy/compose/compose.yaml). Environment:
#   NAMESRV_ADDR                 name servers, ";"-separated
#   CLUSTER                      broker cluster name
#   BROKERS                      brokers that must be registered first, "<brokerName>:<brokerId> ..."
#   CREATE_TOPICS                "true" to create the topics (brokers with autoCreateTopicEnable=false)
#   ROCKETMQ_ADMIN_ACCESS_KEY, ROCKETMQ_ADMIN_SECRET_KEY   the brokers' initial super user
#   ROCKETMQ_SECRET_KEY_<SERVICE>  each service's secret key (ORDER_SERVICE, INVENTORY_SERVICE, ...);
#                                its access key is the service's name
set -euo pipefail
# Resources such as Topic:* and Topic:%DLQ%* are words, not patterns for the shell.
set -f

: "${NAMESRV_ADDR:?}" "${CLUSTER:?}" "${BROKERS:?}" "${ROCKETMQ_ADMIN_ACCESS_KEY:?}" "${ROCKETMQ_ADMIN_SECRET_KEY:?}"
CREATE_TOPICS=${CREATE_TOPICS:-false}

SERVICES="order-service inventory-service sms-service points-service status-service"

# name:queues per master broker group. order_topic carries every order event; 8 queues per group
# lets up to 16 instances of each consumer service share the work. The dead-letter topics are
# listed because the connector writes permanent failures to them with a plain producer send (no
# broker-side creation as for retries-exhausted messages) and status-service reads them.
TOPICS="order_topic:8 order_result_topic:8 order_outcome_topic:8 access_log_topic:4
  %DLQ%inventory_group:1 %DLQ%sms_group:1 %DLQ%points_group:1
  %DLQ%status_group:1 %DLQ%status_report_group:1
  %DLQ%order_outcome_group:1 %DLQ%sms_outcome_group:1
  %DLQ%status_dlq_inventory:1 %DLQ%status_dlq_sms:1 %DLQ%status_dlq_points:1"

# account|action|resources: what each service may do, nothing more. order_topic carries order events
# (order-service sends, inventory/sms/points/status consume), order_result_topic the consumers'
# reports (ConsumerReports.TOPIC, read by status-service), order_outcome_topic how orders ended
# (OrderOutcome.TOPIC: status-service sends, order-service and sms-service consume). %DLQ%<group>
# is a consumer group's dead-letter topic, written by the connector itself. A consumed topic also
# needs Get: a group with no offset on a queue whose first messages are gone asks for the queue's
# minimum or maximum offset. order-service's answers to the broker's check-backs of its half
# messages name RMQ_SYS_TRANS_HALF_TOPIC: without Pub there the broker drops them. A resource
# appears in one line per account only: a later grant of the same resource replaces the earlier one.
GRANTS="
order-service|Pub|Topic:order_topic,Topic:access_log_topic,Topic:%DLQ%order_outcome_group,Topic:RMQ_SYS_TRANS_HALF_TOPIC
order-service|Sub,Get|Topic:order_outcome_topic
order-service|Sub|Group:order_outcome_group
inventory-service|Pub|Topic:order_result_topic,Topic:%DLQ%inventory_group
inventory-service|Sub,Get|Topic:order_topic
inventory-service|Sub|Group:inventory_group
points-service|Pub|Topic:order_result_topic,Topic:%DLQ%points_group
points-service|Sub,Get|Topic:order_topic
points-service|Sub|Group:points_group
sms-service|Pub|Topic:order_result_topic,Topic:%DLQ%sms_group,Topic:%DLQ%sms_outcome_group
sms-service|Sub,Get|Topic:order_topic,Topic:order_outcome_topic
sms-service|Sub|Group:sms_group,Group:sms_outcome_group
status-service|Pub|Topic:order_outcome_topic,Topic:%DLQ%status_group,Topic:%DLQ%status_report_group,Topic:%DLQ%status_dlq_inventory,Topic:%DLQ%status_dlq_sms,Topic:%DLQ%status_dlq_points
status-service|Sub|Topic:order_topic,Topic:order_result_topic,Group:status_group,Group:status_report_group,Topic:%DLQ%inventory_group,Topic:%DLQ%sms_group,Topic:%DLQ%points_group,Group:status_dlq_inventory,Group:status_dlq_sms,Group:status_dlq_points,Topic:%DLQ%*,Group:orderflow_dlq_browser,Group:orderflow_dlq_redrive
status-service|Get|Group:*,Topic:*
"

fail() { echo "provision: $*" >&2; exit 1; }

# A secret ends up in JSON, YAML and on a command line: letters, digits and . _ + / = - only
# (hex or base64 from "openssl rand"), at least 16 characters.
check_secret() {
  case "$2" in
    *[!A-Za-z0-9._+/=-]*) fail "$1 may hold letters, digits and . _ + / = - only" ;;
  esac
  [ "${#2}" -ge 16 ] || fail "$1 is shorter than 16 characters"
}
secret_of() { # service name -> the value of ROCKETMQ_SECRET_KEY_<SERVICE>
  local variable
  variable=ROCKETMQ_SECRET_KEY_$(echo "$1" | tr 'a-z-' 'A-Z_')
  [ -n "${!variable:-}" ] || fail "$variable is not set"
  check_secret "$variable" "${!variable}"
  printf '%s' "${!variable}"
}
check_secret ROCKETMQ_ADMIN_SECRET_KEY "$ROCKETMQ_ADMIN_SECRET_KEY"
for service in $SERVICES; do secret_of "$service" >/dev/null; done

# mqadmin signs its requests with the account in <rocketmq.home.dir>/conf/tools.yml. The image's
# copy holds RocketMQ's sample account; this run writes the super user's to a private temporary
# folder (memory-backed in the Job and in compose) instead and points rocketmq.home.dir there.
# mqadmin's own script fixes a 1 GiB heap; the class is started directly with a small one.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/conf"
(umask 077 && printf 'accessKey: %s\nsecretKey: %s\n' "$ROCKETMQ_ADMIN_ACCESS_KEY" "$ROCKETMQ_ADMIN_SECRET_KEY" \
  > "$work/conf/tools.yml")
mqadmin() {
  java -Xms32m -Xmx192m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
    -Duser.home="$work" -Drocketmq.home.dir="$work" \
    -Drmq.logback.configurationFile="$ROCKETMQ_HOME/conf/rmq.tools.logback.xml" \
    -cp "$ROCKETMQ_HOME/conf:$ROCKETMQ_HOME/lib/*" \
    org.apache.rocketmq.tools.command.MQAdminStartup "$@" -n "$NAMESRV_ADDR" 2>&1
}
# mqadmin exits 0 when a command failed, printing the exception: the output tells.
admin() {
  local out
  out=$(mqadmin "$@")
  if grep -q 'Exception' <<<"$out" || ! grep -q 'success' <<<"$out"; then
    printf '%s\n' "$out" >&2
    fail "mqadmin $1 failed"
  fi
  grep 'success' <<<"$out"
}

# clusterList rows: cluster, broker name, broker id (0 = master), address, ...
registered() {
  mqadmin clusterList | awk -v cluster="$CLUSTER" '$1 == cluster && $3 ~ /^[0-9]+$/ {print $2 ":" $3 " " $4}'
}
missing=$BROKERS
for attempt in $(seq 1 60); do
  rows=$(registered || true)
  missing=""
  for broker in $BROKERS; do
    grep -q "^${broker} " <<<"$rows" || missing="$missing $broker"
  done
  [ -z "$missing" ] && break
  echo "provision: waiting for brokers:$missing"
  sleep 5
done
[ -z "$missing" ] || fail "not registered at the name servers:$missing"
addresses=$(awk '{print $2}' <<<"$rows" | sort -u)

if [ "$CREATE_TOPICS" = "true" ]; then
  # On every master of the cluster (perm 6 = read + write); replicas copy the topic configuration.
  for spec in $TOPICS; do
    admin updateTopic -c "$CLUSTER" -t "${spec%%:*}" -r "${spec##*:}" -w "${spec##*:}" -p 6 >/dev/null
    echo "provision: topic ${spec%%:*} (${spec##*:} queues per broker group)"
  done
fi

for address in $addresses; do
  for service in $SERVICES; do
    secret=$(secret_of "$service")
    out=$(mqadmin createUser -b "$address" -u "$service" -p "$secret")
    if grep -q 'The user is existed' <<<"$out"; then
      admin updateUser -b "$address" -u "$service" -p "$secret" >/dev/null
      echo "provision: user $service on $address: secret key set"
    elif grep -q 'success' <<<"$out" && ! grep -q 'Exception' <<<"$out"; then
      echo "provision: user $service on $address: created"
    else
      printf '%s\n' "$out" >&2
      fail "mqadmin createUser $service on $address failed"
    fi
  done
  while IFS='|' read -r account action resources; do
    [ -n "$account" ] || continue
    admin updateAcl -b "$address" -s "User:$account" -r "$resources" -a "$action" -d Allow >/dev/null
    echo "provision: $account on $address: $action $resources"
  done <<<"$GRANTS"
done
echo "provision: done (brokers: $(echo $addresses))"

#!/usr/bin/env bash
# The project's tests in one command, on a fresh machine: checks what they need, provides what is
# missing where it can, then runs Maven.
#
#   deploy/run-tests.sh [--system] [more Maven arguments]
#     (default)  mvn -B verify: every unit and @QuarkusTest test (real RocketMQ in-process, real MariaDB)
#     --system   mvn -B verify -Psystem: the same plus the whole-suite stages (the launcher's suite
#                test, e2e-tests, fault-tests' short profile), which start the five services
#
# The tests need:
#   - Java 17+ and Maven 3.8+ (checked; not installed by this script);
#   - MariaDB at 127.0.0.1:3306, user root, empty password (started when the server is installed
#     but not running; the tests create and drop their own databases);
#   - Debian's headless Chromium and its driver, /usr/bin/chromium and /usr/bin/chromedriver, for
#     status-service's dashboard browser test (installed through apt when missing).
set -euo pipefail
cd "$(dirname "$0")/.."

maven_args=(-B -ntp verify)
for arg in "$@"; do
  case "$arg" in
    --system) maven_args+=(-Psystem) ;;
    *) maven_args+=("$arg") ;;
  esac
done

fail() { echo "run-tests: $*" >&2; exit 1; }

command -v java >/dev/null || fail "java (17+) is not on the PATH"
command -v mvn >/dev/null || fail "mvn (3.8+) is not on the PATH"

# Root runs apt and the database directly; anyone else goes through sudo when it is there.
as_root() {
  if [[ $(id -u) -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    return 1
  fi
}

mariadb_answers() {
  if command -v mysqladmin >/dev/null; then
    mysqladmin --protocol=tcp -h127.0.0.1 -P3306 -uroot ping >/dev/null 2>&1
  else
    (exec 3<>/dev/tcp/127.0.0.1/3306) 2>/dev/null
  fi
}

if ! mariadb_answers; then
  if [[ -x /usr/sbin/mariadbd ]] && command -v start-stop-daemon >/dev/null; then
    echo "run-tests: MariaDB does not answer at 127.0.0.1:3306; starting the installed server"
    as_root start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd \
      || fail "could not start /usr/sbin/mariadbd"
    for _ in $(seq 1 60); do mariadb_answers && break; sleep 1; done
  fi
  mariadb_answers || fail "MariaDB must answer at 127.0.0.1:3306 (user root, empty password), e.g.
  apt-get install -y mariadb-server && service mariadb start"
fi
echo "run-tests: MariaDB answers at 127.0.0.1:3306"

if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
  command -v apt-get >/dev/null \
    || fail "/usr/bin/chromium and /usr/bin/chromedriver are missing and there is no apt-get to install them"
  echo "run-tests: installing chromium and chromium-driver (status-service's dashboard browser test)"
  as_root apt-get update -qq || fail "apt-get update failed (run as root or with sudo)"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null \
    || fail "apt-get install chromium chromium-driver failed"
fi
echo "run-tests: $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"

echo "run-tests: mvn ${maven_args[*]}"
exec mvn "${maven_args[@]}"

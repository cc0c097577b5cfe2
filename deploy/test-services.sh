#!/usr/bin/env bash
# Make sure the PostgreSQL and Redis servers the tests use answer on 127.0.0.1,
# that the browser tests find Debian's chromium, that the clock's end-to-end
# test finds faketime (it runs `pbem sweep` days ahead of the system clock),
# that the proxy test finds nginx (it starts a private instance on loopback
# ports), that the Postfix test finds Postfix (it runs a private one) and
# that the deployment tests find iproute2 and systemd-analyze.
# On a fresh Debian machine (as root) this installs and starts them; where they
# already run it does nothing. Skipped when PBEM_TEST_POSTGRES_URL or
# PBEM_TEST_REDIS_URL point the tests at servers of your own (PostgreSQL's
# client tools are installed all the same). `deploy/test-services.sh postgres`
# makes the database ready and stops there.
set -euo pipefail

answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

apt_updated=
apt_update() {
    if [ -z "$apt_updated" ]; then
        apt-get update -qq
        apt_updated=1
    fi
}

apt_install() {
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
        echo "deploy/test-services.sh: $* is not running on 127.0.0.1 and I can only" \
            "install it as root on Debian; start it yourself or set the PBEM_TEST_*_URL variables" >&2
        exit 1
    fi
    apt_update
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

wait_for() {
    for _ in $(seq 50); do
        answers "$1" && return 0
        sleep 0.2
    done
    echo "deploy/test-services.sh: nothing answers on 127.0.0.1:$1" >&2
    exit 1
}

# Debian's package starts its cluster when installed, with its own pg_hba.conf
# (scram-sha-256): the tests' trust line takes effect only once the cluster
# reads the file again, so a running cluster is told to (reload).
start_postgres() {
    if ! ls "$pg_etc"/*/main >/dev/null 2>&1; then
        apt_install postgresql
    fi
    local version
    version=$(ls "$pg_etc" | sort -n | tail -1)
    local hba="$pg_etc/$version/main/pg_hba.conf"
    local changed=
    # Tests connect as postgres without a password, from this machine only.
    if ! grep -q '^host all postgres 127.0.0.1/32 trust' "$hba"; then
        sed -i '1i host all postgres 127.0.0.1/32 trust' "$hba"
        changed=1
    fi
    if pg_ctlcluster --skip-systemctl-redirect "$version" main status >/dev/null 2>&1; then
        if [ -n "$changed" ]; then
            pg_ctlcluster --skip-systemctl-redirect "$version" main reload
        fi
    elif ! answers 5432; then # else another server has the port: the tests use it
        pg_ctlcluster --skip-systemctl-redirect "$version" main start
    fi
    wait_for 5432
}

start_redis() {
    command -v redis-server >/dev/null || apt_install redis-server
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
    wait_for 6379
}

# The mail tests start a private Dovecot of their own (tests/mail/servers.py).
if ! command -v dovecot >/dev/null && [ ! -x /usr/sbin/dovecot ]; then
    apt_install dovecot-imapd
fi

# This machine's own cluster is made ready whenever there is one, even when
# 5432 answers already: an earlier run may have left it without the trust line.
pg_etc=${PBEM_TEST_POSTGRES_ETC:-/etc/postgresql}
if [ -z "${PBEM_TEST_POSTGRES_URL:-}" ] && { ls "$pg_etc"/*/main >/dev/null 2>&1 || ! answers 5432; }; then
    start_postgres
fi
if [ "${1:-}" = postgres ]; then
    exit 0 # only the database (tests/deploy/test_test_services.py)
fi
# deploy/backup.sh's tests need pg_dump and psql, wherever the server runs.
if ! command -v pg_dump >/dev/null; then
    apt_install postgresql-client
fi
if [ -z "${PBEM_TEST_REDIS_URL:-}" ] && ! answers 6379; then
    start_redis
fi
if [ ! -x /usr/bin/chromium ]; then
    apt_install chromium
fi
if ! command -v faketime >/dev/null; then
    apt_install faketime
fi
if [ ! -x /usr/sbin/nginx ]; then
    apt_install nginx
fi

# The tests check and run deploy/postfix/ with Postfix. Installing the package
# would make Postfix this machine's mail server, so where it is not installed
# its Debian package is only unpacked, with the libraries it needs, into $postfix_tools
# (PBEM_TEST_POSTFIX_TOOLS; tests/server/test_postfix.py looks there too).
postfix_tools=${PBEM_TEST_POSTFIX_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/pbem-test/postfix}
if [ ! -x /usr/sbin/postconf ] && [ ! -x "$postfix_tools/usr/sbin/postconf" ]; then
    apt_update
    download=$(mktemp -d)
    chmod a+rx "$download" && chown _apt "$download" 2>/dev/null || true
    (cd "$download" && apt-get download -qq postfix)
    mkdir -p "$postfix_tools"
    dpkg-deb -x "$download"/postfix_*.deb "$postfix_tools"
    rm -rf "$download"
fi
if [ ! -x /usr/sbin/postconf ] &&
    LD_LIBRARY_PATH="$postfix_tools/usr/lib/postfix" ldd "$postfix_tools/usr/sbin/postconf" |
    grep -q 'not found'; then
    # shellcheck disable=SC2046  # one word a package
    apt_install $(apt-cache depends postfix | awk '$1 == "Depends:" && $2 ~ /^lib/ {print $2}')
fi
# The accessibility check injects axe-core, pinned by tests/browser's lock file.
if ! command -v npm >/dev/null; then
    apt_install nodejs npm
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ ! -d "$root/tests/browser/node_modules" ]; then
    npm ci --prefix "$root/tests/browser" --no-audit --no-fund >/dev/null
fi
# The deployment tests: hosts in network namespaces (iproute2), and systemd's
# own check of the units (systemd-analyze; systemd itself need not run).
if ! command -v ip >/dev/null; then
    apt_install iproute2
fi
if ! command -v systemd-analyze >/dev/null; then
    apt_install systemd
fi

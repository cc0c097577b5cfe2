# shellcheck shell=bash
# Shared by deploy/install.sh and deploy/upgrade.sh (sourced, not run): the
# layout of an installation and the steps that bring a machine to it. Every
# step looks before it acts, so running them again changes nothing; each
# says what it changed ("changed: ...") or found as it should be ("ok: ...").
#
# The layout, overridable for tests and unusual machines:
#   PBEM_PREFIX            /opt/pbem: releases/, venv -> the current release's
#                          virtual environment, static -> its pbem/web/static
#   PBEM_CONFIG_DIR        /etc/pbem: pbem.env, the services' settings
#   PBEM_UNIT_DIR          /etc/systemd/system
#   PBEM_USER              pbem: the user and group the services run as
#   PBEM_INSTANCE_PATH     /var/lib/pbem, when pbem.env does not name it yet
#   PBEM_SERVICES          "web worker bots notices beat smtpd": the units to enable here
#   PBEM_WORKER_INSTANCES  "1": names of the pbem-worker@ units to enable
#   PBEM_KEEP_RELEASES     3: older releases are deleted (the current one never)
#   PBEM_PYTHON            /usr/bin/python3: the Python of the virtual environments
#   PBEM_SYSTEMCTL         systemctl; units are enabled and restarted only
#                          where systemd runs, or where this names a program

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prefix=${PBEM_PREFIX:-/opt/pbem}
config_dir=${PBEM_CONFIG_DIR:-/etc/pbem}
env_file=$config_dir/pbem.env
unit_dir=${PBEM_UNIT_DIR:-/etc/systemd/system}
user=${PBEM_USER:-pbem}
services=${PBEM_SERVICES:-web worker bots notices beat smtpd}
worker_instances=${PBEM_WORKER_INSTANCES:-1}
keep_releases=${PBEM_KEEP_RELEASES:-3}
python=${PBEM_PYTHON:-/usr/bin/python3}
systemctl=${PBEM_SYSTEMCTL:-systemctl}
changes=0
units_changed=

say() { echo "$(basename "$0"): $*"; }
changed() {
    changes=$((changes + 1))
    say "changed: $*"
}
kept() { say "ok: $*"; }
die() {
    echo "$(basename "$0"): $*" >&2
    exit 1
}

systemd_runs() { [ -n "${PBEM_SYSTEMCTL:-}" ] || [ -d /run/systemd/system ]; }

# The settings of an environment file as NAME=value lines, read the way
# systemd reads an EnvironmentFile: blank lines and comments skipped, spaces
# around the value and one pair of quotes around it removed.
settings() {
    local line name value
    while IFS= read -r line || [ -n "$line" ]; do
        line=${line#"${line%%[![:space:]]*}"}
        case $line in '' | '#'* | ';'*) continue ;; esac
        name=${line%%=*}
        name=${name%"${name##*[![:space:]]}"}
        value=${line#*=}
        value=${value#"${value%%[![:space:]]*}"}
        value=${value%"${value##*[![:space:]]}"}
        case $value in \"*\" | \'*\') value=${value:1:${#value}-2} ;; esac
        printf '%s=%s\n' "$name" "$value"
    done <"$1"
}

setting() { # NAME FILE: the value the file gives NAME, empty when none
    settings "$2" | sed -n "s/^$1=//p" | tail -n 1
}

if [ -f "$env_file" ] && [ -n "$(setting PBEM_INSTANCE_PATH "$env_file")" ]; then
    state_dir=$(setting PBEM_INSTANCE_PATH "$env_file")
else
    state_dir=${PBEM_INSTANCE_PATH:-/var/lib/pbem}
fi

as_service() { # COMMAND...: run with pbem.env's settings as the services run
    local -a vars
    mapfile -t vars < <(settings "$env_file")
    (cd "$state_dir" && runuser -u "$user" -- env -i PATH=/usr/local/bin:/usr/bin:/bin \
        HOME="$state_dir" LANG=C.UTF-8 "${vars[@]}" "$@")
}

apt_updated=
apt_install() {
    command -v apt-get >/dev/null || die "$* missing, and this is no Debian machine: install it"
    if [ -z "$apt_updated" ]; then
        apt-get update -qq
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
    changed "installed Debian packages: $*"
}

ensure_root() { [ "$(id -u)" = 0 ] || die "run me as root"; }

ensure_python() {
    if "$python" -c 'import ensurepip, venv' 2>/dev/null; then
        kept "$python with venv"
    elif [ "$python" != /usr/bin/python3 ]; then
        die "$python cannot make virtual environments"
    else
        apt_install python3-venv
    fi
}

ensure_user() {
    if getent passwd "$user" >/dev/null; then
        kept "user $user"
        return
    fi
    local group=(--user-group)
    getent group "$user" >/dev/null && group=(--gid "$user")
    useradd --system "${group[@]}" --home-dir "$state_dir" --no-create-home \
        --shell /usr/sbin/nologin --comment "pbem turn server" "$user"
    changed "user $user"
}

ensure_dir() { # PATH OWNER GROUP MODE
    if [ -d "$1" ] && [ "$(stat -c '%U:%G %a' "$1")" = "$2:$3 ${4#0}" ]; then
        kept "folder $1"
        return
    fi
    install -d -o "$2" -g "$3" -m "$4" "$1"
    changed "folder $1 ($2:$3, $4)"
}

ensure_folders() {
    ensure_dir "$prefix" root root 0755
    ensure_dir "$prefix/releases" root root 0755
    ensure_dir "$config_dir" root "$user" 0750
    ensure_dir "$state_dir" "$user" "$user" 0750
}

# pbem.env from the template, once: a new secret key, this machine's name as
# the site and mail domain, and the template's settings given in the
# environment. Never touched again.
ensure_env_file() {
    if [ -f "$env_file" ]; then
        kept "$env_file kept as it is"
        return
    fi
    local fqdn line name tmp
    fqdn=$(hostname --fqdn 2>/dev/null || hostname)
    local -A given=(
        [PBEM_SECRET_KEY]=${PBEM_SECRET_KEY:-$("$python" -c 'import secrets; print(secrets.token_urlsafe(32))')}
        [PBEM_BASE_URL]=${PBEM_BASE_URL:-https://$fqdn}
        [PBEM_MAIL_DOMAIN]=${PBEM_MAIL_DOMAIN:-$fqdn}
        [PBEM_INSTANCE_PATH]=$state_dir
    )
    tmp=$(mktemp "$config_dir/.pbem.env.XXXXXX")
    while IFS= read -r line || [ -n "$line" ]; do
        if [[ $line =~ ^(PBEM_[A-Z0-9_]+)= ]]; then
            name=${BASH_REMATCH[1]}
            if [ -n "${given[$name]+set}" ]; then
                line="$name=${given[$name]}"
            elif [ -n "${!name+set}" ]; then
                line="$name=${!name}"
            fi
        fi
        printf '%s\n' "$line"
    done <"$here/pbem.env.example" >"$tmp"
    chown "root:$user" "$tmp"
    chmod 0640 "$tmp"
    mv "$tmp" "$env_file"
    changed "$env_file from deploy/pbem.env.example: check PBEM_BASE_URL and the mail settings"
}

# A release is known by a hash of what is installed from it; each gets a
# virtual environment of its own under releases/, and venv points at the
# current one, so running processes keep their files until they restart and
# an earlier release is one symlink away.
ensure_release() { # RELEASE: a source folder, an sdist or a wheel
    local release=$1 work source id dir
    work=$(mktemp -d)
    # shellcheck disable=SC2064  # the folder is known now
    trap "rm -rf '$work'" EXIT
    if [ -d "$release" ]; then
        [ -f "$release/pyproject.toml" ] || die "$release holds no pyproject.toml: no pbem release"
        mkdir "$work/source"
        (cd "$release" && tar -cf - --exclude=__pycache__ --exclude='*.pyc' \
            pyproject.toml README.md engine pbem worker) | tar -xf - -C "$work/source"
        id=$(cd "$work/source" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum |
            sha256sum | cut -c1-16)
        source=$work/source
    elif [ -f "$release" ]; then
        id=$(sha256sum "$release" | cut -c1-16)
        source=$release
    else
        die "no release at $release"
    fi
    dir=$prefix/releases/$id
    if [ -f "$dir/installed" ]; then
        kept "release $id"
    else
        rm -rf "$dir"
        "$python" -m venv "$dir/venv"
        "$dir/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$source"
        echo "$release" >"$dir/installed"
        changed "release $id installed from $release"
    fi
    if [ "$(readlink "$prefix/venv" 2>/dev/null)" = "releases/$id/venv" ]; then
        kept "$prefix/venv is release $id"
    else
        ln -sfn "releases/$id/venv" "$prefix/venv.new"
        mv -T "$prefix/venv.new" "$prefix/venv"
        changed "$prefix/venv is release $id"
    fi
    prune_releases "$id"
}

prune_releases() { # CURRENT
    local -a old
    # shellcheck disable=SC2010  # release names are hex digits; ls sorts by time
    mapfile -t old < <(ls -1t "$prefix/releases" | grep -vxF "$1" | tail -n "+$keep_releases")
    for release in "${old[@]}"; do
        rm -rf "${prefix:?}/releases/$release"
        changed "removed old release $release"
    done
}

# nginx serves the static files from PREFIX/static, through venv, so the link
# follows the current release without changing.
ensure_static_link() {
    local site target
    site=$("$prefix/venv/bin/python" -c \
        'import os, sys, sysconfig; print(os.path.relpath(sysconfig.get_path("purelib"), sys.prefix))')
    target=$prefix/venv/$site/pbem/web/static
    [ -d "$target" ] || die "the release has no $target"
    if [ "$(readlink "$prefix/static" 2>/dev/null)" = "$target" ]; then
        kept "$prefix/static"
    else
        ln -sfn "$target" "$prefix/static.new"
        mv -T "$prefix/static.new" "$prefix/static"
        changed "$prefix/static -> $target"
    fi
}

# The units of deploy/systemd, with this installation's paths and user.
ensure_units() {
    local unit name wanted
    mkdir -p "$unit_dir"
    for unit in "$here"/systemd/*; do
        name=$(basename "$unit")
        wanted=$(sed -e "s#/opt/pbem#$prefix#g" -e "s#/etc/pbem#$config_dir#g" \
            -e "s#/var/lib/pbem#$state_dir#g" -e "s#^User=pbem\$#User=$user#" \
            -e "s#^Group=pbem\$#Group=$user#" "$unit")
        if [ -f "$unit_dir/$name" ] && [ "$(cat "$unit_dir/$name")" = "$wanted" ]; then
            kept "unit $name"
        else
            printf '%s\n' "$wanted" >"$unit_dir/$name.new"
            chmod 0644 "$unit_dir/$name.new"
            mv "$unit_dir/$name.new" "$unit_dir/$name"
            changed "unit $name"
            units_changed=1
        fi
    done
    if [ -n "$units_changed" ] && systemd_runs; then
        "$systemctl" daemon-reload
    fi
}

# The parts of PBEM_DATABASE_URL, one a line: host (or socket folder), port,
# user, password, database; read by SQLAlchemy, as pbem reads it.
database_parts() {
    "$prefix/venv/bin/python" - "$1" <<'EOF'
import sys
from sqlalchemy.engine import make_url
url = make_url(sys.argv[1])
host = url.query.get("host") or url.host or ""
print(host, url.port or url.query.get("port") or 5432, url.username or "", url.password or "",
      url.database or "", sep="\n")
EOF
}

# A database on this machine gets its role and database (the role owns it);
# one elsewhere is its administrator's (docs/deployment.md).
ensure_database() {
    local url host port role password database
    url=$(setting PBEM_DATABASE_URL "$env_file")
    case $url in postgresql*) ;; *)
        kept "database $url is no PostgreSQL: nothing to create"
        return
        ;;
    esac
    { read -r host; read -r port; read -r role; read -r password; read -r database; } < \
        <(database_parts "$url")
    case $host in '' | localhost | 127.0.0.1 | ::1) host=/var/run/postgresql ;; /*) ;; *)
        kept "database on $host: its administrator creates the role and database"
        return
        ;;
    esac
    if ! command -v psql >/dev/null || ! getent passwd postgres >/dev/null; then
        apt_install postgresql
    fi
    psql_admin() {
        runuser -u postgres -- psql -X -q -At -v ON_ERROR_STOP=1 -h "$host" -p "$port" \
            -d postgres -v role="$role" -v password="$password" -v database="$database"
    }
    if [ -n "$(echo "SELECT 1 FROM pg_roles WHERE rolname = :'role'" | psql_admin)" ]; then
        kept "database role $role"
    elif [ -n "$password" ]; then
        echo "CREATE ROLE :\"role\" LOGIN PASSWORD :'password'" | psql_admin
        changed "database role $role"
    else
        echo "CREATE ROLE :\"role\" LOGIN" | psql_admin
        changed "database role $role"
    fi
    if [ -n "$(echo "SELECT 1 FROM pg_database WHERE datname = :'database'" | psql_admin)" ]; then
        kept "database $database"
    else
        echo "CREATE DATABASE :\"database\" OWNER :\"role\"" | psql_admin
        changed "database $database"
    fi
}

ensure_broker() {
    local url
    url=$(setting PBEM_BROKER_URL "$env_file")
    case $url in redis://localhost* | redis://127.0.0.1* | redis://:*@127.0.0.1* | redis://:*@localhost*)
        if command -v redis-server >/dev/null; then
            kept "redis-server"
        else
            apt_install redis-server
        fi
        ;;
    esac
}

ensure_migrated() {
    local output
    if ! output=$(as_service "$prefix/venv/bin/pbem" db upgrade 2>&1); then
        echo "$output" >&2
        die "pbem db upgrade failed"
    fi
    if grep -q "Running upgrade" <<<"$output"; then
        grep -o "Running upgrade [^\"]*" <<<"$output" | sed "s/^/$(basename "$0"): /"
        changed "database migrated"
    else
        kept "database schema current"
    fi
}

# The units of PBEM_SERVICES, enabled and started where systemd runs.
service_units() {
    local service instance
    echo pbem.target
    for service in $services; do
        case $service in
        worker) for instance in $worker_instances; do echo "pbem-worker@$instance.service"; done ;;
        web | bots | notices | beat | smtpd) echo "pbem-$service.service" ;;
        *) die "PBEM_SERVICES: no service $service (web, worker, bots, notices, beat, smtpd)" ;;
        esac
    done
}

ensure_enabled() {
    local unit
    if ! systemd_runs; then
        say "systemd does not run here: start the services yourself (deploy/systemd/ shows how)"
        return
    fi
    for unit in $(service_units); do
        if "$systemctl" is-enabled --quiet "$unit"; then
            kept "$unit enabled"
        else
            "$systemctl" enable --now --quiet "$unit"
            changed "$unit enabled and started"
        fi
    done
}

# Everything, in order; a first run and an upgrade alike.
install_all() { # RELEASE
    ensure_root
    ensure_python
    ensure_user
    ensure_folders
    ensure_env_file
    ensure_release "$1"
    ensure_static_link
    ensure_units
    ensure_database
    ensure_broker
    ensure_migrated
    ensure_enabled
}

summary() {
    if [ "$changes" = 0 ]; then
        say "nothing to change: the installation is as it should be"
    else
        say "$changes changes"
    fi
}

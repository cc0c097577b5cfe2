#!/usr/bin/env bash
# Upgrade an installation made by deploy/install.sh to a new release, as root:
#
#   deploy/upgrade.sh [RELEASE]
#
# It installs the release beside the running one and migrates the database
# (deploy/install.sh's steps: the running processes keep their files), then
# restarts what runs here in order: each worker in turn and the beat (they
# need the new schema, and tasks the old web processes send still suit
# them), the mail door, and the web last; then `pbem check` must find the
# installation ready (exit status 1 if not). When nothing changed, nothing
# is restarted.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -f "$env_file" ] || die "no $env_file: install first with deploy/install.sh"
install_all "${1:-$(cd "$here/.." && pwd)}"
summary

if [ "$changes" = 0 ]; then
    say "nothing restarted"
elif systemd_runs; then
    mapfile -t workers < <("$systemctl" list-units --plain --no-legend --state=active \
        'pbem-worker@*.service' | cut -d' ' -f1)
    for unit in "${workers[@]}" pbem-bots.service pbem-notices.service pbem-beat.service pbem-smtpd.service pbem-web.service; do
        if "$systemctl" is-active --quiet "$unit"; then
            "$systemctl" restart "$unit"
            say "restarted $unit"
        fi
    done
else
    say "systemd does not run here: restart the pbem processes yourself, web last"
fi
as_service "$prefix/venv/bin/pbem" check

#!/usr/bin/env bash
# Install pbem on a Debian 12 machine, as root:
#
#   deploy/install.sh [RELEASE]
#
# RELEASE is a source folder (a checkout, an unpacked sdist), an sdist
# (.tar.gz) or a wheel (.whl); by default the checkout holding this script.
# It makes the user pbem, a virtual environment of the release in
# /opt/pbem/venv, /etc/pbem/pbem.env from deploy/pbem.env.example when there
# is none, the systemd units of deploy/systemd, the PostgreSQL role and
# database when the database is on this machine, runs `pbem db upgrade`, and
# enables and starts the units where systemd runs. Run it again at will: what
# is already as it should be is left alone, and the last line says whether
# anything changed. Paths, user and which services run here: deploy/lib.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

install_all "${1:-$(cd "$here/.." && pwd)}"
summary

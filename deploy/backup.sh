#!/usr/bin/env bash
# A backup of pbem's PostgreSQL database: pg_dump in custom format (what
# pg_restore reads), written under a temporary name and renamed when whole,
# keeping the newest PBEM_BACKUP_KEEP dumps. Run it from cron or a systemd
# timer with the same environment as the services (PBEM_DATABASE_URL).
#
#   PBEM_BACKUP_DIR   where dumps go (default /var/backups/pbem)
#   PBEM_BACKUP_KEEP  how many to keep (default 14)
#
# Restore into a new, empty database, then check every game replays:
#   createdb pbem_restored && pg_restore --no-owner -d pbem_restored FILE
#   PBEM_DATABASE_URL=.../pbem_restored pbem verify --all
set -euo pipefail

url=${PBEM_DATABASE_URL:?PBEM_DATABASE_URL must name the database to back up}
dir=${PBEM_BACKUP_DIR:-/var/backups/pbem}
keep=${PBEM_BACKUP_KEEP:-14}
case "$keep" in '' | *[!0-9]* | 0)
    echo "PBEM_BACKUP_KEEP must be a whole number of 1 or more, not '$keep'" >&2
    exit 2
    ;;
esac
# SQLAlchemy names its driver in the URL; pg_dump reads libpq's form.
libpq_url=${url/postgresql+psycopg:/postgresql:}

mkdir -p "$dir"
stamp=$(date -u +%Y%m%dT%H%M%S%NZ)
partial="$dir/pbem-$stamp.dump.partial"
trap 'rm -f "$partial"' EXIT
pg_dump --format=custom --no-owner --file="$partial" "$libpq_url"
mv "$partial" "$dir/pbem-$stamp.dump"
echo "$dir/pbem-$stamp.dump"

# The newest $keep stay; names sort by time.
find "$dir" -maxdepth 1 -name 'pbem-*.dump' | sort -r | tail -n "+$((keep + 1))" | xargs -r rm --

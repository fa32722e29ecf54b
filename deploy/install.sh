#!/usr/bin/env bash
# Install wxbot for systemd, the steps of deploy/README.md in order (run as root from a checkout):
#
#   sudo bash deploy/install.sh                 # user, folders, venv, env file, migrations, units
#   sudo systemctl enable --now wxbot-web wxbot-worker@1 wxbot-worker@2 wxbot-scheduler
#
# The container image (deploy/Dockerfile) runs the same script for its venv (--only venv).
# --root DIR stages everything under DIR instead of / (the test suite installs into a temporary DIR;
# a staged venv only runs where it was built).
set -euo pipefail

ROOT=/
SOURCE="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON=${PYTHON:-python3}
PIP_ARGS=${WXBOT_PIP_ARGS:-}
ENV_SOURCE=""
MAKE_USER=1
MIGRATE=1
STEPS="user folders venv env migrate units"

usage() {
  cat <<USAGE
usage: install.sh [--root DIR] [--source DIR] [--env-file FILE] [--no-user] [--no-migrate] [--only STEP...]
  --root DIR       stage under DIR instead of / (tests, images)
  --source DIR     the wxbot checkout to install (default: this script's repository)
  --env-file FILE  the settings to install as /etc/wxbot/env (default: deploy/.env.example; an
                   existing /etc/wxbot/env is never overwritten)
  --no-user        do not create the wxbot system user (files stay owned by the caller)
  --no-migrate     do not run \`wxbot db upgrade\`
  --only STEPS     run only these steps (space-separated: $STEPS)
environment: PYTHON (default python3), WXBOT_PIP_ARGS (extra pip install arguments)
USAGE
}

while [ $# -gt 0 ]; do
  case "$1" in
    --root) ROOT=$2; shift 2 ;;
    --source) SOURCE=$(cd "$2" && pwd); shift 2 ;;
    --env-file) ENV_SOURCE=$2; shift 2 ;;
    --no-user) MAKE_USER=0; shift ;;
    --no-migrate) MIGRATE=0; shift ;;
    --only) STEPS=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

ROOT=${ROOT%/}
APP=$ROOT/opt/wxbot              # the virtualenv (code and dependencies)
DATA=$ROOT/var/lib/wxbot         # DATA_DIR: the SQLite file when DATABASE_URL is empty
CONF=$ROOT/etc/wxbot             # the env file with the secrets
UNITS=$ROOT/etc/systemd/system
VENV=$APP/venv
ENV_SOURCE=${ENV_SOURCE:-$SOURCE/deploy/.env.example}
step() { case " $STEPS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
say() { echo "install.sh: $*"; }
owner() { if [ "$MAKE_USER" = 1 ]; then chown "$@"; fi; }

if step user && [ "$MAKE_USER" = 1 ]; then
  # 1. a system user without a login shell that owns the data folder
  if id wxbot >/dev/null 2>&1; then say "user wxbot exists"; else
    useradd --system --home-dir /var/lib/wxbot --no-create-home --shell /usr/sbin/nologin wxbot
    say "created the system user wxbot"
  fi
fi

if step folders; then
  # 2. folders: code (root-owned, read-only for the service), data (the service's), config (secrets)
  install -d -m 0755 "$APP"
  install -d -m 0750 "$DATA"; owner wxbot:wxbot "$DATA"
  install -d -m 0750 "$CONF"; owner root:wxbot "$CONF"
  say "folders $APP $DATA $CONF"
fi

if step venv; then
  # 3. a virtualenv with wxbot and its dependencies
  "$PYTHON" -m venv "$VENV"
  # shellcheck disable=SC2086
  "$VENV/bin/pip" install --quiet --disable-pip-version-check $PIP_ARGS "$SOURCE"
  say "installed $("$VENV/bin/pip" show wxbot 2>/dev/null | sed -n 's/^Version: /wxbot /p') into $VENV"
fi

if step env; then
  # 4. the env file: never overwritten; only root and the wxbot group may read it
  if [ -e "$CONF/env" ]; then say "kept the existing $CONF/env"; else
    install -m 0640 "$ENV_SOURCE" "$CONF/env"; owner root:wxbot "$CONF/env"
    grep -q '^DATA_DIR=' "$CONF/env" || echo "DATA_DIR=/var/lib/wxbot" >> "$CONF/env"
    say "wrote $CONF/env from $ENV_SOURCE: edit the secrets in it"
  fi
fi

if step migrate && [ "$MIGRATE" = 1 ]; then
  # 5. the database schema through the migrations (as the service user, so a SQLite file is its own)
  run_as=()
  if [ "$MAKE_USER" = 1 ] && [ "$(id -u)" = 0 ]; then run_as=(runuser -u wxbot --); fi
  (
    set -a; . "$CONF/env"; set +a
    if [ "$ROOT" != "" ]; then DATA_DIR=$DATA; export DATA_DIR; fi   # staged: the staged data folder
    cd "$DATA" && "${run_as[@]}" "$VENV/bin/wxbot" db upgrade
  )
fi

if step units; then
  # 6. the systemd units (enable them with systemctl, see the top of this file)
  install -d -m 0755 "$UNITS"
  for unit in "$SOURCE"/deploy/systemd/*.service; do
    install -m 0644 "$unit" "$UNITS/"
  done
  say "units in $UNITS: $(cd "$SOURCE/deploy/systemd" && echo *.service)"
  if [ "$ROOT" = "" ] && command -v systemctl >/dev/null 2>&1; then
    systemctl daemon-reload
    say "next: systemctl enable --now wxbot-web wxbot-worker@1 wxbot-worker@2 wxbot-scheduler"
  fi
fi

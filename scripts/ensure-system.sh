#!/usr/bin/env bash
# Installs the Debian packages tests need and starts PostgreSQL and Redis when they do not answer.
# Safe to run again: it only acts on what is missing.
set -euo pipefail

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v bwrap >/dev/null 2>&1 || need_apt+=(bubblewrap)
fc-list 2>/dev/null | grep -qi 'noto sans cjk' || need_apt+=(fonts-noto-cjk)
# promtool checks and tests the alert rules in docs/ops/; the package's Prometheus server is never started.
need_promtool=false
command -v promtool >/dev/null 2>&1 || need_promtool=true

if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing Debian packages: ${need_apt[*]} (run as root, or install them: apt-get install ${need_apt[*]})" >&2
    exit 1
  fi
  echo "installing Debian packages: ${need_apt[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if $need_promtool; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing promtool (run as root, or install it: apt-get install --no-install-recommends prometheus)" >&2
    exit 1
  fi
  echo "installing Debian package: prometheus (for promtool)"
  apt-get update -qq
  # No daemon starts during the install: policy-rc.d refuses every start where the machine has no policy of its own.
  own_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    own_policy=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' >"$own_policy"
    chmod +x "$own_policy"
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  [ -z "$own_policy" ] || rm -f "$own_policy"
  # Nor does it start at boot where systemd runs.
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    systemctl disable --now prometheus >/dev/null 2>&1 || true
  fi
fi

# The judge's language toolchains (and bubblewrap); the script installs only what is missing.
if [ "$(id -u)" -eq 0 ]; then
  bash "$(dirname "$0")/install-toolchains.sh"
fi

pg_up() { command -v pg_isready >/dev/null 2>&1 && pg_isready -h 127.0.0.1 -p 5432 -q; }
if ! pg_up; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
    for _ in $(seq 1 30); do pg_up && break; sleep 1; done
  fi
  pg_up || { echo "PostgreSQL is not answering on 127.0.0.1:5432" >&2; exit 1; }
fi
# The tests use the database `test`; create it when the cluster lacks it.
if ! psql -h 127.0.0.1 -U postgres -d test -Atc 'select 1' >/dev/null 2>&1; then
  psql -h 127.0.0.1 -U postgres -d postgres -c 'create database test' >/dev/null
fi

redis_up() { command -v redis-cli >/dev/null 2>&1 && [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = "PONG" ]; }
if ! redis_up; then
  if command -v redis-server >/dev/null 2>&1; then
    echo "starting Redis"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
    for _ in $(seq 1 20); do redis_up && break; sleep 0.5; done
  fi
  redis_up || { echo "Redis is not answering on 127.0.0.1:6379" >&2; exit 1; }
fi
echo "system parts ready: chromium, bubblewrap, promtool, language toolchains, PostgreSQL, Redis"

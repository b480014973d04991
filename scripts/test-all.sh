#!/usr/bin/env bash
# `npm run test:all`, the README's test command (and all `.ci/run` does): installs what the tests
# drive for real, then a clean `npm ci`, the build and `npm test`, printing each phase's time.
# Any failure fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
phase_start=$SECONDS
phase() {
  echo "test:all: phase '$1' took $((SECONDS - phase_start)) s (total $((SECONDS - started)) s)" >&2
  phase_start=$SECONDS
}

# System packages the host tests drive for real: bubblewrap (every child runs inside it; the
# sandbox is required by default on Linux), the clipboard under a virtual X server, `ps` for the
# process-kill tests, curl and strace for the sandbox's adversarial table, a C compiler for the
# native helpers, ripgrep as bench/workspace's peer, chromium for the control tower's browser
# tests (driven by playwright-core; no browser download), PostgreSQL for the shared effect journal
# (its tests start their own server on loopback; the package's own cluster is not used). Installed
# with apt-get when it is there and something is missing; elsewhere, install them yourself.
need=()
for tool in bwrap xclip Xvfb ps curl strace cc rg chromium; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql)
if [ "${#need[@]}" -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1; then
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
      bubblewrap xclip xvfb procps curl strace build-essential postgresql ripgrep chromium >/dev/null
  else
    echo "test:all: missing ${need[*]} and no apt-get: install them, then run again" >&2
  fi
fi
command -v bwrap >/dev/null 2>&1 || { echo "test:all: bubblewrap is required" >&2; exit 1; }
bwrap --version >&2
phase 'system packages'

npm ci --no-audit --no-fund
phase 'npm ci'
npm run build
phase 'build'
npm test
phase 'test'

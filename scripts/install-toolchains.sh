#!/usr/bin/env bash
# Installs the Debian packages of the judge's toolchains (and bubblewrap) that are missing.
# Safe to run again: it checks each package first and runs apt-get update at most once.
# Julia and Dart have no Debian 12 package; an operator installs them by hand (see packages/judge/README.md).
set -euo pipefail

packages=(
  bubblewrap util-linux
  gcc g++ default-jdk-headless python3 php-cli golang-go mono-mcs mono-runtime ruby rustc ghc
  fp-compiler fp-units-base yabasic perl bash lua5.4 ocaml-nox coffeescript
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "judge toolchains: all ${#packages[@]} Debian packages already installed"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "judge toolchains missing: ${missing[*]} (run as root, or: apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "judge toolchains: installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "judge toolchains: installed ${#missing[@]} package(s); julia and dart are not packaged in Debian 12"

#!/usr/bin/env bash
# Install the Debian packages a target needs, only when they are missing.
#   venv: python3 -m venv works, PyICU builds   run: + WeasyPrint's Pango   test: + Chromium, PostgreSQL
set -euo pipefail
target=${1:-run}
need=()

have_deb() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then need+=(python3-venv); fi
# PyICU (look-alike names) builds against the system's ICU
have_deb libicu-dev || need+=(libicu-dev)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
command -v g++ >/dev/null 2>&1 || need+=(g++)
# ... and Python's headers (a Debian python3 has them in python3-dev)
python3 -c 'import os, sysconfig; exit(not os.path.exists(os.path.join(
    sysconfig.get_paths()["include"], "Python.h")))' 2>/dev/null || need+=(python3-dev)
if [ "$target" != venv ]; then
  have_deb libpango-1.0-0 || need+=(libpango-1.0-0 libpangoft2-1.0-0)
  have_deb fonts-dejavu-core || need+=(fonts-dejavu-core)
fi
if [ "$target" = test ]; then
  [ -x /usr/bin/chromium ] || need+=(chromium)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
  command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
fi
[ ${#need[@]} -eq 0 ] && exit 0

echo "Installing from Debian: ${need[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null

#!/usr/bin/env bash
# The main job: dependencies, build, then the kfield program (default: `kfield info`).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/scripts/build.sh"
if [ $# -eq 0 ]; then set -- info; fi
exec "${KFIELD_BUILD_DIR:-$root/build}/apps/kfield" "$@"

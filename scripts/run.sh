#!/usr/bin/env bash
# The main job: dependencies, build, then the kfield program (default: the hop gradient on a
# 1000 x 1000 grid until it is stable, `kfield run hop-gradient`).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/scripts/build.sh"
if [ $# -eq 0 ]; then set -- run hop-gradient; fi
exec "${KFIELD_BUILD_DIR:-$root/build}/apps/kfield" "$@"

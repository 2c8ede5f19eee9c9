#!/usr/bin/env bash
# The main job: dependencies, build, then the kfield program (default: `kfield train`, a neural
# field learning distances on the built-in config, with a checkpoint, pictures and a held-out
# error on networks ten times larger).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/scripts/build.sh"
if [ $# -eq 0 ]; then set -- train; fi
exec "${KFIELD_BUILD_DIR:-$root/build}/apps/kfield" "$@"

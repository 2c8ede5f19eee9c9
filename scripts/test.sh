#!/usr/bin/env bash
# The test command: dependencies, build, the format check (scripts/format.sh), then every test
# (each backend; OpenMP at 1 and 2 threads; the command line; install and a consumer project
# built against it), as many at once as the machine has cores.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/scripts/build.sh" "$@"
bash "$root/scripts/format.sh" --check
cd "${KFIELD_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j"$(nproc)"

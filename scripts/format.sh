#!/usr/bin/env bash
# Formats kfield's C++ with the one pinned clang-format (Debian 12's clang-format-14, which
# scripts/setup.sh installs) and .clang-format. `--check`: changes nothing, lists every file
# that is not formatted and exits 1 if there is one (what the test command runs).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
format=${KFIELD_CLANG_FORMAT:-clang-format-14}
if ! command -v "$format" >/dev/null; then
  echo "kfield format: $format not found (bash scripts/setup.sh installs it)" >&2
  exit 1
fi
version=$("$format" --version)
case $version in
  *"version 14."*) ;;
  *) echo "kfield format: $format is '$version', not clang-format 14" >&2; exit 1 ;;
esac
# Every tracked or new C++ file but the generated ones (.gitattributes: linguist-generated).
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.cpp' '*.hpp' '*.h' |
  git check-attr --stdin linguist-generated | awk -F': ' '$3 != "true" { print $1 }')
if [ "${1:-}" = --check ]; then
  bad=()
  for f in "${files[@]}"; do
    [ -f "$f" ] || continue
    "$format" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
  done
  if [ ${#bad[@]} -gt 0 ]; then
    echo "kfield format: ${#bad[@]} file(s) not formatted by $format (bash scripts/format.sh fixes them):" >&2
    for f in "${bad[@]}"; do
      "$format" --dry-run "$f" 2>&1 | head -n 6 >&2
    done
    exit 1
  fi
  exit 0
fi
for f in "${files[@]}"; do
  [ -f "$f" ] && "$format" -i "$f"
done

#!/bin/sh
# small-disk.sh SIZE FOLDER COMMAND...: runs COMMAND in a mount namespace of its own where FOLDER
# is a tmpfs of SIZE (a disk that fills up); exits 77 (skipped) where mounting is not allowed.
size=$1 folder=$2
shift 2
unshare -m true 2>/dev/null || exit 77
exec unshare -m sh -c 'mount -t tmpfs -o size="$0" tmpfs "$1" 2>/dev/null || exit 77; shift; exec "$@"' \
  "$size" "$folder" "$@"

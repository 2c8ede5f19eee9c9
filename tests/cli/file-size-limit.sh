#!/bin/sh
# file-size-limit.sh BLOCKS COMMAND...: runs COMMAND with files limited to BLOCKS blocks of 512
# bytes and SIGXFSZ ignored, so a write past the limit fails as on a full disk (EFBIG).
trap '' XFSZ
ulimit -f "$1"
shift
exec "$@"

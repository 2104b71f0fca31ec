#!/bin/sh
# A remote-start command for tests: runs the proxy here (mpiexec --launcher-exec).
# Usage: fake_rsh.sh HOST COMMAND [ARGS...]
shift
exec "$@"

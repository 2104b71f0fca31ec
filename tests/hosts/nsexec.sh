#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# A remote-start command for mpiexec --launcher-exec that runs the proxy in
# the network namespace standing for HOST instead of over ssh:
#     nsexec.sh HOST COMMAND [ARGS...]
# The namespace of HOST is $XB_TEST_NETNS_PREFIX$HOST (tests/hosts/run.sh makes
# them). A host without a namespace is reported like ssh reports a name that
# does not resolve, with ssh's exit status 255.
host=${1:?usage: nsexec.sh HOST COMMAND...}
shift
ns="${XB_TEST_NETNS_PREFIX:?XB_TEST_NETNS_PREFIX is not set}$host"
if [ ! -e "/run/netns/$ns" ]; then
    echo "nsexec: Could not resolve hostname $host: no network namespace $ns" >&2
    exit 255
fi
exec ip netns exec "$ns" "$@"

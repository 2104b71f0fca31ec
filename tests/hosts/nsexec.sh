#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# A remote-start command that runs a command in the network namespace
# standing for HOST instead of over ssh, with ssh's calling convention, so
# that both our mpiexec (--launcher-exec) and MPICH's Hydra (-launcher ssh
# -launcher-exec) can use it:
#     nsexec.sh [-x] [-o OPT] ... HOST COMMAND WORDS...
# Leading options are ignored; the words are joined and run by sh -c, as
# ssh's remote shell does (Hydra quotes the words for that shell). The
# namespace of HOST is $XB_TEST_NETNS_PREFIX$HOST (tests/hosts/run.sh makes
# them). A host without a namespace is reported like ssh reports a name
# that does not resolve, with ssh's exit status 255.
while [ "${1#-}" != "${1:-}" ]; do
    case $1 in -o|-p|-l|-i|-F) shift ;; esac
    shift
done
host=${1:?usage: nsexec.sh [options] HOST COMMAND...}
shift
ns="${XB_TEST_NETNS_PREFIX:?XB_TEST_NETNS_PREFIX is not set}$host"
if [ ! -e "/run/netns/$ns" ]; then
    echo "nsexec: Could not resolve hostname $host: no network namespace $ns" >&2
    exit 255
fi
exec ip netns exec "$ns" sh -c "exec $*"

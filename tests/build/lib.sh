# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# Shared helpers of the shell tests in tests/build/ and tests/hydra/ (sourced).
# Environment (set by tests/CMakeLists.txt): XB_BUILD_DIR, XB_SOURCE_DIR.
# Provides: $XB_TMP (a private directory, removed at exit), die, fail,
# expect_eq, expect_match, finish. A failed expectation is counted and
# printed; finish exits 1 when any failed. die stops at once.
set -u
: "${XB_BUILD_DIR:?set XB_BUILD_DIR}" "${XB_SOURCE_DIR:?set XB_SOURCE_DIR}"
XB_TMP=$(mktemp -d "${TMPDIR:-/tmp}/xb-build-test.XXXXXX") || exit 1
trap 'rm -rf "$XB_TMP"' EXIT
xb_failures=0

die() { echo "FAIL: $*"; exit 1; }
fail() { echo "FAIL: $*"; xb_failures=$((xb_failures + 1)); }
# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
    if [ "$2" = "$3" ]; then echo "ok: $1"; else fail "$1: expected '$2', got '$3'"; fi
}
# expect_match WHAT EXTENDED-REGEX TEXT
expect_match() {
    if printf '%s\n' "$3" | grep -Eq -- "$2"; then
        echo "ok: $1"
    else
        fail "$1: /$2/ not found in:"; printf '%s\n' "$3" | head -20
    fi
}
finish() {
    if [ "$xb_failures" -gt 0 ]; then echo "$xb_failures check(s) failed"; exit 1; fi
    echo "all checks passed"; exit 0
}

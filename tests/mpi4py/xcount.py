# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
"""Count the tests of mpi4py's suite that an exclude file removes.

usage: python xcount.py TESTDIR XFILE [MODULE ...]

TESTDIR is the test/ directory of mpi4py's sdist, XFILE the patterns given
to test/main.py --xfile (one per line, main.py's semantics: a pattern
without '*' matches as *pattern*, fnmatch on module.Class.method), MODULE
the names of whole modules excluded with -e (their tests are counted when
the module imports; a module that fails to import counts as 1). Prints one
number: the expected failures of that run (tests/mpi4py/run.sh).
Runs as a singleton (the test modules import mpi4py.MPI).
"""
import fnmatch
import sys
import unittest


def main():
    testdir, xfile, *modules = sys.argv[1:]
    with open(xfile, encoding="utf-8") as f:
        pats = [p if "*" in p else f"*{p}*" for p in f.read().split()]
    sys.path.insert(0, testdir)
    suite = unittest.TestLoader().discover(testdir, pattern="test_*.py")

    def tests(s):
        for t in s:
            if isinstance(t, unittest.TestSuite):
                yield from tests(t)
            else:
                yield t

    n = 0
    for t in tests(suite):
        name = t.id()
        mod = name.split(".")[0]
        if name.startswith("unittest.loader._FailedTest."):
            mod = name.rsplit(".", 1)[1]
            n += mod in modules
            continue
        if mod in modules or any(fnmatch.fnmatchcase(name, p) for p in pats):
            n += 1
    print(n)


if __name__ == "__main__":
    main()

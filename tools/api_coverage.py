#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
"""How much of the standard's C API Crossbar provides, per chapter.

Usage:
    python3 tools/api_coverage.py [--spec spec/implemented.txt] [--missing]

Counts C functions as the standard defines them (pympistandard): each
procedure with an ISO C binding counts once, plus once more for its
large-count `_c` form. A function is provided when its base name is listed
in the spec (the generator then emits both forms, unless `nolarge`).
Chapters are assigned from the function names (the API data carries none).
"""

import argparse
import os
import re
import sys

import pympistandard as std

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_bindings  # noqa: E402  (same directory)

# (chapter, regex on the name without "MPI_"); the first match wins.
CHAPTERS = [
    ("abi", r"Abi_|.*_(toint|fromint|c2f|f2c|f082c|c2f08|f082f|f2f08)$|Status_(c2f|f2c)"),
    ("tools", r"T_|Pcontrol$"),
    ("io", r"File_|Register_datarep"),
    ("rma", r"Win_|Put$|Get$|R?[Aa]ccumulate|R?Get_accumulate|Fetch_and_op|"
            r"Compare_and_swap|Rput|Rget$"),
    ("partitioned", r"Psend_init|Precv_init|Pready|Parrived"),
    ("datatypes", r"Type_|Pack|Unpack|Get_address|Get_elements|Aint_|Status_set_elements"),
    ("topology", r"Cart|Graph|Dist_graph|Topo_test|Dims_create|I?[Nn]eighbor_"),
    ("process", r"Init|Finalize|Abort|Is_thread_main|Query_thread|Session_|Comm_spawn|"
                r"Comm_get_parent|Open_port|Close_port|Comm_accept|Comm_connect|"
                r"Publish_name|Unpublish_name|Lookup_name|Comm_disconnect|Comm_join"),
    ("info", r"Info_"),
    ("environment", r"Errhandler|.*_errhandler|Error_|Add_error|Get_version|"
                    r"Get_library_version|Get_processor_name|Wtime|Wtick|Alloc_mem|"
                    r"Free_mem|Get_hw_resource_info|Remove_error"),
    ("collective", r"(?i:i?(barrier|bcast|gather|scatter|allgather|alltoall|reduce|"
                   r"allreduce|scan|exscan))|Op_"),
    ("external", r"Grequest_|Status_set_"),
    ("groups-comms", r"Comm_|Group_|Intercomm_|Keyval|Attr_|.*_keyval|.*_attr"),
    ("pt2pt", r".*"),
]


def chapter(name):
    short = name[4:]
    for ch, rx in CHAPTERS:
        if re.match(rx, short):
            return ch
    return "other"


def standard_functions():
    """Every C function of the standard: (name, chapter)."""
    std.use_api_version(1)
    out = []
    for sproc in std.PROCEDURES.values():
        iso = sproc.express.iso_c
        if iso is None:
            continue
        base = iso.name
        out.append((base, base))
        if sproc.has_embiggenment() and sproc.express.embiggen is not None \
                and sproc.express.embiggen.iso_c is not None:
            out.append((base + "_c", base))
    return sorted(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spec", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "spec", "implemented.txt"))
    ap.add_argument("--missing", action="store_true", help="list what is not provided")
    a = ap.parse_args(argv)
    try:
        entries = {e.name: e for e in gen_bindings.parse_spec(a.spec)}
    except gen_bindings.SpecError as err:
        print("api_coverage: %s" % err, file=sys.stderr)
        return 1
    per = {}
    missing = {}
    for name, base in standard_functions():
        ch = chapter(base)
        e = entries.get(base)
        have = e is not None and not (name.endswith("_c") and name != base and
                                      "nolarge" in e.flags)
        tot = per.setdefault(ch, [0, 0])
        tot[1] += 1
        if have:
            tot[0] += 1
        else:
            missing.setdefault(ch, []).append(name)
    order = [c for c, _ in CHAPTERS] + ["other"]
    print("%-14s %9s %7s %6s" % ("chapter", "provided", "total", "%"))
    done = total = 0
    for ch in order:
        if ch not in per:
            continue
        d, t = per[ch]
        done, total = done + d, total + t
        print("%-14s %9d %7d %5.0f%%" % (ch, d, t, 100.0 * d / t))
    print("%-14s %9d %7d %5.0f%%" % ("all", done, total, 100.0 * done / max(total, 1)))
    if a.missing:
        for ch in order:
            if missing.get(ch):
                print("\nmissing in %s:\n  %s" % (ch, "\n  ".join(missing[ch])))
    return 0


if __name__ == "__main__":
    sys.exit(main())

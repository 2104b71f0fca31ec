#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
"""Generate Crossbar's MPI binding layer from the MPI Forum's API data.

Usage:
    python3 tools/gen_bindings.py --spec spec/implemented.txt --out build/gen

Reads the list of implemented functions (format: spec/binding.md) and the
standard's machine-readable API (pympistandard), and writes into --out:
    mpi_proto.h          MPI_X and PMPI_X prototypes (included by mpi.h)
    xb_impl.h            prototypes of the xb_impl_* implementation functions
    binding_<sect>.c     one per [section] of the spec: PMPI_X wrappers with
                         the init check, handle resolution, argument checks,
                         the call into xb_impl_x, the errhandler on failure,
                         and the weak alias MPI_X.
Output is deterministic; files whose content did not change are not
rewritten (their timestamps stay, so make rebuilds nothing).
"""

import argparse
import os
import re
import sys

import pympistandard as std

# ---- what the generator knows about parameter kinds ------------------------

# By-value handle kinds: kind -> (object type, resolver, null handle, hk id)
HANDLES = {
    "COMMUNICATOR": ("xb_comm_t", "xb_comm_from_handle", "MPI_COMM_NULL", "XB_HK_COMM"),
    "DATATYPE": ("xb_datatype_t", "xb_dt_from_handle", "MPI_DATATYPE_NULL", "XB_HK_DATATYPE"),
    "GROUP": ("xb_group_t", "xb_group_from_handle", "MPI_GROUP_NULL", "XB_HK_GROUP"),
    "OPERATION": ("xb_op_t", "xb_op_from_handle", "MPI_OP_NULL", "XB_HK_OP"),
    "ERRHANDLER": ("xb_errhandler_t", "xb_errhandler_from_handle", "MPI_ERRHANDLER_NULL", "XB_HK_ERRHANDLER"),
    "REQUEST": ("xb_request_t", "xb_request_from_handle", "MPI_REQUEST_NULL", "XB_HK_REQUEST"),
    "INFO": ("xb_info_t", "xb_info_from_handle", "MPI_INFO_NULL", "XB_HK_INFO"),
    "MESSAGE": ("xb_message_t", "xb_message_from_handle", "MPI_MESSAGE_NULL", "XB_HK_MESSAGE"),
    "SESSION": ("xb_session_t", "xb_session_from_handle", "MPI_SESSION_NULL", "XB_HK_SESSION"),
    "WINDOW": ("xb_win_t", "xb_win_from_handle", "MPI_WIN_NULL", "XB_HK_WIN"),
    "FILE": ("xb_file_t", "xb_file_from_handle", "MPI_FILE_NULL", "XB_HK_FILE"),
}
# The new communicator of a constructor that fails is MPI_COMM_NULL (the
# standard leaves it undefined; MPICH sets it, and programs test it). Not
# MPI_Comm_spawn's intercomm: its processes may run though some failed.
NEW_COMM_OUT = {"newcomm", "comm_cart", "comm_graph", "comm_dist_graph",
                "newintercomm", "newintracomm"}

# MPI-IO: functions on files raise errors on the file's errhandler (that of
# MPI_FILE_NULL when there is no file yet: open, delete); src/io/io.h.
FILE_RAISE_EXCEPT = {"MPI_File_create_errhandler"}
# I/O routines without a file handle: MPI_FILE_NULL's errhandler (MPI 4.1 14.7)
FILE_RAISE_ALSO = {"MPI_Register_datarep"}
# Kinds whose pointer may legitimately be NULL (user buffers, MPI_BOTTOM).
BUFFER_KINDS = {"BUFFER", "C_BUFFER", "C_BUFFER3", "C_BUFFER4"}
# Negative values of these kinds are MPI_ERR_COUNT; other *_NNI kinds MPI_ERR_ARG.
COUNT_KINDS_RE = re.compile(r"NUM_ELEM|ARRAY_LENGTH")
# Flags of rank/tag arguments (spec) -> C allow bits (bind_check.h).
ALLOW = {"procnull": "XB_ALLOW_PROC_NULL", "anysource": "XB_ALLOW_ANY_SOURCE",
         "anytag": "XB_ALLOW_ANY_TAG", "root": "XB_ALLOW_ROOT"}
ARG_FLAGS = set(ALLOW) | {"nullok", "nocheck", "zeronull"}
FUNC_FLAGS = {"noinit", "custom", "nolarge", "largeform", "nolock", "lane", "fast"}


class SpecError(Exception):
    pass


# ---- the spec ---------------------------------------------------------------

class Entry:
    """One line of spec/implemented.txt."""

    def __init__(self, name, section, flags, argflags, inplace, lineno, as_=None):
        self.name = name
        self.section = section
        self.flags = flags          # set of FUNC_FLAGS
        self.argflags = argflags    # {argname: set of ARG_FLAGS}
        self.inplace = inplace      # name of the buffer that may be MPI_IN_PLACE
        self.lineno = lineno
        self.as_ = as_              # a removed MPI-1 name: the procedure it calls


def parse_spec(path):
    entries, section, seen = [], None, set()
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            where = "%s:%d" % (path, lineno)
            m = re.fullmatch(r"\[([a-z0-9_]+)\]", line)
            if m:
                section = m.group(1)
                continue
            words = line.split()
            name = words[0]
            if not re.fullmatch(r"MPI_[A-Za-z0-9_]+", name) or name.endswith("_c"):
                raise SpecError("%s: '%s' is not a base MPI function name" % (where, name))
            if section is None:
                raise SpecError("%s: function before the first [section]" % where)
            if name in seen:
                raise SpecError("%s: %s listed twice" % (where, name))
            seen.add(name)
            flags, argflags, inplace, as_ = set(), {}, None, None
            for w in words[1:]:
                if "=" in w:
                    arg, vals = w.split("=", 1)
                    if arg == "inplace":
                        inplace = vals
                        continue
                    if arg == "as":
                        as_ = vals
                        continue
                    vals = set(vals.split(","))
                    bad = vals - ARG_FLAGS
                    if bad:
                        raise SpecError("%s: unknown argument flag(s) %s" % (where, ",".join(sorted(bad))))
                    argflags.setdefault(arg, set()).update(vals)
                elif w in FUNC_FLAGS:
                    flags.add(w)
                else:
                    raise SpecError("%s: unknown flag '%s'" % (where, w))
            entries.append(Entry(name, section, flags, argflags, inplace, lineno, as_))
    return entries


# ---- parameters -------------------------------------------------------------

def c_style(text):
    """pympistandard writes 'void* buf'; we write 'void *buf'."""
    text = text.replace("\\ldots", "...")
    return re.sub(r"(\w)(\*+) ", r"\1 \2", text)


class Param:
    """One C parameter of one variant (int or _c) of a procedure."""

    def __init__(self, iso):
        ps = iso._parseset
        self.name = iso.name
        self.kind = ps["kind"]
        self.direction = ps["param_direction"]
        self.decl = c_style(str(iso))
        self.base = iso.base_type
        self.const = iso.constant
        self.ptr = iso.pointer_level
        self.array = iso.array
        self.length = ps["length"]
        self.root_only = ps["root_only"]
        self.poly = self.kind.startswith("POLY")
        if self.kind == "ARGUMENT_LIST" and self.ptr == 0 and self.array:
            # pympistandard renders char *argv[] as "char argv[]"
            self.decl = self.decl.replace("char %s" % self.name, "char *%s" % self.name)

    @property
    def by_value_handle(self):
        return self.kind in HANDLES and self.ptr == 0 and not self.array

    @property
    def is_pointer(self):
        return self.ptr > 0 or bool(self.array)

    @property
    def counted_array(self):
        """Name of the parameter that gives this array's length, if any."""
        if isinstance(self.length, str) and re.fullmatch(r"[a-z_0-9]+", self.length):
            return self.length
        return None


class Proc:
    """A listed function: its variants and the implementation signature."""

    def __init__(self, entry, sproc):
        self.entry = entry
        self.name = entry.name
        self.sproc = sproc
        iso = sproc.express.iso_c
        if iso is None:
            raise SpecError("%s has no ISO C binding" % self.name)
        self.ret = c_style(iso.return_type).strip()
        embig = None
        if sproc.has_embiggenment() and sproc.express.embiggen is not None:
            embig = sproc.express.embiggen.iso_c
        self.embig_params = [Param(p) for p in embig.parameters] if embig is not None else None
        self.int_params = [Param(p) for p in iso.parameters]
        self.variants = [(self.name, self.int_params, False)]
        if embig is not None and "nolarge" not in entry.flags and entry.as_ is None:
            self.variants.append((self.name + "_c", self.embig_params, True))
        self.impl = "xb_impl_" + (entry.as_ or self.name)[4:].lower()
        self.fast = "xb_fast_" + self.name[4:].lower()

    def impl_params(self):
        """The implementation's parameters (HACKING.md, binding convention)."""
        src = self.embig_params if self.embig_params is not None else self.int_params
        out = []
        for p in src:
            if p.by_value_handle:
                out.append("%s *%s" % (HANDLES[p.kind][0], p.name))
            elif p.kind == "POLYFUNCTION":
                ip = next(q for q in self.int_params if q.name == p.name)
                out.append("%s *%s" % (ip.base, p.name))
                out.append("%s *%s_c" % (p.base, p.name))
            elif p.poly and (p.array or p.ptr):
                out.append("%sMPI_Count *%s" % ("const " if p.const else "", p.name))
            else:
                out.append(p.decl)
        if "largeform" in self.entry.flags:
            out.append("bool large")
        return out


# ---- prototypes -------------------------------------------------------------

def proto(ret, name, params):
    return "%s %s(%s)" % (ret, name, ", ".join(p.decl for p in params) or "void")


def gen_mpi_proto(procs, banner):
    out = [banner, "#ifndef CROSSBAR_MPI_PROTO_H", "#define CROSSBAR_MPI_PROTO_H", ""]
    for pr in procs:
        for vname, params, _ in pr.variants:
            out.append(proto(pr.ret, vname, params) + ";")
            out.append(proto(pr.ret, "P" + vname, params) + ";")
    out += ["", "#endif", ""]
    return "\n".join(out)


def gen_impl_h(procs, banner):
    out = [banner, """/*
 * The implementation functions the generated bindings call. Each layer's
 * *_impl.c includes this header, so a signature that drifts from the spec is
 * a compile error. Convention (HACKING.md): IN handles arrive resolved to
 * object pointers (a null handle the spec allows arrives as NULL); counts
 * with a large-count variant are MPI_Count; a POLYFUNCTION argument arrives
 * as two pointers (int and _c flavour), exactly one of them non-NULL.
 * Return XB_OK or a negative XB_ERR_* with detail recorded (xb_err_set).
 */
#ifndef XB_IMPL_H
#define XB_IMPL_H

#include "util/xb_common.h"
#include "core/core.h"
#include "core/request.h"
#include "core/op.h"
#include "datatype/datatype.h"

/* Objects without a header of their own yet (incomplete here). */
typedef struct xb_info xb_info_t;
typedef struct xb_message xb_message_t;
xb_info_t    *xb_info_from_handle(MPI_Info h);
xb_message_t *xb_message_from_handle(MPI_Message h);
/* Windows (src/rma/rma.h): errors of a call on a window go to the window's
 * error handler (MPI_COMM_SELF's when the handle did not resolve). */
typedef struct xb_win xb_win_t;
xb_win_t     *xb_win_from_handle(MPI_Win h);
int           xb_errh_raise_win(xb_win_t *win, const char *fn, int rc);
/* MPI-IO (src/io/io.h): files and their error path. */
typedef struct xb_file xb_file_t;
xb_file_t *xb_file_from_handle(MPI_File h);
int xb_io_raise(xb_file_t *fh, const char *fn, int rc);
int xb_io_raise_ref(const MPI_File *fh, const char *fn, int rc);
"""]
    section = None
    for pr in procs:
        if "custom" in pr.entry.flags or pr.entry.as_ is not None:
            continue            # (a removed name calls its replacement's)
        if pr.entry.section != section:
            section = pr.entry.section
            out.append("/* ---- %s ---- */" % section)
        out.append("int %s(%s);" % (pr.impl, ", ".join(pr.impl_params()) or "void"))
        if "fast" in pr.entry.flags:    # the lock-free attempt, raw arguments
            if len(pr.variants) != 1:
                raise SpecError("%s: flag fast with a large-count form" % pr.name)
            out.append(proto("int", pr.fast, pr.variants[0][1]) + ";")
    out += ["", "#endif", ""]
    return "\n".join(out)


# ---- wrappers ---------------------------------------------------------------

def buffer_groups(params):
    """Map buffer name -> (count param, datatype param or None).

    A buffer's count is the first count-like scalar after it (before the next
    buffer) and its datatype the first by-value datatype after that count. A
    buffer followed directly by another buffer (MPI_Reduce's sendbuf) shares
    the next buffer's count and datatype."""
    groups, order = {}, []
    for i, p in enumerate(params):
        if p.kind not in BUFFER_KINDS:
            continue
        order.append(p.name)
        count = dtype = None
        for q in params[i + 1:]:
            if q.kind in BUFFER_KINDS:
                break
            if count is None and re.search(r"NUM_ELEM|NUM_BYTES", q.kind) and \
                    q.direction == "in" and not q.is_pointer:
                count = q
            elif count is not None and dtype is None and q.kind == "DATATYPE" and q.by_value_handle:
                dtype = q
        groups[p.name] = (count, dtype)
    for i, name in enumerate(order):
        if groups[name][0] is None and i + 1 < len(order):
            groups[name] = groups[order[i + 1]]
    return groups


def peer_array_len(proc, arg, comm):
    """C expression for the length of a collective's per-peer array.

    Neighbourhood collectives: the topology's in-degree (recv side) or
    out-degree (send side). Reduce_scatter: one entry per rank of the local
    group (also on an intercommunicator). Others: one per rank of the group
    data comes from or goes to (the remote group of an intercommunicator)."""
    if "neighbor" in proc.lower():
        side = "out" if arg.startswith("send") or arg == "sdispls" else "in"
        return "xb_bind_%s_degree(%s)" % (side, comm)
    if re.fullmatch(r"MPI_I?[Rr]educe_scatter(_init)?", proc):
        return "%s->size" % comm
    return "xb_check_peer_size(%s)" % comm


class Wrapper:
    """Emits one PMPI_X function (one variant of one procedure)."""

    def __init__(self, pr, vname, params, large):
        self.pr, self.vname, self.params, self.large = pr, vname, params, large
        self.e = pr.entry
        self.byname = {p.name: p for p in params}
        self.groups = buffer_groups(params)
        comms = [p for p in params if p.kind == "COMMUNICATOR" and p.by_value_handle]
        self.comm = comms[0] if comms else None
        # the condition under which a parameter is significant ("" = always)
        self.cond = {}
        root = self.byname.get("root")
        if root is not None and self.comm is not None:
            c = self.comm.name
            rooted = [p for p in params if p.root_only]
            shared = {q.name for b in rooted if b.name in self.groups
                      for q in self.groups[b.name] if q is not None}
            for p in params:
                if p.root_only:
                    self.cond[p.name] = "xb_bind_at_root(%s_obj, root)" % c
            # gather/scatter/reduce: what only the sending side gives (on an
            # intercommunicator, not MPI_ROOT nor MPI_PROC_NULL)
            for b in (params if rooted else []):
                if b.kind not in BUFFER_KINDS or b.root_only or b.name not in self.groups:
                    continue
                for q in (b,) + self.groups[b.name]:
                    if q is not None and q.name not in shared:
                        self.cond[q.name] = "xb_bind_sends(%s_obj, root)" % c
        if self.e.inplace in self.groups:       # its count and type are ignored
            b = self.byname[self.e.inplace]
            for q in (b,) + self.groups[b.name]:
                if q is not None:
                    c = self.cond.get(q.name)
                    inp = "%s != MPI_IN_PLACE" % b.name
                    self.cond[q.name] = "%s && %s" % (c, inp) if c else inp

    def aflags(self, p):
        return self.e.argflags.get(p.name, set())

    def guarded(self, p, lines, indent="        "):
        c = self.cond.get(p.name, "")
        if not c:
            return [indent + line for line in lines]
        return [indent + "if (%s) {" % c] + [indent + "    " + line for line in lines] + [indent + "}"]

    def fail(self, expr):
        return ["if (XB_UNLIKELY((xb_rc = %s) != XB_OK))" % expr, "    goto fail;"]

    def zero_count(self, p):
        """The count grouped with datatype p (flag zeronull), else SpecError."""
        for count, dtype in self.groups.values():
            if dtype is p and count is not None and not count.is_pointer:
                return count
        raise SpecError("%s: zeronull on '%s', which is not the datatype of a buffer "
                        "with one count" % (self.vname, p.name))

    def resolve(self, p):
        otype, fn, null, hk = HANDLES[p.kind]
        nullok = "nullok" in self.aflags(p) or p.kind == "INFO"
        test = "%s_obj == NULL" % p.name
        if nullok:
            test += " && %s != %s" % (p.name, null)
        handle = p.name
        if p.kind == "DATATYPE" and "zeronull" in self.aflags(p):
            # MPI_DATATYPE_NULL with count 0 (MPICH accepts it, users rely
            # on it): no data moves, so it stands for MPI_BYTE
            handle = "(%s == MPI_DATATYPE_NULL && %s == 0 ? MPI_BYTE : %s)" % (
                p.name, self.zero_count(p).name, p.name)
        body = ["%s_obj = %s(%s);" % (p.name, fn, handle),
                "if (XB_UNLIKELY(%s)) {" % test,
                "    xb_rc = xb_check_handle_fail(%s, \"%s\", (const void *)%s);" % (hk, p.name, p.name),
                "    goto fail;",
                "}"]
        return self.guarded(p, body, "    ")

    def checks(self, p):
        """The value checks of one parameter (inside if (xb_param_check()))."""
        fl = self.aflags(p)
        if "nocheck" in fl:
            return []
        cobj = "%s_obj" % self.comm.name if self.comm else "NULL"
        out = []
        if p.kind.endswith("_NNI") and p.direction == "in" and not p.is_pointer:
            code = "XB_ERR_COUNT" if COUNT_KINDS_RE.search(p.kind) else "XB_ERR_ARG"
            out += self.fail("xb_check_nonneg(\"%s\", %s, %s)" % (p.name, p.name, code))
        elif p.kind == "RANK" and p.direction == "in" and not p.is_pointer and self.comm:
            if p.name == "root":
                out += self.fail("xb_check_root(\"root\", root, %s)" % cobj)
            else:
                allow = " | ".join(ALLOW[f] for f in sorted(fl & set(ALLOW))) or "0"
                out += self.fail("xb_check_rank(\"%s\", %s, %s, %s)" % (p.name, p.name, cobj, allow))
        elif p.kind == "TAG" and p.direction == "in" and not p.is_pointer:
            allow = " | ".join(ALLOW[f] for f in sorted(fl & set(ALLOW))) or "0"
            out += self.fail("xb_check_tag(\"%s\", %s, %s)" % (p.name, p.name, allow))
        elif p.kind in BUFFER_KINDS and p.name in self.groups:
            count, dtype = self.groups[p.name]
            if count is not None:
                dt = "%s_obj" % dtype.name if dtype is not None else "NULL"
                out += self.fail("xb_check_buf(\"%s\", %s, %s, %s)" % (p.name, p.name, count.name, dt))
        elif p.counted_array and p.kind != "STATUS" and "nullok" not in fl:
            out += self.fail("xb_check_array(\"%s\", %s, %s)" % (p.name, p.name, p.counted_array))
        elif p.is_pointer and not p.array and p.kind not in BUFFER_KINDS and \
                not (p.kind == "STATUS" and p.direction == "out") and "nullok" not in fl:
            out += self.fail("xb_check_ptr(\"%s\", %s)" % (p.name, p.name))
        if p.kind == "DATATYPE" and p.by_value_handle and \
                any(d is p for _, d in self.groups.values()):
            out += self.fail("xb_check_committed(\"%s\", %s, %s_obj)" % (p.name, p.name, p.name))
        return [(self.cond.get(p.name, ""), out)] if out else []

    def call_args(self):
        """Arguments of the xb_impl call, plus conversion code around it."""
        args, pre, post, cleanup, decls = [], [], [], [], []
        impl_src = self.pr.embig_params if self.pr.embig_params is not None else self.pr.int_params
        for ip in impl_src:
            p = self.byname.get(ip.name)
            if p is None:                      # large_only parameter: absent here
                args.append("0")
                continue
            if p.by_value_handle:
                args.append("%s_obj" % p.name)
            elif p.kind == "POLYFUNCTION":
                args += ["NULL", p.name] if self.large else [p.name, "NULL"]
            elif p.poly and not self.large and p.counted_array:
                w = "%s_w" % p.name
                decls.append("MPI_Count %s_s[XB_BIND_STACK], *%s = NULL;" % (p.name, w))
                widen = "xb_bind_widen_aint" if p.base == "MPI_Aint" else "xb_bind_widen_int"
                pre += self.fail("%s(\"%s\", %s, %s, %s_s, &%s)" % (widen, p.name, p.name, p.counted_array, p.name, w))
                args.append(w)
                cleanup.append("xb_bind_free(%s, %s_s);" % (w, p.name))
            elif p.poly and not self.large and p.array and self.comm is not None:
                # a collective's per-peer array (recvcounts, displs): its
                # length depends on the collective (peer_array_len); an
                # array significant only at the root is read only there
                w = "%s_w" % p.name
                decls.append("MPI_Count %s_s[XB_BIND_STACK], *%s = NULL;" % (p.name, w))
                widen = "xb_bind_widen_aint" if p.base == "MPI_Aint" else "xb_bind_widen_int"
                n = peer_array_len(self.pr.name, p.name, "%s_obj" % self.comm.name)
                call = self.fail("%s(\"%s\", %s, %s, %s_s, &%s)" % (widen, p.name, p.name, n, p.name, w))
                c = self.cond.get(p.name) if p.root_only else None
                pre += ["if (%s) {" % c] + ["    " + x for x in call] + ["}"] if c else call
                args.append(w)
                cleanup.append("xb_bind_free(%s, %s_s);" % (w, p.name))
            elif p.poly and not self.large and p.ptr:
                w = "%s_w" % p.name
                if p.direction == "inout":
                    decls.append("MPI_Count %s = 0;" % w)
                    pre.append("if (%s != NULL)" % p.name)
                    pre.append("    %s = *%s;" % (w, p.name))
                else:
                    decls.append("MPI_Count %s = 0;" % w)
                args.append("&%s" % w)
                if p.base == "int":
                    post.append("*%s = xb_bind_narrow_int(%s);" % (p.name, w))
                else:
                    post.append("*%s = (%s)%s;" % (p.name, p.base, w))
            else:
                args.append(p.name)
        if "largeform" in self.pr.entry.flags:
            args.append("true" if self.large else "false")
        return args, pre, post, cleanup, decls

    def lock_call(self):
        """The critical section: the whole-call lock, or with `lane` the lock
        of the channel of the first communicator (or request) argument
        (docs/design/threads.md "Progress contexts")."""
        if "lane" not in self.e.flags:
            return "bool", "xb_cs_enter()"
        for kind, fn in (("COMMUNICATOR", "xb_cs_enter_comm"), ("REQUEST", "xb_cs_enter_req")):
            for p in self.params:
                if p.kind == kind:
                    ref = p.name if p.is_pointer else "&" + p.name
                    return "int", "%s(%s)" % (fn, ref if kind == "REQUEST" else p.name)
        raise SpecError("%s: flag lane needs a communicator or request argument"
                        % self.e.name)

    def emit(self):
        pr, e = self.pr, self.e
        sig = proto("int", "P" + self.vname, self.params)
        hs = [p for p in self.params if p.by_value_handle]
        # comm, then window, first: they select the errhandler
        hs.sort(key=lambda p: {"COMMUNICATOR": 0, "WINDOW": 1}.get(p.kind, 2))
        out = ["XB_EXPORT " + sig, "{", "    int xb_rc;"]
        for p in hs:
            out.append("    %s *%s_obj = NULL;" % (HANDLES[p.kind][0], p.name))
        args, pre, post, cleanup, decls = self.call_args()
        out += ["    " + d for d in decls]
        lock = "nolock" not in e.flags
        if "fast" in e.flags:   # MULTIPLE: try it without the lock first
            out += ["    if (xb_mt_on && %s(%s) == XB_OK)" %
                    (pr.fast, ", ".join(p.name for p in self.params)),
                    "        return MPI_SUCCESS;"]
        if lock:       # MPI_THREAD_MULTIPLE: one predicted branch otherwise
            out.append("    %s xb_cs = %s;" % self.lock_call())
        out.append("")
        if "noinit" not in e.flags:
            out += ["    if (XB_UNLIKELY(xb_init_state() != XB_STATE_INIT)) {",
                    "        xb_rc = xb_check_init_fail();", "        goto fail;", "    }"]
        for p in hs:
            out += self.resolve(p)
        blocks = []
        for p in self.params:
            for cond, lines in self.checks(p):
                if blocks and blocks[-1][0] == cond:
                    blocks[-1][1].extend(lines)
                else:
                    blocks.append((cond, list(lines)))
        if blocks:
            out.append("    if (xb_param_check()) {")
            for cond, lines in blocks:
                if cond:
                    out.append("        if (%s) {" % cond)
                    out += ["            " + line for line in lines]
                    out.append("        }")
                else:
                    out += ["        " + line for line in lines]
            out.append("    }")
        out += ["    " + line for line in pre]
        out.append("    xb_rc = %s(%s);" % (pr.impl, ", ".join(args)))
        if post:
            out.append("    if (XB_LIKELY(xb_rc >= 0)) {")
            out += ["        " + line for line in post]
            out.append("    }")
        out += ["fail:"] + ["    " + line for line in cleanup]
        if lock:
            out += ["    if (XB_LIKELY(xb_rc >= 0)) {", "        xb_cs_exit(xb_cs);",
                    "        return MPI_SUCCESS;", "    }"]
        else:
            out += ["    if (XB_LIKELY(xb_rc >= 0))", "        return MPI_SUCCESS;"]
        for p in self.params:  # a failed constructor leaves MPI_COMM_NULL
            if p.kind == "COMMUNICATOR" and p.direction == "out" and p.name in NEW_COMM_OUT:
                out += ["    if (%s != NULL)" % p.name, "        *%s = MPI_COMM_NULL;" % p.name]
        comm = "%s_obj" % self.comm.name if self.comm else "NULL"
        sess = [p for p in hs if p.kind == "SESSION"]
        wins = [p for p in hs if p.kind == "WINDOW"]
        files = [p for p in hs if p.kind == "FILE"]
        fref = [p for p in self.params if p.kind == "FILE" and p.direction == "inout"]
        if (pr.name.startswith("MPI_File_") and pr.name not in FILE_RAISE_EXCEPT) or \
                pr.name in FILE_RAISE_ALSO:
            if files:              # the file's errhandler (MPI_FILE_NULL's if NULL)
                raise_ = "xb_io_raise(%s_obj, \"%s\", xb_rc)" % (files[0].name, self.vname)
            elif fref:             # MPI_File_close: the handle is still valid
                raise_ = "xb_io_raise_ref(%s, \"%s\", xb_rc)" % (fref[0].name, self.vname)
            else:                  # open, delete: MPI_FILE_NULL's errhandler
                raise_ = "xb_io_raise(NULL, \"%s\", xb_rc)" % self.vname
        elif self.comm is None and sess:       # the session's errhandler applies
            raise_ = "xb_errh_raise_session(%s_obj, \"%s\", xb_rc)" % (sess[0].name, self.vname)
        elif self.comm is None and wins:     # the window's errhandler applies
            raise_ = "xb_errh_raise_win(%s_obj, \"%s\", xb_rc)" % (wins[0].name, self.vname)
        elif self.comm is None and any(p.kind == "WINDOW" and p.direction == "inout"
                                       for p in self.params):
            # MPI_Win_free: the window the handle still names, if any
            w = next(p for p in self.params if p.kind == "WINDOW")
            raise_ = ("xb_errh_raise_win(%s != NULL ? xb_win_from_handle(*%s) : NULL, "
                      "\"%s\", xb_rc)" % (w.name, w.name, self.vname))
        else:
            raise_ = "xb_errh_raise_comm(%s, \"%s\", xb_rc)" % (comm, self.vname)
        if lock:       # a user errhandler runs without the lock (errhandler.c)
            out += ["    xb_rc = %s;" % raise_, "    xb_cs_exit(xb_cs);", "    return xb_rc;", "}"]
        elif pr.name != "MPI_Abort":    # the raise expects the lock (xb_cb_begin)
            out += ["    bool xb_cs = xb_cs_enter();", "    xb_rc = %s;" % raise_,
                    "    xb_cs_exit(xb_cs);", "    return xb_rc;", "}"]
        else:
            out += ["    return %s;" % raise_, "}"]
        out.append("XB_EXPORT %s __attribute__((weak, alias(\"P%s\")));" %
                   (proto("int", self.vname, self.params), self.vname))
        text = "\n".join(out)
        if "goto fail;" not in text:
            text = text.replace("\nfail:\n", "\n")
        return text + "\n"


def gen_binding_c(section, procs, banner):
    out = [banner, "#include \"binding/bind_check.h\"", "#include \"xb_impl.h\"", ""]
    for pr in procs:
        if pr.entry.section != section or "custom" in pr.entry.flags:
            continue
        if pr.ret != "int":
            raise SpecError("%s returns %s: mark it custom" % (pr.name, pr.ret))
        for vname, params, large in pr.variants:
            out.append(Wrapper(pr, vname, params, large).emit())
    return "\n".join(out)


# ---- driver -----------------------------------------------------------------

def load(spec):
    std.use_api_version(1)
    procs = []
    entries = parse_spec(spec)
    listed = {e.name for e in entries}
    for e in entries:
        if e.as_ is not None:
            # A function the standard removed (MPI-3.0) whose C binding is
            # that of its replacement: generated with its own name (errors
            # say it), calling the replacement's implementation.
            if e.name.lower() in std.PROCEDURES:
                raise SpecError("%s:%d: %s is a procedure of the standard: no as=" %
                                (spec, e.lineno, e.name))
            if e.as_ not in listed:
                raise SpecError("%s:%d: %s calls %s, which the spec does not list" %
                                (spec, e.lineno, e.name, e.as_))
        sproc = std.PROCEDURES.get((e.as_ or e.name).lower())
        if sproc is None:
            raise SpecError("%s:%d: %s is not a procedure of the standard" %
                            (spec, e.lineno, e.as_ or e.name))
        pr = Proc(e, sproc)
        names = {p.name for p in pr.int_params} | {p.name for p in (pr.embig_params or [])}
        for arg in list(e.argflags) + ([e.inplace] if e.inplace else []):
            if arg not in names:
                raise SpecError("%s:%d: %s has no argument '%s'" % (spec, e.lineno, e.name, arg))
        procs.append(pr)
    return procs


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spec", required=True, help="spec/implemented.txt")
    ap.add_argument("--out", required=True, help="output directory (the build's gen dir)")
    ap.add_argument("--list", action="store_true", help="print the output file names and exit")
    a = ap.parse_args(argv)
    try:
        procs = load(a.spec)
    except SpecError as err:
        print("gen_bindings: %s" % err, file=sys.stderr)
        return 1
    sections = []
    for pr in procs:
        if pr.entry.section not in sections:
            sections.append(pr.entry.section)
    files = ["mpi_proto.h", "xb_impl.h"] + ["binding_%s.c" % s for s in sections]
    if a.list:
        print("\n".join(os.path.join(a.out, f) for f in files))
        return 0
    src = "/".join(os.path.normpath(a.spec).split(os.sep)[-2:])
    banner = ("/* Generated by tools/gen_bindings.py from %s and the MPI Forum's API\n"
              " * (pympistandard %s). Do not edit: edit the spec or the generator. */"
              % (src, getattr(std, "__version__", "?")))
    os.makedirs(a.out, exist_ok=True)
    try:
        outputs = {"mpi_proto.h": gen_mpi_proto(procs, banner),
                   "xb_impl.h": gen_impl_h(procs, banner)}
        for s in sections:
            outputs["binding_%s.c" % s] = gen_binding_c(s, procs, banner)
    except SpecError as err:
        print("gen_bindings: %s" % err, file=sys.stderr)
        return 1
    for name in files:
        write_if_changed(os.path.join(a.out, name), outputs[name])
    return 0


if __name__ == "__main__":
    sys.exit(main())

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * shm_cma.c - single copy between processes of a node with process_vm_readv
 * (cross-memory attach), and the checks that say whether the kernel allows it.
 *
 * What can forbid it:
 *   - Yama (/proc/sys/kernel/yama/ptrace_scope; absent = no Yama):
 *     0 allows same-user reads; 1 allows them only from a declared tracer,
 *     so every rank declares "any process" with prctl(PR_SET_PTRACER,
 *     PR_SET_PTRACER_ANY) at init; 2 and 3 forbid them: single copy is off.
 *   - seccomp filters (containers) may refuse the system call: only trying
 *     tells, so the method reads a magic word from a peer in ready(), and
 *     crossbar-info (no job) reads one from a forked child.
 *   - XB_SHM_CMA=0 turns it off on purpose (pt2pt then uses the pipelined
 *     copy through the rings).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "method/shm/shm.h"
#include "runtime/tunable.h"

XB_TUNABLE(SHM_CMA, XB_TT_BOOL, "on", XB_TL_USER,
           "Single copy for large shared-memory messages with process_vm_readv "
           "(off forces the pipelined copy through the rings)");

/* Read by peers (and the forked probe) to prove process_vm_readv works. */
uint64_t xb_shm_cma_magic = 0x7862636d61ull;    /* "xbcma" */

int xb_shm_read_ptrace_scope(void)
{
    FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
    int v = -1;
    if (f == NULL)
        return -1;
    if (fscanf(f, "%d", &v) != 1)
        v = 3;              /* unreadable: assume the strictest */
    fclose(f);
    return v;
}

static int read_seccomp_mode(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    int mode = 0;
    if (f == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL)
        if (sscanf(line, "Seccomp: %d", &mode) == 1)
            break;
    fclose(f);
    return mode;
}

/* Yama and the tunable; sets st->cma and st->cma_why. */
int xb_shm_cma_setup(xb_shm_t *st)
{
    st->ptrace_scope = xb_shm_read_ptrace_scope();
    st->cma = false;
    if (!xb_tn_SHM_CMA.v.b) {
        st->cma_why = "XB_SHM_CMA=off";
        return XB_OK;
    }
    switch (st->ptrace_scope) {
    case -1:
    case 0:
        break;
    case 1:
        if (prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0) != 0) {
            st->cma_why = "ptrace_scope=1 and prctl(PR_SET_PTRACER) failed";
            return XB_OK;
        }
        break;
    case 2:
        st->cma_why = "ptrace_scope=2";
        return XB_OK;
    default:
        st->cma_why = "ptrace_scope=3";
        return XB_OK;
    }
    st->cma = true;
    st->cma_why = NULL;
    return XB_OK;
}

static const char *why_errno(int err)
{
    switch (err) {
    case EPERM:  return read_seccomp_mode() == 2
                        ? "process_vm_readv: Operation not permitted (seccomp filter)"
                        : "process_vm_readv: Operation not permitted";
    case ENOSYS: return "process_vm_readv: ENOSYS, the kernel refuses the call (seccomp filter?)";
    case EACCES: return "process_vm_readv: Permission denied";
    default:     return "process_vm_readv failed";
    }
}

int xb_shm_cma_check_peer(xb_shm_t *st, int pid, uint64_t addr)
{
    uint64_t v = 0;
    struct iovec l = { &v, sizeof(v) }, r = { (void *)(uintptr_t)addr, sizeof(v) };
    if (!st->cma)
        return XB_OK;
    ssize_t n = process_vm_readv((pid_t)pid, &l, 1, &r, 1, 0);
    if (n != (ssize_t)sizeof(v) || v != xb_shm_cma_magic) {
        st->cma = false;
        st->cma_why = n < 0 ? why_errno(errno) : "process_vm_readv read wrong data";
        xb_log(XB_LOG_SHM, XB_LOG_INFO, "single copy off: %s", st->cma_why);
    }
    return XB_OK;
}

int xb_shm_cma_probe(const char **why)
{
    int scope = xb_shm_read_ptrace_scope();
    if (!xb_tn_SHM_CMA.v.b) {
        *why = "XB_SHM_CMA=off";
        return XB_ERR_OTHER;
    }
    if (scope >= 2) {
        *why = scope == 2 ? "ptrace_scope=2" : "ptrace_scope=3";
        return XB_ERR_OTHER;
    }
    int pfd[2];
    if (pipe(pfd) != 0) {
        *why = "pipe failed";
        return XB_ERR_OTHER;
    }
    pid_t child = fork();
    if (child < 0) {
        close(pfd[0]);
        close(pfd[1]);
        *why = "fork failed";
        return XB_ERR_OTHER;
    }
    if (child == 0) {                 /* wait until the parent has read */
        char c;
        close(pfd[1]);
        while (read(pfd[0], &c, 1) < 0 && errno == EINTR)
            ;
        _exit(0);
    }
    close(pfd[0]);
    uint64_t v = 0;
    struct iovec l = { &v, sizeof(v) };
    struct iovec r = { &xb_shm_cma_magic, sizeof(v) };
    ssize_t n = process_vm_readv(child, &l, 1, &r, 1, 0);
    int err = errno;
    close(pfd[1]);                    /* child sees EOF and exits */
    while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
        ;
    if (n != (ssize_t)sizeof(v) || v != xb_shm_cma_magic) {
        *why = n < 0 ? why_errno(err) : "process_vm_readv read wrong data";
        return XB_ERR_OTHER;
    }
    *why = scope == 1 ? "ptrace_scope=1, PR_SET_PTRACER_ANY" : NULL;
    return XB_OK;
}

/* Copy len bytes at remote_addr of pid into the local iovec (write: from
 * it, to remote_addr); loops on partial transfers (the kernel stops at page
 * faults it cannot serve in one go, and at IOV_MAX entries). */
static int cma_xfer(pid_t pid, const struct iovec *local, int local_cnt,
                    uint64_t remote_addr, size_t len, bool write)
{
    const char *call = write ? "process_vm_writev" : "process_vm_readv";
    struct iovec iov[64];
    int i = 0;
    size_t skip = 0;                  /* bytes of local[i] already filled */
    while (len > 0) {
        int n = 0;
        size_t want = 0;
        for (int k = i; k < local_cnt && n < (int)XB_ARRAY_LEN(iov) && want < len; k++) {
            size_t off = k == i ? skip : 0;
            size_t l = local[k].iov_len - off;
            if (l > len - want)
                l = len - want;
            iov[n].iov_base = (char *)local[k].iov_base + off;
            iov[n].iov_len = l;
            want += l;
            n++;
        }
        if (want == 0)
            return xb_err_set(XB_ERR_INTERN, "single copy: the local buffer "
                              "holds %zu bytes fewer than asked", len);
        struct iovec r = { (void *)(uintptr_t)remote_addr, want };
        ssize_t got = write ? process_vm_writev(pid, iov, (unsigned long)n, &r, 1, 0)
                            : process_vm_readv(pid, iov, (unsigned long)n, &r, 1, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return xb_err_sys(XB_ERR_OTHER, errno, "%s of %zu bytes with pid %d", call,
                              want, (int)pid);
        }
        if (got == 0)
            return xb_err_set(XB_ERR_OTHER, "%s with pid %d made no progress", call,
                              (int)pid);
        remote_addr += (uint64_t)got;
        len -= (size_t)got;
        /* advance the local cursor by got bytes */
        size_t adv = (size_t)got;
        while (adv > 0) {
            size_t l = local[i].iov_len - skip;
            if (adv < l) {
                skip += adv;
                adv = 0;
            } else {
                adv -= l;
                i++;
                skip = 0;
            }
        }
        while (i < local_cnt && local[i].iov_len == 0)
            i++;
    }
    return XB_OK;
}

int xb_shm_cma_get(pid_t pid, const struct iovec *local, int local_cnt,
                   uint64_t remote_addr, size_t len)
{
    return cma_xfer(pid, local, local_cnt, remote_addr, len, false);
}

int xb_shm_cma_put(pid_t pid, const struct iovec *local, int local_cnt,
                   uint64_t remote_addr, size_t len)
{
    return cma_xfer(pid, local, local_cnt, remote_addr, len, true);
}

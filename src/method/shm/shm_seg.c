/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * shm_seg.c - the node segment of the shm method: where it comes from and
 * where everything sits in it.
 *
 * Source, in order:
 *   1. our mpiexec's per-host memfd (XB_JOBSEG_FD, src/runtime/jobseg.h):
 *      every rank grows it with ftruncate() to method_off + what the method
 *      needs (same size everywhere; growing is idempotent) and maps it
 *      MAP_SHARED at init, before the PMI fence;
 *   2. otherwise (Hydra, Slurm): node-local rank 0 creates a memfd at init
 *      and publishes "pid.fd" in its address blob; the others open
 *      /proc/<pid>/fd/<fd> in ready(), after the fence.
 * Nothing is created in /dev/shm; the memory goes with the last process that
 * maps it, crash or not. The layout is valid when all-zero (see shm.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "method/shm/shm.h"
#include "runtime/jobseg.h"
#include "runtime/tunable.h"

/* 256 KiB: the conformance bench (tests/method, --bench) streamed 16 KiB
 * fragments through 64 KiB rings at about 1.0 GB/s and 64 KiB fragments
 * through 256 KiB rings at 1.6-3.5 GB/s on the 2-core build machine (loaded);
 * small-message latency does not depend on the ring size. */
XB_TUNABLE(SHM_RING_SIZE, XB_TT_SIZE, "256k", XB_TL_TUNER,
           "Bytes of each per-pair shared-memory ring (a power of two; shrunk "
           "automatically when the rings of a node would pass 128 MiB)");

enum { RING_MIN = 4096 };
/* Budget for all rings of a node (memfd pages are touched lazily, but a
 * busy job touches them all): 16 local ranks keep 256 KiB rings (60 MiB),
 * 32 get 128 KiB (124 MiB), 64 get 32 KiB. Above the budget the rings
 * shrink by halving, down to RING_MIN. */
#define RINGS_BUDGET ((size_t)128 << 20)

size_t xb_shm_ring_size_for(int nlocal, int nsets)
{
    size_t want = xb_tn_SHM_RING_SIZE.v.size, size = RING_MIN;
    while (size * 2 <= want && size < ((size_t)1 << 30))
        size *= 2;
    size_t nrings = (nlocal > 1 ? (size_t)nlocal * (size_t)(nlocal - 1) : 1) * (size_t)nsets;
    while (size > RING_MIN && nrings * size > RINGS_BUDGET)
        size /= 2;
    return size;
}

static size_t align_up(size_t x, size_t a)
{
    return (x + a - 1) & ~(a - 1);
}

static size_t coll_off(int nlocal)
{
    return align_up((size_t)nlocal * sizeof(xb_shm_ctl_t) + sizeof(xb_shm_node_t), 4096);
}

size_t xb_shm_seg_layout(int nlocal, size_t ring_size, int nsets, size_t *rings_off_p)
{
    size_t rings_off = coll_off(nlocal) + XB_SHM_COLL_AREAS * (size_t)nlocal * XB_SHM_COLL_SLOT;
    size_t nrings = (size_t)nlocal * (size_t)(nlocal - 1) * (size_t)nsets;
    *rings_off_p = rings_off;
    return align_up(rings_off + nrings * xb_shm_ring_stride(ring_size), 4096);
}

xb_shm_ctl_t *xb_shm_seg_ctl(xb_shm_t *st, int local)
{
    return (xb_shm_ctl_t *)(void *)(st->base + (size_t)local * sizeof(xb_shm_ctl_t));
}

void *xb_shm_seg_coll_slot(xb_shm_t *st, int area, int local)
{
    return st->base + coll_off(st->nlocal) +
           ((size_t)area * (size_t)st->nlocal + (size_t)local) * XB_SHM_COLL_SLOT;
}

xb_shm_ring_t *xb_shm_seg_ring(xb_shm_t *st, int s, int r)
{
    return xb_shm_seg_ring_chan(st, 0, s, r);
}

xb_shm_ring_t *xb_shm_seg_ring_chan(xb_shm_t *st, int chan, int s, int r)
{
    size_t rings_off;
    xb_shm_seg_layout(st->nlocal, st->ring_size, st->nsets, &rings_off);
    size_t per_set = (size_t)st->nlocal * (size_t)(st->nlocal - 1);
    size_t idx = (size_t)chan * per_set +
                 (size_t)s * (size_t)(st->nlocal - 1) + (size_t)(r < s ? r : r - 1);
    return (xb_shm_ring_t *)(void *)(st->base + rings_off +
                                     idx * xb_shm_ring_stride(st->ring_size));
}

/* Grow fd to at least `len` bytes (never shrink: a peer may be bigger). */
static int grow_fd(int fd, size_t len)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0)
        return xb_err_sys(XB_ERR_OTHER, errno, "fstat of the node segment");
    if ((size_t)sb.st_size < len && ftruncate(fd, (off_t)len) != 0)
        return xb_err_sys(XB_ERR_NO_MEM, errno, "growing the node segment to %zu "
                          "bytes", len);
    return XB_OK;
}

static int map_fd(xb_shm_t *st, int fd, uint64_t off)
{
    size_t len = off + st->seg_need;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        return xb_err_sys(XB_ERR_NO_MEM, errno, "mapping %zu bytes of the node "
                          "segment", len);
    st->map = p;
    st->map_len = len;
    st->seg_off = off;
    st->base = (uint8_t *)p + off;
    return XB_OK;
}

int xb_shm_seg_attach_jobseg(xb_shm_t *st, int fd)
{
    xb_jobseg_hdr_t hdr;
    if (pread(fd, &hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr))
        return xb_err_sys(XB_ERR_OTHER, errno, "reading the header of the job "
                          "segment (%s=%d)", XB_JOBSEG_ENV, fd);
    if (hdr.magic != XB_JOBSEG_MAGIC || hdr.method_off % 4096 != 0)
        return xb_err_set(XB_ERR_OTHER, "the job segment (%s=%d) has a bad header "
                          "(magic %#llx)", XB_JOBSEG_ENV, fd,
                          (unsigned long long)hdr.magic);
    if ((int)hdr.nlocal != st->nlocal)
        return xb_err_set(XB_ERR_OTHER, "the job segment says %u ranks on this "
                          "host, the launcher's mapping says %d", hdr.nlocal,
                          st->nlocal);
    int rc = grow_fd(fd, hdr.method_off + st->seg_need);
    if (rc != XB_OK)
        return rc;
    return map_fd(st, fd, hdr.method_off);
}

int xb_shm_seg_create(xb_shm_t *st)
{
    int fd = memfd_create("crossbar-shm", MFD_CLOEXEC);
    if (fd < 0)
        return xb_err_sys(XB_ERR_OTHER, errno, "memfd_create");
    int rc = grow_fd(fd, st->seg_need);
    if (rc == XB_OK)
        rc = map_fd(st, fd, 0);
    if (rc != XB_OK) {
        close(fd);
        return rc;
    }
    st->own_fd = fd;
    return XB_OK;
}

int xb_shm_seg_open_peer(xb_shm_t *st, int pid, int fd)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
    int myfd = open(path, O_RDWR | O_CLOEXEC);
    if (myfd < 0)
        return xb_err_sys(XB_ERR_OTHER, errno, "opening the node segment of "
                          "node-local rank 0 at %s", path);
    struct stat sb;
    int rc = XB_OK;
    if (fstat(myfd, &sb) != 0 || (size_t)sb.st_size < st->seg_need)
        rc = xb_err_set(XB_ERR_OTHER, "the node segment at %s is smaller than the "
                        "%zu bytes this rank expects (XB_SHM_RING_SIZE differs "
                        "between ranks?)", path, st->seg_need);
    if (rc == XB_OK)
        rc = map_fd(st, myfd, 0);
    close(myfd);
    return rc;
}

void xb_shm_seg_detach(xb_shm_t *st)
{
    if (st->map != NULL)
        munmap(st->map, st->map_len);
    if (st->own_fd >= 0)
        close(st->own_fd);
    st->map = NULL;
    st->base = NULL;
    st->own_fd = -1;
}

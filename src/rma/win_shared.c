/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * win_shared.c - shared-memory windows: MPI_Win_allocate_shared and
 * MPI_Win_shared_query.
 *
 * Every member must run on this node (the launcher's node map). The
 * window's rank 0 makes one memfd holding every member's part, in rank
 * order (contiguous by default; with the info key alloc_shared_noncontig
 * = true each part starts on a page of its own), and sends its pid and fd
 * number to the others, which open it through /proc/<pid>/fd/<fd> (as the
 * shm method does for its node segment) and map it. After a window
 * barrier everyone has mapped it and rank 0 closes the fd: nothing is in
 * /dev/shm, and the memory goes with the last mapping, crash or not.
 *
 * The model is MPI_WIN_UNIFIED: loads and stores of any member see the
 * same memory; MPI_Win_sync is a full memory barrier. Put and Get on such
 * a window are copies by the origin (rma_issue.c), and so are accumulates,
 * get_accumulates and compare_and_swaps, under the target part's lock (a
 * word of the mapping before the parts), which the target also takes when
 * it applies one that came as a message: they stay atomic with respect to
 * one another.
 *
 * MPI_Win_allocate over a communicator of one node takes the same memory
 * (xb_rma_allocate_on_node), each part on pages of its own, so that its
 * Put and Get are copies too; the window stays of flavor
 * MPI_WIN_FLAVOR_ALLOCATE (MPI_Win_shared_query answers no memory). If a
 * member cannot map it, every member takes private memory instead.
 *
 * The mapping starts with a line per part: its accumulate lock, and the
 * word and waiters' mask of MPI_Win_lock (lock.c). MPI_Win_create over
 * processes of one node maps such lines alone (xb_rma_lock_lines), so its
 * locks need no target either.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "rma/rma_int.h"
#include "core/info.h"
#include "pt2pt/pt2pt.h"
#include "runtime/runtime.h"
#include "runtime/tunable.h"
#include "util/xb_mt.h"
#include "xb_impl.h"

XB_TUNABLE(RMA_ALLOC_SHARED, XB_TT_BOOL, "on", XB_TL_TUNER,
           "MPI_Win_allocate over processes of one node puts every part in one shared "
           "mapping, so that MPI_Put and MPI_Get are copies by the origin; off: private "
           "memory, and every one-sided call goes to the target as a message");

void xb_rma_shared_unmap(xb_win_t *w)
{
    if (w->shm_map != NULL)
        munmap(w->shm_map, w->shm_len);
    w->shm_map = NULL;
    if (w->lk_len > 0)
        munmap(w->lk_lines, w->lk_len);
    w->lk_lines = NULL;
    w->lk_len = 0;
}

/* The first rank of comm that runs on another node than this process, or
 * -1 when all run here. The same answer on every member. */
static int off_node(xb_comm_t *comm)
{
    const xb_rt_info_t *rt = xb_rt();
    for (int r = 0; r < comm->size; r++) {
        xb_gpid_t g = xb_comm_gpid(comm, r);
        if (xb_gpid_job(g) != xb_gpid_job(xb_comm_gpid(comm, comm->rank)) ||
            (int)xb_gpid_rank(g) >= rt->size || rt->node_of[xb_gpid_rank(g)] != rt->my_node)
            return r;
    }
    return -1;
}

static int check_node(xb_comm_t *comm)
{
    int r = off_node(comm);
    if (r >= 0)
        return xb_err_set(XB_RMA_ERR_SHARED, "rank %d of comm runs on another node "
                          "(a shared window needs every process on one node)", r);
    return XB_OK;
}

/* Offsets of every part, after the parts' accumulate locks; the total
 * length of the mapping. */
static size_t layout(xb_win_t *w, bool noncontig)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t off = ((size_t)w->size * XB_RMA_LOCK_STRIDE + page - 1) / page * page;
    for (int r = 0; r < w->size; r++) {
        if (noncontig)
            off = (off + page - 1) / page * page;
        w->shm_off[r] = off;
        off += (size_t)w->peers[r].size;
    }
    return off > 0 ? off : 1;
}

typedef struct fd_msg {
    int32_t pid;
    int32_t fd;
} fd_msg_t;

/* Where rank r's part is mapped here: NULL for a part of size 0, as MPICH
 * and Open MPI (alloc_shared_noncontig) answer, so that programs may test
 * the pointer for "no memory there". */
static void *part_base(const xb_win_t *w, int r)
{
    if (w->peers[r].size == 0)
        return NULL;
    return (char *)w->shm_map + w->shm_off[r];
}

/* Rank 0: a memfd of len bytes, sent to the others; the others: open it;
 * everyone maps it at *map. Collective over the window's processes. */
static int map_memfd(xb_win_t *w, size_t len, void **map, int *own_fd)
{
    fd_msg_t m = { getpid(), -1 };
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int fd = -1, rc = XB_OK;
    if (w->rank == 0) {
        fd = memfd_create("crossbar-win", MFD_CLOEXEC);
        if (fd < 0 || ftruncate(fd, (off_t)len) != 0)
            rc = xb_err_sys(XB_ERR_NO_MEM, errno, "a shared window of %zu bytes", len);
        m.fd = rc == XB_OK ? fd : -1;
        for (int r = 1; r < w->size; r++) {
            int x = xb_pt2pt_send(&m, sizeof(m), byte, r, XB_RMA_TAG, w->comm, 1);
            if (rc == XB_OK)
                rc = x;
        }
        *own_fd = fd;
    } else {
        rc = xb_pt2pt_recv(&m, sizeof(m), byte, 0, XB_RMA_TAG, w->comm, 1, NULL);
        if (rc == XB_OK && m.fd < 0)
            rc = xb_err_set(XB_RMA_ERR_SHARED, "rank 0 of the window could not make "
                            "the shared memory");
        char path[64];
        snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)m.pid, (int)m.fd);
        if (rc == XB_OK && (fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
            rc = xb_err_sys(XB_RMA_ERR_SHARED, errno, "opening the shared window's "
                            "memory of rank 0 at %s", path);
    }
    if (rc == XB_OK) {
        void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED)
            rc = xb_err_sys(XB_ERR_NO_MEM, errno, "mapping a shared window of %zu bytes",
                            len);
        else
            *map = p;
    }
    if (w->rank != 0 && fd >= 0)
        close(fd);
    return rc;
}

/* The window's whole mapping (its lock lines, then the parts). */
static int map_shared(xb_win_t *w, int *own_fd)
{
    int rc = map_memfd(w, w->shm_len, &w->shm_map, own_fd);
    if (rc == XB_OK) {
        w->base = part_base(w, w->rank);
        w->lk_lines = w->shm_map;
    }
    return rc;
}

int xb_impl_win_allocate_shared(MPI_Aint size, MPI_Aint disp_unit, xb_info_t *info,
                                xb_comm_t *comm, void *baseptr, MPI_Win *win)
{
    int rc = xb_rma_check_comm(comm);
    if (rc == XB_OK)
        rc = xb_rma_check_size(size, disp_unit);
    if (rc == XB_OK)
        rc = check_node(comm);
    xb_win_t *w;
    if (rc == XB_OK)
        rc = xb_rma_win_new(comm, NULL, size, disp_unit, MPI_WIN_FLAVOR_SHARED, info, &w);
    if (rc != XB_OK)
        return rc;
    const char *nc = info != NULL ? xb_info_lookup(info, "alloc_shared_noncontig") : NULL;
    int fd = -1;
    w->shm_off = calloc((size_t)w->size, sizeof(size_t));
    if (w->shm_off == NULL)
        rc = xb_err_set(XB_ERR_NO_MEM, "no memory for a shared window's table");
    if (rc == XB_OK) {
        w->shm_len = layout(w, nc != NULL && strcmp(nc, "true") == 0);
        rc = map_shared(w, &fd);
    }
    if (rc == XB_OK)            /* before the barrier: peers may send then */
        xb_rma_set_ready(w);
    int brc = xb_rma_barrier(w);        /* everyone has mapped it (or failed) */
    if (fd >= 0)
        close(fd);
    if (rc == XB_OK)
        rc = brc;
    if (rc != XB_OK) {
        xb_rma_win_destroy(w);
        return rc;
    }
    *(void **)baseptr = w->base;
    *win = w->handle;
    return XB_OK;
}

static uint32_t *lock_word(const xb_win_t *w, int r)
{
    return (uint32_t *)(void *)((char *)w->lk_lines + (size_t)r * XB_RMA_LOCK_STRIDE);
}

void xb_rma_part_lock(const xb_win_t *w, int r)
{
    uint32_t *l = lock_word(w, r);
    for (unsigned i = 0;; i++) {
        if (__atomic_load_n(l, __ATOMIC_RELAXED) == 0 &&
            __atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE) == 0)
            return;
        if (i >= 64)        /* the holder may be off its CPU: let it run */
            sched_yield();
        else
            xb_cpu_relax();
    }
}

void xb_rma_part_unlock(const xb_win_t *w, int r)
{
    __atomic_store_n(lock_word(w, r), 0, __ATOMIC_RELEASE);
}

uint32_t *xb_rma_epoch_word(const xb_win_t *w, int r)
{
    return lock_word(w, r) + 2;                         /* byte 8 of the line */
}

uint64_t *xb_rma_epoch_waiters(const xb_win_t *w, int r)
{
    return (uint64_t *)(void *)(lock_word(w, r) + 4);   /* byte 16 */
}

/* Whether every member says yes: rank 0 hears all, then tells all. */
static bool all_agree(xb_win_t *w, bool yes)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    uint8_t v = yes;
    if (w->rank == 0) {
        for (int r = 1; r < w->size; r++) {
            uint8_t x = 0;
            if (xb_pt2pt_recv(&x, 1, byte, r, XB_RMA_TAG, w->comm, 1, NULL) != XB_OK || !x)
                v = 0;
        }
        for (int r = 1; r < w->size; r++)
            if (xb_pt2pt_send(&v, 1, byte, r, XB_RMA_TAG, w->comm, 1) != XB_OK)
                v = 0;
    } else if (xb_pt2pt_send(&v, 1, byte, 0, XB_RMA_TAG, w->comm, 1) != XB_OK ||
               xb_pt2pt_recv(&v, 1, byte, 0, XB_RMA_TAG, w->comm, 1, NULL) != XB_OK) {
        v = 0;
    }
    return v != 0;
}

/* map_memfd, then whether every member mapped (after it, each has: rank
 * 0's fd may close); on false nothing is mapped anywhere. Collective. */
static bool map_agreed(xb_win_t *w, size_t len, void **map)
{
    int fd = -1;
    bool ok = map_memfd(w, len, map, &fd) == XB_OK;
    if (!ok)
        xb_err_clear();
    ok = all_agree(w, ok);
    if (fd >= 0)
        close(fd);
    if (!ok && *map != NULL) {
        munmap(*map, len);
        *map = NULL;
    }
    return ok;
}

bool xb_rma_allocate_on_node(xb_win_t *w)
{
    if (off_node(w->comm) >= 0)
        return false;
    /* all must want it (the tunable set on some ranks only?) and have the
     * table, since the mapping is collective */
    w->shm_off = calloc((size_t)w->size, sizeof(size_t));
    bool ok = all_agree(w, xb_tn_RMA_ALLOC_SHARED.v.b && w->shm_off != NULL);
    if (ok) {
        w->shm_len = layout(w, true);
        ok = map_agreed(w, w->shm_len, &w->shm_map);
    }
    if (ok) {                   /* not NULL for a part of size 0 */
        w->base = (char *)w->shm_map + w->shm_off[w->rank];
        w->lk_lines = w->shm_map;
    } else {
        xb_rma_shared_unmap(w);
        w->base = NULL;
        free(w->shm_off);
        w->shm_off = NULL;
    }
    return ok;
}

void xb_rma_lock_lines(xb_win_t *w)
{
    if (w->size > XB_RMA_EPOCH_MAX || off_node(w->comm) >= 0)
        return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t len = ((size_t)w->size * XB_RMA_LOCK_STRIDE + page - 1) / page * page;
    void *map = NULL;
    if (map_agreed(w, len, &map)) {
        w->lk_lines = map;
        w->lk_len = len;
    }
}

int xb_impl_win_shared_query(xb_win_t *win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                             void *baseptr)
{
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= win->size))
        return xb_err_set(XB_ERR_RANK, "invalid argument rank: %d (the window's group "
                          "has %d ranks)", rank, win->size);
    if (win->flavor != MPI_WIN_FLAVOR_SHARED) {
        /* MPI 4.1: no shared memory with that rank here */
        *size = 0;
        *disp_unit = rank == MPI_PROC_NULL ? 1 : win->peers[rank].disp_unit;
        *(void **)baseptr = NULL;
        return XB_OK;
    }
    if (rank == MPI_PROC_NULL) {     /* the lowest rank with memory */
        for (rank = 0; rank < win->size - 1 && win->peers[rank].size == 0; rank++)
            ;
    }
    *size = win->peers[rank].size;
    *disp_unit = win->peers[rank].disp_unit;
    *(void **)baseptr = part_base(win, rank);
    return XB_OK;
}

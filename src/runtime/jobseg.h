/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * jobseg.h - the per-host shared segment that our mpiexec hands to the ranks
 * of one host. Shared by the launcher (creator), the runtime and the shm
 * method. Nothing is ever created in /dev/shm: the segment is a memfd, its fd
 * number is passed in the environment variable XB_JOBSEG_FD (inherited, not
 * close-on-exec), so it disappears with the last process holding it, crash
 * or not.
 *
 * Layout (offsets in bytes):
 *   0                        xb_jobseg_hdr_t (written by the launcher)
 *   status_off               nlocal x xb_jobseg_status_t, one per local rank
 *   method_off               free for the shm method; it grows the file with
 *                            ftruncate() to the size it needs. Every rank of
 *                            the host computes the same size and truncates to
 *                            it; the method's layout is valid when all-zero,
 *                            so no rank has to initialise it first.
 *
 * The launcher reads the status slots when --timeout expires, to print what
 * every rank is waiting in. Ranks write their slot with plain stores
 * (diagnostics only; torn reads are harmless).
 *
 * When the job is not started by our mpiexec (Hydra, Slurm) there is no
 * launcher segment: node-local rank 0 creates a memfd itself and the others
 * open it through /proc/<pid>/fd/<fd> after the PMI fence (shm method).
 */
#ifndef XB_JOBSEG_H
#define XB_JOBSEG_H

#include <stdint.h>

#define XB_JOBSEG_MAGIC   0x78626a7367000001ull   /* "xbjsg" v1 */
#define XB_JOBSEG_ENV     "XB_JOBSEG_FD"

typedef struct xb_jobseg_hdr {
    uint64_t magic;
    uint32_t nlocal;        /* ranks of the job on this host               */
    uint32_t host_index;    /* dense index of this host in the job         */
    uint64_t status_off;
    uint64_t method_off;    /* page aligned                                 */
} xb_jobseg_hdr_t;

typedef struct xb_jobseg_status {
    int32_t  world_rank;    /* written by the launcher                     */
    int32_t  pid;           /* written by the rank at init                 */
    char     waiting[248];  /* NUL-terminated; "" when not waiting          */
} xb_jobseg_status_t;

_Static_assert(sizeof(xb_jobseg_status_t) == 256, "status slot layout is shared with mpiexec");

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pmi_client.h - the process side of the PMI-1 wire protocol (spec/pmi_wire.txt).
 *
 * How a process finds its launcher (checked in this order by xb_pmi_init):
 *   PMI_FD=<fd>               a connected socket inherited from the launcher
 *                             (our mpiexec, Hydra, Slurm --mpi=pmi2, Flux);
 *   PMI_PORT=<host>:<port>    connect to it (Hydra -pmi-port), with PMI_ID;
 *   neither, and no PMI_RANK/PMI_SIZE either: a singleton (rank 0 of 1, a
 *                             local KVS, fence is a no-op);
 *   PMI_RANK or PMI_SIZE set without PMI_FD/PMI_PORT (or values that do not
 *   parse): XB_ERR_OTHER with a sentence that names the variables, so
 *   MPI_Init stops instead of running as rank 0 of 1.
 *
 * Calls are lock-step request/response on one socket; the caller serialises
 * them (init/finalize, or under the progress lock). Every call returns XB_OK
 * or a negative XB_ERR_* with detail recorded (a launcher that closed the
 * socket, a malformed answer, rc != 0 in the answer).
 */
#ifndef XB_PMI_CLIENT_H
#define XB_PMI_CLIENT_H

#include "util/xb_common.h"
#include "util/pmi_wire.h"

typedef struct xb_pmi_job {
    int  rank, size, appnum, universe_size;
    bool singleton;
    char kvsname[256];
    /* value of the PMI_process_mapping key, "" when the launcher has none */
    char process_mapping[1024];
} xb_pmi_job_t;

int  xb_pmi_init(xb_pmi_job_t *job);
int  xb_pmi_put(const char *key, const char *value);
/* Keys published before the last fence are visible to every rank. */
int  xb_pmi_get(const char *key, char *value, size_t len);
int  xb_pmi_fence(void);                 /* barrier_in / barrier_out */
int  xb_pmi_finalize(void);
void xb_pmi_abort(int code, const char *msg);   /* tells the launcher; returns */
/* pmi_dyn.c's access to the PMI-1 transport (pmi_client.c): one lock-step
 * request (cmd checked against expect, rc left to the caller), raw bytes
 * (the multi-line spawn request), one response line; how the job runs. */
enum { XB_PMI_MODE_NONE, XB_PMI_MODE_SINGLETON, XB_PMI_MODE_PMI1, XB_PMI_MODE_PMI2 };
int  xb_pmi_exchange(xb_pmiw_out_t *o, const char *what, const char *expect,
                     xb_pmiw_msg_t *m);
int  xb_pmi_send_raw(const char *buf, size_t len, const char *what);
int  xb_pmi_recv(xb_pmiw_msg_t *m, const char *what);
int  xb_pmi_mode(void);
/* Parse "(vector,(0,2,4),(2,1,3))" into node_of[size]; XB_ERR_OTHER if bad. */
int  xb_pmi_parse_mapping(const char *map, int size, uint32_t *node_of, int *nnodes_p);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pmi2_client.h - the process side of the PMI-2 wire protocol
 * (spec/pmi2_wire.txt), as Slurm's `srun --mpi=pmi2` serves it. Used only
 * by pmi_client.c, which chooses PMI-1 or PMI-2 (XB_PMI_WIRE) and keeps the
 * public interface (pmi_client.h) the same for both.
 *
 * Lifecycle: init (fullinit, job-getid, the PMI_process_mapping job
 * attribute) on the inherited socket, then put/get/fence any number of
 * times, then finalize (which closes nothing: the caller owns the fd).
 * Lock-step request/response; callers serialise. Returns XB_OK or a
 * negative XB_ERR_* with the detail recorded.
 */
#ifndef XB_PMI2_CLIENT_H
#define XB_PMI2_CLIENT_H

#include "runtime/pmi_client.h"

/* fd: PMI_FD; jobid: PMI_JOBID; rank: PMI_RANK. Fills job (rank, size,
 * appnum, universe_size, kvsname = the job id, process_mapping). */
int  xb_pmi2c_init(int fd, const char *jobid, int rank, xb_pmi_job_t *job);
int  xb_pmi2c_put(const char *key, const char *value);
int  xb_pmi2c_get(const char *key, char *value, size_t len);
int  xb_pmi2c_fence(void);
int  xb_pmi2c_finalize(void);
void xb_pmi2c_abort(int code, const char *msg);

#endif

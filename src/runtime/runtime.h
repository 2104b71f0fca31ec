/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * runtime.h - what the runtime layer offers the layers above it: the job's
 * shape (from the launcher, through PMI), the KVS, tunables, logging and fatal
 * errors.
 *
 * Init order (src/runtime/init.c is the only file that knows it):
 *   tunables -> log -> PMI client -> job shape (node of every rank) ->
 *   methods (init, addr publish) -> PMI fence -> methods ready -> peer table ->
 *   core objects (COMM_WORLD, COMM_SELF) -> pt2pt/coll registration.
 * Finalize reverses it (a barrier first, so no message is in flight).
 *
 * Threading: runtime calls are made by one thread at a time (under the
 * progress lock or during init/finalize).
 */
#ifndef XB_RUNTIME_H
#define XB_RUNTIME_H

#include "util/xb_common.h"

typedef struct xb_rt_info {
    int       rank;          /* world rank                                  */
    int       size;          /* world size                                  */
    int       appnum;
    int       universe_size;
    bool      singleton;     /* started without a launcher                  */
    int       nnodes;
    uint32_t *node_of;       /* [size] dense node index of every rank       */
    uint32_t  my_node;
    int       local_rank;    /* index among the ranks of my node            */
    int       local_size;
    int      *local_ranks;   /* [local_size] world ranks on my node, sorted */
    int       jobseg_fd;     /* memfd from our launcher (XB_JOBSEG_FD), or -1 */
    char      host[256];     /* host name as the launcher knows it          */
    char      kvsname[256];
} xb_rt_info_t;

/* Runtime part of MPI_Init/Finalize (tunables, log, PMI, job shape). */
int  xb_rt_init(void);
void xb_rt_fini(void);
enum { XB_STATE_NONE = 0, XB_STATE_INIT = 1, XB_STATE_FINALIZED = 2 };
int  xb_init_state(void);
void xb_set_init_state(int state);

/* Valid between the PMI step of init and finalize. */
const xb_rt_info_t *xb_rt(void);

/* What the environment tells without MPI initialised (MPI_Info_create_env
 * may be called before MPI_Init and after MPI_Finalize): the job's size
 * from the launcher's PMI_SIZE (1 when no launcher variable is set: a
 * singleton; -1 when only the launcher can tell, as with PMI_PORT), and
 * the host name as the launcher knows it (XB_HOST, else gethostname()),
 * the same one xb_rt()->host holds. */
int  xb_rt_env_size(void);
void xb_rt_host_name(char *buf, size_t len);

/* KVS (PMI put/get/fence). Values: printable ASCII, no spaces or '='; binary
 * data must be hex-encoded by the caller (xb_hex_encode in util). */
int xb_rt_kvs_put(const char *key, const char *value);
int xb_rt_kvs_get(int rank_hint, const char *key, char *value, size_t len);
int xb_rt_fence(void);
/* A method's address blob of a peer, published at init. */
int xb_rt_peer_addr(int rank, const char *method, void *buf, size_t *len_p);

/* ---- dynamic processes through the launcher (pmi_dyn.c) ------------------
 * Spawn: ask the launcher to start the commands as ONE new job (its own
 * COMM_WORLD and KVS); the pairs of `preput` go into the new job's KVS
 * before it starts. Blocks until the launcher answers (it answers once the
 * processes are started, not when they are up). Errors: -MPI_ERR_SPAWN
 * with the launcher's reason (a command that cannot be started), or with a
 * sentence saying this launcher cannot spawn (singleton, PMI-2).
 * Names: publish/unpublish/lookup in the launcher's name service (one
 * mpiexec): -MPI_ERR_NAME when a lookup finds nothing, -MPI_ERR_SERVICE when
 * an unpublish names a service not published. */
typedef struct xb_rt_spawn_cmd {
    const char         *command;
    char *const        *argv;          /* NULL-terminated; NULL: none      */
    int                 maxprocs;
    int                 ninfo;
    const char *const  *info_keys, *const *info_vals;
} xb_rt_spawn_cmd_t;
int xb_rt_spawn(int ncmds, const xb_rt_spawn_cmd_t *cmds, int npreput,
                const char *const *pre_keys, const char *const *pre_vals);
int xb_rt_publish(const char *service, const char *port);
int xb_rt_unpublish(const char *service);
int xb_rt_lookup(const char *service, char *port, size_t len);

/* Fatal error: one sentence naming the host, rank and likely cause, printed to
 * stderr as "crossbar: rank R on HOST: ...", then the job is aborted. */
void xb_rt_fatal(const char *fmt, ...) XB_PRINTF(1, 2) __attribute__((noreturn));
/* Ask the launcher to end the job with this exit code (PMI abort). */
void xb_rt_abort(int code, const char *msg) __attribute__((noreturn));

/* "What this rank is waiting in", shown by mpiexec --timeout. Set by the
 * progress layer before it blocks; cheap (writes into the launcher's status
 * slot in the job segment when there is one). */
void xb_rt_set_waiting(const char *what);

/* ---- logging ----------------------------------------------------------- */
/* XB_LOG=method,pt2pt:debug  (subsystems; level error|warn|info|debug) */
enum xb_log_sub { XB_LOG_RUNTIME, XB_LOG_PMI, XB_LOG_METHOD, XB_LOG_SHM,
                  XB_LOG_PT2PT, XB_LOG_COLL, XB_LOG_CORE, XB_LOG_NSUB };
enum xb_log_level { XB_LOG_ERROR, XB_LOG_WARN, XB_LOG_INFO, XB_LOG_DEBUG };
extern int xb_log_levels[XB_LOG_NSUB];
void xb_log_msg(enum xb_log_sub sub, enum xb_log_level lvl, const char *fmt, ...)
    XB_PRINTF(3, 4);
#define xb_log(sub, lvl, ...) \
    do { if (XB_UNLIKELY(xb_log_levels[(sub)] >= (lvl))) xb_log_msg((sub), (lvl), __VA_ARGS__); } while (0)

#endif

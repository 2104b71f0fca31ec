/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * mpit.h - the MPI tools information interface (MPI_T, MPI 4.1 chapter 15):
 * names shared by the files of src/mpit. Design: docs/design/mpit.md.
 *
 * What it shows. Control variables (cvars) are the tunable table of
 * src/runtime/tunable.c, one cvar per tunable, named as its environment
 * variable (XB_SHM_EAGER_MAX); performance variables (pvars) are the
 * counters the lower layers keep (pt2pt_stats.h, xb_method_stats);
 * categories group both by layer; there are no event types, and one
 * event source (the MPI_Wtime clock).
 *
 * Where it sits. Beside the binding layer: its MPI_T_ / PMPI_T_ entry
 * points are hand-written here (spec/implemented.txt marks them `custom`)
 * and call down into runtime (tunables), method and pt2pt (counters) and
 * coll (a forcing tunable's hook); nothing below calls into it.
 *
 * Lifecycle. MPI_T_init_thread / MPI_T_finalize are reference counted and
 * independent of MPI_Init / MPI_Finalize (before, between, after). The
 * first init loads the tunables (xb_tunables_load) and builds the tables
 * (pvars, categories); the last finalize frees every session, pvar handle
 * and cvar handle a tool left behind, and the tables. Every other MPI_T
 * function returns MPI_T_ERR_NOT_INITIALIZED while the count is zero.
 *
 * Threading. Every entry point runs XB_MPIT_CALL: the progress context's
 * critical section (xb_cs_enter: the counters are written under it) and
 * then this layer's own mutex (MPI_T may be used from several threads
 * before MPI_Init, when the big lock is off). Hooks of written tunables run
 * inside both.
 *
 * Errors. MPI_T functions return their code (MPI_SUCCESS or an MPI_T_ERR_*
 * class; MPI_Error_string knows them) and never invoke an MPI error
 * handler. The detail (function, argument, value, why) is
 * recorded in the per-thread slot (xb_err_detail) by xb_mpit_err.
 *
 * Ownership. Handles (cvar handles, pvar sessions and handles) are
 * malloc'd objects with a magic word, owned by this layer and listed, so
 * a stale or foreign handle is detected (MPI_T_ERR_INVALID_HANDLE /
 * _SESSION) rather than dereferenced blindly.
 */
#ifndef XB_MPIT_H
#define XB_MPIT_H

#include <pthread.h>
#include "mpi.h"
#include "util/xb_common.h"
#include "util/xb_mt.h"

/* ---- state and entry (mpit_env.c) --------------------------------------- */

extern pthread_mutex_t xb_mpit_mutex;
extern int xb_mpit_refs;                  /* MPI_T_init_thread - finalize */

static inline bool xb_mpit_begin(int *rc)
{
    bool cs = xb_cs_enter();
    pthread_mutex_lock(&xb_mpit_mutex);
    *rc = xb_mpit_refs > 0 ? MPI_SUCCESS : MPI_T_ERR_NOT_INITIALIZED;
    return cs;
}

static inline int xb_mpit_end(bool cs, int rc)
{
    pthread_mutex_unlock(&xb_mpit_mutex);
    xb_cs_exit(cs);
    return rc;
}

/* The body of an entry point: `expr` runs only while MPI_T is initialised. */
#define XB_MPIT_CALL(fn, expr)                                                \
    do {                                                                      \
        int rc_;                                                              \
        bool cs_ = xb_mpit_begin(&rc_);                                       \
        if (rc_ == MPI_SUCCESS)                                               \
            rc_ = (expr);                                                     \
        else                                                                  \
            xb_mpit_err(rc_, fn, "MPI_T is not initialized (call "            \
                        "MPI_T_init_thread first)");                          \
        return xb_mpit_end(cs_, rc_);                                         \
    } while (0)

/* MPI_X is a weak alias of PMPI_X (prototypes come from mpi_proto.h). */
#define XB_MPIT_ALIAS(name)                                                   \
    XB_EXPORT __typeof__(P##name) name __attribute__((weak, alias("P" #name)))

/* Record "fn: text" as the error detail and return code (an MPI_T class). */
int xb_mpit_err(int code, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Copy src into the INOUT string pair (buf, len) the standard's way: with
 * buf NULL or *len 0 only the needed length (with the NUL) is returned;
 * otherwise at most *len - 1 characters and a NUL, and *len is what was
 * written (with the NUL). len may be NULL (nothing returned). */
void xb_mpit_strout(const char *src, char *buf, int *len);
/* Check an index argument; MPI_SUCCESS or MPI_T_ERR_INVALID_INDEX. */
int xb_mpit_check_index(const char *fn, const char *what, int idx, int n);
/* A pointer the standard does not let be NULL; MPI_T_ERR_INVALID if it is. */
int xb_mpit_check_ptr(const char *fn, const char *arg, const void *p);

/* ---- control variables (mpit_cvar.c) ------------------------------------ */

int  xb_mpit_cvar_count(void);
const char *xb_mpit_cvar_tunable_name(int idx);   /* without XB_ */
void xb_mpit_cvar_fini(void);                     /* free every cvar handle */
/* The one enumeration: no/yes of the bool cvars. */
extern struct MPI_T_enum_t xb_mpit_enum_bool;

/* ---- performance variables (mpit_pvar.c, mpit_session.c) ---------------- */

typedef struct xb_mpit_pvar {
    char            name[48];
    const char     *desc;
    int             verbosity;
    int             var_class;    /* MPI_T_PVAR_CLASS_* */
    bool            readonly, continuous, atomic;
    const uint64_t *src;          /* the counter read, or NULL: */
    int             comm_queue;   /* bound to MPI_COMM: 0 posted, 1 unexpected */
    const char     *category;     /* name of its category */
} xb_mpit_pvar_t;

int  xb_mpit_pvar_build(void);
void xb_mpit_pvar_free(void);
int  xb_mpit_pvar_count(void);
const xb_mpit_pvar_t *xb_mpit_pvar_at(int idx);
void xb_mpit_session_fini(void);                  /* free every session */

/* ---- categories (mpit_cat.c) -------------------------------------------- */

int  xb_mpit_cat_build(void);
void xb_mpit_cat_free(void);

#endif

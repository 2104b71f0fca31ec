/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_sched.h - the schedule API: every collective algorithm is written
 * once, as a function that BUILDS a schedule; the same schedule then runs
 * blocking (MPI_Bcast), nonblocking (MPI_Ibcast, advanced by the progress
 * engine) or persistent (MPI_Bcast_init, re-run by every MPI_Start).
 *
 * A schedule is a list of steps executed in order:
 *   send / recv  posted nonblocking on the collective context, with the
 *                schedule's tag; issuing does not wait for them;
 *   copy         xb_dt_copy between two (buffer, count, type) triples;
 *   reduce       inout = in op inout on working buffers (s->red);
 *   fence        waits until every send/recv issued so far has completed;
 *   node barrier arrives at the node's shared-memory barrier and waits for
 *                its release (barrier_shm.c; blocking form only);
 *   node         a call through the communicator's channel of the node's
 *                shared memory (node_nb.c): write, wait, read; nonblocking
 *                and persistent forms.
 * Local steps (copy, reduce) run when they are reached, so a step that uses
 * received data comes after a fence. The end of a schedule is a fence.
 *
 * Building. xb_coll_sched_init() takes the next blocking-collective
 * sequence number of the communicator, xb_coll_sched_init_form(..., true)
 * the next nonblocking/persistent one (every rank calls the collectives of
 * one form in the same order, so all agree; the two forms count apart, so
 * a nonblocking collective may start before a blocking one on one rank and
 * after it on another), and derives the tag from it, the form and the
 * collective kind: two collectives outstanding at once on one communicator
 * never match each other's messages. Builders read the caller's arrays (counts,
 * displacements, types) once, at build time: steps hold copies, so the
 * binding's temporary arrays may go as soon as the call returns.
 * xb_coll_sched_tmp() gives temporary buffers owned by the schedule (freed
 * with it); datatypes named in steps and the op are retained until
 * xb_coll_sched_destroy().
 *
 * Running. xb_coll_sched_run() runs it to completion (blocking form; waits
 * sleep in the progress engine). xb_coll_sched_post() makes a collective
 * request (XB_REQ_COLL) whose schedule advances in the progress hook of the
 * coll layer (coll_nb.c); with persistent = true the request is inactive
 * until MPI_Start (req->ops->start), and every start re-runs the same
 * schedule from its first step. A request owns its schedule: freeing the
 * request (req->ops->destroy) destroys it.
 *
 * Intercommunicators. Between xb_coll_sched_local(s, true) and (s, false)
 * the send/recv steps added address the local group through the
 * intercommunicator's local_comm (context of its own, the user never sees
 * it) with the tag + XB_COLL_LOCAL_TAG, so an intercommunicator builder can
 * compose intracommunicator builders for its local phases.
 *
 * Threading: one thread at a time (the progress lock, a no-op today).
 * Returns: XB_OK / XB_INPROGRESS / negative XB_ERR_* with detail recorded.
 */
#ifndef XB_COLL_SCHED_H
#define XB_COLL_SCHED_H

#include "coll/coll.h"

typedef enum xb_coll_step_op {
    XB_CS_SEND, XB_CS_RECV, XB_CS_COPY, XB_CS_REDUCE, XB_CS_FENCE,
    XB_CS_NODE_BARRIER, XB_CS_NODE,
} xb_coll_step_op_t;

typedef struct xb_coll_step {
    uint8_t         op;        /* xb_coll_step_op_t                          */
    uint8_t         local;     /* send/recv on comm->local_comm (intercomm)  */
    int             peer;      /* send/recv                                  */
    const void     *src;       /* send, copy, reduce (in)                    */
    MPI_Count       scount;    /* reduce: working elements                   */
    xb_datatype_t  *sdt;
    void           *dst;       /* recv, copy, reduce (inout)                 */
    MPI_Count       dcount;
    xb_datatype_t  *ddt;
} xb_coll_step_t;

/* Reduction working representation (coll_util.c). */
typedef struct xb_coll_red {
    xb_op_t       *op;
    xb_datatype_t *dt;       /* the user's */
    MPI_Count      count;
    xb_datatype_t *wdt;      /* working type */
    MPI_Count      wcount;
    bool           direct;
} xb_coll_red_t;

enum { XB_COLL_SCHED_INLINE = 24,
       XB_COLL_SCHED_ARENA = 512 };   /* small temporary buffers, inline */

typedef struct xb_coll_mem xb_coll_mem_t;

typedef struct xb_coll_sched {
    xb_comm_t      *comm;
    int             tag;
    const char     *fn;          /* "MPI_Ibcast": what a waiter waits in      */
    xb_coll_step_t *steps;
    int             nsteps, cap;
    xb_coll_mem_t  *mem;         /* temporary buffers                         */
    xb_op_t        *op;          /* retained, or NULL                         */
    xb_coll_red_t   red;         /* working representation of reductions      */
    bool            local;       /* building: steps address comm->local_comm  */
    /* execution */
    int             pc;          /* next step to issue                        */
    int             nreqs, reqcap;
    struct xb_request **reqs;
    int             rc;
    /* A receive whose message was longer or shorter than its buffer, or a
     * local copy longer than its place (err_from -1): the first one's
     * error (XB_ERR_TRUNCATE) and what it saw. The schedule
     * goes on, so that no peer waits for a message that never comes, but
     * every later send carries no data (a receiver then sees a short
     * message and fails too: the whole tree below learns it) and local
     * steps are skipped; the schedule ends with this error. */
    int             err;
    int             err_from;
    size_t          err_got;
    MPI_Count       err_want;
    int             kind;        /* xb_coll_kind_t                             */
    char           *errtext;     /* a failed nonblocking run's sentence (heap) */
    /* xb_coll_sched_expect: what this rank's buffer holds (error text) */
    int             xroot;
    MPI_Count       xcount;
    xb_datatype_t  *xdt;         /* retained, or NULL                         */
    bool            arrived;     /* node barrier: ticket taken                */
    uint32_t        ticket;
    bool            heap;        /* the struct itself was malloc'ed           */
    struct xb_request *req;      /* nonblocking/persistent: its request       */
    struct xb_coll_sched *next;  /* list of active schedules                  */
    size_t          arena_used;  /* bytes of arena[] handed out               */
    xb_coll_step_t  inline_steps[XB_COLL_SCHED_INLINE];
    struct xb_request *inline_reqs[XB_COLL_SCHED_INLINE];
    _Alignas(16) char arena[XB_COLL_SCHED_ARENA];
} xb_coll_sched_t;

/* xb_coll_sched_advance of a nonblocking schedule under MULTIPLE stops
 * before a user op's reduce step: the owner takes the schedule where no
 * other thread can reach it, then runs xb_coll_sched_user_op(), which
 * drops the lock around the op and moves past the step. */
enum { XB_COLL_USER_OP = 2 };
_Static_assert((int)XB_COLL_USER_OP != (int)XB_OK &&
               (int)XB_COLL_USER_OP != (int)XB_INPROGRESS, "a code of its own");

/* ---- building ------------------------------------------------------------ */
/* kind: xb_coll_kind_t (coll_int.h). */
void  xb_coll_sched_init(xb_coll_sched_t *s, xb_comm_t *comm, int kind);
/* A blocking schedule on a tag its caller took already (a direct
 * algorithm that runs its schedule form instead: xb_coll_run_sched). */
void  xb_coll_sched_init_tag(xb_coll_sched_t *s, xb_comm_t *comm, int kind, int tag);
void  xb_coll_sched_init_form(xb_coll_sched_t *s, xb_comm_t *comm, int kind,
                              bool nonblocking);
/* The tag of the communicator's next collective of that form (takes its
 * sequence number): what a schedule uses, and the direct algorithms. */
int   xb_coll_seq_tag(xb_comm_t *comm, int kind, bool nonblocking);
int   xb_coll_sched_send(xb_coll_sched_t *s, const void *buf, MPI_Count count,
                         xb_datatype_t *dt, int peer);
int   xb_coll_sched_recv(xb_coll_sched_t *s, void *buf, MPI_Count count,
                         xb_datatype_t *dt, int peer);
int   xb_coll_sched_copy(xb_coll_sched_t *s, const void *src, MPI_Count scount,
                         xb_datatype_t *sdt, void *dst, MPI_Count dcount,
                         xb_datatype_t *ddt);
/* inout = in op inout over n working elements (s->red.op, s->red.wdt). */
int   xb_coll_sched_reduce(xb_coll_sched_t *s, const void *in, void *inout,
                           MPI_Count n);
int   xb_coll_sched_fence(xb_coll_sched_t *s);
/* Following steps address comm->local_comm (true) or comm (false). */
void  xb_coll_sched_local(xb_coll_sched_t *s, bool local);
/* Above every tag of the kind/sequence layout (< 2^25): local phases of
 * intercommunicator collectives never match the local_comm's own. */
enum { XB_COLL_LOCAL_TAG = 1 << 25 };
int   xb_coll_sched_node_barrier(xb_coll_sched_t *s);
/* ... that then checks the slot signatures of area par
 * (xb_coll_node_check, coll_int.h): a mismatch ends the schedule there. */
int   xb_coll_sched_node_barrier_check(xb_coll_sched_t *s, int par, const MPI_Count *counts,
                                       xb_datatype_t *dt);
/* A node step (node_nb.c: xb_coll_nbn_op builds it): dst is the call,
 * sdt and ddt the call's types, retained until the schedule goes. */
struct xb_coll_nbop;
int   xb_coll_sched_node(xb_coll_sched_t *s, struct xb_coll_nbop *o);
/* A rooted one-buffer collective (bcast): this rank's buffer is count x dt
 * and the root is root; a receive of the wrong size then names them. */
void  xb_coll_sched_expect(xb_coll_sched_t *s, int root, MPI_Count count,
                           xb_datatype_t *dt);
/* Temporary buffer for count elements of dt, owned by the schedule. */
void *xb_coll_sched_tmp(xb_coll_sched_t *s, MPI_Count count,
                        const xb_datatype_t *dt);
/* Set up s->red for a reduction (retains the op); checks op against type. */
int   xb_coll_sched_red(xb_coll_sched_t *s, MPI_Count count, xb_datatype_t *dt,
                        xb_op_t *op);
/* Working buffer of n working elements (n < 0: the whole s->red.wcount). */
void *xb_coll_sched_wtmp(xb_coll_sched_t *s, MPI_Count n);
/* What a finished nonpersistent schedule holds no more: its steps,
 * requests, temporary buffers, op and datatypes (coll_nb.c's finish, so
 * they do not wait for the request's free, which a lock-free report
 * defers to the channel's next poll). The struct and its error sentence
 * stay for the wait; a second call is a no-op. */
void  xb_coll_sched_release(xb_coll_sched_t *s);
void  xb_coll_sched_destroy(xb_coll_sched_t *s);
/* Free the cache of large temporary buffers (MPI_Finalize). */
void  xb_coll_sched_cache_fini(void);

/* ---- running --------------------------------------------------------------- */
int   xb_coll_sched_run(xb_coll_sched_t *s);
/* Advance as far as possible: XB_OK when finished, XB_INPROGRESS,
 * XB_COLL_USER_OP (above), or error. */
int   xb_coll_sched_advance(xb_coll_sched_t *s);
/* Run the user op's step at s->pc (a reduce step, or a node channel's read,
 * xb_coll_nbn_read) with the lock dropped around the op; XB_OK or error. */
int   xb_coll_sched_user_op(xb_coll_sched_t *s);
void  xb_coll_sched_restart(xb_coll_sched_t *s);
/* Hand a heap schedule to a new collective request (coll_nb.c). */
int   xb_coll_sched_post(xb_coll_sched_t *s, bool persistent, MPI_Request *req);
/* The blocking form of a heap schedule: post it as a request, wait for it
 * and free it; its result. For the steps that only the progress hook moves
 * under MPI_THREAD_MULTIPLE (the node channels, XB_CS_NODE): a thread that
 * waits for a request sleeps until it completes, which a blocking
 * schedule's own loop could not arrange while another thread polls. */
int   xb_coll_sched_post_wait(xb_coll_sched_t *s);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * progress.h - the progress engine: polling methods, and waiting for requests.
 *
 * A progress context (xb_progress_t) owns the lock that protects
 * communication state, the request pool and the polling of the methods.
 * The main one always exists; with XB_PROGRESS_CONTEXTS = n > 1 there are
 * n lanes besides (xb_progress_ctx(1..n)), each with the lock, request
 * pool, pt2pt state and method channels of its communicators' user
 * point-to-point traffic (docs/design/threads.md "Progress contexts").
 * xb_progress_default() is the context of what the calling thread holds:
 * the main one, or under MULTIPLE in a lane call that lane's.
 *
 * Threading (docs/design/threads.md). Under MPI_THREAD_MULTIPLE (xb_mt_on,
 * util/xb_mt.h) the context's lock is the critical section the generated
 * bindings take around every call, so every function here is called with it
 * held. Waiting releases it: at most one waiting thread polls (the poller,
 * which also sleeps in the method), the others sleep on the context's futex
 * until a completion wakes them (progress_mt.c). Below MULTIPLE the lock
 * operations are one predicted branch.
 *
 * Polling. xb_progress_poll() polls every method (xb_method_progress_all())
 * and then runs the hooks registered by upper layers (pt2pt retries its
 * per-peer pending sends there). It never blocks.
 *
 * Waiting. xb_progress_wait() returns when the request's completion flag is
 * set. It polls for up to XB_SPIN_US microseconds (or, on a node with more
 * ranks than CPUs, XB_SPIN_POLLS_OVERSUB polls that each yield the CPU),
 * then sleeps in the method that can
 * sleep (xb_method_block: senders wake the sleeper), so an oversubscribed job
 * (8 ranks on 2 cores) does not burn the cores of the ranks that have work.
 * Before sleeping it publishes what it waits in (xb_rt_set_waiting), built
 * from the request ("MPI_Recv(source=1, tag=5, comm=MPI_COMM_WORLD)"), and
 * clears it afterwards.
 *
 * Returns: XB_OK, or a negative XB_ERR_* when the request completed in error
 * (wait does not free the request: the caller decides).
 */
#ifndef XB_PROGRESS_H
#define XB_PROGRESS_H

#include "util/xb_common.h"
#include "core/request.h"
#include "util/xb_mt.h"

typedef struct xb_progress xb_progress_t;

/* A hook run at the end of every poll; returns the events it handled. */
typedef int (*xb_progress_hook_t)(xb_progress_t *pc);

xb_progress_t *xb_progress_default(void);
/* Context of channel chan (0: the main one) and the channel of a context. */
xb_progress_t *xb_progress_ctx(int chan);
int  xb_progress_chan(const xb_progress_t *pc);
int  xb_progress_init(void);
void xb_progress_fini(void);
/* Up to 4 hooks (pt2pt and coll register one each). The hook runs only
 * while *armed is nonzero (its owner's count of pending work; NULL: always),
 * so an idle poll does not call it. */
int  xb_progress_hook_add(xb_progress_hook_t hook, const int *armed);
/* The same for the context of channel chan (a lane's hooks run in its
 * polls, and in the main context's, which polls every lane). */
int  xb_progress_hook_add_chan(int chan, xb_progress_hook_t hook, const int *armed);

/* The context's lock, for code that runs outside a binding call (the lock
 * of the one context is the bindings' lock, util/xb_mt.h). */
static inline void xb_progress_lock(xb_progress_t *pc)   { (void)pc; (void)xb_cs_enter(); }
static inline void xb_progress_unlock(xb_progress_t *pc) { (void)pc; xb_cs_exit(xb_mt_on); }

/* The asynchronous progress thread (XB_ASYNC_PROGRESS): wanted() tells init
 * to turn the internal locking on; start() after init, stop() in
 * MPI_Finalize (with the lock held; it drops it while it joins). */
bool xb_progress_async_wanted(void);
/* Turn the MULTIPLE locking on (init, before other threads may call MPI)
 * or off (the end of MPI_Finalize). */
void xb_progress_threads(bool on);
int  xb_progress_async_start(void);
void xb_progress_async_stop(void);
/* Whether the progress thread runs (read under the lock). */
bool xb_progress_async_running(void);
/* Work was queued for the progress hooks (pt2pt's deferred gets): wake the
 * progress thread when it sleeps in the method, so that it runs them now,
 * not at its next time-out. Lock held; nothing without a progress thread
 * or while an application thread polls (it runs the hooks itself). */
void xb_progress_kick(void);

/* One round of polling; returns the number of events handled. A lane's
 * poll looks at its own channel only; the main one's at everything. */
int  xb_progress_poll(xb_progress_t *pc);
/* The poll of a call that returns at once and that programs call in a loop
 * (MPI_Test*, MPI_Iprobe, MPI_Request_get_status*, MPI_Win_test,
 * MPI_Parrived): on a node with more ranks than CPUs, a poll that handled
 * nothing yields the CPU (sched_yield), so a rank spinning on MPI_Test does
 * not keep the rank it waits for off the CPU. Not under MULTIPLE (the
 * caller holds the lock). Returns what xb_progress_poll returned. */
int  xb_progress_poll_test(xb_progress_t *pc);
/* For MPI_T: 1 when this node runs more ranks than CPUs (the waits and the
 * tests above yield), and how many times an empty test poll yielded. */
extern uint64_t xb_progress_oversubscribed;
extern uint64_t xb_progress_test_yields;
/* Tell the waiter that some operation is queued for retry: a sleeping wait
 * then uses a short timeout. */
void xb_progress_set_backlog(xb_progress_t *pc, int nqueued);

/* Wait until req completes (it is not freed). Returns req->status.error as an
 * XB_ code (XB_OK or -class). */
int  xb_progress_wait(xb_progress_t *pc, xb_request_t *req);
/* Wait until ready(arg) is true (spin, then sleep; `what` is published as
 * what this rank waits in). */
int  xb_progress_wait_until(xb_progress_t *pc, bool (*ready)(void *), void *arg,
                            const char *what);
/* The same for an event that comes from another node or a socket of the
 * caller (xb_method_block_net: sleeps on the sockets, and on fd when >= 0,
 * not on shared memory). Under MULTIPLE nothing wakes a waiter for such an
 * event, so while one waits the context's naps are 1 ms slices. */
int  xb_progress_wait_net(xb_progress_t *pc, bool (*ready)(void *), void *arg,
                          const char *what, int fd);
/* XB_OK, or the request's error as an XB_ code with detail recorded. */
int  xb_request_status_rc(const xb_request_t *req);
/* Wait until *flag becomes nonzero (internal waits without a request). */
void xb_progress_wait_flag(xb_progress_t *pc, const atomic_uint *flag, const char *what);

/* ---- the internal API other layers use (also re-exported by pt2pt.h) ---- */
/* Wait for one request; its status goes to *st (NULL or MPI_STATUS_IGNORE
 * allowed; MPI_ERROR is written too). The request is NOT freed: internal
 * requests go back with xb_request_release. Returns XB_OK or the request's
 * error (e.g. XB_ERR_TRUNCATE). */
int  xb_request_wait(xb_request_t *req, MPI_Status *st);
/* Wait for n requests (NULL entries allowed); returns the first error. */
int  xb_request_waitall(int n, xb_request_t **reqs);
/* Free a completed internal request (or mark a pending one to free itself). */
void xb_request_release(xb_request_t *req);

#endif

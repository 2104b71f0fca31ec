/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * method_int.h - what the files of src/method share among themselves (not an
 * interface for other layers: they use method.h).
 *
 * The registry (method.c) knows the methods by their ops tables, in rule
 * order. The peer table (peer.c) is built by xb_method_ready_all() and freed
 * by xb_method_fini_all(). Each method may offer a probe (availability on this
 * machine without a job, for crossbar-info) and a describe hook (its state and
 * effective settings, one line).
 */
#ifndef XB_METHOD_INT_H
#define XB_METHOD_INT_H

#include "method/method.h"
#include "runtime/runtime.h"

/* Registry indices: the default rule order. */
enum { XB_METHOD_SELF = 0, XB_METHOD_SHM = 1, XB_METHOD_TCP = 2, XB_METHOD_NREG = 3 };

/* A method hands an arrived active message up: counted for MPI_T
 * (xb_method_stats, a plain increment at a fixed address), then the
 * handler runs. */
static inline void xb_am_dispatch_from(int method, uint8_t am_id, xb_gpid_t src,
                                       const void *hdr, size_t hdr_len,
                                       const void *payload, size_t len)
{
    xb_method_stats[method].am_recv++;
    xb_method_stats[method].am_recv_bytes += len;
    xb_am_dispatch(am_id, src, hdr, hdr_len, payload, len);
}

extern const xb_method_ops_t xb_self_ops;
extern const xb_method_ops_t xb_shm_ops;
extern const xb_method_ops_t xb_tcp_ops;

/* Availability on this machine without a job: XB_OK, or <0 with *why. */
int xb_self_probe(const char **why);
int xb_shm_probe(const char **why);
/* Extra text for crossbar-info ("ring=65536 B x 2, single-copy: on"),
 * appended at strlen(buf). m may be a method that was never initialised. */
int xb_shm_describe(xb_method_t *m, char *buf, size_t len);
int xb_tcp_probe(const char **why);
int xb_tcp_describe(xb_method_t *m, char *buf, size_t len);
/* "host h via 10.0.0.2:40001, open" for the peer table's describe. */
int xb_tcp_peer_describe(int rank, char *buf, size_t len);
/* dpm (tcp_foreign.c): this job's key, this process's address blob with the
 * job secret, and a process of another job as tcp peer `rank` (>= world
 * size) with its blob. */
uint64_t xb_tcp_job_key(void);
int  xb_tcp_dpm_blob(void *buf, size_t *len_p);
int  xb_tcp_foreign(int rank, const xb_proc_id_t *id, const void *blob, size_t len);
/* The IPv4 address of the interface this process's tcp listens on, for
 * multicast (src/method/mcast): the first one that is not loopback, else
 * the loopback one (jobs whose "hosts" share this machine). XB_OK or an
 * error saying why there is none. */
struct in_addr;
int  xb_tcp_mcast_if(struct in_addr *addr);
/* tcp's epoll set (readable when a connection has something), or -1 when
 * tcp is off: for xb_method_block_net. */
int  xb_tcp_epoll_fd(void);
/* Foreign or unauthenticated connections closed so far (tests). */
unsigned long xb_tcp_rejected(void);

/* Rule order after XB_METHODS: indices into the registry. */
int xb_method_order(const uint8_t **order_p);
/* The job shape the methods were initialised with (NULL before init). */
const xb_rt_info_t *xb_method_rt(void);

/* Peer table (peer.c). */
int  xb_peer_table_init(const xb_rt_info_t *rt);
void xb_peer_table_fini(void);
/* Peers (other than the process itself) the rule gave to method idx. */
int  xb_peer_count(int idx);

/* Re-plan which methods are polled and slept in (a peer was added). */
void xb_method_plan_polling(void);

/* snprintf that appends at *off and never overruns (returns the new *off). */
size_t xb_method_bprintf(char *buf, size_t len, size_t off, const char *fmt, ...)
    XB_PRINTF(4, 5);

#endif

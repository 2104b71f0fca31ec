/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_int.h - shared by the files of src/comm (communicator construction).
 *
 * Context-id agreement (ctxid.c) comes in three shapes, all collective:
 *   xb_comm_ctx_agree        over the members of a parent communicator
 *   xb_comm_ctx_agree_group  over the members of a group only (no parent:
 *                            Comm_create_group, Comm_create_from_group), by
 *                            a binomial reduce + broadcast on the hidden
 *                            bootstrap communicator (xb_comm_boot, world
 *                            ranks, its own context), tag-separated
 *   xb_comm_ctx_agree_inter  over two disjoint groups joined by a leader on
 *                            each side (intercommunicators, merge)
 * Internal exchanges on a user communicator use its collective context with
 * tags XB_COMM_TAG(t) (>= 2^29), above every collective tag.
 */
#ifndef XB_COMM_INT_H
#define XB_COMM_INT_H

#include "core/core.h"
#include "core/op.h"
#include "datatype/datatype.h"

#define XB_COMM_TAG(t) ((1 << 29) | ((t) & ((1 << 29) - 1)))

/* The shadow context of an intercommunicator's context ctx, for its local
 * communicator: above the pool (contexts are opaque 32-bit numbers to
 * pt2pt; xb_ctx_take/put ignore contexts past the pool), unique on every
 * process because ctx is, and shared by the two sides' local communicators,
 * whose groups are disjoint. Used where agreeing on a second pool slot is
 * costly or impossible (Comm_create and Comm_idup of an intercommunicator). */
#define XB_COMM_LOCAL_CTX(ctx) ((uint32_t)(ctx) + 2u * XB_CTX_SLOTS)

/* Agree on a context id over parent (collective over parent). member: this
 * process will belong to the new communicator. *ctx_p is the same on every
 * process; the caller takes it with xb_comm_new (members only). */
int xb_comm_ctx_agree(xb_comm_t *parent, bool member, uint32_t *ctx_p);
/* Collective over the members of g (I am one); tag separates concurrent
 * calls on overlapping groups. */
int xb_comm_ctx_agree_group(const xb_group_t *g, int tag, uint32_t *ctx_p);
/* Collective over local (an intracommunicator) and the remote side: the
 * leaders (local rank `leader`; `peer_rank` in `peer`) swap their side's
 * masks over peer's collective context with XB_COMM_TAG(tag). */
int xb_comm_ctx_agree_inter(xb_comm_t *local, int leader, xb_comm_t *peer,
                            int peer_rank, int tag, uint32_t *ctx_p);
/* The same where this process may not be a member of the result (member
 * false contributes an all-ones mask: intercommunicator split). */
int xb_comm_ctx_agree_inter2(xb_comm_t *local, bool member, int leader,
                             xb_comm_t *peer, int peer_rank, int tag,
                             uint32_t *ctx_p);
/* MPI_Comm_split on an intercommunicator (intercomm_split.c). */
int xb_comm_split_inter(xb_comm_t *comm, int color, int key, MPI_Comm *newcomm);
/* MPI_Comm_create on an intercommunicator (intercomm_create.c); grc: the
 * result of checking group against the local group (an error takes part
 * as an empty group, then is returned). */
int xb_comm_create_inter(xb_comm_t *ic, xb_group_t *group, int grc,
                         MPI_Comm *newcomm);
/* Send sbytes and receive rbytes with `rank` of peer (remote rank for an
 * intercommunicator) on peer's collective context, tag XB_COMM_TAG(tag). */
int xb_comm_exchange(xb_comm_t *peer, int rank, int tag, const void *sbuf,
                     size_t sbytes, void *rbuf, size_t rbytes);
/* A group-collective over g on the bootstrap communicator: broadcast
 * `bytes` from group rank `root`. */
int xb_comm_group_bcast(const xb_group_t *g, int root, int tag, void *buf,
                        size_t bytes);

/* ctxid.c: whether a round of a blocking agreement of this process has
 * slots out of the pool now (they come back when it ends). */
bool xb_comm_agree_holds(void);

/* comm_idup.c: whether a pending MPI_Comm_idup of this process holds
 * reserved slots (the blocking agreements cannot take them), and a count
 * that grows whenever one gives slots back (ctxid.c waits for it). */
bool xb_comm_idup_holds(void);
/* Whether an MPI_Comm_idup of this process is outstanding. */
bool xb_comm_idup_pending(void);
uint64_t xb_comm_idup_released(void);

/* Finish a new communicator made from parent: copy parent's attributes
 * (copy callbacks), its topology when `topo`, and set the hints (a copy of
 * `info`, or of parent's hints when info is NULL and inherit_info). On error
 * c is released. */
int xb_comm_finish(xb_comm_t *c, xb_comm_t *parent, bool attrs, bool topo,
                   struct xb_info *info, bool inherit_info);
/* Hand the hints of c that a method uses (xb_tcp_buffer_size) to the
 * methods serving its members (comm_query.c). */
int xb_comm_apply_hints(xb_comm_t *c);
/* comm_chan.c: the channel (progress context) of a new communicator, from
 * XB_PROGRESS_CONTEXTS and its info hint "xb_progress_context". */
int xb_comm_pick_chan(xb_comm_t *c);
/* MPI_Comm_split's work (also used by split_type). */
int xb_comm_split_impl(xb_comm_t *comm, int color, int key, MPI_Comm *newcomm);
/* A new intracommunicator over the members of `world` (n world ranks, in
 * order; I am one) with context ctx: group made, comm made. */
int xb_comm_from_world_list(int n, const int *world, uint32_t ctx,
                            xb_comm_t *parent, xb_comm_t **out_p);

/* Split key for a new topology's rank order (topo_cart.c): the old rank,
 * or with reorder the ranks grouped by node. */
int xb_comm_topo_key(const xb_comm_t *comm, int reorder);
/* A bootstrap tag (0 .. 2^30 - 1) from a string tag (intercomm.c). */
int xb_comm_stringtag_hash(const char *s);

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * intercomm.c - intercommunicators: MPI_Intercomm_create,
 * MPI_Intercomm_create_from_groups, MPI_Intercomm_merge.
 *
 * An intercommunicator is an xb_comm_t with `group` = the local group
 * (rank and size are local) and `remote` = the remote group: point-to-point
 * ranks name remote processes (xb_comm_gpid maps them through `remote`), and
 * a message carries the sender's local rank, which is its rank in the
 * receiver's remote group. Both sides use one context id, agreed over the
 * union (xb_comm_ctx_agree_inter). `local_comm` is an intracommunicator
 * over the local group with its own context, for the local phases of
 * intercommunicator collectives (src/coll) and for our own agreements.
 *
 * Creation: the leaders swap their groups' world ranks over the peer
 * communicator (its collective context, tag XB_COMM_TAG(tag)), each leader
 * broadcasts the remote list in its local communicator.
 */
#include <stdlib.h>
#include <string.h>
#include "comm/comm_int.h"
#include "comm/comm.h"
#include "method/method.h"
#include "coll/coll.h"
#include "core/info.h"
#include "core/errhandler.h"
#include "xb_impl.h"

static int *world_list(const xb_group_t *g)
{
    int *w = malloc(((size_t)g->size + 1) * sizeof(int));
    if (w == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "out of memory for a group of %d", g->size);
        return NULL;
    }
    for (int r = 0; r < g->size; r++)
        w[r] = (int)xb_group_gpid(g, r);
    return w;
}

/* Leader: swap (size, world list) with the remote leader. */
static int leader_swap(const xb_group_t *local, xb_comm_t *peer, int rleader,
                       int tag, int *rsize_p, int **rlist_p)
{
    int rsize = 0, *mine = world_list(local);
    if (mine == NULL)
        return XB_ERR_NO_MEM;
    int rc = xb_comm_exchange(peer, rleader, tag, &local->size, sizeof(int),
                              &rsize, sizeof(int));
    int *theirs = rc == XB_OK ? malloc(((size_t)rsize + 1) * sizeof(int)) : NULL;
    if (rc == XB_OK && theirs == NULL)
        rc = xb_err_set(XB_ERR_NO_MEM, "out of memory for a group of %d", rsize);
    if (rc == XB_OK)
        rc = xb_comm_exchange(peer, rleader, tag, mine,
                              (size_t)local->size * sizeof(int), theirs,
                              (size_t)rsize * sizeof(int));
    free(mine);
    if (rc != XB_OK) {
        free(theirs);
        return rc;
    }
    *rsize_p = rsize;
    *rlist_p = theirs;
    return XB_OK;
}

/* Everyone in local: learn the remote world list from the leader. A size of
 * -1 broadcast by the leader means it failed. */
static int share_remote(xb_comm_t *local, int leader, int lrc, int *rsize_p,
                        int **rlist_p)
{
    xb_datatype_t *dint = xb_dt_from_handle(MPI_INT);
    int rsize = lrc == XB_OK ? *rsize_p : lrc;     /* < 0: the leader's error */
    int rc = xb_coll_bcast(&rsize, 1, dint, leader, local);
    if (rc != XB_OK)
        return rc;
    if (rsize < 0)
        return lrc != XB_OK ? lrc : xb_err_set(rsize, "the local leader (rank %d) "
                                               "failed (its arguments or its "
                                               "exchange with the remote leader)",
                                               leader);
    int *list = local->rank == leader ? *rlist_p
              : malloc(((size_t)rsize + 1) * sizeof(int));
    if (list == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for a group of %d", rsize);
    rc = xb_coll_bcast(list, rsize, dint, leader, local);
    if (rc != XB_OK) {
        free(list);
        return rc;
    }
    *rsize_p = rsize;
    *rlist_p = list;
    return XB_OK;
}

/* Build the intercommunicator (after the agreement on ctx over both sides):
 * errhandler from `errh_from` (or errh), local communicator agreed over
 * `local`. */
static int build(xb_comm_t *local, int rsize, const int *rlist, uint32_t ctx,
                 xb_comm_t *errh_from, xb_comm_t **out_p)
{
    xb_group_t *remote = xb_group_new(rsize, rlist);
    if (remote == NULL)
        return XB_ERR_NO_MEM;
    xb_comm_t *c = xb_comm_new(local->group, ctx, errh_from);
    if (c == NULL) {
        xb_group_release(remote);
        return XB_ERR_NO_MEM;
    }
    c->remote = remote;
    uint32_t lctx;
    int rc = xb_comm_ctx_agree(local, true, &lctx);
    xb_comm_t *l = rc == XB_OK ? xb_comm_new(local->group, lctx, NULL) : NULL;
    if (l == NULL) {
        xb_comm_release(c);
        return rc != XB_OK ? rc : XB_ERR_NO_MEM;
    }
    c->local_comm = l;
    *out_p = c;
    return XB_OK;
}

static int check_disjoint(const xb_group_t *local, int rsize, const int *rlist)
{
    for (int i = 0; i < rsize; i++)
        for (int r = 0; r < local->size; r++)
            if ((int)xb_group_gpid(local, r) == rlist[i])
                return xb_err_set(XB_ERR_GROUP, "the local and remote groups "
                                  "overlap (world rank %d is in both)", rlist[i]);
    return XB_OK;
}

/* The leader's arguments (only it has them): a bad one fails the call on
 * the whole local group (share_remote spreads it), not only the leader. */
static int check_leader_args(const xb_comm_t *peer, int rleader)
{
    if (peer == NULL)
        return xb_err_set(XB_ERR_COMM, "invalid argument peer_comm: "
                          "MPI_COMM_NULL at the local leader");
    int psize = xb_comm_is_inter(peer) ? peer->remote->size : peer->size;
    if (rleader < 0 || rleader >= psize)
        return xb_err_set(XB_ERR_RANK, "invalid argument remote_leader: %d "
                          "(peer_comm has %d ranks)", rleader, psize);
    return XB_OK;
}

static int create_over(xb_comm_t *local, int leader, xb_comm_t *peer,
                       int rleader, int tag, xb_comm_t *errh_from, xb_comm_t **out_p)
{
    int rsize = 0, *rlist = NULL, lrc = XB_OK;
    if (local->rank == leader)
        lrc = check_leader_args(peer, rleader);
    if (local->rank == leader && lrc == XB_OK)
        lrc = leader_swap(local->group, peer, rleader, tag, &rsize, &rlist);
    int rc = share_remote(local, leader, lrc, &rsize, &rlist);
    if (rc != XB_OK)
        return rc;
    int drc = check_disjoint(local->group, rsize, rlist);
    uint32_t ctx = 0;
    rc = xb_comm_ctx_agree_inter(local, leader, peer, rleader, tag, &ctx);
    if (rc == XB_OK)
        rc = drc;
    if (rc == XB_OK)
        rc = build(local, rsize, rlist, ctx, errh_from, out_p);
    free(rlist);
    return rc;
}

int xb_impl_intercomm_create(xb_comm_t *local_comm, int local_leader,
                             xb_comm_t *peer_comm, int remote_leader, int tag,
                             MPI_Comm *newintercomm)
{
    if (xb_comm_is_inter(local_comm))
        return xb_err_set(XB_ERR_COMM, "invalid argument local_comm: an "
                          "intercommunicator (an intracommunicator is needed)");
    xb_comm_t *c;
    int rc = create_over(local_comm, local_leader, peer_comm, remote_leader, tag,
                         local_comm, &c);
    if (rc == XB_OK)
        rc = xb_comm_finish(c, NULL, false, false, NULL, false);
    if (rc == XB_OK)
        *newintercomm = xb_comm_to_handle(c);
    return rc;
}

/* ---- intercommunicators of dynamic processes (src/dpm) -------------------- */
/* A context only the temporary intercommunicator of a connection uses: past
 * the pool and its shadow contexts. */
#define DPM_BOOT_CTX ((uint32_t)(4u * XB_CTX_SLOTS))

int xb_comm_intercomm_connect(xb_comm_t *local, int root, int rn, const int *rlist,
                              int rroot, int tag, xb_comm_t **out_p)
{
    int drc = check_disjoint(local->group, rn, rlist);
    xb_group_t *remote = xb_group_new(rn, rlist);
    xb_comm_t *tmp = remote != NULL ? xb_comm_new(local->group, DPM_BOOT_CTX, NULL)
                                    : NULL;
    if (tmp == NULL) {
        if (remote != NULL)
            xb_group_release(remote);
        return XB_ERR_NO_MEM;
    }
    tmp->remote = remote;
    uint32_t ctx = 0;
    int rc = xb_comm_ctx_agree_inter(local, root, tmp, rroot, tag, &ctx);
    xb_comm_release(tmp);
    if (rc == XB_OK)
        rc = drc;
    xb_comm_t *c = NULL;
    if (rc == XB_OK)
        rc = build(local, rn, rlist, ctx, local, &c);
    if (rc == XB_OK)
        rc = xb_comm_finish(c, NULL, false, false, NULL, false);
    if (rc == XB_OK)
        *out_p = c;
    return rc;
}

/* ---- MPI_Intercomm_merge ---------------------------------------------------- */
enum { MERGE_TAG = 0x3e3e };

/* World ranks of the merged group: the "low" side first; with equal `high`
 * values, the side whose rank 0 has the smaller world rank first. */
static int *merged_list(const xb_comm_t *ic, bool local_first)
{
    const xb_group_t *a = local_first ? ic->group : ic->remote;
    const xb_group_t *b = local_first ? ic->remote : ic->group;
    int *w = malloc(((size_t)a->size + (size_t)b->size) * sizeof(int));
    if (w == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "out of memory merging an intercommunicator");
        return NULL;
    }
    for (int r = 0; r < a->size; r++)
        w[r] = (int)xb_group_gpid(a, r);
    for (int r = 0; r < b->size; r++)
        w[a->size + r] = (int)xb_group_gpid(b, r);
    return w;
}

int xb_impl_intercomm_merge(xb_comm_t *intercomm, int high, MPI_Comm *newintracomm)
{
    if (!xb_comm_is_inter(intercomm))
        return xb_err_set(XB_ERR_COMM, "invalid argument intercomm: an "
                          "intracommunicator");
    xb_comm_t *local = intercomm->local_comm;
    /* high, then the universal id of rank 0 of the side (gpids of other
     * jobs' processes differ from one process to the next: src/dpm) */
    xb_proc_id_t id = { 0 };
    int rc = xb_peer_id(xb_group_gpid(intercomm->group, 0), &id);
    if (rc != XB_OK)
        return rc;
    uint64_t mine[3] = { high != 0, id.job, id.rank }, theirs[3] = { 0, 0, 0 };
    if (local->rank == 0)
        rc = xb_comm_exchange(intercomm, 0, MERGE_TAG, mine, sizeof(mine),
                              theirs, sizeof(theirs));
    int brc = xb_coll_bcast(theirs, (int)sizeof(theirs), xb_dt_from_handle(MPI_BYTE),
                            0, local);
    if (rc != XB_OK || brc != XB_OK)
        return rc != XB_OK ? rc : brc;
    bool local_first = mine[0] != theirs[0] ? !mine[0]
                     : mine[1] != theirs[1] ? mine[1] < theirs[1] : mine[2] < theirs[2];
    uint32_t ctx;
    rc = xb_comm_ctx_agree_inter(local, 0, intercomm, 0, MERGE_TAG, &ctx);
    if (rc != XB_OK)
        return rc;
    int *w = merged_list(intercomm, local_first);
    if (w == NULL)
        return XB_ERR_NO_MEM;
    xb_comm_t *c;
    rc = xb_comm_from_world_list(intercomm->group->size + intercomm->remote->size,
                                 w, ctx, intercomm, &c);
    free(w);
    if (rc == XB_OK)
        rc = xb_comm_finish(c, NULL, false, false, NULL, false);
    if (rc == XB_OK)
        *newintracomm = xb_comm_to_handle(c);
    return rc;
}

/* ---- MPI_Intercomm_create_from_groups --------------------------------------- */
/* A tag for the bootstrap communicator from a string tag (FNV-1a, 30 bits). */
int xb_comm_stringtag_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s != '\0'; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return (int)(h & 0x3fffffffu);
}

static void set_errh(xb_comm_t *c, xb_errhandler_t *e)
{
    if (e == NULL)
        return;
    xb_errhandler_retain(e);
    xb_errhandler_release(c->errh);
    c->errh = e;
}

int xb_impl_intercomm_create_from_groups(xb_group_t *local_group, int local_leader,
                                         xb_group_t *remote_group, int remote_leader,
                                         const char *stringtag, xb_info_t *info,
                                         xb_errhandler_t *errhandler,
                                         MPI_Comm *newintercomm)
{
    if (local_group->rank == MPI_UNDEFINED)
        return xb_err_set(XB_ERR_GROUP, "invalid argument local_group: the "
                          "calling process is not a member");
    if (local_leader < 0 || local_leader >= local_group->size)
        return xb_err_set(XB_ERR_RANK, "invalid argument local_leader: %d (the "
                          "group has %d members)", local_leader, local_group->size);
    if (remote_leader < 0 || remote_leader >= remote_group->size)
        return xb_err_set(XB_ERR_RANK, "invalid argument remote_leader: %d (the "
                          "group has %d members)", remote_leader, remote_group->size);
    int tag = xb_comm_stringtag_hash(stringtag);
    uint32_t lctx;
    int rc = xb_comm_ctx_agree_group(local_group, tag, &lctx);
    xb_comm_t *l = rc == XB_OK ? xb_comm_new(local_group, lctx, NULL) : NULL;
    if (l == NULL)
        return rc != XB_OK ? rc : XB_ERR_NO_MEM;
    xb_comm_t *c;
    rc = create_over(l, local_leader, xb_comm_boot(),
                     (int)xb_group_gpid(remote_group, remote_leader), tag, NULL, &c);
    xb_comm_release(l);
    if (rc == XB_OK) {
        set_errh(c, errhandler);
        rc = xb_comm_finish(c, NULL, false, false, info, false);
    }
    if (rc == XB_OK)
        *newintercomm = xb_comm_to_handle(c);
    return rc;
}

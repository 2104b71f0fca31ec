/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * partitioned.c - partitioned communication (MPI 4.0 chapter 4):
 * MPI_Psend_init, MPI_Precv_init, MPI_Pready, _range, _list, MPI_Parrived.
 *
 * A partitioned request is a persistent request (kind XB_REQ_COLL with its
 * own start/destroy ops) over internal point-to-point messages on the
 * communicator's collective context (coll = 1: a user receive, even with
 * MPI_ANY_TAG, never sees them) with a negative tag (collective and
 * communicator tags are non-negative) derived from the user's tag and the
 * channel's ordinal: the n-th MPI_Psend_init to (comm, dest, tag) pairs
 * with the n-th MPI_Precv_init from (comm, source, tag), as the standard's
 * matching rule says; the first 2^21 tags and 512 channels per (peer, tag)
 * map one to one, beyond that by a hash.
 *
 * Send side. MPI_Pready(i) packs send partition i (packed bytes
 * [i*psize, (i+1)*psize) of the whole buffer) behind a 16-byte header
 * (partition index, partition count, total bytes) into its staging slot and
 * sends it at once: partitions move as they become ready. The request
 * completes when every partition's message has completed. A sender with 0
 * partitions sends one header alone at MPI_Start.
 *
 * Receive side. The receiver does not know the sender's partition count
 * (the standard lets the counts differ; the total must match), so the
 * first round posts one receive big enough for any partition; its header
 * tells the count, and the other receives are posted from its completion.
 * Later rounds post them all at MPI_Start. Each arrival unpacks its bytes
 * into the user's buffer at their packed offset (xb_dt_unpack with an
 * offset), so send and receive partitions need not line up; MPI_Parrived(j)
 * is true once every send partition overlapping receive partition j is
 * in. A total that differs from the sender's is MPI_ERR_TRUNCATE.
 *
 * Threading: under the bindings' lock; completions run in the progress
 * poll of the lock holder.
 */
#include <stdlib.h>
#include <string.h>
#include "pt2pt/proto.h"
#include "xb_impl.h"

typedef struct part_hdr {
    uint32_t idx, parts;
    uint64_t total;
} part_hdr_t;
enum { HDR = sizeof(part_hdr_t), NO_PART = 0xffffffffu };

typedef struct part {
    bool           send;
    int            parts;       /* my partition count                         */
    size_t         psize;       /* bytes per partition of mine                */
    size_t         total;       /* parts * psize                              */
    int            peer_parts;  /* sender's count; -1 until known (receiver)  */
    size_t         peer_psize;
    unsigned char *flag;        /* send: Pready'd; recv: sender part arrived  */
    char          *stage;       /* staging slots                              */
    size_t         slot;        /* bytes per slot                             */
    int            nleft;       /* messages of this round not completed       */
    int            itag;
    int            err;         /* first error of the round (MPI class)       */
    bool           posting;     /* receives being posted from a completion  */
    xb_request_t  *user;
} part_t;

/* ---- channel ordinals ------------------------------------------------------ */
/* Kept in the communicator (xb_comm_t.part_chans, freed with it): a table
 * keyed by the context id alone outlived the communicator, and a new one
 * that reused the id started from the old ordinals on one side only (a
 * Dup'ed COMM_WORLD after a Dup'ed COMM_SELF: mpi4py's test_p2p_buf_part
 * hung). */
typedef struct chan { int peer, tag, n; bool send; } chan_t;
struct xb_part_chans {
    int    n, cap;
    chan_t c[];
};

static int channel_tag(xb_comm_t *c, int peer, int tag, bool send, int *itag)
{
    struct xb_part_chans *t = c->part_chans;
    int i, n = t != NULL ? t->n : 0;
    for (i = 0; i < n; i++)
        if (t->c[i].peer == peer && t->c[i].tag == tag && t->c[i].send == send)
            break;
    if (i == n) {
        if (t == NULL || t->n == t->cap) {
            int cap = t != NULL ? t->cap * 2 : 16;
            struct xb_part_chans *g = realloc(t, sizeof(*g) + (size_t)cap * sizeof(chan_t));
            if (g == NULL)
                return xb_err_set(XB_ERR_NO_MEM, "no memory for a partitioned channel");
            g->n = n;
            g->cap = cap;
            c->part_chans = t = g;
        }
        t->c[t->n++] = (chan_t){ peer, tag, 0, send };
    }
    uint32_t ord = (uint32_t)t->c[i].n++, key;
    if ((uint32_t)tag < (1u << 21) && ord < 512)
        key = (uint32_t)tag | ord << 21;
    else
        key = ((uint32_t)tag * 2654435761u ^ ord * 40503u) & 0x3fffffffu;
    *itag = -16 - (int)(key & 0x3fffffffu);
    return XB_OK;
}

/* ---- completion ---------------------------------------------------------------- */
static void round_done(part_t *p)
{
    xb_request_t *u = p->user;
    u->status.error = p->err;
    xb_request_complete(u);
}

static void one_done(part_t *p)
{
    if (--p->nleft == 0 && !p->posting)
        round_done(p);
}

static void part_sent(xb_request_t *in)
{
    part_t *p = in->extra;
    if (in->status.error != MPI_SUCCESS && p->err == MPI_SUCCESS)
        p->err = in->status.error;
    one_done(p);
}

static int post_recv(part_t *p, int k, size_t len);

static void first_header(part_t *p, const part_hdr_t *h)
{
    p->peer_parts = (int)h->parts;
    p->peer_psize = h->parts ? p->total / h->parts : 0;
    p->nleft = h->parts > 1 ? (int)h->parts : 1;
    free(p->flag);
    p->flag = calloc(h->parts ? h->parts : 1, 1);
    size_t slot = HDR + p->peer_psize;
    char *st = malloc((h->parts > 1 ? h->parts : 1) * slot);
    if (p->flag == NULL || st == NULL) {
        free(st);
        p->err = MPI_ERR_NO_MEM;
        p->nleft = 1;
        return;
    }
    free(p->stage);   /* the first message was unpacked already: see part_recvd */
    p->stage = st;
    p->slot = slot;
}

static void part_recvd(xb_request_t *in)
{
    part_t *p = in->extra;
    part_hdr_t h;
    bool bad = in->status.error != MPI_SUCCESS || (size_t)in->status.count < HDR;
    if (!bad) {
        memcpy(&h, in->buf, HDR);
        bad = h.total != p->total || (h.parts != 0 && h.idx >= h.parts)
              || (h.parts == 0 && h.idx != NO_PART)
              || (p->peer_parts >= 0 && h.parts != (uint32_t)p->peer_parts);
    }
    if (bad) {
        if (p->err == MPI_SUCCESS)
            p->err = in->status.error != MPI_SUCCESS ? in->status.error : MPI_ERR_TRUNCATE;
        if (p->peer_parts < 0) {     /* cannot learn the count: end the round */
            round_done(p);
            return;
        }
        one_done(p);
        return;
    }
    size_t psize = h.parts ? h.total / h.parts : 0;
    if (h.parts != 0 && psize > 0)
        xb_dt_unpack(p->user->buf, (MPI_Count)p->parts * p->user->count, p->user->dt,
                     (size_t)h.idx * psize, (const char *)in->buf + HDR, psize);
    if (p->peer_parts >= 0) {
        if (h.parts != 0)
            p->flag[h.idx] = 1;
        one_done(p);
        return;
    }
    char *first = p->stage;          /* the big first slot: in->buf points into it */
    p->stage = NULL;
    first_header(p, &h);
    free(first);
    if (p->err != MPI_SUCCESS) {
        round_done(p);
        return;
    }
    if (h.parts != 0)
        p->flag[h.idx] = 1;
    /* nleft counts this message too, so the receives posted below cannot
     * finish the round while the loop runs */
    p->posting = true;
    for (int k = 1; k < (int)h.parts; k++)
        if (post_recv(p, k, p->slot) != XB_OK) {
            if (p->err == MPI_SUCCESS)
                p->err = MPI_ERR_INTERN;
            p->nleft -= (int)h.parts - k;
            break;
        }
    p->posting = false;
    one_done(p);
}

/* ---- internal messages ------------------------------------------------------------ */
static int post_recv(part_t *p, int k, size_t len)
{
    xb_request_t *u = p->user;
    xb_request_t *in = xb_pt2pt_op_new(XB_REQ_RECV, p->stage + (size_t)k * p->slot,
                                       (MPI_Count)len, xb_dt_from_handle(MPI_BYTE), u->peer,
                                       p->itag, u->comm, 1);
    if (in == NULL)
        return XB_ERR_NO_MEM;
    in->flags = XB_REQ_F_AUTOFREE | XB_REQ_F_INTERNAL;
    in->on_complete = part_recvd;
    in->extra = p;
    int rc = xb_pt2pt_start(in);
    if (rc < 0)
        xb_request_free(in);
    return rc;
}

static int send_slot(part_t *p, int k, const part_hdr_t *h, size_t len)
{
    xb_request_t *u = p->user;
    char *slot = p->stage + (size_t)k * p->slot;
    memcpy(slot, h, HDR);
    xb_request_t *in = xb_pt2pt_op_new(XB_REQ_SEND, slot, (MPI_Count)(HDR + len),
                                       xb_dt_from_handle(MPI_BYTE), u->peer, p->itag,
                                       u->comm, 1);
    if (in == NULL)
        return XB_ERR_NO_MEM;
    in->mode = XB_MODE_STANDARD;
    in->flags = XB_REQ_F_AUTOFREE | XB_REQ_F_INTERNAL;
    in->on_complete = part_sent;
    in->extra = p;
    int rc = xb_pt2pt_start(in);
    if (rc < 0)
        xb_request_free(in);
    return rc;
}

/* ---- MPI_Start ------------------------------------------------------------------- */
static int part_start(xb_request_t *u)
{
    part_t *p = u->extra;
    xb_request_set_active(u, 1);
    p->err = MPI_SUCCESS;
    if (u->peer == MPI_PROC_NULL) {   /* a send completes once all are ready */
        xb_status_set_proc_null(&u->status);
        memset(p->flag, 0, (size_t)(p->parts ? p->parts : 1));
        p->nleft = p->parts;
        if (!p->send || p->parts == 0)
            xb_request_complete(u);
        return XB_OK;
    }
    xb_status_set_empty(&u->status);
    u->status.source = u->peer;
    u->status.tag = u->tag;
    u->status.count = (MPI_Count)p->total;
    if (p->send) {
        memset(p->flag, 0, (size_t)(p->parts ? p->parts : 1));
        p->nleft = p->parts ? p->parts : 1;
        if (p->parts == 0) {
            part_hdr_t h = { NO_PART, 0, 0 };
            return send_slot(p, 0, &h, 0);
        }
        return XB_OK;
    }
    int n = p->peer_parts < 0 ? 1 : p->peer_parts > 1 ? p->peer_parts : 1;
    if (p->peer_parts >= 0)
        memset(p->flag, 0, (size_t)n);
    p->nleft = n;
    p->posting = true;
    int rc = XB_OK;
    for (int k = 0; k < n && rc == XB_OK; k++)
        rc = post_recv(p, k, p->slot);
    p->posting = false;
    if (rc != XB_OK)       /* the receives posted stay; the round cannot end well */
        return rc;
    if (p->nleft == 0)
        round_done(p);
    return XB_OK;
}

static void part_destroy(xb_request_t *u)
{
    part_t *p = u->extra;
    if (p == NULL)
        return;
    free(p->flag);
    free(p->stage);
    free(p);
    u->extra = NULL;
}

static const xb_req_ops_t part_ops = { .start = part_start, .destroy = part_destroy };

static int part_init(bool send, const void *buf, int partitions, MPI_Count count,
                     xb_datatype_t *dt, int peer, int tag, xb_comm_t *comm, MPI_Request *req)
{
    if (partitions < 0)
        return xb_err_set(XB_ERR_ARG, "invalid partitions %d (it must not be negative)",
                          partitions);
    part_t *p = calloc(1, sizeof(*p));
    if (p == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a partitioned request");
    p->send = send;
    p->parts = partitions;
    p->psize = (size_t)count * (size_t)xb_dt_size(dt);
    p->total = (size_t)partitions * p->psize;
    p->peer_parts = send ? partitions : -1;
    p->slot = HDR + (send ? p->psize : p->total);
    int nslots = send && partitions > 1 ? partitions : 1;
    p->flag = calloc((size_t)(partitions ? partitions : 1), 1);
    p->stage = malloc((size_t)nslots * p->slot);
    int rc = p->flag && p->stage ? XB_OK : xb_err_set(XB_ERR_NO_MEM, "no memory for the "
                                                      "%zu bytes of a partitioned request's "
                                                      "staging", (size_t)nslots * p->slot);
    if (rc == XB_OK && peer != MPI_PROC_NULL)
        rc = channel_tag(comm, peer, tag, send, &p->itag);
    xb_request_t *u = rc == XB_OK ? xb_pt2pt_op_new(XB_REQ_COLL, buf, count, dt, peer, tag,
                                                    comm, 0) : NULL;
    if (u == NULL) {
        free(p->flag);
        free(p->stage);
        free(p);
        return rc != XB_OK ? rc : XB_ERR_NO_MEM;
    }
    u->persistent = 1;
    u->extra = p;
    u->ops = &part_ops;
    u->fn = send ? "a partitioned send" : "a partitioned receive";
    p->user = u;
    *req = xb_request_to_handle(u);
    return XB_OK;
}

int xb_impl_psend_init(const void *buf, int partitions, MPI_Count count,
                       xb_datatype_t *datatype, int dest, int tag, xb_comm_t *comm,
                       xb_info_t *info, MPI_Request *request)
{
    (void)info;
    return part_init(true, buf, partitions, count, datatype, dest, tag, comm, request);
}

int xb_impl_precv_init(void *buf, int partitions, MPI_Count count, xb_datatype_t *datatype,
                       int source, int tag, xb_comm_t *comm, xb_info_t *info,
                       MPI_Request *request)
{
    (void)info;
    return part_init(false, buf, partitions, count, datatype, source, tag, comm, request);
}

/* ---- Pready / Parrived -------------------------------------------------------- */
static int part_check(xb_request_t *u, bool send, int partition)
{
    part_t *p = u->ops == &part_ops ? u->extra : NULL;
    if (p == NULL || p->send != send)
        return xb_err_set(XB_ERR_REQUEST, "the request is not a partitioned %s request",
                          send ? "send" : "receive");
    if (partition < 0 || partition >= p->parts)
        return xb_err_set(XB_ERR_ARG, "invalid partition %d (the request has %d "
                          "partition%s)", partition, p->parts, p->parts == 1 ? "" : "s");
    return XB_OK;
}

static int pready_one(xb_request_t *u, int partition)
{
    int rc = part_check(u, true, partition);
    if (rc != XB_OK)
        return rc;
    part_t *p = u->extra;
    if (!xb_request_active(u) && !xb_request_is_done(u))
        return xb_err_set(XB_ERR_REQUEST, "the partitioned send is not active (MPI_Start "
                          "it first)");
    if (p->flag[partition])
        return xb_err_set(XB_ERR_ARG, "partition %d was marked ready already in this round",
                          partition);
    p->flag[partition] = 1;
    if (u->peer == MPI_PROC_NULL) {
        one_done(p);
        return XB_OK;
    }
    char *slot = p->stage + (size_t)partition * p->slot;
    size_t done = 0;
    if (p->psize > 0)
        xb_dt_pack(u->buf, (MPI_Count)p->parts * u->count, u->dt,
                   (size_t)partition * p->psize, slot + HDR, p->psize, &done);
    part_hdr_t h = { (uint32_t)partition, (uint32_t)p->parts, p->total };
    return send_slot(p, partition, &h, p->psize);
}

int xb_impl_pready(int partition, xb_request_t *request)
{
    return pready_one(request, partition);
}

int xb_impl_pready_range(int partition_low, int partition_high, xb_request_t *request)
{
    if (partition_low > partition_high)
        return xb_err_set(XB_ERR_ARG, "invalid range: partition_low %d > partition_high %d",
                          partition_low, partition_high);
    int rc = part_check(request, true, partition_low);
    if (rc == XB_OK)
        rc = part_check(request, true, partition_high);
    for (int i = partition_low; rc == XB_OK && i <= partition_high; i++)
        rc = pready_one(request, i);
    return rc;
}

int xb_impl_pready_list(int length, const int array_of_partitions[], xb_request_t *request)
{
    for (int i = 0; i < length; i++) {
        int rc = part_check(request, true, array_of_partitions[i]);
        if (rc != XB_OK)
            return rc;
    }
    for (int i = 0; i < length; i++) {
        int rc = pready_one(request, array_of_partitions[i]);
        if (rc != XB_OK)
            return rc;
    }
    return XB_OK;
}

/* Every send partition overlapping receive partition j has arrived. With
 * no data at all (count 0), a partition has arrived when every send
 * partition's message has. */
static bool covered(const part_t *p, int j)
{
    if (p->peer_parts <= 0)   /* nothing seen yet; or no partitions: the round */
        return false;
    size_t lo = (size_t)j * p->psize, hi = lo + p->psize, first = 0;
    size_t end = (size_t)p->peer_parts;
    if (p->total > 0 && p->peer_psize > 0) {
        first = lo / p->peer_psize;
        end = (hi + p->peer_psize - 1) / p->peer_psize;
    }
    for (size_t i = first; i < end && i < (size_t)p->peer_parts; i++)
        if (!p->flag[i])
            return false;
    return true;
}

int xb_impl_parrived(xb_request_t *request, int partition, int *flag)
{
    int rc = part_check(request, false, partition);
    if (rc != XB_OK)
        return rc;
    part_t *p = request->extra;
    if (!xb_request_active(request) || xb_request_is_done(request) ||
        request->peer == MPI_PROC_NULL) {
        *flag = 1;
        return XB_OK;
    }
    if (!covered(p, partition))
        xb_progress_poll_test(xb_progress_default());
    *flag = xb_request_is_done(request) || covered(p, partition);
    return XB_OK;
}

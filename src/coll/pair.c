/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pair.c - the two-rank algorithms, run directly: blocking form only, on
 * intracommunicators of exactly two ranks (NEED_PAIR in coll_select.c).
 *
 * With two ranks every collective is one message each way at most, so the
 * algorithm is the obvious one; what costs is the machinery around it. A
 * schedule (build the steps, run them, a request per message, destroy)
 * made a 2-rank 8-byte MPI_Allreduce 2.3x slower than Open MPI's
 * (2026-11-24). These functions call point-to-point directly instead: a
 * small message goes without a request (xb_pt2pt_send_eager_now), and small
 * temporary buffers live on the stack. The nonblocking and persistent forms
 * of the same exchanges are the schedule algorithms at p = 2 (recdbl,
 * binomial, linear, pairwise), which send the same messages.
 *
 * Messages use the collective context and the tag of the communicator's
 * next blocking collective (xb_coll_seq_tag), like a schedule would.
 * Reductions keep rank order (x0 op x1: non-commutative ops right); rank 1
 * computes x1 op x0 only for a commutative op, and in allreduce only for a
 * predefined one (exactly commutative: both ranks get bit-identical
 * results). A user op runs without the MULTIPLE lock, as in blocking
 * schedules.
 */
#include <stdlib.h>
#include <string.h>
#include "coll/alltoall_blocks.h"
#include "method/method.h"
#include "progress/progress.h"
#include "pt2pt/pt2pt.h"
#include "util/xb_mt.h"

/* A temporary buffer: on the caller's stack when it fits, else malloc'ed
 * (free tmp.heap). Larger messages rarely come here: the rules send them
 * to the schedule algorithms, unless an algorithm is forced. */
enum { STACK_BYTES = 256 };
typedef struct {
    _Alignas(16) char stack[STACK_BYTES];
    void *heap;
} tmp_t;

static void *tmp_get(tmp_t *t, MPI_Count count, const xb_datatype_t *dt)
{
    size_t bytes = count <= 0 ? 1
                 : (size_t)(xb_dt_true_extent(dt) + (count - 1) * xb_dt_extent(dt));
    char *base = t->stack;
    if (bytes > sizeof(t->stack) && (base = t->heap = malloc(bytes)) == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "out of memory for a %zu-byte collective "
                   "buffer", bytes);
        return NULL;
    }
    return base - xb_dt_true_lb(dt);
}

static int psend(const void *buf, MPI_Count count, xb_datatype_t *dt, int peer,
                int tag, xb_comm_t *comm)
{
    return xb_pt2pt_send(buf, count, dt, peer, tag, comm, 1);
}

/* A message longer or shorter than the buffer fails (the ranks' counts
 * differ: coll_check.c). */
static int precv(void *buf, MPI_Count count, xb_datatype_t *dt, int peer, int tag,
                xb_comm_t *comm)
{
    return xb_coll_recv_exact(buf, count, dt, peer, tag, comm, -1, -1, NULL);
}

/* A receive of an operand this rank combines at once. Up to OPERAND_HOT
 * the method copies it on this CPU (xb_method_operand: no shm help, whose
 * half written by the other CPU the op would then read from that CPU's
 * cache); beyond, the vector does not stay in a cache anyway and the split
 * copy wins. MPI_Reduce at 2 ranks, 2026-11-25: 256 KiB 18.7 us without
 * help, 35.9 with (Open MPI 18.8); 1 MiB 156 without, 99.9 with (131);
 * 2026-12-08: 512 KiB 36 without, 44-48 with (Open MPI 37-39). */
enum { OPERAND_HOT = 512 * 1024 };

static int precv_operand(void *buf, MPI_Count count, xb_datatype_t *dt, int peer, int tag,
                         xb_comm_t *comm)
{
    bool hot = count * xb_dt_size(dt) <= OPERAND_HOT;
    xb_method_operand += hot;
    int rc = precv(buf, count, dt, peer, tag, comm);
    xb_method_operand -= hot;
    return rc;
}

/* Start a send to the peer: done at once, without a request, when it can
 * be (*sreq stays NULL), else a request that send_end waits for. */
static int send_begin(const void *buf, MPI_Count count, xb_datatype_t *dt, int peer,
                      int tag, xb_comm_t *comm, xb_request_t **sreq)
{
    *sreq = NULL;
    int rc = xb_pt2pt_send_eager_now(buf, count, dt, peer, tag, comm, 1);
    if (rc == XB_ERR_AGAIN)
        rc = xb_pt2pt_isend(buf, count, dt, peer, tag, comm, 1, sreq);
    return rc;
}

/* Wait for a send of send_begin; rc is what happened meanwhile (kept). */
static int send_end(xb_request_t *sreq, int rc)
{
    if (sreq == NULL)
        return rc;
    int src = xb_progress_wait(xb_progress_default(), sreq);
    xb_request_free(sreq);
    return rc == XB_OK ? src : rc;
}

/* Send to the peer and receive from it, both at once (no deadlock whatever
 * the size: the send is posted before the receive waits). */
static int exchange(const void *sb, MPI_Count sc, xb_datatype_t *sdt, void *rb,
                    MPI_Count rcount, xb_datatype_t *rdt, int peer, int tag,
                    xb_comm_t *comm)
{
    xb_request_t *sreq;
    int rc = send_begin(sb, sc, sdt, peer, tag, comm, &sreq);
    if (rc != XB_OK)
        return rc;
    return send_end(sreq, precv(rb, rcount, rdt, peer, tag, comm));
}

/* acc holds this rank's operand, in the peer's (working representation);
 * leaves x0 op x1 in acc. */
static int combine(const xb_coll_red_t *red, void *in, void *acc, bool peer_left)
{
    bool swap = !peer_left && !red->op->commute;
    xb_mutex_t *held = red->op->predefined ? NULL : xb_cb_begin();
    int rc = swap ? xb_op_apply(red->op, acc, in, red->wcount, red->wdt)   /* in = acc op in */
                  : xb_op_apply(red->op, in, acc, red->wcount, red->wdt);  /* acc = in op acc */
    xb_cb_end(held);
    if (rc == XB_OK && swap)
        rc = xb_dt_copy(in, red->wcount, red->wdt, acc, red->wcount, red->wdt);
    return rc;
}

/* The working operand of this rank: rbuf itself when the op works on the
 * user's type (after copying src there), else a working copy in *t. */
static void *load(const xb_coll_red_t *red, const void *src, void *rbuf, tmp_t *t, int *rc)
{
    if (red->direct) {          /* rbuf may be NULL (count 0): not an error */
        if (src != rbuf)
            *rc = xb_dt_copy(src, red->count, red->dt, rbuf, red->count, red->dt);
        return rbuf;
    }
    void *acc = tmp_get(t, red->wcount, red->wdt);
    if (acc == NULL)
        *rc = XB_ERR_NO_MEM;
    else
        *rc = xb_dt_copy(src, red->count, red->dt, acc, red->wcount, red->wdt);
    return acc;
}

/* The peer's operand straight into rbuf, ours applied there (rbuf = ours
 * op rbuf): x0 op x1 when the peer is rank 1, x1 op x0 (the same for a
 * commutative op; predefined ones are exactly commutative) when it is rank
 * 0. No working copy, no temporary: an 8-byte allreduce about 150
 * instructions less per rank. */
static int recv_apply(const xb_coll_args_t *a, const xb_coll_red_t *red, const void *src,
                      int tag)
{
    int rc = precv_operand(a->rbuf, red->count, red->dt, 1 - a->comm->rank, tag, a->comm);
    if (rc != XB_OK)
        return rc;
    xb_mutex_t *held = red->op->predefined ? NULL : xb_cb_begin();
    rc = xb_op_apply(red->op, src, a->rbuf, red->count, red->dt);
    xb_cb_end(held);
    return rc;
}

/* ---- a large operand in pieces ------------------------------------------ */

/* Both sides cut a vector of `bytes` alike: pieces of XB_COLL_PIECE bytes
 * (whole elements: the writer's type divides it), the last shorter. Each
 * comes as one message (the split copy, the sender helping) and the root
 * applies the op to it while it is still in the caches: a 1 MiB MPI_Reduce
 * at two ranks took 108-112 us against 164-182 as one message (Open MPI
 * 147-175), 768 KiB 74 against 95-103 (78). Copied by the root alone (as
 * OPERAND_HOT would), the pieces took 193-219; sent all at once (isend),
 * 200. Up to XB_COLL_PIECES_OVER one message copied by the root alone
 * wins (512 KiB: 36 us, in pieces 47, Open MPI 37-39; docs/PERFORMANCE.md,
 * 2026-12-08). Scan was 116 us as one message and 161 in pieces: rank 0
 * helps with each piece and then copies x0 into its own result, so it
 * keeps one message. */
static size_t piece_len(int64_t bytes, int64_t off)
{
    return (size_t)(bytes - off < XB_COLL_PIECE ? bytes - off : XB_COLL_PIECE);
}

bool xb_coll_pieces_fit(const xb_coll_args_t *a, MPI_Count need)
{
    return need > XB_COLL_PIECES_OVER && xb_dt_is_predefined(a->rdt)
        && XB_COLL_PIECE % xb_dt_extent(a->rdt) == 0;
}

int xb_coll_pieces_send(const xb_coll_args_t *a, int tag, int peer)
{
    const char *src = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    MPI_Aint ext = xb_dt_extent(a->rdt);
    int64_t bytes = (int64_t)(a->rcount * ext);
    int rc = XB_OK;
    for (int64_t off = 0; off < bytes && rc == XB_OK; off += XB_COLL_PIECE)
        rc = psend(src + off, (MPI_Count)piece_len(bytes, off) / ext, a->rdt, peer, tag,
                   a->comm);
    return rc;
}

/* What the reader does with each piece of a vector it reduces piece by
 * piece (red->dt predefined, its extent dividing a piece). */
typedef struct {
    const xb_coll_red_t *red;
    const char *s;              /* this rank's operand                        */
    char       *r;              /* the result, rbuf                           */
    bool        into_r;         /* a piece lands in r, then r = s op r        */
    bool        peer_left;      /* the peer is rank 0: its operand goes left  */
} apply_t;

/* x0 op x1 for the n elements at offset off, the peer's in `piece` (or
 * already in r): combine() on a piece-sized view, r holding ours first. */
static int apply_piece(const apply_t *ap, size_t off, MPI_Count n, char *piece)
{
    xb_coll_red_t pr = *ap->red;
    pr.count = pr.wcount = n;
    char *r = ap->r + off;
    const char *s = ap->s + off;
    if (ap->into_r)                      /* r = s op r */
        return combine(&pr, (void *)s, r, true);
    if (s != r)
        memcpy(r, s, (size_t)(n * xb_dt_extent(pr.dt)));
    return combine(&pr, piece, r, ap->peer_left);
}

/* Receive the peer's `bytes` in pieces: each at its offset in `in`
 * (ap NULL), or applied to the result (apply_piece). After a failure (rc
 * on entry included) the rest are still taken, into a scratch piece: the
 * peer sends them all. */
static int recv_pieces(const xb_coll_red_t *red, char *in, int64_t bytes, int peer, int tag,
                       xb_comm_t *comm, int rc, const apply_t *ap)
{
    char *scratch = NULL;
    for (int64_t off = 0; off < bytes; off += XB_COLL_PIECE) {
        size_t len = piece_len(bytes, off);
        bool spare = rc != XB_OK || (ap != NULL && !ap->into_r);
        if (spare && scratch == NULL && (scratch = malloc(XB_COLL_PIECE)) == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "out of memory for a %d-byte piece of a "
                              "reduction", XB_COLL_PIECE);
        if (rc != XB_OK) {
            size_t got;
            (void)xb_pt2pt_recv_len(scratch, XB_COLL_PIECE, xb_dt_from_handle(MPI_BYTE), peer,
                                    tag, comm, 1, NULL, &got);
            continue;
        }
        MPI_Count n = (MPI_Count)len / xb_dt_extent(red->wdt);
        char *dst = spare ? scratch : ap != NULL ? ap->r + off : in + off;
        rc = precv(dst, n, red->wdt, peer, tag, comm);
        if (rc == XB_OK && ap != NULL)
            rc = apply_piece(ap, (size_t)off, n, dst);
    }
    free(scratch);
    return rc;
}

/* This rank's side of a reduction whose result it keeps: its operand
 * (loaded from sbuf, or rbuf in place), the peer's (only received: reduce
 * at the root; when `both`, allreduce, ours goes to the peer too), x0 op x1
 * into rbuf. Ours is sent from the user's buffer as (count, dt), the
 * signature of the peer's working receive, before it is loaded: a peer
 * reading lines we just wrote (a single copy from our working copy) was
 * the slow part of large exchanges (see swap_blocks). */
static int reduce_here(const xb_coll_args_t *a, const xb_coll_red_t *red, int tag, bool both,
                       bool pieces)
{
    int peer = 1 - a->comm->rank, rc = XB_OK;
    const void *src = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    xb_request_t *sreq = NULL;
    if (both && (rc = send_begin(src, red->count, red->dt, peer, tag, a->comm, &sreq)) != XB_OK)
        return rc;
    /* both ranks of an allreduce must compute bit-identical results: a
     * user's op may take its operands in the other order only elsewhere */
    bool swap_ok = red->op->commute && (red->op->predefined || !both);
    if (red->direct && src != a->rbuf && (peer == 1 || swap_ok) && !pieces)
        return send_end(sreq, recv_apply(a, red, src, tag));
    tmp_t t1, t2;
    t1.heap = t2.heap = NULL;
    void *acc = load(red, src, a->rbuf, &t1, &rc);
    void *in = tmp_get(&t2, red->wcount, red->wdt);
    if (in == NULL)
        rc = XB_ERR_NO_MEM;
    if (pieces)                 /* taken even after an error: the peer sends them */
        rc = recv_pieces(red, in, (int64_t)(red->wcount * xb_dt_extent(red->wdt)), peer, tag,
                         a->comm, rc, NULL);
    else if (rc == XB_OK)
        rc = precv_operand(in, red->wcount, red->wdt, peer, tag, a->comm);
    rc = send_end(sreq, rc);          /* in place, acc is what was sent */
    if (rc == XB_OK)
        rc = combine(red, in, acc, peer == 0);
    if (rc == XB_OK && acc != a->rbuf)
        rc = xb_dt_copy(acc, red->wcount, red->wdt, a->rbuf, red->count, red->dt);
    free(t1.heap);
    free(t2.heap);
    return rc;
}

int xb_coll_allreduce_pair(const xb_coll_args_t *a, int tag)
{
    xb_coll_red_t red;
    int rc = xb_coll_red_init(&red, a->rcount, a->rdt, a->op);
    return rc == XB_OK ? reduce_here(a, &red, tag, true, false) : rc;
}

int xb_coll_reduce_pair(const xb_coll_args_t *a, int tag)
{
    xb_coll_red_t red;
    int rc = xb_coll_red_init(&red, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    if (a->comm->rank != a->root)
        return psend(a->sbuf, a->rcount, a->rdt, a->root, tag, a->comm);
    return reduce_here(a, &red, tag, false, false);
}

/* Scan: rank 0 keeps x0 and sends it; rank 1 keeps x0 op x1 (reduce_here
 * with the peer on the left). One message where recursive doubling
 * exchanged two (8 B scan at 2 ranks: 0.14x Open MPI, 2026-11-24). */
int xb_coll_scan_pair(const xb_coll_args_t *a, int tag)
{
    xb_coll_red_t red;
    int rc = xb_coll_red_init(&red, a->rcount, a->rdt, a->op);
    if (rc != XB_OK || a->comm->rank == 1)
        return rc == XB_OK ? reduce_here(a, &red, tag, false, false) : rc;
    const void *mine = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    rc = psend(mine, a->rcount, a->rdt, 1, tag, a->comm);
    if (rc == XB_OK && mine != a->rbuf)
        rc = xb_dt_copy(mine, a->rcount, a->rdt, a->rbuf, a->rcount, a->rdt);
    return rc;
}

/* Exscan: rank 1's result is x0, rank 0's is undefined (left alone). */
int xb_coll_exscan_pair(const xb_coll_args_t *a, int tag)
{
    xb_coll_red_t red;
    int rc = xb_coll_red_init(&red, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    if (a->comm->rank == 1)
        return precv(a->rbuf, a->rcount, a->rdt, 0, tag, a->comm);
    return psend(a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf, a->rcount, a->rdt, 1, tag,
                 a->comm);
}

/* The root of a reduce whose writer announced `theirs` bytes in pieces. */
int xb_coll_pieces_recv(const xb_coll_args_t *a, int tag, xb_coll_kind_t kind, int64_t theirs)
{
    int peer = 1 - a->comm->rank;
    xb_coll_red_t red;
    int rc = xb_coll_red_init(&red, a->rcount, a->rdt, a->op);
    int64_t need = rc == XB_OK ? (int64_t)(red.wcount * xb_dt_extent(red.wdt)) : -1;
    if (rc != XB_OK || need != theirs || kind != XB_COLL_REDUCE) {
        int r = recv_pieces(&red, NULL, theirs, peer, tag, a->comm, XB_ERR_TRUNCATE, NULL);
        if (rc != XB_OK || r == XB_ERR_NO_MEM)
            return rc != XB_OK ? rc : r;
        return xb_coll_mismatch((int)kind, -1, peer, (size_t)theirs, need, 0, NULL);
    }
    MPI_Aint ext = xb_dt_extent(red.dt);
    if (!red.direct || !xb_dt_is_predefined(red.dt) || XB_COLL_PIECE % ext != 0)
        return reduce_here(a, &red, tag, false, true);   /* the whole vector, then the op */
    char *src = a->sbuf == MPI_IN_PLACE ? a->rbuf : (char *)a->sbuf;
    apply_t ap = { &red, src, a->rbuf, src != a->rbuf && (peer == 1 || red.op->commute),
                   peer == 0 };
    return recv_pieces(&red, NULL, need, peer, tag, a->comm, XB_OK, &ap);
}

int xb_coll_bcast_pair(const xb_coll_args_t *a, int tag)
{
    if (a->comm->rank == a->root)
        return psend(a->rbuf, a->rcount, a->rdt, 1 - a->root, tag, a->comm);
    return xb_coll_recv_exact(a->rbuf, a->rcount, a->rdt, a->root, tag, a->comm, a->root,
                              XB_COLL_BCAST, NULL);
}

/* Gather and gatherv (form XB_A2A, XB_A2AV): the root copies its own
 * block and receives the peer's, each where the form puts it. */
static int gather_form(const xb_coll_args_t *a, xb_a2a_form_t form, int tag)
{
    int me = a->comm->rank, peer = 1 - me;
    if (me != a->root)
        return psend(a->sbuf, a->scount, a->sdt, peer, tag, a->comm);
    xb_a2a_blk_t dst = xb_a2a_rblk(a, form, me), in = xb_a2a_rblk(a, form, peer);
    int rc = XB_OK;
    if (a->sbuf != MPI_IN_PLACE)
        rc = xb_dt_copy(a->sbuf, a->scount, a->sdt, dst.buf, dst.n, dst.dt);
    int r = precv(in.buf, in.n, in.dt, peer, tag, a->comm);   /* even after an error */
    return rc != XB_OK ? rc : r;
}

int xb_coll_gather_pair(const xb_coll_args_t *a, int tag)
{
    return gather_form(a, XB_A2A, tag);
}

int xb_coll_gatherv_pair(const xb_coll_args_t *a, int tag)
{
    return gather_form(a, XB_A2AV, tag);
}

/* Scatter and scatterv: the root sends the peer's block first and copies
 * its own while the peer reads the other (a large block: the peer's
 * single copy from our buffer; the root then helps with what is left of
 * it, shm_help.c). */
static int scatter_form(const xb_coll_args_t *a, xb_a2a_form_t form, int tag)
{
    int me = a->comm->rank, peer = 1 - me;
    if (me != a->root)
        return precv(a->rbuf, a->rcount, a->rdt, peer, tag, a->comm);
    xb_a2a_blk_t out = xb_a2a_sblk(a, form, peer), own = xb_a2a_sblk(a, form, me);
    xb_request_t *sreq;
    int rc = send_begin(out.buf, out.n, out.dt, peer, tag, a->comm, &sreq);
    if (rc != XB_OK)
        return rc;
    if (a->rbuf != MPI_IN_PLACE)
        rc = xb_dt_copy(own.buf, own.n, own.dt, a->rbuf, a->rcount, a->rdt);
    return send_end(sreq, rc);
}

int xb_coll_scatter_pair(const xb_coll_args_t *a, int tag)
{
    return scatter_form(a, XB_A2A, tag);
}

int xb_coll_scatterv_pair(const xb_coll_args_t *a, int tag)
{
    return scatter_form(a, XB_A2AV, tag);
}

/* Send a block straight from where it is (`out`), copy the own block
 * (`own` into `dst`, when own is not NULL) while the peer receives,
 * then receive (`in`). The block is sent from the send buffer, not from
 * its copy in rbuf: a peer reading freshly written lines from the other
 * CPU's cache made a 256 KiB allgather twice as slow as an alltoall of the
 * same bytes (54 against 29 us, 2026-11-24). */
static int swap_blocks(const xb_coll_args_t *a, xb_a2a_blk_t out, const xb_a2a_blk_t *own,
                       xb_a2a_blk_t dst, xb_a2a_blk_t in, int tag)
{
    int peer = 1 - a->comm->rank;
    xb_request_t *sreq;
    int rc = send_begin(out.buf, out.n, out.dt, peer, tag, a->comm, &sreq);
    if (rc != XB_OK)
        return rc;
    if (own != NULL)         /* not own.buf: MPI_BOTTOM is NULL */
        rc = xb_dt_copy(own->buf, own->n, own->dt, dst.buf, dst.n, dst.dt);
    int r = precv(in.buf, in.n, in.dt, peer, tag, a->comm);   /* even after an error */
    return send_end(sreq, rc != XB_OK ? rc : r);
}

/* Allgather and allgatherv (form XB_A2A, XB_A2AV): our block to the peer,
 * the peer's into its place. */
static int allgather_form(const xb_coll_args_t *a, xb_a2a_form_t f, int tag)
{
    int me = a->comm->rank, peer = 1 - me;
    xb_a2a_blk_t dst = xb_a2a_rblk(a, f, me), in = xb_a2a_rblk(a, f, peer),
                 own = { (char *)a->sbuf, a->scount, a->sdt };
    if (a->sbuf == MPI_IN_PLACE)
        return swap_blocks(a, dst, NULL, dst, in, tag);
    return swap_blocks(a, own, &own, dst, in, tag);
}

int xb_coll_allgather_pair(const xb_coll_args_t *a, int tag)
{
    return allgather_form(a, XB_A2A, tag);
}

int xb_coll_allgatherv_pair(const xb_coll_args_t *a, int tag)
{
    return allgather_form(a, XB_A2AV, tag);
}

/* Alltoall, alltoallv and alltoallw: the block for the peer goes from the
 * send buffer (swap_blocks); in place the block for the peer is where the
 * peer's arrives: a copy of it goes. */
static int a2a_blocks(const xb_coll_args_t *a, xb_a2a_form_t f, int tag)
{
    int me = a->comm->rank, peer = 1 - me;
    xb_a2a_blk_t in = xb_a2a_rblk(a, f, peer);
    if (a->sbuf != MPI_IN_PLACE) {
        xb_a2a_blk_t own = xb_a2a_sblk(a, f, me);
        return swap_blocks(a, xb_a2a_sblk(a, f, peer), &own, xb_a2a_rblk(a, f, me), in, tag);
    }
    tmp_t t;
    t.heap = NULL;
    void *out = tmp_get(&t, in.n, in.dt);
    int rc = out == NULL ? XB_ERR_NO_MEM : xb_dt_copy(in.buf, in.n, in.dt, out, in.n, in.dt);
    if (rc == XB_OK)
        rc = exchange(out, in.n, in.dt, in.buf, in.n, in.dt, peer, tag, a->comm);
    free(t.heap);
    return rc;
}

int xb_coll_alltoall_pair(const xb_coll_args_t *a, int tag)
{
    return a2a_blocks(a, XB_A2A, tag);
}

int xb_coll_alltoallv_pair(const xb_coll_args_t *a, int tag)
{
    return a2a_blocks(a, XB_A2AV, tag);
}

int xb_coll_alltoallw_pair(const xb_coll_args_t *a, int tag)
{
    return a2a_blocks(a, XB_A2AW, tag);
}

/* The general reduce_scatter at two ranks: this rank's segment `own` in a
 * working copy (acc), the peer's contribution received into another (in),
 * x0 op x1 in acc, then stored into rbuf once the send has finished (in
 * place, rank 1's result overwrites the segment it sends). */
static int rs_general(const xb_coll_args_t *a, const xb_coll_red_t *red, const void *own,
                      xb_request_t *sreq, int tag)
{
    int peer = 1 - a->comm->rank, rc = XB_OK;
    tmp_t t1, t2;
    t1.heap = t2.heap = NULL;
    void *acc = tmp_get(&t1, red->wcount, red->wdt);
    void *in = tmp_get(&t2, red->wcount, red->wdt);
    if (acc == NULL || in == NULL)
        rc = XB_ERR_NO_MEM;
    if (rc == XB_OK)
        rc = xb_dt_copy(own, red->count, red->dt, acc, red->wcount, red->wdt);
    if (rc == XB_OK)
        rc = precv_operand(in, red->wcount, red->wdt, peer, tag, a->comm);
    if (rc == XB_OK)
        rc = combine(red, in, acc, peer == 0);
    rc = send_end(sreq, rc);
    if (rc == XB_OK)
        rc = xb_dt_copy(acc, red->wcount, red->wdt, a->rbuf, red->count, red->dt);
    free(t1.heap);
    free(t2.heap);
    return rc;
}

/* Rank 0, or a commutative op: the peer's contribution lands in rbuf and
 * the own segment is applied to it there (rbuf = own op rbuf). Otherwise
 * (rank 1, non-commutative): received into a temporary, own copied into
 * rbuf, rbuf = x0 op rbuf. No working copy of the whole vector. */
static int rs_direct(const xb_coll_args_t *a, const xb_coll_red_t *red, const void *own,
                     xb_request_t *sreq, int tag)
{
    int peer = 1 - a->comm->rank, rc;
    bool into_rbuf = peer == 1 || red->op->commute;
    tmp_t t;
    t.heap = NULL;
    void *in = into_rbuf ? a->rbuf : tmp_get(&t, red->count, red->dt);
    if (!into_rbuf && in == NULL)     /* rbuf may be NULL (count 0) */
        return send_end(sreq, XB_ERR_NO_MEM);
    rc = precv_operand(in, red->count, red->dt, peer, tag, a->comm);
    if (rc == XB_OK && !into_rbuf)
        rc = xb_dt_copy(own, red->count, red->dt, a->rbuf, red->count, red->dt);
    if (rc == XB_OK) {
        xb_mutex_t *held = red->op->predefined ? NULL : xb_cb_begin();
        rc = into_rbuf ? xb_op_apply(red->op, (void *)own, a->rbuf, red->count, red->dt)
                       : xb_op_apply(red->op, in, a->rbuf, red->count, red->dt);
        xb_cb_end(held);
    }
    free(t.heap);
    return send_end(sreq, rc);
}

/* Reduce_scatter(_block) at two ranks: segment k (c_k elements) of x0 op x1
 * goes to rank k. Each rank sends the peer's segment of its vector and
 * receives the peer's copy of its own: one message each way, where the
 * schedules (halving, pairwise) also loaded the whole vector into a working
 * copy first. */
static int rs_pair(const xb_coll_args_t *a, int tag, MPI_Count c0, MPI_Count c1)
{
    int me = a->comm->rank, peer = 1 - me;
    MPI_Aint ext = xb_dt_extent(a->rdt);
    bool inplace = a->sbuf == MPI_IN_PLACE;
    const char *src = inplace ? a->rbuf : a->sbuf;
    const char *own = src + (me == 0 ? 0 : c0) * ext;
    xb_coll_red_t red;
    int rc = xb_coll_red_init(&red, me == 0 ? c0 : c1, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    xb_request_t *sreq;
    rc = send_begin(src + (me == 0 ? c0 : 0) * ext, peer == 0 ? c0 : c1, a->rdt, peer,
                    tag, a->comm, &sreq);
    if (rc != XB_OK)
        return rc;
    return red.direct && !inplace ? rs_direct(a, &red, own, sreq, tag)
                                  : rs_general(a, &red, own, sreq, tag);
}

int xb_coll_reduce_scatter_pair(const xb_coll_args_t *a, int tag)
{
    return rs_pair(a, tag, a->rcounts[0], a->rcounts[1]);
}

int xb_coll_reduce_scatter_block_pair(const xb_coll_args_t *a, int tag)
{
    return rs_pair(a, tag, a->rcount, a->rcount);
}

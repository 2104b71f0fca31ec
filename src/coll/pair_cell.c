/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pair_cell.c - the two-rank collectives through the node's flow cells
 * (node_flow.c), run directly (blocking form): the table's choice at two
 * ranks ("cell"). A call that the cells cannot take runs the message
 * algorithm of pair.c instead, decided alike on both ranks from what both
 * know (the communicator, the form, the bytes one rank writes):
 *
 *   - the communicator is not made of exactly the ranks of this node (a
 *     pair in a larger job, two hosts: tcp), or there is no shared segment;
 *   - MPI_THREAD_MULTIPLE (the calls of several threads have no order that
 *     numbers the cells alike on both ranks);
 *   - what one rank writes exceeds a cell (XB_COLL_FLOW_CELL, 512 bytes);
 *   - a reduction whose working type is not predefined (a user op on a
 *     derived type).
 *
 * Why. A two-rank collective of a few bytes is one message each way at
 * most; through point-to-point each costs a send (header, ring push) and a
 * receive (a request, matching, often an unexpected-message record when
 * the peer runs ahead, then the copy out). Through a cell it is a copy in,
 * a release store, an acquire load and a copy out: an 8-byte bcast cost
 * the root 585 and the other rank 747 instructions by messages (callgrind,
 * 2026-11-24); the numbers by cells are in docs/design/coll.md.
 *
 * How. Bcast, reduce, scan and exscan are the flow algorithms
 * (bcast_node.c, flow_reduce.c, scan_flow.c) at p = 2: data goes one way,
 * the writer leaves at once, a root runs up to the ring of cells ahead;
 * scatter is the same with only the peer's block in the root's cell
 * (gather and gatherv take the stream's algorithm, stream_gather.c). The
 * exchanges (allreduce, allgather, alltoall, reduce_scatter(_block)): each
 * rank writes what the peer needs into its own cell of the call, publishes
 * it (waking the peer if it sleeps), waits for the peer's cell, reads it,
 * and ends the call (its done counter lets the peer reuse the cell later).
 * Allreduce: both ranks compute x0 op x1 from the two cells in the same
 * order (the operand of rank 0 on the left): bit-identical results,
 * non-commutative ops right. Waits spin, then sleep (the progress wait):
 * an oversubscribed node does not burn its CPUs.
 *
 * Counts that differ (an erroneous program): a block's writer publishes
 * its byte count in the cell's header word, and the reader fails with
 * MPI_ERR_TRUNCATE when its own differs (take_cell), as the messages do;
 * before 2026-11-29 the exchanges and scatter(v)/gatherv copied what the
 * reader expected. Scatter(v) (the reader follows the root's header),
 * reduce, scan and exscan (the reader follows the writer's, one_way) and
 * gather(v) (the stream's descriptors) meet whatever the counts. In the
 * exchanges a rank whose data does not fit its cell announces pair's
 * messages in a flow call of its own (announce_message) and a peer that
 * chose its cell follows (peer_sent_message), since 2026-12-06: an
 * exchange beyond a cell pays that flow call (2 ranks, 4 KiB: about 0.05
 * us of 1.1-1.4; interleaved A/B, 3 rounds), and counts on both sides of
 * the cell's size meet and fail instead of waiting for good. The cells of
 * allreduce and reduce_scatter(_block) carry their byte count too, and
 * the reader checks it (reduce_scatter's since 2026-12-06: 10 against 12
 * ints read the wrong bytes before).
 */
#include <string.h>
#include "coll/alltoall_blocks.h"

/* The bytes of red's working vector when the cells can reduce it, else -1. */
static MPI_Count red_need(xb_coll_red_t *red, MPI_Count count, const xb_coll_args_t *a)
{
    if (xb_coll_flow_red(red, count, a->rdt, a->op) != XB_OK) {
        xb_err_clear();
        return -1;
    }
    return xb_dt_is_predefined(red->wdt) ? (MPI_Count)xb_coll_flow_wbytes(red) : -1;
}

/* Begin a call whose cell this rank writes (reserve: the peer has read
 * what the ring held there before). */
static int begin_write(xb_coll_flow_t *f, const xb_comm_t *comm)
{
    int rc = xb_coll_flow_begin(f, comm);
    if (rc == XB_OK)
        xb_coll_flow_reserve(f);
    return rc;
}

typedef int (*pair_fn_t)(const xb_coll_args_t *, int);   /* a direct algorithm */

/* The cells serve this call but for its size (what both ranks know alike:
 * the form, the thread level, the communicator, a predefined working
 * type); need < 0: a working type that is not predefined. */
static bool on_cells(const xb_coll_args_t *a, MPI_Count need)
{
    return need >= 0 && xb_coll_flow_need_fits(a, 0);
}

/* A rank whose data does not fit its cell, where the peer's may (counts
 * that differ: an erroneous program): a flow call that carries only the
 * header (AS_MESSAGE, or AS_PIECES with the byte count in the cell),
 * which the peer follows to pair's messages, so that the two meet and
 * fail there instead of waiting for good. */
static int announce(const xb_coll_args_t *a, uint32_t word, int64_t bytes)
{
    xb_coll_flow_t f;
    int rc = xb_coll_flow_begin(&f, a->comm);
    if (rc != XB_OK)
        return rc;
    int peer = 1 - f.me;
    xb_coll_flow_reserve(&f);
    memcpy(xb_coll_flow_cell(&f, f.me), &bytes, sizeof bytes);
    xb_coll_flow_publish_word(&f, peer, peer + 1, word);
    xb_coll_flow_end(&f);
    return XB_OK;
}

/* The exchanges beyond a cell: pair's messages, announced where the peer
 * may have chosen its cell. */
static int by_message(const xb_coll_args_t *a, int tag, MPI_Count need, pair_fn_t pair)
{
    int rc = on_cells(a, need) ? announce(a, XB_COLL_FLOW_AS_MESSAGE, need) : XB_OK;
    return rc != XB_OK ? rc : pair(a, tag);
}

/* After the await: did the peer announce a message (its data did not fit
 * a cell)? Then this call ends here and pair's messages follow. */
static bool peer_sent_message(const xb_coll_flow_t *f)
{
    return XB_UNLIKELY(xb_coll_flow_word(f, 1 - f->me) == XB_COLL_FLOW_AS_MESSAGE);
}

/* ---- one-way collectives: the flow algorithms at two ranks -------------- */

/* Reduce, scan and exscan: the data goes one way, from the writer (reduce:
 * the rank that is not the root; scan, exscan: rank 0) to the reader, and
 * whether it fits a cell depends on the count, which differs between the
 * ranks in an erroneous program. So the writer decides and the reader
 * follows. A rank whose working vector fits a cell runs the flow
 * algorithm (the writer's byte count goes in the cell's header word, the
 * reader compares it with its own, and a writer's AS_MESSAGE or AS_PIECES
 * makes it return XB_ERR_AGAIN: pair's receives follow). A rank whose
 * vector does not fit makes one flow call that only carries the header
 * (the writer publishes AS_MESSAGE, or AS_PIECES with its byte count for
 * a reduce of more than XB_COLL_PIECES_OVER bytes; the reader reads the
 * writer's), then pair's message or pieces. So counts on both sides
 * of a cell's size meet and fail (MPI_ERR_TRUNCATE on the reader, every
 * piece taken) where they waited for good before 2026-12-06. What both
 * ranks know alike (the form, the thread level, the communicator, a
 * working type that is not predefined) sends both straight to pair. */

/* The reader after the writer's header (rc: the check's): pair's message,
 * or the pieces the writer announced. */
static int follow(const xb_coll_args_t *a, int tag, xb_coll_kind_t kind, int rc,
                  pair_fn_t pair)
{
    if (rc != XB_ERR_AGAIN)
        return rc;
    int64_t theirs = xb_coll_flow_pieces();
    return theirs < 0 ? pair(a, tag) : xb_coll_pieces_recv(a, tag, kind, theirs);
}

/* The writer of a large reduce: the announcement, then the pieces. */
static int in_pieces(const xb_coll_args_t *a, int tag, MPI_Count need)
{
    int rc = announce(a, XB_COLL_FLOW_AS_PIECES, need);
    return rc != XB_OK ? rc : xb_coll_pieces_send(a, tag, 1 - a->comm->rank);
}

static int one_way(const xb_coll_args_t *a, int tag, xb_coll_kind_t kind, int writer,
                   pair_fn_t flow, pair_fn_t pair)
{
    MPI_Count need = xb_coll_red_need(a->rcount, a->rdt, a->op);
    if (xb_coll_flow_need_fits(a, need))
        return follow(a, tag, kind, flow(a, tag), pair);
    if (!on_cells(a, need))
        return pair(a, tag);
    if (a->comm->rank == writer)
        return kind == XB_COLL_REDUCE && xb_coll_pieces_fit(a, need)
             ? in_pieces(a, tag, need) : by_message(a, tag, need, pair);
    xb_coll_flow_t f;                  /* beyond a cell: the writer's header */
    int rc = xb_coll_flow_begin(&f, a->comm);
    if (rc != XB_OK)
        return rc;
    int peer = 1 - f.me;
    xb_coll_flow_await(&f, peer);
    rc = xb_coll_flow_check(&f, peer, (size_t)need, kind);
    xb_coll_flow_end(&f);
    return rc == XB_OK ? pair(a, tag) : follow(a, tag, kind, rc, pair);
}

int xb_coll_reduce_cell(const xb_coll_args_t *a, int tag)
{
    return one_way(a, tag, XB_COLL_REDUCE, 1 - a->root, xb_coll_reduce_flow,
                   xb_coll_reduce_pair);
}

int xb_coll_scan_cell(const xb_coll_args_t *a, int tag)
{
    return one_way(a, tag, XB_COLL_SCAN, 0, xb_coll_scan_flow, xb_coll_scan_pair);
}

int xb_coll_exscan_cell(const xb_coll_args_t *a, int tag)
{
    return one_way(a, tag, XB_COLL_EXSCAN, 0, xb_coll_exscan_flow, xb_coll_exscan_pair);
}

/* Bcast beyond a cell takes the stream where the cells serve the pair:
 * the receiver follows the root's header whichever of the two it chose by
 * its own count (bcast_node.c), so ranks whose counts differ (an erroneous
 * program) still meet and fail, where the messages of pair.c beside the
 * cells hung them. */
int xb_coll_bcast_cell(const xb_coll_args_t *a, int tag)
{
    if (xb_coll_flow_fits(XB_COLL_BCAST, a))
        return xb_coll_bcast_flow(a, tag);
    return xb_coll_stream_fits(XB_COLL_BCAST, a) ? xb_coll_bcast_stream(a, tag)
                                                 : xb_coll_bcast_pair(a, tag);
}

/* The block in rank from's cell into `in`, when its writer's byte count
 * (the cell's header word) is what `in` holds; else the ranks' counts
 * differ (an erroneous program): MPI_ERR_TRUNCATE, nothing copied. */
static int take_cell(xb_coll_flow_t *f, int from, xb_a2a_blk_t in)
{
    uint32_t got = xb_coll_flow_word(f, from);
    MPI_Count want = in.n * xb_dt_size(in.dt);
    if (XB_UNLIKELY((MPI_Count)got != want))
        return xb_coll_mismatch(-1, -1, from, got, want, in.n, in.dt);
    return xb_coll_flow_copy(in.buf, in.n, in.dt, xb_coll_flow_cell(f, from), false);
}

static const xb_a2a_blk_t no_blk = { NULL, 0, NULL };

static int scatter_pair_form(const xb_coll_args_t *a, xb_a2a_form_t form, int tag)
{
    return form == XB_A2A ? xb_coll_scatter_pair(a, tag) : xb_coll_scatterv_pair(a, tag);
}

/* Scatter and scatterv (form XB_A2A, XB_A2AV): the root decides and the
 * peer follows its header word. A block that fits goes in the root's cell
 * (at its start: an 8-byte block is then the seq's line); a larger one as
 * pair's message, announced by the header. So ranks whose counts differ
 * (an erroneous program) meet and fail with MPI_ERR_TRUNCATE, the message
 * consumed; until 2026-12-06 each rank chose by its own count, and a block
 * on each side of the cell's size left both waiting for good. */
static int scatter_cells(const xb_coll_args_t *a, xb_a2a_form_t form, int tag)
{
    if (!xb_coll_flow_need_fits(a, 0))     /* the communicator, form, level */
        return scatter_pair_form(a, form, tag);
    xb_coll_flow_t f;
    int rc = xb_coll_flow_begin(&f, a->comm);
    if (rc != XB_OK)
        return rc;
    int peer = 1 - f.me;
    xb_a2a_blk_t mine = { a->rbuf, a->rcount, a->rdt };
    if (f.me != a->root) {
        xb_coll_flow_await_data(&f, a->root, (size_t)(mine.n * xb_dt_size(mine.dt)));
        bool message = xb_coll_flow_word(&f, a->root) == XB_COLL_FLOW_AS_MESSAGE;
        if (!message)
            rc = take_cell(&f, a->root, mine);
        xb_coll_flow_end(&f);
        return !message ? rc
             : xb_coll_recv_exact(a->rbuf, a->rcount, a->rdt, a->root, tag, a->comm, -1,
                                  form == XB_A2A ? XB_COLL_SCATTER : XB_COLL_SCATTERV, NULL);
    }
    xb_a2a_blk_t out = xb_a2a_sblk(a, form, peer), own = xb_a2a_sblk(a, form, f.me);
    MPI_Count bytes = out.n * xb_dt_size(out.dt);
    bool in_cell = bytes <= XB_COLL_FLOW_CELL;
    xb_coll_flow_reserve(&f);
    if (in_cell)
        rc = xb_coll_flow_copy(out.buf, out.n, out.dt, xb_coll_flow_cell(&f, f.me), true);
    xb_coll_flow_publish_word(&f, peer, peer + 1, in_cell ? (uint32_t)bytes
                                                          : XB_COLL_FLOW_AS_MESSAGE);
    xb_coll_flow_end_ahead(&f, in_cell ? (size_t)bytes : SIZE_MAX);
    if (!in_cell)                 /* the message, and the own block */
        return scatter_pair_form(a, form, tag);
    if (rc == XB_OK && a->rbuf != MPI_IN_PLACE)   /* not own.buf: MPI_BOTTOM is NULL */
        rc = xb_a2a_own_copy(own.buf, own.n, own.dt, a->rbuf, a->rcount, a->rdt);
    return rc;
}

int xb_coll_scatter_cell(const xb_coll_args_t *a, int tag)
{
    return scatter_cells(a, XB_A2A, tag);
}

int xb_coll_scatterv_cell(const xb_coll_args_t *a, int tag)
{
    return scatter_cells(a, XB_A2AV, tag);
}

/* ---- exchanges ---------------------------------------------------------- */

/* This rank's cell is written (rc: how its copy went): publish its `mine`
 * bytes (FAILED after a failed copy) for the peer to check, wait for the
 * peer's cell and check that it holds the `want` bytes this rank expects.
 * XB_ERR_AGAIN: the peer announced a message (or the rounds), the call is
 * ended here and pair's messages follow. */
static int swap_counted(xb_coll_flow_t *f, int rc, MPI_Count mine, MPI_Count want,
                        xb_coll_kind_t kind)
{
    int peer = 1 - f->me;
    xb_coll_flow_publish_word(f, peer, peer + 1,
                              rc == XB_OK ? (uint32_t)mine : XB_COLL_FLOW_FAILED);
    xb_coll_flow_await(f, peer);
    int rc2 = xb_coll_flow_check(f, peer, (size_t)want, kind);
    if (rc2 == XB_ERR_AGAIN)
        xb_coll_flow_end(f);
    return rc2;
}

/* x0 op x1 from the two cells into rbuf: acc starts as x1 and x0 is applied
 * to it (acc = x0 op acc); acc is rbuf itself when the user's layout is the
 * working one. The same steps on both ranks: bit-identical results. */
static int reduce_cells(const xb_coll_red_t *red, xb_coll_flow_t *f, void *rbuf)
{
    _Alignas(64) char tmp[XB_COLL_FLOW_CELL];
    bool direct = red->dt == red->wdt && xb_dt_is_contig(red->dt, red->count);
    void *acc = direct ? (char *)rbuf + xb_dt_true_lb(red->dt) : tmp;
    size_t bytes = xb_coll_flow_wbytes(red);
    if (bytes > 0)
        memcpy(acc, xb_coll_flow_cell(f, 1), bytes);
    int rc = xb_coll_flow_apply(red, xb_coll_flow_cell(f, 0), acc);
    if (rc == XB_OK && !direct)
        rc = xb_coll_flow_wcopy(red, rbuf, tmp, false);
    return rc;
}

int xb_coll_allreduce_cell(const xb_coll_args_t *a, int tag)
{
    xb_coll_red_t red;
    MPI_Count need = red_need(&red, a->rcount, a);
    if (!xb_coll_flow_need_fits(a, need))
        return by_message(a, tag, need, xb_coll_allreduce_pair);
    xb_coll_flow_t f;
    int rc = begin_write(&f, a->comm);
    if (rc != XB_OK)
        return rc;
    const void *src = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    rc = xb_coll_flow_wcopy(&red, (void *)src, xb_coll_flow_cell(&f, f.me), true);
    int rc2 = swap_counted(&f, rc, need, need, XB_COLL_ALLREDUCE);
    if (rc2 == XB_ERR_AGAIN)
        return xb_coll_allreduce_pair(a, tag);
    if (rc2 == XB_OK && rc == XB_OK)
        rc2 = reduce_cells(&red, &f, a->rbuf);
    xb_coll_flow_end(&f);
    return rc != XB_OK ? rc : rc2;
}

/* A two-rank allreduce from 64 KiB takes shm_rsag's rounds, below it the
 * cells or pair's messages: counts on both sides of 64 KiB (an erroneous
 * program) would wait for good in two algorithms. So a rank bound for the
 * rounds first makes a flow call that publishes AS_ROUNDS, with its bytes
 * in its cell, and reads the peer's header: AS_ROUNDS, both take the
 * rounds if their bytes agree and both fail if not; else the peer wrote
 * its cell (and its check takes AS_ROUNDS for a message) or announced a
 * message, and both meet in pair's messages. */
int xb_coll_pair_rounds_agree(const xb_coll_args_t *a)
{
    if (!on_cells(a, 0))       /* the peer did not take the cells either */
        return XB_OK;
    xb_coll_flow_t f;
    int rc = begin_write(&f, a->comm);
    if (rc != XB_OK)
        return rc;
    int peer = 1 - f.me;
    int64_t mine = (int64_t)(a->rcount * xb_dt_size(a->rdt)), theirs;
    memcpy(xb_coll_flow_cell(&f, f.me), &mine, sizeof mine);
    xb_coll_flow_publish_word(&f, peer, peer + 1, XB_COLL_FLOW_AS_ROUNDS);
    xb_coll_flow_await(&f, peer);
    bool both = xb_coll_flow_word(&f, peer) == XB_COLL_FLOW_AS_ROUNDS;
    if (both)
        memcpy(&theirs, xb_coll_flow_cell(&f, peer), sizeof theirs);
    xb_coll_flow_end(&f);
    if (!both)
        return XB_ERR_AGAIN;
    if (theirs != mine)
        return xb_err_set(XB_ERR_TRUNCATE, "rank %d's vector of the allreduce holds %lld "
                          "bytes where this rank's holds %lld: the ranks' counts or types "
                          "do not match", peer, (long long)theirs, (long long)mine);
    return XB_OK;
}

/* The exchanges of blocks: `out` goes to the peer through our cell; `own`,
 * when not NULL, is copied into `dst` while the peer reads; the peer's
 * cell lands in `in`. */
static int swap_blocks(const xb_coll_args_t *a, xb_a2a_blk_t out, const xb_a2a_blk_t *own,
                       xb_a2a_blk_t dst, xb_a2a_blk_t in, int tag, pair_fn_t pair)
{
    xb_coll_flow_t f;
    int rc = begin_write(&f, a->comm);
    if (rc != XB_OK)
        return rc;
    int me = f.me, peer = 1 - me;
    MPI_Count ob = out.n * xb_dt_size(out.dt);
    if (XB_LIKELY(ob <= XB_COLL_FLOW_CELL)) {
        rc = xb_coll_flow_copy(out.buf, out.n, out.dt, xb_coll_flow_cell(&f, me), true);
    } else {
        /* the fit was decided on counts that are not this rank's send
         * count (allgatherv: recvcounts; an erroneous program): nothing is
         * written past the cell, and the peer fails on the header word */
        rc = xb_err_set(XB_ERR_TRUNCATE, "this rank's block of %lld bytes is larger than "
                        "the ranks' counts say (recvcounts[%d] and sendcount differ)",
                        (long long)ob, me);
        ob = XB_COLL_FLOW_CELL + 1;
    }
    xb_coll_flow_publish_word(&f, peer, peer + 1, (uint32_t)ob);
    if (rc == XB_OK && own != NULL)     /* not own->buf: MPI_BOTTOM is NULL */
        rc = xb_a2a_own_copy(own->buf, own->n, own->dt, dst.buf, dst.n, dst.dt);
    xb_coll_flow_await(&f, peer);
    if (peer_sent_message(&f)) {
        xb_coll_flow_end(&f);
        return pair(a, tag);
    }
    int rc2 = take_cell(&f, peer, in);
    xb_coll_flow_end(&f);
    return rc != XB_OK ? rc : rc2;
}

/* Allgather and allgatherv (form XB_A2A, XB_A2AV): our block to the peer,
 * the peer's into its place. */
static int allgather_cells(const xb_coll_args_t *a, xb_a2a_form_t form, int tag,
                           pair_fn_t pair)
{
    int me = a->comm->rank, peer = 1 - me;
    xb_a2a_blk_t dst = xb_a2a_rblk(a, form, me), in = xb_a2a_rblk(a, form, peer),
                 own = { (char *)a->sbuf, a->scount, a->sdt };
    if (a->sbuf == MPI_IN_PLACE)
        return swap_blocks(a, dst, NULL, dst, in, tag, pair);
    return swap_blocks(a, own, &own, dst, in, tag, pair);
}

int xb_coll_allgather_cell(const xb_coll_args_t *a, int tag)
{
    MPI_Count need = xb_coll_block_bytes(XB_COLL_ALLGATHER, a);
    if (!xb_coll_flow_need_fits(a, need))
        return by_message(a, tag, need, xb_coll_allgather_pair);
    return allgather_cells(a, XB_A2A, tag, xb_coll_allgather_pair);
}

/* Allgatherv: both ranks know both counts, so both agree whether the
 * larger fits a cell (unless their recvcounts differ); else pair's
 * exchange of messages. */
int xb_coll_allgatherv_cell(const xb_coll_args_t *a, int tag)
{
    if (!xb_coll_flow_fits(XB_COLL_ALLGATHERV, a))
        return by_message(a, tag, 0, xb_coll_allgatherv_pair);
    return allgather_cells(a, XB_A2AV, tag, xb_coll_allgatherv_pair);
}

/* Alltoall, alltoallv and alltoallw: both ranks know the bytes of both
 * directions (what this rank sends is what the peer receives), so both
 * agree on the fit of the larger. */
static int a2a_cells(const xb_coll_args_t *a, xb_a2a_form_t form, int tag)
{
    int me = a->comm->rank, peer = 1 - me;
    bool inplace = a->sbuf == MPI_IN_PLACE;
    xb_a2a_blk_t in = xb_a2a_rblk(a, form, peer);
    xb_a2a_blk_t out = inplace ? in : xb_a2a_sblk(a, form, peer);
    MPI_Count ob = out.n * xb_dt_size(out.dt), ib = in.n * xb_dt_size(in.dt);
    pair_fn_t pair = form == XB_A2A ? xb_coll_alltoall_pair
                   : form == XB_A2AV ? xb_coll_alltoallv_pair : xb_coll_alltoallw_pair;
    if (!xb_coll_flow_need_fits(a, ob > ib ? ob : ib))
        return by_message(a, tag, ob > ib ? ob : ib, pair);
    /* in place, the block for the peer goes into our cell before the
     * peer's is copied out over it */
    xb_a2a_blk_t own = inplace ? no_blk : xb_a2a_sblk(a, form, me);
    return swap_blocks(a, out, inplace ? NULL : &own, xb_a2a_rblk(a, form, me), in, tag, pair);
}

int xb_coll_alltoall_cell(const xb_coll_args_t *a, int tag)
{
    return a2a_cells(a, XB_A2A, tag);
}

int xb_coll_alltoallv_cell(const xb_coll_args_t *a, int tag)
{
    return a2a_cells(a, XB_A2AV, tag);
}

int xb_coll_alltoallw_cell(const xb_coll_args_t *a, int tag)
{
    return a2a_cells(a, XB_A2AW, tag);
}

/* Segment k (c_k elements) of x0 op x1 goes to rank k: each rank writes
 * the peer's segment of its vector into its cell, then combines its own
 * segment with the peer's cell in rank order. In place, our segment is
 * loaded before the result overwrites the start of rbuf. */
static int rs_cells(const xb_coll_args_t *a, xb_coll_kind_t kind, MPI_Count c0, MPI_Count c1)
{
    int me = a->comm->rank, peer = 1 - me;
    xb_coll_red_t mine, theirs;
    MPI_Count nt = red_need(&theirs, me == 0 ? c1 : c0, a);
    MPI_Count nm = red_need(&mine, me == 0 ? c0 : c1, a);
    MPI_Count need = nt < 0 || nm < 0 ? -1 : nt > nm ? nt : nm;
    if (!xb_coll_flow_need_fits(a, need)) {
        int r = on_cells(a, need) ? announce(a, XB_COLL_FLOW_AS_MESSAGE, need) : XB_OK;
        return r != XB_OK ? r : XB_ERR_AGAIN;
    }
    const char *src = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    MPI_Aint ext = xb_dt_extent(a->rdt);
    const char *own = src + (me == 0 ? 0 : c0) * ext, *out = src + (me == 0 ? c0 : 0) * ext;
    _Alignas(64) char acc[XB_COLL_FLOW_CELL], tmp[XB_COLL_FLOW_CELL];
    xb_coll_flow_t f;
    int rc = begin_write(&f, a->comm);
    if (rc != XB_OK)
        return rc;
    rc = xb_coll_flow_wcopy(&theirs, (void *)out, xb_coll_flow_cell(&f, me), true);
    if (rc == XB_OK)
        rc = xb_coll_flow_wcopy(&mine, (void *)own, me == 0 ? tmp : acc, true);
    int rc2 = swap_counted(&f, rc, nt, nm, kind);
    if (rc2 == XB_ERR_AGAIN)
        return XB_ERR_AGAIN;
    if (rc == XB_OK)
        rc = rc2;
    if (rc == XB_OK && me == 0) {          /* acc = x0 op x1, x1 from the cell */
        memcpy(acc, xb_coll_flow_cell(&f, peer), xb_coll_flow_wbytes(&mine));
        rc = xb_coll_flow_apply(&mine, tmp, acc);
    } else if (rc == XB_OK) {
        rc = xb_coll_flow_apply(&mine, xb_coll_flow_cell(&f, peer), acc);
    }
    if (rc == XB_OK)
        rc = xb_coll_flow_wcopy(&mine, a->rbuf, acc, false);
    xb_coll_flow_end(&f);
    return rc;
}

int xb_coll_reduce_scatter_cell(const xb_coll_args_t *a, int tag)
{
    int rc = rs_cells(a, XB_COLL_REDUCE_SCATTER, a->rcounts[0], a->rcounts[1]);
    return rc == XB_ERR_AGAIN ? xb_coll_reduce_scatter_pair(a, tag) : rc;
}

int xb_coll_reduce_scatter_block_cell(const xb_coll_args_t *a, int tag)
{
    int rc = rs_cells(a, XB_COLL_REDUCE_SCATTER_BLOCK, a->rcount, a->rcount);
    return rc == XB_ERR_AGAIN ? xb_coll_reduce_scatter_block_pair(a, tag) : rc;
}

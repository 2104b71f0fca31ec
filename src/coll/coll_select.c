/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_select.c - which algorithm runs: the algorithm registry, the ordered
 * rule table (first match wins), the overrides (XB_COLL_ALGO and one
 * XB_COLL_<COLLECTIVE> tunable per collective), and xb_coll_run(), which
 * builds the chosen algorithm's schedule and runs it in the asked form.
 *
 * Every rank must choose the same algorithm, so rules look only at what all
 * ranks agree on: the communicator size, the bytes of one block (equal on
 * all ranks by the type-signature rule; v/w forms have no byte rules) and
 * the op's commutativity.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll/coll_int.h"
#include "method/mcast/mcast.h"
#include "runtime/cpus.h"
#include "runtime/tunable.h"

static int xb_coll_force_changed(xb_tunable_t *t);
XB_TUNABLE_LIVE(COLL_ALGO, XB_TT_STRING, "", XB_TL_TUNER,
           "Force collective algorithms by name: a comma-separated list of "
           "collective=algorithm, e.g. bcast=linear,allreduce=reduce_bcast "
           "(crossbar-info lists them)", xb_coll_force_changed);
#define FORCE_TUNABLE(NAME, coll)                                             \
    XB_TUNABLE_LIVE(COLL_##NAME, XB_TT_STRING, "", XB_TL_TUNER,               \
                    "Force the " coll " algorithm by name (crossbar-info "    \
                    "lists them)", xb_coll_force_changed)
FORCE_TUNABLE(BARRIER, "barrier");
FORCE_TUNABLE(BCAST, "bcast");
FORCE_TUNABLE(REDUCE, "reduce");
FORCE_TUNABLE(ALLREDUCE, "allreduce");
FORCE_TUNABLE(GATHER, "gather");
FORCE_TUNABLE(SCATTER, "scatter");
FORCE_TUNABLE(ALLGATHER, "allgather");
FORCE_TUNABLE(ALLTOALL, "alltoall");
FORCE_TUNABLE(GATHERV, "gatherv");
FORCE_TUNABLE(SCATTERV, "scatterv");
FORCE_TUNABLE(ALLGATHERV, "allgatherv");
FORCE_TUNABLE(ALLTOALLV, "alltoallv");
FORCE_TUNABLE(ALLTOALLW, "alltoallw");
FORCE_TUNABLE(REDUCE_SCATTER, "reduce_scatter");
FORCE_TUNABLE(REDUCE_SCATTER_BLOCK, "reduce_scatter_block");
FORCE_TUNABLE(SCAN, "scan");
FORCE_TUNABLE(EXSCAN, "exscan");
FORCE_TUNABLE(NEIGHBOR_ALLGATHER, "neighbor_allgather");
FORCE_TUNABLE(NEIGHBOR_ALLGATHERV, "neighbor_allgatherv");
FORCE_TUNABLE(NEIGHBOR_ALLTOALL, "neighbor_alltoall");
FORCE_TUNABLE(NEIGHBOR_ALLTOALLV, "neighbor_alltoallv");
FORCE_TUNABLE(NEIGHBOR_ALLTOALLW, "neighbor_alltoallw");

static const char *const kind_names[XB_COLL_NKINDS] = {
    "barrier", "bcast", "reduce", "allreduce", "gather", "scatter",
    "allgather", "alltoall", "gatherv", "scatterv", "allgatherv", "alltoallv",
    "alltoallw", "reduce_scatter", "reduce_scatter_block", "scan", "exscan",
    "neighbor_allgather", "neighbor_allgatherv", "neighbor_alltoall",
    "neighbor_alltoallv", "neighbor_alltoallw",
};

const char *xb_coll_kind_name(xb_coll_kind_t kind) { return kind_names[kind]; }

/* What an algorithm needs to be correct (a forced one that does not fit
 * the call falls back to the table: correctness first). */
enum { NEED_COMMUTE = 1, NEED_POF2 = 2, NEED_BLOCKING = 4,
       NEED_NODE = 8 /* node shared memory: xb_coll_node_fits() */,
       NEED_HIER = 16 /* several nodes: xb_coll_hier_fits() */,
       NEED_PAIR = 32 /* exactly two ranks */,
       NEED_ROUNDS = 64 /* node shared memory, any size: xb_coll_node_rounds_fit() */,
       NEED_FLOW = 128 /* node flow cells: xb_coll_flow_fits() */,
       NEED_STREAM = 256 /* node rings: xb_coll_stream_fits() */,
       NEED_CHAIN = 512 /* node chain rings: xb_coll_chain_fits() */,
       NEED_ONE_NODE = 1024 /* every member on this node: xb_coll_one_node() */,
       NEED_MCAST = 2048 /* the job agreed on multicast: xb_coll_mcast */,
       NEED_3_NODES = 4096 /* the communicator spans 3 nodes or more */,
       NEED_NBN = 8192 /* a node channel: xb_coll_nbn_fits() */,
       NEED_FEW_OR_CROWDED = 16384 /* at most 16 ranks, or more than the node
                                      has CPUs (with NEED_ONE_NODE: every
                                      member sees that node) */ };

/* A schedule builder (fn), a direct algorithm (direct: blocking only,
 * never inside another algorithm's schedule), or both (the blocking form
 * runs the direct one). */
typedef struct {
    xb_coll_kind_t kind;
    const char    *name;
    xb_coll_fn_t   fn;
    xb_coll_direct_fn_t direct;
    int            needs;
} algo_t;

#define A(k, n, f, needs) { XB_COLL_##k, n, xb_coll_##f, NULL, needs }
#define D(k, n, f, needs) { XB_COLL_##k, n, NULL, xb_coll_##f, (needs) | NEED_BLOCKING }
#define AD(k, n, f, needs) { XB_COLL_##k, n, xb_coll_##f, xb_coll_##f##_direct, needs }
static const algo_t algos[] = {
    A(BARRIER, "shm", barrier_shm, NEED_NODE),
    A(BARRIER, "hier", barrier_hier, NEED_HIER),
    A(BARRIER, "dissemination", barrier_dissemination, 0),
    A(BARRIER, "shm_nb", barrier_shm_nb, NEED_NBN),
    D(BCAST, "cell", bcast_cell, NEED_PAIR),
    D(BCAST, "pair", bcast_pair, NEED_PAIR),
    D(BCAST, "flow", bcast_flow, NEED_FLOW),
    D(BCAST, "stream", bcast_stream, NEED_STREAM),
    D(BCAST, "direct", bcast_direct, NEED_PAIR | NEED_STREAM),
    A(BCAST, "shm", bcast_shm, NEED_NODE),
    A(BCAST, "shm_nb", bcast_shm_nb, NEED_NBN),
    D(BCAST, "mcast", bcast_mcast, NEED_HIER | NEED_MCAST),
    A(BCAST, "hier", bcast_hier, NEED_HIER),
    AD(BCAST, "binomial", bcast_binomial, 0),
    A(BCAST, "scatter_allgather", bcast_scatter_allgather, 0),
    A(BCAST, "linear", bcast_linear, 0),
    D(REDUCE, "cell", reduce_cell, NEED_PAIR),
    D(REDUCE, "pair", reduce_pair, NEED_PAIR),
    D(REDUCE, "flow", reduce_flow, NEED_FLOW),
    D(REDUCE, "stream", reduce_stream, NEED_STREAM),
    A(REDUCE, "shm", reduce_shm, NEED_NODE),
    A(REDUCE, "shm_nb", reduce_shm_nb, NEED_NBN),
    A(REDUCE, "hier", reduce_hier, NEED_HIER),
    AD(REDUCE, "binomial", reduce_binomial, NEED_COMMUTE),
    A(REDUCE, "rabenseifner", reduce_rabenseifner, NEED_COMMUTE),
    A(REDUCE, "ordered", reduce_ordered, 0),
    D(ALLREDUCE, "cell", allreduce_cell, NEED_PAIR),
    D(ALLREDUCE, "pair", allreduce_pair, NEED_PAIR),
    AD(ALLREDUCE, "shm", allreduce_shm, NEED_NODE),
    A(ALLREDUCE, "shm_rsag", allreduce_shm_rsag, NEED_ROUNDS),
    A(ALLREDUCE, "shm_nb", allreduce_shm_nb, NEED_NBN),
    A(ALLREDUCE, "hier", allreduce_hier, NEED_HIER),
    A(ALLREDUCE, "recdbl", allreduce_recdbl, 0),
    A(ALLREDUCE, "rabenseifner", allreduce_rabenseifner, NEED_COMMUTE),
    A(ALLREDUCE, "ring", allreduce_ring, NEED_COMMUTE),
    A(ALLREDUCE, "exchange", allreduce_exchange, 0),
    A(ALLREDUCE, "reduce_bcast", allreduce_reduce_bcast, 0),
    D(GATHER, "pair", gather_pair, NEED_PAIR),
    D(GATHER, "stream", gather_stream, NEED_STREAM),
    A(GATHER, "hier", gather_hier, NEED_HIER),
    A(GATHER, "shm_nb", gather_shm_nb, NEED_NBN),
    AD(GATHER, "binomial", gather_binomial, 0),
    A(GATHER, "linear", gather_linear, 0),
    D(SCATTER, "cell", scatter_cell, NEED_PAIR),
    D(SCATTER, "pair", scatter_pair, NEED_PAIR),
    D(SCATTER, "stream", scatter_stream, NEED_STREAM),
    A(SCATTER, "hier", scatter_hier, NEED_HIER),
    A(SCATTER, "shm_nb", scatter_shm_nb, NEED_NBN),
    A(SCATTER, "binomial", scatter_binomial, 0),
    AD(SCATTER, "linear", scatter_linear, 0),
    D(ALLGATHER, "cell", allgather_cell, NEED_PAIR),
    D(ALLGATHER, "pair", allgather_pair, NEED_PAIR),
    A(ALLGATHER, "shm", allgather_shm, NEED_NODE),
    A(ALLGATHER, "shm_nb", allgather_shm_nb, NEED_NBN),
    A(ALLGATHER, "hier", allgather_hier, NEED_HIER),
    A(ALLGATHER, "recdbl", allgather_recdbl, NEED_POF2),
    A(ALLGATHER, "bruck", allgather_bruck, 0),
    A(ALLGATHER, "ring", allgather_ring, 0),
    A(ALLGATHER, "linear", allgather_linear, 0),
    D(ALLTOALL, "cell", alltoall_cell, NEED_PAIR),
    D(ALLTOALL, "pair", alltoall_pair, NEED_PAIR),
    A(ALLTOALL, "shm", alltoall_shm, NEED_NODE),
    A(ALLTOALL, "shm_rounds", alltoall_shm_rounds, NEED_ROUNDS),
    A(ALLTOALL, "shm_nb", alltoall_shm_nb, NEED_NBN),
    A(ALLTOALL, "bruck", alltoall_bruck, 0),
    A(ALLTOALL, "pairwise", alltoall_pairwise, 0),
    A(ALLTOALL, "linear", alltoall_linear, 0),
    A(GATHERV, "linear", gatherv_linear, 0),
    D(GATHERV, "pair", gatherv_pair, NEED_PAIR),
    D(GATHERV, "stream", gatherv_stream, NEED_STREAM),
    AD(SCATTERV, "linear", scatterv_linear, 0),
    D(SCATTERV, "cell", scatterv_cell, NEED_PAIR),
    D(SCATTERV, "pair", scatterv_pair, NEED_PAIR),
    D(SCATTERV, "stream", scatterv_stream, NEED_STREAM),
    D(ALLGATHERV, "cell", allgatherv_cell, NEED_PAIR),
    D(ALLGATHERV, "pair", allgatherv_pair, NEED_PAIR),
    A(ALLGATHERV, "shm", allgatherv_shm, NEED_NODE),
    A(ALLGATHERV, "shm_nb", allgatherv_shm_nb, NEED_NBN),
    A(ALLGATHERV, "ring", allgatherv_ring, 0),
    A(ALLGATHERV, "linear", allgatherv_linear, 0),
    D(ALLTOALLV, "cell", alltoallv_cell, NEED_PAIR),
    D(ALLTOALLV, "pair", alltoallv_pair, NEED_PAIR),
    D(ALLTOALLV, "shm", alltoallv_shm, NEED_NODE),
    A(ALLTOALLV, "pairwise", alltoallv_pairwise, 0),
    A(ALLTOALLV, "linear", alltoallv_linear, 0),
    D(ALLTOALLW, "cell", alltoallw_cell, NEED_PAIR),
    D(ALLTOALLW, "pair", alltoallw_pair, NEED_PAIR),
    D(ALLTOALLW, "shm", alltoallw_shm, NEED_NODE),
    A(ALLTOALLW, "pairwise", alltoallw_pairwise, 0),
    A(ALLTOALLW, "linear", alltoallw_linear, 0),
    D(REDUCE_SCATTER, "cell", reduce_scatter_cell, NEED_PAIR),
    D(REDUCE_SCATTER, "pair", reduce_scatter_pair, NEED_PAIR),
    A(REDUCE_SCATTER, "shm", reduce_scatter_shm, NEED_NODE),
    A(REDUCE_SCATTER, "shm_nb", reduce_scatter_shm_nb, NEED_NBN),
    A(REDUCE_SCATTER, "halving", reduce_scatter_halving, NEED_COMMUTE | NEED_POF2),
    A(REDUCE_SCATTER, "pairwise", reduce_scatter_pairwise, 0),
    D(REDUCE_SCATTER_BLOCK, "cell", reduce_scatter_block_cell, NEED_PAIR),
    D(REDUCE_SCATTER_BLOCK, "pair", reduce_scatter_block_pair, NEED_PAIR),
    A(REDUCE_SCATTER_BLOCK, "shm", reduce_scatter_block_shm, NEED_NODE),
    A(REDUCE_SCATTER_BLOCK, "shm_nb", reduce_scatter_block_shm_nb, NEED_NBN),
    A(REDUCE_SCATTER_BLOCK, "halving", reduce_scatter_block_halving,
      NEED_COMMUTE | NEED_POF2),
    A(REDUCE_SCATTER_BLOCK, "pairwise", reduce_scatter_block_pairwise, 0),
    D(SCAN, "cell", scan_cell, NEED_PAIR),
    D(SCAN, "pair", scan_pair, NEED_PAIR),
    D(SCAN, "flow", scan_flow, NEED_FLOW),
    D(SCAN, "chain", scan_chain, NEED_CHAIN),
    A(SCAN, "shm", scan_shm, NEED_NODE),
    A(SCAN, "shm_nb", scan_shm_nb, NEED_NBN),
    A(SCAN, "recdbl", scan_recdbl, 0),
    AD(SCAN, "linear", scan_linear, 0),
    D(EXSCAN, "cell", exscan_cell, NEED_PAIR),
    D(EXSCAN, "pair", exscan_pair, NEED_PAIR),
    D(EXSCAN, "flow", exscan_flow, NEED_FLOW),
    D(EXSCAN, "chain", exscan_chain, NEED_CHAIN),
    A(EXSCAN, "shm", exscan_shm, NEED_NODE),
    A(EXSCAN, "shm_nb", exscan_shm_nb, NEED_NBN),
    A(EXSCAN, "recdbl", exscan_recdbl, 0),
    AD(EXSCAN, "linear", exscan_linear, 0),
    A(NEIGHBOR_ALLGATHER, "linear", neighbor_allgather_linear, 0),
    A(NEIGHBOR_ALLGATHERV, "linear", neighbor_allgatherv_linear, 0),
    A(NEIGHBOR_ALLTOALL, "linear", neighbor_alltoall_linear, 0),
    A(NEIGHBOR_ALLTOALLV, "linear", neighbor_alltoallv_linear, 0),
    A(NEIGHBOR_ALLTOALLW, "linear", neighbor_alltoallw_linear, 0),
};
#undef A
#undef D
#undef AD

/* The rule table: for each collective, the first rule whose conditions
 * hold (and whose algorithm fits the call: commutativity, power-of-two
 * size, form) names the algorithm. Conditions: communicator size in
 * [min_p, max_p]; bytes of one block (the whole vector for bcast and the
 * reductions) in [min_bytes, max_bytes) (max 0: no bound).
 * The byte thresholds are the textbook crossovers (latency-bound below,
 * bandwidth-bound above); bench/coll.c measures them on this machine. */
typedef struct {
    xb_coll_kind_t kind;
    int            min_p, max_p;
    MPI_Count      min_bytes, max_bytes;
    const char    *algo;
    int            needs;     /* conditions of the rule itself (NEED_ONE_NODE, NEED_FEW_OR_CROWDED) */
} rule_t;

#define ANY_P 1, 1 << 30
#define KiB * 1024
/* One node, and at most 16 ranks or more ranks than its CPUs: where every
 * dependency of a schedule is a wait for a peer to be scheduled the
 * one-node rules' linear forms (few rounds, everything posted at once)
 * win, where with a CPU each for many ranks the trees' fewer steps per
 * rank would; measured at 24-48 ranks on 2 CPUs (2026-12-07). The rules
 * from 17 ranks with it hold only where the ranks outnumber the CPUs. */
#define ONE_NODE_FEW (NEED_ONE_NODE | NEED_FEW_OR_CROWDED)
static const rule_t rules[] = {
    { XB_COLL_BARRIER,   ANY_P, 0, 0, "shm", 0 },      /* blocking, whole node */
    { XB_COLL_BARRIER,   ANY_P, 0, 0, "hier", 0 },     /* blocking, several nodes */
    /* shm_nb: the nonblocking and persistent forms on a communicator of
     * this node with a channel, up to a 16 KiB window per rank (every
     * shm_nb rule below); on a part of the node (no blocking node
     * algorithm there) the blocking forms too: -H (two halves of 4 of 8
     * ranks), 3 interleaved rounds, 2026-12-06, us, channel / messages:
     * barrier 6.4-8.6 / 10.4-13.6 (dissemination), allreduce 8 B
     * 9.0-10.1 / 11.7-14.1, 4 KiB 11.1-13.6 / 15.3-20.5 (recdbl),
     * allgather 512 B 8.0-13.7 / 10.6-18.1 (linear), reduce_scatter_block
     * 8 B 6.9-9.5 / 9.5-16.1 (pairwise); halves of 2: barrier 2.7-3.2 /
     * 2.3-3.7 (6 rounds). Interleaved A/B runs, 2026-11-29 (medians, us):
     * 8 ranks ibarrier 17.5 against dissemination's 35.1; 4 ranks
     * iallreduce 8 B 5.9 against recdbl's 8.8, ialltoall 8 B 3.5 against
     * linear's 5.4; 8 ranks iallgatherv 4 KiB 14.2 against linear's 24.9.
     * Not for the rooted collectives and the scans, whose messages let a
     * root or a chain run ahead (docs/design/coll.md). When some process
     * of the job runs with threads (xb_coll_threads) the blocking node
     * algorithms step aside and the blocking calls come here too: -T,
     * 5 interleaved rounds, 2026-11-29, 8 ranks: barrier 11.2 against
     * dissemination's 19.3, allreduce 8 B 13.7 against recdbl's 20.8,
     * allgather 4 KiB 15.8 against linear's 26.1, reduce_scatter_block
     * 8 B 10.0 against pairwise's 14.0; 4 ranks: 1.0-1.2x */
    { XB_COLL_BARRIER,   2, 1 << 30, 0, 0, "shm_nb", 0 },  /* the channel (shm_nb.c) */
    { XB_COLL_BARRIER,   ANY_P, 0, 0, "dissemination", 0 },
    /* 2 ranks from 2 KiB: the stream lets the root run ahead of one copy
     * out (4 KiB 0.34 us, cell 0.71; 32 KiB 1.2 vs 5.2; 2026-11-24 17:15);
     * below that the cell's one handshake wins (first, so that small
     * calls skip the rule walk: pair_any). From 32 KiB one single-copy
     * message ("direct": the stream's header, then pair's message) beats
     * the stream's two copies: interleaved A/B, 2026-12-06, us, stream /
     * pair: 64 KiB 3.6-4.4 / 3.7-5.5, 96 KiB 5.1-5.3 / 4.7-5.4, 256 KiB
     * 13.0-15.8 / 7.9-10.6, 1 MiB 78-87 / 40-51 (Open MPI 113), 4 MiB
     * 299-338 / 238-283; with a CPU hog beside it 1 MiB 168-181 / 67-89
     * (Open MPI 190). The stream won at 4 MiB on 2026-11-24 (125 vs 231),
     * before the deferred single-copy get. From 32 KiB since 2026-12-08
     * (bench/coll.c, 5-7 interleaved rounds, stream / direct / Open MPI):
     * 24 KiB 1.44 / 1.86 / 2.11, 32 KiB 2.12-2.83 / 2.13-2.25 / 2.46-2.53,
     * 48 KiB 3.08 / 2.70 / 2.98, 64 KiB 4.10-4.28 / 3.28-3.38 / 3.51-3.72. */
    { XB_COLL_BCAST,     2, 2, 0, 2 KiB, "cell", 0 },      /* blocking */
    { XB_COLL_BCAST,     2, 2, 2 KiB, 32 KiB, "stream", 0 }, /* blocking, whole node */
    { XB_COLL_BCAST,     2, 2, 32 KiB, 0, "direct", 0 },   /* blocking, whole node */
    { XB_COLL_BCAST,     2, 2, 0, 0, "cell", 0 },          /* blocking */
    { XB_COLL_BCAST,    3, 1 << 30, 0, 0, "flow", 0 },       /* blocking, whole node, fits a cell */
    /* stream: beyond a cell, up to a slot, no barrier (node_stream.c);
     * 8 ranks, 32 KiB: 5.5 us, shm 13.9, Open MPI 35.5 (2026-11-24) */
    { XB_COLL_BCAST,     3, 1 << 30, 0, 0, "stream", 0 },    /* blocking, whole node, fits a slot */
    { XB_COLL_BCAST,     3, 1 << 30, 32 KiB, 0, "shm", 0 },  /* whole node */
    /* XB_MCAST=1, 3 nodes or more: the root's datagrams reach every node
     * at once (bcast_mcast.c). 3 namespace "hosts" x 2 ranks, links shaped
     * to 1 Gbit/s (docs/PERFORMANCE.md, 2026-11-25): 32 KiB 771 us, hier
     * 539 (the root waits for the leaders' statuses, one more one-way
     * latency); 256 KiB 2243, 4481; 1 MiB 9364, 18062: the crossing is
     * near 52 KiB. 2 hosts, 1 MiB round: 37.1 ms, hier 35.1 (one receiver:
     * nothing to share) */
    { XB_COLL_BCAST,     ANY_P, 64 KiB, 0, "mcast", NEED_MCAST | NEED_3_NODES },
    { XB_COLL_BCAST,     ANY_P, 0, 0, "hier", 0 },     /* blocking, several nodes */
    /* One node, 3-16 ranks (the message algorithms there serve the
     * nonblocking and persistent forms, MPI_THREAD_MULTIPLE and the
     * communicators that are not the whole node): every transfer is a
     * single-copy get, and with more ranks than CPUs each dependency is a
     * wait for a peer to be scheduled, so fewer rounds win. bench/coll.c,
     * 8 ranks on 2 cores, nonblocking, and -H (two 4-rank halves),
     * 2026-11-24: 1 MiB 411 us, binomial 1130, scatter_allgather 690
     * (Open MPI 682); below 16 KiB the binomial tree (blocking: its direct
     * form) is as fast or faster */
    /* Beyond 16 ranks, where they outnumber the CPUs (ONE_NODE_FEW):
     * nonblocking, 24 ranks on 2 CPUs, 2026-12-07, us: 32 KiB 86.7,
     * binomial 116 (Open MPI 114); 256 KiB 408, binomial 385,
     * scatter_allgather 1132 (435) */
    { XB_COLL_BCAST,     3, 1 << 30, 16 KiB, 0, "linear", ONE_NODE_FEW },
    { XB_COLL_BCAST,     3, 1 << 30, 512 KiB, 0, "scatter_allgather", 0 },
    { XB_COLL_BCAST,     ANY_P, 0, 0, "binomial", 0 },
    /* every size: one single-copy message and the op at the root; the
     * binomial schedule above 64 KiB took twice as long at 4 MiB (1085 vs
     * 558 us, Open MPI 486; 2026-11-24) */
    { XB_COLL_REDUCE,    2, 2, 0, 0, "cell", 0 },          /* blocking */
    { XB_COLL_REDUCE,   3, 1 << 30, 0, 0, "flow", 0 },       /* blocking, whole node, fits a cell */
    { XB_COLL_REDUCE,    3, 1 << 30, 0, 0, "stream", 0 },    /* blocking, whole node, fits a slot */
    /* Beyond the flow cells' 64 ranks, below 32 KiB: the tree, whose
     * leaves run ahead, not shm's node barrier on every call. 70 ranks on
     * 2 CPUs, 2026-12-07, us: 8 B 12.5, shm 313 (Open MPI 17.4); 4 KiB
     * 167, 238 (463); 32 KiB 633, 428 (737) */
    { XB_COLL_REDUCE,    65, 1 << 30, 0, 32 KiB, "binomial", 0 },  /* commutative */
    { XB_COLL_REDUCE,    3, 1 << 30, 0, 0, "shm", 0 },       /* whole node, fits */
    { XB_COLL_REDUCE,    ANY_P, 0, 0, "hier", 0 },     /* several nodes, commutative */
    { XB_COLL_REDUCE,    ANY_P, 0, 0, "binomial", 0 },  /* commutative ops */
    { XB_COLL_REDUCE,    ANY_P, 0, 0, "ordered", 0 },
    { XB_COLL_ALLREDUCE, 2, 2, 0, 64 KiB, "cell", 0 },     /* blocking */
    /* large vectors, whole node: reduce-scatter + allgather through the
     * slots (allreduce_shm_rsag.c); see docs/PERFORMANCE.md 2026-11-24 */
    { XB_COLL_ALLREDUCE, 3, 1 << 30, 32 KiB, 0, "shm_rsag", 0 },
    { XB_COLL_ALLREDUCE, 2, 2, 64 KiB, 0, "shm_rsag", 0 },
    { XB_COLL_ALLREDUCE, 3, 1 << 30, 0, 0, "shm", 0 },       /* whole node, fits */
    { XB_COLL_ALLREDUCE, 2, 1 << 30, 0, 0, "shm_nb", 0 },    /* the channel (shm_nb.c) */
    { XB_COLL_ALLREDUCE, ANY_P, 0, 0, "hier", 0 },     /* several nodes, commutative */
    /* One node (see bcast), nonblocking, 2 interleaved rounds of 9
     * 25 ms batches, 2026-11-24 22:35, us (Open MPI): 4 ranks, 32 KiB:
     * exchange 22, rabenseifner 46 (40); 256 KiB 148, 197 (176); 1 MiB
     * 525, 589 (491); 8 ranks, 32 KiB 100, 85 (85); 256 KiB 479, 459
     * (350); 1 MiB 1613, 2160 (1234). Short runs (BENCH_QUICK) saw
     * exchange at 76-770 us from batch to batch: its p^2 messages touch
     * every pair's ring, and the first pass over a ring faults its pages
     * in (clear_page under memmove, perf). */
    { XB_COLL_ALLREDUCE, 3, 4, 16 KiB, 0, "exchange", NEED_ONE_NODE },
    { XB_COLL_ALLREDUCE, 5, 16, 256 KiB, 0, "exchange", NEED_ONE_NODE },
    { XB_COLL_ALLREDUCE, 3, 16, 16 KiB, 0, "rabenseifner", NEED_ONE_NODE },
    /* 2 ranks, nonblocking, 4 MiB: 746 us, recdbl 1860 (Open MPI 1129) */
    { XB_COLL_ALLREDUCE, 2, 2, 4 KiB, 0, "exchange", NEED_ONE_NODE },
    /* beyond 16 ranks that outnumber the CPUs, from 32 KiB (nonblocking,
     * 2026-12-07, us: 32 ranks 708-735, recdbl 1318-1332, Open MPI 710;
     * 24 ranks 559-599, 617-758 (454); at 16 KiB even) */
    { XB_COLL_ALLREDUCE, 17, 1 << 30, 32 KiB, 0, "rabenseifner", ONE_NODE_FEW },
    { XB_COLL_ALLREDUCE, 3, 1 << 30, 64 KiB, 0, "rabenseifner", 0 },
    { XB_COLL_ALLREDUCE, ANY_P, 0, 0, "recdbl", 0 },
    /* Gather and scatter on a whole node: the stream (stream_gather.c),
     * whose writer of each block decides between its cell, its ring and a
     * message and whose reader follows, so that counts that differ (an
     * erroneous program) meet and fail instead of hanging. Every size: one
     * rule, because a rule bounded by size would send ranks whose counts
     * differ to different algorithms.
     *
     * Gather at 2 ranks: the stream let the writer run ahead of the root's
     * copy out (interleaved A/B, 4 rounds, 2026-12-06, us, stream / pair's
     * message: 1 KiB 0.32-0.34 / 0.52-0.53, 4 KiB 0.55-0.58 / 0.63-0.84,
     * 16 KiB 1.44-1.54 / 1.67-1.73, 32 KiB 2.71-2.90 / 2.90-3.28, 48 KiB
     * even; Open MPI 0.54 at 512 B, 1.34 at 4 KiB); from 32 KiB the one
     * single-copy message. Pair where the stream cannot go (not blocking,
     * MPI_THREAD_MULTIPLE, across hosts). Scatter at 2 ranks: pair_cell.c,
     * whose root decides between its cell and a message. */
    { XB_COLL_GATHER,    2, 1 << 30, 0, 0, "stream", 0 },  /* blocking, whole node */
    { XB_COLL_GATHER,    2, 2, 0, 0, "pair", 0 },
    { XB_COLL_GATHER,    ANY_P, 0, 0, "hier", 0 },     /* blocking, several nodes */
    /* nonblocking, persistent (blocking with threads: 8 ranks, -T, 4 KiB
     * 6.2 us against 9.0), 4-16 KiB blocks: the channel (shm_nb.c).
     * Best of 7 batches of 400, 2026-11-29, us, shm_nb / binomial: 8 ranks
     * 4 KiB 4.8 / 5.2-5.5, 8 KiB 5.9-6.0 / 23.4-24.6, 16 KiB 8.1-9.0 /
     * 14.1-15.7; 4 ranks 16 KiB 4.5-7.1 / 6.9-8.3 (4-8 KiB even). Below
     * 4 KiB the tree wins (8 B: 4.0 / 1.5): its leaves run ahead */
    { XB_COLL_GATHER,    3, 1 << 30, 4 KiB, 0, "shm_nb", 0 },
    { XB_COLL_GATHER,    3, 1 << 30, 0, 16 KiB, "binomial", 0 },
    { XB_COLL_GATHER,    ANY_P, 0, 0, "linear", 0 },
    { XB_COLL_SCATTER,   2, 2, 0, 0, "cell", 0 },          /* blocking */
    /* 3+ ranks: the stream (see gather); its ring takes blocks up to
     * 64 KiB, messages the larger ones (stream_gather.c), which move each
     * block once as linear does (the fixed form's stream, which took the
     * ring up to 128 KiB, against linear, interleaved A/B, 3 rounds,
     * 2026-12-06, us: 4 ranks 32 KiB 6.6-7.8 / 10.3-14.4, 128 KiB 27-47 /
     * 25-33, 256 KiB 86-95 / 64-69; 8 ranks 128 KiB 103-127 / 76-105) */
    { XB_COLL_SCATTER,   3, 1 << 30, 0, 0, "stream", 0 }, /* blocking, whole node */
    { XB_COLL_SCATTER,   ANY_P, 0, 0, "hier", 0 },     /* blocking, several nodes */
    /* One node (see bcast), 8 ranks, 2026-11-24: 4 KiB 6.3 us, binomial
     * 13.0 (Open MPI 24) */
    /* 24 ranks on 2 CPUs, nonblocking, 2026-12-07: 8 B 3.8 us, binomial
     * 5.3 (Open MPI 6.2); 4 KiB 14.6, 60.6 (69.7); 256 KiB 389, 1146 (449) */
    { XB_COLL_SCATTER,   3, 1 << 30, 0, 0, "linear", ONE_NODE_FEW },
    { XB_COLL_SCATTER,   3, 1 << 30, 0, 16 KiB, "binomial", 0 },
    { XB_COLL_SCATTER,   ANY_P, 0, 0, "linear", 0 },
    /* every size: the same exchange as ring, sent from the user's send
     * buffer (see pair.c) and without a schedule */
    { XB_COLL_ALLGATHER, 2, 2, 0, 0, "cell", 0 },          /* blocking */
    { XB_COLL_ALLGATHER, 3, 1 << 30, 0, 0, "shm", 0 },       /* whole node, fits */
    { XB_COLL_ALLGATHER, 2, 1 << 30, 0, 0, "shm_nb", 0 },    /* the channel (shm_nb.c) */
    { XB_COLL_ALLGATHER, ANY_P, 0, 0, "hier", 0 },     /* blocking, several nodes */
    /* One node (see bcast), 8 ranks, 2026-11-24: -H 32 KiB 107 us, ring
     * 259 (Open MPI 180); nonblocking 1 MiB 5078, recdbl 7165, ring 7332
     * (5510). 2 ranks: the send leaves from the send buffer while the own
     * block is copied (ring sends it after the copy): 32 KiB 6.5, 11.2
     * (11.9). Small blocks too: 8 ranks, long batches, 64 B 15 us,
     * recdbl 20 (Open MPI 19); short runs made linear look worse, paying
     * the first touch of every pair's ring (docs/design/coll.md) */
    { XB_COLL_ALLGATHER, 2, 16, 0, 0, "linear", NEED_ONE_NODE },
    { XB_COLL_ALLGATHER, ANY_P, 0, 8 KiB, "recdbl", 0 },
    { XB_COLL_ALLGATHER, ANY_P, 0, 8 KiB, "bruck", 0 },
    /* 24 ranks on 2 CPUs, nonblocking, 2026-12-07, us: 32 KiB 3009, ring
     * 5551 (Open MPI 2004); 256 KiB 14882, 18576 (16828); below 8 KiB
     * recdbl wins (4 KiB 133 against 433) */
    { XB_COLL_ALLGATHER, 17, 1 << 30, 0, 0, "linear", ONE_NODE_FEW },
    { XB_COLL_ALLGATHER, ANY_P, 0, 0, "ring", 0 },
    { XB_COLL_ALLTOALL,  2, 2, 0, 0, "cell", 0 },          /* blocking */
    /* Blocks from 16 KiB: every transfer posted at once (linear). Through
     * the slots each byte is copied twice and every round is a barrier:
     * 4 ranks, 32 KiB: shm 80 us, pairwise 55, linear 36 (Open MPI 44);
     * 8 ranks, 256 KiB: shm_rounds 2369, linear 938 (Open MPI 970); at
     * 4 KiB shm still wins (4 ranks: 12.5 vs 12.8; 8: 47 vs 67-185)
     * (2026-11-24 09:50). Up to 16 ranks: a larger comm takes pairwise,
     * which floods no rank. */
    { XB_COLL_ALLTOALL,  3, 1 << 30, 0, 16 KiB, "shm", 0 },  /* whole node, fits */
    /* blocking at 3-4 ranks when the job runs with threads (shm above takes
     * them otherwise): linear (a blocking schedule, no request), not the
     * channel. -T, 5 interleaved rounds, 2026-11-29: 4 ranks 8 B 3.8 us against 4.9,
     * 4 KiB 5.6 against 8.7; at 8 ranks the channel wins (12.4 against
     * 13.5, 25.8 against 27.8) */
    { XB_COLL_ALLTOALL,  3, 4, 0, 0, "linear", NEED_BLOCKING | NEED_ONE_NODE },
    { XB_COLL_ALLTOALL,  2, 1 << 30, 0, 0, "shm_nb", 0 },    /* the channel (shm_nb.c) */
    { XB_COLL_ALLTOALL,  3, 16, 16 KiB, 0, "linear", 0 },
    /* Not at 2 ranks: quiet, shm_rounds beats pairwise (256 KiB blocks 22
     * vs 30 us, 1 MiB 70 vs 130; 2026-11-24), but with other processes on
     * the cores it lost 4x (each rank waits for its peer to fill its slot,
     * where the single copy of pairwise needs no CPU time of the peer). */
    /* One node (see bcast), 8 ranks, 2026-11-24: nonblocking 4 KiB 53.9
     * us, bruck 140, pairwise 71 (Open MPI 119); long batches, 64 B 13.6,
     * bruck 21, pairwise 36 (20). Beyond 16 ranks where they outnumber
     * the CPUs, linear too: pairwise waits for each partner in turn to be
     * scheduled. 2026-12-07, us, linear / pairwise (Open MPI): blocking 24
     * ranks 32 KiB 3924 / 4972 (2961), 32 ranks 5533 / 10793 (8282), 256
     * KiB 34070 / 42766 (41444), 48 ranks 32 KiB 12070 / 20329; nonblocking
     * 24 ranks 4 KiB 457 / 766 (919), 32 KiB 2315 / 3996 (3577) */
    { XB_COLL_ALLTOALL,  2, 1 << 30, 0, 0, "linear", ONE_NODE_FEW },
    { XB_COLL_ALLTOALL,  4, 1 << 30, 0, 256, "bruck", 0 },
    { XB_COLL_ALLTOALL,  ANY_P, 0, 0, "pairwise", 0 },
    /* 2 ranks, blocking: no schedule (8 B gatherv: 0.21 us by the
     * schedule, 0.15 by pair's message, Open MPI 0.13; 2026-11-29); the
     * stream's cell, ring up to 32 KiB or message, as at 3+ ranks. Against
     * the cell-or-message of pair_cell.c, 3 interleaved rounds, 2026-12-06:
     * 8-64 B even (0.12 us), 512 B 0.14-0.16 / 0.16, 4 KiB 0.44-0.47 / 0.65-
     * 0.67 (MPICH 0.49), 32 KiB 2.7-2.8 / 3.0-3.1; pair where the stream
     * cannot go (not blocking, MPI_THREAD_MULTIPLE, across hosts) */
    { XB_COLL_GATHERV,   2, 2, 0, 0, "stream", 0 },    /* blocking, whole node */
    { XB_COLL_GATHERV,   2, 2, 0, 0, "pair", 0 },
    /* stream (stream_gather.c): each block through its writer's cell,
     * ring or (beyond a slot) a message, as the writer's descriptor says.
     * Against linear, 3 interleaved rounds, 2026-11-29, median us: gatherv
     * 4 ranks 64 B 0.50 / 2.20, 32 KiB 4.3 / 17.0, 256 KiB 31 / 62; 8 ranks
     * 4 KiB 1.8 / 6.2, 32 KiB 10.4 / 41.2; scatterv 4 ranks 32 KiB 5.8 /
     * 15.4, 8 ranks 17.9 / 29.5, 8-512 B 0.56-0.96x (the root's v-form
     * checks cost as much as linear's eager sends) */
    { XB_COLL_GATHERV,   3, 1 << 30, 0, 0, "stream", 0 },  /* blocking, whole node */
    { XB_COLL_GATHERV,   ANY_P, 0, 0, "linear", 0 },
    { XB_COLL_SCATTERV,  2, 2, 0, 0, "cell", 0 },
    { XB_COLL_SCATTERV,  3, 1 << 30, 0, 0, "stream", 0 },  /* blocking, whole node */
    { XB_COLL_SCATTERV,  ANY_P, 0, 0, "linear", 0 },
    /* 2 ranks, blocking, the larger block fits a cell: the exchange of
     * allgather's cell (the channel took it before, as a request: 8 B
     * 0.73-0.89 us, Open MPI 0.36; 2026-12-06) */
    { XB_COLL_ALLGATHERV, 2, 2, 0, 0, "cell", 0 },
    { XB_COLL_ALLGATHERV, 3, 1 << 30, 0, 0, "shm", 0 },    /* whole node, the largest fits */
    { XB_COLL_ALLGATHERV, 2, 1 << 30, 0, 0, "shm_nb", 0 },  /* the channel */
    /* as allgather; 32 ranks on 2 CPUs, nonblocking, 2026-12-07, us: 8 B
     * 262, ring 565; 32 KiB 3823, 6713; 256 KiB 26126, 30925 */
    { XB_COLL_ALLGATHERV, 2, 1 << 30, 0, 0, "linear", ONE_NODE_FEW },
    { XB_COLL_ALLGATHERV, ANY_P, 0, 0, "ring", 0 },
    /* 2 ranks, blocking: one exchange, through the cells when the larger
     * direction fits one (as alltoall's cell); one node, as alltoall's
     * linear (see bcast) */
    { XB_COLL_ALLTOALLV, 2, 2, 0, 0, "cell", 0 },
    /* shm (alltoall_shm_v.c), blocking, whole node: blocks up to 16 KiB
     * through the slots, larger ones as messages posted before its node
     * barrier. Against linear, 3 interleaved rounds, 2026-11-29 (a loaded
     * machine), median us: 8 ranks 8 B 10.1 / 16.5, 512 B 17.3 / 21.4,
     * 4 KiB 49 / 53, 32 KiB 164 / 156; 3 ranks 8 B 2.4 / 3.0; 4 ranks
     * 8-512 B 1.0-1.37x; 4-32 KiB 0.91-0.95x at 3 and 4 ranks (its
     * barrier) */
    { XB_COLL_ALLTOALLV, 3, 1 << 30, 0, 0, "shm", 0 },
    /* 24 ranks on 2 CPUs, nonblocking, 2026-12-07, us: 8 B 145, pairwise
     * 540 (Open MPI 158); 32 KiB 3400, 3962 (3633); 32 ranks 4 KiB 1042,
     * 2068 */
    { XB_COLL_ALLTOALLV, 2, 1 << 30, 0, 0, "linear", ONE_NODE_FEW },
    { XB_COLL_ALLTOALLV, ANY_P, 0, 0, "pairwise", 0 },
    { XB_COLL_ALLTOALLW, 2, 2, 0, 0, "cell", 0 },
    { XB_COLL_ALLTOALLW, 3, 1 << 30, 0, 0, "shm", 0 },
    { XB_COLL_ALLTOALLW, 2, 1 << 30, 0, 0, "linear", ONE_NODE_FEW },  /* as alltoallv */
    { XB_COLL_ALLTOALLW, ANY_P, 0, 0, "pairwise", 0 },
    { XB_COLL_REDUCE_SCATTER, 2, 2, 0, 0, "cell", 0 },   /* blocking */
    /* whole node, fits: one scheduling round instead of log2(p) (8 ranks
     * on 2 cores, 8 B blocks: 86 us by halving; docs/PERFORMANCE.md) */
    { XB_COLL_REDUCE_SCATTER, 3, 1 << 30, 0, 0, "shm", 0 },
    /* one node (above): 8 ranks, nonblocking, 1 MiB blocks 9812 us,
     * halving 14163 (Open MPI 13217); 4 ranks, 32 KiB 53, 69 (82); 2 ranks,
     * 4 MiB 1240, 2693 (2823; MPICH 1809: halving loads a working copy) */
    { XB_COLL_REDUCE_SCATTER, 2, 1 << 30, 0, 0, "shm_nb", 0 },  /* the channel (shm_nb.c) */
    { XB_COLL_REDUCE_SCATTER, 2, 16, 0, 0, "pairwise", NEED_ONE_NODE },
    { XB_COLL_REDUCE_SCATTER, ANY_P, 0, 0, "halving", 0 },
    { XB_COLL_REDUCE_SCATTER, ANY_P, 0, 0, "pairwise", 0 },
    { XB_COLL_REDUCE_SCATTER_BLOCK, 2, 2, 0, 0, "cell", 0 },   /* blocking */
    { XB_COLL_REDUCE_SCATTER_BLOCK, 3, 1 << 30, 0, 0, "shm", 0 },
    { XB_COLL_REDUCE_SCATTER_BLOCK, 2, 1 << 30, 0, 0, "shm_nb", 0 },  /* the channel (shm_nb.c) */
    { XB_COLL_REDUCE_SCATTER_BLOCK, 2, 16, 0, 0, "pairwise", NEED_ONE_NODE },
    { XB_COLL_REDUCE_SCATTER_BLOCK, ANY_P, 0, 0, "halving", 0 },
    { XB_COLL_REDUCE_SCATTER_BLOCK, ANY_P, 0, 0, "pairwise", 0 },
    { XB_COLL_SCAN,      2, 2, 0, 0, "cell", 0 },          /* blocking */
    { XB_COLL_SCAN,     3, 1 << 30, 0, 0, "flow", 0 },       /* blocking, whole node, fits a cell */
    { XB_COLL_SCAN,      3, 1 << 30, 0, 0, "chain", 0 },     /* blocking, whole node */
    /* Where flow and chain do not go (beyond their 64 ranks, or blocking
     * under threads) and the ranks outnumber the CPUs beyond 16: the chain
     * by messages, not shm's node barriers. 24 ranks, nonblocking,
     * 2026-12-07, us: 8 B 8.2, recdbl 115 (Open MPI 57); 32 KiB 202, 801
     * (298); 256 KiB 1017, 5198 (1437); 70 ranks, blocking: 8 B 164, shm
     * 459, recdbl 1270 (271); 32 KiB 1505, 3950, 4281 (1983) */
    { XB_COLL_SCAN,      17, 1 << 30, 0, 0, "linear", ONE_NODE_FEW },
    { XB_COLL_SCAN,      3, 1 << 30, 0, 0, "shm", 0 },       /* whole node, fits a slot */
    /* One node (see bcast), 8 ranks, 2026-11-24: 8 B 2.0 us, recdbl 25.2
     * (Open MPI 13.6); 1 MiB 2563, 4623 (1689). At 2 ranks one message,
     * rank 0 to 1, where recdbl sends both ways: nonblocking 1 MiB 145 us,
     * recdbl 333 (614) */
    { XB_COLL_SCAN,      2, 16, 0, 0, "linear", NEED_ONE_NODE },
    { XB_COLL_SCAN,      ANY_P, 0, 0, "recdbl", 0 },
    { XB_COLL_EXSCAN,    2, 2, 0, 0, "cell", 0 },          /* blocking */
    { XB_COLL_EXSCAN,   3, 1 << 30, 0, 0, "flow", 0 },       /* blocking, whole node, fits a cell */
    { XB_COLL_EXSCAN,    3, 1 << 30, 0, 0, "chain", 0 },     /* blocking, whole node */
    { XB_COLL_EXSCAN,    17, 1 << 30, 0, 0, "linear", ONE_NODE_FEW },  /* as scan */
    { XB_COLL_EXSCAN,    3, 1 << 30, 0, 0, "shm", 0 },       /* whole node, fits */
    { XB_COLL_EXSCAN,    2, 16, 0, 0, "linear", NEED_ONE_NODE },     /* as scan */
    { XB_COLL_EXSCAN,    ANY_P, 0, 0, "recdbl", 0 },
    { XB_COLL_NEIGHBOR_ALLGATHER,  ANY_P, 0, 0, "linear", 0 },
    { XB_COLL_NEIGHBOR_ALLGATHERV, ANY_P, 0, 0, "linear", 0 },
    { XB_COLL_NEIGHBOR_ALLTOALL,   ANY_P, 0, 0, "linear", 0 },
    { XB_COLL_NEIGHBOR_ALLTOALLV,  ANY_P, 0, 0, "linear", 0 },
    { XB_COLL_NEIGHBOR_ALLTOALLW,  ANY_P, 0, 0, "linear", 0 },
};
#undef KiB
#undef ONE_NODE_FEW

static const algo_t *forced[XB_COLL_NKINDS];
/* Resolved at init: each rule's algorithm, and where each collective's
 * rules start (they are grouped by collective). Selection runs on every
 * call; name lookups there were 10% of a 2-rank 8-byte MPI_Allreduce. */
static const algo_t *rule_algo[XB_ARRAY_LEN(rules)];
static int rule_first[XB_COLL_NKINDS];
/* Per collective, the direct algorithm of its first two-rank rule when that
 * rule has no lower byte bound and the algorithm needs nothing but two
 * ranks, the blocking form and perhaps the stream (gatherv's; checked on
 * the call), and the rule's upper bound (pair_max, 0:
 * none): such calls skip the rule walk (at two ranks the selection was a
 * fifth of an 8-byte MPI_Scatter at the root: about 200 of 978
 * instructions, callgrind, 2026-11-24). */
static const algo_t *pair_any[XB_COLL_NKINDS];
static MPI_Count pair_max[XB_COLL_NKINDS];
/* The same from three ranks: the direct algorithm of the collective's
 * first rule that holds at some p >= 3, when that rule holds for every
 * larger p (no upper bound), at every size and with no condition of its
 * own, and the algorithm needs nothing but the blocking form, the flow
 * cells or the stream (checked on the call); node_min_p: from how many
 * ranks. A call whose algorithm fits skips the rule walk (a third of the
 * 4-rank 8-byte MPI_Gather root's selection: about 130 instructions,
 * callgrind, 2026-12-06); one that does not fit walks the rules. */
static const algo_t *node_any[XB_COLL_NKINDS];
static int node_min_p[XB_COLL_NKINDS];

static const algo_t *find_algo(xb_coll_kind_t kind, const char *name, size_t len)
{
    for (size_t i = 0; i < XB_ARRAY_LEN(algos); i++)
        if (algos[i].kind == kind && strlen(algos[i].name) == len &&
            strncmp(algos[i].name, name, len) == 0)
            return &algos[i];
    return NULL;
}

/* The needs whose algorithms run on the whole node's shared memory: each
 * fit function checks xb_coll_node_complete among its conditions; asked
 * first, it spares a part of the node (a split half, the ranks of an
 * Intel MPI Benchmarks run smaller than the job) the others' work. */
enum { NEED_WHOLE_NODE = NEED_NODE | NEED_ROUNDS | NEED_FLOW | NEED_STREAM | NEED_CHAIN };

/* The node's CPUs (NEED_FEW_OR_CROWDED; runtime/cpus.h: online, capped by the
 * cgroup's quota): the same number for every process of a node in one
 * cgroup, whatever its binding, so the members of a one-node communicator
 * agree without talking. */
static int node_cpus;

/* The conditions of needs hold for this call of kind. */
static bool needs_hold(int needs, xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    int p = a->comm->size;
    if ((needs & NEED_WHOLE_NODE) && !xb_coll_node_complete(a->comm))
        return false;
    if ((needs & NEED_COMMUTE) && a->op != NULL && !a->op->commute)
        return false;
    if ((needs & NEED_POF2) && (p & (p - 1)) != 0)
        return false;
    if ((needs & NEED_BLOCKING) && a->form != XB_COLL_BLOCKING)
        return false;
    if ((needs & NEED_NODE) && !xb_coll_node_fits(kind, a))
        return false;
    if ((needs & NEED_HIER) && !xb_coll_hier_fits(kind, a))
        return false;
    if ((needs & NEED_PAIR) && (p != 2 || xb_comm_is_inter(a->comm)))
        return false;
    if ((needs & NEED_ROUNDS) && !xb_coll_node_rounds_fit(kind, a))
        return false;
    if ((needs & NEED_FLOW) && !xb_coll_flow_fits(kind, a))
        return false;
    if ((needs & NEED_STREAM) && !xb_coll_stream_fits(kind, a))
        return false;
    if ((needs & NEED_CHAIN) && !xb_coll_chain_fits(kind, a))
        return false;
    if ((needs & NEED_ONE_NODE) && !xb_coll_one_node(a->comm))
        return false;
    if ((needs & NEED_MCAST) && !xb_coll_mcast)
        return false;
    if ((needs & NEED_3_NODES) && xb_coll_comm_nodes(a->comm) < 3)
        return false;
    if ((needs & NEED_NBN) && !xb_coll_nbn_fits(kind, a))
        return false;
    if ((needs & NEED_FEW_OR_CROWDED) && p > 16 && (node_cpus <= 0 || p <= node_cpus))
        return false;
    return true;
}

static bool fits(const algo_t *al, const xb_coll_args_t *a)
{
    return needs_hold(al->needs, al->kind, a);
}

MPI_Count xb_coll_block_bytes(xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    if (kind >= XB_COLL_NEIGHBOR_ALLGATHER)
        return 0;
    if (kind == XB_COLL_BARRIER || kind >= XB_COLL_GATHERV)
        return kind >= XB_COLL_REDUCE_SCATTER_BLOCK && a->rdt != NULL
             ? a->rcount * xb_dt_size(a->rdt) : 0;
    /* the send side counts, except where it is not significant: the
     * reductions (one buffer), a root's MPI_IN_PLACE, a scatter's leaves */
    bool leaf = kind == XB_COLL_SCATTER && a->comm->rank != a->root;
    if (a->sdt != NULL && a->sbuf != MPI_IN_PLACE && kind != XB_COLL_REDUCE &&
        kind != XB_COLL_ALLREDUCE && !leaf)
        return a->scount * xb_dt_size(a->sdt);
    return a->rdt != NULL ? a->rcount * xb_dt_size(a->rdt) : 0;
}

/* The algorithm for this call; a direct one only when direct_ok. */
static const algo_t *select_algo(xb_coll_kind_t kind, const xb_coll_args_t *a,
                                 bool direct_ok)
{
    const algo_t *f = forced[kind];
    if (f != NULL && (direct_ok || f->fn != NULL) && fits(f, a))
        return f;
    int p = a->comm->size;
    MPI_Count bytes = xb_coll_block_bytes(kind, a);
    bool whole = xb_coll_node_complete(a->comm);
    for (size_t i = (size_t)rule_first[kind];
         i < XB_ARRAY_LEN(rules) && rules[i].kind == kind; i++) {
        const rule_t *ru = &rules[i];
        const algo_t *al = rule_algo[i];
        if (p < ru->min_p || p > ru->max_p || bytes < ru->min_bytes ||
            (ru->max_bytes > 0 && bytes >= ru->max_bytes) || al == NULL ||
            (!whole && ((ru->needs | al->needs) & NEED_WHOLE_NODE)) ||
            (ru->needs != 0 && !needs_hold(ru->needs, kind, a)))
            continue;
        if ((direct_ok || al->fn != NULL) && (al->needs == 0 || fits(al, a)))
            return al;
    }
    return NULL;   /* not reached: every kind has a catch-all rule */
}

xb_coll_fn_t xb_coll_select(xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    const algo_t *al = select_algo(kind, a, false);
    return al != NULL ? al->fn : NULL;
}

/* The first rule of kind that holds at two ranks, when it serves the
 * smallest sizes with a direct algorithm that needs only two ranks, the
 * blocking form and perhaps the stream (checked per call; NULL
 * otherwise); its upper byte bound goes to pair_max. */
static const algo_t *pair_rule(int kind)
{
    for (size_t i = (size_t)rule_first[kind];
         i < XB_ARRAY_LEN(rules) && rules[i].kind == (xb_coll_kind_t)kind; i++) {
        const rule_t *ru = &rules[i];
        if (ru->min_p > 2 || ru->max_p < 2)
            continue;
        const algo_t *al = rule_algo[i];
        pair_max[kind] = ru->max_bytes;
        return ru->min_bytes == 0 && ru->needs == 0 && al->direct != NULL &&
               (al->needs & ~(NEED_PAIR | NEED_BLOCKING | NEED_STREAM)) == 0 ? al : NULL;
    }
    return NULL;
}

/* node_any's rule of kind (see there), or NULL. */
static const algo_t *node_rule(int kind)
{
    for (size_t i = (size_t)rule_first[kind];
         i < XB_ARRAY_LEN(rules) && rules[i].kind == (xb_coll_kind_t)kind; i++) {
        const rule_t *ru = &rules[i];
        if (ru->max_p < 3)
            continue;
        const algo_t *al = rule_algo[i];
        node_min_p[kind] = ru->min_p < 3 ? 3 : ru->min_p;
        return ru->max_p == 1 << 30 && ru->min_bytes == 0 && ru->max_bytes == 0 &&
               ru->needs == 0 && al->direct != NULL &&
               (al->needs & ~(NEED_BLOCKING | NEED_FLOW | NEED_STREAM)) == 0 ? al : NULL;
    }
    return NULL;
}

/* Resolve the rule table once (rule_algo, rule_first, pair_any, node_any). */
static int resolve_rules(void)
{
    for (int k = 0; k < XB_COLL_NKINDS; k++)
        rule_first[k] = (int)XB_ARRAY_LEN(rules);
    for (size_t i = 0; i < XB_ARRAY_LEN(rules); i++) {
        const rule_t *ru = &rules[i];
        rule_algo[i] = find_algo(ru->kind, ru->algo, strlen(ru->algo));
        if (rule_algo[i] == NULL)
            return xb_err_set(XB_ERR_INTERN, "collective rule %zu names no "
                              "algorithm '%s'", i, ru->algo);
        if (rule_first[ru->kind] == (int)XB_ARRAY_LEN(rules))
            rule_first[ru->kind] = (int)i;
        else if (rules[i - 1].kind != ru->kind)
            return xb_err_set(XB_ERR_INTERN, "the rules of %s are not grouped "
                              "together", kind_names[ru->kind]);
    }
    for (int k = 0; k < XB_COLL_NKINDS; k++) {
        pair_any[k] = pair_rule(k);
        node_any[k] = node_rule(k);
    }
    return XB_OK;
}

static int force_one(const char *s, size_t len)
{
    const char *eq = memchr(s, '=', len);
    int k = -1;
    for (int i = 0; eq != NULL && i < XB_COLL_NKINDS; i++)
        if (strlen(kind_names[i]) == (size_t)(eq - s) &&
            strncmp(kind_names[i], s, (size_t)(eq - s)) == 0)
            k = i;
    const algo_t *al = k < 0 ? NULL
                     : find_algo((xb_coll_kind_t)k, eq + 1, len - (size_t)(eq - s) - 1);
    if (al == NULL)
        return xb_err_set(XB_ERR_ARG, "collective algorithm '%.*s' names no "
                          "known collective=algorithm pair (crossbar-info "
                          "lists them)", (int)len, s);
    forced[k] = al;
    return XB_OK;
}

/* "bcast=linear,allreduce=reduce_bcast" */
static int parse_force(const char *s)
{
    while (s != NULL && *s != '\0') {
        const char *end = strchr(s, ',');
        size_t len = end != NULL ? (size_t)(end - s) : strlen(s);
        int rc = force_one(s, len);
        if (rc != XB_OK)
            return rc;
        s = end != NULL ? end + 1 : NULL;
    }
    return XB_OK;
}

/* XB_COLL_BCAST=linear ... (after XB_COLL_ALGO: the specific one wins) */
static int parse_per_kind(void)
{
    for (int k = 0; k < XB_COLL_NKINDS; k++) {
        char tn[48], pair[160];
        snprintf(tn, sizeof tn, "COLL_%s", kind_names[k]);
        for (char *c = tn; *c; c++)
            *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
        const xb_tunable_t *t = xb_tunable_find(tn);
        if (t == NULL || t->v.s == NULL || t->v.s[0] == '\0')
            continue;
        snprintf(pair, sizeof pair, "%s=%s", kind_names[k], t->v.s);
        int rc = force_one(pair, strlen(pair));
        if (rc != XB_OK)
            return rc;
    }
    return XB_OK;
}

int xb_coll_init(void)
{
    memset(forced, 0, sizeof(forced));
    node_cpus = xb_cpus_node();
    int rc = resolve_rules();
    if (rc == XB_OK)
        rc = parse_force(xb_tn_COLL_ALGO.v.s);
    if (rc == XB_OK)
        rc = parse_per_kind();
    if (rc == XB_OK)
        rc = xb_coll_nb_init();
    if (rc == XB_OK) {
        xb_coll_node_slot_forget();
        xb_coll_flow_init();
        xb_coll_stream_init();
        xb_coll_chain_init();
        xb_coll_nbn_init();
    }
    return rc;
}

/* The hook of the forcing tunables (tunable.h): a write through MPI_T
 * takes effect at the next collective. Every rank must write the same value
 * (MPI_T scope ALL_EQ). A name that is no algorithm fails the write. */
static int xb_coll_force_changed(xb_tunable_t *t)
{
    (void)t;
    memset(forced, 0, sizeof(forced));
    int rc = parse_force(xb_tn_COLL_ALGO.v.s);
    if (rc == XB_OK)
        rc = parse_per_kind();
    return rc;
}

void xb_coll_fini(void)
{
    memset(forced, 0, sizeof(forced));
    xb_coll_node_slot_forget();
    xb_coll_flow_fini();
    xb_coll_hier_fini();
    xb_coll_sched_cache_fini();
    xb_coll_mcast = false;
    xb_mcast_stats.active = 0;
    xb_mcast_close();
}

void xb_coll_print_table(FILE *f)
{
    fprintf(f, "Collective algorithms (first matching rule wins; force one "
               "with XB_COLL_<COLLECTIVE>=name or XB_COLL_ALGO=coll=name):\n");
    fprintf(f, "  %-21s %-11s %-12s %-14s %s\n", "collective", "comm size",
            "block bytes", "algorithm", "needs");
    for (size_t i = 0; i < XB_ARRAY_LEN(rules); i++) {
        const rule_t *ru = &rules[i];
        const algo_t *al = find_algo(ru->kind, ru->algo, strlen(ru->algo));
        char sz[32], by[48];
        if (ru->max_p >= 1 << 30)
            snprintf(sz, sizeof sz, ">= %d", ru->min_p);
        else
            snprintf(sz, sizeof sz, "%d..%d", ru->min_p, ru->max_p);
        if (ru->max_bytes > 0 && ru->min_bytes > 0)
            snprintf(by, sizeof by, "%lld..<%lld", (long long)ru->min_bytes,
                     (long long)ru->max_bytes);
        else if (ru->max_bytes > 0)
            snprintf(by, sizeof by, "< %lld", (long long)ru->max_bytes);
        else if (ru->min_bytes > 0)
            snprintf(by, sizeof by, ">= %lld", (long long)ru->min_bytes);
        else
            snprintf(by, sizeof by, "any");
        int needs = (al != NULL ? al->needs : 0) | ru->needs;
        fprintf(f, "  %-21s %-11s %-12s %-14s %s%s%s%s%s%s%s\n", kind_names[ru->kind], sz,
                by, ru->algo, needs & NEED_COMMUTE ? "commutative op " : "",
                needs & NEED_POF2 ? "power-of-two size " : "",
                needs & NEED_ONE_NODE ? "one node " : "",
                needs & NEED_FEW_OR_CROWDED ? "<= 16 ranks or more than CPUs " : "",
                needs & NEED_MCAST ? "XB_MCAST=1 " : "", needs & NEED_3_NODES ? ">= 3 nodes " : "",
                needs & NEED_BLOCKING ? "blocking form" : "");
    }
    fprintf(f, "  all algorithms:");
    for (size_t i = 0; i < XB_ARRAY_LEN(algos); i++)
        fprintf(f, "%s %s=%s", i % 4 == 0 ? "\n   " : "",
                kind_names[algos[i].kind], algos[i].name);
    fprintf(f, "\n  intercommunicators: one algorithm per collective, not "
               "tunable (leaders' exchange plus local phases, or direct "
               "exchange; scan and exscan are not defined there)\n");
    memset(forced, 0, sizeof(forced));
    if (parse_force(xb_tn_COLL_ALGO.v.s) != XB_OK || parse_per_kind() != XB_OK)
        fprintf(f, "  error: %s\n", xb_err_detail());
    for (int k = 0; k < XB_COLL_NKINDS; k++)
        if (forced[k] != NULL)
            fprintf(f, "  forced: %s=%s\n", kind_names[k], forced[k]->name);
}

/* ---- running one collective ----------------------------------------------- */
int xb_coll_run_sched(xb_coll_kind_t kind, xb_coll_fn_t build, const xb_coll_args_t *a,
                      int tag)
{
    xb_coll_sched_t s;
    if (tag < 0)
        xb_coll_sched_init(&s, a->comm, kind);
    else
        xb_coll_sched_init_tag(&s, a->comm, kind, tag);
    if (kind == XB_COLL_BCAST && !xb_comm_is_inter(a->comm))
        xb_coll_sched_expect(&s, a->root, a->rcount, a->rdt);
    int rc = build(&s, a);
    if (rc == XB_OK)
        rc = xb_coll_sched_run(&s);
    xb_coll_sched_destroy(&s);
    return rc;
}

int xb_coll_run(xb_coll_kind_t kind, const xb_coll_args_t *args, int form,
                const char *fn, MPI_Request *req)
{
    xb_comm_t *c = args->comm;
    int rc = xb_coll_check_alias(kind, args);
    if (rc != XB_OK)
        return rc;
    const algo_t *pa = pair_any[kind];
    if (form == XB_COLL_BLOCKING && c->size == 2 && pa != NULL && forced[kind] == NULL &&
        !xb_comm_is_inter(c) &&
        (pair_max[kind] == 0 || xb_coll_block_bytes(kind, args) < pair_max[kind]) &&
        (!(pa->needs & NEED_STREAM) || xb_coll_stream_fits(kind, args)))  /* args: blocking */
        return pa->direct(args, xb_coll_seq_tag(c, kind, false));
    const algo_t *na = node_any[kind];
    if (form == XB_COLL_BLOCKING && na != NULL && c->size >= node_min_p[kind] &&
        forced[kind] == NULL && !xb_comm_is_inter(c) && fits(na, args))
        return na->direct(args, xb_coll_seq_tag(c, kind, false));
    xb_coll_args_t aa = *args;
    const xb_coll_args_t *a = &aa;
    aa.form = form;
    const algo_t *al = xb_comm_is_inter(a->comm) ? NULL
                     : select_algo(kind, a, form == XB_COLL_BLOCKING);
    if (al != NULL && al->direct != NULL && form == XB_COLL_BLOCKING)
        return al->direct(a, xb_coll_seq_tag(a->comm, kind, false));
    xb_coll_fn_t build = xb_comm_is_inter(a->comm) ? xb_coll_inter_builder(kind)
                       : al != NULL ? al->fn : NULL;
    if (build == NULL)
        return xb_err_set(XB_ERR_COMM, "the standard defines no %s on an "
                          "intercommunicator (communicator %s)",
                          kind_names[kind], a->comm->name);
    if (xb_comm_is_inter(a->comm) && a->comm->local_comm == NULL)
        return xb_err_set(XB_ERR_INTERN, "intercommunicator %s has no local "
                          "communicator for the local phases of %s",
                          a->comm->name, kind_names[kind]);
    /* the channels move only in the progress hook: blocking calls there
     * run as a request (xb_coll_sched_post_wait) */
    bool as_req = form == XB_COLL_BLOCKING && al != NULL && (al->needs & NEED_NBN);
    if (form == XB_COLL_BLOCKING && !as_req)
        return xb_coll_run_sched(kind, build, a, -1);
    xb_coll_sched_t *s = malloc(sizeof(*s));
    if (s == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for a collective "
                          "schedule");
    xb_coll_sched_init_form(s, a->comm, kind, !as_req);
    s->heap = true;
    s->fn = fn;
    if (kind == XB_COLL_BCAST && !xb_comm_is_inter(a->comm))
        xb_coll_sched_expect(s, a->root, a->rcount, a->rdt);
    rc = build(s, a);
    if (rc != XB_OK) {
        xb_coll_sched_destroy(s);
        return rc;
    }
    if (as_req)
        return xb_coll_sched_post_wait(s);
    return xb_coll_sched_post(s, form == XB_COLL_PERSISTENT, req);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* Nonblocking dups issued from several threads at once, overlapped with
 * other nonblocking collectives on the same communicators. T threads per
 * rank, each with its own parent and its own neighbour communicator (both
 * idup'ed from one base). Each thread idups its parent NA times, starts an
 * Iallreduce on it, waits for the first child, idups that child NB times,
 * starts an Iallreduce and an Ibarrier on the child, an Ibcast on the
 * parent and an Iallreduce on the neighbour, and waits for all. One thread
 * per rank starts late, a different one on each rank, so the agreements
 * of the three parents run in different orders on different ranks. The
 * bases are MPI_COMM_WORLD, a split of it in reversed order and an
 * intercommunicator between its halves.
 *
 * Run with XB_COMM_IDUP_SPREAD=no (all parents reserve in one region) and
 * "arg=fill" (rank 0 holds communicators of one on all but a few free
 * slots), the agreements of different parents compete for the same slots
 * until their last round, where they take turns (src/comm/comm_idup.c).
 * An agreement that waited there, on one rank, for one with a lower key
 * stalled its round on every rank, while on another rank that round held
 * the slots the lower one needed: the job hung.
 *
 * Every new communicator is then checked: same group as its parent, and
 * an Allreduce on it from every thread at once (ids shared by mistake show
 * as wrong sums or a hang). */
#include <unistd.h>
#include "mt_util.h"

#define T 3
#define NA 3
#define NB 3
#define ITER 3
/* communicators of one rank 0 keeps under "fill": all but about 24 slots */
#define FILL 16330

static MPI_Comm parent[T], nbr[T];
static int is_inter;

static void check_new(MPI_Comm c, MPI_Comm from, int t, const char *what)
{
    int cmp = -1, n, r, sum = -1, want;
    MT_RC(MPI_Comm_compare(c, from, &cmp));
    MT_CHECK(cmp == MPI_CONGRUENT, "thread %d: %s compares %d to its parent", t,
             what, cmp);
    MPI_Comm_rank(c, &r);
    if (is_inter) {
        MPI_Comm_remote_size(c, &n);
        want = n * (n - 1) / 2;
    } else {
        MPI_Comm_size(c, &n);
        want = n * (n - 1) / 2;
    }
    MT_RC(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, c));
    MT_CHECK(sum == want, "thread %d: allreduce on %s gave %d, want %d", t, what,
             sum, want);
}

/* The expected sum of the ranks of an Iallreduce on c. */
static int rank_sum(MPI_Comm c)
{
    int n;
    if (is_inter)
        MPI_Comm_remote_size(c, &n);
    else
        MPI_Comm_size(c, &n);
    return n * (n - 1) / 2;
}

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    MPI_Comm p = parent[t], kids[NA + NB];
    MPI_Request req[NA + NB + 8];
    int n = 0, rank, got[4], want[4];
    int left = mt_rank < mt_size / 2;   /* the Ibcast root's side (inter) */

    MPI_Comm_rank(p, &rank);
    if (mt_rank % T == t)
        usleep(2000 * (mt_rank + 1));   /* a different late thread per rank */
    for (int j = 0; j < NA; j++)
        MT_RC(MPI_Comm_idup(p, &kids[j], &req[n++]));
    MT_RC(MPI_Iallreduce(&rank, &got[0], 1, MPI_INT, MPI_SUM, p, &req[n++]));
    want[0] = rank_sum(p);
    MT_RC(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    for (int j = 0; j < NB; j++)
        MT_RC(MPI_Comm_idup(kids[0], &kids[NA + j], &req[n++]));
    int krank;
    MPI_Comm_rank(kids[0], &krank);
    MT_RC(MPI_Iallreduce(&krank, &got[1], 1, MPI_INT, MPI_SUM, kids[0], &req[n++]));
    want[1] = rank_sum(kids[0]);
    MT_RC(MPI_Ibarrier(kids[0], &req[n++]));
    int root;
    if (is_inter)
        root = left ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    else
        root = 0;
    got[2] = (is_inter ? left : rank == 0) ? 199 : 111;
    want[2] = 199;
    MT_RC(MPI_Ibcast(&got[2], 1, MPI_INT, root, p, &req[n++]));
    int nrank;
    MPI_Comm_rank(nbr[t], &nrank);
    MT_RC(MPI_Iallreduce(&nrank, &got[3], 1, MPI_INT, MPI_SUM, nbr[t], &req[n++]));
    want[3] = rank_sum(nbr[t]);
    MT_RC(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
    for (int k = 0; k < 4; k++)
        MT_CHECK(got[k] == want[k], "thread %d: result %d is %d, want %d", t, k,
                 got[k], want[k]);
    for (int j = 0; j < NA + NB; j++)
        check_new(kids[j], j < NA ? p : kids[0], t, j < NA ? "child" : "grandchild");
    for (int j = NA + NB - 1; j >= 0; j--)
        MT_RC(MPI_Comm_free(&kids[j]));
    return NULL;
}

/* The base communicator of kind k (0: world, 1: world reversed, 2: an
 * intercommunicator between the halves of world), or MPI_COMM_NULL. */
static MPI_Comm make_base(int k)
{
    MPI_Comm b = MPI_COMM_NULL;
    is_inter = 0;
    if (k == 0) {
        MPI_Comm_dup(MPI_COMM_WORLD, &b);
    } else if (k == 1) {
        MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size - mt_rank, &b);
    } else if (mt_size >= 2) {
        int low = mt_rank < mt_size / 2;
        MPI_Comm half;
        MPI_Comm_split(MPI_COMM_WORLD, low, mt_rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? mt_size / 2 : 0, 7, &b);
        MPI_Comm_free(&half);
        is_inter = 1;
    }
    return b;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int fill = argc > 1 && strcmp(argv[1], "fill") == 0;
    static MPI_Comm ones[FILL];
    int nones = 0;
    if (fill && mt_rank == 0)
        for (; nones < FILL; nones++)
            if (MPI_Comm_dup(MPI_COMM_SELF, &ones[nones]) != MPI_SUCCESS)
                break;
    for (int k = 0; k < 3; k++) {
        for (int it = 0; it < ITER; it++) {
            MPI_Comm base = make_base(k);
            if (base == MPI_COMM_NULL)
                continue;
            MPI_Request r[2 * T];
            for (int t = 0; t < T; t++) {
                MT_RC(MPI_Comm_idup(base, &parent[t], &r[2 * t]));
                MT_RC(MPI_Comm_idup(base, &nbr[t], &r[2 * t + 1]));
            }
            MT_RC(MPI_Waitall(2 * T, r, MPI_STATUSES_IGNORE));
            mt_run(T, worker);
            for (int t = 0; t < T; t++) {
                MT_RC(MPI_Comm_free(&parent[t]));
                MT_RC(MPI_Comm_free(&nbr[t]));
            }
            MPI_Comm_free(&base);
        }
    }
    while (nones > 0)
        MPI_Comm_free(&ones[--nones]);
    return mt_finish();
}

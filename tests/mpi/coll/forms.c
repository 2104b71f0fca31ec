/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * forms.c - MPI_Barrier, Bcast, Reduce, Allreduce, Gather, Scatter,
 * Allgather and Alltoall in their blocking, nonblocking (I-) and
 * persistent (_init) forms, at counts 0, 1, 1000 and 100000 (ints, and a
 * strided derived type for the data movers), every root, with and without
 * MPI_IN_PLACE, on MPI_COMM_WORLD and on a communicator with the ranks in
 * reverse order. Results are checked element by element.
 */
#include "ctest_forms.h"

static MPI_Comm comm;
static int me, p;
static MPI_Datatype every2;           /* an int every two ints */

#define V(src, k) ((src) * 1000003 + (k))

/* The barrier separates: rank k % p sends to every other rank only after
 * its barrier completed; the others check with MPI_Iprobe, before they
 * start theirs, that no such message is there yet. */
static void t_barrier(int form)
{
    for (int k = 0; k < 2 * p; k++) {
        int sender = k % p, flag = 0;
        if (me != sender) {
            MPI_Iprobe(sender, 100 + k, comm, &flag, MPI_STATUS_IGNORE);
            CHECK(!flag, "barrier %s round %d: message before the barrier",
                  ct_form_names[form], k);
        }
        CHECK_RC(FORM(form, MPI_Barrier(comm), MPI_Ibarrier(comm, &req_),
                      MPI_Barrier_init(comm, MPI_INFO_NULL, &req_)));
        if (me == sender) {
            for (int r = 0; r < p; r++)
                if (r != sender)
                    MPI_Send(&k, 1, MPI_INT, r, 100 + k, comm);
        } else {
            int got = -1;
            MPI_Recv(&got, 1, MPI_INT, sender, 100 + k, comm, MPI_STATUS_IGNORE);
            CHECK(got == k, "barrier round %d: got %d", k, got);
        }
    }
}

static void t_bcast(int form, int n, int root, MPI_Datatype dt, int stride)
{
    int *buf = ct_malloc(sizeof(int) * (size_t)(n * stride + 1));
    for (int k = 0; k < n * stride; k++)
        buf[k] = me == root ? V(root, k) : -1;
    CHECK_RC(FORM(form, MPI_Bcast(buf, n, dt, root, comm),
                  MPI_Ibcast(buf, n, dt, root, comm, &req_),
                  MPI_Bcast_init(buf, n, dt, root, comm, MPI_INFO_NULL, &req_)));
    for (int k = 0; k < n * stride; k++) {
        int want = (k % stride == 0 || me == root) ? V(root, k) : -1;
        if (buf[k] != want) {
            CHECK(0, "bcast %s n=%d root %d: [%d] = %d, want %d", ct_form_names[form],
                  n, root, k, buf[k], want);
            break;
        }
    }
    free(buf);
}

static void t_reduce(int form, int n, int root, int inplace, int all)
{
    int *sb = ct_malloc(sizeof(int) * (size_t)(n + 1));
    int *rb = ct_malloc(sizeof(int) * (size_t)(n + 1));
    for (int k = 0; k < n; k++) {
        sb[k] = V(me, k) % 1000;
        rb[k] = inplace ? sb[k] : -1;
    }
    const void *s = inplace && (all || me == root) ? MPI_IN_PLACE : sb;
    int starts = ct_starts;
    if (inplace)
        ct_starts = 1;               /* same number of starts on all ranks */
    if (all)
        CHECK_RC(FORM(form, MPI_Allreduce(s, rb, n, MPI_INT, MPI_SUM, comm),
                      MPI_Iallreduce(s, rb, n, MPI_INT, MPI_SUM, comm, &req_),
                      MPI_Allreduce_init(s, rb, n, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req_)));
    else
        CHECK_RC(FORM(form, MPI_Reduce(s, rb, n, MPI_INT, MPI_SUM, root, comm),
                      MPI_Ireduce(s, rb, n, MPI_INT, MPI_SUM, root, comm, &req_),
                      MPI_Reduce_init(s, rb, n, MPI_INT, MPI_SUM, root, comm, MPI_INFO_NULL, &req_)));
    ct_starts = starts;
    if (all || me == root)
        for (int k = 0; k < n; k++) {
            int want = 0;
            for (int r = 0; r < p; r++)
                want += V(r, k) % 1000;
            if (rb[k] != want) {
                CHECK(0, "%sreduce %s n=%d root %d%s: [%d] = %d, want %d", all ? "all" : "",
                      ct_form_names[form], n, root, inplace ? " in place" : "", k, rb[k], want);
                break;
            }
        }
    free(sb);
    free(rb);
}

static void t_gather(int form, int n, int root, int inplace, int all)
{
    int *sb = ct_malloc(sizeof(int) * (size_t)(n + 1));
    int *rb = ct_malloc(sizeof(int) * (size_t)(n * p + 1));
    for (int k = 0; k < n; k++)
        sb[k] = V(me, k);
    for (int k = 0; k < n * p; k++)
        rb[k] = -1;
    if (inplace)
        for (int k = 0; k < n; k++)
            rb[me * n + k] = V(me, k);
    const void *s = inplace && (all || me == root) ? MPI_IN_PLACE : sb;
    if (all)
        CHECK_RC(FORM(form, MPI_Allgather(s, n, MPI_INT, rb, n, MPI_INT, comm),
                      MPI_Iallgather(s, n, MPI_INT, rb, n, MPI_INT, comm, &req_),
                      MPI_Allgather_init(s, n, MPI_INT, rb, n, MPI_INT, comm, MPI_INFO_NULL, &req_)));
    else
        CHECK_RC(FORM(form, MPI_Gather(s, n, MPI_INT, rb, n, MPI_INT, root, comm),
                      MPI_Igather(s, n, MPI_INT, rb, n, MPI_INT, root, comm, &req_),
                      MPI_Gather_init(s, n, MPI_INT, rb, n, MPI_INT, root, comm, MPI_INFO_NULL, &req_)));
    if (all || me == root)
        for (int k = 0; k < n * p; k++)
            if (rb[k] != V(k / n, k % n)) {
                CHECK(0, "%sgather %s n=%d root %d%s: [%d] = %d", all ? "all" : "",
                      ct_form_names[form], n, root, inplace ? " in place" : "", k, rb[k]);
                break;
            }
    free(sb);
    free(rb);
}

static void t_scatter(int form, int n, int root, int inplace)
{
    int *sb = ct_malloc(sizeof(int) * (size_t)(n * p + 1));
    int *rb = ct_malloc(sizeof(int) * (size_t)(n + 1));
    for (int k = 0; k < n * p; k++)
        sb[k] = V(root, k);
    for (int k = 0; k < n; k++)
        rb[k] = -1;
    void *r = inplace && me == root ? MPI_IN_PLACE : rb;
    CHECK_RC(FORM(form, MPI_Scatter(sb, n, MPI_INT, r, n, MPI_INT, root, comm),
                  MPI_Iscatter(sb, n, MPI_INT, r, n, MPI_INT, root, comm, &req_),
                  MPI_Scatter_init(sb, n, MPI_INT, r, n, MPI_INT, root, comm, MPI_INFO_NULL, &req_)));
    if (r != MPI_IN_PLACE)
        for (int k = 0; k < n; k++)
            if (rb[k] != V(root, me * n + k)) {
                CHECK(0, "scatter %s n=%d root %d: [%d] = %d", ct_form_names[form], n,
                      root, k, rb[k]);
                break;
            }
    free(sb);
    free(rb);
}

/* Alltoall; the send side uses the strided type when `strided`. */
static void t_alltoall(int form, int n, int inplace, int strided)
{
    int stride = strided && !inplace ? 2 : 1;
    int *sb = ct_malloc(sizeof(int) * (size_t)(n * p * stride + 1));
    int *rb = ct_malloc(sizeof(int) * (size_t)(n * p + 1));
    for (int j = 0; j < p; j++)
        for (int k = 0; k < n; k++) {
            sb[(j * n + k) * stride] = V(me, j * n + k);
            rb[j * n + k] = inplace ? V(me, j * n + k) : -1;
        }
    const void *s = inplace ? MPI_IN_PLACE : sb;
    MPI_Datatype st = stride == 2 ? every2 : MPI_INT;
    int starts = ct_starts;
    if (inplace)
        ct_starts = 1;
    CHECK_RC(FORM(form, MPI_Alltoall(s, n, st, rb, n, MPI_INT, comm),
                  MPI_Ialltoall(s, n, st, rb, n, MPI_INT, comm, &req_),
                  MPI_Alltoall_init(s, n, st, rb, n, MPI_INT, comm, MPI_INFO_NULL, &req_)));
    ct_starts = starts;
    for (int j = 0; j < p; j++)
        for (int k = 0; k < n; k++)
            if (rb[j * n + k] != V(j, me * n + k)) {
                CHECK(0, "alltoall %s n=%d%s%s: from %d [%d] = %d", ct_form_names[form], n,
                      inplace ? " in place" : "", strided ? " strided" : "", j, k, rb[j * n + k]);
                j = p;
                break;
            }
    free(sb);
    free(rb);
}

static void all_tests(void)
{
    static const int ns[] = { 0, 1, 1000, 100000 };
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    for (int form = 0; form < CT_NFORMS; form++) {
        t_barrier(form);
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            int n = ns[i];
            if (n > 1000 && p > 4)
                n = 20000;                     /* keep 8 ranks on 2 cores quick */
            for (int root = 0; root < p; root++) {
                t_bcast(form, n, root, MPI_INT, 1);
                if (root == p - 1)
                    t_bcast(form, n, root, every2, 2);
                for (int inplace = 0; inplace < 2; inplace++) {
                    t_reduce(form, n, root, inplace, 0);
                    t_gather(form, n, root, inplace, 0);
                    t_scatter(form, n, root, inplace);
                }
            }
            for (int inplace = 0; inplace < 2; inplace++) {
                t_reduce(form, n, 0, inplace, 1);
                t_gather(form, n, 0, inplace, 1);
                t_alltoall(form, n, inplace, 0);
                t_alltoall(form, n, inplace, 1);
            }
        }
    }
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &every2);
    MPI_Type_commit(&every2);
    comm = MPI_COMM_WORLD;
    all_tests();
    MPI_Comm_split(MPI_COMM_WORLD, 0, ct_size - ct_rank, &comm);   /* reversed */
    all_tests();
    MPI_Comm_free(&comm);
    MPI_Type_free(&every2);
    return ct_finish();
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bottom.c - collectives whose buffers are MPI_BOTTOM with types built on
 * absolute addresses (MPI_Get_address), as mpi4py's testAlltoallwBottom:
 * Alltoallw, Alltoall and Allgather. MPI_BOTTOM is a null pointer here, and
 * rank 0's own block then sits at address 0 + 0: an algorithm that took a
 * null block for "no own block" skipped the copy (the two-rank exchanges,
 * pair.c and pair_cell.c, 2026-11-29). Run at 2 ranks on the cells and on
 * the pair's messages (testlist), and on more ranks.
 */
#include "ctest.h"

enum { N = 3 };

/* A type of one int at the absolute address of *p. */
static MPI_Datatype at(const int *p)
{
    MPI_Aint addr;
    MPI_Datatype t, one = MPI_INT;
    int len = 1;
    CHECK_RC(MPI_Get_address(p, &addr));
    CHECK_RC(MPI_Type_create_struct(1, &len, &addr, &one, &t));
    CHECK_RC(MPI_Type_commit(&t));
    return t;
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int p = ct_size, me = ct_rank;
    int *sb = malloc(sizeof(int) * (size_t)p), *rb = malloc(sizeof(int) * (size_t)p);
    int *cnt = malloc(sizeof(int) * (size_t)p), *dis = malloc(sizeof(int) * (size_t)p);
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * (size_t)p);
    MPI_Datatype *rt = malloc(sizeof(MPI_Datatype) * (size_t)p);
    for (int round = 0; round < N; round++) {
        for (int i = 0; i < p; i++) {
            sb[i] = 1000 * me + 10 * i + round;
            rb[i] = -1;
            cnt[i] = 1;
            dis[i] = 0;
            st[i] = at(&sb[i]);
            rt[i] = at(&rb[i]);
        }
        CHECK_RC(MPI_Alltoallw(MPI_BOTTOM, cnt, dis, st, MPI_BOTTOM, cnt, dis, rt,
                               MPI_COMM_WORLD));
        for (int i = 0; i < p; i++)
            CHECK(rb[i] == 1000 * i + 10 * me + round, "alltoallw round %d: block %d is %d",
                  round, i, rb[i]);
        /* alltoall and allgather: one type for every block, at block 0 */
        MPI_Datatype s1, r1;
        int blen[1] = { 1 };
        MPI_Aint sa, ra;
        CHECK_RC(MPI_Get_address(sb, &sa));
        CHECK_RC(MPI_Get_address(rb, &ra));
        CHECK_RC(MPI_Type_create_hindexed(1, blen, &sa, MPI_INT, &s1));
        CHECK_RC(MPI_Type_create_hindexed(1, blen, &ra, MPI_INT, &r1));
        MPI_Datatype s1r, r1r;      /* extent one int: block i at i ints */
        CHECK_RC(MPI_Type_create_resized(s1, 0, sizeof(int), &s1r));
        CHECK_RC(MPI_Type_create_resized(r1, 0, sizeof(int), &r1r));
        CHECK_RC(MPI_Type_commit(&s1r));
        CHECK_RC(MPI_Type_commit(&r1r));
        for (int i = 0; i < p; i++)
            rb[i] = -1;
        CHECK_RC(MPI_Alltoall(MPI_BOTTOM, 1, s1r, MPI_BOTTOM, 1, r1r, MPI_COMM_WORLD));
        for (int i = 0; i < p; i++)
            CHECK(rb[i] == 1000 * i + 10 * me + round, "alltoall round %d: block %d is %d",
                  round, i, rb[i]);
        for (int i = 0; i < p; i++)
            rb[i] = -1;
        CHECK_RC(MPI_Allgather(MPI_BOTTOM, 1, s1r, MPI_BOTTOM, 1, r1r, MPI_COMM_WORLD));
        for (int i = 0; i < p; i++)
            CHECK(rb[i] == 1000 * i + round, "allgather round %d: block %d is %d", round, i,
                  rb[i]);
        MPI_Type_free(&s1);
        MPI_Type_free(&r1);
        MPI_Type_free(&s1r);
        MPI_Type_free(&r1r);
        for (int i = 0; i < p; i++) {
            MPI_Type_free(&st[i]);
            MPI_Type_free(&rt[i]);
        }
    }
    free(sb);
    free(rb);
    free(cnt);
    free(dis);
    free(st);
    free(rt);
    return ct_finish();
}

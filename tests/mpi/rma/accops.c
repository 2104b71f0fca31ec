/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* accops.c - MPI_Accumulate with every predefined operation on a type of
 * each class it applies to (C integer, floating point, logical, byte,
 * the pair types of MINLOC/MAXLOC), plus MPI_REPLACE and MPI_NO_OP; every
 * rank accumulates into every rank, and the result is compared with the
 * reduction computed here. Then MPI_Get_accumulate (the values fetched
 * are the window's before the operation) and MPI_Fetch_and_op. */
#include <stdbool.h>
#include "../common/ctest.h"

enum { K = 7 };

static MPI_Op cur_op;

/* what rank r contributes at element i (1 or 2 for MPI_PROD, so 9 factors
 * fit every type) */
static long val(int r, int i)
{
    long v = (r * 7 + i * 3) % 11 + 1;
    return cur_op == MPI_PROD ? v % 2 + 1 : v;
}

static long fold(MPI_Op op, long a, long b)
{
    if (op == MPI_SUM) return a + b;
    if (op == MPI_PROD) return a * b;
    if (op == MPI_MAX) return a > b ? a : b;
    if (op == MPI_MIN) return a < b ? a : b;
    if (op == MPI_BAND) return a & b;
    if (op == MPI_BOR) return a | b;
    if (op == MPI_BXOR) return a ^ b;
    if (op == MPI_LAND) return a && b;
    if (op == MPI_LOR) return a || b;
    if (op == MPI_LXOR) return !a != !b;
    return 0;
}

#define RUN_TYPE(T, MPIT, op, opname)                                         \
    do {                                                                      \
        T *mem;                                                               \
        MPI_Win win;                                                          \
        cur_op = op;                                                          \
        MPI_Win_allocate(K * sizeof(T), sizeof(T), MPI_INFO_NULL,             \
                         MPI_COMM_WORLD, &mem, &win);                         \
        for (int i = 0; i < K; i++)                                           \
            mem[i] = (T)val(ct_size, i);                                      \
        T src[K];                                                             \
        for (int i = 0; i < K; i++)                                           \
            src[i] = (T)val(ct_rank, i);                                      \
        MPI_Win_fence(0, win);                                                \
        for (int t = 0; t < ct_size; t++)                                     \
            CHECK_RC(MPI_Accumulate(src, K, MPIT, t, 0, K, MPIT, op, win));   \
        MPI_Win_fence(0, win);                                                \
        for (int i = 0; i < K; i++) {                                         \
            long want = val(ct_size, i);                                      \
            for (int r = 0; r < ct_size; r++)                                 \
                want = fold(op, want, val(r, i));                             \
            CHECK((long)mem[i] == want, "%s on %s: mem[%d] = %ld want %ld",   \
                  opname, #MPIT, i, (long)mem[i], want);                      \
        }                                                                     \
        MPI_Win_free(&win);                                                   \
    } while (0)

static void int_ops(void)
{
    MPI_Op ops[] = { MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_BAND, MPI_BOR, MPI_BXOR,
                     MPI_LAND, MPI_LOR, MPI_LXOR };
    const char *names[] = { "SUM", "PROD", "MAX", "MIN", "BAND", "BOR", "BXOR", "LAND",
                            "LOR", "LXOR" };
    for (int o = 0; o < 10; o++) {
        RUN_TYPE(int, MPI_INT, ops[o], names[o]);
        RUN_TYPE(long long, MPI_LONG_LONG, ops[o], names[o]);
        RUN_TYPE(unsigned short, MPI_UNSIGNED_SHORT, ops[o], names[o]);
        RUN_TYPE(int64_t, MPI_INT64_T, ops[o], names[o]);
    }
    for (int o = 4; o < 7; o++)
        RUN_TYPE(unsigned char, MPI_BYTE, ops[o], names[o]);
    for (int o = 0; o < 4; o++) {
        RUN_TYPE(double, MPI_DOUBLE, ops[o], names[o]);
        RUN_TYPE(float, MPI_FLOAT, ops[o], names[o]);
    }
    for (int o = 7; o < 10; o++)
        RUN_TYPE(bool, MPI_C_BOOL, ops[o], names[o]);
}

static void pair_ops(void)
{
    struct di { double v; int i; } *mem, src[K];
    MPI_Win win;
    MPI_Op ops[2] = { MPI_MINLOC, MPI_MAXLOC };
    for (int o = 0; o < 2; o++) {
        MPI_Win_allocate(K * sizeof(*mem), sizeof(*mem), MPI_INFO_NULL, MPI_COMM_WORLD,
                         &mem, &win);
        for (int i = 0; i < K; i++) {
            mem[i].v = 5.0;
            mem[i].i = 1000;
            src[i].v = (double)val(ct_rank, i);
            src[i].i = ct_rank;
        }
        MPI_Win_fence(0, win);
        for (int t = 0; t < ct_size; t++)
            MPI_Accumulate(src, K, MPI_DOUBLE_INT, t, 0, K, MPI_DOUBLE_INT, ops[o], win);
        MPI_Win_fence(0, win);
        for (int i = 0; i < K; i++) {
            double bv = 5.0;
            int bi = 1000;
            for (int r = 0; r < ct_size; r++) {
                double v = (double)val(r, i);
                bool better = o == 0 ? v < bv : v > bv;
                if (better || (v == bv && r < bi))
                    bv = v, bi = r;
            }
            CHECK(mem[i].v == bv && mem[i].i == bi, "%s: mem[%d] = (%g,%d) want (%g,%d)",
                  o ? "MAXLOC" : "MINLOC", i, mem[i].v, mem[i].i, bv, bi);
        }
        MPI_Win_free(&win);
    }
}

/* MPI_NO_OP ignores the origin buffer, count and datatype (MPI 4.1
 * 12.3.4): MPI_DATATYPE_NULL and NULL are accepted (the MPICH suite's
 * get_accumulate and linked_list tests pass them); and an origin of no
 * bytes may be NULL with any op (badrma). The window holds ct_rank*10+i. */
static void no_op_ignores_origin(MPI_Win win, int right)
{
    int res[K], one = -1, z;
    MPI_Request rq = MPI_REQUEST_NULL;
    MPI_Datatype empty;
    MPI_Type_contiguous(0, MPI_INT, &empty);
    MPI_Type_commit(&empty);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_fence(0, win);
    memset(res, 0, sizeof(res));
    CHECK_RC(MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, res, K, MPI_INT, right, 0, K,
                                MPI_INT, MPI_NO_OP, win));
    CHECK_RC(MPI_Rget_accumulate(&one, 3, MPI_DATATYPE_NULL, &z, 1, MPI_INT, right, 0, 1,
                                 MPI_INT, MPI_NO_OP, win, &rq));
    CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK_RC(MPI_Fetch_and_op(NULL, &one, MPI_INT, right, 1, MPI_NO_OP, win));
    CHECK_RC(MPI_Get_accumulate(NULL, 1, empty, NULL, 0, MPI_INT, right, 0, 0, MPI_INT,
                                MPI_SUM, win));
    CHECK_RC(MPI_Win_fence(0, win));
    for (int i = 0; i < K; i++)
        CHECK(res[i] == ct_rank * 10 + i, "no_op, null datatype: %d want %d", res[i],
              ct_rank * 10 + i);
    CHECK(z == ct_rank * 10 && one == ct_rank * 10 + 1, "no_op fetches: %d %d", z, one);
    MPI_Win_set_errhandler(win, MPI_ERRORS_ARE_FATAL);
    MPI_Type_free(&empty);
}

/* MPI_REPLACE from one rank, MPI_NO_OP from all; Get_accumulate fetches;
 * Fetch_and_op counter */
static void replace_fetch(void)
{
    int *mem;
    MPI_Win win;
    MPI_Win_allocate(K * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                     &win);
    for (int i = 0; i < K; i++)
        mem[i] = 100 + i;
    int src[K], res[K];
    for (int i = 0; i < K; i++)
        src[i] = ct_rank * 10 + i;
    int right = (ct_rank + 1) % ct_size;
    MPI_Win_fence(0, win);
    MPI_Accumulate(src, K, MPI_INT, right, 0, K, MPI_INT, MPI_NO_OP, win);
    MPI_Win_fence(0, win);
    for (int i = 0; i < K; i++)
        CHECK(mem[i] == 100 + i, "NO_OP changed mem[%d] to %d", i, mem[i]);
    MPI_Win_fence(0, win);
    MPI_Get_accumulate(src, K, MPI_INT, res, K, MPI_INT, right, 0, K, MPI_INT,
                       MPI_REPLACE, win);
    MPI_Win_fence(0, win);
    int left = (ct_rank + ct_size - 1) % ct_size;
    for (int i = 0; i < K; i++) {
        CHECK(res[i] == 100 + i, "get_accumulate fetched %d want %d", res[i], 100 + i);
        CHECK(mem[i] == left * 10 + i, "replace: mem[%d] = %d want %d", i, mem[i],
              left * 10 + i);
    }
    MPI_Win_fence(0, win);
    MPI_Get_accumulate(NULL, 0, MPI_INT, res, K, MPI_INT, right, 0, K, MPI_INT,
                       MPI_NO_OP, win);
    MPI_Win_fence(0, win);
    for (int i = 0; i < K; i++)
        CHECK(res[i] == ct_rank * 10 + i, "no_op fetch: %d want %d", res[i], ct_rank * 10 + i);
    no_op_ignores_origin(win, right);
    /* a counter at rank 0 element 0: each rank adds rank+1 three times */
    if (ct_rank == 0)
        mem[0] = 0;
    MPI_Win_fence(0, win);
    int one = ct_rank + 1, old[3];
    for (int k = 0; k < 3; k++)
        MPI_Fetch_and_op(&one, &old[k], MPI_INT, 0, 0, MPI_SUM, win);
    MPI_Win_fence(0, win);
    int total = 3 * ct_size * (ct_size + 1) / 2;
    if (ct_rank == 0)
        CHECK(mem[0] == total, "fetch_and_op counter %d want %d", mem[0], total);
    for (int k = 0; k < 3; k++)
        CHECK(old[k] >= 0 && old[k] < total, "fetched %d out of range", old[k]);
    CHECK(old[0] < old[1] && old[1] < old[2], "fetches not in order: %d %d %d", old[0],
          old[1], old[2]);
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int_ops();
    pair_ops();
    replace_fetch();
    return ct_finish();
}

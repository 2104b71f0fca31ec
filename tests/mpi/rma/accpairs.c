/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* accpairs.c - accumulates on a pair type with a gap inside its element
 * (MPI_SHORT_INT: a short, two bytes of padding, an int), whose fields the
 * target sees as two pieces of memory: MPI_REPLACE, MPI_MAXLOC, and
 * MPI_Get_accumulate with MPI_REPLACE and MPI_NO_OP, on N elements (more
 * pieces than one message carries, so a message ends between elements)
 * and through a strided target type. The MPICH suite's atomic_get_short_int
 * found the target refusing these ("could not apply"). */
#include "../common/ctest.h"

enum { N = 150 };

typedef struct { short v; int i; } si_t;

static si_t want_of(int r, int k)
{
    return (si_t){ .v = (short)((r * 31 + k * 7) % 1000), .i = r * 1000 + k };
}

static void check_eq(const si_t *got, si_t want, const char *what, int k)
{
    CHECK(got->v == want.v && got->i == want.i, "%s: element %d = (%d,%d) want (%d,%d)",
          what, k, got->v, got->i, want.v, want.i);
}

/* window element e of a rank that `origin` wrote (REPLACE) */
static si_t before(int e, int origin)
{
    return e < N ? (si_t){ (short)e, -origin } : (si_t){ -1, -1 };
}

static si_t maxloc(si_t a, si_t b)
{
    if (a.v != b.v)
        return a.v > b.v ? a : b;
    return a.i < b.i ? a : b;
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    si_t *mem, src[N], res[N];
    MPI_Win win;
    MPI_Win_allocate(2 * N * sizeof(si_t), sizeof(si_t), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &mem, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int right = (ct_rank + 1) % ct_size, left = (ct_rank + ct_size - 1) % ct_size;
    for (int k = 0; k < 2 * N; k++)
        mem[k] = (si_t){ .v = -1, .i = -1 };
    for (int k = 0; k < N; k++)
        src[k] = want_of(ct_rank, k);

    /* REPLACE on N contiguous elements */
    MPI_Win_fence(0, win);
    CHECK_RC(MPI_Accumulate(src, N, MPI_SHORT_INT, right, 0, N, MPI_SHORT_INT,
                            MPI_REPLACE, win));
    CHECK_RC(MPI_Win_fence(0, win));
    for (int k = 0; k < N; k++)
        check_eq(&mem[k], want_of(left, k), "replace", k);
    MPI_Barrier(MPI_COMM_WORLD);    /* read before the next epoch's writes */

    /* MAXLOC: even elements get a larger value from the origin */
    for (int k = 0; k < N; k++)
        src[k] = (si_t){ .v = (short)(k % 2 == 0 ? 2000 : -5), .i = ct_rank };
    CHECK_RC(MPI_Accumulate(src, N, MPI_SHORT_INT, right, 0, N, MPI_SHORT_INT,
                            MPI_MAXLOC, win));
    CHECK_RC(MPI_Win_fence(0, win));
    for (int k = 0; k < N; k++)
        check_eq(&mem[k], k % 2 == 0 ? (si_t){ 2000, left } : want_of(left, k), "maxloc", k);
    MPI_Barrier(MPI_COMM_WORLD);

    /* Get_accumulate NO_OP fetches without changing, REPLACE fetches the old */
    CHECK_RC(MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, res, N, MPI_SHORT_INT, right,
                                0, N, MPI_SHORT_INT, MPI_NO_OP, win));
    CHECK_RC(MPI_Win_fence(0, win));
    for (int k = 0; k < N; k++)
        check_eq(&res[k], k % 2 == 0 ? (si_t){ 2000, ct_rank } : want_of(ct_rank, k),
                 "no_op fetch", k);
    for (int k = 0; k < N; k++)
        src[k] = (si_t){ .v = (short)k, .i = -ct_rank };
    CHECK_RC(MPI_Get_accumulate(src, N, MPI_SHORT_INT, res, N, MPI_SHORT_INT, right, 0, N,
                                MPI_SHORT_INT, MPI_REPLACE, win));
    CHECK_RC(MPI_Win_fence(0, win));
    for (int k = 0; k < N; k++) {
        check_eq(&res[k], k % 2 == 0 ? (si_t){ 2000, ct_rank } : want_of(ct_rank, k),
                 "replace fetch", k);
        check_eq(&mem[k], (si_t){ (short)k, -left }, "replace after fetch", k);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* a strided target: every other element of the window's 2N */
    MPI_Datatype every2;
    MPI_Type_vector(N, 1, 2, MPI_SHORT_INT, &every2);
    MPI_Type_commit(&every2);
    for (int k = 0; k < N; k++)
        src[k] = (si_t){ .v = (short)(3 * k), .i = k };
    CHECK_RC(MPI_Get_accumulate(src, N, MPI_SHORT_INT, res, N, MPI_SHORT_INT, right, 0, 1,
                                every2, MPI_MAXLOC, win));
    CHECK_RC(MPI_Win_fence(0, win));
    for (int k = 0; k < N; k++) {
        check_eq(&res[k], before(2 * k, ct_rank), "strided fetch", k);
        check_eq(&mem[2 * k], maxloc((si_t){ (short)(3 * k), k }, before(2 * k, left)),
                 "strided maxloc", 2 * k);
    }
    MPI_Type_free(&every2);
    MPI_Win_free(&win);
    return ct_finish();
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * reduce_ops.c - MPI_Reduce and MPI_Allreduce for every predefined op on
 * the types it applies to, at counts 0, 1, 1000 (and 1M for a few), to
 * every root, with and without MPI_IN_PLACE; each result is checked
 * against a reference folded in rank order in the test.
 */
#include <complex.h>
#include <stdint.h>
#include <stdbool.h>
#include "ctest.h"

/* value of element i on rank r, per family */
#define VS(T) ((T)((r % 3) + (i % 5)))                 /* sums        */
#define VP(T) ((T)(((r + i) % 5 == 0) ? 2 : 1))        /* products    */
#define VM(T) ((T)(((r * 7 + i * 3) % 11) - 5))        /* min / max   */
#define VL(T) ((T)((i % (r + 2)) != 0))                /* logical     */
#define VB(T) ((T)((((r + 1) * 37 + i * 11) & 0x7f)))  /* bits        */
#define VCS(T) ((T)((r % 3) + (i % 5)) + (T)((r + i) % 2) * (T)I)
#define VCP(T) ((T)1 + (T)((r + i) % 2) * (T)I)
#define VLOC(T) ((T){ .v = (r * 5 + i) % 4, .i = r })

#define EQS(a, b) ((a) == (b))
#define EQP(a, b) ((a).v == (b).v && (a).i == (b).i)

#define MINLOC_(a, b) (((b).v < (a).v || ((b).v == (a).v && (b).i < (a).i)) ? (b) : (a))
#define MAXLOC_(a, b) (((b).v > (a).v || ((b).v == (a).v && (b).i < (a).i)) ? (b) : (a))

typedef struct { float v; int i; } fi_t;
typedef struct { double v; int i; } di_t;
typedef struct { long v; int i; } li_t;
typedef struct { int v; int i; } ii_t;
typedef struct { short v; int i; } si_t;
typedef struct { long double v; int i; } ldi_t;
typedef struct { double v; double i; } dd_t;

/* X(name, C type, MPI type, MPI op, value macro, combine expr of a b, eq) */
#define INT_CASES(X, N, T, DT)                                               \
    X(N##_sum, T, DT, MPI_SUM, VS, a + b, EQS)                               \
    X(N##_prod, T, DT, MPI_PROD, VP, a * b, EQS)                             \
    X(N##_min, T, DT, MPI_MIN, VM, b < a ? b : a, EQS)                       \
    X(N##_max, T, DT, MPI_MAX, VM, b > a ? b : a, EQS)                       \
    X(N##_land, T, DT, MPI_LAND, VL, a && b, EQS)                            \
    X(N##_lor, T, DT, MPI_LOR, VL, a || b, EQS)                              \
    X(N##_lxor, T, DT, MPI_LXOR, VL, !a != !b, EQS)                          \
    X(N##_band, T, DT, MPI_BAND, VB, a & b, EQS)                             \
    X(N##_bor, T, DT, MPI_BOR, VB, a | b, EQS)                               \
    X(N##_bxor, T, DT, MPI_BXOR, VB, a ^ b, EQS)
#define FLT_CASES(X, N, T, DT)                                               \
    X(N##_sum, T, DT, MPI_SUM, VS, a + b, EQS)                               \
    X(N##_prod, T, DT, MPI_PROD, VP, a * b, EQS)                             \
    X(N##_min, T, DT, MPI_MIN, VM, b < a ? b : a, EQS)                       \
    X(N##_max, T, DT, MPI_MAX, VM, b > a ? b : a, EQS)
#define CPX_CASES(X, N, T, DT)                                               \
    X(N##_sum, T, DT, MPI_SUM, VCS, a + b, EQS)                              \
    X(N##_prod, T, DT, MPI_PROD, VCP, a * b, EQS)
#define LOG_CASES(X, N, T, DT)                                               \
    X(N##_land, T, DT, MPI_LAND, VL, a && b, EQS)                            \
    X(N##_lor, T, DT, MPI_LOR, VL, a || b, EQS)                              \
    X(N##_lxor, T, DT, MPI_LXOR, VL, !a != !b, EQS)
#define BIT_CASES(X, N, T, DT)                                               \
    X(N##_band, T, DT, MPI_BAND, VB, a & b, EQS)                             \
    X(N##_bor, T, DT, MPI_BOR, VB, a | b, EQS)                               \
    X(N##_bxor, T, DT, MPI_BXOR, VB, a ^ b, EQS)
#define LOC_CASES(X, N, T, DT)                                               \
    X(N##_minloc, T, DT, MPI_MINLOC, VLOC, MINLOC_(a, b), EQP)               \
    X(N##_maxloc, T, DT, MPI_MAXLOC, VLOC, MAXLOC_(a, b), EQP)

#define ALL_CASES(X)                                                         \
    INT_CASES(X, int, int, MPI_INT)                                          \
    INT_CASES(X, uns, unsigned, MPI_UNSIGNED)                                \
    INT_CASES(X, long, long, MPI_LONG)                                       \
    INT_CASES(X, short, short, MPI_SHORT)                                    \
    INT_CASES(X, ushort, unsigned short, MPI_UNSIGNED_SHORT)                 \
    INT_CASES(X, schar, signed char, MPI_SIGNED_CHAR)                        \
    INT_CASES(X, uchar, unsigned char, MPI_UNSIGNED_CHAR)                    \
    INT_CASES(X, char, char, MPI_CHAR)           /* as Open MPI and MPICH */ \
    INT_CASES(X, llong, long long, MPI_LONG_LONG)                            \
    INT_CASES(X, ulong, unsigned long, MPI_UNSIGNED_LONG)                    \
    INT_CASES(X, ullong, unsigned long long, MPI_UNSIGNED_LONG_LONG)         \
    INT_CASES(X, i8, int8_t, MPI_INT8_T)                                     \
    INT_CASES(X, u16, uint16_t, MPI_UINT16_T)                                \
    INT_CASES(X, i32, int32_t, MPI_INT32_T)                                  \
    INT_CASES(X, u64, uint64_t, MPI_UINT64_T)                                \
    INT_CASES(X, aint, MPI_Aint, MPI_AINT)                                   \
    FLT_CASES(X, flt, float, MPI_FLOAT)                                      \
    FLT_CASES(X, dbl, double, MPI_DOUBLE)                                    \
    FLT_CASES(X, ldbl, long double, MPI_LONG_DOUBLE)                         \
    FLT_CASES(X, real, float, MPI_REAL)                                      \
    FLT_CASES(X, dprec, double, MPI_DOUBLE_PRECISION)                        \
    CPX_CASES(X, cflt, float _Complex, MPI_C_FLOAT_COMPLEX)                  \
    CPX_CASES(X, cdbl, double _Complex, MPI_C_DOUBLE_COMPLEX)                \
    CPX_CASES(X, cldbl, long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX)     \
    CPX_CASES(X, fcplx, float _Complex, MPI_COMPLEX)                         \
    LOG_CASES(X, cbool, bool, MPI_C_BOOL)                                    \
    LOG_CASES(X, flog, int, MPI_LOGICAL)                                     \
    BIT_CASES(X, byte, unsigned char, MPI_BYTE)                              \
    X(fint_sum, int, MPI_INTEGER, MPI_SUM, VS, a + b, EQS)                   \
    X(fint_max, int, MPI_INTEGER, MPI_MAX, VM, b > a ? b : a, EQS)           \
    X(fint_bxor, int, MPI_INTEGER, MPI_BXOR, VB, a ^ b, EQS)                 \
    LOC_CASES(X, fi, fi_t, MPI_FLOAT_INT)                                    \
    LOC_CASES(X, di, di_t, MPI_DOUBLE_INT)                                   \
    LOC_CASES(X, li, li_t, MPI_LONG_INT)                                     \
    LOC_CASES(X, ii, ii_t, MPI_2INT)                                         \
    LOC_CASES(X, si, si_t, MPI_SHORT_INT)                                    \
    LOC_CASES(X, ldi, ldi_t, MPI_LONG_DOUBLE_INT)                            \
    LOC_CASES(X, ii2, ii_t, MPI_2INTEGER)                                    \
    LOC_CASES(X, dd, dd_t, MPI_2DOUBLE_PRECISION)

typedef struct {
    const char *name;
    size_t      elsize;
    MPI_Datatype dt;
    MPI_Op      op;
    void      (*fill)(void *buf, int r, int n);
    void      (*expect)(void *buf, int n, int nranks);   /* fold of all ranks */
    int       (*count_bad)(const void *got, const void *want, int n);
} case_t;

#define DEFINE(N, T, DT, OP, V, COMB, EQ)                                    \
    static void fill_##N(void *buf, int r, int n)                            \
    {                                                                        \
        T *p = buf;                                                          \
        for (int i = 0; i < n; i++)                                          \
            p[i] = V(T);                                                     \
    }                                                                        \
    static void expect_##N(void *buf, int n, int nranks)                     \
    {                                                                        \
        T *p = buf;                                                          \
        for (int i = 0; i < n; i++) {                                        \
            int r = 0;                                                       \
            T a = V(T);                                                      \
            for (r = 1; r < nranks; r++) {                                   \
                T b = V(T);                                                  \
                a = (T)(COMB);                                               \
            }                                                                \
            p[i] = a;                                                        \
        }                                                                    \
    }                                                                        \
    static int bad_##N(const void *got_, const void *want_, int n)           \
    {                                                                        \
        const T *got = got_, *want = want_;                                  \
        int bad = 0;                                                         \
        for (int i = 0; i < n; i++)                                          \
            bad += !EQ(got[i], want[i]);                                     \
        return bad;                                                          \
    }
#define ENTRY(N, T, DT, OP, V, COMB, EQ)                                     \
    { #N, sizeof(T), DT, OP, fill_##N, expect_##N, bad_##N },

#pragma GCC diagnostic ignored "-Wint-in-bool-context"
#pragma GCC diagnostic ignored "-Wbool-operation"
ALL_CASES(DEFINE)
static const case_t cases[] = { ALL_CASES(ENTRY) };

enum { MODE_ALLREDUCE, MODE_ALLREDUCE_INPLACE, MODE_REDUCE, MODE_REDUCE_INPLACE };

static void run_case(const case_t *c, int n, int mode, int root)
{
    size_t bytes = c->elsize * (size_t)n;
    char *in = ct_malloc(bytes), *out = ct_malloc(bytes), *want = ct_malloc(bytes);
    memset(in, 0, bytes);
    memset(out, 0, bytes);
    memset(want, 0, bytes);
    c->fill(in, ct_rank, n);
    c->expect(want, n, ct_size);
    int rc;
    bool check_here = true;
    switch (mode) {
    case MODE_ALLREDUCE:
        rc = MPI_Allreduce(in, out, n, c->dt, c->op, MPI_COMM_WORLD);
        break;
    case MODE_ALLREDUCE_INPLACE:
        memcpy(out, in, bytes);
        rc = MPI_Allreduce(MPI_IN_PLACE, out, n, c->dt, c->op, MPI_COMM_WORLD);
        break;
    case MODE_REDUCE:
        rc = MPI_Reduce(in, out, n, c->dt, c->op, root, MPI_COMM_WORLD);
        check_here = ct_rank == root;
        break;
    default:
        memcpy(out, in, bytes);
        rc = MPI_Reduce(ct_rank == root ? MPI_IN_PLACE : in, out, n, c->dt,
                        c->op, root, MPI_COMM_WORLD);
        check_here = ct_rank == root;
        break;
    }
    CHECK(rc == MPI_SUCCESS, "%s mode %d n %d: rc %d", c->name, mode, n, rc);
    if (check_here) {
        int bad = c->count_bad(out, want, n);
        CHECK(bad == 0, "%s mode %d n %d root %d: %d wrong elements", c->name,
              mode, n, root, bad);
    }
    free(in);
    free(out);
    free(want);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    const int counts[] = { 0, 1, 1000 };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
        for (int m = 0; m < 4; m++)
            for (size_t j = 0; j < 3; j++)
                run_case(&cases[k], counts[j], m,
                         m >= MODE_REDUCE ? (int)(k + j) % ct_size : 0);
    /* one million elements for a few, every mode */
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        if (strcmp(cases[k].name, "int_sum") && strcmp(cases[k].name, "dbl_max") &&
            strcmp(cases[k].name, "di_minloc"))
            continue;
        for (int m = 0; m < 4; m++)
            run_case(&cases[k], 1 << 20, m, ct_size - 1);
    }
    return ct_finish();
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_op.c - every predefined reduction op on every predefined type,
 * against straightforward C; ops on types they do not apply to must fail
 * with MPI_ERR_OP and a message naming both; MINLOC/MAXLOC tie rule.
 */
#include <complex.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "core/op.h"

#include "unit_check.h"

#define N 37

/* Apply op kind K to (in, io) and compare every element with EXPR(a, b),
 * where a = in[i], b = io[i] (the result is in op io: a op b). */
#define RUNV(T, DT, K, EXPR, VAL)                                                \
    do {                                                                     \
        T in[N], io[N], want[N];                                             \
        for (int i = 0; i < N; i++) {                                        \
            in[i] = VAL(T, i);                                               \
            io[i] = VAL(T, i * 5 + 3);                                       \
            T a = in[i], b = io[i]; (void)a; (void)b;                          \
            want[i] = (T)(EXPR);                                             \
        }                                                                    \
        int rc = xb_op_apply_predef(K, DT, in, io, N);                       \
        CHECK(rc == 0, "%s on %s returned %d", xb_op_kind_name(K), #DT, rc);  \
        int bad = 0;                                                         \
        for (int i = 0; i < N; i++)                                          \
            bad += io[i] != want[i];                                         \
        CHECK(bad == 0, "%s on %s: %d wrong results", xb_op_kind_name(K),    \
              #DT, bad);                                                     \
    } while (0)

#define RUN(T, DT, K, EXPR) RUNV(T, DT, K, EXPR, VAL)

#define REJECT(DT, K)                                                        \
    do {                                                                     \
        char buf[64] = { 0 };                                                \
        int rc = xb_op_apply_predef(K, DT, buf, buf + 32, 1);                \
        CHECK(rc == -MPI_ERR_OP, "%s on %s: want MPI_ERR_OP, got %d",         \
              xb_op_kind_name(K), #DT, rc);                                  \
        CHECK(!xb_op_predef_defined(K, DT), "%s defined on %s",              \
              xb_op_kind_name(K), #DT);                                      \
    } while (0)

/* small values: no overflow in any op for any width */
#define VAL(T, i) ((T)(((i) % 11) - (((T)-1 < (T)1) ? 5 : 0)))

#define VALC(T, i) ((T)(((i) % 11) - 5) + (T)(((i) % 3) - 1) * (T)I)

#define TEST_INT(T, DT)                                                      \
    do {                                                                     \
        RUN(T, DT, XB_OPK_SUM, a + b);                                       \
        RUN(T, DT, XB_OPK_PROD, a * b);                                      \
        RUN(T, DT, XB_OPK_MIN, a < b ? a : b);                               \
        RUN(T, DT, XB_OPK_MAX, a > b ? a : b);                               \
        RUN(T, DT, XB_OPK_LAND, a && b);                                     \
        RUN(T, DT, XB_OPK_LOR, a || b);                                      \
        RUN(T, DT, XB_OPK_LXOR, !a != !b);                                   \
        RUN(T, DT, XB_OPK_BAND, a & b);                                      \
        RUN(T, DT, XB_OPK_BOR, a | b);                                       \
        RUN(T, DT, XB_OPK_BXOR, a ^ b);                                      \
        RUN(T, DT, XB_OPK_REPLACE, a);                                       \
        RUN(T, DT, XB_OPK_NO_OP, b);                                         \
        REJECT(DT, XB_OPK_MINLOC);                                           \
        REJECT(DT, XB_OPK_MAXLOC);                                           \
    } while (0)

/* Fortran integers: no logical ops */
#define TEST_FINT(T, DT)                                                     \
    do {                                                                     \
        RUN(T, DT, XB_OPK_SUM, a + b);                                       \
        RUN(T, DT, XB_OPK_PROD, a * b);                                      \
        RUN(T, DT, XB_OPK_MIN, a < b ? a : b);                               \
        RUN(T, DT, XB_OPK_MAX, a > b ? a : b);                               \
        RUN(T, DT, XB_OPK_BAND, a & b);                                      \
        RUN(T, DT, XB_OPK_BOR, a | b);                                       \
        RUN(T, DT, XB_OPK_BXOR, a ^ b);                                      \
        REJECT(DT, XB_OPK_LAND);                                             \
        REJECT(DT, XB_OPK_MAXLOC);                                           \
    } while (0)

#define TEST_FLOAT(T, DT)                                                    \
    do {                                                                     \
        RUN(T, DT, XB_OPK_SUM, a + b);                                       \
        RUN(T, DT, XB_OPK_PROD, a * b);                                      \
        RUN(T, DT, XB_OPK_MIN, a < b ? a : b);                               \
        RUN(T, DT, XB_OPK_MAX, a > b ? a : b);                               \
        REJECT(DT, XB_OPK_LAND);                                             \
        REJECT(DT, XB_OPK_LOR);                                              \
        REJECT(DT, XB_OPK_BAND);                                             \
        REJECT(DT, XB_OPK_BXOR);                                             \
        REJECT(DT, XB_OPK_MINLOC);                                           \
    } while (0)

#define TEST_CPLX(T, DT)                                                     \
    do {                                                                     \
        RUNV(T, DT, XB_OPK_SUM, a + b, VALC);                                \
        RUNV(T, DT, XB_OPK_PROD, a * b, VALC);                               \
        REJECT(DT, XB_OPK_MIN);                                              \
        REJECT(DT, XB_OPK_MAX);                                              \
        REJECT(DT, XB_OPK_LAND);                                             \
        REJECT(DT, XB_OPK_BOR);                                              \
    } while (0)

#define TEST_LOGICAL(T, DT)                                                  \
    do {                                                                     \
        RUN(T, DT, XB_OPK_LAND, a && b);                                     \
        RUN(T, DT, XB_OPK_LOR, a || b);                                      \
        RUN(T, DT, XB_OPK_LXOR, !a != !b);                                   \
        REJECT(DT, XB_OPK_SUM);                                              \
        REJECT(DT, XB_OPK_MAX);                                              \
        REJECT(DT, XB_OPK_BAND);                                             \
    } while (0)

/* MINLOC/MAXLOC: struct {V v; I i;} with ties on purpose */
#define TEST_PAIR(V, I, DT)                                                  \
    do {                                                                     \
        struct { V v; I i; } in[N], io[N], wmin[N], wmax[N];                 \
        memset(in, 0, sizeof(in));                                           \
        memset(io, 0, sizeof(io));                                           \
        for (int k = 0; k < N; k++) {                                        \
            in[k].v = (V)(k % 4);  in[k].i = (I)(k % 7);                     \
            io[k].v = (V)(k % 3);  io[k].i = (I)((k * 5) % 7);               \
            wmin[k] = in[k].v < io[k].v ? in[k] : io[k];                     \
            wmax[k] = in[k].v > io[k].v ? in[k] : io[k];                     \
            if (in[k].v == io[k].v) {                                        \
                wmin[k] = io[k];                                             \
                wmin[k].i = in[k].i < io[k].i ? in[k].i : io[k].i;           \
                wmax[k] = wmin[k];                                           \
            }                                                                \
        }                                                                    \
        __typeof__(io) io2;                                                  \
        memcpy(io2, io, sizeof(io));                                         \
        int rc = xb_op_apply_predef(XB_OPK_MINLOC, DT, in, io, N);           \
        CHECK(rc == 0, "MINLOC on %s returned %d", #DT, rc);                 \
        int bad = 0;                                                         \
        for (int k = 0; k < N; k++)                                          \
            bad += io[k].v != wmin[k].v || io[k].i != wmin[k].i;             \
        CHECK(bad == 0, "MINLOC on %s: %d wrong", #DT, bad);                 \
        rc = xb_op_apply_predef(XB_OPK_MAXLOC, DT, in, io2, N);              \
        CHECK(rc == 0, "MAXLOC on %s returned %d", #DT, rc);                 \
        bad = 0;                                                             \
        for (int k = 0; k < N; k++)                                          \
            bad += io2[k].v != wmax[k].v || io2[k].i != wmax[k].i;           \
        CHECK(bad == 0, "MAXLOC on %s: %d wrong", #DT, bad);                 \
        REJECT(DT, XB_OPK_SUM);                                              \
        REJECT(DT, XB_OPK_MIN);                                              \
        REJECT(DT, XB_OPK_BAND);                                             \
    } while (0)

static void test_wrap(void)
{
    int32_t a[2] = { INT32_MAX, INT32_MIN }, b[2] = { 1, -1 };
    CHECK(xb_op_apply_predef(XB_OPK_SUM, MPI_INT, a, b, 2) == 0, "sum wrap rc");
    CHECK(b[0] == INT32_MIN && b[1] == INT32_MAX, "int sum does not wrap");
    uint16_t c = 65535, d = 65535;
    CHECK(xb_op_apply_predef(XB_OPK_PROD, MPI_UNSIGNED_SHORT, &c, &d, 1) == 0, "prod");
    CHECK(d == 1, "unsigned short product 65535*65535 mod 2^16 = 1, got %u", d);
}

static void test_messages(void)
{
    int x = 0;
    int rc = xb_op_apply_predef(XB_OPK_SUM, MPI_2INT, &x, &x, 1);
    CHECK(rc == -MPI_ERR_OP, "SUM on 2INT rc %d", rc);
    CHECK(strstr(xb_err_detail(), "MPI_SUM") && strstr(xb_err_detail(), "MPI_2INT"),
          "message names op and type: '%s'", xb_err_detail());
    CHECK(xb_op_predef_defined(XB_OPK_SUM, MPI_CHAR), "SUM on MPI_CHAR (as Open MPI, MPICH)");
    CHECK(!xb_op_predef_defined(XB_OPK_SUM, MPI_WCHAR), "SUM on MPI_WCHAR");
    CHECK(!xb_op_predef_defined(XB_OPK_MAX, MPI_PACKED), "MAX on MPI_PACKED");
    CHECK(!xb_op_predef_defined(XB_OPK_SUM, MPI_DATATYPE_NULL), "SUM on NULL");
    /* predefined op handles resolve and map back */
    MPI_Op ops[] = { MPI_SUM, MPI_MIN, MPI_MAX, MPI_PROD, MPI_BAND, MPI_BOR,
                     MPI_BXOR, MPI_LAND, MPI_LOR, MPI_LXOR, MPI_MINLOC,
                     MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP };
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
        xb_op_t *o = xb_op_from_handle(ops[i]);
        CHECK(o != NULL && o->predefined && o->commute, "op %zu resolves", i);
        CHECK(o != NULL && xb_op_to_handle(o) == ops[i], "op %zu maps back", i);
    }
    CHECK(xb_op_from_handle(MPI_OP_NULL) == NULL, "MPI_OP_NULL resolves");
}

int main(void)
{
    TEST_INT(int8_t, MPI_INT8_T);     TEST_INT(uint8_t, MPI_UINT8_T);
    TEST_INT(int16_t, MPI_INT16_T);   TEST_INT(uint16_t, MPI_UINT16_T);
    TEST_INT(int32_t, MPI_INT32_T);   TEST_INT(uint32_t, MPI_UINT32_T);
    TEST_INT(int64_t, MPI_INT64_T);   TEST_INT(uint64_t, MPI_UINT64_T);
    TEST_INT(signed char, MPI_SIGNED_CHAR);
    TEST_INT(unsigned char, MPI_UNSIGNED_CHAR);
    TEST_INT(short, MPI_SHORT);       TEST_INT(unsigned short, MPI_UNSIGNED_SHORT);
    TEST_INT(int, MPI_INT);           TEST_INT(unsigned, MPI_UNSIGNED);
    TEST_INT(long, MPI_LONG);         TEST_INT(unsigned long, MPI_UNSIGNED_LONG);
    TEST_INT(long long, MPI_LONG_LONG);
    TEST_INT(unsigned long long, MPI_UNSIGNED_LONG_LONG);
    TEST_INT(MPI_Aint, MPI_AINT);     TEST_INT(MPI_Offset, MPI_OFFSET);
    TEST_INT(MPI_Count, MPI_COUNT);
    TEST_FINT(int32_t, MPI_INTEGER);  TEST_FINT(int8_t, MPI_INTEGER1);
    TEST_FINT(int16_t, MPI_INTEGER2); TEST_FINT(int32_t, MPI_INTEGER4);
    TEST_FINT(int64_t, MPI_INTEGER8);
    TEST_FLOAT(float, MPI_FLOAT);     TEST_FLOAT(double, MPI_DOUBLE);
    TEST_FLOAT(long double, MPI_LONG_DOUBLE);
    TEST_FLOAT(float, MPI_REAL);      TEST_FLOAT(double, MPI_DOUBLE_PRECISION);
    TEST_FLOAT(float, MPI_REAL4);     TEST_FLOAT(double, MPI_REAL8);
    TEST_CPLX(float _Complex, MPI_C_FLOAT_COMPLEX);
    TEST_CPLX(double _Complex, MPI_C_DOUBLE_COMPLEX);
    TEST_CPLX(long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX);
    TEST_CPLX(float _Complex, MPI_CXX_FLOAT_COMPLEX);
    TEST_CPLX(double _Complex, MPI_CXX_DOUBLE_COMPLEX);
    TEST_CPLX(float _Complex, MPI_COMPLEX);
    TEST_CPLX(double _Complex, MPI_DOUBLE_COMPLEX);
    TEST_CPLX(float _Complex, MPI_COMPLEX8);
    TEST_CPLX(double _Complex, MPI_COMPLEX16);
    TEST_LOGICAL(_Bool, MPI_C_BOOL);  TEST_LOGICAL(_Bool, MPI_CXX_BOOL);
    TEST_LOGICAL(int32_t, MPI_LOGICAL);
    TEST_LOGICAL(int8_t, MPI_LOGICAL1); TEST_LOGICAL(int16_t, MPI_LOGICAL2);
    TEST_LOGICAL(int32_t, MPI_LOGICAL4); TEST_LOGICAL(int64_t, MPI_LOGICAL8);
    {   /* MPI_BYTE: bitwise only */
        RUN(uint8_t, MPI_BYTE, XB_OPK_BAND, a & b);
        RUN(uint8_t, MPI_BYTE, XB_OPK_BOR, a | b);
        RUN(uint8_t, MPI_BYTE, XB_OPK_BXOR, a ^ b);
        REJECT(MPI_BYTE, XB_OPK_SUM);
        REJECT(MPI_BYTE, XB_OPK_LAND);
        REJECT(MPI_BYTE, XB_OPK_MAX);
    }
    TEST_PAIR(float, int, MPI_FLOAT_INT);
    TEST_PAIR(double, int, MPI_DOUBLE_INT);
    TEST_PAIR(long, int, MPI_LONG_INT);
    TEST_PAIR(int, int, MPI_2INT);
    TEST_PAIR(short, int, MPI_SHORT_INT);
    TEST_PAIR(long double, int, MPI_LONG_DOUBLE_INT);
    TEST_PAIR(float, float, MPI_2REAL);
    TEST_PAIR(double, double, MPI_2DOUBLE_PRECISION);
    TEST_PAIR(int, int, MPI_2INTEGER);
    test_wrap();
    test_messages();
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("No Errors\n");
    return 0;
}

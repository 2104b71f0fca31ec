/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_predef.c - the predefined datatypes: static objects, resolved from their
 * MPI 5.0 ABI handle values (0x200..0x2ff) through a table.
 *
 * Sizes come from the C types; Fortran types follow the usual mapping
 * (INTEGER/LOGICAL = int, REAL = float, DOUBLE PRECISION = double, COMPLEX =
 * two REALs, INTEGERn/REALn = n bytes, COMPLEXn = two REAL(n/2)). Only bytes
 * are moved here, so types the compiler cannot compute with (REAL2, REAL16,
 * COMPLEX32) still have their sizes; whether an operation supports them is
 * the op engine's decision.
 *
 * The pair types (MPI_FLOAT_INT, ...) are the C structs { T a; int b; } with
 * their padding: two runs, possibly a hole, extent = sizeof the struct.
 */
#include <stddef.h>
#include <string.h>
#include <wchar.h>
#include "datatype/dt_types.h"

#define DT_HANDLE_BASE 0x200u
#define DT_HANDLE_SPAN 0x100u

/* One-run node of n bytes at displacement 0 (shared by types of equal size). */
#define RUN_NODE(n) { .kind = DT_VRUN, .disp = 0, .size = (n), .nruns = 1, \
                      .u.vr = { .count = 1, .len = (n), .stride = (n) } }
static dt_node_t run_node[] = {
    RUN_NODE(1), RUN_NODE(2), RUN_NODE(4), RUN_NODE(8), RUN_NODE(12),
    RUN_NODE(16), RUN_NODE(20), RUN_NODE(32),
};

static dt_node_t *run_of(size_t n)
{
    for (size_t i = 0; i < XB_ARRAY_LEN(run_node); i++)
        if ((size_t)run_node[i].size == n)
            return &run_node[i];
    return NULL;
}

#define BASIC_AS(h, nm, sz, al) {                                           \
        .magic = XB_MAGIC_DTYPE, .refcount = 1,                             \
        .flags = DT_F_COMMITTED | DT_F_PREDEF | DT_F_CONTIG,                \
        .align = (al), .size = (sz), .lb = 0, .ub = (sz), .extent = (sz),   \
        .true_lb = 0, .true_ub = (sz), .nbasic = 1, .nelems = 1,            \
        .combiner = MPI_COMBINER_NAMED, .handle = (h), .name = nm }
#define BASIC(h, sz, al) BASIC_AS(h, #h, sz, al)

typedef struct { float a; int b; } pair_float_int;
typedef struct { double a; int b; } pair_double_int;
typedef struct { long a; int b; } pair_long_int;
typedef struct { int a; int b; } pair_2int;
typedef struct { short a; int b; } pair_short_int;
typedef struct { long double a; int b; } pair_ldouble_int;

#define PAIR(h, S) {                                                        \
        .magic = XB_MAGIC_DTYPE, .refcount = 1,                             \
        .flags = DT_F_COMMITTED | DT_F_PREDEF,                              \
        .align = _Alignof(S),                                               \
        .size = sizeof(((S *)0)->a) + sizeof(int), .lb = 0,                 \
        .ub = sizeof(S), .extent = sizeof(S), .true_lb = 0,                 \
        .true_ub = offsetof(S, b) + sizeof(int), .nbasic = 1, .nelems = 2,  \
        .combiner = MPI_COMBINER_NAMED, .handle = (h), .name = #h }

static xb_datatype_t predef[] = {
    BASIC(MPI_AINT, sizeof(MPI_Aint), _Alignof(MPI_Aint)),
    BASIC(MPI_COUNT, sizeof(MPI_Count), _Alignof(MPI_Count)),
    BASIC(MPI_OFFSET, sizeof(MPI_Offset), _Alignof(MPI_Offset)),
    BASIC(MPI_PACKED, 1, 1),
    BASIC(MPI_SHORT, sizeof(short), _Alignof(short)),
    BASIC(MPI_INT, sizeof(int), _Alignof(int)),
    BASIC(MPI_LONG, sizeof(long), _Alignof(long)),
    /* one handle for a name and its synonym: the name is the one the
     * standard's table lists first (MPI_LONG_LONG and MPI_C_FLOAT_COMPLEX
     * are "as a synonym"), as Open MPI and MPICH name them */
    BASIC_AS(MPI_LONG_LONG, "MPI_LONG_LONG_INT", sizeof(long long), _Alignof(long long)),
    BASIC(MPI_UNSIGNED_SHORT, sizeof(short), _Alignof(short)),
    BASIC(MPI_UNSIGNED, sizeof(int), _Alignof(int)),
    BASIC(MPI_UNSIGNED_LONG, sizeof(long), _Alignof(long)),
    BASIC(MPI_UNSIGNED_LONG_LONG, sizeof(long long), _Alignof(long long)),
    BASIC(MPI_FLOAT, sizeof(float), _Alignof(float)),
    BASIC_AS(MPI_C_FLOAT_COMPLEX, "MPI_C_COMPLEX", 2 * sizeof(float), _Alignof(float)),
    BASIC(MPI_CXX_FLOAT_COMPLEX, 2 * sizeof(float), _Alignof(float)),
    BASIC(MPI_DOUBLE, sizeof(double), _Alignof(double)),
    BASIC(MPI_C_DOUBLE_COMPLEX, 2 * sizeof(double), _Alignof(double)),
    BASIC(MPI_CXX_DOUBLE_COMPLEX, 2 * sizeof(double), _Alignof(double)),
    BASIC(MPI_LOGICAL, sizeof(int), _Alignof(int)),
    BASIC(MPI_INTEGER, sizeof(int), _Alignof(int)),
    BASIC(MPI_REAL, sizeof(float), _Alignof(float)),
    BASIC(MPI_COMPLEX, 2 * sizeof(float), _Alignof(float)),
    BASIC(MPI_DOUBLE_PRECISION, sizeof(double), _Alignof(double)),
    BASIC(MPI_DOUBLE_COMPLEX, 2 * sizeof(double), _Alignof(double)),
    BASIC(MPI_LONG_DOUBLE, sizeof(long double), _Alignof(long double)),
    BASIC(MPI_C_LONG_DOUBLE_COMPLEX, 2 * sizeof(long double), _Alignof(long double)),
    BASIC(MPI_CXX_LONG_DOUBLE_COMPLEX, 2 * sizeof(long double), _Alignof(long double)),
    PAIR(MPI_FLOAT_INT, pair_float_int),
    PAIR(MPI_DOUBLE_INT, pair_double_int),
    PAIR(MPI_LONG_INT, pair_long_int),
    PAIR(MPI_2INT, pair_2int),
    PAIR(MPI_SHORT_INT, pair_short_int),
    PAIR(MPI_LONG_DOUBLE_INT, pair_ldouble_int),
    BASIC(MPI_2REAL, 2 * sizeof(float), _Alignof(float)),
    BASIC(MPI_2DOUBLE_PRECISION, 2 * sizeof(double), _Alignof(double)),
    BASIC(MPI_2INTEGER, 2 * sizeof(int), _Alignof(int)),
    BASIC(MPI_C_BOOL, sizeof(_Bool), _Alignof(_Bool)),
    BASIC(MPI_CXX_BOOL, sizeof(_Bool), _Alignof(_Bool)),
    BASIC(MPI_WCHAR, sizeof(wchar_t), _Alignof(wchar_t)),
    BASIC(MPI_INT8_T, 1, 1),
    BASIC(MPI_UINT8_T, 1, 1),
    BASIC(MPI_CHAR, 1, 1),
    BASIC(MPI_SIGNED_CHAR, 1, 1),
    BASIC(MPI_UNSIGNED_CHAR, 1, 1),
    BASIC(MPI_BYTE, 1, 1),
    BASIC(MPI_INT16_T, 2, 2),
    BASIC(MPI_UINT16_T, 2, 2),
    BASIC(MPI_INT32_T, 4, 4),
    BASIC(MPI_UINT32_T, 4, 4),
    BASIC(MPI_INT64_T, 8, 8),
    BASIC(MPI_UINT64_T, 8, 8),
    BASIC(MPI_LOGICAL1, 1, 1),
    BASIC(MPI_INTEGER1, 1, 1),
    BASIC(MPI_CHARACTER, 1, 1),
    BASIC(MPI_LOGICAL2, 2, 2),
    BASIC(MPI_INTEGER2, 2, 2),
    BASIC(MPI_REAL2, 2, 2),
    BASIC(MPI_LOGICAL4, 4, 4),
    BASIC(MPI_INTEGER4, 4, 4),
    BASIC(MPI_REAL4, 4, 4),
    BASIC(MPI_COMPLEX4, 4, 2),
    BASIC(MPI_LOGICAL8, 8, 8),
    BASIC(MPI_INTEGER8, 8, 8),
    BASIC(MPI_REAL8, 8, 8),
    BASIC(MPI_COMPLEX8, 8, 4),
    BASIC(MPI_LOGICAL16, 16, 16),
    BASIC(MPI_INTEGER16, 16, 16),
    BASIC(MPI_REAL16, 16, 16),
    BASIC(MPI_COMPLEX16, 16, 8),
    BASIC(MPI_COMPLEX32, 32, 16),
};

/* Pair types: two runs (value, int) with the struct's padding. */
#define PAIR_NODE(S)                                                        \
    static MPI_Aint S##_off[2] = { 0, offsetof(S, b) };                     \
    static MPI_Aint S##_len[2] = { sizeof(((S *)0)->a), sizeof(int) };      \
    static MPI_Count S##_pfx[3] = { 0, sizeof(((S *)0)->a),                 \
                                    sizeof(((S *)0)->a) + sizeof(int) };    \
    static dt_node_t S##_node = { .kind = DT_BLOCKS, .disp = 0,             \
        .size = sizeof(((S *)0)->a) + sizeof(int), .nruns = 2,              \
        .u.bl = { .n = 2, .off = S##_off, .len = S##_len, .pfx = S##_pfx } }
PAIR_NODE(pair_float_int);
PAIR_NODE(pair_double_int);
PAIR_NODE(pair_long_int);
PAIR_NODE(pair_2int);
PAIR_NODE(pair_short_int);
PAIR_NODE(pair_ldouble_int);

static xb_datatype_t *table[DT_HANDLE_SPAN];
static bool table_ready;

static void set_pair_root(MPI_Datatype h, dt_node_t *n)
{
    xb_datatype_t *dt = table[(uintptr_t)h - DT_HANDLE_BASE];
    if (n->u.bl.off[1] == n->u.bl.len[0]) {  /* no hole: one run */
        dt->root = run_of((size_t)n->size);
        dt->flags |= DT_F_CONTIG;
    } else {
        dt->root = n;
    }
}

/* Builds the table; idempotent, and done on first use as well so that unit
 * tests and early callers need no MPI_Init. */
static void table_build(void)
{
    for (size_t i = 0; i < XB_ARRAY_LEN(predef); i++) {
        xb_datatype_t *dt = &predef[i];
        uintptr_t v = (uintptr_t)dt->handle - DT_HANDLE_BASE;
        dt->basic = dt;
        dt->root = run_of((size_t)dt->size);
        table[v] = dt;
    }
    set_pair_root(MPI_FLOAT_INT, &pair_float_int_node);
    set_pair_root(MPI_DOUBLE_INT, &pair_double_int_node);
    set_pair_root(MPI_LONG_INT, &pair_long_int_node);
    set_pair_root(MPI_2INT, &pair_2int_node);
    set_pair_root(MPI_SHORT_INT, &pair_short_int_node);
    set_pair_root(MPI_LONG_DOUBLE_INT, &pair_ldouble_int_node);
    __atomic_store_n(&table_ready, true, __ATOMIC_RELEASE);
}

static void __attribute__((constructor)) dt_predef_ctor(void)
{
    table_build();
}

int xb_dt_init(void)
{
    if (!__atomic_load_n(&table_ready, __ATOMIC_ACQUIRE))
        table_build();
    return XB_OK;
}

void xb_dt_fini(void)
{
    /* Predefined types are static; names set by the user are kept, as the
     * objects outlive MPI_Finalize. Nothing to release. */
}

xb_datatype_t *xb_dt_from_handle(MPI_Datatype h)
{
    uintptr_t v = (uintptr_t)h;
    if (v < XB_HANDLE_PREDEF_LIMIT) {
        v -= DT_HANDLE_BASE;
        return v < DT_HANDLE_SPAN ? table[v] : NULL;
    }
    xb_datatype_t *dt = (xb_datatype_t *)h;
    if (dt->magic != XB_MAGIC_DTYPE ||
        (__atomic_load_n(&dt->flags, __ATOMIC_ACQUIRE) & DT_F_USER_FREED))
        return NULL;
    return dt;
}

MPI_Datatype xb_dt_to_handle(xb_datatype_t *dt)
{
    return dt == NULL ? MPI_DATATYPE_NULL : dt->handle;
}

void xb_dt_pair_parts(const xb_datatype_t *dt, MPI_Count *a, MPI_Count *b)
{
    *a = 0;
    *b = 0;
    if ((dt->flags & DT_F_PREDEF) && dt->nelems == 2) {
        *b = sizeof(int);
        *a = dt->size - *b;
    }
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * status_set.c - the MPI_Status accessors: MPI_Status_set/get_source, _tag,
 * _error (MPI 4.1), MPI_Status_set_elements, _x and _c, and
 * MPI_Status_set_cancelled, read back through MPI_Get_count,
 * byte counts up to INT64_MAX (and the first that does not fit),
 * MPI_Get_elements[_x] and MPI_Test_cancelled; argument errors under
 * MPI_ERRORS_RETURN; MPI_Pcontrol (does nothing, returns MPI_SUCCESS).
 * The element counts expected below follow from the type maps the test
 * builds (the standard: Get_elements gives back the count that was set,
 * Get_count the number of whole instances of the type, else MPI_UNDEFINED).
 */
#include <stdint.h>
#include "ptest.h"


static int count_of(MPI_Status *st, MPI_Datatype t)
{
    int n = -12345;
    CHECK_RC(MPI_Get_count(st, t, &n));
    return n;
}

static int elems_of(MPI_Status *st, MPI_Datatype t)
{
    int n = -12345;
    CHECK_RC(MPI_Get_elements(st, t, &n));
    MPI_Count x = -12345;
    CHECK_RC(MPI_Get_elements_x(st, t, &x));
    CHECK(x == n || (n == MPI_UNDEFINED && x == MPI_UNDEFINED));
    return n;
}

static void envelope(void)
{
    MPI_Status st;
    memset(&st, 0x5a, sizeof st);
    const int vals[] = { 0, 7, -1, MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ANY_TAG, 1 << 30 };
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        int v = vals[i], s = -99, t = -99, e = -99;
        CHECK_RC(MPI_Status_set_source(&st, v));
        CHECK_RC(MPI_Status_set_tag(&st, v + 1));
        CHECK_RC(MPI_Status_set_error(&st, v + 2));
        CHECK(st.MPI_SOURCE == v && st.MPI_TAG == v + 1 && st.MPI_ERROR == v + 2);
        CHECK_RC(MPI_Status_get_source(&st, &s));
        CHECK_RC(MPI_Status_get_tag(&st, &t));
        CHECK_RC(MPI_Status_get_error(&st, &e));
        CHECK(s == v && t == v + 1 && e == v + 2);
    }
    /* The getters read what the library wrote. */
    int rank, x = 42, y = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_RC(MPI_Sendrecv(&x, 1, MPI_INT, rank, 17, &y, 1, MPI_INT, rank, 17, MPI_COMM_WORLD,
                          &st));
    int s = -1, t = -1;
    CHECK_RC(MPI_Status_get_source(&st, &s));
    CHECK_RC(MPI_Status_get_tag(&st, &t));
    CHECK(s == rank && t == 17 && y == 42);
}

static void elements(void)
{
    MPI_Status st;
    memset(&st, 0, sizeof st);
    st.MPI_SOURCE = 3; st.MPI_TAG = 4; st.MPI_ERROR = 5;
    CHECK_RC(MPI_Status_set_elements(&st, MPI_BYTE, 7));
    CHECK(count_of(&st, MPI_BYTE) == 7 && elems_of(&st, MPI_BYTE) == 7);
    CHECK(st.MPI_SOURCE == 3 && st.MPI_TAG == 4 && st.MPI_ERROR == 5);
    CHECK_RC(MPI_Status_set_elements(&st, MPI_DOUBLE, 5));
    CHECK(count_of(&st, MPI_DOUBLE) == 5 && elems_of(&st, MPI_DOUBLE) == 5);
    CHECK_RC(MPI_Status_set_elements(&st, MPI_INT, 0));
    CHECK(count_of(&st, MPI_INT) == 0 && elems_of(&st, MPI_INT) == 0);

    /* A pair type holds two basic elements: 3 of them are 1.5 pairs. */
    CHECK_RC(MPI_Status_set_elements(&st, MPI_DOUBLE_INT, 3));
    CHECK(elems_of(&st, MPI_DOUBLE_INT) == 3 && count_of(&st, MPI_DOUBLE_INT) == MPI_UNDEFINED);
    CHECK_RC(MPI_Status_set_elements(&st, MPI_DOUBLE_INT, 4));
    CHECK(elems_of(&st, MPI_DOUBLE_INT) == 4 && count_of(&st, MPI_DOUBLE_INT) == 2);

    /* struct {char; 2 x double; int}: 4 basic elements per instance. */
    int bl[3] = { 1, 2, 1 };
    MPI_Aint disp[3] = { 0, 8, 24 };
    MPI_Datatype types[3] = { MPI_CHAR, MPI_DOUBLE, MPI_INT }, st4, vec;
    MPI_Type_create_struct(3, bl, disp, types, &st4);
    MPI_Type_commit(&st4);
    for (int k = 0; k <= 13; k++) {
        CHECK_RC(MPI_Status_set_elements(&st, st4, k));
        CHECK(elems_of(&st, st4) == k);
        CHECK(count_of(&st, st4) == (k % 4 == 0 ? k / 4 : MPI_UNDEFINED));
    }
    /* vector of 3 structs: 12 basic elements each */
    MPI_Type_vector(3, 1, 2, st4, &vec);
    MPI_Type_commit(&vec);
    for (int k = 0; k <= 30; k += 5) {
        CHECK_RC(MPI_Status_set_elements(&st, vec, k));
        CHECK(elems_of(&st, vec) == k);
        CHECK(count_of(&st, vec) == (k % 12 == 0 ? k / 12 : MPI_UNDEFINED));
    }
    CHECK_RC(MPI_Status_set_elements(&st, vec, 24));
    CHECK(count_of(&st, vec) == 2);
    MPI_Type_free(&vec);

    /* indexed (an empty block in the middle) of a pair type: 5 pairs, 10 elements;
     * a 2x3 subarray of shorts: 6 elements */
    int ibl[3] = { 2, 0, 3 }, idisp[3] = { 0, 4, 7 };
    MPI_Datatype idx, sub;
    MPI_Type_indexed(3, ibl, idisp, MPI_2INT, &idx);
    MPI_Type_commit(&idx);
    int sizes[2] = { 4, 5 }, subs[2] = { 2, 3 }, starts[2] = { 1, 1 };
    MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_SHORT, &sub);
    MPI_Type_commit(&sub);
    for (int k = 0; k <= 25; k++) {
        CHECK_RC(MPI_Status_set_elements(&st, idx, k));
        CHECK(elems_of(&st, idx) == k);
        CHECK(count_of(&st, idx) == (k % 10 == 0 ? k / 10 : MPI_UNDEFINED));
        CHECK_RC(MPI_Status_set_elements_x(&st, sub, k));
        CHECK(elems_of(&st, sub) == k);
        CHECK(count_of(&st, sub) == (k % 6 == 0 ? k / 6 : MPI_UNDEFINED));
    }
    MPI_Type_free(&idx);
    MPI_Type_free(&sub);
    MPI_Type_free(&st4);

    /* _x and _c: counts past 2^31 (the int forms narrow to MPI_UNDEFINED). */
    MPI_Count big = ((MPI_Count)3 << 31) + 5, x = 0;
    CHECK_RC(MPI_Status_set_elements_x(&st, MPI_INT, big));
    CHECK_RC(MPI_Get_elements_x(&st, MPI_INT, &x));
    CHECK(x == big);
    CHECK(count_of(&st, MPI_INT) == MPI_UNDEFINED);
    CHECK_RC(MPI_Get_count_c(&st, MPI_INT, &x));
    CHECK(x == big);
    CHECK_RC(MPI_Status_set_elements_c(&st, MPI_SHORT, big + 1));
    CHECK_RC(MPI_Get_elements_c(&st, MPI_SHORT, &x));
    CHECK(x == big + 1);

    /* On a status the library filled: the received count, then reset. */
    int rank, in[6] = { 1, 2, 3, 4, 5, 6 }, out[6];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_RC(MPI_Sendrecv(in, 6, MPI_INT, rank, 1, out, 6, MPI_INT, rank, 1, MPI_COMM_WORLD, &st));
    CHECK(count_of(&st, MPI_INT) == 6);
    CHECK_RC(MPI_Status_set_elements(&st, MPI_INT, 2));
    CHECK(count_of(&st, MPI_INT) == 2 && st.MPI_SOURCE == rank && st.MPI_TAG == 1);
}

static void cancelled(void)
{
    MPI_Status st;
    memset(&st, 0, sizeof st);
    int f = -1;
    CHECK_RC(MPI_Status_set_elements(&st, MPI_INT, 3));
    CHECK_RC(MPI_Status_set_cancelled(&st, 1));
    CHECK_RC(MPI_Test_cancelled(&st, &f));
    CHECK(f == 1);
    CHECK(count_of(&st, MPI_INT) == 3);
    CHECK_RC(MPI_Status_set_cancelled(&st, 0));
    CHECK_RC(MPI_Test_cancelled(&st, &f));
    CHECK(f == 0);
    CHECK_RC(MPI_Status_set_cancelled(&st, 5));   /* any nonzero int is true */
    CHECK_RC(MPI_Test_cancelled(&st, &f));
    CHECK(f == 1);
}

/* Byte counts up to INT64_MAX fit a status (the MPICH test suite's
 * big_count_status: 0x7654321ff1234567 bytes, cancelled kept), with
 * MPI_Get_count and the int MPI_Get_elements giving MPI_UNDEFINED; one
 * more byte than that is MPI_ERR_COUNT. */
static void big_counts(void)
{
    static const MPI_Count bytes[] = { 60, 0x3654321f71234567LL, 0x7654321f71234567LL,
                                       0x7654321ff1234567LL, INT64_MAX };
    MPI_Status st;
    memset(&st, 0, sizeof st);
    for (size_t i = 0; i < sizeof bytes / sizeof bytes[0]; i++) {
        MPI_Count x = -1;
        int f = -1, n = -1, cancel = (int)(i % 2);
        CHECK_RC(MPI_Status_set_cancelled(&st, cancel));
        CHECK_RC(MPI_Status_set_elements_x(&st, MPI_BYTE, bytes[i]));
        CHECK_RC(MPI_Get_elements_x(&st, MPI_BYTE, &x));
        CHECK_RC(MPI_Test_cancelled(&st, &f));
        CHECK(x == bytes[i] && f == cancel);
        CHECK_RC(MPI_Get_count(&st, MPI_BYTE, &n));
        CHECK(n == (bytes[i] <= INT32_MAX ? (int)bytes[i] : MPI_UNDEFINED));
    }
    /* 2 x int64: the largest whole count, then a partial last pair */
    MPI_Datatype two;
    MPI_Type_contiguous(2, MPI_INT64_T, &two);
    MPI_Type_commit(&two);
    MPI_Count most = INT64_MAX / 16 * 2, x = -1;
    CHECK_RC(MPI_Status_set_elements_x(&st, two, most + 1));
    CHECK_RC(MPI_Get_elements_x(&st, two, &x));
    CHECK(x == most + 1);
    EXPECT(MPI_Status_set_elements_x(&st, two, most + 2), MPI_ERR_COUNT,
           "MPI_Status_set_elements_x", "count");
    MPI_Type_free(&two);
    EXPECT(MPI_Status_set_elements_x(&st, MPI_INT, INT64_MAX / 4 + 1), MPI_ERR_COUNT,
           "MPI_Status_set_elements_x", "count");
}

static void errors(void)
{
    MPI_Status st;
    int v;
    memset(&st, 0, sizeof st);
    EXPECT(MPI_Status_set_elements(&st, MPI_DATATYPE_NULL, 0), MPI_ERR_TYPE,
           "MPI_Status_set_elements", "datatype");
    EXPECT(MPI_Status_set_elements_x(&st, MPI_DATATYPE_NULL, 1), MPI_ERR_TYPE,
           "MPI_Status_set_elements_x", "datatype");
    EXPECT(MPI_Status_set_elements(&st, MPI_INT, -1), MPI_ERR_COUNT, "MPI_Status_set_elements",
           "count");
    EXPECT(MPI_Status_set_elements_c(&st, MPI_INT, -5), MPI_ERR_COUNT,
           "MPI_Status_set_elements_c", "count");
    EXPECT(MPI_Status_set_elements(MPI_STATUS_IGNORE, MPI_INT, 1), MPI_ERR_ARG,
           "MPI_Status_set_elements", "status");
    EXPECT(MPI_Status_set_cancelled(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG,
           "MPI_Status_set_cancelled", "status");
    EXPECT(MPI_Status_set_source(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG, "MPI_Status_set_source",
           "status");
    EXPECT(MPI_Status_set_tag(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG, "MPI_Status_set_tag",
           "status");
    EXPECT(MPI_Status_set_error(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG, "MPI_Status_set_error",
           "status");
    EXPECT(MPI_Status_get_source(MPI_STATUS_IGNORE, &v), MPI_ERR_ARG, "MPI_Status_get_source",
           "status");
    EXPECT(MPI_Status_get_tag(&st, NULL), MPI_ERR_ARG, "MPI_Status_get_tag", "tag");
    EXPECT(MPI_Status_get_error(&st, NULL), MPI_ERR_ARG, "MPI_Status_get_error", "err");
    /* A type of size 0 describes no element: only count 0 can be stored. */
    MPI_Datatype empty;
    MPI_Type_contiguous(0, MPI_INT, &empty);
    MPI_Type_commit(&empty);
    CHECK_RC(MPI_Status_set_elements(&st, empty, 0));
    CHECK(elems_of(&st, empty) == 0);
    EXPECT(MPI_Status_set_elements(&st, empty, 3), MPI_ERR_TYPE, "MPI_Status_set_elements",
           "size 0");
    MPI_Type_free(&empty);
    /* Failed calls leave the status alone. */
    CHECK_RC(MPI_Status_set_elements(&st, MPI_INT, 9));
    EXPECT(MPI_Status_set_elements(&st, MPI_INT, -1), MPI_ERR_COUNT, "MPI_Status_set_elements",
           "count");
    CHECK(count_of(&st, MPI_INT) == 9);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    envelope();
    elements();
    cancelled();
    big_counts();
    errors();
    for (int level = 2; level >= 0; level--)
        CHECK(MPI_Pcontrol(level) == MPI_SUCCESS);
    CHECK(MPI_Pcontrol(1, "extra", 3) == MPI_SUCCESS);
    return pt_finish();
}

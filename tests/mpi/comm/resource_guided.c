/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * resource_guided.c - MPI_Get_hw_resource_info and
 * MPI_COMM_TYPE_RESOURCE_GUIDED (MPI 4.1): every key of the info names a
 * resource type that MPI_Comm_split_type accepts; "true" gives a
 * communicator (the same group as HW_GUIDED with that name, which
 * split_type_hw checks against sysfs), "false" MPI_COMM_NULL;
 * "mpi_shared_memory" is there and true; once a rank binds itself to one
 * CPU every type is "true"; RESOURCE_GUIDED with no info, no key or an
 * unknown name gives MPI_COMM_NULL and leaves the info alone; only the
 * ranks that ask get a communicator; an invalid split_type names the types.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdbool.h>
#include "ctest.h"
#include "cexpect.h"

static MPI_Comm split(int type, const char *name)
{
    MPI_Info info;
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Info_create(&info);
    if (name != NULL)
        MPI_Info_set(info, "mpi_hw_resource_type", name);
    CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, type, ct_rank, info, &c));
    char v[64] = "";
    int flag = 0;
    MPI_Info_get(info, "mpi_hw_resource_type", sizeof(v) - 1, v, &flag);
    CHECK(name == NULL ? !flag : flag && strcmp(v, name) == 0, "the info changed: '%s'", v);
    MPI_Info_free(&info);
    return c;
}

/* Check every key of the resource info against both guided splits.
 * All ranks must see the same key set (collective splits): the machine is
 * the same for all of them (one host). Returns how many keys are "true". */
static int check_keys(bool expect_all_true)
{
    MPI_Info hw;
    int nkeys = 0, ntrue = 0, shm = 0;
    CHECK_RC(MPI_Get_hw_resource_info(&hw));
    CHECK(hw != MPI_INFO_NULL, "no info object");
    MPI_Info_get_nkeys(hw, &nkeys);
    for (int k = 0; k < nkeys; k++) {
        char key[MPI_MAX_INFO_KEY + 1], val[16] = "";
        int flag = 0;
        MPI_Info_get_nthkey(hw, k, key);
        MPI_Info_get(hw, key, sizeof(val) - 1, val, &flag);
        bool t = strcmp(val, "true") == 0;
        CHECK(t || strcmp(val, "false") == 0, "%s = '%s'", key, val);
        CHECK(!expect_all_true || t, "%s is %s after binding to one CPU", key, val);
        shm += strcmp(key, "mpi_shared_memory") == 0 && t;
        ntrue += t;
        MPI_Comm a = split(MPI_COMM_TYPE_RESOURCE_GUIDED, key);
        MPI_Comm b = split(MPI_COMM_TYPE_HW_GUIDED, key);
        CHECK((a != MPI_COMM_NULL) == t, "%s=%s but the split gave %s", key, val,
              a == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator");
        CHECK((a == MPI_COMM_NULL) == (b == MPI_COMM_NULL), "%s: guided splits differ", key);
        if (a != MPI_COMM_NULL && b != MPI_COMM_NULL) {
            int res = MPI_UNEQUAL;
            MPI_Comm_compare(a, b, &res);
            CHECK(res == MPI_CONGRUENT, "%s: RESOURCE_GUIDED and HW_GUIDED groups differ", key);
        }
        if (a != MPI_COMM_NULL)
            MPI_Comm_free(&a);
        if (b != MPI_COMM_NULL)
            MPI_Comm_free(&b);
    }
    CHECK(shm == 1, "mpi_shared_memory missing or not true");
    MPI_Info_free(&hw);
    return ntrue;
}

static void bind_one_cpu(cpu_set_t *saved)
{
    cpu_set_t one;
    sched_getaffinity(0, sizeof(*saved), saved);
    CPU_ZERO(&one);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, saved)) {
            CPU_SET(c, &one);
            break;
        }
    sched_setaffinity(0, sizeof(one), &one);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    check_keys(false);
    cpu_set_t saved;
    bind_one_cpu(&saved);
    CHECK(check_keys(true) >= 1, "no key");
    sched_setaffinity(0, sizeof(saved), &saved);

    MPI_Comm c = MPI_COMM_NULL;
    CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_RESOURCE_GUIDED, 0,
                                 MPI_INFO_NULL, &c));
    CHECK(c == MPI_COMM_NULL, "MPI_INFO_NULL gave a communicator");
    c = split(MPI_COMM_TYPE_RESOURCE_GUIDED, NULL);
    CHECK(c == MPI_COMM_NULL, "no key gave a communicator");
    c = split(MPI_COMM_TYPE_RESOURCE_GUIDED, "@dont-thread-on-me@");
    CHECK(c == MPI_COMM_NULL, "an unknown name gave a communicator");
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    c = split(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_shared_memory");
    int res = MPI_UNEQUAL;
    if (c != MPI_COMM_NULL)
        MPI_Comm_compare(c, node, &res);
    CHECK(res == MPI_CONGRUENT, "mpi_shared_memory is not the node");
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    MPI_Comm_free(&node);
    for (int root = 0; root < ct_size; root++) {       /* only the root asks */
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory");
        CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, ct_rank == root ?
                                     MPI_COMM_TYPE_RESOURCE_GUIDED : MPI_UNDEFINED, 0, info,
                                     &c));
        int sz = -1;
        if (c != MPI_COMM_NULL) {
            MPI_Comm_size(c, &sz);
            MPI_Comm_free(&c);
        }
        CHECK(ct_rank == root ? sz == 1 : sz == -1, "root %d: size %d", root, sz);
        MPI_Info_free(&info);
    }
    EXPECT(MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &c), MPI_ERR_ARG,
           "MPI_Comm_split_type", "MPI_COMM_TYPE_RESOURCE_GUIDED");
    return ct_finish();
}

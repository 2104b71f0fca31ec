/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * split_type.c - MPI_Comm_split_type: SHARED groups the ranks of one node
 * (checked against MPI_Get_processor_name, which is the launcher's host
 * name), ordered by key; MPI_UNDEFINED gives MPI_COMM_NULL; HW_GUIDED with
 * "mpi_shared_memory" equals SHARED; an unknown resource type gives
 * MPI_COMM_NULL; HW_UNGUIDED gives a strict subset or MPI_COMM_NULL; a bad
 * split_type is MPI_ERR_ARG.
 */
#include "ctest.h"

/* Number of world ranks with my processor name. */
static int same_host(void)
{
    char name[MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Get_processor_name(name, &len);
    char *all = ct_malloc((size_t)ct_size * MPI_MAX_PROCESSOR_NAME);
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME,
                  MPI_CHAR, MPI_COMM_WORLD);
    int n = 0;
    for (int i = 0; i < ct_size; i++)
        n += strcmp(all + (size_t)i * MPI_MAX_PROCESSOR_NAME, name) == 0;
    free(all);
    return n;
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int local = same_host();
    MPI_Comm c;
    /* key = -rank reverses the order */
    CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -ct_rank,
                                 MPI_INFO_NULL, &c));
    int size = -1, rank = -1;
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &rank);
    CHECK(size == local, "shared size %d want %d", size, local);
    int *w = ct_malloc((size_t)size * sizeof(int));
    MPI_Allgather(&ct_rank, 1, MPI_INT, w, 1, MPI_INT, c);
    for (int i = 1; i < size; i++)
        CHECK(w[i] < w[i - 1], "shared: key order broken at %d", i);
    free(w);
    MPI_Comm_free(&c);

    /* half the ranks undefined */
    CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, ct_rank % 2 ? MPI_UNDEFINED
                                 : MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c));
    CHECK((ct_rank % 2 != 0) == (c == MPI_COMM_NULL), "undefined -> MPI_COMM_NULL");
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);

    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory");
    CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c));
    CHECK(c != MPI_COMM_NULL, "hw_guided shared memory gave MPI_COMM_NULL");
    if (c != MPI_COMM_NULL) {
        MPI_Comm_size(c, &size);
        CHECK(size == local, "hw_guided size %d want %d", size, local);
        MPI_Comm_free(&c);
    }
    MPI_Info_set(info, "mpi_hw_resource_type", "no-such-level");
    CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info, &c));
    CHECK(c == MPI_COMM_NULL, "unknown hw resource gave a communicator");
    MPI_Info_free(&info);

    CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0,
                                 MPI_INFO_NULL, &c));
    if (c != MPI_COMM_NULL) {
        MPI_Comm_size(c, &size);
        CHECK(size < ct_size, "hw_unguided must be a strict subset (%d)", size);
        MPI_Comm_free(&c);
    } else
        CHECK(local == ct_size, "hw_unguided null although nodes differ");

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &c);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG, "bad split_type: class %d", cls);
    CHECK(c == MPI_COMM_NULL, "bad split_type: newcomm not null");
    return ct_finish();
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_create.c - MPI_Comm_create (members get a communicator in group
 * order, others MPI_COMM_NULL), MPI_Comm_create_group (only the group's
 * members call it; two calls on overlapping groups told apart by tag),
 * MPI_Comm_dup_with_info / set_info / get_info, MPI_Comm_test_inter,
 * MPI_Comm_get_parent, and the error of a group that is not a subset.
 * Each new communicator is used: an allreduce of world ranks and a ring
 * exchange on its point-to-point context.
 */
#include "ctest.h"

/* Allreduce and a ring sendrecv on c whose members are world[0..n). */
static void use(MPI_Comm c, int n, const int *world, const char *what)
{
    int size = -1, rank = -1;
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &rank);
    CHECK(size == n, "%s: size %d want %d", what, size, n);
    CHECK(rank >= 0 && rank < n && world[rank] == ct_rank, "%s: rank %d", what, rank);
    int sum = 0, want = 0;
    for (int i = 0; i < n; i++)
        want += world[i];
    MPI_Allreduce(&ct_rank, &sum, 1, MPI_INT, MPI_SUM, c);
    CHECK(sum == want, "%s: allreduce %d want %d", what, sum, want);
    int from = -1;
    MPI_Sendrecv(&ct_rank, 1, MPI_INT, (rank + 1) % n, 7, &from, 1, MPI_INT,
                 (rank + n - 1) % n, 7, c, MPI_STATUS_IGNORE);
    CHECK(from == world[(rank + n - 1) % n], "%s: ring got %d", what, from);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int p = ct_size, r = ct_rank;
    MPI_Group wg, g;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int *list = ct_malloc((size_t)p * sizeof(int));

    /* Comm_create: the world in reverse order, minus rank 0 when p > 1 */
    int n = 0;
    for (int i = p - 1; i >= (p > 1 ? 1 : 0); i--)
        list[n++] = i;
    MPI_Group_incl(wg, n, list, &g);
    MPI_Comm c = MPI_COMM_WORLD;
    CHECK_RC(MPI_Comm_create(MPI_COMM_WORLD, g, &c));
    if (p > 1 && r == 0)
        CHECK(c == MPI_COMM_NULL, "non-member got a communicator");
    else {
        CHECK(c != MPI_COMM_NULL, "member got MPI_COMM_NULL");
        if (c != MPI_COMM_NULL) {
            use(c, n, list, "create reverse");
            MPI_Comm_free(&c);
        }
    }

    /* Comm_create_group: evens only, then (overlapping) low half, with
     * different tags; non-members do not call */
    MPI_Group_free(&g);
    n = 0;
    for (int i = 0; i < p; i += 2)
        list[n++] = i;
    MPI_Group_incl(wg, n, list, &g);
    if (r % 2 == 0) {
        CHECK_RC(MPI_Comm_create_group(MPI_COMM_WORLD, g, 11, &c));
        use(c, n, list, "create_group evens");
        MPI_Comm_free(&c);
    }
    MPI_Group_free(&g);
    int nl = (p + 1) / 2;
    int ranges[1][3] = { { 0, nl - 1, 1 } };
    MPI_Group_range_incl(wg, 1, ranges, &g);
    for (int i = 0; i < nl; i++)
        list[i] = i;
    if (r < nl) {
        CHECK_RC(MPI_Comm_create_group(MPI_COMM_WORLD, g, 12, &c));
        use(c, nl, list, "create_group low");
        MPI_Comm_free(&c);
    }
    MPI_Group_free(&g);

    /* info on communicators */
    MPI_Info info, got;
    MPI_Info_create(&info);
    MPI_Info_set(info, "crossbar_test_hint", "yes");
    CHECK_RC(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c));
    CHECK_RC(MPI_Comm_get_info(c, &got));
    char v[32];
    int flag = 0;
    MPI_Info_get(got, "crossbar_test_hint", 31, v, &flag);
    CHECK(flag && strcmp(v, "yes") == 0, "dup_with_info hint lost");
    MPI_Info_free(&got);
    /* set_info: a hint it cannot take is ignored (as in MPICH and Open MPI:
     * MPICH's comm_info), one it can is seen, the others keep their values */
    MPI_Info_set(info, "crossbar_test_hint", "no");
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    CHECK_RC(MPI_Comm_set_info(c, info));
    MPI_Comm_get_info(c, &got);
    MPI_Info_get(got, "crossbar_test_hint", 31, v, &flag);
    CHECK(flag && strcmp(v, "yes") == 0, "set_info took an unknown hint: %s",
          flag ? v : "(gone)");
    MPI_Info_get(got, "mpi_assert_no_any_tag", 31, v, &flag);
    CHECK(flag && strcmp(v, "true") == 0, "set_info not seen");
    MPI_Info_free(&got);
    MPI_Info none;
    MPI_Info_create(&none);
    CHECK_RC(MPI_Comm_set_info(c, none));
    MPI_Info_free(&none);
    MPI_Comm_get_info(c, &got);
    MPI_Info_get(got, "mpi_assert_no_any_tag", 31, v, &flag);
    CHECK(flag && strcmp(v, "true") == 0, "set_info of no hints dropped one");
    MPI_Info_free(&got);
    for (int i = 0; i < p; i++)
        list[i] = i;
    use(c, p, list, "dup_with_info");
    int inter = -1;
    CHECK_RC(MPI_Comm_test_inter(c, &inter));
    CHECK(inter == 0, "test_inter on an intracommunicator: %d", inter);
    MPI_Comm_free(&c);
    MPI_Info_free(&info);
    MPI_Comm parent = MPI_COMM_WORLD;
    CHECK_RC(MPI_Comm_get_parent(&parent));
    CHECK(parent == MPI_COMM_NULL, "get_parent without spawn");

    /* error: a group that is not a subset of the communicator's group */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    int rc = MPI_Comm_create_group(MPI_COMM_SELF, g, 1, &c);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    if (p > 1)
        CHECK(cls == MPI_ERR_GROUP, "create_group with a bigger group: class %d", cls);
    else
        CHECK(rc == MPI_SUCCESS && c != MPI_COMM_NULL, "self create_group");
    if (rc == MPI_SUCCESS && c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    free(list);
    return ct_finish();
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * compare_group.c - MPI_Comm_compare (IDENT, CONGRUENT, SIMILAR, UNEQUAL),
 * MPI_Comm_group and the group calls on real communicators: size, rank,
 * incl, excl, translate_ranks, compare, free; names of communicators.
 */
#include "ctest.h"

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int p = ct_size, r = ct_rank, res;
    MPI_Comm dup, rev, half;
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res);
    CHECK(res == MPI_IDENT, "world/world %d", res);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &res);
    CHECK(res == MPI_CONGRUENT, "world/dup %d", res);
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - r, &rev);
    MPI_Comm_compare(MPI_COMM_WORLD, rev, &res);
    CHECK(res == (p == 1 ? MPI_CONGRUENT : MPI_SIMILAR), "world/reversed %d", res);
    MPI_Comm_split(MPI_COMM_WORLD, r < (p + 1) / 2, r, &half);
    MPI_Comm_compare(MPI_COMM_WORLD, half, &res);
    CHECK(res == (p == 1 ? MPI_CONGRUENT : MPI_UNEQUAL), "world/half %d", res);
    MPI_Comm_compare(MPI_COMM_SELF, MPI_COMM_SELF, &res);
    CHECK(res == MPI_IDENT, "self/self %d", res);
    MPI_Comm_compare(MPI_COMM_SELF, MPI_COMM_WORLD, &res);
    CHECK(res == (p == 1 ? MPI_CONGRUENT : MPI_UNEQUAL), "self/world %d", res);

    /* groups */
    MPI_Group wg, rg, sg, g;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Comm_group(rev, &rg);
    MPI_Comm_group(MPI_COMM_SELF, &sg);
    int size, rank;
    MPI_Group_size(wg, &size);
    MPI_Group_rank(wg, &rank);
    CHECK(size == p && rank == r, "world group %d %d", size, rank);
    MPI_Group_rank(rg, &rank);
    CHECK(rank == p - 1 - r, "reversed group rank %d", rank);
    MPI_Group_compare(wg, rg, &res);
    CHECK(res == (p == 1 ? MPI_IDENT : MPI_SIMILAR), "world/rev groups %d", res);
    MPI_Group_size(sg, &size);
    MPI_Group_rank(sg, &rank);
    CHECK(size == 1 && rank == 0, "self group %d %d", size, rank);
    int zero = 0, me;
    MPI_Group_translate_ranks(sg, 1, &zero, wg, &me);
    CHECK(me == r, "self rank 0 is world rank %d, got %d", r, me);

    /* incl the even ranks, excl the odd ones: same group */
    int *ev = ct_malloc((size_t)p * sizeof(int)), *od = ct_malloc((size_t)p * sizeof(int));
    int ne = 0, no = 0;
    for (int i = 0; i < p; i++) {
        if (i % 2 == 0)
            ev[ne++] = i;
        else
            od[no++] = i;
    }
    MPI_Group ge, gx;
    CHECK_RC(MPI_Group_incl(wg, ne, ev, &ge));
    CHECK_RC(MPI_Group_excl(wg, no, od, &gx));
    MPI_Group_compare(ge, gx, &res);
    CHECK(res == MPI_IDENT, "incl evens vs excl odds %d", res);
    MPI_Group_rank(ge, &rank);
    CHECK(rank == (r % 2 == 0 ? r / 2 : MPI_UNDEFINED), "rank in evens %d", rank);
    int *tr = ct_malloc((size_t)p * sizeof(int)), *all = ct_malloc((size_t)p * sizeof(int));
    for (int i = 0; i < p; i++)
        all[i] = i;
    MPI_Group_translate_ranks(wg, p, all, ge, tr);
    free(all);
    for (int i = 0; i < p; i++)
        CHECK(tr[i] == (i % 2 == 0 ? i / 2 : MPI_UNDEFINED), "translate %d -> %d", i, tr[i]);
    MPI_Group_free(&ge);
    MPI_Group_free(&gx);
    CHECK(ge == MPI_GROUP_NULL, "group free sets MPI_GROUP_NULL");

    /* empty group */
    CHECK_RC(MPI_Group_incl(wg, 0, NULL, &g));
    MPI_Group_size(g, &size);
    CHECK(size == 0 && g == MPI_GROUP_EMPTY, "empty incl %d", size);
    MPI_Group_compare(g, MPI_GROUP_EMPTY, &res);
    CHECK(res == MPI_IDENT, "empty/empty %d", res);
    MPI_Group_free(&g);

    /* names */
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14, "world name '%s'", name);
    MPI_Comm_get_name(MPI_COMM_SELF, name, &len);
    CHECK(strcmp(name, "MPI_COMM_SELF") == 0, "self name '%s'", name);
    len = -1;
    CHECK_RC(MPI_Comm_get_name(MPI_COMM_NULL, name, &len));   /* MPI 4.1 */
    CHECK(strcmp(name, "MPI_COMM_NULL") == 0 && len == 13, "null name '%s'", name);
    MPI_Comm_get_name(dup, name, &len);
    CHECK(len == 0 && name[0] == '\0', "a dup has no name: '%s'", name);
    MPI_Comm_set_name(dup, "my dup");
    MPI_Comm_get_name(dup, name, &len);
    CHECK(strcmp(name, "my dup") == 0 && len == 6, "set name '%s'", name);

    MPI_Group_free(&wg);
    MPI_Group_free(&rg);
    MPI_Group_free(&sg);
    free(ev);
    free(od);
    free(tr);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);
    return ct_finish();
}

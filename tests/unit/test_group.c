/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_group.c - group operations without a job: incl, excl,
 * translate_ranks, compare, rank, free, MPI_GROUP_EMPTY, identity maps,
 * the set operations and range forms (group_ops.c), and the error paths
 * (rank out of range, duplicate rank, bad range, freed handle).
 */
#include <stdio.h>
#include <string.h>
#include "core/core.h"
#include "xb_impl.h"

static int failures;
#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            failures++;                                                      \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                      \
            printf(__VA_ARGS__);                                             \
            printf("\n");                                                    \
        }                                                                    \
    } while (0)

static xb_group_t *G(MPI_Group h) { return xb_group_from_handle(h); }

/* Members of h as world ranks equal want[0..n). */
static void same(MPI_Group h, int n, const int *want, const char *what)
{
    xb_group_t *g = G(h);
    CHECK(g != NULL && g->size == n, "%s: size %d want %d", what, g ? g->size : -1, n);
    for (int i = 0; g != NULL && i < n && i < g->size; i++)
        CHECK((int)xb_group_gpid(g, i) == want[i], "%s: member %d is %d want %d",
              what, i, (int)xb_group_gpid(g, i), want[i]);
    if (h != MPI_GROUP_EMPTY)
        xb_impl_group_free(&h);
}

/* union/intersection/difference/range_incl/range_excl (group_ops.c) */
static void set_ops(xb_group_t *world, xb_group_t *rev)
{
    int s1[3] = { 1, 3, 5 }, s2[3] = { 5, 6, 1 };
    MPI_Group h1, h2, h;
    xb_impl_group_incl(world, 3, s1, &h1);
    xb_impl_group_incl(world, 3, s2, &h2);
    xb_impl_group_union(G(h1), G(h2), &h);
    same(h, 4, (int[]){ 1, 3, 5, 6 }, "union");
    xb_impl_group_intersection(G(h2), G(h1), &h);
    same(h, 2, (int[]){ 5, 1 }, "intersection keeps group1's order");
    xb_impl_group_difference(G(h1), G(h2), &h);
    same(h, 1, (int[]){ 3 }, "difference");
    xb_impl_group_difference(G(h1), G(h1), &h);
    CHECK(h == MPI_GROUP_EMPTY, "difference with itself is MPI_GROUP_EMPTY");
    xb_impl_group_union(world, rev, &h);
    CHECK(G(h) != NULL && G(h)->world == NULL && G(h)->rank == 2,
          "world union reversed is the identity group");
    xb_impl_group_free(&h);
    int r1[2][3] = { { 7, 1, -3 }, { 0, 0, 1 } };       /* 7 4 1 0 */
    xb_impl_group_range_incl(world, 2, r1, &h);
    same(h, 4, (int[]){ 7, 4, 1, 0 }, "range_incl");
    xb_impl_group_range_excl(world, 2, r1, &h);
    same(h, 4, (int[]){ 2, 3, 5, 6 }, "range_excl");
    int bad[1][3] = { { 0, 8, 1 } };
    CHECK(xb_impl_group_range_incl(world, 1, bad, &h) == -MPI_ERR_RANK, "range past end");
    int back[1][3] = { { 5, 1, 1 } };
    CHECK(xb_impl_group_range_excl(world, 1, back, &h) == -MPI_ERR_ARG,
          "stride pointing away");
    xb_impl_group_free(&h1);
    xb_impl_group_free(&h2);
}

int main(void)
{
    xb_group_set_my_world_rank(2);
    xb_group_t *world = xb_group_new(8, NULL);          /* 0..7, identity */
    CHECK(world != NULL && world->world == NULL, "identity map");
    CHECK(world->rank == 2 && world->size == 8, "world rank/size");
    int ident[3] = { 0, 1, 2 };
    xb_group_t *prefix = xb_group_new(3, ident);
    CHECK(prefix->world == NULL, "a prefix of the world is stored as identity");
    xb_group_release(prefix);

    /* incl: reverse order */
    int rev[8] = { 7, 6, 5, 4, 3, 2, 1, 0 };
    MPI_Group hrev, hsub, hex, hempty;
    CHECK(xb_impl_group_incl(world, 8, rev, &hrev) == 0, "incl rev");
    xb_group_t *grev = G(hrev);
    CHECK(grev != NULL && grev->rank == 5, "my rank in reversed group is 5, got %d",
          grev ? grev->rank : -99);
    int res;
    xb_impl_group_compare(world, grev, &res);
    CHECK(res == MPI_SIMILAR, "world vs reversed: SIMILAR, got %d", res);
    xb_impl_group_compare(world, world, &res);
    CHECK(res == MPI_IDENT, "world vs world: IDENT");

    /* incl a subset without me */
    int sub[3] = { 4, 0, 6 };
    CHECK(xb_impl_group_incl(world, 3, sub, &hsub) == 0, "incl sub");
    xb_group_t *gsub = G(hsub);
    int sz, rk;
    xb_impl_group_size(gsub, &sz);
    xb_impl_group_rank(gsub, &rk);
    CHECK(sz == 3 && rk == MPI_UNDEFINED, "sub size 3 rank UNDEFINED: %d %d", sz, rk);
    xb_impl_group_compare(world, gsub, &res);
    CHECK(res == MPI_UNEQUAL, "world vs sub: UNEQUAL");

    /* translate world -> sub and sub -> rev */
    int in[5] = { 0, 4, 6, 5, MPI_PROC_NULL }, out[5];
    CHECK(xb_impl_group_translate_ranks(world, 5, in, gsub, out) == 0, "translate");
    CHECK(out[0] == 1 && out[1] == 0 && out[2] == 2 && out[3] == MPI_UNDEFINED &&
          out[4] == MPI_PROC_NULL, "translate world->sub: %d %d %d %d %d",
          out[0], out[1], out[2], out[3], out[4]);
    int in2[3] = { 0, 1, 2 };
    xb_impl_group_translate_ranks(gsub, 3, in2, grev, out);
    CHECK(out[0] == 3 && out[1] == 7 && out[2] == 1, "translate sub->rev: %d %d %d",
          out[0], out[1], out[2]);

    /* excl keeps the order of the remaining members */
    int ex[2] = { 6, 1 };
    CHECK(xb_impl_group_excl(grev, 2, ex, &hex) == 0, "excl");
    xb_group_t *gex = G(hex);
    int want[6] = { 7, 5, 4, 3, 2, 0 };   /* grev[6] = 1 and grev[1] = 6 go */
    bool ok = gex != NULL && gex->size == 6;
    for (int i = 0; ok && i < 6; i++)
        ok = (int)xb_group_gpid(gex, i) == want[i];
    CHECK(ok, "excl result order");
    CHECK(gex->rank == 4, "my rank after excl is 4, got %d", gex->rank);

    /* empty groups */
    CHECK(xb_impl_group_incl(world, 0, NULL, &hempty) == 0, "incl 0");
    CHECK(hempty == MPI_GROUP_EMPTY, "incl of nothing is MPI_GROUP_EMPTY");
    xb_impl_group_compare(G(MPI_GROUP_EMPTY), G(hempty), &res);
    CHECK(res == MPI_IDENT, "empty vs empty IDENT");
    CHECK(xb_impl_group_free(&hempty) == 0 && hempty == MPI_GROUP_NULL, "free empty");
    CHECK(G(MPI_GROUP_NULL) == NULL, "MPI_GROUP_NULL resolves to NULL");

    /* error paths */
    int badr[2] = { 1, 8 };
    MPI_Group junk = MPI_GROUP_NULL;
    CHECK(xb_impl_group_incl(world, 2, badr, &junk) == -MPI_ERR_RANK, "rank 8 rejected");
    CHECK(strstr(xb_err_detail(), "8") != NULL, "message names the rank: %s",
          xb_err_detail());
    int dup[2] = { 3, 3 };
    CHECK(xb_impl_group_incl(world, 2, dup, &junk) == -MPI_ERR_RANK, "duplicate rejected");
    CHECK(xb_impl_group_excl(world, 2, dup, &junk) == -MPI_ERR_RANK, "excl dup rejected");
    CHECK(junk == MPI_GROUP_NULL, "no output on failure");
    int bad1[1] = { 3 };
    CHECK(xb_impl_group_translate_ranks(gsub, 1, bad1, world, out) == -MPI_ERR_RANK,
          "translate rank out of range");

    /* free, then the handle is reported as freed */
    MPI_Group keep = hsub;
    CHECK(xb_impl_group_free(&hsub) == 0 && hsub == MPI_GROUP_NULL, "free sub");
    CHECK(G(keep) == NULL, "freed group no longer resolves");
    CHECK(xb_impl_group_free(&keep) == -MPI_ERR_GROUP, "double free is an error");
    set_ops(world, grev);
    xb_impl_group_free(&hrev);
    xb_impl_group_free(&hex);
    xb_group_release(world);
    xb_group_pool_fini();
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("No Errors\n");
    return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * group.c - process groups (MPI_Group): handles, reference counts, and the
 * local group operations (size, rank, incl, excl, translate_ranks, compare,
 * free). A group lists the world rank of each member; a NULL list means the
 * identity map (member i is world rank i), which is what COMM_WORLD, its
 * duplicates and every prefix of the world use: O(1) memory.
 *
 * Freed groups keep their memory on a free list (magic XB_MAGIC_FREED), so a
 * stale handle is reported as freed instead of reading released memory.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "xb_impl.h"

static xb_group_t empty_group = {
    .magic = XB_MAGIC_GROUP, .refcount = 1, .size = 0,
    .rank = MPI_UNDEFINED, .world = NULL,
};
static xb_group_t *free_list;   /* linked through the `world` field */
static int my_world_rank;

void xb_group_set_my_world_rank(int rank) { my_world_rank = rank; }
xb_group_t *xb_group_empty(void) { return &empty_group; }

xb_group_t *xb_group_from_handle(MPI_Group h)
{
    if (h == MPI_GROUP_EMPTY)
        return &empty_group;
    if (xb_handle_is_predef(h))
        return NULL;
    xb_group_t *g = (xb_group_t *)h;
    return g->magic == XB_MAGIC_GROUP ? g : NULL;
}

MPI_Group xb_group_to_handle(xb_group_t *g)
{
    if (g == NULL)
        return MPI_GROUP_NULL;
    if (g == &empty_group)
        return MPI_GROUP_EMPTY;
    return (MPI_Group)g;
}

xb_group_t *xb_group_new(int n, const int *world)
{
    if (n == 0)
        return &empty_group;
    bool identity = true;
    for (int i = 0; world != NULL && i < n && identity; i++)
        identity = world[i] == i;
    xb_group_t *g = free_list;
    if (g != NULL)
        free_list = (xb_group_t *)(void *)g->world;
    else if ((g = malloc(sizeof(*g))) == NULL)
        goto err_nomem;
    memset(g, 0, sizeof(*g));
    if (!identity) {
        g->world = malloc((size_t)n * sizeof(int));
        if (g->world == NULL) {
            g->magic = XB_MAGIC_FREED;
            g->world = (int *)(void *)free_list;
            free_list = g;
            goto err_nomem;
        }
        memcpy(g->world, world, (size_t)n * sizeof(int));
    }
    g->magic = XB_MAGIC_GROUP;
    g->refcount = 1;
    g->size = n;
    g->rank = MPI_UNDEFINED;
    if (identity) {
        if (my_world_rank < n)
            g->rank = my_world_rank;
    } else {
        for (int i = 0; i < n; i++)
            if (world[i] == my_world_rank) {
                g->rank = i;
                break;
            }
    }
    return g;
err_nomem:
    xb_err_set(XB_ERR_NO_MEM, "out of memory for a group of %d processes", n);
    return NULL;
}

void xb_group_retain(xb_group_t *g)
{
    if (g != &empty_group)
        g->refcount++;
}

void xb_group_release(xb_group_t *g)
{
    if (g == &empty_group || --g->refcount > 0)
        return;
    xb_bbuf_release(g->session_bbuf);
    free(g->world);
    g->magic = XB_MAGIC_FREED;
    g->world = (int *)(void *)free_list;
    free_list = g;
}

/* ---- MPI_Group_* ------------------------------------------------------- */
int xb_impl_group_size(xb_group_t *group, int *size)
{
    *size = group->size;
    return XB_OK;
}

int xb_impl_group_rank(xb_group_t *group, int *rank)
{
    *rank = group->rank;
    return XB_OK;
}

/* Check that ranks[0..n) are valid, distinct ranks of g. */
static int check_ranks(const xb_group_t *g, int n, const int ranks[])
{
    if (n < 0)
        return xb_err_set(XB_ERR_ARG, "invalid argument n: %d (negative)", n);
    char *seen = calloc((size_t)g->size + 1, 1);
    if (seen == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory");
    int rc = XB_OK;
    for (int i = 0; i < n && rc == XB_OK; i++) {
        int r = ranks[i];
        if (r < 0 || r >= g->size)
            rc = xb_err_set(XB_ERR_RANK, "invalid rank %d in ranks[%d] (the "
                            "group has %d members)", r, i, g->size);
        else if (seen[r]++)
            rc = xb_err_set(XB_ERR_RANK, "rank %d appears twice in ranks "
                            "(ranks[%d])", r, i);
    }
    free(seen);
    return rc;
}

static int make_handle(int n, const int *world, MPI_Group *newgroup)
{
    xb_group_t *g = xb_group_new(n, world);
    if (g == NULL)
        return XB_ERR_NO_MEM;
    *newgroup = xb_group_to_handle(g);
    return XB_OK;
}

int xb_impl_group_incl(xb_group_t *group, int n, const int ranks[],
                       MPI_Group *newgroup)
{
    int rc = check_ranks(group, n, ranks);
    if (rc != XB_OK)
        return rc;
    int *w = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    if (w == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < n; i++)
        w[i] = (int)xb_group_gpid(group, ranks[i]);
    rc = make_handle(n, w, newgroup);
    free(w);
    return rc;
}

int xb_impl_group_excl(xb_group_t *group, int n, const int ranks[],
                       MPI_Group *newgroup)
{
    int rc = check_ranks(group, n, ranks);
    if (rc != XB_OK)
        return rc;
    char *out = calloc((size_t)group->size + 1, 1);
    int *w = malloc(((size_t)group->size + 1) * sizeof(int));
    if (out == NULL || w == NULL) {
        free(out);
        free(w);
        return xb_err_set(XB_ERR_NO_MEM, "out of memory");
    }
    for (int i = 0; i < n; i++)
        out[ranks[i]] = 1;
    int m = 0;
    for (int r = 0; r < group->size; r++)
        if (!out[r])
            w[m++] = (int)xb_group_gpid(group, r);
    rc = make_handle(m, w, newgroup);
    free(out);
    free(w);
    return rc;
}

/* map[world rank] = rank in g (or MPI_UNDEFINED), for world ranks <= maxw */
static int *world_to_rank(const xb_group_t *g, int maxw)
{
    int *map = malloc(((size_t)maxw + 1) * sizeof(int));
    if (map == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "out of memory");
        return NULL;
    }
    for (int i = 0; i <= maxw; i++)
        map[i] = MPI_UNDEFINED;
    for (int r = 0; r < g->size; r++) {
        int w = (int)xb_group_gpid(g, r);
        if (w <= maxw)
            map[w] = r;
    }
    return map;
}

static int max_world(const xb_group_t *g)
{
    int m = 0;
    for (int r = 0; r < g->size; r++) {
        int w = (int)xb_group_gpid(g, r);
        m = w > m ? w : m;
    }
    return m;
}

int xb_impl_group_translate_ranks(xb_group_t *group1, int n, const int ranks1[],
                                  xb_group_t *group2, int ranks2[])
{
    if (n < 0)
        return xb_err_set(XB_ERR_ARG, "invalid argument n: %d (negative)", n);
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= group1->size))
            return xb_err_set(XB_ERR_RANK, "invalid rank %d in ranks1[%d] (group1 "
                              "has %d members)", ranks1[i], i, group1->size);
    int maxw = max_world(group1);
    int *map = world_to_rank(group2, maxw);
    if (map == NULL)
        return XB_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL
                  : map[xb_group_gpid(group1, ranks1[i])];
    free(map);
    return XB_OK;
}

/* MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL (used by comm_compare too). */
int xb_group_compare(const xb_group_t *a, const xb_group_t *b)
{
    if (a == b)
        return MPI_IDENT;
    if (a->size != b->size)
        return MPI_UNEQUAL;
    bool same_order = true;
    for (int r = 0; r < a->size && same_order; r++)
        same_order = xb_group_gpid(a, r) == xb_group_gpid(b, r);
    if (same_order)
        return MPI_IDENT;
    int maxw = max_world(a);
    int *map = world_to_rank(a, maxw);
    if (map == NULL)
        return MPI_UNEQUAL;
    int res = MPI_SIMILAR;
    for (int r = 0; r < b->size && res == MPI_SIMILAR; r++) {
        int w = (int)xb_group_gpid(b, r);
        if (w > maxw || map[w] == MPI_UNDEFINED)
            res = MPI_UNEQUAL;
    }
    free(map);
    return res;
}

int xb_impl_group_compare(xb_group_t *group1, xb_group_t *group2, int *result)
{
    *result = xb_group_compare(group1, group2);
    return XB_OK;
}

int xb_impl_group_free(MPI_Group *group)
{
    xb_group_t *g = xb_group_from_handle(*group);
    if (g == NULL)
        return xb_err_set(XB_ERR_GROUP, "invalid group handle %p (null or "
                          "already freed)", (void *)*group);
    xb_group_release(g);
    *group = MPI_GROUP_NULL;
    return XB_OK;
}

/* Free-list memory goes back at finalize (xb_comm_fini_predefined). */
void xb_group_pool_fini(void)
{
    while (free_list != NULL) {
        xb_group_t *g = free_list;
        free_list = (xb_group_t *)(void *)g->world;
        free(g);
    }
}

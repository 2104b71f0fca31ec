/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * group_ops.c - the set operations on groups (MPI_Group_union,
 * _intersection, _difference) and the range forms of incl/excl. Local: no
 * communication. Member order follows the standard: union is group1 then
 * the members of group2 not in group1 (in group2's order); intersection
 * and difference keep group1's order; range_incl lists the ranges' ranks in
 * the order given. An explicit identity list collapses to the O(1) form in
 * xb_group_new.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "xb_impl.h"

static int max_gpid(const xb_group_t *g)
{
    int m = 0;
    for (int r = 0; r < g->size; r++) {
        int w = (int)xb_group_gpid(g, r);
        m = w > m ? w : m;
    }
    return m;
}

/* in[w] = 1 when world rank w (<= maxw) is a member of g. */
static char *membership(const xb_group_t *g, int maxw)
{
    char *in = calloc((size_t)maxw + 1, 1);
    if (in == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "out of memory for a group operation");
        return NULL;
    }
    for (int r = 0; r < g->size; r++) {
        int w = (int)xb_group_gpid(g, r);
        if (w <= maxw)
            in[w] = 1;
    }
    return in;
}

static int finish(int n, int *world, MPI_Group *newgroup)
{
    xb_group_t *g = xb_group_new(n, world);
    free(world);
    if (g == NULL)
        return XB_ERR_NO_MEM;
    *newgroup = xb_group_to_handle(g);
    return XB_OK;
}

enum setop { OP_UNION, OP_INTERSECTION, OP_DIFFERENCE };

static int set_op(xb_group_t *g1, xb_group_t *g2, enum setop op, MPI_Group *newgroup)
{
    int m1 = max_gpid(g1), m2 = max_gpid(g2);
    int maxw = m1 > m2 ? m1 : m2;
    char *in2 = membership(g2, maxw);
    int *w = malloc(((size_t)g1->size + (size_t)g2->size + 1) * sizeof(int));
    if (in2 == NULL || w == NULL) {
        free(in2);
        free(w);
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for a group operation");
    }
    int n = 0;
    for (int r = 0; r < g1->size; r++) {
        int x = (int)xb_group_gpid(g1, r);
        bool keep = op == OP_UNION || (op == OP_INTERSECTION) == (in2[x] != 0);
        if (keep)
            w[n++] = x;
    }
    if (op == OP_UNION) {
        char *in1 = membership(g1, maxw);
        if (in1 == NULL) {
            free(in2);
            free(w);
            return XB_ERR_NO_MEM;
        }
        for (int r = 0; r < g2->size; r++) {
            int x = (int)xb_group_gpid(g2, r);
            if (!in1[x])
                w[n++] = x;
        }
        free(in1);
    }
    free(in2);
    return finish(n, w, newgroup);
}

int xb_impl_group_union(xb_group_t *group1, xb_group_t *group2, MPI_Group *newgroup)
{
    return set_op(group1, group2, OP_UNION, newgroup);
}

int xb_impl_group_intersection(xb_group_t *group1, xb_group_t *group2,
                               MPI_Group *newgroup)
{
    return set_op(group1, group2, OP_INTERSECTION, newgroup);
}

int xb_impl_group_difference(xb_group_t *group1, xb_group_t *group2,
                             MPI_Group *newgroup)
{
    return set_op(group1, group2, OP_DIFFERENCE, newgroup);
}

/* Mark the ranks of ranges[0..n) in sel (size g->size), checking that each
 * is a valid rank named once; the ranks in order go to list (may be NULL). */
static int walk_ranges(const xb_group_t *g, int n, int ranges[][3], char *sel,
                       int *list, int *count_p)
{
    if (n < 0)
        return xb_err_set(XB_ERR_ARG, "invalid argument n: %d (negative)", n);
    int count = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0)
            return xb_err_set(XB_ERR_ARG, "invalid stride 0 in ranges[%d]", i);
        if (first < 0 || first >= g->size || last < 0 || last >= g->size)
            return xb_err_set(XB_ERR_RANK, "invalid range [%d, %d] in ranges[%d] "
                              "(the group has %d members)", first, last, i, g->size);
        if ((stride > 0 && first > last) || (stride < 0 && first < last))
            return xb_err_set(XB_ERR_ARG, "invalid range ranges[%d] = {%d, %d, %d}: "
                              "the stride points away from the last rank", i,
                              first, last, stride);
        for (long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
            if (sel[r]++)
                return xb_err_set(XB_ERR_RANK, "rank %ld is named twice in ranges "
                                  "(again in ranges[%d])", r, i);
            if (list != NULL)
                list[count] = (int)xb_group_gpid(g, (int)r);
            count++;
        }
    }
    *count_p = count;
    return XB_OK;
}

static int range_op(xb_group_t *group, int n, int ranges[][3], bool incl,
                    MPI_Group *newgroup)
{
    char *sel = calloc((size_t)group->size + 1, 1);
    int *w = malloc(((size_t)group->size + 1) * sizeof(int));
    if (sel == NULL || w == NULL) {
        free(sel);
        free(w);
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for a group operation");
    }
    int count = 0;
    int rc = walk_ranges(group, n, ranges, sel, incl ? w : NULL, &count);
    if (rc != XB_OK) {
        free(sel);
        free(w);
        return rc;
    }
    if (!incl) {
        count = 0;
        for (int r = 0; r < group->size; r++)
            if (!sel[r])
                w[count++] = (int)xb_group_gpid(group, r);
    }
    free(sel);
    return finish(count, w, newgroup);
}

int xb_impl_group_range_incl(xb_group_t *group, int n, int ranges[][3],
                             MPI_Group *newgroup)
{
    return range_op(group, n, ranges, true, newgroup);
}

int xb_impl_group_range_excl(xb_group_t *group, int n, int ranges[][3],
                             MPI_Group *newgroup)
{
    return range_op(group, n, ranges, false, newgroup);
}

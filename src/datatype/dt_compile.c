/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_compile.c - MPI_Type_commit: turn a type's envelope into the compact
 * node tree that dt_move.c walks (node kinds: see dt_types.h).
 *
 * Built bottom-up; every builder simplifies as it goes:
 *   - n elements of a dense run (extent == run length) are one run;
 *   - a vector of single runs is a VRUN (strided loop of copies), and a
 *     vector continuing a VRUN's own stride extends it;
 *   - blocks that are single runs become one BLOCKS list, with adjacent runs
 *     merged; equal runs at a constant distance become a VRUN;
 *   - any node with at most DT_FLATTEN_MAX runs is flattened to BLOCKS (a flat
 *     loop beats a tree walk for small irregular types such as structs).
 * The result for a contiguous type is a single run: DT_F_CONTIG, and the
 * movers then do one memcpy.
 */
#include <stdlib.h>
#include <string.h>
#include "datatype/dt_types.h"

/* Types with at most this many contiguous runs per instance are flattened to
 * one run list. A run list costs 16 bytes per run; 64 keeps the list within
 * two pages for any nesting and covers every struct of basic members. */
#define DT_FLATTEN_MAX 64
#define NRUNS_CAP ((MPI_Count)1 << 60)

/* Test hook: the unit tests lower it to drive the tree paths of the movers
 * with small types. Never above DT_FLATTEN_MAX. */
int xb_dt_flatten_max = DT_FLATTEN_MAX;

static MPI_Count sat_mul(MPI_Count a, MPI_Count b)
{
    MPI_Count r;
    if (__builtin_mul_overflow(a, b, &r) || r > NRUNS_CAP)
        return NRUNS_CAP;
    return r;
}

static MPI_Count sat_add(MPI_Count a, MPI_Count b)
{
    return a + b > NRUNS_CAP ? NRUNS_CAP : a + b;
}

static dt_node_t *node_alloc(uint8_t kind, size_t extra)
{
    dt_node_t *n = calloc(1, sizeof(*n) + extra);
    if (n != NULL)
        n->kind = kind;
    return n;
}

void xb_dt_node_free(dt_node_t *n)
{
    if (n == NULL)
        return;
    if (n->kind == DT_VEC)
        xb_dt_node_free(n->u.vec.child);
    else if (n->kind == DT_IDX)
        xb_dt_node_free(n->u.ix.child);
    else if (n->kind == DT_SEQ)
        for (MPI_Count i = 0; i < n->u.seq.n; i++)
            xb_dt_node_free(n->u.seq.child[i]);
    free(n);
}

static dt_node_t *vrun_new(MPI_Aint disp, MPI_Count count, MPI_Aint len,
                           MPI_Aint stride)
{
    dt_node_t *n = node_alloc(DT_VRUN, 0);
    if (n == NULL)
        return NULL;
    if (count == 1 || stride == len) {
        len *= count;
        count = 1;
        stride = len;
    }
    n->disp = disp;
    n->size = count * len;
    n->nruns = count;
    n->u.vr.count = count;
    n->u.vr.len = len;
    n->u.vr.stride = stride;
    return n;
}

/* A single run; vrun_new(0, 0, 0, 0) is the empty node (one run of 0 bytes). */
static bool is_run(const dt_node_t *n)
{
    return n->kind == DT_VRUN && n->u.vr.count == 1;
}

/* A run list: drops empty runs, merges adjacent ones, recognises a VRUN. */
static dt_node_t *blocks_new(MPI_Aint disp, MPI_Count n, const MPI_Aint *off,
                             const MPI_Aint *len)
{
    size_t extra = (size_t)n * 2 * sizeof(MPI_Aint) + (size_t)(n + 1) * sizeof(MPI_Count);
    dt_node_t *b = node_alloc(DT_BLOCKS, extra);
    if (b == NULL)
        return NULL;
    MPI_Aint *o = (MPI_Aint *)(b + 1), *l = o + n;
    MPI_Count m = 0;
    for (MPI_Count i = 0; i < n; i++) {
        if (len[i] == 0)
            continue;
        if (m > 0 && o[m - 1] + l[m - 1] == off[i]) {
            l[m - 1] += len[i];
            continue;
        }
        o[m] = off[i];
        l[m] = len[i];
        m++;
    }
    bool regular = m >= 2;
    for (MPI_Count i = 2; i < m && regular; i++)
        regular = l[i] == l[0] && o[i] - o[i - 1] == o[1] - o[0];
    if (m == 0 || m == 1 || (regular && l[1] == l[0])) {
        dt_node_t *r = m == 0 ? vrun_new(disp, 0, 0, 0)
                     : vrun_new(disp + o[0], m, l[0], m > 1 ? o[1] - o[0] : l[0]);
        free(b);
        return r;
    }
    /* Move len and pfx right after the used part of off. */
    MPI_Aint *l2 = o + m;
    memmove(l2, l, (size_t)m * sizeof(MPI_Aint));
    MPI_Count *pfx = (MPI_Count *)(l2 + m);
    pfx[0] = 0;
    for (MPI_Count i = 0; i < m; i++)
        pfx[i + 1] = pfx[i] + l2[i];
    b->disp = disp;
    b->size = pfx[m];
    b->nruns = m;
    b->u.bl.n = m;
    b->u.bl.off = o;
    b->u.bl.len = l2;
    b->u.bl.pfx = pfx;
    return b;
}

static dt_node_t *vec_new(MPI_Aint disp, MPI_Count count, MPI_Aint stride,
                          dt_node_t *child);

/* n blocks of blen[i] copies of child (consumed) at disp + off[i] + j*cext;
 * empty blocks dropped. Not flattened here (callers do). */
static dt_node_t *idx_new(MPI_Aint disp, MPI_Count n, const MPI_Aint *off,
                          const MPI_Count *blen, MPI_Aint cext, dt_node_t *child)
{
    if (child == NULL)
        return NULL;
    dt_node_t *x = node_alloc(DT_IDX, (size_t)n * (sizeof(MPI_Aint) + sizeof(MPI_Count)) +
                                      (size_t)(n + 1) * sizeof(MPI_Count));
    if (x == NULL) {
        xb_dt_node_free(child);
        return NULL;
    }
    MPI_Aint *o = (MPI_Aint *)(x + 1);
    MPI_Count *b = (MPI_Count *)(o + n), *pfx = b + n, m = 0;
    pfx[0] = 0;
    for (MPI_Count i = 0; i < n; i++) {
        if (blen[i] == 0)
            continue;
        o[m] = off[i];
        b[m] = blen[i];
        pfx[m + 1] = pfx[m] + blen[i] * child->size;
        x->nruns = sat_add(x->nruns, sat_mul(blen[i], child->nruns));
        m++;
    }
    if (m <= 1) {                       /* no block, or a plain vector */
        MPI_Aint d = m == 1 ? disp + o[0] : 0;
        MPI_Count c = m == 1 ? b[0] : 0;
        free(x);
        return vec_new(d, c, cext, child);
    }
    x->disp = disp;
    x->size = pfx[m];
    x->u.ix.n = m;
    x->u.ix.off = o;
    x->u.ix.blen = b;
    x->u.ix.pfx = pfx;
    x->u.ix.cext = cext;
    x->u.ix.child = child;
    return x;
}

dt_node_t *xb_dt_node_clone(const dt_node_t *n)
{
    dt_node_t *c;
    switch (n->kind) {
    case DT_VRUN:
        c = node_alloc(DT_VRUN, 0);
        if (c != NULL)
            *c = *n;
        return c;
    case DT_BLOCKS:
        return blocks_new(n->disp, n->u.bl.n, n->u.bl.off, n->u.bl.len);
    case DT_VEC: {
        dt_node_t *ch = xb_dt_node_clone(n->u.vec.child);
        c = ch != NULL ? node_alloc(DT_VEC, 0) : NULL;
        if (c == NULL) {
            xb_dt_node_free(ch);
            return NULL;
        }
        *c = *n;
        c->u.vec.child = ch;
        return c;
    }
    case DT_IDX:
        return idx_new(n->disp, n->u.ix.n, n->u.ix.off, n->u.ix.blen,
                       n->u.ix.cext, xb_dt_node_clone(n->u.ix.child));
    default: {
        MPI_Count k = n->u.seq.n;
        c = node_alloc(DT_SEQ, (size_t)k * sizeof(dt_node_t *) +
                                (size_t)(k + 1) * sizeof(MPI_Count));
        if (c == NULL)
            return NULL;
        *c = *n;
        c->u.seq.child = (dt_node_t **)(c + 1);
        c->u.seq.pfx = (MPI_Count *)(c->u.seq.child + k);
        memcpy(c->u.seq.pfx, n->u.seq.pfx, (size_t)(k + 1) * sizeof(MPI_Count));
        for (MPI_Count i = 0; i < k; i++) {
            c->u.seq.child[i] = xb_dt_node_clone(n->u.seq.child[i]);
            if (c->u.seq.child[i] == NULL) {
                c->u.seq.n = i;
                xb_dt_node_free(c);
                return NULL;
            }
        }
        return c;
    }
    }
}

/* ---- flattening ------------------------------------------------------------- */
typedef struct runs { MPI_Aint *off, *len; MPI_Count n; } runs_t;

static void runs_add(runs_t *r, MPI_Aint off, MPI_Aint len)
{
    if (r->n > 0 && r->off[r->n - 1] + r->len[r->n - 1] == off) {
        r->len[r->n - 1] += len;
        return;
    }
    r->off[r->n] = off;
    r->len[r->n] = len;
    r->n++;
}

static void runs_collect(runs_t *r, const dt_node_t *n, MPI_Aint base)
{
    base += n->disp;
    switch (n->kind) {
    case DT_VRUN:
        for (MPI_Count k = 0; k < n->u.vr.count; k++)
            runs_add(r, base + k * n->u.vr.stride, n->u.vr.len);
        break;
    case DT_BLOCKS:
        for (MPI_Count i = 0; i < n->u.bl.n; i++)
            runs_add(r, base + n->u.bl.off[i], n->u.bl.len[i]);
        break;
    case DT_VEC:
        for (MPI_Count k = 0; k < n->u.vec.count; k++)
            runs_collect(r, n->u.vec.child, base + k * n->u.vec.stride);
        break;
    case DT_IDX:
        for (MPI_Count i = 0; i < n->u.ix.n; i++)
            for (MPI_Count j = 0; j < n->u.ix.blen[i]; j++)
                runs_collect(r, n->u.ix.child, base + n->u.ix.off[i] + j * n->u.ix.cext);
        break;
    default:
        for (MPI_Count i = 0; i < n->u.seq.n; i++)
            runs_collect(r, n->u.seq.child[i], base);
        break;
    }
}

/* Replaces n by its run list when it is small; n is consumed either way. */
static dt_node_t *maybe_flatten(dt_node_t *n)
{
    if (n == NULL || n->kind == DT_VRUN || n->kind == DT_BLOCKS ||
        n->nruns > DT_FLATTEN_MAX || n->nruns > xb_dt_flatten_max)
        return n;
    MPI_Aint off[DT_FLATTEN_MAX], len[DT_FLATTEN_MAX];
    runs_t r = { off, len, 0 };
    runs_collect(&r, n, 0);
    dt_node_t *b = blocks_new(0, r.n, off, len);
    if (b == NULL)
        return n;   /* keep the tree: correct, only slower */
    xb_dt_node_free(n);
    return b;
}

/* ---- builders ---------------------------------------------------------------- */
/* count copies of child (consumed) at disp + k*stride. */
static dt_node_t *vec_new(MPI_Aint disp, MPI_Count count, MPI_Aint stride,
                          dt_node_t *child)
{
    if (child == NULL)
        return NULL;
    if (count == 0 || child->size == 0) {
        xb_dt_node_free(child);
        return vrun_new(0, 0, 0, 0);
    }
    if (count == 1) {
        child->disp += disp;
        return child;
    }
    if (child->kind == DT_VRUN &&
        (child->u.vr.count == 1 ||
         stride == child->u.vr.count * child->u.vr.stride)) {
        dt_node_t *v = child->u.vr.count == 1
            ? vrun_new(disp + child->disp, count, child->u.vr.len, stride)
            : vrun_new(disp + child->disp, count * child->u.vr.count,
                       child->u.vr.len, child->u.vr.stride);
        xb_dt_node_free(child);
        return v;
    }
    dt_node_t *v = node_alloc(DT_VEC, 0);
    if (v == NULL) {
        xb_dt_node_free(child);
        return NULL;
    }
    v->disp = disp;
    v->size = count * child->size;
    v->nruns = sat_mul(count, child->nruns);
    v->u.vec.count = count;
    v->u.vec.stride = stride;
    v->u.vec.child = child;
    return maybe_flatten(v);
}

/* n nodes (consumed) one after the other. */
static dt_node_t *seq_new(MPI_Count n, dt_node_t **ch)
{
    MPI_Count m = 0;
    bool all_runs = true, failed = false;
    for (MPI_Count i = 0; i < n; i++) {
        if (ch[i] == NULL) {
            failed = true;
        } else if (ch[i]->size == 0) {
            xb_dt_node_free(ch[i]);
        } else {
            all_runs = all_runs && is_run(ch[i]);
            ch[m++] = ch[i];
        }
    }
    dt_node_t *s = NULL;
    if (failed || m == 0 || m == 1) {
        s = m == 1 && !failed ? ch[0] : NULL;
        if (s == NULL)
            for (MPI_Count i = 0; i < m; i++)
                xb_dt_node_free(ch[i]);
        return failed ? NULL : s != NULL ? s : vrun_new(0, 0, 0, 0);
    }
    if (all_runs) {
        MPI_Aint *buf = malloc((size_t)m * 2 * sizeof(MPI_Aint));
        if (buf != NULL) {
            for (MPI_Count i = 0; i < m; i++) {
                buf[i] = ch[i]->disp;
                buf[m + i] = ch[i]->u.vr.len;
            }
            s = blocks_new(0, m, buf, buf + m);
            free(buf);
        }
        for (MPI_Count i = 0; i < m; i++)
            xb_dt_node_free(ch[i]);
        return s;
    }
    s = node_alloc(DT_SEQ, (size_t)m * sizeof(dt_node_t *) +
                           (size_t)(m + 1) * sizeof(MPI_Count));
    if (s == NULL) {
        for (MPI_Count i = 0; i < m; i++)
            xb_dt_node_free(ch[i]);
        return NULL;
    }
    s->u.seq.n = m;
    s->u.seq.child = (dt_node_t **)(s + 1);
    s->u.seq.pfx = (MPI_Count *)(s->u.seq.child + m);
    s->u.seq.pfx[0] = 0;
    for (MPI_Count i = 0; i < m; i++) {
        s->u.seq.child[i] = ch[i];
        s->u.seq.pfx[i + 1] = s->u.seq.pfx[i] + ch[i]->size;
        s->nruns = sat_add(s->nruns, ch[i]->nruns);
    }
    s->size = s->u.seq.pfx[m];
    return maybe_flatten(s);
}

static dt_node_t *build(const xb_datatype_t *t);

/* Blocks of (h)indexed/struct types: block i is blen(i) elements of type(i)
 * at byte displacement disp(i). */
static dt_node_t *build_blocks(const xb_datatype_t *t, MPI_Count n,
                               const MPI_Count *blens, MPI_Count blen,
                               const MPI_Count *idisp, const MPI_Aint *adisp,
                               MPI_Aint dscale)
{
    dt_node_t *proto = t->n_types == 1 ? build(t->types[0]) : NULL;
    if (t->n_types == 1 && proto == NULL)
        return NULL;
    MPI_Aint ext = t->n_types == 1 ? t->types[0]->extent : 0;
    if (proto != NULL && n > 1 && proto->size > 0 &&
        !(is_run(proto) && proto->u.vr.len == ext)) {
        /* one shared child: an IDX node */
        MPI_Aint *off = malloc((size_t)n * sizeof(MPI_Aint));
        MPI_Count *bl = malloc((size_t)n * sizeof(MPI_Count));
        dt_node_t *x = NULL;
        if (off != NULL && bl != NULL) {
            for (MPI_Count i = 0; i < n; i++) {
                off[i] = idisp != NULL ? (MPI_Aint)idisp[i] * dscale : adisp[i];
                bl[i] = blens != NULL ? blens[i] : blen;
            }
            x = idx_new(0, n, off, bl, ext, proto);
            proto = NULL;
        }
        free(off);
        free(bl);
        xb_dt_node_free(proto);
        return maybe_flatten(x);
    }
    dt_node_t **ch = malloc((size_t)(n > 0 ? n : 1) * sizeof(*ch));
    if (ch == NULL) {
        xb_dt_node_free(proto);
        return NULL;
    }
    for (MPI_Count i = 0; i < n; i++) {
        const xb_datatype_t *ct = t->types[t->n_types == 1 ? 0 : i];
        MPI_Count bl = blens != NULL ? blens[i] : blen;
        MPI_Aint d = idisp != NULL ? (MPI_Aint)idisp[i] * dscale : adisp[i];
        dt_node_t *c = proto != NULL ? xb_dt_node_clone(proto) : build(ct);
        ch[i] = vec_new(d, bl, ct->extent, c);
    }
    xb_dt_node_free(proto);
    dt_node_t *s = seq_new(n, ch);
    free(ch);
    return s;
}

static dt_node_t *build(const xb_datatype_t *t)
{
    if (t->root != NULL)
        return xb_dt_node_clone(t->root);
    const MPI_Count *I = t->ints;
    const xb_datatype_t *old = t->n_types > 0 ? t->types[0] : NULL;
    switch (t->combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
        return build(old);
    case MPI_COMBINER_SUBARRAY:
    case MPI_COMBINER_DARRAY:
    case MPI_COMBINER_F90_INTEGER:
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX:
        return build(t->equiv);
    case MPI_COMBINER_CONTIGUOUS:
        return vec_new(0, I[0], old->extent, build(old));
    case MPI_COMBINER_VECTOR:
        return vec_new(0, I[0], (MPI_Aint)I[2] * old->extent,
                       vec_new(0, I[1], old->extent, build(old)));
    case MPI_COMBINER_HVECTOR:
        return vec_new(0, I[0], t->aints[0],
                       vec_new(0, I[1], old->extent, build(old)));
    case MPI_COMBINER_INDEXED:
        return build_blocks(t, I[0], I + 1, 0, I + 1 + I[0], NULL, old->extent);
    case MPI_COMBINER_HINDEXED:
        return build_blocks(t, I[0], I + 1, 0, NULL, t->aints, 1);
    case MPI_COMBINER_INDEXED_BLOCK:
        return build_blocks(t, I[0], NULL, I[1], I + 2, NULL, old->extent);
    case MPI_COMBINER_HINDEXED_BLOCK:
        return build_blocks(t, I[0], NULL, I[1], NULL, t->aints, 1);
    case MPI_COMBINER_STRUCT:
        return build_blocks(t, I[0], I + 1, 0, NULL, t->aints, 1);
    default:
        return NULL;
    }
}

int xb_dt_compile(xb_datatype_t *dt)
{
    if (dt->flags & DT_F_COMMITTED)
        return XB_OK;
    dt_node_t *root = build(dt);
    if (root == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory committing a datatype "
                          "of %lld bytes", (long long)dt->size);
    dt->root = root;
    if (is_run(root) || root->size == 0)
        dt->flags |= DT_F_CONTIG;
    __atomic_or_fetch(&dt->flags, DT_F_COMMITTED, __ATOMIC_RELEASE);
    return XB_OK;
}

int xb_dt_commit(xb_datatype_t *dt)
{
    return xb_dt_compile(dt);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_datatype_random.c - randomised test of the datatype engine against an
 * independent reference.
 *
 * Each iteration builds a random nested type (depth up to 4: contiguous,
 * vector, hvector, indexed, hindexed, indexed_block, struct, resized, dup,
 * subarray, darray;
 * negative strides and displacements, resized lower bounds, zero-length
 * blocks, zero counts) through the xb_impl_* entry points, and at the same
 * time a description of it that the reference below expands, naively and
 * byte by byte, into the list of memory offsets of its packed bytes. The
 * engine's size, bounds, pack (whole, and in chunks from random offsets),
 * unpack, to_iov and typed copy are compared with that list. Subarray and
 * darray types (1 to 3 dimensions, both orders, every distribution) are
 * expanded by walking every index of the array. Every type is also rebuilt
 * from MPI_Type_get_envelope/contents (recursively) and by xb_dt_remap with
 * every leaf kept, and must pack the same,
 * and packed to external32 and back (MPI_Pack_external/Unpack_external).
 *
 * Usage: test_datatype_random [seed [iterations]]. The seed is printed, so a
 * failure can be replayed. Bounded in time as well as in iterations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "datatype/dt_types.h"
#include "xb_impl.h"

static int failures;
static unsigned long long rng_state;

#define FAIL(...)                                                            \
    do {                                                                     \
        failures++;                                                          \
        printf("FAIL line %d: ", __LINE__);                                  \
        printf(__VA_ARGS__);                                                 \
        printf("\n");                                                        \
    } while (0)

static unsigned rnd(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(rng_state >> 33);
}
static long rr(long lo, long hi) { return lo + (long)(rnd() % (unsigned)(hi - lo + 1)); }

/* ---- the reference: a type map expanded to byte offsets -------------------- */
typedef struct ref {
    long   *off;      /* memory offset of every packed byte, in order */
    unsigned char *st; /* 1 where a basic element starts               */
    long    n, cap;
    long    lb, ub;   /* bounds, with the standard's marker rules     */
    bool    mlb, mub; /* explicit markers present                      */
    int     align;
} ref_t;

static void ref_push(ref_t *r, long off, unsigned char st)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        r->off = realloc(r->off, (size_t)r->cap * sizeof(long));
        r->st = realloc(r->st, (size_t)r->cap);
    }
    r->st[r->n] = st;
    r->off[r->n++] = off;
}

/* bounds accumulator over placed copies of children */
typedef struct bnd { bool hl, hu, hml, hmu; long l, u, ml, mu; int align; } bnd_t;

static void place(ref_t *out, bnd_t *b, const ref_t *c, long x)
{
    for (long i = 0; i < c->n; i++)
        ref_push(out, x + c->off[i], c->st[i]);
    bool empty = c->n == 0 && !c->mlb && !c->mub;
    if (empty)
        return;
    if (c->mlb) {
        if (!b->hml || x + c->lb < b->ml) b->ml = x + c->lb;
        b->hml = true;
    } else if (c->n > 0) {
        if (!b->hl || x + c->lb < b->l) b->l = x + c->lb;
        b->hl = true;
    }
    if (c->mub) {
        if (!b->hmu || x + c->ub > b->mu) b->mu = x + c->ub;
        b->hmu = true;
    } else if (c->n > 0) {
        if (!b->hu || x + c->ub > b->u) b->u = x + c->ub;
        b->hu = true;
    }
    if (c->align > b->align)
        b->align = c->align;
}

static void finish_bounds(ref_t *r, const bnd_t *b, bool is_struct)
{
    r->mlb = b->hml;
    r->mub = b->hmu;
    r->lb = b->hml ? b->ml : b->hl ? b->l : 0;
    r->ub = b->hmu ? b->mu : b->hu ? b->u : 0;
    r->align = b->align ? b->align : 1;
    if (is_struct && !b->hmu && r->ub > r->lb) {
        long ext = r->ub - r->lb;
        r->ub += (r->align - ext % r->align) % r->align;
    }
}

/* ---- random types: built in the engine and in the reference at once --------- */
typedef struct basic { MPI_Datatype h; long runs[2][2]; int nruns; long ext; int align; } basic_t;
static const basic_t basics[] = {
    { MPI_CHAR, { { 0, 1 } }, 1, 1, 1 },
    { MPI_SHORT, { { 0, 2 } }, 1, 2, 2 },
    { MPI_INT, { { 0, 4 } }, 1, 4, 4 },
    { MPI_DOUBLE, { { 0, 8 } }, 1, 8, 8 },
    { MPI_SHORT_INT, { { 0, 2 }, { 4, 4 } }, 2, 8, 4 },
    { MPI_DOUBLE_INT, { { 0, 8 }, { 8, 4 } }, 2, 16, 8 },
};

static void ref_free(ref_t *r)
{
    free(r->off);
    free(r->st);
    memset(r, 0, sizeof(*r));
}

#define MAX_BYTES 6000      /* packed bytes of one random type */
#define MAX_SPAN  (1L << 17)

static bool too_big(const ref_t *r)
{
    if (r->n > MAX_BYTES)
        return true;
    for (long i = 0; i < r->n; i++)
        if (r->off[i] > MAX_SPAN || r->off[i] < -MAX_SPAN)
            return true;
    return r->lb < -MAX_SPAN || r->ub > MAX_SPAN;
}

static MPI_Datatype make_basic(ref_t *r)
{
    const basic_t *b = &basics[rr(0, XB_ARRAY_LEN(basics) - 1)];
    for (int k = 0; k < b->nruns; k++)
        for (long i = 0; i < b->runs[k][1]; i++)
            ref_push(r, b->runs[k][0] + i, i == 0);
    r->lb = 0;
    r->ub = b->ext;
    r->align = b->align;
    return b->h;
}

static void release(MPI_Datatype h)
{
    if (!xb_dt_is_predefined(xb_dt_from_handle(h)))
        xb_impl_type_free(&h);
}


/* ---- subarray and darray: the reference walks every index of the array ----- */
/* Linear index of idx[] in an array of sizes[] (C: last index fastest). */
static long linear(int nd, const long *idx, const MPI_Count *sizes, int order)
{
    long lin = 0;
    for (int k = 0; k < nd; k++) {
        int i = order == MPI_ORDER_C ? k : nd - 1 - k;
        lin = lin * sizes[i] + idx[i];
    }
    return lin;
}

/* Advances idx[] over an array of sizes[] in memory order; false at the end. */
static bool next_index(int nd, long *idx, const MPI_Count *sizes, int order)
{
    for (int k = 0; k < nd; k++) {
        int i = order == MPI_ORDER_C ? nd - 1 - k : k;
        if (++idx[i] < sizes[i])
            return true;
        idx[i] = 0;
    }
    return false;
}

static void array_bounds(ref_t *r, const ref_t *c, int nd, const MPI_Count *sizes)
{
    long n = 1;
    for (int i = 0; i < nd; i++)
        n *= sizes[i];
    r->lb = 0;
    r->ub = n * (c->ub - c->lb);
    r->mlb = r->mub = true;
    r->align = c->align;
}

static int make_subarray(xb_datatype_t *cd, const ref_t *c, ref_t *r, MPI_Datatype *h)
{
    int nd = (int)rr(1, 3), order = rr(0, 1) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
    MPI_Count sz[3], sub[3], st[3];
    long idx[3] = { 0, 0, 0 }, ext = c->ub - c->lb;
    for (int i = 0; i < nd; i++) {
        sz[i] = rr(1, 4);
        sub[i] = rr(0, sz[i]);
        st[i] = rr(0, sz[i] - sub[i]);
    }
    bool empty = false;
    for (int i = 0; i < nd; i++)
        empty = empty || sub[i] == 0;
    while (!empty) {
        long at[3];
        for (int i = 0; i < nd; i++)
            at[i] = st[i] + idx[i];
        long base = linear(nd, at, sz, order) * ext;
        for (long k = 0; k < c->n; k++)
            ref_push(r, base + c->off[k], c->st[k]);
        if (!next_index(nd, idx, sub, order))
            break;
    }
    array_bounds(r, c, nd, sz);
    return xb_impl_type_create_subarray(nd, sz, sub, st, order, cd, h, false);
}

static bool owns(int distrib, int darg, int p, int coord, long gsize, long g)
{
    long b;
    if (distrib == MPI_DISTRIBUTE_NONE)
        return true;
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + p - 1) / p : darg;
        return g / b == coord;
    }
    b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return (g / b) % p == coord;
}

static int make_darray(xb_datatype_t *cd, const ref_t *c, ref_t *r, MPI_Datatype *h)
{
    int nd = (int)rr(1, 3), order = rr(0, 1) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
    int dist[3], darg[3], ps[3], coord[3], size = 1;
    MPI_Count gs[3];
    long idx[3] = { 0, 0, 0 }, ext = c->ub - c->lb;
    for (int i = 0; i < nd; i++) {
        gs[i] = rr(1, 5);
        ps[i] = (int)rr(1, 3);
        dist[i] = ps[i] == 1 && rr(0, 2) == 0 ? MPI_DISTRIBUTE_NONE
                : rr(0, 1) ? MPI_DISTRIBUTE_BLOCK : MPI_DISTRIBUTE_CYCLIC;
        long minb = (gs[i] + ps[i] - 1) / ps[i];
        darg[i] = rr(0, 1) ? MPI_DISTRIBUTE_DFLT_DARG
                : dist[i] == MPI_DISTRIBUTE_BLOCK ? (int)rr(minb, minb + 2) : (int)rr(1, 3);
        size *= ps[i];
    }
    int rank = (int)rr(0, size - 1);
    for (int i = nd - 1, q = rank; i >= 0; i--) {   /* row-major process grid */
        coord[i] = q % ps[i];
        q /= ps[i];
    }
    do {
        bool mine = true;
        for (int i = 0; i < nd; i++)
            mine = mine && owns(dist[i], darg[i], ps[i], coord[i], gs[i], idx[i]);
        if (mine) {
            long base = linear(nd, idx, gs, order) * ext;
            for (long k = 0; k < c->n; k++)
                ref_push(r, base + c->off[k], c->st[k]);
        }
    } while (next_index(nd, idx, gs, order));
    array_bounds(r, c, nd, gs);
    return xb_impl_type_create_darray(size, rank, nd, gs, dist, darg, ps, order, cd, h, false);
}

static MPI_Datatype make_type(int depth, ref_t *r);

static MPI_Datatype make_derived(int depth, ref_t *r)
{
    ref_t c = {0};
    MPI_Datatype ch = make_type(depth - 1, &c), h = MPI_DATATYPE_NULL;
    xb_datatype_t *cd = xb_dt_from_handle(ch);
    long ext = c.ub - c.lb;
    bnd_t b = {0};
    int kind = (int)rr(0, 10), rc = XB_OK;
    MPI_Count bl[6], dp[6];
    long n = rr(0, 5);
    switch (kind) {
    case 0: {                                   /* contiguous */
        for (long i = 0; i < n; i++)
            place(r, &b, &c, i * ext);
        rc = xb_impl_type_contiguous(n, cd, &h, false);
        break;
    }
    case 1: case 2: {                           /* vector, hvector */
        long blen = rr(0, 3), st = rr(-6, 6);
        long bst = kind == 1 ? st * ext : st * (ext ? ext : 1) + rr(-3, 3);
        for (long k = 0; k < n; k++)
            for (long j = 0; j < blen; j++)
                place(r, &b, &c, k * bst + j * ext);
        rc = kind == 1 ? xb_impl_type_vector(n, blen, st, cd, &h, false)
                       : xb_impl_type_create_hvector(n, blen, bst, cd, &h, false);
        break;
    }
    case 3: case 4: case 5: {                   /* indexed, hindexed, indexed_block */
        long blk = rr(0, 3);
        for (long i = 0; i < n; i++) {
            bl[i] = kind == 5 ? blk : rr(0, 3);
            dp[i] = kind == 4 ? rr(-40, 80) : rr(-6, 10);
            long base = kind == 4 ? dp[i] : dp[i] * ext;
            for (long j = 0; j < bl[i]; j++)
                place(r, &b, &c, base + j * ext);
        }
        rc = kind == 3 ? xb_impl_type_indexed(n, bl, dp, cd, &h, false)
           : kind == 4 ? xb_impl_type_create_hindexed(n, bl, dp, cd, &h, false)
           : xb_impl_type_create_indexed_block(n, blk, dp, cd, &h, false);
        break;
    }
    case 6: {                                   /* struct: mixed children */
        MPI_Datatype tys[6];
        ref_t cs[6];
        long pos = rr(-16, 16);
        for (long i = 0; i < n; i++) {
            memset(&cs[i], 0, sizeof(cs[i]));
            tys[i] = i == 0 ? ch : make_type(depth - 1, &cs[i]);
            if (i == 0) {
                cs[0] = c;
                c.off = NULL;
                c.st = NULL;
            }
            bl[i] = rr(0, 2);
            long e = cs[i].ub - cs[i].lb;
            dp[i] = pos + rr(-8, 8);
            pos = dp[i] + bl[i] * (e > 0 ? e : 1);
            for (long j = 0; j < bl[i]; j++)
                place(r, &b, &cs[i], dp[i] + j * e);
        }
        rc = xb_impl_type_create_struct(n, bl, dp, tys, &h, false);
        for (long i = 0; i < n; i++) {
            release(tys[i]);        /* tys[0] is ch */
            ref_free(&cs[i]);
        }
        if (n == 0) {
            release(ch);
            ref_free(&c);
        }
        finish_bounds(r, &b, true);
        goto done;
    }
    case 7: {                                   /* resized */
        long lb = rr(-20, 20), e = rr(0, 40);
        for (long i = 0; i < c.n; i++)
            ref_push(r, c.off[i], c.st[i]);
        rc = xb_impl_type_create_resized(cd, lb, e, &h, false);
        r->lb = lb;
        r->ub = lb + e;
        r->mlb = r->mub = true;
        r->align = c.align;
        ref_free(&c);
        release(ch);
        goto done;
    }
    case 9:                                     /* subarray */
        rc = make_subarray(cd, &c, r, &h);
        ref_free(&c);
        release(ch);
        goto done;
    case 10:                                    /* darray */
        rc = make_darray(cd, &c, r, &h);
        ref_free(&c);
        release(ch);
        goto done;
    default: {                                  /* dup */
        rc = xb_impl_type_dup(cd, &h);
        *r = c;
        release(ch);
        goto done;
    }
    }
    finish_bounds(r, &b, false);
    ref_free(&c);
    release(ch);
done:
    if (rc != XB_OK) {
        FAIL("constructor %d failed: %d %s", kind, rc, xb_err_detail());
        return MPI_DATATYPE_NULL;
    }
    return h;
}

static MPI_Datatype make_type(int depth, ref_t *r)
{
    if (depth <= 0 || rr(0, 3) == 0)
        return make_basic(r);
    for (;;) {
        ref_t t = {0};
        MPI_Datatype h = make_derived(depth, &t);
        if (h == MPI_DATATYPE_NULL || !too_big(&t)) {
            *r = t;
            return h;
        }
        release(h);
        ref_free(&t);
    }
}


/* ---- MPI_Type_get_contents: rebuild a type from its envelope --------------- */
static MPI_Datatype rebuild(MPI_Datatype h)
{
    xb_datatype_t *dt = xb_dt_from_handle(h);
    MPI_Count ni, na, nl, nt;
    int comb;
    if (xb_impl_type_get_envelope(dt, &ni, &na, &nl, &nt, &comb) != XB_OK)
        return MPI_DATATYPE_NULL;
    if (comb == MPI_COMBINER_NAMED)
        return h;
    int *I = malloc((size_t)(ni + 1) * sizeof(int));
    MPI_Aint *A = malloc((size_t)(na + 1) * sizeof(MPI_Aint));
    MPI_Count *L = malloc((size_t)(nl + ni + na + 1) * sizeof(MPI_Count));
    MPI_Datatype *T = malloc((size_t)(nt + 1) * sizeof(MPI_Datatype));
    MPI_Datatype *R = malloc((size_t)(nt + 1) * sizeof(MPI_Datatype));
    MPI_Datatype out = MPI_DATATYPE_NULL;
    int rc = xb_impl_type_get_contents(dt, ni, na, nl, nt, I, A, L, T);
    for (MPI_Count i = 0; rc == XB_OK && i < nt; i++) {
        R[i] = rebuild(T[i]);
        release(T[i]);          /* get_contents gave a reference */
    }
    /* everything as MPI_Count for the constructors: ints, then addresses */
    MPI_Count *C = L + nl;
    for (MPI_Count i = 0; i < ni; i++)
        C[i] = I[i];
    xb_datatype_t *c0 = nt > 0 ? xb_dt_from_handle(R[0]) : NULL;
    if (rc == XB_OK) {
        switch (comb) {
        case MPI_COMBINER_DUP: rc = xb_impl_type_dup(c0, &out); break;
        case MPI_COMBINER_CONTIGUOUS: rc = xb_impl_type_contiguous(C[0], c0, &out, false); break;
        case MPI_COMBINER_VECTOR: rc = xb_impl_type_vector(C[0], C[1], C[2], c0, &out, false); break;
        case MPI_COMBINER_HVECTOR:
            rc = xb_impl_type_create_hvector(C[0], C[1], A[0], c0, &out, false); break;
        case MPI_COMBINER_INDEXED:
            rc = xb_impl_type_indexed(C[0], C + 1, C + 1 + C[0], c0, &out, false); break;
        case MPI_COMBINER_HINDEXED: {
            MPI_Count *d = C + ni;
            for (MPI_Count i = 0; i < na; i++) d[i] = A[i];
            rc = xb_impl_type_create_hindexed(C[0], C + 1, d, c0, &out, false); break;
        }
        case MPI_COMBINER_INDEXED_BLOCK:
            rc = xb_impl_type_create_indexed_block(C[0], C[1], C + 2, c0, &out, false); break;
        case MPI_COMBINER_STRUCT: {
            MPI_Count *d = C + ni;
            for (MPI_Count i = 0; i < na; i++) d[i] = A[i];
            rc = xb_impl_type_create_struct(C[0], C + 1, d, R, &out, false); break;
        }
        case MPI_COMBINER_RESIZED:
            rc = xb_impl_type_create_resized(c0, A[0], A[1], &out, false); break;
        case MPI_COMBINER_SUBARRAY: {
            MPI_Count n = C[0];
            rc = xb_impl_type_create_subarray((int)n, C + 1, C + 1 + n, C + 1 + 2 * n,
                                              (int)C[1 + 3 * n], c0, &out, false); break;
        }
        case MPI_COMBINER_DARRAY: {
            int n = I[2];
            rc = xb_impl_type_create_darray(I[0], I[1], n, C + 3, I + 3 + n, I + 3 + 2 * n,
                                            I + 3 + 3 * n, I[3 + 4 * n], c0, &out, false); break;
        }
        default: rc = XB_ERR_INTERN; FAIL("unexpected combiner %d", comb); break;
        }
    }
    if (rc != XB_OK)
        FAIL("rebuild of combiner %d: rc %d %s", comb, rc, xb_err_detail());
    for (MPI_Count i = 0; i < nt; i++)
        release(R[i]);
    free(I); free(A); free(L); free(T); free(R);
    return rc == XB_OK ? out : MPI_DATATYPE_NULL;
}

/* b packs exactly as a (same size, bounds and packed bytes). */
static void compare_types(xb_datatype_t *a, xb_datatype_t *b, const ref_t *r, long iter,
                          const char *what)
{
    if (xb_dt_size(a) != xb_dt_size(b) || xb_dt_extent(a) != xb_dt_extent(b) ||
        xb_dt_lb(a) != xb_dt_lb(b) || xb_dt_true_lb(a) != xb_dt_true_lb(b)) {
        FAIL("iter %ld: %s type differs in size or bounds", iter, what);
    } else if (r->n > 0) {
        long lo = 0, hi = 1;
        for (long k = 0; k < r->n; k++) {
            lo = r->off[k] < lo ? r->off[k] : lo;
            hi = r->off[k] + 1 > hi ? r->off[k] + 1 : hi;
        }
        unsigned char *mem = malloc((size_t)(hi - lo)), *p1 = malloc((size_t)r->n),
                      *p2 = malloc((size_t)r->n);
        for (long i = 0; i < hi - lo; i++)
            mem[i] = (unsigned char)rnd();
        size_t d1 = 0, d2 = 0;
        xb_dt_pack(mem - lo, 1, a, 0, p1, (size_t)r->n, &d1);
        xb_dt_pack(mem - lo, 1, b, 0, p2, (size_t)r->n, &d2);
        if (d1 != d2 || memcmp(p1, p2, d1) != 0)
            FAIL("iter %ld: %s type packs differently", iter, what);
        free(mem); free(p1); free(p2);
    }
}

/* The rebuilt type packs exactly as the original. */
static void check_rebuild(MPI_Datatype h, const ref_t *r, long iter)
{
    MPI_Datatype h2 = rebuild(h), hc = h2;
    if (h2 == MPI_DATATYPE_NULL)
        return;
    xb_impl_type_commit(&hc);
    compare_types(xb_dt_from_handle(h), xb_dt_from_handle(h2), r, iter, "rebuilt");
    release(h2);
}

/* xb_dt_remap with every leaf kept is the same type again (MPI-IO builds
 * file layouts with it, tests/mpi/io/datarep checks other leaves). */
static int same_leaf(void *ctx, xb_datatype_t *basic, xb_datatype_t **out)
{
    (void)ctx;
    xb_dt_retain(basic);
    *out = basic;
    return XB_OK;
}

static void check_remap(MPI_Datatype h, const ref_t *r, long iter)
{
    xb_datatype_t *a = xb_dt_from_handle(h), *b = NULL;
    int rc = xb_dt_remap(a, same_leaf, NULL, &b);
    if (rc != XB_OK) {
        FAIL("iter %ld: remap: rc %d %s", iter, rc, xb_err_detail());
        return;
    }
    compare_types(a, b, r, iter, "remapped");
    xb_dt_release(b);
}

/* ---- one iteration --------------------------------------------------------- */
static void check_one(MPI_Datatype h, const ref_t *r, long iter)
{
    xb_datatype_t *dt = xb_dt_from_handle(h);
    MPI_Count size, lb, ext;
    xb_impl_type_size(dt, &size);
    xb_impl_type_get_extent(dt, &lb, &ext);
    if (size != r->n || lb != r->lb || ext != r->ub - r->lb) {
        FAIL("iter %ld: size/lb/extent %lld/%lld/%lld, want %ld/%ld/%ld", iter,
             (long long)size, (long long)lb, (long long)ext, r->n, r->lb, r->ub - r->lb);
        return;
    }
    long count = rr(0, 4), total = count * r->n;
    long lo = 0, hi = 1;
    for (long i = 0; i < count; i++)
        for (long k = 0; k < r->n; k++) {
            long a = i * ext + r->off[k];
            lo = a < lo ? a : lo;
            hi = a + 1 > hi ? a + 1 : hi;
        }
    size_t span = (size_t)(hi - lo);
    unsigned char *mem = malloc(span), *mem2 = malloc(span), *mem3 = malloc(span);
    unsigned char *want = malloc((size_t)total + 1), *got = malloc((size_t)total + 1);
    unsigned char *buf = mem - lo;   /* element 0 at offset -lo of mem */
    for (size_t i = 0; i < span; i++)
        mem[i] = (unsigned char)rnd();
    bool overlap = false;
    memset(mem2, 0, span);
    for (long i = 0, p = 0; i < count; i++)
        for (long k = 0; k < r->n; k++, p++) {
            long a = i * ext + r->off[k] - lo;
            want[p] = mem[a];
            overlap = overlap || mem2[a];
            mem2[a] = 1;
        }
    /* MPI_Get_elements at a random byte count of the first two elements */
    if (r->n > 0) {
        long bytes = rr(0, 2 * r->n), whole = bytes / r->n, part = bytes % r->n, e = 0;
        for (long k = 0; k < r->n; k++)
            e += r->st[k];
        long want_e = whole * e;
        for (long k = 0; k < part; k++)
            want_e += r->st[k];
        if (part > 0 && !r->st[part])
            want_e = MPI_UNDEFINED;
        MPI_Count got_e = xb_dt_elements(dt, bytes);
        if (got_e != want_e)
            FAIL("iter %ld: elements(%ld) = %lld, want %ld", iter, bytes,
                 (long long)got_e, want_e);
    }
    /* whole pack */
    size_t done = 0;
    int rc = xb_dt_pack(buf, count, dt, 0, got, (size_t)total + 1, &done);
    if (rc != XB_OK || (long)done != total || memcmp(got, want, (size_t)total) != 0)
        FAIL("iter %ld: pack of %ld x type: rc %d, %zu bytes", iter, count, rc, done);
    /* pack in random chunks */
    memset(got, 0, (size_t)total + 1);
    for (size_t off = 0; off < (size_t)total; off += done) {
        size_t max = (size_t)rr(1, 40);
        rc = xb_dt_pack(buf, count, dt, off, got + off, max, &done);
        if (rc != XB_OK || done == 0 || done > max) {
            FAIL("iter %ld: chunk pack at %zu: rc %d done %zu", iter, off, rc, done);
            break;
        }
    }
    if (memcmp(got, want, (size_t)total) != 0)
        FAIL("iter %ld: chunked pack differs", iter);
    /* iovec from a random offset */
    if (total > 0) {
        size_t off = (size_t)rr(0, total - 1);
        struct iovec iov[8];
        int niov = 0, maxiov = (int)rr(1, 8);
        rc = xb_dt_to_iov(buf, count, dt, off, iov, maxiov, &niov, &done);
        size_t p = off;
        for (int i = 0; i < niov && rc == XB_OK; i++) {
            if (p + iov[i].iov_len > (size_t)total ||
                memcmp(iov[i].iov_base, want + p, iov[i].iov_len) != 0)
                break;
            p += iov[i].iov_len;
        }
        if (rc != XB_OK || niov < 1 || niov > maxiov || done == 0 || p != off + done)
            FAIL("iter %ld: to_iov at %zu: rc %d, %d entries, %zu bytes", iter, off,
                 rc, niov, done);
    }
    /* unpack in random chunks (only where the type map does not overlap) */
    if (!overlap) {
        for (size_t i = 0; i < span; i++)
            mem2[i] = mem3[i] = (unsigned char)rnd();
        for (long i = 0, p = 0; i < count; i++)
            for (long k = 0; k < r->n; k++, p++)
                mem3[i * ext + r->off[k] - lo] = want[p];
        for (size_t off = 0, n; off < (size_t)total; off += n) {
            n = (size_t)rr(1, 40);
            n = n < (size_t)total - off ? n : (size_t)total - off;
            rc = xb_dt_unpack(mem2 - lo, count, dt, off, want + off, n);
            if (rc != XB_OK)
                FAIL("iter %ld: unpack at %zu: rc %d", iter, off, rc);
        }
        if (memcmp(mem2, mem3, span) != 0)
            FAIL("iter %ld: unpack differs", iter);
        /* typed copy: type -> bytes and bytes -> type */
        memset(got, 0, (size_t)total + 1);
        rc = xb_dt_copy(buf, count, dt, got, total, xb_dt_from_handle(MPI_BYTE));
        if (rc != XB_OK || memcmp(got, want, (size_t)total) != 0)
            FAIL("iter %ld: copy to bytes", iter);
        for (size_t i = 0; i < span; i++)
            mem2[i] = mem3[i];
        rc = xb_dt_copy(buf, count, dt, mem2 - lo, count, dt);
        for (long i = 0, p = 0; i < count; i++)
            for (long k = 0; k < r->n; k++, p++)
                mem3[i * ext + r->off[k] - lo] = want[p];
        if (rc != XB_OK || memcmp(mem2, mem3, span) != 0)
            FAIL("iter %ld: copy type to type", iter);
        /* external32 there and back lands the same bytes */
        MPI_Count esz = 0, pos = 0, upos = 0;
        xb_impl_pack_external_size("external32", count, dt, &esz);
        unsigned char *ext32 = malloc((size_t)esz + 1);
        for (size_t i = 0; i < span; i++)
            mem2[i] = mem3[i];
        rc = xb_impl_pack_external("external32", buf, count, dt, ext32, esz, &pos);
        if (rc == XB_OK)
            rc = xb_impl_unpack_external("external32", ext32, esz, &upos, mem2 - lo,
                                         count, dt);
        if (rc != XB_OK || pos != esz || upos != esz || memcmp(mem2, mem3, span) != 0)
            FAIL("iter %ld: external32 round trip: rc %d (%s), %lld/%lld of %lld bytes",
                 iter, rc, rc ? xb_err_detail() : "", (long long)pos, (long long)upos,
                 (long long)esz);
        free(ext32);
    }
    free(mem);
    free(mem2);
    free(mem3);
    free(want);
    free(got);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    unsigned long long seed = argc > 1 ? strtoull(argv[1], NULL, 0)
                                       : (unsigned long long)time(NULL);
    long iters = argc > 2 ? atol(argv[2]) : 20000;
    printf("test_datatype_random: seed %llu (replay: %s %llu)\n", seed, argv[0], seed);
    rng_state = seed;
    xb_dt_init();
    time_t start = time(NULL);
    long it;
    for (it = 0; it < iters && failures < 10; it++) {
        if (time(NULL) - start > 20)
            break;                  /* bounded in time on a loaded machine */
        ref_t r = {0};
        /* half of the types keep their tree form (VEC/SEQ nodes) */
        xb_dt_flatten_max = rr(0, 1) ? 64 : (int)rr(0, 3);
        MPI_Datatype h = make_type((int)rr(1, 4), &r);
        if (h == MPI_DATATYPE_NULL) {
            ref_free(&r);
            continue;
        }
        MPI_Datatype hc = h;
        int rc = xb_impl_type_commit(&hc);
        if (rc != XB_OK)
            FAIL("iter %ld: commit: %d %s", it, rc, xb_err_detail());
        else {
            check_one(h, &r, it);
            check_rebuild(h, &r, it);
            check_remap(h, &r, it);
        }
        release(h);
        ref_free(&r);
    }
    printf("%ld iterations, %d failure(s)\n", it, failures);
    return failures ? 1 : 0;
}

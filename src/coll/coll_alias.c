/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_alias.c - send and receive buffers of one collective call must not
 * share memory (MPI 4.1 2.5.3: arguments may not be aliased; MPI_IN_PLACE
 * is the way to reuse a buffer). A call that aliases them fails with
 * MPI_ERR_BUFFER on the rank that does it, before any message is sent.
 *
 * Only a certain overlap is reported, never a possible one: a buffer of a
 * contiguous layout certainly touches every byte of its span; one with
 * holes certainly touches only the first and the last byte of its span (a
 * strided send interleaved with a strided receive in one array is legal).
 * A single buffer on each side is 2 x 2 intervals at most; a single
 * buffer against the blocks of a v form (gatherv, scatterv, allgatherv) is
 * compared block by block (O(p)); alltoallv and alltoallw compare every
 * send block with every receive block: first their whole spans (O(p), no
 * allocation), then, when the spans meet, block against block (sorted
 * when there are many).
 */
#include <stdint.h>
#include <stdlib.h>
#include "coll/coll_int.h"
#include "datatype/dt_inl.h"     /* every collective call asks: inline queries */

typedef struct {            /* bytes [lo, hi) a buffer certainly touches */
    uintptr_t lo, hi;
} iv_t;

/* The blocks of a v form's side: n blocks of counts[i] elements of
 * types[i] (or dt) at base + displs[i] (bytes when `bytes`, else extents). */
typedef struct {
    const char *base;
    int n;
    const MPI_Count *counts, *displs;
    xb_datatype_t *dt;
    xb_datatype_t *const *types;
    bool bytes;
} side_t;

/* The intervals count elements of dt at buf certainly touch: 0 (nothing),
 * 1 (a contiguous span) or 2 (the first and the last byte). */
static int touched(const void *buf, MPI_Count count, const xb_datatype_t *dt,
                   iv_t iv[2])
{
    if (buf == MPI_IN_PLACE || count <= 0 || dt == NULL || xb_dti_size(dt) == 0)
        return 0;
    if (xb_dti_is_contig(dt, count)) {       /* the common case: size bytes a count */
        MPI_Count bytes;
        uintptr_t lo = (uintptr_t)buf + (uintptr_t)xb_dti_true_lb(dt);
        if (__builtin_mul_overflow(count, (MPI_Count)xb_dti_size(dt), &bytes) ||
            lo + (uintptr_t)bytes <= lo)
            return 0;            /* past the address space: not a real buffer */
        iv[0] = (iv_t){ lo, lo + (uintptr_t)bytes };
        return 1;
    }
    MPI_Aint ext = xb_dti_extent(dt), tlb = xb_dti_true_lb(dt);
    MPI_Aint tex = xb_dti_true_extent(dt), reach;
    if (__builtin_mul_overflow((MPI_Aint)(count - 1), ext, &reach))
        return 0;                /* past the address space: not a real buffer */
    uintptr_t first = (uintptr_t)buf + (uintptr_t)tlb;
    uintptr_t lo = ext < 0 ? first + (uintptr_t)reach : first;
    uintptr_t hi = (ext < 0 ? first : first + (uintptr_t)reach) + (uintptr_t)tex;
    if (hi <= lo)
        return 0;
    iv[0] = (iv_t){ lo, lo + 1 };
    iv[1] = (iv_t){ hi - 1, hi };
    return 2;
}

static int block(const side_t *s, int i, iv_t iv[2])
{
    xb_datatype_t *dt = s->types != NULL ? s->types[i] : s->dt;
    if (dt == NULL)
        return 0;
    MPI_Aint d = (MPI_Aint)s->displs[i];
    if (!s->bytes && __builtin_mul_overflow(d, xb_dti_extent(dt), &d))
        return 0;
    return touched(s->base + d, s->counts[i], dt, iv);
}

/* Every interval of one side, and their span. */
static int collect(const side_t *s, iv_t *out, iv_t *span)
{
    iv_t tmp[2];
    int n = 0;
    *span = (iv_t){ UINTPTR_MAX, 0 };
    for (int i = 0; i < s->n; i++) {
        iv_t *iv = out != NULL ? out + n : tmp;     /* straight into out */
        int k = block(s, i, iv);
        for (int j = 0; j < k; j++) {
            span->lo = iv[j].lo < span->lo ? iv[j].lo : span->lo;
            span->hi = iv[j].hi > span->hi ? iv[j].hi : span->hi;
        }
        n += k;
    }
    return n;
}

static bool meet(iv_t a, iv_t b)
{
    return a.lo < b.hi && b.lo < a.hi;
}

/* The first pair of a[] x b[] that meets, pair by pair (a few intervals). */
static bool pair_meets(const iv_t *a, int na, const iv_t *b, int nb, iv_t *hit_a,
                       iv_t *hit_b)
{
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (meet(a[i], b[j])) {
                *hit_a = a[i], *hit_b = b[j];
                return true;
            }
    return false;
}

static int by_lo(const void *x, const void *y)
{
    uintptr_t a = ((const iv_t *)x)->lo, b = ((const iv_t *)y)->lo;
    return a < b ? -1 : a > b;
}

/* Blocks per side whose intervals are collected on the stack, in one pass
 * (alltoallv and alltoallw on up to FEW ranks; alias.5 and .8 take the
 * other path, two passes and a malloc). */
enum { FEW = 4 };

/* One buffer (its nx intervals x) against every block of side m, block by
 * block: O(p) compares and no list (gatherv, scatterv, allgatherv: the
 * lists were 400 of a 2-rank 8-byte MPI_Scatterv root's 1357 instructions
 * per call; callgrind, 2026-12-06). */
static bool single_meets(const iv_t *x, int nx, const side_t *m, iv_t *hit_x, iv_t *hit_m)
{
    const xb_datatype_t *dt = m->dt;
    if (m->types == NULL && !m->bytes && dt != NULL && xb_dti_is_contig(dt, 2)) {
        /* the common case: every block one span, the type read once
         * (the general walk was 300 of a 2-rank 8-byte MPI_Gatherv
         * root's 1450 instructions; callgrind, 2026-12-06) */
        MPI_Aint ext = xb_dti_extent(dt);
        uintptr_t base = (uintptr_t)m->base + (uintptr_t)xb_dti_true_lb(dt);
        for (int i = 0; i < m->n; i++) {
            MPI_Aint off, bytes;
            if (m->counts[i] <= 0 || __builtin_mul_overflow(m->displs[i], ext, &off) ||
                __builtin_mul_overflow(m->counts[i], ext, &bytes))
                continue;        /* nothing, or past the address space */
            iv_t iv = { base + (uintptr_t)off, base + (uintptr_t)off + (uintptr_t)bytes };
            if (iv.hi > iv.lo && pair_meets(x, nx, &iv, 1, hit_x, hit_m))
                return true;
        }
        return false;
    }
    for (int i = 0; i < m->n; i++) {
        iv_t iv[2];
        if (pair_meets(x, nx, iv, block(m, i, iv), hit_x, hit_m))
            return true;
    }
    return false;
}

/* Does an interval of s meet one of r? *hit_s / *hit_r: such a pair. */
static bool sides_meet(const side_t *s, const side_t *r, iv_t *hit_s, iv_t *hit_r)
{
    iv_t few[4 * FEW], ss, rs, *a = few, *b = few + 2 * FEW;
    bool small = s->n <= FEW && r->n <= FEW;
    int ns = collect(s, small ? a : NULL, &ss), nr = collect(r, small ? b : NULL, &rs);
    if (ns == 0 || nr == 0 || !meet(ss, rs))
        return false;
    if (!small) {
        if ((a = malloc(((size_t)ns + (size_t)nr) * sizeof(*a))) == NULL)
            return false;        /* a check we cannot afford is skipped */
        b = a + ns;
        collect(s, a, &ss);
        collect(r, b, &rs);
    }
    bool found = false;
    if ((long long)ns * nr <= 16) {     /* a few: pair by pair */
        found = pair_meets(a, ns, b, nr, hit_s, hit_r);
    } else {                     /* sweep both sorted lists by start */
        qsort(a, (size_t)ns, sizeof(*a), by_lo);
        qsort(b, (size_t)nr, sizeof(*b), by_lo);
        iv_t top_a = { 0, 0 }, top_b = { 0, 0 };   /* farthest-reaching so far */
        for (int i = 0, j = 0; (i < ns || j < nr) && !found;) {
            bool take_a = j >= nr || (i < ns && a[i].lo <= b[j].lo);
            iv_t x = take_a ? a[i++] : b[j++];
            iv_t *other = take_a ? &top_b : &top_a, *mine = take_a ? &top_a : &top_b;
            if (other->hi > x.lo) {
                *hit_s = take_a ? x : *other;
                *hit_r = take_a ? *other : x;
                found = true;
            }
            if (x.hi > mine->hi)
                *mine = x;
        }
    }
    if (!small)
        free(a);
    return found;
}

static int overlap(iv_t hs, iv_t hr)
{
    return xb_err_set(XB_ERR_BUFFER, "the send and the receive buffer overlap "
                      "(send bytes %p-%p, receive bytes %p-%p); buffers of one "
                      "call may not share memory: pass MPI_IN_PLACE to reuse "
                      "one", (void *)hs.lo, (void *)(hs.hi - 1), (void *)hr.lo,
                      (void *)(hr.hi - 1));
}

static int aliased(const side_t *s, const side_t *r)
{
    iv_t hs = { 0, 0 }, hr = { 0, 0 };
    return sides_meet(s, r, &hs, &hr) ? overlap(hs, hr) : XB_OK;
}

/* One buffer a side (every fixed-size collective, Reduce_local): at most
 * 2 x 2 intervals, straight, without the sides of the v forms (the check
 * was a quarter of a 2-rank 8-byte MPI_Gather root's instructions, 282 of
 * 1144 per call; callgrind, 2026-12-06). */
static int aliased_one(const void *sbuf, MPI_Count scount, const xb_datatype_t *sdt,
                       const void *rbuf, MPI_Count rcount, const xb_datatype_t *rdt)
{
    iv_t x[2], y[2], hx, hy;
    int nx = touched(sbuf, scount, sdt, x);
    int ny = nx > 0 ? touched(rbuf, rcount, rdt, y) : 0;
    return pair_meets(x, nx, y, ny, &hx, &hy) ? overlap(hx, hy) : XB_OK;
}

/* Two buffers of one contiguous layout (the reductions' send and receive
 * buffers) that certainly do not meet: their starts at least the layout's
 * bytes apart, one subtraction (about 80 fewer instructions than
 * aliased_one for an 8-byte MPI_Exscan; callgrind, 2026-12-06). False:
 * aliased_one decides (and words the error). */
static bool same_layout_apart(const void *x, const void *y, MPI_Count count,
                              const xb_datatype_t *dt)
{
    MPI_Count bytes;
    if (dt == NULL || !xb_dti_is_contig(dt, count) ||
        __builtin_mul_overflow(count, (MPI_Count)xb_dti_size(dt), &bytes))
        return false;
    uintptr_t d = (uintptr_t)x > (uintptr_t)y ? (uintptr_t)x - (uintptr_t)y
                                              : (uintptr_t)y - (uintptr_t)x;
    return bytes <= 0 || d >= (uintptr_t)bytes;
}

/* The blocks of a v form's side, field by field: a side built as a
 * compound literal and copied (the former `s = many(...)`) went through
 * 16-byte loads of fields just stored 8 bytes at a time, six
 * store-forwarding stalls, about a quarter of a 2-rank 8-byte
 * MPI_Gatherv (perf, 2026-12-07). */
static void set_many(side_t *s, const void *buf, int n, const MPI_Count *counts,
                     const MPI_Count *displs, xb_datatype_t *dt)
{
    s->base = buf;
    s->n = n;
    s->counts = counts;
    s->displs = displs;
    s->dt = dt;
    s->types = NULL;
    s->bytes = false;
}

/* One buffer against the blocks of m (gatherv, scatterv, allgatherv). */
static int one_against(const void *buf, MPI_Count count, const xb_datatype_t *dt,
                       const side_t *m, bool one_sends)
{
    iv_t x[2], hx = { 0, 0 }, hm = { 0, 0 };
    int nx = touched(buf, count, dt, x);
    if (nx == 0 || !single_meets(x, nx, m, &hx, &hm))
        return XB_OK;
    return one_sends ? overlap(hx, hm) : overlap(hm, hx);
}

int xb_coll_check_alias(xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    const xb_comm_t *c = a->comm;
    if (xb_comm_is_inter(c) || a->sbuf == MPI_IN_PLACE || a->rbuf == MPI_IN_PLACE)
        return XB_OK;
    int p = c->size;
    bool root = c->rank == a->root;
    side_t s, r;
    switch (kind) {
    case XB_COLL_REDUCE:
        if (!root)
            return XB_OK;
        /* fall through */
    case XB_COLL_ALLREDUCE: case XB_COLL_SCAN: case XB_COLL_EXSCAN:
        return same_layout_apart(a->sbuf, a->rbuf, a->rcount, a->rdt) ? XB_OK
             : aliased_one(a->sbuf, a->rcount, a->rdt, a->rbuf, a->rcount, a->rdt);
    case XB_COLL_REDUCE_SCATTER_BLOCK:
        return aliased_one(a->sbuf, a->rcount * p, a->rdt, a->rbuf, a->rcount, a->rdt);
    case XB_COLL_REDUCE_SCATTER: {
        MPI_Count total = 0;
        for (int i = 0; i < p; i++)
            total += a->rcounts[i];
        return aliased_one(a->sbuf, total, a->rdt, a->rbuf, a->rcounts[c->rank], a->rdt);
    }
    case XB_COLL_GATHER: case XB_COLL_SCATTER:
        if (!root)
            return XB_OK;
        /* fall through */
    case XB_COLL_ALLGATHER: case XB_COLL_ALLTOALL: {
        bool all_s = kind == XB_COLL_SCATTER || kind == XB_COLL_ALLTOALL;
        bool all_r = kind != XB_COLL_SCATTER;
        return aliased_one(a->sbuf, a->scount * (all_s ? p : 1), a->sdt,
                           a->rbuf, a->rcount * (all_r ? p : 1), a->rdt);
    }
    case XB_COLL_GATHERV:
        if (!root)
            return XB_OK;
        set_many(&r, a->rbuf, p, a->rcounts, a->rdispls, a->rdt);
        return one_against(a->sbuf, a->scount, a->sdt, &r, true);
    case XB_COLL_SCATTERV:
        if (!root)
            return XB_OK;
        set_many(&s, a->sbuf, p, a->scounts, a->sdispls, a->sdt);
        return one_against(a->rbuf, a->rcount, a->rdt, &s, false);
    case XB_COLL_ALLGATHERV:
        set_many(&r, a->rbuf, p, a->rcounts, a->rdispls, a->rdt);
        return one_against(a->sbuf, a->scount, a->sdt, &r, true);
    case XB_COLL_ALLTOALLV: case XB_COLL_ALLTOALLW:
        set_many(&s, a->sbuf, p, a->scounts, a->sdispls, a->sdt);
        set_many(&r, a->rbuf, p, a->rcounts, a->rdispls, a->rdt);
        if (kind == XB_COLL_ALLTOALLW) {
            s.types = a->stypes, r.types = a->rtypes;
            s.bytes = r.bytes = true;
        }
        return aliased(&s, &r);
    default:                     /* barrier, bcast, the neighbourhood ones */
        return XB_OK;
    }
}

int xb_coll_check_alias_local(const void *inbuf, const void *inoutbuf,
                              MPI_Count count, xb_datatype_t *dt)
{
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
        return xb_err_set(XB_ERR_BUFFER, "MPI_IN_PLACE is not allowed as %s "
                          "(MPI_Reduce_local takes two buffers)",
                          inbuf == MPI_IN_PLACE ? "inbuf" : "inoutbuf");
    return aliased_one(inbuf, count, dt, inoutbuf, count, dt);
}

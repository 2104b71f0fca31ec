/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_move.c - moving typed data: pack, unpack, to-iovec and typed copies.
 *
 * One walker serves all three: it visits the contiguous runs of the packed
 * byte range [offset, offset + n) in order and either copies them out
 * (pack), copies into them (unpack) or records them (iovec). A contiguous
 * message is one memcpy and never reaches the walker; a vector-like type is
 * a strided loop of fixed-size copies (sizes 1..16 are inlined loads and
 * stores); the tree walk is for nested irregular types only.
 *
 * Addresses are computed as integers (intptr_t) so that MPI_BOTTOM (NULL)
 * plus absolute displacements is not pointer arithmetic on NULL.
 */
#include <stdlib.h>
#include <string.h>
#include "datatype/dt_types.h"
#include "runtime/tunable.h"

/* Far-strided runs (every run on its own page, e.g. one column of a large
 * matrix) are bound by cache and TLB misses, and issuing them back to back
 * is SLOWER than issuing them paced. bench/pack.c's vector (4096 8-byte
 * runs 32 KiB apart), 2-core AMD EPYC (a VM), standalone loop of the same
 * shape, median of 31 batches, 2026-11-24:
 *   pack (far loads):    plain 0.95-1.0 GB/s; a dependent chain of 8 adds
 *     after each run 1.9-2.0, 12 adds 1.8-1.9, 16 1.45; a memcpy call per
 *     run (Open MPI's loop) 1.6-1.7;
 *   unpack (far stores): plain 1.17; 12 adds 1.4-1.6; a memcpy call per run
 *     1.9; one store to a local slot after each run 1.7-1.9, two 1.9-2.0,
 *     three 1.9-2.0, four 1.75; two stores plus 4 adds 1.85. In the
 *     library (bench/pack.c, best batch of 31, three interleaved runs):
 *     pack with 6/8/12 adds 1.94-1.99/1.94-1.95/1.81-1.87 GB/s, unpack with
 *     2/3/4 stores 1.81-1.95/1.99-2.0/1.90-1.96, Open MPI 1.77-1.83 (pack)
 *     and 1.2-1.8 (unpack).
 * So a pack pauses with XB_DT_PACE adds, an unpack with XB_DT_UNPACK_PACE
 * stores to a local (L1-resident) slot. An earlier run (2026-11-23) saw
 * the same curve for adds (4: 1.2, 8: 1.5, 12: 1.9, 24: 1.2, 32: 0.9), so it
 * is the memory system, not our code. Only runs of at most 16 bytes,
 * DT_FAR_STRIDE apart or more, in batches of at least DT_FAR_MIN_RUNS are
 * paced (cache-resident data would only lose). 0 turns a pause off (an
 * unpack with XB_DT_UNPACK_PACE=0 falls back to XB_DT_PACE adds).
 *
 * The best pause is the machine's, not ours: on a 2-CPU Intel Xeon VM
 * (2026-12-07, same benchmark, MB/s) pack gave 490 plain, 580-630 with 8
 * adds, 830-900 with 16, 860-890 with 24, 490-520 with 32 (Open MPI 870);
 * unpack 890 plain (MPICH 890), 485 with 1 store, 450 with 3, 400 with 2.
 * Software prefetches a few runs ahead did not help there (pack 490,
 * unpack 700). So by default (-1) each thread times its first far-strided
 * copies: ROUNDS copies with each of four paces, then keeps the one with
 * the lowest time per run (copy_runs_far). */
XB_TUNABLE_LIVE(DT_PACE, XB_TT_INT, "-1", XB_TL_TUNER,
           "dependent adds between two far-strided runs of a pack/unpack "
           "(0: none; -1: each thread times a few paces on its first "
           "far-strided copies and keeps the fastest)", NULL);
XB_TUNABLE_LIVE(DT_UNPACK_PACE, XB_TT_INT, "-1", XB_TL_TUNER,
           "stores to a local slot between two far-strided runs of an "
           "unpack (0: pause with XB_DT_PACE adds instead; -1: timed, as "
           "XB_DT_PACE)", NULL);
enum { DT_FAR_STRIDE = 4096, DT_FAR_MIN_RUNS = 256 };

enum { W_PACK, W_UNPACK, W_IOV };

typedef struct walk {
    int     mode;
    char   *pos;      /* packed-side cursor (pack: dst, unpack: src) */
    size_t  left;     /* bytes still to visit; 0 also when the iovec is full */
    size_t  done;     /* bytes visited */
    struct iovec *iov;
    int     niov, maxiov;
} walk_t;

static inline void emit(walk_t *w, intptr_t addr, size_t len)
{
    if (w->mode == W_PACK) {
        memcpy(w->pos, (const void *)addr, len);
        w->pos += len;
    } else if (w->mode == W_UNPACK) {
        memcpy((void *)addr, w->pos, len);
        w->pos += len;
    } else {
        struct iovec *last = w->niov > 0 ? &w->iov[w->niov - 1] : NULL;
        if (last != NULL && (intptr_t)last->iov_base + (intptr_t)last->iov_len == addr) {
            last->iov_len += len;
        } else if (w->niov == w->maxiov) {
            w->left = 0;        /* full: stop here */
            return;
        } else {
            w->iov[w->niov].iov_base = (void *)addr;
            w->iov[w->niov].iov_len = len;
            w->niov++;
        }
    }
    w->left -= len;
    w->done += len;
}

/* n runs of a fixed length L, strided; L a compile-time constant when the
 * macro is expanded with one, so the copy is a plain load/store. */
#define RUNS_LOOP(L)                                                        \
    do {                                                                    \
        if (w->mode == W_PACK)                                              \
            for (MPI_Count i_ = 0; i_ < n; i_++, a += stride, p += (L))     \
                memcpy(p, (const void *)a, (L));                            \
        else                                                                \
            for (MPI_Count i_ = 0; i_ < n; i_++, a += stride, p += (L))     \
                memcpy((void *)a, p, (L));                                  \
    } while (0)

/* LOOP(len) with len a constant for the common run lengths, so that each
 * memcpy is a few moves (RUNS_LOOP, RUNS2_LOOP). */
#define BY_RUN_LEN(LOOP)                                                    \
    switch (len) {                                                          \
    case 1: LOOP(1); break;                                                 \
    case 2: LOOP(2); break;                                                 \
    case 4: LOOP(4); break;                                                 \
    case 8: LOOP(8); break;                                                 \
    case 12: LOOP(12); break;                                               \
    case 16: LOOP(16); break;                                               \
    default: LOOP(len); break;                                              \
    }

/* The walk moved past n runs of len bytes, its packed side now at p. */
static void runs_done(walk_t *w, char *p, MPI_Count n, size_t len)
{
    w->pos = p;
    w->left -= (size_t)n * len;
    w->done += (size_t)n * len;
}

/* A dependent chain of about k adds (in steps of 4, so the loop's own
 * branch runs beside the chain): a pause of about k cycles that issues no
 * memory operation. */
static inline void pace(long long k)
{
    uint64_t x = 0;
    for (long long i = 0; i < k; i += 4) {
        x++;
        __asm__ volatile("" : "+r"(x));
        x++;
        __asm__ volatile("" : "+r"(x));
        x++;
        __asm__ volatile("" : "+r"(x));
        x++;
        __asm__ volatile("" : "+r"(x));
    }
}

/* The loop of RUNS_LOOP with a pause after every run. */
#define PACED_LOOP(L)                                                       \
    do {                                                                    \
        if (w->mode == W_PACK)                                              \
            for (MPI_Count i_ = 0; i_ < n; i_++, a += stride, p += (L)) {   \
                memcpy(p, (const void *)a, (L));                            \
                pace(k);                                                    \
            }                                                               \
        else                                                                \
            for (MPI_Count i_ = 0; i_ < n; i_++, a += stride, p += (L)) {   \
                memcpy((void *)a, p, (L));                                  \
                pace(k);                                                    \
            }                                                               \
    } while (0)

/* The unpack loop of RUNS_LOOP with `ns` stores to a local slot after
 * every run (a pause that issues no far memory operation). */
#define STORE_PACED_LOOP(L)                                                 \
    for (MPI_Count i_ = 0; i_ < n; i_++, a += stride, p += (L)) {          \
        memcpy((void *)a, p, (L));                                          \
        for (long long j_ = 0; j_ < ns; j_++)                               \
            slot[j_ & 3] = (unsigned char)j_;                               \
    }

static void unpack_runs_store_paced(walk_t *w, intptr_t a, MPI_Count n, size_t len,
                                    MPI_Aint stride, long long ns)
{
    volatile unsigned char slot[4];
    char *p = w->pos;
    switch (len) {
    case 4: STORE_PACED_LOOP(4); break;
    case 8: STORE_PACED_LOOP(8); break;
    case 16: STORE_PACED_LOOP(16); break;
    default: STORE_PACED_LOOP(len); break;
    }
    (void)slot[0];
    runs_done(w, p, n, len);
}

static void copy_runs_plain(walk_t *w, intptr_t a, MPI_Count n, size_t len,
                            MPI_Aint stride)
{
    char *p = w->pos;
    BY_RUN_LEN(RUNS_LOOP)
    runs_done(w, p, n, len);
}

/* A pause after each far-strided run: `adds` dependent adds, or (unpack
 * only) `stores` stores to a local slot; none: the plain loop. */
typedef struct { long long adds, stores; } pace_t;

static void copy_runs_paced(walk_t *w, intptr_t a, MPI_Count n, size_t len,
                            MPI_Aint stride, pace_t pc)
{
    if (w->mode == W_UNPACK && pc.stores > 0) {
        unpack_runs_store_paced(w, a, n, len, stride, pc.stores);
        return;
    }
    if (pc.adds <= 0) {
        copy_runs_plain(w, a, n, len, stride);
        return;
    }
    long long k = pc.adds;          /* PACED_LOOP's pause */
    char *p = w->pos;
    switch (len) {
    case 4: PACED_LOOP(4); break;
    case 8: PACED_LOOP(8); break;
    case 16: PACED_LOOP(16); break;
    default: PACED_LOOP(len); break;
    }
    runs_done(w, p, n, len);
}

/* The paces a thread times for pack and for unpack (XB_DT_PACE = -1). */
enum { TRIES = 4, ROUNDS = 3 };
static const pace_t tries[2][TRIES] = {
    { { 0, 0 }, { 8, 0 }, { 16, 0 }, { 24, 0 } },        /* pack   */
    { { 0, 0 }, { 0, 1 }, { 0, 3 }, { 16, 0 } },         /* unpack */
};
typedef struct {
    unsigned calls;                /* timed so far (TRIES * ROUNDS: done) */
    uint64_t best[TRIES];          /* lowest ps per run seen, 0: none yet  */
    int      pick;
} pace_tuner_t;
static _Thread_local pace_tuner_t tuners[2];

/* The fixed pace the tunables ask for; false: time them (-1). */
static bool fixed_pace(int mode, pace_t *pc)
{
    long long k = xb_tn_DT_PACE.v.i, ns = xb_tn_DT_UNPACK_PACE.v.i;
    if (mode == W_PACK ? k < 0 : ns < 0 || (ns == 0 && k < 0))
        return false;
    pc->adds = k < 0 ? 0 : k;
    pc->stores = mode == W_UNPACK && ns > 0 ? ns : 0;
    return true;
}

/* Far-strided runs: paced as the tunables say, or while this thread's
 * tuner is still timing, with each of its paces in turn. */
static void copy_runs_far(walk_t *w, intptr_t a, MPI_Count n, size_t len, MPI_Aint stride)
{
    pace_t pc;
    if (fixed_pace(w->mode, &pc)) {
        copy_runs_paced(w, a, n, len, stride, pc);
        return;
    }
    pace_tuner_t *t = &tuners[w->mode == W_UNPACK];
    if (t->calls >= TRIES * ROUNDS) {
        copy_runs_paced(w, a, n, len, stride, tries[w->mode == W_UNPACK][t->pick]);
        return;
    }
    int c = (int)(t->calls % TRIES);
    uint64_t t0 = xb_now_ns();
    copy_runs_paced(w, a, n, len, stride, tries[w->mode == W_UNPACK][c]);
    uint64_t ps = (xb_now_ns() - t0) * 1000 / (uint64_t)n + 1;
    if (t->best[c] == 0 || ps < t->best[c])
        t->best[c] = ps;
    if (++t->calls == TRIES * ROUNDS)
        for (int i = 1; i < TRIES; i++)
            if (t->best[i] < t->best[t->pick])
                t->pick = i;
}

static void copy_runs(walk_t *w, intptr_t a, MPI_Count n, size_t len,
                      MPI_Aint stride)
{
    if (len <= 16 && n >= DT_FAR_MIN_RUNS &&
        (stride >= DT_FAR_STRIDE || stride <= -DT_FAR_STRIDE)) {
        copy_runs_far(w, a, n, len, stride);
        return;
    }
    copy_runs_plain(w, a, n, len, stride);
}

/* n runs of L bytes: memory side at a + i*ms, packed side at p + i*ps. */
#define RUNS2_LOOP(L)                                                       \
    do {                                                                    \
        if (pack)                                                           \
            for (MPI_Count i_ = 0; i_ < n; i_++)                            \
                memcpy(p + i_ * ps, (const void *)(a + i_ * ms), (L));      \
        else                                                                \
            for (MPI_Count i_ = 0; i_ < n; i_++)                            \
                memcpy((void *)(a + i_ * ms), p + i_ * ps, (L));            \
    } while (0)

static void copy_runs2(bool pack, char *p, MPI_Aint ps, intptr_t a, MPI_Aint ms,
                       MPI_Count n, size_t len)
{
    BY_RUN_LEN(RUNS2_LOOP)
}

/* Elements of a run-list type handled per chunk: within a chunk, each run
 * of the list is one strided loop over the chunk's elements with a fixed
 * length, instead of a length dispatch per run per element. The chunk keeps
 * both sides of the chunk in L1 between the passes. */
#define DT_BLOCKS_CHUNK 128

static void copy_blocks(walk_t *w, const dt_node_t *n, intptr_t base);

static void copy_blocks_many(walk_t *w, const dt_node_t *r, intptr_t base,
                             MPI_Count nel, MPI_Aint ext)
{
    if (r->u.bl.n >= nel) {
        /* Few elements of a long run list (an indexed type sent once): per
         * element, each run is one inline copy; the strided passes below
         * would make a variable-length memcpy call per run. bench/pack.c's
         * indexed case (4096 runs of 64 bytes, one element): MPI_Pack went
         * from 15-16 to 25-26 GB/s (best of 31 batches, 2-core EPYC). */
        for (MPI_Count e = 0; e < nel; e++)
            copy_blocks(w, r, base + r->disp + e * ext);
        return;
    }
    const MPI_Aint *off = r->u.bl.off, *len = r->u.bl.len;
    const MPI_Count *pfx = r->u.bl.pfx;
    MPI_Aint size = (MPI_Aint)r->size;
    bool pack = w->mode == W_PACK;
    for (MPI_Count e0 = 0; e0 < nel; e0 += DT_BLOCKS_CHUNK) {
        MPI_Count m = nel - e0 < DT_BLOCKS_CHUNK ? nel - e0 : DT_BLOCKS_CHUNK;
        char *p = w->pos + e0 * size;
        intptr_t b = base + r->disp + e0 * ext;
        for (MPI_Count j = 0; j < r->u.bl.n; j++)
            copy_runs2(pack, p + pfx[j], size, b + off[j], ext, m, (size_t)len[j]);
    }
    w->pos += nel * size;
    w->left -= (size_t)(nel * size);
    w->done += (size_t)(nel * size);
}

/* count runs of len bytes at addr + k*stride, starting at packed byte skip. */
static void walk_vrun(walk_t *w, intptr_t addr, MPI_Count count, size_t len,
                      MPI_Aint stride, size_t skip)
{
    if (stride == (MPI_Aint)len) {
        len *= (size_t)count;
        count = 1;
    }
    if (len == 0)
        return;
    MPI_Count k = (MPI_Count)(skip / len);
    size_t s = skip % len;
    addr += k * stride;
    if (s != 0) {
        size_t l = len - s < w->left ? len - s : w->left;
        emit(w, addr + (intptr_t)s, l);
        k++;
        addr += stride;
    }
    if (w->left == 0 || k >= count)
        return;
    MPI_Count nfull = count - k;
    if ((size_t)nfull > w->left / len)
        nfull = (MPI_Count)(w->left / len);
    if (w->mode == W_IOV) {
        for (MPI_Count i = 0; i < nfull && w->left > 0; i++, addr += stride)
            emit(w, addr, len);
        if (w->left == 0)
            return;
    } else {
        copy_runs(w, addr, nfull, len, stride);
        addr += nfull * stride;
    }
    if (w->left > 0 && k + nfull < count)
        emit(w, addr, w->left);     /* trailing partial run: left < len */
}

/* One run of a size that is usually small: up to 64 bytes are two
 * overlapping fixed-size moves (no call, no jump table). */
static inline void copy_one(void *d, const void *s, size_t len)
{
    char *dp = d;
    const char *sp = s;
    if (len > 32 && len <= 64) {
        char a[32], b[32];
        memcpy(a, sp, 32);
        memcpy(b, sp + len - 32, 32);
        memcpy(dp, a, 32);
        memcpy(dp + len - 32, b, 32);
    } else if (len > 16 && len <= 32) {
        char a[16], b[16];
        memcpy(a, sp, 16);
        memcpy(b, sp + len - 16, 16);
        memcpy(dp, a, 16);
        memcpy(dp + len - 16, b, 16);
    } else if (len >= 8 && len <= 16) {
        uint64_t a, b;
        memcpy(&a, sp, 8);
        memcpy(&b, sp + len - 8, 8);
        memcpy(dp, &a, 8);
        memcpy(dp + len - 8, &b, 8);
    } else if (len >= 4 && len < 8) {
        uint32_t a, b;
        memcpy(&a, sp, 4);
        memcpy(&b, sp + len - 4, 4);
        memcpy(dp, &a, 4);
        memcpy(dp + len - 4, &b, 4);
    } else {
        memcpy(dp, sp, len);
    }
}

/* All runs of a whole BLOCKS instance (pack or unpack, enough room). */
static void copy_blocks(walk_t *w, const dt_node_t *n, intptr_t base)
{
    char *p = w->pos;
    const MPI_Aint *off = n->u.bl.off, *len = n->u.bl.len;
    if (w->mode == W_PACK)
        for (MPI_Count i = 0; i < n->u.bl.n; i++, p += len[i - 1])
            copy_one(p, (const void *)(base + off[i]), (size_t)len[i]);
    else
        for (MPI_Count i = 0; i < n->u.bl.n; i++, p += len[i - 1])
            copy_one((void *)(base + off[i]), p, (size_t)len[i]);
    w->pos = p;
    w->left -= (size_t)n->size;
    w->done += (size_t)n->size;
}

/* First index i with pfx[i] <= skip < pfx[i+1] (runs are never empty). */
static MPI_Count find_pfx(const MPI_Count *pfx, MPI_Count n, MPI_Count skip)
{
    MPI_Count lo = 0, hi = n - 1;
    while (lo < hi) {
        MPI_Count mid = lo + (hi - lo + 1) / 2;
        if (pfx[mid] <= skip)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static void walk_node(walk_t *w, const dt_node_t *n, intptr_t base, MPI_Count skip)
{
    base += n->disp;
    switch (n->kind) {
    case DT_VRUN:
        walk_vrun(w, base, n->u.vr.count, (size_t)n->u.vr.len, n->u.vr.stride,
                  (size_t)skip);
        return;
    case DT_BLOCKS: {
        if (skip == 0 && w->mode != W_IOV && w->left >= (size_t)n->size) {
            copy_blocks(w, n, base);
            return;
        }
        MPI_Count i = find_pfx(n->u.bl.pfx, n->u.bl.n, skip);
        size_t s = (size_t)(skip - n->u.bl.pfx[i]);
        for (; i < n->u.bl.n && w->left > 0; i++, s = 0) {
            size_t l = (size_t)n->u.bl.len[i] - s;
            emit(w, base + n->u.bl.off[i] + (intptr_t)s, l < w->left ? l : w->left);
        }
        return;
    }
    case DT_VEC: {
        const dt_node_t *c = n->u.vec.child;
        MPI_Count k = skip / c->size, s = skip % c->size;
        if (s != 0) {
            walk_node(w, c, base + k * n->u.vec.stride, s);
            k++;
        }
        if (c->kind == DT_BLOCKS && w->mode != W_IOV) {
            MPI_Count whole = (MPI_Count)(w->left / (size_t)c->size);
            if (whole > n->u.vec.count - k)
                whole = n->u.vec.count - k;
            copy_blocks_many(w, c, base + k * n->u.vec.stride, whole, n->u.vec.stride);
            k += whole;
        }
        for (; k < n->u.vec.count && w->left > 0; k++)
            walk_node(w, c, base + k * n->u.vec.stride, 0);
        return;
    }
    case DT_IDX: {
        const dt_node_t *c = n->u.ix.child;
        MPI_Count i = find_pfx(n->u.ix.pfx, n->u.ix.n, skip);
        MPI_Count s = skip - n->u.ix.pfx[i];
        MPI_Count j = s / c->size;
        s %= c->size;
        for (; i < n->u.ix.n && w->left > 0; i++, j = 0) {
            intptr_t b = base + n->u.ix.off[i];
            for (; j < n->u.ix.blen[i] && w->left > 0; j++, s = 0)
                walk_node(w, c, b + j * n->u.ix.cext, s);
        }
        return;
    }
    default: {
        MPI_Count i = find_pfx(n->u.seq.pfx, n->u.seq.n, skip);
        MPI_Count s = skip - n->u.seq.pfx[i];
        for (; i < n->u.seq.n && w->left > 0; i++, s = 0)
            walk_node(w, n->u.seq.child[i], base, s);
        return;
    }
    }
}

/* count elements of dt at base, from packed byte offset (< count*size). */
static void walk_top(walk_t *w, intptr_t base, MPI_Count count,
                     const xb_datatype_t *dt, size_t offset)
{
    const dt_node_t *r = dt->root;
    if (r->kind == DT_VRUN && r->u.vr.count == 1) {
        walk_vrun(w, base + r->disp, count, (size_t)r->u.vr.len, dt->extent, offset);
        return;
    }
    if (r->kind == DT_VRUN && r->u.vr.count * r->u.vr.stride == dt->extent) {
        walk_vrun(w, base + r->disp, count * r->u.vr.count, (size_t)r->u.vr.len,
                  r->u.vr.stride, offset);
        return;
    }
    MPI_Count i = (MPI_Count)offset / dt->size, s = (MPI_Count)offset % dt->size;
    if (s != 0) {
        walk_node(w, r, base + i * dt->extent, s);
        i++;
    }
    if (r->kind == DT_BLOCKS && w->mode != W_IOV) {
        /* whole instances of a run list: the struct fast path */
        MPI_Count whole = (MPI_Count)(w->left / (size_t)dt->size);
        if (whole > count - i)
            whole = count - i;
        copy_blocks_many(w, r, base + i * dt->extent, whole, dt->extent);
        i += whole;
    }
    for (; i < count && w->left > 0; i++)
        walk_node(w, r, base + i * dt->extent, 0);
}

static bool contig_msg(const xb_datatype_t *dt, MPI_Count count)
{
    return (dt->flags & DT_F_CONTIG) && (count <= 1 || dt->extent == dt->size);
}

static int not_committed(const xb_datatype_t *dt)
{
    return xb_err_set(XB_ERR_TYPE, "datatype %s is not committed (call "
                      "MPI_Type_commit first)", dt->name[0] ? dt->name : "(derived)");
}

int xb_dt_pack(const void *buf, MPI_Count count, const xb_datatype_t *dt,
               size_t offset, void *dst, size_t max, size_t *done_p)
{
    size_t total = (size_t)count * (size_t)dt->size;
    if (offset >= total || max == 0 || count <= 0) {
        *done_p = 0;
        return XB_OK;
    }
    size_t n = total - offset < max ? total - offset : max;
    if (contig_msg(dt, count)) {
        memcpy(dst, (const void *)((intptr_t)buf + dt->true_lb + (intptr_t)offset), n);
        *done_p = n;
        return XB_OK;
    }
    if (dt->root == NULL)
        return not_committed(dt);
    walk_t w = { .mode = W_PACK, .pos = dst, .left = n };
    walk_top(&w, (intptr_t)buf, count, dt, offset);
    *done_p = w.done;
    return XB_OK;
}

int xb_dt_unpack(void *buf, MPI_Count count, const xb_datatype_t *dt,
                 size_t offset, const void *src, size_t len)
{
    size_t total = count > 0 ? (size_t)count * (size_t)dt->size : 0;
    size_t n = offset >= total ? 0 : (total - offset < len ? total - offset : len);
    if (n > 0 && contig_msg(dt, count)) {
        memcpy((void *)((intptr_t)buf + dt->true_lb + (intptr_t)offset), src, n);
    } else if (n > 0) {
        if (dt->root == NULL)
            return not_committed(dt);
        walk_t w = { .mode = W_UNPACK, .pos = (char *)src, .left = n };
        walk_top(&w, (intptr_t)buf, count, dt, offset);
    }
    if (n < len)
        return xb_err_set(XB_ERR_TRUNCATE, "%zu bytes of data arrived at "
                          "offset %zu for a buffer of %lld x %s (%zu bytes)",
                          len, offset, (long long)count,
                          dt->name[0] ? dt->name : "(derived)", total);
    return XB_OK;
}

int xb_dt_to_iov(const void *buf, MPI_Count count, const xb_datatype_t *dt,
                 size_t offset, struct iovec *iov, int max_iov, int *n_p,
                 size_t *bytes_p)
{
    size_t total = count > 0 ? (size_t)count * (size_t)dt->size : 0;
    *n_p = 0;
    *bytes_p = 0;
    if (offset >= total || max_iov <= 0)
        return XB_OK;
    if (contig_msg(dt, count)) {
        iov[0].iov_base = (void *)((intptr_t)buf + dt->true_lb + (intptr_t)offset);
        iov[0].iov_len = total - offset;
        *n_p = 1;
        *bytes_p = total - offset;
        return XB_OK;
    }
    if (dt->root == NULL)
        return not_committed(dt);
    walk_t w = { .mode = W_IOV, .left = total - offset, .iov = iov,
                 .maxiov = max_iov };
    walk_top(&w, (intptr_t)buf, count, dt, offset);
    *n_p = w.niov;
    *bytes_p = w.done;
    return XB_OK;
}

/* Chunk of the bounce buffer for copies between two non-contiguous types. */
#define DT_COPY_CHUNK (64 * 1024)

/* n bytes of the type signature from one typed buffer to the other. */
static int copy_bytes(const void *sbuf, MPI_Count scount, const xb_datatype_t *sdt,
                      void *rbuf, MPI_Count rcount, const xb_datatype_t *rdt, size_t n)
{
    size_t done;
    if (contig_msg(sdt, scount) && contig_msg(rdt, rcount)) {   /* the common case */
        memcpy((char *)rbuf + rdt->true_lb, (const char *)sbuf + sdt->true_lb, n);
        return XB_OK;
    }
    if (contig_msg(sdt, scount))
        return xb_dt_unpack(rbuf, rcount, rdt, 0,
                            (const void *)((intptr_t)sbuf + sdt->true_lb), n);
    if (contig_msg(rdt, rcount))
        return xb_dt_pack(sbuf, scount, sdt, 0,
                          (void *)((intptr_t)rbuf + rdt->true_lb), n, &done);
    char *tmp = malloc(n < DT_COPY_CHUNK ? n : DT_COPY_CHUNK);
    if (tmp == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for a typed copy");
    int rc = XB_OK;
    for (size_t off = 0; off < n && rc == XB_OK; off += done) {
        size_t want = n - off < DT_COPY_CHUNK ? n - off : DT_COPY_CHUNK;
        rc = xb_dt_pack(sbuf, scount, sdt, off, tmp, want, &done);
        if (rc == XB_OK)
            rc = xb_dt_unpack(rbuf, rcount, rdt, off, tmp, done);
        if (done == 0)
            break;
    }
    free(tmp);
    return rc;
}

int xb_dt_copy(const void *sbuf, MPI_Count scount, const xb_datatype_t *sdt,
               void *rbuf, MPI_Count rcount, const xb_datatype_t *rdt)
{
    size_t ssz = scount > 0 ? (size_t)scount * (size_t)sdt->size : 0;
    size_t rsz = rcount > 0 ? (size_t)rcount * (size_t)rdt->size : 0;
    size_t n = ssz < rsz ? ssz : rsz;
    int rc = n > 0 ? copy_bytes(sbuf, scount, sdt, rbuf, rcount, rdt, n) : XB_OK;
    if (XB_UNLIKELY(rc == XB_OK && ssz > rsz))
        return xb_err_set(XB_ERR_TRUNCATE, "a local copy of %zu bytes into a buffer of %zu "
                          "bytes (count %lld of %s): the send and receive counts or types do "
                          "not match; the first %zu bytes were copied", ssz, rsz,
                          (long long)rcount, xb_dt_name(rdt), rsz);
    return rc;
}

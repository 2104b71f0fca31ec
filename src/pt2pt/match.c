/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * match.c - posted and unexpected queues per context id (see match.h).
 *
 * Singly linked lists, one per source list and queue: an unlink needs the
 * previous entry, and every removal follows a walk that has it.
 */
#include <stdlib.h>
#include "pt2pt/match.h"
#include "pt2pt/pt2pt_stats.h"

/* Counted here, where the queues change (pt2pt_stats.h). */
xb_pt2pt_stats_t xb_pt2pt_stats;

static unsigned bucket_of(uint32_t ctx) { return (ctx >> 1) % XB_MATCH_BUCKETS; }

static XB_NOINLINE xb_match_ctx_t *ctx_create(xb_match_table_t *t, uint32_t ctx)
{
    xb_match_ctx_t *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "out of memory creating the queues of context %u", ctx);
        return NULL;
    }
    c->ctx = ctx;
    c->table = t;
    c->stats = t->stats != NULL ? t->stats : &xb_pt2pt_stats;
    unsigned b = bucket_of(ctx);
    c->next = t->bucket[b];
    t->bucket[b] = c;
    return c;
}

/* A context found further down its chain moves to the front: contexts are
 * never freed (match.h), so a chain holds every context a long run has
 * used, and the ones in use now stay near its head. */
xb_match_ctx_t *xb_match_ctx(xb_match_table_t *t, uint32_t ctx)
{
    if (XB_LIKELY(t->last != NULL && t->last->ctx == ctx))
        return t->last;
    xb_match_ctx_t **head = &t->bucket[bucket_of(ctx)], *prev = NULL, *c = *head;
    while (c != NULL && c->ctx != ctx) {
        prev = c;
        c = c->next;
    }
    if (c != NULL && prev != NULL) {
        prev->next = c->next;
        c->next = *head;
        *head = c;
    }
    if (c == NULL)
        c = ctx_create(t, ctx);
    if (c != NULL)
        t->last = c;
    return c;
}

size_t xb_match_queue_len(const xb_match_table_t *t, uint32_t ctx, bool unexp)
{
    const xb_match_ctx_t *c = t->bucket[bucket_of(ctx)];
    while (c != NULL && c->ctx != ctx)
        c = c->next;
    return c == NULL ? 0 : unexp ? c->nunexp : c->nposted;
}

void xb_match_table_fini(xb_match_table_t *t, void (*drop_unexp)(xb_mq_item_t *))
{
    for (unsigned b = 0; b < XB_MATCH_BUCKETS; b++) {
        while (t->bucket[b] != NULL) {
            xb_match_ctx_t *c = t->bucket[b];
            t->bucket[b] = c->next;
            for (unsigned l = 0; drop_unexp != NULL && c->l != NULL && l < XB_MATCH_SRC_BUCKETS;
                 l++) {
                while (c->l->unexp[l].head != NULL) {
                    xb_mq_item_t *it = c->l->unexp[l].head;
                    c->l->unexp[l].head = it->next;
                    drop_unexp(it);
                    c->stats->unexp_now--;
                }
            }
            free(c->l);
            free(c);
        }
    }
    t->last = NULL;
    t->nlists = 0;
}

/* Free the lists of every context whose queues are empty. */
static XB_NOINLINE void lists_sweep(xb_match_table_t *t)
{
    for (unsigned b = 0; b < XB_MATCH_BUCKETS; b++)
        for (xb_match_ctx_t *c = t->bucket[b]; c != NULL; c = c->next)
            if (c->l != NULL && c->nposted == 0 && c->nunexp == 0) {
                free(c->l);
                c->l = NULL;
                t->nlists--;
            }
    t->sweep_at = 2 * t->nlists > XB_MATCH_KEEP_LISTS ? 2 * t->nlists : XB_MATCH_KEEP_LISTS;
}

static XB_NOINLINE int lists_alloc(xb_match_ctx_t *c)
{
    xb_match_table_t *t = c->table;
    if (t->nlists >= t->sweep_at)
        lists_sweep(t);
    c->l = calloc(1, sizeof(*c->l));
    if (c->l == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory queueing a message of context %u", c->ctx);
    t->nlists++;
    return XB_OK;
}

static inline int lists_ensure(xb_match_ctx_t *c)
{
    return XB_LIKELY(c->l != NULL) ? XB_OK : lists_alloc(c);
}

static inline unsigned src_list(int src) { return (unsigned)src & (XB_MATCH_SRC_BUCKETS - 1); }

/* a was queued before b (numbers wrap; live entries span far less than 2^31) */
static inline bool older(const xb_mq_item_t *a, const xb_mq_item_t *b)
{
    return (int32_t)(a->seq - b->seq) < 0;
}

static void mq_append(xb_mq_t *q, xb_mq_item_t *it)
{
    it->next = NULL;
    if (q->tail != NULL)
        q->tail->next = it;
    else
        q->head = it;
    q->tail = it;
}

static void mq_unlink(xb_mq_t *q, xb_mq_item_t *prev, xb_mq_item_t *it)
{
    if (prev != NULL)
        prev->next = it->next;
    else
        q->head = it->next;
    if (q->tail == it)
        q->tail = prev;
    it->next = NULL;
}

/* An entry of list q found by a walk, and the one before it (to unlink). */
typedef struct {
    xb_mq_t      *q;
    xb_mq_item_t *prev, *it;
} found_t;

static inline found_t posted_first(xb_mq_t *q, int src, int tag)
{
    found_t f = { q, NULL, NULL };
    for (xb_mq_item_t *it = q->head; it != NULL; f.prev = it, it = it->next)
        if (xb_match_pattern(it->src, it->tag, src, tag)) {
            f.it = it;
            break;
        }
    return f;
}

static inline found_t unexp_first(xb_mq_t *q, int src, int tag)
{
    found_t f = { q, NULL, NULL };
    for (xb_mq_item_t *it = q->head; it != NULL; f.prev = it, it = it->next)
        if (xb_match_pattern(src, tag, it->src, it->tag)) {
            f.it = it;
            break;
        }
    return f;
}

static inline found_t exact(xb_mq_t *q, const xb_mq_item_t *target)
{
    found_t f = { q, NULL, NULL };
    for (xb_mq_item_t *it = q->head; it != NULL; f.prev = it, it = it->next)
        if (it == target) {
            f.it = it;
            break;
        }
    return f;
}

static xb_mq_t *posted_list(xb_match_ctx_t *c, int src)
{
    return src == MPI_ANY_SOURCE ? &c->posted_any : &c->l->posted[src_list(src)];
}

static void posted_unlink(xb_match_ctx_t *c, found_t f)
{
    mq_unlink(f.q, f.prev, f.it);
    c->nposted--;
    c->stats->posted_now--;
}

static void unexp_unlink(xb_match_ctx_t *c, found_t f)
{
    mq_unlink(f.q, f.prev, f.it);
    if (f.q->head == NULL)
        c->unexp_mask &= ~(UINT64_C(1) << (f.q - c->l->unexp));
    c->nunexp--;
    c->stats->unexp_now--;
}

xb_mq_item_t *xb_match_posted_take(xb_match_ctx_t *c, int src, int tag)
{
    if (c->nposted == 0)
        return NULL;
    found_t f = posted_first(&c->l->posted[src_list(src)], src, tag);
    if (c->posted_any.head != NULL) {
        found_t w = posted_first(&c->posted_any, src, tag);
        if (w.it != NULL && (f.it == NULL || older(w.it, f.it)))
            f = w;
    }
    if (f.it != NULL)
        posted_unlink(c, f);
    return f.it;
}

int xb_match_posted_add(xb_match_ctx_t *c, xb_mq_item_t *it)
{
    int rc = lists_ensure(c);
    if (XB_UNLIKELY(rc != XB_OK))
        return rc;
    it->seq = c->seq++;
    mq_append(posted_list(c, it->src), it);
    c->nposted++;
    if (++c->stats->posted_now > c->stats->posted_hwm)
        c->stats->posted_hwm = c->stats->posted_now;
    return XB_OK;
}

bool xb_match_posted_remove(xb_match_ctx_t *c, xb_mq_item_t *target)
{
    if (c->nposted == 0)
        return false;
    found_t f = exact(posted_list(c, target->src), target);
    if (f.it != NULL)
        posted_unlink(c, f);
    return f.it != NULL;
}

int xb_match_unexp_add(xb_match_ctx_t *c, xb_mq_item_t *it)
{
    int rc = lists_ensure(c);
    if (XB_UNLIKELY(rc != XB_OK))
        return rc;
    unsigned l = src_list(it->src);
    it->seq = c->seq++;
    mq_append(&c->l->unexp[l], it);
    c->unexp_mask |= UINT64_C(1) << l;
    c->nunexp++;
    c->stats->unexp_total++;
    if (++c->stats->unexp_now > c->stats->unexp_hwm)
        c->stats->unexp_hwm = c->stats->unexp_now;
    return XB_OK;
}

bool xb_match_unexp_remove(xb_match_ctx_t *c, xb_mq_item_t *target)
{
    if (c->nunexp == 0)
        return false;
    found_t f = exact(&c->l->unexp[src_list(target->src)], target);
    if (f.it != NULL)
        unexp_unlink(c, f);
    return f.it != NULL;
}

xb_mq_item_t *xb_match_unexp_list(xb_match_ctx_t *c, int src)
{
    return c->nunexp == 0 ? NULL : c->l->unexp[src_list(src)].head;
}

xb_mq_item_t *xb_match_unexp_find(xb_match_ctx_t *c, int src, int tag, bool take)
{
    found_t f = { NULL, NULL, NULL };
    if (c->nunexp == 0)
        return NULL;
    if (src != MPI_ANY_SOURCE) {
        f = unexp_first(&c->l->unexp[src_list(src)], src, tag);
    } else {
        for (uint64_t m = c->unexp_mask; m != 0; m &= m - 1) {
            found_t g = unexp_first(&c->l->unexp[__builtin_ctzll(m)], src, tag);
            if (g.it != NULL && (f.it == NULL || older(g.it, f.it)))
                f = g;
        }
    }
    if (f.it != NULL && take)
        unexp_unlink(c, f);
    return f.it;
}

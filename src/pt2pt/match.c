/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * match.c - posted and unexpected queues per context id (see match.h).
 *
 * Plain singly linked lists: for the queue depths of real programs a
 * list walk beats hashing on (src, tag), and ANY_SOURCE needs no second
 * structure. A bucketed variant can sit behind the same API later.
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
    c->stats = t->stats != NULL ? t->stats : &xb_pt2pt_stats;
    unsigned b = bucket_of(ctx);
    c->next = t->bucket[b];
    t->bucket[b] = c;
    return c;
}

xb_match_ctx_t *xb_match_ctx(xb_match_table_t *t, uint32_t ctx)
{
    if (XB_LIKELY(t->last != NULL && t->last->ctx == ctx))
        return t->last;
    xb_match_ctx_t *c = t->bucket[bucket_of(ctx)];
    while (c != NULL && c->ctx != ctx)
        c = c->next;
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
    size_t n = 0;
    for (const xb_mq_item_t *it = c == NULL ? NULL : unexp ? c->unexp.head : c->posted.head;
         it != NULL; it = it->next)
        n++;
    return n;
}

void xb_match_table_fini(xb_match_table_t *t, void (*drop_unexp)(xb_mq_item_t *))
{
    for (unsigned b = 0; b < XB_MATCH_BUCKETS; b++) {
        while (t->bucket[b] != NULL) {
            xb_match_ctx_t *c = t->bucket[b];
            t->bucket[b] = c->next;
            while (drop_unexp != NULL && c->unexp.head != NULL) {
                xb_mq_item_t *it = c->unexp.head;
                c->unexp.head = it->next;
                drop_unexp(it);
                c->stats->unexp_now--;
            }
            free(c);
        }
    }
    t->last = NULL;
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

xb_mq_item_t *xb_match_posted_take(xb_match_ctx_t *c, int src, int tag)
{
    xb_mq_item_t *prev = NULL;
    for (xb_mq_item_t *it = c->posted.head; it != NULL; prev = it, it = it->next) {
        if (xb_match_pattern(it->src, it->tag, src, tag)) {
            mq_unlink(&c->posted, prev, it);
            c->stats->posted_now--;
            return it;
        }
    }
    return NULL;
}

void xb_match_posted_add(xb_match_ctx_t *c, xb_mq_item_t *it)
{
    mq_append(&c->posted, it);
    if (++c->stats->posted_now > c->stats->posted_hwm)
        c->stats->posted_hwm = c->stats->posted_now;
}

void xb_match_unexp_add(xb_match_ctx_t *c, xb_mq_item_t *it)
{
    mq_append(&c->unexp, it);
    c->stats->unexp_total++;
    if (++c->stats->unexp_now > c->stats->unexp_hwm)
        c->stats->unexp_hwm = c->stats->unexp_now;
}

bool xb_match_posted_remove(xb_match_ctx_t *c, xb_mq_item_t *target)
{
    xb_mq_item_t *prev = NULL;
    for (xb_mq_item_t *it = c->posted.head; it != NULL; prev = it, it = it->next) {
        if (it == target) {
            mq_unlink(&c->posted, prev, it);
            c->stats->posted_now--;
            return true;
        }
    }
    return false;
}

bool xb_match_unexp_remove(xb_match_ctx_t *c, xb_mq_item_t *target)
{
    xb_mq_item_t *prev = NULL;
    for (xb_mq_item_t *it = c->unexp.head; it != NULL; prev = it, it = it->next) {
        if (it == target) {
            mq_unlink(&c->unexp, prev, it);
            c->stats->unexp_now--;
            return true;
        }
    }
    return false;
}

xb_mq_item_t *xb_match_unexp_find(xb_match_ctx_t *c, int src, int tag, bool take)
{
    xb_mq_item_t *prev = NULL;
    for (xb_mq_item_t *it = c->unexp.head; it != NULL; prev = it, it = it->next) {
        if (xb_match_pattern(src, tag, it->src, it->tag)) {
            if (take) {
                mq_unlink(&c->unexp, prev, it);
                c->stats->unexp_now--;
            }
            return it;
        }
    }
    return NULL;
}

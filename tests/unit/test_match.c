/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_match.c - the matching engine alone: wildcards, arrival order,
 * unexpected before posted, several contexts, unknown contexts, cancel
 * (posted receives and unexpected messages), order across the per-source
 * lists (sources that share a list, numbers that wrap, a long backlog),
 * the sweep of empty contexts' lists.
 */
#include <stdio.h>
#include "pt2pt/match.h"

static int failures;
#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    failures++; } } while (0)

static xb_mq_item_t item(int src, int tag)
{
    xb_mq_item_t it = { NULL, src, tag, 0 };
    return it;
}

static void test_wildcards(void)
{
    xb_match_table_t t = { 0 };
    xb_match_ctx_t *c = xb_match_ctx(&t, 4);
    CHECK(c != NULL);
    xb_mq_item_t a = item(1, 5), b = item(MPI_ANY_SOURCE, 7), d = item(2, MPI_ANY_TAG),
                 e = item(MPI_ANY_SOURCE, MPI_ANY_TAG);
    xb_match_posted_add(c, &a);
    xb_match_posted_add(c, &b);
    xb_match_posted_add(c, &d);
    xb_match_posted_add(c, &e);
    CHECK(xb_match_posted_take(c, 3, 5) == &e);   /* only the full wildcard */
    CHECK(xb_match_posted_take(c, 2, 7) == &b);   /* first in order wins    */
    CHECK(xb_match_posted_take(c, 2, 9) == &d);
    CHECK(xb_match_posted_take(c, 1, 6) == NULL);
    CHECK(xb_match_posted_take(c, 1, 5) == &a);
    CHECK(!xb_match_has_posted(c) && xb_match_queue_len(&t, 4, false) == 0);
    xb_match_table_fini(&t, NULL);
}

static void test_order_and_unexpected(void)
{
    xb_match_table_t t = { 0 };
    xb_match_ctx_t *c = xb_match_ctx(&t, 2);
    xb_mq_item_t m[4] = { item(1, 3), item(1, 3), item(2, 3), item(1, 4) };
    for (int i = 0; i < 4; i++)
        xb_match_unexp_add(c, &m[i]);
    /* probe does not remove, take does, both give the first in order */
    CHECK(xb_match_unexp_find(c, 1, 3, false) == &m[0]);
    CHECK(xb_match_unexp_find(c, 1, 3, true) == &m[0]);
    CHECK(xb_match_unexp_find(c, MPI_ANY_SOURCE, 3, true) == &m[1]);
    CHECK(xb_match_unexp_find(c, 1, MPI_ANY_TAG, true) == &m[3]);
    CHECK(xb_match_unexp_find(c, 1, MPI_ANY_TAG, true) == NULL);
    CHECK(xb_match_unexp_find(c, MPI_ANY_SOURCE, MPI_ANY_TAG, true) == &m[2]);
    CHECK(!xb_match_has_unexp(c) && c->unexp_mask == 0);
    /* the queue works again after being emptied (tail reset) */
    xb_match_unexp_add(c, &m[0]);
    CHECK(xb_match_unexp_find(c, 1, 3, true) == &m[0]);
    xb_match_table_fini(&t, NULL);
}

static int dropped;
static void drop(xb_mq_item_t *it) { (void)it; dropped++; }

static void test_contexts(void)
{
    xb_match_table_t t = { 0 };
    /* a message for a context nobody created yet is kept */
    xb_match_ctx_t *future = xb_match_ctx(&t, 1000);
    xb_mq_item_t early = item(0, 1);
    xb_match_unexp_add(future, &early);
    /* contexts that collide in the hash stay apart */
    xb_match_ctx_t *c0 = xb_match_ctx(&t, 2);
    xb_match_ctx_t *c1 = xb_match_ctx(&t, 2 + 2 * XB_MATCH_BUCKETS);
    xb_match_ctx_t *coll = xb_match_ctx(&t, 3);
    CHECK(c0 != c1 && c0 != coll && c1 != coll);
    /* a context found down its chain moves to the front, and stays itself */
    xb_match_ctx_t *c2 = xb_match_ctx(&t, 2 + 4 * XB_MATCH_BUCKETS);
    CHECK(xb_match_ctx(&t, 2) == c0 && t.bucket[1] == c0);
    CHECK(xb_match_ctx(&t, 2 + 2 * XB_MATCH_BUCKETS) == c1 && t.bucket[1] == c1);
    CHECK(xb_match_ctx(&t, 2 + 4 * XB_MATCH_BUCKETS) == c2 && t.bucket[1] == c2);
    CHECK(c2->next == c1 && c1->next == c0 && c0->next == coll);
    xb_mq_item_t x = item(0, 1);
    xb_match_unexp_add(c1, &x);
    CHECK(xb_match_unexp_find(c0, 0, 1, false) == NULL);
    CHECK(xb_match_unexp_find(coll, 0, 1, false) == NULL);
    CHECK(xb_match_unexp_find(c1, 0, 1, false) == &x);
    /* the communicator is created later: same queues, message still there */
    CHECK(xb_match_ctx(&t, 1000) == future);
    CHECK(xb_match_unexp_find(xb_match_ctx(&t, 1000), MPI_ANY_SOURCE, 1, true) == &early);
    dropped = 0;
    xb_match_table_fini(&t, drop);
    CHECK(dropped == 1);   /* x was still queued */
}

static void test_cancel(void)
{
    xb_match_table_t t = { 0 };
    xb_match_ctx_t *c = xb_match_ctx(&t, 6);
    xb_mq_item_t a = item(1, 1), b = item(1, 1), z = item(1, 1);
    xb_match_posted_add(c, &a);
    xb_match_posted_add(c, &b);
    CHECK(xb_match_posted_remove(c, &b));
    CHECK(!xb_match_posted_remove(c, &b));
    CHECK(!xb_match_posted_remove(c, &z));
    CHECK(c->nposted == 1);
    xb_match_posted_add(c, &b);
    CHECK(xb_match_posted_take(c, 1, 1) == &a);
    CHECK(xb_match_posted_take(c, 1, 1) == &b);
    CHECK(xb_match_posted_take(c, 1, 1) == NULL);
    /* a cancelled send leaves the unexpected queue (middle, then tail) */
    xb_mq_item_t u1 = item(2, 7), u2 = item(2, 7), u3 = item(2, 7);
    xb_match_unexp_add(c, &u1);
    xb_match_unexp_add(c, &u2);
    xb_match_unexp_add(c, &u3);
    CHECK(xb_match_unexp_remove(c, &u2));
    CHECK(!xb_match_unexp_remove(c, &u2));
    CHECK(xb_match_unexp_remove(c, &u3));
    CHECK(c->nunexp == 1 && xb_match_unexp_list(c, 2) == &u1 && u1.next == NULL);
    xb_match_unexp_add(c, &u3);
    CHECK(xb_match_unexp_find(c, 2, 7, true) == &u1);
    CHECK(xb_match_unexp_find(c, 2, 7, true) == &u3);
    CHECK(xb_match_unexp_find(c, 2, 7, true) == NULL);
    xb_match_table_fini(&t, NULL);
}

/* Sources in different lists, and sources that share one (s and
 * s + XB_MATCH_SRC_BUCKETS): the oldest match wins across lists. */
static void test_lists(void)
{
    xb_match_table_t t = { 0 };
    xb_match_ctx_t *c = xb_match_ctx(&t, 8);
    const int far = 3 + XB_MATCH_SRC_BUCKETS;   /* shares source 3's list */
    xb_mq_item_t m[6] = { item(5, 1), item(far, 1), item(3, 1), item(5, 2), item(3, 2),
                          item(far, 2) };
    for (int i = 0; i < 6; i++)
        xb_match_unexp_add(c, &m[i]);
    CHECK(xb_match_queue_len(&t, 8, true) == 6);
    CHECK(xb_match_unexp_find(c, 3, MPI_ANY_TAG, false) == &m[2]);   /* not far's */
    CHECK(xb_match_unexp_find(c, far, 2, false) == &m[5]);
    CHECK(xb_match_unexp_find(c, MPI_ANY_SOURCE, 2, true) == &m[3]);
    CHECK(xb_match_unexp_find(c, MPI_ANY_SOURCE, MPI_ANY_TAG, true) == &m[0]);
    CHECK(xb_match_unexp_find(c, MPI_ANY_SOURCE, MPI_ANY_TAG, true) == &m[1]);
    CHECK(xb_match_unexp_find(c, 5, MPI_ANY_TAG, true) == NULL);
    CHECK(c->unexp_mask == UINT64_C(1) << 3);   /* source 5's list is empty */
    CHECK(xb_match_unexp_find(c, MPI_ANY_SOURCE, 2, true) == &m[4]);
    CHECK(xb_match_unexp_find(c, far, MPI_ANY_TAG, true) == &m[5]);
    CHECK(xb_match_unexp_find(c, 3, 1, true) == &m[2]);
    CHECK(!xb_match_has_unexp(c) && c->unexp_mask == 0);

    /* posted: an envelope takes the older of its source's first match and
     * the first wildcard match */
    xb_mq_item_t p[5] = { item(MPI_ANY_SOURCE, 4), item(2, 4), item(far, MPI_ANY_TAG),
                          item(3, 4), item(MPI_ANY_SOURCE, MPI_ANY_TAG) };
    for (int i = 0; i < 5; i++)
        xb_match_posted_add(c, &p[i]);
    CHECK(xb_match_posted_take(c, 2, 4) == &p[0]);
    CHECK(xb_match_posted_take(c, 2, 4) == &p[1]);
    CHECK(xb_match_posted_take(c, 3, 4) == &p[3]);   /* not far's, older in the list */
    CHECK(xb_match_posted_take(c, 3, 9) == &p[4]);
    CHECK(xb_match_posted_take(c, far, 9) == &p[2]);
    CHECK(!xb_match_has_posted(c));
    xb_match_table_fini(&t, NULL);
}

/* Numbers that wrap around keep the order. */
static void test_wrap(void)
{
    xb_match_table_t t = { 0 };
    xb_match_ctx_t *c = xb_match_ctx(&t, 10);
    c->seq = UINT32_MAX - 1;
    xb_mq_item_t m[4] = { item(1, 0), item(2, 0), item(3, 0), item(4, 0) };
    for (int i = 0; i < 4; i++)
        xb_match_unexp_add(c, &m[i]);
    for (int i = 0; i < 4; i++)
        CHECK(xb_match_unexp_find(c, MPI_ANY_SOURCE, 0, true) == &m[i]);
    c->seq = UINT32_MAX;
    xb_mq_item_t a = item(7, 0), w = item(MPI_ANY_SOURCE, 0);
    xb_match_posted_add(c, &a);
    xb_match_posted_add(c, &w);
    CHECK(xb_match_posted_take(c, 7, 0) == &a);
    CHECK(xb_match_posted_take(c, 7, 0) == &w);
    xb_match_table_fini(&t, NULL);
}

/* A backlog of many senders: each receive for one source still gets that
 * source's messages in order, and ANY_SOURCE gets them in arrival order. */
static void test_backlog(void)
{
    enum { SRC = 200, PER = 20 };
    static xb_mq_item_t m[SRC * PER];
    xb_match_table_t t = { 0 };
    xb_match_ctx_t *c = xb_match_ctx(&t, 12);
    for (int k = 0; k < PER; k++)
        for (int s = 0; s < SRC; s++) {
            m[k * SRC + s] = item(s, k);
            xb_match_unexp_add(c, &m[k * SRC + s]);
        }
    for (int s = SRC - 1; s >= SRC / 2; s--)
        for (int k = 0; k < PER; k++)
            CHECK(xb_match_unexp_find(c, s, MPI_ANY_TAG, true) == &m[k * SRC + s]);
    for (int k = 0; k < PER; k++)
        for (int s = 0; s < SRC / 2; s++)
            CHECK(xb_match_unexp_find(c, MPI_ANY_SOURCE, MPI_ANY_TAG, true) == &m[k * SRC + s]);
    CHECK(!xb_match_has_unexp(c) && c->unexp_mask == 0);
    xb_match_table_fini(&t, NULL);
}

/* Going through many contexts keeps lists only for the busy ones; a
 * context whose lists were swept is empty and takes entries again. */
static void test_sweep(void)
{
    enum { N = 1000 };
    xb_match_table_t t = { 0 };
    xb_match_ctx_t *held = xb_match_ctx(&t, 2);
    xb_mq_item_t busy = item(4, 4), h = item(1, 1), m[N];
    xb_match_unexp_add(held, &h);
    CHECK(xb_match_unexp_find(held, 1, 1, true) == &h);   /* empty, lists kept */
    xb_match_ctx_t *b = xb_match_ctx(&t, 4);
    xb_match_unexp_add(b, &busy);                        /* stays queued */
    unsigned most = 0;
    for (int i = 0; i < N; i++) {
        xb_match_ctx_t *c = xb_match_ctx(&t, 6 + 2 * (uint32_t)i);
        m[i] = item(i % 70, i);
        CHECK(xb_match_posted_add(c, &m[i]) == XB_OK);
        CHECK(xb_match_posted_take(c, i % 70, i) == &m[i]);
        most = t.nlists > most ? t.nlists : most;
    }
    CHECK(most <= 2 * XB_MATCH_KEEP_LISTS);
    CHECK(held->l == NULL && b->l != NULL);                  /* swept / kept */
    CHECK(xb_match_unexp_find(held, MPI_ANY_SOURCE, MPI_ANY_TAG, false) == NULL);
    CHECK(!xb_match_posted_remove(held, &h) && !xb_match_unexp_remove(held, &h));
    CHECK(xb_match_unexp_list(held, 1) == NULL);
    CHECK(xb_match_unexp_add(held, &h) == XB_OK && held->l != NULL);
    CHECK(xb_match_unexp_find(held, 1, MPI_ANY_TAG, true) == &h);
    CHECK(xb_match_unexp_find(b, 4, 4, true) == &busy);
    xb_match_table_fini(&t, NULL);
    CHECK(t.nlists == 0);
}

int main(void)
{
    test_wildcards();
    test_order_and_unexpected();
    test_contexts();
    test_cancel();
    test_lists();
    test_wrap();
    test_backlog();
    test_sweep();
    if (failures) {
        fprintf(stderr, "test_match: %d failures\n", failures);
        return 1;
    }
    printf("No Errors\n");
    return 0;
}

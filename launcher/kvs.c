/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* kvs.c - the job's key-value space: a chained hash table that doubles. */
#include "launcher.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct kv {
    struct kv *next;
    char      *key, *val;
} kv_t;

struct lx_kvs {
    kv_t  **bucket;
    size_t  nbucket, count;
};

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;            /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

lx_kvs_t *lx_kvs_new(void)
{
    lx_kvs_t *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->nbucket = 256;
    k->bucket = calloc(k->nbucket, sizeof *k->bucket);
    if (!k->bucket) {
        free(k);
        return NULL;
    }
    return k;
}

static void rehash(lx_kvs_t *k)
{
    size_t nb = k->nbucket * 2;
    kv_t **b = calloc(nb, sizeof *b);
    if (!b)
        return;                     /* keep the old table: slower, still right */
    for (size_t i = 0; i < k->nbucket; i++)
        for (kv_t *e = k->bucket[i], *next; e; e = next) {
            next = e->next;
            size_t j = hash(e->key) & (nb - 1);
            e->next = b[j];
            b[j] = e;
        }
    free(k->bucket);
    k->bucket = b;
    k->nbucket = nb;
}

int lx_kvs_put(lx_kvs_t *k, const char *key, const char *val)
{
    size_t i = hash(key) & (k->nbucket - 1);
    for (kv_t *e = k->bucket[i]; e; e = e->next)
        if (strcmp(e->key, key) == 0) {
            char *v = strdup(val);
            if (!v)
                return -1;
            free(e->val);
            e->val = v;
            return 0;
        }
    kv_t *e = malloc(sizeof *e);
    if (!e)
        return -1;
    e->key = strdup(key);
    e->val = strdup(val);
    if (!e->key || !e->val) {
        free(e->key);
        free(e->val);
        free(e);
        return -1;
    }
    e->next = k->bucket[i];
    k->bucket[i] = e;
    if (++k->count > k->nbucket * 2)
        rehash(k);
    return 0;
}

const char *lx_kvs_get(const lx_kvs_t *k, const char *key)
{
    size_t i = hash(key) & (k->nbucket - 1);
    for (kv_t *e = k->bucket[i]; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e->val;
    return NULL;
}

void lx_kvs_free(lx_kvs_t *k)
{
    if (!k)
        return;
    for (size_t i = 0; i < k->nbucket; i++)
        for (kv_t *e = k->bucket[i], *next; e; e = next) {
            next = e->next;
            free(e->key);
            free(e->val);
            free(e);
        }
    free(k->bucket);
    free(k);
}

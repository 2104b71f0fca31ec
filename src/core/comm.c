/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm.c - the communicator object (passive part): handles, reference
 * counts, COMM_WORLD and COMM_SELF, the per-process context-id pool, and the
 * local queries (size, rank, compare, group, names). Construction that needs
 * communication (dup, split: context-id agreement) is in src/comm/.
 *
 * Freed communicators keep their memory on a free list (magic
 * XB_MAGIC_FREED), so a stale handle is reported as freed instead of reading
 * released memory; the list is emptied at finalize.
 */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "core/errhandler.h"
#include "core/attr.h"
#include "core/info.h"
#include "core/topo.h"
#include "runtime/runtime.h"
#include "util/xb_lanes.h"
#include "xb_impl.h"

static xb_comm_t world_obj, self_obj, boot_obj;
static bool predef_ready;
static xb_comm_t *free_list;          /* linked through the `group` field */
/* Communicators whose last reference went under one lane's lock only
 * (a request of a lane communicator freed in a lane call): destroying
 * touches main-context state (context ids, the free list, groups), so it
 * waits for a holder of all the locks (xb_comm_bury). Pushed by lane
 * holders (several lanes at once: a compare-and-swap), taken whole under
 * all. */
static _Atomic(xb_comm_t *) graveyard;
static uint64_t ctx_mask[XB_CTX_MASK_WORDS];

/* ---- context-id pool ---------------------------------------------------- */
const uint64_t *xb_ctx_mask(void) { return ctx_mask; }

void xb_ctx_take(uint32_t ctx)
{
    uint32_t s = ctx / 2;
    if (s < XB_CTX_SLOTS)
        ctx_mask[s / 64] &= ~(UINT64_C(1) << (s % 64));
}

void xb_ctx_put(uint32_t ctx)
{
    uint32_t s = ctx / 2;
    if (s < XB_CTX_SLOTS)
        ctx_mask[s / 64] |= UINT64_C(1) << (s % 64);
}

void xb_ctx_take_mask(const uint64_t *m)
{
    for (int w = 0; w < XB_CTX_MASK_WORDS; w++)
        ctx_mask[w] &= ~m[w];
}

void xb_ctx_put_mask(const uint64_t *m)
{
    for (int w = 0; w < XB_CTX_MASK_WORDS; w++)
        ctx_mask[w] |= m[w];
}

/* ---- handles ------------------------------------------------------------- */
xb_comm_t *xb_comm_world(void) { return predef_ready ? &world_obj : NULL; }
xb_comm_t *xb_comm_self(void)  { return predef_ready ? &self_obj : NULL; }
xb_comm_t *xb_comm_boot(void)  { return predef_ready ? &boot_obj : NULL; }

xb_comm_t *xb_comm_from_handle(MPI_Comm h)
{
    if (h == MPI_COMM_WORLD)
        return xb_comm_world();
    if (h == MPI_COMM_SELF)
        return xb_comm_self();
    if (xb_handle_is_predef(h))
        return NULL;
    xb_comm_t *c = (xb_comm_t *)h;
    return c->magic == XB_MAGIC_COMM && !c->user_freed ? c : NULL;
}

MPI_Comm xb_comm_to_handle(xb_comm_t *c)
{
    return c == NULL ? MPI_COMM_NULL : c->handle;
}

/* ---- objects ---------------------------------------------------------------- */
static void comm_setup(xb_comm_t *c, xb_group_t *group, uint32_t ctx,
                       xb_errhandler_t *errh, MPI_Comm handle)
{
    memset(c, 0, sizeof(*c));
    c->magic = XB_MAGIC_COMM;
    c->refcount = 1;
    c->ctx = ctx;
    c->rank = group->rank;
    c->size = group->size;
    c->group = group;
    c->errh = errh;
    c->handle = handle;
}

xb_comm_t *xb_comm_new(xb_group_t *group, uint32_t ctx, const xb_comm_t *parent)
{
    xb_comm_t *c = free_list;
    if (c != NULL)
        free_list = (xb_comm_t *)(void *)c->group;
    else if ((c = malloc(sizeof(*c))) == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "out of memory for a new communicator");
        return NULL;
    }
    xb_errhandler_t *e = parent != NULL && parent->errh != NULL
                       ? parent->errh : xb_errhandler_fatal();
    xb_errhandler_retain(e);
    xb_group_retain(group);
    xb_ctx_take(ctx);
    comm_setup(c, group, ctx, e, (MPI_Comm)c);
    return c;
}

static void destroy_now(xb_comm_t *c);

void xb_comm_destroy(xb_comm_t *c)
{
    if (c == &world_obj || c == &self_obj || c == &boot_obj)
        return;                 /* predefined: undone by fini_predefined */
    if (XB_UNLIKELY(xb_mt_lanes_held() > 1)) {       /* one lane's lock */
        xb_comm_t *old = atomic_load_explicit(&graveyard, memory_order_relaxed);
        do
            c->grave_next = old;
        while (!atomic_compare_exchange_weak_explicit(&graveyard, &old, c, memory_order_release,
                                                      memory_order_relaxed));
        return;
    }
    destroy_now(c);
}

void xb_comm_bury_slow(void)
{
    xb_comm_t *c = atomic_exchange_explicit(&graveyard, NULL, memory_order_acquire);
    while (c != NULL) {
        xb_comm_t *next = c->grave_next;
        destroy_now(c);
        c = next;
    }
}

void xb_comm_bury(void)
{
    if (XB_UNLIKELY(atomic_load_explicit(&graveyard, memory_order_relaxed) != NULL))
        xb_comm_bury_slow();
}

static void destroy_now(xb_comm_t *c)
{
    xb_ctx_put(c->ctx);
    xb_group_release(c->group);
    if (c->remote != NULL)
        xb_group_release(c->remote);
    if (c->local_comm != NULL)
        xb_comm_release(c->local_comm);
    if (c->errh != NULL)
        xb_errhandler_release(c->errh);
    xb_info_destroy(c->info);
    xb_topo_free(c->topo);
    xb_attr_delete_all(XB_ATTR_COMM, &c->attrs, c->handle);   /* normally empty */
    xb_bbuf_release(c->bbuf);
    xb_bbuf_release(c->session_bbuf);
    free(c->part_chans);
    c->part_chans = NULL;
    c->magic = XB_MAGIC_FREED;
    c->group = (xb_group_t *)(void *)free_list;
    free_list = c;
}

int xb_comm_init_predefined(void)
{
    const xb_rt_info_t *rt = xb_rt();
    memset(ctx_mask, 0xff, sizeof(ctx_mask));
    xb_group_set_my_world_rank(rt->rank);
    xb_group_t *wg = xb_group_new(rt->size, NULL);
    xb_group_t *sg = xb_group_new(1, &rt->rank);
    if (wg == NULL || sg == NULL)
        return XB_ERR_NO_MEM;
    xb_errhandler_t *fatal = xb_errhandler_fatal();
    xb_errhandler_retain(fatal);
    xb_errhandler_retain(fatal);
    comm_setup(&world_obj, wg, 0, fatal, MPI_COMM_WORLD);
    comm_setup(&self_obj, sg, 2, fatal, MPI_COMM_SELF);
    xb_group_retain(wg);
    xb_errhandler_retain(fatal);
    comm_setup(&boot_obj, wg, XB_CTX_BOOT, fatal, NULL);
    boot_obj.handle = (MPI_Comm)&boot_obj;
    xb_ctx_take(0);
    xb_ctx_take(2);
    xb_ctx_take(XB_CTX_BOOT);
    strcpy(world_obj.name, "MPI_COMM_WORLD");
    strcpy(self_obj.name, "MPI_COMM_SELF");
    predef_ready = true;
    return XB_OK;
}

void xb_comm_fini_predefined(void)
{
    if (!predef_ready)
        return;
    predef_ready = false;
    xb_comm_t *pre[3] = { &world_obj, &self_obj, &boot_obj };
    for (int i = 0; i < 3; i++) {
        xb_group_release(pre[i]->group);
        if (pre[i]->errh != NULL)
            xb_errhandler_release(pre[i]->errh);
        xb_attr_delete_all(XB_ATTR_COMM, &pre[i]->attrs, pre[i]->handle);
        xb_info_destroy(pre[i]->info);
        xb_bbuf_release(pre[i]->bbuf);
        pre[i]->bbuf = NULL;
        free(pre[i]->part_chans);
        pre[i]->part_chans = NULL;
        pre[i]->magic = XB_MAGIC_FREED;
    }
    while (free_list != NULL) {
        xb_comm_t *c = free_list;
        free_list = (xb_comm_t *)(void *)c->group;
        free(c);
    }
    xb_group_pool_fini();
    xb_info_pool_fini();
    xb_attr_type_fini();
    xb_attr_fini();
    xb_mem_fini();
}

xb_bbuf_t *xb_bbuf_new(void)
{
    xb_bbuf_t *b = calloc(1, sizeof(*b));
    if (b == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "no memory for a buffer slot");
        return NULL;
    }
    b->refs = 1;
    atomic_store(&b->empty, 1);
    return b;
}

void xb_bbuf_release(xb_bbuf_t *b)
{
    if (b != NULL && --b->refs == 0)
        free(b);
}

/* First step of MPI_Finalize: the attributes of MPI_COMM_SELF, then of
 * MPI_COMM_WORLD, are deleted while everything still works, so their
 * delete callbacks may call MPI (the standard's finalize hook). */
void xb_comm_finalize_attrs(void)
{
    if (!predef_ready)
        return;
    xb_attr_delete_all(XB_ATTR_COMM, &self_obj.attrs, self_obj.handle);
    xb_attr_delete_all(XB_ATTR_COMM, &world_obj.attrs, world_obj.handle);
    xb_err_clear();
}

/* ---- MPI_Comm_* local queries -------------------------------------------- */
int xb_impl_comm_size(xb_comm_t *comm, int *size)
{
    *size = comm->size;
    return XB_OK;
}

int xb_impl_comm_rank(xb_comm_t *comm, int *rank)
{
    *rank = comm->rank;
    return XB_OK;
}

int xb_impl_comm_compare(xb_comm_t *comm1, xb_comm_t *comm2, int *result)
{
    if (comm1 == comm2) {
        *result = MPI_IDENT;
        return XB_OK;
    }
    if (xb_comm_is_inter(comm1) != xb_comm_is_inter(comm2)) {
        *result = MPI_UNEQUAL;
        return XB_OK;
    }
    int g = xb_group_compare(comm1->group, comm2->group);
    if (xb_comm_is_inter(comm1) && g != MPI_UNEQUAL) {
        /* intercommunicators: the remote groups must match as well */
        int r = xb_group_compare(comm1->remote, comm2->remote);
        g = r == MPI_UNEQUAL ? MPI_UNEQUAL : g == MPI_IDENT ? r : MPI_SIMILAR;
    }
    *result = g == MPI_IDENT ? MPI_CONGRUENT : g;
    return XB_OK;
}

int xb_impl_comm_group(xb_comm_t *comm, MPI_Group *group)
{
    xb_group_retain(comm->group);
    *group = xb_group_to_handle(comm->group);
    return XB_OK;
}

int xb_impl_comm_set_name(xb_comm_t *comm, const char *comm_name)
{
    if (comm_name == NULL)
        return xb_err_set(XB_ERR_ARG, "invalid argument comm_name: a null pointer");
    size_t n = strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(comm->name, comm_name, n);
    comm->name[n] = '\0';
    return XB_OK;
}

/* MPI 4.1: MPI_COMM_NULL (arriving as NULL) is named "MPI_COMM_NULL". */
int xb_impl_comm_get_name(xb_comm_t *comm, char *comm_name, int *resultlen)
{
    const char *name = comm != NULL ? comm->name : "MPI_COMM_NULL";
    size_t n = strlen(name);
    memcpy(comm_name, name, n + 1);
    *resultlen = (int)n;
    return XB_OK;
}

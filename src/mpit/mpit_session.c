/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * mpit_session.c - performance-variable sessions and handles: create/free,
 * handle alloc/free, start, stop, read, write, reset, readreset.
 *
 * A handle never changes the counter it reads (other sessions and tools
 * see their own values). A COUNTER handle holds `accum` (its value while
 * stopped) and `base` (the counter when it was last started, written or
 * reset): its value is accum + (counter - base) while started, accum while
 * stopped; it starts stopped at 0. LEVEL and HIGHWATERMARK handles read the
 * counter itself (continuous and read-only).
 *
 * MPI_T_PVAR_ALL_HANDLES: start, stop and reset act on every handle of the
 * session that allows it and skip the others; read, write and readreset
 * need one handle.
 */
#include <stdlib.h>
#include "mpit/mpit.h"
#include "core/core.h"
#include "pt2pt/pt2pt.h"
#include "runtime/runtime.h"

enum { SESSION_MAGIC = 0x50534553, HANDLE_MAGIC = 0x50484e44 };

struct MPI_T_pvar_handle_t {
    uint32_t magic;
    int      idx;
    uint32_t ctx;        /* bound communicator's context (comm_queue pvars) */
    uint32_t chan;       /* ... and its channel (progress contexts) */
    bool     started;
    uint64_t accum, base;
    struct MPI_T_pvar_handle_t  *next;
};

struct MPI_T_pvar_session_t {
    uint32_t magic;
    struct MPI_T_pvar_handle_t  *handles;
    struct MPI_T_pvar_session_t *next;
};

static struct MPI_T_pvar_session_t *sessions;

static int find_session(const char *fn, MPI_T_pvar_session s)
{
    for (struct MPI_T_pvar_session_t *p = sessions; p != NULL; p = p->next)
        if (p == s)
            return MPI_SUCCESS;
    return xb_mpit_err(MPI_T_ERR_INVALID_SESSION, fn, "invalid argument "
                       "session: %s", s == MPI_T_PVAR_SESSION_NULL ?
                       "MPI_T_PVAR_SESSION_NULL" : "not a session (freed, or "
                       "never created)");
}

/* The link that points at h in session s, or NULL with the error in *rc. */
static struct MPI_T_pvar_handle_t **find_handle(const char *fn, MPI_T_pvar_session s,
                                                MPI_T_pvar_handle h, int *rc)
{
    if ((*rc = find_session(fn, s)) != MPI_SUCCESS)
        return NULL;
    for (struct MPI_T_pvar_handle_t **p = &s->handles; *p != NULL; p = &(*p)->next)
        if (*p == h)
            return p;
    *rc = xb_mpit_err(MPI_T_ERR_INVALID_HANDLE, fn, "invalid argument handle: %s",
                      h == MPI_T_PVAR_HANDLE_NULL ? "MPI_T_PVAR_HANDLE_NULL"
                      : h == MPI_T_PVAR_ALL_HANDLES ? "MPI_T_PVAR_ALL_HANDLES is "
                      "not allowed here" : "not a handle of this session (freed, "
                      "allocated in another session, or never allocated)");
    return NULL;
}

static uint64_t value_of(const struct MPI_T_pvar_handle_t *h)
{
    const xb_mpit_pvar_t *p = xb_mpit_pvar_at(h->idx);
    if (p->comm_queue >= 0)
        return xb_pt2pt_queue_len(h->chan, h->ctx, p->comm_queue == 1);
    if (p->var_class != MPI_T_PVAR_CLASS_COUNTER)
        return *p->src;
    return h->accum + (h->started ? *p->src - h->base : 0);
}

static void set_value(struct MPI_T_pvar_handle_t *h, uint64_t v)
{
    const xb_mpit_pvar_t *p = xb_mpit_pvar_at(h->idx);
    h->accum = v;
    h->base = p->src != NULL ? *p->src : 0;
}

/* The context of the communicator *obj_handle (an MPI_Comm *). */
static int bind_comm(const char *fn, void *obj_handle, uint32_t *ctx, uint32_t *chan)
{
    if (xb_init_state() != XB_STATE_INIT)
        return xb_mpit_err(MPI_T_ERR_INVALID_HANDLE, fn, "invalid argument "
                           "obj_handle: this variable is bound to a communicator, "
                           "and communicators exist only while MPI is initialized");
    xb_comm_t *c = obj_handle != NULL ? xb_comm_from_handle(*(MPI_Comm *)obj_handle) : NULL;
    if (c == NULL)
        return xb_mpit_err(MPI_T_ERR_INVALID_HANDLE, fn, "invalid argument "
                           "obj_handle: this variable is bound to a communicator; "
                           "pass the address of a valid MPI_Comm (%s)",
                           obj_handle == NULL ? "NULL was passed" : "that one is "
                           "not a communicator in use");
    *ctx = c->ctx;
    *chan = c->chan;
    return MPI_SUCCESS;
}

static void free_handles(struct MPI_T_pvar_session_t *s)
{
    while (s->handles != NULL) {
        struct MPI_T_pvar_handle_t *h = s->handles;
        s->handles = h->next;
        h->magic = 0;
        free(h);
    }
}

static int session_create(MPI_T_pvar_session *session)
{
    static const char fn[] = "MPI_T_pvar_session_create";
    int rc = xb_mpit_check_ptr(fn, "session", session);
    if (rc != MPI_SUCCESS)
        return rc;
    struct MPI_T_pvar_session_t *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return xb_mpit_err(MPI_T_ERR_MEMORY, fn, "out of memory for a session");
    s->magic = SESSION_MAGIC;
    s->next = sessions;
    sessions = s;
    *session = s;
    return MPI_SUCCESS;
}

static int session_free(MPI_T_pvar_session *session)
{
    static const char fn[] = "MPI_T_pvar_session_free";
    int rc = xb_mpit_check_ptr(fn, "session", session);
    if (rc == MPI_SUCCESS)
        rc = find_session(fn, *session);
    if (rc != MPI_SUCCESS)
        return rc;
    for (struct MPI_T_pvar_session_t **p = &sessions; *p != NULL; p = &(*p)->next) {
        if (*p == *session) {
            struct MPI_T_pvar_session_t *s = *p;
            *p = s->next;
            free_handles(s);
            s->magic = 0;
            free(s);
            break;
        }
    }
    *session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}

void xb_mpit_session_fini(void)
{
    while (sessions != NULL) {
        struct MPI_T_pvar_session_t *s = sessions;
        sessions = s->next;
        free_handles(s);
        free(s);
    }
}

static int handle_alloc(MPI_T_pvar_session s, int idx, void *obj_handle,
                        MPI_T_pvar_handle *handle, int *count)
{
    static const char fn[] = "MPI_T_pvar_handle_alloc";
    uint32_t ctx = 0, chan = 0;  /* obj_handle is ignored for unbound variables */
    int rc = find_session(fn, s);
    if (rc == MPI_SUCCESS)
        rc = xb_mpit_check_index(fn, "pvar_index", idx, xb_mpit_pvar_count());
    if (rc == MPI_SUCCESS)
        rc = xb_mpit_check_ptr(fn, "handle", handle);
    if (rc == MPI_SUCCESS)
        rc = xb_mpit_check_ptr(fn, "count", count);
    if (rc == MPI_SUCCESS && xb_mpit_pvar_at(idx)->comm_queue >= 0)
        rc = bind_comm(fn, obj_handle, &ctx, &chan);
    if (rc != MPI_SUCCESS)
        return rc;
    struct MPI_T_pvar_handle_t *h = calloc(1, sizeof(*h));
    if (h == NULL)
        return xb_mpit_err(MPI_T_ERR_MEMORY, fn, "out of memory for a handle");
    h->magic = HANDLE_MAGIC;
    h->idx = idx;
    h->ctx = ctx;
    h->chan = chan;
    h->started = xb_mpit_pvar_at(idx)->continuous;
    set_value(h, 0);
    h->next = s->handles;
    s->handles = h;
    *handle = h;
    *count = 1;
    return MPI_SUCCESS;
}

static int handle_free(MPI_T_pvar_session s, MPI_T_pvar_handle *handle)
{
    static const char fn[] = "MPI_T_pvar_handle_free";
    int rc = xb_mpit_check_ptr(fn, "handle", handle);
    if (rc != MPI_SUCCESS)
        return rc;
    struct MPI_T_pvar_handle_t **p = find_handle(fn, s, *handle, &rc);
    if (p == NULL)
        return rc;
    struct MPI_T_pvar_handle_t *h = *p;
    *p = h->next;
    h->magic = 0;
    free(h);
    *handle = MPI_T_PVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

/* start (on = true) or stop one handle. */
static int start_one(const char *fn, struct MPI_T_pvar_handle_t *h, bool on)
{
    const xb_mpit_pvar_t *p = xb_mpit_pvar_at(h->idx);
    if (p->continuous)
        return xb_mpit_err(MPI_T_ERR_PVAR_NO_STARTSTOP, fn, "%s is continuous: "
                           "it cannot be started or stopped", p->name);
    if (h->started == on)
        return MPI_SUCCESS;
    uint64_t v = value_of(h);
    h->started = on;
    set_value(h, v);
    return MPI_SUCCESS;
}

static int reset_one(const char *fn, struct MPI_T_pvar_handle_t *h)
{
    const xb_mpit_pvar_t *p = xb_mpit_pvar_at(h->idx);
    if (p->readonly)
        return xb_mpit_err(MPI_T_ERR_PVAR_NO_WRITE, fn, "%s is read-only: it "
                           "cannot be written or reset", p->name);
    set_value(h, 0);
    return MPI_SUCCESS;
}

/* op: 0 start, 1 stop, 2 reset; on one handle or on ALL_HANDLES. */
static int apply(const char *fn, MPI_T_pvar_session s, MPI_T_pvar_handle handle, int op)
{
    int rc;
    if (handle == MPI_T_PVAR_ALL_HANDLES) {
        if ((rc = find_session(fn, s)) != MPI_SUCCESS)
            return rc;
        for (struct MPI_T_pvar_handle_t *h = s->handles; h != NULL; h = h->next) {
            const xb_mpit_pvar_t *p = xb_mpit_pvar_at(h->idx);
            if (op < 2 && !p->continuous)
                start_one(fn, h, op == 0);
            else if (op == 2 && !p->readonly)
                reset_one(fn, h);
        }
        return MPI_SUCCESS;
    }
    struct MPI_T_pvar_handle_t **hp = find_handle(fn, s, handle, &rc);
    if (hp == NULL)
        return rc;
    return op < 2 ? start_one(fn, *hp, op == 0) : reset_one(fn, *hp);
}

/* op: 0 read, 1 write, 2 readreset. */
static int access_one(const char *fn, MPI_T_pvar_session s, MPI_T_pvar_handle handle,
                      void *buf, int op)
{
    int rc;
    struct MPI_T_pvar_handle_t **hp = find_handle(fn, s, handle, &rc);
    if (hp == NULL)
        return rc;
    if ((rc = xb_mpit_check_ptr(fn, "buf", buf)) != MPI_SUCCESS)
        return rc;
    struct MPI_T_pvar_handle_t *h = *hp;
    const xb_mpit_pvar_t *p = xb_mpit_pvar_at(h->idx);
    if (op != 0 && p->readonly)
        return xb_mpit_err(MPI_T_ERR_PVAR_NO_WRITE, fn, "%s is read-only: it "
                           "cannot be written or reset", p->name);
    if (op == 2 && !p->atomic)
        return xb_mpit_err(MPI_T_ERR_PVAR_NO_ATOMIC, fn, "%s cannot be read and "
                           "reset atomically", p->name);
    if (op == 1) {
        set_value(h, (uint64_t)*(const unsigned long long *)buf);
        return MPI_SUCCESS;
    }
    *(unsigned long long *)buf = (unsigned long long)value_of(h);
    if (op == 2)
        set_value(h, 0);
    return MPI_SUCCESS;
}

/* ---- entry points --------------------------------------------------------- */

XB_EXPORT int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    XB_MPIT_CALL("MPI_T_pvar_session_create", session_create(session));
}

XB_EXPORT int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    XB_MPIT_CALL("MPI_T_pvar_session_free", session_free(session));
}

XB_EXPORT int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index,
                                       void *obj_handle, MPI_T_pvar_handle *handle,
                                       int *count)
{
    XB_MPIT_CALL("MPI_T_pvar_handle_alloc",
                 handle_alloc(session, pvar_index, obj_handle, handle, count));
}

XB_EXPORT int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    XB_MPIT_CALL("MPI_T_pvar_handle_free", handle_free(session, handle));
}

XB_EXPORT int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    XB_MPIT_CALL("MPI_T_pvar_start", apply("MPI_T_pvar_start", session, handle, 0));
}

XB_EXPORT int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    XB_MPIT_CALL("MPI_T_pvar_stop", apply("MPI_T_pvar_stop", session, handle, 1));
}

XB_EXPORT int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    XB_MPIT_CALL("MPI_T_pvar_reset", apply("MPI_T_pvar_reset", session, handle, 2));
}

XB_EXPORT int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                               void *buf)
{
    XB_MPIT_CALL("MPI_T_pvar_read", access_one("MPI_T_pvar_read", session, handle, buf, 0));
}

XB_EXPORT int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                                const void *buf)
{
    XB_MPIT_CALL("MPI_T_pvar_write", access_one("MPI_T_pvar_write", session, handle,
                                                (void *)(uintptr_t)buf, 1));
}

XB_EXPORT int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                                    void *buf)
{
    XB_MPIT_CALL("MPI_T_pvar_readreset",
                 access_one("MPI_T_pvar_readreset", session, handle, buf, 2));
}

XB_MPIT_ALIAS(MPI_T_pvar_session_create);
XB_MPIT_ALIAS(MPI_T_pvar_session_free);
XB_MPIT_ALIAS(MPI_T_pvar_handle_alloc);
XB_MPIT_ALIAS(MPI_T_pvar_handle_free);
XB_MPIT_ALIAS(MPI_T_pvar_start);
XB_MPIT_ALIAS(MPI_T_pvar_stop);
XB_MPIT_ALIAS(MPI_T_pvar_reset);
XB_MPIT_ALIAS(MPI_T_pvar_read);
XB_MPIT_ALIAS(MPI_T_pvar_write);
XB_MPIT_ALIAS(MPI_T_pvar_readreset);

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * mpit_pvar.c - the table of performance variables and the calls that
 * describe it (get_num, get_info, get_index). Sessions and handles are in
 * mpit_session.c.
 *
 * Every pvar reads one 64-bit counter that a lower layer keeps
 * (pt2pt_stats.h; xb_method_stats in method.h), as MPI_UNSIGNED_LONG_LONG,
 * bound to no object, count 1:
 *   - COUNTERs (messages, bytes, protocol choices): not continuous (a
 *     handle counts only while started), writable and resettable (the
 *     handle keeps its own offset; the counter itself is never touched),
 *     atomic (read and reset happen under the same lock);
 *   - LEVELs (queue lengths now) and HIGHWATERMARKs (the longest the queues
 *     have been since the process started): read-only and continuous.
 * Two LEVELs are bound to a communicator (MPI_T_BIND_MPI_COMM; the handle
 * takes a pointer to an MPI_Comm): the receives posted and the messages
 * waiting unexpected in its point-to-point context, read from the matching
 * engine's counts (xb_pt2pt_queue_len).
 * Order: the pt2pt ones, the communicator ones, two per progress context
 * and the two of oversubscription (progress.h), the multicast ones, then
 * four per method (sent and received, messages and bytes) in registry order.
 */
#include <stdio.h>
#include <string.h>
#include "mpit/mpit.h"
#include "coll/coll.h"
#include "method/method.h"
#include "method/mcast/mcast.h"
#include "progress/progress.h"
#include "pt2pt/pt2pt_stats.h"
#include "pt2pt/pt2pt.h"
#include "runtime/tunable.h"
#include "util/xb_lanes.h"

XB_TUNABLE_DECL(PROGRESS_CONTEXTS);

enum { MAX_PVARS = 96 };

static xb_mpit_pvar_t table[MAX_PVARS];
static int npvars;

#define COUNTER MPI_T_PVAR_CLASS_COUNTER, false, false, true
#define LEVEL   MPI_T_PVAR_CLASS_LEVEL, true, true, false
#define HWM     MPI_T_PVAR_CLASS_HIGHWATERMARK, true, true, false
#define S(field) &xb_pt2pt_stats.field

static const struct {
    const char *name, *desc;
    int         verbosity, var_class;
    bool        readonly, continuous, atomic;
    const uint64_t *src;
} pt2pt_vars[] = {
    { "pt2pt_messages_sent", "Messages sent by the matching layer (user "
      "sends of every mode and the messages of collective algorithms)",
      MPI_T_VERBOSITY_USER_BASIC, COUNTER, S(sent_msgs) },
    { "pt2pt_bytes_sent", "Payload bytes of the messages sent",
      MPI_T_VERBOSITY_USER_BASIC, COUNTER, S(sent_bytes) },
    { "pt2pt_eager_sent", "Messages sent eagerly (with their envelope)",
      MPI_T_VERBOSITY_TUNER_BASIC, COUNTER, S(sent_eager) },
    { "pt2pt_rendezvous_sent", "Messages sent by rendezvous (single-copy get "
      "or pipelined), above the method's eager limit",
      MPI_T_VERBOSITY_TUNER_BASIC, COUNTER, S(sent_rndv) },
    { "pt2pt_messages_received", "Messages matched to a receive",
      MPI_T_VERBOSITY_USER_BASIC, COUNTER, S(recv_msgs) },
    { "pt2pt_bytes_received", "Sizes (as sent) of the messages matched",
      MPI_T_VERBOSITY_USER_BASIC, COUNTER, S(recv_bytes) },
    { "pt2pt_unexpected_arrived", "Messages that arrived before their "
      "receive was posted (kept in the unexpected queue)",
      MPI_T_VERBOSITY_TUNER_BASIC, COUNTER, S(unexp_total) },
    { "pt2pt_unexpected_queue_length", "Messages in the unexpected queues now",
      MPI_T_VERBOSITY_TUNER_BASIC, LEVEL, S(unexp_now) },
    { "pt2pt_unexpected_queue_max", "The most messages the unexpected queues "
      "have held at once since the process started",
      MPI_T_VERBOSITY_TUNER_BASIC, HWM, S(unexp_hwm) },
    { "pt2pt_posted_queue_length", "Receives posted and not matched yet, now",
      MPI_T_VERBOSITY_TUNER_BASIC, LEVEL, S(posted_now) },
    { "pt2pt_posted_queue_max", "The most receives the posted queues have "
      "held at once since the process started",
      MPI_T_VERBOSITY_TUNER_BASIC, HWM, S(posted_hwm) },
    { "pt2pt_rendezvous_gets_deferred", "Nonblocking receives that matched a "
      "rendezvous message already here while a progress thread ran: the "
      "single-copy get was left to that thread, not done inside the call",
      MPI_T_VERBOSITY_TUNER_DETAIL, COUNTER, S(gets_deferred) },
};

static xb_mpit_pvar_t *add(const char *name, const char *desc, int verbosity, int cls,
                           bool ro, bool cont, bool atomic, const uint64_t *src,
                           const char *cat)
{
    xb_mpit_pvar_t *p = &table[npvars++];
    snprintf(p->name, sizeof p->name, "%s", name);
    p->desc = desc;
    p->verbosity = verbosity;
    p->var_class = cls;
    p->readonly = ro;
    p->continuous = cont;
    p->atomic = atomic;
    p->src = src;
    p->comm_queue = -1;
    p->category = cat;
    return p;
}

/* Per progress context (docs/design/threads.md "Progress contexts"):
 * context 0 is the main one, 1..N the lanes of XB_PROGRESS_CONTEXTS = N. */
static void add_contexts(void)
{
    long n = xb_tn_PROGRESS_CONTEXTS.v.i;
    n = n > 1 && n <= XB_LANES_MAX ? n : 0;
    char name[48];
    for (int c = 0; c <= n; c++) {
        snprintf(name, sizeof name, "progress_context_%d_locks", c);
        add(name, "Times the bindings took this progress context's lock (context 0: "
            "the main lock, or all the locks when there are lanes)",
            MPI_T_VERBOSITY_TUNER_DETAIL, COUNTER, &xb_mt_lane_takes[c], "progress");
        snprintf(name, sizeof name, "progress_context_%d_messages_sent", c);
        add(name, "Messages the matching layer sent on this progress context's channel",
            MPI_T_VERBOSITY_TUNER_DETAIL, COUNTER,
            &xb_pt2pt_chan_stats((unsigned)c)->sent_msgs, "progress");
    }
    add("progress_oversubscribed", "1 when this node runs more ranks than it has CPUs: "
        "waiting ranks yield the CPU, and so does a test (MPI_Test, MPI_Iprobe...) that "
        "finds nothing to do", MPI_T_VERBOSITY_USER_BASIC, LEVEL, &xb_progress_oversubscribed,
        "progress");
    add("progress_test_yields", "Times a test (MPI_Test*, MPI_Iprobe, MPI_Request_get_status*, "
        "MPI_Win_test, MPI_Parrived) found nothing to do and yielded the CPU (oversubscribed "
        "nodes only)", MPI_T_VERBOSITY_USER_BASIC, COUNTER, &xb_progress_test_yields,
        "progress");
}

static void add_mcast(void)
{
    static const struct { const char *name, *desc; const uint64_t *src; } v[] = {
        { "method_mcast_datagrams_sent", "Datagrams multicast (frames of broadcasts)",
          &xb_mcast_stats.sent },
        { "method_mcast_bytes_sent", "Payload bytes of the datagrams multicast",
          &xb_mcast_stats.sent_bytes },
        { "method_mcast_datagrams_received", "Datagrams of this job read from the group",
          &xb_mcast_stats.received },
        { "method_mcast_datagrams_dropped", "Datagrams discarded on purpose (XB_MCAST_DROP)",
          &xb_mcast_stats.dropped },
        { "method_mcast_send_refused", "Datagrams the kernel refused to send (lost)",
          &xb_mcast_stats.send_refused },
        { "method_mcast_repaired_bytes", "Bytes of broadcasts this process received by "
          "point-to-point because their datagrams were lost", &xb_mcast_stats.repaired_bytes },
    };
    for (size_t i = 0; i < XB_ARRAY_LEN(v); i++)
        add(v[i].name, v[i].desc, MPI_T_VERBOSITY_TUNER_DETAIL, COUNTER, v[i].src,
            "method_mcast");
    add("method_mcast_active", "1 while the job broadcasts across nodes by multicast "
        "(XB_MCAST=1, agreed at MPI_Init), else 0", MPI_T_VERBOSITY_USER_BASIC, LEVEL,
        &xb_mcast_stats.active, "method_mcast");
}

int xb_mpit_pvar_build(void)
{
    static char cats[8][32];
    char name[48];

    npvars = 0;
    for (size_t i = 0; i < XB_ARRAY_LEN(pt2pt_vars); i++)
        add(pt2pt_vars[i].name, pt2pt_vars[i].desc, pt2pt_vars[i].verbosity,
            pt2pt_vars[i].var_class, pt2pt_vars[i].readonly, pt2pt_vars[i].continuous,
            pt2pt_vars[i].atomic, pt2pt_vars[i].src, "pt2pt");
    add("pt2pt_comm_posted_length", "Receives posted and not matched yet, now, "
        "on the communicator the handle is bound to",
        MPI_T_VERBOSITY_TUNER_DETAIL, LEVEL, NULL, "pt2pt")->comm_queue = 0;
    add("pt2pt_comm_unexpected_length", "Messages waiting unexpected now on the "
        "communicator the handle is bound to (point-to-point, not collectives)",
        MPI_T_VERBOSITY_TUNER_DETAIL, LEVEL, NULL, "pt2pt")->comm_queue = 1;
    add_contexts();
    add_mcast();
    add("coll_node_nb_calls", "Collective calls this process made through its "
        "communicator's channel of the node's shared memory (the shm_nb algorithms: "
        "nonblocking and persistent collectives of node-complete communicators)",
        MPI_T_VERBOSITY_USER_BASIC, COUNTER, &xb_coll_node_nb_calls, "coll");
    for (int m = 0; m < xb_method_count() && m < 8; m++) {
        const char *mn = xb_method_get(m)->ops->name;
        snprintf(cats[m], sizeof cats[m], "method_%s", mn);
        snprintf(name, sizeof name, "method_%s_am_sent", mn);
        add(name, "Active messages handed to this method (envelopes, "
            "rendezvous control and data fragments, collective traffic)",
            MPI_T_VERBOSITY_TUNER_DETAIL, COUNTER, &xb_method_stats[m].am_sent, cats[m]);
        snprintf(name, sizeof name, "method_%s_bytes_sent", mn);
        add(name, "Payload bytes of the active messages handed to this method",
            MPI_T_VERBOSITY_TUNER_DETAIL, COUNTER, &xb_method_stats[m].am_bytes, cats[m]);
        snprintf(name, sizeof name, "method_%s_am_received", mn);
        add(name, "Active messages that arrived through this method",
            MPI_T_VERBOSITY_TUNER_DETAIL, COUNTER, &xb_method_stats[m].am_recv, cats[m]);
        snprintf(name, sizeof name, "method_%s_bytes_received", mn);
        add(name, "Payload bytes of the active messages that arrived through this "
            "method", MPI_T_VERBOSITY_TUNER_DETAIL, COUNTER,
            &xb_method_stats[m].am_recv_bytes, cats[m]);
    }
    return MPI_SUCCESS;
}

void xb_mpit_pvar_free(void)
{
    npvars = 0;
}

int xb_mpit_pvar_count(void)
{
    return npvars;
}

const xb_mpit_pvar_t *xb_mpit_pvar_at(int idx)
{
    return idx >= 0 && idx < npvars ? &table[idx] : NULL;
}

static int pvar_get_num(int *num)
{
    int rc = xb_mpit_check_ptr("MPI_T_pvar_get_num", "num_pvar", num);
    if (rc == MPI_SUCCESS)
        *num = npvars;
    return rc;
}

static void put_int(int *p, int v)
{
    if (p != NULL)
        *p = v;
}

/* Every OUT argument may be NULL: the tool does not want that item. */
static int pvar_get_info(int idx, char *name, int *name_len, int *verbosity,
                         int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
                         char *desc, int *desc_len, int *bind, int *readonly,
                         int *continuous, int *atomic)
{
    int rc = xb_mpit_check_index("MPI_T_pvar_get_info", "pvar_index", idx, npvars);
    if (rc != MPI_SUCCESS)
        return rc;
    const xb_mpit_pvar_t *p = &table[idx];
    xb_mpit_strout(p->name, name, name_len);
    xb_mpit_strout(p->desc, desc, desc_len);
    put_int(verbosity, p->verbosity);
    put_int(var_class, p->var_class);
    if (datatype != NULL)
        *datatype = MPI_UNSIGNED_LONG_LONG;
    if (enumtype != NULL)
        *enumtype = MPI_T_ENUM_NULL;
    put_int(bind, p->comm_queue >= 0 ? MPI_T_BIND_MPI_COMM : MPI_T_BIND_NO_OBJECT);
    put_int(readonly, p->readonly);
    put_int(continuous, p->continuous);
    put_int(atomic, p->atomic);
    return MPI_SUCCESS;
}

static int pvar_get_index(const char *name, int var_class, int *idx)
{
    static const char fn[] = "MPI_T_pvar_get_index";
    int rc = xb_mpit_check_ptr(fn, "name", name);
    if (rc == MPI_SUCCESS)
        rc = xb_mpit_check_ptr(fn, "pvar_index", idx);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < npvars; i++) {
        if (strcmp(table[i].name, name) == 0 && table[i].var_class == var_class) {
            *idx = i;
            return MPI_SUCCESS;
        }
    }
    return xb_mpit_err(MPI_T_ERR_INVALID_NAME, fn, "invalid argument name: no "
                       "performance variable '%s' of class %d", name, var_class);
}

XB_EXPORT int PMPI_T_pvar_get_num(int *num_pvar)
{
    XB_MPIT_CALL("MPI_T_pvar_get_num", pvar_get_num(num_pvar));
}

XB_EXPORT int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len,
                                   int *verbosity, int *var_class,
                                   MPI_Datatype *datatype, MPI_T_enum *enumtype,
                                   char *desc, int *desc_len, int *bind,
                                   int *readonly, int *continuous, int *atomic)
{
    XB_MPIT_CALL("MPI_T_pvar_get_info",
                 pvar_get_info(pvar_index, name, name_len, verbosity, var_class,
                               datatype, enumtype, desc, desc_len, bind, readonly,
                               continuous, atomic));
}

XB_EXPORT int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    XB_MPIT_CALL("MPI_T_pvar_get_index", pvar_get_index(name, var_class, pvar_index));
}

XB_MPIT_ALIAS(MPI_T_pvar_get_num);
XB_MPIT_ALIAS(MPI_T_pvar_get_info);
XB_MPIT_ALIAS(MPI_T_pvar_get_index);

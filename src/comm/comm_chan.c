/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_chan.c - the channel (progress context) of a new communicator
 * (docs/design/threads.md "Progress contexts").
 *
 * With XB_PROGRESS_CONTEXTS = n > 1, an intracommunicator whose members
 * are all reached through a method with channels (shm, self) gets lane
 * 1 + (ctx / 2) % n, or the lane its info hint "xb_progress_context"
 * names (0 = the main context). Every member computes the same answer
 * from what they all know (the context id, the node of each member, the
 * hint, which must be the same everywhere), so no message is needed. The
 * members' endpoints are opened here, under the lock of every context, so
 * a lane never writes the peer table. Everything else stays on channel 0.
 */
#include <stdlib.h>
#include <errno.h>
#include "comm/comm_int.h"
#include "core/info.h"
#include "method/method.h"
#include "util/xb_lanes.h"

static const char hint_key[] = "xb_progress_context";

/* The hint's lane, -1 when absent. A number above the lanes there are
 * wraps around (1 + (k - 1) % n: a program written for more contexts
 * still spreads its communicators); without lanes it is ignored. Not a
 * number >= 0: an error. */
static int hinted_chan(const xb_comm_t *c, int *chan)
{
    const char *v = c->info != NULL ? xb_info_lookup(c->info, hint_key) : NULL;
    *chan = -1;
    if (v == NULL)
        return XB_OK;
    char *end = NULL;
    errno = 0;
    long k = strtol(v, &end, 10);
    if (errno != 0 || end == v || *end != '\0' || k < 0)
        return xb_err_set(XB_ERR_INFO, "info key \"%s\" has the value \"%s\": it must be "
                          "a progress context number, 0 (the main context) to %d "
                          "(XB_PROGRESS_CONTEXTS)", hint_key, v, xb_mt_nlanes);
    *chan = k == 0 || xb_mt_nlanes == 0 ? 0 : 1 + (int)((k - 1) % xb_mt_nlanes);
    return XB_OK;
}

/* Can every member be reached on a lane? Opens their endpoints. */
static int members_on_lanes(const xb_comm_t *c, bool *ok)
{
    *ok = true;
    for (int r = 0; r < c->group->size && *ok; r++) {
        int rc = xb_method_chan_ready(xb_group_gpid(c->group, r));
        if (rc < 0)
            return rc;
        *ok = rc == 1;
    }
    return XB_OK;
}

int xb_comm_pick_chan(xb_comm_t *c)
{
    c->chan = 0;
    int hint;
    int rc = hinted_chan(c, &hint);
    if (rc != XB_OK || xb_mt_nlanes == 0 || xb_comm_is_inter(c) || hint == 0)
        return rc;
    bool ok;
    rc = members_on_lanes(c, &ok);
    if (rc != XB_OK || !ok)
        return rc;
    c->chan = (uint8_t)(hint > 0 ? hint : 1 + (int)((c->ctx / 2) % (uint32_t)xb_mt_nlanes));
    return XB_OK;
}

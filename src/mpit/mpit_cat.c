/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * mpit_cat.c - categories: one per layer, plus one per method inside
 * "method". A control variable belongs to the category its tunable's name
 * prefix names (SHM_ -> method_shm, COLL_ -> coll, ...; the rest ->
 * runtime); a performance variable to the one its table entry names. No
 * category holds events (there are none). The set never changes while the
 * process runs, so MPI_T_category_changed always returns the same number.
 */
#include <stdio.h>
#include <string.h>
#include "mpit/mpit.h"
#include "method/method.h"

enum { MAX_CATS = 16 };

typedef struct {
    char        name[32];
    const char *desc;
    int         parent;          /* index, or -1 */
} cat_t;

static cat_t cats[MAX_CATS];
static int ncats;

/* Tunable name prefix -> category name (first match; default runtime). */
static const struct { const char *prefix, *cat; } by_prefix[] = {
    { "PARAM_", "binding" },  { "SHM_", "method_shm" },  { "TCP_", "method_tcp" },
    { "SELF_", "method_self" }, { "METHODS", "method" }, { "COLL_", "coll" },
    { "PT2PT_", "pt2pt" },    { "DT_", "datatype" },     { "SPIN_", "progress" },
    { "SLEEP_", "progress" }, { "ASYNC_", "progress" }, { "PROGRESS_", "progress" },
    { "MCAST", "method_mcast" },
};

static void add(const char *name, const char *desc, int parent)
{
    cat_t *c = &cats[ncats++];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->desc = desc;
    c->parent = parent;
}

int xb_mpit_cat_build(void)
{
    char name[32];

    ncats = 0;
    add("binding", "The MPI entry points: argument checks", -1);
    add("runtime", "Start-up, process manager (PMI), logging, tunables", -1);
    add("progress", "Polling the methods and waiting", -1);
    add("datatype", "Packing and unpacking derived datatypes", -1);
    add("pt2pt", "Matching, protocols (eager, rendezvous) and their counters", -1);
    add("coll", "Collective algorithms and their selection", -1);
    int method = ncats;
    add("method", "Communication methods and the choice of method per peer", -1);
    for (int m = 0; m < xb_method_count() && ncats < MAX_CATS; m++) {
        snprintf(name, sizeof name, "method_%s", xb_method_get(m)->ops->name);
        add(name, "One communication method: its tunables and counters", method);
    }
    if (ncats < MAX_CATS)
        add("method_mcast", "UDP multicast for broadcasts across nodes (XB_MCAST)", method);
    return MPI_SUCCESS;
}

void xb_mpit_cat_free(void)
{
    ncats = 0;
}

static int cat_index(const char *name)
{
    for (int i = 0; i < ncats; i++)
        if (strcmp(cats[i].name, name) == 0)
            return i;
    return -1;
}

static int cvar_cat(int cvar)
{
    const char *tn = xb_mpit_cvar_tunable_name(cvar);
    for (size_t i = 0; i < XB_ARRAY_LEN(by_prefix); i++)
        if (strncmp(tn, by_prefix[i].prefix, strlen(by_prefix[i].prefix)) == 0)
            return cat_index(by_prefix[i].cat);
    return cat_index("runtime");
}

/* Members of category c: what 0 cvars, 1 pvars, 2 subcategories. Writes
 * at most len indices (when `out` is not NULL); returns how many there are. */
static int members(int c, int what, int len, int *out)
{
    int n = 0, total = what == 0 ? xb_mpit_cvar_count()
                     : what == 1 ? xb_mpit_pvar_count() : ncats;
    for (int i = 0; i < total; i++) {
        bool in = what == 0 ? cvar_cat(i) == c
                : what == 1 ? cat_index(xb_mpit_pvar_at(i)->category) == c
                : cats[i].parent == c;
        if (!in)
            continue;
        if (out != NULL && n < len)
            out[n] = i;
        n++;
    }
    return n;
}

static int get_num(int *num)
{
    int rc = xb_mpit_check_ptr("MPI_T_category_get_num", "num_cat", num);
    if (rc == MPI_SUCCESS)
        *num = ncats;
    return rc;
}

/* Every OUT argument may be NULL: the tool does not want that item. */
static int get_info(int c, char *name, int *name_len, char *desc, int *desc_len,
                    int *num_cvars, int *num_pvars, int *num_categories)
{
    int rc = xb_mpit_check_index("MPI_T_category_get_info", "cat_index", c, ncats);
    if (rc != MPI_SUCCESS)
        return rc;
    xb_mpit_strout(cats[c].name, name, name_len);
    xb_mpit_strout(cats[c].desc, desc, desc_len);
    if (num_cvars != NULL)
        *num_cvars = members(c, 0, 0, NULL);
    if (num_pvars != NULL)
        *num_pvars = members(c, 1, 0, NULL);
    if (num_categories != NULL)
        *num_categories = members(c, 2, 0, NULL);
    return MPI_SUCCESS;
}

static int get_index(const char *name, int *c)
{
    static const char fn[] = "MPI_T_category_get_index";
    int rc = xb_mpit_check_ptr(fn, "name", name);
    if (rc == MPI_SUCCESS)
        rc = xb_mpit_check_ptr(fn, "cat_index", c);
    if (rc != MPI_SUCCESS)
        return rc;
    int i = cat_index(name);
    if (i < 0)
        return xb_mpit_err(MPI_T_ERR_INVALID_NAME, fn, "invalid argument name: "
                           "no category '%s'", name);
    *c = i;
    return MPI_SUCCESS;
}

/* get_cvars / get_pvars / get_categories / get_events (what 3: none). */
static int get_list(const char *fn, int c, int len, int *indices, int what)
{
    int rc = xb_mpit_check_index(fn, "cat_index", c, ncats);
    if (rc != MPI_SUCCESS)
        return rc;
    if (len < 0)
        return xb_mpit_err(MPI_T_ERR_INVALID, fn, "invalid argument len: %d is "
                           "negative", len);
    if (len > 0 && indices == NULL)
        return xb_mpit_check_ptr(fn, "indices", indices);
    if (what < 3)
        members(c, what, len, indices);
    return MPI_SUCCESS;
}

static int get_num_events(int c, int *num)
{
    static const char fn[] = "MPI_T_category_get_num_events";
    int rc = xb_mpit_check_index(fn, "cat_index", c, ncats);
    if (rc == MPI_SUCCESS)
        rc = xb_mpit_check_ptr(fn, "num_events", num);
    if (rc == MPI_SUCCESS)
        *num = 0;
    return rc;
}

static int changed(int *update_number)
{
    int rc = xb_mpit_check_ptr("MPI_T_category_changed", "update_number", update_number);
    if (rc == MPI_SUCCESS)
        *update_number = 0;
    return rc;
}

/* ---- entry points --------------------------------------------------------- */

XB_EXPORT int PMPI_T_category_get_num(int *num_cat)
{
    XB_MPIT_CALL("MPI_T_category_get_num", get_num(num_cat));
}

XB_EXPORT int PMPI_T_category_get_info(int cat_index, char *name, int *name_len,
                                       char *desc, int *desc_len, int *num_cvars,
                                       int *num_pvars, int *num_categories)
{
    XB_MPIT_CALL("MPI_T_category_get_info",
                 get_info(cat_index, name, name_len, desc, desc_len, num_cvars,
                          num_pvars, num_categories));
}

XB_EXPORT int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    XB_MPIT_CALL("MPI_T_category_get_index", get_index(name, cat_index));
}

XB_EXPORT int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    XB_MPIT_CALL("MPI_T_category_get_cvars",
                 get_list("MPI_T_category_get_cvars", cat_index, len, indices, 0));
}

XB_EXPORT int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    XB_MPIT_CALL("MPI_T_category_get_pvars",
                 get_list("MPI_T_category_get_pvars", cat_index, len, indices, 1));
}

XB_EXPORT int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    XB_MPIT_CALL("MPI_T_category_get_categories",
                 get_list("MPI_T_category_get_categories", cat_index, len, indices, 2));
}

XB_EXPORT int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    XB_MPIT_CALL("MPI_T_category_get_num_events", get_num_events(cat_index, num_events));
}

XB_EXPORT int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    XB_MPIT_CALL("MPI_T_category_get_events",
                 get_list("MPI_T_category_get_events", cat_index, len, indices, 3));
}

XB_EXPORT int PMPI_T_category_changed(int *update_number)
{
    XB_MPIT_CALL("MPI_T_category_changed", changed(update_number));
}

XB_MPIT_ALIAS(MPI_T_category_get_num);
XB_MPIT_ALIAS(MPI_T_category_get_info);
XB_MPIT_ALIAS(MPI_T_category_get_index);
XB_MPIT_ALIAS(MPI_T_category_get_cvars);
XB_MPIT_ALIAS(MPI_T_category_get_pvars);
XB_MPIT_ALIAS(MPI_T_category_get_categories);
XB_MPIT_ALIAS(MPI_T_category_get_num_events);
XB_MPIT_ALIAS(MPI_T_category_get_events);
XB_MPIT_ALIAS(MPI_T_category_changed);

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * enumerate.c - every control variable, performance variable, category,
 * enumeration and source: the info calls answer consistently (names and
 * their lengths, get_index finds each name again, allowed datatypes,
 * classes, scopes, verbosities), every variable is in exactly one
 * category, the category tree has no cycle; MPI_T works before MPI_Init,
 * nests (reference count) and works again after MPI_Finalize.
 */
#include <stdint.h>
#include "mpit_util.h"

static bool valid_verbosity(int v)
{
    int base = v & ~0x7, lvl = v & 0x7;
    return (base == 0x08 || base == 0x10 || base == 0x20) &&
           (lvl == 1 || lvl == 2 || lvl == 4);
}

static int check_name_len(const char *what, int idx, const char *name, int len)
{
    CHECK(len == (int)strlen(name) + 1, "%s %d: name_len %d but the name "
          "'%s' has %zu characters", what, idx, len, name, strlen(name));
    return len;
}

static void check_cvars(int *in_cat)
{
    int n = -1;
    CHECK_RC(MPI_T_cvar_get_num(&n));
    CHECK(n > 10, "only %d control variables", n);
    for (int i = 0; i < n; i++) {
        char name[128], desc[512];
        int name_len = sizeof name, desc_len = sizeof desc, verb, bind, scope, need = 0;
        MPI_Datatype dt;
        MPI_T_enum en;
        CHECK_RC(MPI_T_cvar_get_info(i, NULL, &need, NULL, NULL, NULL, NULL, NULL,
                                     NULL, NULL));
        CHECK_RC(MPI_T_cvar_get_info(i, name, &name_len, &verb, &dt, &en, desc,
                                     &desc_len, &bind, &scope));
        check_name_len("cvar", i, name, name_len);
        CHECK(need == name_len, "cvar %d: length asked %d, written %d", i, need, name_len);
        CHECK(strncmp(name, "XB_", 3) == 0, "cvar %d: name '%s'", i, name);
        CHECK(desc_len > 1 && desc_len == (int)strlen(desc) + 1, "cvar %s: desc_len %d",
              name, desc_len);
        CHECK(valid_verbosity(verb), "cvar %s: verbosity %d", name, verb);
        CHECK(dt == MPI_INT || dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_CHAR,
              "cvar %s: datatype not one of MPI_INT, MPI_UNSIGNED_LONG_LONG, MPI_CHAR", name);
        CHECK(en == MPI_T_ENUM_NULL || dt == MPI_INT, "cvar %s: an enum on a non-int", name);
        CHECK(bind == MPI_T_BIND_NO_OBJECT, "cvar %s: binding %d", name, bind);
        CHECK(scope >= MPI_T_SCOPE_CONSTANT && scope <= MPI_T_SCOPE_ALL_EQ,
              "cvar %s: scope %d", name, scope);
        int again = -1;
        CHECK_RC(MPI_T_cvar_get_index(name, &again));
        CHECK(again == i, "cvar %s: get_index gives %d, not %d", name, again, i);
        /* a short buffer: truncated, NUL-terminated */
        char small[4] = "zzz";
        int small_len = 4;
        CHECK_RC(MPI_T_cvar_get_info(i, small, &small_len, NULL, NULL, NULL, NULL,
                                     NULL, NULL, NULL));
        CHECK(small_len == 4 && strncmp(small, name, 3) == 0 && small[3] == '\0',
              "cvar %s: truncated to '%s' (%d)", name, small, small_len);
        /* a handle: count 1 for numbers, > 1 for strings; read works */
        MPI_T_cvar_handle h;
        int count = 0;
        CHECK_RC(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
        CHECK(dt == MPI_CHAR ? count > 1 : count == 1, "cvar %s: count %d", name, count);
        char buf[1024];
        CHECK_RC(MPI_T_cvar_read(h, buf));
        CHECK_RC(MPI_T_cvar_handle_free(&h));
        CHECK(h == MPI_T_CVAR_HANDLE_NULL, "cvar %s: handle not nulled by free", name);
        in_cat[i] = 0;
    }
}

static void check_pvars(int *in_cat)
{
    int n = -1;
    CHECK_RC(MPI_T_pvar_get_num(&n));
    CHECK(n >= 11, "only %d performance variables", n);
    for (int i = 0; i < n; i++) {
        char name[128], desc[512];
        int name_len = sizeof name, desc_len = sizeof desc, verb, cls, bind, ro, cont, at;
        MPI_Datatype dt;
        MPI_T_enum en;
        CHECK_RC(MPI_T_pvar_get_info(i, name, &name_len, &verb, &cls, &dt, &en, desc,
                                     &desc_len, &bind, &ro, &cont, &at));
        check_name_len("pvar", i, name, name_len);
        CHECK(valid_verbosity(verb), "pvar %s: verbosity %d", name, verb);
        CHECK(cls >= MPI_T_PVAR_CLASS_STATE && cls <= MPI_T_PVAR_CLASS_GENERIC,
              "pvar %s: class %d", name, cls);
        CHECK(dt == MPI_UNSIGNED_LONG_LONG, "pvar %s: datatype", name);
        CHECK(en == MPI_T_ENUM_NULL && (bind == MPI_T_BIND_NO_OBJECT ||
              bind == MPI_T_BIND_MPI_COMM), "pvar %s: enum/bind", name);
        CHECK((ro == 0 || ro == 1) && (cont == 0 || cont == 1) && (at == 0 || at == 1),
              "pvar %s: flags %d %d %d", name, ro, cont, at);
        CHECK(cls != MPI_T_PVAR_CLASS_COUNTER || (!ro && !cont && at),
              "pvar %s: a counter should be resettable, startable, atomic", name);
        CHECK(cls != MPI_T_PVAR_CLASS_LEVEL || (ro && cont), "pvar %s: level flags", name);
        int again = -1;
        CHECK_RC(MPI_T_pvar_get_index(name, cls, &again));
        CHECK(again == i, "pvar %s: get_index gives %d, not %d", name, again, i);
        CHECK_T(MPI_T_pvar_get_index(name, cls == 1 ? 2 : 1, &again), MPI_T_ERR_INVALID_NAME);
        in_cat[i] = 0;
    }
}

/* Every cvar and pvar in exactly one category; subcategories form a tree. */
static void check_categories(int ncv, int *cv_in, int npv, int *pv_in)
{
    int n = -1, parents[64] = {0};
    CHECK_RC(MPI_T_category_get_num(&n));
    CHECK(n >= 5 && n <= 64, "%d categories", n);
    int stamp = -1, stamp2 = -2;
    CHECK_RC(MPI_T_category_changed(&stamp));
    for (int c = 0; c < n && c < 64; c++) {
        char name[64];
        int len = sizeof name, ncvars, npvars, ncats, nev = -1;
        CHECK_RC(MPI_T_category_get_info(c, name, &len, NULL, NULL, &ncvars, &npvars, &ncats));
        int again = -1;
        CHECK_RC(MPI_T_category_get_index(name, &again));
        CHECK(again == c, "category %s: index %d, not %d", name, again, c);
        int idx[256];
        CHECK(ncvars <= 256 && npvars <= 256 && ncats <= 64, "category %s too big", name);
        CHECK_RC(MPI_T_category_get_cvars(c, ncvars, idx));
        for (int k = 0; k < ncvars; k++)
            if (idx[k] >= 0 && idx[k] < ncv)
                cv_in[idx[k]]++;
        CHECK_RC(MPI_T_category_get_pvars(c, npvars, idx));
        for (int k = 0; k < npvars; k++)
            if (idx[k] >= 0 && idx[k] < npv)
                pv_in[idx[k]]++;
        CHECK_RC(MPI_T_category_get_categories(c, ncats, idx));
        for (int k = 0; k < ncats; k++) {
            CHECK(idx[k] > c && idx[k] < n, "category %s: subcategory %d", name, idx[k]);
            if (idx[k] > 0 && idx[k] < 64)
                parents[idx[k]]++;
        }
        CHECK_RC(MPI_T_category_get_num_events(c, &nev));
        CHECK(nev == 0, "category %s: %d events", name, nev);
        CHECK_RC(MPI_T_category_get_events(c, 0, NULL));
    }
    for (int c = 0; c < n && c < 64; c++)
        CHECK(parents[c] <= 1, "category %d has %d parents", c, parents[c]);
    for (int i = 0; i < ncv; i++)
        CHECK(cv_in[i] == 1, "cvar %d is in %d categories", i, cv_in[i]);
    for (int i = 0; i < npv; i++)
        CHECK(pv_in[i] == 1, "pvar %d is in %d categories", i, pv_in[i]);
    CHECK_RC(MPI_T_category_changed(&stamp2));
    CHECK(stamp == stamp2, "categories changed: %d -> %d", stamp, stamp2);
}

static void check_enum_source_events(void)
{
    int idx = cvar_index("XB_PARAM_CHECK"), num = 0, value = -1;
    MPI_T_enum en = MPI_T_ENUM_NULL;
    char name[32];
    int len = sizeof name;
    if (idx >= 0)
        CHECK_RC(MPI_T_cvar_get_info(idx, NULL, NULL, NULL, NULL, &en, NULL, NULL, NULL, NULL));
    CHECK(en != MPI_T_ENUM_NULL, "a bool cvar has no enumeration");
    CHECK_RC(MPI_T_enum_get_info(en, &num, name, &len));
    CHECK(num == 2, "the bool enumeration has %d items", num);
    len = sizeof name;
    CHECK_RC(MPI_T_enum_get_item(en, 1, &value, name, &len));
    CHECK(value == 1 && strcmp(name, "yes") == 0, "item 1: %d '%s'", value, name);
    CHECK_T(MPI_T_enum_get_item(en, 2, &value, NULL, NULL), MPI_T_ERR_INVALID_ITEM);

    int ns = 0, nev = -1;
    MPI_T_source_order order;
    MPI_Count tps = 0, maxt = 0, t1 = 0, t2 = 0;
    MPI_Info info;
    CHECK_RC(MPI_T_source_get_num(&ns));
    CHECK(ns == 1, "%d sources", ns);
    len = sizeof name;
    CHECK_RC(MPI_T_source_get_info(0, name, &len, NULL, NULL, &order, &tps, &maxt, &info));
    CHECK(order == MPI_T_SOURCE_ORDERED && tps == 1000000000 && maxt > 0,
          "source 0: order %d, %lld ticks/s", (int)order, (long long)tps);
    CHECK_RC(MPI_T_source_get_timestamp(0, &t1));
    double w = MPI_Wtime();
    while (MPI_Wtime() - w < 0.001)
        ;
    CHECK_RC(MPI_T_source_get_timestamp(0, &t2));
    CHECK(t2 - t1 >= 1000000 && t2 - t1 < 10000000000LL, "timestamps %lld then %lld",
          (long long)t1, (long long)t2);
    CHECK_RC(MPI_T_event_get_num(&nev));
    CHECK(nev == 0, "%d events", nev);
}

int main(int argc, char **argv)
{
    int provided = -1, flag = 1;

    /* Before MPI_Init, nested twice. */
    CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK(provided == MPI_THREAD_SINGLE, "provided %d", provided);
    CHECK_RC(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    MPI_Initialized(&flag);
    CHECK(!flag, "MPI_T_init_thread initialized MPI");
    int ncv = 0, npv = 0;
    MPI_T_cvar_get_num(&ncv);
    MPI_T_pvar_get_num(&npv);
    int *cv_in = calloc((size_t)ncv + 1, sizeof(int)), *pv_in = calloc((size_t)npv + 1, sizeof(int));
    CHECK_RC(MPI_T_finalize());
    ct_init(&argc, &argv);
    check_cvars(cv_in);
    check_pvars(pv_in);
    check_categories(ncv, cv_in, npv, pv_in);
    check_enum_source_events();
    CHECK_RC(MPI_T_finalize());
    CHECK_T(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    free(cv_in);
    free(pv_in);
    int errs = ct_finish();
    /* After MPI_Finalize: MPI_T again. */
    int n2 = 0;
    CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_RC(MPI_T_cvar_get_num(&n2));
    CHECK(n2 == ncv, "%d cvars after MPI_Finalize, %d before", n2, ncv);
    CHECK_RC(MPI_T_finalize());
    if (ct_errors != 0 && errs == 0)
        printf("rank %d: errors after MPI_Finalize\n", ct_rank);
    return errs != 0 || ct_errors != 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * mpit_event.c - events and event sources (MPI 4.0).
 *
 * Crossbar defines no event type (docs/design/mpit.md says why): the
 * number of events is 0, every call that takes an event index answers
 * MPI_T_ERR_INVALID_INDEX, a lookup by name MPI_T_ERR_INVALID_NAME, and the
 * calls that take a registration or an event instance (which only an event
 * could create) MPI_T_ERR_INVALID_HANDLE.
 *
 * One source: index 0, "wtime", the clock of MPI_Wtime (CLOCK_MONOTONIC)
 * counted in nanoseconds; ordered; MPI_T_source_get_timestamp reads it.
 */
#include <stdint.h>
#include <time.h>
#include "mpit/mpit.h"

static int no_event(const char *fn, int idx)
{
    return xb_mpit_err(MPI_T_ERR_INVALID_INDEX, fn, "invalid argument "
                       "event_index: %d (this library defines no event types: "
                       "MPI_T_event_get_num returns 0)", idx);
}

static int no_registration(const char *fn)
{
    return xb_mpit_err(MPI_T_ERR_INVALID_HANDLE, fn, "invalid argument "
                       "event_registration: no event can be registered (this "
                       "library defines no event types)");
}

static int no_instance(const char *fn)
{
    return xb_mpit_err(MPI_T_ERR_INVALID_HANDLE, fn, "invalid argument "
                       "event_instance: event instances exist only inside event "
                       "callbacks, and this library defines no event types");
}

static int event_get_num(int *num)
{
    int rc = xb_mpit_check_ptr("MPI_T_event_get_num", "num_events", num);
    if (rc == MPI_SUCCESS)
        *num = 0;
    return rc;
}

static int event_get_index(const char *name, int *idx)
{
    static const char fn[] = "MPI_T_event_get_index";
    int rc = xb_mpit_check_ptr(fn, "name", name);
    if (rc == MPI_SUCCESS)
        rc = xb_mpit_check_ptr(fn, "event_index", idx);
    if (rc == MPI_SUCCESS)
        rc = xb_mpit_err(MPI_T_ERR_INVALID_NAME, fn, "invalid argument name: "
                         "no event '%s' (this library defines no event types)", name);
    return rc;
}

static int source_get_num(int *num)
{
    int rc = xb_mpit_check_ptr("MPI_T_source_get_num", "num_sources", num);
    if (rc == MPI_SUCCESS)
        *num = 1;
    return rc;
}

static int source_get_info(int idx, char *name, int *name_len, char *desc,
                           int *desc_len, MPI_T_source_order *ordering,
                           MPI_Count *ticks_per_second, MPI_Count *max_ticks,
                           MPI_Info *info)
{
    int rc = xb_mpit_check_index("MPI_T_source_get_info", "source_index", idx, 1);
    if (rc != MPI_SUCCESS)
        return rc;
    xb_mpit_strout("wtime", name, name_len);
    xb_mpit_strout("The clock of MPI_Wtime (CLOCK_MONOTONIC), in nanoseconds",
                   desc, desc_len);
    if (ordering != NULL)
        *ordering = MPI_T_SOURCE_ORDERED;
    if (ticks_per_second != NULL)
        *ticks_per_second = 1000000000;
    if (max_ticks != NULL)
        *max_ticks = INT64_MAX;
    if (info != NULL)
        *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

static int source_get_timestamp(int idx, MPI_Count *ts)
{
    static const char fn[] = "MPI_T_source_get_timestamp";
    int rc = xb_mpit_check_index(fn, "source_index", idx, 1);
    if (rc == MPI_SUCCESS)
        rc = xb_mpit_check_ptr(fn, "timestamp", ts);
    if (rc != MPI_SUCCESS)
        return rc;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    *ts = (MPI_Count)now.tv_sec * 1000000000 + now.tv_nsec;
    return MPI_SUCCESS;
}

/* ---- entry points --------------------------------------------------------- */

XB_EXPORT int PMPI_T_event_get_num(int *num_events)
{
    XB_MPIT_CALL("MPI_T_event_get_num", event_get_num(num_events));
}

XB_EXPORT int PMPI_T_event_get_info(int event_index, char *name, int *name_len,
                                    int *verbosity, MPI_Datatype array_of_datatypes[],
                                    MPI_Aint array_of_displacements[], int *num_elements,
                                    MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                                    int *desc_len, int *bind)
{
    (void)name; (void)name_len; (void)verbosity; (void)array_of_datatypes;
    (void)array_of_displacements; (void)num_elements; (void)enumtype; (void)info;
    (void)desc; (void)desc_len; (void)bind;
    XB_MPIT_CALL("MPI_T_event_get_info", no_event("MPI_T_event_get_info", event_index));
}

XB_EXPORT int PMPI_T_event_get_index(const char *name, int *event_index)
{
    XB_MPIT_CALL("MPI_T_event_get_index", event_get_index(name, event_index));
}

XB_EXPORT int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                                        MPI_T_event_registration *event_registration)
{
    (void)obj_handle; (void)info; (void)event_registration;
    XB_MPIT_CALL("MPI_T_event_handle_alloc",
                 no_event("MPI_T_event_handle_alloc", event_index));
}

XB_EXPORT int PMPI_T_event_handle_free(MPI_T_event_registration event_registration,
                                       void *user_data,
                                       MPI_T_event_free_cb_function free_cb_function)
{
    (void)event_registration; (void)user_data; (void)free_cb_function;
    XB_MPIT_CALL("MPI_T_event_handle_free", no_registration("MPI_T_event_handle_free"));
}

XB_EXPORT int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
                                           MPI_Info *info_used)
{
    (void)event_registration; (void)info_used;
    XB_MPIT_CALL("MPI_T_event_handle_get_info",
                 no_registration("MPI_T_event_handle_get_info"));
}

XB_EXPORT int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration,
                                           MPI_Info info)
{
    (void)event_registration; (void)info;
    XB_MPIT_CALL("MPI_T_event_handle_set_info",
                 no_registration("MPI_T_event_handle_set_info"));
}

XB_EXPORT int PMPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                             MPI_T_cb_safety cb_safety, MPI_Info info,
                                             void *user_data,
                                             MPI_T_event_cb_function event_cb_function)
{
    (void)event_registration; (void)cb_safety; (void)info; (void)user_data;
    (void)event_cb_function;
    XB_MPIT_CALL("MPI_T_event_register_callback",
                 no_registration("MPI_T_event_register_callback"));
}

XB_EXPORT int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                             MPI_T_cb_safety cb_safety, MPI_Info *info_used)
{
    (void)event_registration; (void)cb_safety; (void)info_used;
    XB_MPIT_CALL("MPI_T_event_callback_get_info",
                 no_registration("MPI_T_event_callback_get_info"));
}

XB_EXPORT int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                             MPI_T_cb_safety cb_safety, MPI_Info info)
{
    (void)event_registration; (void)cb_safety; (void)info;
    XB_MPIT_CALL("MPI_T_event_callback_set_info",
                 no_registration("MPI_T_event_callback_set_info"));
}

XB_EXPORT int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                               MPI_T_event_dropped_cb_function dropped_cb_function)
{
    (void)event_registration; (void)dropped_cb_function;
    XB_MPIT_CALL("MPI_T_event_set_dropped_handler",
                 no_registration("MPI_T_event_set_dropped_handler"));
}

XB_EXPORT int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index,
                                void *buffer)
{
    (void)event_instance; (void)element_index; (void)buffer;
    XB_MPIT_CALL("MPI_T_event_read", no_instance("MPI_T_event_read"));
}

XB_EXPORT int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    (void)event_instance; (void)buffer;
    XB_MPIT_CALL("MPI_T_event_copy", no_instance("MPI_T_event_copy"));
}

XB_EXPORT int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance,
                                         MPI_Count *event_timestamp)
{
    (void)event_instance; (void)event_timestamp;
    XB_MPIT_CALL("MPI_T_event_get_timestamp", no_instance("MPI_T_event_get_timestamp"));
}

XB_EXPORT int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    (void)event_instance; (void)source_index;
    XB_MPIT_CALL("MPI_T_event_get_source", no_instance("MPI_T_event_get_source"));
}

XB_EXPORT int PMPI_T_source_get_num(int *num_sources)
{
    XB_MPIT_CALL("MPI_T_source_get_num", source_get_num(num_sources));
}

XB_EXPORT int PMPI_T_source_get_info(int source_index, char *name, int *name_len,
                                     char *desc, int *desc_len, MPI_T_source_order *ordering,
                                     MPI_Count *ticks_per_second, MPI_Count *max_ticks,
                                     MPI_Info *info)
{
    XB_MPIT_CALL("MPI_T_source_get_info",
                 source_get_info(source_index, name, name_len, desc, desc_len, ordering,
                                 ticks_per_second, max_ticks, info));
}

XB_EXPORT int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    XB_MPIT_CALL("MPI_T_source_get_timestamp", source_get_timestamp(source_index, timestamp));
}

XB_MPIT_ALIAS(MPI_T_event_get_num);
XB_MPIT_ALIAS(MPI_T_event_get_info);
XB_MPIT_ALIAS(MPI_T_event_get_index);
XB_MPIT_ALIAS(MPI_T_event_handle_alloc);
XB_MPIT_ALIAS(MPI_T_event_handle_free);
XB_MPIT_ALIAS(MPI_T_event_handle_get_info);
XB_MPIT_ALIAS(MPI_T_event_handle_set_info);
XB_MPIT_ALIAS(MPI_T_event_register_callback);
XB_MPIT_ALIAS(MPI_T_event_callback_get_info);
XB_MPIT_ALIAS(MPI_T_event_callback_set_info);
XB_MPIT_ALIAS(MPI_T_event_set_dropped_handler);
XB_MPIT_ALIAS(MPI_T_event_read);
XB_MPIT_ALIAS(MPI_T_event_copy);
XB_MPIT_ALIAS(MPI_T_event_get_timestamp);
XB_MPIT_ALIAS(MPI_T_event_get_source);
XB_MPIT_ALIAS(MPI_T_source_get_num);
XB_MPIT_ALIAS(MPI_T_source_get_info);
XB_MPIT_ALIAS(MPI_T_source_get_timestamp);

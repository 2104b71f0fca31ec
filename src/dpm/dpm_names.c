/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dpm_names.c - MPI_Publish_name, MPI_Unpublish_name, MPI_Lookup_name
 * through the launcher's name service (runtime: PMI-1 publish_name,
 * unpublish_name, lookup_name). The scope is one mpiexec: every rank of its
 * job sees every name published there. A name is published once at a time
 * (a second publish is MPI_ERR_SERVICE); an unpublish must name a published
 * service (MPI_ERR_SERVICE) with the port it was published with; a lookup
 * that finds nothing is MPI_ERR_NAME. Info keys are ignored.
 */
#include <string.h>
#include "dpm/dpm.h"
#include "runtime/runtime.h"
#include "xb_impl.h"

int xb_impl_publish_name(const char *service_name, xb_info_t *info,
                         const char *port_name)
{
    (void)info;
    if (port_name[0] == '\0' || strlen(port_name) >= MPI_MAX_PORT_NAME)
        return xb_err_set(XB_ERR_ARG, "invalid port_name: %s", port_name[0] == '\0' ?
                          "an empty string" : "longer than MPI_MAX_PORT_NAME - 1");
    return xb_rt_publish(service_name, port_name);
}

int xb_impl_unpublish_name(const char *service_name, xb_info_t *info,
                           const char *port_name)
{
    (void)info;
    char published[MPI_MAX_PORT_NAME];
    int rc = xb_rt_lookup(service_name, published, sizeof(published));
    if (rc == XB_DPM_ERR_NAME)
        return xb_err_set(XB_DPM_ERR_SERVICE, "service '%.100s' is not published",
                          service_name);
    if (rc != XB_OK)
        return rc;
    if (strcmp(published, port_name) != 0)
        return xb_err_set(XB_DPM_ERR_SERVICE, "service '%.100s' is published with "
                          "another port ('%.200s', not '%.200s')", service_name,
                          published, port_name);
    return xb_rt_unpublish(service_name);
}

int xb_impl_lookup_name(const char *service_name, xb_info_t *info, char *port_name)
{
    (void)info;
    char port[MPI_MAX_PORT_NAME];
    int rc = xb_rt_lookup(service_name, port, sizeof(port));
    if (rc == XB_OK)
        memcpy(port_name, port, strlen(port) + 1);
    return rc;
}

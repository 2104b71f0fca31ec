/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* cexpect.h - EXPECT(call, class, fn, text): with MPI_ERRORS_RETURN, the
 * call failed with that error class and its message names the function fn
 * and contains text (unless NULL). Needs ctest.h first. */
#ifndef CEXPECT_H
#define CEXPECT_H

static inline void ct_expect(int rc, int cls, const char *fn, const char *text,
                             const char *call, int line)
{
    int c = -1, len = 0;
    char msg[MPI_MAX_ERROR_STRING] = "";
    if (rc == MPI_SUCCESS) {
        CHECK(0, "line %d: %s succeeded (want class %d)", line, call, cls);
        return;
    }
    MPI_Error_class(rc, &c);
    MPI_Error_string(rc, msg, &len);
    CHECK(c == cls && strstr(msg, fn) != NULL && (text == NULL || strstr(msg, text) != NULL),
          "line %d: %s: class %d (want %d), message '%s' (want %s, %s)", line, call, c, cls,
          msg, fn, text ? text : "-");
}
#define EXPECT(call, cls, fn, text) ct_expect((call), (cls), (fn), (text), #call, __LINE__)

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper of the host samplers' unit tests: run a call that must fail
 * and check the one line it printed (vdc_error) holds a text. */
#ifndef VDC_TEST_HOST_H
#define VDC_TEST_HOST_H

#include <stdlib.h>
#include <string.h>

#include "test_stderr.h"

/* @call: an expression true on the expected failure (e.g. f(...) < 0);
 * @want: a part of the message; exactly one line must be printed. */
#define EXPECT_ERROR(call, want)                                                        \
    do {                                                                                \
        char *msg_;                                                                     \
        capture_stderr_begin();                                                         \
        assert_true((call));                                                            \
        msg_ = capture_stderr_end();                                                    \
        if (!strstr(msg_, (want)))                                                      \
            fail_msg("expected a message with '%s', got '%s'", (want), msg_);           \
        if (!strchr(msg_, '\n') || strchr(strchr(msg_, '\n') + 1, '\n'))               \
            fail_msg("expected one line, got '%s'", msg_);                              \
        free(msg_);                                                                     \
    } while (0)

#endif

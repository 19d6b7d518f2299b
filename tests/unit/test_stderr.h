/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper (header-only, tests of the import area): capture what the
 * code under test prints on stderr (vdc_error), to check the one-line
 * messages.  Not thread-safe; one capture at a time. */
#ifndef VDC_TEST_STDERR_H
#define VDC_TEST_STDERR_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int capture_saved_fd = -1;
static FILE *capture_file;

static void
capture_stderr_begin(void)
{
    fflush(stderr);
    capture_file = tmpfile();
    capture_saved_fd = dup(2);
    dup2(fileno(capture_file), 2);
}

/* Stop capturing; returns what was printed (malloc'ed, caller frees). */
static char *
capture_stderr_end(void)
{
    long n;
    char *buf;

    fflush(stderr);
    dup2(capture_saved_fd, 2);
    close(capture_saved_fd);
    capture_saved_fd = -1;
    n = ftell(capture_file);
    buf = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
    rewind(capture_file);
    if (n > 0 && fread(buf, 1, (size_t)n, capture_file) != (size_t)n)
        buf[0] = '\0';
    fclose(capture_file);
    capture_file = NULL;
    return buf;
}

#endif

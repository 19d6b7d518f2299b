/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The inner vmdiskcmp's progress lines out of the lab's serial log
 * (serial.h). */
#include "config.h"
#include "lab/serial.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/escape.h"

#define PROGRESS_PREFIX "vmdiskcmp: [progress] "
/* what one poll reads at most: the rest waits for the next poll */
#define POLL_READ_MAX (4u << 20)

void
vdc_serial_lines_init(vdc_serial_lines *s)
{
    s->partial = g_string_new(NULL);
    s->dropping = 0;
}

void
vdc_serial_lines_dispose(vdc_serial_lines *s)
{
    if (s->partial)
        g_string_free(s->partial, TRUE);
    s->partial = NULL;
    s->dropping = 0;
}

/* one complete line (no '\n'): a progress line goes to @fn */
static size_t
take_line(GString *line, vdc_serial_progress_fn fn, void *arg)
{
    size_t n = line->len, plen = strlen(PROGRESS_PREFIX);
    g_autofree char *text = NULL;

    while (n > 0 && line->str[n - 1] == '\r')
        n--;
    if (n < plen || memcmp(line->str, PROGRESS_PREFIX, plen) != 0)
        return 0;
    text = vdc_escape_text(line->str + plen, (gssize)(n - plen), 0);
    fn(text, arg);
    return 1;
}

size_t
vdc_serial_progress_feed(vdc_serial_lines *s, const char *buf, size_t len,
                         vdc_serial_progress_fn fn, void *arg)
{
    size_t found = 0;

    while (len > 0) {
        const char *nl = memchr(buf, '\n', len);
        size_t piece = nl ? (size_t)(nl - buf) : len;

        if (!s->dropping) {
            if (s->partial->len + piece > VDC_SERIAL_LINE_MAX) {
                s->dropping = 1;
                g_string_truncate(s->partial, 0);
            } else {
                g_string_append_len(s->partial, buf, (gssize)piece);
            }
        }
        if (!nl)
            break;
        if (!s->dropping)
            found += take_line(s->partial, fn, arg);
        g_string_truncate(s->partial, 0);
        s->dropping = 0;
        buf = nl + 1;
        len -= piece + 1;
    }
    return found;
}

void
vdc_serial_tail_init(vdc_serial_tail *t, const char *path)
{
    t->path = g_strdup(path);
    t->fd = -1;
    t->offset = 0;
    vdc_serial_lines_init(&t->lines);
}

void
vdc_serial_tail_dispose(vdc_serial_tail *t)
{
    if (t->fd >= 0)
        close(t->fd);
    t->fd = -1;
    g_clear_pointer(&t->path, g_free);
    vdc_serial_lines_dispose(&t->lines);
}

size_t
vdc_serial_tail_poll(vdc_serial_tail *t, vdc_serial_progress_fn fn, void *arg)
{
    char buf[65536];
    size_t found = 0, total = 0;
    struct stat st;

    if (t->fd < 0) {
        t->fd = open(t->path, O_RDONLY | O_CLOEXEC);
        if (t->fd < 0)
            return 0;
        t->offset = 0;
    }
    if (fstat(t->fd, &st) == 0 && (uint64_t)st.st_size < t->offset) {
        /* emptied (a new boot): from its start, with no half line kept */
        t->offset = 0;
        g_string_truncate(t->lines.partial, 0);
        t->lines.dropping = 0;
    }
    while (total < POLL_READ_MAX) {
        ssize_t r = pread(t->fd, buf, sizeof(buf), (off_t)t->offset);

        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        t->offset += (uint64_t)r;
        total += (size_t)r;
        found += vdc_serial_progress_feed(&t->lines, buf, (size_t)r, fn, arg);
    }
    return found;
}

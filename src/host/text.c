/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the host samplers (text.h). */
#include "config.h"
#include "host/text.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"

const char *
vdc_skip_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

int
vdc_parse_u64_word(const char **p, uint64_t *v)
{
    const char *s = *p;
    uint64_t n = 0;

    if (*s < '0' || *s > '9')
        return -1;
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned d = (unsigned)(*s - '0');

        if (n > (UINT64_MAX - d) / 10)
            return -1;
        n = n * 10 + d;
    }
    *v = n;
    *p = s;
    return 0;
}

int
vdc_parse_u64_text(const char *text, uint64_t *v)
{
    const char *p = text ? text : "";

    if (vdc_parse_u64_word(&p, v) < 0)
        return -1;
    p = vdc_skip_blanks(p);
    if (*p == '\n')
        p++;
    return *p ? -1 : 0;
}

int
vdc_line_len(const char *s, int max)
{
    int n = 0;

    while (s && n < max && s[n] && s[n] != '\n')
        n++;
    return n;
}

char *
vdc_read_proc_file(const char *path, int *gone)
{
    GString *s;
    char buf[4096];
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0) {
        if (gone && (errno == ENOENT || errno == ESRCH)) {
            *gone = 1;
            return NULL;
        }
        vdc_error("%s: %s", path, g_strerror(errno));
        return NULL;
    }
    s = g_string_new(NULL);
    for (;;) {
        ssize_t r = read(fd, buf, sizeof(buf));

        if (r == 0)
            break;
        if (r < 0) {
            int e = errno;

            if (e == EINTR)
                continue;
            close(fd);
            g_string_free(s, TRUE);
            if (gone && e == ESRCH) {
                *gone = 1;
                return NULL;
            }
            vdc_error("%s: %s", path, g_strerror(e));
            return NULL;
        }
        g_string_append_len(s, buf, r);
    }
    close(fd);
    return g_string_free(s, FALSE);
}

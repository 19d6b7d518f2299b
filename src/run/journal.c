#include "config.h"
#include "run/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"

#define JOURNAL_HEADER "vmdiskcmp-journal 1\n"
#define JOURNAL_MAX_BYTES (4u << 20)

static void
entry_free(gpointer p)
{
    vdc_journal_entry *e = p;

    if (e->kv)
        g_hash_table_destroy(e->kv);
    g_free(e->kind);
    g_free(e);
}

void
vdc_journal_init(vdc_journal *j)
{
    j->fd = -1;
    j->path = NULL;
    j->entries = NULL;
}

void
vdc_journal_dispose(vdc_journal *j)
{
    if (j->fd >= 0)
        close(j->fd);
    j->fd = -1;
    g_clear_pointer(&j->path, g_free);
    g_clear_pointer(&j->entries, g_ptr_array_unref);
}

static int
append(vdc_journal *j, const char *line)
{
    size_t len = strlen(line), off = 0;

    while (off < len) {
        ssize_t r = write(j->fd, line + off, len - off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            vdc_error("journal %s: write failed: %s", j->path, g_strerror(errno));
            return -1;
        }
        off += (size_t)r;
    }
    if (fsync(j->fd) < 0) {
        vdc_error("journal %s: fsync failed: %s", j->path, g_strerror(errno));
        return -1;
    }
    return 0;
}

int
vdc_journal_create(vdc_journal *j, const char *path)
{
    g_autofree char *dir = g_path_get_dirname(path);
    int dfd;

    j->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
    if (j->fd < 0) {
        vdc_error("journal %s: cannot create: %s", path, g_strerror(errno));
        return -1;
    }
    j->path = g_strdup(path);
    j->entries = g_ptr_array_new_with_free_func(entry_free);
    if (append(j, JOURNAL_HEADER) < 0)
        return -1;
    /* make the file's name durable too */
    dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    return 0;
}

static int
parse_line(vdc_journal *j, char *line, unsigned lineno)
{
    g_auto(GStrv) f = g_strsplit(line, " ", -1);
    guint n = g_strv_length(f);
    char *end = NULL;
    unsigned long seq;
    vdc_journal_entry *e;
    guint i;

    if (n < 2)
        goto bad;
    errno = 0;
    seq = strtoul(f[1], &end, 10);
    if (errno || *end || seq == 0 || seq > 1000000)
        goto bad;
    if (!strcmp(f[0], "add")) {
        if (n < 3 || seq != j->entries->len + 1)
            goto bad;
        e = g_new0(vdc_journal_entry, 1);
        e->seq = (unsigned)seq;
        e->kind = g_strdup(f[2]);
        e->kv = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        g_ptr_array_add(j->entries, e);
        for (i = 3; i < n; i++) {
            char *eq = strchr(f[i], '=');
            char *k, *v;
            if (!eq)
                goto bad;
            k = g_uri_unescape_segment(f[i], eq, NULL);
            v = g_uri_unescape_string(eq + 1, NULL);
            if (!k || !v) {
                g_free(k);
                g_free(v);
                goto bad;
            }
            g_hash_table_replace(e->kv, k, v);
        }
        return 0;
    }
    if (n != 2 || seq > j->entries->len)
        goto bad;
    e = g_ptr_array_index(j->entries, seq - 1);
    if (!strcmp(f[0], "done"))
        e->done = 1;
    else if (!strcmp(f[0], "undone"))
        e->undone = 1;
    else if (!strcmp(f[0], "kept"))
        e->kept = 1;
    else
        goto bad;
    return 0;
bad:
    vdc_error("journal %s:%u: malformed line: expected 'add SEQ KIND KEY=VALUE...' or 'done|undone|kept SEQ'",
              j->path, lineno);
    return -1;
}

int
vdc_journal_load(vdc_journal *j, const char *path)
{
    g_autofree char *data = NULL;
    g_autoptr(GError) err = NULL;
    gsize len = 0;
    char *line, *save = NULL;
    unsigned lineno = 1;

    j->path = g_strdup(path);
    j->entries = g_ptr_array_new_with_free_func(entry_free);
    if (!g_file_get_contents(path, &data, &len, &err)) {
        vdc_error("journal %s: %s", path, err->message);
        return -1;
    }
    if (len > JOURNAL_MAX_BYTES || memchr(data, 0, len)) {
        vdc_error("journal %s: expected a text file under 4 MiB", path);
        return -1;
    }
    if (strncmp(data, JOURNAL_HEADER, strlen(JOURNAL_HEADER)) != 0) {
        vdc_error("journal %s: expected the header '%s'", path, "vmdiskcmp-journal 1");
        return -1;
    }
    for (line = strtok_r(data + strlen(JOURNAL_HEADER), "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        if (parse_line(j, line, lineno) < 0)
            return -1;
    }
    j->fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (j->fd < 0) {
        vdc_error("journal %s: cannot open for appending: %s", path, g_strerror(errno));
        return -1;
    }
    return 0;
}

unsigned
vdc_journal_add(vdc_journal *j, const char *kind, ...)
{
    GString *s = g_string_new(NULL);
    vdc_journal_entry *e;
    const char *k;
    va_list ap;

    e = g_new0(vdc_journal_entry, 1);
    e->seq = j->entries->len + 1;
    e->kind = g_strdup(kind);
    e->kv = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_string_append_printf(s, "add %u %s", e->seq, kind);
    va_start(ap, kind);
    while ((k = va_arg(ap, const char *))) {
        const char *v = va_arg(ap, const char *);
        g_autofree char *ek = g_uri_escape_string(k, NULL, FALSE);
        g_autofree char *ev = g_uri_escape_string(v ? v : "", NULL, FALSE);
        g_string_append_printf(s, " %s=%s", ek, ev);
        g_hash_table_replace(e->kv, g_strdup(k), g_strdup(v ? v : ""));
    }
    va_end(ap);
    g_string_append_c(s, '\n');
    g_ptr_array_add(j->entries, e);
    if (append(j, s->str) < 0) {
        g_string_free(s, TRUE);
        return 0;
    }
    g_string_free(s, TRUE);
    return e->seq;
}

vdc_journal_entry *
vdc_journal_find(vdc_journal *j, unsigned seq)
{
    if (!j->entries || seq == 0 || seq > j->entries->len)
        return NULL;
    return g_ptr_array_index(j->entries, seq - 1);
}

const char *
vdc_journal_get(const vdc_journal_entry *e, const char *key)
{
    return g_hash_table_lookup(e->kv, key);
}

static int
mark(vdc_journal *j, unsigned seq, const char *what)
{
    vdc_journal_entry *e = vdc_journal_find(j, seq);
    char line[64];

    if (!e) {
        vdc_error("journal %s: no entry %u", j->path, seq);
        return -1;
    }
    g_snprintf(line, sizeof(line), "%s %u\n", what, seq);
    if (append(j, line) < 0)
        return -1;
    if (!strcmp(what, "done"))
        e->done = 1;
    else if (!strcmp(what, "undone"))
        e->undone = 1;
    else
        e->kept = 1;
    return 0;
}

int vdc_journal_done(vdc_journal *j, unsigned seq) { return mark(j, seq, "done"); }
int vdc_journal_undone(vdc_journal *j, unsigned seq) { return mark(j, seq, "undone"); }
int vdc_journal_kept(vdc_journal *j, unsigned seq) { return mark(j, seq, "kept"); }

int
vdc_journal_teardown(vdc_journal *j, vdc_undo_fn fn, void *opaque,
                     const char *const *keep_kinds)
{
    int rc = 0;
    guint i;

    if (!j->entries)
        return 0;
    for (i = j->entries->len; i > 0; i--) {
        vdc_journal_entry *e = g_ptr_array_index(j->entries, i - 1);
        if (e->undone || e->kept)
            continue;
        if (keep_kinds && e->done && g_strv_contains(keep_kinds, e->kind)) {
            if (mark(j, e->seq, "kept") < 0)
                rc = -1;
            continue;
        }
        if (fn(e, opaque) < 0) {
            rc = -1;
            continue;
        }
        if (mark(j, e->seq, "undone") < 0)
            rc = -1;
    }
    return rc;
}

size_t
vdc_journal_pending(const vdc_journal *j)
{
    size_t n = 0;
    guint i;

    for (i = 0; j->entries && i < j->entries->len; i++) {
        const vdc_journal_entry *e = g_ptr_array_index(j->entries, i);
        if (!e->undone && !e->kept)
            n++;
    }
    return n;
}

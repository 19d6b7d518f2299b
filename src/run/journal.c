/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The undo journal (journal.h): typed entries, one text line each. */
#include "config.h"
#include "run/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/child.h"
#include "common/util.h"

#define JOURNAL_HEADER "vmdiskcmp-journal 2\n"
#define JOURNAL_HEADER_V1 "vmdiskcmp-journal 1\n"
#define JOURNAL_MAX_BYTES (4u << 20)

static const char *const kind_names[] = {
    [VDC_JOURNAL_DOMAIN] = "domain",
    [VDC_JOURNAL_IMAGE] = "image",
    [VDC_JOURNAL_LV] = "lv",
    [VDC_JOURNAL_LOOP] = "loop",
    [VDC_JOURNAL_MOUNT] = "mount",
    [VDC_JOURNAL_DIR] = "dir",
    [VDC_JOURNAL_FILE] = "file",
    [VDC_JOURNAL_PROC] = "proc",
    [VDC_JOURNAL_CGROUP] = "cgroup",
    [VDC_JOURNAL_PARAM] = "param",
};

/* One number of an identity as "%ju" writes it: decimal digits, no
 * leading zero, at most UINT64_MAX; @end is where it stops. */
static int
ju_ok(const char *v, const char *end)
{
    g_autofree char *s = g_strndup(v, (gsize)(end - v));
    guint64 n;

    return *s && (s[0] != '0' || !s[1]) && s[strspn(s, "0123456789")] == '\0' &&
           g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT64, &n, NULL);
}

/* An identity's value as vdc_journal_ino_of writes it: "DEV:INO", two
 * decimal numbers (compared as text: "08:1" or a number past 64 bits would
 * match nothing, and the object would be left behind as "not ours") */
static int
ino_ok(const char *v)
{
    const char *colon = strchr(v, ':');

    return colon && ju_ok(v, colon) && ju_ok(colon + 1, colon + 1 + strlen(colon + 1));
}

/* A domain's UUID as the run records it: 8-4-4-4-12 hex digits. */
static int
uuid_ok(const char *v)
{
    return g_uuid_string_is_valid(v);
}

/* A module parameter's value to restore: a decimal number of blkback's
 * (0 to 65535). */
static int
param_value_ok(const char *v)
{
    return g_ascii_string_to_unsigned(v, 10, 0, 65535, NULL, NULL);
}

#define PARAM_VALUE_EXPECTED "a decimal number from 0 to 65535"
#define INO_EXPECTED "DEV:INO (two decimal numbers without leading zeros, as lstat gives st_dev and st_ino)"
#define UUID_EXPECTED "a UUID (8-4-4-4-12 hex digits)"

#define M(m) offsetof(vdc_journal_entry, m)
/* The string keys of each kind, in the order a line carries them (an
 * image's description follows its path: keys from model/target.h).  An
 * identity the undo compares against (ino, uuid) has a shape: a value of
 * another shape would make the object look "not ours" and be skipped
 * silently, so the journal is refused instead (@ok, @expected). */
static const struct {
    vdc_journal_kind kind;
    const char *key;
    size_t off;                 /* of a const char * member */
    int (*ok)(const char *v);   /* NULL: any value */
    const char *expected;
} keys[] = {
    { VDC_JOURNAL_DOMAIN, "driver", M(driver), NULL, NULL },
    { VDC_JOURNAL_DOMAIN, "uri", M(uri), NULL, NULL },
    { VDC_JOURNAL_DOMAIN, "name", M(name), NULL, NULL },
    { VDC_JOURNAL_DOMAIN, "uuid", M(uuid), uuid_ok, UUID_EXPECTED },
    { VDC_JOURNAL_IMAGE, "path", M(path), NULL, NULL },
    { VDC_JOURNAL_IMAGE, "ino", M(ino), ino_ok, INO_EXPECTED },
    { VDC_JOURNAL_LV, "vg", M(vg), NULL, NULL },
    { VDC_JOURNAL_LV, "lv", M(lv), NULL, NULL },
    { VDC_JOURNAL_LV, "tag", M(tag), NULL, NULL },
    { VDC_JOURNAL_LOOP, "file", M(file), NULL, NULL },
    { VDC_JOURNAL_LOOP, "dev", M(dev), NULL, NULL },
    { VDC_JOURNAL_LOOP, "ino", M(ino), ino_ok, INO_EXPECTED },
    { VDC_JOURNAL_MOUNT, "dir", M(dir), NULL, NULL },
    { VDC_JOURNAL_MOUNT, "source", M(source), NULL, NULL },
    { VDC_JOURNAL_DIR, "path", M(path), NULL, NULL },
    { VDC_JOURNAL_DIR, "ino", M(ino), ino_ok, INO_EXPECTED },
    { VDC_JOURNAL_FILE, "path", M(path), NULL, NULL },
    { VDC_JOURNAL_FILE, "ino", M(ino), ino_ok, INO_EXPECTED },
    { VDC_JOURNAL_PROC, "pid", M(pid), NULL, NULL },
    { VDC_JOURNAL_PROC, "start", M(start), NULL, NULL },
    { VDC_JOURNAL_PROC, "exe", M(exe), NULL, NULL },
    { VDC_JOURNAL_PROC, "boot", M(boot), NULL, NULL },
    { VDC_JOURNAL_CGROUP, "path", M(path), NULL, NULL },
    { VDC_JOURNAL_PARAM, "path", M(path), NULL, NULL },
    { VDC_JOURNAL_PARAM, "value", M(value), param_value_ok, PARAM_VALUE_EXPECTED },
};
#undef M

static const char **
member(vdc_journal_entry *e, size_t k)
{
    return (const char **)((char *)e + keys[k].off);
}

const char *
vdc_journal_kind_name(vdc_journal_kind k)
{
    return (unsigned)k < G_N_ELEMENTS(kind_names) ? kind_names[k] : NULL;
}

/* The dimensions an image entry records: where, and those of the
 * storage object (model/target.h) */
static int
image_dim(vdc_target_dim d)
{
    return d == VDC_DIM_WHERE || vdc_target_dim_storage(d);
}

static void
entry_free(gpointer p)
{
    vdc_journal_entry *e = p;
    size_t k;

    for (k = 0; k < G_N_ELEMENTS(keys); k++)
        if (keys[k].kind == e->kind)
            g_free((char *)*member(e, k));
    g_free(e);
}

/* A journal's copy of @e (its kind's members only). */
static vdc_journal_entry *
entry_copy(const vdc_journal_entry *e, unsigned seq)
{
    vdc_journal_entry *c = g_new0(vdc_journal_entry, 1);
    size_t k;

    c->seq = seq;
    c->kind = e->kind;
    for (k = 0; k < G_N_ELEMENTS(keys); k++)
        if (keys[k].kind == e->kind)
            *member(c, k) = g_strdup(*member((vdc_journal_entry *)e, k));
    if (e->kind == VDC_JOURNAL_IMAGE) {
        c->image = e->image;
        c->image.backing = VDC_BACKING_IMAGE;
    }
    return c;
}

void
vdc_journal_init(vdc_journal *j)
{
    j->fd = -1;
    j->path = NULL;
    j->entries = NULL;
    j->run_id = j->owner_pid = j->owner_started = NULL;
    vdc_runrec_init(&j->rec);
}

/* Every entry undone (none pending, none kept). */
static int
all_undone(const vdc_journal *j)
{
    for (guint i = 0; j->entries && i < j->entries->len; i++)
        if (!((const vdc_journal_entry *)g_ptr_array_index(j->entries, i))->undone)
            return 0;
    return 1;
}

void
vdc_journal_dispose(vdc_journal *j)
{
    if (j->fd >= 0) {
        vdc_child_forget_fd(j->fd);
        close(j->fd);
    }
    j->fd = -1;
    if (j->rec.fd >= 0 && all_undone(j))
        (void)vdc_runrec_remove(&j->rec);
    vdc_runrec_dispose(&j->rec);
    g_clear_pointer(&j->path, g_free);
    g_clear_pointer(&j->entries, g_ptr_array_unref);
    g_clear_pointer(&j->run_id, g_free);
    g_clear_pointer(&j->owner_pid, g_free);
    g_clear_pointer(&j->owner_started, g_free);
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

static void
append_pair(GString *s, const char *key, const char *value)
{
    g_autofree char *ek = g_uri_escape_string(key, NULL, FALSE);
    g_autofree char *ev = g_uri_escape_string(value, NULL, FALSE);

    g_string_append_printf(s, " %s=%s", ek, ev);
}

int
vdc_journal_create(vdc_journal *j, const char *path, const char *run_id)
{
    g_autofree char *dir = g_path_get_dirname(path);
    g_autofree char *tmp = g_strconcat(path, ".new", NULL);
    g_autoptr(GString) head = g_string_new(JOURNAL_HEADER);
    g_autoptr(GDateTime) now = g_date_time_new_now_utc();
    g_autofree char *started = g_date_time_format(now, "%Y-%m-%dT%H:%M:%SZ");
    g_autofree char *pid = g_strdup_printf("%ld", (long)getpid());
    int dfd, rc = -1;

    j->path = g_strdup(path);
    j->entries = g_ptr_array_new_with_free_func(entry_free);
    j->fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
    if (j->fd < 0) {
        vdc_error("journal %s: cannot create %s: %s", path, tmp, g_strerror(errno));
        return -1;
    }
    if (flock(j->fd, LOCK_EX) < 0) {
        vdc_error("journal %s: cannot lock: %s", path, g_strerror(errno));
        goto out;
    }
    vdc_child_close_in_forks(j->fd);    /* the lock is the run's, not a child's */
    if (run_id) {
        j->run_id = g_strdup(run_id);
        j->owner_pid = g_strdup(pid);
        j->owner_started = g_strdup(started);
        g_string_append(head, "run");
        append_pair(head, "id", run_id);
        append_pair(head, "pid", pid);
        append_pair(head, "started", started);
        g_string_append_c(head, '\n');
    }
    if (append(j, head->str) < 0)
        goto out;
    /* a filesystem without hard links: rename (the caller made the
     * directory just now, so no other journal can be there) */
    if (link(tmp, path) < 0 &&
        ((errno != EPERM && errno != EOPNOTSUPP) || g_file_test(path, G_FILE_TEST_EXISTS) ||
         rename(tmp, path) < 0)) {
        vdc_error("journal %s: cannot create: %s", path, g_strerror(errno));
        goto out;
    }
    /* make the file's name durable too */
    dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    if (run_id && vdc_runrec_create(&j->rec, run_id, path) < 0)
        goto out;
    rc = 0;
out:
    (void)unlink(tmp);
    return rc;
}

static int
malformed(const vdc_journal *j, unsigned lineno)
{
    vdc_input_error("journal %s:%u: malformed line: expected 'run KEY=VALUE...', 'add SEQ KIND KEY=VALUE...', "
                    "'done SEQ [KEY=VALUE...]' or 'undone|kept SEQ'",
                    j->path, lineno);
    return -1;
}

/* KEY=VALUE of line @lineno, an "add" or a "done", into @e (URI-unescaped).
 * Unknown keys are ignored.  0, or -1 after one line: no '=', a bad escape,
 * an identity (ino, uuid) of another shape than the run writes, or an image
 * description's value that is none of model/target.h's names. */
static int
parse_pair(const vdc_journal *j, unsigned lineno, vdc_journal_entry *e, const char *pair)
{
    const char *eq = strchr(pair, '=');
    g_autofree char *k = NULL;
    char *v;
    size_t i;
    int d;

    if (!eq || !(k = g_uri_unescape_segment(pair, eq, NULL)) ||
        !(v = g_uri_unescape_string(eq + 1, NULL)))
        return malformed(j, lineno);
    for (i = 0; i < G_N_ELEMENTS(keys); i++)
        if (keys[i].kind == e->kind && !strcmp(keys[i].key, k)) {
            if (keys[i].ok && !keys[i].ok(v)) {
                vdc_input_error("journal %s:%u: %s %s '%s': expected %s", j->path, lineno,
                                kind_names[e->kind], k, v, keys[i].expected);
                g_free(v);
                return -1;
            }
            g_free((char *)*member(e, i));     /* a repeated key: the last wins */
            *member(e, i) = v;
            return 0;
        }
    for (d = 0; e->kind == VDC_JOURNAL_IMAGE && d < VDC_DIM_COUNT; d++)
        if (image_dim(d) && !strcmp(vdc_target_dim_key(d), k)) {
            int value = vdc_target_parse(d, v);

            if (value < 0) {
                g_autofree char *choices = vdc_target_choices(d, "|");

                vdc_input_error("journal %s:%u: image %s '%s': expected one of %s", j->path, lineno,
                                k, v, choices);
                g_free(v);
                return -1;
            }
            g_free(v);
            vdc_target_spec_set(&e->image, d, value);
            return 0;
        }
    g_free(v);
    return 0;
}

static int
parse_kind(const char *s, vdc_journal_kind *out)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(kind_names); i++)
        if (!strcmp(kind_names[i], s)) {
            *out = (vdc_journal_kind)i;
            return 0;
        }
    return -1;
}

/* The pairs @f of a run line into @j.  0, or -1 (no message) on a pair
 * without '=' or with a bad escape. */
static int
run_pairs(vdc_journal *j, char **f)
{
    for (; *f; f++) {
        const char *eq = strchr(*f, '=');
        g_autofree char *k = NULL;
        char *v, **slot;

        if (!eq || !(k = g_uri_unescape_segment(*f, eq, NULL)) ||
            !(v = g_uri_unescape_string(eq + 1, NULL)))
            return -1;
        slot = !strcmp(k, "id") ? &j->run_id : !strcmp(k, "pid") ? &j->owner_pid :
               !strcmp(k, "started") ? &j->owner_started : NULL;
        if (slot) {
            g_free(*slot);
            *slot = v;
        } else {
            g_free(v);
        }
    }
    if (!j->run_id)
        j->run_id = g_strdup("");
    return 0;
}

/* "run KEY=VALUE..." (@f: the pairs): the owner.  Once, before any add. */
static int
parse_run(vdc_journal *j, unsigned lineno, char **f)
{
    if (j->run_id || j->entries->len || run_pairs(j, f) < 0)
        return malformed(j, lineno);
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
    vdc_journal_kind kind;
    guint i;

    if (n < 2)
        goto bad;
    if (!strcmp(f[0], "run"))
        return parse_run(j, lineno, f + 1);
    errno = 0;
    seq = strtoul(f[1], &end, 10);
    if (errno || *end || seq == 0 || seq > 1000000)
        goto bad;
    if (!strcmp(f[0], "add")) {
        if (n < 3 || seq != j->entries->len + 1)
            goto bad;
        if (parse_kind(f[2], &kind) < 0) {
            vdc_input_error("journal %s:%u: kind '%s': expected domain, image, lv, loop, mount, dir, file or proc",
                            j->path, lineno, f[2]);
            return -1;
        }
        e = g_new0(vdc_journal_entry, 1);
        e->seq = (unsigned)seq;
        e->kind = kind;
        e->image.backing = VDC_BACKING_IMAGE;
        g_ptr_array_add(j->entries, e);
        for (i = 3; i < n; i++)
            if (parse_pair(j, lineno, e, f[i]) < 0)
                return -1;
        return 0;
    }
    if (seq > j->entries->len || (n != 2 && strcmp(f[0], "done")))
        goto bad;
    e = g_ptr_array_index(j->entries, seq - 1);
    for (i = 2; i < n; i++)             /* done SEQ KEY=VALUE...: identities */
        if (parse_pair(j, lineno, e, f[i]) < 0)
            return -1;
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
    return malformed(j, lineno);
}

/* The run line of a journal whose lock another process holds: read
 * without the lock (the run appends as we read: only a complete second
 * line is used), for the messages naming the live run. */
static void
read_owner(vdc_journal *j, const char *data, gsize len)
{
    const char *l2 = memchr(data, '\n', len), *end;
    g_autofree char *line = NULL;
    g_auto(GStrv) f = NULL;

    if (!l2 || !g_str_has_prefix(++l2, "run ") || !(end = memchr(l2, '\n', len - (gsize)(l2 - data))))
        return;
    line = g_strndup(l2, (gsize)(end - l2));
    f = g_strsplit(line, " ", -1);
    (void)run_pairs(j, f + 1);
}

int
vdc_journal_load(vdc_journal *j, const char *path)
{
    g_autofree char *data = NULL;
    g_autoptr(GError) err = NULL;
    gsize len = 0;
    char *line, *next;
    unsigned lineno = 1;
    struct stat sb;
    int held = 0;

    j->path = g_strdup(path);
    j->entries = g_ptr_array_new_with_free_func(entry_free);
    /* the lock first, then the contents: a run that dies meanwhile has
     * written all it will */
    j->fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK);   /* a FIFO: no wait */
    if ((j->fd < 0 && (errno == EISDIR || errno == ENXIO)) ||
        (j->fd >= 0 && (fstat(j->fd, &sb) < 0 || !S_ISREG(sb.st_mode)))) {
        vdc_input_error("journal %s: expected a regular file", path);
        return -1;
    }
    if (j->fd < 0 && errno != ENOENT) {         /* missing: bad input, below */
        vdc_error("journal %s: cannot open for appending: %s", path, g_strerror(errno));
        return -1;
    }
    if (j->fd >= 0 && flock(j->fd, LOCK_EX | LOCK_NB) < 0) {
        if (errno != EWOULDBLOCK) {
            vdc_error("journal %s: cannot lock: %s", path, g_strerror(errno));
            return -1;
        }
        held = 1;
    }
    if (j->fd >= 0 && !held)
        vdc_child_close_in_forks(j->fd);
    if (!g_file_get_contents(path, &data, &len, &err)) {
        vdc_input_error("journal %s: %s", path, err->message);
        return -1;
    }
    if (len > JOURNAL_MAX_BYTES) {
        vdc_input_error("journal %s: %" G_GSIZE_FORMAT " bytes: expected a text file under 4 MiB", path, len);
        return -1;
    }
    if (memchr(data, 0, len)) {
        vdc_input_error("journal %s: a NUL byte at offset %" G_GSIZE_FORMAT ": expected a text file", path,
                        (gsize)((char *)memchr(data, 0, len) - data));
        return -1;
    }
    if (strncmp(data, JOURNAL_HEADER, strlen(JOURNAL_HEADER)) != 0 &&
        strncmp(data, JOURNAL_HEADER_V1, strlen(JOURNAL_HEADER_V1)) != 0) {
        vdc_input_error("journal %s: expected the header '%s'", path, "vmdiskcmp-journal 2");
        return -1;
    }
    if (held) {
        read_owner(j, data, len);
        return 1;
    }
    /* every line the run writes ends in a newline (one write each): a last
     * line without one was cut short, and its values (a path) may name
     * something else; empty lines count for the numbers of the others */
    for (line = data + strlen(JOURNAL_HEADER); *line; line = next + 1) {
        next = strchr(line, '\n');
        lineno++;
        if (!next) {
            vdc_input_error("journal %s:%u: a last line without its newline (cut short): expected "
                            "complete lines (remove the partial line to replay the rest)", path, lineno);
            return -1;
        }
        *next = '\0';
        if (*line && parse_line(j, line, lineno) < 0)
            return -1;
    }
    return 0;
}

int
vdc_journal_prove(vdc_journal *j)
{
    return vdc_runrec_prove(&j->rec, j->run_id, j->path);
}

unsigned
vdc_journal_add(vdc_journal *j, const vdc_journal_entry *e)
{
    g_autoptr(GString) s = g_string_new(NULL);
    vdc_journal_entry *c;
    size_t k;
    int d;

    if (!vdc_journal_kind_name(e->kind)) {
        vdc_error("journal %s: entry of unknown kind %d", j->path, (int)e->kind);
        return 0;
    }
    c = entry_copy(e, j->entries->len + 1);
    g_string_append_printf(s, "add %u %s", c->seq, vdc_journal_kind_name(c->kind));
    for (k = 0; k < G_N_ELEMENTS(keys); k++)
        if (keys[k].kind == c->kind && *member(c, k))
            append_pair(s, keys[k].key, *member(c, k));
    for (d = 0; c->kind == VDC_JOURNAL_IMAGE && d < VDC_DIM_COUNT; d++)
        if (image_dim(d))
            append_pair(s, vdc_target_dim_key(d),
                        vdc_target_name(d, vdc_target_spec_get(&c->image, d)));
    g_string_append_c(s, '\n');
    g_ptr_array_add(j->entries, c);
    if (append(j, s->str) < 0)
        return 0;
    return c->seq;
}

vdc_journal_entry *
vdc_journal_find(vdc_journal *j, unsigned seq)
{
    if (!j->entries || seq == 0 || seq > j->entries->len)
        return NULL;
    return g_ptr_array_index(j->entries, seq - 1);
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

int
vdc_journal_done_ident(vdc_journal *j, unsigned seq, const char *key, const char *value)
{
    vdc_journal_entry *e = vdc_journal_find(j, seq);
    g_autoptr(GString) s = g_string_new(NULL);
    size_t k;

    for (k = 0; e && k < G_N_ELEMENTS(keys); k++)
        if (keys[k].kind == e->kind && !strcmp(keys[k].key, key))
            break;
    if (!e || k == G_N_ELEMENTS(keys)) {
        vdc_error("journal %s: entry %u has no key '%s'", j->path, seq, key);
        return -1;
    }
    g_string_printf(s, "done %u", seq);
    append_pair(s, key, value);
    g_string_append_c(s, '\n');
    if (append(j, s->str) < 0)
        return -1;
    g_free((char *)*member(e, k));
    *member(e, k) = g_strdup(value);
    e->done = 1;
    return 0;
}
int vdc_journal_undone(vdc_journal *j, unsigned seq) { return mark(j, seq, "undone"); }
int vdc_journal_kept(vdc_journal *j, unsigned seq) { return mark(j, seq, "kept"); }

int
vdc_journal_teardown(vdc_journal *j, vdc_undo_fn fn, void *opaque, unsigned keep)
{
    int rc = 0;
    guint i;

    if (!j->entries)
        return 0;
    for (i = j->entries->len; i > 0; i--) {
        vdc_journal_entry *e = g_ptr_array_index(j->entries, i - 1);
        if (e->undone || e->kept)
            continue;
        if (e->done && (keep & VDC_JOURNAL_KIND_BIT(e->kind))) {
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

char *
vdc_journal_ino_of(const char *path)
{
    struct stat sb;

    if (lstat(path, &sb) < 0)
        return NULL;
    return g_strdup_printf("%ju:%ju", (uintmax_t)sb.st_dev, (uintmax_t)sb.st_ino);
}

int
vdc_journal_ino_check(const char *ino, const char *path)
{
    g_autofree char *now = vdc_journal_ino_of(path);

    if (!now)
        return errno == ENOENT ? -1 : 0;
    return !strcmp(now, ino);
}

int
vdc_journal_done_ino(vdc_journal *j, unsigned seq, const char *path)
{
    g_autofree char *ino = vdc_journal_ino_of(path);

    return ino ? vdc_journal_done_ident(j, seq, "ino", ino) : vdc_journal_done(j, seq);
}

int
vdc_journal_mkdir(vdc_journal *j, unsigned seq, const char *dir, mode_t mode)
{
    if (mkdir(dir, mode) < 0) {
        int e = errno;  /* g_file_test's stat may change errno */

        if (e == EEXIST && g_file_test(dir, G_FILE_TEST_IS_DIR))
            return vdc_journal_undone(j, seq);  /* made by someone else meanwhile: not ours */
        vdc_error("directory %s: cannot create: %s", dir, g_strerror(e));
        return -1;
    }
    return vdc_journal_done_ino(j, seq, dir);
}

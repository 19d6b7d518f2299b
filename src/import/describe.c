/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What an imported target is, as the page says it: its kind from the words
 * of its name (a heading: "Test 1 - disk image", "Test 3 - Dom0 - LVM",
 * "/dev/md0 (software RAID-0 ...)"; a machine: "/dev/vg1/test"), where it
 * ran, and the RAM the page states ("128 MB RAM", `memory = "512"` in an
 * xm config, "5 GB of ram available" beside "Dom0"), overridden by
 * --kind-map, --ram and --dom0-ram.  Every decision is recorded with its
 * source in targets[].provenance and said as a progress line
 * (doc/importers.md, "Kinds and RAM"). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "import/import.h"
#include "import/import_priv.h"

void
vdc_import_options_init(vdc_import_options *o)
{
    memset(o, 0, sizeof(*o));
    o->group_by = VDC_GROUP_MACHINE;
    o->ram_mib = o->dom0_ram_mib = VDC_INT_ABSENT;
}

static const char *const kinds[] = { "image", "lvm", "block", "dom0", "imported", NULL };

int
vdc_import_kind_map_parse(const char *arg, vdc_kind_map_entry *out)
{
    const char *eq = arg ? strchr(arg, '=') : NULL;

    if (!eq || eq == arg || strchr(eq + 1, '=') || !g_strv_contains(kinds, eq + 1))
        return -1;
    out->text = g_strndup(arg, (gsize)(eq - arg));
    out->kind = g_strdup(eq + 1);
    return 0;
}

/* ---- kinds ---------------------------------------------------------------------- */

/* The words of a kind, whole words of a name (case-insensitive; letters and
 * digits make a word), in the order they are tried: dom0 first (a "Dom0 -
 * LVM" heading is the bare host on an LV), then an image ("disk image"
 * before "disk"), an LV, a block device. */
static const struct {
    const char *kind;
    const char *const words[12];
} kind_words[] = {
    { "dom0", { "dom0", "domain-0", "domain 0", "domain0", "dom 0", NULL } },
    { "image", { "disk image", "image", "img", "file", "file-backed", "qcow2", "qcow", "vmdk",
                 "vhd", "tap:aio", "loop", NULL } },
    { "lvm", { "lvm", "lvm2", "lv", "logical volume", "thin lv", "thin pool", NULL } },
    { "block", { "partition", "raid", "raid-0", "raid0", "raid-1", "raid1", "md", "ssd", "hdd",
                 "nvme", "raw disk", NULL } },
};

/* Does @word occur in @low (lower case) as whole words? */
static int
has_words(const char *low, const char *word)
{
    size_t n = strlen(word);
    const char *p = low;

    while ((p = strstr(p, word))) {
        if ((p == low || !g_ascii_isalnum(p[-1])) && !g_ascii_isalnum(p[n]))
            return 1;
        p++;
    }
    return 0;
}

/* A device path's kind: /dev/sdc4, /dev/hda3, /dev/md0, /dev/xvdb,
 * /dev/nvme0n1p1: block; /dev/VG/LV, /dev/mapper/VG-LV: lvm; a path
 * ending .img, .qcow2, .raw: image.  NULL otherwise. */
static const char *
path_kind(const char *name, const char **what)
{
    static const char *const block[] = { "sd", "hd", "xvd", "vd", "md", "nvme", "mmcblk", NULL };
    const char *p = strstr(name, "/dev/"), *end;
    char first[64];
    size_t n, i;

    *what = "an image file's name";
    if (g_str_has_suffix(name, ".img") || g_str_has_suffix(name, ".qcow2") ||
        g_str_has_suffix(name, ".raw"))
        return "image";
    if (!p)
        return NULL;
    p += 5;
    for (n = 0; p[n] && p[n] != '/' && p[n] != ' ' && n + 1 < sizeof(first); n++)
        first[n] = p[n];
    first[n] = '\0';
    end = p + n;
    *what = "an LV's device path (/dev/VG/LV)";
    if (!strcmp(first, "mapper"))
        return "lvm";
    if (*end == '/' && g_ascii_isalnum(end[1]) && strcmp(first, "disk") && strcmp(first, "shm"))
        return "lvm";    /* /dev/VG/LV */
    *what = "a disk's or partition's device path";
    for (i = 0; block[i]; i++)
        if (g_str_has_prefix(first, block[i]) && g_ascii_isdigit(first[n - 1]))
            return "block";
    for (i = 0; block[i]; i++)
        if (g_str_has_prefix(first, block[i]) && strlen(first) <= strlen(block[i]) + 2)
            return "block";
    return NULL;
}

const char *
vdc_import_kind_of_name(const char *name, char **why)
{
    g_autofree char *low = g_ascii_strdown(name, -1);
    const char *k, *what;
    size_t i, j;

    for (i = 0; i < G_N_ELEMENTS(kind_words); i++)
        for (j = 0; kind_words[i].words[j]; j++)
            if (has_words(low, kind_words[i].words[j])) {
                *why = g_strdup_printf("its name says '%s'", kind_words[i].words[j]);
                return kind_words[i].kind;
            }
    if ((k = path_kind(name, &what))) {
        *why = g_strdup_printf("its name is %s", what);
        return k;
    }
    *why = NULL;
    return NULL;
}

/* ---- RAM statements --------------------------------------------------------------- */

/* "512", "1,5", "2.5" with a unit ("MB", "MiB", "M", "GB", "G", "megabytes")
 * into MiB: 1 and *@mib, else 0. */
static int
size_mib(const char *num, const char *unit, int64_t *mib)
{
    g_autofree char *n = g_strdup(num), *u = g_ascii_strdown(unit, -1);
    char *comma = strchr(n, ',');
    double v;

    if (comma)
        *comma = '.';
    v = g_ascii_strtod(n, NULL);
    if (u[0] == 'g')
        v *= 1024;
    else if (u[0] == 't')
        v *= 1048576;
    if (!(v >= 1 && v <= 1073741824.0))
        return 0;
    *mib = (int64_t)(v + 0.5);
    return 1;
}

#define SIZE_RE "(\\d+(?:[.,]\\d+)?)\\s*(MiB|MB|M|GiB|GB|G|TiB|TB|megabytes?|gigabytes?)\\b"

/* Match @re on @line into *@m (freed first); 1 matched. */
static int
match(GRegex *re, const char *line, GMatchInfo **m)
{
    g_clear_pointer(m, g_match_info_free);
    return g_regex_match(re, line, 0, m);
}

/* The words of @line around its match @m: "...I have 5 GB of ram
 * available..." (g_free) */
static char *
excerpt(const char *line, GMatchInfo *m)
{
    int a = 0, b = 0;
    size_t n = strlen(line), from, to;

    g_match_info_fetch_pos(m, 0, &a, &b);
    from = a > 24 ? (size_t)a - 24 : 0;
    to = MIN(n, (size_t)b + 24);
    while (from > 0 && line[from - 1] != ' ')
        from--;
    while (to < n && line[to] != ' ')
        to++;
    return g_strdup_printf("%s%.*s%s", from ? "..." : "", (int)(to - from), line + from,
                           to < n ? "..." : "");
}

int
vdc_import_ram_statement(const char *line, int64_t *mib, vdc_ram_scope *scope, char **text)
{
    static GRegex *config, *xml, *dom0_mem, *after, *before, *dom0_word, *domu_word;
    GMatchInfo *m = NULL;
    g_autofree char *n = NULL, *u = NULL;
    int found = 0;

    if (!config) {
        /* a Xen guest's config (xm/xl: MiB), a libvirt domain's <memory> */
        config = g_regex_new("^\\s*(?:memory|maxmem)\\s*=\\s*['\"]?(\\d+)['\"]?\\s*$", 0, 0, NULL);
        xml = g_regex_new("<memory(?:\\s+unit=['\"](KiB|MiB|GiB)['\"])?>(\\d+)</memory>", 0, 0, NULL);
        dom0_mem = g_regex_new("\\bdom0_mem=(\\d+)([MG])", 0, 0, NULL);
        /* prose: "128 MB RAM", "5 GB of ram available", "RAM was 128 MB", "Memory: 2 GB" */
        after = g_regex_new(SIZE_RE "\\s+(?:of\\s+)?(?:[a-z]+\\s+)?(?:RAM|memory)\\b",
                            G_REGEX_CASELESS, 0, NULL);
        before = g_regex_new("\\b(?:RAM|memory)\\b\\s*(?:[:=]|is|was|of)?\\s*(?:[a-z]+\\s+)?" SIZE_RE,
                             G_REGEX_CASELESS, 0, NULL);
        dom0_word = g_regex_new("\\bdom(?:ain)?[- ]?0\\b", G_REGEX_CASELESS, 0, NULL);
        domu_word = g_regex_new("\\b(?:domU|guest|VM|virtual machine)\\b", G_REGEX_CASELESS, 0, NULL);
    }
    if (match(config, line, &m)) {
        n = g_match_info_fetch(m, 1);
        found = size_mib(n, "M", mib);
        *scope = VDC_RAM_DOMU;
    } else if (match(xml, line, &m)) {
        u = g_match_info_fetch(m, 1);
        n = g_match_info_fetch(m, 2);
        found = size_mib(n, *u ? u : "M", mib);
        if (found && (!*u || u[0] == 'K'))
            *mib /= 1024;           /* libvirt's default unit is KiB */
        found = found && *mib >= 1;
        *scope = VDC_RAM_DOMU;
    } else if (match(dom0_mem, line, &m)) {
        n = g_match_info_fetch(m, 1);
        u = g_match_info_fetch(m, 2);
        found = size_mib(n, u, mib);
        *scope = VDC_RAM_DOM0;
    } else if (match(after, line, &m) || match(before, line, &m)) {
        n = g_match_info_fetch(m, 1);
        u = g_match_info_fetch(m, 2);
        found = size_mib(n, u, mib);
        *scope = g_regex_match(dom0_word, line, 0, NULL) ? VDC_RAM_DOM0
                 : g_regex_match(domu_word, line, 0, NULL) ? VDC_RAM_DOMU : VDC_RAM_MACHINE;
    }
    if (found && text)
        *text = excerpt(line, m);
    g_match_info_free(m);
    return found;
}

/* ---- describing the targets of one file --------------------------------------------- */

/* The one value the page states for @scope, with its statement; 0 none,
 * -1 two different values (then a warning says so). */
static int
stated(GPtrArray *ram, vdc_ram_scope scope, const char *file, const vdc_ram_statement **out)
{
    const vdc_ram_statement *first = NULL;
    guint i;

    for (i = 0; ram && i < ram->len; i++) {
        const vdc_ram_statement *r = g_ptr_array_index(ram, i);

        if (r->scope != scope)
            continue;
        if (!first) {
            first = r;
        } else if (r->mib != first->mib) {
            vdc_error_kind(VDC_ERR_NONE, "warning: %s: the page states %" G_GINT64_FORMAT " MiB of "
                           "%s RAM (line %ld) and %" G_GINT64_FORMAT " MiB (line %ld): neither is "
                           "used (--ram, --dom0-ram give it)", file, (gint64)first->mib,
                           scope == VDC_RAM_DOM0 ? "dom0's" : scope == VDC_RAM_DOMU ? "the guest's"
                           : "the machine's", first->line, (gint64)r->mib, r->line);
            return -1;
        }
    }
    *out = first;
    return first ? 1 : 0;
}

/* Set @t's @field (memory_mib or dom0_memory_mib) and its provenance from
 * the option @opt (--ram, --dom0-ram) or else the statement @st. */
static void
set_ram(int64_t *field, char **why, int64_t opt, const char *opt_name,
        const vdc_ram_statement *st, const char *file)
{
    if (opt != VDC_INT_ABSENT) {
        *field = opt;
        g_free(*why);
        *why = g_strdup_printf("%s %" G_GINT64_FORMAT, opt_name, (gint64)opt);
    } else if (st) {
        *field = st->mib;
        g_free(*why);
        *why = g_strdup_printf("%s:%ld: %s", file, st->line, st->text);
    }
}

/* 1 when @name holds the TEXT of --kind-map entry @e (any case) */
int
vdc_import_kind_map_matches(const vdc_kind_map_entry *e, const char *name)
{
    g_autofree char *low = g_ascii_strdown(name, -1);
    g_autofree char *text = g_ascii_strdown(e->text, -1);

    return strstr(low, text) != NULL;
}

/* @t's kind: --kind-map first (the first entry whose TEXT its name holds,
 * case-insensitive; a later entry of another KIND that matches too is
 * warned about), then the words of its name. */
static void
decide_kind(vdc_target *t, const vdc_import_options *o)
{
    const char *kind;
    char *why;
    size_t i, k;

    for (i = 0; i < o->n_kind_map; i++) {
        const vdc_kind_map_entry *e = &o->kind_map[i];

        if (!vdc_import_kind_map_matches(e, t->name))
            continue;
        vdc_set_str(&t->kind, e->kind);
        t->provenance.kind = g_strdup_printf("--kind-map '%s=%s'", e->text, e->kind);
        if (o->kind_map_used)
            o->kind_map_used[i]++;
        for (k = i + 1; k < o->n_kind_map; k++)
            if (strcmp(o->kind_map[k].kind, e->kind) && vdc_import_kind_map_matches(&o->kind_map[k], t->name)) {
                vdc_error_kind(VDC_ERR_NONE, "warning: target '%s': --kind-map '%s=%s' and '%s=%s' both "
                               "match: kind %s (the first given; a longer TEXT matches one)", t->name,
                               e->text, e->kind, o->kind_map[k].text, o->kind_map[k].kind, e->kind);
                break;
            }
        return;
    }
    kind = vdc_import_kind_of_name(t->name, &why);
    if (!kind)
        return;
    vdc_set_str(&t->kind, kind);
    t->provenance.kind = why;
}

/* A dom0 or an image target: the page is about guests (domU) and their
 * host. */
static int
has_guests(const vdc_target *t)
{
    return t->kind && (!strcmp(t->kind, "dom0") || !strcmp(t->kind, "image"));
}

int
vdc_import_describe(vdc_result_set *tmp, const vdc_result_set *rs, const char *file,
                    GPtrArray *ram, const vdc_import_options *o)
{
    const vdc_ram_statement *domu = NULL, *dom0 = NULL, *machine = NULL;
    int guests = 0;
    size_t i;

    for (i = 0; i < tmp->n_targets; i++) {
        vdc_target *t = tmp->targets[i];

        if (t->kind && !strcmp(t->kind, "imported") && !vdc_result_set_find_target(rs, t->name))
            decide_kind(t, o);
        guests |= has_guests(t);
    }
    for (i = 0; i < rs->n_targets; i++)
        guests |= has_guests(rs->targets[i]);
    stated(ram, VDC_RAM_DOMU, file, &domu);
    stated(ram, VDC_RAM_DOM0, file, &dom0);
    stated(ram, VDC_RAM_MACHINE, file, &machine);
    for (i = 0; i < tmp->n_targets; i++) {
        vdc_target *t = tmp->targets[i];
        int is_dom0 = t->kind && !strcmp(t->kind, "dom0");
        int known = t->kind && strcmp(t->kind, "imported");
        GString *said;

        if (vdc_result_set_find_target(rs, t->name))
            continue;
        /* a guest's disks against its host when the page has a dom0 or an
         * image target; else a machine's own disks */
        if (known && !t->where)
            vdc_set_str(&t->where, is_dom0 ? "dom0" : guests ? "domU" : "host");
        if (is_dom0) {
            set_ram(&t->memory_mib, &t->provenance.memory_mib, o->dom0_ram_mib, "--dom0-ram", dom0,
                    file);
        } else if (t->where && !strcmp(t->where, "domU")) {
            set_ram(&t->memory_mib, &t->provenance.memory_mib, o->ram_mib, "--ram", domu, file);
            set_ram(&t->dom0_memory_mib, &t->provenance.dom0_memory_mib, o->dom0_ram_mib,
                    "--dom0-ram", dom0, file);
        } else {
            set_ram(&t->memory_mib, &t->provenance.memory_mib, o->ram_mib, "--ram", machine, file);
        }
        if (!t->provenance.kind && !t->provenance.memory_mib && !t->provenance.dom0_memory_mib)
            continue;           /* nothing decided: nothing to say */
        said = g_string_new(NULL);
        g_string_append_printf(said, "%s: target '%s': kind %s", file, t->name, t->kind);
        if (t->provenance.kind)         /* a map the user gave needs no hint */
            g_string_append_printf(said, " (%s%s)", t->provenance.kind,
                                   g_str_has_prefix(t->provenance.kind, "--kind-map")
                                   ? "" : "; --kind-map 'TEXT=KIND' to change");
        if (t->where)
            g_string_append_printf(said, ", %s", t->where);
        if (t->memory_mib != VDC_INT_ABSENT)
            g_string_append_printf(said, "; RAM %" G_GINT64_FORMAT " MiB (%s)", (gint64)t->memory_mib,
                                   t->provenance.memory_mib);
        if (t->dom0_memory_mib != VDC_INT_ABSENT)
            g_string_append_printf(said, "; dom0's RAM %" G_GINT64_FORMAT " MiB (%s)",
                                   (gint64)t->dom0_memory_mib, t->provenance.dom0_memory_mib);
        vdc_progress("%s", said->str);
        g_string_free(said, TRUE);
    }
    return 0;
}

void
vdc_ram_statement_free(gpointer p)
{
    vdc_ram_statement *r = p;

    if (!r)
        return;
    g_free(r->text);
    g_free(r);
}

void
vdc_import_settle_where(vdc_result_set *rs, const vdc_import_options *o)
{
    size_t i;
    int guests = 0;

    for (i = 0; i < rs->n_targets; i++)
        guests |= has_guests(rs->targets[i]);
    for (i = 0; guests && i < rs->n_targets; i++) {
        vdc_target *t = rs->targets[i];

        /* a target this import described as a machine's own disk */
        if (!t->provenance.kind || !t->where || strcmp(t->where, "host"))
            continue;
        vdc_set_str(&t->where, "domU");
        if (t->dom0_memory_mib == VDC_INT_ABSENT)
            set_ram(&t->dom0_memory_mib, &t->provenance.dom0_memory_mib, o->dom0_ram_mib,
                    "--dom0-ram", NULL, NULL);
        vdc_progress("target '%s': domU (another input has a dom0 or an image target)", t->name);
    }
}

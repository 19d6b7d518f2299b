/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp fleet: one job's results from several hosts, the host as a
 * dimension (report/fleet.h; doc/report.md "Fleet report"). */
#include "config.h"

#include "report/fleet.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "common/util.h"
#include "report/render_fmt.h"
#include "report/render_meta.h"

void
vdc_fleet_init(struct vdc_fleet *f)
{
    memset(f, 0, sizeof(*f));
}

static void
choice_dispose(struct vdc_fleet_choice *c)
{
    g_free(c->target);
    g_free(c->reference);
    g_free(c->picks);
    g_free(c->faster);
    g_free(c->slower);
    memset(c, 0, sizeof(*c));
}

void
vdc_fleet_dispose(struct vdc_fleet *f)
{
    size_t i;

    for (i = 0; i < f->n_hosts; i++) {
        struct vdc_fleet_host *h = &f->hosts[i];

        g_free(h->name);
        g_free(h->dir);
        g_free(h->reason);
        vdc_analysis_dispose(&h->a);
        vdc_result_set_dispose(&h->rs);
    }
    g_free(f->hosts);
    g_strfreev(f->targets);
    g_strfreev(f->tests);
    for (i = 0; i < f->n_choices; i++)
        choice_dispose(&f->choices[i]);
    g_free(f->choices);
    g_free(f->spread);
    g_strfreev(f->facts_differ);
    vdc_fleet_init(f);
}

struct vdc_fleet_host *
vdc_fleet_add_host(struct vdc_fleet *f, const char *name, const char *dir)
{
    struct vdc_fleet_host *h;

    f->hosts = g_renew(struct vdc_fleet_host, f->hosts, f->n_hosts + 1);
    h = &f->hosts[f->n_hosts++];
    memset(h, 0, sizeof(*h));
    h->name = g_strdup(name);
    h->dir = g_strdup(dir);
    h->status = VDC_FLEET_MISSING;
    h->reason = g_strdup("no result.json");
    vdc_result_set_init(&h->rs);
    vdc_analysis_init(&h->a);
    return h;
}

/* "dom0,image,lvm": a set's targets as NAME(KIND), comma-joined (g_free) */
static char *
shape_targets(const vdc_result_set *rs)
{
    char **names = vdc_result_set_target_names(rs);
    GString *s = g_string_new(NULL);
    size_t i;

    for (i = 0; names[i]; i++) {
        const vdc_target *t = vdc_result_set_find_target(rs, names[i]);

        g_string_append_printf(s, "%s%s", i ? "," : "", names[i]);
        if (t && t->kind)
            g_string_append_printf(s, "(%s)", t->kind);
    }
    g_strfreev(names);
    return g_string_free(s, FALSE);
}

/* -1 after the message when host @h's shape is not host @first's */
static int
check_shape(const struct vdc_fleet_host *first, const struct vdc_fleet_host *h)
{
    char *a = shape_targets(&first->rs), *b = shape_targets(&h->rs);
    char **ka = NULL, **kb = NULL;
    int rc = -1;

    if (strcmp(a, b)) {
        vdc_input_error("merge: %s: experiment shape differs from %s: targets %s against %s: expected "
                        "the same job on every host", h->dir, first->dir, b, a);
        goto out;
    }
    ka = vdc_result_set_test_keys(&first->rs, NULL);
    kb = vdc_result_set_test_keys(&h->rs, NULL);
    if (g_strv_length(ka) != g_strv_length(kb) || !g_strv_equal((const char *const *)ka,
                                                                  (const char *const *)kb)) {
        size_t i;

        for (i = 0; ka[i] && kb[i] && !strcmp(ka[i], kb[i]); i++)
            ;
        vdc_input_error("merge: %s: experiment shape differs from %s: tests %u (%s) against %u (%s): "
                        "expected the same job on every host", h->dir, first->dir, g_strv_length(kb),
                        kb[i] ? kb[i] : "fewer", g_strv_length(ka), ka[i] ? ka[i] : "fewer");
        goto out;
    }
    rc = 0;
 out:
    g_strfreev(ka);
    g_strfreev(kb);
    g_free(a);
    g_free(b);
    return rc;
}

/* What host @h's headline says of its pair (@target against @reference):
 * the pick, and the tests each side wins */
static enum vdc_fleet_pick
host_pick(const struct vdc_fleet_host *h, const char *target, const char *reference, size_t *faster,
          size_t *slower)
{
    const struct vdc_analysis *a = &h->a;
    size_t p, r, n_tested = 0;

    *faster = *slower = 0;
    for (p = 0; p < a->headline.n_pairs; p++) {
        const struct vdc_headline_pair *pair = &a->headline.pairs[p];

        if (pair->role != VDC_HEADLINE_CHOICE || strcmp(a->targets[pair->target], target) ||
            strcmp(a->targets[pair->reference], reference))
            continue;
        for (r = 0; r < pair->n_rows; r++) {
            enum vdc_verdict v = pair->rows[r].verdict;

            if (v == VDC_VERDICT_FASTER)
                (*faster)++;
            else if (v == VDC_VERDICT_SLOWER)
                (*slower)++;
            if (v == VDC_VERDICT_FASTER || v == VDC_VERDICT_SLOWER || v == VDC_VERDICT_NO_DIFFERENCE)
                n_tested++;
        }
        if (*faster && *slower)
            return VDC_FLEET_PICK_MIXED;
        if (*faster)
            return VDC_FLEET_PICK_TARGET;
        if (*slower)
            return VDC_FLEET_PICK_REFERENCE;
        return n_tested ? VDC_FLEET_PICK_EVEN : VDC_FLEET_PICK_UNDECIDED;
    }
    return VDC_FLEET_PICK_NONE;
}

/* The choice pairs of every ok host (by target names, first appearance),
 * each host's pick */
static void
build_choices(struct vdc_fleet *f)
{
    size_t i, p, c, h;

    for (i = 0; i < f->n_hosts; i++) {
        const struct vdc_analysis *a = &f->hosts[i].a;

        if (f->hosts[i].status != VDC_FLEET_OK)
            continue;
        for (p = 0; p < a->headline.n_pairs; p++) {
            const struct vdc_headline_pair *pair = &a->headline.pairs[p];
            const char *t = a->targets[pair->target], *r = a->targets[pair->reference];
            struct vdc_fleet_choice *ch;

            if (pair->role != VDC_HEADLINE_CHOICE)
                continue;
            for (c = 0; c < f->n_choices; c++)
                if (!strcmp(f->choices[c].target, t) && !strcmp(f->choices[c].reference, r))
                    break;
            if (c < f->n_choices)
                continue;
            f->choices = g_renew(struct vdc_fleet_choice, f->choices, f->n_choices + 1);
            ch = &f->choices[f->n_choices++];
            ch->target = g_strdup(t);
            ch->reference = g_strdup(r);
            ch->picks = g_new0(enum vdc_fleet_pick, f->n_hosts);
            ch->faster = g_new0(size_t, f->n_hosts);
            ch->slower = g_new0(size_t, f->n_hosts);
        }
    }
    for (c = 0; c < f->n_choices; c++) {
        struct vdc_fleet_choice *ch = &f->choices[c];
        enum vdc_fleet_pick first = VDC_FLEET_PICK_NONE;

        ch->same = 1;
        for (h = 0; h < f->n_hosts; h++) {
            if (f->hosts[h].status != VDC_FLEET_OK)
                continue;
            ch->picks[h] = host_pick(&f->hosts[h], ch->target, ch->reference, &ch->faster[h], &ch->slower[h]);
            if (ch->picks[h] == VDC_FLEET_PICK_NONE)
                continue;
            if (first == VDC_FLEET_PICK_NONE)
                first = ch->picks[h];
            else if (ch->picks[h] != first)
                ch->same = 0;
        }
    }
}

/* The lowest and highest host mean of each (target, test) */
static void
build_spread(struct vdc_fleet *f)
{
    size_t ti, ki, h;

    f->spread = g_new0(struct vdc_fleet_spread, f->n_targets * f->n_tests);
    for (ti = 0; ti < f->n_targets; ti++)
        for (ki = 0; ki < f->n_tests; ki++) {
            struct vdc_fleet_spread s = { .target = ti, .test = ki };

            for (h = 0; h < f->n_hosts; h++) {
                const struct vdc_analysis *a = &f->hosts[h].a;
                const struct vdc_cell *cell;
                long k;
                size_t t;

                if (f->hosts[h].status != VDC_FLEET_OK)
                    continue;
                for (t = 0; t < a->n_targets && strcmp(a->targets[t], f->targets[ti]); t++)
                    ;
                k = vdc_analysis_test_index(a, f->tests[ki]);
                if (t == a->n_targets || k < 0)
                    continue;
                cell = vdc_analysis_cell(a, t, (size_t)k);
                if (!cell->sum.n || !isfinite(cell->sum.mean))
                    continue;
                if (!s.unit)
                    s.unit = cell->unit;
                if (!s.n_hosts || cell->sum.mean < s.lo) {
                    s.lo = cell->sum.mean;
                    s.lo_host = h;
                }
                if (!s.n_hosts || cell->sum.mean > s.hi) {
                    s.hi = cell->sum.mean;
                    s.hi_host = h;
                }
                s.n_hosts++;
            }
            if (s.n_hosts)
                f->spread[f->n_spread++] = s;
        }
}

/* The host facts a choice may depend on, and their readers */
static const char *fact_kernel(const vdc_experiment *e) { return e->host.kernel; }
static const char *fact_xen(const vdc_experiment *e) { return e->hypervisor.xen_version; }
static const char *fact_disk(const vdc_experiment *e) { return e->host.image_dir.model; }
static const char *fact_sched(const vdc_experiment *e) { return e->host.image_dir.scheduler; }

static const struct {
    const char *name;
    const char *(*get)(const vdc_experiment *e);
} host_facts[] = {
    { "kernel", fact_kernel },
    { "Xen", fact_xen },
    { "disk model", fact_disk },
    { "scheduler", fact_sched },
};

static const char *
host_fact(const struct vdc_fleet_host *h, size_t i)
{
    const char *v = h->rs.has_experiment ? host_facts[i].get(&h->rs.experiment) : NULL;

    return v && *v ? v : "unknown";
}

static void
build_facts(struct vdc_fleet *f)
{
    GPtrArray *out = g_ptr_array_new();
    size_t i, h;

    for (i = 0; i < G_N_ELEMENTS(host_facts); i++) {
        const char *first = NULL;
        int differ = 0;

        for (h = 0; h < f->n_hosts; h++) {
            if (f->hosts[h].status != VDC_FLEET_OK)
                continue;
            if (!first)
                first = host_fact(&f->hosts[h], i);
            else if (strcmp(first, host_fact(&f->hosts[h], i)))
                differ = 1;
        }
        if (differ) {
            GString *s = g_string_new(host_facts[i].name);
            const char *sep = ": ";

            for (h = 0; h < f->n_hosts; h++)
                if (f->hosts[h].status == VDC_FLEET_OK) {
                    g_string_append_printf(s, "%s%s %s", sep, f->hosts[h].name, host_fact(&f->hosts[h], i));
                    sep = ", ";
                }
            g_ptr_array_add(out, g_string_free(s, FALSE));
        }
    }
    g_ptr_array_add(out, NULL);
    f->facts_differ = (char **)g_ptr_array_free(out, FALSE);
}

int
vdc_fleet_build(struct vdc_fleet *f, const struct vdc_stats_options *opt, const vdc_artefact_options *art)
{
    struct vdc_stats_options dflt;
    const struct vdc_fleet_host *first = NULL;
    size_t h;

    if (!f->n_hosts) {
        vdc_input_error("merge: expected at least one host's result directory");
        return -1;
    }
    if (!opt) {
        vdc_stats_options_init(&dflt);
        opt = &dflt;
    }
    for (h = 0; h < f->n_hosts; h++) {
        struct vdc_fleet_host *host = &f->hosts[h];

        if (host->status != VDC_FLEET_OK)
            continue;
        if (!first)
            first = host;
        else if (check_shape(first, host) < 0)
            return -1;
    }
    for (h = 0; h < f->n_hosts; h++) {
        struct vdc_fleet_host *host = &f->hosts[h];

        if (host->status != VDC_FLEET_OK)
            continue;
        if (vdc_analysis_build_with(&host->a, &host->rs, NULL, opt, art) < 0)
            return -1;
        f->n_ok++;
    }
    if (first) {
        f->targets = vdc_result_set_target_names(&first->rs);
        f->tests = vdc_result_set_test_keys(&first->rs, NULL);
        f->n_targets = g_strv_length(f->targets);
        f->n_tests = g_strv_length(f->tests);
    }
    build_choices(f);
    build_spread(f);
    build_facts(f);
    return 0;
}

const char *
vdc_fleet_pick_text(const struct vdc_fleet_choice *c, size_t h)
{
    switch (c->picks[h]) {
    case VDC_FLEET_PICK_TARGET: return c->target;
    case VDC_FLEET_PICK_REFERENCE: return c->reference;
    case VDC_FLEET_PICK_MIXED: return "mixed";
    case VDC_FLEET_PICK_EVEN: return "even";
    case VDC_FLEET_PICK_UNDECIDED: return "undecided";
    case VDC_FLEET_PICK_NONE: break;
    }
    return "-";
}

static const char *
status_text(enum vdc_fleet_status s)
{
    return s == VDC_FLEET_OK ? "ok" : s == VDC_FLEET_FAILED ? "FAILED" : "NO RESULT";
}

char *
vdc_fleet_render_text(const struct vdc_fleet *f)
{
    GString *out = g_string_new(NULL);
    size_t h, i, c, nw = 4, lw = 4;

    for (h = 0; h < f->n_hosts; h++)
        nw = MAX(nw, strlen(f->hosts[h].name));
    g_string_append_printf(out, "vmdiskcmp fleet report: %zu host%s, %zu with results", f->n_hosts,
                           f->n_hosts == 1 ? "" : "s", f->n_ok);
    if (f->n_ok < f->n_hosts)
        g_string_append_printf(out, ", %zu without (named below)", f->n_hosts - f->n_ok);
    g_string_append(out, "\n");
    {
        const char *sep = "EMULATED (";

        for (h = 0; h < f->n_hosts; h++)
            if (f->hosts[h].status == VDC_FLEET_OK && vdc_experiment_emulated(&f->hosts[h].rs)) {
                g_string_append_printf(out, "%s%s", sep, f->hosts[h].name);
                sep = ", ";
            }
        if (strcmp(sep, "EMULATED ("))
            g_string_append(out, "): numbers predict nothing about real hardware\n");
    }
    if (f->targets) {
        char *t = g_strjoinv(", ", f->targets);

        g_string_append_printf(out, "The job on every host: targets %s; %zu tests\n", t, f->n_tests);
        g_free(t);
    }

    g_string_append(out, "\nHosts\n");
    for (h = 0; h < f->n_hosts; h++) {
        const struct vdc_fleet_host *host = &f->hosts[h];

        g_string_append_printf(out, "  %-*s  %-9s", (int)nw, host->name, status_text(host->status));
        if (host->status != VDC_FLEET_OK) {
            g_string_append_printf(out, " %s (%s)\n", host->reason ? host->reason : "", host->dir);
            continue;
        }
        for (i = 0; i < G_N_ELEMENTS(host_facts); i++)
            g_string_append_printf(out, " %s %s%s", host_facts[i].name, host_fact(host, i),
                                   i + 1 < G_N_ELEMENTS(host_facts) ? ";" : "");
        g_string_append(out, "\n");
    }

    g_string_append(out, "\nHeadline per host\n");
    for (h = 0; h < f->n_hosts; h++) {
        const struct vdc_fleet_host *host = &f->hosts[h];
        char **lines;

        g_string_append_printf(out, "  %s:\n", host->name);
        if (host->status != VDC_FLEET_OK) {
            g_string_append_printf(out, "    no result: %s\n", host->reason ? host->reason : "");
            continue;
        }
        lines = vdc_analysis_headline_lines(&host->a);
        for (i = 0; lines && lines[i]; i++)
            g_string_append_printf(out, "    %s\n", lines[i]);
        g_strfreev(lines);
    }

    g_string_append(out, "\nThe choice across hosts\n");
    if (!f->n_choices)
        g_string_append(out, "  No image/LV pair on any host: no storage choice to hold against the fleet.\n");
    for (c = 0; c < f->n_choices; c++) {
        const struct vdc_fleet_choice *ch = &f->choices[c];
        const char *sep = "";
        size_t n = 0, first = 0;

        for (h = 0; h < f->n_hosts; h++)
            if (ch->picks[h] != VDC_FLEET_PICK_NONE && !n++)
                first = h;
        g_string_append_printf(out, "  %s against %s: ", ch->target, ch->reference);
        if (ch->same)
            g_string_append_printf(out, "the same on every host that has the pair (%zu of %zu): %s\n", n,
                                   f->n_hosts, vdc_fleet_pick_text(ch, first));
        else
            g_string_append(out, "NOT the same on every host\n");
        g_string_append(out, "    ");
        for (h = 0; h < f->n_hosts; h++) {
            g_string_append_printf(out, "%s%s %s", sep, f->hosts[h].name, vdc_fleet_pick_text(ch, h));
            if (ch->picks[h] != VDC_FLEET_PICK_NONE)
                g_string_append_printf(out, " (faster in %zu, slower in %zu)", ch->faster[h], ch->slower[h]);
            sep = "; ";
        }
        g_string_append(out, "\n");
        if (!ch->same) {
            if (!f->facts_differ || !f->facts_differ[0])
                g_string_append(out, "    facts that differ: none recorded (kernel, Xen, disk model and "
                                     "scheduler are the same)\n");
            else
                g_string_append(out, "    facts that differ:\n");
            for (i = 0; f->facts_differ && f->facts_differ[i]; i++)
                g_string_append_printf(out, "      %s\n", f->facts_differ[i]);
        }
    }
    g_string_append(out, "  (a host picks a target when it is faster in some headline tests and slower in "
                         "none (paired t-test, Holm);\n   mixed: each faster somewhere; even: no significant "
                         "difference; undecided: no test with a verdict)\n");

    g_string_append(out, "\nSpread across hosts (each host's mean; spread = highest / lowest - 1)\n");
    for (i = 0; i < f->n_spread; i++) {
        char label[VDC_TEST_LABEL_MAX];

        vdc_test_key_label(f->tests[f->spread[i].test], label, sizeof(label));
        lw = MAX(lw, (size_t)g_utf8_strlen(label, -1) + strlen(f->targets[f->spread[i].target]) + 3);
    }
    if (!f->n_spread)
        g_string_append(out, "  no host has a value\n");
    for (i = 0; i < f->n_spread; i++) {
        const struct vdc_fleet_spread *s = &f->spread[i];
        char label[VDC_TEST_LABEL_MAX], *both;
        int pad;

        vdc_test_key_label(f->tests[s->test], label, sizeof(label));
        both = g_strdup_printf("%s, %s", f->targets[s->target], label);
        pad = (int)lw + (int)(strlen(both) - (size_t)g_utf8_strlen(both, -1));
        g_string_append_printf(out, "  %-*s %-6s", pad, both, s->unit ? s->unit : "");
        if (s->n_hosts < 2)
            g_string_append_printf(out, " %s on %s only\n", vdc_fmt_num_s(s->lo), f->hosts[s->lo_host].name);
        else {
            g_string_append_printf(out, " lowest %s (%s)", vdc_fmt_num_s(s->lo), f->hosts[s->lo_host].name);
            g_string_append_printf(out, ", highest %s (%s)", vdc_fmt_num_s(s->hi), f->hosts[s->hi_host].name);
            if (s->lo > 0)
                g_string_append_printf(out, ", spread %.1f %%", 100.0 * (s->hi / s->lo - 1));
            g_string_append_printf(out, ", %zu hosts\n", s->n_hosts);
        }
        g_free(both);
    }
    return g_string_free(out, FALSE);
}

char *
vdc_fleet_render_json(const struct vdc_fleet *f)
{
    JsonBuilder *b = json_builder_new();
    JsonNode *root;
    char *text;
    size_t h, i, c;

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "format");
    json_builder_add_string_value(b, "vmdiskcmp-fleet");
    json_builder_set_member_name(b, "format_version");
    json_builder_add_int_value(b, 1);
    json_builder_set_member_name(b, "hosts");
    json_builder_begin_array(b);
    for (h = 0; h < f->n_hosts; h++) {
        const struct vdc_fleet_host *host = &f->hosts[h];
        static const char *const keys[] = { "kernel", "xen_version", "disk_model", "scheduler" };

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "name");
        json_builder_add_string_value(b, host->name);
        json_builder_set_member_name(b, "dir");
        json_builder_add_string_value(b, host->dir);
        json_builder_set_member_name(b, "status");
        json_builder_add_string_value(b, host->status == VDC_FLEET_OK ? "ok" :
                                         host->status == VDC_FLEET_FAILED ? "failed" : "missing");
        json_builder_set_member_name(b, "reason");
        if (host->reason)
            json_builder_add_string_value(b, host->reason);
        else
            json_builder_add_null_value(b);
        if (host->status == VDC_FLEET_OK) {
            char **lines = vdc_analysis_headline_lines(&host->a);

            for (i = 0; i < G_N_ELEMENTS(keys); i++) {
                const char *v = host->rs.has_experiment ? host_facts[i].get(&host->rs.experiment) : NULL;

                json_builder_set_member_name(b, keys[i]);
                if (v)
                    json_builder_add_string_value(b, v);
                else
                    json_builder_add_null_value(b);
            }
            json_builder_set_member_name(b, "headline");
            json_builder_begin_array(b);
            for (i = 0; lines && lines[i]; i++)
                json_builder_add_string_value(b, lines[i]);
            json_builder_end_array(b);
            g_strfreev(lines);
        }
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "choices");
    json_builder_begin_array(b);
    for (c = 0; c < f->n_choices; c++) {
        const struct vdc_fleet_choice *ch = &f->choices[c];

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "target");
        json_builder_add_string_value(b, ch->target);
        json_builder_set_member_name(b, "reference");
        json_builder_add_string_value(b, ch->reference);
        json_builder_set_member_name(b, "same");
        json_builder_add_boolean_value(b, ch->same);
        json_builder_set_member_name(b, "picks");
        json_builder_begin_object(b);
        for (h = 0; h < f->n_hosts; h++)
            if (ch->picks[h] != VDC_FLEET_PICK_NONE) {
                json_builder_set_member_name(b, f->hosts[h].name);
                json_builder_add_string_value(b, vdc_fleet_pick_text(ch, h));
            }
        json_builder_end_object(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "facts_differ");
    json_builder_begin_array(b);
    for (i = 0; f->facts_differ && f->facts_differ[i]; i++)
        json_builder_add_string_value(b, f->facts_differ[i]);
    json_builder_end_array(b);
    json_builder_set_member_name(b, "spread");
    json_builder_begin_array(b);
    for (i = 0; i < f->n_spread; i++) {
        const struct vdc_fleet_spread *s = &f->spread[i];

        json_builder_begin_object(b);
        json_builder_set_member_name(b, "target");
        json_builder_add_string_value(b, f->targets[s->target]);
        json_builder_set_member_name(b, "test");
        json_builder_add_string_value(b, f->tests[s->test]);
        json_builder_set_member_name(b, "unit");
        if (s->unit)
            json_builder_add_string_value(b, s->unit);
        else
            json_builder_add_null_value(b);
        json_builder_set_member_name(b, "hosts");
        json_builder_add_int_value(b, (gint64)s->n_hosts);
        json_builder_set_member_name(b, "lowest");
        json_builder_add_double_value(b, s->lo);
        json_builder_set_member_name(b, "lowest_host");
        json_builder_add_string_value(b, f->hosts[s->lo_host].name);
        json_builder_set_member_name(b, "highest");
        json_builder_add_double_value(b, s->hi);
        json_builder_set_member_name(b, "highest_host");
        json_builder_add_string_value(b, f->hosts[s->hi_host].name);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    root = json_builder_get_root(b);
    text = vdc_json_to_string(root, NULL);
    json_node_unref(root);
    g_object_unref(b);
    return text;
}

void
vdc_fleet_merged_set(const struct vdc_fleet *f, vdc_result_set *out)
{
    size_t h, i;

    for (h = 0; h < f->n_hosts; h++) {
        const struct vdc_fleet_host *host = &f->hosts[h];
        vdc_result_set one;

        if (host->status != VDC_FLEET_OK)
            continue;
        vdc_result_set_init(&one);
        vdc_result_set_merge(&one, &host->rs);
        for (i = 0; i < one.n_targets; i++) {
            char *n = g_strdup_printf("%s@%s", one.targets[i]->name, host->name);

            vdc_set_str(&one.targets[i]->name, n);
            g_free(n);
        }
        for (i = 0; i < one.n_runs; i++)
            if (one.runs[i]->target) {
                char *n = g_strdup_printf("%s@%s", one.runs[i]->target, host->name);

                vdc_set_str(&one.runs[i]->target, n);
                g_free(n);
            }
        one.has_experiment = 0;
        vdc_result_set_merge(out, &one);
        vdc_result_set_dispose(&one);
    }
    out->has_experiment = 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bonnie++ tables and their CSV lines: a CSV line claims the oldest table
 * run not yet claimed (bonnie++ prints the table, then the CSV line of the
 * same run); the two must agree to the table's printed precision and the
 * run is kept once, from the CSV.  After the file, the table runs no CSV
 * line claimed are settled (doc/importers.md "A table followed by its CSV
 * line"). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "import/import.h"
#include "import/import_priv.h"

/* An IO row whose blank columns could not be placed: its value tokens, in
 * order, must be the CSV line's non-empty IO values and %CP. */
static int
check_unplaced(vdc_text_ctx *c, vdc_table_run *tr, const vdc_run *csv)
{
    guint k = 0, n = g_strv_length(tr->unplaced);
    int t;
    size_t j;

    for (t = VDC_TEST_PUTC; t <= VDC_TEST_SEEKS; t++) {
        const vdc_test_info *ti = &vdc_tests[t];
        const vdc_sample *s = NULL;
        vdc_sample v;
        double tol;
        int bad;

        for (j = 0; j < csv->n_samples; j++)
            if (!strcmp(csv->samples[j]->test, ti->name))
                s = csv->samples[j];
        if (!s)
            continue;
        if (k + 2 > n)
            return vdc_import_fail(&c->pos, "this CSV line has more IO values than the table "
                                   "row at line %ld (%u columns): expected the CSV line of that "
                                   "row", tr->line, n);
        vdc_sample_init(&v);
        bad = vdc_table_value(c, tr->unplaced[k], ti, t != VDC_TEST_SEEKS, &v, &tol) < 0 ||
              vdc_table_cpu(c, tr->unplaced[k + 1], ti, &v) < 0;
        if (!bad && (v.too_fast != s->too_fast ||
                     (vdc_has(v.value) && fabs(v.value - s->value) > tol) ||
                     (vdc_has(v.cpu_percent) && fabs(v.cpu_percent - s->cpu_percent) > 1.0))) {
            vdc_import_fail(&c->pos, "this CSV line disagrees with the table row at line %ld on "
                            "%s (%s %s%%CP vs %g %g%%CP): expected the CSV line of that row",
                            tr->line, ti->name, tr->unplaced[k], tr->unplaced[k + 1], s->value,
                            s->cpu_percent);
            bad = 1;
        }
        vdc_sample_dispose(&v);
        if (bad)
            return -1;
        k += 2;
    }
    if (k != n)
        return vdc_import_fail(&c->pos, "the table row at line %ld has %u value columns, this "
                               "CSV line %u IO values and %%CP: expected the CSV line of that row",
                               tr->line, n, k);
    return 0;
}

/* Does the table run agree with the CSV run?  Both ways: a test the table
 * has and the CSV not, and a test the CSV has and the table not (a blank
 * or a misplaced column), are conflicts. */
static int
check_claim(vdc_text_ctx *c, vdc_table_run *tr, const vdc_run *csv)
{
    size_t i, j;

    if (tr->unplaced && check_unplaced(c, tr, csv) < 0)
        return -1;
    for (i = 0; i < tr->run->n_samples; i++) {
        const vdc_sample *t = tr->run->samples[i];
        const vdc_sample *s = NULL;
        const vdc_test_info *ti = vdc_test_lookup(t->test);

        for (j = 0; j < csv->n_samples; j++)
            if (!strcmp(csv->samples[j]->test, t->test))
                s = csv->samples[j];
        if (!s)
            return vdc_import_fail(&c->pos, "this CSV line has no %s value but the table at "
                                   "line %ld has one: expected the CSV line of that table",
                                   t->test, tr->line);
        if (t->too_fast != s->too_fast ||
            (vdc_has(t->value) && fabs(t->value - s->value) > tr->tol[ti->id]) ||
            vdc_has(t->cpu_percent) != vdc_has(s->cpu_percent) ||
            (vdc_has(t->cpu_percent) && fabs(t->cpu_percent - s->cpu_percent) > 1.0))
            return vdc_import_fail(&c->pos, "this CSV line disagrees with the table at line "
                                   "%ld on %s (%s%g %g%%CP vs %s%g %g%%CP): expected the CSV line "
                                   "of that table", tr->line, t->test,
                                   t->too_fast ? "+++++ " : "", t->value, t->cpu_percent,
                                   s->too_fast ? "+++++ " : "", s->value, s->cpu_percent);
    }
    for (j = 0; j < csv->n_samples; j++) {
        const vdc_test_info *ti = vdc_test_lookup(csv->samples[j]->test);

        if (tr->unplaced && ti->id <= VDC_TEST_SEEKS)
            continue;
        if (ti->id >= VDC_TEST_SEQ_CREATE && !tr->file_line)
            continue;    /* the table's file block was not pasted */
        for (i = 0; i < tr->run->n_samples; i++)
            if (!strcmp(tr->run->samples[i]->test, csv->samples[j]->test))
                break;
        if (i == tr->run->n_samples)
            return vdc_import_fail(&c->pos, "this CSV line has a %s value (%g) but the table at "
                                   "line %ld has none: expected the CSV line of that table",
                                   csv->samples[j]->test, csv->samples[j]->value, tr->line);
    }
    return 0;
}

int
vdc_text_csv_line(vdc_text_ctx *c, const char *line)
{
    vdc_run tmp;
    vdc_run *slot;
    vdc_table_run *tr = NULL;
    int64_t rep;
    guint i;
    int rc = -1;

    vdc_run_init(&tmp);
    if (vdc_import_csv_line(line, &c->pos, &tmp) < 0)
        goto out;
    for (i = 0; i < c->tables->len && !tr; i++) {
        tr = g_ptr_array_index(c->tables, i);
        if (tr->claimed)
            tr = NULL;
    }
    if (tr) {
        /* the oldest unclaimed table is this line's own run: it must agree,
         * then the CSV run takes its place (imported once) */
        if (check_claim(c, tr, &tmp) < 0)
            goto out;
        /* what only the table says: the version behind "1.0x", and the
         * chunk size that 2.00a's CSV loses */
        if (!strcmp(tmp.meta.source.format, "bonnie++-csv-1.03") && tr->run->meta.tool &&
            strcmp(tr->run->meta.tool, "bonnie++"))
            vdc_set_str(&tmp.meta.tool, tr->run->meta.tool);
        if (tmp.meta.chunk_size == VDC_INT_ABSENT)
            tmp.meta.chunk_size = tr->run->meta.chunk_size;
        tr->claimed = 1;
        g_queue_remove(&c->awaiting_files, tr);
        if (c->last_row == tr)
            c->last_row = NULL;
        slot = tr->run;
    } else {
        slot = vdc_text_add_run(c);
        c->n_runs++;
    }
    rep = slot->repetition;
    vdc_run_dispose(slot);
    *slot = tmp;                 /* move: the set's slot takes the CSV run */
    vdc_run_init(&tmp);
    slot->repetition = rep;
    vdc_set_str(&slot->target, "");
    vdc_set_str(&slot->status, "ok");
    vdc_set_str(&slot->meta.source.file, c->pos.file);
    slot->meta.source.line = c->pos.line;
    rc = 0;
 out:
    vdc_run_dispose(&tmp);
    return rc;
}

/* Table runs after the whole file: an IO row with unplaced blank columns
 * that no CSV line placed is refused; the file tests of a bonnie++ 1.98+
 * table that no CSV line corrected are dropped (the IO rows are kept) with
 * a warning naming the file row. */
int
vdc_text_settle_tables(vdc_text_ctx *c)
{
    guint i;
    size_t j, k;

    for (i = 0; i < c->tables->len; i++) {
        vdc_table_run *tr = g_ptr_array_index(c->tables, i);

        if (tr->claimed)
            continue;
        if (tr->unplaced) {
            c->pos.line = tr->line;
            return vdc_import_fail(&c->pos, "this row has %u value columns where 12 are "
                                   "expected: a blank column (bonnie++ -f) cannot be placed once "
                                   "blanks are collapsed: expected the row as bonnie++ printed "
                                   "it, or the CSV line bonnie++ prints after the table",
                                   g_strv_length(tr->unplaced));
        }
        if (tr->bad_file_rates) {
            vdc_error_kind(VDC_ERR_NONE, "warning: %s:%ld: bonnie++ %s misprints file-test rates "
                           "in its table (printf %%d of a double): the file tests of this row "
                           "are not imported (the CSV line bonnie++ prints after the table has "
                           "them); its IO tests are", c->pos.file, tr->file_line,
                           c->version ? c->version : ">= 1.98");
            for (j = k = 0; j < tr->run->n_samples; j++) {
                vdc_sample *s = tr->run->samples[j];

                if (vdc_test_lookup(s->test)->id >= VDC_TEST_SEQ_CREATE) {
                    vdc_sample_dispose(s);
                    g_free(s);
                } else {
                    tr->run->samples[k++] = s;
                }
            }
            tr->run->n_samples = k;
            tr->run->meta.files = (vdc_files_info){ VDC_INT_ABSENT, VDC_INT_ABSENT,
                                                    VDC_INT_ABSENT, VDC_INT_ABSENT,
                                                    VDC_INT_ABSENT };
            if (!k) {
                c->pos.line = tr->file_line;
                return vdc_import_fail(&c->pos, "bonnie++ %s misprints file-test rates in its "
                                       "table (printf %%d of a double) and this row has no IO "
                                       "test: expected the CSV line bonnie++ prints after the "
                                       "table", c->version ? c->version : ">= 1.98");
            }
        }
    }
    return 0;
}

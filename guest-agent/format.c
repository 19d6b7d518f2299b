/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the table, CSV and JSON renderers (see format.h).
 * The table and CSV follow bonnie++ 2.00a's bon_time.cpp field by field;
 * differences are listed in doc/agent.md ("Output"). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "aging.h"
#include "format.h"
#include "jobstat.h"

/* The tables of agent.h, from the one test-id list (test_ids.h). */
#define TEST_NAME(id, name, ...) name,
#define TEST_UNIT(id, name, unit, ...) unit,
const char *const agent_test_id[AGENT_TEST_COUNT] = { VDC_BONNIE_TESTS(TEST_NAME) };
const char *const agent_test_unit[AGENT_TEST_COUNT] = { VDC_BONNIE_TESTS(TEST_UNIT) };
const char *const agent_sweep_test_id[AGENT_SWEEP_TEST_COUNT] = { VDC_SWEEP_TESTS(TEST_NAME) };
const char *const agent_sweep_test_unit[AGENT_SWEEP_TEST_COUNT] = { VDC_SWEEP_TESTS(TEST_UNIT) };
const char *const agent_workload_test_id[AGENT_WORKLOAD_TEST_COUNT] = { VDC_WORKLOAD_TESTS(TEST_NAME) };
const char *const agent_workload_test_unit[AGENT_WORKLOAD_TEST_COUNT] = { VDC_WORKLOAD_TESTS(TEST_UNIT) };
#undef TEST_NAME
#undef TEST_UNIT

double
agent_sample_rate(const struct agent_sample *s)
{
    return s->elapsed_s > 0 ? s->amount / s->elapsed_s : 0;
}

static int
sample_printable(const struct agent_sample *s)
{
    return s->state == AGENT_DONE && s->elapsed_s > 0;
}

/* bon_time.cpp print_size(): @size in @units[0], moved up while it divides
 * by 1024 ("MG": 2048 -> "2G"); a trailing space unit is dropped. */
static void
print_size(char *buf, size_t len, uint64_t size, const char *units)
{
    int ind = 0;

    if (size == 0) {
        snprintf(buf, len, "%llu%c", 0ull, units[0]);
    } else {
        while (size % 1024 == 0 && units[ind + 1] != '\0') {
            size /= 1024;
            ind++;
        }
        snprintf(buf, len, "%llu%c", (unsigned long long)size, units[ind]);
    }
    size_t n = strlen(buf);
    if (n && buf[n - 1] == ' ')
        buf[n - 1] = '\0';
}

/* The -s size as bonnie++ prints it (MiB based), or "Nk" when it is not
 * a whole number of MiB (bonnie++ cannot express that). */
static void
print_file_size(char *buf, size_t len, uint64_t bytes)
{
    if (bytes % (1u << 20) == 0)
        print_size(buf, len, bytes >> 20, "MG");
    else
        snprintf(buf, len, "%lluk", (unsigned long long)(bytes >> 10));
}

static void
format_latency(char *buf, size_t len, double lat)
{
    if (lat <= 0)
        buf[0] = '\0';
    else if (lat > 99.999999)
        snprintf(buf, len, "%ds", (int)lat);
    else if (lat > 0.099999)
        snprintf(buf, len, "%dms", (int)(lat * 1000.0));
    else
        snprintf(buf, len, "%dus", (int)(lat * 1000000.0));
}

static int
cpu_percent_int(const struct agent_sample *s)
{
    return (int)(s->cpu_s / s->elapsed_s * 100.0);
}

/* ---- table ------------------------------------------------------------ */

static void
table_stat(FILE *fp, enum agent_test t, const struct agent_sample *s)
{
    if (!sample_printable(s)) {
        fputs("          ", fp);
        return;
    }
    if (s->elapsed_s < AGENT_MIN_TIME) {
        fputs(" +++++ +++", fp);
        return;
    }
    double stat = agent_sample_rate(s);

    if (t == AGENT_SEEKS) {
        fprintf(fp, stat >= 1000.0 ? " %5.0f" : " %5.1f", stat);
    } else if (t < AGENT_SEEKS) {
        if (stat < 10000.0) {
            fprintf(fp, " %4dk", (int)stat);
        } else if (stat / 1024.0 < 1000.0) {
            stat /= 1024.0;
            if (stat < 100.0)
                fprintf(fp, " %4.1fm", stat);
            else
                fprintf(fp, " %4dm", (int)(stat + 0.5));
        } else {
            fprintf(fp, " %4.1fg", stat / 1024.0 / 1024.0);
        }
    } else {
        fprintf(fp, " %5d", (int)stat);
    }
    fprintf(fp, " %3d", cpu_percent_int(s));
}

static void
table_latencies(FILE *fp, const struct agent_run *run, int from, int to)
{
    char buf[32];

    fputs("Latency          ", fp);
    for (int i = from; i < to; i++) {
        format_latency(buf, sizeof(buf),
                       run->s[i].state == AGENT_DONE ? run->s[i].latency_s : 0);
        fprintf(fp, " %9s", buf);
    }
    fputc('\n', fp);
}

static void
table_io(FILE *fp, const struct agent_config *cfg,
         const struct agent_meta *meta, const struct agent_run *run)
{
    char size_buf[128], tmp[32], name[32];
    const int txt_machine_size = 20;

    fprintf(fp, "Version %5s       ", vdc_agent_version);
    fputs("------Sequential Output------ --Sequential Input- --Random-\n", fp);
    fputs("                    ", fp);
    fputs("-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n", fp);
    fputs("Name:Size etc       ", fp);
    fputs(" /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n", fp);

    /* SIZE:CHUNK:CONCURRENCY:SEEKS:PROCS, trailing empty parts dropped */
    print_file_size(size_buf, sizeof(size_buf), cfg->file_size);
    const char *parts[4] = { "", "", "", "" };
    char seeks[16], procs[16];
    if (cfg->chunk_size != AGENT_DEFAULT_CHUNK) {
        print_size(tmp, sizeof(tmp), cfg->chunk_size, " km");
        parts[0] = tmp;
    }
    if (cfg->seeks != AGENT_DEFAULT_SEEKS) {
        snprintf(seeks, sizeof(seeks), "%u", cfg->seeks);
        parts[2] = seeks;
    }
    if (cfg->seek_procs != AGENT_DEFAULT_SEEK_PROCS) {
        snprintf(procs, sizeof(procs), "%u", cfg->seek_procs);
        parts[3] = procs;
    }
    int last = -1;
    for (int i = 0; i < 4; i++)
        if (*parts[i])
            last = i;
    for (int i = 0; i <= last; i++) {
        strncat(size_buf, ":", sizeof(size_buf) - strlen(size_buf) - 1);
        strncat(size_buf, parts[i], sizeof(size_buf) - strlen(size_buf) - 1);
    }

    /* machine name in 19 columns, the size right-aligned over its end */
    snprintf(name, (size_t)txt_machine_size - 1, "%s                  ",
             meta->hostname ? meta->hostname : "");
    int offset = txt_machine_size - (int)strlen(size_buf) - 2;
    if (offset < 0) {
        fputs(size_buf, fp);
    } else {
        name[offset] = '\0';
        fprintf(fp, "%s %s", name, size_buf);
    }
    for (int i = AGENT_PUTC; i <= AGENT_SEEKS; i++)
        table_stat(fp, (enum agent_test)i, &run->s[i]);
    fputc('\n', fp);
    table_latencies(fp, run, AGENT_PUTC, AGENT_SEEKS + 1);
}

static void
table_files(FILE *fp, const struct agent_config *cfg,
            const struct agent_meta *meta, const struct agent_run *run)
{
    char buf[128];
    int n;

    fprintf(fp, "Version %5s       ", vdc_agent_version);
    fputs("------Sequential Create------ --------Random Create--------\n", fp);
    fprintf(fp, "%-19.19s ", meta->hostname ? meta->hostname : "");
    fputs("-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n", fp);
    if (cfg->file_min_size)
        fputs("files:max:min       ", fp);
    else if (cfg->file_max_size)
        fputs("files:max           ", fp);
    else
        fputs("              files ", fp);
    fputs(" /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n", fp);
    n = snprintf(buf, sizeof(buf), "%u", cfg->files);
    if (cfg->file_max_size)
        n += snprintf(buf + n, sizeof(buf) - (size_t)n, ":%llu:%llu",
                      (unsigned long long)cfg->file_max_size,
                      (unsigned long long)cfg->file_min_size);
    if (cfg->file_dirs > 1)
        snprintf(buf + n, sizeof(buf) - (size_t)n, "/%u", cfg->file_dirs);
    fprintf(fp, "%19s", buf);
    for (int i = AGENT_SEQ_CREATE; i < AGENT_TEST_COUNT; i++)
        table_stat(fp, (enum agent_test)i, &run->s[i]);
    fputc('\n', fp);
    table_latencies(fp, run, AGENT_SEQ_CREATE, AGENT_TEST_COUNT);
}

static double
mib_per_s(const struct agent_sweep_sample *w)
{
    return w->elapsed_s > 0 ? (double)w->bytes / 1048576.0 / w->elapsed_s : 0;
}

static void
table_sweep(FILE *fp, const struct agent_config *cfg,
            const struct agent_run *run)
{
    char size[32];

    print_file_size(size, sizeof(size), cfg->file_size);
    fprintf(fp, "Sweep: sequential %s of %s at each block size (%s)\n",
            "write then read", size,
            cfg->sweep_direct ? "O_DIRECT" : "buffered");
    fputs("  block  op        MiB/s   user s    sys s  sys us/op   "
          "latency\n", fp);
    for (size_t i = 0; i < run->n_sweep; i++) {
        const struct agent_sweep_sample *w = &run->sweep[i];
        char lat[32];

        print_size(size, sizeof(size), w->block_size, " km");
        if (w->state != AGENT_DONE) {
            fprintf(fp, "%7s  %-5s  %s\n", size, w->is_write ? "write" : "read",
                    w->state == AGENT_FAILED ? "failed" : "not run");
            continue;
        }
        format_latency(lat, sizeof(lat), w->latency_s);
        fprintf(fp, "%7s  %-5s %9.1f%s %8.2f %8.2f %10.2f %9s\n", size,
                w->is_write ? "write" : "read", mib_per_s(w),
                w->elapsed_s < AGENT_MIN_TIME ? "*" : " ", w->user_s,
                w->system_s,
                w->ops ? w->system_s * 1e6 / (double)w->ops : 0.0, lat);
    }
    fputs("  (* = under 0.5 s: too fast to be precise)\n", fp);
}

void
agent_format_table(FILE *fp, const struct agent_config *cfg,
                   const struct agent_meta *meta, const struct agent_run *run)
{
    if (run->n_sweep) {
        table_sweep(fp, cfg, run);
        return;
    }
    if (cfg->n_job_files) {
        for (size_t i = 0; i < run->n_jobs; i++)
            agent_job_format_table(fp, run->jobs[i]);
        return;
    }
    if (cfg->file_size)
        table_io(fp, cfg, meta, run);
    if (cfg->files && !cfg->target_is_blockdev)
        table_files(fp, cfg, meta, run);
}

/* ---- CSV -------------------------------------------------------------- */

void
agent_format_csv_header(FILE *fp)
{
    fputs("format_version,bonnie_version,name,concurrency,seed,file_size,"
          "io_chunk_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,"
          "rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu",
          fp);
    fputs(",num_files,max_size,min_size,num_dirs,file_chunk_size,seq_create,"
          "seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,"
          "ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,"
          "ran_del_cpu", fp);
    fputs(",putc_latency,put_block_latency,rewrite_latency,getc_latency,"
          "get_block_latency,seeks_latency,seq_create_latency,"
          "seq_stat_latency,seq_del_latency,ran_create_latency,"
          "ran_stat_latency,ran_del_latency\n", fp);
}

static void
csv_stat(FILE *fp, enum agent_test t, const struct agent_sample *s)
{
    if (!sample_printable(s)) {
        fputs(",,", fp);
        return;
    }
    if (s->elapsed_s < AGENT_MIN_TIME) {
        fputs(",+++++,+++", fp);
        return;
    }
    double stat = agent_sample_rate(s);

    if (t == AGENT_SEEKS)
        fprintf(fp, stat >= 1000.0 ? ",%.0f" : ",%.1f", stat);
    else
        fprintf(fp, ",%d", (int)stat);
    fprintf(fp, ",%d", cpu_percent_int(s));
}

/* A field that must not hold a comma or newline. */
static void
csv_text(FILE *fp, const char *s)
{
    for (; s && *s; s++)
        fputc(*s == ',' || *s == '\n' || *s == '\r' ? '_' : *s, fp);
}

void
agent_format_csv(FILE *fp, const struct agent_config *cfg,
                 const struct agent_meta *meta, const struct agent_run *run)
{
    char buf[64];
    int do_io = cfg->file_size && !run->n_sweep && !cfg->n_job_files;
    int do_files = cfg->files && !cfg->target_is_blockdev && !run->n_sweep
                   && !cfg->n_job_files;

    fprintf(fp, AGENT_CSV_VERSION ",vmdiskcmp-agent-%s,", vdc_agent_version);
    csv_text(fp, meta->hostname);
    fprintf(fp, ",1,%llu", (unsigned long long)run->seed);
    if (do_io) {
        print_file_size(buf, sizeof(buf), cfg->file_size);
        fprintf(fp, ",%s,", buf);
        if (cfg->chunk_size != AGENT_DEFAULT_CHUNK) {
            print_size(buf, sizeof(buf), cfg->chunk_size, " km");
            fputs(buf, fp);
        }
        fprintf(fp, ",%u,%u", cfg->seeks, cfg->seek_procs);
        for (int i = AGENT_PUTC; i <= AGENT_SEEKS; i++)
            csv_stat(fp, (enum agent_test)i, &run->s[i]);
    } else {
        fputs(",,,,,,,,,,,,,,,,", fp);
    }
    if (do_files) {
        fprintf(fp, ",%u,", cfg->files);
        if (cfg->file_max_size)
            fprintf(fp, "%llu", (unsigned long long)cfg->file_max_size);
        fputc(',', fp);
        if (cfg->file_min_size)
            fprintf(fp, "%llu", (unsigned long long)cfg->file_min_size);
        fputc(',', fp);
        if (cfg->file_dirs > 1)
            fprintf(fp, "%u", cfg->file_dirs);
        fputc(',', fp);
        if (cfg->file_chunk_size != AGENT_DEFAULT_CHUNK) {
            print_size(buf, sizeof(buf), cfg->file_chunk_size, " km");
            fputs(buf, fp);
        }
        for (int i = AGENT_SEQ_CREATE; i < AGENT_TEST_COUNT; i++)
            csv_stat(fp, (enum agent_test)i, &run->s[i]);
    } else {
        fputs(",,,,,,,,,,,,,,,,,", fp);
    }
    for (int i = 0; i < AGENT_TEST_COUNT; i++) {
        int shown = (i <= AGENT_SEEKS ? do_io : do_files)
                    && run->s[i].state == AGENT_DONE;
        format_latency(buf, sizeof(buf), shown ? run->s[i].latency_s : 0);
        fprintf(fp, ",%s", buf);
    }
    fputc('\n', fp);
}

/* ---- JSON ------------------------------------------------------------- */

static void
json_str(FILE *fp, const char *s)
{
    if (!s) {
        fputs("null", fp);
        return;
    }
    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", fp); break;
        case '\\': fputs("\\\\", fp); break;
        case '\n': fputs("\\n", fp); break;
        case '\r': fputs("\\r", fp); break;
        case '\t': fputs("\\t", fp); break;
        default:
            if (*p < 0x20)
                fprintf(fp, "\\u%04x", *p);
            else
                fputc(*p, fp);
        }
    }
    fputc('"', fp);
}

/* A finite number with @prec decimals, else null. */
static void
json_num(FILE *fp, double v, int prec)
{
    if (isfinite(v))
        fprintf(fp, "%.*f", prec, v);
    else
        fputs("null", fp);
}

void
agent_json_str(FILE *fp, const char *s)
{
    json_str(fp, s);
}

void
agent_json_num(FILE *fp, double v, int prec)
{
    json_num(fp, v, prec);
}

static const char *
json_bool(int v)
{
    return v ? "true" : "false";
}

static void
json_metadata(FILE *fp, const struct agent_config *cfg,
              const struct agent_meta *meta, const struct agent_run *run)
{
    fprintf(fp, "      \"metadata\": {\"tool\": \"vmdiskcmp-agent %s\", "
            "\"hostname\": ", vdc_agent_version);
    json_str(fp, meta->hostname);
    fputs(", \"kernel\": ", fp);
    json_str(fp, meta->kernel);
    fputs(",\n        \"cpu_model\": ", fp);
    json_str(fp, meta->cpu_model);
    fprintf(fp, ", \"ram_mib\": %llu, \"date\": ",
            (unsigned long long)meta->ram_mib);
    json_str(fp, run->date);
    fputs(",\n        \"command_line\": ", fp);
    json_str(fp, meta->command_line);
    fprintf(fp, ",\n        \"seed\": \"%llu\", \"file_size_mib\": %llu, "
            "\"file_size_bytes\": %llu, \"chunk_size\": %u, \"seeks\": %u, "
            "\"seek_processes\": %u,\n", (unsigned long long)run->seed,
            (unsigned long long)(cfg->file_size >> 20),
            (unsigned long long)cfg->file_size, cfg->chunk_size, cfg->seeks,
            cfg->seek_procs);
    fprintf(fp, "        \"files\": {\"number\": %u, \"max_size\": %llu, "
            "\"min_size\": %llu, \"dirs\": %u, \"chunk_size\": %u},\n",
            cfg->files, (unsigned long long)cfg->file_max_size,
            (unsigned long long)cfg->file_min_size, cfg->file_dirs,
            cfg->file_chunk_size);
    fputs("        \"path\": ", fp);
    json_str(fp, meta->path);
    fputs(", \"fs_type\": ", fp);
    json_str(fp, meta->fs_type);
    fputs(", \"device\": ", fp);
    json_str(fp, meta->device);
    fprintf(fp, ",\n        \"direct_io\": %s, \"fsync_every_write\": %s, "
            "\"per_char\": \"%s\", \"per_char_size\": %llu,\n"
            "        \"sweep_direct_io\": %s, \"drop_caches\": %s, "
            "\"trace_digest\": \"%016llx\"},\n",
            json_bool(cfg->direct_io), json_bool(cfg->fsync_every_write),
            cfg->per_char == AGENT_PER_CHAR_STDIO ? "stdio" : "syscall",
            (unsigned long long)cfg->per_char_size,
            json_bool(cfg->sweep_direct), json_bool(cfg->drop_caches),
            (unsigned long long)run->digest);
}

static void
json_sample(FILE *fp, enum agent_test t, const struct agent_sample *s,
            const char *pass, int first)
{
    int ok = s->state == AGENT_DONE && s->elapsed_s > 0;

    fprintf(fp, "%s        {\"test\": \"%s\", ", first ? "" : ",\n", agent_test_id[t]);
    if (pass)
        fprintf(fp, "\"pass\": \"%s\", ", pass);
    fputs("\"value\": ", fp);
    if (ok)
        json_num(fp, agent_sample_rate(s), 3);
    else
        fputs("null", fp);
    fprintf(fp, ", \"unit\": \"%s\", \"cpu_percent\": ", agent_test_unit[t]);
    if (ok)
        json_num(fp, s->cpu_s / s->elapsed_s * 100.0, 1);
    else
        fputs("null", fp);
    fputs(", \"latency_us\": ", fp);
    if (s->state == AGENT_DONE && s->latency_s > 0)
        json_num(fp, s->latency_s * 1e6, 0);
    else
        fputs("null", fp);
    fputs(",\n         \"elapsed_s\": ", fp);
    if (s->state == AGENT_DONE)
        json_num(fp, s->elapsed_s, 6);
    else
        fputs("null", fp);
    fprintf(fp, ", \"too_fast\": %s, \"failed\": %s, \"error\": ",
            json_bool(ok && s->elapsed_s < AGENT_MIN_TIME),
            json_bool(s->state == AGENT_FAILED));
    json_str(fp, s->state == AGENT_FAILED ? s->error : NULL);
    fputc('}', fp);
}

static void
json_sweep_sample(FILE *fp, const struct agent_sweep_sample *w, const char *pass, int first)
{
    int ok = w->state == AGENT_DONE && w->elapsed_s > 0;
    enum agent_sweep_test t = w->is_write ? AGENT_SWEEP_WRITE : AGENT_SWEEP_READ;

    fprintf(fp, "%s        {\"test\": \"%s\", ", first ? "" : ",\n", agent_sweep_test_id[t]);
    if (pass)
        fprintf(fp, "\"pass\": \"%s\", ", pass);
    fprintf(fp, "\"block_size\": %u, \"value\": ", w->block_size);
    if (ok)
        json_num(fp, mib_per_s(w), 3);
    else
        fputs("null", fp);
    fprintf(fp, ", \"unit\": \"%s\", \"cpu_percent\": ", agent_sweep_test_unit[t]);
    if (ok)
        json_num(fp, (w->user_s + w->system_s) / w->elapsed_s * 100.0, 1);
    else
        fputs("null", fp);
    fputs(", \"latency_us\": ", fp);
    if (w->state == AGENT_DONE && w->latency_s > 0)
        json_num(fp, w->latency_s * 1e6, 0);
    else
        fputs("null", fp);
    fputs(",\n         \"elapsed_s\": ", fp);
    if (w->state == AGENT_DONE)
        json_num(fp, w->elapsed_s, 6);
    else
        fputs("null", fp);
    fputs(", \"user_s\": ", fp);
    json_num(fp, w->user_s, 6);
    fputs(", \"system_s\": ", fp);
    json_num(fp, w->system_s, 6);
    fputs(", \"system_us_per_op\": ", fp);
    json_num(fp, w->ops ? w->system_s * 1e6 / (double)w->ops : 0.0, 3);
    fprintf(fp, ", \"bytes\": %llu, \"ops\": %llu,\n         \"too_fast\": %s, "
            "\"failed\": %s, \"error\": ", (unsigned long long)w->bytes,
            (unsigned long long)w->ops,
            json_bool(ok && w->elapsed_s < AGENT_MIN_TIME),
            json_bool(w->state == AGENT_FAILED));
    json_str(fp, w->state == AGENT_FAILED ? w->error : NULL);
    fputc('}', fp);
}

void
agent_format_json(FILE *fp, const struct agent_config *cfg,
                  const struct agent_meta *meta,
                  const struct agent_run *runs, size_t n_runs)
{
    /* version 2 only when there are workload samples: a bonnie++ or sweep
     * run stays readable by version-1 readers */
    fprintf(fp, "{\n  \"format\": \"vmdiskcmp-result\",\n"
            "  \"format_version\": %d,\n"
            "  \"producer\": {\"name\": \"vmdiskcmp-agent\", "
            "\"version\": \"%s\"},\n",
            cfg->n_job_files ? 2 : 1, vdc_agent_version);
    if (meta->aging) {
        fputs("  \"targets\": [{\"name\": ", fp);
        json_str(fp, meta->target);
        fputs(",\n    \"aging\": ", fp);
        agent_aging_format_json(fp, meta->aging);
        fputs("}],\n", fp);
    }
    fputs("  \"runs\": [", fp);
    /* the passes of one repetition (--passes) are one run: its samples
     * name their pass */
    for (size_t r = 0, next; r < n_runs; r = next) {
        const struct agent_run *run = &runs[r], *failed = NULL;
        int first = 1;

        for (next = r + 1; next < n_runs && runs[next].pass &&
             runs[next].repetition == run->repetition; next++)
            ;
        for (size_t g = r; g < next && !failed; g++)
            if (runs[g].failed)
                failed = &runs[g];
        fprintf(fp, "%s\n    {\n      \"target\": ", r ? "," : "");
        json_str(fp, meta->target);
        fprintf(fp, ", \"repetition\": %d, \"status\": \"%s\", \"error\": ",
                run->repetition, failed ? "failed" : "ok");
        json_str(fp, failed ? failed->error : NULL);
        fputs(",\n", fp);
        json_metadata(fp, cfg, meta, run);
        fputs("      \"samples\": [\n", fp);
        for (size_t g = r; g < next; g++) {
            const struct agent_run *p = &runs[g];

            for (int i = 0; i < AGENT_TEST_COUNT; i++) {
                if (p->s[i].state == AGENT_NOT_RUN)
                    continue;
                json_sample(fp, (enum agent_test)i, &p->s[i], p->pass, first);
                first = 0;
            }
            for (size_t i = 0; i < p->n_sweep; i++) {
                if (p->sweep[i].state == AGENT_NOT_RUN)
                    continue;
                json_sweep_sample(fp, &p->sweep[i], p->pass, first);
                first = 0;
            }
            for (size_t i = 0; i < p->n_jobs; i++)
                agent_job_format_samples(fp, p->jobs[i], p->pass, &first);
        }
        fputs("\n      ]\n    }", fp);
    }
    fputs("\n  ]\n}\n", fp);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: renderers.  One result model (struct agent_run, agent.h),
 * three renderers chosen at output time; pure (write to a FILE *, which
 * may be an open_memstream), golden-file tested. */
#ifndef VDC_AGENT_FORMAT_H
#define VDC_AGENT_FORMAT_H

#include <stdio.h>

#include "agent.h"

/* bonnie++ 2.00a's CSV format version (field 1) and the number of fields
 * of one data line. */
#define AGENT_CSV_VERSION "1.98"
#define AGENT_CSV_FIELDS 50

/* The bonnie++ 2.00a human table for one run (bon_time.cpp DoReportIO and
 * DoReportFile, text mode): K/sec as "1234k", "12.3m", "123m", "1.2g";
 * seeks and file tests in /sec; %CP; "+++++"/"+++" for a test under
 * 0.5 s; blank for a test not run or failed; a Latency line under each
 * section.  The sweep table follows when the run has sweep samples. */
void agent_format_table(FILE *fp, const struct agent_config *cfg,
                        const struct agent_meta *meta,
                        const struct agent_run *run);

/* The header line bonnie++ prints before the data lines when -x > 1
 * (bon_time.cpp PrintHeader, verbatim: it names 48 columns although data
 * lines have 50; bon_csv2txt skips it). */
void agent_format_csv_header(FILE *fp);

/* One CSV data line: bonnie++ 2.00a, format 1.98, 50 fields, "\n"-ended.
 * Fields (1-based): 1 "1.98", 2 producer ("vmdiskcmp-agent-VERSION"),
 * 3 machine, 4 concurrency (1), 5 seed, 6 size ("512M", "2G"), 7 chunk
 * (blank when 8192), 8 seeks, 9 seeker processes, 10-21 rate and %CP of
 * putc put_block rewrite getc get_block seeks, 22-26 files (units of 1024),
 * max, min, dirs (blank when 1), file chunk (blank when 8192), 27-38 rate
 * and %CP of the six file tests, 39-50 latencies ("123us", "45ms", "2s").
 * Fields 6-21 are blank with -s 0 and 22-38 with -n 0, as bonnie++. */
void agent_format_csv(FILE *fp, const struct agent_config *cfg,
                      const struct agent_meta *meta,
                      const struct agent_run *run);

/* The result JSON (doc/result-format.md, format_version 1): format,
 * format_version, producer and one runs[] element per run. */
void agent_format_json(FILE *fp, const struct agent_config *cfg,
                       const struct agent_meta *meta,
                       const struct agent_run *runs, size_t n_runs);

/* JSON helpers shared by the renderers: a string (escaped; NULL gives
 * null) and a finite number with @prec decimals (else null). */
void agent_json_str(FILE *fp, const char *s);
void agent_json_num(FILE *fp, double v, int prec);

/* Rate of a sample in its unit (K/sec or /sec); 0 when elapsed is 0. */
double agent_sample_rate(const struct agent_sample *s);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: command-line options and sizes.  Pure: parses and
 * validates argv into struct agent_config without touching the target
 * (main checks the target, RAM and the 2x RAM rule afterwards). */
#ifndef VDC_AGENT_OPTIONS_H
#define VDC_AGENT_OPTIONS_H

#include <stdio.h>

#include "agent.h"

/* Set every field to bonnie++ 2.00a's default (agent.h). */
void agent_config_init(struct agent_config *cfg);

/* Parse a size: digits with an optional suffix k, m, g or t
 * (case-insensitive, binary multiples; bytes unit for a bare number is
 * @bare_unit, e.g. 1 or 1048576 as bonnie++ -s).  Stores bytes in *out.
 * Returns 0, or -1 on malformed input or overflow (no message). */
int agent_parse_size(const char *s, uint64_t bare_unit, uint64_t *out);

/* Parse an unsigned decimal (or 0x hex) 64-bit number, whole string; a
 * leading 0 is decimal, as fio reads numbers (010 is 10).
 * Returns 0 or -1. */
int agent_parse_u64(const char *s, uint64_t *out);

enum {
    AGENT_OPT_RUN = 0,      /* run the tests */
    AGENT_OPT_HELP = 1,     /* --help: print agent_usage, exit 0 */
    AGENT_OPT_VERSION = 2,  /* --version */
    AGENT_OPT_ERROR = -1,   /* bad input: @err holds one line */
};

/* Parse argv (getopt_long; resets getopt's state first, so it may be
 * called repeatedly).  On AGENT_OPT_ERROR, @err (size @errlen) holds one
 * line naming the input and what was expected, e.g.
 * "-s 12x: expected SIZE[:CHUNK]: MiB or N with suffix k, m, g". */
int agent_options_parse(int argc, char *argv[], struct agent_config *cfg,
                        char *err, size_t errlen);

/* Check the words vmdiskcmp's --agent-options hands the agent
 * (@argv[0] a name for getopt, @argv[1..@argc) the words, split as the
 * controller splits them), with the table agent_options_parse uses:
 * an option the controller or the runner sets in a run (-d, -s, -r, -x,
 * --seed, -z, --target, --repetition, --drop-caches, --destroy-data,
 * --json, --csv-file, --job, --workload, --progress-fd, --help,
 * --version) is refused naming what sets it; the others' values are
 * checked as the agent checks them.  Host and agent agree because this is
 * the agent's own parser.  Permutes @argv (getopt).  0, or -1 with @err
 * (size @errlen) holding one line, e.g. "-d: vmdiskcmp gives each target
 * its own directory or device (expected options vmdiskcmp does not set:
 * -n, ...)" or "-n x: expected NUM[:MAX...". */
int agent_options_check_extra(int argc, char *argv[], char *err, size_t errlen);

/* Print the --help text (every option, its argument and default). */
void agent_usage(FILE *fp);

#endif

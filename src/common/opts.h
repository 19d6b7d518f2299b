/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Options tables: one table per subcommand drives getopt_long, the
 * validation of every value and --help (fio's options.c as the model).
 * run, report, compare, import, prepare, cleanup and lab all parse with it.
 *
 * An entry names a member of the subcommand's options struct by offset and
 * says what its value is; vdc_opts_parse() fills the struct, refusing bad
 * input with one line (vdc_input_error: exit status 2) that names the
 * option as typed and what was expected:
 *   unknown option '--bogus': expected one of the options in 'vmdiskcmp run --help'
 *   --runs: expected a value (N)          -t: expected a value (NAME)
 *   --dry-run: takes no value (found '--dry-run=1')
 *   --runs '0': expected an integer from 1 to 1000
 *   option '--out' applies only to lab selftest run
 * A subcommand's own checks (contradictions between options, files that
 * must exist) follow the parse, in the subcommand. */
#ifndef VDC_COMMON_OPTS_H
#define VDC_COMMON_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    VDC_OPT_FLAG,       /* int, set to 1 */
    VDC_OPT_STR,        /* char *, replaced (g_free'd by vdc_opts_dispose) */
    VDC_OPT_STRV,       /* char **, appended: repeatable; NULL-terminated */
    VDC_OPT_ENUM,       /* char *, one of .choices ("a|b|c") */
    VDC_OPT_LIST,       /* char *, a comma list of .choices */
    VDC_OPT_UINT,       /* unsigned, decimal, within [.min, .max] */
    VDC_OPT_SIZE,       /* uint64_t bytes: N[K|M|G|T][i][B], a bare N in MiB, not 0;
                         * a multiple of .align and at most .max when they are set */
    VDC_OPT_CALL,       /* .parse does it, with its own message */
    VDC_OPT_HELP,       /* --help: the parse stops, returning VDC_OPTS_HELP */
} vdc_opt_type;

/* A UINT option given its .word instead of a number (--runs auto). */
#define VDC_OPT_WORD 0xffffffffu

typedef struct vdc_opt vdc_opt;
struct vdc_opt {
    const char *name;           /* the long name, without "--" */
    vdc_opt_type type;
    size_t off;                 /* offsetof(options struct, member) */
    const char *metavar;        /* the value in --help and messages (default: .choices) */
    const char *choices;        /* "a|b|c": ENUM and LIST */
    uint64_t min, max;          /* UINT: the range; SIZE: max bytes (0: none) */
    const char *word;           /* UINT: a word accepted instead of a number
                                 * ("auto"), stored as VDC_OPT_WORD */
    uint64_t align;             /* SIZE: a multiple of this many bytes (0: any) */
    const char *def;            /* the default, shown in --help as [DEF] */
    const char *help;
    const char *expect;         /* what a bad value should have been, when the
                                 * type's words do not fit: "image, lvm or dom0" */
    const char *scopes;         /* space-separated scopes it applies to; NULL: all */
    char short_name;            /* one-letter alias, or 0 */
    int empty_ok;               /* STR: '' is a value (the subcommand checks it) */
    int repeatable;             /* CALL: may be given more than once (each call
                                 * adds); every other single-valued type
                                 * (STR, ENUM, LIST, UINT, SIZE, CALL) given
                                 * twice is refused: one value, never the last
                                 * silently.  STRV is repeatable, FLAG may repeat. */
    /* CALL: parse @arg into @opts (the whole struct; the member is at .off);
     * 0, or -1 after one vdc_input_error */
    int (*parse)(void *opts, const vdc_opt *d, const char *arg);
};

typedef enum {
    VDC_OPERANDS_NONE,          /* options only: an operand is bad input */
    VDC_OPERANDS_ANYWHERE,      /* operands may stand between options */
    VDC_OPERANDS_AFTER,         /* the options stop at the first operand or "--" */
} vdc_operands;

typedef struct {
    const char *command;        /* "run": named in messages ('vmdiskcmp run --help') */
    const char *prefix;         /* before every message: "import: "; NULL: none */
    const vdc_opt *table;
    size_t n;
    vdc_operands operands;
    const char *scope;          /* the scope being parsed; NULL: every option applies */
    const char *scope_label;    /* before a scope's name in messages: "lab " */
    const char *usage;          /* --help before the options (usage lines, prose) */
    const char *epilogue;       /* --help after them; NULL: none */
} vdc_opts_spec;

typedef enum {
    VDC_OPTS_ERROR = -1,        /* bad input, one vdc_input_error line printed */
    VDC_OPTS_OK = 0,
    VDC_OPTS_HELP = 1,          /* --help was given: print vdc_opts_help, exit 0 */
} vdc_opts_result;

/* Parse argv[1..argc-1] (argv[0] names the command, as getopt expects) into
 * @opts (zeroed by the caller; members already set are replaced, STRV
 * appended).  *@first (may be NULL) gets the index of the first operand;
 * *@dashdash (may be NULL) whether "--" ended the options.  getopt_long's
 * rules: --name=VALUE or --name VALUE, unambiguous abbreviations, short
 * clusters (-qh). */
vdc_opts_result vdc_opts_parse(const vdc_opts_spec *spec, void *opts, int argc, char **argv,
                               int *first, int *dashdash);

/* --help: .usage, one entry per option of the scope ("  --name METAVAR  help
 * [default]"; with no scope, each option's scopes in brackets), .epilogue;
 * every line at most VDC_OPTS_HELP_WIDTH characters: an option's help
 * wrapped under its help column, an option wider than the column on a line
 * of its own, a longer line of .usage or .epilogue wrapped two blanks past
 * its own indent. */
#define VDC_OPTS_HELP_WIDTH 100
void vdc_opts_help(const vdc_opts_spec *spec, FILE *f);

/* Free the STR, ENUM, LIST and STRV members of @opts; safe to call twice. */
void vdc_opts_dispose(const vdc_opts_spec *spec, void *opts);

/* Does the "a|b|c" list @choices hold @v? */
int vdc_opts_in_choices(const char *choices, const char *v);

#endif

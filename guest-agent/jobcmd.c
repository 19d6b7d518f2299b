/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command lines of a benchmark step (jobcmd.h). */
#include "config.h"
#include "guest-agent/jobcmd.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int
fail(struct vdc_ctl_error *err, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    va_end(ap);
    return -1;
}

static void
start(struct vdc_jobcmd *c)
{
    c->argc = 0;
    c->used = 0;
    c->argv[0] = NULL;
}

/* Append the word @w (pointed to, not copied: the caller's strings must
 * outlive @c; exec never writes them). */
static int
add(struct vdc_jobcmd *c, char *w, struct vdc_ctl_error *err)
{
    if (c->argc >= VDC_JOBCMD_MAX_WORDS)
        return fail(err, "%s: more than %u words", c->argv[0] ? c->argv[0] : "command",
                    VDC_JOBCMD_MAX_WORDS);
    c->argv[c->argc++] = w;
    c->argv[c->argc] = NULL;
    return 0;
}

/* A copy of @fmt's output in c->words, or NULL after @err. */
static char *
word(struct vdc_jobcmd *c, struct vdc_ctl_error *err, const char *fmt, ...)
{
    size_t room = sizeof(c->words) - c->used;
    char *w = c->words + c->used;
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(w, room, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= room) {
        fail(err, "command line longer than %zu bytes", sizeof(c->words));
        return NULL;
    }
    c->used += (size_t)n + 1;
    return w;
}

int
vdc_jobcmd_mkfs(struct vdc_jobcmd *c, const char *type, const char *options, const char *dev,
                struct vdc_ctl_error *err)
{
    char *opts, *tok, *save = NULL;

    start(c);
    if (!type || !*type || !dev || !*dev)
        return fail(err, "mkfs: expected a filesystem type and a device");
    if (!(tok = word(c, err, "mkfs.%s", type)) || add(c, tok, err) < 0)
        return -1;
    if (options) {
        if (!(opts = word(c, err, "%s", options)))
            return -1;
        for (tok = strtok_r(opts, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
            if (add(c, tok, err) < 0)
                return -1;
    }
    return add(c, (char *)dev, err);
}

int
vdc_jobcmd_add_words(struct vdc_jobcmd *c, const char *words, struct vdc_ctl_error *err)
{
    char *w, *tok, *save = NULL;

    if (!words || !*words)
        return 0;
    if (!(w = word(c, err, "%s", words)))
        return -1;
    for (tok = strtok_r(w, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        if (add(c, tok, err) < 0)
            return -1;
    return 0;
}

int
vdc_jobcmd_agent(struct vdc_jobcmd *c, const char *agent, const char *dir, const char *target,
                 uint64_t seed, uint32_t rep, const char *json, char *const *args,
                 size_t n_args, struct vdc_ctl_error *err)
{
    char *s, *r;
    size_t i;

    start(c);
    if (!agent || !*agent || !dir || !*dir || !target || !*target || !json || !*json)
        return fail(err, "agent: expected the agent, a directory, a target name and a JSON path");
    if (!(s = word(c, err, "%llu", (unsigned long long)seed)) ||
        !(r = word(c, err, "%u", (unsigned)rep)))
        return -1;
    if (add(c, (char *)agent, err) < 0 || add(c, (char *)"-d", err) < 0 ||
        add(c, (char *)dir, err) < 0 || add(c, (char *)"--target", err) < 0 ||
        add(c, (char *)target, err) < 0 || add(c, (char *)"--seed", err) < 0 ||
        add(c, s, err) < 0 || add(c, (char *)"--repetition", err) < 0 || add(c, r, err) < 0 ||
        add(c, (char *)"--json", err) < 0 || add(c, (char *)json, err) < 0)
        return -1;
    for (i = 0; i < n_args; i++)
        if (add(c, args[i], err) < 0)
            return -1;
    return 0;
}

int
vdc_jobcmd_workloads(struct vdc_jobcmd *c, const char *agent, const char *dir, const char *target,
                     uint64_t seed, uint32_t rep, const char *json, char *const *args,
                     size_t n_args, char *const *files, size_t n_files, struct vdc_ctl_error *err)
{
    size_t i;

    if (vdc_jobcmd_agent(c, agent, dir, target, seed, rep, json, args, n_args, err) < 0)
        return -1;
    if (n_files == 0)
        return fail(err, "agent: a workload pass without job files");
    for (i = 0; i < n_files; i++)
        if (!files[i] || !*files[i] || add(c, (char *)"--job", err) < 0 ||
            add(c, files[i], err) < 0)
            return files[i] && *files[i] ? -1 : fail(err, "agent: an empty job file path");
    return 0;
}

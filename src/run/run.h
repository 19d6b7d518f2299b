/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run: provision -> prepare guest -> per boot (fresh control disk, boot
 * the domU with every target attached, wait with a timeout, read results,
 * destroy) and dom0 baseline steps, in plan order -> result.json -> report.
 * Everything created goes on the undo journal (run/journal.h) first and is
 * torn down in reverse order on success, failure and SIGINT/SIGTERM.
 *
 * Every external effect goes through a vdc_run_env (run/env.h), so the flow
 * tests (tests/unit/test_flow.c) swap in mocks and inject failures at each
 * step.  What is checked before anything is made: run/preflight.h; undo and
 * `vmdiskcmp cleanup`: run/undo.h. */
#ifndef VDC_RUN_RUN_H
#define VDC_RUN_RUN_H

#include "plan/plan.h"
#include "run/env.h"
#include "run/state.h"

/* Run @p.  Creates p->out_dir (must not exist), the journal, plan.json,
 * result.json, runs/, logs/.  Returns VDC_EXIT_OK, VDC_EXIT_FAILURE (a run
 * or a step failed; results of the others are kept) or
 * VDC_EXIT_INTERRUPTED.  Teardown has happened when it returns. */
int vdc_run_plan(vdc_plan *p, const vdc_run_settings *s, const vdc_run_env *env);

#endif

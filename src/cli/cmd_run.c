/* Placeholder until Plan, hypervisor drivers, run, cleanup (issue 4): src/plan, src/hv, src/run lands. */
#include "config.h"
#include "cli/commands.h"
#include "common/util.h"

int vdc_cmd_run(int argc, char **argv) { vdc_error("run: not implemented yet"); return VDC_EXIT_FAILURE; }
int vdc_cmd_cleanup(int argc, char **argv) { vdc_error("cleanup: not implemented yet"); return VDC_EXIT_FAILURE; }

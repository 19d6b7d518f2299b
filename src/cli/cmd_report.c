/* Placeholder until Statistics and reports (issue 3): src/stats, src/report lands. */
#include "config.h"
#include "cli/commands.h"
#include "common/util.h"

int vdc_cmd_report(int argc, char **argv) { vdc_error("report: not implemented yet"); return VDC_EXIT_FAILURE; }
int vdc_cmd_compare(int argc, char **argv) { vdc_error("compare: not implemented yet"); return VDC_EXIT_FAILURE; }

/* Placeholder until the results area lands (issue 3). */
#include "config.h"
#include "cli/commands.h"
#include "common/util.h"

int vdc_cmd_import(int argc, char **argv)  { vdc_error("import: not implemented yet"); return VDC_EXIT_FAILURE; }
int vdc_cmd_compare(int argc, char **argv) { vdc_error("compare: not implemented yet"); return VDC_EXIT_FAILURE; }
int vdc_cmd_report(int argc, char **argv)  { vdc_error("report: not implemented yet"); return VDC_EXIT_FAILURE; }

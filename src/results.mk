# Results area (issue 3): result model, importers, statistics, reports.
noinst_LIBRARIES += src/libvdc-results.a
src_libvdc_results_a_SOURCES = \
	src/cli/cmd_results.c

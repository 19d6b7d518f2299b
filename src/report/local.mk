# Statistics and reports (issue 3): src/stats, src/report
src_libvdc_results_a_SOURCES += src/cli/cmd_report.c
src_libvdc_results_a_SOURCES += src/stats/stats.c src/stats/stats.h

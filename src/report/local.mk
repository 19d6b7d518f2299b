# Statistics and reports (issue 3): src/stats, src/report
src_libvdc_results_a_SOURCES += src/cli/cmd_report.c
src_libvdc_results_a_SOURCES += src/stats/stats.c src/stats/stats.h
src_libvdc_results_a_SOURCES += \
	src/report/analysis.c src/report/analysis.h \
	src/report/artefacts.c src/report/artefacts.h \
	src/report/render.h src/report/render_util.c src/report/render_util.h \
	src/report/render_text.c src/report/render_markdown.c src/report/render_compare.c \
	src/report/render_csv.c src/report/render_html.c src/report/render_workload.c
src_libvdc_results_a_SOURCES += src/stats/paired.c src/stats/paired.h
src_libvdc_results_a_SOURCES += src/report/report_dir.c src/report/report_dir.h
src_libvdc_results_a_SOURCES += src/report/headline.c src/report/headline.h
src_libvdc_results_a_SOURCES += src/report/render_headline.c

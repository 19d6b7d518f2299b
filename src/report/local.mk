# SPDX-License-Identifier: GPL-2.0-or-later
# src/report: the analysis (flags and warnings decided), the renderers (text,
# Markdown, compare, CSV, JSON, HTML) and the report directory library.
src_libvdc_results_a_SOURCES += \
	src/report/analysis.c src/report/analysis.h \
	src/report/artefacts.c src/report/artefacts.h \
	src/report/render.h src/report/render_util.c src/report/render_util.h \
	src/report/render_text.c src/report/render_markdown.c src/report/render_compare.c \
	src/report/render_csv.c src/report/render_html.c src/report/render_workload.c \
	src/report/report_dir.c src/report/report_dir.h \
	src/report/headline.c src/report/headline.h src/report/render_headline.c \
	src/report/hostcost.c src/report/hostcost.h src/report/render_hostcost.c \
	src/report/fleet.c src/report/fleet.h

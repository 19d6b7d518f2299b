# SPDX-License-Identifier: GPL-2.0-or-later
# src/report: the analysis (flags and warnings decided), the renderers (text,
# Markdown, compare, CSV, JSON, HTML) and the report directory library.
src_libvdc_results_a_SOURCES += \
	src/report/analysis.c src/report/analysis_reasons.c src/report/analysis.h \
	src/report/artefacts.c src/report/artefacts.h \
	src/report/headline.c src/report/headline.h src/report/headline_welch.c \
	src/report/ranking.c src/report/ranking.h \
	src/report/density.c src/report/density.h src/report/density_host.c \
	src/report/answer.c src/report/answer_groups.c src/report/answer_fixes.c src/report/answer_dom0.c src/report/answer_density.c src/report/answer_variants.c src/report/answer.h src/report/render_answer.c src/report/render_answer.h \
	src/report/hostcost.c src/report/hostcost.h \
	src/report/reading.c src/report/reading.h src/report/layout.c src/report/layout.h \
	src/report/formats.c src/report/formats.h \
	src/report/render.h \
	src/report/render_fmt.c src/report/render_fmt.h \
	src/report/render_escape.c src/report/render_escape.h \
	src/report/render_warnings.c src/report/render_warnings.h \
	src/report/render_meta.c src/report/render_meta.h \
	src/report/render_json.c src/report/render_json.h \
	src/report/render_text.c src/report/render_markdown.c src/report/render_compare.c \
	src/report/render_csv.c src/report/render_workload.c \
	src/report/render_html.c src/report/render_chart.c src/report/render_chart.h \
	src/report/render_svg.c src/report/render_svg.h \
	src/report/render_headline.c src/report/render_headline.h \
	src/report/render_hostcost.c src/report/render_hostcost.h \
	src/report/render_density.c src/report/render_density.h src/report/render_density_html.c \
	src/report/render_density_host.c \
	src/report/report_dir.c src/report/report_dir.h \
	src/report/fleet.c src/report/fleet.h

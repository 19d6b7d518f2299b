# SPDX-License-Identifier: GPL-2.0-or-later
# src/model: the versioned result model (doc/result-format.md) and its JSON.
src_libvdc_results_a_SOURCES += \
	src/model/result.h src/model/result_fields.h \
	src/model/result.c src/model/result_json.c src/model/result_workload.c \
	src/model/result_levels.c \
	src/model/target.h src/model/target.c \
	src/model/knobs.h src/model/knobs.c

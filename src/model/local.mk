# SPDX-License-Identifier: GPL-2.0-or-later
# src/model: the versioned result model (doc/result-format.md) and its JSON.
src_libvdc_results_a_SOURCES += \
	src/model/result.h src/model/result_fields.h src/model/result_workload.h \
	src/model/result.c src/model/result_fields.c src/model/result_load.c \
	src/model/result_save.c src/model/json_writer.c src/model/result_workload.c \
	src/model/result_load.h src/model/result_load_target.c src/model/result_host.c \
	src/model/result_levels.c \
	src/model/target.h src/model/target.c \
	src/model/knobs.h src/model/knobs.c

# Importers and result model (issue 3): src/model, src/import
src_libvdc_results_a_SOURCES += src/cli/cmd_import.c \
	src/model/result.h src/model/result_fields.h \
	src/model/result.c src/model/result_json.c src/model/result_workload.c \
	src/model/target.h src/model/target.c \
	src/import/import.h src/import/import_priv.h \
	src/import/import.c src/import/bonnie_csv.c src/import/bonnie_text.c src/import/dd.c src/import/fio_json.c

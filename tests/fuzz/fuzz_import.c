/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target for the importers (src/import) and the result JSON
 * loader (src/model).  Built four times with FUZZ_FORMAT set to one of
 * VDC_IMPORT_JSON, VDC_IMPORT_CSV, VDC_IMPORT_TABLE, VDC_IMPORT_AUTO (see
 * tests/import.mk and doc/fuzzing.md).
 *
 * VDC_IMPORT_DD: the dd transcript reader; VDC_IMPORT_FIO: fio's JSON output.  The group-by mode and whether
 * --target is given are taken from the input's size (not its bytes), so
 * every input is tried under one of the six settings.
 *
 * Besides the sanitizers (ASan, UBSan), it checks one invariant: whatever
 * an importer accepts must be a valid result document, i.e. save then
 * load succeeds and saving again gives the same text. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "import/import.h"
#include "model/result.h"

#ifndef FUZZ_FORMAT
#define FUZZ_FORMAT VDC_IMPORT_AUTO
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vdc_result_set rs, back;
    char *a, *b;
    size_t la, lb;

    if (size > 1 << 20)
        return 0;
    vdc_result_set_init(&rs);
    if (vdc_import_data_grouped(&rs, (const char *)data, size, "fuzz",
                                (size & 4) && FUZZ_FORMAT != VDC_IMPORT_JSON ? NULL : "t",
                                FUZZ_FORMAT, (vdc_group_by)(size % 3)) < 0) {
        /* nothing imported from a bad input */
        if (rs.n_runs || rs.n_targets)
            abort();
        vdc_result_set_dispose(&rs);
        return 0;
    }
    a = vdc_result_set_to_string(&rs, &la);
    vdc_result_set_init(&back);
    if (vdc_result_set_load_data(&back, a, la, "fuzz-saved") < 0) {
        fprintf(stderr, "imported set does not load back:\n%s\n", a);
        abort();
    }
    b = vdc_result_set_to_string(&back, &lb);
    if (la != lb || memcmp(a, b, la)) {
        fprintf(stderr, "save/load/save differs:\n%s\n---\n%s\n", a, b);
        abort();
    }
    g_free(a);
    g_free(b);
    vdc_result_set_dispose(&back);
    vdc_result_set_dispose(&rs);
    return 0;
}

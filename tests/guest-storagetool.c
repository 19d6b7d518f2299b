/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper for tests/integration/guest-storage.sh: drive the storage
 * kinds (src/storage) on real files and block devices.
 *   guest-storagetool image PATH SIZE raw|qcow2 sparse|falloc|full|metadata [CLUSTER]
 *   guest-storagetool image-destroy PATH      (as `cleanup` would, twice)
 *   guest-storagetool block DEV [consent] [force]
 *   guest-storagetool lvm VG LV SIZE [STRIPES [STRIPE_SIZE]]
 *       create (tagged), print describe(), destroy: the real libblockdev
 *       path, for hosts with device-mapper (the emulated Xen lab)
 * create prints describe() as one JSON line.  Exit 0 ok, 1 refused/failed
 * (one message on stderr), 2 bad arguments. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "common/util.h"
#include "storage/storage.h"

static void
print_describe(const struct vdc_storage *st)
{
    JsonObject *o = vdc_storage_describe(st);
    JsonNode *n = json_node_init_object(json_node_alloc(), o);
    char *s = json_to_string(n, FALSE);

    printf("%s\n", s);
    g_free(s);
    json_node_unref(n);
    json_object_unref(o);
}

int
main(int argc, char **argv)
{
    struct vdc_storage_spec spec = { 0 };
    struct vdc_storage st;
    uint64_t stripes = 0;
    int i, rc;

    vdc_storage_init(&st);
    if ((argc == 6 || argc == 7) && !strcmp(argv[1], "image")) {
        spec.target.backing = VDC_BACKING_IMAGE;
        spec.name = "image";
        spec.path = argv[2];
        int format = vdc_target_parse(VDC_DIM_IMAGE_FORMAT, argv[4]);
        int alloc = vdc_target_parse(VDC_DIM_IMAGE_ALLOC, argv[5]);

        if (vdc_parse_size(argv[3], 1, &spec.size_bytes) < 0 || format < 0 || alloc < 0 ||
            (argc == 7 && vdc_parse_size(argv[6], 1, &spec.cluster_size) < 0))
            return 2;
        spec.target.format = format;
        spec.target.alloc = alloc;
    } else if (argc == 3 && !strcmp(argv[1], "image-destroy")) {
        if (vdc_storage_from_journal(VDC_BACKING_IMAGE, argv[2], NULL, NULL, &st) < 0)
            return 1;
        rc = vdc_storage_destroy(&st) < 0 || vdc_storage_destroy(&st) < 0;
        vdc_storage_dispose(&st);
        return rc;
    } else if (argc >= 3 && !strcmp(argv[1], "block")) {
        spec.target.backing = VDC_BACKING_BLOCK;
        spec.name = "block";
        spec.path = argv[2];
        for (i = 3; i < argc; i++) {
            if (!strcmp(argv[i], "consent"))
                spec.consent = 1;
            else if (!strcmp(argv[i], "force"))
                spec.force = 1;
            else
                return 2;
        }
    } else if ((argc >= 5 && argc <= 7) && !strcmp(argv[1], "lvm")) {
        spec.target.backing = VDC_BACKING_LVM;
        spec.name = "lvm";
        spec.vg = argv[2];
        spec.lv = argv[3];
        if (vdc_parse_size(argv[4], 1, &spec.size_bytes) < 0 ||
            (argc >= 6 && vdc_parse_size(argv[5], 1, &stripes) < 0) ||
            (argc == 7 && vdc_parse_size(argv[6], 1, &spec.stripe_size) < 0))
            return 2;
        spec.stripes = (unsigned)stripes;
    } else {
        fprintf(stderr, "usage: guest-storagetool image PATH SIZE FORMAT ALLOC [CLUSTER] | image-destroy PATH | block DEV [consent] [force] | lvm VG LV SIZE [STRIPES [STRIPE_SIZE]]\n");
        return 2;
    }
    if (vdc_storage_create(&spec, &st) < 0)
        return 1;
    print_describe(&st);
    /* block: destroy is a no-op and must leave the device alone;
     * lvm: remove what we made, twice (idempotent) */
    if ((spec.target.backing == VDC_BACKING_BLOCK || spec.target.backing == VDC_BACKING_LVM) &&
        (vdc_storage_destroy(&st) < 0 || vdc_storage_destroy(&st) < 0))
        return 1;
    vdc_storage_dispose(&st);
    return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The facts a result is recorded with (table facts, doc/store.md "Facts"),
 * and what changed between two results' facts: the label of a history
 * step.  Pure functions over the result model; no SQLite. */
#ifndef VDC_STORE_FACTS_H
#define VDC_STORE_FACTS_H

#include <glib.h>

#include "model/result.h"

/* One fact: a stable name ("host.kernel", "xen.version",
 * "target.image.backend") and its value as text. */
struct vdc_fact {
    char *name;
    char *value;
};

/* The facts of @rs, sorted by name, into a new array of struct vdc_fact
 * (g_array_unref frees it and the strings): the host (kernel, dom0
 * command line, CPU, RAM, mkfs), the disk under the images, the
 * hypervisor and the versions of Xen, libxl, QEMU and libvirt, the guest
 * (memory, vCPUs, kernel, agent), the settings (runs, order, emulated,
 * vmdiskcmp's version and build) and per target its kind, the backend
 * and cache read back, what was requested, the storage, filesystem, test
 * file sizes and placement disk.  Absent members give no fact.  The names
 * are listed in doc/store.md. */
GArray *vdc_facts_of(const vdc_result_set *rs);

/* Append a fact (copies) to @facts, an array of vdc_facts_of's kind; NULL
 * or empty values are skipped.  Keep it sorted with vdc_facts_sort. */
void vdc_facts_add(GArray *facts, const char *name, const char *value);
void vdc_facts_sort(GArray *facts);
/* A new empty array of facts (g_array_unref). */
GArray *vdc_facts_new(void);

/* What group a fact belongs to in a step's label: "kernel", "Xen", "QEMU",
 * "libvirt", "hypervisor", "disk", "host", "guest", "backend", "settings",
 * "vmdiskcmp". */
const char *vdc_fact_group(const char *name);

/* What changed from facts @before to facts @after (both sorted), for a
 * pair of targets @target and @reference (the facts of other targets are
 * left out; NULL: all), as one line: "kernel 6.1.0-27-amd64 → 6.1.0-28-amd64;
 * Xen 4.17.0 → 4.17.7; image backend phy → file" in group order (kernel,
 * Xen, QEMU, libvirt, hypervisor, disk, host, guest, backend, settings,
 * vmdiskcmp), a fact absent on one side shown as "-", long values cut;
 * "" when nothing recorded changed.  *@groups (may be NULL) gets the
 * groups that changed, comma-separated ("kernel,Xen").  g_free both. */
char *vdc_facts_changes(const GArray *before, const GArray *after, const char *target,
                        const char *reference, char **groups);

#endif

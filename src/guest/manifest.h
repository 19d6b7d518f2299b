/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A guest image's manifest (IMAGE.manifest beside it, a GKeyFile;
 * doc/guest-template.md): the boot facts of a template ([boot]: kernel,
 * initrd, command lines, the least memory it runs in) and, for a prepared
 * image, what it was prepared with ([prepared]: the template, the agent's
 * and the runner's digests, the cache key, the init system).  Untrusted
 * input: a malformed manifest is refused in one line naming the key. */
#ifndef VDC_GUEST_MANIFEST_H
#define VDC_GUEST_MANIFEST_H

#include <stdint.h>

/* Where a prepared image holds the agent and the runner. */
#define VDC_GUEST_AGENT_PATH  "/usr/lib/vmdiskcmp/vmdiskcmp-agent"
#define VDC_GUEST_RUNNER_PATH "/usr/lib/vmdiskcmp/vmdiskcmp-runner"

/* The prepared guest (output; strings owned, g_malloc). */
struct vdc_prepared {
    char *image;                 /* cache_dir/KEY/guest.img: the prepared root disk */
    char *key;                   /* cache key, 64 hex digits */
    char *template_path;         /* a prepared image's manifest: the template it was
                                    prepared from, as given to prepare; else NULL */
    char *template_sha256;
    char *agent_sha256;
    char *runner_sha256;
    char *init_system;           /* "busybox", "sysvinit" or "systemd" */
    int cache_hit;               /* 1: found in the cache, no appliance launched */
    /* boot facts from the template manifest (absolute paths, copied into the
     * cache entry so the prepared guest is self-contained) */
    char *kernel;
    char *initrd;
    char *cmdline_xen;           /* for a Xen PV domU (root on xvda, console hvc0) */
    char *cmdline_kvm;           /* for KVM/QEMU (root on vda, console ttyS0) */
    int64_t min_memory_mib;      /* [boot] min_memory_mib: the least domU memory, in MiB,
                                    this kernel and initrd boot and run the agent in
                                    (measured by the template's builder); 0: not stated */
};

void vdc_prepared_init(struct vdc_prepared *p);
void vdc_prepared_dispose(struct vdc_prepared *p);   /* safe twice */

/* Load a guest template's manifest (IMAGE.manifest: [boot] kernel,
 * initrd as absolute paths, cmdlines; [prepared] too when the template is
 * itself a prepared image), touching no image.  0, or -1 after
 * vdc_input_error. */
int vdc_template_load(const char *image, struct vdc_prepared *out);

/* Load what a prepared image's manifest (IMAGE.manifest beside it, as
 * written by vdc_prepare in the cache and beside --out) records, without
 * touching the image.  0, or -1 after vdc_error. */
int vdc_prepared_load(const char *image, struct vdc_prepared *out);

/* Before a run creates anything: @image's manifest (IMAGE.manifest) loads,
 * and the boot files it names exist and are readable: the kernel when
 * @kernel, the initrd when @initrd (not when --kernel/--initrd replace
 * them).  0, or -1 after one vdc_input_error naming the manifest's key. */
int vdc_guest_manifest_check(const char *image, int kernel, int initrd);

/* Load @image's manifest into @out (initialised by the caller); *@is_prepared
 * is set to 1 when it has a [prepared] section.  0, or -1 after
 * vdc_input_error. */
int vdc_manifest_load(const char *image, struct vdc_prepared *out, int *is_prepared);

/* Write IMAGE.manifest for the prepared guest @p (prepared from
 * @template_path; its boot files named @kernel_rel and @initrd_rel
 * relative to @image's directory).  0, or -1 after vdc_error. */
int vdc_manifest_write(const char *image, const struct vdc_prepared *p, const char *template_path,
                       const char *kernel_rel, const char *initrd_rel);

#endif

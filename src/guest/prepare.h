/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp guest preparation: install the static agent and the runner into
 * a copy of a guest template, once per (template, agent, runner) build, with
 * libguestfs; then every run boots the prepared image read-only and talks to
 * the runner only through the control disk (guest-agent/ctldisk.h).
 * Documented in doc/guest-template.md.
 *
 * A template is a raw disk image holding one filesystem (whole disk or
 * first partition) plus a manifest beside it, TEMPLATE.manifest (INI,
 * GKeyFile): [boot] kernel=, initrd=, cmdline_xen=, cmdline_kvm= (paths
 * relative to the manifest's folder), root_mode=ro.  The prepared image
 * keeps the template's format (raw) so Xen blkback, qdisk and virtio can
 * all serve it; the guest mounts its root read-only, so one prepared image
 * serves any number of runs and domUs at once.
 *
 * The folder's public face: this header, with the manifest's
 * (guest/manifest.h: the prepared guest, its manifest) and the
 * appliance's (guest/appliance.h: the libguestfs sessions, the guest's
 * logs after a failure); guest/control.h is the control disk's. */
#ifndef VDC_GUEST_PREPARE_H
#define VDC_GUEST_PREPARE_H

#include <signal.h>
#include <stdint.h>

#include "guest/appliance.h"
#include "guest/manifest.h"

#define VDC_PREPARE_DEFAULT_CACHE "/var/cache/vmdiskcmp"

struct vdc_prepare_opts {
    const char *template_path;   /* guest template image (raw) */
    const char *agent_path;      /* static vmdiskcmp-agent */
    const char *runner_path;     /* static vmdiskcmp-runner */
    const char *cache_dir;       /* NULL: VDC_PREPARE_DEFAULT_CACHE */
    const char *out_path;        /* optional: also copy the prepared image here */
    int launch_timeout_s;        /* libguestfs appliance launch; 0: 600 */
    /* set (non-zero) by the caller's SIGINT/SIGTERM handler; NULL: not
     * interruptible.  Polled every 100 ms while the appliance works and
     * between steps: when set, the libguestfs process group (QEMU
     * included) is terminated, the half-built cache entry and libguestfs's
     * temporary files are removed, and vdc_prepare fails with
     * "interrupted" (the cache is never half-written: entries are renamed
     * into place whole). */
    volatile sig_atomic_t *stop;
};

/* Prepare (or find in the cache) the guest image for @o.  The cache entry
 * cache_dir/KEY/ holds guest.img, guest.img.manifest, vmlinuz, initrd.img; it
 * is built in a temporary folder and renamed into place, so a crash never
 * leaves a half entry.  A template that is itself a prepared image (its
 * manifest has a [prepared] section whose agent and runner digests match
 * @o's) is used as is, with no appliance: this is how a prepared image made
 * on another machine (`vmdiskcmp prepare --out`) is reused, e.g. inside the
 * emulated Xen lab where libguestfs cannot run.  With @o->out_path the
 * prepared image is also copied to OUT, with OUT.manifest, OUT.vmlinuz and
 * OUT.initrd beside it (refusing to overwrite).  LIBGUESTFS_BACKEND / LIBGUESTFS_BACKEND_SETTINGS
 * (e.g. force_tcg) are honoured, never set.  0, or -1 after vdc_error. */
int vdc_prepare(const struct vdc_prepare_opts *o, struct vdc_prepared *out);

/* Lowercase hex SHA-256 of a file (GChecksum), g_malloc'd; NULL after
 * vdc_error naming the file. */
char *vdc_file_sha256(const char *path);

/* The cache key: hex SHA-256 over "vmdiskcmp-prepare-v1\n" followed by the
 * three hex digests, one a line, in the order template, agent, runner.
 * Pure; g_malloc'd; NULL when an input is not 64 hex digits. */
char *vdc_prepare_cache_key(const char *template_sha256, const char *agent_sha256,
                            const char *runner_sha256);

/* Where vdc_prepare would find @template prepared with @agent and @runner
 * in @cache_dir (NULL: VDC_PREPARE_DEFAULT_CACHE) without launching
 * anything: CACHE/KEY/guest.img when it is there, else NULL (also when an
 * input cannot be read; no message).  Hashes the three files, unless the
 * cache is empty or absent.  For
 * --dry-run: "prepared: cached" or "prepared on first use".  g_free. */
char *vdc_prepare_cached(const char *template_path, const char *agent_path,
                         const char *runner_path, const char *cache_dir);

#endif

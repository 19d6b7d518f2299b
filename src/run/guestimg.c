/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest image a run's domUs boot (guestimg.h). */
#include "config.h"
#include "run/guestimg.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>

#include "common/util.h"

/* A --prepared-image is the user's, in a directory of theirs (/root, say),
 * which is never changed; QEMU needs search (x) permission on every
 * directory above the image, so the first one without it is named. */
static void
warn_unsearchable(const char *image)
{
    g_autofree char *d = g_path_get_dirname(image);
    struct stat sb;

    for (;;) {
        char *up;

        if (stat(d, &sb) == 0 && !(sb.st_mode & 0001)) {
            vdc_progress("warning: %s is not searchable by other users (chmod o+x): a "
                         "hypervisor running QEMU unprivileged (libvirt-qemu) may fail to "
                         "open %s", d, image);
            return;
        }
        up = g_path_get_dirname(d);
        if (!strcmp(up, d)) {
            g_free(up);
            return;
        }
        g_free(d);
        d = up;
    }
}

/* guestimg.h */
int
vdc_guest_image(vdc_run_state *st)
{
    vdc_plan *p = st->p;
    struct vdc_prepare_opts o = {
        .template_path = p->guest_image,
        .agent_path = st->s->agent,
        .runner_path = st->s->runner,
        .cache_dir = st->s->cache_dir,
        .launch_timeout_s = st->s->launch_timeout_s,
        .stop = st->env->stop,   /* SIGINT stops the appliance at once */
    };
    int xen = p->hv == VDC_HV_LIBXL || !strcmp(p->domain_type, "xen");

    if (p->prepared_image) {
        vdc_progress("guest image %s (prepared elsewhere: no appliance launched)", p->prepared_image);
        vdc_prepared_dispose(&st->prep);
        if (st->env->prepared_load(p->prepared_image, &st->prep) < 0)
            return -1;
    } else {
        vdc_progress("preparing the guest image from %s (libguestfs, cached)", p->guest_image);
        if (st->env->prepare(&o, &st->prep) < 0)
            return -1;
        vdc_progress("guest image %s (%s)", st->prep.image,
                     st->prep.cache_hit ? "cache hit: no appliance launched" : "prepared now");
    }
    /* QEMU under qemu:///system runs as an unprivileged user (libvirt-qemu)
     * and must be able to reach the prepared image, kernel and initrd: a
     * cache entry made 0700 (mkdtemp) is opened up to 0755 (it holds only
     * what prepare wrote; nothing secret) */
    if (st->prep.image && p->prepared_image) {
        warn_unsearchable(st->prep.image);
    } else if (st->prep.image) {
        g_autofree char *dir = g_path_get_dirname(st->prep.image);
        struct stat sb;

        if (stat(dir, &sb) == 0 && (sb.st_mode & 0005) != 0005 && chmod(dir, 0755) < 0)
            vdc_progress("warning: %s: cannot make it searchable for the hypervisor: %s", dir,
                         g_strerror(errno));
    }
    if (!p->kernel)
        p->kernel = g_strdup(st->prep.kernel);
    if (!p->initrd)
        p->initrd = g_strdup(st->prep.initrd);
    if (!p->cmdline)
        p->cmdline = g_strdup(xen ? st->prep.cmdline_xen : st->prep.cmdline_kvm);
    vdc_recorder_guest(st->rec, &st->prep, p->kernel, p->initrd, p->cmdline);
    return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The libguestfs appliance, in a child process of its own process group
 * (common/child.h) so that a launch that hangs (TCG without force_tcg,
 * emulation inside emulation) is killed, QEMU included, after the timeout:
 * libguestfs has no launch timeout of its own.  Two sessions: putting the
 * agent and the runner into a guest image, and reading a guest's logs
 * read-only.  Built without libguestfs, both fail with one line. */
#ifndef VDC_GUEST_APPLIANCE_H
#define VDC_GUEST_APPLIANCE_H

#include <signal.h>

/* Upload the static @agent and @runner into the guest image @image (its
 * root mounted read-write), install the hook that starts the runner at
 * boot for the image's init system (systemd, sysvinit or busybox init;
 * another is bad input), write a note of the digests, flush and close.
 * At most @timeout_s seconds; *@stop stops it (SIGTERM to the group, then
 * SIGKILL).  *@init_system gets the init system's name (g_free).  0, or -1
 * after vdc_error. */
int vdc_appliance_install(const char *image, const char *agent, const char *runner,
                          const char *agent_sha256, const char *runner_sha256, int timeout_s,
                          volatile sig_atomic_t *stop, char **init_system);

/* On failure: inspect @image read-only with libguestfs (never writes it)
 * and copy the guest's logs (/var/log/vmdiskcmp/, /var/log/messages,
 * /var/log/syslog, journal export when systemd) into @out_dir (created).
 * Our guests keep their root read-only, so this mostly finds the runner's
 * last log of the template's own boot; the per-run log travels in the
 * control disk's result frame.  0, or -1 after vdc_error. */
int vdc_collect_logs(const char *image, const char *out_dir, int launch_timeout_s);

#endif

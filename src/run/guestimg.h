/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest image a run's domUs boot: prepared now (libguestfs, cached:
 * guest/prepare.h) or loaded as prepared elsewhere (--prepared-image),
 * made reachable for a hypervisor running QEMU unprivileged, its boot
 * files given to the plan where no option named them, and recorded. */
#ifndef VDC_RUN_GUESTIMG_H
#define VDC_RUN_GUESTIMG_H

#include "run/state.h"

/* Prepare or load the guest image into st->prep through the run's env;
 * our own cache entry is opened up to 0755 (it holds only what prepare
 * wrote), a --prepared-image's directories are only looked at (the first
 * one others cannot search is named); the plan's kernel, initrd and
 * command line default to the image's (Xen's or KVM's command line); the
 * guest's facts go to the recorder.  0, or -1 after vdc_error. */
int vdc_guest_image(vdc_run_state *st);

#endif

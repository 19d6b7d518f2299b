# SPDX-License-Identifier: GPL-2.0-or-later
# templates/lab: the emulated Xen lab's recipe, installed under
# $(pkgdatadir)/lab (doc/lab.md).
labdir = $(pkgdatadir)/lab
dist_lab_DATA = templates/lab/lab.conf templates/lab/lab.sh \
	templates/lab/build-dom0.sh templates/lab/boot-lab.sh \
	templates/lab/mini-domu.sh templates/lab/xen-block-lab
labdom0dir = $(pkgdatadir)/lab/dom0
dist_labdom0_DATA = templates/lab/dom0/vdc-lab-job templates/lab/dom0/vdc-lab-job.service
labjobsdir = $(pkgdatadir)/lab/jobs
dist_labjobs_DATA = templates/lab/jobs/selftest.sh

# `make lab`: build (or find in the cache) the emulated Xen lab's dom0
.PHONY: lab
lab:
	bash $(top_srcdir)/templates/lab/build-dom0.sh $(abs_top_builddir)/lab-cache

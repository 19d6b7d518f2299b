# SPDX-License-Identifier: GPL-2.0-or-later
# Guest runner and control disk codec: guest-agent/runner.c; the codec
# guest-agent/ctldisk.[ch] (records), ctldisk_codec.[ch] (frames),
# ctldisk_disk.c (superblock, disk I/O, progress), ctldisk_gate.c (the start
# gate of many guests at once); the commands of a job
# guest-agent/jobcmd.[ch]; a target disk found by its serial
# guest-agent/diskid.[ch]; the filesystem's units and its disk's I/O sizes
# as the guest sees them guest-agent/fsunits.[ch].
# The codec is libc only: it goes into libvdc-agentcore.a (host code and unit
# tests, built with $(CC)) and into the static runner (built with $(AGENT_CC)).
vdc_ctldisk_src = guest-agent/ctldisk.c guest-agent/ctldisk_codec.c guest-agent/ctldisk_disk.c \
	guest-agent/ctldisk_gate.c
vdc_ctldisk_hdr = guest-agent/ctldisk.h guest-agent/ctldisk_codec.h
guest_agent_libvdc_agentcore_a_SOURCES += $(vdc_ctldisk_src) $(vdc_ctldisk_hdr) \
	guest-agent/jobcmd.c guest-agent/jobcmd.h guest-agent/diskid.c guest-agent/diskid.h \
	guest-agent/fsunits.c guest-agent/fsunits.h

# vmdiskcmp-runner: the in-guest init job (doc/control-disk.md), static.
vdc_runner_src = $(srcdir)/guest-agent/runner.c $(srcdir)/guest-agent/runner_progress.c \
	$(vdc_ctldisk_src:%=$(srcdir)/%) \
	$(srcdir)/guest-agent/jobcmd.c $(srcdir)/guest-agent/diskid.c $(srcdir)/guest-agent/fsunits.c
guest-agent/vmdiskcmp-runner: $(vdc_runner_src) $(vdc_ctldisk_hdr:%=$(srcdir)/%) \
		$(srcdir)/guest-agent/runner_progress.h \
		$(srcdir)/guest-agent/jobcmd.h $(srcdir)/guest-agent/diskid.h \
		$(srcdir)/guest-agent/fsunits.h config.h
	@$(MKDIR_P) guest-agent
	$(AM_V_CC)$(AGENT_CC) -static -std=c11 -O2 -Wall -Wextra -Wno-unused-parameter \
		-D_GNU_SOURCE -DVDC_RUNNER_VERSION='"$(PACKAGE_VERSION)"' \
		-I$(top_builddir) -I$(top_srcdir) -o $@ $(vdc_runner_src)
runnerdir = $(pkglibexecdir)
runner_SCRIPTS = guest-agent/vmdiskcmp-runner
CLEANFILES += guest-agent/vmdiskcmp-runner
EXTRA_DIST += guest-agent/runner.c guest-agent/runner_progress.c guest-agent/runner_progress.h

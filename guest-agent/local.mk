# SPDX-License-Identifier: GPL-2.0-or-later
# Guest agent area: vmdiskcmp-agent, static, libc only.
# Built with $(AGENT_CC) -static (musl-gcc when available) by the explicit
# rule below; its pure libc-only modules (PRNG and digest, sizes and
# options, table/CSV/JSON renderers, block signatures) are also compiled
# with $(CC) into libvdc-agentcore.a for the unit tests and for host code
# that shares them (the control disk codec is added by runner.mk).
vdc_agent_core = \
	guest-agent/agent.h guest-agent/test_ids.h guest-agent/version.c \
	guest-agent/prng.c guest-agent/prng.h \
	guest-agent/options.c guest-agent/options.h \
	guest-agent/format.c guest-agent/format.h \
	guest-agent/blocksig.c guest-agent/blocksig.h \
	guest-agent/hist.c guest-agent/hist.h \
	guest-agent/jobfile.c guest-agent/jobfile.h \
	guest-agent/jobstat.c guest-agent/jobstat.h \
	guest-agent/aging.c guest-agent/aging.h
# the job engine (fio job files: doc/agent.md "Job engine")
vdc_agent_job = \
	guest-agent/job.h guest-agent/jobcheck.c guest-agent/jobrun.c \
	guest-agent/jobclone.c guest-agent/jobclone.h \
	guest-agent/jobgen.c guest-agent/jobgen.h \
	guest-agent/engine_uring.c guest-agent/engine_psync.c guest-agent/engine_null.c \
	guest-agent/randmap.c guest-agent/randmap.h
vdc_agent_io = \
	guest-agent/main.c \
	guest-agent/sys.c guest-agent/sys.h \
	guest-agent/seqio.c guest-agent/seqio.h \
	guest-agent/seeks.c guest-agent/seeks.h \
	guest-agent/filetests.c guest-agent/filetests.h \
	guest-agent/sweep.c guest-agent/sweep.h \
	guest-agent/fill.c guest-agent/fill.h

noinst_LIBRARIES += guest-agent/libvdc-agentcore.a
guest_agent_libvdc_agentcore_a_SOURCES = $(vdc_agent_core)
EXTRA_DIST += $(vdc_agent_io)

# The job engine with the agent's system helpers, built with $(CC) for the
# unit tests (tests/unit/test_agent_job_engine.c).
noinst_LIBRARIES += guest-agent/libvdc-agentjob.a
guest_agent_libvdc_agentjob_a_SOURCES = $(vdc_agent_job) \
	guest-agent/sys.c guest-agent/sys.h

# The static agent: one compiler invocation over every agent source.
AGENT_CFLAGS = -std=c11 -O2 -Wall -Wextra -Wno-unused-parameter \
	-Wno-format-truncation -Werror=implicit-function-declaration \
	-D_GNU_SOURCE -pthread -DVDC_DATADIR='"$(pkgdatadir)"'
guest-agent/vmdiskcmp-agent: $(vdc_agent_core) $(vdc_agent_job) \
		$(vdc_agent_io) config.h
	@$(MKDIR_P) guest-agent
	$(AM_V_CCLD)$(AGENT_CC) -static $(AGENT_CFLAGS) -I$(top_builddir) \
	  -I$(top_srcdir)/guest-agent -o $@ $(filter %.c,$^) -lm

# Built by `make`, installed into $(pkglibexecdir) by `make install`.
nodist_pkglibexec_SCRIPTS = guest-agent/vmdiskcmp-agent
CLEANFILES += guest-agent/vmdiskcmp-agent

# The job engine's shipped profiles (fio job files) and the agent's man page.
workloadsdir = $(pkgdatadir)/workloads
dist_workloads_DATA = \
	templates/workloads/randread-4k-qd1.fio \
	templates/workloads/randread-4k-qd32.fio \
	templates/workloads/randwrite-4k-qd32.fio \
	templates/workloads/randrw-70-30-8k-qd16.fio \
	templates/workloads/read-1m-qd8.fio \
	templates/workloads/write-1m-qd8.fio
dist_man1_MANS = guest-agent/vmdiskcmp-agent.1

# Guest agent area (issue 2): vmdiskcmp-agent, static, libc only.
# Built with $(AGENT_CC) -static (musl-gcc when available) by the explicit
# rule below; its pure libc-only modules (PRNG and digest, sizes and
# options, table/CSV/JSON renderers, block signatures) are also compiled
# with $(CC) into libvdc-agentcore.a for the unit tests and for host code
# that shares them (the control disk codec is added by runner.mk).
vdc_agent_core = \
	guest-agent/agent.h guest-agent/version.c \
	guest-agent/prng.c guest-agent/prng.h \
	guest-agent/options.c guest-agent/options.h \
	guest-agent/format.c guest-agent/format.h \
	guest-agent/blocksig.c guest-agent/blocksig.h
vdc_agent_io = \
	guest-agent/main.c \
	guest-agent/sys.c guest-agent/sys.h \
	guest-agent/seqio.c guest-agent/seqio.h \
	guest-agent/seeks.c guest-agent/seeks.h \
	guest-agent/filetests.c guest-agent/filetests.h \
	guest-agent/sweep.c guest-agent/sweep.h

noinst_LIBRARIES += guest-agent/libvdc-agentcore.a
guest_agent_libvdc_agentcore_a_SOURCES = $(vdc_agent_core)
EXTRA_DIST += $(vdc_agent_io)

# The static agent: one compiler invocation over every agent source.
AGENT_CFLAGS = -std=c11 -O2 -Wall -Wextra -Wno-unused-parameter \
	-Wno-format-truncation -Werror=implicit-function-declaration \
	-D_GNU_SOURCE
guest-agent/vmdiskcmp-agent: $(vdc_agent_core) $(vdc_agent_io) config.h
	@$(MKDIR_P) guest-agent
	$(AM_V_CCLD)$(AGENT_CC) -static $(AGENT_CFLAGS) -I$(top_builddir) \
	  -I$(top_srcdir)/guest-agent -o $@ $(filter %.c,$^)

# Built by `make`, installed into $(pkglibexecdir) by `make install`.
nodist_pkglibexec_SCRIPTS = guest-agent/vmdiskcmp-agent
CLEANFILES += guest-agent/vmdiskcmp-agent

# Guest agent area (issue 2): vmdiskcmp-agent, static, libc only.
# Built with $(AGENT_CC) -static (musl-gcc when available); its libc-only
# sources are also compiled with $(CC) into libvdc-agentcore.a for the unit
# tests and for host code that shares them (control disk codec).
noinst_LIBRARIES += guest-agent/libvdc-agentcore.a
guest_agent_libvdc_agentcore_a_SOURCES = guest-agent/version.c

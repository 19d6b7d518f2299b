# Guest runner and control disk codec (issue 4): guest-agent/runner.c, guest-agent/ctldisk.[ch]
# The codec is libc only: it goes into libvdc-agentcore.a (host code and unit
# tests, built with $(CC)) and into the static runner (built with $(AGENT_CC)).
guest_agent_libvdc_agentcore_a_SOURCES += guest-agent/ctldisk.c guest-agent/ctldisk.h

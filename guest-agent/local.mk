# Guest agent area (issue 2): vmdiskcmp-agent, static, libc only.
# Built with $(AGENT_CC) -static (musl-gcc when available); its sources are
# also compiled with $(CC) into libagent.a for the unit tests.

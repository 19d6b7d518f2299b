# Guest runner and control disk codec (issue 4): guest-agent/runner.c, guest-agent/ctldisk.[ch]

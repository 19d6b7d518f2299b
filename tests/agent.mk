# Tests of the agent area.

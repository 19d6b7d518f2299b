# Tests of the run area.

# Tests of the lab area.

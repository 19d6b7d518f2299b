# Tests of the results area.

# Tests of the report area.

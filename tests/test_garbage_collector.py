"""The test processes hold the cycle collector off while the tests are
collected, then freeze what collection made and run the collector during the
tests (tests/conftest.py): tests that make cycles must not grow a process."""

import gc


def test_the_collector_runs_during_the_tests_and_leaves_what_collection_made():
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0

"""The suite's layout: no module imports a test file. Fixtures that several
test files use live in the conftest.py of the narrowest folder holding them,
shared steps in helper modules named for what they hold; so a test file can
be renamed, moved or run alone."""

from __future__ import annotations

import grimp


def test_no_module_imports_a_test_file():
    graph = grimp.build_graph("tests", "benchmarks", cache_dir=None)
    found = {
        (importer, imported)
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
        if imported.rpartition(".")[2].startswith("test_")
    }
    assert found == set(), "move what they share to a conftest.py or a helper module"

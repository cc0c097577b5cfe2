import tests.toy_game  # noqa: F401  (registers the toy ruleset for core tests)

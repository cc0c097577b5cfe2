"""The game-independent core: state base, records, randomness, hex math, bots."""

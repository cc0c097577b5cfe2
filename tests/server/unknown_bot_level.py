"""What pbem answers, in each of its languages, to a bot level it does not
know ("grandmaster"): the API and the new-game form refuse it in the same words."""

UNKNOWN = {
    "en": "unknown bot level 'grandmaster' (levels: random, easy, medium, strong)",
    "fr": "niveau de bot inconnu : 'grandmaster' (niveaux : random, easy, medium, strong)",
    "cs": "neznámá úroveň bota 'grandmaster' (úrovně: random, easy, medium, strong)",
}

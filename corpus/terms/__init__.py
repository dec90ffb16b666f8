"""The term base: learned from the parallel rules and the MTGJSON cards, then used to enrich
every record with the English concepts it mentions."""

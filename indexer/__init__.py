"""Records to a Whoosh index: schema, per-language analyzers, atomic builds."""

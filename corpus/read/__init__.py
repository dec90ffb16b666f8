"""One document to records: decode, detect its language and layout, parse, check its numbering.
Imports only corpus.model and corpus.paths."""

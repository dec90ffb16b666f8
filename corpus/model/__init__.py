"""The record model: records and documents, rule numbers, the language table, text and words.
Every other stage imports from here; nothing here imports another stage."""

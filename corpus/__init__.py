"""Ingestion: rules documents to normalized per-rule records under English keys."""

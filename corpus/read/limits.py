"""How big a document may be."""

# The whole CR is about 1 MB as text (2 MB in UTF-16) and 2 MB as a PDF: past these a file is
# not one rules document, and would take a build's memory with it: the library reads no more,
# ingestion refuses it.
MAX_BYTES = 8 * 1024 * 1024
MAX_PDF_BYTES = 32 * 1024 * 1024

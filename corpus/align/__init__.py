"""Across documents: which English edition a translation follows, rules aligned by number or
content, glossaries joined, editions compared, and each rule's identity through renumberings."""

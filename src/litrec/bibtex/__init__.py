"""BibTeX both ways: `write` (entries from literature records), `read` (record data from
entries), `importing` (entries into the records folder); `citation` holds what they share."""

"""Published lists anyone can check: frozen with what made them, verified against the journal.

`provenance.py` (the journal's and the config's SHA-256, the version; footers for each format),
`freeze.py` (`freeze-list`: the list as a file and its `[[list]]` entry), `listfile.py` (reading a
list file back: JSON, Markdown or xlsx), `entries.py` (the journal entries behind a change),
`verify.py` (`verify FILE`), `changes.py` (`changes`: the re-publication note), `safeout.py` (a new
file written whole, never over anything).
"""

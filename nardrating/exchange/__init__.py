"""What crosses the club's border: importers (.mat, PGN, TRF, CSV), exports (TRF, fide-list) and
the published site."""

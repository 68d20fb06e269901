"""The contract between replay and the engines, below both: the typed events an engine sees
(`events`), the match columns per-match engines read and keep (`batches`), and the view protocol
(`view`). Replay implements it over the journal; engines import it, never replay's modules."""

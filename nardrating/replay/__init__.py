"""Replay: from a checked journal to engine results.

loader (read the club: through the cache, else the journal) → Ledger (one club, its replays on
demand) → view (one list's entries for one discipline, in order, as typed events) → the engine.
The cache (cache, cachegrowth, cachecheck, cachedir) is derived data the loader may use;
resume decides when a cached journal or result is reused; parallel is `recalc`'s forked replay.
"""

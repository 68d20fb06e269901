"""Moved to nardrating.journal.tomlsource; this name is kept for the modules that still import it."""
from .journal.tomlsource import decode_problem, header_lines, key_line, parse_toml, read_text, shown

__all__ = ["decode_problem", "header_lines", "key_line", "parse_toml", "read_text", "shown"]

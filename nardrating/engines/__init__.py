"""Rating engines: one module each, behind the interface in base.py."""

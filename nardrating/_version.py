"""The program's version, in a module of its own: the cache keys on it without importing the package."""
__version__ = "0.2.0.dev0"

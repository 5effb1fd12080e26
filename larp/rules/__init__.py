"""What every rule system's engine shares: the command-line contract and the registry of systems.

Pure Python: no Django. See docs/architecture.md.
"""

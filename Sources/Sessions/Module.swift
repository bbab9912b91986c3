// Module Sessions: see docs/architecture.md.

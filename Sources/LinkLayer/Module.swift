// Module LinkLayer: see docs/architecture.md.

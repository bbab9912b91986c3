// Module ATT: see docs/architecture.md.

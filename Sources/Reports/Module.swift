// Module Reports: see docs/architecture.md.

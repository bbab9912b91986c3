// Module L2CAP: see docs/architecture.md.

// Module AssignedNumbers: see docs/architecture.md.

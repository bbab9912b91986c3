// Module HCI: see docs/architecture.md.

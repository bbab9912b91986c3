// Module VendorDecoding: see docs/architecture.md.

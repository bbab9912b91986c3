// Module PacketDecoding: see docs/architecture.md.

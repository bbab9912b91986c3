import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEPacketDecoding

/// The outcome of an HCI command (Core v5.4 Vol 4 Part E §4.4: Command Status or Complete).
public struct HCICommandOutcome: Sendable {
    public var opcode: HCIOpcode
    public var commandUs: Int64
    public var responseUs: Int64?
    public var status: HCIStatus?
    public var answeredBy: String?
}

/// Per-opcode command outcomes, for the report.
public struct CommandTotals: Sendable {
    public var opcode: HCIOpcode
    public var count = 0
    public var failed = 0
    public var unanswered = 0
}

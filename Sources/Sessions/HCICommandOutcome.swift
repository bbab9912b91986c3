import ATT
import BLEBase
import CaptureFormats
import HCI
import PacketDecoding

/// The outcome of an HCI command (Core v5.4 Vol 4 Part E §4.4: Command Status or Complete).
package struct HCICommandOutcome: Sendable {
    package var opcode: HCIOpcode
    package var commandUs: Int64
    package var responseUs: Int64?
    package var status: HCIStatus?
    package var answeredBy: String?
}

import AnalyzerTestSupport
import BLEBase
import BLEPacketDecoding
import Testing

struct PacketIssueTests {
    /// A malformed packet's issue keeps the decoder's typed error, not only its text.
    @Test func malformedIssueKeepsTheTypedError() {
        var s = HCIScenario()
        s.event(0x05, [0x00, 0x40])              // Disconnection Complete needs 4 parameter bytes
        let (packets, _) = decodeAll(s.records)
        guard let issue = packets.first?.issues.first, case .truncated(let layer, _, _, _, _)? = issue.error else {
            Issue.record("expected a truncation error")
            return
        }
        #expect(layer == .hci)
        #expect(issue.kind == .malformed)
        #expect(issue.message == issue.error?.message)
    }

    /// Issues that are not decoding errors (reassembly, capture cuts) carry none.
    @Test func issueMadeFromAKindHasNoError() {
        #expect(PacketIssue(.overrun, layer: .l2cap, "overrun").error == nil)
    }
}

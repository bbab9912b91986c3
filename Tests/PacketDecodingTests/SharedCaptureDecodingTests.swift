import AnalyzerTestSupport
import Testing

/// The pipeline against captures made and checked elsewhere: the synthetic ones' truth files and
/// tshark's counts for the real ones (../shared/captures/real/README.md).
@Suite(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
struct SharedCaptureDecodingTests {
    @Test(arguments: [
        "demo-clean.btsnoop", "demo-clean.pcap", "demo-clean.pcapng", "demo-clean.pklg",
        "demo-faults.btsnoop", "demo-faults.pcap", "demo-faults.pcapng", "demo-faults.pklg", "demo-faults.le.pklg",
        "demo-20k.btsnoop", "demo-clean.ll.pcap", "demo-faults.ll.pcap", "demo-faults.nordic.pcap",
    ])
    func attCountsEqualTruth(name: String) throws {
        let truth = try SharedCaptures.truth(name)
        let decoded = try decodeFile(SharedCaptures.path("synthetic/\(name)"))
        #expect(decoded.packets.count == truth.counts.packets)
        #expect(attCounts(decoded.packets) == truth.counts.attPdusByOpcode)
        #expect(decoded.packets.allSatisfy { $0.issues.isEmpty })
        #expect(decoded.atEnd.isEmpty)
    }

    /// HCI-level real captures: every ATT PDU tshark counts, by opcode.
    @Test(arguments: SharedCaptures.realCaptures().filter { Self.hciLevel.contains($0.file) })
    func realCaptureATTCountsEqualTshark(capture: SharedCaptures.RealCapture) throws {
        let decoded = try decodeFile(SharedCaptures.path("real/\(capture.file)"))
        #expect(decoded.packets.count == capture.frames)
        #expect(attCounts(decoded.packets) == capture.attPDUsByOpcode)
    }

    static let hciLevel: Set<String> = [
        "yeelock_btsnoop_hci.log", "horizon74_btsnoop_hci.log", "btmouse_btsnoop_hci.log", "fossibot_btsnoop_hci.log",
        "androidpad_btsnoop_hci.cfa", "airbily_bluethoot_logs.pcapng", "isap_hci_dump.pklg", "batteread_capture.btsnoop",
    ]

    @Test func corruptCaptureFailsCleanly() throws {
        let decoded = try decodeFile(SharedCaptures.path("real/sardark_btsnooz_hci.log"))
        #expect(decoded.packets.isEmpty)
        #expect(decoded.diagnostics.map(\.description)
                == ["\(SharedCaptures.path("real/sardark_btsnooz_hci.log")): record 1 at byte 16: impossible included length 3269633792"])
    }

    /// BTstack wrote event 0x60 with one byte more than its length field: the event still shows.
    @Test func trailingBytesAfterAnEventAreAnIssueNotALoss() throws {
        let decoded = try decodeFile(SharedCaptures.path("real/isap_hci_dump.pklg"))
        let fourth = decoded.packets[3]
        #expect(fourth.hci != .absent)
        #expect(fourth.issues.map(\.description) == ["hci: 1 byte(s) after the 2-byte packet its length field declares"])
    }
}

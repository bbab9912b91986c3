import AnalyzerTestSupport
import BLEBase
import BLESessions
import Testing

/// Security and severity on the real captures of ../shared/captures/real (issue 29): the cause
/// chain is there, and every failure is one a firmware engineer would accept.
@Suite(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
struct RealCaptureSecurityTests {
    /// The device's Security Request ignored on three links, then refused with Pairing Not
    /// Supported by the host (records 13107–13108): no pairing ran, the link went on, a warning.
    @Test func androidpadIgnoredSecurityRequestsAndRefusedOne() throws {
        let report = try analyzeFile(SharedCaptures.path("real/androidpad_btsnoop_hci.cfa"))
        let ignored = report.notices.filter { $0.kind == .securityRequestIgnored }
        #expect(ignored.map(\.connectionID) == [ConnectionID(number: 1), ConnectionID(number: 3), ConnectionID(number: 5)])
        #expect(ignored.allSatisfy { $0.severity == .warning && $0.count == 1 })
        let refused = report.notices.filter { $0.kind == .securityRequestRejected }
        #expect(refused.map(\.summary) == ["The device's Security Request was refused with Pairing Failed: Pairing Not Supported "
                                           + "(0x05), sent by the host; no pairing ran"])
        #expect(refused.map(\.record) == [13108])
        #expect(refused.map(\.severity) == [.warning])
        #expect(refused.map(\.connectionID) == [ConnectionID(number: 6)])
        let c6 = try #require(report.connections.first { $0.id == ConnectionID(number: 6) })
        #expect(c6.security.securityRequests.map(\.outcome) == [.rejected])
        #expect(c6.security.securityRequests.map(\.record) == [13107])
        #expect(c6.security.pairings.isEmpty)
        // The rest in red: four links that dropped (two supervision timeouts, two that failed
        // to be established).
        #expect(report.stats.failuresByKind == [.linkLost: 4])
    }

    /// Records 13006 and 13009: C3 (500 ms timeout) and C1 (1 s) lost by supervision timeout,
    /// silent from 30 ms apart: each names the other.
    @Test func androidpadLinksLostTogether() throws {
        let report = try analyzeFile(SharedCaptures.path("real/androidpad_btsnoop_hci.cfa"))
        let timeouts = report.failures.filter { $0.kind == .linkLost && $0.summary.contains("(0x08)") }
        #expect(timeouts.map(\.record) == [13006, 13009])
        #expect(timeouts.map(\.summary) == [
            "Link to ROKI_KP100_V04 (84:9D:C2:89:9E:24) lost: Connection Timeout (0x08); C1 went silent at the same "
                + "moment (by their supervision timeouts, within 30 ms): a shared cause (the host's radio, interference) is "
                + "likelier than a fault of this device",
            "Link to ROKI_1082_V08 (D0:BA:E4:BE:F4:57) lost: Connection Timeout (0x08); C3 went silent at the same "
                + "moment (by their supervision timeouts, within 30 ms): a shared cause (the host's radio, interference) is "
                + "likelier than a fault of this device",
        ])
        #expect(timeouts.map { $0.details.first { $0.name == "lostWith" }?.value }
                == [.list([.string("C1")]), .list([.string("C3")])])
        // Those that failed to be established (0x3E) are no supervision timeouts.
        #expect(report.failures.filter { $0.details.contains { $0.name == "lostWith" } }.count == 2)
    }

    /// LE Secure Connections pairing, then encryption, in that order; the link is encrypted only
    /// from then.
    @Test func crackleLESCPairingThenEncryption() throws {
        let report = try analyzeFile(SharedCaptures.path("real/crackle_lesc.pcapng"))
        let security = report.connections[0].security
        #expect(security.pairings.count == 1)
        let pairing = security.pairings[0]
        #expect(pairing.initiator == "central" && pairing.secureConnections && pairing.method == .justWorks)
        #expect(pairing.result == .success && pairing.bonding)
        let start = try #require(security.encryption.first)
        #expect(start.kind == .start && start.status == 0 && start.source == "link-layer")
        #expect(pairing.startUs < start.timeUs && pairing.endUs == start.timeUs)
        #expect(security.encryptedSinceUs == start.timeUs)
        #expect(start.timeUs > report.connections[0].startUs)
        #expect(report.failures.isEmpty)
    }

    /// crackle_lesc 93 is the start of the answer to 91 (tshark: "L2CAP Fragment Start"; its L2CAP
    /// length 42 and ATT opcode 0x11, Read By Group Type Response, from handle 0x0023); 98 starts a
    /// new PDU before its continuation came. The notice names 93, and 98 the abandoned PDU.
    @Test func crackleLESCAnswerCaughtAtItsStart() throws {
        let report = try analyzeFile(SharedCaptures.path("real/crackle_lesc.pcapng"))
        let missed = try #require(report.notices.first { $0.kind == .attAnswerNotCaptured })
        #expect(missed.record == 91)
        #expect(missed.summary == "Read By Group Type Request for handles from 0x0023: only the start of its answer was "
                + "captured (a Read By Group Type Response began at record 93 with 27 of its 46 bytes; the sniffer missed "
                + "the rest)")
        #expect(missed.details.contains(.int("answerRecord", 93)))
        #expect(report.stats.issues == [.interruptedPDU: 1])
    }

    /// Captures whose only red lines used to be housekeeping or sniffer losses.
    @Test(arguments: ["btmouse_btsnoop_hci.log", "isap_hci_dump.pklg", "garmin.pcapng", "crackle_lesc.pcapng",
                      "horizon74_btsnoop_hci.log", "yeelock_btsnoop_hci.log"])
    func noFalseFailures(name: String) throws {
        let report = try analyzeFile(SharedCaptures.path("real/\(name)"))
        #expect(report.failures.map(\.summary) == [])
    }

    /// The central sent requests while others were outstanding and the device stopped
    /// answering: the violations are warnings, the Write Not Permitted and the lost link failures.
    @Test func attDeadlockViolationsAreWarnings() throws {
        let report = try analyzeFile(SharedCaptures.path("real/swt_st_att_deadlock.pcap"))
        #expect(report.stats.failuresByKind == [.attError: 1, .attNoResponse: 1, .linkLost: 1])
        #expect(report.failures.first?.summary == "Write Request to handle 0x0011 failed: Write Not Permitted (0x03)")
        #expect(report.notices.filter { $0.kind == .attProtocolViolation }.allSatisfy { $0.severity == .warning })
    }

    /// The Write Request of record 118 went unanswered; the peripheral was last heard at record
    /// 142 and the link's supervision timeout is 1 s: lost then, before the central's first
    /// SCAN_REQ (record 151). The central's 13 requests sent while one was outstanding say so,
    /// and the Write Requests among them are counted: 7 in all (tshark: btatt.opcode == 0x12).
    /// Request 104, sent out of turn behind 103, is not held owed once 103 is answered: a server
    /// may ignore a request sent out of turn (Core v5.4 Vol 3 Part F §3.3.2), so "104 never
    /// answered" could be argued away, where 118, sent in turn, was owed an answer either way.
    @Test func attDeadlockNamesItsRecords() throws {
        let report = try analyzeFile(SharedCaptures.path("real/swt_st_att_deadlock.pcap"))
        let unanswered = try #require(report.failures.first { $0.kind == .attNoResponse })
        let lost = try #require(report.failures.first { $0.kind == .linkLost })
        let start = try #require(report.stats.firstTimeUs)
        #expect(unanswered.record == 118)
        #expect(lost.record == 142)
        #expect(lost.timeUs - start == 4_518_168)
        #expect(unanswered.timeUs == lost.timeUs)
        #expect(lost.summary == "Link to BPSTM (80:E1:26:00:66:92) lost: Connection Timeout (0x08) (inferred from silence: "
                + "the central kept polling, the peripheral stopped answering; lost one supervision timeout (1.0 s) after its "
                + "last packet (record 142))")
        let violations = report.notices.filter { $0.kind == .attProtocolViolation }
        #expect(violations.map(\.count).reduce(0, +) == 13)
        #expect(violations.allSatisfy { $0.summary.contains(" sent by the central while ") })
        let writes = report.connections[0].transactionTotals.byKey.filter { $0.key.opcode == 0x12 }
        #expect(writes.map(\.key.handle) == [0x0011])
        #expect(writes.map(\.value.count) == [7])
        #expect(writes.map(\.value.errors) == [1])
        #expect(writes.map(\.value.unanswered) == [1])
    }

    /// garmin.pcapng: the 282 bad-CRC packets before record 4477 all precede the CONNECT_IND
    /// (record 4417): none can hold an answer on the link. Record 4477 takes the peripheral's
    /// discovery of the central's server on from 0x0023, so its request of 4473 was answered: the
    /// sniffer missed the answer; no protocol was broken.
    @Test func garminCaveatCountsOnlyTheLink() throws {
        let report = try analyzeFile(SharedCaptures.path("real/garmin.pcapng"))
        #expect(!report.notices.contains { $0.kind == .attProtocolViolation })
        let missed = try #require(report.notices.first { $0.kind == .attAnswerNotCaptured })
        // The peripheral's Error Response of 4475 answers a request of the central the sniffer missed.
        let stray = try #require(report.notices.first { $0.kind == .attAnswerWithoutRequest })
        #expect(stray.record == 4475)
        #expect(stray.summary == "Error Response to Read By Group Type Request (handle 0x002B: Attribute Not Found (0x0A)) from "
                + "the peripheral answers no request the capture holds (sent before the capture began, or not captured)")
        #expect(missed.record == 4473)
        #expect(missed.severity == .info)
        #expect(missed.summary == "Read By Group Type Request for the central's handles from 0x0019: its answer was not captured "
                + "(the next request shows it came; the sniffer missed it)")
        // The CCCD write of record 4553: lost with it on the link are 4596, 4665, 4790, 4859, 4872,
        // and encryption started at 4697: the peripheral's answer (4713's 9 bytes would be a Write
        // Response and its MIC) may be among its encrypted PDUs.
        let unanswered = try #require(report.notices.first { $0.kind == .attNoResponse })
        #expect(unanswered.record == 4553)
        #expect(unanswered.summary == "Write Request to CCCD of 6A4E2810-667B-11E3-949A-0800200C9A66 got no readable answer: "
                + "the link went down first (its end was not captured) (the sniffer lost 5 packet(s) on this link to bad CRCs "
                + "while it waited; the peripheral sent 44 encrypted PDU(s) after it, which cannot be read without the link's "
                + "key; the answer may be among them)")
    }
}

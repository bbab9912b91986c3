import AnalyzerTestSupport
import BLEBase
import BLEHCI
import BLESessions
import Testing

/// Severity: what failed is a failure; what failed nothing is a warning or info (docs/failures.md).
struct SeverityTests {
    let lock = SampleScenarios.lockA
    let handle: UInt16 = 0x0040

    func connected() -> HCIScenario { SampleScenarios.lockAConnected(handle: handle) }

    /// LE Create Connection with the filter accept list (initiator filter policy 1, no peer).
    static func backgroundCreate(_ s: inout HCIScenario) {
        var parameters: [UInt8] = [0x60, 0x00, 0x30, 0x00, 0x01, 0x00]
        parameters += [UInt8](repeating: 0, count: 6)                    // peer address unused
        parameters += [0x00, 0x18, 0x00, 0x18, 0x00, 0x00, 0x00, 0x90, 0x01, 0x00, 0x00, 0x00, 0x00]
        s.command(HCIScenario.leCreateConnection, parameters)
        s.commandStatus(HCIScenario.leCreateConnection)
    }

    /// Cancelled: 0x02 whether the cancel's Command Complete comes before or after it.
    @Test(arguments: [true, false])
    func cancelThenUnknownConnectionIdentifier(completeFirst: Bool) {
        var s = HCIScenario()
        s.createConnection(to: lock, random: true, intervalUnits: 24)
        s.wait(ms: 500)
        s.command(HCIScenario.leCreateConnectionCancel)
        if completeFirst { s.commandComplete(HCIScenario.leCreateConnectionCancel) }
        s.connectionComplete(handle: 0, peer: lock, random: true, intervalUnits: 24, status: 0x02)
        if !completeFirst { s.commandComplete(HCIScenario.leCreateConnectionCancel) }
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.notices.isEmpty)
        #expect(report.attempts.map(\.outcome) == [.cancelled])
        #expect(report.attempts[0].status?.rawValue == 0x02)
    }

    /// The 0x02 of a cancel whose create (and cancel) came before the capture began.
    /// A device that answers with a malformed PDU did answer: its request failed on the answer
    /// (a Read By Type Response whose length field says 7-byte entries over 5 bytes, Core v5.4
    /// Vol 3 Part F §3.4.4.2), not "never answered". The next request is answered as usual.
    @Test func aMalformedAnswerFailsItsRequest() throws {
        var s = connected()
        s.attExchange(handle: handle, request: [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28],
                      response: [0x09, 0x07, 0x02, 0x00, 0x02, 0x03, 0x00])
        let answer = s.records.count
        s.readRequest(handle: handle, attribute: 0x0003, value: [0x41])
        s.wait(ms: 100)
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.map(\.kind) == [.attMalformedAnswer])
        let failure = try #require(report.failures.first)
        #expect(failure.record == answer)
        #expect(failure.summary == "Read By Type Request for handles from 0x0001 failed: its answer, a Read By Type Response, "
                + "is malformed: invalid attribute data list at byte 2: 5 bytes is not a whole number of 7-byte entries")
        let transaction = try #require(report.connections.first?.transactions.first)
        #expect(transaction.outcome == .malformed && transaction.responseRecord == answer)
        #expect(transaction.responseOpcode?.rawValue == 0x09)
    }

    /// A Handle Value Confirmation is its opcode alone (Core v5.4 Vol 3 Part F §3.4.7.3): one with
    /// a byte more answers the indication, overlong, which a lenient server takes: a warning.
    @Test func anOverlongConfirmationAnswersItsIndicationWithAWarning() throws {
        var s = connected()
        s.serverPDU(handle: handle, [0x1D, 0x03, 0x00, 0x01])
        s.wait(ms: 20)
        let answer = s.records.count + 1
        s.att(handle: handle, .sent, [0x1E, 0x00])
        s.wait(ms: 100)
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        let notice = try #require(report.notices.first { $0.kind == .attMalformedAnswer })
        #expect(notice.severity == .warning && notice.record == answer)
        #expect(notice.summary == "Handle Value Indication to handle 0x0003: its answer, a Handle Value Confirmation, carries "
                + "bytes its PDU does not define: 1 unexpected byte(s) after Handle Value Confirmation at byte 1 (a strict "
                + "client discards it, a lenient one takes it)")
        let totals = try #require(report.connections.first?.transactionTotals.byKey.first { $0.key.opcode == 0x1D })
        #expect(totals.value.count == 1 && totals.value.errors == 0 && totals.value.unanswered == 0)
    }

    @Test func unknownConnectionIdentifierWithNothingSeenBefore() {
        var s = HCIScenario()
        s.connectionComplete(handle: 0, peer: lock, random: true, intervalUnits: 24, status: 0x02)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.attempts.map(\.outcome) == [.cancelled])
    }

    /// A cancel that came too late (the attempt had ended): housekeeping, info.
    @Test func cancelRefusedIsInfo() {
        var s = HCIScenario()
        s.command(HCIScenario.leCreateConnectionCancel)
        s.commandComplete(HCIScenario.leCreateConnectionCancel, status: 0x0C)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.notices.map(\.kind) == [.nothingToCancel])
        #expect(report.notices.map(\.severity) == [.info])
        #expect(report.notices[0].summary == "LE Create Connection Cancel failed: Command Disallowed (0x0C), answered by "
                + "Command Complete (no connection attempt was pending any more)")
    }

    /// The host's Disconnect accepted, its completion not captured: not dangling.
    @Test func hostDisconnectWithoutCompletion() {
        var s = connected()
        s.wait(ms: 200)
        s.disconnectCommand(handle: handle, reason: 0x13)
        let disconnectUs = s.records[s.records.count - 2].timestampUs
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        let c = report.connections[0]
        #expect(!c.dangling)
        #expect(c.endUs == disconnectUs)
        #expect(c.initiator == .localHost)
        #expect(c.endInferred == "disconnect requested, not captured")
        #expect(report.notices.map(\.kind) == [.disconnectNotCaptured])
        #expect(report.notices.map(\.severity) == [.info])
        #expect(report.notices[0].connectionID == ConnectionID(number: 1))
    }

    /// A Disconnect the controller refused leaves the link up (dangling at the end), and the
    /// refusal is shown on the link.
    @Test func refusedDisconnectStaysUp() {
        var s = connected()
        s.command(HCIScenario.disconnect, [0x40, 0x00, 0x13])
        s.commandStatus(HCIScenario.disconnect, status: 0x0C)
        let report = analyze(s.records).report
        #expect(report.connections[0].dangling)
        #expect(report.failures.map(\.kind) == [.hciCommandFailed])
        #expect(report.failures[0].connectionID == ConnectionID(number: 1))
        #expect(report.notices.map(\.kind) == [.danglingConnection])
    }

    /// Android probes vendor commands (OGF 0x3F); the controller does not know some: info.
    @Test func unknownVendorCommandIsInfo() {
        var s = HCIScenario()
        for _ in 0..<3 {
            s.command(0xFD57, [0x01])
            s.commandComplete(0xFD57, status: 0x01)
        }
        s.command(0xFC00, [])
        s.commandComplete(0xFC00, status: 0x01)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        // A run of the same notice is one entry with a count.
        #expect(report.notices.map(\.kind) == [.hciVendorCommandUnsupported, .hciVendorCommandUnsupported])
        #expect(report.notices.map(\.count) == [3, 1])
        #expect(report.notices.allSatisfy { $0.severity == .info })
        #expect(report.stats.noticesByKind[.hciVendorCommandUnsupported] == 4)
        #expect(report.stats.failuresByKind.isEmpty)
    }

    /// A command of OGF 0x3E (reserved for logo testing) is no vendor command: the summary says which.
    @Test func unknownCommandWordingFollowsItsOGF() {
        var s = HCIScenario()
        s.command(0xFBFB)
        s.commandComplete(0xFBFB, status: 0x01)
        s.command(0xFC00)
        s.commandComplete(0xFC00, status: 0x01)
        let report = analyze(s.records).report
        #expect(report.notices.map(\.summary) == [
            "Unknown (0xFBFB) failed: Unknown HCI Command (0x01), answered by Command Complete "
                + "(the controller does not know this command of OGF 0x3E, reserved for Bluetooth logo testing)",
            "Vendor Command (OCF 0x0000) failed: Unknown HCI Command (0x01), answered by Command Complete "
                + "(the controller does not know this vendor command)",
        ])
        #expect(report.notices.map(\.severity) == [.info, .info])
    }

    /// A vendor command failing otherwise: the stack's extension, a warning.
    @Test func vendorCommandOtherwiseFailedIsAWarning() {
        var s = HCIScenario()
        s.command(0xFD57, [0x01])
        s.commandComplete(0xFD57, status: 0x12)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.notices.map(\.kind) == [.hciVendorCommandFailed])
        #expect(report.notices.map(\.severity) == [.warning])
    }

    /// The host sends a command again while the first is pending; the repetition is refused
    /// (isap: Accept Connection Request twice, the connection completed from the first).
    @Test func repeatedCommandRefusedIsAWarning() {
        var s = HCIScenario()
        let accept: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x01]
        s.command(0x0409, accept)
        s.command(0x0409, accept)
        s.commandStatus(0x0409)
        s.commandStatus(0x0409, status: 0x0C)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.notices.map(\.kind) == [.hciCommandWhilePending])
        #expect(report.notices.map(\.severity) == [.warning])
    }

    /// The controller refuses an advertising set's new random address while it advertises.
    @Test func advertisingSetAddressRefusedIsInfo() {
        var s = HCIScenario()
        s.command(0x2035, [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
        s.commandComplete(0x2035, status: 0x0C)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.notices.map(\.kind) == [.advertisingAddressRefused])
        #expect(report.notices.map(\.severity) == [.info])
    }

    /// A background attempt staying open is how the filter accept list works: info.
    @Test func backgroundAttemptPendingAtTheEndIsInfo() {
        var s = HCIScenario()
        Self.backgroundCreate(&s)
        s.wait(ms: 5000)
        s.command(HCIScenario.leSetScanEnable, [0x00, 0x00])
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.notices.map(\.kind) == [.backgroundConnectionPending])
        #expect(report.notices.map(\.severity) == [.info])
        #expect(report.attempts.map(\.outcome) == [.neverCompleted])
    }

    /// Cancelled after a long wait: a warning; after a short one, only the attempt's line.
    @Test(arguments: [(61_000.0, 1), (2_000.0, 0)])
    func backgroundAttemptCancelled(waitMs: Double, warnings: Int) {
        var s = HCIScenario()
        Self.backgroundCreate(&s)
        s.wait(ms: waitMs)
        s.command(HCIScenario.leCreateConnectionCancel)
        s.commandComplete(HCIScenario.leCreateConnectionCancel)
        s.connectionComplete(handle: 0, peer: BluetoothAddress(value: 0), random: false, intervalUnits: 0, status: 0x02)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.notices.filter { $0.kind == .connectionAttemptCancelled && $0.severity == .warning }.count == warnings)
        #expect(report.attempts.map(\.outcome) == [.cancelled])
    }

    /// A failed command about one link is that link's.
    @Test func failedConnectionUpdateIsOnItsLink() {
        var s = connected()
        s.command(0x2013, [0x40, 0x00, 0x06, 0x00, 0x06, 0x00, 0x00, 0x00, 0xC8, 0x00, 0x00, 0x00, 0x00, 0x00])
        s.commandStatus(0x2013, status: 0x0C)
        let report = analyze(s.records).report
        #expect(report.failures.map(\.kind) == [.hciCommandFailed])
        #expect(report.failures[0].connectionID == ConnectionID(number: 1))
        #expect(report.failures[0].deviceID == report.connections[0].deviceID)
    }
}

/// ATT flows per direction: client requests apart from server indications (Core v5.4 Vol 3
/// Part F §3.3.2).
struct ATTFlowTests {
    let lock = SampleScenarios.lockA
    let handle: UInt16 = 0x0040
    static let readByType: [UInt8] = [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28]
    static let readByTypeResponse: [UInt8] = [0x09, 0x07, 0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A]
    static let serviceChanged: [UInt8] = [0x1D, 0x08, 0x00, 0x01, 0x00, 0xFF, 0xFF]

    func connected() -> HCIScenario { SampleScenarios.lockAConnected(handle: handle) }

    /// The phone, client and server at once, sends a request and then its own indication: the
    /// answers close each its own (the indication used to close the request as unanswered).
    @Test func requestAndIndicationInterleavedInOneDirection() {
        var s = connected()
        s.att(handle: handle, .sent, Self.readByType)
        s.att(handle: handle, .sent, Self.serviceChanged)
        s.att(handle: handle, .received, Self.readByTypeResponse)
        s.att(handle: handle, .received, [0x1E])
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.notices.isEmpty)
        let transactions = report.connections[0].transactions
        #expect(transactions.map(\.opcode.rawValue) == [0x08, 0x1D])
        #expect(transactions.map(\.outcome) == [.ok, .ok])
        #expect(transactions.map(\.responseOpcode?.rawValue) == [0x09, 0x1E])
        #expect(transactions[0].requestRecord < transactions[1].requestRecord)
        #expect((transactions[0].responseRecord ?? 0) < (transactions[1].responseRecord ?? 0))
    }

    /// A second request while the first is outstanding: a protocol violation of its own; the
    /// first stays outstanding and its answer closes it.
    @Test func secondRequestWhileOutstanding() {
        var s = connected()
        s.att(handle: handle, .sent, Self.readByType)
        s.att(handle: handle, .sent, [0x0A, 0x03, 0x00])
        s.att(handle: handle, .received, Self.readByTypeResponse)
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.notices.map(\.kind) == [.attProtocolViolation])
        #expect(report.notices.map(\.severity) == [.warning])
        #expect(report.notices[0].summary == "Read Request to handle 0x0003 sent by the host while Read By Type Request for handles from 0x0001 was still outstanding: ATT allows one at a time")
        // The JSON says who in the summary's word.
        #expect(report.notices[0].details.first { $0.name == "sentBy" }?.value == .string("host"))
        #expect(report.connections[0].transactions.map(\.outcome) == [.ok])
        // The second was sent: counted with its handle, matched to no answer.
        let totals = report.connections[0].transactionTotals.byKey
        #expect(totals.map(\.key.opcode) == [0x08, 0x0A])
        #expect(totals.map(\.key.handle) == [1, 3])
        #expect(totals.map(\.value.count) == [1, 1])
        #expect(totals.map(\.value.unanswered) == [0, 0])
        #expect(totals.map(\.value.latencies.count) == [1, 0])
    }

    /// Two links lost by supervision timeout whose silence began 30 ms apart (C1: 1 s timeout,
    /// C2: 500 ms) name each other; a third, silent 670 ms later, stands alone.
    @Test func linksLostTogetherNameEachOther() {
        var s = HCIScenario(stepUs: 0)
        s.connectionComplete(handle: 0x40, peer: lock, random: true, intervalUnits: 24, supervisionUnits: 100)
        s.connectionComplete(handle: 0x41, peer: SampleScenarios.lockB, random: false, intervalUnits: 24, supervisionUnits: 50)
        s.connectionComplete(handle: 0x42, peer: SampleScenarios.scale, random: true, intervalUnits: 24, supervisionUnits: 50)
        s.wait(ms: 2530)
        s.disconnectionComplete(handle: 0x41, reason: 0x08)   // silent from 2.030 s
        s.wait(ms: 470)
        s.disconnectionComplete(handle: 0x40, reason: 0x08)   // silent from 2.000 s
        s.wait(ms: 200)
        s.disconnectionComplete(handle: 0x42, reason: 0x08)   // silent from 2.700 s
        let report = analyze(s.records).report
        #expect(report.failures.map(\.connectionID) == [2, 1, 3].map { ConnectionID(number: $0) })
        #expect(report.failures.map(\.summary) == [
            "Link to C8:2B:96:41:07:B2 lost: Connection Timeout (0x08); C1 went silent at the same moment (by their supervision "
                + "timeouts, within 30 ms): a shared cause (the host's radio, interference) is likelier than a fault of this device",
            "Link to 5C:3A:91:0E:C7:21 lost: Connection Timeout (0x08); C2 went silent at the same moment (by their supervision "
                + "timeouts, within 30 ms): a shared cause (the host's radio, interference) is likelier than a fault of this device",
            "Link to E4:5F:01:22:33:44 lost: Connection Timeout (0x08)",
        ])
        #expect(report.failures.map { $0.details.first { $0.name == "lostWith" }?.value }
                == [.list([.string("C1")]), .list([.string("C2")]), nil])
        #expect(report.failures.allSatisfy { $0.severity == .failure })
    }

    /// A second primary-service discovery from 0x0001 well after the first is a run of its own.
    @Test func rediscoveryIsALineOfItsOwn() {
        var s = connected()
        let groupType: [UInt8] = [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28]
        let notFound: [UInt8] = [0x01, 0x10, 0x01, 0x00, 0x0A]
        let first = s.records.count
        s.att(handle: handle, .sent, groupType)
        s.att(handle: handle, .received, notFound)
        s.wait(ms: 5000)
        let again = s.records.count
        s.att(handle: handle, .sent, groupType)
        s.att(handle: handle, .received, notFound)
        let (firstUs, againUs) = (s.records[first].timestampUs, s.records[again].timestampUs)
        let report = analyze(s.records).report
        let c = report.connections[0]
        #expect(c.discovery?.startUs == firstUs && c.discovery?.endUs == firstUs)
        #expect(c.rediscoveries.map(\.startUs) == [againUs])
    }
}

/// Measured right: names without NUL padding, times from the earliest record, records out of
/// order said.
struct MeasuredTests {
    let lock = SampleScenarios.lockA

    @Test func namesLoseTrailingNULPadding() {
        var s = HCIScenario()
        s.advertisingReport(lock, random: true, data: HCIScenario.adStructure(0x09, Array("LOCK\0\0\0".utf8)), rssi: -50)
        s.advertisingReport(SampleScenarios.lockB, random: false,
                            data: HCIScenario.adStructure(0x09, Array("A\0B\0".utf8)), rssi: -50)
        let report = analyze(s.records).report
        #expect(report.devices.map(\.names) == [["LOCK"], ["A\0B"]])
    }

    @Test func recordsOutOfOrderCountFromTheEarliest() {
        var s = HCIScenario()
        s.command(HCIScenario.leSetScanEnable, [0x01, 0x00])
        s.wait(ms: -600)
        s.commandComplete(HCIScenario.leSetScanEnable)
        let earliest = s.records[1].timestampUs
        let report = analyze(s.records).report
        #expect(report.stats.firstTimeUs == earliest)
        #expect(report.stats.outOfOrderRecords == 1)
        #expect(report.notices.map(\.kind) == [.recordsOutOfOrder])
        #expect(report.notices[0].severity == .warning && report.notices[0].record == 2)
        #expect(report.notices[0].summary.hasPrefix("1 record(s) are timed earlier than a record before them (the first is #2, up to "))
    }
}

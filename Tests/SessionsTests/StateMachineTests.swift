import Foundation
import AnalyzerTestSupport
import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLESessions
import Testing

/// Each state machine fed event by event, including events out of order or missing.
struct StateMachineTests {
    let lock = SampleScenarios.lockA
    let handle: UInt16 = 0x0040

    func connected(subevent: UInt8 = 0x01) -> HCIScenario { SampleScenarios.lockAConnected(handle: handle, subevent: subevent) }

    @Test func connectionLifeAndReason() {
        var s = connected()
        s.wait(ms: 100)
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.connections.count == 1)
        let c = report.connections[0]
        #expect(c.id == ConnectionID(number: 1) && c.handle == handle && c.peerAddress == lock && c.role == .central)
        #expect(c.createUs == s.records[0].timestampUs && c.startUs == s.records[2].timestampUs)
        #expect(c.endUs == s.records[3].timestampUs && c.disconnectReason?.rawValue == 0x13 && c.initiator == .remote)
        #expect(c.parameters.first?.intervalUs == 30_000 && c.parameters.first?.supervisionTimeoutMs == 4000)
        #expect(report.failures.isEmpty)
    }

    @Test func abnormalDisconnectionIsALostLink() {
        var s = connected()
        s.disconnectionComplete(handle: handle, reason: 0x22)
        let report = analyze(s.records).report
        #expect(report.failures.map(\.kind) == [.linkLost])
        #expect(report.failures[0].summary == "Link to \(lock) lost: LMP/LL Response Timeout (0x22)")
        #expect(report.connections[0].initiator == .controller)
    }

    @Test func hostDisconnectIsLocal() {
        var s = connected()
        s.disconnectCommand(handle: handle, reason: 0x13)
        s.disconnectionComplete(handle: handle, reason: 0x16)
        let report = analyze(s.records).report
        #expect(report.connections[0].initiator == .localHost)
        #expect(report.failures.isEmpty)
    }

    @Test func cancelledAttemptIsNotAFailure() {
        var s = HCIScenario()
        s.createConnection(to: lock, random: true, intervalUnits: 24)
        s.wait(ms: 2000)
        s.command(HCIScenario.leCreateConnectionCancel)
        s.commandComplete(HCIScenario.leCreateConnectionCancel)
        s.connectionComplete(handle: 0, peer: lock, random: true, intervalUnits: 0, status: 0x02)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.connections.isEmpty)
        #expect(report.attempts.map(\.outcome) == [.cancelled])
        #expect(report.attempts[0].endUs.map { $0 - report.attempts[0].createUs } == 2_006_000)
    }

    /// 0x02 completes only a cancelled attempt (Core v5.4 Vol 4 Part E §7.8.13): a cancel the
    /// capture lacks (logged out of order, or sent by another host thread) is still a cancel.
    @Test func status02WithoutCancelSeenIsStillACancel() {
        var s = HCIScenario()
        s.createConnection(to: lock, random: true, intervalUnits: 24)
        s.connectionComplete(handle: 0, peer: lock, random: true, intervalUnits: 0, status: 0x02)
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.attempts.map(\.outcome) == [.cancelled])
    }

    @Test func refusedCreateIsACommandFailureNotAnAttempt() {
        var s = HCIScenario()
        s.createConnection(to: lock, random: true, intervalUnits: 24, status: 0x0C)
        let report = analyze(s.records).report
        #expect(report.failures.map(\.kind) == [.hciCommandFailed])
        #expect(report.failures[0].summary == "LE Create Connection failed: Command Disallowed (0x0C), answered by Command Status")
        #expect(report.attempts.map(\.outcome) == [.rejected])
    }

    @Test func createWithNoCompletionNeverCompleted() {
        var s = HCIScenario()
        s.createConnection(to: lock, random: true, intervalUnits: 24)
        s.wait(ms: 500)
        s.command(HCIScenario.leSetScanEnable, [0x00, 0x00])
        let report = analyze(s.records).report
        #expect(report.failures.isEmpty)
        #expect(report.notices.map(\.kind) == [.connectionNeverCompleted])
        #expect(report.notices.map(\.severity) == [.warning])
        #expect(report.notices[0].timeUs == s.records[0].timestampUs)
    }

    @Test func danglingAndUnansweredAtTheEnd() {
        var s = connected()
        s.att(handle: handle, .sent, [0x0A, 0x10, 0x00])   // Read Request, never answered
        let report = analyze(s.records).report
        // The link's last packet (the request) comes before the end of the capture (a credit event).
        // Both left open by the end of the capture: warnings, not failures.
        #expect(report.failures.isEmpty)
        #expect(report.notices.map(\.kind) == [.danglingConnection, .attNoResponse])
        #expect(report.notices.map(\.severity) == [.warning, .warning])
        #expect(report.notices[1].summary == "Read Request to handle 0x0010 never answered: the capture ended first")
        #expect(report.connections[0].dangling)
        #expect(report.connections[0].transactions.map(\.outcome) == [.noResponse])
    }

    /// Past the capture's cap only failed transactions are listed; the totals count them all.
    @Test(arguments: [4, 8])
    func transactionListingStopsAtTheCaptureCap(cap: Int) {
        var s = connected()
        for _ in 0..<6 {
            s.att(handle: handle, .sent, [0x0A, 0x10, 0x00])
            s.att(handle: handle, .received, [0x0B, 0x01])
        }
        for _ in 0..<2 {
            s.att(handle: handle, .sent, [0x0A, 0x10, 0x00])
            s.att(handle: handle, .received, [0x01, 0x0A, 0x10, 0x00, 0x02])   // Read Not Permitted
        }
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records, options: SessionOptions(transactions: .all, transactionsListedPerCapture: cap)).report
        let outcomes = report.connections[0].transactions.map(\.outcome)
        #expect(outcomes == (cap == 4 ? [.ok, .ok, .ok, .ok, .error, .error] : [.ok, .ok, .ok, .ok, .ok, .ok, .error, .error]))
        #expect(report.transactionListingCapped == (cap == 4))
        let read = report.connections[0].transactionTotals.byKey.first { $0.key.opcode == 0x0A && $0.key.handle == 0x0010 }
        #expect(read?.value.count == 8 && read?.value.errors == 2)
    }

    @Test func requestUnansweredFor30SecondsTimesOut() {
        var s = connected()
        s.att(handle: handle, .sent, [0x0A, 0x10, 0x00])
        s.wait(ms: 31_000)
        s.att(handle: handle, .received, [0x0B, 0x01])      // too late
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.map(\.kind) == [.attTimeout])
        #expect(report.failures[0].timeUs == s.records[3].timestampUs + 30_000_000)
        #expect(report.connections[0].transactions.map(\.outcome) == [.timeout])
    }

    @Test func errorResponsesButNotTheEndOfDiscovery() {
        var s = connected()
        s.discover(handle: handle, model: .demoLock)
        s.writeRequest(handle: handle, attribute: 0x000C, value: [1], errorCode: 0x03)
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let report = analyze(s.records).report
        #expect(report.failures.map(\.kind) == [.attError])
        #expect(report.failures[0].summary == "Write Request to Battery Level (2A19) failed: Write Not Permitted (0x03)")
        let totals = report.connections[0].transactionTotals.byKey.map(\.value)
        #expect(totals.reduce(0) { $0 + $1.discoveryEnds } == 3)
        #expect(totals.reduce(0) { $0 + $1.errors } == 1)
    }

    @Test func gattDatabaseIsRebuiltAndKeptAcrossConnections() {
        var s = connected()
        s.discover(handle: handle, model: .demoLock)
        s.disconnectionComplete(handle: handle, reason: 0x13)
        s.createConnection(to: lock, random: true, intervalUnits: 24)
        s.connectionComplete(handle: 0x0041, peer: lock, random: true, intervalUnits: 24)
        s.readRequest(handle: 0x0041, attribute: 0x0015, value: [], errorCode: 0x05)
        let report = analyze(s.records).report
        let gatt = report.devices[0].gatt
        #expect(gatt.map(\.handle) == [0x01, 0x03, 0x05, 0x06, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x0E, 0x10, 0x12, 0x13, 0x15])
        #expect(gatt.filter { $0.kind == .service }.map(\.uuid.description) == ["1800", "1801", "180F", "FFE0"])
        #expect(gatt.first { $0.handle == 0x12 }?.properties == ["Notify"])
        #expect(gatt.first { $0.handle == 0x13 }?.kind == .descriptor)
        #expect(report.findings.map(\.summary) == ["Read Request to FFE3 failed: Insufficient Authentication (0x05); "
                                                    + "then nothing: no pairing or encryption before the capture ended",
            "Connection to \(lock) still up when the capture ended (last packet 0 ms before the end)"])
    }

    @Test func mtuAndSubscriptions() {
        var s = connected()
        s.exchangeMTU(handle: handle, client: 517, server: 247)
        s.discover(handle: handle, model: .demoLock)
        s.writeRequest(handle: handle, attribute: 0x0013, value: [0x01, 0x00])
        let report = analyze(s.records).report
        #expect(report.connections[0].mtu == 247)
        #expect(report.connections[0].subscriptions.map(\.characteristic) == ["FFE2"])
        #expect(report.connections[0].subscriptions.map(\.notifications) == [true])
    }

    /// A listed transaction keeps the value its request carried (read in place from the record
    /// until then) or its response's, also when it is listed at the end of the capture.
    @Test(arguments: [SessionOptions.TransactionListing.all, .failed])
    func listedTransactionsKeepTheirValues(listing: SessionOptions.TransactionListing) {
        var s = connected()
        s.att(handle: handle, .sent, [0x12, 0x10, 0x00, 0xAA, 0x01])   // Write Request
        s.att(handle: handle, .received, [0x13])                       // Write Response
        s.att(handle: handle, .sent, [0x52, 0x10, 0x00, 0x05])         // Write Command
        s.att(handle: handle, .sent, [0x0A, 0x10, 0x00])               // Read Request
        s.att(handle: handle, .received, [0x0B, 0x07, 0x08])           // Read Response
        s.att(handle: handle, .sent, [0x12, 0x10, 0x00, 0x09])         // Write Request, never answered
        let report = analyze(s.records, options: SessionOptions(transactions: listing)).report
        let listed = report.connections[0].transactions
        if listing == .all {
            #expect(listed.map(\.opcode) == [.writeRequest, .writeCommand, .readRequest, .writeRequest])
            #expect(listed.map(\.value) == [[0xAA, 0x01], [0x05], nil, [0x09]])
            // What was read is the response's value.
            #expect(listed.map(\.responseValue) == [nil, nil, [0x07, 0x08], nil])
            #expect(listed.map(\.responseValueLength) == [nil, nil, 2, nil])
        } else {
            #expect(listed.map(\.opcode) == [.writeRequest])
            #expect(listed.map(\.value) == [[0x09]])
        }
    }

    /// Notifications are listed with their values (with `all`), apart from the transactions:
    /// counted among the values that need no answer, never as transactions.
    @Test(arguments: [SessionOptions.TransactionListing.all, .failed])
    func notificationsAreListedWithTheirValues(listing: SessionOptions.TransactionListing) {
        var s = connected()
        s.att(handle: handle, .sent, [0x12, 0x10, 0x00, 0xAA, 0x01])   // Write Request
        s.att(handle: handle, .received, [0x1B, 0x12, 0x00, 0x41, 0x42])   // Notification
        s.att(handle: handle, .received, [0x13])                       // Write Response
        s.att(handle: handle, .received, [0x0B, 0x07])                 // a Read Response nobody asked for
        let connection = analyze(s.records, options: SessionOptions(transactions: listing)).report.connections[0]
        #expect(connection.transactionTotals.byKey.map(\.key.opcode) == [0x12])
        #expect(connection.valueCounts.map { [$0.key.opcode: $0.value] } == [[0x1B: 1]])
        if listing == .all {
            #expect(connection.notifications.map(\.value) == [[0x41, 0x42]])
            #expect(connection.notifications.map(\.requestRecord) == [s.records.count - 2])
            #expect(connection.notifications.map(\.outcome) == [.noResponseExpected])
        } else {
            #expect(connection.notifications.isEmpty)
        }
    }

    @Test func indicationIsConfirmed() {
        var s = connected()
        s.att(handle: handle, .received, [0x1D, 0x08, 0x00, 0x01, 0x00, 0xFF, 0xFF])
        s.att(handle: handle, .sent, [0x1E])
        let report = analyze(s.records).report
        #expect(report.connections[0].transactions.map(\.outcome) == [.ok])
        #expect(report.connections[0].transactions.map(\.opcode) == [.handleValueIndication])
    }

    @Test func valuesAreHandedToVendorDecoders() {
        var s = connected()
        s.exchangeMTU(handle: handle, server: 247)
        s.discover(handle: handle, model: .demoLock)
        s.writeRequest(handle: handle, attribute: 0x0010, value: [0xAA, 0x01])
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let events = analyze(s.records).events
        let values = events.compactMap { if case .attValue(let v) = $0 { v } else { nil } }
        #expect(values.map(\.handle) == [0x0010])
        #expect(values[0].hostToDevice && values[0].uuid == BluetoothUUID(uint16: 0xFFE1) && values[0].mtu == 247)
        #expect(values[0].connection == ConnectionID(number: 1) && values[0].value == [0xAA, 0x01])
        #expect(events.contains { if case .connectionEnded(ConnectionID(number: 1), _) = $0 { true } else { false } })
    }

    /// Who a connection is with comes before its first value, and again only when it changed.
    @Test func theDeviceComesBeforeTheFirstValueAndWhenItChanges() {
        var s = connected()
        s.writeRequest(handle: handle, attribute: 0x0010, value: [0x01])     // before discovery: no services
        s.discover(handle: handle, model: .demoLock)
        s.writeRequest(handle: handle, attribute: 0x0010, value: [0x02])
        s.writeRequest(handle: handle, attribute: 0x0010, value: [0x03])     // nothing changed since
        let events = analyze(s.records).events
        let kinds = events.compactMap { event -> String? in
            switch event {
            case .device(let device): return "device \(device.services.map(\.description))"
            case .attValue(let value): return "value \(value.value)"
            default: return nil
            }
        }
        #expect(kinds == ["device []", "value [1]", "device [\"1800\", \"1801\", \"180F\", \"FFE0\"]", "value [2]", "value [3]"])
        let devices = events.compactMap { if case .device(let d) = $0 { d } else { nil } }
        #expect(devices.map(\.connection) == [ConnectionID(number: 1), ConnectionID(number: 1)])
        #expect(devices.map(\.deviceID) == [DeviceID(number: 1), DeviceID(number: 1)] && devices.map(\.profile) == [nil, nil])
    }

    @Test func enhancedCompleteTiesRPAToIdentity() {
        var s = HCIScenario()
        let rpa = BluetoothAddress("4A:11:22:33:44:55")!
        s.advertisingReport(rpa, random: true, data: HCIScenario.adStructure(0x09, Array("LOCK".utf8)), rssi: -50)
        s.createConnection(to: rpa, random: true, intervalUnits: 24)
        // Enhanced v1 with the identity address as peer and the RPA in Peer_Resolvable_Private_Address.
        var w = ByteWriter()
        w.writeUInt8(0); w.writeUInt16LE(handle); w.writeUInt8(0); w.writeUInt8(2)
        w.writeBytes(lock.wire); w.writeBytes([UInt8](repeating: 0, count: 6)); w.writeBytes(rpa.wire)
        w.writeUInt16LE(24); w.writeUInt16LE(0); w.writeUInt16LE(400); w.writeUInt8(0)
        s.leMeta(0x0A, w.bytes)
        let report = analyze(s.records).report
        #expect(report.devices.count == 1)
        #expect(Set(report.devices[0].addresses.map(\.address)) == [rpa, lock])
        #expect(report.devices[0].identity == DeviceIdentity(value: lock.description, source: "enhanced-connection-complete"))
        #expect(report.devices[0].names == ["LOCK"])
    }

    @Test func smpIdentityAddressMergesDevices() {
        var s = connected()
        let identity = BluetoothAddress("C0:11:22:33:44:55")!
        s.l2cap(handle: handle, .received, cid: 0x0006, [0x09, 0x01] + identity.wire)
        s.advertisingReport(identity, random: true, data: [], rssi: -40)
        let report = analyze(s.records).report
        #expect(report.devices.count == 1)
        #expect(report.devices[0].identity == DeviceIdentity(value: identity.description, source: "smp-identity-address"))
    }

    /// A link the capture did not see begin is a connection from its first record; a handle
    /// used again after its Disconnection Complete is a new one. Stray answers stay unmatched.
    @Test func linksTheCaptureDidNotSeeBeginAreConnections() {
        var s = HCIScenario()
        s.disconnectionComplete(handle: 0x0099, reason: 0x08)
        s.att(handle: 0x0099, .received, [0x0B, 0x01])
        s.commandComplete(0x200B)                            // no command before it
        let report = analyze(s.records).report
        #expect(report.connections.map(\.id) == [ConnectionID(number: 1), ConnectionID(number: 2)])
        #expect(report.connections.allSatisfy { $0.startedBeforeCapture && $0.deviceID == nil && $0.handle == 0x0099 })
        #expect(report.connections[0].startRecord == 1 && report.connections[0].endRecord == 1)
        #expect(report.connections[0].disconnectReason?.rawValue == 0x08)
        #expect(report.connections[1].startRecord == 2 && report.connections[1].dangling)
        #expect(report.connections[1].transactionTotals.byKey.isEmpty)
        #expect(report.failures.map(\.kind) == [.linkLost])
        // The stray Read Response is said, as an answer to a request the capture does not hold.
        #expect(report.notices.map(\.kind) == [.attAnswerWithoutRequest, .danglingConnection])
        #expect(report.notices.first?.summary == "Read Response from the device answers no request the capture holds "
                + "(sent before the capture began, or not captured)")
        #expect(report.notices.first?.severity == .info)
        #expect(report.stats.attPDUs == [0x0B: 1])
    }

    @Test func classifierMergesRotatingAddresses() {
        var s = HCIScenario()
        let second = BluetoothAddress("7A:00:00:00:00:01")!
        let ad = SampleScenarios.lockAdvertisement(name: "LOCK", mac: SampleScenarios.lockAFactoryMAC, battery: 50)
        s.advertisingReport(lock, random: true, data: ad, rssi: -50)
        s.advertisingReport(second, random: true, data: ad, rssi: -52)
        let classifier: @Sendable (BLEHCI.AdvertisingData) -> DeviceClassification? = { data in
            data.manufacturerData.first.map {
                DeviceClassification(identity: DeviceIdentity(value: Hex.string($0.1.dropFirst().prefix(6)), source: "test"),
                                     profile: "test")
            }
        }
        let report = analyze(s.records, options: SessionOptions(transactions: .all, classifier: classifier)).report
        #expect(report.devices.count == 1)
        #expect(report.devices[0].addresses.map(\.address) == [lock, second])
        #expect(report.devices[0].advertisements == 2)
        #expect(report.devices[0].addresses.compactMap(\.rssi).map(\.median) == [-50, -52])
    }

    /// A legacy report's Data is parsed only when the address sent other bytes the last time, in
    /// an advertisement and in a scan response apart; the same bytes again are counted alone, and
    /// the device comes out as if each had been parsed.
    @Test func repeatedAdvertisingDataIsParsedOnce() {
        let name = Self.completeLocalName
        let power = HCIScenario.adStructure(0x0A, [0xF8])
        var s = HCIScenario()
        for (data, eventType) in [(name("LOCK"), 0x00), (power, 0x04), (name("LOCK"), 0x00), (power, 0x04),
                                  (name("LOCK"), 0x00), (name("LOCK-2"), 0x00), (name("LOCK"), 0x00)] as [([UInt8], UInt8)] {
            s.advertisingReport(lock, random: true, eventType: eventType, data: data, rssi: -50)
        }
        let (report, calls) = Self.analyzeCountingClassifications(s.records)
        #expect(calls == 4)
        #expect(report.devices.count == 1)
        #expect(report.devices[0].names == ["LOCK", "LOCK-2"] && report.devices[0].txPower == -8)
        #expect(report.devices[0].addresses.map(\.advertisements) == [5] && report.devices[0].addresses.map(\.scanResponses) == [2])
    }

    /// An extended report's Data (its fragments joined) is parsed only when the address sent
    /// other bytes the last time, as a legacy report's: a name split over two fragments, sent
    /// three times, then another name, then the first again.
    @Test func repeatedExtendedAdvertisingDataIsParsedOnce() {
        let long = Self.completeLocalName(String(repeating: "L", count: 40))
        var s = HCIScenario()
        for data in [long, long, long, Self.completeLocalName("LOCK-2"), long] {
            s.extendedAdvertisingReport(lock, random: true, data: data, rssi: -50, fragmentSize: 30)
        }
        let (report, calls) = Self.analyzeCountingClassifications(s.records)
        #expect(calls == 3)
        #expect(report.devices.count == 1)
        #expect(report.devices[0].names == [String(repeating: "L", count: 40), "LOCK-2"])
        #expect(report.devices[0].addresses.map(\.advertisements) == [5])
    }

    /// An AD structure Complete Local Name (AD type 0x09) of `text`.
    static func completeLocalName(_ text: String) -> [UInt8] { HCIScenario.adStructure(0x09, Array(text.utf8)) }

    /// The report of `records`, and how many times the advertising classifier was asked (it
    /// matches nothing).
    static func analyzeCountingClassifications(_ records: [CaptureRecord]) -> (report: SessionReport, calls: Int) {
        let calls = CallCounter()
        let classifier: @Sendable (BLEHCI.AdvertisingData) -> DeviceClassification? = { _ in
            calls.add()
            return nil
        }
        let report = analyze(records, options: SessionOptions(transactions: .all, classifier: classifier)).report
        return (report, calls.count)
    }
}

/// Counts a classifier's calls (it runs on the analysis's thread; the lock is for `Sendable`).
private final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0
    var count: Int { lock.withLock { calls } }
    func add() { lock.withLock { calls += 1 } }
}

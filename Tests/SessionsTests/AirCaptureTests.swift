import AnalyzerTestSupport
import Foundation
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEPacketDecoding
import BLESessions
import Testing

/// Air-sniffer captures as sniffers really write them (docs/air-captures.md), built with the air
/// scenario builder and run through the whole pipeline.
struct AirCaptureTests {
    static let central = BluetoothAddress("C0:11:22:33:44:55")!
    static let peripheral = BluetoothAddress("D1:5C:F0:EE:02:8F")!
    static let peripheralIdentity = BluetoothAddress("F1:00:00:00:00:01")!
    static let centralIdentity = BluetoothAddress("C1:00:00:00:00:02")!
    static let aa: UInt32 = 0x5065_4BD1

    /// Advertising, CONNECT_IND, an MTU exchange in the clear, then (once the link is encrypted)
    /// a Read, SMP key distribution both ways and LL_TERMINATE_IND, each with `flags`.
    static func encryptedLink(_ framing: AirScenario.Framing, flags: AirScenario.NordicFlags) -> AirScenario {
        var s = AirScenario(framing: framing)
        s.advertise(peripheral)
        s.connectInd(initA: central, advA: peripheral, accessAddress: aa)
        s.wait(ms: 2)
        s.empty(aa, .central)
        s.empty(aa, .peripheral)
        s.att(aa, .central, [0x02, 0x00, 0x02])                         // Exchange MTU Request 512
        s.att(aa, .peripheral, [0x03, 0xF7, 0x00])                      // Exchange MTU Response 247
        s.wait(ms: 30)
        s.att(aa, .central, [0x0A, 0x03, 0x00], flags: flags)           // Read Request 0x0003
        s.att(aa, .peripheral, [0x0B, 0x42, 0x43, 0x44], flags: flags)  // Read Response "BCD"
        // SMP Identity Information (IRK) and Identity Address Information (public), each side.
        s.smp(aa, .peripheral, [0x08] + Array(repeating: 0x11, count: 16), flags: flags)
        s.smp(aa, .peripheral, [0x09, 0x00] + peripheralIdentity.wire, flags: flags)
        s.smp(aa, .central, [0x08] + Array(repeating: 0x22, count: 16), flags: flags)
        s.smp(aa, .central, [0x09, 0x00] + centralIdentity.wire, flags: flags)
        s.wait(ms: 30)
        s.terminate(aa, .central, reason: 0x13, flags: flags)
        s.empty(aa, .peripheral, flags: flags)
        return s
    }

    /// Checks that every PDU of `encryptedLink` decoded whole.
    static func expectWhole(_ s: AirScenario) {
        let (report, _) = analyze(s.records)
        #expect(report.stats.attPDUs == [0x02: 1, 0x03: 1, 0x0A: 1, 0x0B: 1])
        #expect(report.stats.issues.isEmpty)
        #expect(report.failures.map(\.kind) == [])
        #expect(report.connections.count == 1)
        let connection = report.connections.first
        #expect(connection?.mtu == 247)
        #expect(connection?.disconnectReason == HCIStatus(rawValue: 0x13))
        #expect(connection?.transactions.map(\.outcome) == [.ok, .ok])
        #expect(connection?.transactions.last?.responseValue == [0x42, 0x43, 0x44])
        // Identity Address Information belongs to its sender: the central's is the central's.
        #expect(report.devices.map { $0.identity?.value } == [peripheralIdentity.description, centralIdentity.description])
        #expect(report.devices.map { $0.addresses.map(\.address) }
                == [[peripheral, peripheralIdentity], [central, centralIdentity]])
        #expect(report.devices.map(\.connectionIDs) == [[ConnectionID(number: 1)], []])
    }

    /// The nRF Sniffer with the key writes decrypted PDUs with flags encrypted + MIC OK, the
    /// MIC removed and Length reduced (packet-nordic_ble.c): nothing more is cut off.
    @Test func nordicDecryptedPDUsDecodeWhole() {
        Self.expectWhole(Self.encryptedLink(.nordic, flags: .decrypted))
    }

    /// A sniffer that leaves the MIC after the plaintext (RF pseudo-header, decrypted flag)
    /// counts it in Length: it is split off.
    @Test func decryptedPDUsWithTheirMICDecodeWhole() {
        Self.expectWhole(Self.encryptedLink(.phdr, flags: .decrypted))
    }

    /// Without the key the nRF Sniffer flags the PDU encrypted with a failed MIC check and
    /// writes the ciphertext and MIC: reported encrypted and not decrypted, nothing decoded.
    @Test func nordicEncryptedNotDecryptedIsSaidSo() {
        let s = Self.encryptedLink(.nordic, flags: .encrypted)
        let packets = decodeEach(s.records)
        let read = packets[6]   // the Read Request, as ciphertext
        #expect(read.air?.flags.contains(.encrypted) == true && read.air?.flags.contains(.notDecrypted) == true)
        #expect(read.l2cap.isEmpty)
        let (report, _) = analyze(s.records)
        #expect(report.stats.attPDUs == [0x02: 1, 0x03: 1])
        #expect(report.connections.first?.disconnectReason == nil)
    }

    /// Test tools reuse one access address: each CONNECT_IND starts a connection, ending the
    /// one before it (with its terminate when one was seen, else "end not captured").
    @Test func threeConnectionsOnOneAccessAddress() {
        var s = AirScenario()
        s.advertise(Self.peripheral)
        var lastPacket: [Int64] = []
        for (index, reason) in [UInt8?.some(0x13), nil, 0x16].enumerated() {
            s.connectInd(initA: Self.central, advA: Self.peripheral, accessAddress: Self.aa)
            s.wait(ms: 2)
            s.empty(Self.aa, .central)
            s.empty(Self.aa, .peripheral)
            s.att(Self.aa, .central, [0x0A, UInt8(index + 1), 0x00])   // Read Request
            s.att(Self.aa, .peripheral, [0x0B, 0x01])
            if let reason {
                s.terminate(Self.aa, .central, reason: reason)
                s.empty(Self.aa, .peripheral)
            }
            lastPacket.append(s.clockUs - 625)
            s.wait(ms: 200)
        }
        let (report, _) = analyze(s.records)
        #expect(report.connections.map(\.id) == [ConnectionID(number: 1), ConnectionID(number: 2), ConnectionID(number: 3)])
        #expect(report.connections.map { $0.disconnectReason?.rawValue } == [0x13, nil, 0x16])
        #expect(report.connections[1].endUs == lastPacket[1])
        #expect(report.connections.map { $0.transactions.count } == [1, 1, 1])
        #expect(report.devices.map(\.connectionIDs) == [[ConnectionID(number: 1), ConnectionID(number: 2), ConnectionID(number: 3)]])
        #expect(report.attempts.isEmpty && report.failures.isEmpty)
    }

    /// A request whose answer may be in encrypted PDUs the sniffer could not decrypt (garmin
    /// 4553, then 44 encrypted PDUs from the peripheral): not "never answered", and the
    /// encrypted PDUs are named as where the answer may be.
    @Test func anAnswerInEncryptedTrafficIsNotNeverAnswered() {
        var s = AirScenario()
        s.advertise(Self.peripheral)
        s.connectInd(initA: Self.central, advA: Self.peripheral, accessAddress: Self.aa)
        s.wait(ms: 2)
        s.att(Self.aa, .central, [0x12, 0x10, 0x00, 0x01, 0x00])   // Write Request
        s.empty(Self.aa, .peripheral, flags: .encrypted)
        s.att(Self.aa, .central, [0x52, 0x11, 0x00, 0x01], flags: .encrypted)
        s.att(Self.aa, .peripheral, [0x13], flags: .encrypted)      // the answer, unreadable
        s.att(Self.aa, .peripheral, [0x1B, 0x12, 0x00, 0x07], flags: .encrypted)
        s.terminate(Self.aa, .central, reason: 0x13, flags: .encrypted)
        let (report, _) = analyze(s.records)
        let unanswered = report.findings.filter { $0.kind == .attNoResponse }
        // The terminate went encrypted too: the link was up, as far as the capture shows, at its end.
        #expect(unanswered.map(\.summary) == ["Write Request to handle 0x0010 got no readable answer: the capture ended first "
            + "(the peripheral sent 2 encrypted PDU(s) after it, which cannot be read without the link's key; the answer "
            + "may be among them)"])
    }

    /// crackle_lesc 91–98: the answer's start fragment (LLID 10, 27 of the PDU's 46 bytes) was
    /// captured, its continuation lost, and the next request shows the answer came. The notice
    /// names that start; a start that does not fit the request (a notification) leaves the plain
    /// "not captured", and a start whose continuation came makes the answer whole (here
    /// malformed: the request failed on it).
    @Test(arguments: [AnswerStart.fits, .notification, .completedMalformed])
    func anAnswerCaughtAtItsStartIsNamed(_ start: AnswerStart) throws {
        var s = AirScenario()
        s.advertise(Self.peripheral)
        s.connectInd(initA: Self.central, advA: Self.peripheral, accessAddress: Self.aa)
        s.wait(ms: 2)
        s.att(Self.aa, .central, [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28])   // Read By Group Type Request
        // A 128-bit service group from 0x0001 to 0x0005: opcode, length 20, then 20 bytes (Vol 3
        // Part F §3.4.4.10); the L2CAP length 42 covers one group whole. Malformed: length 19.
        let opcode: UInt8 = start == .notification ? 0x1B : 0x11
        let response = [opcode, start == .completedMalformed ? 0x13 : 0x14, 0x01, 0x00, 0x05, 0x00]
            + (0..<16).map { UInt8($0) } + [0x06, 0x00, 0x0A, 0x00] + (0..<16).map { UInt8($0 + 0x40) }
        let pdu = [UInt8(response.count), 0x00, 0x04, 0x00] + response
        s.send(Self.aa, .peripheral, llid: .start, Array(pdu.prefix(27)))
        let startRecord = s.records.count
        if start == .completedMalformed { s.send(Self.aa, .peripheral, llid: .continuation, Array(pdu.dropFirst(27))) }
        s.att(Self.aa, .central, [0x10, 0x06, 0x00, 0xFF, 0xFF, 0x00, 0x28])
        let (report, _) = analyze(s.records)
        let missed = report.notices.first { $0.kind == .attAnswerNotCaptured }
        switch start {
        case .fits:
            #expect(pdu.count == 46)
            #expect(missed?.record == 3)
            #expect(missed?.summary == "Read By Group Type Request for handles from 0x0001: only the start of its answer was "
                    + "captured (a Read By Group Type Response began at record \(startRecord) with 27 of its 46 bytes; the "
                    + "sniffer missed the rest)")
            #expect(missed?.details.contains(.int("answerRecord", startRecord)) == true)
        case .notification:
            #expect(missed?.record == 3)
            #expect(missed?.summary == "Read By Group Type Request for handles from 0x0001: its answer was not captured "
                    + "(the next request shows it came; the sniffer missed it)")
            #expect(missed?.details.contains { $0.name == "answerRecord" } == false)
        case .completedMalformed:
            #expect(missed == nil)
            #expect(report.failures.map(\.kind) == [.attMalformedAnswer])
            #expect(report.failures.first?.record == startRecord + 1)
        }
    }

    enum AnswerStart: CaseIterable, Sendable {
        case fits, notification, completedMalformed
    }

    /// Radio noise: advertising packets whose access address took one or two bit errors (as a
    /// raw LL packet, which the address makes a data PDU, and as an nRF Sniffer advertising
    /// packet), a CRC failure, a "data" PDU on advertising channel 38, and data PDUs on an
    /// access address nobody announced or answered.
    @Test func radioNoiseIsNoConnection() {
        var nordic = AirScenario()
        nordic.advertise(Self.peripheral)
        nordic.advertise(Self.peripheral, accessAddress: 0x8E89_BED6 ^ 0x0000_0011)
        nordic.advertise(Self.peripheral, crcOK: false)
        nordic.data(0x1234_5678, .central, llid: .start, sn: false, nesn: false, [0x03, 0x00, 0x04, 0x00, 0x0A, 0x01, 0x00],
                    channel: 38)
        for _ in 0..<3 {
            nordic.data(0x2345_6789, .central, llid: .continuation, sn: false, nesn: false, [])
            nordic.wait(ms: 30)
        }
        var raw = AirScenario(framing: .raw, startUs: nordic.clockUs)
        raw.advertise(Self.peripheral, accessAddress: 0x8E89_BED6 ^ 0x0100_0000)
        raw.advertise(Self.peripheral)
        for s in [nordic, raw] {
            let (report, _) = analyze(s.records)
            #expect(report.connections.isEmpty && report.attempts.isEmpty && report.failures.isEmpty)
            #expect(report.stats.undecodableRadioPackets == s.records.count - 1)
            #expect(report.devices.map { $0.addresses.map(\.advertisements) } == [[1]])
        }
    }

    /// The caveat on an unanswered request counts only packets lost where its answer could be:
    /// bad CRCs on its link (or on no readable link while it was up) after the request, not
    /// advertising ones, ones before the link, or ones on the link before the request.
    @Test func badCRCCaveatCountsOnlyTheLinkWhileTheRequestWaited() {
        var s = AirScenario()
        s.advertise(Self.peripheral)
        for _ in 0..<3 { s.advertise(Self.peripheral, crcOK: false) }
        s.data(0x2345_6789, .central, llid: .continuation, sn: false, nesn: false, [], crcOK: false)
        s.connectInd(initA: Self.central, advA: Self.peripheral, accessAddress: Self.aa)
        s.wait(ms: 2)
        s.empty(Self.aa, .central)
        s.empty(Self.aa, .peripheral)
        s.data(Self.aa, .peripheral, llid: .continuation, sn: false, nesn: false, [], crcOK: false)
        s.wait(ms: 30)
        s.att(Self.aa, .central, [0x0A, 0x03, 0x00])
        let request = s.records.count
        s.data(Self.aa, .peripheral, llid: .start, sn: false, nesn: false, [0x02, 0x00, 0x04, 0x00, 0x0B, 0x01], crcOK: false)
        s.data(0x2345_6789, .central, llid: .continuation, sn: false, nesn: false, [], crcOK: false)
        s.wait(ms: 30)
        s.terminate(Self.aa, .central, reason: 0x08)
        let (report, _) = analyze(s.records)
        #expect(report.stats.badCRCPackets == 7)
        #expect(report.failures.filter { $0.kind == .attNoResponse }.map(\.summary) == [
            "Read Request to handle 0x0003 never answered: the link went down first (Connection Timeout) (the sniffer lost "
                + "2 packet(s) on this link to bad CRCs while it waited; the answer may be among them)"])
        #expect(report.failures.filter { $0.kind == .attNoResponse }.map(\.record) == [request])
    }

    /// A peripheral gone quiet while the central polls on: the link is lost one supervision
    /// timeout after the peripheral's last packet (Core v5.4 Vol 6 Part B §4.5.2), named by that
    /// packet; the unanswered request is named by its own record. A central polling past that
    /// time heard packets the sniffer missed: the loss is then its last poll.
    @Test(arguments: [600.0, 1500.0])
    func silentPeripheralLostOneSupervisionTimeoutLater(pollingMs: Double) {
        var s = AirScenario()
        s.advertise(Self.peripheral)
        s.connectInd(initA: Self.central, advA: Self.peripheral, accessAddress: Self.aa, timeoutUnits: 100)
        s.wait(ms: 2)
        s.empty(Self.aa, .central)
        s.empty(Self.aa, .peripheral)
        let lastPeripheral = s.records.count
        let lastPeripheralUs = s.records[lastPeripheral - 1].timestampUs
        s.wait(ms: 30)
        s.att(Self.aa, .central, [0x12, 0x11, 0x00, 0x01])
        let request = s.records.count
        for _ in 0..<Int(pollingMs / 30) {
            s.wait(ms: 30)
            s.empty(Self.aa, .central)
        }
        let lastPollUs = s.records[s.records.count - 1].timestampUs
        s.wait(ms: 3000)
        s.advertise(Self.peripheral)
        let (report, _) = analyze(s.records)
        let due = pollingMs < 1000
        #expect(report.failures.map(\.kind) == [.attNoResponse, .linkLost])
        #expect(report.failures.map(\.timeUs) == [due ? lastPeripheralUs + 1_000_000 : lastPollUs].map { [$0, $0] }[0])
        #expect(report.failures.map(\.record) == [request, due ? lastPeripheral : nil])
        #expect(report.failures.last?.summary == "Link to D1:5C:F0:EE:02:8F lost: Connection Timeout (0x08) (inferred from "
                + "silence: the central kept polling, the peripheral stopped answering"
                + (due ? "; lost one supervision timeout (1.0 s) after its last packet (record \(lastPeripheral)))" : ")"))
    }

    /// A CONNECT_IND cut to 22 of its 34 bytes (up to WinOffset) is malformed, but the
    /// peripheral answers on the access address it carried: the link is real.
    @Test func shortConnectIndAnsweredByThePeripheralIsALink() {
        var s = AirScenario()
        s.advertise(Self.peripheral)
        s.connectInd(initA: Self.central, advA: Self.peripheral, accessAddress: Self.aa, truncatedTo: 22)
        s.wait(ms: 2)
        s.empty(Self.aa, .central)
        s.empty(Self.aa, .peripheral)
        s.att(Self.aa, .central, [0x0A, 0x03, 0x00])
        s.att(Self.aa, .peripheral, [0x0B, 0x01])
        let (report, _) = analyze(s.records)
        #expect(report.stats.issues[.malformed] == 1)
        #expect(report.connections.count == 1)
        #expect(report.connections.first?.peerAddress == Self.peripheral)
        #expect(report.connections.first?.centralAddress == Self.central)
        #expect(report.connections.first?.crcInit == 0x5A_3C11)
        #expect(report.connections.first?.createUs == s.records[1].timestampUs)
        #expect(report.connections.first?.transactions.map(\.outcome) == [.ok])
        #expect(report.stats.attPDUs == [0x0A: 1, 0x0B: 1])
    }

    /// Nothing on the new access address after CONNECT_IND: the sniffer did not follow. The
    /// capture does not show the link's fate: an attempt never completed, no failure.
    @Test func connectIndNotFollowedIsNoFailure() {
        var s = AirScenario()
        s.advertise(Self.peripheral)
        s.connectInd(initA: Self.central, advA: Self.peripheral, accessAddress: Self.aa)
        s.wait(ms: 500)
        s.advertise(Self.peripheral)
        let (report, _) = analyze(s.records)
        #expect(report.connections.isEmpty && report.failures.isEmpty)
        #expect(report.attempts.map(\.outcome) == [.neverCompleted])
        #expect(report.attempts.first?.peerAddress == Self.peripheral && report.attempts.first?.status == nil)
        #expect(report.devices.map(\.connectionIDs) == [[]])
        #expect(report.notices.map(\.kind) == [.connectionNotFollowed])
        #expect(report.notices.first?.summary == "CONNECT_IND to D1:5C:F0:EE:02:8F on access address 0x50654BD1: "
                + "the sniffer did not follow the link, whose fate the capture does not show")
        #expect(report.notices.first?.severity == .warning)
    }

    /// The central polls on the new access address and the peripheral never answers: the
    /// connection failed to be established (0x3E), with that evidence.
    @Test func connectIndNeverAnsweredFails() {
        var s = AirScenario()
        s.advertise(Self.peripheral)
        s.connectInd(initA: Self.central, advA: Self.peripheral, accessAddress: Self.aa)
        for index in 0..<6 {
            s.wait(ms: 30)
            // Two Read Requests among the polls: the second leaves the first unanswered.
            let read: [UInt8] = [0x03, 0x00, 0x04, 0x00, 0x0A, UInt8(index), 0x00]
            s.data(Self.aa, .central, llid: index % 3 == 1 ? .start : .continuation, sn: false, nesn: false,
                   index % 3 == 1 ? read : [])
        }
        let (report, _) = analyze(s.records)
        #expect(report.connections.isEmpty)
        #expect(report.attempts.map(\.outcome) == [.failed])
        #expect(report.attempts.first?.status == HCIStatus(rawValue: 0x3E))
        // The link never came up: its failure is the connection's; the second request, sent
        // while the first was outstanding, is a protocol violation (a warning).
        #expect(report.failures.map(\.kind) == [.connectionFailed])
        #expect(report.notices.map(\.kind) == [.attProtocolViolation])
        #expect((report.failures + report.notices).allSatisfy { $0.connectionID == nil })
        #expect(report.failures.last?.summary == "Connection to D1:5C:F0:EE:02:8F failed: the central's packets on access "
                + "address 0x50654BD1 went unanswered (Connection Failed to be Established, 0x3E)")
        #expect(report.devices.map(\.connectionIDs) == [[]])
    }

    /// A driver that logs every send with SN = NESN = 0 (SweynTooth-style) gives no sequence
    /// evidence: identical requests half a second apart are new sends, and so is a second one
    /// while the first is unanswered. A real resend at the next event, by a side whose bits
    /// move, is still one.
    @Test func driverFilesWithoutSequenceBitsHaveNoRetransmissions() {
        var s = AirScenario()
        s.advertise(Self.peripheral)
        s.connectInd(initA: Self.central, advA: Self.peripheral, accessAddress: Self.aa)
        let read: [UInt8] = [0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00]
        let answer: [UInt8] = [0x02, 0x00, 0x04, 0x00, 0x0B, 0x01]
        for _ in 0..<2 {
            s.wait(ms: 500)
            s.data(Self.aa, .central, llid: .start, sn: false, nesn: false, read)
            s.data(Self.aa, .peripheral, llid: .start, sn: false, nesn: false, answer)
        }
        s.wait(ms: 500)
        s.data(Self.aa, .central, llid: .start, sn: false, nesn: false, read)
        s.wait(ms: 500)
        s.data(Self.aa, .central, llid: .start, sn: false, nesn: false, read)
        let flagged = decodeEach(s.records).filter { $0.air?.flags.contains(.retransmission) == true }
        #expect(flagged.isEmpty)
        let (report, _) = analyze(s.records)
        #expect(report.stats.attPDUs == [0x0A: 4, 0x0B: 2])
        // The last request, sent while the one before was unanswered, is a protocol violation,
        // not a resend: the first stays outstanding, the second is not tracked.
        #expect(report.connections.first?.transactions.map(\.outcome) == [.ok, .ok, .noResponse])
        #expect(report.notices.map(\.kind).contains(.attProtocolViolation))

        // The same link layer resending at the next event (30 ms), its SN having moved before.
        var live = AirScenario()
        live.connectInd(initA: Self.central, advA: Self.peripheral, accessAddress: Self.aa)
        live.data(Self.aa, .central, llid: .continuation, sn: false, nesn: false, [])
        live.data(Self.aa, .peripheral, llid: .continuation, sn: false, nesn: true, [])
        live.wait(ms: 30)
        live.data(Self.aa, .central, llid: .start, sn: true, nesn: true, read)
        live.data(Self.aa, .peripheral, llid: .continuation, sn: true, nesn: true, [])   // NAK: NESN still 1
        live.wait(ms: 30)
        live.data(Self.aa, .central, llid: .start, sn: true, nesn: false, read)
        let resent = decodeEach(live.records).map { $0.air?.flags.contains(.retransmission) == true }
        #expect(resent == [false, false, false, false, false, true])
    }

    /// `swt_st_att_deadlock.pcap`: frame 81 (P→C) carries the peripheral's Identity Address
    /// Information, frame 86 (C→P) the central's (5D:36:AC:90:0B:22, its InitA in CONNECT_IND
    /// frame 13). Each stays with its sender.
    @Test func swtIdentitiesStayWithTheirSenders() throws {
        guard SharedCaptures.present else {
            print("skipped: \(SharedCaptures.root.path) is absent")
            return
        }
        let report = try analyzeFile(SharedCaptures.path("real/swt_st_att_deadlock.pcap"))
        let peripheral = report.devices.first { $0.connectionIDs == [ConnectionID(number: 1)] }
        let central = report.devices.first { $0.identity?.value == "5D:36:AC:90:0B:22" }
        #expect(peripheral?.addresses.map(\.address.description) == ["80:E1:26:00:66:92"])
        #expect(peripheral?.identity?.value == "80:E1:26:00:66:92")
        #expect(central?.addresses.map(\.address.description) == ["5D:36:AC:90:0B:22"] && central?.connectionIDs == [])
    }

    /// The report's ATT counts per opcode on every real air capture equal tshark's (README),
    /// except the two link-layer resends tshark counts again (`TsharkDifferenceTests`).
    @Test(arguments: ["garmin.pcapng", "swt_st_att_deadlock.pcap", "whad_ble_discovery.pcap", "crackle_lesc.pcapng",
                      "crackle_pairing.pcap", "watch_logs_capture.pcap"])
    func attCountsEqualTshark(_ file: String) throws {
        guard let capture = SharedCaptures.realCaptures().first(where: { $0.file == file }) else {
            print("skipped: \(SharedCaptures.root.path) is absent")
            return
        }
        let resent: [String: [String: Int]] = ["whad_ble_discovery.pcap": ["0x04": 1], "crackle_lesc.pcapng": ["0x02": 1]]
        var expected = capture.attPDUsByOpcode
        for (opcode, count) in resent[file] ?? [:] { expected[opcode, default: 0] -= count }
        let report = try analyzeFile(SharedCaptures.path("real/\(file)"))
        let counted = Dictionary(uniqueKeysWithValues: report.stats.attPDUs.map { (Hex.code($0.key), $0.value) })
        #expect(counted == expected)
    }

    /// On every shared capture, `devices[]` and `failures[]` name only connections the report holds.
    @Test func reportsNameOnlyConnectionsTheyHold() throws {
        guard SharedCaptures.present else {
            print("skipped: \(SharedCaptures.root.path) is absent")
            return
        }
        var analyzed = 0
        for folder in ["real", "synthetic"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: SharedCaptures.path(folder))
            for name in names.sorted() where !name.hasSuffix(".json") && !name.hasSuffix(".md") {
                // Only the corrupt sardark_btsnooz_hci.log does not open.
                guard let report = try? analyzeFile(SharedCaptures.path("\(folder)/\(name)")) else { continue }
                analyzed += 1
                let held = Set(report.connections.map(\.id))
                let named = Set(report.devices.flatMap(\.connectionIDs) + report.failures.compactMap(\.connectionID))
                #expect(named.subtracting(held).isEmpty, "\(folder)/\(name)")
            }
        }
        #expect(analyzed >= 30)
    }
}

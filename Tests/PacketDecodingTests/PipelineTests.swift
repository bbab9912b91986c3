import AnalyzerTestSupport
import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEPacketDecoding
import Testing

/// The pipeline on scenarios built byte by byte: reassembly across records, cut records,
/// anomalies, extended advertising.
struct PipelineTests {
    let handle: UInt16 = 0x0040

    @Test func notificationSplitOverACLFragmentsCompletesOnItsLastRecord() {
        var s = HCIScenario()
        let value = (0..<60).map { UInt8($0) }
        s.notify(handle: handle, attribute: 0x0012, value: value, mtu: 100)   // one 63-byte PDU, 27-byte fragments
        let (packets, atEnd) = decodeAll(s.records)
        let acl = packets.filter { $0.record.kind == .aclData }
        #expect(acl.count == 3)
        #expect(acl.map(\.l2cap.count) == [0, 0, 1])
        let pdu = acl[2].l2cap[0]
        #expect(pdu.frame.fragmentCount == 3)
        #expect(pdu.frame.firstRecordIndex == acl[0].record.index)
        #expect(pdu.link == .hci(adapter: nil, handle: handle))
        #expect(pdu.direction == .received)
        #expect(acl[2].attPDUs.first?.opcode == .handleValueNotification)
        #expect(acl[2].attPDUs.first?.handle == 0x0012)
        #expect(acl[2].attPDUs.first?.value?.array == value)
        #expect(atEnd.isEmpty)
    }

    @Test func recordsCutByTheCaptureNeverBecomeCompletePDUs() {
        var s = HCIScenario()
        s.l2cap(handle: handle, .sent, cid: 0x0004, [0x12, 0x10, 0x00] + Array(repeating: 0xAB, count: 20), keep: 14)
        let (packets, atEnd) = decodeAll(s.records)
        #expect(packets[0].l2cap.isEmpty)
        #expect(packets[0].issues.map(\.description) == [
            "l2cap: L2CAP PDU from record 1 cut by the capturing tool: 10 of 27 bytes kept; hides the rest of an ATT Write Request",
        ])
        #expect(atEnd.isEmpty)
    }

    @Test func aPartialPDUAtDisconnectionIsReportedThere() {
        var s = HCIScenario()
        s.l2cap(handle: handle, .received, cid: 0x0004, [0x1B, 0x12, 0x00] + Array(repeating: 1, count: 40), fragmentSize: 27)
        let records = Array(s.records.prefix(1))            // the first fragment only
        var t = HCIScenario(startUs: records[0].timestampUs + 1000)
        t.disconnectionComplete(handle: handle, reason: 0x08)
        var disconnection = t.records[0]
        disconnection.index = 2
        let (packets, atEnd) = decodeAll(records + [disconnection])
        #expect(packets[1].issues.map(\.description) == ["l2cap: PDU started at record 1 never completed: 27 of 47 bytes"])
        #expect(atEnd.isEmpty)
    }

    @Test func aPartialPDUAtTheEndOfTheCaptureIsReportedByFinish() {
        var s = HCIScenario()
        s.l2cap(handle: handle, .received, cid: 0x0004, [0x1B, 0x12, 0x00] + Array(repeating: 1, count: 40), fragmentSize: 27)
        let (_, atEnd) = decodeAll(Array(s.records.prefix(1)))
        #expect(atEnd.map(\.description) == ["l2cap: PDU started at record 1 never completed: 27 of 47 bytes"])
    }

    @Test func aContinuationWithoutAStartIsAnIssue() {
        var s = HCIScenario()
        s.l2cap(handle: handle, .received, cid: 0x0004, [0x1B, 0x12, 0x00] + Array(repeating: 1, count: 40), fragmentSize: 27)
        var second = s.records[1]
        second.index = 1
        let (packets, _) = decodeAll([second])
        #expect(packets[0].issues.map(\.kind) == [.orphanContinuation])
    }

    @Test func malformedATTKeepsItsOpcode() {
        var s = HCIScenario()
        s.att(handle: handle, .received, [0x09, 0x07, 0x02, 0x00])   // Read By Type Response, entry cut
        let (packets, _) = decodeAll(s.records)
        guard case .malformedATT(let opcode, _)? = packets[0].l2cap.first?.content else {
            Issue.record("expected a malformed ATT PDU")
            return
        }
        #expect(opcode == .readByTypeResponse)
        #expect(attCounts(packets) == ["0x09": 1])
    }

    @Test func extendedAdvertisingFragmentsAreJoined() {
        var s = HCIScenario()
        let data = SampleScenarios.lockAdvertisement(name: "LOCK-B7B2", mac: SampleScenarios.lockBFactoryMAC, battery: 41)
            + HCIScenario.adStructure(0x0A, [0x04])          // 33 bytes: three 16-byte fragments
        s.extendedAdvertisingReport(SampleScenarios.lockB, random: false, data: data, rssi: -70, fragmentSize: 16)
        let (packets, atEnd) = decodeAll(s.records)
        #expect(packets.map(\.joinedAdvertising.count) == [0, 0, 1])
        guard packets.count == 3, case .complete(let report, let fragments)? = packets[2].joinedAdvertising.first else {
            Issue.record("expected a joined report")
            return
        }
        #expect(fragments == 3)
        #expect(report.data == data)
        #expect(report.advertisingData.localName == "LOCK-B7B2")
        #expect(atEnd.isEmpty)
    }

    @Test func truncatedEventIsMalformedAndDecodingGoesOn() {
        var s = HCIScenario()
        s.event(0x05, [0x00, 0x40])              // Disconnection Complete needs 4 parameter bytes
        s.disconnectionComplete(handle: handle, reason: 0x13)
        let (packets, _) = decodeAll(s.records)
        #expect(packets[0].hci == .absent)
        #expect(packets[0].issues.map(\.kind) == [.malformed])
        #expect(packets[1].issues.isEmpty)
    }

    /// Bytes after the packet an HCI length field declares are an issue, the packet still
    /// decodes (Vol 4 Part E §5.4.1, §5.4.4); a record cut inside the header keeps its own error.
    @Test func bytesAfterTheDeclaredHCIPacketAreAnIssue() {
        var s = HCIScenario()
        s.append(.hciEvent, .received, [0x05, 0x04, 0x00, 0x40, 0x00, 0x13, 0xEE, 0xEE])  // Disconnection Complete + 2
        s.append(.hciCommand, .sent, [0x06, 0x04, 0x03, 0x40, 0x00, 0x13, 0xEE])           // Disconnect + 1
        s.append(.hciEvent, .received, [0x05])                                             // no length byte
        s.append(.hciCommand, .sent, [0x06, 0x04])                                         // no length byte
        let (packets, _) = decodeAll(s.records)
        #expect(packets.map(\.issues.description) == [
            "[hci: 2 byte(s) after the 6-byte packet its length field declares]",
            "[hci: 1 byte(s) after the 6-byte packet its length field declares]",
            "[hci: parameter total length truncated at byte 1: needs 1, 0 left]",
            "[hci: parameter total length truncated at byte 2: needs 1, 0 left]",
        ])
        guard case .event(let event) = packets[0].hci, case .disconnectionComplete(let disconnection) = event.body else {
            Issue.record("the event did not decode")
            return
        }
        #expect(disconnection.reason.rawValue == 0x13)
        guard case .command = packets[1].hci else {
            Issue.record("the command did not decode")
            return
        }
    }

    /// The session stage decodes every record into one packet: nothing of a record may stay on
    /// the next (PDUs, extended reports, issues, the HCI packet).
    @Test func aReusedPacketDecodesAsAFreshOne() {
        var s = HCIScenario()
        s.att(handle: handle, .received, [0x09, 0x07, 0x02, 0x00])             // malformed ATT: a PDU and an issue
        s.notify(handle: handle, attribute: 0x0012, value: [1, 2, 3], mtu: 23)  // a whole PDU
        let data = SampleScenarios.lockAdvertisement(name: "LOCK-B7B2", mac: SampleScenarios.lockBFactoryMAC, battery: 41)
        s.extendedAdvertisingReport(SampleScenarios.lockB, random: false, data: data, rssi: -70, fragmentSize: 16)
        s.event(0x05, [0x00, 0x40])                                           // malformed event: an issue, no packet
        s.l2cap(handle: handle, .received, cid: 0x0004, [0x1B, 0x12, 0x00] + Array(repeating: 1, count: 40), fragmentSize: 27)
        s.l2cap(handle: handle, .sent, cid: 0x0004, [0x12, 0x10, 0x00] + Array(repeating: 0xAB, count: 20), keep: 14)
        // A note after an ACL record: it holds no HCI packet, so the ACL packet must go.
        let records = s.records + [CaptureRecord(index: s.records.count + 1, timestampUs: 1, direction: .unknown,
                                                 kind: .note(.note), payload: Array("note".utf8))]
        let (fresh, _) = decodeAll(records)
        var decoder = PacketDecoder()
        var packet = DecodedPacket(record: records[0])
        for (record, expected) in zip(records, fresh) {
            var swapped = record
            decoder.decode(swapping: &swapped, into: &packet)
            #expect(packet.record == expected.record)
            #expect(packet.hci == expected.hci)
            #expect(packet.l2cap.count == expected.l2cap.count)
            #expect(packet.l2cap.map(\.frame) == expected.l2cap.map(\.frame))
            #expect(packet.attPDUs == expected.attPDUs)
            #expect(packet.joinedAdvertising.count == expected.joinedAdvertising.count)
            #expect(packet.issues == expected.issues)
        }
        #expect(fresh.map(\.l2cap.count) == [1, 1, 0, 0, 0, 0, 1, 0, 0, 0])
        #expect(fresh.map(\.joinedAdvertising.count) == [0, 0, 0, 1, 0, 0, 0, 0, 0, 0])
        #expect(fresh.map(\.issues.count) == [0, 0, 0, 0, 1, 0, 0, 1, 0, 0])
        #expect(fresh.last?.hci == .absent && fresh[fresh.count - 2].hci != .absent)
    }
}

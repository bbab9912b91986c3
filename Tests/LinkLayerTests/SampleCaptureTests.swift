import BLEBase
import Foundation
import LinkLayer
import Testing

struct SyntheticCaptureTests {
    struct Truth: Decodable {
        struct Counts: Decodable {
            var ll_by_kind: [String: Int]
            var att_pdus_by_opcode: [String: Int]
        }
        struct Attempt: Decodable {
            var peer_address: String
        }
        struct Connection: Decodable {
            var access_address: String
            var crc_init: String
            var peer_address: String
            var disconnect_reason: String?
            var ll_terminate_sender: String?
        }
        var counts: Counts
        var connections: [Connection]
        var failed_connection_attempts: [Attempt]
    }

    /// Retransmissions as tshark 4.0 flags them (`[Retransmit]`): the generator's empty PDUs
    /// repeat an unacknowledged SN.
    @Test(arguments: [("demo-clean.ll.pcap", 7), ("demo-faults.ll.pcap", 12), ("demo-faults.nordic.pcap", 12)])
    func matchesTruth(_ name: String, retransmissions: Int) throws {
        guard let url = SharedCaptures.url("synthetic/\(name)"),
              let truthURL = SharedCaptures.url("synthetic/\(name).truth.json") else {
            print("skipped: \(SharedCaptures.root.path) is absent")
            return
        }
        let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: truthURL))
        let tally = CaptureTally(try TestPcap.records(url))
        #expect(tally.errors == 0)
        #expect(tally.badCRC == 0)
        #expect(tally.retransmissions == retransmissions)
        #expect(tally.byKind == truth.counts.ll_by_kind)
        #expect(tally.attByOpcode == truth.counts.att_pdus_by_opcode)
        // Every CONNECT_IND on air: the established connections plus the attempts the peripheral
        // never answered.
        let byAA = Dictionary(tally.created.map { ($0.accessAddress, $0) }) { first, _ in first }
        #expect(tally.created.count == truth.connections.count + truth.failed_connection_attempts.count)
        for connection in truth.connections {
            let found = UInt32(connection.access_address.dropFirst(2), radix: 16).flatMap { byAA[$0] }
            #expect(found?.crcInit.map { Hex.code($0, width: 6) } == connection.crc_init)
            #expect(found?.advertiser?.description == connection.peer_address)
        }
        let unanswered = Set(tally.created.map(\.accessAddress))
            .subtracting(truth.connections.compactMap { UInt32($0.access_address.dropFirst(2), radix: 16) })
        #expect(unanswered.compactMap { byAA[$0]?.advertiser?.description }.sorted()
                == truth.failed_connection_attempts.map(\.peer_address).sorted())
        let expectedEnds = truth.connections.compactMap { c -> String? in
            guard let sender = c.ll_terminate_sender, let reason = c.disconnect_reason else { return nil }
            return "\(c.access_address) \(reason) \(sender == "central" ? "c2p" : "p2c")"
        }
        let ends = tally.terminated.map { "\(Hex.code($0.0, width: 8)) \(Hex.code($0.1.rawValue)) \($0.2.rawValue)" }
        #expect(ends.sorted() == expectedEnds.sorted())
    }
}

struct RealCaptureTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var file: String
        /// README: ATT frames by opcode (tshark counts a resent PDU again).
        var att: [String: Int]
        /// The sniffer's own bad-CRC verdicts (`tshark -Y 'nordic_ble.crcok == 0'`); the README's
        /// figure is `btle.crc.incorrect`, frames tshark parsed as far as the CRC.
        var badCRC: Int
        /// README: LL control frames, including ciphertext tshark shows as control opcodes.
        var controlFrames: Int
        var connections: Int
        var terminations: Int
        var testDescription: String { file }
    }

    static let expectations: [Expected] = [
        Expected(file: "garmin.pcapng", att: ["0x01": 1, "0x02": 1, "0x03": 1, "0x04": 2, "0x05": 2, "0x08": 11,
                                              "0x09": 11, "0x10": 7, "0x11": 6, "0x12": 2, "0x13": 1],
                 badCRC: 289, controlFrames: 17, connections: 1, terminations: 0),
        Expected(file: "whad_ble_discovery.pcap", att: ["0x01": 3, "0x02": 1, "0x03": 1, "0x04": 7, "0x05": 5, "0x08": 9,
                                                        "0x09": 7, "0x0A": 1, "0x0B": 1, "0x10": 2, "0x11": 2],
                 badCRC: 0, controlFrames: 4, connections: 1, terminations: 1),
        Expected(file: "crackle_lesc.pcapng", att: ["0x01": 12, "0x02": 2, "0x03": 1, "0x08": 11, "0x09": 1, "0x10": 7,
                                                    "0x11": 4],
                 badCRC: 2, controlFrames: 11, connections: 1, terminations: 0),
        Expected(file: "crackle_pairing.pcap", att: [:], badCRC: 0, controlFrames: 5, connections: 1, terminations: 0),
    ]

    @Test(arguments: expectations)
    func matchesReadme(_ expected: Expected) throws {
        guard let url = SharedCaptures.url("real/\(expected.file)") else {
            print("skipped: \(SharedCaptures.root.path) is absent")
            return
        }
        let tally = CaptureTally(try TestPcap.records(url))
        #expect(tally.errors == 0 || expected.badCRC > 0)
        #expect(tally.attFrames == expected.att)
        #expect(tally.badCRC == expected.badCRC)
        #expect(tally.controlPDUs + tally.encryptedControl == expected.controlFrames)
        #expect(tally.created.count == expected.connections)
        #expect(tally.terminated.count == expected.terminations)
    }

    /// Known gaps, kept visible: SweynTooth's deadlock capture loses ATT PDUs, the DLT 157
    /// watch capture flags more bad CRCs than tshark with a user-DLT mapping reports (594), and
    /// garmin's second CONNECT_IND (bad CRC) does not parse.
    @Test func knownGaps() throws {
        guard let swt = SharedCaptures.url("real/swt_st_att_deadlock.pcap"),
              let watch = SharedCaptures.url("real/watch_logs_capture.pcap"),
              let garmin = SharedCaptures.url("real/garmin.pcapng") else {
            print("skipped: \(SharedCaptures.root.path) is absent")
            return
        }
        let swtTally = CaptureTally(try TestPcap.records(swt))
        let watchTally = CaptureTally(try TestPcap.records(watch))
        let garminTally = CaptureTally(try TestPcap.records(garmin))
        #expect(swtTally.controlPDUs == 11 && swtTally.created.count == 1)
        withKnownIssue("swt: 0x10 ×3 and no 0x12 found where tshark counts 0x10 ×10, 0x12 ×7") {
            #expect(swtTally.attFrames == ["0x01": 2, "0x02": 1, "0x03": 1, "0x10": 10, "0x11": 1, "0x12": 7])
        }
        withKnownIssue("watch_logs: 821 parsed bad-CRC frames vs 594 in the README") {
            #expect(watchTally.badCRCDecoded == 594)
        }
        withKnownIssue("garmin: the bad-CRC CONNECT_IND does not parse") {
            #expect(garminTally.connectIndPDUs == 2)
        }
    }
}

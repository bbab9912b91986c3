import BLEBase
import Foundation
import BLELinkLayer
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
        /// Frames (1-based) that resend a single-packet ATT PDU: counted once by us, twice by tshark.
        var resentATT: [Int] = []
        /// The sniffer's own bad-CRC verdicts (`tshark -Y 'nordic_ble.crcok == 0'`), or ours where
        /// the header does not say; the README's figure is `btle.crc.incorrect`, frames tshark
        /// parsed as far as the CRC.
        var badCRC: Int
        /// README: LL control frames, including ciphertext tshark shows as control opcodes.
        var controlFrames: Int
        var connections: Int
        var terminations: Int
        /// L2CAP PDUs cut short because the sniffer missed a fragment.
        var interruptedPDUs: [Int] = []
        var testDescription: String { file }

        /// Our ATT count: tshark's minus the resends.
        func attOnce(resent opcodes: [String]) -> [String: Int] {
            var once = att
            for opcode in opcodes { once[opcode, default: 0] -= 1 }
            return once.filter { $0.value > 0 }
        }
    }

    static let expectations: [Expected] = [
        Expected(file: "garmin.pcapng", att: ["0x01": 1, "0x02": 1, "0x03": 1, "0x04": 2, "0x05": 2, "0x08": 11,
                                              "0x09": 11, "0x10": 7, "0x11": 6, "0x12": 2, "0x13": 1],
                 badCRC: 289, controlFrames: 17, connections: 1, terminations: 0),
        // The central resends Find Information Request (frame 157) as frame 158: same SN 1, no
        // peripheral packet between them, same bytes.
        Expected(file: "whad_ble_discovery.pcap", att: ["0x01": 3, "0x02": 1, "0x03": 1, "0x04": 7, "0x05": 5,
                                                        "0x08": 9, "0x09": 7, "0x0A": 1, "0x0B": 1, "0x10": 2,
                                                        "0x11": 2],
                 resentATT: [158], badCRC: 0, controlFrames: 4, connections: 1, terminations: 1),
        // Frame 60 resends frame 59's Exchange MTU Request (SN 0 NESN 1 both, same bytes, the
        // peripheral's answer lost). Frame 93 starts a 46-byte Read By Group Type Response whose
        // continuation the sniffer missed: the next start (frame 98) abandons it. Frames 132 and
        // 212 fail the CRC computed from CONNECT_IND's CRCInit (the header has no CRC verdict
        // and tshark leaves data-channel CRCs unchecked): 132 is a corrupted copy of frame 134.
        Expected(file: "crackle_lesc.pcapng", att: ["0x01": 12, "0x02": 2, "0x03": 1, "0x08": 11, "0x09": 1,
                                                    "0x10": 7, "0x11": 4],
                 resentATT: [60], badCRC: 2, controlFrames: 11, connections: 1, terminations: 0,
                 interruptedPDUs: [98]),
        Expected(file: "crackle_pairing.pcap", att: [:], badCRC: 0, controlFrames: 5, connections: 1, terminations: 0),
        // SweynTooth's central logs its own PDUs with SN = NESN = 0 and, after LL_START_ENC_RSP,
        // the plaintext it exchanged with "not encrypted" in the header; see `sweynToothLogsHostSideHeaders`.
        Expected(file: "swt_st_att_deadlock.pcap", att: ["0x01": 2, "0x02": 1, "0x03": 1, "0x10": 10, "0x11": 1,
                                                         "0x12": 7],
                 badCRC: 0, controlFrames: 11, connections: 1, terminations: 0),
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
        #expect(tally.resentATTFrames == expected.resentATT)
        let resentOpcodes = tally.resentATTFrames.compactMap { Self.attOpcode(tally.results[$0 - 1]) }
        #expect(tally.attByOpcode == expected.attOnce(resent: resentOpcodes))
        #expect(tally.badCRC == expected.badCRC)
        #expect(tally.controlPDUs + tally.encryptedControl == expected.controlFrames)
        #expect(tally.created.count == expected.connections)
        #expect(tally.terminated.count == expected.terminations)
        #expect(tally.interruptedPDUs == expected.interruptedPDUs)
        #expect(tally.orphanContinuations.isEmpty)
    }

    /// DLT 157 (USER10) as older nRF Sniffer builds wrote it; tshark reads it with
    /// `-o 'uat:user_dlts:"User 10 (DLT=157)","nordic_ble","0","","0",""'`. The sniffer flags
    /// 867 frames CRC-bad (tshark: `nordic_ble.crcok == 0`, 867 too). The README's 594 is
    /// `btle.crc.incorrect`, which tshark only adds when it dissected the frame up to the CRC:
    /// it stops short on 273 of them, 46 whose corrupted Length runs past the bytes (we report
    /// those as truncated) and the rest on advertising data it rejects, a judgement of the AD
    /// decoder, not of the link layer. No connection is on air.
    @Test func watchLogsCountsTheSniffersVerdicts() throws {
        guard let url = SharedCaptures.url("real/watch_logs_capture.pcap") else {
            print("skipped: \(SharedCaptures.root.path) is absent")
            return
        }
        let tally = CaptureTally(try TestPcap.records(url))
        #expect(tally.results.count == 11_799)
        #expect(tally.badCRC == 867 && tally.badCRCDecoded == 821 && tally.errors == 46)
        #expect(tally.created.isEmpty && tally.results.allSatisfy { $0.metadata?.snifferProtocolVersion == 1 })
    }

    /// tshark lists two CONNECT_IND frames: 4417, and 3479, a CRC-bad frame whose corrupted header
    /// claims CONNECT_IND with Length 8 (tshark: "[Malformed Packet]"). We count one CONNECT_IND
    /// and report frame 3479 as a bad-CRC packet that does not parse.
    @Test func garminHasOneConnectInd() throws {
        guard let url = SharedCaptures.url("real/garmin.pcapng") else {
            print("skipped: \(SharedCaptures.root.path) is absent")
            return
        }
        let tally = CaptureTally(try TestPcap.records(url))
        #expect(tally.connectIndPDUs == 1)
        #expect(tally.badCRCFrames.contains(3479))
        #expect(tally.results[3478].error == .truncated(layer: .linkLayer, field: "BD_ADDR", at: 29, needed: 6,
                                                         available: 2))
    }

    private static func attOpcode(_ result: LinkLayerResult) -> String? {
        guard case .data(let data)? = result.packet?.pdu, case .l2capStart(let bytes) = data.content else { return nil }
        var reader = ByteReader(bytes)
        guard (try? reader.skip(4)) != nil, let opcode = try? reader.readUInt8() else { return nil }
        return Hex.code(opcode)
    }
}

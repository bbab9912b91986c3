import BLEBase
import BLELinkLayer
import Testing

/// ADV_IND as the synthetic capture carries it: AA, header, AdvA, 0 AD bytes, CRC.
private let advLL: [UInt8] = [
    0xD6, 0xBE, 0x89, 0x8E,              // access address 0x8E89BED6
    0x40, 0x06,                          // ADV_IND, TxAdd random, length 6
    0xDD, 0xC7, 0x0E, 0xF9, 0x30, 0x6B,  // AdvA 6B:30:F9:0E:C7:DD
    0x00, 0x00, 0x00,                    // CRC (not checked here)
]

struct LERFPseudoHeaderTests {
    static let header: [UInt8] = [
        0x0C,                    // RF channel 12 (index 38)
        0xCD,                    // signal −51 dBm
        0x80,                    // noise −128 dBm
        0x02,                    // AA offenses 2
        0xD6, 0xBE, 0x89, 0x8E,  // reference AA 0x8E89BED6
        0xBF, 0x5D,              // flags 0x5DBF: dewhitened, signal, noise, decrypted, ref AA, offenses,
                                 // PDU type 3 (P→C), CRC checked+valid, MIC checked (0x1000), PHY 2M
    ]

    @Test func decodesEveryField() throws {
        var reader = ByteReader(Self.header + advLL)
        let packet = try AirPacket(parsing: &reader, linkType: .bluetoothLELLWithPHDR)
        var expected = AirPacketMetadata(linkType: 256)
        expected.rfChannel = 12
        expected.channelIndex = 38
        expected.rssiDBm = -51
        expected.noiseDBm = -128
        expected.accessAddressOffenses = 2
        expected.referenceAccessAddress = 0x8E89_BED6
        expected.decrypted = true
        expected.crcChecked = true
        expected.crcValid = true
        expected.micChecked = true
        expected.micValid = false
        expected.direction = .peripheralToCentral
        expected.pduHint = .data
        expected.phy = .le2M
        #expect(packet.metadata == expected)
        #expect(packet.llBytes == advLL)
    }

    @Test func invalidFlagsHideValues() throws {
        var reader = ByteReader([0x00, 0xCD, 0x00, 0x00, 0xD6, 0xBE, 0x89, 0x8E, 0x80, 0x30] + advLL)
        let m = try AirPacket(parsing: &reader, linkType: .bluetoothLELLWithPHDR).metadata
        #expect(m.rssiDBm == nil && m.noiseDBm == nil && m.referenceAccessAddress == nil)
        #expect(m.pduHint == .auxiliaryAdvertising)   // PDU type 1
        #expect(m.auxType == 3)                       // bits 12–13 are the aux type here
        #expect(!m.micChecked && !m.crcChecked)
        #expect(m.channelIndex == 37)
    }

    @Test func everyTruncationIsTyped() {
        let fields = ["RF channel", "signal power", "noise power", "access address offenses",
                      "reference access address", "reference access address", "reference access address",
                      "reference access address", "flags", "flags"]
        let starts = [0, 1, 2, 3, 4, 4, 4, 4, 8, 8]
        let widths = [1, 1, 1, 1, 4, 4, 4, 4, 2, 2]
        for length in 0..<LERFPseudoHeader.size {
            var reader = ByteReader(Array(Self.header.prefix(length)))
            #expect(throws: DecodeError.truncated(layer: .linkLayer, field: fields[length], at: starts[length],
                                                  needed: widths[length], available: length - starts[length])) {
                try AirPacket(parsing: &reader, linkType: .bluetoothLELLWithPHDR)
            }
        }
    }
}

struct NordicBLEHeaderTests {
    /// Protocol v3, advertising event packet (synthetic nordic capture, frame 1).
    static let v3: [UInt8] = [
        0x00,                    // board 0
        0x19, 0x00,              // payload length 25 (event packet 10 + LL 15)
        0x03,                    // protocol version 3
        0x34, 0x12,              // packet counter 0x1234
        0x02,                    // packet ID 0x02: advertising PDU
        0x0A,                    // event packet length 10
        0x11,                    // flags: CRC OK, PHY 2M (bits 4–6 = 1), aux type 0
        0x25,                    // channel 37
        0x33,                    // RSSI sample 51 → −51 dBm
        0x07, 0x00,              // event counter 7
        0x78, 0x56, 0x34, 0x12,  // firmware timestamp 0x12345678 µs
    ]

    @Test func decodesV3() throws {
        var reader = ByteReader(Self.v3 + advLL)
        let packet = try AirPacket(parsing: &reader, linkType: .nordicBLE)
        var expected = AirPacketMetadata(linkType: 272)
        expected.snifferBoard = 0
        expected.snifferProtocolVersion = 3
        expected.snifferPacketCounter = 0x1234
        expected.channelIndex = 37
        expected.rfChannel = 0
        expected.rssiDBm = -51
        expected.eventCounter = 7
        expected.snifferTimestampUs = 0x1234_5678
        expected.crcChecked = true
        expected.crcValid = true
        expected.phy = .le2M
        expected.pduHint = .advertising
        #expect(packet.metadata == expected)
        #expect(packet.llBytes == advLL)
    }

    @Test func decodesV1DataPacketOnUser10() throws {
        let bytes: [UInt8] = [
            0x7B,                    // board 123
            0x06,                    // header length 6
            0x19,                    // payload length 25
            0x01,                    // protocol version 1
            0xCE, 0xEA,              // packet counter 0xEACE
            0x06,                    // packet ID 0x06: event packet
            0x0A,                    // event packet length
            0x0E,                    // flags: CRC bad, C→P, encrypted, MIC OK
            0x05,                    // channel 5
            0x46,                    // RSSI −70
            0x02, 0x01,              // event counter 0x0102
            0xCA, 0x4C, 0x00, 0x00,  // delta time 19658 µs
        ] + [0x11, 0x22, 0x33, 0x44, 0x01, 0x00, 0x00, 0x00, 0x00,
             0x00, 0x00, 0x00, 0x00, 0x00, 0x00]  // data LL packet, 15 bytes
        var reader = ByteReader(bytes)
        let m = try AirPacket(parsing: &reader, linkType: .user10Nordic).metadata
        #expect(m.linkType == 157 && m.snifferBoard == 123 && m.snifferProtocolVersion == 1)
        #expect(m.snifferDeltaUs == 19658 && m.snifferTimestampUs == nil)
        #expect(m.pduHint == .data && m.direction == .centralToPeripheral)
        #expect(m.crcChecked && !m.crcValid)
        #expect(m.encrypted && m.micChecked && m.micValid && m.decrypted && !m.micIncluded && !m.notDecrypted)
        #expect(m.channelIndex == 5 && m.rfChannel == 6 && m.rssiDBm == -70)
    }

    @Test func decodesLegacyBEEF() throws {
        let bytes: [UInt8] = [
            0xBE, 0xEF,              // legacy marker
            0x06,                    // packet ID
            0x01, 0x00,              // packet counter 1
            0x00, 0x00,              // unused
            0x0F,                    // payload length: LL packet 15 (+ 9 event bytes implied)
            0x01,                    // flags: CRC OK, P→C
            0x26,                    // channel 38
            0x40,                    // RSSI −64
            0x00, 0x00,              // event counter
            0x10, 0x00, 0x00, 0x00,  // delta time 16 µs
        ] + advLL
        var reader = ByteReader(bytes)
        let packet = try AirPacket(parsing: &reader, linkType: .nordicBLE)
        #expect(packet.metadata.snifferProtocolVersion == 0 && packet.metadata.snifferBoard == nil)
        #expect(packet.metadata.pduHint == .advertising && packet.metadata.channelIndex == 38)
        #expect(packet.llBytes == advLL)
    }

    @Test func lengthMismatchIsInvalid() {
        var reader = ByteReader(Self.v3 + advLL.dropLast())
        #expect(throws: DecodeError.invalid(layer: .linkLayer, field: "payload length", at: 0,
                                            reason: "declares 25 bytes after the header, 24 present")) {
            try AirPacket(parsing: &reader, linkType: .nordicBLE)
        }
    }

    @Test func everyTruncationIsTyped() {
        // Past byte 7 the declared length no longer matches, which is checked first.
        let expectations: [DecodeError] = [
            .truncated(layer: .linkLayer, field: "board ID", at: 0, needed: 1, available: 0),
            .truncated(layer: .linkLayer, field: "payload length", at: 1, needed: 2, available: 0),
            .truncated(layer: .linkLayer, field: "payload length", at: 1, needed: 2, available: 1),
            .truncated(layer: .linkLayer, field: "protocol version", at: 3, needed: 1, available: 0),
            .truncated(layer: .linkLayer, field: "packet counter", at: 4, needed: 2, available: 0),
            .truncated(layer: .linkLayer, field: "packet counter", at: 4, needed: 2, available: 1),
            .truncated(layer: .linkLayer, field: "packet ID", at: 6, needed: 1, available: 0),
        ]
        for (length, error) in expectations.enumerated() {
            var reader = ByteReader(Array(Self.v3.prefix(length)))
            #expect(throws: error) { try AirPacket(parsing: &reader, linkType: .nordicBLE) }
        }
        for length in 7..<Self.v3.count {
            var reader = ByteReader(Array(Self.v3.prefix(length)))
            #expect(throws: DecodeError.invalid(layer: .linkLayer, field: "payload length", at: 0,
                                                reason: "declares 25 bytes after the header, \(length - 7) present")) {
                try AirPacket(parsing: &reader, linkType: .nordicBLE)
            }
        }
    }
}

struct PPIHeaderTests {
    /// crackle_pairing.pcap frame 1: PPI with a PPI-BTLE field, inner DLT 147.
    static let header: [UInt8] = [
        0x00,                    // version 0
        0x00,                    // flags: not aligned
        0x18, 0x00,              // header length 24
        0x93, 0x00, 0x00, 0x00,  // DLT 147
        0x36, 0x75,              // field type 30006 (PPI-BTLE)
        0x0C, 0x00,              // field length 12
        0x00,                    // BTLE version
        0x62, 0x09,              // channel 2402 MHz
        0x00,                    // clkn_high
        0x6B, 0x36, 0xE3, 0x00,  // clk100ns
        0xE8, 0xDC, 0xEE, 0x3C,  // RSSI max, min, avg, count
    ]

    @Test func decodesChannelAndInnerPacket() throws {
        var reader = ByteReader(Self.header + advLL)
        let packet = try AirPacket(parsing: &reader, linkType: .ppi)
        #expect(packet.metadata.rfChannel == 0 && packet.metadata.channelIndex == 37)
        #expect(packet.llBytes == advLL)
    }

    @Test func unknownInnerLinkTypeIsTyped() {
        var bytes = Self.header
        bytes[4] = 0x01   // DLT 1 (Ethernet)
        var reader = ByteReader(bytes + advLL)
        #expect(throws: DecodeError.invalid(layer: .linkLayer, field: "PPI DLT", at: 4,
                                            reason: "inner link type 1 is not a raw LE LL packet (147 or 251)")) {
            try AirPacket(parsing: &reader, linkType: .ppi)
        }
    }

    @Test func everyTruncationOfTheFixedHeaderIsTyped() {
        let expectations: [DecodeError] = [
            .truncated(layer: .linkLayer, field: "PPI version", at: 0, needed: 1, available: 0),
            .truncated(layer: .linkLayer, field: "PPI flags", at: 1, needed: 1, available: 0),
            .truncated(layer: .linkLayer, field: "PPI header length", at: 2, needed: 2, available: 0),
            .truncated(layer: .linkLayer, field: "PPI header length", at: 2, needed: 2, available: 1),
            .truncated(layer: .linkLayer, field: "PPI DLT", at: 4, needed: 4, available: 0),
            .truncated(layer: .linkLayer, field: "PPI DLT", at: 4, needed: 4, available: 1),
            .truncated(layer: .linkLayer, field: "PPI DLT", at: 4, needed: 4, available: 2),
            .truncated(layer: .linkLayer, field: "PPI DLT", at: 4, needed: 4, available: 3),
            .truncated(layer: .linkLayer, field: "PPI fields", at: 8, needed: 16, available: 0),
        ]
        for (length, error) in expectations.enumerated() {
            var reader = ByteReader(Array(Self.header.prefix(length)))
            #expect(throws: error) { try AirPacket(parsing: &reader, linkType: .ppi) }
        }
    }

    @Test func unknownLinkTypeIsTyped() {
        var reader = ByteReader(advLL)
        #expect(throws: DecodeError.invalid(layer: .linkLayer, field: "link type", at: 0,
                                            reason: "link type 201 does not carry LE link-layer packets")) {
            try AirPacket(parsing: &reader, linkType: AirLinkType(rawValue: 201))
        }
    }
}

import BLEBase
import BLELinkLayer
import Testing

/// CONNECT_IND from demo-faults.ll.pcap frame 15 (tshark: CRC correct).
let connectIndLL: [UInt8] = [
    0xD6, 0xBE, 0x89, 0x8E,              // access address 0x8E89BED6
    0x85, 0x22,                          // CONNECT_IND, TxAdd public, RxAdd random, length 34
    0x20, 0x44, 0xDA, 0x7D, 0x1A, 0x00,  // InitA 00:1A:7D:DA:44:20
    0xDD, 0xC7, 0x0E, 0xF9, 0x30, 0x6B,  // AdvA 6B:30:F9:0E:C7:DD
    0xF6, 0x82, 0x2B, 0x55,              // AA 0x552B82F6
    0x6D, 0x44, 0xE5,                    // CRCInit 0xE5446D
    0x02,                                // WinSize 2 (2.5 ms)
    0x00, 0x00,                          // WinOffset 0
    0x18, 0x00,                          // Interval 24 (30 ms)
    0x00, 0x00,                          // Latency 0
    0x90, 0x01,                          // Timeout 400 (4 s)
    0xFF, 0xFF, 0xFF, 0xFF, 0x1F,        // ChM: all 37 channels
    0x10,                                // Hop 16, SCA 0
    0xE2, 0xCB, 0x7B,                    // CRC
]

/// LL_TERMINATE_IND on that connection, central → peripheral (frame 116).
let terminateLL: [UInt8] = [
    0xF6, 0x82, 0x2B, 0x55,  // access address 0x552B82F6
    0x03, 0x02,              // LLID 11 control, NESN 0, SN 0, length 2
    0x02,                    // opcode LL_TERMINATE_IND
    0x13,                    // ErrorCode Remote User Terminated Connection
    0x72, 0xE4, 0x37,        // CRC
]

struct CRC24Tests {
    @Test func advertisingCRCMatchesTheCapture() {
        let pdu = Array(connectIndLL.dropFirst(4).dropLast(3))
        #expect(CRC24.wireValue(pdu, initial: CRC24.advertisingInit) == 0x7B_CBE2)
    }

    @Test func dataCRCUsesTheConnectionsInit() {
        let pdu = Array(terminateLL.dropFirst(4).dropLast(3))
        #expect(CRC24.wireValue(pdu, initial: 0xE5_446D) == 0x37_E472)
        #expect(CRC24.wireValue(pdu, initial: CRC24.advertisingInit) != 0x37_E472)
    }

    @Test func registerOfNothingIsThePreset() {
        #expect(CRC24.register([], initial: 0x55_5555) == 0x55_5555)
        #expect(CRC24.wireValue([], initial: 0x00_0001) == 0x80_0000)
    }
}

struct AdvertisingPDUTests {
    @Test func decodesConnectInd() throws {
        var reader = ByteReader(connectIndLL)
        let packet = try LLPacket(parsing: &reader, advertising: true, crcInit: CRC24.advertisingInit)
        #expect(packet.crcMatches == true)
        guard case .advertising(let adv) = packet.pdu, case .connect(let c) = adv.payload else {
            Issue.record("not a CONNECT_IND: \(packet.pdu)")
            return
        }
        #expect(adv.header.pduType == .connectInd && !adv.header.txAdd && adv.header.rxAdd && adv.header.length == 34)
        #expect(c.initA == BluetoothAddress("00:1A:7D:DA:44:20"))
        #expect(c.advA == BluetoothAddress("6B:30:F9:0E:C7:DD"))
        #expect(c.accessAddress == 0x552B_82F6 && c.crcInit == 0xE5_446D)
        #expect(c.windowSize == 2 && c.windowOffset == 0 && c.interval == 24 && c.latency == 0 && c.timeout == 400)
        #expect(c.channelMap == [0xFF, 0xFF, 0xFF, 0xFF, 0x1F] && c.usedChannelCount == 37)
        #expect(c.hopIncrement == 16 && c.sleepClockAccuracy == 0)
        #expect(packet.summary
                == "CONNECT_IND 00:1A:7D:DA:44:20 → 6B:30:F9:0E:C7:DD AA 0x552b82f6 interval 30.00 ms timeout 4000 ms hop 16")
    }

    @Test func decodesAdvIndAndSummarises() throws {
        var reader = ByteReader([
            0xD6, 0xBE, 0x89, 0x8E,              // access address
            0x40, 0x09,                          // ADV_IND, TxAdd random, length 9
            0xDD, 0xC7, 0x0E, 0xF9, 0x30, 0x6B,  // AdvA 6B:30:F9:0E:C7:DD
            0x02, 0x01, 0x06,                    // AD: Flags 0x06
            0x00, 0x00, 0x00,                    // CRC
        ])
        let packet = try LLPacket(parsing: &reader, advertising: true, crcInit: nil)
        guard case .advertising(let adv) = packet.pdu else { Issue.record("not advertising"); return }
        #expect(adv.advertiserAddress == BluetoothAddress("6B:30:F9:0E:C7:DD"))
        #expect(adv.advertisingData == [0x02, 0x01, 0x06])
        #expect(packet.summary == "ADV_IND 6B:30:F9:0E:C7:DD (random) 3 bytes")
        #expect(packet.crcMatches == nil)
    }

    @Test func decodesExtendedHeader() throws {
        var reader = ByteReader([
            0x07, 0x14,                          // ADV_EXT_IND, length 20
            0x4E,                                // ext header length 14, AdvMode 1 (connectable)
            0x59,                                // flags: AdvA, ADI, AuxPtr, TxPower
            0x11, 0x22, 0x33, 0x44, 0x55, 0x66,  // AdvA 66:55:44:33:22:11
            0x05, 0x30,                          // ADI: DID 5, SID 3
            0x05, 0x0A, 0x20,                    // AuxPtr 0x200A05 (fields below)
            0xF8,                                // TxPower −8 dBm
            0xAA,                                // ACAD
            0x02, 0x01, 0x06, 0x00, 0x00,        // AdvData
        ])
        let adv = try AdvertisingPDU(parsing: &reader)
        guard case .extended(let ext) = adv.payload else { Issue.record("not extended"); return }
        #expect(ext.advMode == 1 && ext.flags == 0x59)
        #expect(ext.advA == BluetoothAddress("66:55:44:33:22:11"))
        #expect(ext.advDataInfo?.dataID == 5 && ext.advDataInfo?.setID == 3)
        // AuxPtr 0x200A05: channel 5, CA 0, units 30 µs, offset 0x0A | (0x20 & 0x1F) << 8 = 0x000A, PHY 1 (2M)
        #expect(ext.auxPointer?.channelIndex == 5 && ext.auxPointer?.auxOffset == 0x000A)
        #expect(ext.auxPointer?.offsetUs == 300 && ext.auxPointer?.auxPHY == .le2M)
        #expect(ext.txPower == -8 && ext.acad == [0xAA] && ext.advData == [0x02, 0x01, 0x06, 0x00, 0x00])
        #expect(adv.summary(secondaryChannel: true)
                == "AUX_ADV_IND 66:55:44:33:22:11 (public) SID 3 DID 5 aux ch 5 +300 µs LE 2M 5 bytes")
    }

    @Test func reservedTypeKeepsPayload() throws {
        var reader = ByteReader([0x0F, 0x02, 0xAB, 0xCD])  // type 15, length 2
        let adv = try AdvertisingPDU(parsing: &reader)
        #expect(adv.payload == .reserved([0xAB, 0xCD]))
        #expect(adv.summary == "Unknown (0x0F) 2 bytes")
    }

    @Test func everyTruncationOfTheLLPacketIsTyped() {
        let expectations: [Int: DecodeError] = [
            0: .truncated(layer: .linkLayer, field: "access address", at: 0, needed: 4, available: 0),
            1: .truncated(layer: .linkLayer, field: "access address", at: 0, needed: 4, available: 1),
            2: .truncated(layer: .linkLayer, field: "access address", at: 0, needed: 4, available: 2),
            3: .truncated(layer: .linkLayer, field: "access address", at: 0, needed: 4, available: 3),
            4: .truncated(layer: .linkLayer, field: "advertising header", at: 4, needed: 1, available: 0),
            5: .truncated(layer: .linkLayer, field: "advertising length", at: 5, needed: 1, available: 0),
        ]
        for length in 0..<connectIndLL.count {
            var reader = ByteReader(Array(connectIndLL.prefix(length)))
            let expected = expectations[length]
                ?? (length < 40 ? .truncated(layer: .linkLayer, field: "PDU", at: 4, needed: 36, available: length - 4)
                                : .truncated(layer: .linkLayer, field: "CRC", at: 40, needed: 3, available: length - 40))
            #expect(throws: expected) { try LLPacket(parsing: &reader, advertising: true, crcInit: nil) }
        }
    }

    @Test func everyTruncationOfConnectIndPayloadIsTyped() {
        let payload = Array(connectIndLL.dropFirst(6).dropLast(3))
        let fields: [(String, Int, Int)] = [("BD_ADDR", 0, 6), ("BD_ADDR", 6, 6), ("AA", 12, 4), ("CRCInit", 16, 3),
                                            ("WinSize", 19, 1), ("WinOffset", 20, 2), ("Interval", 22, 2),
                                            ("Latency", 24, 2), ("Timeout", 26, 2), ("ChM", 28, 5), ("Hop/SCA", 33, 1)]
        for length in 0..<payload.count {
            guard let (field, start, width) = fields.last(where: { $0.1 <= length }) else { continue }
            var reader = ByteReader(Array(payload.prefix(length)), layer: .linkLayer)
            #expect(throws: DecodeError.truncated(layer: .linkLayer, field: field, at: start, needed: width,
                                                  available: length - start)) {
                try ConnectIndication(parsing: &reader)
            }
        }
    }
}

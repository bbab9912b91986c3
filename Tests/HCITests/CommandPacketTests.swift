import BLEBase
@testable import BLEHCI
import Testing

@Suite struct CommandPacketTests {
    /// Frame 25 of demo-faults.btsnoop (tshark: LE Create Connection).
    let createConnection: [UInt8] = [
        0x0D, 0x20,                         // opcode 0x200D LE Create Connection
        0x19,                               // parameter total length 25
        0x60, 0x00,                         // LE_Scan_Interval 0x0060 (60 ms)
        0x60, 0x00,                         // LE_Scan_Window 0x0060
        0x00,                               // Initiator_Filter_Policy: peer address
        0x01,                               // Peer_Address_Type random
        0xDD, 0xC7, 0x0E, 0xF9, 0x30, 0x6B, // Peer_Address 6B:30:F9:0E:C7:DD
        0x00,                               // Own_Address_Type public
        0x18, 0x00,                         // Connection_Interval_Min 24 (30 ms)
        0x18, 0x00,                         // Connection_Interval_Max 24
        0x00, 0x00,                         // Max_Latency 0
        0x90, 0x01,                         // Supervision_Timeout 400 (4 s)
        0x00, 0x00,                         // Min_CE_Length
        0x00, 0x00,                         // Max_CE_Length
    ]

    @Test func leCreateConnection() throws {
        let packet = try parsed(createConnection) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
        #expect(packet.opcode == .leCreateConnection)
        #expect(packet.opcode.ogf == 0x08 && packet.opcode.ocf == 0x000D)
        #expect(packet.parameterTotalLength == 25)
        guard case .leCreateConnection(let c) = packet.parameters else { Issue.record("not typed"); return }
        #expect(c.scanInterval == 0x60 && c.scanWindow == 0x60 && c.initiatorFilterPolicy == 0)
        #expect(c.peerAddressType == .randomDevice)
        #expect(c.peerAddress == BluetoothAddress("6B:30:F9:0E:C7:DD"))
        #expect(c.ownAddressType == .publicDevice)
        #expect(c.connection.connectionIntervalMin == 24 && c.connection.connectionIntervalMax == 24)
        #expect(c.connection.supervisionTimeout == 400 && c.connection.supervisionTimeoutMicroseconds == 4_000_000)
        #expect(packet.summary == "LE Create Connection peer 6B:30:F9:0E:C7:DD (random) interval 30.00–30.00 ms")
    }

    @Test func leCreateConnectionEveryTruncation() {
        expectEveryTruncation(Array(createConnection[3...]), layer: .hci, layout: [
            ("LE_Scan_Interval", 2), ("LE_Scan_Window", 2), ("Initiator_Filter_Policy", 1), ("Peer_Address_Type", 1),
            ("BD_ADDR", 6), ("Own_Address_Type", 1), ("Connection_Interval_Min", 2), ("Connection_Interval_Max", 2),
            ("Max_Latency", 2), ("Supervision_Timeout", 2), ("Min_CE_Length", 2), ("Max_CE_Length", 2),
        ]) { r throws(DecodeError) in _ = try LECreateConnectionCommand(parsing: &r) }
    }

    @Test func headerEveryTruncation() {
        expectEveryTruncation([0x03, 0x0C, 0x00], layer: .hci,
                              layout: [("opcode", 2), ("parameter total length", 1)]) { r throws(DecodeError) in
            _ = try HCICommandPacket(parsing: &r)
        }
    }

    @Test func parameterLengthMustMatchBytes() {
        #expect(throws: DecodeError.truncated(layer: .hci, field: "command parameters", at: 3, needed: 25, available: 24)) {
            _ = try parsed(Array(createConnection.dropLast())) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
        }
        #expect(throws: DecodeError.leftover(layer: .hci, structure: "HCI command parameters", at: 28, count: 1)) {
            _ = try parsed(createConnection + [0xEE]) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
        }
        // A typed command with a parameter byte too many.
        #expect(throws: DecodeError.leftover(layer: .hci, structure: "command parameters", at: 6, count: 1)) {
            _ = try parsed([0x06, 0x04, 0x04, 0x40, 0x00, 0x13, 0xEE]) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
        }
    }

    @Test func disconnect() throws {
        // Frame 224: Disconnect handle 0x0040 reason 0x13.
        let bytes: [UInt8] = [0x06, 0x04, // opcode 0x0406 Disconnect
                              0x03,       // length 3
                              0x40, 0x00, // Connection_Handle 0x0040
                              0x13]       // Reason: Remote User Terminated Connection
        let packet = try parsed(bytes) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
        #expect(packet.parameters == .disconnect(try parsed(Array(bytes[3...])) { r throws(DecodeError) in
            try DisconnectCommand(parsing: &r)
        }))
        #expect(packet.summary == "Disconnect handle 0x0040 reason Remote User Terminated Connection (0x13)")
        expectEveryTruncation(Array(bytes[3...]), layer: .hci, layout: [("Connection_Handle", 2), ("Reason", 1)]) {
            r throws(DecodeError) in _ = try DisconnectCommand(parsing: &r)
        }
    }

    @Test func leSetScanParametersAndEnable() throws {
        // Frame 13: LE Set Scan Parameters active, interval 0x0060, window 0x0090? (as captured).
        let params: [UInt8] = [0x01,       // LE_Scan_Type active
                               0x60, 0x00, // LE_Scan_Interval 96 (60 ms)
                               0x90, 0x00, // LE_Scan_Window 144 (90 ms)
                               0x00,       // Own_Address_Type public
                               0x00]       // Scanning_Filter_Policy
        let packet = try parsed([0x0B, 0x20, 0x07] + params) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
        guard case .leSetScanParameters(let c) = packet.parameters else { Issue.record("not typed"); return }
        #expect(c.scanType == 1 && c.scanInterval == 0x60 && c.scanWindow == 0x90 && c.scanningFilterPolicy == 0)
        #expect(packet.summary == "LE Set Scan Parameters active interval 60.00 ms window 90.00 ms")
        expectEveryTruncation(params, layer: .hci, layout: [("LE_Scan_Type", 1), ("LE_Scan_Interval", 2),
                                                            ("LE_Scan_Window", 2), ("Own_Address_Type", 1),
                                                            ("Scanning_Filter_Policy", 1)]) { r throws(DecodeError) in
            _ = try LESetScanParametersCommand(parsing: &r)
        }
        let enable = try parsed([0x0C, 0x20, 0x02, 0x01, 0x00]) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
        #expect(enable.summary == "LE Set Scan Enable enable")
        #expect(enable.parameters == .leSetScanEnable(try parsed([0x01, 0x00]) { r throws(DecodeError) in
            try LESetScanEnableCommand(parsing: &r)
        }))
    }

    @Test func leSetExtendedScanParametersBothPHYs() throws {
        let params: [UInt8] = [0x01,                   // Own_Address_Type random
                               0x00,                   // Scanning_Filter_Policy
                               0x05,                   // Scanning_PHYs: LE 1M | LE Coded
                               0x01, 0x10, 0x00, 0x08, 0x00, // 1M: active, interval 16, window 8
                               0x00, 0x30, 0x00, 0x18, 0x00] // Coded: passive, interval 48, window 24
        let c = try parsed(params) { r throws(DecodeError) in try LESetExtendedScanParametersCommand(parsing: &r) }
        #expect(c.ownAddressType == .randomDevice && c.scanningPHYs == 0x05)
        #expect(c.phys == [.init(phy: .le1M, scanType: 1, scanInterval: 16, scanWindow: 8),
                           .init(phy: .leCoded, scanType: 0, scanInterval: 48, scanWindow: 24)])
        expectEveryTruncation(params, layer: .hci, layout: [
            ("Own_Address_Type", 1), ("Scanning_Filter_Policy", 1), ("Scanning_PHYs", 1),
            ("Scan_Type", 1), ("Scan_Interval", 2), ("Scan_Window", 2), ("Scan_Type", 1), ("Scan_Interval", 2), ("Scan_Window", 2),
        ]) { r throws(DecodeError) in _ = try LESetExtendedScanParametersCommand(parsing: &r) }

        let enable: [UInt8] = [0x01, 0x01, 0xE8, 0x03, 0x00, 0x00] // enable, filter, duration 1000 (10 s), period 0
        let e = try parsed(enable) { r throws(DecodeError) in try LESetExtendedScanEnableCommand(parsing: &r) }
        #expect(e.enable == 1 && e.filterDuplicates == 1 && e.duration == 1000 && e.period == 0)
    }

    @Test func leExtendedCreateConnectionV1AndV2() throws {
        let phy: [UInt8] = [0x60, 0x00, 0x60, 0x00,  // Scan_Interval, Scan_Window 96
                            0x18, 0x00, 0x28, 0x00,  // Connection_Interval_Min 24, Max 40
                            0x00, 0x00, 0xF4, 0x01,  // Max_Latency 0, Supervision_Timeout 500
                            0x00, 0x00, 0x00, 0x00]  // CE lengths
        let head: [UInt8] = [0x00,                   // Initiator_Filter_Policy
                             0x00,                   // Own_Address_Type public
                             0x01,                   // Peer_Address_Type random
                             0xDD, 0xC7, 0x0E, 0xF9, 0x30, 0x6B, // Peer_Address
                             0x05]                   // Initiating_PHYs: 1M | Coded
        let v1 = try parsed([0x43, 0x20, UInt8(head.count + 2 * phy.count)] + head + phy + phy) { r throws(DecodeError) in
            try HCICommandPacket(parsing: &r)
        }
        guard case .leExtendedCreateConnection(let c) = v1.parameters else { Issue.record("not typed"); return }
        #expect(c.advertisingHandle == nil && c.phys.map(\.phy) == [.le1M, .leCoded])
        #expect(c.phys[1].connection.connectionIntervalMax == 40 && c.phys[1].connection.supervisionTimeout == 500)
        #expect(v1.summary == "LE Extended Create Connection [v1] peer 6B:30:F9:0E:C7:DD (random) interval 30.00–50.00 ms")

        let v2 = try parsed([0x02, 0x07] + head + phy + phy) { r throws(DecodeError) in
            try LEExtendedCreateConnectionCommand(parsing: &r, version2: true)
        }
        #expect(v2.advertisingHandle == 2 && v2.subevent == 7 && v2.phys.count == 2)
        expectEveryTruncation(head + phy, layer: .hci, layout: [
            ("Initiator_Filter_Policy", 1), ("Own_Address_Type", 1), ("Peer_Address_Type", 1), ("BD_ADDR", 6),
            ("Initiating_PHYs", 1), ("Scan_Interval", 2), ("Scan_Window", 2), ("Connection_Interval_Min", 2),
            ("Connection_Interval_Max", 2), ("Max_Latency", 2), ("Supervision_Timeout", 2), ("Min_CE_Length", 2),
            ("Max_CE_Length", 2),
        ]) { r throws(DecodeError) in
            var patched = r
            _ = try LEExtendedCreateConnectionCommand(parsing: &patched, version2: false)
        }
    }

    @Test func connectionManagementCommands() throws {
        let update: [UInt8] = [0x40, 0x00, 0x06, 0x00, 0x0C, 0x00, 0x04, 0x00, 0xC8, 0x00, 0x00, 0x00, 0x00, 0x00]
        let u = try parsed([0x13, 0x20, 0x0E] + update) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
        #expect(u.summary == "LE Connection Update handle 0x0040 interval 7.50–15.00 ms")

        let dataLength: [UInt8] = [0x40, 0x00, 0xFB, 0x00, 0x48, 0x08] // handle, TX_Octets 251, TX_Time 2120
        let d = try parsed(dataLength) { r throws(DecodeError) in try LESetDataLengthCommand(parsing: &r) }
        #expect(d.connectionHandle == 0x40 && d.txOctets == 251 && d.txTime == 2120)

        let phy: [UInt8] = [0x40, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00] // handle, all, tx 2M, rx 2M, options
        let p = try parsed(phy) { r throws(DecodeError) in try LESetPHYCommand(parsing: &r) }
        #expect(p.txPHYs == 2 && p.rxPHYs == 2 && p.phyOptions == 0)
        expectEveryTruncation(phy, layer: .hci, layout: [("Connection_Handle", 2), ("All_PHYs", 1), ("TX_PHYs", 1),
                                                         ("RX_PHYs", 1), ("PHY_Options", 2)]) { r throws(DecodeError) in
            _ = try LESetPHYCommand(parsing: &r)
        }

        let features = try parsed([0x16, 0x20, 0x02, 0x41, 0x00]) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
        #expect(features.parameters == .leReadRemoteFeatures(connectionHandle: 0x41))
        let cancel = try parsed([0x0E, 0x20, 0x00]) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
        #expect(cancel.parameters == .leCreateConnectionCancel && cancel.summary == "LE Create Connection Cancel")

        let filter = try parsed([0x11, 0x20, 0x07, 0x01, 0xDD, 0xC7, 0x0E, 0xF9, 0x30, 0x6B]) { r throws(DecodeError) in
            try HCICommandPacket(parsing: &r)
        }
        #expect(filter.parameters == .leAddDeviceToFilterAcceptList(addressType: .randomDevice,
                                                                      address: BluetoothAddress(value: 0x6B30_F90E_C7DD)))
    }

    @Test func encryptionCommands() throws {
        let ltk = Array(UInt8(0x00)...UInt8(0x0F))
        let enable: [UInt8] = [0x40, 0x00] + [1, 2, 3, 4, 5, 6, 7, 8] + [0x34, 0x12] + ltk // handle, Rand, EDIV, LTK
        let e = try parsed(enable) { r throws(DecodeError) in try LEEnableEncryptionCommand(parsing: &r) }
        #expect(e.randomNumber == 0x0807_0605_0403_0201 && e.encryptedDiversifier == 0x1234 && e.longTermKey == ltk)
        expectEveryTruncation(enable, layer: .hci, layout: [("Connection_Handle", 2), ("Random_Number", 8),
                                                            ("Encrypted_Diversifier", 2), ("Long_Term_Key", 16)]) {
            r throws(DecodeError) in _ = try LEEnableEncryptionCommand(parsing: &r)
        }
        let reply = try parsed([0x40, 0x00] + ltk) { r throws(DecodeError) in try LELongTermKeyRequestReplyCommand(parsing: &r) }
        #expect(reply.connectionHandle == 0x40 && reply.longTermKey == ltk)
    }

    @Test func advertisingCommands() throws {
        let params: [UInt8] = [0xA0, 0x00, 0xA0, 0x00, // interval min/max 160 (100 ms)
                               0x00,                   // ADV_IND
                               0x01,                   // own random
                               0x00,                   // peer type
                               0, 0, 0, 0, 0, 0,       // peer address
                               0x07,                   // channels 37, 38, 39
                               0x00]                   // filter policy
        let p = try parsed([0x06, 0x20, 0x0F] + params) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
        #expect(p.summary == "LE Set Advertising Parameters interval 100.00–100.00 ms")

        let ad: [UInt8] = [0x02, 0x01, 0x06,                  // Flags: LE General | BR/EDR Not Supported
                           0x05, 0x09, 0x44, 0x45, 0x4D, 0x4F] // Complete Local Name "DEMO"
        let data = try parsed([0x08, 0x20, 0x20, UInt8(ad.count)] + ad + Array(repeating: 0, count: 31 - ad.count)) {
            r throws(DecodeError) in try HCICommandPacket(parsing: &r)
        }
        guard case .leSetAdvertisingData(let c) = data.parameters else { Issue.record("not typed"); return }
        #expect(c.dataLength == 9 && c.data.localName == "DEMO" && c.data.flags == ADFlags(rawValue: 0x06))
        #expect(data.summary == "LE Set Advertising Data 9 bytes name \"DEMO\"")
        #expect(throws: DecodeError.invalid(layer: .hci, field: "Advertising_Data_Length", at: 0,
                                            reason: "32 exceeds the 31-byte legacy advertising data")) {
            _ = try parsed([0x20] + Array(repeating: 0, count: 31)) { r throws(DecodeError) in
                try LESetAdvertisingDataCommand(parsing: &r)
            }
        }
        let enable = try parsed([0x0A, 0x20, 0x01, 0x01]) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
        #expect(enable.parameters == .leSetAdvertisingEnable(enable: 1) && enable.summary == "LE Set Advertising Enable enable")
    }

    @Test func untypedAndUnknownOpcodes() throws {
        let reset = try parsed([0x03, 0x0C, 0x00]) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
        #expect(reset.parameters == .raw([]) && reset.summary == "Reset")
        let vendor = try parsed([0x4E, 0xFD, 0x02, 0xAB, 0xCD]) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
        #expect(vendor.opcode.ogf == 0x3F && vendor.opcode.name == "Vendor Command (OCF 0x014E)")
        #expect(vendor.summary == "Vendor Command (OCF 0x014E) abcd")
        #expect(HCIOpcode(rawValue: 0x2FFF).name == "Unknown (0x2FFF)")
        #expect(HCIOpcode(ogf: 0x08, ocf: 0x0043) == .leExtendedCreateConnection)
        #expect(HCIOpcode.readBDADDR.name == "Read BD_ADDR" && HCIOpcode.nop.name == "NOP")
        #expect(HCIOpcode(rawValue: 0x0C6D).name == "Write LE Host Support")
        #expect(HCIOpcode(rawValue: 0x2085).name == "LE Extended Create Connection [v2]")
    }
}

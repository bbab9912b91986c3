import BLEBase
@testable import BLEHCI
import Testing

@Suite struct LEMetaEventTests {
    func meta(_ bytes: [UInt8]) throws -> (HCIEventPacket, LEMetaEvent) {
        let packet = try parsed(bytes) { r throws(DecodeError) in try HCIEventPacket(parsing: &r) }
        guard case .leMeta(let meta) = packet.body else { throw DecodeError.invalid(layer: .hci, field: "test", at: 0, reason: "not LE Meta") }
        return (packet, meta)
    }

    static let peer = BluetoothAddress(value: 0x6B30_F90E_C7DD)
    let connectionCompleteParameters: [UInt8] = [
        0x00,                               // Status
        0x40, 0x00,                         // Connection_Handle 0x0040
        0x00,                               // Role central
        0x01,                               // Peer_Address_Type random
        0xDD, 0xC7, 0x0E, 0xF9, 0x30, 0x6B, // Peer_Address
        0x18, 0x00,                         // Connection_Interval 24 (30 ms)
        0x00, 0x00,                         // Peripheral_Latency
        0x90, 0x01,                         // Supervision_Timeout 400 (4 s)
        0x00,                               // Central_Clock_Accuracy
    ]

    @Test func connectionComplete() throws {
        // Frame 27 of demo-faults.btsnoop.
        let (packet, event) = try meta([0x3E, 0x13, 0x01] + connectionCompleteParameters)
        guard case .connectionComplete(let c) = event.body else { Issue.record("not typed"); return }
        #expect(c.status == .success && c.connectionHandle == 0x40 && c.role == .central)
        #expect(c.peerAddressType == .randomDevice && c.peerAddress == Self.peer)
        #expect(c.connectionIntervalMicroseconds == 30_000 && c.supervisionTimeoutMicroseconds == 4_000_000)
        #expect(c.localResolvablePrivateAddress == nil && c.advertisingHandle == nil)
        #expect(packet.summary
            == "LE Connection Complete handle 0x0040 status Success role central peer 6B:30:F9:0E:C7:DD (random) interval 30.00 ms")
        expectEveryTruncation(connectionCompleteParameters, layer: .hci, layout: [
            ("Status", 1), ("Connection_Handle", 2), ("Role", 1), ("Peer_Address_Type", 1), ("BD_ADDR", 6),
            ("Connection_Interval", 2), ("Peripheral_Latency", 2), ("Supervision_Timeout", 2), ("Central_Clock_Accuracy", 1),
        ]) { r throws(DecodeError) in _ = try LEConnectionCompleteEvent(parsing: &r, subevent: .connectionComplete) }
    }

    @Test func enhancedConnectionCompleteV1AndV2() throws {
        let local: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66] // Local_Resolvable_Private_Address 66:55:44:33:22:11
        let peerRPA: [UInt8] = [0, 0, 0, 0, 0, 0]               // Peer_Resolvable_Private_Address unused
        let head = Array(connectionCompleteParameters[0..<11])
        let tail = Array(connectionCompleteParameters[11...])
        let v1Params = head + local + peerRPA + tail
        let (_, v1) = try meta([0x3E, UInt8(v1Params.count + 1), 0x0A] + v1Params)
        guard case .connectionComplete(let a) = v1.body else { Issue.record("not typed"); return }
        #expect(a.subevent == .enhancedConnectionCompleteV1)
        #expect(a.localResolvablePrivateAddress == BluetoothAddress("66:55:44:33:22:11"))
        #expect(a.peerResolvablePrivateAddress == BluetoothAddress(value: 0) && a.syncHandle == nil)

        let v2Params = v1Params + [0x03,        // Advertising_Handle 3
                                   0xFF, 0x0F]  // Sync_Handle 0x0FFF (none)
        let (packet, v2) = try meta([0x3E, UInt8(v2Params.count + 1), 0x29] + v2Params)
        guard case .connectionComplete(let b) = v2.body else { Issue.record("not typed"); return }
        #expect(b.advertisingHandle == 3 && b.syncHandle == 0x0FFF && b.connectionInterval == 24)
        #expect(packet.summary.hasPrefix("LE Enhanced Connection Complete [v2] handle 0x0040 status Success role central"))
        expectEveryTruncation(v2Params, layer: .hci, layout: [
            ("Status", 1), ("Connection_Handle", 2), ("Role", 1), ("Peer_Address_Type", 1), ("BD_ADDR", 6),
            ("BD_ADDR", 6), ("BD_ADDR", 6), ("Connection_Interval", 2), ("Peripheral_Latency", 2),
            ("Supervision_Timeout", 2), ("Central_Clock_Accuracy", 1), ("Advertising_Handle", 1), ("Sync_Handle", 2),
        ]) { r throws(DecodeError) in _ = try LEConnectionCompleteEvent(parsing: &r, subevent: .enhancedConnectionCompleteV2) }
    }

    @Test func advertisingReportRSSIAfterData() throws {
        // Frame 23 of demo-faults.btsnoop.
        let bytes: [UInt8] = [
            0x3E, 0x21, 0x02,                   // LE Meta, 33 bytes, LE Advertising Report
            0x01,                               // Num_Reports
            0x00,                               // Event_Type ADV_IND
            0x01,                               // Address_Type random
            0xDD, 0xC7, 0x0E, 0xF9, 0x30, 0x6B, // Address
            0x15,                               // Data_Length 21
            0x02, 0x01, 0x06,                   //   Flags 0x06
            0x0B, 0xFF, 0xFF, 0xFF, 0x01, 0x00, 0x1A, 0x7D, 0xFD, 0xE6, 0xF1, 0x4E, // Manufacturer 0xFFFF
            0x05, 0x03, 0xE0, 0xFF, 0x0F, 0x18, //   Complete 16-bit UUIDs FFE0, 180F
            0xAC,                               // RSSI -84
        ]
        let (packet, event) = try meta(bytes)
        guard case .advertisingReport(let reports) = event.body, let report = reports.first else {
            Issue.record("not typed"); return
        }
        #expect(reports.count == 1 && report.eventType == .advInd && report.address == Self.peer && report.rssi == -84)
        #expect(report.data.serviceUUIDs == [BluetoothUUID(uint16: 0xFFE0), BluetoothUUID(uint16: 0x180F)])
        #expect(report.data.manufacturerData.first?.companyID == 0xFFFF)
        #expect(packet.summary == "LE Advertising Report ADV_IND 6B:30:F9:0E:C7:DD (random) RSSI -84 dBm "
            + "services FFE0, 180F mfr Reserved for testing (0xFFFF) 8 bytes")
        let named: [UInt8] = [0x3E, 0x1A, 0x02, 0x01, 0x04, 0x01, 0xB0, 0x77, 0xFD, 0xE0, 0x71, 0xCE,
                              0x0E, 0x0A, 0x09, 0x44, 0x45, 0x4D, 0x4F, 0x2D, 0x43, 0x33, 0x36, 0x45, 0x02, 0x0A, 0x00,
                              0xB3] // frame 20: SCAN_RSP, name "DEMO-C36E", TX power 0, RSSI -77
        let (scanResponse, _) = try meta(named)
        #expect(scanResponse.summary == "LE Advertising Report SCAN_RSP CE:71:E0:FD:77:B0 (random) RSSI -77 dBm name \"DEMO-C36E\"")
        let one: [UInt8] = [0x00, 0x01, 0xDD, 0xC7, 0x0E, 0xF9, 0x30, 0x6B, 0x00, 0xC5]
        expectEveryTruncation(one, layer: .hci, layout: [("Event_Type", 1), ("Address_Type", 1), ("BD_ADDR", 6),
                                                         ("Data_Length", 1), ("RSSI", 1)]) { r throws(DecodeError) in
            _ = try LEAdvertisingReport(parsing: &r)
        }
    }

    @Test func extendedAdvertisingReport() throws {
        // Frame 22 of demo-faults.btsnoop: legacy SCAN_RSP to ADV_IND carried in an extended report.
        let report: [UInt8] = [
            0x1B, 0x00,                         // Event_Type 0x001B: legacy SCAN_RSP to ADV_IND, complete
            0x00,                               // Address_Type public
            0x0D, 0x0B, 0x0F, 0x96, 0x2B, 0xC8, // Address C8:2B:96:0F:0B:0D
            0x01,                               // Primary_PHY LE 1M
            0x00,                               // Secondary_PHY none
            0xFF,                               // Advertising_SID none
            0x7F,                               // TX_Power not available
            0xC7,                               // RSSI -57
            0x00, 0x00,                         // Periodic_Advertising_Interval
            0x00,                               // Direct_Address_Type
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // Direct_Address
            0x0E,                               // Data_Length 14
            0x0A, 0x09, 0x44, 0x45, 0x4D, 0x4F, 0x2D, 0x30, 0x42, 0x30, 0x44, // name "DEMO-0B0D"
            0x02, 0x0A, 0x00,                   // TX power 0
        ]
        let (packet, event) = try meta([0x3E, UInt8(report.count + 2), 0x0D, 0x01] + report)
        guard case .extendedAdvertisingReport(let reports) = event.body, let r = reports.first else {
            Issue.record("not typed"); return
        }
        #expect(r.eventType.isLegacy && r.eventType.isScanResponse && r.eventType.dataStatus == .complete)
        #expect(r.eventType.name == "SCAN_RSP to ADV_IND" && r.primaryPHY == .le1M && r.secondaryPHY == .none)
        #expect(r.txPower == 127 && r.rssi == -57 && r.advertisingData.localName == "DEMO-0B0D")
        #expect(r.advertisingData.txPower == 0)
        #expect(packet.summary == "LE Extended Advertising Report SCAN_RSP to ADV_IND C8:2B:96:0F:0B:0D (public) SID 255 RSSI -57 dBm name \"DEMO-0B0D\"")
        expectEveryTruncation(Array(report[0..<24]), layer: .hci, layout: [
            ("Event_Type", 2), ("Address_Type", 1), ("BD_ADDR", 6), ("Primary_PHY", 1), ("Secondary_PHY", 1),
            ("Advertising_SID", 1), ("TX_Power", 1), ("RSSI", 1), ("Periodic_Advertising_Interval", 2),
            ("Direct_Address_Type", 1), ("BD_ADDR", 6), ("Data_Length", 1),
        ]) { r throws(DecodeError) in
            var copy = r
            _ = try LEExtendedAdvertisingReport(parsing: &copy)
        }
        let extended = ExtendedAdvertisingEventType(rawValue: 0x0021) // connectable, more data to come
        #expect(extended.dataStatus == .incomplete && extended.name == "connectable")
        #expect(extended.with(dataStatus: .complete).rawValue == 0x0001)
    }

    @Test func connectionEvents() throws {
        let (update, _) = try meta([0x3E, 0x0A, 0x03, 0x00, 0x40, 0x00, 0x06, 0x00, 0x04, 0x00, 0xC8, 0x00])
        #expect(update.summary == "LE Connection Update Complete handle 0x0040 status Success interval 7.50 ms latency 4 timeout 2000.00 ms")

        let (features, featuresEvent) = try meta([0x3E, 0x0C, 0x04, 0x00, 0x40, 0x00, 0xFF, 0x49, 0, 0, 0, 0, 0, 0])
        #expect(featuresEvent.body == .readRemoteFeaturesComplete(try parsed([0x00, 0x40, 0x00, 0xFF, 0x49, 0, 0, 0, 0, 0, 0]) {
            r throws(DecodeError) in try LEReadRemoteFeaturesCompleteEvent(parsing: &r)
        }))
        #expect(features.summary.hasSuffix("features 0x00000000000049FF"))

        let ltk: [UInt8] = [0x40, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 0x34, 0x12] // handle, Rand, EDIV
        let l = try parsed(ltk) { r throws(DecodeError) in try LELongTermKeyRequestEvent(parsing: &r) }
        #expect(l.randomNumber == 0x0807_0605_0403_0201 && l.encryptedDiversifier == 0x1234)
        expectEveryTruncation(ltk, layer: .hci, layout: [("Connection_Handle", 2), ("Random_Number", 8),
                                                         ("Encrypted_Diversifier", 2)]) { r throws(DecodeError) in
            _ = try LELongTermKeyRequestEvent(parsing: &r)
        }

        let request: [UInt8] = [0x40, 0x00, 0x06, 0x00, 0x0C, 0x00, 0x00, 0x00, 0xF4, 0x01]
        let (req, _) = try meta([0x3E, 0x0B, 0x06] + request)
        #expect(req.summary == "LE Remote Connection Parameter Request handle 0x0040 interval 7.50–15.00 ms")

        // Frame 243: LE Data Length Change 251 bytes / 2120 µs both ways on handle 0x0043.
        let (length, lengthEvent) = try meta([0x3E, 0x0B, 0x07, 0x43, 0x00, 0xFB, 0x00, 0x48, 0x08, 0xFB, 0x00, 0x48, 0x08])
        guard case .dataLengthChange(let d) = lengthEvent.body else { Issue.record("not typed"); return }
        #expect(d.maxTxOctets == 251 && d.maxTxTime == 2120 && d.maxRxOctets == 251 && d.maxRxTime == 2120)
        #expect(length.summary == "LE Data Length Change handle 0x0043 tx 251 bytes rx 251 bytes")

        let (phy, _) = try meta([0x3E, 0x06, 0x0C, 0x00, 0x40, 0x00, 0x02, 0x03])
        #expect(phy.summary == "LE PHY Update Complete handle 0x0040 status Success tx LE 2M rx LE Coded")

        let (terminated, terminatedEvent) = try meta([0x3E, 0x06, 0x12, 0x00, 0x01, 0x40, 0x00, 0x05])
        #expect(terminatedEvent.body == .advertisingSetTerminated(try parsed([0x00, 0x01, 0x40, 0x00, 0x05]) {
            r throws(DecodeError) in try LEAdvertisingSetTerminatedEvent(parsing: &r)
        }))
        #expect(terminated.summary == "LE Advertising Set Terminated set 1 status Success handle 0x0040")

        let (csa, _) = try meta([0x3E, 0x04, 0x14, 0x40, 0x00, 0x01])
        #expect(csa.summary == "LE Channel Selection Algorithm handle 0x0040 #2")
    }

    @Test func directedAdvertisingReport() throws {
        let report: [UInt8] = [0x01,                               // Event_Type ADV_DIRECT_IND
                               0x01, 0xDD, 0xC7, 0x0E, 0xF9, 0x30, 0x6B, // random 6B:30:F9:0E:C7:DD
                               0x00, 0x20, 0x44, 0xDA, 0x7D, 0x1A, 0x00, // direct public 00:1A:7D:DA:44:20
                               0xC0]                               // RSSI -64
        let (packet, event) = try meta([0x3E, 0x12, 0x0B, 0x01] + report)
        guard case .directedAdvertisingReport(let reports) = event.body else { Issue.record("not typed"); return }
        #expect(reports.first?.directAddress == BluetoothAddress("00:1A:7D:DA:44:20") && reports.first?.rssi == -64)
        #expect(packet.summary == "LE Directed Advertising Report 6B:30:F9:0E:C7:DD (random) → 00:1A:7D:DA:44:20 (public) RSSI -64 dBm")
    }

    @Test func unknownSubeventKeepsBytes() throws {
        let (packet, event) = try meta([0x3E, 0x03, 0x7F, 0xAA, 0xBB])
        #expect(event.subevent.name == "Unknown (0x7F)" && event.body == .raw([0xAA, 0xBB]))
        #expect(packet.summary == "Unknown (0x7F) aabb")
        #expect(throws: DecodeError.truncated(layer: .hci, field: "Subevent_Code", at: 2, needed: 1, available: 0)) {
            _ = try meta([0x3E, 0x00])
        }
    }
}

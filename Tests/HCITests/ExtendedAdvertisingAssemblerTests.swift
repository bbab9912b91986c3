import BLEBase
@testable import BLEHCI
import Testing

@Suite struct ExtendedAdvertisingAssemblerTests {
    static let address = BluetoothAddress(value: 0xC82B_960F_0B0D)

    func fragment(_ status: ExtendedAdvertisingDataStatus, _ data: [UInt8], sid: UInt8 = 1,
                  address: BluetoothAddress = Self.address, rssi: Int8 = -60) -> LEExtendedAdvertisingReport {
        LEExtendedAdvertisingReport(
            eventType: ExtendedAdvertisingEventType(rawValue: 0x0001).with(dataStatus: status), addressType: .randomDevice,
            address: address, primaryPHY: .le1M, secondaryPHY: .le2M, advertisingSID: sid, txPower: 127, rssi: rssi,
            periodicAdvertisingInterval: 0, directAddressType: .publicDevice, directAddress: BluetoothAddress(value: 0),
            data: data)
    }

    @Test func twoFragmentsFromEventsJoin() throws {
        // Two LE Meta events: the first with data status 1 (more to come), the second complete.
        let first: [UInt8] = [0x3E, 0x22, 0x0D, 0x01,
                              0x21, 0x00,                         // Event_Type: connectable, incomplete
                              0x01, 0x0D, 0x0B, 0x0F, 0x96, 0x2B, 0xC8, // random address
                              0x01, 0x02, 0x01, 0x7F, 0xC4,       // 1M, 2M, SID 1, no TX power, RSSI -60
                              0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, // no periodic, no direct address
                              0x08,                               // Data_Length 8
                              0x02, 0x01, 0x06,                   // Flags
                              0x07, 0x09, 0x44, 0x45, 0x4D]       // name, 3 of 6 bytes
        let second: [UInt8] = [0x3E, 0x1D, 0x0D, 0x01,
                               0x01, 0x00,                        // Event_Type: connectable, complete
                               0x01, 0x0D, 0x0B, 0x0F, 0x96, 0x2B, 0xC8,
                               0x01, 0x02, 0x01, 0x7F, 0xC2,      // RSSI -62
                               0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0,
                               0x03,                              // Data_Length 3
                               0x4F, 0x2D, 0x31]                  // "O-1"
        var assembler = ExtendedAdvertisingAssembler()
        var outputs: [ExtendedAdvertisingAssembler.Output] = []
        for bytes in [first, second] {
            let packet = try parsed(bytes) { r throws(DecodeError) in try HCIEventPacket(parsing: &r) }
            guard case .leMeta(let meta) = packet.body, case .extendedAdvertisingReport(let reports) = meta.body else {
                Issue.record("not an extended report"); return
            }
            for report in reports { outputs += assembler.feed(report) }
            if bytes == first {
                #expect(outputs.isEmpty && assembler.pendingCount == 1)
                #expect(packet.summary.hasSuffix("[incomplete, more to come] 8 bytes"))
            }
        }
        guard case .complete(let joined, let fragments)? = outputs.first else { Issue.record("not joined"); return }
        #expect(outputs.count == 1 && fragments == 2 && assembler.pendingCount == 0)
        #expect(joined.advertisingData.localName == "DEMO-1" && joined.rssi == -62)
        #expect(joined.eventType.dataStatus == .complete && joined.eventType.isConnectable)
    }

    @Test func wholeReportPassesThroughAndTruncatedEnds() {
        var assembler = ExtendedAdvertisingAssembler()
        let whole = fragment(.complete, [0x02, 0x01, 0x06])
        #expect(assembler.feed(whole) == [.complete(whole, fragments: 1)])
        #expect(assembler.feed(fragment(.incomplete, [1, 2])).isEmpty)
        let out = assembler.feed(fragment(.truncated, [3]))
        guard case .truncated(let report, let fragments)? = out.first else { Issue.record("not truncated"); return }
        #expect(report.data == [1, 2, 3] && fragments == 2 && assembler.pendingCount == 0)
    }

    @Test func keysSeparateAdvertisersAndSets() {
        var assembler = ExtendedAdvertisingAssembler()
        #expect(assembler.feed(fragment(.incomplete, [1], sid: 1)).isEmpty)
        #expect(assembler.feed(fragment(.incomplete, [2], sid: 2)).isEmpty)
        #expect(assembler.feed(fragment(.incomplete, [3], address: BluetoothAddress(value: 1))).isEmpty)
        #expect(assembler.pendingCount == 3)
        guard case .complete(let report, _)? = assembler.feed(fragment(.complete, [4], sid: 2)).first else {
            Issue.record("not complete"); return
        }
        #expect(report.data == [2, 4] && report.advertisingSID == 2)
    }

    @Test func boundsDropStaleAndOversizedPartials() {
        var assembler = ExtendedAdvertisingAssembler(maxReportsWithoutProgress: 2, maxDataBytes: 4)
        #expect(assembler.feed(fragment(.incomplete, [1], sid: 1)).isEmpty)
        _ = assembler.feed(fragment(.complete, [], sid: 5))
        _ = assembler.feed(fragment(.complete, [], sid: 6))
        let out = assembler.feed(fragment(.complete, [], sid: 7))
        guard case .abandoned(let stale, 1, .stale)? = out.first else { Issue.record("not evicted"); return }
        #expect(stale.data == [1] && assembler.pendingCount == 0)

        #expect(assembler.feed(fragment(.incomplete, [1, 2, 3])).isEmpty)
        guard case .abandoned(let big, 2, .tooLarge)? = assembler.feed(fragment(.incomplete, [4, 5])).first else {
            Issue.record("not capped"); return
        }
        #expect(big.data == [1, 2, 3, 4, 5])

        #expect(assembler.feed(fragment(.incomplete, [9])).isEmpty)
        #expect(assembler.flush() == [.abandoned(fragment(.incomplete, [9]), fragments: 1, reason: .endOfCapture)])
        #expect(assembler.pendingCount == 0)
    }
}

import BLEATT
import BLEBase
import BLECaptureFormats
import BLEPacketDecoding
@testable import BLESessions
import Testing

/// The compact working state of the session layer gives what the plain collections gave.
struct CompactStateTests {
    /// The median as the exact sketch defines it: the upper middle of the sorted samples.
    func exactMedian(_ values: [Int64]) -> Int64? { values.isEmpty ? nil : values.sorted()[values.count / 2] }

    @Test(arguments: [[], [40], [40, 10], [10, 40], [30, 10, 20], [5, 5, 9, 1], [7, 3, 3, 8, 1, 9]])
    func latencySketchIsExactWithFewSamples(values: [Int64]) {
        var sketch = LatencySketch()
        for value in values { sketch.add(value) }
        #expect(sketch.count == values.count)
        #expect(sketch.min == values.min())
        #expect(sketch.max == values.max())
        #expect(sketch.median == exactMedian(values))
    }

    @Test(arguments: [[40], [40, 10], [30, 10, 20], [7, 3, 3, 8, 1, 9]])
    func frozenSketchKeepsWhatTheReportShows(values: [Int64]) {
        var sketch = LatencySketch()
        for value in values { sketch.add(value) }
        sketch.freeze()
        #expect(sketch.count == values.count)
        #expect(sketch.min == values.min())
        #expect(sketch.max == values.max())
        #expect(sketch.median == exactMedian(values))
    }

    @Test func frozenHistogramKeepsItsMedian() {
        var sketch = LatencySketch()
        for value in 1...5000 { sketch.add(Int64(value)) }
        let median = sketch.median
        sketch.freeze()
        #expect(sketch.median == median)
        #expect(sketch.count == 5000)
    }

    @Test func pendingRequestsHoldOnePerDirection() {
        var pending = PendingRequests()
        for (offset, direction) in PendingRequests.directions.reversed().enumerated() {
            pending[direction] = request(at: Int64(offset))
        }
        #expect(pending.byRequestTime.map(\.transaction.requestUs) == [0, 1, 2, 3, 4])
        #expect(pending.remove(.sent)?.transaction.requestUs == 4)
        #expect(pending.remove(.sent) == nil)
        #expect(pending.byRequestTime.count == 4)
        pending.removeAll()
        #expect(pending.byRequestTime.isEmpty)
    }

    func request(at timeUs: Int64) -> PendingRequest {
        PendingRequest(pdu: ATTPDU(opcode: .readRequest, parameters: .readRequest(handle: 3)),
                       transaction: ATTTransaction(opcode: .readRequest, handle: 3, attribute: nil, direction: .sent,
                                                   requestUs: timeUs, requestRecord: 0, responseUs: nil,
                                                   responseRecord: nil, responseOpcode: nil, outcome: .noResponse,
                                                   errorCode: nil, value: nil))
    }

    @Test func liveLinksKeepTableAndDictionaryLinksApart() {
        let links: [LinkID] = [.hci(adapter: nil, handle: 5), .hci(adapter: 0, handle: 5), .hci(adapter: 1, handle: 5),
                               .hci(adapter: nil, handle: 0x1FFF), .air(accessAddress: 5)]
        var live = LiveLinks()
        for link in links { live.insert(connection(on: link), for: link) }
        #expect(live.count == links.count)
        for link in links { #expect(live[link]?.connection.link == link) }
        #expect(live[.hci(adapter: nil, handle: 6)] == nil)
        #expect(live.remove(.hci(adapter: nil, handle: 5))?.connection.link == .hci(adapter: nil, handle: 5))
        #expect(live[.hci(adapter: nil, handle: 5)] == nil)
        #expect(live[.hci(adapter: 0, handle: 5)] != nil)
        #expect(live.count == links.count - 1)
    }

    func connection(on link: LinkID) -> LiveConnection {
        LiveConnection(connection: Connection(
            id: ConnectionID(number: 1), deviceID: nil, link: link, handle: nil, accessAddress: nil, peerAddress: nil, peerAddressType: nil,
            role: .unknown, createUs: nil, startUs: 0, startRecord: 0, endUs: nil, endRecord: nil, disconnectReason: nil,
            initiator: nil, completeEvent: "", parameters: [], mtu: 23, dataLength: nil, phy: nil, encrypted: false,
            lastActivityUs: 0, transactions: [], transactionTotals: TransactionTotals(), subscriptions: [], crcInit: nil,
            valueCounts: [], discovery: nil), slot: nil)
    }

    /// Value counts kept in the short list and, past it, in the live connection's dictionary
    /// reach the ended connection as one list in key order.
    @Test func valueCountsListThenDictionaryMergeWhenTheLinkEnds() {
        let conn = connection(on: .hci(adapter: nil, handle: 1))
        let handles = (0..<UInt16(FewKeys<ValueCountKey, Int>.maxListed + 4)).map { 0x10 + $0 }
        for _ in 0..<3 {
            for handle in handles { conn.countValue(opcode: 0x1B, handle: handle, server: .device) }
        }
        conn.countValue(opcode: 0x52, handle: 0x10, server: .device)
        let counts = conn.ended().valueCounts
        let expected = [(ValueCountKey(opcode: 0x1B, handle: 0x10, server: .device), 3), (ValueCountKey(opcode: 0x52, handle: 0x10, server: .device), 1)]
            + handles.dropFirst().map { (ValueCountKey(opcode: 0x1B, handle: $0, server: .device), 3) }
        #expect(counts.map(\.key) == expected.map(\.0))
        #expect(counts.map(\.value) == expected.map(\.1))
        // Ending again adds nothing: the list was merged once.
        #expect(conn.ended().valueCounts.map(\.key) == counts.map(\.key))
        #expect(conn.ended().valueCounts.map(\.value) == counts.map(\.value))
    }

    /// Transaction totals counted while the link is up reach the connection when it ends, their
    /// latency sketches frozen.
    @Test func transactionTotalsReachTheEndedConnection() {
        let conn = connection(on: .hci(adapter: nil, handle: 1))
        let keys = (0..<UInt16(FewKeys<TransactionTotals.Key, TransactionTotals.Aggregate>.maxListed + 2)).map {
            TransactionTotals.Key(opcode: 0x12, handle: 0x20 + $0, server: .device)
        }
        for (index, key) in keys.enumerated() {
            for latency in [Int64(10), 30, 20] {
                conn.updateTotals(key) { $0.count += 1; $0.latencies.add(latency + Int64(index)) }
            }
        }
        let totals = conn.ended().transactionTotals.byKey
        #expect(totals.map(\.key) == keys)
        for (index, (_, aggregate)) in totals.enumerated() {
            #expect(aggregate.count == 3)
            #expect(aggregate.latencies.median == 20 + Int64(index))
            #expect(aggregate.latencies.count == 3)
        }
    }

    /// The handle → UUID table answers as a dictionary would, whatever order handles come in.
    @Test func handleTableFindsWhatWasSetInAnyOrder() {
        var table = HandleUUIDs()
        let handles: [UInt16] = [0x0010, 0x0003, 0xFFFF, 0x0000, 0x0011, 0x0007]
        for handle in handles { table.set(BluetoothUUID(uint16: handle), for: handle) }
        table.set(BluetoothUUID(uint16: 0xFFE1), for: 0x0007)
        #expect(table[0x0010] == BluetoothUUID(uint16: 0x0010))
        #expect(table[0x0000] == BluetoothUUID(uint16: 0x0000))
        #expect(table[0xFFFF] == BluetoothUUID(uint16: 0xFFFF))
        #expect(table[0x0007] == BluetoothUUID(uint16: 0xFFE1))
        for absent: UInt16 in [0x0001, 0x0008, 0x0012, 0xFFFE] { #expect(table[absent] == nil) }
        #expect(HandleUUIDs()[0x0001] == nil)
    }

    /// Past the cap, bursts merge exactly as scanning every gap for the first smallest one does
    /// (the reference below), through thousands of merges, ties, and times going backwards.
    @Test func burstsMergeAsAFullScanWould() {
        var bursts = AdvertisingBursts()
        var reference = ReferenceBursts()
        var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        var time: Int64 = 0
        for step in 0..<20_000 {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let roll = Int(random >> 33)
            // Mostly bursts 2–12 s apart in whole seconds (many tied gaps), some backwards jumps.
            time += roll % 50 == 0 ? -Int64(roll % 7_000_000) : roll % 3 == 0 ? 100_000 : Int64(2 + roll % 11) * 1_000_000
            let rssi = roll % 5 == 0 ? nil : -(roll % 90)
            bursts.add(timeUs: time, rssi: rssi)
            reference.add(timeUs: time, rssi: rssi)
            if step % 997 == 0 { #expect(bursts.bursts == reference.bursts, "step \(step)") }
        }
        #expect(bursts.bursts.count == AdvertisingBursts.cap)
        #expect(bursts.bursts == reference.bursts)
        #expect(bursts.bursts.reduce(0) { $0 + $1.count } == 20_000)
    }

    /// Capture timestamps may be anything: gaps between bursts saturate instead of overflowing.
    @Test func burstGapsSaturateOnExtremeTimestamps() {
        var bursts = AdvertisingBursts()
        for time in [Int64.min, Int64.max, Int64.min, 0] { bursts.add(timeUs: time, rssi: nil) }
        #expect(bursts.bursts.map(\.startUs) == [Int64.min, Int64.max, Int64.min, 0])
        #expect(bursts.bursts.map(\.count) == [1, 1, 1, 1])
    }
}

/// The merge rule written plainly: scan every gap for the first smallest, close up the arrays.
private struct ReferenceBursts {
    var bursts: [AdvertisingBurst] = []
    var gaps: [Int64] = []

    mutating func add(timeUs: Int64, rssi: Int?) {
        if let last = bursts.last, gap(last.endUs, timeUs) <= AdvertisingBursts.gapUs, timeUs >= last.endUs {
            bursts[bursts.count - 1].endUs = timeUs
            bursts[bursts.count - 1].count += 1
            if let rssi {
                bursts[bursts.count - 1].rssiMin = min(last.rssiMin ?? rssi, rssi)
                bursts[bursts.count - 1].rssiMax = max(last.rssiMax ?? rssi, rssi)
            }
            return
        }
        if let last = bursts.last { gaps.append(gap(last.endUs, timeUs)) }
        bursts.append(AdvertisingBurst(startUs: timeUs, endUs: timeUs, count: 1, rssiMin: rssi, rssiMax: rssi))
        guard bursts.count > AdvertisingBursts.cap else { return }
        let best = gaps.indices.min { gaps[$0] < gaps[$1] }!
        let next = bursts.remove(at: best + 1)
        gaps.remove(at: best)
        bursts[best].endUs = max(bursts[best].endUs, next.endUs)
        bursts[best].count += next.count
        bursts[best].rssiMin = [bursts[best].rssiMin, next.rssiMin].compactMap { $0 }.min()
        bursts[best].rssiMax = [bursts[best].rssiMax, next.rssiMax].compactMap { $0 }.max()
        if best < gaps.count { gaps[best] = gap(bursts[best].endUs, bursts[best + 1].startUs) }
    }

    func gap(_ from: Int64, _ to: Int64) -> Int64 {
        let (difference, overflow) = to.subtractingReportingOverflow(from)
        return overflow ? (to > from ? .max : .min) : difference
    }

    /// Handles below 256 are looked up by index, the others searched: both find what discovery
    /// declared, and neither finds a handle it did not.
    @Test func characteristicUUIDsResolveOnBothSidesOfTheDirectTable() throws {
        // Read By Type (characteristic declarations) and its response: declaration handle,
        // properties, value handle, 16-bit UUID per entry (Core v5.4 Vol 3 Part G §4.6.1).
        var request = ByteReader([0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28])
        var response = ByteReader([0x09, 7,
                                   0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A,     // 0x0003: 2A00
                                   0xFE, 0x00, 0x10, 0xFF, 0x00, 0xE1, 0xFF,     // 0x00FF: FFE1
                                   0xFF, 0x00, 0x10, 0x00, 0x01, 0xE2, 0xFF,     // 0x0100: FFE2
                                   0x00, 0x12, 0x10, 0x01, 0x12, 0xE3, 0xFF])    // 0x1201: FFE3
        var database = GATTDatabase()
        database.learn(request: try ATTPDU(parsing: &request), response: try ATTPDU(parsing: &response))
        let found: [UInt16: UInt16] = [0x0003: 0x2A00, 0x00FF: 0xFFE1, 0x0100: 0xFFE2, 0x1201: 0xFFE3]
        for handle: UInt16 in [0x0001, 0x0002, 0x0003, 0x0004, 0x00FE, 0x00FF, 0x0100, 0x0101, 0x1200, 0x1201, 0xFFFF] {
            #expect(database.uuid(of: handle) == found[handle].map(BluetoothUUID.init(uint16:)), "handle \(handle)")
        }
    }
}

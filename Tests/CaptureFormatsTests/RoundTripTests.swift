import AnalyzerTestSupport
import BLECaptureFormats
import Testing

/// Records → writer → reader → the same records, for every container and kind, plain and gzip.
@Suite struct RoundTripTests {
    static let cutWarning = "1 record(s) were cut by the capturing tool (included length < original length)"

    func expectRoundTrip(_ bytes: [UInt8], _ records: [CaptureRecord], cut: Bool,
                         container: ContainerFormat, linkType: UInt32?, otherMessages: [String] = []) throws {
        for compressed in [false, true] {
            let result = try Fixtures.read(compressed ? CaptureWriter.gzip(bytes) : bytes)
            #expect(Fixtures.withoutOffsets(result.records) == records)
            #expect(result.info.container == container)
            #expect(result.info.linkType == linkType)
            #expect(result.info.compressed == compressed)
            #expect(result.diagnostics.map(\.message) == otherMessages + (cut ? [Self.cutWarning] : []))
        }
    }

    @Test func btsnoopH4() throws {
        let records = Fixtures.hciRecords
        try expectRoundTrip(CaptureWriter.btsnoop(records), records, cut: true, container: .btsnoop, linkType: 1002)
    }

    @Test func btsnoopH1() throws {
        let records = Array(Fixtures.hciRecords.prefix(4))
        try expectRoundTrip(CaptureWriter.btsnoop(records, datalink: 1001), records, cut: true,
                            container: .btsnoop, linkType: 1001)
    }

    @Test func btsnoopLinuxMonitor() throws {
        let records = Fixtures.monitorRecords
        try expectRoundTrip(CaptureWriter.btsnoop(records, datalink: 2001), records, cut: true,
                            container: .btsnoop, linkType: 2001)
    }

    @Test func btsnoopFileOffsets() throws {
        let result = try Fixtures.read(CaptureWriter.btsnoop(Fixtures.hciRecords))
        // 16-byte file header, then per record a 24-byte header, the H4 byte and the payload.
        var offset = 16
        var expected: [Int] = []
        for record in Fixtures.hciRecords {
            expected.append(offset)
            offset += 24 + 1 + record.payload.count
        }
        #expect(result.records.map(\.fileOffset) == expected)
    }

    /// Records libpcap keeps whole are placed from their lengths, records it cuts to the file's
    /// snapshot length from the file: the offsets are the file's either way.
    @Test(arguments: [262_144, 12, 8])
    func pcapFileOffsets(snapshotLength: Int) throws {
        var bytes = CaptureWriter.pcap(Fixtures.hciRecords)
        bytes.replaceSubrange(16..<20, with: withUnsafeBytes(of: UInt32(snapshotLength).littleEndian, Array.init))
        let result = try Fixtures.read(bytes)
        // 24-byte file header, then per record a 16-byte header, the 4-byte direction and the payload.
        var offset = 24
        var expected: [Int] = []
        for record in Fixtures.hciRecords {
            expected.append(offset)
            offset += 16 + 4 + 1 + record.payload.count
        }
        #expect(result.records.map(\.fileOffset) == expected)
        let cutByLibpcap = Fixtures.hciRecords.filter { 4 + 1 + $0.payload.count > snapshotLength }
        #expect(!cutByLibpcap.isEmpty == (snapshotLength < 262_144))
        // libpcap cuts those to the snapshot length, but the file holds them whole: they are.
        #expect(result.records.map(\.payload) == Fixtures.hciRecords.map(\.payload))
        #expect(result.records.filter(\.isTruncated).count == Fixtures.hciRecords.filter(\.isTruncated).count)
        #expect(result.diagnostics.filter { $0.kind == .truncatedRecords }.map(\.message)
                == ["\(Fixtures.hciRecords.filter(\.isTruncated).count) record(s) were cut by the capturing tool "
                    + "(included length < original length)"])
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty)
    }

    @Test(arguments: [UInt32(201), 187])
    func pcapH4(linkType: UInt32) throws {
        // 187 carries no direction in classic pcap.
        let records = Fixtures.hciRecords.map { r in
            var r = r
            if linkType == 187 { r.direction = .unknown }
            return r
        }
        try expectRoundTrip(CaptureWriter.pcap(records, linkType: linkType), records, cut: true,
                            container: .pcap, linkType: linkType)
    }

    @Test(arguments: [UInt32(201), 187])
    func pcapngH4(linkType: UInt32) throws {
        // pcapng epb_flags give 187 its direction.
        let records = Fixtures.hciRecords
        try expectRoundTrip(CaptureWriter.pcapng(records, linkType: linkType), records, cut: true,
                            container: .pcapng, linkType: linkType)
    }

    @Test func pcapLinuxMonitor() throws {
        let records = Fixtures.monitorRecords
        try expectRoundTrip(CaptureWriter.pcap(records, linkType: 254), records, cut: true,
                            container: .pcap, linkType: 254)
        try expectRoundTrip(CaptureWriter.pcapng(records, linkType: 254), records, cut: true,
                            container: .pcapng, linkType: 254)
    }

    @Test(arguments: [UInt32(251), 256, 272, 157, 192])
    func airLinkTypes(linkType: UInt32) throws {
        let records = Fixtures.linkLayerRecords(linkType)
        try expectRoundTrip(CaptureWriter.pcap(records, linkType: linkType), records, cut: true,
                            container: .pcap, linkType: linkType)
        try expectRoundTrip(CaptureWriter.pcapng(records, linkType: linkType), records, cut: true,
                            container: .pcapng, linkType: linkType)
    }

    @Test(arguments: [true, false])
    func packetLogger(bigEndian: Bool) throws {
        let records = Fixtures.packetLoggerRecords
        try expectRoundTrip(CaptureWriter.packetLogger(records, bigEndian: bigEndian), records, cut: false,
                            container: .packetLogger, linkType: nil,
                            otherMessages: ["unknown PacketLogger record type 0x42; kept raw"])
        let result = try Fixtures.read(CaptureWriter.packetLogger(records, bigEndian: bigEndian))
        #expect(result.info.linkTypeDescription == (bigEndian ? "PacketLogger big-endian (v1)" : "PacketLogger little-endian (v2)"))
    }

    @Test func gzipOfSeveralMembers() throws {
        let records = Fixtures.hciRecords
        let bytes = CaptureWriter.btsnoop(records)
        let split = 100
        let twoMembers = CaptureWriter.gzip(Array(bytes.prefix(split))) + CaptureWriter.gzip(Array(bytes.dropFirst(split)))
        let result = try Fixtures.read(twoMembers)
        #expect(Fixtures.withoutOffsets(result.records) == records)
        #expect(result.info.compressed)
    }

    @Test func largeCaptureStreamsAcrossBufferRefills() throws {
        // 3 MiB of records: several 1 MiB refills, records straddling buffer boundaries.
        let payload = [UInt8](repeating: 0x5A, count: 1021)
        let records = (1...3000).map { i in
            CaptureRecord(index: i, timestampUs: Fixtures.t0 + Int64(i), direction: i % 2 == 0 ? .received : .sent,
                          kind: .aclData, payload: payload)
        }
        // pcap and pcapng: libpcap's records copied a 256 KiB chunk at a time.
        for bytes in [CaptureWriter.btsnoop(records), CaptureWriter.gzip(CaptureWriter.btsnoop(records)),
                      CaptureWriter.packetLogger(records, bigEndian: true), CaptureWriter.pcap(records),
                      CaptureWriter.pcapng(records)] {
            let result = try Fixtures.read(bytes)
            #expect(result.records.count == 3000)
            #expect(Fixtures.withoutOffsets(result.records) == records)
            #expect(result.diagnostics.isEmpty)
        }
    }
}

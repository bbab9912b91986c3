import AnalyzerTestSupport
import BLEBase
import BLECaptureFormats
import Testing

@Suite struct PcapTests {
    static let records = Array(Fixtures.hciRecords.prefix(3))

    @Test func unsupportedLinkType() {
        let bytes = CaptureWriter.pcap([], linkType: 1)
        #expect(Fixtures.openError(bytes)?.message == "unsupported pcap link type 1 (EN10MB)")
        #expect(Fixtures.openError(CaptureWriter.pcapng([], linkType: 1))?.message == "unsupported pcap link type 1 (EN10MB)")
    }

    @Test func everyTruncatedFileHeader() {
        let pcap = CaptureWriter.pcap([])
        for length in 1..<24 {
            #expect(Fixtures.openError(Array(pcap.prefix(length)))?.message
                    == "file ends inside the pcap file header: \(length) of 24 bytes", "length \(length)")
        }
        let pcapng = CaptureWriter.pcapng([])
        for length in 1..<28 {
            #expect(Fixtures.openError(Array(pcapng.prefix(length)))?.message
                    == "file ends inside the pcapng section header block: \(length) of 28 bytes", "length \(length)")
        }
    }

    @Test func everyTruncatedPcapRecord() throws {
        let whole = CaptureWriter.pcap(Self.records)
        let last = 16 + 5 + Self.records[2].payload.count     // record header, 201 header + H4 byte, payload
        let lastOffset = whole.count - last
        for length in 0..<last {
            let result = try Fixtures.read(Array(whole.prefix(lastOffset + length)))
            #expect(Fixtures.withoutOffsets(result.records) == Array(Self.records.prefix(2)))
            let expected = length == 0 ? []
                : [length < 16 ? "file ends inside the record header: \(length) of 16 bytes"
                               : "file ends inside the record: \(length) of \(last) bytes"]
            #expect(result.diagnostics.map(\.message) == expected, "length \(length)")
            #expect(result.diagnostics.allSatisfy { $0.recordNumber == 3 && $0.byteOffset == lastOffset && $0.kind == .truncatedFinalRecord })
        }
    }

    @Test func everyTruncatedPcapngBlock() throws {
        let whole = CaptureWriter.pcapng(Self.records)
        // EPB: 28-byte header, 201 header + H4 + 11 payload bytes padded to 16, flags option 12, trailer 4.
        let last = 28 + 16 + 12 + 4
        let lastOffset = whole.count - last
        for length in 0..<last {
            let result = try Fixtures.read(Array(whole.prefix(lastOffset + length)))
            #expect(Fixtures.withoutOffsets(result.records) == Array(Self.records.prefix(2)))
            let expected = length == 0 ? []
                : [length < 8 ? "file ends inside the record header: \(length) of 8 bytes"
                              : "file ends inside the record: \(length) of \(last) bytes"]
            #expect(result.diagnostics.map(\.message) == expected, "length \(length)")
            #expect(result.diagnostics.allSatisfy { $0.recordNumber == 3 && $0.byteOffset == lastOffset })
        }
    }

    @Test func pcapngFlagsGiveH4ItsDirection() throws {
        let result = try Fixtures.read(CaptureWriter.pcapng(Self.records, linkType: 187))
        #expect(result.records.map(\.direction) == [.sent, .received, .sent])
        let plain = try Fixtures.read(CaptureWriter.pcap(Self.records, linkType: 187))
        #expect(plain.records.map(\.direction) == [.unknown, .unknown, .unknown])
    }

    @Test func pcapngFlagsContradictingThe201HeaderAreReportedOnce() throws {
        // Flip every epb_flags option (code 2, length 4, little-endian: 02 00 04 00) from
        // inbound to outbound and back; the 201 direction headers stay as written.
        var bytes = CaptureWriter.pcapng(Self.records, linkType: 201)
        var flipped = 0
        var i = 0
        while i + 8 <= bytes.count {
            if Array(bytes[i..<i + 4]) == [0x02, 0x00, 0x04, 0x00] {
                bytes[i + 4] = bytes[i + 4] == 1 ? 2 : 1
                flipped += 1
                i += 8
            } else {
                i += 4
            }
        }
        #expect(flipped == 3)
        let result = try Fixtures.read(bytes)
        #expect(result.records.map(\.direction) == Self.records.map(\.direction))
        #expect(result.diagnostics.map(\.message) == [
            "epb_flags direction contradicts the link-type 201 direction header; using the header",
        ])
    }

    @Test func gzipPcapngGoesThroughATemporaryFile() throws {
        // libpcap reads gzip input from a spooled temporary file; the records are the same.
        let bytes = CaptureWriter.pcapng(Self.records)
        let plain = try Fixtures.read(bytes)
        let compressed = try Fixtures.read(CaptureWriter.gzip(bytes))
        #expect(plain.records == compressed.records)
    }

    /// libpcap's records are read a chunk at a time (512 records): records too short for their
    /// link-type header, anywhere in a chunk, are skipped with their record number and offset,
    /// and the others keep their numbers, offsets, bytes and order across chunk boundaries.
    @Test func undecodableRecordsAcrossChunks() throws {
        var out = ByteWriter(capacity: 50_000)
        for field: UInt32 in [0xA1B2_C3D4, 0x0004_0002, 0, 0, 262_144, 201] { out.writeUInt32LE(field) }
        var expected: [CaptureRecord] = []
        var skipped: [(record: Int, offset: Int)] = []
        for i in 1...1300 {
            let offset = out.bytes.count
            // Two bytes cannot hold the 4-byte direction of link type 201 (ble-facts §4).
            let undecodable = [1, 511, 512, 513, 1024, 1300].contains(i)
            let acl: [UInt8] = [0x40, 0x20, 0x02, 0x00, UInt8(i & 0xFF), UInt8(i >> 8)]
            let body: [UInt8] = undecodable ? [0x00, 0x00] : [0, 0, 0, 1, 0x02] + acl
            for field in [UInt32(1_714_011_124), UInt32(i), UInt32(body.count), UInt32(body.count)] {
                out.writeUInt32LE(field)
            }
            out.writeBytes(body)
            if undecodable {
                skipped.append((i, offset))
            } else {
                expected.append(CaptureRecord(index: i, timestampUs: 1_714_011_124_000_000 + Int64(i), direction: .received,
                                              kind: .aclData, payload: acl, fileOffset: offset))
            }
        }
        let result = try Fixtures.read(out.bytes)
        #expect(result.records == expected)
        #expect(result.diagnostics.map(\.recordNumber) == skipped.map(\.record))
        #expect(result.diagnostics.map(\.byteOffset) == skipped.map(\.offset))
        #expect(result.diagnostics.allSatisfy { $0.severity == .error && $0.message.hasPrefix("undecodable record: ") })
    }

    /// A record libpcap cut so short that its link-type header is not whole is reported twice:
    /// undecodable, and among the records the capturing tool cut (included < original length).
    @Test func anUndecodableCutRecordCountsAsCut() throws {
        var out = ByteWriter(capacity: 100)
        for field: UInt32 in [0xA1B2_C3D4, 0x0004_0002, 0, 0, 2, 201] { out.writeUInt32LE(field) }
        // Two of eleven bytes: the snapshot length (2) cut the 4-byte direction (ble-facts §4).
        for field: UInt32 in [1_714_011_124, 0, 2, 11] { out.writeUInt32LE(field) }
        out.writeBytes([0x00, 0x00])
        let result = try Fixtures.read(out.bytes)
        #expect(result.records.isEmpty)
        #expect(result.diagnostics.map(\.recordNumber) == [1, nil])
        #expect(result.diagnostics.map(\.byteOffset) == [24, nil])
        #expect(result.diagnostics.map(\.message) == [
            "undecodable record: capture: direction truncated at byte 40: needs 4, 2 left",
            "1 record(s) were cut by the capturing tool (included length < original length)",
        ])
    }

    /// A whole chunk of undecodable records (more than 512 in a row) does not end the capture:
    /// the records after it are read.
    @Test func aWholeChunkOfUndecodableRecordsDoesNotEndTheCapture() throws {
        var out = ByteWriter(capacity: 20_000)
        for field: UInt32 in [0xA1B2_C3D4, 0x0004_0002, 0, 0, 262_144, 201] { out.writeUInt32LE(field) }
        var expected: [CaptureRecord] = []
        for i in 1...1100 {
            let offset = out.bytes.count
            let acl: [UInt8] = [0x40, 0x20, 0x02, 0x00, UInt8(i & 0xFF), UInt8(i >> 8)]
            // Records 1–1090: two bytes, too short for link type 201's direction (ble-facts §4).
            let body: [UInt8] = i <= 1090 ? [0x00, 0x00] : [0, 0, 0, 1, 0x02] + acl
            for field in [UInt32(1_714_011_124), UInt32(i), UInt32(body.count), UInt32(body.count)] {
                out.writeUInt32LE(field)
            }
            out.writeBytes(body)
            if i > 1090 {
                expected.append(CaptureRecord(index: i, timestampUs: 1_714_011_124_000_000 + Int64(i), direction: .received,
                                              kind: .aclData, payload: acl, fileOffset: offset))
            }
        }
        let result = try Fixtures.read(out.bytes)
        #expect(result.records == expected)
        // The first 100 are listed, the rest summed up (DiagnosticLog.limitPerKind).
        #expect(result.diagnostics.map(\.recordNumber) == Array(1...100) + [nil])
        #expect(result.diagnostics.last?.message == "990 more other diagnostic(s) not listed")
    }

    /// Direction flags in a big-endian section, found after other options, ignored when their
    /// option has another length, absent, or cut by the block's end (pcapng §4.3 and §3.5).
    @Test func pcapngFlagsInABigEndianSection() throws {
        func block(_ out: inout ByteWriter, _ type: UInt32, _ body: [UInt8]) {
            out.writeUInt32BE(type)
            out.writeUInt32BE(UInt32(12 + body.count))
            out.writeBytes(body)
            out.writeUInt32BE(UInt32(12 + body.count))
        }
        func option(_ code: UInt16, _ value: [UInt8]) -> [UInt8] {
            var out = ByteWriter(capacity: 16)
            out.writeUInt16BE(code)
            out.writeUInt16BE(UInt16(value.count))
            out.writeBytes(value + [UInt8](repeating: 0, count: (4 - value.count % 4) % 4))
            return out.bytes
        }
        let packet: [UInt8] = [0x04, 0x0E, 0x01, 0x01]
        let inbound = option(2, [0, 0, 0, 1]), outbound = option(2, [0, 0, 0, 2])
        let optionLists: [[UInt8]] = [
            option(1, Array("note".utf8) + [0x21]) + inbound + option(0, []),
            outbound,
            [],
            option(2, [0, 1]) + option(0, []),
            // The flags' value runs into the trailing length: not read.
            Array(outbound.prefix(4)),
        ]
        var out = ByteWriter(capacity: 512)
        block(&out, 0x0A0D_0D0A, [0x1A, 0x2B, 0x3C, 0x4D, 0, 1, 0, 0] + [UInt8](repeating: 0xFF, count: 8))
        block(&out, 1, [0, 187, 0, 0, 0, 4, 0, 0])
        for options in optionLists {
            var body = ByteWriter(capacity: 64)
            for field: UInt32 in [0, 0x0006_1BD6, 0x2A5F_5D64, 4, 4] { body.writeUInt32BE(field) }
            body.writeBytes(packet)
            body.writeBytes(options)
            block(&out, 6, body.bytes)
        }
        let result = try Fixtures.read(out.bytes)
        #expect(result.records.map(\.direction) == [.received, .sent, .unknown, .unknown, .unknown])
        #expect(result.records.map(\.payload) == Array(repeating: [0x0E, 0x01, 0x01], count: 5))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func linkTypeNames() {
        #expect(LinkType(rawValue: 201).name == "Bluetooth HCI H4 with direction pseudo-header")
        #expect(LinkType(rawValue: 999).name == "Unknown (999)")
    }
}

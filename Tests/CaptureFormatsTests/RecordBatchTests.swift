import AnalyzerTestSupport
import BLEBase
import BLECaptureFormats
import Foundation
import Testing

/// `nextBatch` of every file reader but the bugreport's: the records and diagnostics of `next()`,
/// a batch at a time, whatever the file's sizes, damage and text records, with payloads in an
/// array of the batch's own.
@Suite struct RecordBatchTests {
    /// `count` records of every HCI kind, both directions, sizes from 1 to `maxSize` bytes,
    /// every seventh cut by the capturing tool.
    static func records(_ count: Int, h4: Bool = true, maxSize: Int = 300) -> [CaptureRecord] {
        let kinds: [RecordKind] = h4 ? [.hciCommand, .hciEvent, .aclData, .scoData, .isoData, .unknown(code: 0x09)]
                                     : [.hciCommand, .hciEvent, .aclData]
        return records(count, kinds: kinds, maxSize: maxSize, cutEvery: 7)
    }

    /// `count` records cycling through `kinds`, sizes from 1 to `maxSize` bytes, both directions,
    /// every `cutEvery`th one cut by the capturing tool; text records (notes) hold letters.
    static func records(_ count: Int, kinds: [RecordKind], maxSize: Int = 300, cutEvery: Int? = nil,
                        adapters: [UInt16?] = [nil]) -> [CaptureRecord] {
        (0..<count).map { i in
            let size = 1 + (i * 37) % maxSize
            let kind = kinds[i % kinds.count]
            let isText = if case .note = kind { true } else { false }
            return CaptureRecord(index: i + 1, timestampUs: Fixtures.t0 + Int64(i) * 1250,
                                 direction: i % 3 == 0 ? .received : .sent, kind: kind,
                                 payload: (0..<size).map { isText ? 0x61 + UInt8($0 % 26) : UInt8(truncatingIfNeeded: $0 &+ i) },
                                 originalLength: cutEvery.map { i % $0 == 0 } == true ? size + 5 : size,
                                 adapter: adapters[i % adapters.count])
        }
    }

    /// What a reader gave back, read with `next()` alone or with `nextBatch(upTo:)`.
    struct Reading: Equatable {
        var records: [CaptureRecord]
        var diagnostics: [String]
        var batchSizes: [Int] = []
    }

    static func read(_ bytes: [UInt8], batchesOf count: Int?) throws -> Reading {
        let path = Fixtures.temporaryFile(bytes, name: "batch.btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try CaptureFile.open(path)
        var reading = Reading(records: [], diagnostics: [])
        if let count {
            let batches = try #require(reader as? any RecordBatchReader)
            while case let batch = batches.nextBatch(upTo: count), !batch.isEmpty {
                reading.records += batch.reversed()
                reading.batchSizes.append(batch.count)
            }
        } else {
            while let record = reader.next() { reading.records.append(record) }
        }
        // Without the file's name (each reading has a temporary file of its own).
        reading.diagnostics = reader.diagnostics.map {
            "\($0.severity.rawValue) record \($0.recordNumber.map(String.init) ?? "-") at \($0.byteOffset.map(String.init) ?? "-"): \($0.message)"
        }
        return reading
    }

    /// Both ways of reading `bytes` give the same records (payloads, numbers, offsets, lengths)
    /// and diagnostics; returns the batch sizes.
    @discardableResult
    static func expectSameReading(_ bytes: [UInt8], batchesOf count: Int = 1024,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws -> [Int] {
        let single = try read(bytes, batchesOf: nil)
        var batched = try read(bytes, batchesOf: count)
        let sizes = batched.batchSizes
        batched.batchSizes = []
        #expect(batched == single, sourceLocation: sourceLocation)
        return sizes
    }

    @Test(arguments: [1002, 1001] as [UInt32])
    func manyRecordsComeInFullBatches(datalink: UInt32) throws {
        let bytes = CaptureWriter.btsnoop(Self.records(3000, h4: datalink == 1002, maxSize: 60), datalink: datalink)
        let sizes = try Self.expectSameReading(bytes)
        #expect(sizes == [1024, 1024, 952])
        let reading = try Self.read(bytes, batchesOf: 1024)
        #expect(reading.records.map(\.index) == Array(1...3000))
        #expect(reading.diagnostics == ["warning record - at -: 429 record(s) were cut by the capturing tool (included length < original length)"])
    }

    /// A batch holds the records lying wholly in the next 128 KiB: fewer when they are large.
    @Test func largeRecordsMakeSmallerBatches() throws {
        let records = Self.records(3000)
        let sizes = try Self.expectSameReading(CaptureWriter.btsnoop(records))
        #expect(sizes.reduce(0, +) == 3000 && sizes.count == 5)
        var first = 0
        for size in sizes.dropLast() {
            let bytes = records[first..<first + size + 1].map { 25 + $0.payloadCount }
            #expect(bytes.dropLast().reduce(0, +) <= 128 << 10 && bytes.reduce(0, +) > 128 << 10)
            first += size
        }
    }

    /// An H1 record may be empty (only H4 needs a type byte): it comes in its batch like any other.
    @Test func emptyH1RecordsComeInBatches() throws {
        var records = Self.records(10, h4: false)
        records[4] = CaptureRecord(index: 5, timestampUs: Fixtures.t0, direction: .sent, kind: .aclData, payload: [])
        let sizes = try Self.expectSameReading(CaptureWriter.btsnoop(records, datalink: 1001), batchesOf: 16)
        #expect(sizes == [10])
        #expect(try Self.read(CaptureWriter.btsnoop(records, datalink: 1001), batchesOf: 16).records[4].payloadCount == 0)
    }

    /// A record larger than the bytes a batch looks at goes alone, through `next()`.
    @Test func recordsLargerThanTheWindowGoAlone() throws {
        var records = Self.records(40)
        records[20] = CaptureRecord(index: 21, timestampUs: Fixtures.t0, direction: .received, kind: .aclData,
                                    payload: [UInt8](repeating: 0xA5, count: 200_000))
        let sizes = try Self.expectSameReading(CaptureWriter.btsnoop(records), batchesOf: 16)
        #expect(sizes == [16, 4, 1, 16, 3])
    }

    /// Cut anywhere, the file reads the same both ways, its last record reported alike.
    @Test func everyTruncationReadsAlike() throws {
        let bytes = CaptureWriter.btsnoop(Self.records(6))
        for length in 16..<bytes.count {
            try Self.expectSameReading(Array(bytes[..<length]), batchesOf: 4)
        }
    }

    /// Damage in the middle (an impossible included length) ends the capture alike.
    @Test func damageEndsTheCaptureAlike() throws {
        var bytes = CaptureWriter.btsnoop(Self.records(50))
        let recordAt = 16 + (0..<25).reduce(0) { $0 + 24 + 1 + Self.records(50)[$1].payloadCount }
        bytes.replaceSubrange(recordAt + 4..<recordAt + 8, with: [0x7F, 0xFF, 0xFF, 0xFF])   // incl_len
        let sizes = try Self.expectSameReading(bytes, batchesOf: 10)
        #expect(sizes == [10, 10, 5])
        let reading = try Self.read(bytes, batchesOf: 10)
        #expect(reading.diagnostics.count == 2 && reading.diagnostics[0].contains("impossible included length 2147483647"))
    }

    /// A batch's records share one copy of the batch's bytes, not the reader's input buffer: the
    /// first copy is the whole window, the next a quarter more than the records before took.
    @Test func aBatchSharesOneCopyOfItsBytes() throws {
        let records = Self.records(10)
        let path = Fixtures.temporaryFile(CaptureWriter.btsnoop(records), name: "own.btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try #require(try CaptureFile.open(path) as? any RecordBatchReader)
        let batch = reader.nextBatch(upTo: 4)
        #expect(batch.map(\.index) == [4, 3, 2, 1])
        #expect(Set(batch.map { $0.storage.withUnsafeBufferPointer { $0.baseAddress } }).count == 1)
        #expect(batch.reversed().map(\.payload) == records[0..<4].map(\.payload))
        // The window held the whole file but its 16-byte header.
        let fileRecordBytes = records.reduce(0) { $0 + 24 + 1 + $1.payloadCount }
        #expect(batch[0].storage.count == fileRecordBytes)
        // `next()` goes on where the batch ended.
        #expect(reader.next()?.index == 5)
        #expect(reader.nextBatch(upTo: 100).map(\.index) == Array((6...10).reversed()))
        #expect(reader.nextBatch(upTo: 100).isEmpty)

        // 3,000 records of up to 2,000 bytes (3 MB): refills of the input after the first batch.
        let large = Self.records(3_000, kinds: [.aclData], maxSize: 2_000)
        let largePath = Fixtures.temporaryFile(CaptureWriter.btsnoop(large), name: "refills.btsnoop")
        defer { try? FileManager.default.removeItem(atPath: largePath) }
        let largeReader = try #require(try CaptureFile.open(largePath) as? any RecordBatchReader)
        let first = largeReader.nextBatch(upTo: 100)
        let second = largeReader.nextBatch(upTo: 100)
        var rest: [CaptureRecord] = []
        while case let next = largeReader.nextBatch(upTo: 100), !next.isEmpty { rest += next.reversed() }
        #expect(first.count == 100 && second.count == 100 && rest.count == 2_800)
        #expect(first.reversed().map(\.payload) == large[0..<100].map(\.payload))
        #expect(second.reversed().map(\.payload) == large[100..<200].map(\.payload))
        #expect(rest.map(\.payload) == large[200...].map(\.payload))
        #expect(first[0].storage.count == 128 << 10)
        let perRecord = large[0..<100].reduce(0) { $0 + 24 + 1 + $1.payloadCount } / 100
        #expect(second[0].storage.count == 100 * (perRecord + perRecord / 4))
    }

    /// Linux monitor records come in batches, each with its adapter; a note or a logging record
    /// (text rebuilt from the record) goes alone, through `next()`.
    @Test func monitorNotesGoAlone() throws {
        let kinds: [RecordKind] = [.hciCommand, .hciEvent, .aclData, .aclData, .isoData, MonitorOpcode.newIndex.record.kind,
                                   .hciEvent, .note(.systemNote), .scoData, .hciEvent, .note(.userLogging), .unknown(code: 0x40)]
        let records = Self.records(60, kinds: kinds, maxSize: 80, cutEvery: 5, adapters: [0, 1, nil, 0x1234])
        let bytes = CaptureWriter.btsnoop(records, datalink: 2001)
        let sizes = try Self.expectSameReading(bytes, batchesOf: 512)
        #expect(sizes == [7] + Array(repeating: [1, 2, 1, 8], count: 4).joined() + [1, 2, 1, 1])
        let reading = try Self.read(bytes, batchesOf: 512)
        #expect(reading.records.map(\.adapter) == records.map { $0.adapter ?? 0 })
        #expect(reading.records.map(\.kind) == records.map(\.kind))
        for length in 16..<CaptureWriter.btsnoop(Array(records.prefix(12)), datalink: 2001).count {
            try Self.expectSameReading(Array(bytes[..<length]), batchesOf: 3)
        }
    }

    static let packetLoggerKinds: [RecordKind] = [
        .hciCommand, .hciEvent, .aclData, .aclData, .note(.syslog), .scoData, .isoData, .note(.kernel),
        PacketLoggerType.lmpSent.kind, .hciEvent, .unknown(code: 0x33), .note(.power),
    ]

    /// PacketLogger records come in batches in both byte orders; a syslog record (text rebuilt)
    /// or one of an unknown type (reported) goes alone, through `next()`.
    @Test(arguments: [true, false])
    func packetLoggerRecordsComeInBatches(bigEndian: Bool) throws {
        let records = Self.records(600, kinds: Self.packetLoggerKinds, maxSize: 90)
        let bytes = CaptureWriter.packetLogger(records, bigEndian: bigEndian)
        let sizes = try Self.expectSameReading(bytes, batchesOf: 64)
        #expect(sizes.prefix(6) == [4, 1, 5, 1, 5, 1] && sizes.reduce(0, +) == 600)
        let reading = try Self.read(bytes, batchesOf: 64)
        #expect(reading.records.map(\.kind) == records.map(\.kind))
        #expect(reading.diagnostics.count == 50
                && reading.diagnostics[0] == "warning record 11 at \(records.prefix(10).reduce(0) { $0 + 13 + $1.payloadCount + ($1.kind == .note(.syslog) ? 10 : 0) }): unknown PacketLogger record type 0x33; kept raw")
        let plain = Self.records(3000, kinds: [.hciCommand, .hciEvent, .aclData], maxSize: 60)
        #expect(try Self.expectSameReading(CaptureWriter.packetLogger(plain, bigEndian: bigEndian)) == [1024, 1024, 952])
    }

    /// Cut anywhere after its first record header (which tells a PacketLogger file), a file
    /// reads the same both ways.
    @Test func everyPacketLoggerTruncationReadsAlike() throws {
        let bytes = CaptureWriter.packetLogger(Self.records(12, kinds: Self.packetLoggerKinds, maxSize: 20), bigEndian: false)
        for length in 13..<bytes.count {
            try Self.expectSameReading(Array(bytes[..<length]), batchesOf: 4)
        }
    }

    /// An impossible length in the middle of a PacketLogger file: the batch ends before it, and
    /// `next()` reports it and finds the next plausible header; batches go on after it.
    @Test func packetLoggerResynchronisesAlike() throws {
        let records = Self.records(40, kinds: [.hciCommand, .hciEvent, .aclData], maxSize: 30)
        var bytes = CaptureWriter.packetLogger(records, bigEndian: true)
        let recordAt = records.prefix(20).reduce(0) { $0 + 13 + $1.payloadCount }
        bytes.replaceSubrange(recordAt..<recordAt + 4, with: [0, 0, 0, 3])   // length 3 < 9
        let sizes = try Self.expectSameReading(bytes, batchesOf: 16)
        #expect(sizes == [16, 4, 1, 16, 2])
        let reading = try Self.read(bytes, batchesOf: 16)
        #expect(reading.records.map(\.index) == Array(1...20) + Array(22...40))
        #expect(reading.diagnostics.count == 2 && reading.diagnostics[0].contains("impossible record length 3"))
    }

    /// pcap and pcapng records come in the chunks the reader reads from libpcap (1024 records),
    /// split when a batch asks for fewer.
    @Test(arguments: [false, true])
    func pcapChunksComeAsBatches(pcapng: Bool) throws {
        let write = { pcapng ? CaptureWriter.pcapng($0) : CaptureWriter.pcap($0) }
        let records = Self.records(1500, maxSize: 60)
        let bytes = write(records)
        #expect(try Self.expectSameReading(bytes) == [1024, 476])
        #expect(try Self.expectSameReading(bytes, batchesOf: 200) == [200, 200, 200, 200, 200, 24, 200, 200, 76])
        // Cut anywhere after the file's header blocks (without them libpcap opens nothing).
        let small = write(Array(records.prefix(6)))
        for length in write([]).count..<small.count {
            try Self.expectSameReading(Array(small[..<length]), batchesOf: 4)
        }
    }

    /// Records of 200,000 bytes (libpcap keeps up to 262,144): a chunk ends at the record that
    /// takes it past 256 KiB, and the second record outgrows the reader's copy space, which
    /// keeps the first one's bytes as it grows.
    @Test(arguments: [false, true])
    func pcapLargeRecordsKeepTheirBytes(pcapng: Bool) throws {
        let records = (0..<5).map { i in
            CaptureRecord(index: i + 1, timestampUs: Fixtures.t0 + Int64(i) * 1250, direction: .sent, kind: .aclData,
                          payload: (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ i) })
        }
        let bytes = pcapng ? CaptureWriter.pcapng(records) : CaptureWriter.pcap(records)
        #expect(try Self.expectSameReading(bytes) == [2, 2, 1])
        let reading = try Self.read(bytes, batchesOf: 1024)
        #expect(reading.records.map(\.payload) == records.map(\.payload))
        #expect(reading.diagnostics.isEmpty)
    }
}

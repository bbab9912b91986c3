import AnalyzerTestSupport
import BLEBase
import CaptureFormats
import Foundation
import Testing

/// `nextBatch` of the btsnoop reader: the records and diagnostics of `next()`, a batch at a
/// time, whatever the file's sizes and damage, with payloads in an array of the batch's own.
@Suite struct BtsnoopBatchTests {
    /// `count` records of every HCI kind, both directions, sizes from 1 to `maxSize` bytes,
    /// every seventh cut by the capturing tool.
    static func records(_ count: Int, h4: Bool = true, maxSize: Int = 300) -> [CaptureRecord] {
        let kinds: [RecordKind] = h4 ? [.hciCommand, .hciEvent, .aclData, .scoData, .isoData, .unknown(code: 0x09)]
                                     : [.hciCommand, .hciEvent, .aclData]
        return (0..<count).map { i in
            let size = 1 + (i * 37) % maxSize
            return CaptureRecord(index: i + 1, timestampUs: Fixtures.t0 + Int64(i) * 1250,
                                 direction: i % 3 == 0 ? .received : .sent, kind: kinds[i % kinds.count],
                                 payload: (0..<size).map { UInt8(truncatingIfNeeded: $0 &+ i) },
                                 originalLength: i % 7 == 0 ? size + 5 : size)
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
    static func expectSameReading(_ bytes: [UInt8], batchesOf count: Int = 512,
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
        #expect(sizes == [512, 512, 512, 512, 512, 440])
        let reading = try Self.read(bytes, batchesOf: 512)
        #expect(reading.records.map(\.index) == Array(1...3000))
        #expect(reading.diagnostics == ["warning record - at -: 429 record(s) were cut by the capturing tool (included length < original length)"])
    }

    /// A batch holds the records lying wholly in the next 64 KiB: fewer when they are large.
    @Test func largeRecordsMakeSmallerBatches() throws {
        let records = Self.records(3000)
        let sizes = try Self.expectSameReading(CaptureWriter.btsnoop(records))
        #expect(sizes.reduce(0, +) == 3000 && sizes.count == 9)
        var first = 0
        for size in sizes.dropLast() {
            let bytes = records[first..<first + size + 1].map { 25 + $0.payloadCount }
            #expect(bytes.dropLast().reduce(0, +) <= 64 << 10 && bytes.reduce(0, +) > 64 << 10)
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
                                    payload: [UInt8](repeating: 0xA5, count: 100_000))
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

    /// A batch's payloads lie in one array of their own, not in the reader's input buffer.
    @Test func aBatchOwnsItsPayloads() throws {
        let records = Self.records(10)
        let path = Fixtures.temporaryFile(CaptureWriter.btsnoop(records), name: "own.btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try #require(try CaptureFile.open(path) as? any RecordBatchReader)
        #expect(reader.makesBatches)
        let batch = reader.nextBatch(upTo: 4)
        #expect(batch.map(\.index) == [4, 3, 2, 1])
        #expect(batch.allSatisfy { $0.storage == batch[0].storage })
        #expect(batch[0].storage.count == records[0..<4].reduce(0) { $0 + $1.payloadCount })
        // `next()` goes on where the batch ended.
        #expect(reader.next()?.index == 5)
        #expect(reader.nextBatch(upTo: 100).map(\.index) == Array((6...10).reversed()))
        #expect(reader.nextBatch(upTo: 100).isEmpty)
    }

    /// Linux monitor records are read one at a time (their payload depends on the opcode).
    @Test func monitorRecordsDoNotComeInBatches() throws {
        let path = Fixtures.temporaryFile(CaptureWriter.btsnoop(Self.records(3, h4: false), datalink: 2001))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try #require(try CaptureFile.open(path) as? any RecordBatchReader)
        #expect(!reader.makesBatches)
    }
}

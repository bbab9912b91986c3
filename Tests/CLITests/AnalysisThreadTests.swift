@testable import BLEAnalysis
import AnalyzerTestSupport
import BLECaptureFormats
import Dispatch
import Foundation
@testable import BLEReports
import Testing
import BLEVendorDecoding

/// Running the sessions on a second thread changes nothing in the result.
struct AnalysisThreadTests {
    static func report(_ path: String, pipelined: Bool, parallelJSON: Bool = true) throws -> String {
        let profile = try ProfileLoader.load(path: SharedCaptures.packageRoot.appendingPathComponent("Samples/profiles/demo-lock.yaml").path)
        var offsets: [Int] = []
        let analysis = Analysis.run(try CaptureFile.open(path), profiles: [profile], pipelined: pipelined) { offsets.append($0) }
        // Progress comes in file order.
        #expect(!offsets.isEmpty)
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 < $1 })
        var bytes: [UInt8] = []
        ReportJSON.write(analysis, commandLine: "bledecode", chunkSize: 512, parallel: parallelJSON, to: { bytes += $0 })
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: ["Samples/demo-lock.btsnoop", "Samples/demo-lock.pcapng", "Samples/demo-lock.pklg"])
    func sampleReportsAreTheSameOnOneThreadOrTwo(sample: String) throws {
        let path = SharedCaptures.packageRoot.appendingPathComponent(sample).path
        let inline = try Self.report(path, pipelined: false)
        #expect(inline.contains("\"vendorFrames\":[{"))
        #expect(try Self.report(path, pipelined: true) == inline)
        #expect(try Self.report(path, pipelined: true, parallelJSON: false) == inline)
    }

    /// Frames that were one ATT value view their record's batch while the session holds them;
    /// listed, each has its bytes in a buffer of its own, so the listing keeps no batch alive.
    @Test(arguments: ["Samples/demo-lock.btsnoop", "Samples/demo-lock.pcapng"])
    func listedFramesKeepNoBatch(sample: String) throws {
        let profile = try ProfileLoader.load(path: SharedCaptures.packageRoot.appendingPathComponent("Samples/profiles/demo-lock.yaml").path)
        let path = SharedCaptures.packageRoot.appendingPathComponent(sample).path
        let analysis = Analysis.run(try CaptureFile.open(path), profiles: [profile], pipelined: true) { _ in }
        #expect(analysis.vendorFrames.count > 10)
        #expect(analysis.vendorFrames.allSatisfy { $0.raw.isWholeBuffer })
    }

    /// The array's elements come out in order and once each, however the pieces fall: none, a
    /// part of one, one, one and a bit, a helper's piece last or not, many.
    @Test(arguments: [0, 1, 31, 32, 33, 64, 65, 96, 97, 1000])
    func parallelJSONWritesEveryElementOnceInOrder(count: Int) {
        func write(parallel: Bool) -> (text: String, streamed: Int) {
            var w = JSONWriter()
            var streamed: [UInt8] = []
            w.beginArray()
            ParallelJSON.writeElements(Array(0..<count), into: &w, parallel: parallel,
                                       chunkSize: 100, sink: { streamed += $0 }) { i, w in
                w.beginObject()
                w.field("i", i)
                w.field("name", "<\(i)>")
                w.endObject()
            }
            w.endArray()
            let streamedBeforeEnd = streamed.count
            w.lendBytes { streamed += $0 }
            return (String(decoding: streamed, as: UTF8.self), streamedBeforeEnd)
        }
        let expected = "[" + (0..<count).map { #"{"i":\#($0),"name":"\u003c\#($0)\u003e"}"# }.joined(separator: ",") + "]"
        let serial = write(parallel: false)
        let parallel = write(parallel: true)
        #expect(serial.text == expected)
        #expect(parallel.text == expected)
        #expect(count < 10 || parallel.streamed > 0)
    }

    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"),
          arguments: ["synthetic/demo-faults.btsnoop", "synthetic/demo-faults.ll.pcap", "real/fossibot_btsnoop_hci.log"])
    func sharedReportsAreTheSameOnOneThreadOrTwo(capture: String) throws {
        let path = SharedCaptures.path(capture)
        #expect(try Self.report(path, pipelined: true) == Self.report(path, pipelined: false))
    }

    @Test func handOffKeepsOrderAcrossThreadsAndDropsWhatWasNotReceived() {
        let handOff = HandOff<[Int]>(capacity: 3)
        let producer = DispatchGroup()
        DispatchQueue.global().async(group: producer) {
            for i in 0..<1000 { handOff.send([i, i + 1]) }
        }
        var received: [[Int]] = []
        for _ in 0..<1000 { received.append(handOff.receive()) }
        producer.wait()
        #expect(received == (0..<1000).map { [$0, $0 + 1] })
        // Values still in the hand-off are released with it.
        let leftover = HandOff<[Int]>(capacity: 2)
        leftover.send([7])
        leftover.send([8])
        #expect(leftover.receive() == [7])
    }

    /// The hand-off's tries never wait: a send into a full one and a receive from an empty one
    /// fail, and what they pass keeps its order.
    @Test func handOffTriesNeverWait() {
        let handOff = HandOff<[Int]>(capacity: 2)
        #expect(handOff.tryReceive() == nil)
        #expect(handOff.trySend([1]))
        #expect(handOff.trySend([2]))
        #expect(!handOff.trySend([3]))
        #expect(handOff.tryReceive() == [1])
        #expect(handOff.trySend([4]))
        #expect(handOff.receive() == [2])
        #expect(handOff.tryReceive() == [4])
        #expect(handOff.tryReceive() == nil)
    }

    /// Reading ahead on a thread hands out the same records, then the reader's diagnostics.
    @Test func prefetchingReaderHandsOutTheSameRecordsAndDiagnostics() throws {
        let sample = SharedCaptures.packageRoot.appendingPathComponent("Samples/demo-lock.btsnoop").path
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: sample)))
        // Cut inside the last record: a damaged capture with one diagnostic.
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("prefetch-cut.btsnoop")
        try Data(bytes.dropLast(3)).write(to: cut)
        defer { try? FileManager.default.removeItem(at: cut) }
        for path in [sample, cut.path] {
            let direct = try CaptureFile.open(path)
            var expected: [CaptureRecord] = []
            while let record = direct.next() { expected.append(record) }
            let prefetching = PrefetchingReader(try CaptureFile.open(path), recordsPerBatch: 16)
            #expect(prefetching.info.path == path)
            var records: [CaptureRecord] = []
            while let record = prefetching.next() { records.append(record) }
            #expect(records.count > 16 * SessionThread.batchesInFlight)
            #expect(records == expected)
            #expect(prefetching.next() == nil)
            #expect(prefetching.diagnostics.map(\.message) == direct.diagnostics.map(\.message))
            // The records crossed in an array per batch of 16, holding their bytes (a copy of the
            // reader's input), not in the reader's input buffer.
            let arrays = records.map { $0.storage.withUnsafeBufferPointer { $0.baseAddress } }
            for (index, array) in arrays.enumerated() {
                #expect(array == arrays[index / 16 * 16])
                #expect((array == arrays[max(index / 16 * 16 - 1, 0)]) == (index < 16))
            }
            #expect(prefetching.diagnostics.count == (path == sample ? 0 : 1))
        }
    }

    /// Paced by use, the reading thread stays `batchesInFlight` batches ahead of the batches
    /// used, not of those taken (taken ones would let it read two more here).
    @Test func pacedReadingStaysBatchesInFlightAheadOfUse() throws {
        let sample = SharedCaptures.packageRoot.appendingPathComponent("Samples/demo-lock.btsnoop").path
        let counting = CountingReader(try CaptureFile.open(sample))
        let perBatch = 4
        let prefetching = PrefetchingReader(counting, recordsPerBatch: perBatch, pacedByUse: true)
        /// Waits for the reading thread to have read `records` records, then a while more to see
        /// that it reads no further.
        func expectRead(_ records: Int) {
            let deadline = Date().addingTimeInterval(10)
            while counting.count < records, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            Thread.sleep(forTimeInterval: 0.1)
            #expect(counting.count == records)
        }
        expectRead(SessionThread.batchesInFlight * perBatch)
        for _ in 0..<2 { #expect(prefetching.nextBatch().count == perBatch) }
        expectRead(SessionThread.batchesInFlight * perBatch)
        prefetching.batchUsed()
        prefetching.batchUsed()
        expectRead((SessionThread.batchesInFlight + 2) * perBatch)
        // To the end, so that the thread finishes.
        var taken = 2
        while !prefetching.nextBatch().isEmpty {
            taken += 1
            prefetching.batchUsed()
        }
        #expect(taken * perBatch >= counting.count - perBatch)
    }

    /// Records with arrays of their own (pcapng) come in order whatever the batch size, the
    /// last, shorter batch included.
    @Test(arguments: [1, 7, 16, 100_000])
    func prefetchingReaderKeepsTheOrderOfRecordsItDoesNotPack(recordsPerBatch: Int) throws {
        let sample = SharedCaptures.packageRoot.appendingPathComponent("Samples/demo-lock.pcapng").path
        let direct = try CaptureFile.open(sample)
        var expected: [CaptureRecord] = []
        while let record = direct.next() { expected.append(record) }
        let prefetching = PrefetchingReader(try CaptureFile.open(sample), recordsPerBatch: recordsPerBatch)
        var records: [CaptureRecord] = []
        while let record = prefetching.next() { records.append(record) }
        #expect(expected.count % 7 != 0 && expected.count % 16 != 0)
        #expect(records == expected)
        #expect(prefetching.next() == nil)
    }
}

/// Counts the records read, from whichever thread reads them.
private final class CountingReader: RecordReader, @unchecked Sendable {
    private let reader: any RecordReader
    private let lock = NSLock()
    private var read = 0

    init(_ reader: any RecordReader) { self.reader = reader }

    var info: CaptureInfo { reader.info }
    var diagnostics: [CaptureDiagnostic] { reader.diagnostics }
    var count: Int { lock.withLock { read } }

    func next() -> CaptureRecord? {
        guard let record = reader.next() else { return nil }
        lock.withLock { read += 1 }
        return record
    }
}

import CaptureFormats
import Dispatch

/// Reads records ahead on a thread of its own, in batches through a bounded `HandOff`, so that
/// reading a capture overlaps decoding it. The wrapped reader is used by that thread only until
/// it hands over the end of the capture; `diagnostics` reads it after that (the hand-off orders
/// the two), and `info` is taken before the thread starts. Read it to the end: the thread waits
/// for room to hand over the next batch until then.
final class PrefetchingReader: RecordReader, @unchecked Sendable {
    let info: CaptureInfo
    private let reader: any RecordReader
    private let handOff = HandOff<[CaptureRecord]>(capacity: SessionThread.batchesInFlight)
    /// The consumer's side: the rest of the batch being handed out, last record first, so that
    /// each moves out with `popLast` (taking one by index would copy it: a reference count more).
    private var batch: [CaptureRecord] = []
    private var ended = false

    init(_ reader: any RecordReader, recordsPerBatch: Int = SessionStage.recordsPerBatch) {
        self.reader = reader
        info = reader.info
        let recordsPerBatch = max(recordsPerBatch, 1)
        let packs = reader.payloadsShareInput
        // A queue of its own targets the overcommitting pool: a thread now, however busy the
        // global pool is (its width is the core count, and a blocked worker would wait for it).
        DispatchQueue(label: "bledecode.reading").async { [self] in
            var read: [CaptureRecord] = []
            read.reserveCapacity(recordsPerBatch)
            while true {
                let batch: [CaptureRecord]
                if packs {
                    while read.count < recordsPerBatch, let record = self.reader.next() { read.append(record) }
                    batch = Self.packed(read)
                    read.removeAll(keepingCapacity: true)
                } else {
                    batch = Self.lastFirst(self.reader, count: recordsPerBatch)
                }
                // An empty batch: the end of the capture.
                handOff.send(batch)
                if batch.isEmpty { break }
            }
        }
    }

    /// Up to `count` records read from `reader`, placed last first as they come (reversing a
    /// batch afterwards cost 134 instructions a record).
    static func lastFirst(_ reader: any RecordReader, count: Int) -> [CaptureRecord] {
        [CaptureRecord](unsafeUninitializedCapacity: count) { records, initialized in
            guard let base = records.baseAddress else { return }
            var start = count
            while start > 0, let record = reader.next() {
                start -= 1
                (base + start).initialize(to: record)
            }
            // At the end of the capture, the records read so far move to the front.
            if start > 0 { base.moveInitialize(from: base + start, count: count - start) }
            initialized = count - start
        }
    }

    /// The records of a batch, last first, their payloads copied into one array of their own,
    /// for readers whose payloads lie in their input buffer: records that crossed to the worker
    /// in it would share one reference count with the records the reader is still making, which
    /// the two threads would then fight over (measured: 11 % slower than an array per record).
    /// An array per batch is touched by one thread at a time and freed once.
    static func packed(_ records: [CaptureRecord]) -> [CaptureRecord] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.reduce(0) { $0 + $1.payloadCount })
        var starts: [Int] = []
        starts.reserveCapacity(records.count)
        for record in records {
            starts.append(bytes.count)
            bytes.append(contentsOf: record.storage[record.payloadRange])
        }
        return records.indices.reversed().map { i in
            records[i].sharingPayload(bytes, at: starts[i]..<starts[i] + records[i].payloadCount)
        }
    }

    func next() -> CaptureRecord? {
        if batch.isEmpty, !ended {
            batch = handOff.receive()
            ended = batch.isEmpty
        }
        return batch.popLast()
    }

    /// Complete once `next()` returned nil.
    var diagnostics: [CaptureDiagnostic] { ended ? reader.diagnostics : [] }
}

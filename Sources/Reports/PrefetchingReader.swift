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
            // A reader that makes its own batches hands them over as they are.
            let batching = self.reader as? any RecordBatchReader
            // Records read for the next packed batch, in memory of their own: they move out of it.
            let read = UnsafeMutablePointer<CaptureRecord>.allocate(capacity: recordsPerBatch)
            defer { read.deallocate() }
            while true {
                let batch: [CaptureRecord]
                if let batching {
                    batch = batching.nextBatch(upTo: recordsPerBatch)
                } else if packs {
                    var count = 0
                    while count < recordsPerBatch, let record = self.reader.next() {
                        (read + count).initialize(to: record)
                        count += 1
                    }
                    batch = Self.packed(read, count: count)
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
    /// An array per batch is touched by one thread at a time and freed once. The `count` records
    /// at `read` move into the batch, leaving that memory uninitialized (copied out of an
    /// array, they cost 140 instructions each).
    static func packed(_ read: UnsafeMutablePointer<CaptureRecord>, count: Int) -> [CaptureRecord] {
        // Copied record by record with `copyMemory`: `append(contentsOf:)` a slice cost 94
        // instructions a record.
        let total = (0..<count).reduce(0) { $0 + read[$1].payloadCount }
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            var start = 0
            for i in 0..<count {
                read[i].withUnsafePayloadBytes { payload in
                    guard let source = payload.baseAddress, let base = buffer.baseAddress else { return }
                    UnsafeMutableRawPointer(base + start).copyMemory(from: source, byteCount: payload.count)
                }
                start += read[i].payloadCount
            }
            initialized = total
        }
        return [CaptureRecord](unsafeUninitializedCapacity: count) { batch, initialized in
            var start = 0
            for i in 0..<count {
                let end = start + read[i].payloadCount
                read[i].sharePayload(bytes, at: start..<end)
                batch.initializeElement(at: count - 1 - i, to: (read + i).move())
                start = end
            }
            initialized = count
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

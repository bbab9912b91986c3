import BLECaptureFormats
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
    /// Used batches on their way back to the reading thread, which frees them (`giveBack`).
    private let spent = HandOff<[CaptureRecord]>(capacity: SessionThread.batchesInFlight + 2)
    /// The consumer's side: the rest of the batch being handed out, last record first, so that
    /// each moves out with `popLast` (taking one by index would copy it: a reference count more).
    private var batch: [CaptureRecord] = []
    private var ended = false
    /// Signalled by `batchUsed()`, when the reading thread waits for it (`pacedByUse`).
    private let used = DispatchSemaphore(value: 0)

    /// `pacedByUse`: the reading thread reads a batch only while fewer than `batchesInFlight` are
    /// unused, woken by whoever calls `batchUsed()` (the vendor thread, not the decoding thread):
    /// the scheduler wakes a thread on its waker's CPU, and the decoding thread's is the critical
    /// one (docs/architecture.md, docs/performance.md).
    init(_ reader: any RecordReader, recordsPerBatch: Int = SessionStage.recordsPerBatch, pacedByUse: Bool = false) {
        self.reader = reader
        info = reader.info
        let recordsPerBatch = max(recordsPerBatch, 1)
        // A queue of its own targets the overcommitting pool: a thread now, however busy the
        // global pool is (its width is the core count, and a blocked worker would wait for it).
        DispatchQueue(label: "bledecode.reading").async { [self] in
            // A reader that makes its own batches hands them over as they are.
            let batching = self.reader as? any RecordBatchReader
            var sent = 0
            while true {
                if pacedByUse, sent >= SessionThread.batchesInFlight { self.used.wait() }
                sent += 1
                while self.spent.tryReceive() != nil {}
                let batch = batching?.nextBatch(upTo: recordsPerBatch) ?? Self.lastFirst(self.reader, count: recordsPerBatch)
                // An empty batch: the end of the capture. Moved over, so that the decoding
                // thread's first change does not find it shared and copy it.
                let isLast = batch.isEmpty
                handOff.send(consume batch)
                if isLast { break }
            }
        }
    }

    /// Up to `count` records read from `reader`, placed last first as they come (rather than
    /// reversing the batch afterwards).
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

    /// The rest of the batch being handed out, or the next batch, last record first; empty at
    /// the end of the capture.
    func nextBatch() -> [CaptureRecord] {
        refill()
        var taken: [CaptureRecord] = []
        swap(&taken, &batch)
        return taken
    }

    /// Hands a batch whose records were used back to the reading thread, which frees it there
    /// (and each record's reference to its bytes, an atomic release), off the decoding thread,
    /// the critical one. When the way back is full, it is freed here.
    func giveBack(_ batch: consuming [CaptureRecord]) {
        _ = spent.trySend(batch)
    }

    /// The events of a batch from `nextBatch()` were used (`pacedByUse`).
    func batchUsed() {
        used.signal()
    }

    func next() -> CaptureRecord? {
        refill()
        return batch.popLast()
    }

    /// Takes the reading thread's next batch once the one being handed out is used up.
    private func refill() {
        if batch.isEmpty, !ended {
            batch = handOff.receive()
            ended = batch.isEmpty
        }
    }

    /// Complete once `next()` returned nil.
    var diagnostics: [CaptureDiagnostic] { ended ? reader.diagnostics : [] }
}

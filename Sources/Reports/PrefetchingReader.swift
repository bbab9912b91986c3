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
    /// each moves out with `popLast` (taking one by index would copy it: a reference count on
    /// its payload, which another thread wrote).
    private var batch: [CaptureRecord] = []
    private var ended = false

    init(_ reader: any RecordReader, recordsPerBatch: Int = SessionStage.recordsPerBatch) {
        self.reader = reader
        info = reader.info
        let recordsPerBatch = max(recordsPerBatch, 1)
        // A queue of its own targets the overcommitting pool: a thread now, however busy the
        // global pool is (its width is the core count, and a blocked worker would wait for it).
        DispatchQueue(label: "bledecode.reading").async { [self] in
            var batch: [CaptureRecord] = []
            batch.reserveCapacity(recordsPerBatch)
            while let record = self.reader.next() {
                batch.append(record)
                if batch.count == recordsPerBatch {
                    batch.reverse()
                    handOff.send(batch)
                    batch = []
                    batch.reserveCapacity(recordsPerBatch)
                }
            }
            if !batch.isEmpty { handOff.send(batch.reversed()) }
            // An empty batch: the end of the capture.
            handOff.send([])
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

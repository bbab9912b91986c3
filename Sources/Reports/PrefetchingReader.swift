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
    /// The consumer's side: the batch being handed out and the next record's index in it.
    private var batch: [CaptureRecord] = []
    private var position = 0
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
                    handOff.send(batch)
                    batch = []
                    batch.reserveCapacity(recordsPerBatch)
                }
            }
            if !batch.isEmpty { handOff.send(batch) }
            // An empty batch: the end of the capture.
            handOff.send([])
        }
    }

    func next() -> CaptureRecord? {
        if position == batch.count, !ended {
            batch = handOff.receive()
            position = 0
            ended = batch.isEmpty
        }
        guard position < batch.count else { return nil }
        defer { position += 1 }
        return batch[position]
    }

    /// Complete once `next()` returned nil.
    var diagnostics: [CaptureDiagnostic] { ended ? reader.diagnostics : [] }
}

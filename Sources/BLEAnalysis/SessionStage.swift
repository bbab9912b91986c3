import BLEBase
import BLECaptureFormats
import BLEPacketDecoding
import BLESessions

/// The stages below vendor decoding: read a record, decode it, feed the sessions. What comes
/// out is the stream of `SessionEvent`s the vendor layer consumes, then the report.
struct SessionStage {
    /// The sessions' closing state: the report, the events of the connections still open at
    /// the end, and the decoder's closing issues.
    struct End: Sendable {
        var report: SessionReport
        var events: [SessionEvent]
        var issues: [PacketIssue]
    }

    /// Records between two progress reports (and, on a thread, the most per batch).
    static let recordsPerBatch = 1024

    let reader: any RecordReader
    private var decoder = PacketDecoder()
    private var sessions: SessionAnalyzer
    /// The packet each record decodes into, in place (`PacketDecoder.decode(swapping:into:)`).
    private var packet = DecodedPacket(record: CaptureRecord(index: 0, timestampUs: 0, direction: .unknown,
                                                             kind: .unknown(code: 0), payload: []))

    init(reader: any RecordReader, options: SessionOptions) {
        self.reader = reader
        sessions = SessionAnalyzer(options: options)
    }

    /// Reads up to `recordsPerBatch` records, appending their events; the file offset of the
    /// last one, nil at the end of the capture.
    mutating func step(into events: inout [SessionEvent]) -> Int? {
        // A batch handed to another thread leaves an empty buffer: sized once, not grown by doubling.
        events.reserveCapacity(Self.recordsPerBatch)
        // A reader that reads ahead on a thread (the pipelined run) hands over its batches whole.
        if let prefetching = reader as? PrefetchingReader { return step(batchOf: prefetching, into: &events) }
        return step(reading: reader, into: &events)
    }

    /// One batch of the reading thread: each record changes places with the packet's previous
    /// one, which goes back in the batch to the reading thread to be freed there (a record moved
    /// out of the batch and into the packet would cost a copy into a temporary and a destroy).
    private mutating func step(batchOf reader: PrefetchingReader, into events: inout [SessionEvent]) -> Int? {
        var records = reader.nextBatch()
        // Last record first.
        guard let offset = records.first?.fileOffset else { return nil }
        // Not in a closure over the batch's buffer: the packet lent from there would be copied.
        for index in records.indices.reversed() {
            decoder.decode(swapping: &records[index], into: &packet)
            sessions.process(lent: &packet, into: &events)
        }
        reader.giveBack(records)
        return offset
    }

    private mutating func step<Reader: RecordReader>(reading reader: Reader, into events: inout [SessionEvent]) -> Int? {
        var offset: Int?
        for _ in 0..<Self.recordsPerBatch {
            guard var record = reader.next() else { break }
            offset = record.fileOffset
            decoder.decode(swapping: &record, into: &packet)
            sessions.process(lent: &packet, into: &events)
        }
        return offset
    }

    mutating func finish() -> End {
        let issues = decoder.finish()
        let (report, events) = sessions.finish(diagnostics: reader.diagnostics, pipelineIssues: issues)
        return End(report: report, events: events, issues: issues)
    }

    /// Every stage on the calling thread.
    consuming func runInline(vendor: inout VendorLayer, progress: ((Int) -> Void)?) -> End {
        var events: [SessionEvent] = []
        while let offset = step(into: &events) {
            ArrayDrain.all(&events) { vendor.handle($0) }
            progress?(offset)
        }
        return finish()
    }
}

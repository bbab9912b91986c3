import BLEBase

/// Reads Apple PacketLogger files record by record or a batch at a time (`nextBatch`); after a
/// record with an impossible length it scans forward for the next plausible record header.
final class PacketLoggerReader: RecordBatchReader {
    let info: CaptureInfo
    private let input: BufferedInput
    private let bigEndian: Bool
    private var log: DiagnosticLog
    private var batcher = RecordBatcher()
    private var recordNumber = 0
    private var previousSeconds: UInt32?
    private var finished = false

    var diagnostics: [CaptureDiagnostic] { log.entries }

    init(input: BufferedInput, path: String, bigEndian: Bool, compressed: Bool) {
        self.input = input
        self.bigEndian = bigEndian
        log = DiagnosticLog(file: path)
        info = CaptureInfo(path: path, container: .packetLogger,
                           linkTypeDescription: bigEndian ? "PacketLogger big-endian (v1)" : "PacketLogger little-endian (v2)",
                           linkType: nil, compressed: compressed)
    }

    func next() -> CaptureRecord? {
        while !finished {
            let offset = input.offset
            var headerReader = input.peek(PacketLoggerRecordHeader.size)
            if headerReader.isAtEnd { return finish() }
            let number = recordNumber + 1
            guard headerReader.remaining == PacketLoggerRecordHeader.size,
                  let header = try? PacketLoggerRecordHeader(parsing: &headerReader, bigEndian: bigEndian) else {
                log.truncatedFinalRecord(record: number, at: offset, have: input.buffered,
                                         total: PacketLoggerRecordHeader.size, header: true)
                return finish()
            }
            guard header.hasPossibleLength else {
                recordNumber = number
                log.add(.error, .impossibleLength, record: number, at: offset,
                        "impossible record length \(header.length)")
                resynchronise(from: offset)
                continue
            }
            let total = 4 + Int(header.length)
            headerReader = ByteReader([])   // drop the header's view of the buffer before it refills
            guard var reader = input.takeReader(total) else {
                log.truncatedFinalRecord(record: number, at: offset, have: input.fill(total), total: total, header: false)
                return finish()
            }
            recordNumber = number
            previousSeconds = header.seconds
            guard (try? reader.skip(PacketLoggerRecordHeader.size, "record header")) != nil else { return finish() }
            let payload = PacketLoggerPayload(parsing: &reader, type: header.type)
            if !header.type.isKnown {
                log.add(.warning, .unknownRecordType, record: number, at: offset,
                        "unknown PacketLogger record type \(Hex.code(header.type.rawValue)); kept raw")
            }
            return CaptureRecord(index: number, timestampUs: header.unixMicroseconds, direction: header.type.direction,
                                 kind: header.type.kind, sharing: payload.bytes, fileOffset: offset)
        }
        return nil
    }

    /// Skips bytes one at a time from just after `offset` until a plausible header starts (see
    /// `PacketLoggerRecordHeader.isPlausible`), and reports how many were skipped.
    private func resynchronise(from offset: Int) {
        var skipped = input.skip(1)
        while true {
            var reader = input.peek(PacketLoggerRecordHeader.size)
            guard reader.remaining == PacketLoggerRecordHeader.size else {
                skipped += input.skip(reader.remaining)
                log.add(.warning, .resynchronised, record: nil, at: offset,
                        "no plausible record header after this point: \(skipped) byte(s) skipped to the end")
                _ = finish()
                return
            }
            if let header = try? PacketLoggerRecordHeader(parsing: &reader, bigEndian: bigEndian),
               header.isPlausible(after: previousSeconds) {
                log.add(.warning, .resynchronised, record: nil, at: offset,
                        "skipped \(skipped) byte(s) to the next plausible record header at byte \(input.offset)")
                return
            }
            skipped += input.skip(1)
        }
    }

    private func finish() -> CaptureRecord? {
        finished = true
        log.finish(cutRecords: 0, sourceError: input.sourceError)
        return nil
    }

    // MARK: Batches

    /// The records `next()` would return, read from the buffered bytes in one pass and their
    /// bytes copied into one array. A record that is not whole in the window or not an
    /// ordinary one (damage, the end of the file, syslog text, an unknown type) ends the batch;
    /// alone, it goes through `next()`, which reports or rebuilds it.
    func nextBatch(upTo count: Int) -> [CaptureRecord] {
        if !finished, count > 0 {
            var lastSeconds: UInt32?
            let batch = batcher.batch(from: input, upTo: count, firstIndex: recordNumber + 1) { window in
                span(in: &window, seconds: &lastSeconds)
            }
            if !batch.isEmpty {
                recordNumber += batch.count
                previousSeconds = lastSeconds
                return batch
            }
        }
        return nextAlone()
    }

    /// The record at the front of `window`, read past, its header's seconds in `seconds`; nil
    /// when it is not whole there or not an ordinary record (the checks of `next()`).
    private func span(in window: inout ByteReader, seconds: inout UInt32?) -> RecordSpan? {
        let headerAt = window.position
        guard let header = try? PacketLoggerRecordHeader(parsing: &window, bigEndian: bigEndian),
              header.hasPossibleLength, header.type != .syslog, let meaning = header.type.meaning else { return nil }
        let payloadCount = Int(header.length) - PacketLoggerRecordHeader.headerAfterLength
        let payloadStart = window.position
        guard (try? window.skip(payloadCount, "packet")) != nil else { return nil }
        seconds = header.seconds
        return RecordSpan(headerAt: headerAt, payloadStart: payloadStart, payloadCount: payloadCount,
                          kind: meaning.kind, direction: meaning.direction, originalLength: payloadCount,
                          timestampUs: header.unixMicroseconds)
    }
}

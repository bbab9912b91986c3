import BLEBase

/// Reads btsnoop v1 files (datalinks 1001, 1002, 2001) record by record from a buffered input,
/// or a batch at a time (`nextBatch`).
final class BtsnoopReader: RecordBatchReader {
    let info: CaptureInfo
    private let input: BufferedInput
    private let datalink: BtsnoopDatalink
    private var log: DiagnosticLog
    private var batcher = RecordBatcher()
    private var recordNumber = 0
    private var cutRecords = 0
    private var finished = false

    var diagnostics: [CaptureDiagnostic] { log.entries }

    /// Reads the file header from `input`; throws for a damaged header, a version other than 1
    /// or an unsupported datalink.
    init(input: BufferedInput, path: String, compressed: Bool) throws(CaptureError) {
        var reader = input.peek(BtsnoopFileHeader.size)
        let header: BtsnoopFileHeader
        do throws(DecodeError) {
            header = try BtsnoopFileHeader(parsing: &reader)
        } catch {
            throw CaptureError(file: path, byteOffset: error.offset, message: "damaged btsnoop file header: \(error)")
        }
        guard header.version == 1 else {
            throw CaptureError(file: path, byteOffset: 8, message: "unsupported btsnoop version \(header.version)")
        }
        guard header.datalink.isSupported else {
            throw CaptureError(file: path, byteOffset: 12, message: "unsupported btsnoop datalink \(header.datalink.rawValue)")
        }
        _ = input.skip(BtsnoopFileHeader.size)
        self.input = input
        datalink = header.datalink
        log = DiagnosticLog(file: path)
        info = CaptureInfo(path: path, container: .btsnoop,
                           linkTypeDescription: "btsnoop datalink \(header.datalink.rawValue) (\(header.datalink.name))",
                           linkType: header.datalink.rawValue, compressed: compressed)
    }

    func next() -> CaptureRecord? {
        guard !finished else { return nil }
        let offset = input.offset
        var headerReader = input.peek(BtsnoopRecordHeader.size)
        if headerReader.isAtEnd { return finish() }
        let number = recordNumber + 1
        guard headerReader.remaining == BtsnoopRecordHeader.size,
              let header = try? BtsnoopRecordHeader(parsing: &headerReader) else {
            log.truncatedFinalRecord(record: number, at: offset, have: input.buffered,
                                     total: BtsnoopRecordHeader.size, header: true)
            return finish()
        }
        // No record has an impossible length, and btsnoop has no way to find the next record.
        guard header.hasPossibleLength(datalink: datalink) else {
            log.add(.error, .impossibleLength, record: number, at: offset,
                    "impossible included length \(header.includedLength)")
            return finish()
        }
        let total = BtsnoopRecordHeader.size + Int(header.includedLength)
        headerReader = ByteReader([])   // drop the header's view of the buffer before it refills
        guard var reader = input.takeReader(total) else {
            log.truncatedFinalRecord(record: number, at: offset, have: input.fill(total), total: total, header: false)
            return finish()
        }
        recordNumber = number
        do throws(DecodeError) {
            try reader.skip(BtsnoopRecordHeader.size, "record header")
            let packet = try BtsnoopPacket(parsing: &reader, datalink: datalink, flags: header.flags)
            let original = max(Int(header.originalLength) - packet.consumedHeaderBytes, packet.payload.remaining)
            if header.includedLength < header.originalLength { cutRecords += 1 }
            return packet.record(index: number, timestampUs: header.unixMicroseconds, originalLength: original,
                                 fileOffset: offset)
        } catch {
            log.add(.error, .other, record: number, at: offset, "undecodable record: \(error)")
            return finish()
        }
    }

    private func finish() -> CaptureRecord? {
        finished = true
        log.finish(cutRecords: cutRecords, sourceError: input.sourceError)
        return nil
    }

    // MARK: Batches

    /// The records `next()` would return, read from the buffered bytes in one pass and their
    /// bytes copied into one array. A record that is not whole in the window or not an
    /// ordinary one (damage, the end of the file, Linux monitor text) ends the batch; alone, it
    /// goes through `next()`, which reports or rebuilds it.
    func nextBatch(upTo count: Int) -> [CaptureRecord] {
        if !finished, count > 0 {
            let batch = batcher.batch(from: input, upTo: count, firstIndex: recordNumber + 1) { span(in: &$0) }
            if !batch.isEmpty {
                recordNumber += batch.count
                cutRecords += batch.count { $0.isTruncated }
                return batch
            }
        }
        return nextAlone()
    }

    /// The record at the front of `window`, read past; nil when it is not whole there or not an
    /// ordinary record (the checks of `next()`).
    private func span(in window: inout ByteReader) -> RecordSpan? {
        let headerAt = window.position
        guard let header = try? BtsnoopRecordHeader(parsing: &window), header.hasPossibleLength(datalink: datalink),
              window.remaining >= Int(header.includedLength) else { return nil }
        if datalink == .linuxMonitor { return monitorSpan(in: &window, header: header, at: headerAt) }
        // The packet in one checked read; an H4 one starts with its type byte (never empty:
        // `hasPossibleLength`).
        let packetStart = window.position
        guard let first = try? window.readBlock(Int(header.includedLength), "packet", { $0.first ?? 0 }) else { return nil }
        let kind: RecordKind
        var typeBytes = 0
        if datalink == .h4 {
            kind = H4PacketType(rawValue: first).kind
            typeBytes = 1
        } else {
            kind = BtsnoopPacket.h1Kind(flags: header.flags)
        }
        let payloadCount = Int(header.includedLength) - typeBytes
        return RecordSpan(headerAt: headerAt, payloadStart: packetStart + typeBytes, payloadCount: payloadCount, kind: kind,
                          direction: header.flags & 0x1 != 0 ? .received : .sent,
                          originalLength: max(Int(header.originalLength) - typeBytes, payloadCount),
                          timestampUs: header.unixMicroseconds)
    }

    /// `span(in:)` after the header of a Linux monitor record: flags = adapter index << 16 |
    /// opcode, the payload all the record (its text records go through `next()`).
    private func monitorSpan(in window: inout ByteReader, header: BtsnoopRecordHeader, at headerAt: Int) -> RecordSpan? {
        let opcode = MonitorOpcode(rawValue: UInt16(truncatingIfNeeded: header.flags))
        guard opcode != .systemNote, opcode != .userLogging else { return nil }
        let payloadCount = Int(header.includedLength)
        let payloadStart = window.position
        guard (try? window.skip(payloadCount, "packet")) != nil else { return nil }
        let (kind, direction) = opcode.record
        return RecordSpan(headerAt: headerAt, payloadStart: payloadStart, payloadCount: payloadCount, kind: kind,
                          direction: direction, originalLength: max(Int(header.originalLength), payloadCount),
                          timestampUs: header.unixMicroseconds, adapter: UInt16(truncatingIfNeeded: header.flags >> 16))
    }
}

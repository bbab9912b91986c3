import BLEBase

/// Reads btsnoop v1 files (datalinks 1001, 1002, 2001) record by record from a buffered input.
final class BtsnoopReader: RecordReader {
    let info: CaptureInfo
    private let input: BufferedInput
    private let datalink: BtsnoopDatalink
    private var log: DiagnosticLog
    private var recordNumber = 0
    private var cutRecords = 0
    private var finished = false

    var diagnostics: [CaptureDiagnostic] { log.entries }
    /// Packet payloads are the record's bytes in the input buffer (`BtsnoopPacket`).
    var payloadsShareInput: Bool { true }

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
        // incl_len > orig_len, above Wireshark's cap, or an H4 record without its type byte:
        // no record has such a length, and btsnoop has no way to find the next record.
        guard header.includedLength <= header.originalLength,
              header.includedLength <= BtsnoopRecordHeader.maximumIncludedLength,
              !(datalink == .h4 && header.includedLength == 0) else {
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
}

import BLEBase

/// Reads the btsnooz records of a bug report's `BTSNOOP_LOG_SUMMARY` (ble-facts §3): a 9-byte
/// preamble, then a zlib stream of records whose times count back from the preamble's
/// `last_timestamp`. The summary is small (a ring buffer), so it is inflated whole (capped) and
/// walked twice: once to sum the time deltas, once to yield records.
///
/// Byte offsets in diagnostics and records are in the decoded summary: the preamble at 0, the
/// inflated records from byte 9.
final class BugreportReader: RecordReader {
    /// The most bytes the records may inflate to.
    static let maximumInflatedBytes = 64 << 20

    let info: CaptureInfo
    private var log: DiagnosticLog
    private let version: UInt8
    private var records: ByteReader
    private let walk: BtsnoozWalk
    private var timestamp: Int64
    private var recordNumber = 0
    private var cutRecords = 0
    private var finished = false

    var diagnostics: [CaptureDiagnostic] { log.entries }

    /// - Parameters:
    ///   - source: the file, or `file (entry)` for a zip entry, for messages.
    ///   - entry: the zip entry holding the text, when the input is a zip.
    init(section: BugreportSection, path: String, source: String, entry: String?, compressed: Bool) throws(CaptureError) {
        var reader = ByteReader(section.blob, layer: .capture)
        let preamble: BtsnoozPreamble
        do throws(DecodeError) {
            preamble = try BtsnoozPreamble(parsing: &reader)
        } catch .invalid(_, _, let at, let reason) {
            throw CaptureError(file: source, byteOffset: at, message: "unsupported BTSNOOP_LOG_SUMMARY preamble: \(reason)")
        } catch {
            throw CaptureError(file: source, byteOffset: section.blob.count,
                               message: "BTSNOOP_LOG_SUMMARY ends inside the btsnooz preamble: \(section.blob.count) of \(BtsnoozPreamble.size) bytes")
        }
        version = preamble.version
        log = DiagnosticLog(file: "\(source), decoded BTSNOOP_LOG_SUMMARY")
        log.add(.warning, .other, record: nil, at: nil,
                "Android's bug-report summary keeps only the first 14 bytes of each ACL packet (L2CAP signalling "
                + "excepted) and drops SCO: ATT values, vendor frames and PDUs longer than 5 ATT bytes are cut and "
                + "cannot be decoded; for whole packets, enable the Bluetooth HCI snoop log and collect btsnoop_hci.log")
        if !section.complete {
            log.add(.warning, .other, record: nil, at: nil,
                    "the text ends inside the section begun on line \(section.beginLine): no END:BTSNOOP_LOG_SUMMARY line")
        }
        let inflated = Self.inflate(reader.readRemainingBytes(), log: &log)
        if let declared = section.declaredBytes, inflated.complete, declared != inflated.bytes.count {
            log.add(.warning, .other, record: nil, at: nil,
                    "the BEGIN line announces \(declared) bytes; the records inflate to \(inflated.bytes.count)")
        }
        records = ByteReader(inflated.bytes, layer: .capture, baseOffset: BtsnoozPreamble.size)
        walk = BtsnoozWalk(records, version: preamble.version)
        timestamp = Int64(bitPattern: preamble.lastTimestamp) &- walk.deltaSum
        var description = "Android bug report BTSNOOP_LOG_SUMMARY v\(preamble.version) (btsnooz)"
        if let entry { description += ", zip entry \(entry)" }
        info = CaptureInfo(path: path, container: .androidBugreport, linkTypeDescription: description,
                           linkType: nil, compressed: compressed)
    }

    func next() -> CaptureRecord? {
        guard !finished, recordNumber < walk.completeRecords else { return finish() }
        let offset = records.reportedOffset
        let number = recordNumber + 1
        do throws(DecodeError) {
            let header = try BtsnoozRecordHeader(parsing: &records, version: version)
            let payload = try records.readBytes(header.dataLength ?? 0, "packet")
            recordNumber = number
            timestamp = timestamp &+ Int64(header.deltaTime)
            let original = header.originalLength ?? payload.count
            if original > payload.count { cutRecords += 1 }
            if !header.type.isKnown {
                log.add(.warning, .unknownRecordType, record: number, at: offset,
                        "unknown btsnooz record type \(Hex.code(header.type.rawValue)); kept raw")
            }
            return CaptureRecord(index: number, timestampUs: timestamp, direction: header.type.direction,
                                 kind: header.type.kind, payload: payload, originalLength: original, fileOffset: offset)
        } catch {
            log.add(.error, .other, record: number, at: offset, "undecodable record: \(error)")
            return finish()
        }
    }

    private func finish() -> CaptureRecord? {
        guard !finished else { return nil }
        finished = true
        switch walk.stop {
        case .truncated(let record, let offset, let have, let total, let header):
            let part = header ? "record header" : "record"
            log.add(.warning, .truncatedFinalRecord, record: record, at: offset,
                    "the summary ends inside the \(part): \(have) of \(total) bytes")
        case .impossibleLength(let record, let offset):
            log.add(.error, .impossibleLength, record: record, at: offset,
                    "impossible record length 0 (the length counts the type byte); the records after it are lost")
        case nil:
            break
        }
        log.finish(cutRecords: cutRecords, sourceError: nil)
        return nil
    }

    /// Inflates the zlib stream after the preamble, up to the cap; damage is logged and what
    /// inflated before it is kept.
    private static func inflate(_ compressed: [UInt8], log: inout DiagnosticLog) -> (bytes: [UInt8], complete: Bool) {
        guard let inflater = try? Inflater(.zlib) else {
            log.add(.error, .other, record: nil, at: BtsnoozPreamble.size, "cannot start zlib decompression")
            return ([], false)
        }
        inflater.supply(compressed)
        var bytes: [UInt8] = []
        do throws(Inflater.Failure) {
            while !inflater.ended && !inflater.needsInput {
                let piece = try inflater.inflate(max: BufferedInput.chunkSize)
                guard bytes.count + piece.count <= maximumInflatedBytes else {
                    log.add(.error, .other, record: nil, at: BtsnoozPreamble.size + inflater.compressedOffset,
                            "the records inflate to more than \(maximumInflatedBytes >> 20) MiB; reading stops there")
                    return (bytes, false)
                }
                bytes.append(contentsOf: piece)
            }
        } catch {
            log.add(.error, .other, record: nil, at: BtsnoozPreamble.size + error.compressedOffset,
                    "zlib data is corrupt at compressed byte \(error.compressedOffset): \(error.reason); "
                    + "records after it are lost and times count back from a later record than the last one read")
            return (bytes, false)
        }
        guard inflater.ended else {
            log.add(.error, .other, record: nil, at: BtsnoozPreamble.size + compressed.count,
                    "the zlib stream ends before its end marker (\(compressed.count) compressed bytes); "
                    + "times count back from a later record than the last one read")
            return (bytes, false)
        }
        return (bytes, true)
    }
}

/// The first pass over the records: how many are whole, the sum of every time delta (a final
/// record cut short still has its header's delta, as AOSP `btsnooz.py` counts it), and why the
/// walk stopped early.
struct BtsnoozWalk: Equatable {
    enum Stop: Equatable {
        case truncated(record: Int, offset: Int, have: Int, total: Int, header: Bool)
        case impossibleLength(record: Int, offset: Int)
    }

    var completeRecords = 0
    var deltaSum: Int64 = 0
    var stop: Stop?

    init(_ start: ByteReader, version: UInt8) {
        var reader = start
        let headerSize = BtsnoozRecordHeader.size(version: version)
        while !reader.isAtEnd {
            let offset = reader.reportedOffset
            let record = completeRecords + 1
            var headerReader = reader
            guard let header = try? BtsnoozRecordHeader(parsing: &headerReader, version: version) else {
                stop = .truncated(record: record, offset: offset, have: reader.remaining, total: headerSize, header: true)
                return
            }
            guard let dataLength = header.dataLength else {
                stop = .impossibleLength(record: record, offset: offset)
                return
            }
            reader = headerReader
            deltaSum = deltaSum &+ Int64(header.deltaTime)
            guard (try? reader.skip(dataLength)) != nil else {
                stop = .truncated(record: record, offset: offset, have: headerSize + reader.remaining,
                                  total: headerSize + dataLength, header: false)
                return
            }
            completeRecords = record
        }
    }
}

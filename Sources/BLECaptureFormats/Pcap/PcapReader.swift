#if canImport(CBLEPcap)
import BLEBase
import CBLEPcap
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads pcap and pcapng files through libpcap, with a `FrameWalker` in step with it for byte
/// offsets, truncation and pcapng direction flags (pcapng blocks are read a second time for
/// their flags; classic pcap records libpcap kept whole are placed from their lengths). A pcapng
/// packet block libpcap refuses for capturing more than the snapshot length is read from the file.
///
/// Limit: libpcap gives one link type per file; a pcapng file whose interfaces have different
/// link types stops at the first packet of another type with libpcap's error as a diagnostic.
final class PcapReader: RecordBatchReader {
    let info: CaptureInfo
    private let handle: OpaquePointer
    /// The stdio buffer of libpcap's file, freed after `pcap_close` closes the file.
    private let stdioBuffer: UnsafeMutablePointer<CChar>
    private let linkType: LinkType
    private let role: LinkType.Role
    private var walker: FrameWalker?
    /// The most bytes libpcap keeps of a record (the file's snapshot length, within libpcap's
    /// own cap): a record it returns shorter than this, it did not cut.
    private let snapshotLength: Int
    private var log: DiagnosticLog
    private var recordNumber = 0
    private var cutRecords = 0
    private var finished = false
    private var reportedDirectionConflict = false
    /// Records read ahead from libpcap, last first (`next` pops them). A chunk of them shares one
    /// array of bytes, written before any of its records exists: a record costs no allocation
    /// of its own (to be freed on another thread), and the records handed to another thread
    /// share nothing the reader still changes.
    private var staged: [CaptureRecord] = []
    /// The most records per chunk; a record that takes the chunk past `bytesPerChunk` ends it.
    static let recordsPerChunk = 1024
    static let bytesPerChunk = 256 * 1024
    /// The chunk's records as libpcap returned them, and their bytes (kept for their capacity).
    private var pulled: [Pulled] = []
    private let scratch = ScratchBytes(capacity: PcapReader.bytesPerChunk + 64 * 1024)

    var diagnostics: [CaptureDiagnostic] { log.entries }

    /// Opens `path` with libpcap. `input` holds the file's bytes from offset 0 (already read for
    /// detection); when `spool` is true (gzip, standard input) they are first copied to a
    /// temporary file, removed as soon as both readers have it open.
    init(path: String, input: BufferedInput, container: ContainerFormat, bigEndian: Bool,
         compressed: Bool, spool: Bool) throws(CaptureError) {
        var libpcapPath = path
        var walkerInput = input
        var temporary: TemporarySpool?
        if spool {
            let copy = try TemporarySpool(copying: input, file: path)
            temporary = copy
            libpcapPath = copy.path
            do throws(CaptureError) {
                walkerInput = BufferedInput(try FileDescriptorSource(opening: copy.path))
            } catch {
                copy.remove()
                throw error
            }
        }
        defer { temporary?.remove() }

        guard let file = fopen(libpcapPath, "rb") else {
            throw CaptureError(file: path, message: "cannot open the \(container.rawValue) file for libpcap: "
                                   + String(cString: strerror(errno)), cause: .cannotRead)
        }
        // libpcap reads through stdio, 4 KiB a read call: with a 1 MiB buffer, 256 times fewer.
        // (glibc ignores the size when it is to allocate the buffer itself.)
        let stdioBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: BufferedInput.chunkSize)
        setvbuf(file, stdioBuffer, _IOFBF, BufferedInput.chunkSize)
        var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        guard let opened = pcap_fopen_offline_with_tstamp_precision(file, UInt32(PCAP_TSTAMP_PRECISION_MICRO),
                                                                    &errorBuffer) else {
            // Failing, libpcap leaves the file to its caller (as pcap_open_offline does, savefile.c);
            // once it opened, pcap_close closes it.
            fclose(file)
            stdioBuffer.deallocate()
            let reason = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw CaptureError(file: path, message: "libpcap cannot read the \(container.rawValue) file: \(reason)")
        }
        let type = LinkType(rawValue: UInt32(truncatingIfNeeded: pcap_datalink(opened)))
        guard let role = type.role else {
            let name = pcap_datalink_val_to_name(Int32(bitPattern: type.rawValue)).map { String(cString: $0) } ?? "unknown"
            pcap_close(opened)
            stdioBuffer.deallocate()
            throw CaptureError(file: path, message: "unsupported pcap link type \(type.rawValue) (\(name))")
        }
        handle = opened
        self.stdioBuffer = stdioBuffer
        snapshotLength = Int(pcap_snapshot(opened))
        linkType = type
        self.role = role
        walker = container == .pcap ? .pcap(PcapFrameWalker(input: walkerInput, bigEndian: bigEndian))
                                    : .pcapng(PcapngFrameWalker(input: walkerInput))
        log = DiagnosticLog(file: path)
        info = CaptureInfo(path: path, container: container,
                           linkTypeDescription: "\(container.rawValue) link type \(type.rawValue) (\(type.name))",
                           linkType: type.rawValue, compressed: compressed)
    }

    deinit {
        pcap_close(handle)
        stdioBuffer.deallocate()
    }

    func next() -> CaptureRecord? {
        // A chunk whose records all failed to decode stages none: the next chunk is read.
        while staged.isEmpty, !finished { stageChunk() }
        return staged.popLast()
    }

    /// The staged records, up to `count` of them: a whole chunk when it fits, as it does for
    /// the pipeline's batches (`recordsPerChunk` records at most; its bytes then belong to the
    /// batch alone).
    func nextBatch(upTo count: Int) -> [CaptureRecord] {
        while staged.isEmpty, !finished { stageChunk() }
        guard staged.count > count else {
            defer { staged = [] }
            return staged
        }
        defer { staged.removeLast(count) }
        return Array(staged.suffix(count))
    }

    /// One record libpcap returned: where its bytes are in the chunk and what its header said.
    private struct Pulled {
        var bytes: Range<Int>
        var originalLength: Int
        var seconds: Int64
        var microseconds: Int64

        /// The time in microseconds, saturated (the seconds come from the file).
        var timestampUs: Int64 {
            let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
            return overflow ? (seconds < 0 ? Int64.min : Int64.max) : scaled &+ microseconds
        }
    }

    /// Reads the next chunk of records from libpcap, copying their bytes into `scratch` (libpcap
    /// reuses its buffer) and then into one array, then makes them records sharing it, in record
    /// order (the walker's steps and the diagnostics follow it), placed last first (appending
    /// each record's bytes to the array would check its capacity and uniqueness every time).
    private func stageChunk() {
        var used = 0
        pulled.removeAll(keepingCapacity: true)
        var ended = false
        var libpcapError: String?
        while pulled.count < Self.recordsPerChunk, used < Self.bytesPerChunk {
            var header: UnsafeMutablePointer<pcap_pkthdr>?
            var data: UnsafePointer<UInt8>?
            let status = pcap_next_ex(handle, &header, &data)
            guard status == 1, let header, let data else {
                ended = true
                if status == PCAP_ERROR { libpcapError = String(cString: pcap_geterr(handle)) }
                break
            }
            let count = Int(header.pointee.caplen)
            if count < header.pointee.len { cutRecords += 1 }   // decodable or not, libpcap cut it
            scratch.reserve(used + count, keeping: used)
            scratch.base.advanced(by: used).initialize(from: data, count: count)
            pulled.append(Pulled(bytes: used..<used + count, originalLength: Int(header.pointee.len),
                                 seconds: Int64(header.pointee.ts.tv_sec), microseconds: Int64(header.pointee.ts.tv_usec)))
            used += count
        }
        let bytes = Array(UnsafeBufferPointer(start: scratch.base, count: used))
        staged = [CaptureRecord](unsafeUninitializedCapacity: pulled.count) { records, initialized in
            guard let base = records.baseAddress else { return }
            var start = pulled.count
            for var entry in pulled {
                recordNumber += 1
                let frame = nextFrame(capturedLength: entry.bytes.count)
                // libpcap cuts a record to the file's snapshot length even when the file holds it
                // whole (included length = original length): the file's bytes are the record.
                if let stored = frame?.storedData, stored.count > entry.bytes.count {
                    if stored.count >= entry.originalLength { cutRecords -= 1 }
                    entry.bytes = 0..<stored.count
                    if role == .h4, placeH4Record(entry, in: stored, frame: frame, at: base + start - 1) {
                        start -= 1
                    } else if let record = record(entry, in: stored, frame: frame) {
                        start -= 1
                        (base + start).initialize(to: record)
                    }
                    continue
                }
                if role == .h4, placeH4Record(entry, in: bytes, frame: frame, at: base + start - 1) {
                    start -= 1
                } else if let record = record(entry, in: bytes, frame: frame) {
                    start -= 1
                    (base + start).initialize(to: record)
                }
            }
            // Records libpcap returned but that do not decode leave room at the front.
            if start > 0 { base.moveInitialize(from: base + start, count: pulled.count - start) }
            initialized = pulled.count - start
        }
        guard ended else { return }
        // libpcap refuses a pcapng packet block that captured more than the snapshot length, but
        // has read past it and goes on: the walk, now at that block, reads its packet whole.
        let step = libpcapError == nil ? nil : walker?.nextAfterError(snapshotLength: snapshotLength)
        if case .frame(let frame)? = step?.0, let refused = step?.1, refused.linkType == linkType.rawValue,
           let stored = frame.storedData {
            recordNumber += 1
            if stored.count < refused.originalLength { cutRecords += 1 }
            let entry = Pulled(bytes: 0..<stored.count, originalLength: refused.originalLength,
                               seconds: refused.seconds, microseconds: refused.microseconds)
            if let record = record(entry, in: stored, frame: frame) { staged.insert(record, at: 0) }
            return
        }
        finish(libpcapError: libpcapError, step: step?.0)
    }

    /// The next record, made from its bytes in the chunk and its `frame` in the file; nil (with a
    /// diagnostic) when its link-type header does not decode.
    private func record(_ pulled: Pulled, in bytes: [UInt8], frame: PacketFrame?) -> CaptureRecord? {
        var reader = ByteReader(bytes, range: pulled.bytes, layer: .capture,
                                baseOffset: (frame?.dataOffset ?? 0) - pulled.bytes.lowerBound)
        let packet: PcapPacket
        do throws(DecodeError) {
            packet = try PcapPacket(parsing: &reader, linkType: linkType, role: role, flagsDirection: frame?.direction)
        } catch {
            log.add(.error, .other, record: recordNumber, at: frame?.offset, "undecodable record: \(error)")
            return nil
        }
        if packet.directionConflict && !reportedDirectionConflict {
            reportedDirectionConflict = true
            log.add(.warning, .other, record: recordNumber, at: frame?.offset,
                    "epb_flags direction contradicts the link-type 201 direction header; using the header")
        }
        return CaptureRecord(index: recordNumber, timestampUs: pulled.timestampUs, direction: packet.direction,
                             kind: packet.kind, sharing: packet.payload,
                             originalLength: max(pulled.originalLength - packet.consumedHeaderBytes, packet.payload.remaining),
                             fileOffset: frame?.offset ?? 0, adapter: packet.adapter)
    }

    /// `record(_:in:frame:)` of the usual H4 record (link types 187 and 201, ble-facts §4), read in
    /// place and made at `destination`: the type byte after the 201 direction word, the packet
    /// the rest. False (nothing made) for what `PcapPacket` is to decode or report: a record too
    /// short for its header, or whose 201 direction contradicts its pcapng flags. (Through a
    /// reader and a `PcapPacket`, a record would cost three more reference counts; returned, it
    /// would be copied once more into place.)
    private func placeH4Record(_ pulled: Pulled, in bytes: [UInt8], frame: PacketFrame?,
                               at destination: UnsafeMutablePointer<CaptureRecord>) -> Bool {
        let headerBytes = linkType == .bluetoothHCIH4WithPHDR ? 5 : 1
        let start = pulled.bytes.lowerBound
        // The record's range lies in `bytes` (the chunk it was copied into): its header is read
        // in place once it holds one.
        guard pulled.bytes.count >= headerBytes, pulled.bytes.upperBound <= bytes.count else { return false }
        let (word, type) = bytes.withUnsafeBytes { raw in
            (headerBytes == 5 ? UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt32.self)) : 0,
             raw[start + headerBytes - 1])
        }
        var direction = frame?.direction ?? .unknown
        if headerBytes == 5 {
            let header = PcapPacket.direction(phdr: word)
            if let flags = frame?.direction, flags != header { return false }
            direction = header
        }
        let payload = start + headerBytes..<pulled.bytes.upperBound
        destination.initialize(to: CaptureRecord(
            index: recordNumber, timestampUs: pulled.timestampUs, direction: direction,
            kind: H4PacketType(rawValue: type).kind, storage: bytes, payloadRange: payload,
            originalLength: max(pulled.originalLength - headerBytes, payload.count), fileOffset: frame?.offset ?? 0))
        return true
    }

    /// The walker's frame for the record libpcap just returned; a walker that falls out of step
    /// is dropped with one diagnostic (offsets and flags are then unknown). Inlined into the
    /// chunk's loop, which calls it for every record.
    @inline(__always)
    private func nextFrame(capturedLength: Int) -> PacketFrame? {
        guard let walker else { return nil }
        switch walker.next(capturedLength: capturedLength, clamp: snapshotLength) {
        case .frame(let frame):
            return frame
        case .lost(let offset, let reason):
            log.add(.warning, .other, record: recordNumber, at: offset,
                    "cannot walk the file beside libpcap (\(reason)); offsets and direction flags unavailable")
        case .end, .truncated:
            log.add(.warning, .other, record: recordNumber, at: nil,
                    "libpcap returned a record the block walk did not find; offsets and direction flags unavailable")
        }
        self.walker = nil
        return nil
    }

    /// `step`: the walk's next record after libpcap's error. libpcap reports a record or block
    /// cut short as an error: after a clean end of file the walk has nothing to add (and for
    /// classic pcap it would read the whole file again).
    private func finish(libpcapError: String?, step: FrameStep?) {
        finished = true
        if case .truncated(let offset, let have, let total, let header) = step {
            log.truncatedFinalRecord(record: recordNumber + 1, at: offset, have: have, total: total, header: header)
        } else if let libpcapError {
            log.add(.error, .other, record: recordNumber + 1, at: nil, "libpcap: \(libpcapError)")
        }
        log.finish(cutRecords: cutRecords, sourceError: nil)
    }
}
#endif

import BLEBase
import CPcap

/// Reads pcap and pcapng files through libpcap, with a `FrameWalker` in step with it for byte
/// offsets, truncation and pcapng direction flags (pcapng blocks are read a second time for
/// their flags; classic pcap records libpcap kept whole are placed from their lengths).
///
/// Limit: libpcap gives one link type per file; a pcapng file whose interfaces have different
/// link types stops at the first packet of another type with libpcap's error as a diagnostic.
final class PcapReader: RecordReader {
    let info: CaptureInfo
    private let handle: OpaquePointer
    private let linkType: LinkType
    private let role: LinkType.Role
    private var walker: (any FrameWalker)?
    /// The most bytes libpcap keeps of a record (the file's snapshot length, within libpcap's
    /// own cap): a record it returns shorter than this, it did not cut.
    private let snapshotLength: Int
    private var log: DiagnosticLog
    private var recordNumber = 0
    private var cutRecords = 0
    private var finished = false
    private var reportedDirectionConflict = false
    /// The current record's bytes, copied out of libpcap's buffer into storage kept from record
    /// to record (the packet's own bytes are then its one allocation).
    private var recordBytes: [UInt8] = []

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

        var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        guard let opened = pcap_open_offline_with_tstamp_precision(libpcapPath, UInt32(PCAP_TSTAMP_PRECISION_MICRO),
                                                                   &errorBuffer) else {
            let reason = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw CaptureError(file: path, message: "libpcap cannot read the \(container.rawValue) file: \(reason)")
        }
        let type = LinkType(rawValue: UInt32(truncatingIfNeeded: pcap_datalink(opened)))
        guard let role = type.role else {
            let name = pcap_datalink_val_to_name(Int32(bitPattern: type.rawValue)).map { String(cString: $0) } ?? "unknown"
            pcap_close(opened)
            throw CaptureError(file: path, message: "unsupported pcap link type \(type.rawValue) (\(name))")
        }
        handle = opened
        snapshotLength = Int(pcap_snapshot(opened))
        linkType = type
        self.role = role
        walker = container == .pcap ? PcapFrameWalker(input: walkerInput, bigEndian: bigEndian)
                                    : PcapngFrameWalker(input: walkerInput)
        log = DiagnosticLog(file: path)
        info = CaptureInfo(path: path, container: container,
                           linkTypeDescription: "\(container.rawValue) link type \(type.rawValue) (\(type.name))",
                           linkType: type.rawValue, compressed: compressed)
    }

    deinit {
        pcap_close(handle)
    }

    func next() -> CaptureRecord? {
        while !finished {
            var header: UnsafeMutablePointer<pcap_pkthdr>?
            var data: UnsafePointer<UInt8>?
            let status = pcap_next_ex(handle, &header, &data)
            guard status == 1, let header, let data else {
                return finish(libpcapError: status == PCAP_ERROR ? String(cString: pcap_geterr(handle)) : nil)
            }
            recordNumber += 1
            let frame = nextFrame(capturedLength: Int(header.pointee.caplen))
            recordBytes.removeAll(keepingCapacity: true)
            recordBytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(header.pointee.caplen)))
            let originalLength = Int(header.pointee.len)
            var reader = ByteReader(recordBytes, layer: .capture, baseOffset: frame?.dataOffset ?? 0)
            let packet: PcapPacket
            do throws(DecodeError) {
                packet = try PcapPacket(parsing: &reader, linkType: linkType, role: role, flagsDirection: frame?.direction)
            } catch {
                log.add(.error, .other, record: recordNumber, at: frame?.offset, "undecodable record: \(error)")
                continue
            }
            if packet.directionConflict && !reportedDirectionConflict {
                reportedDirectionConflict = true
                log.add(.warning, .other, record: recordNumber, at: frame?.offset,
                        "epb_flags direction contradicts the link-type 201 direction header; using the header")
            }
            if recordBytes.count < originalLength { cutRecords += 1 }
            let seconds = Int64(header.pointee.ts.tv_sec)
            let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
            let timestamp = overflow ? (seconds < 0 ? Int64.min : Int64.max) : scaled &+ Int64(header.pointee.ts.tv_usec)
            return CaptureRecord(index: recordNumber, timestampUs: timestamp, direction: packet.direction,
                                 kind: packet.kind, sharing: packet.payload,
                                 originalLength: max(originalLength - packet.consumedHeaderBytes, packet.payload.remaining),
                                 fileOffset: frame?.offset ?? 0, adapter: packet.adapter)
        }
        return nil
    }

    /// The walker's frame for the record libpcap just returned; a walker that falls out of step
    /// is dropped with one diagnostic (offsets and flags are then unknown).
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

    private func finish(libpcapError: String?) -> CaptureRecord? {
        finished = true
        // libpcap reports a record or block cut short as an error: after a clean end of file the
        // walk has nothing to add (and for classic pcap it would read the whole file again).
        let step = libpcapError == nil ? nil : walker?.next()
        if case .truncated(let offset, let have, let total, let header) = step {
            log.truncatedFinalRecord(record: recordNumber + 1, at: offset, have: have, total: total, header: header)
        } else if let libpcapError {
            log.add(.error, .other, record: recordNumber + 1, at: nil, "libpcap: \(libpcapError)")
        }
        log.finish(cutRecords: cutRecords, sourceError: nil)
        return nil
    }
}

import BLEBase

/// Where one packet record sits in a pcap or pcapng file, and the pcapng direction flags.
struct PacketFrame: Equatable {
    var offset: Int
    /// The record's whole size in the file, header included.
    var size: Int
    /// Offset of the packet bytes (after the record or block header).
    var dataOffset: Int
    /// `epb_flags` bits 0–1 as a direction (pcapng only; nil when absent or 0).
    var direction: Direction?
    /// The packet's bytes as the file holds them, when asked for because libpcap may have cut
    /// them to the snapshot length and the file holds more.
    var storedData: [UInt8]? = nil
}

enum FrameStep: Equatable {
    case frame(PacketFrame)
    /// The file ends `have` bytes into a record of `total` bytes (`header`: into its fixed header).
    case truncated(offset: Int, have: Int, total: Int, header: Bool)
    case end
    /// The walk cannot go on (a block length no block can have).
    case lost(offset: Int, reason: String)
}

/// Follows a pcap or pcapng file's records in step with libpcap, for what libpcap does not
/// expose: file offsets, the exact place of a truncated final record, and pcapng EPB flags.
/// An enum over the two walkers rather than a protocol: called through `any`, each record would
/// cost an existential call and two reference counts.
enum FrameWalker {
    case pcap(PcapFrameWalker)
    case pcapng(PcapngFrameWalker)

    /// The next record's frame, read from the file.
    func next() -> FrameStep {
        switch self {
        case .pcap(let walker): walker.next()
        case .pcapng(let walker): walker.next()
        }
    }

    /// After libpcap's error: the next record's frame and, when it is a pcapng packet block
    /// libpcap refused for capturing more than `snapshotLength` bytes, its packet (the frame's
    /// `storedData`) and what its block says of it.
    func nextAfterError(snapshotLength: Int) -> (FrameStep, RefusedPacket?) {
        switch self {
        case .pcap(let walker): (walker.next(), nil)
        case .pcapng(let walker): (walker.next(refusedAbove: snapshotLength), walker.refused)
        }
    }

    /// The frame of the record libpcap just read, which kept `capturedLength` bytes of it; a
    /// libpcap that kept fewer than `clamp` bytes did not cut the record. When it may have,
    /// a pcap frame carries the packet bytes the file holds if they are more (`storedData`);
    /// libpcap refuses a pcapng packet longer than its interface's snapshot length instead.
    func next(capturedLength: Int, clamp: Int) -> FrameStep {
        switch self {
        case .pcap(let walker): walker.next(capturedLength: capturedLength, clamp: clamp)
        case .pcapng(let walker): walker.next()
        }
    }
}

/// Classic pcap records: a 24-byte file header, then per record a 16-byte header whose third
/// field is the captured length (tcpdump.org pcap file format).
///
/// ```
/// +----------+----------+----------+----------+----------------------+
/// | ts_sec   | ts_usec  | incl_len | orig_len | packet (incl_len)    |
/// | u32      | u32      | u32      | u32      |                      |
/// +----------+----------+----------+----------+----------------------+
/// ```
final class PcapFrameWalker {
    static let fileHeaderSize = 24
    static let recordHeaderSize = 16
    private let input: BufferedInput
    private let bigEndian: Bool
    /// Where the next record starts: ahead of `input` while records are placed from libpcap's
    /// lengths alone.
    private var nextOffset = PcapFrameWalker.fileHeaderSize

    /// `input` is positioned at the file header; `bigEndian` comes from the magic.
    init(input: BufferedInput, bigEndian: Bool) {
        self.input = input
        self.bigEndian = bigEndian
        _ = input.skip(Self.fileHeaderSize)
    }

    /// Records follow one another, each its 16-byte header and its captured bytes: a record
    /// libpcap did not cut is placed from its length without reading the file a second time
    /// (a large share of the reading thread's work). A record libpcap may have cut to its
    /// snapshot length is read from the file.
    func next(capturedLength: Int, clamp: Int) -> FrameStep {
        guard capturedLength < clamp else { return next(keepingBeyond: capturedLength) }
        let frame = PacketFrame(offset: nextOffset, size: Self.recordHeaderSize + capturedLength,
                                dataOffset: nextOffset + Self.recordHeaderSize, direction: nil)
        nextOffset += frame.size
        return .frame(frame)
    }

    /// `keepingBeyond`: return the packet bytes (`storedData`) when the record holds more.
    func next(keepingBeyond kept: Int? = nil) -> FrameStep {
        if input.offset < nextOffset {
            let gap = nextOffset - input.offset
            guard input.skip(gap) == gap else { return .end }
        }
        defer { nextOffset = input.offset }
        let offset = input.offset
        var reader = input.peek(Self.recordHeaderSize)
        if reader.isAtEnd { return .end }
        guard reader.remaining == Self.recordHeaderSize,
              (try? reader.skip(8)) != nil,
              let included = try? reader.readUnsigned(4, bigEndian: bigEndian, field: "incl_len") else {
            return .truncated(offset: offset, have: reader.remaining, total: Self.recordHeaderSize, header: true)
        }
        let total = Self.recordHeaderSize + Int(included)
        if let kept, Int(included) > kept, let record = input.take(total) {
            return .frame(PacketFrame(offset: offset, size: total, dataOffset: offset + Self.recordHeaderSize,
                                      direction: nil, storedData: Array(record.dropFirst(Self.recordHeaderSize))))
        }
        let skipped = input.skip(total)
        guard skipped == total else { return .truncated(offset: offset, have: skipped, total: total, header: false) }
        return .frame(PacketFrame(offset: offset, size: total, dataOffset: offset + Self.recordHeaderSize, direction: nil))
    }
}

/// pcapng blocks (draft-ietf-opsawg-pcapng §3–§4): yields one frame per packet block (Enhanced,
/// Simple, obsolete Packet) with the direction bits of its flags option, and skips other blocks.
///
/// ```
/// +------------+--------------+--------------------------+--------------+
/// | block type | total length | body                     | total length |
/// | u32        | u32          | (total length - 12)      | u32          |
/// +------------+--------------+--------------------------+--------------+
/// ```
final class PcapngFrameWalker {
    static let sectionHeaderType: UInt32 = 0x0A0D_0D0A
    static let packetBlockType: UInt32 = 2
    static let simplePacketBlockType: UInt32 = 3
    static let enhancedPacketBlockType: UInt32 = 6
    static let interfaceDescriptionType: UInt32 = 1
    /// libpcap's own cap on a block's size.
    static let maximumBlockLength = 16 * 1024 * 1024
    /// The `epb_flags` / `pack_flags` option code (pcapng §4.3.1).
    static let flagsOptionCode: UInt16 = 2

    private let input: BufferedInput
    /// From the byte-order magic of the current section header.
    private var bigEndian = false
    /// The current section's interfaces, in order (an interface ID is an index, pcapng §4.2).
    private var interfaces: [PcapngInterface] = []
    /// The last packet `next(refusedAbove:)` read whole from the file.
    private(set) var refused: RefusedPacket?

    init(input: BufferedInput) {
        self.input = input
    }

    func next() -> FrameStep { next(refusedAbove: nil) }

    /// `refusedAbove`: libpcap refuses a packet block that captured more than its snapshot length
    /// (sf-pcapng.c, "bigger than snaplen"); such a block's packet is returned in `storedData`
    /// with its time and lengths in `refused`.
    func next(refusedAbove snapshotLength: Int?) -> FrameStep {
        refused = nil
        while true {
            let offset = input.offset
            let head = blockHead()
            if head.have == 0 { return .end }
            // The block type, then its total length; a section header sets its byte order first.
            guard head.have >= 8 else { return .truncated(offset: offset, have: head.have, total: 8, header: true) }
            let type = UInt32(littleEndian: head.type)
            if type == Self.sectionHeaderType {
                // The byte-order magic 0x1A2B3C4D follows the length and sets the section's order.
                guard let magic = head.third else { return .truncated(offset: offset, have: head.have, total: 12, header: true) }
                bigEndian = UInt32(bigEndian: magic) == 0x1A2B_3C4D
            }
            let length = Int(bigEndian ? UInt32(bigEndian: head.length) : UInt32(littleEndian: head.length))
            guard length >= 12, length % 4 == 0, length <= Self.maximumBlockLength else {
                return .lost(offset: offset, reason: "block at byte \(offset) has impossible total length \(length)")
            }
            guard let block = input.takeReader(length) else {
                return .truncated(offset: offset, have: input.fill(length), total: length, header: false)
            }
            let blockType = type == Self.sectionHeaderType ? type : (bigEndian ? type.byteSwapped : type)
            switch blockType {
            case Self.enhancedPacketBlockType, Self.packetBlockType:
                // EPB and PB bodies start 28 bytes in; their headers are 8 + 20 bytes.
                var frame = PacketFrame(offset: offset, size: length, dataOffset: offset + 28,
                                        direction: packetFlagsDirection(block))
                if let snapshotLength, let packet = wholePacket(block, type: blockType, above: snapshotLength) {
                    frame.storedData = packet.bytes
                    refused = packet.refused
                }
                return .frame(frame)
            case Self.sectionHeaderType:
                interfaces.removeAll()
            case Self.interfaceDescriptionType:
                interfaces.append(interface(block))
            case Self.simplePacketBlockType:
                // SPB: type, length, original length, then the packet (§4.4).
                return .frame(PacketFrame(offset: offset, size: length, dataOffset: offset + 12, direction: nil))
            default:
                continue
            }
        }
    }

    /// A packet block's fields in the section's byte order: EPB (§4.3) interface ID u32, PB
    /// (Appendix A) interface ID u16 and drops u16; then both timestamp high and low u32,
    /// captured u32, original u32, the packet. The packet's bytes and their time when it
    /// captured more than `snapshotLength` and fits its block; nil otherwise.
    private func wholePacket(_ block: ByteReader, type: UInt32, above snapshotLength: Int)
        -> (bytes: [UInt8], refused: RefusedPacket)? {
        var fields = block, trailer = block
        let bigEndian = bigEndian
        // libpcap refuses a block whose trailing total length differs for that reason instead.
        guard (try? trailer.skip(block.remaining - 4)) != nil,
              (try? trailer.readUnsigned(4, bigEndian: bigEndian, field: "total length")) == UInt64(block.remaining),
              (try? fields.skip(8)) != nil,
              let id = try? (type == Self.packetBlockType ? fields.readUnsigned(2, bigEndian: bigEndian, field: "interface")
                                                            : fields.readUnsigned(4, bigEndian: bigEndian, field: "interface")),
              (try? fields.skip(type == Self.packetBlockType ? 2 : 0)) != nil,
              let high = try? fields.readUnsigned(4, bigEndian: bigEndian, field: "timestamp"),
              let low = try? fields.readUnsigned(4, bigEndian: bigEndian, field: "timestamp"),
              let captured = try? fields.readUnsigned(4, bigEndian: bigEndian, field: "captured length"),
              let original = try? fields.readUnsigned(4, bigEndian: bigEndian, field: "original length"),
              Int(captured) > snapshotLength, Int(captured) <= fields.remaining - 4,
              Int(id) < interfaces.count, let time = interfaces[Int(id)].time(UInt64(high) << 32 | UInt64(low)),
              let bytes = try? fields.readBytes(Int(captured), "packet") else { return nil }
        return (bytes, RefusedPacket(seconds: time.seconds, microseconds: time.microseconds,
                                     originalLength: Int(original), linkType: interfaces[Int(id)].linkType))
    }

    /// IDB (§4.2): link type u16, reserved u16, snaplen u32, then options; `if_tsresol` (9) and
    /// `if_tsoffset` (14) give its packets' time.
    private func interface(_ block: ByteReader) -> PcapngInterface {
        var fields = block
        let bigEndian = bigEndian
        var result = PcapngInterface(linkType: 0)
        guard (try? fields.skip(8)) != nil,
              let linkType = try? fields.readUnsigned(2, bigEndian: bigEndian, field: "link type"),
              (try? fields.skip(6)) != nil,
              var options = try? fields.slice(byteCount: fields.remaining - 4) else { return PcapngInterface(linkType: UInt32.max) }
        result.linkType = UInt32(linkType)
        while options.remaining >= 4 {
            guard let code = try? options.readUnsigned(2, bigEndian: bigEndian, field: "option"),
                  let length = try? options.readUnsigned(2, bigEndian: bigEndian, field: "option length"),
                  code != 0, var value = try? options.slice(byteCount: Int(length)),
                  (try? options.skip(min((4 - Int(length) % 4) % 4, options.remaining))) != nil else { break }
            if code == 9, length == 1, let byte = try? value.readUInt8("if_tsresol") {
                result.resolution = byte
            } else if code == 14, length == 8, let offset = try? value.readUnsigned(8, bigEndian: bigEndian, field: "if_tsoffset") {
                result.offsetSeconds = Int64(bitPattern: offset)
            }
        }
        return result
    }

    /// The next block's first three words as stored (the type, the total length, a section
    /// header's byte-order magic), read in place, and how many of its first 12 bytes there are
    /// (one check a block rather than one a word).
    private func blockHead() -> (have: Int, type: UInt32, length: UInt32, third: UInt32?) {
        let have = min(input.fill(12), 12)
        guard have >= 8 else { return (have, 0, 0, nil) }
        return input.withUnreadBytes { raw in
            (have, raw.loadUnaligned(as: UInt32.self), raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
             have >= 12 ? raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self) : nil)
        }
    }

    /// EPB (§4.3): type, length, interface id u32, timestamp 2×u32, captured u32, original u32,
    /// data padded to 32 bits, options, then the length again. The obsolete Packet Block
    /// (Appendix A) has interface id and drops count as two u16 instead of the u32 interface id;
    /// otherwise the same. Fields read in place, without a reader per block; nil when the flags
    /// are absent or do not fit.
    private func packetFlagsDirection(_ block: ByteReader) -> Direction? {
        let start = block.position
        // Options end before the trailing total length; the captured length is at byte 20.
        let optionsEnd = block.endIndex - 4
        guard optionsEnd - start >= 24 else { return nil }
        let bigEndian = bigEndian
        return block.storage.withUnsafeBytes { raw -> Direction? in
            // Every read below ends by `optionsEnd`, inside the block.
            func u16(_ at: Int) -> Int {
                let value = raw.loadUnaligned(fromByteOffset: at, as: UInt16.self)
                return Int(bigEndian ? UInt16(bigEndian: value) : UInt16(littleEndian: value))
            }
            func u32(_ at: Int) -> Int {
                let value = raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)
                return Int(bigEndian ? UInt32(bigEndian: value) : UInt32(littleEndian: value))
            }
            var option = start + 28 + ((u32(start + 20) + 3) & ~3)
            while option + 4 <= optionsEnd {
                let code = u16(option), length = u16(option + 2)
                guard code != 0 else { return nil }
                if code == Int(Self.flagsOptionCode), length == 4 {
                    guard option + 8 <= optionsEnd else { return nil }
                    // Bits 0–1: 01 inbound (received by the host), 10 outbound (sent).
                    switch u32(option + 4) & 0x3 {
                    case 1: return .received
                    case 2: return .sent
                    default: return nil
                    }
                }
                option += 4 + ((length + 3) & ~3)
            }
            return nil
        }
    }
}

/// What a packet block libpcap refused says of its packet (its bytes are the frame's `storedData`).
struct RefusedPacket: Equatable {
    var seconds: Int64
    var microseconds: Int64
    var originalLength: Int
    var linkType: UInt32
}

/// One pcapng interface: its link type and the resolution and offset of its timestamps.
struct PcapngInterface {
    var linkType: UInt32
    /// `if_tsresol`: bit 7 clear, 10^-n seconds; set, 2^-n seconds (default 10^-6, pcapng §4.2).
    var resolution: UInt8 = 6
    /// `if_tsoffset`: seconds added to every timestamp.
    var offsetSeconds: Int64 = 0

    /// A timestamp in whole seconds and microseconds, as libpcap gives it at microsecond
    /// precision (the fraction scaled down, truncated); nil for a resolution libpcap refuses.
    func time(_ ticks: UInt64) -> (seconds: Int64, microseconds: Int64)? {
        let exponent = Int(resolution & 0x7F)
        let binary = resolution & 0x80 != 0
        guard binary ? exponent < 64 : exponent < 20 else { return nil }
        var perSecond: UInt64 = 1
        for _ in 0..<exponent { perSecond = binary ? perSecond << 1 : perSecond * 10 }
        let fraction = ticks % perSecond
        let scaled = perSecond.dividingFullWidth(fraction.multipliedFullWidth(by: 1_000_000)).quotient
        return (Int64(truncatingIfNeeded: ticks / perSecond) &+ offsetSeconds, Int64(scaled))
    }
}

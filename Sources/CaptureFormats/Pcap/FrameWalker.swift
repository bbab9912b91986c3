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
/// An enum over the two walkers rather than a protocol: called through `any`, each record cost
/// an existential call and two reference counts.
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
    /// libpcap's own cap on a block's size.
    static let maximumBlockLength = 16 * 1024 * 1024
    /// The `epb_flags` / `pack_flags` option code (pcapng §4.3.1).
    static let flagsOptionCode: UInt16 = 2

    private let input: BufferedInput
    /// From the byte-order magic of the current section header.
    private var bigEndian = false

    init(input: BufferedInput) {
        self.input = input
    }

    func next() -> FrameStep {
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
                return .frame(PacketFrame(offset: offset, size: length, dataOffset: offset + 28,
                                          direction: packetFlagsDirection(block)))
            case Self.simplePacketBlockType:
                // SPB: type, length, original length, then the packet (§4.4).
                return .frame(PacketFrame(offset: offset, size: length, dataOffset: offset + 12, direction: nil))
            default:
                continue
            }
        }
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

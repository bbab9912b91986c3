import BLEBase

/// An Apple PacketLogger record header (ble-facts §2). There is no file header; records follow
/// one another. Old files are big-endian ("v1"), newer ones little-endian ("v2").
///
/// ```
/// +-----------+-----------+-----------+------+----------------------+
/// | length    | ts_secs   | ts_usecs  | type | payload              |
/// | u32       | u32       | u32       | u8   | length - 9 bytes     |
/// +-----------+-----------+-----------+------+----------------------+
///   length counts everything after itself
/// ```
struct PacketLoggerRecordHeader: Equatable {
    static let size = 13
    /// Bytes after the length field that are header, not payload.
    static let headerAfterLength = 9
    /// The longest record: a 64 KiB payload plus the header after the length field.
    static let maximumLength: UInt32 = 65_536 + 9
    /// A resynchronised record must lie within a day of the previous one.
    static let plausibleGapSeconds: Int64 = 86_400

    var length: UInt32
    var seconds: UInt32
    var microseconds: UInt32
    var type: PacketLoggerType

    /// Read as one block, as the btsnoop record header is (one check a record rather than one a
    /// field); a reader short of the 13 bytes reads nothing.
    @inline(__always)
    init(parsing reader: inout ByteReader, bigEndian: Bool) throws(DecodeError) {
        (length, seconds, microseconds, type) = try reader.readBlock(Self.size, "record header") { raw in
            func word(_ offset: Int) -> UInt32 {
                let value = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                return bigEndian ? UInt32(bigEndian: value) : UInt32(littleEndian: value)
            }
            return (word(0), word(4), word(8), PacketLoggerType(rawValue: raw[12]))
        }
    }

    var hasPossibleLength: Bool {
        length >= UInt32(Self.headerAfterLength) && length <= Self.maximumLength
    }

    /// A header that could start a record: possible length, microseconds below a second, a
    /// known type, and (when given) a time within a day of `previousSeconds`.
    func isPlausible(after previousSeconds: UInt32?) -> Bool {
        guard hasPossibleLength, microseconds < 1_000_000, type.isKnown else { return false }
        guard let previousSeconds else { return true }
        return abs(Int64(seconds) - Int64(previousSeconds)) <= Self.plausibleGapSeconds
    }

    var unixMicroseconds: Int64 { Int64(seconds) * 1_000_000 + Int64(microseconds) }
}

/// Which byte order a PacketLogger file uses, decided from its first records the way Wireshark
/// and BlueZ decide: possible lengths, microseconds below one second, known types, times within
/// a day of each other. The first two records must pass (the first alone in a one-record file);
/// a failure among records three to five is left to the reader to report, so that a file
/// damaged early is still read up to the damage.
enum PacketLoggerDetection {
    static let recordsChecked = 5
    static let recordsRequired = 2

    /// The byte order (true: big-endian) whose reading of `reader` passes the checks; nil when
    /// neither does.
    static func byteOrder(of reader: ByteReader) -> Bool? {
        for bigEndian in [true, false] where plausible(reader, bigEndian: bigEndian) {
            return bigEndian
        }
        return nil
    }

    private static func plausible(_ start: ByteReader, bigEndian: Bool) -> Bool {
        var reader = start
        var checked = 0
        var previous: UInt32?
        while checked < recordsChecked, reader.remaining >= PacketLoggerRecordHeader.size {
            guard let header = try? PacketLoggerRecordHeader(parsing: &reader, bigEndian: bigEndian),
                  header.isPlausible(after: previous) else { return checked >= recordsRequired }
            checked += 1
            previous = header.seconds
            let payload = Int(header.length) - PacketLoggerRecordHeader.headerAfterLength
            guard (try? reader.skip(payload)) != nil else { break }
        }
        // Five good records, or fewer with nothing after them.
        return checked > 0
    }
}

import BLEBase

/// The end of central directory record (PKWARE APPNOTE.TXT §4.3.16), the last structure of a
/// zip file; only a comment may follow it.
///
/// ```
/// +-----------+------+---------+---------------+---------+--------+-----------+-------------+
/// | signature | disk | cd disk | entries here  | entries | cd size| cd offset | comment len |
/// | u32 LE    | u16  | u16     | u16           | u16     | u32    | u32       | u16 + text  |
/// +-----------+------+---------+---------------+---------+--------+-----------+-------------+
/// ```
struct ZipEndOfCentralDirectory: Equatable {
    static let size = 22
    static let signature: UInt32 = 0x0605_4B50

    var entries: UInt16
    var directorySize: UInt32
    var directoryOffset: UInt32
    var commentLength: UInt16

    init(parsing reader: inout ByteReader) throws(DecodeError) {
        let at = reader.reportedOffset
        guard try reader.readUInt32LE("signature") == Self.signature else {
            throw DecodeError.invalid(layer: .capture, field: "signature", at: at, reason: "not PK\\5\\6")
        }
        try reader.skip(6, "disk numbers and entries on this disk")
        entries = try reader.readUInt16LE("entries")
        directorySize = try reader.readUInt32LE("central directory size")
        directoryOffset = try reader.readUInt32LE("central directory offset")
        commentLength = try reader.readUInt16LE("comment length")
    }

    /// APPNOTE §4.4.1.4: all-ones values mean the real ones are in the ZIP64 record.
    var isZip64: Bool { entries == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF }
}

/// A central directory file header (APPNOTE §4.3.12): one per entry, in the directory.
///
/// ```
/// +--------+---------+--------+-------+--------+----------+-------+-----------+-------------+
/// | sig    | made by | needed | flags | method | time     | date  | crc-32    | comp size   |
/// | u32 LE | u16     | u16    | u16   | u16    | u16      | u16   | u32       | u32         |
/// +--------+---------+--------+-------+--------+----------+-------+-----------+-------------+
/// | size   | name len| extra len | comment len | disk | int attr | ext attr | local offset |
/// | u32    | u16     | u16       | u16         | u16  | u16      | u32      | u32          |
/// +--------+---------+-----------+-------------+------+----------+----------+--------------+
/// | name | extra | comment |
/// ```
struct ZipCentralEntry: Equatable {
    static let fixedSize = 46
    static let signature: UInt32 = 0x0201_4B50

    var flags: UInt16
    var method: UInt16
    var compressedSize: UInt32
    var localHeaderOffset: UInt32
    var name: String

    init(parsing reader: inout ByteReader) throws(DecodeError) {
        let at = reader.reportedOffset
        guard try reader.readUInt32LE("signature") == Self.signature else {
            throw DecodeError.invalid(layer: .capture, field: "signature", at: at, reason: "not PK\\1\\2")
        }
        try reader.skip(4, "versions")
        flags = try reader.readUInt16LE("flags")
        method = try reader.readUInt16LE("method")
        try reader.skip(8, "time, date and crc-32")
        compressedSize = try reader.readUInt32LE("compressed size")
        try reader.skip(4, "uncompressed size")
        let nameLength = Int(try reader.readUInt16LE("name length"))
        let extraLength = Int(try reader.readUInt16LE("extra length"))
        let commentLength = Int(try reader.readUInt16LE("comment length"))
        try reader.skip(8, "disk and attributes")
        localHeaderOffset = try reader.readUInt32LE("local header offset")
        name = String(decoding: try reader.readBytes(nameLength, "name"), as: UTF8.self)
        try reader.skip(extraLength + commentLength, "extra field and comment")
    }

    /// APPNOTE §4.4.4 bit 0: the entry is encrypted.
    var isEncrypted: Bool { flags & 0x1 != 0 }
}

/// A local file header (APPNOTE §4.3.7); the entry's data follows its name and extra field.
///
/// ```
/// +--------+--------+-------+--------+------+------+--------+-----------+------+----------+-----------+
/// | sig    | needed | flags | method | time | date | crc-32 | comp size | size | name len | extra len |
/// | u32 LE | u16    | u16   | u16    | u16  | u16  | u32    | u32       | u32  | u16      | u16       |
/// +--------+--------+-------+--------+------+------+--------+-----------+------+----------+-----------+
/// ```
struct ZipLocalHeader: Equatable {
    static let size = 30
    static let signature: UInt32 = 0x0403_4B50

    /// Name and extra field: the bytes between this header and the entry's data.
    var variableLength: Int

    init(parsing reader: inout ByteReader) throws(DecodeError) {
        let at = reader.reportedOffset
        guard try reader.readUInt32LE("signature") == Self.signature else {
            throw DecodeError.invalid(layer: .capture, field: "signature", at: at, reason: "not PK\\3\\4")
        }
        // Sizes and crc may be zero here (bit 3, data descriptor): the central directory's count.
        try reader.skip(22, "versions, flags, method, time, date, crc-32 and sizes")
        variableLength = Int(try reader.readUInt16LE("name length")) + Int(try reader.readUInt16LE("extra length"))
    }
}

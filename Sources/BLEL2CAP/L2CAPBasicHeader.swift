import BLEBase

/// The basic L2CAP header that starts every B-frame (Core v5.4 Vol 3 Part A §3.1).
///
/// ```
/// 0        2        4
/// +--------+--------+---------------------+
/// | length | CID    | information payload |
/// +--------+--------+---------------------+
///   u16 LE   u16 LE   `length` bytes
/// ```
public struct L2CAPBasicHeader: Sendable, Equatable {
    /// Size of the header on the wire.
    public static let size = 4

    /// Length of the information payload, header excluded.
    public var length: UInt16
    public var channelID: ChannelID

    public init(length: UInt16, channelID: ChannelID) {
        self.length = length
        self.channelID = channelID
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        length = try reader.readUInt16LE("L2CAP length")
        channelID = ChannelID(rawValue: try reader.readUInt16LE("L2CAP channel ID"))
    }

    public func append(to writer: inout ByteWriter) {
        writer.writeUInt16LE(length)
        writer.writeUInt16LE(channelID.rawValue)
    }
}

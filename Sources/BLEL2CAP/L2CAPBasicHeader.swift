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

    /// The whole PDU's size, this header included.
    public var pduByteCount: Int { Int(length) + Self.size }

    /// What a start fragment too short for its PDU announces: its header, and the first byte of
    /// the payload when the fragment reaches it (on ATT and SMP, the PDU's opcode or code). Nil
    /// for a fragment that holds its whole PDU, or not even the header.
    public static func announced(byStart fragment: [UInt8]) -> (header: L2CAPBasicHeader, firstByte: UInt8?)? {
        var reader = ByteReader(fragment, layer: .l2cap)
        guard let header = try? L2CAPBasicHeader(parsing: &reader), reader.remaining < Int(header.length) else { return nil }
        return (header, try? reader.peekUInt8("first payload byte"))
    }

    public func append(to writer: inout ByteWriter) {
        writer.writeUInt16LE(length)
        writer.writeUInt16LE(channelID.rawValue)
    }
}

import BLEBase

/// A handle and a value: Write Request (§3.4.5.1), Write Command (§3.4.5.3), Handle Value
/// Notification (§3.4.7.1) and Indication (§3.4.7.2).
///
/// ```
/// 0                  2
/// +------------------+-----------------+
/// | attribute handle | attribute value |
/// +------------------+-----------------+
///   u16 LE             rest
/// ```
public struct ATTHandleValue: Sendable, Equatable {
    public var handle: UInt16
    /// Shared with the record's bytes, not copied: most PDUs are these, and their values only
    /// pass through (`ByteView`).
    public var value: ByteView

    public init(handle: UInt16, value: ByteView) {
        self.handle = handle
        self.value = value
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        handle = try reader.readUInt16LE("attribute handle")
        value = reader.readRemainingView()
    }
}

/// Prepare Write Request and Response parameters (§3.4.6.1, §3.4.6.2).
///
/// ```
/// 0                  2              4
/// +------------------+--------------+----------------------+
/// | attribute handle | value offset | part attribute value |
/// +------------------+--------------+----------------------+
///   u16 LE             u16 LE         rest
/// ```
public struct ATTPrepareWrite: Sendable, Equatable {
    public var handle: UInt16
    public var offset: UInt16
    public var value: [UInt8]

    public init(handle: UInt16, offset: UInt16, value: [UInt8]) {
        self.handle = handle
        self.offset = offset
        self.value = value
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        handle = try reader.readUInt16LE("attribute handle")
        offset = try reader.readUInt16LE("value offset")
        value = reader.readRemainingBytes()
    }
}

/// Execute Write Request flags (§3.4.6.3): 0x00 cancel, 0x01 write; others reserved.
public struct ATTExecuteWriteFlags: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let cancel = Self(rawValue: 0x00)
    public static let write = Self(rawValue: 0x01)

    public var name: String {
        switch rawValue {
        case 0x00: return "Cancel all prepared writes"
        case 0x01: return "Immediately write all pending prepared values"
        default: return "Unknown (\(Hex.code(rawValue)))"
        }
    }
}

/// One Length Value Tuple of a Read Multiple Variable Response (§3.4.4.12).
///
/// ```
/// 0              2
/// +--------------+----------------------+
/// | value length | attribute value      |
/// +--------------+----------------------+
///   u16 LE         `value length` bytes
/// ```
/// The response stops at ATT_MTU, so the last value may hold fewer bytes than its length says.
public struct ATTLengthValue: Sendable, Equatable {
    public var length: UInt16
    public var value: [UInt8]

    public init(length: UInt16, value: [UInt8]) {
        self.length = length
        self.value = value
    }

    /// True when the MTU cut this value short.
    public var isTruncated: Bool { value.count < Int(length) }

    static func list(parsing reader: inout ByteReader) throws(DecodeError) -> [Self] {
        var tuples: [Self] = []
        while !reader.isAtEnd {
            let length = try reader.readUInt16LE("value length")
            tuples.append(Self(length: length, value: try reader.readBytes(min(Int(length), reader.remaining), "attribute value")))
        }
        return tuples
    }
}

/// One Handle Length Value Tuple of a Multiple Handle Value Notification (§3.4.7.4).
///
/// ```
/// 0                  2              4
/// +------------------+--------------+----------------------+
/// | attribute handle | value length | attribute value      |
/// +------------------+--------------+----------------------+
///   u16 LE             u16 LE         `value length` bytes
/// ```
public struct ATTHandleLengthValue: Sendable, Equatable {
    public var handle: UInt16
    public var value: [UInt8]

    public init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        handle = try reader.readUInt16LE("attribute handle")
        let length = try reader.readUInt16LE("value length")
        value = try reader.readBytes(Int(length), "attribute value")
    }

    static func list(parsing reader: inout ByteReader) throws(DecodeError) -> [Self] {
        var tuples: [Self] = []
        while !reader.isAtEnd { tuples.append(try Self(parsing: &reader)) }
        return tuples
    }
}

/// Signed Write Command parameters (§3.4.5.4).
///
/// ```
/// 0                  2
/// +------------------+-----------------+-----------------------------+
/// | attribute handle | attribute value | authentication signature    |
/// +------------------+-----------------+-----------------------------+
///   u16 LE             rest − 12         12 bytes (sign counter + MAC)
/// ```
public struct ATTSignedWrite: Sendable, Equatable {
    public static let signatureSize = 12

    public var handle: UInt16
    public var value: [UInt8]
    public var signature: [UInt8]

    public init(handle: UInt16, value: [UInt8], signature: [UInt8]) {
        self.handle = handle
        self.value = value
        self.signature = signature
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        handle = try reader.readUInt16LE("attribute handle")
        guard reader.remaining >= Self.signatureSize else {
            throw DecodeError.truncated(layer: reader.layer, field: "authentication signature", at: reader.reportedOffset,
                                        needed: Self.signatureSize, available: reader.remaining)
        }
        value = try reader.readBytes(reader.remaining - Self.signatureSize, "attribute value")
        signature = try reader.readBytes(Self.signatureSize, "authentication signature")
    }
}

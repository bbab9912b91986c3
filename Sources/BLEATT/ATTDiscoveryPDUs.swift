import BLEBase

/// Error Response parameters (Core v5.4 Vol 3 Part F §3.4.1.1).
///
/// ```
/// 0                1                  3            4
/// +----------------+------------------+------------+
/// | request opcode | attribute handle | error code |
/// +----------------+------------------+------------+
///   u8               u16 LE             u8
/// ```
public struct ATTErrorResponse: Sendable, Equatable {
    public var requestOpcode: ATTOpcode
    /// The handle the request failed on (0x0000 when none applies).
    public var handle: UInt16
    public var errorCode: ATTErrorCode

    public init(requestOpcode: ATTOpcode, handle: UInt16, errorCode: ATTErrorCode) {
        self.requestOpcode = requestOpcode
        self.handle = handle
        self.errorCode = errorCode
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        requestOpcode = ATTOpcode(rawValue: try reader.readUInt8("request opcode in error"))
        handle = try reader.readUInt16LE("attribute handle in error")
        errorCode = ATTErrorCode(rawValue: try reader.readUInt8("error code"))
    }

    /// Attribute Not Found ending a discovery procedure: not a failure.
    public var isNormalEndOfDiscovery: Bool {
        ATTErrorCode.isNormalEndOfDiscovery(errorCode: errorCode, requestOpcode: requestOpcode)
    }
}

/// A handle range (Find Information Request §3.4.3.1, and the start of the other range requests).
///
/// ```
/// 0              2            4
/// +--------------+------------+
/// | start handle | end handle |
/// +--------------+------------+
///   u16 LE         u16 LE
/// ```
public struct ATTHandleRange: Sendable, Equatable {
    public var startHandle: UInt16
    public var endHandle: UInt16

    public init(startHandle: UInt16, endHandle: UInt16) {
        self.startHandle = startHandle
        self.endHandle = endHandle
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        startHandle = try reader.readUInt16LE("starting handle")
        endHandle = try reader.readUInt16LE("ending handle")
    }
}

/// The UUID width of a Find Information Response (§3.4.3.2): 0x01 16-bit, 0x02 128-bit; the
/// specification defines no other value, so any other is malformed.
public enum ATTUUIDFormat: UInt8, Sendable, Equatable {
    case uuid16 = 0x01
    case uuid128 = 0x02

    public var uuidWidth: Int { self == .uuid16 ? 2 : 16 }
}

/// One handle–UUID pair of a Find Information Response.
public struct ATTHandleUUID: Sendable, Equatable {
    public var handle: UInt16
    public var uuid: BluetoothUUID

    public init(handle: UInt16, uuid: BluetoothUUID) {
        self.handle = handle
        self.uuid = uuid
    }
}

/// Find Information Response parameters (§3.4.3.2).
///
/// ```
/// 0        1
/// +--------+----------------------------------------------+
/// | format | (handle u16 LE, UUID 2 or 16 bytes) × n, n ≥ 1 |
/// +--------+----------------------------------------------+
/// ```
public struct ATTFindInformationResponse: Sendable, Equatable {
    public var format: ATTUUIDFormat
    public var attributes: [ATTHandleUUID]

    public init(format: ATTUUIDFormat, attributes: [ATTHandleUUID]) {
        self.format = format
        self.attributes = attributes
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        let at = reader.reportedOffset
        let rawFormat = try reader.readUInt8("format")
        guard let format = ATTUUIDFormat(rawValue: rawFormat) else {
            throw DecodeError.invalid(layer: reader.layer, field: "format", at: at,
                                      reason: "format \(Hex.code(rawFormat)) is neither 0x01 (16-bit) nor 0x02 (128-bit)")
        }
        self.format = format
        let entrySize = 2 + format.uuidWidth
        guard reader.remaining > 0, reader.remaining % entrySize == 0 else {
            throw DecodeError.invalid(layer: reader.layer, field: "information data", at: reader.reportedOffset,
                                      reason: "\(reader.remaining) bytes is not a whole number of \(entrySize)-byte entries")
        }
        attributes = []
        while !reader.isAtEnd {
            let handle = try reader.readUInt16LE("attribute handle")
            attributes.append(ATTHandleUUID(handle: handle, uuid: try BluetoothUUID(parsing: &reader, width: format.uuidWidth)))
        }
    }
}

/// Find By Type Value Request parameters (§3.4.3.3).
///
/// ```
/// 0              2            4                6
/// +--------------+------------+----------------+-----------------+
/// | start handle | end handle | attribute type | attribute value |
/// +--------------+------------+----------------+-----------------+
///   u16 LE         u16 LE       u16 LE (UUID)    rest
/// ```
public struct ATTFindByTypeValueRequest: Sendable, Equatable {
    public var range: ATTHandleRange
    /// Always a 16-bit UUID on the wire.
    public var attributeType: BluetoothUUID
    public var value: [UInt8]

    public init(range: ATTHandleRange, attributeType: BluetoothUUID, value: [UInt8]) {
        self.range = range
        self.attributeType = attributeType
        self.value = value
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        range = try ATTHandleRange(parsing: &reader)
        attributeType = BluetoothUUID(uint16: try reader.readUInt16LE("attribute type"))
        value = reader.readRemainingBytes()
    }
}

/// One entry of a Find By Type Value Response (§3.4.3.4).
///
/// ```
/// 0                        2                    4
/// +------------------------+--------------------+
/// | found attribute handle | group end handle   |
/// +------------------------+--------------------+
///   u16 LE                   u16 LE
/// ```
public struct ATTHandlesInformation: Sendable, Equatable {
    public var foundHandle: UInt16
    public var groupEndHandle: UInt16

    public init(foundHandle: UInt16, groupEndHandle: UInt16) {
        self.foundHandle = foundHandle
        self.groupEndHandle = groupEndHandle
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        foundHandle = try reader.readUInt16LE("found attribute handle")
        groupEndHandle = try reader.readUInt16LE("group end handle")
    }

    /// The whole of `reader` as entries: one or more, 4 bytes each.
    static func list(parsing reader: inout ByteReader) throws(DecodeError) -> [Self] {
        guard reader.remaining > 0, reader.remaining % 4 == 0 else {
            throw DecodeError.invalid(layer: reader.layer, field: "handles information list", at: reader.reportedOffset,
                                      reason: "\(reader.remaining) bytes is not a whole number of 4-byte entries")
        }
        var entries: [Self] = []
        while !reader.isAtEnd { entries.append(try Self(parsing: &reader)) }
        return entries
    }
}

/// Read By Type / Read By Group Type Request parameters (§3.4.4.1, §3.4.4.9).
///
/// ```
/// 0              2            4
/// +--------------+------------+--------------------------+
/// | start handle | end handle | attribute type (2 or 16) |
/// +--------------+------------+--------------------------+
///   u16 LE         u16 LE       UUID, little-endian
/// ```
public struct ATTTypeRangeRequest: Sendable, Equatable {
    public var range: ATTHandleRange
    public var attributeType: BluetoothUUID

    public init(range: ATTHandleRange, attributeType: BluetoothUUID) {
        self.range = range
        self.attributeType = attributeType
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        range = try ATTHandleRange(parsing: &reader)
        attributeType = try readATTUUID(&reader, field: "attribute type")
    }
}

/// One handle–value pair of a Read By Type Response.
public struct ATTAttributeData: Sendable, Equatable {
    public var handle: UInt16
    public var value: [UInt8]

    public init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }
}

/// Read By Type Response parameters (§3.4.4.2).
///
/// ```
/// 0        1
/// +--------+--------------------------------------------------+
/// | length | (handle u16 LE, value length−2 bytes) × n, n ≥ 1 |
/// +--------+--------------------------------------------------+
///   u8: size of each pair, ≥ 2
/// ```
public struct ATTReadByTypeResponse: Sendable, Equatable {
    public var length: UInt8
    public var attributes: [ATTAttributeData]

    public init(length: UInt8, attributes: [ATTAttributeData]) {
        self.length = length
        self.attributes = attributes
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        length = try readEntryLength(&reader, minimum: 2, structure: "attribute data")
        attributes = []
        while !reader.isAtEnd {
            let handle = try reader.readUInt16LE("attribute handle")
            attributes.append(ATTAttributeData(handle: handle, value: try reader.readBytes(Int(length) - 2, "attribute value")))
        }
    }
}

/// One entry of a Read By Group Type Response.
public struct ATTGroupData: Sendable, Equatable {
    public var handle: UInt16
    public var endGroupHandle: UInt16
    public var value: [UInt8]

    public init(handle: UInt16, endGroupHandle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.endGroupHandle = endGroupHandle
        self.value = value
    }
}

/// Read By Group Type Response parameters (§3.4.4.10).
///
/// ```
/// 0        1
/// +--------+-----------------------------------------------------------------+
/// | length | (handle u16 LE, end group handle u16 LE, value length−4) × n ≥ 1 |
/// +--------+-----------------------------------------------------------------+
///   u8: size of each entry, ≥ 4
/// ```
public struct ATTReadByGroupTypeResponse: Sendable, Equatable {
    public var length: UInt8
    public var groups: [ATTGroupData]

    public init(length: UInt8, groups: [ATTGroupData]) {
        self.length = length
        self.groups = groups
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        length = try readEntryLength(&reader, minimum: 4, structure: "attribute data")
        groups = []
        while !reader.isAtEnd {
            let handle = try reader.readUInt16LE("attribute handle")
            let end = try reader.readUInt16LE("end group handle")
            groups.append(ATTGroupData(handle: handle, endGroupHandle: end,
                                       value: try reader.readBytes(Int(length) - 4, "attribute value")))
        }
    }
}

/// Reads a list's per-entry length byte and checks the rule the list responses share: each
/// entry holds at least `minimum` bytes and the rest is a non-empty whole number of entries.
private func readEntryLength(_ reader: inout ByteReader, minimum: Int, structure: String) throws(DecodeError) -> UInt8 {
    let at = reader.reportedOffset
    let length = try reader.readUInt8("length")
    guard Int(length) >= minimum else {
        throw DecodeError.invalid(layer: reader.layer, field: "length", at: at,
                                  reason: "entry length \(length) is below the \(minimum)-byte minimum")
    }
    guard reader.remaining > 0, reader.remaining % Int(length) == 0 else {
        throw DecodeError.invalid(layer: reader.layer, field: "\(structure) list", at: reader.reportedOffset,
                                  reason: "\(reader.remaining) bytes is not a whole number of \(length)-byte entries")
    }
    return length
}

/// Reads the rest of `reader` as an ATT UUID: 2 or 16 bytes, little-endian (§3.2.1: ATT carries
/// no 32-bit UUIDs).
func readATTUUID(_ reader: inout ByteReader, field: StaticString) throws(DecodeError) -> BluetoothUUID {
    guard reader.remaining == 2 || reader.remaining == 16 else {
        throw DecodeError.invalid(layer: reader.layer, field: "\(field)", at: reader.reportedOffset,
                                  reason: "\(reader.remaining) bytes is neither a 16-bit nor a 128-bit UUID")
    }
    return try BluetoothUUID(parsing: &reader, width: reader.remaining)
}

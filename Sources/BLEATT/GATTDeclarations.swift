import BLEBase

/// Characteristic Properties bits (Core v5.4 Vol 3 Part G §3.3.1.1).
public struct CharacteristicProperties: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let broadcast = Self(rawValue: 0x01)
    public static let read = Self(rawValue: 0x02)
    public static let writeWithoutResponse = Self(rawValue: 0x04)
    public static let write = Self(rawValue: 0x08)
    public static let notify = Self(rawValue: 0x10)
    public static let indicate = Self(rawValue: 0x20)
    public static let authenticatedSignedWrites = Self(rawValue: 0x40)
    public static let extendedProperties = Self(rawValue: 0x80)

    public func contains(_ property: Self) -> Bool { rawValue & property.rawValue == property.rawValue }

    /// Names of the set bits, lowest first.
    public var names: [String] {
        [(Self.broadcast, "Broadcast"), (.read, "Read"), (.writeWithoutResponse, "WriteWithoutResponse"),
         (.write, "Write"), (.notify, "Notify"), (.indicate, "Indicate"),
         (.authenticatedSignedWrites, "AuthenticatedSignedWrites"), (.extendedProperties, "ExtendedProperties")]
            .filter { contains($0.0) }.map(\.1)
    }
}

/// A service declaration as a Read By Group Type Response reports it (Part G §3.1): the
/// group's handle range and the service UUID that is the declaration's value.
public struct ServiceDeclaration: Sendable, Equatable {
    public var startHandle: UInt16
    public var endHandle: UInt16
    public var uuid: BluetoothUUID

    public init(startHandle: UInt16, endHandle: UInt16, uuid: BluetoothUUID) {
        self.startHandle = startHandle
        self.endHandle = endHandle
        self.uuid = uuid
    }

    /// `value` holds the declaration's value: a 2- or 16-byte UUID.
    public init(parsing value: inout ByteReader, startHandle: UInt16, endHandle: UInt16) throws(DecodeError) {
        self.startHandle = startHandle
        self.endHandle = endHandle
        uuid = try readATTUUID(&value, field: "service UUID")
    }
}

/// An include declaration's value (Part G §3.2).
///
/// ```
/// 0                         2                  4
/// +-------------------------+------------------+---------------------------+
/// | included service handle | end group handle | service UUID (16-bit only) |
/// +-------------------------+------------------+---------------------------+
///   u16 LE                    u16 LE             absent for 128-bit UUIDs
/// ```
public struct IncludeDeclaration: Sendable, Equatable {
    public var declarationHandle: UInt16
    public var includedServiceHandle: UInt16
    public var endGroupHandle: UInt16
    /// Nil when the included service has a 128-bit UUID (the declaration then omits it).
    public var uuid: BluetoothUUID?

    public init(declarationHandle: UInt16, includedServiceHandle: UInt16, endGroupHandle: UInt16, uuid: BluetoothUUID?) {
        self.declarationHandle = declarationHandle
        self.includedServiceHandle = includedServiceHandle
        self.endGroupHandle = endGroupHandle
        self.uuid = uuid
    }

    public init(parsing value: inout ByteReader, declarationHandle: UInt16) throws(DecodeError) {
        self.declarationHandle = declarationHandle
        includedServiceHandle = try value.readUInt16LE("included service handle")
        endGroupHandle = try value.readUInt16LE("end group handle")
        if value.isAtEnd {
            uuid = nil
        } else {
            uuid = BluetoothUUID(uint16: try value.readUInt16LE("service UUID"))
            try value.expectEnd("include declaration")
        }
    }
}

/// A characteristic declaration's value (Part G §3.3.1).
///
/// ```
/// 0            1                   3
/// +------------+-------------------+---------------------------+
/// | properties | value handle      | characteristic UUID       |
/// +------------+-------------------+---------------------------+
///   u8           u16 LE              2 or 16 bytes LE
/// ```
public struct CharacteristicDeclaration: Sendable, Equatable {
    public var declarationHandle: UInt16
    public var properties: CharacteristicProperties
    public var valueHandle: UInt16
    public var uuid: BluetoothUUID

    public init(declarationHandle: UInt16, properties: CharacteristicProperties, valueHandle: UInt16, uuid: BluetoothUUID) {
        self.declarationHandle = declarationHandle
        self.properties = properties
        self.valueHandle = valueHandle
        self.uuid = uuid
    }

    public init(parsing value: inout ByteReader, declarationHandle: UInt16) throws(DecodeError) {
        self.declarationHandle = declarationHandle
        properties = CharacteristicProperties(rawValue: try value.readUInt8("characteristic properties"))
        valueHandle = try value.readUInt16LE("characteristic value handle")
        uuid = try readATTUUID(&value, field: "characteristic UUID")
    }
}

extension ATTReadByGroupTypeResponse {
    /// The groups as service declarations (the answer to a Read By Group Type Request for
    /// 0x2800 or 0x2801). Error offsets count from the start of each value.
    public func serviceDeclarations() throws(DecodeError) -> [ServiceDeclaration] {
        var services: [ServiceDeclaration] = []
        for group in groups {
            var value = ByteReader(group.value, layer: .att)
            services.append(try ServiceDeclaration(parsing: &value, startHandle: group.handle, endHandle: group.endGroupHandle))
        }
        return services
    }
}

extension ATTReadByTypeResponse {
    /// The attributes as characteristic declarations (the answer to a Read By Type Request for
    /// 0x2803). Error offsets count from the start of each value.
    public func characteristicDeclarations() throws(DecodeError) -> [CharacteristicDeclaration] {
        var declarations: [CharacteristicDeclaration] = []
        for attribute in attributes {
            var value = ByteReader(attribute.value, layer: .att)
            declarations.append(try CharacteristicDeclaration(parsing: &value, declarationHandle: attribute.handle))
        }
        return declarations
    }

    /// The attributes as include declarations (the answer to a Read By Type Request for 0x2802).
    public func includeDeclarations() throws(DecodeError) -> [IncludeDeclaration] {
        var declarations: [IncludeDeclaration] = []
        for attribute in attributes {
            var value = ByteReader(attribute.value, layer: .att)
            declarations.append(try IncludeDeclaration(parsing: &value, declarationHandle: attribute.handle))
        }
        return declarations
    }
}

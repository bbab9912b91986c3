import BLEBase

/// The typed content of an AD structure (Core Supplement v11 Part A §1.1–§1.21).
public enum ADValue: Sendable, Equatable {
    /// §1.3: first octet of the Flags field (later octets stay in `ADStructure.data`).
    case flags(ADFlags)
    /// §1.1: types 0x02–0x07.
    case serviceUUIDs([BluetoothUUID], complete: Bool)
    /// §1.2: types 0x08 (shortened) / 0x09 (complete).
    case localName(ADLocalName)
    /// §1.5: dBm.
    case txPowerLevel(Int8)
    /// §1.6: 24-bit Class of Device.
    case classOfDevice(UInt32)
    /// §1.10: types 0x14, 0x15, 0x1F.
    case serviceSolicitation([BluetoothUUID])
    /// §1.11: types 0x16, 0x20, 0x21.
    case serviceData(uuid: BluetoothUUID, data: [UInt8])
    /// §1.13/§1.14: types 0x17 (public) / 0x18 (random).
    case targetAddresses([BluetoothAddress], random: Bool)
    /// §1.12: Appearance value (category in bits 15–6, subcategory in bits 5–0).
    case appearance(UInt16)
    /// §1.15: units of 0.625 ms.
    case advertisingInterval(UInt16)
    /// §1.16: the device's address and whether it is random (bit 0 of the type octet).
    case leBluetoothDeviceAddress(BluetoothAddress, random: Bool)
    /// §1.17: 0 peripheral only, 1 central only, 2 both (peripheral preferred), 3 both (central preferred).
    case leRole(UInt8)
    /// §1.18: scheme code point (Assigned Numbers "URI Scheme Name String Mapping") and the rest.
    case uri(scheme: UInt32, text: String)
    /// §1.4: company identifier, then the company's data.
    case manufacturerSpecificData(companyID: UInt16, data: [UInt8])
    /// A type without a typed form here; `ADStructure.data` holds it.
    case raw
    /// A typed structure whose length does not fit its type; `ADStructure.data` holds the bytes.
    case malformed(DecodeError)

    /// Parses the data of an AD structure of `type`; never throws (a misfit becomes `.malformed`).
    public init(parsing r: inout ByteReader, type: ADType) {
        do throws(DecodeError) {
            self = try Self.typed(&r, type: type)
            try r.expectEnd("AD structure")
        } catch {
            self = .malformed(error)
        }
    }

    private static func typed(_ r: inout ByteReader, type: ADType) throws(DecodeError) -> ADValue {
        switch type.rawValue {
        case 0x01:
            let value = r.isAtEnd ? 0 : try r.readUInt8("Flags")
            r.skipRemaining()
            return .flags(ADFlags(rawValue: value))
        case 0x02, 0x03: return .serviceUUIDs(try uuidList(&r, width: 2), complete: type.rawValue == 0x03)
        case 0x04, 0x05: return .serviceUUIDs(try uuidList(&r, width: 4), complete: type.rawValue == 0x05)
        case 0x06, 0x07: return .serviceUUIDs(try uuidList(&r, width: 16), complete: type.rawValue == 0x07)
        case 0x08, 0x09: return .localName(ADLocalName(bytes: r.readRemainingBytes(), isComplete: type.rawValue == 0x09))
        case 0x0A: return .txPowerLevel(try r.readInt8("TX Power Level"))
        case 0x0D: return .classOfDevice(try r.readUInt24LE("Class of Device"))
        case 0x14: return .serviceSolicitation(try uuidList(&r, width: 2))
        case 0x1F: return .serviceSolicitation(try uuidList(&r, width: 4))
        case 0x15: return .serviceSolicitation(try uuidList(&r, width: 16))
        case 0x16: return .serviceData(uuid: try BluetoothUUID(parsing: &r, width: 2), data: r.readRemainingBytes())
        case 0x20: return .serviceData(uuid: try BluetoothUUID(parsing: &r, width: 4), data: r.readRemainingBytes())
        case 0x21: return .serviceData(uuid: try BluetoothUUID(parsing: &r, width: 16), data: r.readRemainingBytes())
        case 0x17, 0x18:
            try requireMultiple(of: 6, &r, field: "Target Address")
            var addresses: [BluetoothAddress] = []
            while !r.isAtEnd { addresses.append(try BluetoothAddress(parsing: &r)) }
            return .targetAddresses(addresses, random: type.rawValue == 0x18)
        case 0x19: return .appearance(try r.readUInt16LE("Appearance"))
        case 0x1A: return .advertisingInterval(try r.readUInt16LE("Advertising Interval"))
        case 0x1B:
            let address = try BluetoothAddress(parsing: &r)
            return .leBluetoothDeviceAddress(address, random: try r.readUInt8("address type") & 0x01 == 1)
        case 0x1C: return .leRole(try r.readUInt8("LE Role"))
        case 0x24:
            let at = r.reportedOffset
            let scalars = String(decoding: r.readRemainingBytes(), as: UTF8.self).unicodeScalars
            guard let scheme = scalars.first else {
                throw DecodeError.truncated(layer: r.layer, field: "URI scheme", at: at, needed: 1, available: 0)
            }
            return .uri(scheme: scheme.value, text: String(String.UnicodeScalarView(scalars.dropFirst())))
        case 0xFF:
            return .manufacturerSpecificData(companyID: try r.readUInt16LE("Company Identifier"),
                                             data: r.readRemainingBytes())
        default:
            r.skipRemaining()
            return .raw
        }
    }

    private static func uuidList(_ r: inout ByteReader, width: Int) throws(DecodeError) -> [BluetoothUUID] {
        try requireMultiple(of: width, &r, field: "UUID list")
        var uuids: [BluetoothUUID] = []
        uuids.reserveCapacity(r.remaining / width)
        while !r.isAtEnd { uuids.append(try BluetoothUUID(parsing: &r, width: width)) }
        return uuids
    }

    /// Lists of fixed-size items must be a whole number of items (§1.1, §1.13).
    private static func requireMultiple(of size: Int, _ r: inout ByteReader, field: String) throws(DecodeError) {
        guard r.remaining % size == 0 else {
            throw DecodeError.invalid(layer: r.layer, field: field, at: r.reportedOffset,
                                      reason: "\(r.remaining) bytes is not a multiple of \(size)")
        }
    }

    /// The scheme prefix for the URI scheme code points seen in practice (Assigned Numbers
    /// "URI Scheme Name String Mapping": 0x01 none, 0x16 `http:`, 0x17 `https:`); nil otherwise.
    public static func uriSchemePrefix(_ code: UInt32) -> String? {
        switch code {
        case 0x01: return ""
        case 0x16: return "http:"
        case 0x17: return "https:"
        default: return nil
        }
    }
}

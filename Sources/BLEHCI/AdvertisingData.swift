import BLEBase

/// Advertising / scan response / EIR data: a sequence of AD structures
/// (Core v5.4 Vol 3 Part C §11; Core Supplement v11 Part A §1).
///
/// ```
/// +--------+------+--------------------+     +--------+------+------------+     +---+-----------+
/// | length | type | data (length − 1)  | ... | length | type | data       | ... | 0 | padding   |
/// |   u8   |  u8  |                    |     |   u8   |  u8  |            |     |   |           |
/// +--------+------+--------------------+     +--------+------+------------+     +---+-----------+
/// ```
///
/// Unlike the other decoders this one does not throw: advertising data is untrusted input and a
/// bad structure must not hide the good ones before it, so the failure is kept in `error` next to
/// the structures parsed so far.
public struct AdvertisingData: Sendable, Equatable {
    public var structures: [ADStructure]
    /// Bytes from a zero-length structure (early termination, §11) to the end, that byte included.
    public var paddingLength: Int
    /// A structure whose length runs past the end; `structures` holds the ones before it.
    public var error: DecodeError?

    public init(structures: [ADStructure], paddingLength: Int = 0, error: DecodeError? = nil) {
        self.structures = structures
        self.paddingLength = paddingLength
        self.error = error
    }

    /// Reads structures until the reader's end, a zero length, or a length past the end.
    public init(parsing r: inout ByteReader) {
        structures = []
        // A structure takes at least two bytes; most data holds a few (one allocation, not one per doubling).
        structures.reserveCapacity(min(r.remaining / 2, 8))
        paddingLength = 0
        error = nil
        while !r.isAtEnd {
            let lengthAt = r.reportedOffset
            guard let length = try? r.peekUInt8("AD length"), length != 0 else {
                paddingLength = r.remaining
                r.skipRemaining()
                return
            }
            do throws(DecodeError) {
                try r.skip(1, "AD length")
                var body = try r.slice(byteCount: Int(length), "AD structure")
                structures.append(try ADStructure(parsing: &body))
            } catch {
                self.error = Self.lengthFieldError(error, at: lengthAt)
                r.skipRemaining()
                return
            }
        }
    }

    /// A structure that does not fit is reported at its length field: "AD length at N needs L, M left".
    private static func lengthFieldError(_ error: DecodeError, at offset: Int) -> DecodeError {
        guard case let .truncated(layer, _, _, needed, available) = error else { return error }
        return .truncated(layer: layer, field: "AD length", at: offset, needed: needed, available: available)
    }

    /// The complete local name, else the shortened one.
    public var localName: String? {
        var shortened: String?
        for structure in structures {
            if case .localName(let name) = structure.value {
                if name.isComplete { return name.name }
                shortened = shortened ?? name.name
            }
        }
        return shortened
    }

    public var flags: ADFlags? {
        for structure in structures { if case .flags(let flags) = structure.value { return flags } }
        return nil
    }

    /// Every manufacturer specific data structure, in order.
    public var manufacturerData: [(companyID: UInt16, data: [UInt8])] {
        structures.compactMap { structure in
            if case .manufacturerSpecificData(let companyID, let data) = structure.value { return (companyID, data) }
            return nil
        }
    }

    /// The service UUIDs of every 16-, 32- and 128-bit list (complete or not), in order.
    public var serviceUUIDs: [BluetoothUUID] {
        structures.flatMap { structure -> [BluetoothUUID] in
            if case .serviceUUIDs(let uuids, _) = structure.value { return uuids }
            return []
        }
    }

    public var txPower: Int8? {
        for structure in structures { if case .txPowerLevel(let dBm) = structure.value { return dBm } }
        return nil
    }

    /// Every service data structure (16-, 32- and 128-bit UUIDs), in order.
    public var serviceData: [(uuid: BluetoothUUID, data: [UInt8])] {
        structures.compactMap { structure in
            if case .serviceData(let uuid, let data) = structure.value { return (uuid, data) }
            return nil
        }
    }
}


/// One AD structure: its type, data bytes as sent and the typed value.
public struct ADStructure: Sendable, Equatable {
    public var type: ADType
    public var value: ADValue
    /// The data bytes where they were read, the record's buffer shared (a copy would cost an
    /// allocation per structure, several per advertising report). A structure lives as long as
    /// its packet: keep `value`, or copy `data`, rather than the structure.
    private let bytes: ByteReader

    /// The data after the type byte.
    public var data: [UInt8] { Array(bytes.unreadBytes) }

    public init(type: ADType, data: [UInt8]) {
        self.type = type
        bytes = ByteReader(data, layer: .advertisingData)
        var reader = bytes
        value = ADValue(parsing: &reader, type: type)
    }

    /// Reads the type byte and the rest of `r` as data.
    public init(parsing r: inout ByteReader) throws(DecodeError) {
        type = ADType(rawValue: try r.readUInt8("AD type"))
        bytes = r
        value = ADValue(parsing: &r, type: type)
    }

    /// Structures are equal by their type, bytes and value, wherever the bytes are stored.
    public static func == (a: Self, b: Self) -> Bool {
        a.type == b.type && a.value == b.value && a.bytes.unreadBytes.elementsEqual(b.bytes.unreadBytes)
    }
}

/// A local name as advertised: the bytes kept, the text decoded leniently (invalid UTF-8 becomes
/// U+FFFD). The text is untrusted: renderers escape it.
public struct ADLocalName: Sendable, Equatable {
    public var bytes: [UInt8]
    public var isComplete: Bool
    public var name: String { String(decoding: bytes, as: UTF8.self) }
}

import BLEBase

/// A peripheral's attribute table, described the way a GATT server lays it out
/// (Core v5.4 Vol 3 Part G §3: service declaration, then per characteristic a declaration, the
/// value, and descriptors). The scenario's discovery exchange is derived from it.
public struct GATTServerModel: Sendable {
    public struct Characteristic: Sendable {
        /// The UUID as carried on the wire (2 or 16 bytes, little-endian).
        public var uuidWire: [UInt8]
        public var properties: UInt8
        public var declarationHandle: UInt16
        public var valueHandle: UInt16 { declarationHandle + 1 }
        /// Handle of the Client Characteristic Configuration descriptor, when present.
        public var cccdHandle: UInt16?

        public init(uuidWire: [UInt8], properties: UInt8, declarationHandle: UInt16, cccd: Bool) {
            self.uuidWire = uuidWire
            self.properties = properties
            self.declarationHandle = declarationHandle
            self.cccdHandle = cccd ? declarationHandle + 2 : nil
        }

        public var lastHandle: UInt16 { cccdHandle ?? valueHandle }
    }

    public struct Service: Sendable {
        public var uuidWire: [UInt8]
        public var startHandle: UInt16
        public var endHandle: UInt16
        public var characteristics: [Characteristic]
    }

    public private(set) var services: [Service] = []

    public init() {}

    /// Appends a service whose characteristics get consecutive handles after its declaration.
    /// Each entry is (16-bit UUID, properties, has CCCD).
    public mutating func addService(_ uuid: UInt16, _ characteristics: [(UInt16, UInt8, Bool)]) {
        let start = (services.last?.endHandle ?? 0) + 1
        var next = start + 1
        var built: [Characteristic] = []
        for (charUUID, properties, cccd) in characteristics {
            let characteristic = Characteristic(uuidWire: Self.wire(charUUID), properties: properties,
                                                declarationHandle: next, cccd: cccd)
            built.append(characteristic)
            next = characteristic.lastHandle + 1
        }
        services.append(Service(uuidWire: Self.wire(uuid), startHandle: start, endHandle: next - 1,
                                characteristics: built))
    }

    static func wire(_ uuid: UInt16) -> [UInt8] { [UInt8(uuid & 0xFF), UInt8(uuid >> 8)] }

    /// Finds a characteristic by its 16-bit UUID.
    public func characteristic(_ uuid: UInt16) -> Characteristic? {
        services.lazy.flatMap(\.characteristics).first { $0.uuidWire == Self.wire(uuid) }
    }

    /// The demo lock's table (../shared/profiles/demo-lock.md): GAP, GATT, Battery, and the vendor
    /// service FFE0 with write FFE1, notify FFE2 (+CCCD) and a protected read FFE3.
    public static let demoLock: GATTServerModel = {
        var model = GATTServerModel()
        model.addService(0x1800, [(0x2A00, 0x02, false), (0x2A01, 0x02, false)])
        model.addService(0x1801, [(0x2A05, 0x20, true)])
        model.addService(0x180F, [(0x2A19, 0x12, true)])
        model.addService(0xFFE0, [(0xFFE1, 0x0C, false), (0xFFE2, 0x10, true), (0xFFE3, 0x02, false)])
        return model
    }()
}

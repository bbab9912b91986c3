import BLEBase

/// What a device's advertising said, as plain values, for matching a profile and extracting
/// an identity (the caller gathers these from AD structures).
public struct AdvertisementFacts: Sendable, Equatable {
    public struct ManufacturerData: Sendable, Equatable {
        public var companyID: UInt16
        /// The bytes after the company identifier.
        public var data: [UInt8]
        public init(companyID: UInt16, data: [UInt8]) {
            self.companyID = companyID
            self.data = data
        }
    }

    public struct ServiceData: Sendable, Equatable {
        public var uuid: BluetoothUUID
        /// The bytes after the UUID.
        public var data: [UInt8]
        public init(uuid: BluetoothUUID, data: [UInt8]) {
            self.uuid = uuid
            self.data = data
        }
    }

    public var localName: String?
    public var manufacturerData: [ManufacturerData]
    public var serviceData: [ServiceData]
    public var serviceUUIDs: [BluetoothUUID]

    public init(localName: String? = nil, manufacturerData: [ManufacturerData] = [], serviceData: [ServiceData] = [],
                serviceUUIDs: [BluetoothUUID] = []) {
        self.localName = localName
        self.manufacturerData = manufacturerData
        self.serviceData = serviceData
        self.serviceUUIDs = serviceUUIDs
    }
}

/// A device identity a profile found: the value as text (`00:1A:7D:FD:E6:F1`, hex, or a
/// decimal integer) and where it came from.
public struct DeviceIdentity: Sendable, Equatable, Hashable {
    public var value: String
    public var source: String
}

extension Profile {
    /// True when every criterion of `match` holds. `gattServices` are the primary services
    /// discovered on a connection (empty before discovery, when a `gattService` rule cannot hold).
    public func matches(_ facts: AdvertisementFacts, gattServices: [BluetoothUUID]) -> Bool {
        if let id = match.companyID, !facts.manufacturerData.contains(where: { $0.companyID == id }) { return false }
        if let rule = match.name, !(facts.localName.map(rule.matches) ?? false) { return false }
        if let uuid = match.advertisedService,
           !(facts.serviceUUIDs.contains(uuid) || facts.serviceData.contains { $0.uuid == uuid }) { return false }
        if let uuid = match.gattService, !gattServices.contains(uuid) { return false }
        return true
    }

    /// The identity `identity` describes, when the advertising carries it.
    public func identity(from facts: AdvertisementFacts) -> DeviceIdentity? {
        switch identity {
        case nil: return nil
        case .manufacturerData(let companyID, let field):
            for entry in facts.manufacturerData where companyID == nil || entry.companyID == companyID {
                if let value = field.render(entry.data) {
                    return DeviceIdentity(value: value, source: "manufacturer data \(Hex.code(entry.companyID, width: 4)) "
                                          + "offset \(field.offset), \(field.length) bytes \(field.msbFirst ? "MSB" : "LSB") first")
                }
            }
            return nil
        case .serviceData(let uuid, let field):
            for entry in facts.serviceData where entry.uuid == uuid {
                if let value = field.render(entry.data) {
                    return DeviceIdentity(value: value, source: "service data \(uuid) offset \(field.offset), "
                                          + "\(field.length) bytes \(field.msbFirst ? "MSB" : "LSB") first")
                }
            }
            return nil
        case .name(let matcher):
            guard let name = facts.localName, let groups = matcher.firstMatch(name), groups.count > 1,
                  let value = groups[1] else { return nil }
            return DeviceIdentity(value: value, source: "local name")
        }
    }
}

extension IdentityField {
    /// The field of `data` as text; nil when `data` is too short.
    func render(_ data: [UInt8]) -> String? {
        guard let raw = FrameBytes.read(data, offset..<offset + length) else { return nil }
        let msb = msbFirst ? raw : raw.reversed()
        switch format {
        case .mac: return msb.map { String(Hex.code($0).dropFirst(2)) }.joined(separator: ":")
        case .hex: return Hex.string(msb)
        case .uint: return String(msb.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
    }
}

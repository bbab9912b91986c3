import BLEAssignedNumbers
import BLEBase

extension AdvertisingData: FieldDescribable {
    /// `name "DEMO-E6F1" services 180F, FFF0 mfr Apple, Inc. (0x004C) 4 bytes`; empty when nothing to say.
    public var summary: String {
        var parts: [String] = []
        if let name = localName { parts.append("name \(SummaryText.quoted(name))") }
        let uuids = serviceUUIDs
        if !uuids.isEmpty { parts.append("services " + uuids.map(\.description).joined(separator: ", ")) }
        for (companyID, data) in manufacturerData {
            let company = AssignedNumbers.companyName(companyID).map { "\($0) (\(Hex.code(companyID, width: 4)))" }
                ?? Hex.code(companyID, width: 4)
            parts.append("mfr \(company) \(data.count) bytes")
        }
        if let error { parts.append("[\(error)]") }
        return parts.joined(separator: " ")
    }

    public var fields: [Field] {
        var fields: [Field] = [Field("structures", .list(structures.map { .object($0.fields) }))]
        if paddingLength > 0 { fields.append(.int("paddingLength", paddingLength)) }
        if let error { fields.append(.string("error", error.description)) }
        return fields
    }
}

extension ADStructure: FieldDescribable {
    public var fields: [Field] {
        [.code("type", type.rawValue, label: type.name), .bytes("data", data)] + value.fields
    }
}

extension ADValue: FieldDescribable {
    public var fields: [Field] {
        switch self {
        case .flags(let flags):
            return [Field("flags", .int(Int64(flags.rawValue)), display: "\(Hex.code(flags.rawValue)) \(flags)")]
        case .serviceUUIDs(let uuids, let complete):
            return [uuidList("uuids", uuids), .bool("complete", complete)]
        case .localName(let name):
            return [.string("name", name.name), .bool("complete", name.isComplete)]
        case .txPowerLevel(let dBm):
            return [.int("txPower", dBm, display: "\(dBm) dBm")]
        case .classOfDevice(let cod):
            return [.code("classOfDevice", cod, width: 6)]
        case .serviceSolicitation(let uuids):
            return [uuidList("uuids", uuids)]
        case .serviceData(let uuid, let data):
            return [uuidField("uuid", uuid), .bytes("serviceData", data)]
        case .targetAddresses(let addresses, let random):
            return [Field("addresses", .list(addresses.map { .address($0) })), .bool("random", random)]
        case .appearance(let value):
            return [.code("appearance", value, width: 4, label: AssignedNumbers.appearanceCategoryName(value))]
        case .advertisingInterval(let units):
            return [.time("advertisingInterval", units, unitMicroseconds: HCITime.scanUnit)]
        case .leBluetoothDeviceAddress(let address, let random):
            return [.address("address", address), .bool("random", random)]
        case .leRole(let role):
            return [.code("leRole", role)]
        case .uri(let scheme, let text):
            let uri = ADValue.uriSchemePrefix(scheme).map { $0 + text }
            return [.code("scheme", scheme, width: 4), .string("text", text)] + (uri.map { [.string("uri", $0)] } ?? [])
        case .manufacturerSpecificData(let companyID, let data):
            return [.code("companyId", companyID, width: 4, label: AssignedNumbers.companyName(companyID)),
                    .bytes("manufacturerData", data)]
        case .raw:
            return []
        case .malformed(let error):
            return [.string("error", error.description)]
        }
    }

    private func uuidField(_ name: String, _ uuid: BluetoothUUID) -> Field {
        Field(name, .uuid(uuid), display: AssignedNumbers.name(for: uuid).map { "\(uuid) (\($0))" })
    }

    private func uuidList(_ name: String, _ uuids: [BluetoothUUID]) -> Field {
        Field(name, .list(uuids.map { .uuid($0) }))
    }
}

import BLEBase

extension ACLDataPacket: FieldDescribable {
    /// `ACL handle 0x0040 start 27 bytes`, `… (truncated: 14 of 27 bytes present)`.
    public var summary: String {
        "ACL handle \(Hex.code(connectionHandle, width: 4)) \(packetBoundary.name) \(dataTotalLength) bytes"
            + (truncation.map { " (\($0))" } ?? "")
    }

    public var fields: [Field] {
        var fields: [Field] = [.handle(connectionHandle),
                               .code("packetBoundaryFlag", packetBoundary.rawValue, label: packetBoundary.name),
                               .code("broadcastFlag", broadcastFlag), .int("dataTotalLength", dataTotalLength)]
        if let truncation { fields.append(.int("bytesPresent", truncation.present, display: truncation.description)) }
        return fields
    }
}

extension SCODataPacket: FieldDescribable {
    public var summary: String { "SCO handle \(Hex.code(connectionHandle, width: 4)) \(dataTotalLength) bytes" }

    public var fields: [Field] {
        [.handle(connectionHandle), .code("packetStatusFlag", packetStatusFlag),
         .int("dataTotalLength", dataTotalLength), .bytes("data", data)]
    }
}

extension ISODataPacket: FieldDescribable {
    public var summary: String { "ISO handle \(Hex.code(connectionHandle, width: 4)) \(dataTotalLength) bytes" }

    public var fields: [Field] {
        [.handle(connectionHandle), .code("packetBoundaryFlag", packetBoundary), .bool("timeStamp", hasTimeStamp),
         .int("dataTotalLength", dataTotalLength), .bytes("data", data)]
    }
}

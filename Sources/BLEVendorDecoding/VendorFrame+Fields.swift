import BLEBase

/// Report fields of a vendor frame: the report contract's `vendorFrames[]` keys (`connection`,
/// `direction`, `handle`, `firstTimeUs`, `lastTimeUs`, `fragments`, `raw`, `plaintext`, `crcOk`,
/// `command`, `sequence`, `status`, `outcome`) and the session's own (`id`, `attOpcode`,
/// records, `commandName`, `statusOk`, `matchedFrame`, `latencyUs`, `problem`). Absent values
/// are `null`, so every frame has the same keys.
extension VendorFrame: FieldDescribable {
    public var fields: [Field] {
        [
            .int("id", id),
            .string("connection", connection.description),
            .string("direction", direction.rawValue),
            .code("attOpcode", attOpcode),
            .code("handle", handle, width: 4),
            .int("firstTimeUs", firstTimeUs),
            .int("lastTimeUs", lastTimeUs),
            .int("firstRecord", firstRecord),
            .int("lastRecord", lastRecord),
            .int("fragments", fragments),
            .bytes("raw", raw.array),
            Field("plaintext", plaintext.map(FieldValue.bytes) ?? .null),
            Field("crcOk", checksumOK.map(FieldValue.bool) ?? .null),
            Field("checksumCarried", checksumCarried.map { .int(Int64($0)) } ?? .null),
            Field("checksumComputed", checksumComputed.map { .int(Int64($0)) } ?? .null),
            command.map { code in .code("command", code, width: (commandCode?.count ?? 4) - 2, label: commandName) } ?? Field("command", .null),
            Field("commandName", commandName.map(FieldValue.string) ?? .null),
            sequence.map { .code("sequence", $0, width: $0 > 0xFF ? 4 : 2) } ?? Field("sequence", .null),
            status.map { .code("status", $0) } ?? Field("status", .null),
            Field("statusOk", statusOK.map(FieldValue.bool) ?? .null),
            .string("outcome", outcome.rawValue),
            Field("matchedFrame", matchedFrame.map { .int(Int64($0)) } ?? .null),
            Field("latencyUs", latencyUs.map(FieldValue.int) ?? .null),
            Field("problem", problem.map(FieldValue.string) ?? .null),
        ]
    }
}

/// Report fields of a vendor failure (the contract's `failures[]` keys `kind`, `timeUs`,
/// `connection`, `summary`, plus `detectedUs` and the frame's session `id`).
extension VendorFailure: FieldDescribable {
    public var fields: [Field] {
        [
            .string("kind", kind.rawValue),
            .int("timeUs", timeUs),
            .int("detectedUs", detectedUs),
            .string("connection", connection.description),
            .int("frame", frame),
            .int("record", record),
            .string("summary", summary),
        ]
    }
}

import BLEBase

extension ATTPDU: FieldDescribable {
    /// `opcode`, `opcodeName`, then the parameters under their spec names in lowerCamel.
    public var fields: [Field] {
        [.code("opcode", opcode.rawValue, label: opcode.name), .string("opcodeName", opcode.name)] + parameters.fields
    }
}

extension ATTParameters {
    var fields: [Field] {
        switch self {
        case let .errorResponse(e):
            return [.code("requestOpcode", e.requestOpcode.rawValue, label: e.requestOpcode.name), handleField(e.handle),
                    .code("errorCode", e.errorCode.rawValue, label: e.errorCode.name),
                    .string("errorName", e.errorCode.name)]
        case let .exchangeMTURequest(mtu), let .exchangeMTUResponse(mtu):
            return [.int("mtu", mtu)]
        case let .findInformationRequest(range):
            return rangeFields(range)
        case let .findInformationResponse(r):
            return [.int("format", r.format.rawValue),
                    objects("attributes", r.attributes) { [handleField($0.handle), uuidField("uuid", $0.uuid)] }]
        case let .findByTypeValueRequest(r):
            return rangeFields(r.range) + [uuidField("uuid", r.attributeType), .bytes("value", r.value)]
        case let .findByTypeValueResponse(entries):
            return [objects("handles", entries) { [handleField($0.foundHandle), handleField($0.groupEndHandle, "endHandle")] }]
        case let .readByTypeRequest(r), let .readByGroupTypeRequest(r):
            return rangeFields(r.range) + [uuidField("uuid", r.attributeType)]
        case let .readByTypeResponse(r):
            return [.int("length", r.length),
                    objects("attributes", r.attributes) { [handleField($0.handle), .bytes("value", $0.value)] }]
        case let .readRequest(handle):
            return [handleField(handle)]
        case let .readResponse(value), let .readBlobResponse(value), let .readMultipleResponse(value):
            return [.bytes("value", value)]
        case let .readBlobRequest(handle, offset):
            return [handleField(handle), .int("offset", offset)]
        case let .readMultipleRequest(handles), let .readMultipleVariableRequest(handles):
            return [Field("handles", .list(handles.map { .int(Int64($0)) }))]
        case let .readByGroupTypeResponse(r):
            return [.int("length", r.length),
                    objects("groups", r.groups) {
                        [handleField($0.handle, "startHandle"), handleField($0.endGroupHandle, "endHandle"),
                         .bytes("value", $0.value)]
                    }]
        case let .writeRequest(hv), let .handleValueNotification(hv), let .handleValueIndication(hv),
             let .writeCommand(hv):
            return [handleField(hv.handle), .bytes("value", hv.value.array)]
        case let .prepareWriteRequest(p), let .prepareWriteResponse(p):
            return [handleField(p.handle), .int("offset", p.offset), .bytes("value", p.value)]
        case let .executeWriteRequest(flags):
            return [.code("flags", flags.rawValue, label: flags.name)]
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation:
            return []
        case let .readMultipleVariableResponse(tuples):
            return [objects("values", tuples) {
                [.int("length", $0.length), .bytes("value", $0.value), .bool("truncated", $0.isTruncated)]
            }]
        case let .multipleHandleValueNotification(tuples):
            return [objects("values", tuples) { [handleField($0.handle), .bytes("value", $0.value)] }]
        case let .signedWriteCommand(s):
            return [handleField(s.handle), .bytes("value", s.value), .bytes("signature", s.signature)]
        case let .unknown(raw):
            return [.bytes("rawParameters", raw)]
        }
    }
}

private func handleField(_ handle: UInt16, _ name: String = "handle") -> Field { .code(name, handle, width: 4) }

private func uuidField(_ name: String, _ uuid: BluetoothUUID) -> Field { Field(name, .uuid(uuid)) }

private func rangeFields(_ range: ATTHandleRange) -> [Field] {
    [handleField(range.startHandle, "startHandle"), handleField(range.endHandle, "endHandle")]
}

private func objects<T>(_ name: String, _ items: [T], _ describe: (T) -> [Field]) -> Field {
    Field(name, .list(items.map { .object(describe($0)) }))
}

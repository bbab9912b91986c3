import BLEBase

extension SMPCommand: FieldDescribable {
    public var fields: [Field] {
        [.code("code", code.rawValue, label: code.name), .string("codeName", code.name)] + parameters.fields
    }
}

extension SMPParameters {
    var fields: [Field] {
        switch self {
        case let .pairingRequest(f), let .pairingResponse(f):
            return [.code("ioCapability", f.ioCapability.rawValue, label: f.ioCapability.name),
                    .bool("oobDataPresent", f.oobDataPresent),
                    flagsField("authReq", f.authReq.rawValue, f.authReq.names),
                    .int("maxEncryptionKeySize", f.maxEncryptionKeySize),
                    flagsField("initiatorKeyDistribution", f.initiatorKeyDistribution.rawValue,
                               f.initiatorKeyDistribution.names),
                    flagsField("responderKeyDistribution", f.responderKeyDistribution.rawValue,
                               f.responderKeyDistribution.names)]
        case let .pairingConfirm(value): return [.bytes("confirmValue", value)]
        case let .pairingRandom(value): return [.bytes("randomValue", value)]
        case let .pairingFailed(reason): return [.code("reason", reason.rawValue, label: reason.name)]
        case let .encryptionInformation(key): return [.bytes("longTermKey", key)]
        case let .centralIdentification(ediv, rand):
            return [.code("ediv", ediv, width: 4), Field("rand", .uint(rand), display: Hex.code(rand, width: 16))]
        case let .identityInformation(key): return [.bytes("identityResolvingKey", key)]
        case let .identityAddressInformation(type, address):
            return [.code("addressType", type.rawValue, label: type.description), Field("address", .address(address))]
        case let .signingInformation(key): return [.bytes("signatureKey", key)]
        case let .securityRequest(authReq): return [flagsField("authReq", authReq.rawValue, authReq.names)]
        case let .pairingPublicKey(x, y): return [.bytes("publicKeyX", x), .bytes("publicKeyY", y)]
        case let .pairingDHKeyCheck(value): return [.bytes("dhKeyCheck", value)]
        case let .keypressNotification(type):
            return [.code("notificationType", type.rawValue, label: type.name)]
        case let .unknown(raw): return [.bytes("rawParameters", raw)]
        }
    }
}

/// A bit field as its integer, shown with the names of its set bits.
private func flagsField(_ name: String, _ raw: UInt8, _ names: [String]) -> Field {
    .int(name, raw, display: "\(Hex.code(raw)) [\(names.joined(separator: ","))]")
}

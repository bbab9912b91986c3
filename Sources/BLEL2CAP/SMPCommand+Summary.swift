import BLEBase

extension SMPCommand {
    /// One line, e.g. `SMP Pairing Request io NoInputNoOutput auth bonding,SC max key 16`.
    public var summary: String {
        switch parameters {
        case let .pairingRequest(features), let .pairingResponse(features):
            return "SMP \(code.name) io \(features.ioCapability.name) auth \(authText(features.authReq))"
                + " max key \(features.maxEncryptionKeySize)"
        case let .pairingFailed(reason):
            return "SMP \(code.name): \(reason.name) (\(Hex.code(reason.rawValue)))"
        case let .centralIdentification(ediv, _):
            return "SMP \(code.name) EDIV \(Hex.code(ediv, width: 4))"
        case let .identityAddressInformation(type, address):
            return "SMP \(code.name) \(type) \(address)"
        case let .securityRequest(authReq):
            return "SMP \(code.name) auth \(authText(authReq))"
        case let .keypressNotification(type):
            return "SMP \(code.name) \(type.name)"
        case .pairingConfirm, .pairingRandom, .encryptionInformation, .identityInformation, .signingInformation,
             .pairingPublicKey, .pairingDHKeyCheck, .unknown:
            return "SMP \(code.name)"
        }
    }
}

private func authText(_ authReq: SMPAuthenticationRequirements) -> String {
    let names = authReq.names
    return names.isEmpty ? "none" : names.joined(separator: ",")
}

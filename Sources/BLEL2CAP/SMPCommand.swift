import BLEBase

/// One Security Manager Protocol command on CID 0x0006 (Core v5.4 Vol 3 Part H §3.3).
///
/// ```
/// 0      1
/// +------+----------------------------------+
/// | code | parameters (size fixed by code)  |
/// +------+----------------------------------+
///   u8
/// ```
/// Keys and random values stay in wire order (least significant byte first).
public struct SMPCommand: Sendable, Equatable {
    public var code: SMPCode
    public var parameters: SMPParameters

    public init(code: SMPCode, parameters: SMPParameters) {
        self.code = code
        self.parameters = parameters
    }

    /// Reads the code and the rest of `reader` as its parameters; their size is checked
    /// against the code's rule first, unknown codes keep their bytes raw.
    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        code = SMPCode(rawValue: try reader.readUInt8("SMP code"))
        var rest = reader.sliceRemaining(layer: .smp)
        guard let rule = code.parameterLength else {
            parameters = .unknown(rawParameters: rest.readRemainingBytes())
            return
        }
        try rule.check(rest, structure: code.name)
        parameters = try SMPParameters(parsing: &rest, code: code)
    }
}

/// The typed parameters of an SMP command (Core v5.4 Vol 3 Part H §3.5–§3.6).
public enum SMPParameters: Sendable, Equatable {
    case pairingRequest(SMPPairingFeatures)
    case pairingResponse(SMPPairingFeatures)
    case pairingConfirm(confirmValue: [UInt8])
    case pairingRandom(randomValue: [UInt8])
    case pairingFailed(reason: SMPPairingFailedReason)
    /// The Long Term Key.
    case encryptionInformation(longTermKey: [UInt8])
    case centralIdentification(ediv: UInt16, rand: UInt64)
    /// The Identity Resolving Key.
    case identityInformation(identityResolvingKey: [UInt8])
    /// 0x00 public, 0x01 static random; the device's identity address.
    case identityAddressInformation(addressType: AddressType, address: BluetoothAddress)
    /// The Connection Signature Resolving Key.
    case signingInformation(signatureKey: [UInt8])
    case securityRequest(authReq: SMPAuthenticationRequirements)
    /// P-256 public key coordinates, 32 bytes each.
    case pairingPublicKey(x: [UInt8], y: [UInt8])
    case pairingDHKeyCheck(checkValue: [UInt8])
    case keypressNotification(SMPKeypressNotificationType)
    case unknown(rawParameters: [UInt8])

    /// `reader` holds exactly the parameters, already checked against `code.parameterLength`.
    init(parsing reader: inout ByteReader, code: SMPCode) throws(DecodeError) {
        switch code {
        case .pairingRequest: self = .pairingRequest(try SMPPairingFeatures(parsing: &reader))
        case .pairingResponse: self = .pairingResponse(try SMPPairingFeatures(parsing: &reader))
        case .pairingConfirm: self = .pairingConfirm(confirmValue: try reader.readBytes(16, "confirm value"))
        case .pairingRandom: self = .pairingRandom(randomValue: try reader.readBytes(16, "random value"))
        case .pairingFailed:
            self = .pairingFailed(reason: SMPPairingFailedReason(rawValue: try reader.readUInt8("reason")))
        case .encryptionInformation:
            self = .encryptionInformation(longTermKey: try reader.readBytes(16, "LTK"))
        case .centralIdentification:
            // §3.6.3: EDIV (2 bytes) then Rand (8 bytes).
            self = .centralIdentification(ediv: try reader.readUInt16LE("EDIV"), rand: try reader.readUInt64LE("Rand"))
        case .identityInformation:
            self = .identityInformation(identityResolvingKey: try reader.readBytes(16, "IRK"))
        case .identityAddressInformation:
            let type = AddressType(rawValue: try reader.readUInt8("address type"))
            self = .identityAddressInformation(addressType: type, address: try BluetoothAddress(parsing: &reader))
        case .signingInformation:
            self = .signingInformation(signatureKey: try reader.readBytes(16, "CSRK"))
        case .securityRequest:
            self = .securityRequest(authReq: SMPAuthenticationRequirements(rawValue: try reader.readUInt8("AuthReq")))
        case .pairingPublicKey:
            self = .pairingPublicKey(x: try reader.readBytes(32, "public key X"), y: try reader.readBytes(32, "public key Y"))
        case .pairingDHKeyCheck:
            self = .pairingDHKeyCheck(checkValue: try reader.readBytes(16, "DHKey check"))
        case .keypressNotification:
            self = .keypressNotification(SMPKeypressNotificationType(rawValue: try reader.readUInt8("notification type")))
        default:
            self = .unknown(rawParameters: reader.readRemainingBytes())
        }
    }
}

/// The parameters shared by Pairing Request and Pairing Response (Core v5.4 Vol 3 Part H
/// §3.5.1, §3.5.2).
///
/// ```
/// 0        1       2         3          4              5              6
/// +--------+-------+---------+----------+--------------+--------------+
/// | IO cap | OOB   | AuthReq | max key  | initiator    | responder    |
/// |        | flag  |         | size     | key distrib. | key distrib. |
/// +--------+-------+---------+----------+--------------+--------------+
///   u8 each
/// ```
public struct SMPPairingFeatures: Sendable, Equatable {
    public var ioCapability: SMPIOCapability
    /// 0x00 OOB data not present, 0x01 present; others reserved.
    public var oobDataFlag: UInt8
    public var authReq: SMPAuthenticationRequirements
    /// 7...16 bytes.
    public var maxEncryptionKeySize: UInt8
    public var initiatorKeyDistribution: SMPKeyDistribution
    public var responderKeyDistribution: SMPKeyDistribution

    public init(ioCapability: SMPIOCapability, oobDataFlag: UInt8, authReq: SMPAuthenticationRequirements,
                maxEncryptionKeySize: UInt8, initiatorKeyDistribution: SMPKeyDistribution,
                responderKeyDistribution: SMPKeyDistribution) {
        self.ioCapability = ioCapability
        self.oobDataFlag = oobDataFlag
        self.authReq = authReq
        self.maxEncryptionKeySize = maxEncryptionKeySize
        self.initiatorKeyDistribution = initiatorKeyDistribution
        self.responderKeyDistribution = responderKeyDistribution
    }

    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        ioCapability = SMPIOCapability(rawValue: try reader.readUInt8("IO capability"))
        oobDataFlag = try reader.readUInt8("OOB data flag")
        authReq = SMPAuthenticationRequirements(rawValue: try reader.readUInt8("AuthReq"))
        maxEncryptionKeySize = try reader.readUInt8("maximum encryption key size")
        initiatorKeyDistribution = SMPKeyDistribution(rawValue: try reader.readUInt8("initiator key distribution"))
        responderKeyDistribution = SMPKeyDistribution(rawValue: try reader.readUInt8("responder key distribution"))
    }

    public var oobDataPresent: Bool { oobDataFlag == 0x01 }
}

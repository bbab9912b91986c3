import BLEBase
import Testing
@testable import BLEL2CAP

func parseSMP(_ bytes: [UInt8]) throws(DecodeError) -> SMPCommand {
    var reader = ByteReader(bytes, layer: .smp)
    return try SMPCommand(parsing: &reader)
}

@Suite struct SMPTests {
    let key16: [UInt8] = Array(0x00...0x0F)

    @Test func pairingRequest() throws {
        let command = try parseSMP([
            0x01,  // code: Pairing Request
            0x03,  // IO capability: NoInputNoOutput
            0x00,  // OOB data flag: not present
            0x09,  // AuthReq: bonding | SC
            0x10,  // maximum encryption key size 16
            0x03,  // initiator key distribution: EncKey | IdKey
            0x07,  // responder key distribution: EncKey | IdKey | SignKey
        ])
        let features = SMPPairingFeatures(ioCapability: .noInputNoOutput, oobDataFlag: 0,
                                          authReq: SMPAuthenticationRequirements(rawValue: 0x09), maxEncryptionKeySize: 16,
                                          initiatorKeyDistribution: SMPKeyDistribution(rawValue: 0x03),
                                          responderKeyDistribution: SMPKeyDistribution(rawValue: 0x07))
        #expect(command == SMPCommand(code: .pairingRequest, parameters: .pairingRequest(features)))
        #expect(command.summary == "SMP Pairing Request io NoInputNoOutput auth bonding,SC max key 16")
        #expect(features.initiatorKeyDistribution.names == ["EncKey", "IdKey"])
        #expect(features.responderKeyDistribution.names == ["EncKey", "IdKey", "SignKey"])
        #expect(!features.oobDataPresent)
    }

    @Test func pairingResponse() throws {
        let command = try parseSMP([
            0x02,  // code: Pairing Response
            0x04,  // IO capability: KeyboardDisplay
            0x01,  // OOB data flag: present
            0x3D,  // AuthReq: bonding | MITM | SC | keypress | CT2
            0x07,  // maximum encryption key size 7
            0x08,  // initiator key distribution: LinkKey
            0x00,  // responder key distribution: none
        ])
        guard case let .pairingResponse(features) = command.parameters else {
            Issue.record("not a Pairing Response: \(command)")
            return
        }
        #expect(features.oobDataPresent)
        #expect(features.authReq.names == ["bonding", "MITM", "SC", "keypress", "CT2"])
        #expect(features.initiatorKeyDistribution.names == ["LinkKey"])
        #expect(command.summary == "SMP Pairing Response io KeyboardDisplay auth bonding,MITM,SC,keypress,CT2 max key 7")
    }

    @Test func sixteenByteValues() throws {
        #expect(try parseSMP([0x03] + key16).parameters == .pairingConfirm(confirmValue: key16))    // Pairing Confirm
        #expect(try parseSMP([0x04] + key16).parameters == .pairingRandom(randomValue: key16))      // Pairing Random
        #expect(try parseSMP([0x06] + key16).parameters == .encryptionInformation(longTermKey: key16))  // LTK
        #expect(try parseSMP([0x08] + key16).parameters == .identityInformation(identityResolvingKey: key16))  // IRK
        #expect(try parseSMP([0x0A] + key16).parameters == .signingInformation(signatureKey: key16))  // CSRK
        #expect(try parseSMP([0x0D] + key16).parameters == .pairingDHKeyCheck(checkValue: key16))   // DHKey Check
    }

    @Test func pairingFailed() throws {
        let command = try parseSMP([
            0x05,  // code: Pairing Failed
            0x04,  // reason: Confirm Value Failed
        ])
        #expect(command.parameters == .pairingFailed(reason: .confirmValueFailed))
        #expect(command.summary == "SMP Pairing Failed: Confirm Value Failed (0x04)")
        let names = (0x01...0x0F).map { SMPPairingFailedReason(rawValue: UInt8($0)).name }
        #expect(names == ["Passkey Entry Failed", "OOB Not Available", "Authentication Requirements",
                          "Confirm Value Failed", "Pairing Not Supported", "Encryption Key Size", "Command Not Supported",
                          "Unspecified Reason", "Repeated Attempts", "Invalid Parameters", "DHKey Check Failed",
                          "Numeric Comparison Failed", "BR/EDR Pairing in Progress",
                          "Cross-transport Key Derivation/Generation Not Allowed", "Key Rejected"])
        #expect(SMPPairingFailedReason(rawValue: 0x10).name == "Unknown (0x10)")
    }

    @Test func centralIdentification() throws {
        let command = try parseSMP([
            0x07,                                            // code: Central Identification
            0x34, 0x12,                                      // EDIV 0x1234
            0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,  // Rand 0x1122334455667788
        ])
        #expect(command.parameters == .centralIdentification(ediv: 0x1234, rand: 0x1122_3344_5566_7788))
        #expect(command.summary == "SMP Central Identification EDIV 0x1234")
    }

    @Test func identityAddressInformation() throws {
        let command = try parseSMP([
            0x09,                                // code: Identity Address Information
            0x01,                                // address type: static random
            0x66, 0x55, 0x44, 0x33, 0x22, 0xC1,  // address C1:22:33:44:55:66, least significant byte first
        ])
        let address = try #require(BluetoothAddress("C1:22:33:44:55:66"))
        #expect(command.parameters == .identityAddressInformation(addressType: .randomDevice, address: address))
        #expect(command.summary == "SMP Identity Address Information random C1:22:33:44:55:66")
    }

    @Test func securityRequestAndKeypress() throws {
        let request = try parseSMP([
            0x0B,  // code: Security Request
            0x05,  // AuthReq: bonding | MITM
        ])
        #expect(request.parameters == .securityRequest(authReq: SMPAuthenticationRequirements(rawValue: 0x05)))
        #expect(request.summary == "SMP Security Request auth bonding,MITM")
        let keypress = try parseSMP([
            0x0E,  // code: Keypress Notification
            0x01,  // type: passkey digit entered
        ])
        #expect(keypress.parameters == .keypressNotification(SMPKeypressNotificationType(rawValue: 1)))
        #expect(keypress.summary == "SMP Keypress Notification Passkey digit entered")
    }

    @Test func pairingPublicKey() throws {
        let x = [UInt8](repeating: 0xAB, count: 32)
        let y = [UInt8](repeating: 0xCD, count: 32)
        #expect(try parseSMP([0x0C] + x + y).parameters == .pairingPublicKey(x: x, y: y))  // code, X, Y
    }

    @Test func unknownCodeKeepsItsBytes() throws {
        let command = try parseSMP([0x1F, 0x01, 0x02])
        #expect(command.parameters == .unknown(rawParameters: [1, 2]))
        #expect(command.summary == "SMP Unknown (0x1F)")
    }

    static let sizes: [(UInt8, Int)] = [(0x01, 6), (0x02, 6), (0x03, 16), (0x04, 16), (0x05, 1), (0x06, 16), (0x07, 10),
                                        (0x08, 16), (0x09, 7), (0x0A, 16), (0x0B, 1), (0x0C, 64), (0x0D, 16), (0x0E, 1)]

    @Test(arguments: sizes)
    func everyTruncationAndExtraByteGivesTheSizeError(code: UInt8, size: Int) throws {
        let name = SMPCode(rawValue: code).name
        let whole = [code] + [UInt8](repeating: 0x01, count: size)
        _ = try parseSMP(whole)
        #expect(throws: DecodeError.truncated(layer: .smp, field: "SMP code", at: 0, needed: 1, available: 0)) {
            try parseSMP([])
        }
        for length in 1..<whole.count {
            #expect(throws: DecodeError.truncated(layer: .smp, field: "\(name) parameters", at: 1, needed: size,
                                                  available: length - 1)) {
                try parseSMP(Array(whole.prefix(length)))
            }
        }
        #expect(throws: DecodeError.leftover(layer: .smp, structure: name, at: whole.count, count: 1)) {
            try parseSMP(whole + [0xEE])
        }
    }

    @Test func pairingRequestFields() throws {
        let command = try parseSMP([0x01, 0x03, 0x00, 0x09, 0x10, 0x03, 0x07])
        #expect(command.fields == [
            Field("code", .int(1), display: "Pairing Request (0x01)"),
            Field("codeName", .string("Pairing Request")),
            Field("ioCapability", .int(3), display: "NoInputNoOutput (0x03)"),
            Field("oobDataPresent", .bool(false)),
            Field("authReq", .int(9), display: "0x09 [bonding,SC]"),
            Field("maxEncryptionKeySize", .int(16)),
            Field("initiatorKeyDistribution", .int(3), display: "0x03 [EncKey,IdKey]"),
            Field("responderKeyDistribution", .int(7), display: "0x07 [EncKey,IdKey,SignKey]"),
        ])
    }
}

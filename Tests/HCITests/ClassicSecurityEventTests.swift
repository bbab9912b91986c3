import BLEBase
@testable import BLEHCI
import Testing

/// BR/EDR security events and commands (Core v5.4 Vol 4 Part E §7.1.10–11, §7.1.15, §7.1.29,
/// §7.1.36, §7.7.22–24, §7.7.40–45, §7.7.48).
@Suite struct ClassicSecurityEventTests {
    static let peer = BluetoothAddress("00:13:E0:49:B9:CA")!

    func event(_ bytes: [UInt8]) throws -> HCIEventPacket {
        try parsed(bytes) { r throws(DecodeError) in try HCIEventPacket(parsing: &r) }
    }

    func command(_ bytes: [UInt8]) throws -> HCICommandPacket {
        try parsed(bytes) { r throws(DecodeError) in try HCICommandPacket(parsing: &r) }
    }

    @Test func linkKeyRequestFromIsapFrame73() throws {
        // isap_hci_dump.pklg frame 73: Link Key Request from 00:13:E0:49:B9:CA.
        #expect(try event([0x17, 0x06, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00]).classicSecurity == .linkKeyRequest(address: Self.peer))
    }

    @Test func linkKeyReplyFromIsapFrame74AndNegativeReply() throws {
        // Frame 74: Link Key Request Reply, the address then the 16-byte key.
        let reply = try command([0x0B, 0x04, 0x16, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00, 0x88, 0xF2, 0x5A, 0x92, 0x5A, 0x9E,
                                 0x00, 0x4B, 0x05, 0xF9, 0xF7, 0x02, 0xD9, 0x1A, 0x43, 0xBB])
        #expect(ClassicSecurityCommand(reply) == .linkKeyReply(address: Self.peer, hasKey: true))
        let negative = try command([0x0C, 0x04, 0x06, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00])
        #expect(ClassicSecurityCommand(negative) == .linkKeyReply(address: Self.peer, hasKey: false))
        #expect(ClassicSecurityCommand(try command([0x11, 0x04, 0x02, 0x0B, 0x00])) == .authenticationRequested(connectionHandle: 0x000B))
        #expect(ClassicSecurityCommand(try command([0x34, 0x04, 0x07, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00, 0x18]))
                == .ioCapabilityNegativeReply(address: Self.peer, reason: HCIStatus(rawValue: 0x18)))
        // Truncated: not a command of this kind.
        #expect(ClassicSecurityCommand(try command([0x11, 0x04, 0x01, 0x0B])) == nil)
    }

    @Test func ioCapabilityResponseAndReply() throws {
        let e = try event([0x32, 0x09, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00, 0x01, 0x00, 0x05])
        guard case .ioCapabilityResponse(let io) = e.classicSecurity else { Issue.record("not decoded"); return }
        #expect(io.address == Self.peer && io.ioCapabilityName == "DisplayYesNo" && io.oobDataPresent == 0)
        #expect(io.mitm && io.bonding)
        let reply = try command([0x2B, 0x04, 0x09, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00, 0x03, 0x00, 0x00])
        guard case .ioCapabilityReply(let local) = ClassicSecurityCommand(reply) else { Issue.record("not decoded"); return }
        #expect(local.ioCapabilityName == "NoInputNoOutput" && !local.mitm && !local.bonding)
        // One byte short: nil, never a crash.
        #expect(try event([0x32, 0x08, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00, 0x01, 0x00]).classicSecurity == nil)
    }

    @Test func linkKeyNotificationSimplePairingCompleteAndOthers() throws {
        let key = [UInt8](repeating: 0xA5, count: 16)
        #expect(try event([0x18, 0x17, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00] + key + [0x07]).classicSecurity
                == .linkKeyNotification(address: Self.peer, keyType: 0x07))
        #expect(try event([0x18, 0x16, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00] + key).classicSecurity == nil)
        #expect(try event([0x36, 0x07, 0x05, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00]).classicSecurity
                == .simplePairingComplete(status: HCIStatus(rawValue: 0x05), address: Self.peer))
        #expect(try event([0x16, 0x06, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00]).classicSecurity == .pinCodeRequest(address: Self.peer))
        #expect(try event([0x3B, 0x0A, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00, 0x40, 0xE2, 0x01, 0x00]).classicSecurity
                == .userPasskey(address: Self.peer))
        // Another event is not a security event.
        #expect(try event([0x07, 0x07, 0x00, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00]).classicSecurity == nil)
    }
}

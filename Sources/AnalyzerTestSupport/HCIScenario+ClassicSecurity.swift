import BLEBase
import BLECaptureFormats

/// BR/EDR authentication and pairing over HCI (Core v5.4 Vol 4 Part E §7.1.10–7.1.36, §7.7.6,
/// §7.7.22–24, §7.7.40–45): each host command with its Command Complete or Command Status.
extension HCIScenario {
    /// Authentication Requested (§7.1.15) and its Command Status.
    public mutating func authenticationRequested(handle: UInt16) {
        command(0x0411, Self.le16(handle))
        commandStatus(0x0411)
    }

    /// Authentication Complete (§7.7.6).
    public mutating func authenticationComplete(handle: UInt16, status: UInt8 = 0) {
        event(0x06, [status] + Self.le16(handle))
    }

    /// Link Key Request (§7.7.23) answered by the host: Link Key Request Reply (§7.1.10) with a
    /// key, or Negative Reply (§7.1.11); each with its Command Complete.
    public mutating func linkKeyRequest(peer: BluetoothAddress, hostHasKey: Bool) {
        event(0x17, peer.wire)
        let opcode: UInt16 = hostHasKey ? 0x040B : 0x040C
        command(opcode, peer.wire + (hostHasKey ? [UInt8](repeating: 0x5A, count: 16) : []))
        commandComplete(opcode, returning: peer.wire)
    }

    /// Secure Simple Pairing's IO capability exchange (§7.7.40, §7.1.29, §7.7.41): the local
    /// controller asks its host first when the host starts the pairing, else the peer's arrives
    /// first. Capabilities are (IO_Capability, OOB_Data_Present, Authentication_Requirements).
    public mutating func ioCapabilities(peer: BluetoothAddress, local: (UInt8, UInt8, UInt8), remote: (UInt8, UInt8, UInt8),
                                        localFirst: Bool) {
        let response: [UInt8] = peer.wire + [remote.0, remote.1, remote.2]
        if !localFirst { event(0x32, response) }
        event(0x31, peer.wire)
        command(0x042B, peer.wire + [local.0, local.1, local.2])
        commandComplete(0x042B, returning: peer.wire)
        if localFirst { event(0x32, response) }
    }

    /// User Confirmation Request (§7.7.42) with its number, and the host's Reply (§7.1.30).
    public mutating func userConfirmation(peer: BluetoothAddress, value: UInt32) {
        var w = ByteWriter()
        w.writeBytes(peer.wire)
        w.writeUInt32LE(value)
        event(0x33, w.bytes)
        command(0x042C, peer.wire)
        commandComplete(0x042C, returning: peer.wire)
    }

    /// Simple Pairing Complete (§7.7.45).
    public mutating func simplePairingComplete(peer: BluetoothAddress, status: UInt8 = 0) {
        event(0x36, [status] + peer.wire)
    }

    /// PIN Code Request (§7.7.22) and the host's PIN Code Request Reply (§7.1.12) with `pin`.
    public mutating func pinCode(peer: BluetoothAddress, pin: String) {
        event(0x16, peer.wire)
        let bytes = Array(pin.utf8.prefix(16))
        command(0x040D, peer.wire + [UInt8(bytes.count)] + bytes + [UInt8](repeating: 0, count: 16 - bytes.count))
        commandComplete(0x040D, returning: peer.wire)
    }

    /// Link Key Notification (§7.7.24) with a key of `keyType`.
    public mutating func linkKeyNotification(peer: BluetoothAddress, keyType: UInt8) {
        event(0x18, peer.wire + [UInt8](repeating: 0xA5, count: 16) + [keyType])
    }

    /// Set Connection Encryption (§7.1.16) on, its Command Status, and Encryption Change (§7.7.8).
    public mutating func setConnectionEncryption(handle: UInt16, status: UInt8 = 0) {
        command(0x0413, Self.le16(handle) + [0x01])
        commandStatus(0x0413)
        event(0x08, [status] + Self.le16(handle) + [status == 0 ? 0x01 : 0x00])
    }
}

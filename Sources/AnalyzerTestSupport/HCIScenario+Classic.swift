import BLEBase
import BLECaptureFormats

/// BR/EDR links and dynamic L2CAP channels (Core v5.4 Vol 4 Part E §7.7.3; Vol 3 Part A §4).
extension HCIScenario {
    /// Connection Complete (BR/EDR, §7.7.3): an ACL link (link type 0x01) unless `linkType` says otherwise.
    public mutating func classicConnectionComplete(handle: UInt16, peer: BluetoothAddress, status: UInt8 = 0,
                                                   linkType: UInt8 = 0x01) {
        var w = ByteWriter()
        w.writeUInt8(status)
        w.writeUInt16LE(handle)
        w.writeBytes(peer.wire)
        w.writeUInt8(linkType)
        w.writeUInt8(0)
        event(0x03, w.bytes)
    }

    /// Remote Name Request Complete (§7.7.7): the name zero-padded to 248 bytes.
    public mutating func remoteNameRequestComplete(peer: BluetoothAddress, name: String) {
        let bytes = Array(name.utf8.prefix(248))
        event(0x07, [0x00] + peer.wire + bytes + [UInt8](repeating: 0, count: 248 - bytes.count))
    }

    /// One signalling command on CID 0x0001 (BR/EDR) or 0x0005 (LE) (Vol 3 Part A §4).
    public mutating func signalling(handle: UInt16, _ direction: Direction, le: Bool, code: UInt8, identifier: UInt8,
                                    _ data: [UInt8]) {
        var w = ByteWriter()
        w.writeUInt8(code)
        w.writeUInt8(identifier)
        w.writeUInt16LE(UInt16(data.count))
        w.writeBytes(data)
        l2cap(handle: handle, direction, cid: le ? 0x0005 : 0x0001, w.bytes)
    }

    /// A BR/EDR channel for `psm` that the host opens (§4.2–4.5): Connection Request with the
    /// host's CID `local`, Connection Response with the peer's `remote`, and both ends'
    /// Configuration Request and Response with no options (basic mode).
    public mutating func openClassicChannel(handle: UInt16, psm: UInt16, local: UInt16, remote: UInt16, identifier: UInt8) {
        var w = ByteWriter()
        w.writeUInt16LE(psm)
        w.writeUInt16LE(local)
        signalling(handle: handle, .sent, le: false, code: 0x02, identifier: identifier, w.bytes)
        w = ByteWriter()
        for value in [remote, local, 0, 0] { w.writeUInt16LE(value) }
        signalling(handle: handle, .received, le: false, code: 0x03, identifier: identifier, w.bytes)
        // Each end configures the channel towards the other: destination CID, flags 0.
        signalling(handle: handle, .sent, le: false, code: 0x04, identifier: identifier &+ 1, Self.le16(remote) + [0, 0])
        signalling(handle: handle, .received, le: false, code: 0x05, identifier: identifier &+ 1,
                   Self.le16(local) + [0, 0, 0, 0])
        signalling(handle: handle, .received, le: false, code: 0x04, identifier: identifier &+ 2, Self.le16(local) + [0, 0])
        signalling(handle: handle, .sent, le: false, code: 0x05, identifier: identifier &+ 2,
                   Self.le16(remote) + [0, 0, 0, 0])
    }

    /// Enhanced credit-based channels the host opens on LE (§4.25, §4.26): L2CAP Credit Based
    /// Connection Request for `spsm` with the host's CIDs, and the peer's Response with its own.
    public mutating func openEnhancedChannels(handle: UInt16, spsm: UInt16, local: [UInt16], remote: [UInt16],
                                              identifier: UInt8, mtu: UInt16 = 64, mps: UInt16 = 64) {
        var w = ByteWriter()
        for value in [spsm, mtu, mps, 10] + local { w.writeUInt16LE(value) }
        signalling(handle: handle, .sent, le: true, code: 0x17, identifier: identifier, w.bytes)
        w = ByteWriter()
        for value in [mtu, mps, 10, 0] + remote { w.writeUInt16LE(value) }
        signalling(handle: handle, .received, le: true, code: 0x18, identifier: identifier, w.bytes)
    }

    /// An SDU on a credit-based channel `cid`, cut into K-frames of at most `mps` bytes (the MPS counts the SDU length field): the first
    /// starts with the SDU's length (Vol 3 Part A §3.4.3).
    public mutating func kFrames(handle: UInt16, _ direction: Direction, cid: UInt16, sdu: [UInt8], mps: Int = 64) {
        var rest = Self.le16(UInt16(sdu.count)) + sdu
        var first = true
        while first || !rest.isEmpty {
            let size = min(rest.count, mps)
            l2cap(handle: handle, direction, cid: cid, Array(rest.prefix(size)))
            rest.removeFirst(size)
            first = false
        }
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
}

import BLEBase
import BLECaptureFormats

/// LE procedures as a host and controller exchange them (Core v5.4 Vol 4 Part E §7.8, §7.7.65).
extension HCIScenario {
    public static let leSetScanParameters: UInt16 = 0x200B
    public static let leSetScanEnable: UInt16 = 0x200C
    public static let leCreateConnection: UInt16 = 0x200D
    public static let leCreateConnectionCancel: UInt16 = 0x200E
    public static let disconnect: UInt16 = 0x0406

    /// One advertising structure: length, type, data (Core Supplement Part A §1).
    public static func adStructure(_ type: UInt8, _ data: [UInt8]) -> [UInt8] {
        [UInt8(data.count + 1), type] + data
    }

    /// LE Advertising Report (subevent 0x02) with a single report; RSSI follows the data.
    public mutating func advertisingReport(_ address: BluetoothAddress, random: Bool, eventType: UInt8 = 0x00,
                                           data: [UInt8], rssi: Int8) {
        var w = ByteWriter()
        w.writeUInt8(1)
        w.writeUInt8(eventType)
        w.writeUInt8(random ? 1 : 0)
        w.writeBytes(address.wire)
        w.writeUInt8(UInt8(data.count))
        w.writeBytes(data)
        w.writeInt8(rssi)
        leMeta(0x02, w.bytes)
    }

    /// LE Extended Advertising Report (subevent 0x0D), one report per fragment of `data`:
    /// data status 0b01 (more to come) on all but the last fragment.
    public mutating func extendedAdvertisingReport(_ address: BluetoothAddress, random: Bool, data: [UInt8],
                                                   rssi: Int8, sid: UInt8 = 1, fragmentSize: Int = 229) {
        var offset = 0
        repeat {
            let chunk = Array(data[offset..<min(data.count, offset + fragmentSize)])
            offset += chunk.count
            let more = offset < data.count
            var w = ByteWriter()
            w.writeUInt8(1)
            // Connectable + scannable + legacy off; data status in bits 5–6.
            w.writeUInt16LE(0b0000_0011 | (more ? 0b01 << 5 : 0))
            w.writeUInt8(random ? 1 : 0)
            w.writeBytes(address.wire)
            w.writeUInt8(1)        // primary PHY LE 1M
            w.writeUInt8(0)        // no secondary PHY
            w.writeUInt8(sid)
            w.writeInt8(127)       // TX power not available
            w.writeInt8(rssi)
            w.writeUInt16LE(0)     // no periodic advertising
            w.writeUInt8(0)        // direct address type
            w.writeBytes([0, 0, 0, 0, 0, 0])
            w.writeUInt8(UInt8(chunk.count))
            w.writeBytes(chunk)
            leMeta(0x0D, w.bytes)
        } while offset < data.count
    }

    /// LE Create Connection (§7.8.12) to a peer, answered by Command Status.
    public mutating func createConnection(to peer: BluetoothAddress, random: Bool, intervalUnits: UInt16,
                                          status: UInt8 = 0) {
        var w = ByteWriter()
        w.writeUInt16LE(0x0060)      // scan interval
        w.writeUInt16LE(0x0030)      // scan window
        w.writeUInt8(0)              // initiator filter policy: use peer address
        w.writeUInt8(random ? 1 : 0)
        w.writeBytes(peer.wire)
        w.writeUInt8(0)              // own address type public
        w.writeUInt16LE(intervalUnits)
        w.writeUInt16LE(intervalUnits)
        w.writeUInt16LE(0)           // latency
        w.writeUInt16LE(400)         // supervision timeout 4 s
        w.writeUInt16LE(0)
        w.writeUInt16LE(0)
        command(Self.leCreateConnection, w.bytes)
        wait(ms: 1)
        commandStatus(Self.leCreateConnection, status: status)
    }

    /// LE Connection Complete (0x01), or LE Enhanced Connection Complete v1 (0x0A) / v2 (0x29);
    /// the supervision timeout in 10 ms units.
    public mutating func connectionComplete(handle: UInt16, peer: BluetoothAddress, random: Bool,
                                            intervalUnits: UInt16, status: UInt8 = 0, subevent: UInt8 = 0x01,
                                            supervisionUnits: UInt16 = 400) {
        var w = ByteWriter()
        w.writeUInt8(status)
        w.writeUInt16LE(handle)
        w.writeUInt8(0)              // role central
        w.writeUInt8(random ? 1 : 0)
        w.writeBytes(peer.wire)
        if subevent != 0x01 {
            w.writeBytes([UInt8](repeating: 0, count: 12))  // local and peer RPA unused
        }
        w.writeUInt16LE(intervalUnits)
        w.writeUInt16LE(0)
        w.writeUInt16LE(supervisionUnits)
        w.writeUInt8(0)              // central clock accuracy
        if subevent == 0x29 {
            w.writeUInt8(0xFF)       // no advertising handle
            w.writeUInt16LE(0xFFFF)  // no sync handle
        }
        leMeta(subevent, w.bytes)
    }

    /// LE Data Length Change (0x07).
    public mutating func dataLengthChange(handle: UInt16, octets: UInt16 = 251) {
        var w = ByteWriter()
        w.writeUInt16LE(handle)
        for value in [octets, 2120, octets, 2120] { w.writeUInt16LE(value) }
        leMeta(0x07, w.bytes)
    }

    /// The host's Disconnect command (§7.1.6) and its Command Status.
    public mutating func disconnectCommand(handle: UInt16, reason: UInt8 = 0x13) {
        var w = ByteWriter()
        w.writeUInt16LE(handle)
        w.writeUInt8(reason)
        command(Self.disconnect, w.bytes)
        commandStatus(Self.disconnect)
    }

    /// Disconnection Complete (§7.7.5).
    public mutating func disconnectionComplete(handle: UInt16, reason: UInt8) {
        var w = ByteWriter()
        w.writeUInt8(0)
        w.writeUInt16LE(handle)
        w.writeUInt8(reason)
        event(0x05, w.bytes)
    }
}

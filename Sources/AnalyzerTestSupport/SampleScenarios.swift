import BLEBase
import BLECaptureFormats

/// The scenarios behind `Samples/`: small captures the project makes itself, each with something
/// a field engineer would look for. `make-samples` writes them in every container.
public enum SampleScenarios {
    public static let lockA = BluetoothAddress("5C:3A:91:0E:C7:21")!   // resolvable private (0b01…)
    public static let lockAFactoryMAC: [UInt8] = [0x00, 0x1A, 0x7D, 0x10, 0xA1, 0x01]
    public static let lockB = BluetoothAddress("C8:2B:96:41:07:B2")!   // public
    public static let lockBFactoryMAC: [UInt8] = [0xC8, 0x2B, 0x96, 0x41, 0x07, 0xB2]
    public static let scale = BluetoothAddress("E4:5F:01:22:33:44")!   // static random, never connected

    /// Advertising data of a demo lock: flags, 16-bit service list, manufacturer data
    /// (company 0xFFFF, product 0x01, factory MAC MSB first, battery %), complete local name.
    public static func lockAdvertisement(name: String, mac: [UInt8], battery: UInt8) -> [UInt8] {
        HCIScenario.adStructure(0x01, [0x06])
            + HCIScenario.adStructure(0x03, [0xE0, 0xFF])
            + HCIScenario.adStructure(0xFF, [0xFF, 0xFF, 0x01] + mac + [battery])
            + HCIScenario.adStructure(0x09, Array(name.utf8))
    }

    /// The phone connected to lock A on `handle`: LE Create Connection, then its completion
    /// (`subevent` 0x01, or 0x0A for the enhanced one).
    public static func lockAConnected(handle: UInt16 = 0x0040, subevent: UInt8 = 0x01) -> HCIScenario {
        var s = HCIScenario()
        s.createConnection(to: lockA, random: true, intervalUnits: 24)
        s.connectionComplete(handle: handle, peer: lockA, random: true, intervalUnits: 24, subevent: subevent)
        return s
    }

    /// Lock A advertising, then connected on handle 0x0040 40 ms after the request, its GATT
    /// database discovered and its vendor notifications (FFE2) on: where vendor command tests start.
    public static func lockASubscribed() -> HCIScenario {
        var s = HCIScenario()
        let lock = GATTServerModel.demoLock
        s.advertisingReport(lockA, random: true, data: lockAdvertisement(name: "LOCK-A101", mac: lockAFactoryMAC, battery: 87),
                            rssi: -60)
        s.createConnection(to: lockA, random: true, intervalUnits: 24)
        s.wait(ms: 40)
        s.connectionComplete(handle: 0x0040, peer: lockA, random: true, intervalUnits: 24)
        s.discover(handle: 0x0040, model: lock)
        s.writeRequest(handle: 0x0040, attribute: lock.characteristic(0xFFE2)!.cccdHandle!, value: [0x01, 0x00])
        return s
    }

    /// The demo lock discovered by the host, then the lock, as a client, discovering the host's
    /// server (Current Time, 0x1805, at 0x0020–0x0025) and writing its handle 0x0000, which the
    /// host refuses (Invalid Handle: 0x0000 is never a valid handle, Vol 3 Part F §3.2.2).
    public static func lockAClientOfTheHost() -> HCIScenario {
        var s = lockASubscribed()
        s.att(handle: 0x0040, .received, [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28])
        s.wait(ms: 2)
        s.att(handle: 0x0040, .sent, [0x11, 0x06, 0x20, 0x00, 0x25, 0x00, 0x05, 0x18])
        s.wait(ms: 30)
        s.att(handle: 0x0040, .received, [0x12, 0x00, 0x00, 0x02, 0x00])
        s.wait(ms: 1)
        s.att(handle: 0x0040, .sent, [0x01, 0x12, 0x00, 0x00, 0x01])
        return s
    }

    /// A phone talking to two demo locks: a failed HCI command, discovery, vendor commands (one
    /// failing, one split over notifications, one unanswered), an ATT error, a cancelled connection
    /// attempt, a supervision timeout, and a connection still up when the capture ends.
    public static func demoLock() -> HCIScenario {
        var s = HCIScenario()
        let lock = GATTServerModel.demoLock
        let write = lock.characteristic(0xFFE1)!.valueHandle
        let notify = lock.characteristic(0xFFE2)!
        let battery = lock.characteristic(0x2A19)!.valueHandle

        // Scanning: the first LE Set Scan Parameters is rejected, the retry succeeds.
        let badScan: [UInt8] = [0x01, 0x10, 0x00, 0x20, 0x00, 0x00, 0x00]   // window > interval
        s.command(HCIScenario.leSetScanParameters, badScan)
        s.commandComplete(HCIScenario.leSetScanParameters, status: 0x12)
        s.command(HCIScenario.leSetScanParameters, [0x01, 0x60, 0x00, 0x30, 0x00, 0x00, 0x00])
        s.commandComplete(HCIScenario.leSetScanParameters)
        s.command(HCIScenario.leSetScanEnable, [0x01, 0x00])
        s.commandComplete(HCIScenario.leSetScanEnable)

        let adA = lockAdvertisement(name: "LOCK-A101", mac: lockAFactoryMAC, battery: 87)
        let adB = lockAdvertisement(name: "LOCK-B7B2", mac: lockBFactoryMAC, battery: 41)
        let scaleAd = HCIScenario.adStructure(0x01, [0x06]) + HCIScenario.adStructure(0x03, [0x1D, 0x18])
            + HCIScenario.adStructure(0x09, Array("Scale\u{1B}[31m".utf8))  // a hostile name: escaped on output
        for round in 0..<4 {
            s.advertisingReport(lockA, random: true, data: adA, rssi: Int8(-58 - round))
            s.wait(ms: 20)
            s.extendedAdvertisingReport(lockB, random: false, data: adB + HCIScenario.adStructure(0x0A, [0x04]),
                                        rssi: -70, fragmentSize: 16)
            s.wait(ms: 20)
            s.advertisingReport(scale, random: true, eventType: 0x03, data: scaleAd, rssi: -81)
            s.wait(ms: 60)
        }
        s.command(HCIScenario.leSetScanEnable, [0x00, 0x00])
        s.commandComplete(HCIScenario.leSetScanEnable)

        // Connection 1: lock A, full discovery, vendor commands; the host disconnects.
        let h1: UInt16 = 0x0040
        s.createConnection(to: lockA, random: true, intervalUnits: 24)
        s.wait(ms: 40)
        s.connectionComplete(handle: h1, peer: lockA, random: true, intervalUnits: 24)
        s.dataLengthChange(handle: h1)
        s.exchangeMTU(handle: h1, server: 247)
        s.discover(handle: h1, model: lock)
        s.writeRequest(handle: h1, attribute: notify.cccdHandle!, value: [0x01, 0x00])
        s.readRequest(handle: h1, attribute: battery, value: [87])
        s.vendorCommand(handle: h1, write: write, notify: notify.valueHandle, command: 0x01, sequence: 0x59,
                        request: [], response: [0x00, 0x01, 0x04, 0x02, 0x41, 0x31, 0x30, 0x31], mtu: 247)
        s.vendorCommand(handle: h1, write: write, notify: notify.valueHandle, command: 0x10, sequence: 0x5A,
                        request: [0x11, 0x22, 0x33, 0x44, 0x55, 0x66], response: [0x00], mtu: 247)
        s.vendorCommand(handle: h1, write: write, notify: notify.valueHandle, command: 0x11, sequence: 0x5B,
                        request: [], response: [0x03], mtu: 247)                 // status 0x03: failed
        s.wait(ms: 200)
        s.disconnectCommand(handle: h1, reason: 0x13)
        s.wait(ms: 30)
        s.disconnectionComplete(handle: h1, reason: 0x16)

        // Connection 2: lock B over Enhanced Connection Complete v2, default MTU 23.
        let h2: UInt16 = 0x0041
        s.wait(ms: 300)
        s.createConnection(to: lockB, random: false, intervalUnits: 12)
        s.wait(ms: 25)
        s.connectionComplete(handle: h2, peer: lockB, random: false, intervalUnits: 12, subevent: 0x29)
        s.discover(handle: h2, model: lock)
        s.writeRequest(handle: h2, attribute: battery, value: [0x64], errorCode: 0x03)   // Write Not Permitted
        s.writeRequest(handle: h2, attribute: notify.cccdHandle!, value: [0x01, 0x00])
        let log = (0..<60).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
        s.vendorCommand(handle: h2, write: write, notify: notify.valueHandle, command: 0x20, sequence: 0xC3,
                        request: [], response: [0x00] + log, mtu: 23)           // split over 4 notifications
        s.writeCommand(handle: h2, attribute: write,
                       value: DemoLockFrame.encode(command: 0x11, sequence: 0xC4, plaintext: []))
        s.wait(ms: 250)
        // A vendor command by Write Request that is never answered: the link drops (supervision timeout).
        var unanswered = ByteWriter()
        unanswered.writeUInt8(0x12)
        unanswered.writeUInt16LE(write)
        unanswered.writeBytes(DemoLockFrame.encode(command: 0x02, sequence: 0xC5, plaintext: [0x66, 0x2A, 0x13, 0x19]))
        s.att(handle: h2, .sent, unanswered.bytes)
        s.wait(ms: 4000)
        s.disconnectionComplete(handle: h2, reason: 0x08)

        // A connection attempt the host cancels: completion with 0x02 is a cancel, not a failure.
        s.wait(ms: 200)
        s.createConnection(to: lockB, random: false, intervalUnits: 12)
        s.wait(ms: 1500)
        s.command(HCIScenario.leCreateConnectionCancel)
        s.commandComplete(HCIScenario.leCreateConnectionCancel)
        s.connectionComplete(handle: 0x0000, peer: lockB, random: false, intervalUnits: 0, status: 0x02)

        // Connection 3: lock A again, no discovery (handles known from connection 1); still up at the end.
        let h3: UInt16 = 0x0042
        s.wait(ms: 500)
        s.advertisingReport(lockA, random: true, data: adA, rssi: -60)
        s.createConnection(to: lockA, random: true, intervalUnits: 24)
        s.wait(ms: 35)
        s.connectionComplete(handle: h3, peer: lockA, random: true, intervalUnits: 24, subevent: 0x0A)
        s.writeRequest(handle: h3, attribute: notify.cccdHandle!, value: [0x01, 0x00])
        s.vendorCommand(handle: h3, write: write, notify: notify.valueHandle, command: 0x10, sequence: 0x5C,
                        request: [0x11, 0x22, 0x33, 0x44, 0x55, 0x66], response: [0x00], mtu: 23)
        s.readRequest(handle: h3, attribute: lock.characteristic(0xFFE3)!.valueHandle, value: [], errorCode: 0x05)
        return s
    }
}

extension HCIScenario {
    /// A demo-lock command written by Write Request, then its response frame notified in MTU−3 chunks.
    public mutating func vendorCommand(handle: UInt16, write: UInt16, notify: UInt16, command: UInt8, sequence: UInt8,
                                       request: [UInt8], response: [UInt8], mtu: Int) {
        writeRequest(handle: handle, attribute: write,
                     value: DemoLockFrame.encode(command: command, sequence: sequence, plaintext: request))
        wait(ms: 40)
        self.notify(handle: handle, attribute: notify,
                    value: DemoLockFrame.encode(command: command | 0x80, sequence: sequence, plaintext: response),
                    mtu: mtu)
        wait(ms: 60)
    }
}

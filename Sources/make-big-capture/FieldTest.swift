import AnalyzerTestSupport
import BLEBase
import BLECaptureFormats

/// A long field test, produced segment by segment so that memory stays flat however long it runs:
/// a phone scanning for and talking to `locks` demo locks, all connected at once. Each lock gets a
/// full discovery, subscribes, then exchanges vendor commands whose responses are split across
/// notifications (MTU 23) or not (MTU 247); background advertising keeps coming; every so often a
/// lock disconnects (host or supervision timeout) and reconnects under a new handle. A few commands
/// fail (status 0x03), a few responses carry a bad checksum and a few writes are refused.
struct FieldTest {
    struct Lock {
        var address: BluetoothAddress
        var mac: [UInt8]
        var advertisement: [UInt8]
        var handle: UInt16
        var mtu: Int
        var sequence: UInt8
    }

    let model = GATTServerModel.demoLock
    private(set) var locks: [Lock] = []
    private var clockUs: Int64 = 1_714_033_432_000_000
    private var round = 0
    private var nextHandle: UInt16 = 0x0040

    /// Rounds between two reconnections (each time one lock drops and comes back); 0: never, so
    /// that the same `locks` connections last the whole capture.
    let reconnectEvery: Int

    init(locks count: Int, reconnectEvery: Int = 4) {
        self.reconnectEvery = reconnectEvery
        for index in 0..<count {
            let low = UInt8(truncatingIfNeeded: index)
            let mac: [UInt8] = [0x00, 0x1A, 0x7D, 0x10, 0xB0, low]
            // Static random addresses (top bits 0b11), one per lock.
            let address = BluetoothAddress(wire: [low, 0x33, 0x22, 0x11, 0x5F, 0xE4 | (low & 0x03)])
            let name = "LOCK-F" + String(index, radix: 16, uppercase: true)
            locks.append(Lock(address: address, mac: mac,
                              advertisement: SampleScenarios.lockAdvertisement(name: name, mac: mac, battery: 80),
                              handle: 0, mtu: index % 2 == 0 ? 23 : 247, sequence: UInt8(truncatingIfNeeded: index * 17)))
        }
    }

    private var write: UInt16 { model.characteristic(0xFFE1)?.valueHandle ?? 0 }
    private var notify: GATTServerModel.Characteristic? { model.characteristic(0xFFE2) }
    private var battery: UInt16 { model.characteristic(0x2A19)?.valueHandle ?? 0 }

    /// The opening: scanning, every lock advertising, every lock connected and discovered.
    /// `newIndex` starts with the Linux monitor's New Index record (type primary, bus USB,
    /// address, name `hci0`), which btmon needs to follow connections.
    mutating func opening(newIndex: Bool) -> [CaptureRecord] {
        var s = HCIScenario(startUs: clockUs)
        if newIndex {
            s.append(.control(name: "New Index", code: 0), .unknown,
                     [0x00, 0x01, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11] + Array("hci0".utf8) + [0, 0, 0, 0])
        }
        s.command(HCIScenario.leSetScanParameters, [0x01, 0x60, 0x00, 0x30, 0x00, 0x00, 0x00])
        s.commandComplete(HCIScenario.leSetScanParameters)
        s.command(HCIScenario.leSetScanEnable, [0x01, 0x00])
        s.commandComplete(HCIScenario.leSetScanEnable)
        for index in locks.indices { advertise(index, in: &s) }
        for index in locks.indices { connect(index, in: &s, discover: true) }
        clockUs = s.clockUs
        return s.records
    }

    /// One round: a vendor command on every lock (pairs interleaved), background advertising,
    /// and, every few rounds, one lock dropping and coming back.
    mutating func nextRound() -> [CaptureRecord] {
        var s = HCIScenario(startUs: clockUs)
        round += 1
        for index in locks.indices {
            command(index, in: &s)
            if index % 6 == 0 { advertise((index + round) % locks.count, in: &s) }
        }
        if reconnectEvery > 0, round % reconnectEvery == 0 {
            let index = (round / reconnectEvery) % locks.count
            let handle = locks[index].handle
            if round % (reconnectEvery * 5) == 0 {
                s.wait(ms: 4000)
                s.disconnectionComplete(handle: handle, reason: 0x08)   // supervision timeout
            } else {
                s.disconnectCommand(handle: handle)
                s.wait(ms: 30)
                s.disconnectionComplete(handle: handle, reason: 0x16)
            }
            advertise(index, in: &s)
            connect(index, in: &s, discover: round % (reconnectEvery * 10) == 0)
        }
        clockUs = s.clockUs
        return s.records
    }

    private func advertise(_ index: Int, in s: inout HCIScenario) {
        let lock = locks[index]
        if index % 3 == 0 {
            s.extendedAdvertisingReport(lock.address, random: true, data: lock.advertisement, rssi: -64, fragmentSize: 24)
        } else {
            s.advertisingReport(lock.address, random: true, data: lock.advertisement, rssi: Int8(-50 - index % 30))
        }
    }

    private mutating func connect(_ index: Int, in s: inout HCIScenario, discover: Bool) {
        let handle = nextHandle
        nextHandle = nextHandle >= 0x0EFF ? 0x0040 : nextHandle + 1
        locks[index].handle = handle
        s.createConnection(to: locks[index].address, random: true, intervalUnits: 24)
        s.wait(ms: 30)
        s.connectionComplete(handle: handle, peer: locks[index].address, random: true, intervalUnits: 24, subevent: 0x0A)
        if locks[index].mtu > 23 { s.exchangeMTU(handle: handle, server: UInt16(locks[index].mtu)) }
        if discover { s.discover(handle: handle, model: model) }
        if let cccd = notify?.cccdHandle { s.writeRequest(handle: handle, attribute: cccd, value: [0x01, 0x00]) }
    }

    /// GET_INFO, UNLOCK, LOCK or READ_LOG by turns; 1 in 50 fails, 1 in 97 answers with a bad CRC,
    /// 1 in 61 is a battery read refused by the lock.
    private mutating func command(_ index: Int, in s: inout HCIScenario) {
        let lock = locks[index]
        let turn = round + index
        locks[index].sequence &+= 1
        let seq = lock.sequence
        guard let notify else { return }
        if turn % 61 == 0 {
            s.readRequest(handle: lock.handle, attribute: battery, value: [], errorCode: 0x02)
            return
        }
        let (code, request, response): (UInt8, [UInt8], [UInt8]) = switch turn % 4 {
        case 0: (0x01, [], [0x00, 0x01, 0x04, 0x02, 0x41, 0x31, 0x30, 0x31])
        case 1: (0x10, [0x11, 0x22, 0x33, 0x44, 0x55, 0x66], [0x00])
        case 2: (0x11, [], [turn % 50 == 2 ? 0x03 : 0x00])
        default: (0x20, [], [0x00] + (0..<40).map { UInt8(truncatingIfNeeded: $0 * 7 + turn) })
        }
        s.writeRequest(handle: lock.handle, attribute: write,
                       value: DemoLockFrame.encode(command: code, sequence: seq, plaintext: request))
        s.wait(ms: 20)
        s.notify(handle: lock.handle, attribute: notify.valueHandle,
                 value: DemoLockFrame.encode(command: code | 0x80, sequence: seq, plaintext: response,
                                             corruptCRC: turn % 97 == 0),
                 mtu: lock.mtu)
    }
}

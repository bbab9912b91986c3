import BLEBase
import BLECaptureFormats

/// Frames of the light controller sample (Samples/profiles/light-controller.yaml):
///
/// ```
/// [20 00]  optional prefix, written by one version of the app
/// 3A 26    sync
/// cmd      command (responses: cmd | 0x80)
/// len      payload length
/// payload  (responses: status, then data)
/// sum8     sum of the bytes from the sync through the payload, modulo 256
/// ```
public enum LightFrame {
    public static func encode(command: UInt8, payload: [UInt8], prefixed: Bool = false, corrupt: Bool = false) -> [UInt8] {
        var frame: [UInt8] = [0x3A, 0x26, command, UInt8(payload.count)] + payload
        let sum = UInt8(truncatingIfNeeded: frame.reduce(0) { $0 + Int($1) })
        frame.append(corrupt ? sum ^ 0x01 : sum)
        return (prefixed ? [0x20, 0x00] : []) + frame
    }
}

/// Frames of the battery monitor sample (Samples/profiles/battery-monitor.yaml): the phone's
/// start `40 40`, the monitor's `24 24`; then command, payload length, payload, sum16 of the
/// bytes from the command through the payload (modulo 65536, low byte first), and `0D 0A`.
public enum BatteryFrame {
    public static func encode(fromHost: Bool, command: UInt8, payload: [UInt8], corrupt: Bool = false) -> [UInt8] {
        let body: [UInt8] = [command, UInt8(payload.count)] + payload
        let sum = body.reduce(0) { ($0 + Int($1)) & 0xFFFF } ^ (corrupt ? 0x0100 : 0)
        return (fromHost ? [0x40, 0x40] : [0x24, 0x24]) + body + [UInt8(sum & 0xFF), UInt8(sum >> 8), 0x0D, 0x0A]
    }
}

extension SampleScenarios {
    public static let light = BluetoothAddress("D0:3E:7A:11:20:3C")!     // public
    public static let batteryMonitor = BluetoothAddress("E1:52:04:21:9B:07")!   // static random

    /// The light controller's table: GAP, and service FFD0 with write FFD9 (Write Command) and
    /// notify FFD4 (+CCCD).
    public static let lightModel: GATTServerModel = {
        var model = GATTServerModel()
        model.addService(0x1800, [(0x2A00, 0x02, false)])
        model.addService(0xFFD0, [(0xFFD9, 0x04, false), (0xFFD4, 0x10, true)])
        return model
    }()

    /// The battery monitor's table: GAP, and service FFF0 with notify FFF1 (+CCCD) and write FFF2.
    public static let batteryModel: GATTServerModel = {
        var model = GATTServerModel()
        model.addService(0x1800, [(0x2A00, 0x02, false)])
        model.addService(0xFFF0, [(0xFFF1, 0x10, true), (0xFFF2, 0x0C, false)])
        return model
    }()

    /// A phone app in two versions driving a light controller: the first connection's app writes
    /// `20 00` before each frame, the second's does not. Writes are whole frames (a cut write is
    /// malformed on its own, the next decodes); the state response (26 bytes) comes in two
    /// notifications; one response's checksum is wrong.
    public static func lightController() -> HCIScenario {
        var s = HCIScenario()
        let write = lightModel.characteristic(0xFFD9)!.valueHandle
        let notify = lightModel.characteristic(0xFFD4)!
        let ad = HCIScenario.adStructure(0x01, [0x06]) + HCIScenario.adStructure(0x09, Array("LIGHT-203C".utf8))
        s.command(HCIScenario.leSetScanEnable, [0x01, 0x00])
        s.commandComplete(HCIScenario.leSetScanEnable)
        s.advertisingReport(light, random: false, data: ad, rssi: -52)
        s.command(HCIScenario.leSetScanEnable, [0x00, 0x00])
        s.commandComplete(HCIScenario.leSetScanEnable)
        for (round, h) in [(0, UInt16(0x0040)), (1, UInt16(0x0041))] {
            let prefixed = round == 0
            // Status, on, RGB, brightness, schedule.
            let state: [UInt8] = [0x00, UInt8(round), 0xFF, 0x80, 0x00, 0x64] + Array(0..<16)
            s.wait(ms: 100)
            s.createConnection(to: light, random: false, intervalUnits: 24)
            s.wait(ms: 30)
            s.connectionComplete(handle: h, peer: light, random: false, intervalUnits: 24)
            s.discover(handle: h, model: lightModel)
            s.writeRequest(handle: h, attribute: notify.cccdHandle!, value: [0x01, 0x00])
            func exchange(_ command: UInt8, _ payload: [UInt8], _ response: [UInt8], corrupt: Bool = false) {
                s.writeCommand(handle: h, attribute: write,
                               value: LightFrame.encode(command: command, payload: payload, prefixed: prefixed))
                s.wait(ms: 30)
                s.notify(handle: h, attribute: notify.valueHandle,
                         value: LightFrame.encode(command: command | 0x80, payload: response, corrupt: corrupt), mtu: 23)
                s.wait(ms: 70)
            }
            exchange(0x10, [], state)                              // GET_STATE: 27 bytes, two notifications
            // Responses: status, then the state set.
            exchange(0x71, [0x01], [0x00, 0x01])                   // POWER on
            exchange(0x31, [0xFF, 0x40, 0x00], [0x00, 0xFF, 0x40, 0x00], corrupt: !prefixed)   // SET_COLOR
            if prefixed {
                // A write cut short (the app's buffer bug): malformed alone, never joined with the next.
                s.writeCommand(handle: h, attribute: write,
                               value: Array(LightFrame.encode(command: 0x31, payload: [0x00, 0x00, 0xFF], prefixed: true).prefix(6)))
                s.wait(ms: 40)
            }
            exchange(0x31, [0x00, 0x00, 0xFF], [0x00, 0x00, 0x00, 0xFF])
            exchange(0x71, [0x00], [0x00, 0x00])                   // POWER off
            s.wait(ms: 200)
            s.disconnectCommand(handle: h, reason: 0x13)
            s.wait(ms: 30)
            s.disconnectionComplete(handle: h, reason: 0x16)
        }
        return s
    }

    /// A phone reading a battery monitor: `40 40` frames from the phone, `24 24` from the monitor,
    /// a 57-byte history frame split over three notifications, an alarm pushed unasked, and a
    /// voltage response with a wrong checksum.
    public static func batteryMonitorScenario() -> HCIScenario {
        var s = HCIScenario()
        let notify = batteryModel.characteristic(0xFFF1)!
        let write = batteryModel.characteristic(0xFFF2)!.valueHandle
        let ad = HCIScenario.adStructure(0x01, [0x06]) + HCIScenario.adStructure(0x03, [0xF0, 0xFF])
            + HCIScenario.adStructure(0x09, Array("BATMON-0421".utf8))
        s.command(HCIScenario.leSetScanEnable, [0x01, 0x00])
        s.commandComplete(HCIScenario.leSetScanEnable)
        s.advertisingReport(batteryMonitor, random: true, data: ad, rssi: -64)
        s.command(HCIScenario.leSetScanEnable, [0x00, 0x00])
        s.commandComplete(HCIScenario.leSetScanEnable)
        let h: UInt16 = 0x0040
        s.createConnection(to: batteryMonitor, random: true, intervalUnits: 24)
        s.wait(ms: 30)
        s.connectionComplete(handle: h, peer: batteryMonitor, random: true, intervalUnits: 24)
        s.discover(handle: h, model: batteryModel)
        s.writeRequest(handle: h, attribute: notify.cccdHandle!, value: [0x01, 0x00])
        func exchange(_ command: UInt8, _ payload: [UInt8], _ response: [UInt8], corrupt: Bool = false) {
            s.writeCommand(handle: h, attribute: write, value: BatteryFrame.encode(fromHost: true, command: command, payload: payload))
            s.wait(ms: 40)
            s.notify(handle: h, attribute: notify.valueHandle,
                     value: BatteryFrame.encode(fromHost: false, command: command, payload: response, corrupt: corrupt), mtu: 23)
            s.wait(ms: 60)
        }
        for (i, millivolts) in [12_840, 12_836, 12_831].enumerated() {
            exchange(0x01, [], [0x00, UInt8(millivolts >> 8), UInt8(millivolts & 0xFF)], corrupt: i == 2)   // READ_VOLTAGE
            s.wait(ms: 900)
        }
        let history = (0..<24).flatMap { i -> [UInt8] in let mv = 12_900 - i * 7; return [UInt8(mv >> 8), UInt8(mv & 0xFF)] }
        exchange(0x02, [0x18], [0x00] + history)                   // READ_HISTORY: a 57-byte frame, three notifications
        s.notify(handle: h, attribute: notify.valueHandle,
                 value: BatteryFrame.encode(fromHost: false, command: 0x10, payload: [0x02, 0x2F, 0x1C]), mtu: 23)   // ALARM
        s.wait(ms: 100)
        exchange(0x03, [0x01], [0x00])                             // SET_ALARM
        s.wait(ms: 200)
        s.disconnectCommand(handle: h, reason: 0x13)
        s.wait(ms: 30)
        s.disconnectionComplete(handle: h, reason: 0x16)
        return s
    }
}

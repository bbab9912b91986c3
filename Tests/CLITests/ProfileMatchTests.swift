import AnalyzerTestSupport
import BLEBase
import BLECaptureFormats
import Foundation
import Testing

/// Profiles decided on the whole capture: a lock whose advertising is seen only after its link
/// was up, one never seen advertising (`--apply`), identities from names merging addresses, and
/// `profiles[]` saying why a profile decoded nothing.
@Suite(.serialized)
struct ProfileMatchTests {
    static let lockProfile = "Samples/profiles/demo-lock.yaml"

    /// Lock A connected without a scan before; `advertiseAt` says when its advertising shows:
    /// `.never`, `.midway` (between two commands) or `.atTheEnd` (after the link is down).
    enum Advertising { case never, midway, atTheEnd }

    static func writeLateLock(_ advertising: Advertising) throws -> String {
        var s = HCIScenario()
        let lock = GATTServerModel.demoLock
        let write = lock.characteristic(0xFFE1)!.valueHandle
        let notify = lock.characteristic(0xFFE2)!
        let ad = SampleScenarios.lockAdvertisement(name: "LOCK-A101", mac: SampleScenarios.lockAFactoryMAC, battery: 87)
        s.createConnection(to: SampleScenarios.lockA, random: true, intervalUnits: 24)
        s.wait(ms: 40)
        s.connectionComplete(handle: 0x0040, peer: SampleScenarios.lockA, random: true, intervalUnits: 24)
        s.discover(handle: 0x0040, model: lock)
        s.writeRequest(handle: 0x0040, attribute: notify.cccdHandle!, value: [0x01, 0x00])
        s.vendorCommand(handle: 0x0040, write: write, notify: notify.valueHandle, command: 0x01, sequence: 0x59,
                        request: [], response: [0x00, 0x01], mtu: 23)
        if advertising == .midway { s.advertisingReport(SampleScenarios.lockA, random: true, data: ad, rssi: -60) }
        s.vendorCommand(handle: 0x0040, write: write, notify: notify.valueHandle, command: 0x10, sequence: 0x5A,
                        request: [1, 2, 3, 4, 5, 6], response: [0x00], mtu: 23)
        s.disconnectCommand(handle: 0x0040, reason: 0x13)
        s.disconnectionComplete(handle: 0x0040, reason: 0x16)
        if advertising == .atTheEnd {
            s.wait(ms: 500)
            s.advertisingReport(SampleScenarios.lockA, random: true, data: ad, rssi: -60)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-late-\(UUID().uuidString).btsnoop").path
        try Data(CaptureWriter.btsnoop(s.records)).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func report(_ arguments: [String]) throws -> (json: [String: Any], stderr: String) {
        let run = try CLI.run(arguments + ["--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return (json, run.stderr)
    }

    static func frames(_ json: [String: Any]) -> [String] {
        (json["vendorFrames"] as? [[String: Any]] ?? []).map { "\($0["outcome"] ?? "")" }
    }

    static func profiles(_ json: [String: Any]) -> [String] {
        (json["profiles"] as? [[String: Any]] ?? []).map {
            "\($0["name"] ?? "") devices \($0["devices"] ?? "") connections \($0["connections"] ?? "") frames \($0["frames"] ?? "") why \($0["why"] ?? "null")"
        }
    }

    @Test(arguments: [Advertising.midway, .atTheEnd])
    func advertisingSeenOnlyAfterTheLinkWasUpStillMatches(_ advertising: Advertising) throws {
        let path = try Self.writeLateLock(advertising)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (json, stderr) = try Self.report([path, "--profile", Self.lockProfile])
        #expect(Self.frames(json) == ["ok", "ok", "ok", "ok"])
        #expect(Self.profiles(json) == ["demo-lock devices 1 connections 1 frames 4 why <null>"])
        if advertising == .atTheEnd {
            #expect(stderr.contains("C1: profile 'demo-lock' matched on what the whole capture showed of its device; "
                                    + "its values were held and decoded at the end"))
        } else {
            #expect(stderr == "")
        }
    }

    @Test func aProfileThatMatchesNothingSaysWhyAndApplyDecodesAnyway() throws {
        let path = try Self.writeLateLock(.never)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (json, stderr) = try Self.report([path, "--profile", Self.lockProfile])
        #expect(Self.frames(json) == [])
        #expect(Self.profiles(json) == ["demo-lock devices 0 connections 0 frames 0 why matched no connection: company 0xFFFF never advertised by the device of C1; service FFE0 discovered on C1"])
        #expect(stderr.hasSuffix("profile 'demo-lock' decoded nothing: matched no connection: company 0xFFFF never advertised by the device of C1; "
                             + "service FFE0 discovered on C1\n"))
        let (applied, quiet) = try Self.report([path, "--profile", Self.lockProfile, "--apply", "demo-lock=C1"])
        #expect(Self.frames(applied) == ["ok", "ok", "ok", "ok"])
        #expect(quiet == "")
        // The device of C1 (D1) named instead of the connection: the same frames.
        let (byDevice, _) = try Self.report([path, "--profile", Self.lockProfile, "--apply", "demo-lock=D1"])
        #expect(Self.frames(byDevice) == ["ok", "ok", "ok", "ok"])
        let (otherDevice, _) = try Self.report([path, "--profile", Self.lockProfile, "--apply", "demo-lock=D2"])
        #expect(Self.frames(otherDevice) == [])
        let bad = try CLI.run([path, "--profile", Self.lockProfile, "--apply", "lock=C1"])
        #expect(bad.status == 2 && bad.stderr == "bledecode: error: --apply lock=C1: no profile named 'lock' was given (demo-lock)\n")
        let notAnID = try CLI.run([path, "--profile", Self.lockProfile, "--apply", "demo-lock=C1x"])
        #expect(notAnID.status == 2
                && notAnID.stderr == "bledecode: error: --apply demo-lock=C1x: expected PROFILE=Cn (a connection) or PROFILE=Dn (a device)\n")
    }

    /// Two rotating addresses advertising one name, a profile taking its identity from the name:
    /// one device.
    @Test func anIdentityFromTheNameMergesAddresses() throws {
        var s = HCIScenario()
        let ad = HCIScenario.adStructure(0x01, [0x06]) + HCIScenario.adStructure(0x03, [0xF0, 0xFF])
        let scanResponse = HCIScenario.adStructure(0x09, Array("BATMON-0421".utf8))
        for address in ["4A:11:22:33:44:55", "5B:66:77:88:99:AA"] {
            let a = BluetoothAddress(address)!
            s.advertisingReport(a, random: true, data: ad, rssi: -60)
            s.advertisingReport(a, random: true, eventType: 0x04, data: scanResponse, rssi: -60)   // scan response: the name
            s.wait(ms: 100)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-names-\(UUID().uuidString).btsnoop").path
        try Data(CaptureWriter.btsnoop(s.records)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (json, _) = try Self.report([path, "--profile", "Samples/profiles/battery-monitor.yaml"])
        let devices = json["devices"] as? [[String: Any]] ?? []
        #expect(devices.count == 1)
        #expect((devices.first?["identity"] as? [String: Any])?["value"] as? String == "0421")
        #expect((devices.first?["addresses"] as? [Any])?.count == 2)
    }

    /// The battery monitor's profile on the light controller's capture: nothing advertised or
    /// discovered fits; applied by hand, it matches a connection without finding frames.
    @Test func whyAProfileDecodedNothing() throws {
        let args = ["Samples/light-controller.btsnoop", "--profile", "Samples/profiles/battery-monitor.yaml"]
        let (json, stderr) = try Self.report(args)
        #expect(Self.profiles(json) == ["battery-monitor devices 0 connections 0 frames 0 why matched no connection: "
                                        + "no advertised name matches; service FFF0 never advertised"])
        #expect(stderr.contains("profile 'battery-monitor' decoded nothing: matched no connection: no advertised name matches; "
                                + "service FFF0 never advertised\n"))
        let (applied, _) = try Self.report(args + ["--apply", "battery-monitor=C1"])
        #expect(Self.profiles(applied) == ["battery-monitor devices 1 connections 1 frames 0 why matched C1 but found no frames on its channels"])
    }
}

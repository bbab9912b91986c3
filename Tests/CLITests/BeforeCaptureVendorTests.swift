import AnalyzerTestSupport
import Foundation
import Testing

/// A demo-lock link the capture did not see begin (no LE Connection Complete, no advertising, no
/// device known): its vendor frames, failures and `verify` rows are those of any other link.
@Suite(.serialized)
struct BeforeCaptureVendorTests {
    /// Discovery, the CCCD write, two commands answered and one unanswered, then the link drops.
    static func writeCapture() throws -> String {
        var s = HCIScenario()
        let lock = GATTServerModel.demoLock
        let write = lock.characteristic(0xFFE1)!.valueHandle
        let notify = lock.characteristic(0xFFE2)!
        s.wait(ms: 10)
        s.discover(handle: 0x0040, model: lock)
        s.writeRequest(handle: 0x0040, attribute: notify.cccdHandle!, value: [0x01, 0x00])
        s.vendorCommand(handle: 0x0040, write: write, notify: notify.valueHandle, command: 0x01, sequence: 0x59,
                        request: [], response: [0x00, 0x01], mtu: 23)
        s.vendorCommand(handle: 0x0040, write: write, notify: notify.valueHandle, command: 0x11, sequence: 0x5A,
                        request: [], response: [0x03], mtu: 23)                  // status 0x03: failed
        s.wait(ms: 100)
        s.disconnectionComplete(handle: 0x0040, reason: 0x08)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-before-\(UUID().uuidString).btsnoop").path
        try Data(CaptureWriter.btsnoop(s.records)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// demo-lock's match rule with its company criterion left out: the service discovered on
    /// the link decides it.
    static func writeServiceOnlyProfile() throws -> String {
        let text = try String(contentsOfFile: SharedCaptures.packageRoot.appendingPathComponent(ProfileMatchTests.lockProfile).path,
                              encoding: .utf8)
        let edited = text.replacingOccurrences(of: "match:\n  companyId: 0xFFFF\n", with: "match:\n")
        #expect(edited != text)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-service-\(UUID().uuidString).yaml").path
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Applied by hand (`--apply demo-lock=C1`: its company criterion cannot be decided on a link
    /// whose device the capture never shows), or by a rule the link's discovery decides: the same
    /// frames, failure and rows as on a link seen to begin.
    @Test func itsFramesFailuresAndRowsAreThoseOfAnyLink() throws {
        let path = try Self.writeCapture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let serviceOnly = try Self.writeServiceOnlyProfile()
        defer { try? FileManager.default.removeItem(atPath: serviceOnly) }
        let table = """
            device  connection  direction       handle  frames  crc ok  crc bad  malformed  unanswered  failed  unsolicited  records    time
            -       C1          device-to-host  0x0012  2       2       0        0          0           1       0            41…45      +0.480 s … +0.623 s
            -       C1          host-to-device  0x0010  2       2       0        0          0           1       0            38…42      +0.406 s … +0.549 s
            vendor-status-failure  C1  record 45  +0.623 s  response LOCK (0x91) seq 0x5A: status 0x03 says the command failed
            1 vendor failure(s)

            """
        for profile in [["--profile", ProfileMatchTests.lockProfile, "--apply", "demo-lock=C1"], ["--profile", serviceOnly]] {
            let run = try CLI.run(["verify", path] + profile)
            #expect(run.status == 1 && run.stderr == "", "\(profile)")
            #expect(run.stdout == table, "\(profile)")
            let verified = try #require(try JSONSerialization.jsonObject(with: Data(CLI.run(["verify", path, "--json"] + profile).stdout.utf8))
                as? [String: Any])
            #expect(ProfileMatchTests.profiles(verified) == ["demo-lock devices 0 connections 1 frames 4 why <null>"], "\(profile)")
            let rows = (verified["rows"] as? [[String: Any]] ?? []).map {
                "\($0["connection"] ?? "") \($0["direction"] ?? "") records \($0["firstRecord"] ?? "")…\($0["lastRecord"] ?? "") "
                    + "+\(($0["firstTimeUs"] as? Int64 ?? 0) - 1_714_033_432_000_000) … +\(($0["lastTimeUs"] as? Int64 ?? 0) - 1_714_033_432_000_000)"
            }
            #expect(rows == ["C1 device-to-host records 41…45 +490000 … +632500", "C1 host-to-device records 38…42 +416250 … +558750"])
            let (json, _) = try ProfileMatchTests.report([path] + profile)
            #expect(ProfileMatchTests.frames(json) == ["ok", "ok", "failed", "failed"], "\(profile)")
            let connection = (json["connections"] as? [[String: Any]])?.first
            #expect(connection?["startedBeforeCapture"] as? Bool == true)
            let failures = (json["failures"] as? [[String: Any]] ?? []).map { "\($0["kind"] ?? "") \($0["connection"] ?? "") \($0["record"] ?? "")" }
            #expect(failures == ["vendor-status-failure C1 45", "link-lost C1 46"], "\(profile)")
        }
    }

    /// Unapplied, demo-lock cannot match: its company criterion needs the device's advertising,
    /// which the capture never shows. `why` says so, and where the service criterion held.
    @Test func whyDemoLockDidNotMatchSaysWhatTheLinkShowed() throws {
        let path = try Self.writeCapture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let why = "matched no connection: company 0xFFFF never advertised by the device of C1; service FFE0 discovered on C1"
        let (json, stderr) = try ProfileMatchTests.report([path, "--profile", ProfileMatchTests.lockProfile])
        #expect(ProfileMatchTests.profiles(json) == ["demo-lock devices 0 connections 0 frames 0 why " + why])
        #expect(stderr.hasSuffix(": profile 'demo-lock' decoded nothing: \(why)\n"))
        let run = try CLI.run(["verify", path, "--profile", ProfileMatchTests.lockProfile, "--json"])
        let verified = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(run.status == 1 && ProfileMatchTests.profiles(verified) == ["demo-lock devices 0 connections 0 frames 0 why " + why])
        #expect((verified["rows"] as? [Any])?.count == 0)
    }

    /// The laser projector's capture (../shared/captures/real/darkelf_test1.pcapng): one link begun
    /// before the capture, services 1800, 180A, FF00 discovered: no sample profile is for it, and
    /// demo-lock's why says neither criterion held anywhere.
    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
    func aRealLinkBegunBeforeTheCapture() throws {
        let (json, _) = try ProfileMatchTests.report([SharedCaptures.path("real/darkelf_test1.pcapng"), "--profile",
                                                      ProfileMatchTests.lockProfile])
        #expect((json["connections"] as? [[String: Any]])?.map { $0["startedBeforeCapture"] as? Bool } == [true])
        #expect(ProfileMatchTests.profiles(json) == ["demo-lock devices 0 connections 0 frames 0 why matched no connection: "
                                                     + "company 0xFFFF never advertised; service FFE0 never discovered"])
    }

    /// demo-lock's rule asking for a service the locks do not have, on the demo sample: the
    /// company held on every connection's device, the service on none of them.
    @Test func whySaysWhereEachCriterionHeld() throws {
        let text = try String(contentsOfFile: SharedCaptures.packageRoot.appendingPathComponent(ProfileMatchTests.lockProfile).path,
                              encoding: .utf8)
        let edited = text.replacingOccurrences(of: "  gattService: FFE0\n", with: "  gattService: FFF0\n")
        #expect(edited != text)
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-fff0-\(UUID().uuidString).yaml").path
        try edited.write(toFile: profile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let why = "matched no connection: company 0xFFFF advertised by the device of C1, C2, C3; service FFF0 never discovered on C1, C2, C3"
        let (json, stderr) = try ProfileMatchTests.report(["Samples/demo-lock.btsnoop", "--profile", profile])
        #expect(ProfileMatchTests.profiles(json) == ["demo-lock devices 0 connections 0 frames 0 why " + why])
        #expect(stderr.hasSuffix(": profile 'demo-lock' decoded nothing: \(why)\n"))
    }
}

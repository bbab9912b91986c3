import AnalyzerTestSupport
import Foundation
import Testing

/// `bledecode dissector`: the Wireshark Lua plugin of a profile, run by tshark on the samples,
/// decodes the frames bledecode decodes: same frames as sent, fragments, commands, sequences,
/// statuses, checksum verdicts, plaintext and malformed reasons.
@Suite(.serialized)
struct DissectorCommandTests {
    /// One vendor frame as compared: where it ended, its fragments, and its decode.
    struct Frame: Equatable, CustomStringConvertible {
        var lastRecord: Int
        var fragments: [Int]
        var raw: String
        var command: Int?
        var commandName: String?
        var sequence: Int?
        var status: Int?
        var statusOK: Bool?
        var checksumOK: Bool?
        var plaintext: String?
        /// The malformed reason.
        var problem: String?
        var description: String {
            func text(_ value: Any?) -> String { value.map { "\($0)" } ?? "-" }
            return "#\(lastRecord) \(fragments) \(raw) cmd \(text(command)) \(text(commandName)) seq \(text(sequence)) "
                + "status \(text(status)) \(text(statusOK)) crc \(text(checksumOK)) \(text(plaintext)) malformed \(text(problem))"
        }
    }

    static func temporary(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-dissector-\(UUID().uuidString)\(suffix)").path
    }

    /// bledecode's frames (the JSON report's `vendorFrames`), but those cut off by the end of the
    /// capture, which a dissector cannot see coming (docs/wireshark.md).
    static func bledecodeFrames(_ capture: String, profile: String) throws -> [Frame] {
        let run = try CLI.run(["report", "--format", "json", "--frames", "all", capture, "--profile", profile])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let frames = json["vendorFrames"] as? [[String: Any]] ?? []
        return frames.filter { !(($0["problem"] as? String)?.contains("the capture ended") ?? false) }.map { f in
            let first = f["firstRecord"] as? Int ?? 0, last = f["lastRecord"] as? Int ?? 0, count = f["fragments"] as? Int ?? 0
            let malformed = f["outcome"] as? String == "malformed"
            return Frame(lastRecord: last, fragments: count == 1 ? [last] : [first, count, last], raw: f["raw"] as? String ?? "",
                         command: f["command"] as? Int, commandName: f["commandName"] as? String,
                         sequence: f["sequence"] as? Int, status: f["status"] as? Int, statusOK: f["statusOk"] as? Bool,
                         checksumOK: f["crcOk"] as? Bool, plaintext: f["plaintext"] as? String,
                         problem: malformed ? f["problem"] as? String ?? "" : nil)
        }.sorted { $0.lastRecord < $1.lastRecord }
    }

    /// The plugin's frames, from tshark's JSON (one object per `bledecode` tree).
    static func pluginFrames(_ capture: String, plugin: String) throws -> [Frame] {
        let run = try Tshark.run(["-X", "lua_script:" + plugin, "-r", capture, "-Y", "bledecode", "-T", "json",
                                  "--no-duplicate-keys", "-j", "bledecode frame"])
        #expect(!run.stdout.contains("Lua Error") && !run.stderr.contains("Lua"), "\(run.stderr)")
        let packets = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        var frames: [Frame] = []
        for packet in packets {
            let layers = (packet["_source"] as? [String: Any])?["layers"] as? [String: Any] ?? [:]
            let number = Int((layers["frame"] as? [String: Any])?["frame.number"] as? String ?? "") ?? 0
            let trees: [[String: Any]] = (layers["bledecode"] as? [[String: Any]]) ?? [(layers["bledecode"] as? [String: Any]) ?? [:]]
            for tree in trees {
                func value(_ key: String) -> String? {
                    (tree[key] as? String) ?? (tree[key] as? [String])?.first
                }
                let fragments = (tree["bledecode.fragment"] as? [String] ?? value("bledecode.fragment").map { [$0] } ?? [])
                    .compactMap { Int($0) }
                let problem = value("bledecode.malformed")
                func hexNumber(_ key: String) -> Int? { value(key).flatMap { Int($0.dropFirst(2), radix: 16) } }
                frames.append(Frame(
                    lastRecord: number,
                    fragments: fragments.count == 1 ? fragments : [fragments.first ?? 0, fragments.count, fragments.last ?? 0],
                    raw: (value("bledecode.frame") ?? "").replacingOccurrences(of: ":", with: ""),
                    command: hexNumber("bledecode.command"), commandName: value("bledecode.command_name"),
                    sequence: hexNumber("bledecode.sequence"), status: hexNumber("bledecode.status"),
                    statusOK: value("bledecode.status_ok").map { $0 == "1" },
                    checksumOK: value("bledecode.crc_ok").map { $0 == "1" },
                    plaintext: problem != nil ? nil : (value("bledecode.plaintext") ?? "").replacingOccurrences(of: ":", with: ""),
                    problem: problem))
            }
        }
        return frames.sorted { $0.lastRecord < $1.lastRecord }
    }

    /// Compares the plugin's frames with bledecode's; returns bledecode's.
    @discardableResult
    static func compare(_ capture: String, profile: String) throws -> [Frame] {
        let plugin = temporary(".lua")
        defer { try? FileManager.default.removeItem(atPath: plugin) }
        let run = try CLI.run(["dissector", "--profile", profile, "-o", plugin])
        #expect(run.status == 0, "\(run.stderr)")
        let expected = try bledecodeFrames(capture, profile: profile)
        let actual = try pluginFrames(capture, plugin: plugin)
        #expect(!expected.isEmpty)
        #expect(actual.count == expected.count, "\(capture)")
        for (a, e) in zip(actual, expected) where a != e {
            Issue.record("\(capture): the plugin gave \(a), bledecode \(e)")
        }
        return expected
    }

    static let demo = "Samples/profiles/demo-lock.yaml"

    @Test(.enabled(if: Tshark.present, "needs tshark (Debian package tshark; .ci/run installs it), not installed here"),
          arguments: ["demo-lock.btsnoop", "demo-lock.pcap", "demo-lock.pcapng", "demo-lock.pklg", "demo-lock.le.pklg"])
    func pluginDecodesTheSamplesAsBledecode(sample: String) throws {
        try Self.compare(CLI.sample(sample), profile: Self.demo)
    }

    /// Every bundled sample with its profile: a prefix some writes carry and values that each
    /// hold whole frames (light controller), a sync of its own for device frames (battery monitor).
    /// `malformed` is bledecode's reasons, pinning that the samples exercise these keys.
    @Test(.enabled(if: Tshark.present, "needs tshark (Debian package tshark; .ci/run installs it), not installed here"),
          arguments: [("light-controller.btsnoop", "light-controller.yaml", 21,
                       ["incomplete frame: frames never span ATT values (framing.spansValues)"]),
                      ("battery-monitor.btsnoop", "battery-monitor.yaml", 11, []),
                      ("demo-lock.btsnoop", "demo-lock.yaml", 12, [])])
    func pluginDecodesEveryBundledSampleAsBledecode(sample: String, profile: String, frames: Int, malformed: [String]) throws {
        let expected = try Self.compare(CLI.sample(sample), profile: "Samples/profiles/" + profile)
        #expect(expected.count == frames)
        #expect(expected.compactMap(\.problem) == malformed)
    }

    /// Checksum mismatches, a status failure, frames in several notifications and malformed
    /// runs, over HCI and over the air (direction from the sniffer), in every format tshark reads.
    @Test(.enabled(if: Tshark.present && SharedCaptures.present, "needs tshark and ../shared/captures (one is absent here)"),
          arguments: ["demo-faults.btsnoop", "demo-faults.pcap", "demo-faults.pcapng", "demo-faults.pklg",
                      "demo-faults.le.pklg", "demo-faults.ll.pcap", "demo-faults.nordic.pcap", "demo-clean.ll.pcap",
                      "demo-clean.btsnoop"])
    func pluginDecodesTheSyntheticCapturesAsBledecode(capture: String) throws {
        try Self.compare(SharedCaptures.path("synthetic/" + capture), profile: Self.demo)
    }

    /// The other sample profiles on the real captures they were written for: framing without a
    /// length (a short value ends a frame, by the MTU), CRC-16 high byte first, a response table,
    /// two-byte commands, a checksum over the body only with its value for an empty body.
    @Test(.enabled(if: Tshark.present && SharedCaptures.present, "needs tshark and ../shared/captures (one is absent here)"),
          arguments: [("fossibot_btsnoop_hci.log", "fossibot-power-station.yaml"),
                      ("horizon74_btsnoop_hci.log", "horizon-treadmill.yaml")])
    func pluginDecodesTheRealCapturesAsBledecode(capture: String, profile: String) throws {
        try Self.compare(SharedCaptures.path("real/" + capture), profile: "Samples/profiles/" + profile)
    }

    /// Channels given by handle instead of UUID (no discovery needed).
    @Test(.enabled(if: Tshark.present, "needs tshark (Debian package tshark; .ci/run installs it), not installed here"))
    func channelsByHandle() throws {
        let demo = try String(contentsOfFile: SharedCaptures.packageRoot.appendingPathComponent(Self.demo).path, encoding: .utf8)
        let byHandle = demo.replacingOccurrences(of: "uuid: FFE1", with: "handle: 0x0010")
            .replacingOccurrences(of: "uuid: FFE2", with: "handle: 0x0012")
        #expect(byHandle != demo)
        let profile = Self.temporary(".yaml")
        try byHandle.write(toFile: profile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        try Self.compare(CLI.sample("demo-lock.btsnoop"), profile: profile)
    }

    /// Names, command names and a description made to break out of a Lua string or comment:
    /// the plugin loads, runs none of it, and shows the names as they were written.
    @Test(.enabled(if: Tshark.present, "needs tshark (Debian package tshark; .ci/run installs it), not installed here"))
    func hostileProfileInjectsNothing() throws {
        let marker = Self.temporary(".pwned")
        let execute = "os.execute('touch \(marker)')"
        let yaml = """
            profile: 'evil"]] \(execute.replacingOccurrences(of: "'", with: "''")) --[['
            description: "x\\n]] \(execute) --"
            match:
              companyId: 0xFFFF
            channels:
              - {direction: host-to-device, uuid: FFE1, via: [write-request, write-command]}
              - {direction: device-to-host, uuid: FFE2, via: [notification]}
            framing:
              sync: [0xAA]
              length: {offset: 3, size: 2, endian: big, counts: payload}
              payload: {offset: 5, trailer: 2}
              tail: [0x55]
            checksum: {algorithm: CRC-8/MAXIM-DOW, at: -2, range: {from: 0, to: -2}}
            obfuscation:
              xorExpression: (0x5A - seq) mod 256
            commands:
              command: {offset: 1}
              sequence: {offset: 2}
              names:
                0x01: "GET\\"]]\\n\(execute)--"
                0x10: "UNLOCK\\\\\\" .. \(execute) .. \\""
                0x11: ']] .. \(execute.replacingOccurrences(of: "'", with: "''")) .. [[ \\'
              response: {command: or-0x80, sameSequence: true}
              status: {offset: 0, success: [0x00]}
            """
        let profile = Self.temporary(".yaml")
        try yaml.write(toFile: profile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let plugin = Self.temporary(".lua")
        defer { try? FileManager.default.removeItem(atPath: plugin) }
        let run = try CLI.run(["dissector", "--profile", profile, "-o", plugin])
        #expect(run.status == 0, "\(run.stderr)")
        let lua = try String(contentsOfFile: plugin, encoding: .utf8)
        #expect(!lua.contains("os.execute"))
        let frames = try Self.pluginFrames(CLI.sample("demo-lock.btsnoop"), plugin: plugin)
        #expect(!FileManager.default.fileExists(atPath: marker))
        let names = Set(frames.compactMap(\.commandName))
        #expect(names == ["GET\"]]\n\(execute)--", "UNLOCK\\\" .. \(execute) .. \"", "]] .. \(execute) .. [[ \\"])
        // The profile's name is a value too.
        let shown = try Tshark.run(["-X", "lua_script:" + plugin, "-r", CLI.sample("demo-lock.btsnoop"), "-Y", "bledecode",
                                    "-T", "fields", "-e", "bledecode.profile", "-c", "80"])
        #expect(shown.stdout.split(separator: "\n").first.map(String.init) == #"evil"]] \#(execute) --[["#)
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func stringsBecomeEscapedLiterals() throws {
        let run = try CLI.run(["dissector", "--profile", Self.demo])
        #expect(run.status == 0)
        #expect(run.stdout.contains(#"names = {[1] = "GET\095INFO", [2] = "SET\095TIME", [16] = "UNLOCK", [17] = "LOCK", [32] = "READ\095LOG"}"#))
        #expect(run.stdout.contains(#"obfuscation = { kind = "expr", expr = {"bin", "\037", {"bin", "\045", {"lit", 90}, {"var", "seq"}}, {"lit", 256}}, per_byte = false }"#))
    }

    /// Alternative syncs (`sync: [[0xBB], [0xAA]]`): the demo lock's `AA` frames start with the
    /// second, which the plugin must find as bledecode does.
    @Test(.enabled(if: Tshark.present, "needs tshark (Debian package tshark; .ci/run installs it), not installed here"))
    func alternativeSyncs() throws {
        let demo = try String(contentsOfFile: SharedCaptures.packageRoot.appendingPathComponent(Self.demo).path, encoding: .utf8)
        let alternatives = demo.replacingOccurrences(of: "sync: [0xAA]", with: "sync: [[0xBB], [0xAA]]")
        #expect(alternatives != demo)
        let profile = Self.temporary(".yaml")
        try alternatives.write(toFile: profile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let frames = try Self.compare(CLI.sample("demo-lock.btsnoop"), profile: profile)
        #expect(frames.compactMap(\.problem) == [])
    }

    /// Each direction's framing is in the plugin's data whole: the light controller's writes
    /// carry a prefix and never span values, its notifications do neither.
    @Test func framingsArePerDirection() throws {
        let run = try CLI.run(["dissector", "--profile", "Samples/profiles/light-controller.yaml"])
        #expect(run.status == 0)
        #expect(run.stdout.contains(#"""
                ["host\045to\045device"] = { syncs = {{58, 38}}, prefix = {32, 0}, spans_values = false,
                  length = { kind = "field", offset = 3, size = 1, big = true, counts = "payload", adjust = 0 },
                  payload_offset = 4, trailer = 1, tail = {}, max_length = 4096 },
            """#))
        #expect(run.stdout.contains(#"["device\045to\045host"] = { syncs = {{58, 38}}, prefix = {}, spans_values = true,"#))
    }

    /// One plugin per profile: a second `--profile` is refused, not silently dropped.
    @Test func severalProfilesAreRefused() throws {
        let run = try CLI.run(["dissector", "--profile", Self.demo, "--profile", "Samples/profiles/light-controller.yaml"])
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "bledecode: error: dissector writes one plugin for one profile, but --profile was given 2 times "
            + "(Samples/profiles/demo-lock.yaml, Samples/profiles/light-controller.yaml): run it once per profile\n")
    }

    /// An expression whose values could leave what Lua 5.2 computes exactly is refused, naming
    /// the key, rather than decoded differently.
    @Test func expressionBeyondLuaIsRefused() throws {
        let demo = try String(contentsOfFile: SharedCaptures.packageRoot.appendingPathComponent(Self.demo).path, encoding: .utf8)
        let wide = demo.replacingOccurrences(of: "xorExpression: (0x5A - seq) mod 256", with: "xorExpression: (seq << 40) >> 40")
        #expect(wide != demo)
        let profile = Self.temporary(".yaml")
        try wide.write(toFile: profile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let run = try CLI.run(["dissector", "--profile", profile])
        #expect(run.status == 2)
        let file = URL(fileURLWithPath: profile).lastPathComponent
        #expect(run.stderr == "bledecode: error: \(file): obfuscation.xorExpression: the Wireshark plugin cannot evaluate it as "
            + "bledecode does: '<<' can reach 280375465082880 or beyond (its Lua numbers are exact to ±99999999999999 and its bitwise "
            + "operators take 0...4294967295)\n")
    }

    @Test func badProfileExitsWithTwo() throws {
        let run = try CLI.run(["dissector", "--profile", "Package.swift"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("bledecode: error: Package.swift"))
    }
}

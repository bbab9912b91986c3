import BLEDecode
import Foundation
import Testing

/// The library as a user's package sees it: only `import BLEDecode` (docs/library.md), checked
/// against what the `bledecode` executable built beside this test bundle reports.
struct LibraryExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let capture = root.appendingPathComponent("Samples/demo-lock.btsnoop")
    static let profileURL = root.appendingPathComponent("Samples/profiles/demo-lock.yaml")

    /// The issue's example program, its output as lines.
    static func example(capture: URL, profileURL: URL) throws -> [String] {
        let profile = try VendorProfile(contentsOf: profileURL)
        let report = try CaptureAnalysis.analyze(capture, profiles: [profile])
        let frames = profile.frames(in: [0xAA, 0x01, 0x57, 0x00, 0x00, 0x00, 0x55], direction: .hostToDevice)
        return [
            "\(report.devices.count) \(report.connections.count) \(report.failures.count) \(report.vendorFrames.count)",
            "\(frames.count) \(frames.first?.checksumOK == true) \(frames.first?.commandName ?? "-")",
        ]
    }

    @Test func exampleReportsWhatTheCLIReports() throws {
        let lines = try Self.example(capture: Self.capture, profileURL: Self.profileURL)
        let cli = try CLIReport.run(capture: Self.capture, profile: Self.profileURL)
        let json = try #require(try JSONSerialization.jsonObject(with: cli.json) as? [String: Any])
        let devices = try #require(json["devices"] as? [Any]).count
        let connections = try #require(json["connections"] as? [Any]).count
        let stats = try #require(json["stats"] as? [String: Any])
        let failures = try #require(stats["failuresByKind"] as? [String: Int]).values.reduce(0, +)
        let vendorFrames = try #require(json["vendorFrames"] as? [Any]).count
        #expect(lines == ["\(devices) \(connections) \(failures) \(vendorFrames)", "1 true GET_INFO"])
        #expect(lines[0] == "3 3 7 12")
    }

    /// docs/library.md shows what the example prints: it must be what it prints.
    @Test func docsShowWhatTheExamplePrints() throws {
        let lines = try Self.example(capture: Self.capture, profileURL: Self.profileURL)
        let docs = try String(contentsOf: Self.root.appendingPathComponent("docs/library.md"), encoding: .utf8)
        let start = try #require(docs.range(of: "it prints\n\n```\n"))
        let end = try #require(docs[start.upperBound...].range(of: "\n```\n"))
        #expect(docs[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init) == lines)
    }

    @Test func jsonEqualsTheCLIReport() throws {
        let profile = try VendorProfile(contentsOf: Self.profileURL)
        let report = try CaptureAnalysis.analyze(Self.capture, profiles: [profile])
        let cli = try CLIReport.run(capture: Self.capture, profile: Self.profileURL)
        #expect(report.jsonData(commandLine: cli.commandLine) == cli.json)
    }

    @Test func reportModel() throws {
        let report = try CaptureAnalysis.analyze(Self.capture, profiles: [try VendorProfile(contentsOf: Self.profileURL)],
                                                 options: .init(transactions: .all))
        #expect(report.profiles == ["demo-lock"])
        #expect(report.readToEnd)
        #expect(report.devices.map(\.id) == ["D1", "D2", "D3"])
        #expect(report.connections.map(\.id) == ["C1", "C2", "C3"])
        #expect(report.failures.count == report.failures.listed.count)
        #expect(report.failures.countsByKind.values.reduce(0, +) == 7)
        #expect(report.failures.allSatisfy { $0.severity == .failure })
        // C3 was still up at the end: a warning, not a failure.
        #expect(report.notices.map(\.kind) == ["dangling-connection"])
        #expect(report.notices.map(\.severity) == [.warning])
        #expect(Array(report.failures).map(\.kind) == report.failures.listed.map(\.kind))
        let lost = try #require(report.failures.first { $0.kind == "link-lost" })
        #expect(lost.summary.contains("Connection Timeout"))
        #expect(report.connections.allSatisfy { !$0.transactions.isEmpty })
        let failedWrite = report.connections.flatMap(\.transactions).first { $0.errorCode == 0x03 }
        #expect(failedWrite?.errorName == "Write Not Permitted")
        #expect(failedWrite?.opcodeName == "Write Request")
        // The demo lock's database (../shared/profiles/demo-lock.md): GAP, GATT, Battery and FFE0.
        let gatt = try #require(report.connections.first?.gatt)
        #expect(gatt.filter { $0.kind == "service" }.map(\.uuid) == ["1800", "1801", "180F", "FFE0"])
        let battery = try #require(gatt.first { $0.uuid == "2A19" })
        #expect(battery.name == "Battery Level")
        #expect(battery.kind == "characteristic")
        #expect(battery.properties == ["Read", "Notify"])
        #expect(report.connections.allSatisfy { $0.otherSideGATT.isEmpty })
        // The phone is the only GATT client in the sample: every request went to the device's server.
        #expect(Set(report.connections.flatMap(\.transactions).map(\.server)) == ["device"])
        let unlock = try #require(report.vendorFrames.first { $0.commandName == "UNLOCK" })
        #expect(unlock.connectionID != nil && unlock.outcome != nil && unlock.direction == .hostToDevice)
    }

    /// docs/library.md's example: an app's encoder checked against the vendor's profile.
    @Test func anEncoderCheckedAgainstTheProfile() throws {
        let profile = try VendorProfile(contentsOf: Self.profileURL)
        let unlock = DemoLockEncoder.frame(command: 0x10, sequence: 0x5B, payload: [0x01, 0x02])
        let frames = profile.frames(in: unlock, direction: .hostToDevice)
        #expect(frames.count == 1)
        #expect(frames.first?.checksumOK == true)
        #expect(frames.first?.commandName == "UNLOCK")
        #expect(frames.first?.sequence == 0x5B)
        #expect(frames.first?.payload == [0x01, 0x02])
        #expect(frames.first?.problem == nil)
        // One flipped checksum bit is caught.
        var broken = unlock
        broken[broken.count - 2] ^= 0x01
        #expect(profile.frames(in: broken, direction: .hostToDevice).first?.checksumOK == false)
    }

    @Test func bytesThatMakeNoFrame() throws {
        let profile = try VendorProfile(contentsOf: Self.profileURL)
        let frames = profile.frames(in: [0xAA, 0x01, 0x57, 0x00, 0x05, 0x00], direction: .hostToDevice)
        #expect(frames.count == 1)
        #expect(frames.first?.problem == "incomplete frame: the bytes end before its length")
        #expect(frames.first?.checksumOK == nil)
        #expect(frames.first?.bytes == [0xAA, 0x01, 0x57, 0x00, 0x05, 0x00])
        // Bytes that are no frame at all come back too, as one frame with a problem.
        let junk = profile.frames(in: [0x01, 0x02, 0x03], direction: .hostToDevice)
        #expect(junk.map(\.bytes) == [[0x01, 0x02, 0x03]])
        #expect(junk.map { $0.problem != nil } == [true])
        #expect(profile.frames(in: [], direction: .hostToDevice) == [])
    }

    @Test func errorsNameTheFileAndTheirKind() throws {
        let missing = Self.root.appendingPathComponent("Samples/no-such-capture.btsnoop")
        let captureError = try #require(throws: BLEDecodeError.self) { try CaptureAnalysis.analyze(missing) }
        #expect(captureError.kind == .cannotRead)
        #expect(captureError.message == "\(missing.path): cannot open: No such file or directory")
        #expect(captureError.localizedDescription == captureError.message)
        #expect(captureError.description == captureError.message)

        let notACapture = try #require(throws: BLEDecodeError.self) { try CaptureAnalysis.analyze(Self.profileURL) }
        #expect(notACapture.kind == .notACapture)
        #expect(notACapture.message == "\(Self.profileURL.path) at byte 0: not a capture file (starts with "
                    + "232079616d6c2d6c \"# yaml-l\"; no btsnoop, pcap, pcapng, gzip or PacketLogger signature)")

        let web = try #require(URL(string: "https://example.com/demo-lock.btsnoop"))
        let webError = try #require(throws: BLEDecodeError.self) { try CaptureAnalysis.analyze(web) }
        #expect(webError.kind == .cannotRead)
        #expect(webError.message == "https://example.com/demo-lock.btsnoop: not a file URL: only local files are read "
                    + "(download the file first)")
        let webProfile = try #require(throws: BLEDecodeError.self) { try VendorProfile(contentsOf: web) }
        #expect(webProfile.kind == .cannotRead)

        let profileError = try #require(throws: BLEDecodeError.self) {
            try VendorProfile(yaml: "profile: x\nframing: {sync: [0xAA]}\n", file: "broken.yaml")
        }
        #expect(profileError.kind == .badProfile)
        #expect(profileError.message.hasPrefix("broken.yaml") == true)
        let missingProfile = Self.root.appendingPathComponent("Samples/profiles/no-such-profile.yaml")
        let unreadable = try #require(throws: BLEDecodeError.self) { try VendorProfile(contentsOf: missingProfile) }
        #expect(unreadable.kind == .cannotRead)
        #expect(unreadable.message == "no-such-profile.yaml: cannot read \(missingProfile.path)")
        #expect([BLEDecodeError.Kind.cannotRead, .notACapture, .unavailableOnThisPlatform, .badProfile].map(\.description)
                    == ["cannot-read", "not-a-capture", "unavailable-on-this-platform", "bad-profile"])
    }

    /// A profile that decoded nothing is not among `profiles`, and `warnings` says why.
    @Test func profilesAreThoseThatDecodedFrames() throws {
        let other = try VendorProfile(yaml: """
            profile: other-lock
            match: {companyId: 0x1234}
            channels:
              - {direction: host-to-device, uuid: FFF1, via: [write-request]}
            framing: {sync: [0xBB], length: {offset: 1, size: 1, counts: payload}, payload: {offset: 2}}
            """, file: "other-lock.yaml")
        let demo = try VendorProfile(contentsOf: Self.profileURL)
        let report = try CaptureAnalysis.analyze(Self.capture, profiles: [other, demo])
        #expect(report.profiles == ["demo-lock"])
        #expect(report.warnings.filter { $0.contains("profile 'other-lock' decoded nothing") }.count == 1)
        #expect(report.warnings.allSatisfy { $0.hasPrefix(Self.capture.path + ": ") })
    }

    @Test func failuresIsEmptyCountsEveryFailure() throws {
        let report = try CaptureAnalysis.analyze(Self.capture)
        #expect(!report.failures.isEmpty)
        #expect(report.failures.count == 5)
        #expect(report.failures.underestimatedCount == report.failures.listed.count)
    }

    /// The value types compare and hash by value: two analyses of one capture are equal.
    @Test func valuesAreEquatableAndHashable() throws {
        let first = try CaptureAnalysis.analyze(Self.capture)
        let second = try CaptureAnalysis.analyze(Self.capture)
        #expect(first.devices == second.devices)
        #expect(first.connections == second.connections)
        #expect(first.failures == second.failures)
        #expect(Set(first.notices) == Set(second.notices))
        #expect(Set(first.devices).count == 3)
        #expect(CaptureAnalysis.Options() == CaptureAnalysis.Options(transactions: .failed, vendorFrames: .all))
        #expect(CaptureReport.Failure.Severity.allCases.map(\.rawValue) == ["failure", "warning", "info"])
    }
}

/// The demo lock's framing as an app would write it (the vendor's document,
/// ../shared/profiles/demo-lock.md): AA, command, sequence, payload length (big-endian), payload
/// XORed with (0x5A − sequence), CRC-8/MAXIM over everything before it, 55.
enum DemoLockEncoder {
    static func frame(command: UInt8, sequence: UInt8, payload: [UInt8]) -> [UInt8] {
        let key = 0x5A &- sequence
        var frame: [UInt8] = [0xAA, command, sequence, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        frame += payload.map { $0 ^ key }
        frame.append(crc8Maxim(frame))
        frame.append(0x55)
        return frame
    }

    /// CRC-8/MAXIM-DOW: polynomial 0x31 reflected (0x8C), initial value 0, no final XOR.
    static func crc8Maxim(_ bytes: [UInt8]) -> UInt8 {
        var crc: UInt8 = 0
        for byte in bytes {
            crc ^= byte
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x8C : crc >> 1 }
        }
        return crc
    }
}

/// `bledecode report CAPTURE --profile PROFILE`, run from the executable built beside this bundle.
struct CLIReport {
    var commandLine: String
    var json: Data

    static func run(capture: URL, profile: URL) throws -> CLIReport {
        let arguments = ["report", capture.path, "--profile", profile.path]
        let executable = buildFolder.appendingPathComponent("bledecode")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Output to a file, not a pipe (see CLITests' runner: pipes can fail with EINTR on Linux).
        let outURL = folder.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = out
        try process.run()
        process.waitUntilExit()
        try out.close()
        #expect(process.terminationStatus == 0)
        var json = try Data(contentsOf: outURL)
        if json.last == UInt8(ascii: "\n") { json.removeLast() }
        return CLIReport(commandLine: (["bledecode"] + arguments).joined(separator: " "), json: json)
    }
}

/// Where `swift build` put the products. On macOS `swift test` runs the tests in a helper of the
/// toolchain (xctest, swiftpm-testing-helper) that loads the test bundle from there; on Linux the
/// tests are an executable there.
private var buildFolder: URL {
    #if os(macOS)
    Bundle(for: BuildFolderMarker.self).bundleURL.deletingLastPathComponent()
    #else
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    #endif
}

/// A class of the test bundle, for `Bundle(for:)`.
private final class BuildFolderMarker {}

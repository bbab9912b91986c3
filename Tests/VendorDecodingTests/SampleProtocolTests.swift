import AnalyzerTestSupport
import BLEBase
import Foundation
import Testing
@testable import BLEVendorDecoding

/// The format on the protocols of the light controller (optional prefix, whole-frame writes, sum8)
/// and the battery monitor (a sync per direction, sum16 LE before a 0D 0A tail), with the sample
/// captures make-samples writes (Samples/light-controller.btsnoop, Samples/battery-monitor.btsnoop).
struct SampleProtocolTests {
    static let light = Framing(sync: [0x3A, 0x26], length: .field(LengthField(offset: 3, size: 1, bigEndian: true,
                                                                             counts: .payload, adjust: 0)),
                               payloadOffset: 4, trailerSize: 1, tail: [], prefix: [0x20, 0x00])
    static let power = LightFrame.encode(command: 0x71, payload: [0x01])            // 3A 26 71 01 01 D3

    static func feed(_ framing: Framing, _ chunks: [[UInt8]], limit: Int = 20) -> [FrameAssembler.Output] {
        var assembler = FrameAssembler(framing: framing)
        var out: [FrameAssembler.Output] = []
        for (i, chunk) in chunks.enumerated() {
            out += assembler.feed(chunk, timeUs: Int64(i), record: i + 1, attOpcode: 0x52, fragmentLimit: limit)
        }
        return out + assembler.flush(reason: "end")
    }

    static func describe(_ out: [FrameAssembler.Output]) -> [String] {
        out.map {
            switch $0 {
            case .frame(let c): "frame \(Hex.string(c.bytes.array)) records \(c.origin.firstRecord)-\(c.origin.lastRecord)"
            case .garbage(let c, let reason): "garbage \(Hex.string(c.bytes.array)): \(reason)"
            }
        }
    }

    // MARK: checksums as docs/profiles.md defines them

    @Test func checksumDefinitionsAndTheDocumentedExamples() {
        let bytes: [UInt8] = [0x3A, 0x26, 0x10, 0x00]
        #expect(ChecksumAlgorithm.sum8.compute(bytes) == 0x70)
        #expect(ChecksumAlgorithm.sum16.compute(bytes) == 0x0070)
        #expect(ChecksumAlgorithm.xor8.compute(bytes) == 0x0C)
        #expect(ChecksumAlgorithm.sum8.compute([0xFF, 0xFF, 0x03]) == 0x01)            // wraps modulo 256
        #expect(ChecksumAlgorithm.sum16.compute(Array(repeating: 0xFF, count: 258)) == 0x00FE)   // 65 790 mod 65 536
        #expect(ChecksumAlgorithm.sum8.compute([UInt8]()) == 0)
        #expect(LightFrame.encode(command: 0xF1, payload: [0x00]) == [0x3A, 0x26, 0xF1, 0x01, 0x00, 0x52])
        #expect(BatteryFrame.encode(fromHost: false, command: 0x01, payload: [0x00, 0x32, 0x28])
            == [0x24, 0x24, 0x01, 0x03, 0x00, 0x32, 0x28, 0x5E, 0x00, 0x0D, 0x0A])
        let spec = ChecksumSpec(algorithm: .sum16, at: -4, bigEndian: false, from: 2, to: -4)
        let frame = ByteView([0x24, 0x24, 0x01, 0x03, 0x00, 0x32, 0x28, 0x5E, 0x00, 0x0D, 0x0A])
        #expect(spec.verify(sent: frame, covered: frame).map { [$0.stored, $0.computed] } == [0x5E, 0x5E])
        let bigEndian = ChecksumSpec(algorithm: .sum16, at: -4, bigEndian: true, from: 2, to: -4)
        #expect(bigEndian.verify(sent: frame, covered: frame).map { [$0.stored, $0.computed] } == [0x5E00, 0x5E])
    }

    // MARK: prefix

    @Test func anOptionalPrefixIsDroppedAndOffsetsCountFromTheSync() {
        #expect(Self.describe(Self.feed(Self.light, [[0x20, 0x00] + Self.power, Self.power])) == [
            "frame 3a26710101d3 records 1-1", "frame 3a26710101d3 records 2-2"])
        // Split inside the prefix, and between the prefix and the sync.
        #expect(Self.describe(Self.feed(Self.light, [[0x20], [0x00, 0x3A], Array(Self.power.dropFirst())])) == [
            "frame 3a26710101d3 records 2-3"])
        #expect(Self.describe(Self.feed(Self.light, [[0x20, 0x00], Self.power])) == ["frame 3a26710101d3 records 2-2"])
        // Bytes before the prefix are malformed; a prefix that is not followed by the sync too.
        #expect(Self.describe(Self.feed(Self.light, [[0x99, 0x20, 0x00] + Self.power])) == [
            "garbage 99: 1 byte(s) before the sync bytes", "frame 3a26710101d3 records 1-1"])
        #expect(Self.describe(Self.feed(Self.light, [[0x20, 0x00, 0x20] + Self.power])) == [
            "garbage 200020: 3 byte(s) before the sync bytes", "frame 3a26710101d3 records 1-1"])
    }

    // MARK: frames never span values

    @Test func aShortWriteIsMalformedAloneWhenFramesNeverSpanValues() {
        var whole = Self.light
        whole.spansValues = false
        let cut = Array(Self.power.prefix(4))
        #expect(Self.describe(Self.feed(whole, [cut, Self.power])) == [
            "garbage 3a267101: incomplete frame: frames never span ATT values (framing.spansValues)",
            "frame 3a26710101d3 records 2-2"])
        // Spanning allowed (the default), the cut write and the next make one bad frame.
        #expect(Self.describe(Self.feed(Self.light, [cut, Self.power], limit: 4)).first
            == "frame 3a2671013a26 records 1-2")
        // Without a length rule every value is one frame, however long.
        var unlengthed = whole
        unlengthed.length = .none
        #expect(Self.describe(Self.feed(unlengthed, [Self.power, Self.power], limit: 6)) == [
            "frame 3a26710101d3 records 1-1", "frame 3a26710101d3 records 2-2"])
    }

    // MARK: the loader

    static let minimal = """
        profile: t
        match: {name: {prefix: "T"}}
        channels: [{direction: host-to-device, uuid: FFE1, via: [write-command]}]

        """

    static func load(_ framing: String) throws -> Profile {
        try ProfileLoader.load(yaml: minimal + framing, file: "t.yaml")
    }

    @Test func framingByDirection() throws {
        let p = try Self.load("""
            framing:
              sync: 4040
              length: {offset: 3, counts: payload}
              payload: {offset: 4, trailer: 4}
              tail: 0d0a
              device-to-host: {sync: 2424, maxLength: 600}
            """)
        #expect(p.framing.sync == [0x40, 0x40])
        #expect(p.framing(for: .hostToDevice).sync == [0x40, 0x40])
        #expect(p.framing(for: .deviceToHost).sync == [0x24, 0x24])
        #expect(p.framing(for: .deviceToHost).tail == [0x0D, 0x0A])
        #expect(p.framing(for: .deviceToHost).maxLength == 600)
        let fixed = try Self.load("framing: {sync: aa, length: {offset: 1, counts: frame}, host-to-device: {fixed: 8, prefix: 2000}}\n")
        #expect(fixed.framing.length == .fixed(8))
        #expect(fixed.framing.prefix == [0x20, 0x00])
        #expect(fixed.deviceFraming?.prefix == [])
        if case .field = fixed.framing(for: .deviceToHost).length {} else { Issue.record("device framing lost its length field") }
        #expect(try Self.load("framing: {sync: aa, spansValues: false}\n").framing.spansValues == false)
        #expect(try Self.load("framing: {sync: aa}\n").deviceFraming == nil)
    }

    @Test(arguments: [
        ("framing: {prefix: 2000}\n", "t.yaml:4: framing.prefix: a prefix needs sync bytes to come before"),
        ("framing: {sync: aa, prefix: []}\n", "t.yaml:4: framing.prefix: a prefix is 1 to 8 bytes"),
        ("framing: {sync: aa, prefix: zz}\n", "t.yaml:4: framing.prefix: 'zz' is neither hex bytes nor a list of bytes"),
        ("framing: {sync: aa, spansValues: sometimes}\n", "t.yaml:4: framing.spansValues: 'sometimes' is not true or false"),
        ("framing: {sync: aa, device-to-host: {sink: bb}}\n",
         "t.yaml:4: framing.device-to-host.sink: unknown key (expected one of: fixed, length, maxLength, payload, prefix, spansValues, sync, tail)"),
        ("framing: {sync: aa, device-to-host: {device-to-host: {}}}\n",
         "t.yaml:4: framing.device-to-host.device-to-host: unknown key (expected one of: fixed, length, maxLength, payload, prefix, spansValues, sync, tail)"),
        ("framing: {sync: aa, device-to-host: {length: {offset: 1, counts: frame}, fixed: 4}}\n",
         "t.yaml:4: framing.device-to-host: length and fixed exclude each other"),
        ("framing: {sync: aa, host-to-device: 3}\n", "t.yaml:4: framing.host-to-device: must be a mapping of keys to values"),
        ("framing: {sync: aa, device-to-host: {sync: 001122334455667788}}\n", "t.yaml:4: framing.device-to-host.sync: sync is at most 8 bytes"),
    ])
    func malformedFramingIsRejectedWithLineAndKey(yaml: String, message: String) {
        #expect(throws: ProfileError.self) { try Self.load(yaml) }
        do { _ = try Self.load(yaml) } catch { #expect("\(error)" == message) }
    }

    @Test(arguments: [
        ("framing:\n\tsync: aa\n", "t.yaml:5: a tab in the indentation: YAML indents with spaces only"),
        ("framing: {sync: [0xAA, 0x55}\n", "t.yaml:4: unclosed '[' opened at line 4 column 17: did not find expected ',' or ']' (at line 4)"),
        ("framing: {sync: aa\n", "t.yaml:4: unclosed '{' opened at line 4 column 10: did not find expected ',' or '}' (at line 5)"),
        ("framing: {sync: \"aa}\n", "t.yaml:4: unclosed quote opened at line 4 column 17: found unexpected end of stream"),
    ])
    func yamlSyntaxErrorsSayWhatIsWrong(yaml: String, message: String) {
        do {
            _ = try Self.load(yaml)
            Issue.record("loaded")
        } catch {
            #expect("\(error)" == message)
        }
    }

    // MARK: the sample profiles on their captures

    static func sample(_ capture: String, _ profile: String) throws -> CaptureFeeder.Output {
        try CaptureFeeder.run(path: SharedCaptures.packageRoot.appendingPathComponent("Samples/\(capture)").path,
                              profile: try ProfileLoader.load(path: SamplePaths.profile(profile)))
    }

    /// The committed captures are what make-samples writes from the scenarios.
    @Test func sampleCapturesAreTheScenarios() throws {
        let root = SharedCaptures.packageRoot.appendingPathComponent("Samples")
        #expect(Array(try Data(contentsOf: root.appendingPathComponent("light-controller.btsnoop")))
            == CaptureWriter.btsnoop(SampleScenarios.lightController().records))
        #expect(Array(try Data(contentsOf: root.appendingPathComponent("battery-monitor.btsnoop")))
            == CaptureWriter.btsnoop(SampleScenarios.batteryMonitorScenario().records))
    }

    /// Two connections: the first app writes `20 00` before each frame and once a write cut at
    /// 6 bytes; the second writes bare frames and gets one response with a bad sum.
    @Test func lightControllerSample() throws {
        let output = try Self.sample("light-controller.btsnoop", "light-controller.yaml")
        #expect(output.frames.keys.sorted() == [0x0040, 0x0041])
        let first = output.frames[0x0040] ?? []
        let second = output.frames[0x0041] ?? []
        #expect(first.map(\.summary) == [
            "GET_STATE (0x10) → ok in 41 ms", "GET_STATE response (0x90): status 0x00 ok",
            "POWER (0x71) → ok in 32 ms", "POWER response (0xF1): status 0x00 ok",
            "SET_COLOR (0x31) → ok in 32 ms", "SET_COLOR response (0xB1): status 0x00 ok",
            "malformed: incomplete frame: frames never span ATT values (framing.spansValues) (4 bytes)",
            "SET_COLOR (0x31) → ok in 32 ms", "SET_COLOR response (0xB1): status 0x00 ok",
            "POWER (0x71) → ok in 32 ms", "POWER response (0xF1): status 0x00 ok"])
        #expect(first.first?.raw.array == [0x3A, 0x26, 0x10, 0x00, 0x70])                 // the prefix dropped
        #expect(first[1].fragments == 2 && first[1].raw.count == 27)
        #expect(second.filter { $0.direction == .hostToDevice }.map(\.raw.count) == [5, 6, 8, 8, 6])
        #expect(second.map(\.outcome) == [.ok, .ok, .ok, .ok, .crcMismatch, .crcMismatch, .ok, .ok, .ok, .ok])
        #expect((output.failures[0x0040] ?? []).map(\.kind) == [.malformedFrame])
        #expect((output.failures[0x0041] ?? []).map(\.kind) == [.crcMismatch])
    }

    /// `40 40` frames from the phone, `24 24` from the monitor: three voltage reads (the last
    /// response's sum is wrong), a history in three notifications, an alarm pushed unasked.
    @Test func batteryMonitorSample() throws {
        let output = try Self.sample("battery-monitor.btsnoop", "battery-monitor.yaml")
        let frames = output.frames[0x0040] ?? []
        #expect(frames.filter { $0.direction == .hostToDevice }.allSatisfy { Array($0.raw.prefix(2)) == [0x40, 0x40] })
        #expect(frames.filter { $0.direction == .deviceToHost }.allSatisfy { Array($0.raw.prefix(2)) == [0x24, 0x24] })
        #expect(frames.map(\.summary) == [
            "READ_VOLTAGE (0x01) → ok in 42 ms", "READ_VOLTAGE response (0x01): status 0x00 ok",
            "READ_VOLTAGE (0x01) → ok in 42 ms", "READ_VOLTAGE response (0x01): status 0x00 ok",
            "READ_VOLTAGE (0x01): crc mismatch", "READ_VOLTAGE (0x01): crc mismatch",
            "READ_HISTORY (0x02) → ok in 60 ms", "READ_HISTORY response (0x02): status 0x00 ok",
            "unsolicited ALARM (0x10)",
            "SET_ALARM (0x03) → ok in 42 ms", "SET_ALARM response (0x03): status 0x00 ok"])
        #expect(frames.first { $0.command == 0x02 && $0.direction == .deviceToHost }.map { [$0.fragments, $0.raw.count] } == [3, 57])
        #expect(frames.filter { $0.checksumOK == true }.count == 10)
        #expect((output.failures[0x0040] ?? []).map(\.kind) == [.crcMismatch])
    }
}

/// Alternative syncs: a frame starts with any of them; reading resynchronises on the earliest.
struct AlternativeSyncTests {
    static let framing: Framing = {
        var f = SampleProtocolTests.light
        f.prefix = []
        f.alternativeSyncs = [[0x3B, 0x26]]
        return f
    }()
    static let other: [UInt8] = [0x3B, 0x26, 0x71, 0x01, 0x01, 0xD4]

    @Test func eitherSyncStartsAFrame() {
        let out = SampleProtocolTests.feed(Self.framing, [SampleProtocolTests.power, Self.other, [0x99] + Self.other,
                                                          Array(Self.other.prefix(1)), Array(Self.other.dropFirst())])
        #expect(SampleProtocolTests.describe(out) == [
            "frame 3a26710101d3 records 1-1", "frame 3b26710101d4 records 2-2",
            "garbage 99: 1 byte(s) before the sync bytes", "frame 3b26710101d4 records 3-3",
            "frame 3b26710101d4 records 4-5"])
    }

    @Test func theLoaderTakesAListOfSyncs() throws {
        let p = try SampleProtocolTests.load("framing: {sync: [[0x3A, 0x26], 3b26]}\n")
        #expect(p.framing.sync == [0x3A, 0x26] && p.framing.alternativeSyncs == [[0x3B, 0x26]])
        #expect(try SampleProtocolTests.load("framing: {sync: [0x3A, 0x26]}\n").framing.alternativeSyncs == [])
        do {
            _ = try SampleProtocolTests.load("framing: {sync: [[0x3A, 0x26], []]}\n")
            Issue.record("loaded")
        } catch {
            #expect("\(error)" == "t.yaml:4: framing.sync[1]: a sync is 1 to 8 bytes")
        }
        #expect(try SchemaTests.errors(yaml: SampleProtocolTests.minimal + "framing: {sync: [[0x3A, 0x26], [0x3B, 0x26]]}\n") == [])
        #expect(try SchemaTests.errors(yaml: SampleProtocolTests.minimal + "framing: {sync: [0x3A, 0x26]}\n") == [])
    }
}

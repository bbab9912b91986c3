import AnalyzerTestSupport
import BLEBase
import Testing
@testable import BLEVendorDecoding

/// The two real-device profiles on the captures they were written for
/// (../shared/captures/real/README.md), fed the way the Sessions module feeds them.
@Suite(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
struct RealCaptureTests {
    static func run(_ capture: String, _ profile: String) throws -> CaptureFeeder.Output {
        try CaptureFeeder.run(path: SharedCaptures.path("real/\(capture)"),
                              profile: try ProfileLoader.load(path: SamplePaths.profile(profile)))
    }

    static func count(_ frames: [VendorFrame], _ outcome: VendorOutcome) -> Int { frames.filter { $0.outcome == outcome }.count }

    /// One connection (0x0200); 1046 Write Requests and notifications on the two vendor
    /// characteristics carry 141 frames, every one of which verifies (two have no body and
    /// carry 0x0000). 23 requests are answered; the 14 other host frames are acknowledgements
    /// and answers to the treadmill's own 81 pushed frames.
    @Test func horizonTreadmill() throws {
        let output = try Self.run("horizon74_btsnoop_hci.log", "horizon-treadmill.yaml")
        #expect(Array(output.events.keys) == [0x0200])
        let frames = output.frames[0x0200] ?? []
        #expect(frames.count == 141)
        #expect(frames.filter { $0.direction == .hostToDevice }.count == 37)
        #expect(frames.filter { $0.checksumOK == true }.count == 141)
        #expect(frames.filter { $0.plaintext?.isEmpty == true }.count == 2)
        #expect(Self.count(frames, .malformed) == 0)
        #expect(Self.count(frames, .ok) == 60)
        #expect(Self.count(frames, .unsolicited) == 81)
        #expect(frames.filter { $0.matchedFrame != nil }.count == 46)
        #expect(frames.filter { $0.status != nil }.map(\.statusOK) == Array(repeating: true, count: 21))
        #expect(output.failures[0x0200] ?? [] == [])
        #expect(frames.map(\.fragments).max() == 38)                     // a 741-byte frame in 20-byte values
        #expect(frames.prefix(2).map(\.summary) == ["GET_MACHINE_INFO (0x0102) seq 0x01 → ok in 75 ms",
                                                    "GET_MACHINE_INFO response (0x0102) seq 0x00: ok"])
    }

    /// Five connections on handle 0x0041; three carry vendor traffic: 12 Modbus requests, all
    /// answered, and 17 device frames (5 pushed without a request). The first arrives before
    /// the MTU exchange, in nine 20-byte notifications; later ones in one value each. All 29
    /// verify.
    @Test func fossibotPowerStation() throws {
        let output = try Self.run("fossibot_btsnoop_hci.log", "fossibot-power-station.yaml")
        let frames = output.frames[0x0041] ?? []
        #expect(frames.count == 29)
        #expect(frames.filter { $0.direction == .hostToDevice }.count == 12)
        #expect(frames.filter { $0.checksumOK == true }.count == 29)
        #expect(Self.count(frames, .malformed) == 0)
        #expect(Self.count(frames, .ok) == 24)
        #expect(Self.count(frames, .unsolicited) == 5)
        #expect(frames.first?.fragments == 9 && frames.first?.raw.count == 168)
        #expect(frames.dropFirst().allSatisfy { $0.fragments == 1 })
        #expect(Dictionary(grouping: frames.filter { $0.direction == .hostToDevice }, by: { $0.commandName ?? "?" })
            .mapValues(\.count) == ["READ_STATUS": 10, "READ_SETTINGS": 1, "WRITE_REGISTER": 1])
        #expect(output.failures[0x0041] ?? [] == [])
        #expect(frames.first { $0.command == 0x06 }?.summary == "WRITE_REGISTER (0x06) → ok in 127 ms")
        #expect(frames.compactMap(\.latencyUs).max() == 169_503)
    }

    /// `infer-crc` on the treadmill's frames finds CRC-16/IBM-3740 at offset 8 over the body,
    /// with the 0x0000 of the bodiless frames as `empty`.
    @Test func inferenceFindsTheTreadmillCRC() throws {
        let output = try Self.run("horizon74_btsnoop_hci.log", "horizon-treadmill.yaml")
        let frames = (output.frames[0x0200] ?? []).map(\.raw.array)
        let matches = CRCInference.search(frames: frames, widths: [16])
        let first = try #require(matches.first)
        #expect(first.catalogueName == "CRC-16/IBM-3740")
        #expect(first.yamlSnippet == SharedCaptures.horizonChecksumSection)
    }
}

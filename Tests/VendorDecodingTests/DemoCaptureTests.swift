import AnalyzerTestSupport
import BLEBase
import Foundation
import Testing
import BLEVendorDecoding

/// The demo lock's profile on demo-faults.btsnoop against its truth file.
@Suite(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
struct DemoCaptureTests {
    struct Truth: Decodable {
        struct Connection: Decodable { var id: Int; var handle: Int? }
        struct Frame: Decodable {
            var id: Int
            var connectionId: Int
            var direction: String
            var attOpcode: String
            var attHandle: Int
            var firstTsUs: Int64
            var lastTsUs: Int64
            var fragments: Int
            var rawHex: String
            var payloadHex: String
            var crcOk: Bool
            var cmd: String
            var cmdName: String
            var seq: Int
            var status: String?
            var statusOk: Bool?
            var responseId: Int?
            var matchedRequestId: Int?
        }
        struct Failure: Decodable { var kind: String; var tsUs: Int64; var connectionId: Int?; var vendorFrameId: Int? }
        var connections: [Connection]
        var vendorFrames: [Frame]
        var failures: [Failure]
    }

    static func truth() throws -> Truth {
        let data = try Data(contentsOf: SharedCaptures.root.appendingPathComponent("synthetic/demo-faults.btsnoop.truth.json"))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Truth.self, from: data)
    }

    static func profile() throws -> Profile {
        try ProfileLoader.load(path: SharedCaptures.packageRoot.appendingPathComponent("Samples/profiles/demo-lock.yaml").path)
    }

    @Test func vendorFramesEqualTheTruth() throws {
        let truth = try Self.truth()
        let output = try CaptureFeeder.run(path: SharedCaptures.path("synthetic/demo-faults.btsnoop"), profile: try Self.profile())
        var ours: [(handle: Int, frame: VendorFrame)] = []
        for connection in truth.connections {
            guard let handle = connection.handle else { continue }
            ours += (output.frames[UInt16(handle)] ?? []).map { (handle, $0) }
        }
        #expect(ours.count == truth.vendorFrames.count)
        // Truth ids are global; ours are per session. Map ours to global positions in order.
        var globalID: [String: Int] = [:]
        for (i, entry) in ours.enumerated() { globalID["\(entry.handle)/\(entry.frame.id)"] = i }
        for (entry, expected) in zip(ours, truth.vendorFrames) {
            let f = entry.frame
            let handle = truth.connections.first { $0.id == expected.connectionId }?.handle
            #expect(entry.handle == handle, "frame \(expected.id)")
            #expect(f.direction.rawValue == expected.direction.replacingOccurrences(of: "_", with: "-"), "frame \(expected.id)")
            #expect(Int(f.attOpcode) == Int(expected.attOpcode.dropFirst(2), radix: 16), "frame \(expected.id)")
            #expect(Int(f.handle) == expected.attHandle, "frame \(expected.id)")
            #expect(f.firstTimeUs == expected.firstTsUs && f.lastTimeUs == expected.lastTsUs, "frame \(expected.id)")
            #expect(f.fragments == expected.fragments, "frame \(expected.id)")
            #expect(Hex.string(f.raw) == expected.rawHex, "frame \(expected.id)")
            #expect(f.plaintext.map { Hex.string($0) } == expected.payloadHex, "frame \(expected.id)")
            #expect(f.checksumOK == expected.crcOk, "frame \(expected.id)")
            #expect(f.command.map { Hex.code($0) } == expected.cmd, "frame \(expected.id)")
            #expect(f.commandName == expected.cmdName, "frame \(expected.id)")
            #expect(f.sequence == expected.seq, "frame \(expected.id)")
            #expect(f.status.map { Hex.code($0) } == expected.status, "frame \(expected.id)")
            #expect(f.statusOK == expected.statusOk, "frame \(expected.id)")
            let matched = f.matchedFrame.flatMap { globalID["\(entry.handle)/\($0)"] }
            #expect(matched == (expected.direction == "host_to_device" ? expected.responseId : expected.matchedRequestId),
                    "frame \(expected.id)")
        }
    }

    @Test func vendorFailuresEqualTheTruthsVendorFaults() throws {
        let truth = try Self.truth()
        let output = try CaptureFeeder.run(path: SharedCaptures.path("synthetic/demo-faults.btsnoop"), profile: try Self.profile())
        let kinds = ["vendor_bad_crc": "vendor-crc-mismatch", "vendor_status_fail": "vendor-status-failure",
                     "vendor_no_response": "vendor-no-response"]
        let expected = truth.failures.compactMap { f in kinds[f.kind].map { "\($0) \(f.tsUs)" } }.sorted()
        let ours = output.failures.values.flatMap { $0 }.map { "\($0.kind.rawValue) \($0.timeUs)" }.sorted()
        #expect(ours == expected)
    }
}

import AnalyzerTestSupport
import Foundation
import Testing
@testable import BLEVendorDecoding

struct InferenceTests {
    /// Frames `aa len payload crc 55` under a catalogue CRC, with varied lengths.
    static func frames(_ entry: CRCCatalogueEntry) -> [[UInt8]] {
        return (0..<6).map { n in
            let body: [UInt8] = [0xAA, UInt8(n + 2)] + (0..<(n + 2)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ n &* 11) }
            let crc = entry.parameters.compute(body)
            let crcBytes: [UInt8] = entry.parameters.width == 8 ? [UInt8(crc)] : [UInt8(crc >> 8), UInt8(crc & 0xFF)]
            return body + crcBytes + [0x55]
        }
    }

    @Test(arguments: ["CRC-8/MAXIM-DOW", "CRC-8/SMBUS", "CRC-8/ROHC", "CRC-16/MODBUS", "CRC-16/IBM-3740", "CRC-16/KERMIT"])
    func findsGeneratedCatalogueCRC(name: String) throws {
        let entry = try #require(CRCCatalogue.entry(named: name))
        let matches = CRCInference.search(frames: Self.frames(entry), widths: [entry.parameters.width])
        // CRC-8/SMBUS frames followed by a 0x55 tail also verify as CRC-8/I-432-1 (xorout 0x55)
        // over frame + CRC byte: a real ambiguity, so both are offered.
        #expect(matches.contains { $0.catalogueName == name && $0.at == -(entry.parameters.width / 8) - 1
                && $0.from == 0 && $0.bigEndian })
        #expect(matches.first?.catalogueName != nil)
    }

    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
    func findsCRC8MaximOnDemoLockFrames() throws {
        let data = try Data(contentsOf: SharedCaptures.root.appendingPathComponent("synthetic/demo-faults.btsnoop.truth.json"))
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let frames = (json?["vendor_frames"] as? [[String: Any]] ?? [])
            .filter { $0["crc_ok"] as? Bool == true }
            .compactMap { ($0["raw_hex"] as? String).flatMap(Hex.bytes) }
        #expect(frames.count == 53)
        let matches = CRCInference.search(frames: frames, widths: [8])
        let first = try #require(matches.first)
        #expect(first.catalogueName == "CRC-8/MAXIM-DOW" && first.at == -2 && first.from == 0 && first.to == -2)
        #expect(first.yamlSnippet == "checksum:\n  algorithm: CRC-8/MAXIM-DOW\n  at: -2\n  range: {from: 0, to: -2}")
    }
}

import BLEBase

struct HeaderChecksumInferenceTests {
    /// `5A len crc-LE body`: CRC-16/IBM-3740 of the body in the header; bodiless frames carry `empty`.
    static func frames(emptyValues: [UInt16]) throws -> [[UInt8]] {
        let crc = try #require(CRCCatalogue.entry(named: "CRC-16/IBM-3740")).parameters
        let bodies: [[UInt8]] = (1...5).map { n in (0..<(n * 3)).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ n) } }
        let full = bodies.map { body -> [UInt8] in
            let value = UInt16(crc.compute(body))
            return [0x5A, UInt8(body.count), UInt8(value & 0xFF), UInt8(value >> 8)] + body
        }
        return full + emptyValues.map { [0x5A, 0x00, UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    @Test func findsTheHeaderChecksumAndTheEmptyValue() throws {
        let matches = CRCInference.search(frames: try Self.frames(emptyValues: [0, 0]), widths: [16])
        let first = try #require(matches.first)
        #expect(first.catalogueName == "CRC-16/IBM-3740" && first.at == 2 && !first.bigEndian && first.from == 4 && first.to == 0)
        #expect(first.emptyValue == 0)
        #expect(first.yamlSnippet.hasSuffix("  range: {from: 4, to: 0}\n  empty: 0x0000"))
    }

    @Test func emptyFramesThatDisagreeRuleTheLayoutOut() throws {
        let matches = CRCInference.search(frames: try Self.frames(emptyValues: [0, 0x1111]), widths: [16])
        #expect(!matches.contains { $0.at == 2 && $0.from == 4 })
    }
}

import AnalyzerTestSupport
import BLEBase
import Testing
@testable import BLEVendorDecoding

/// `ChecksumSearch`: sums and CRCs counted frame by frame, a few corrupted frames tolerated and
/// named, constant check values never offered, too few frames said, partial fits when nothing fits,
/// and frames that span values joined first.
struct ChecksumSearchTests {
    static let light: [[UInt8]] = [
        LightFrame.encode(command: 0x90, payload: [0x00, 0x01, 0xFF, 0x80, 0x00, 0x64]),
        LightFrame.encode(command: 0xF1, payload: [0x00, 0x01]),
        LightFrame.encode(command: 0xF1, payload: [0x00, 0x00]),
        LightFrame.encode(command: 0xB1, payload: [0x00, 0xFF, 0x40, 0x00]),
        LightFrame.encode(command: 0xB1, payload: [0x00, 0x00, 0x00, 0xFF]),
        LightFrame.encode(command: 0xB1, payload: [0x00, 0x12, 0x34, 0x56]),
        LightFrame.encode(command: 0xB1, payload: [0x00, 0x10, 0x20, 0x30], corrupt: true),
        LightFrame.encode(command: 0x90, payload: [0x00, 0x00, 0x10, 0x20, 0x30, 0x40]),
    ]

    @Test func sum8WithOneCorruptedFrame() throws {
        let result = ChecksumSearch.search(frames: Self.light)
        #expect(!result.partial)
        let first = try #require(result.candidates.first)
        #expect(first.name == "sum8" && first.at == -1 && first.from == 0 && first.to == -1)
        #expect(first.verified == 7 && first.total == 8 && first.failing == [6])
        #expect(first.layout == "check value at end-1 over bytes 0 to end-1")
        #expect(first.yamlSnippet == "checksum:\n  algorithm: sum8\n  at: -1\n  range: {from: 0, to: -1}")
        #expect(result.warnings == [])
    }

    @Test func sum16LittleEndianBeforeTheTail() throws {
        var frames = (0..<7).map { i in
            BatteryFrame.encode(fromHost: false, command: 0x01, payload: [0x00, 0x32, UInt8(0x28 + i)])
        }
        frames.append(BatteryFrame.encode(fromHost: false, command: 0x02, payload: [0x00] + Array(0..<40)))
        frames.append(BatteryFrame.encode(fromHost: false, command: 0x01, payload: [0x00, 0x31, 0xFF], corrupt: true))
        let result = ChecksumSearch.search(frames: frames)
        let first = try #require(result.candidates.first)
        #expect(first.name == "sum16" && !first.bigEndian && first.at == -4 && first.from == 2 && first.to == -4)
        #expect(first.verified == 8 && first.failing == [8])
        #expect(first.layout == "check value at end-4 (little-endian) over bytes 2 to end-4")
    }

    @Test func xor8AndSumsWrapAsDefined() throws {
        let frames: [[UInt8]] = (0..<8).map { i in
            let body: [UInt8] = [0x7E, UInt8(i), 0xF0, UInt8(i * 37 & 0xFF), 0x99]
            return body + [body.reduce(0, ^)]
        }
        let first = try #require(ChecksumSearch.search(frames: frames).candidates.first)
        #expect(first.name == "xor8" && first.at == -1 && first.from == 0 && first.verified == 8)
    }

    /// A byte that is the same in every frame "verifies" under some sum of the bytes before it
    /// whenever they too are constant: such a layout is never a candidate.
    @Test func aConstantCheckValueIsNeverOffered() {
        let frames: [[UInt8]] = (0..<10).map { [0x00, 0x00, UInt8($0), UInt8($0 * 7 & 0xFF), 0x00] }
        let result = ChecksumSearch.search(frames: frames)
        #expect(!result.candidates.contains { $0.at == -1 || $0.at == 0 || $0.at == 1 })
        #expect(CRCInference.search(frames: frames).allSatisfy { $0.at != -1 })
    }

    @Test func tooFewFramesAreSaid() {
        let result = ChecksumSearch.search(frames: Array(Self.light.prefix(3)))
        #expect(result.warnings == ["only 3 distinct frame(s): too few to tell a checksum from chance; capture more traffic"])
    }

    /// Half the frames with one checksum, half with another: nothing fits, the best partial
    /// fits are said with their counts.
    @Test func bestPartialFitsWhenNothingFits() throws {
        let sums = Self.light.prefix(6).filter { LightFrame.encode(command: $0[2], payload: Array($0[4..<$0.count - 1])) == $0 }
        let xors: [[UInt8]] = (0..<6).map { i in
            let body: [UInt8] = [0x3A, 0x26, 0x40, 0x02, UInt8(i), UInt8(i * 29 & 0xFF)]
            return body + [body.reduce(0, ^)]
        }
        let result = ChecksumSearch.search(frames: sums + xors)
        #expect(result.partial)
        #expect(result.candidates.prefix(2).map { "\($0.name) \($0.verified) of \($0.total)" } == ["sum8 6 of 12", "xor8 6 of 12"])
    }

    @Test func valuesAreJoinedAtTheSync() {
        let long = LightFrame.encode(command: 0x90, payload: Array(0..<30))
        let values = [Array(long.prefix(20)), Array(long.dropFirst(20)), Self.light[1], Self.light[2]]
        let joined = ChecksumSearch.reassemble(values: values)
        #expect(joined.sync == [0x3A, 0x26])
        #expect(joined.frames == [long, Self.light[1], Self.light[2]])
        #expect(joined.firstValue == [0, 2, 3])
        // One-byte sync when the second byte varies (AA 01, AA 02); nothing joined when every value starts a frame.
        #expect(ChecksumSearch.detectSync([[0xAA, 0x01, 0x00], [0xAA, 0x02, 0x00]]) == [0xAA])
        #expect(ChecksumSearch.reassemble(values: Array(Self.light.prefix(3))).sync == nil)
    }
}

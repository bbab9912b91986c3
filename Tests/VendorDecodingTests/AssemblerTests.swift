import BLEBase
import Testing
@testable import BLEVendorDecoding

/// Reassembly with the demo lock's framing: fed whole, split at every position, byte by byte,
/// and resynchronising after garbage or a lost fragment.
struct AssemblerTests {
    static let framing = Framing(sync: [0xAA], length: .field(LengthField(offset: 3, size: 2, bigEndian: true,
                                                                          counts: .payload, adjust: 0)),
                                 payloadOffset: 5, trailerSize: 2, tail: [0x55])
    static let getInfo: [UInt8] = [0xAA, 0x01, 0x59, 0x00, 0x00, 0xF4, 0x55]                 // GET_INFO seq 0x59
    static let setTime: [UInt8] = [0xAA, 0x02, 0x5A, 0x00, 0x04, 0x66, 0x2A, 0x13, 0x19, 0x3D, 0x55] // SET_TIME seq 0x5A

    static func feed(_ chunks: [[UInt8]], limit: Int = 20) -> [FrameAssembler.Output] {
        var assembler = FrameAssembler(framing: framing)
        var out: [FrameAssembler.Output] = []
        for (i, chunk) in chunks.enumerated() {
            out += assembler.feed(chunk, timeUs: Int64(i), record: i + 1, attOpcode: 0x1B, fragmentLimit: limit)
        }
        return out + assembler.flush(reason: "end")
    }

    /// A value that is one whole frame comes back as its origin alone (its bytes stay the value's,
    /// viewing its buffer); a frame joined from two values has bytes of its own.
    @Test func aWholeFrameValueIsViewedInPlace() throws {
        let batch: [UInt8] = [0xFF] + Self.getInfo + [0xEE]
        var reader = ByteReader(batch, range: 1..<1 + Self.getInfo.count)
        let value = reader.readRemainingView()
        var assembler = FrameAssembler(framing: Self.framing)
        var out: [FrameAssembler.Output] = []
        let fed = assembler.feed(value, timeUs: 1, record: 1, attOpcode: 0x1B, firstFragment: (1, 1), fragmentLimit: 20, into: &out)
        guard let whole = fed, out.isEmpty else { Issue.record("not one frame: \(out)"); return }
        #expect(whole.fragments == 1 && whole.firstRecord == 1 && whole.lastRecord == 1)
        #expect(value.array == Self.getInfo)
        #expect(!value.isWholeBuffer)
        let joined = Self.feed([Array(Self.setTime[..<4]), Array(Self.setTime[4...])])
        guard case .frame(let cut)? = joined.first else { Issue.record("no frame: \(joined)"); return }
        #expect(cut.bytes.array == Self.setTime)
        #expect(cut.bytes.isWholeBuffer)
    }

    static func frames(_ out: [FrameAssembler.Output]) -> [[UInt8]] {
        out.compactMap { if case .frame(let c) = $0 { c.bytes.array } else { nil } }
    }

    @Test func wholeFrames() {
        let out = Self.feed([Self.getInfo, Self.setTime])
        #expect(Self.frames(out) == [Self.getInfo, Self.setTime])
        #expect(out.count == 2)
    }

    @Test func splitAtEveryPosition() {
        let stream = Self.getInfo + Self.setTime
        for cut in 1..<stream.count {
            let out = Self.feed([Array(stream[..<cut]), Array(stream[cut...])], limit: cut)
            #expect(Self.frames(out) == [Self.getInfo, Self.setTime], "cut at \(cut)")
            #expect(out.count == 2, "cut at \(cut)")
        }
    }

    @Test func byteByByteKeepsFragmentBookkeeping() {
        let out = Self.feed((Self.getInfo + Self.setTime).map { [$0] }, limit: 1)
        #expect(Self.frames(out) == [Self.getInfo, Self.setTime])
        guard case .frame(let second)? = out.last else { Issue.record("no frame"); return }
        #expect(second.origin.fragments == Self.setTime.count)
        #expect(second.origin.firstRecord == Self.getInfo.count + 1
                && second.origin.lastRecord == Self.getInfo.count + Self.setTime.count)
    }

    /// A frame's first fragment is that of the value its first byte came in: a whole frame's,
    /// a frame split over two values (the first one's), and a frame starting inside a value.
    @Test func framesKeepTheFirstFragmentOfTheirFirstValue() {
        var assembler = FrameAssembler(framing: Self.framing)
        let stream = Self.getInfo + Self.setTime
        var out = assembler.feed(Self.getInfo, timeUs: 100, record: 4, attOpcode: 0x1B, firstFragment: (2, 90),
                                 fragmentLimit: 20)
        out += assembler.feed(Array(stream[7..<9]), timeUs: 200, record: 7, attOpcode: 0x1B, firstFragment: (5, 180),
                              fragmentLimit: 2)
        out += assembler.feed(Array(stream[9...]), timeUs: 300, record: 9, attOpcode: 0x1B, firstFragment: (8, 290),
                              fragmentLimit: 20)
        let cuts = out.compactMap { if case .frame(let c) = $0 { c } else { nil } }
        #expect(cuts.map(\.origin.firstFragmentRecord) == [2, 5] && cuts.map(\.origin.firstFragmentUs) == [90, 180])
        #expect(cuts.map(\.origin.firstRecord) == [4, 7] && cuts.map(\.origin.lastRecord) == [4, 9])

        var inside = FrameAssembler(framing: Self.framing)
        let both = inside.feed(Array(stream[3...]), timeUs: 50, record: 12, attOpcode: 0x1B, firstFragment: (11, 40),
                               fragmentLimit: 20)
        guard case .frame(let second)? = both.last else { Issue.record("no frame"); return }
        #expect(second.bytes.array == Self.setTime && second.origin.firstFragmentRecord == 11 && second.origin.firstFragmentUs == 40)
    }

    @Test func garbageBeforeSyncIsReportedThenResynchronised() {
        let out = Self.feed([[0x01, 0x02, 0x03] + Self.getInfo])
        #expect(out.count == 2)
        let origin = FrameAssembler.Origin(firstTimeUs: 0, lastTimeUs: 0, firstRecord: 1, lastRecord: 1, fragments: 1,
                                           attOpcode: 0x1B, firstFragmentRecord: 1, firstFragmentUs: 0)
        #expect(out.first == .garbage(FrameAssembler.Cut(bytes: [1, 2, 3], origin: origin),
                                      reason: "3 byte(s) before the sync bytes"))
        #expect(Self.frames(out) == [Self.getInfo])
    }

    @Test func impossibleLengthSkipsTheSyncAndResynchronises() {
        // aa 01 59 ff ff: 65535-byte payload exceeds maxLength 4096.
        let out = Self.feed([[0xAA, 0x01, 0x59, 0xFF, 0xFF] + Self.getInfo])
        #expect(Self.frames(out) == [Self.getInfo])
        guard case .garbage(_, let reason)? = out.first else { Issue.record("no garbage"); return }
        #expect(reason == "impossible length 65535 (frame of 65542 bytes, limits 7...4096)")
    }

    @Test func lostFragmentEndsThePartialFrameWhenTheNextStartsWithSync() {
        // A 30-byte frame sent in 20-byte fragments loses its second fragment; a short fragment
        // first ends nothing, but the next value starts with the sync byte after a short one.
        let payload = [UInt8](repeating: 0x11, count: 23)
        let long: [UInt8] = [0xAA, 0x20, 0x01, 0x00, 0x17] + payload + [0x00, 0x55]
        let out = Self.feed([Array(long[..<20]), [0xAA, 0x01], Self.getInfo], limit: 20)
        // [aa 01] is short and incomplete; when the GET_INFO frame arrives it is abandoned.
        let garbage = out.compactMap { if case .garbage(let c, _) = $0 { c.bytes.array } else { nil } }
        #expect(garbage.first == Array(long[..<20]) + [0xAA, 0x01])
        #expect(Self.frames(out) == [Self.getInfo])
    }

    @Test func noLengthFramingEndsAtShortFragmentAndCapsLength() {
        var framing = Framing(sync: [], length: .none, payloadOffset: 2, trailerSize: 2, tail: [], maxLength: 40)
        var assembler = FrameAssembler(framing: framing)
        var out = assembler.feed([UInt8](repeating: 1, count: 20), timeUs: 0, record: 1, attOpcode: 0x1B, fragmentLimit: 20)
        #expect(out.isEmpty)
        out = assembler.feed([2, 2, 2], timeUs: 1, record: 2, attOpcode: 0x1B, fragmentLimit: 20)
        #expect(Self.frames(out) == [[UInt8](repeating: 1, count: 20) + [2, 2, 2]])
        framing.maxLength = 30
        assembler = FrameAssembler(framing: framing)
        _ = assembler.feed([UInt8](repeating: 1, count: 20), timeUs: 0, record: 1, attOpcode: 0x1B, fragmentLimit: 20)
        out = assembler.feed([UInt8](repeating: 1, count: 20), timeUs: 1, record: 2, attOpcode: 0x1B, fragmentLimit: 20)
        guard case .garbage(let cut, let reason)? = out.first else { Issue.record("no garbage"); return }
        #expect(cut.bytes.count == 40 && reason == "longer than 30 bytes without an end")
    }
}

extension FrameAssembler {
    /// `feed(…into:)`, returning the outputs; a value's first fragment is its own record unless given.
    mutating func feed(_ value: [UInt8], timeUs: Int64, record: Int, attOpcode: UInt8,
                       firstFragment: (record: Int, timeUs: Int64)? = nil, fragmentLimit: Int) -> [Output] {
        var out: [Output] = []
        if let whole = feed(ByteView(value), timeUs: timeUs, record: record, attOpcode: attOpcode,
                            firstFragment: firstFragment ?? (record, timeUs), fragmentLimit: fragmentLimit, into: &out) {
            out.append(.frame(Cut(bytes: ByteView(value), origin: whole)))
        }
        return out
    }
}

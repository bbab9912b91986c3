import BLEBase

/// Finds the CRC a device uses from frames it sent (`infer-crc`).
///
/// For each candidate layout (check value in the last 1–2 bytes or just before a one-byte
/// tail, coverage starting at offset 0...3 and ending at the check value; or check value in
/// the header at offset 0...15, covering the rest of the frame; either byte order)
/// and each polynomial and reflection, the search uses the linearity of CRCs: with
/// `c0 = CRC(init 0, xorout 0)` of the covered bytes, every frame satisfies
/// `stored = c0 ⊕ Z_L(init) ⊕ xorout`, where `Z_L(init)` (the CRC of L zero bytes from `init`)
/// is linear in `init` and depends only on the length L. So one table pass per frame gives
/// `K = stored ⊕ c0`, and each `init` is checked with a few XORs against the basis images of
/// `Z_L`, `xorout` following from the first frame; two lengths give a linear system for `init`. Width 8 tries every polynomial; width 16 the
/// polynomials of the catalogue (an exhaustive 16-bit polynomial search is out of reach of a
/// "seconds" budget). Input and output reflection are assumed equal, as in every catalogue
/// entry. When all frames have one length, `init` and `xorout` cannot be told apart; then only
/// `init` 0, all-ones and the catalogue's values are offered. Frames whose covered range is
/// empty constrain nothing but the value a device writes for them (the treadmill writes 0):
/// they must agree on it, and it becomes the match's `emptyValue`. The parameters are solved
/// on up to `solvingFrames` frames and every match is then verified on all of them.
public enum CRCInference {
    /// Frames used to solve for the parameters (of as many lengths as there are, up to this).
    public static let solvingFrames = 12

    /// Every parameter set and layout under which all `frames` verify, catalogue names first.
    public static func search(frames: [[UInt8]], widths: [Int] = [8, 16], maxMatches: Int = 50) -> [ChecksumFit] {
        guard !frames.isEmpty else { return [] }
        var matches: [ChecksumFit] = []
        for width in widths where width == 8 || width == 16 {
            let size = width / 8
            let polys: [UInt64] = width == 8 ? Array(1...255)
                : Array(Set(CRCCatalogue.entries.filter { $0.parameters.width == 16 }.map(\.parameters.poly))).sorted()
            // One table per polynomial and reflection, shared by every layout.
            let tables = polys.flatMap { poly in [false, true].map { CRCTable(width: width, poly: poly, reflected: $0) } }
            for layout in layouts(size: size, shortest: frames.map(\.count).min() ?? 0) {
                guard let prepared = prepare(frames, layout: layout, size: size), !prepared.covered.isEmpty else { continue }
                for table in tables {
                    for parameters in solve(prepared, table: table, width: width, poly: table.poly, reflected: table.reflected) {
                        let spec = ChecksumSpec(algorithm: .crc(parameters), at: layout.at, bigEndian: layout.bigEndian,
                                                from: layout.from, to: layout.to, emptyValue: prepared.emptyValue)
                        matches.append(ChecksumFit(spec: spec, catalogueName: CRCCatalogue.name(of: parameters)))
                    }
                }
            }
        }
        let ranked = matches.enumerated().sorted { a, b in
            let ka = (a.element.catalogueName == nil ? 1 : 0, a.element.from, a.offset)
            let kb = (b.element.catalogueName == nil ? 1 : 0, b.element.from, b.offset)
            return ka < kb
        }
        // Verifying on every frame is the slow part: stop once enough matches hold.
        return Array(ranked.lazy.map(\.element).filter { verify($0, frames: frames) }.prefix(maxMatches))
    }

    struct Layout: Equatable {
        var at: Int
        var bigEndian: Bool
        var from: Int
        var to: Int
    }

    /// The check value in the last bytes or before a tail of `trailers` bytes, covering from
    /// offset 0…3; or in the header at 0…15, covering the rest (also `ChecksumSearch`'s layouts).
    static func layouts(size: Int, shortest: Int, trailers: [Int] = [0, 1]) -> [Layout] {
        var out: [Layout] = []
        for trailer in trailers {
            let at = -(size + trailer)
            for bigEndian in size == 1 ? [true] : [true, false] {
                for from in 0...3 where shortest + at - from >= 1 {
                    out.append(Layout(at: at, bigEndian: bigEndian, from: from, to: at))
                }
            }
        }
        for at in 0...15 where at + size <= shortest {
            for bigEndian in size == 1 ? [true] : [true, false] {
                out.append(Layout(at: at, bigEndian: bigEndian, from: at + size, to: 0))
            }
        }
        return out
    }

    struct Prepared {
        /// The solving frames' covered bytes and check values (non-empty ranges only).
        var covered: [[UInt8]]
        var stored: [UInt64]
        var emptyValue: UInt64?
    }

    /// The solving subset under `layout`; nil when a frame cannot hold it or frames with an
    /// empty range disagree on their value.
    static func prepare(_ frames: [[UInt8]], layout: Layout, size: Int) -> Prepared? {
        var prepared = Prepared(covered: [], stored: [])
        var lengths: [Int: Int] = [:]
        // A check value that is the same byte(s) in every frame explains nothing: no candidate.
        var firstStored: UInt64?
        var varies = false
        for frame in frames {
            let end = frame.count + layout.to
            let at = layout.at >= 0 ? layout.at : frame.count + layout.at
            guard end >= layout.from, let covered = FrameBytes.read(frame, layout.from..<end),
                  let stored = ByteReader.unsigned(in: frame, at: at, size: size, bigEndian: layout.bigEndian)
            else { return nil }
            if covered.isEmpty {
                guard prepared.emptyValue == nil || prepared.emptyValue == stored else { return nil }
                prepared.emptyValue = stored
                continue
            }
            if let firstStored, firstStored != stored { varies = true }
            if firstStored == nil { firstStored = stored }
            // Keep two frames per length (one checks the other) until the subset is full.
            guard prepared.covered.count < solvingFrames, lengths[covered.count, default: 0] < 2 else { continue }
            lengths[covered.count, default: 0] += 1
            prepared.covered.append(covered)
            prepared.stored.append(stored)
        }
        return varies ? prepared : nil
    }

    static func solve(_ prepared: Prepared, table: CRCTable, width: Int, poly: UInt64, reflected: Bool) -> [CRCParameters] {
        let k = zip(prepared.covered, prepared.stored).map { $1 ^ table.crc($0) }
        let lengths = prepared.covered.map(\.count)
        guard let l0 = lengths.first, let k0 = k.first else { return [] }
        // Frames of equal length must share K (init and xorout cancel out): a cheap filter.
        var kByLength: [Int: UInt64] = [:]
        for (ki, li) in zip(k, lengths) {
            if let seen = kByLength[li], seen != ki { return [] }
            kByLength[li] = ki
        }
        /// Z_L(init): the CRC of L zero bytes from `init`, linear in `init`.
        func zeros(_ initial: UInt64, _ length: Int) -> UInt64 {
            table.crc([UInt8](repeating: 0, count: length), initial: initial)
        }
        func columns(_ length: Int) -> [UInt64] { (0..<width).map { zeros(1 << UInt64($0), length) } }
        let mask: UInt64 = (1 << UInt64(width)) - 1
        var inits: [UInt64] = []
        if let j = lengths.firstIndex(where: { $0 != l0 }) {
            // Z_L0(init) ⊕ Z_Lj(init) = K0 ⊕ Kj is linear in init: solve it by elimination.
            inits = solveLinear(columns: zip(columns(l0), columns(lengths[j])).map { $0 ^ $1 }, target: k0 ^ k[j], width: width)
        } else {
            let catalogue = CRCCatalogue.entries.filter { $0.parameters.width == width }.map(\.parameters.initial)
            inits = Array(Set([0, mask] + catalogue)).sorted()
        }
        var out: [CRCParameters] = []
        for initial in inits {
            let xorOut = k0 ^ zeros(initial, l0)
            if kByLength.allSatisfy({ $0.value == zeros(initial, $0.key) ^ xorOut }) {
                out.append(CRCParameters(width: width, poly: poly, initial: initial, reflectIn: reflected,
                                         reflectOut: reflected, xorOut: xorOut))
            }
        }
        return out
    }

    /// Every x with XOR of `columns[i]` over the set bits i of x equal to `target` (GF(2)),
    /// at most 4096 of them.
    static func solveLinear(columns: [UInt64], target: UInt64, width: Int) -> [UInt64] {
        // Rows: one per output bit; each row holds the input bits (mask) and the target bit.
        var rows: [(mask: UInt64, value: UInt64)] = (0..<width).map { out in
            var mask: UInt64 = 0
            for (i, column) in columns.enumerated() where column >> UInt64(out) & 1 == 1 { mask |= 1 << UInt64(i) }
            return (mask, target >> UInt64(out) & 1)
        }
        var pivots: [(bit: Int, row: Int)] = []
        var next = 0
        for bit in 0..<width {
            guard let r = (next..<rows.count).first(where: { rows[$0].mask >> UInt64(bit) & 1 == 1 }) else { continue }
            rows.swapAt(next, r)
            for other in rows.indices where other != next && rows[other].mask >> UInt64(bit) & 1 == 1 {
                rows[other].mask ^= rows[next].mask
                rows[other].value ^= rows[next].value
            }
            pivots.append((bit, next))
            next += 1
        }
        guard !rows[next...].contains(where: { $0.value == 1 }) else { return [] }
        let pivotBits = Set(pivots.map(\.bit))
        let free = (0..<width).filter { !pivotBits.contains($0) }
        guard free.count <= 12 else { return [] }
        var solutions: [UInt64] = []
        for assignment in 0..<(UInt64(1) << UInt64(free.count)) {
            var x: UInt64 = 0
            for (i, bit) in free.enumerated() where assignment >> UInt64(i) & 1 == 1 { x |= 1 << UInt64(bit) }
            for (bit, row) in pivots {
                // The pivot's value: the row's target XOR the free bits it still mentions.
                let others = rows[row].mask & ~(1 << UInt64(bit)) & x
                if (UInt64(others.nonzeroBitCount) & 1) ^ rows[row].value == 1 { x |= 1 << UInt64(bit) }
            }
            solutions.append(x)
        }
        return solutions
    }

    static func verify(_ match: ChecksumFit, frames: [[UInt8]]) -> Bool {
        frames.allSatisfy { frame in
            let bytes = ByteView(frame)
            return match.spec.verify(sent: bytes, covered: bytes).map { $0.stored == $0.computed } ?? false
        }
    }
}

/// A byte-at-a-time CRC with xorout 0 (the model's refin = refout case).
struct CRCTable: Sendable, Equatable {
    let width: Int
    let poly: UInt64
    let reflected: Bool
    private let table: [UInt64]

    init(width: Int, poly: UInt64, reflected: Bool) {
        self.width = width
        self.poly = poly
        self.reflected = reflected
        let mask: UInt64 = (1 << UInt64(width)) - 1
        let top: UInt64 = 1 << UInt64(width - 1)
        let reversedPoly = CRCParameters.reflect(poly, bits: width)
        table = (0..<256).map { (i: Int) -> UInt64 in
            if reflected {
                var r = UInt64(i)
                for _ in 0..<8 { r = r & 1 == 1 ? (r >> 1) ^ reversedPoly : r >> 1 }
                return r
            }
            var r = UInt64(i) << UInt64(width - 8)
            for _ in 0..<8 { r = r & top != 0 ? ((r << 1) ^ poly) & mask : (r << 1) & mask }
            return r
        }
    }

    /// Entry `index` (0...255) of the byte-at-a-time table.
    func entry(_ index: Int) -> UInt64 { table[index] }

    /// The CRC with the model's `init` (reflected into the register for reflected CRCs).
    func crc<C: Collection>(_ bytes: C, initial: UInt64 = 0) -> UInt64 where C.Element == UInt8 {
        crc(bytes, register: register(initial: initial))
    }

    /// The register a CRC with the model's `init` starts from (reflected for reflected CRCs).
    func register(initial: UInt64) -> UInt64 {
        reflected ? CRCParameters.reflect(initial, bits: width) : initial
    }

    /// The CRC from a register worked out once by `register(initial:)`.
    /// (The table has 256 entries and every index is masked to a byte: read unchecked.)
    func crc<C: Collection>(_ bytes: C, register start: UInt64) -> UInt64 where C.Element == UInt8 {
        var register = start
        let mask: UInt64 = (1 << UInt64(width)) - 1
        let shift = UInt64(width - 8)
        table.withUnsafeBufferPointer { table in
            if reflected {
                for byte in bytes { register = (register >> 8) ^ table[Int((register ^ UInt64(byte)) & 0xFF)] }
            } else {
                for byte in bytes { register = ((register << 8) & mask) ^ table[Int(((register >> shift) ^ UInt64(byte)) & 0xFF)] }
            }
        }
        return register
    }
}

extension CRCTable {
    /// The table form of a CRC algorithm: widths 8...16 with refin equal to refout; nil
    /// otherwise (sums, narrow or mixed-reflection CRCs are computed by definition).
    init?(for algorithm: ChecksumAlgorithm) {
        guard case .crc(let p) = algorithm, (8...16).contains(p.width), p.reflectIn == p.reflectOut else { return nil }
        self.init(width: p.width, poly: p.poly, reflected: p.reflectIn)
    }
}

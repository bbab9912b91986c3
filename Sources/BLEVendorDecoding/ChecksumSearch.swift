import BLEBase

/// `infer-crc`'s search for the check value of a device's frames: every catalogue CRC and the
/// sums (`sum8`, `xor8`, `sum16` in both byte orders) under every layout (the check value in the
/// last bytes, before a fixed tail of one or two bytes, or in the header), counted frame by frame
/// so that a few corrupted frames do not hide the answer; then, when nothing fits and there
/// are enough frames to tell, the CRCs outside the catalogue that `CRCInference` solves for. A layout whose check value is the same
/// byte in every frame is never offered (a constant explains nothing), and when nothing fits
/// the best partial fits are said, with their counts.
public enum ChecksumSearch {
    /// Frames searched at most (distinct ones, in the order given).
    public static let maxFrames = 512
    /// Fewer distinct frames than this and any fit may be chance: said in `warnings`.
    public static let fewFrames = 6

    /// A checksum and how well it fits the frames searched; its fields read through (`candidate.at`).
    @dynamicMemberLookup
    public struct Candidate: Sendable, Equatable {
        public var fit: ChecksumFit
        public var verified: Int
        /// How many different covered byte runs the verified frames have: frames that cover the
        /// same bytes (a constant tail, repeated commands) are one piece of evidence, not several.
        public var evidence: Int
        public var total: Int
        /// Indices (into the frames searched) of the frames that do not verify, at most `maxListedFailing`.
        public var failing: [Int]

        public static let maxListedFailing = 5

        public subscript<T>(dynamicMember field: KeyPath<ChecksumFit, T>) -> T { fit[keyPath: field] }
        public subscript<T>(dynamicMember field: KeyPath<ChecksumSpec, T>) -> T { fit.spec[keyPath: field] }
    }

    public struct Result: Sendable {
        /// Candidates that verify every frame or all but a few (`tolerance`), best first; when
        /// none does, the best partial fits (`partial` true).
        public var candidates: [Candidate]
        public var partial: Bool
        public var frames: Int
        public var warnings: [String]
    }

    /// Frames that may fail in a fit of `total` frames: one in twenty, at least one from five
    /// frames on (a chance fit of four 8-bit values in ~3000 candidates is one in a million), none below.
    public static func tolerance(total: Int) -> Int { total >= 5 ? max(1, total / 20) : 0 }

    /// Searches `frames` (distinct frames; callers drop repeats first).
    public static func search(frames input: [[UInt8]], maxMatches: Int = 10) -> Result {
        let frames = Array(input.prefix(maxFrames))
        var warnings: [String] = []
        if frames.count < fewFrames {
            warnings.append("only \(frames.count) distinct frame(s): too few to tell a checksum from chance; capture more traffic")
        }
        let shortest = frames.map(\.count).min() ?? 0
        var found: [Candidate] = []
        let algorithms: [(ChecksumAlgorithm, String?)] = [(.sum8, nil), (.xor8, nil), (.sum16, nil)]
            + CRCCatalogue.entries.map { (.crc($0.parameters), $0.name) }
        for (algorithm, catalogueName) in algorithms {
            let spec = ChecksumSpec(algorithm: algorithm, at: 0, bigEndian: true, from: 0, to: 0)
            for layout in layouts(size: algorithm.size, frames: frames, shortest: shortest) {
                if let candidate = evaluate(frames, spec: spec, catalogueName: catalogueName, layout: layout) {
                    found.append(candidate)
                }
            }
        }
        let total = frames.count
        // A fit: all frames but a few verify, most of them on bytes of their own.
        func fits(_ c: Candidate) -> Bool { total - c.verified <= tolerance(total: total) && c.evidence >= 2 && 2 * c.evidence >= c.verified }
        var fitting = found.filter(fits)
        if fitting.isEmpty, total >= fewFrames {
            // CRCs outside the catalogue, solved for on frames that must all verify, then counted
            // like the others (a solution over a few distinct runs of bytes is no evidence).
            for match in CRCInference.search(frames: frames, maxMatches: maxMatches) where match.catalogueName == nil {
                let spec = ChecksumSpec(algorithm: match.algorithm, at: 0, bigEndian: true, from: 0, to: 0)
                let layout = Layout(at: match.at, bigEndian: match.bigEndian, from: match.from, to: match.to)
                if let candidate = evaluate(frames, spec: spec, catalogueName: nil, layout: layout), fits(candidate) {
                    fitting.append(candidate)
                }
            }
        }
        let partial = fitting.isEmpty
        let ranked = (partial ? found : fitting).enumerated().sorted { a, b in
            let ka = (-a.element.verified, -a.element.evidence, a.element.catalogueName == nil ? 1 : 0, a.element.from, a.offset)
            let kb = (-b.element.verified, -b.element.evidence, b.element.catalogueName == nil ? 1 : 0, b.element.from, b.offset)
            return ka < kb
        }.map(\.element)
        let shown = partial ? Array(ranked.filter { $0.verified > 0 }.prefix(min(maxMatches, 3))) : Array(ranked.prefix(maxMatches))
        return Result(candidates: shown, partial: partial, frames: total, warnings: warnings)
    }

    typealias Layout = CRCInference.Layout

    /// `CRCInference.layouts`, where a tail of one or two bytes is taken only when it is the same
    /// in every frame (`0D 0A`).
    static func layouts(size: Int, frames: [[UInt8]], shortest: Int) -> [Layout] {
        let fixedTails = [1, 2].filter { trailer in
            guard shortest >= trailer + size, let tail = frames.first?.suffix(trailer) else { return false }
            return frames.allSatisfy { $0.suffix(trailer).elementsEqual(tail) }
        }
        return CRCInference.layouts(size: size, shortest: shortest, trailers: [0] + fixedTails)
    }

    /// How many frames verify under `spec`'s algorithm and `layout`; nil when the check value
    /// is the same in every frame (or no frame has it). Frames with an empty covered range
    /// verify when they carry the value most of them carry (the device's `empty`).
    static func evaluate(_ frames: [[UInt8]], spec: ChecksumSpec, catalogueName: String?, layout: Layout) -> Candidate? {
        let size = spec.algorithm.size
        var verified = 0
        var failing: [Int] = []
        var firstStored: UInt64?
        var varies = false
        var empties: [(index: Int, stored: UInt64)] = []
        // FNV-1a digests of the verified frames' covered bytes (`Candidate.evidence`).
        var digests = Set<UInt64>()
        for (index, frame) in frames.enumerated() {
            let at = layout.at >= 0 ? layout.at : frame.count + layout.at
            let end = layout.to > 0 ? layout.to : frame.count + layout.to
            guard at >= 0, end >= layout.from, end <= frame.count,
                  let stored = ByteReader.unsigned(in: frame, at: at, size: size, bigEndian: layout.bigEndian) else {
                if failing.count < Candidate.maxListedFailing { failing.append(index) }
                continue
            }
            if end == layout.from {
                empties.append((index, stored))
                continue
            }
            if let firstStored, firstStored != stored { varies = true }
            if firstStored == nil { firstStored = stored }
            let (computed, digest) = frame.withUnsafeBufferPointer { all in
                let covered = UnsafeBufferPointer(rebasing: all[layout.from..<end])
                return (spec.compute(covered), covered.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 })
            }
            if computed == stored {
                verified += 1
                digests.insert(digest)
            } else {
                if failing.count < Candidate.maxListedFailing { failing.append(index) }
            }
        }
        guard varies else { return nil }
        var emptyValue: UInt64?
        if !empties.isEmpty {
            var counts: [UInt64: Int] = [:]
            for entry in empties { counts[entry.stored, default: 0] += 1 }
            let common = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? 0
            emptyValue = common
            for entry in empties {
                if entry.stored == common {
                    verified += 1
                    digests.insert(0)
                } else if failing.count < Candidate.maxListedFailing {
                    failing.append(entry.index)
                }
            }
            failing.sort()
        }
        let found = ChecksumSpec(algorithm: spec.algorithm, at: layout.at, bigEndian: layout.bigEndian, from: layout.from,
                                 to: layout.to, emptyValue: emptyValue)
        return Candidate(fit: ChecksumFit(spec: found, catalogueName: catalogueName), verified: verified,
                         evidence: digests.count, total: frames.count, failing: failing)
    }

    /// Joins ATT values into frames where frames span values: a value that starts with `sync`
    /// starts a frame, any other continues the one before. Without `sync`, the first value's
    /// first byte is taken (a capture's first value on a characteristic starts a frame), with its
    /// second byte too when every value starting with the first has it (`55 AA`, not `AA 01`),
    /// once at least two values start with it. Returns the frames, the index of the value each
    /// started in, and the sync used (nil when every value starts a frame).
    public static func reassemble(values: [[UInt8]], sync given: [UInt8]? = nil)
        -> (frames: [[UInt8]], firstValue: [Int], sync: [UInt8]?) {
        let sync = given ?? detectSync(values)
        guard let sync, !sync.isEmpty, !values.allSatisfy({ $0.starts(with: sync) }) else {
            return (values, Array(values.indices), nil)
        }
        var frames: [[UInt8]] = []
        var firstValue: [Int] = []
        for (i, value) in values.enumerated() {
            if value.starts(with: sync) || frames.isEmpty {
                frames.append(value)
                firstValue.append(i)
            } else {
                frames[frames.count - 1] += value
            }
        }
        return (frames, firstValue, sync)
    }

    static func detectSync(_ values: [[UInt8]]) -> [UInt8]? {
        guard let first = values.first?.first else { return nil }
        let starting = values.filter { $0.first == first }
        guard starting.count >= 2 else { return nil }
        if let second = values.first?.dropFirst().first, starting.allSatisfy({ $0.count >= 2 && $0[1] == second }) {
            return [first, second]
        }
        return [first]
    }
}

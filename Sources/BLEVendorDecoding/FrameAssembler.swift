import BLEBase

/// Cuts frames out of the byte stream of one characteristic in one direction: an explicit state
/// machine over a buffer of fragments (ATT values), in the manner of a length-field frame
/// decoder. The length field decides completeness first; a fragment shorter than
/// ATT_MTU − 3 ends a frame only when the framing has no length (a sender fills fragments to
/// ATT_MTU − 3 until the last one). Bytes that cannot be framed (before a sync, an impossible
/// length, an incomplete frame when the next one starts) come out as `garbage`, and reading
/// resynchronises on the next sync bytes.
struct FrameAssembler: Sendable {
    /// A run of bytes and the fragments it came from. A value that is one whole frame is its
    /// bytes in place (a view of its record's batch); bytes joined from several are copied.
    struct Cut: Sendable, Equatable {
        var bytes: ByteView
        var origin: Origin
    }

    /// The fragments a cut came from: plain values, passed on beside its bytes (a cut passed
    /// whole is copied and destroyed through outlined value witnesses, for its bytes).
    struct Origin: Sendable, Equatable {
        var firstTimeUs: Int64
        var lastTimeUs: Int64
        var firstRecord: Int
        var lastRecord: Int
        var fragments: Int
        var attOpcode: UInt8
        /// Where the first value's bytes started to arrive: its first L2CAP fragment.
        var firstFragmentRecord: Int
        var firstFragmentUs: Int64
    }

    enum Output: Sendable, Equatable {
        case frame(Cut)
        case garbage(Cut, reason: String)
    }

    private struct Piece: Sendable {
        var remaining: Int
        var timeUs: Int64
        var record: Int
        var attOpcode: UInt8
        var firstFragmentRecord: Int
        var firstFragmentUs: Int64
    }

    let framing: Framing
    private var buffer: [UInt8] = []
    private var pieces: [Piece] = []
    private var lastFragmentShort = false

    init(framing: Framing) { self.framing = framing }

    var isEmpty: Bool { buffer.isEmpty }

    /// What the front of a buffer holds, by the framing's length rule.
    private enum Measure {
        /// Too few bytes to tell.
        case incomplete
        /// A frame of this many bytes (perhaps more than are there yet).
        case frame(Int)
        case impossible(reason: String)
        /// No length and no short fragment yet: the frame goes on.
        case unended
    }

    /// Adds one ATT value, appending what it completes to `out`; `fragmentLimit` is ATT_MTU − 3.
    /// `firstFragment` is the record and time of the value's first L2CAP fragment. A value that is
    /// one whole frame comes back instead, the frame after whatever is in `out`.
    mutating func feed(_ value: borrowing ByteView, timeUs: Int64, record: Int, attOpcode: UInt8,
                       firstFragment: (record: Int, timeUs: Int64), fragmentLimit: Int, into out: inout [Output]) -> Origin? {
        let whole = value.withUnsafeBufferPointer {
            feed($0, timeUs: timeUs, record: record, attOpcode: attOpcode, firstFragment: firstFragment,
                 fragmentLimit: fragmentLimit, into: &out)
        }
        // The common case, a value that is one whole frame: passed on in place, without buffering
        // (copied into an array of its own, each frame would cost an allocation and a free), and
        // not through `out` (an enum with a string, moved in and out of the list per frame).
        guard whole else { return nil }
        return Origin(firstTimeUs: timeUs, lastTimeUs: timeUs, firstRecord: record, lastRecord: record, fragments: 1,
                      attOpcode: attOpcode, firstFragmentRecord: firstFragment.record, firstFragmentUs: firstFragment.timeUs)
    }

    /// Cuts what `value` completes into `out`; true when `value` is one whole frame, which the
    /// caller then passes on as it is (any garbage it ended is already in `out`).
    private mutating func feed(_ value: UnsafeBufferPointer<UInt8>, timeUs: Int64, record: Int, attOpcode: UInt8,
                               firstFragment: (record: Int, timeUs: Int64), fragmentLimit: Int, into out: inout [Output]) -> Bool {
        let sync = framing.sync
        // (A buffer holding just the optional prefix waits for the sync that follows it.)
        if !buffer.isEmpty, lastFragmentShort, !sync.isEmpty, startsWithSync(value), framing.length != .none,
           framing.prefix.isEmpty || !buffer.elementsEqual(framing.prefix) {
            out.append(.garbage(take(buffer.count),
                                reason: "incomplete frame: a fragment shorter than ATT_MTU − 3 came before its length was reached"))
        }
        guard !value.isEmpty else { return false }
        // A frame that never spans values ends with its value, whatever the MTU.
        let short = value.count < fragmentLimit || !framing.spansValues
        lastFragmentShort = short
        if buffer.isEmpty, startsWithSync(value), case .frame(let total) = measure(value, short: short), total == value.count {
            return true
        }
        defer {
            if !framing.spansValues, !buffer.isEmpty {
                out.append(.garbage(take(buffer.count), reason: "incomplete frame: frames never span ATT values (framing.spansValues)"))
            }
        }
        buffer.append(contentsOf: value)
        pieces.append(Piece(remaining: value.count, timeUs: timeUs, record: record, attOpcode: attOpcode,
                            firstFragmentRecord: firstFragment.record, firstFragmentUs: firstFragment.timeUs))
        cutting: while !buffer.isEmpty {
            if !sync.isEmpty {
                if let skip = syncOffset() {
                    let prefix = framing.prefix
                    if !prefix.isEmpty, skip >= prefix.count, buffer[(skip - prefix.count)..<skip].elementsEqual(prefix) {
                        // The optional prefix is no part of the frame: dropped, after any garbage before it.
                        if skip > prefix.count {
                            out.append(.garbage(take(skip - prefix.count), reason: "\(skip - prefix.count) byte(s) before the sync bytes"))
                        }
                        _ = take(prefix.count)
                        continue cutting
                    }
                    if skip > 0 {
                        out.append(.garbage(take(skip), reason: "\(skip) byte(s) before the sync bytes"))
                        continue cutting
                    }
                } else {
                    let keep = partialHeadSuffix()
                    if buffer.count > keep {
                        out.append(.garbage(take(buffer.count - keep), reason: "no sync bytes"))
                    }
                    break cutting
                }
            }
            switch buffer.withUnsafeBufferPointer({ measure($0, short: short) }) {
            case .incomplete:
                break cutting
            case .impossible(let reason):
                out.append(.garbage(take(max(syncLength(atFrontOf: buffer), 1)), reason: reason))
                continue cutting
            case .unended:
                if buffer.count > framing.maxLength {
                    out.append(.garbage(take(buffer.count), reason: "longer than \(framing.maxLength) bytes without an end"))
                }
                break cutting
            case .frame(let total):
                guard buffer.count >= total else { break cutting }
                out.append(.frame(take(total)))
            }
        }
        return false
    }

    /// The length of the frame that starts `bytes` (at its sync bytes); `short`: whether the
    /// latest fragment was shorter than ATT_MTU − 3.
    private func measure(_ bytes: UnsafeBufferPointer<UInt8>, short: Bool) -> Measure {
        switch framing.length {
        case .field(let field):
            guard let value = ByteReader.unsigned(in: bytes, at: field.offset, size: field.size, bigEndian: field.bigEndian)
            else { return .incomplete }
            let total = field.frameLength(value: Int(value), framing: framing)
            let minimum = max(field.offset + field.size, framing.payloadOffset + framing.trailerSize,
                              framing.sync.count + framing.tail.count, 1)
            guard total >= minimum, total <= framing.maxLength else {
                return .impossible(reason: "impossible length \(value) (frame of \(total) bytes, limits \(minimum)...\(framing.maxLength))")
            }
            return .frame(total)
        case .fixed(let size):
            return .frame(size)
        case .none:
            return short ? .frame(bytes.count) : .unended
        }
    }

    /// Whatever is buffered, as garbage (at a disconnection or the end of the capture).
    mutating func flush(reason: String) -> [Output] {
        buffer.isEmpty ? [] : [.garbage(take(buffer.count), reason: reason)]
    }

    /// True when `bytes` start with the sync bytes or one of their alternatives.
    private func startsWithSync(_ bytes: some Collection<UInt8>) -> Bool {
        if bytes.starts(with: framing.sync) { return true }
        return framing.alternativeSyncs.contains { bytes.starts(with: $0) }
    }

    /// The length of the sync (or alternative) `bytes` start with; 0 when none.
    private func syncLength(atFrontOf bytes: [UInt8]) -> Int {
        framing.syncs.first { bytes.starts(with: $0) }?.count ?? 0
    }

    /// Where the sync bytes (or, earlier, an alternative) first occur in the buffer.
    private func syncOffset() -> Int? {
        guard !framing.sync.isEmpty else { return 0 }
        var earliest = Self.offset(of: framing.sync, in: buffer)
        for alternative in framing.alternativeSyncs {
            if let i = Self.offset(of: alternative, in: buffer), i < earliest ?? Int.max { earliest = i }
        }
        return earliest
    }

    private static func offset(of sync: [UInt8], in buffer: [UInt8]) -> Int? {
        guard let first = sync.first, buffer.count >= sync.count else { return nil }
        var start = 0
        while let i = buffer[start...].firstIndex(of: first), i <= buffer.count - sync.count {
            if buffer[i..<i + sync.count].elementsEqual(sync) { return i }
            start = i + 1
        }
        return nil
    }

    /// The length of the longest buffer suffix that is a proper prefix of the sync bytes, or of
    /// the optional prefix and the sync bytes.
    private func partialHeadSuffix() -> Int {
        var longest = 0
        for sync in framing.syncs {
            let head = framing.prefix + sync
            for k in stride(from: min(head.count - 1, buffer.count), to: longest, by: -1)
                where buffer.suffix(k).elementsEqual(head.prefix(k)) || buffer.suffix(k).elementsEqual(sync.prefix(k)) {
                longest = k
                break
            }
        }
        return longest
    }

    /// Removes the first `count` bytes with the fragments they came from.
    private mutating func take(_ count: Int) -> Cut {
        let bytes = ByteView(Array(buffer.prefix(count)))
        buffer.removeFirst(min(count, buffer.count))
        var cut = Origin(firstTimeUs: 0, lastTimeUs: 0, firstRecord: 0, lastRecord: 0, fragments: 0,
                         attOpcode: pieces.first?.attOpcode ?? 0, firstFragmentRecord: 0, firstFragmentUs: 0)
        var needed = count
        while needed > 0, var piece = pieces.first {
            if cut.fragments == 0 {
                cut.firstTimeUs = piece.timeUs
                cut.firstRecord = piece.record
                cut.attOpcode = piece.attOpcode
                cut.firstFragmentRecord = piece.firstFragmentRecord
                cut.firstFragmentUs = piece.firstFragmentUs
            }
            cut.fragments += 1
            cut.lastTimeUs = piece.timeUs
            cut.lastRecord = piece.record
            let used = min(needed, piece.remaining)
            needed -= used
            piece.remaining -= used
            if piece.remaining == 0 { pieces.removeFirst() } else { pieces[pieces.startIndex] = piece }
        }
        return Cut(bytes: bytes, origin: cut)
    }
}

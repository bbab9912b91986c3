import BLEBase

/// Which fragment stream a fragment belongs to: one per link and direction.
///
/// For HCI captures `connection` is the 12-bit ACL connection handle; for air captures it is the
/// link-layer access address. `direction` is the caller's own code for the way the data travels.
public struct FragmentStreamKey: Hashable, Sendable {
    /// Controller index when the capture carries one.
    public var adapter: UInt16?
    public var connection: UInt32
    public var direction: UInt8

    public init(adapter: UInt16? = nil, connection: UInt32, direction: UInt8) {
        self.adapter = adapter
        self.connection = connection
        self.direction = direction
    }
}

/// A complete L2CAP basic frame rebuilt from one or more fragments.
public struct L2CAPFrame: Sendable, Equatable {
    public var channelID: ChannelID
    /// The information payload (header removed) as a reader whose offsets start at 0; it shares
    /// the storage of the record that carried a single-fragment PDU.
    public var body: ByteReader
    public var firstRecordIndex: Int
    public var lastRecordIndex: Int
    public var firstTimestampUs: Int64
    public var lastTimestampUs: Int64
    public var fragmentCount: Int

    public init(channelID: ChannelID, body: ByteReader, firstRecordIndex: Int, lastRecordIndex: Int,
                firstTimestampUs: Int64, lastTimestampUs: Int64, fragmentCount: Int) {
        self.channelID = channelID
        self.body = body
        self.firstRecordIndex = firstRecordIndex
        self.lastRecordIndex = lastRecordIndex
        self.firstTimestampUs = firstTimestampUs
        self.lastTimestampUs = lastTimestampUs
        self.fragmentCount = fragmentCount
    }

    public init(channelID: ChannelID, payload: [UInt8], firstRecordIndex: Int, lastRecordIndex: Int,
                firstTimestampUs: Int64, lastTimestampUs: Int64, fragmentCount: Int) {
        self.init(channelID: channelID, body: ByteReader(payload), firstRecordIndex: firstRecordIndex,
                  lastRecordIndex: lastRecordIndex, firstTimestampUs: firstTimestampUs,
                  lastTimestampUs: lastTimestampUs, fragmentCount: fragmentCount)
    }

    /// The information payload (header removed), without copying it.
    public var payload: ArraySlice<UInt8> { body.unreadBytes }

    /// Frames are equal by their bytes, wherever those are stored.
    public static func == (lhs: L2CAPFrame, rhs: L2CAPFrame) -> Bool {
        lhs.channelID == rhs.channelID && lhs.payload.elementsEqual(rhs.payload)
            && lhs.firstRecordIndex == rhs.firstRecordIndex && lhs.lastRecordIndex == rhs.lastRecordIndex
            && lhs.firstTimestampUs == rhs.firstTimestampUs && lhs.lastTimestampUs == rhs.lastTimestampUs
            && lhs.fragmentCount == rhs.fragmentCount
    }
}

/// A PDU still being collected, as reported when it cannot complete.
public struct PartialL2CAPFrame: Sendable, Equatable {
    public var key: FragmentStreamKey
    /// The basic header, once its four bytes have arrived.
    public var header: L2CAPBasicHeader?
    /// The PDU's bytes from its first byte (header included), up to the first byte the capturing
    /// tool cut away.
    public var bytes: [UInt8]
    /// Bytes carried by every fragment so far, header included.
    public var receivedByteCount: Int
    /// Bytes the capturing tool cut from the fragments (their `truncatedBy` summed).
    public var missingByteCount: Int
    public var firstRecordIndex: Int
    public var lastRecordIndex: Int
    public var firstTimestampUs: Int64
    public var lastTimestampUs: Int64
    public var fragmentCount: Int

    /// The whole PDU's size, header included, once the header is known.
    public var expectedByteCount: Int? { header?.pduByteCount }

    init(key: FragmentStreamKey, recordIndex: Int, timestampUs: Int64) {
        self.key = key
        header = nil
        bytes = []
        receivedByteCount = 0
        missingByteCount = 0
        firstRecordIndex = recordIndex
        lastRecordIndex = recordIndex
        firstTimestampUs = timestampUs
        lastTimestampUs = timestampUs
        fragmentCount = 0
    }

    mutating func absorb(_ fragment: ArraySlice<UInt8>, truncatedBy: Int, recordIndex: Int, timestampUs: Int64) {
        // Bytes after a cut no longer sit at known offsets of `bytes`: only count them.
        if missingByteCount == 0 { bytes.append(contentsOf: fragment) }
        if header == nil, missingByteCount == 0 {
            var reader = ByteReader(bytes, layer: .l2cap)
            header = try? L2CAPBasicHeader(parsing: &reader)
            // The rest of the PDU then comes without growing the array step by step.
            if let expected = expectedByteCount { bytes.reserveCapacity(expected) }
        }
        receivedByteCount += fragment.count
        missingByteCount += max(0, truncatedBy)
        lastRecordIndex = recordIndex
        lastTimestampUs = timestampUs
        fragmentCount += 1
    }

    /// True once `outcome` is not nil: the bytes reached the header's length, or a cut made the
    /// end unknowable. Asked first, so that a PDU still waiting makes and drops no empty outcome
    /// on every fragment.
    var isResolved: Bool {
        guard let expected = expectedByteCount else { return missingByteCount > 0 }
        return receivedByteCount + missingByteCount >= expected
    }

    /// `isResolved` of a PDU held where only a mutating call reaches it in place.
    mutating func checkResolved() -> Bool { isResolved }

    /// What this partial has become after a fragment, or nil while it still waits for bytes.
    var outcome: ReassemblyEvent? {
        guard let header, let expected = expectedByteCount else {
            // A cut inside the header: the PDU's end can never be known.
            return missingByteCount > 0 ? .cutShort(self) : nil
        }
        let total = receivedByteCount + missingByteCount
        guard total >= expected else { return nil }
        guard missingByteCount == 0 else { return .cutShort(self) }
        // The body is read in place in the collected bytes, its offsets counted from its first byte.
        let body = ByteReader(bytes, range: L2CAPBasicHeader.size..<expected, layer: .l2cap,
                              baseOffset: -L2CAPBasicHeader.size)
        let frame = L2CAPFrame(channelID: header.channelID, body: body,
                               firstRecordIndex: firstRecordIndex, lastRecordIndex: lastRecordIndex,
                               firstTimestampUs: firstTimestampUs, lastTimestampUs: lastTimestampUs,
                               fragmentCount: fragmentCount)
        return total == expected ? .complete(frame) : .overrun(frame, extraBytes: total - expected)
    }
}

/// What feeding a fragment (or flushing a stream) produced. Every anomaly is an event, so that
/// the pipeline can report it next to the packets.
public enum ReassemblyEvent: Sendable, Equatable {
    /// A PDU whose fragments added up to exactly its length field.
    case complete(L2CAPFrame)
    /// A continuation fragment on a stream with no PDU being collected.
    case orphanContinuation(key: FragmentStreamKey, recordIndex: Int, byteCount: Int)
    /// The fragments carried more bytes than the length field: the frame holds the first
    /// `length` bytes, `extraBytes` were dropped.
    case overrun(L2CAPFrame, extraBytes: Int)
    /// A start fragment arrived (at `byRecordIndex`) before the pending PDU completed.
    indirect case interrupted(PartialL2CAPFrame, byRecordIndex: Int)
    /// The capturing tool cut a fragment, so the PDU can never be complete: it ends here with
    /// `receivedByteCount` bytes seen and `missingByteCount` cut.
    indirect case cutShort(PartialL2CAPFrame)
    /// The stream was flushed (disconnection, end of capture) with a PDU pending.
    indirect case flushed(PartialL2CAPFrame)
}

/// What one fragment produced.
public enum ReassemblyStep: Sendable, Equatable {
    /// The common case: a start fragment that is exactly one whole PDU, on a stream with none
    /// pending, without events built; the fragment's bytes are the frame's body.
    case frame(L2CAPFrame)
    /// Otherwise, in order: the PDU the fragment interrupted, then what the fragment itself led
    /// to (a complete PDU or an anomaly); each nil when there is none. Boxed: inline, its two
    /// events would double the size of every step, the common `.frame` included, that is copied.
    indirect case events(interrupted: ReassemblyEvent?, outcome: ReassemblyEvent?)
}

/// Rebuilds L2CAP basic frames from fragments (Core v5.4 Vol 3 Part A §7.2.1: the first
/// fragment starts with the basic header, continuation fragments follow in order).
///
/// Each stream is a small state machine: *idle* (no entry) until a start fragment arrives,
/// then *collecting* (a `PartialL2CAPFrame`) until the bytes reach the header's length
/// (`complete`/`overrun`), a cut fragment makes completion impossible (`cutShort`), another start
/// arrives (`interrupted`), or the stream is flushed. State exists only while a PDU is being
/// collected, and a PDU is at most 65535 + 4 bytes because its length field is 16 bits.
public struct L2CAPReassembler: Sendable {
    private var collecting: [FragmentStreamKey: PartialL2CAPFrame] = [:]

    public init() {}

    /// Streams with a PDU being collected.
    public var pendingStreamCount: Int { collecting.count }

    /// The PDU being collected on `key`, if any.
    public func pending(_ key: FragmentStreamKey) -> PartialL2CAPFrame? { collecting[key] }

    /// Feeds one fragment, given as a reader over its bytes. `isStart` marks a first fragment
    /// (HCI packet boundary 0b00/0b10, LL LLID 0b10); `truncatedBy` is how many bytes the
    /// capturing tool cut from this fragment. A start fragment holding a whole PDU on a stream with
    /// none pending (the common case) completes as `.frame` without touching the per-stream state
    /// or building events; the fragment moves through, not copied (a copy of a reader costs a
    /// reference count on its bytes).
    public mutating func feed(key: FragmentStreamKey, isStart: Bool, fragment: consuming ByteReader, recordIndex: Int,
                              timestampUs: Int64, truncatedBy: Int = 0) -> ReassemblyStep {
        guard isStart, truncatedBy <= 0, collecting.isEmpty || collecting[key] == nil else {
            return collect(key: key, isStart: isStart, fragment: fragment, recordIndex: recordIndex,
                           timestampUs: timestampUs, truncatedBy: truncatedBy)
        }
        switch Self.wholeFrame(fragment, recordIndex: recordIndex, timestampUs: timestampUs) {
        case .frame(let frame):
            return .frame(frame)
        case .notWhole(let fragment):
            return collect(key: key, isStart: isStart, fragment: fragment, recordIndex: recordIndex,
                           timestampUs: timestampUs, truncatedBy: truncatedBy)
        }
    }

    /// `feed` of a fragment that is not a whole PDU on a stream with none pending: the state
    /// machine, every outcome as events.
    private mutating func collect(key: FragmentStreamKey, isStart: Bool, fragment: ByteReader, recordIndex: Int,
                                  timestampUs: Int64, truncatedBy: Int) -> ReassemblyStep {
        guard isStart else {
            // A continuation grows its pending PDU in place: taken out and put back, the PDU
            // would be copied and its key hashed twice per fragment.
            guard !collecting.isEmpty, let index = collecting.index(forKey: key) else {
                return .events(interrupted: nil, outcome: .orphanContinuation(key: key, recordIndex: recordIndex,
                                                                              byteCount: fragment.remaining))
            }
            collecting.values[index].absorb(fragment.unreadBytes, truncatedBy: truncatedBy, recordIndex: recordIndex,
                                            timestampUs: timestampUs)
            // Asked through a mutating call, which reaches the PDU in place: read through the
            // subscript, the PDU would be copied (a reference count on its bytes) to answer.
            guard collecting.values[index].checkResolved() else { return .events(interrupted: nil, outcome: nil) }
            return .events(interrupted: nil, outcome: collecting.remove(at: index).value.outcome)
        }
        var interrupted: ReassemblyEvent?
        if !collecting.isEmpty, let previous = collecting.removeValue(forKey: key) {
            interrupted = .interrupted(previous, byRecordIndex: recordIndex)
        }
        if truncatedBy <= 0, case .frame(let frame) = Self.wholeFrame(fragment, recordIndex: recordIndex, timestampUs: timestampUs) {
            return .events(interrupted: interrupted, outcome: .complete(frame))
        }
        var partial = PartialL2CAPFrame(key: key, recordIndex: recordIndex, timestampUs: timestampUs)
        partial.absorb(fragment.unreadBytes, truncatedBy: truncatedBy, recordIndex: recordIndex,
                       timestampUs: timestampUs)
        guard partial.isResolved else {
            collecting[key] = partial
            return .events(interrupted: interrupted, outcome: nil)
        }
        return .events(interrupted: interrupted, outcome: partial.outcome)
    }

    /// What `wholeFrame` made of a fragment.
    private enum Whole {
        /// The fragment was a whole PDU: its frame, the fragment's bytes as its body.
        case frame(L2CAPFrame)
        /// The fragment back, unread.
        case notWhole(ByteReader)
    }

    /// The frame of a start fragment that is exactly one whole PDU, or the fragment back.
    private static func wholeFrame(_ fragment: consuming ByteReader, recordIndex: Int, timestampUs: Int64) -> Whole {
        var reader = fragment
        let start = reader.position
        guard let header = try? L2CAPBasicHeader(parsing: &reader), reader.remaining == Int(header.length) else {
            reader.rewind(to: start)
            return .notWhole(reader)
        }
        reader.rebase(layer: .l2cap)
        return .frame(L2CAPFrame(channelID: header.channelID, body: reader,
                                 firstRecordIndex: recordIndex, lastRecordIndex: recordIndex,
                                 firstTimestampUs: timestampUs, lastTimestampUs: timestampUs, fragmentCount: 1))
    }

    /// Ends the stream (its link disconnected); reports the PDU left pending, if any.
    public mutating func flush(key: FragmentStreamKey) -> ReassemblyEvent? {
        collecting.removeValue(forKey: key).map { .flushed($0) }
    }

    /// Ends every stream (end of capture); pending PDUs are reported in the order they started.
    public mutating func flushAll() -> [ReassemblyEvent] {
        let pending = collecting.values.sorted { $0.firstRecordIndex < $1.firstRecordIndex }
        collecting.removeAll()
        return pending.map { .flushed($0) }
    }
}

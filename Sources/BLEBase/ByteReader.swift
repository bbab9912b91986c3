/// A bounds-checked cursor over a byte buffer: the only place that loads bytes from input.
///
/// Shaped like swift-binary-parsing's `ParserSpan` (`position`, `remaining`, `read…`,
/// `slice(byteCount:)`) so a later switch to spans is cheap. Every read checks `remaining`
/// first and throws `DecodeError.truncated` carrying the absolute offset, never traps.
/// `slice` shares storage with its parent (no copy) and keeps absolute offsets, so errors
/// deep in a layer still name the byte offset within the record.
public struct ByteReader: Sendable {
    public let storage: [UInt8]
    /// Absolute index of the next byte to read in `storage`.
    public var position: Int { cursor }
    @usableFromInline var cursor: Int
    /// One past the last readable byte in `storage`.
    public let endIndex: Int
    /// Layer named in errors thrown by this reader.
    public var layer: Layer
    /// Offset added to `position` when reporting errors (e.g. a record's offset in its file).
    public var baseOffset: Int

    @inlinable
    public init(_ bytes: [UInt8], layer: Layer = .unknown, baseOffset: Int = 0) {
        self.storage = bytes
        self.cursor = 0
        self.endIndex = bytes.count
        self.layer = layer
        self.baseOffset = baseOffset
    }

    /// A reader over `range` of `bytes` (clamped to the array), sharing its storage: offsets stay
    /// absolute within `bytes`, so `baseOffset` should be the offset of `bytes[0]`.
    @inlinable
    public init(_ bytes: [UInt8], range: Range<Int>, layer: Layer = .unknown, baseOffset: Int = 0) {
        let clamped = range.clamped(to: 0..<bytes.count)
        self.init(storage: bytes, position: clamped.lowerBound, endIndex: clamped.upperBound,
                  layer: layer, baseOffset: baseOffset)
    }

    @inlinable
    init(storage: [UInt8], position: Int, endIndex: Int, layer: Layer, baseOffset: Int) {
        self.storage = storage
        self.cursor = position
        self.endIndex = endIndex
        self.layer = layer
        self.baseOffset = baseOffset
    }

    @inlinable public var remaining: Int { endIndex - cursor }
    @inlinable public var isAtEnd: Bool { cursor >= endIndex }
    /// Offset of the next byte as reported in errors.
    @inlinable public var reportedOffset: Int { baseOffset + cursor }

    @inlinable @inline(__always)
    func check(_ count: Int, field: StaticString) throws(DecodeError) {
        guard count <= remaining else { throw truncation(count, field: field) }
    }

    /// The error for a read of `count` bytes past the end (kept out of line: the rare path).
    @usableFromInline @inline(never)
    func truncation(_ count: Int, field: StaticString) -> DecodeError {
        DecodeError.truncated(layer: layer, field: "\(field)", at: reportedOffset, needed: count, available: remaining)
    }

    @inlinable
    public mutating func readUInt8(_ field: StaticString = "byte") throws(DecodeError) -> UInt8 {
        try check(1, field: field)
        let value = storage[cursor]
        cursor += 1
        return value
    }

    @inlinable
    public mutating func readInt8(_ field: StaticString = "byte") throws(DecodeError) -> Int8 {
        Int8(bitPattern: try readUInt8(field))
    }

    @inlinable
    public mutating func readUInt16LE(_ field: StaticString = "u16") throws(DecodeError) -> UInt16 {
        try load(UInt16.self, bigEndian: false, field: field)
    }

    @inlinable
    public mutating func readUInt16BE(_ field: StaticString = "u16") throws(DecodeError) -> UInt16 {
        try load(UInt16.self, bigEndian: true, field: field)
    }

    @inlinable
    public mutating func readUInt24LE(_ field: StaticString = "u24") throws(DecodeError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readFixed(3, bigEndian: false, field: field))
    }

    @inlinable
    public mutating func readUInt32LE(_ field: StaticString = "u32") throws(DecodeError) -> UInt32 {
        try load(UInt32.self, bigEndian: false, field: field)
    }

    /// Always inlined, as `readUInt64BE`: container headers read them on every record (else each
    /// of btsnoop's five fields is a call). The little-endian reads are left to the optimizer:
    /// forced inline, they grow the decoding thread's functions and slow it down.
    @inlinable @inline(__always)
    public mutating func readUInt32BE(_ field: StaticString = "u32") throws(DecodeError) -> UInt32 {
        try load(UInt32.self, bigEndian: true, field: field)
    }

    @inlinable
    public mutating func readUInt64LE(_ field: StaticString = "u64") throws(DecodeError) -> UInt64 {
        try load(UInt64.self, bigEndian: false, field: field)
    }

    @inlinable @inline(__always)
    public mutating func readUInt64BE(_ field: StaticString = "u64") throws(DecodeError) -> UInt64 {
        try load(UInt64.self, bigEndian: true, field: field)
    }

    /// Reads an unsigned integer of `width` bytes (1...8) in the given byte order.
    @inlinable
    public mutating func readUnsigned(_ width: Int, bigEndian: Bool,
                                      field: StaticString = "integer") throws(DecodeError) -> UInt64 {
        switch width {
        case 2: return UInt64(try load(UInt16.self, bigEndian: bigEndian, field: field))
        case 4: return UInt64(try load(UInt32.self, bigEndian: bigEndian, field: field))
        case 8: return try load(UInt64.self, bigEndian: bigEndian, field: field)
        case 1...8: return try readFixed(width, bigEndian: bigEndian, field: field)
        default: throw invalidWidth(width, field: field)
        }
    }

    @usableFromInline @inline(never)
    func invalidWidth(_ width: Int, field: StaticString) -> DecodeError {
        DecodeError.invalid(layer: layer, field: "\(field)", at: reportedOffset,
                            reason: "integer width \(width) outside 1...8")
    }

    /// Reads a whole integer type in one load, after the same bounds check as every read
    /// (`check` keeps `cursor + size` within `endIndex`, itself within `storage`).
    @inlinable @inline(__always)
    mutating func load<T: FixedWidthInteger>(_: T.Type, bigEndian: Bool, field: StaticString) throws(DecodeError) -> T {
        let size = MemoryLayout<T>.size
        try check(size, field: field)
        let offset = cursor
        let raw = storage.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        cursor += size
        return bigEndian ? T(bigEndian: raw) : T(littleEndian: raw)
    }

    /// Hands the next `count` bytes to `body` in place after one bounds check, and moves past
    /// them: for a fixed-size header read on every record (one check instead of one a field;
    /// `body` reads within the buffer it is given).
    @inlinable @inline(__always)
    public mutating func readBlock<T>(_ count: Int, _ field: StaticString,
                                      _ body: (UnsafeRawBufferPointer) -> T) throws(DecodeError) -> T {
        guard count >= 0 else { throw negativeLength(count, field: field) }
        try check(count, field: field)
        let start = cursor
        cursor += count
        return storage.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<start + count])) }
    }

    /// Reads `width` (1...8, checked by callers) bytes; inlined with a constant width, the loop
    /// unrolls into plain loads.
    @inlinable @inline(__always)
    mutating func readFixed(_ width: Int, bigEndian: Bool, field: StaticString) throws(DecodeError) -> UInt64 {
        try check(width, field: field)
        var value: UInt64 = 0
        for i in 0..<width {
            let byte = UInt64(storage[cursor + i])
            value |= bigEndian ? byte << (8 * (width - 1 - i)) : byte << (8 * i)
        }
        cursor += width
        return value
    }

    /// Copies the next `count` bytes out.
    @inlinable
    public mutating func readBytes(_ count: Int, _ field: StaticString = "bytes") throws(DecodeError) -> [UInt8] {
        guard count >= 0 else { throw negativeLength(count, field: field) }
        try check(count, field: field)
        let bytes = Array(storage[cursor..<cursor + count])
        cursor += count
        return bytes
    }

    /// Copies every remaining byte out and moves to the end.
    @inlinable
    public mutating func readRemainingBytes() -> [UInt8] {
        let bytes = Array(storage[cursor..<endIndex])
        cursor = endIndex
        return bytes
    }

    /// Every remaining byte, shared with the reader's buffer, and moves to the end.
    @inlinable
    public mutating func readRemainingView() -> ByteView {
        let view = ByteView(storage: storage, start: cursor, count: remaining)
        cursor = endIndex
        return view
    }

    /// Moves to the end without copying what is left (padding, bytes a decoder gives up on).
    @inlinable
    public mutating func skipRemaining() {
        cursor = endIndex
    }

    /// Moves back to `position` (absolute, as `position` counts), one this reader has read past,
    /// to read the same bytes again without a second reader (whose copy of the storage costs a
    /// reference count).
    @inlinable
    public mutating func rewind(to position: Int) {
        precondition(position >= 0 && position <= cursor, "ByteReader can only rewind to a position it has passed")
        cursor = position
    }

    /// Returns the next byte without consuming it.
    @inlinable
    public func peekUInt8(_ field: StaticString = "byte") throws(DecodeError) -> UInt8 {
        try check(1, field: field)
        return storage[cursor]
    }

    /// The byte `offset` bytes past the next one, without consuming anything; nil when the
    /// reader ends before it.
    @inlinable
    public func peekUInt8(ahead offset: Int) -> UInt8? {
        offset >= 0 && offset < remaining ? storage[cursor + offset] : nil
    }

    /// Moves past the next `count` bytes after one check; always inlined, as `readBlock` is:
    /// readers pass over part of every packet with it.
    @inlinable @inline(__always)
    public mutating func skip(_ count: Int, _ field: StaticString = "skipped bytes") throws(DecodeError) {
        guard count >= 0 else { throw negativeLength(count, field: field) }
        try check(count, field: field)
        cursor += count
    }

    @usableFromInline @inline(never)
    func negativeLength(_ count: Int, field: StaticString) -> DecodeError {
        DecodeError.invalid(layer: layer, field: "\(field)", at: reportedOffset, reason: "negative length \(count)")
    }

    /// Hands the next `byteCount` bytes to an inner layer as a reader of its own (shared
    /// storage, absolute offsets kept) and moves past them.
    @inlinable
    public mutating func slice(byteCount: Int, layer: Layer? = nil,
                               _ field: StaticString = "length-delimited field") throws(DecodeError) -> ByteReader {
        guard byteCount >= 0 else { throw negativeLength(byteCount, field: field) }
        try check(byteCount, field: field)
        let inner = ByteReader(storage: storage, position: cursor, endIndex: cursor + byteCount,
                               layer: layer ?? self.layer, baseOffset: baseOffset)
        cursor += byteCount
        return inner
    }

    /// The unread remainder as a reader for an inner layer; this reader moves to the end.
    @inlinable
    public mutating func sliceRemaining(layer: Layer? = nil) -> ByteReader {
        let inner = ByteReader(storage: storage, position: cursor, endIndex: endIndex,
                               layer: layer ?? self.layer, baseOffset: baseOffset)
        cursor = endIndex
        return inner
    }

    /// Makes the unread bytes report offsets from 0, as a reader over a copy of them would,
    /// without the copy (and without a second reader, whose storage costs a reference count).
    @inlinable
    public mutating func rebase(layer: Layer) {
        self.layer = layer
        baseOffset = -cursor
    }

    /// The unread bytes as a zero-copy view (for hashing or comparing, not for indexing).
    @inlinable
    public var unreadBytes: ArraySlice<UInt8> { storage[cursor..<endIndex] }

    /// Throws when bytes are left over after a fixed-size structure was parsed.
    @inlinable
    public func expectEnd(_ structure: StaticString) throws(DecodeError) {
        guard isAtEnd else { throw leftover(structure) }
    }

    @usableFromInline @inline(never)
    func leftover(_ structure: StaticString) -> DecodeError {
        DecodeError.leftover(layer: layer, structure: "\(structure)", at: reportedOffset, count: remaining)
    }
}

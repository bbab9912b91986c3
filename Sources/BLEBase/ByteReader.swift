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
    public private(set) var position: Int
    /// One past the last readable byte in `storage`.
    public let endIndex: Int
    /// Layer named in errors thrown by this reader.
    public var layer: Layer
    /// Offset added to `position` when reporting errors (e.g. a record's offset in its file).
    public var baseOffset: Int

    public init(_ bytes: [UInt8], layer: Layer = .unknown, baseOffset: Int = 0) {
        self.storage = bytes
        self.position = 0
        self.endIndex = bytes.count
        self.layer = layer
        self.baseOffset = baseOffset
    }

    private init(storage: [UInt8], position: Int, endIndex: Int, layer: Layer, baseOffset: Int) {
        self.storage = storage
        self.position = position
        self.endIndex = endIndex
        self.layer = layer
        self.baseOffset = baseOffset
    }

    public var remaining: Int { endIndex - position }
    public var isAtEnd: Bool { position >= endIndex }
    /// Offset of the next byte as reported in errors.
    public var reportedOffset: Int { baseOffset + position }

    @inline(__always)
    private func check(_ count: Int, field: StaticString) throws(DecodeError) {
        guard count <= remaining else {
            throw DecodeError.truncated(layer: layer, field: "\(field)", at: reportedOffset,
                                        needed: count, available: remaining)
        }
    }

    public mutating func readUInt8(_ field: StaticString = "byte") throws(DecodeError) -> UInt8 {
        try check(1, field: field)
        let value = storage[position]
        position += 1
        return value
    }

    public mutating func readInt8(_ field: StaticString = "byte") throws(DecodeError) -> Int8 {
        Int8(bitPattern: try readUInt8(field))
    }

    public mutating func readUInt16LE(_ field: StaticString = "u16") throws(DecodeError) -> UInt16 {
        UInt16(truncatingIfNeeded: try readUnsigned(2, bigEndian: false, field: field))
    }

    public mutating func readUInt16BE(_ field: StaticString = "u16") throws(DecodeError) -> UInt16 {
        UInt16(truncatingIfNeeded: try readUnsigned(2, bigEndian: true, field: field))
    }

    public mutating func readUInt24LE(_ field: StaticString = "u24") throws(DecodeError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readUnsigned(3, bigEndian: false, field: field))
    }

    public mutating func readUInt32LE(_ field: StaticString = "u32") throws(DecodeError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readUnsigned(4, bigEndian: false, field: field))
    }

    public mutating func readUInt32BE(_ field: StaticString = "u32") throws(DecodeError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readUnsigned(4, bigEndian: true, field: field))
    }

    public mutating func readUInt64LE(_ field: StaticString = "u64") throws(DecodeError) -> UInt64 {
        try readUnsigned(8, bigEndian: false, field: field)
    }

    public mutating func readUInt64BE(_ field: StaticString = "u64") throws(DecodeError) -> UInt64 {
        try readUnsigned(8, bigEndian: true, field: field)
    }

    /// Reads an unsigned integer of `width` bytes (1...8) in the given byte order.
    public mutating func readUnsigned(_ width: Int, bigEndian: Bool,
                                      field: StaticString = "integer") throws(DecodeError) -> UInt64 {
        guard width >= 1, width <= 8 else {
            throw DecodeError.invalid(layer: layer, field: "\(field)", at: reportedOffset,
                                      reason: "integer width \(width) outside 1...8")
        }
        try check(width, field: field)
        var value: UInt64 = 0
        if bigEndian {
            for i in 0..<width { value = (value << 8) | UInt64(storage[position + i]) }
        } else {
            for i in (0..<width).reversed() { value = (value << 8) | UInt64(storage[position + i]) }
        }
        position += width
        return value
    }

    /// Copies the next `count` bytes out.
    public mutating func readBytes(_ count: Int, _ field: StaticString = "bytes") throws(DecodeError) -> [UInt8] {
        guard count >= 0 else {
            throw DecodeError.invalid(layer: layer, field: "\(field)", at: reportedOffset,
                                      reason: "negative length \(count)")
        }
        try check(count, field: field)
        let bytes = Array(storage[position..<position + count])
        position += count
        return bytes
    }

    /// Copies every remaining byte out and moves to the end.
    public mutating func readRemainingBytes() -> [UInt8] {
        let bytes = Array(storage[position..<endIndex])
        position = endIndex
        return bytes
    }

    /// Returns the next byte without consuming it.
    public func peekUInt8(_ field: StaticString = "byte") throws(DecodeError) -> UInt8 {
        try check(1, field: field)
        return storage[position]
    }

    public mutating func skip(_ count: Int, _ field: StaticString = "skipped bytes") throws(DecodeError) {
        guard count >= 0 else {
            throw DecodeError.invalid(layer: layer, field: "\(field)", at: reportedOffset,
                                      reason: "negative length \(count)")
        }
        try check(count, field: field)
        position += count
    }

    /// Hands the next `byteCount` bytes to an inner layer as a reader of its own (shared
    /// storage, absolute offsets kept) and moves past them.
    public mutating func slice(byteCount: Int, layer: Layer? = nil,
                               _ field: StaticString = "length-delimited field") throws(DecodeError) -> ByteReader {
        guard byteCount >= 0 else {
            throw DecodeError.invalid(layer: self.layer, field: "\(field)", at: reportedOffset,
                                      reason: "negative length \(byteCount)")
        }
        try check(byteCount, field: field)
        let inner = ByteReader(storage: storage, position: position, endIndex: position + byteCount,
                               layer: layer ?? self.layer, baseOffset: baseOffset)
        position += byteCount
        return inner
    }

    /// The unread remainder as a reader for an inner layer; this reader moves to the end.
    public mutating func sliceRemaining(layer: Layer? = nil) -> ByteReader {
        let inner = ByteReader(storage: storage, position: position, endIndex: endIndex,
                               layer: layer ?? self.layer, baseOffset: baseOffset)
        position = endIndex
        return inner
    }

    /// The unread bytes as a zero-copy view (for hashing or comparing, not for indexing).
    public var unreadBytes: ArraySlice<UInt8> { storage[position..<endIndex] }

    /// Throws when bytes are left over after a fixed-size structure was parsed.
    public func expectEnd(_ structure: StaticString) throws(DecodeError) {
        guard isAtEnd else {
            throw DecodeError.leftover(layer: layer, structure: "\(structure)", at: reportedOffset,
                                       count: remaining)
        }
    }
}

import BLEBase

/// A forward-only window over a `ByteSource`, refilled in 1 MiB chunks: readers peek at headers
/// and take whole records, so memory stays bounded by one record plus the buffer.
///
/// Bytes leave only as copies (`take`), as `ByteReader`s (`peek`), or lent in place within the
/// buffered bytes (`withUnreadBytes`), so parsing always stays within checked bounds.
/// The state lives in one value (`InputWindow`) that each call works on as a whole, which runs
/// faster than the same fields stored in the class, even without exclusivity checks
/// (docs/performance.md).
final class BufferedInput {
    static let chunkSize = 1 << 20

    private let source: any ByteSource
    private var window = InputWindow()

    init(_ source: any ByteSource) {
        self.source = source
    }

    /// Absolute offset (in the possibly decompressed stream) of the next unread byte.
    var offset: Int { window.offset }
    /// The error that ended the source early (I/O, corrupt gzip), if any.
    var sourceError: CaptureError? { window.sourceError }
    /// Unread bytes currently buffered (after a `fill`, what the input still holds up to it).
    var buffered: Int { window.buffered }

    /// Tries to have `count` unread bytes buffered; returns how many are (fewer at the end).
    @discardableResult
    func fill(_ count: Int) -> Int {
        window.fill(count, from: source)
    }

    /// Lends the buffered unread bytes (`fill` first) in place, for block headers read on every
    /// record: a `peek` reader costs a reference count and its checks.
    func withUnreadBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        window.withUnreadBytes(body)
    }

    /// A reader over up to `count` next bytes (fewer at the end), without consuming them; its
    /// offsets are absolute. It shares the buffer (no copy): drop it before the next `fill`, or
    /// that refill copies the buffer.
    func peek(_ count: Int) -> ByteReader {
        window.peek(count, from: source)
    }

    /// Consumes exactly `count` bytes and returns a reader over them (sharing the buffer like
    /// `peek`), or nil (consuming nothing) when fewer remain.
    func takeReader(_ count: Int) -> ByteReader? {
        window.takeReader(count, from: source)
    }

    /// Consumes and returns exactly `count` bytes, or nil (consuming nothing) when fewer remain.
    func take(_ count: Int) -> [UInt8]? {
        window.take(count, from: source)
    }

    /// Consumes up to `count` bytes without copying them out; returns how many were skipped.
    func skip(_ count: Int) -> Int {
        window.skip(count, from: source)
    }

    /// Hands every remaining byte to `sink`, chunk by chunk, consuming them.
    func drain(_ sink: ([UInt8]) throws(CaptureError) -> Void) throws(CaptureError) {
        while let chunk = window.takeChunk(from: source) {
            try sink(chunk)
        }
        if let sourceError { throw sourceError }
    }
}

/// A buffered input is itself a source: gzip detection reads the first bytes through one, and
/// the inflater then reads the compressed bytes from it, those first bytes included.
extension BufferedInput: ByteSource {
    func read(max: Int) throws(CaptureError) -> [UInt8] {
        let count = fill(1) == 0 ? 0 : min(max, buffered)
        if count == 0, let sourceError { throw sourceError }
        return take(count) ?? []
    }
}

/// The bytes a `BufferedInput` holds and where reading stands in them.
private struct InputWindow {
    var buffer: [UInt8] = []
    /// Index in `buffer` of the next unread byte.
    var start = 0
    var exhausted = false
    var offset = 0
    var sourceError: CaptureError?

    var buffered: Int { buffer.count - start }

    mutating func fill(_ count: Int, from source: any ByteSource) -> Int {
        if buffered >= count { return count }
        while buffered < count && !exhausted {
            do throws(CaptureError) {
                // The unread bytes and then the chunk read, in an array of their own (read in
                // place after them, with no copy of the chunk): the records `next()` gives share
                // the buffer they lie in, which changed in place would be copied whole first.
                let refilled = try source.read(max: BufferedInput.chunkSize, after: buffer[start...])
                if refilled.count == buffered {
                    exhausted = true
                } else {
                    buffer = refilled
                    start = 0
                }
            } catch {
                sourceError = error
                exhausted = true
            }
        }
        return min(count, buffered)
    }

    mutating func peek(_ count: Int, from source: any ByteSource) -> ByteReader {
        // Filled first: `reader(fill(…))` would read `self` before the fill changed it.
        let available = fill(count, from: source)
        return reader(available)
    }

    mutating func takeReader(_ count: Int, from source: any ByteSource) -> ByteReader? {
        guard count >= 0, fill(count, from: source) == count else { return nil }
        let taken = reader(count)
        consume(count)
        return taken
    }

    mutating func take(_ count: Int, from source: any ByteSource) -> [UInt8]? {
        guard count >= 0, fill(count, from: source) == count else { return nil }
        let bytes = Array(buffer[start..<start + count])
        consume(count)
        return bytes
    }

    mutating func skip(_ count: Int, from source: any ByteSource) -> Int {
        var skipped = 0
        while skipped < count {
            let step = fill(min(count - skipped, BufferedInput.chunkSize), from: source)
            if step == 0 { break }
            consume(step)
            skipped += step
        }
        return skipped
    }

    /// Every buffered byte after a refill, consumed; nil at the end of the source.
    mutating func takeChunk(from source: any ByteSource) -> [UInt8]? {
        guard fill(BufferedInput.chunkSize, from: source) > 0 else { return nil }
        let chunk = Array(buffer[start...])
        consume(chunk.count)
        return chunk
    }

    @inline(__always)
    func withUnreadBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start...])) }
    }

    /// The next `count` buffered bytes (`count` ≤ `buffered`) as a reader with absolute offsets.
    private func reader(_ count: Int) -> ByteReader {
        ByteReader(buffer, range: start..<start + max(0, count), layer: .capture, baseOffset: offset - start)
    }

    private mutating func consume(_ count: Int) {
        start += count
        offset += count
    }
}

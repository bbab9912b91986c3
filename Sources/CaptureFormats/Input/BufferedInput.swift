import BLEBase

/// A forward-only window over a `ByteSource`, refilled in 1 MiB chunks: readers peek at headers
/// and take whole records, so memory stays bounded by one record plus the buffer.
///
/// Bytes leave only as copies (`take`) or as `ByteReader`s (`peek`), so parsing always goes
/// through the checked reader.
final class BufferedInput {
    static let chunkSize = 1 << 20

    private let source: any ByteSource
    private var buffer: [UInt8] = []
    private var start = 0
    private var exhausted = false
    /// Absolute offset (in the possibly decompressed stream) of the next unread byte.
    private(set) var offset = 0
    /// The error that ended the source early (I/O, corrupt gzip), if any.
    private(set) var sourceError: CaptureError?

    init(_ source: any ByteSource) {
        self.source = source
    }

    /// Tries to have `count` unread bytes buffered; returns how many are (fewer at the end).
    @discardableResult
    func fill(_ count: Int) -> Int {
        let buffered = buffer.count - start
        if buffered >= count { return count }
        return refill(count)
    }

    /// `fill` when the buffer holds fewer than `count` bytes: reads chunks until it does or the
    /// source ends.
    private func refill(_ count: Int) -> Int {
        while buffer.count - start < count && !exhausted {
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            do throws(CaptureError) {
                let chunk = try source.read(max: Self.chunkSize)
                if chunk.isEmpty { exhausted = true } else { buffer.append(contentsOf: chunk) }
            } catch {
                sourceError = error
                exhausted = true
            }
        }
        return min(count, buffer.count - start)
    }

    /// A reader over up to `count` next bytes (fewer at the end), without consuming them; its
    /// offsets are absolute. It shares the buffer (no copy): drop it before the next `fill`, or
    /// that refill copies the buffer.
    func peek(_ count: Int) -> ByteReader {
        window(fill(count))
    }

    /// Consumes exactly `count` bytes and returns a reader over them (sharing the buffer like
    /// `peek`), or nil (consuming nothing) when fewer remain.
    func takeReader(_ count: Int) -> ByteReader? {
        guard count >= 0, fill(count) == count else { return nil }
        let reader = window(count)
        start += count
        offset += count
        return reader
    }

    /// The next `count` buffered bytes (`count` ≤ `buffered`) as a reader with absolute offsets.
    private func window(_ count: Int) -> ByteReader {
        ByteReader(buffer, range: start..<start + max(0, count), layer: .capture, baseOffset: offset - start)
    }

    /// Consumes and returns exactly `count` bytes, or nil (consuming nothing) when fewer remain.
    func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, fill(count) == count else { return nil }
        let bytes = Array(buffer[start..<start + count])
        start += count
        offset += count
        return bytes
    }

    /// Consumes up to `count` bytes without copying them out; returns how many were skipped.
    func skip(_ count: Int) -> Int {
        var skipped = 0
        while skipped < count {
            let step = fill(min(count - skipped, Self.chunkSize))
            if step == 0 { break }
            start += step
            offset += step
            skipped += step
        }
        return skipped
    }

    /// Unread bytes currently buffered (after a `fill`, what the input still holds up to it).
    var buffered: Int { buffer.count - start }

    /// Hands every remaining byte to `sink`, chunk by chunk, consuming them.
    func drain(_ sink: ([UInt8]) throws(CaptureError) -> Void) throws(CaptureError) {
        while fill(Self.chunkSize) > 0 {
            let chunk = Array(buffer[start...])
            start = buffer.count
            offset += chunk.count
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

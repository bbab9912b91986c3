import CBLEZlib

/// zlib's streaming `inflate` over input supplied piece by piece: a zlib stream (RFC 1950, the
/// btsnooz records), raw deflate (RFC 1951, a zip entry) or a gzip member (RFC 1952, a `.gz`
/// capture; `restart` begins the next member of a file of several).
final class Inflater {
    enum Framing {
        case zlib, raw, gzip
        /// zlib's `windowBits`: a 32 KiB window; negative for raw deflate, + 16 for gzip framing only.
        var windowBits: Int32 {
            switch self {
            case .zlib: 15
            case .raw: -15
            case .gzip: 15 + 16
            }
        }
    }

    /// Why inflating stopped, with the offset in the compressed input.
    struct Failure: Error, Equatable {
        var compressedOffset: Int
        var reason: String
    }

    private let stream: UnsafeMutablePointer<z_stream>
    private var input: [UInt8] = []
    private var consumed = 0
    /// Compressed bytes consumed so far.
    private(set) var compressedOffset = 0
    /// True once the stream's end marker has been inflated.
    private(set) var ended = false

    /// Fails (at compressed byte 0) when zlib cannot start, its status as the reason.
    init(_ framing: Framing) throws(Failure) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, framing.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw Failure(compressedOffset: 0, reason: "zlib status \(status)")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Begins a new stream after `ended`, in the input that follows: the next member of a gzip
    /// file (RFC 1952 §2.2 allows a file of several). `compressedOffset` keeps counting.
    func restart() {
        inflateReset(stream)
        ended = false
    }

    /// True when every supplied byte has been consumed.
    var needsInput: Bool { consumed == input.count }

    /// Adds compressed bytes after the unconsumed ones.
    func supply(_ bytes: [UInt8]) {
        if needsInput {
            input = bytes
            consumed = 0
        } else {
            input.append(contentsOf: bytes)
        }
    }

    /// Up to `max` inflated bytes; empty when more input is needed or the stream has ended.
    func inflate(max: Int) throws(Failure) -> [UInt8] {
        guard !ended, !needsInput else { return [] }
        var output = [UInt8](repeating: 0, count: max)
        let inputCount = input.count
        let start = consumed
        var status: Int32 = Z_OK
        var produced = 0
        var used = 0
        input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.pointee.next_in = inBuffer.baseAddress.map { $0 + start }
                stream.pointee.avail_in = UInt32(inputCount - start)
                stream.pointee.next_out = outBuffer.baseAddress
                stream.pointee.avail_out = UInt32(max)
                status = CBLEZlib.inflate(stream, Z_NO_FLUSH)
                used = inputCount - start - Int(stream.pointee.avail_in)
                produced = max - Int(stream.pointee.avail_out)
                stream.pointee.next_in = nil
                stream.pointee.next_out = nil
            }
        }
        consumed += used
        compressedOffset += used
        switch status {
        case Z_STREAM_END:
            ended = true
        case Z_OK:
            break
        case Z_BUF_ERROR where used > 0 || produced > 0:
            break
        default:
            let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
            throw Failure(compressedOffset: compressedOffset, reason: reason)
        }
        output.removeLast(max - produced)
        return output
    }
}

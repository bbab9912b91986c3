import CZlib

/// Inflates gzip data (RFC 1952) from an upstream source as it is read, member after member
/// (concatenated `.gz` files are one stream), with zlib's streaming `inflate`.
final class GzipSource: ByteSource {
    private let upstream: any ByteSource
    private let name: String
    private let stream: UnsafeMutablePointer<z_stream>
    private var input: [UInt8] = []
    private var consumed = 0
    private var compressedOffset = 0
    private var upstreamEnded = false
    /// True once a member has begun and not yet reached its end marker.
    private var insideMember = false
    private var memberEnded = false

    init(upstream: any ByteSource, name: String) throws(CaptureError) {
        self.upstream = upstream
        self.name = name
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 + 16: a 32 KiB window and gzip framing only (not raw deflate or zlib).
        let status = inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw CaptureError(file: name, message: "cannot start gzip decompression (zlib status \(status))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    func read(max: Int) throws(CaptureError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: max)
        while true {
            if consumed == input.count {
                if upstreamEnded {
                    guard !insideMember else {
                        throw CaptureError(file: name,
                                           message: "gzip data ends inside a compressed member (after \(compressedOffset) compressed bytes)")
                    }
                    return []
                }
                input = try upstream.read(max: BufferedInput.chunkSize)
                consumed = 0
                if input.isEmpty { upstreamEnded = true }
                continue
            }
            if memberEnded {
                // Another member follows: RFC 1952 §2.2 allows a file of several members.
                inflateReset(stream)
                memberEnded = false
            }
            insideMember = true
            let (status, produced) = inflateStep(into: &output)
            switch status {
            case Z_STREAM_END:
                insideMember = false
                memberEnded = true
            case Z_OK, Z_BUF_ERROR:
                break
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                throw CaptureError(file: name,
                                   message: "gzip data is corrupt at compressed byte \(compressedOffset): \(reason)")
            }
            if produced > 0 {
                output.removeLast(max - produced)
                return output
            }
        }
    }

    /// One `inflate` call over the unconsumed input; returns zlib's status and the bytes produced.
    private func inflateStep(into output: inout [UInt8]) -> (Int32, Int) {
        let outputCount = output.count
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
                stream.pointee.avail_out = UInt32(outputCount)
                status = inflate(stream, Z_NO_FLUSH)
                used = inputCount - start - Int(stream.pointee.avail_in)
                produced = outputCount - Int(stream.pointee.avail_out)
                stream.pointee.next_in = nil
                stream.pointee.next_out = nil
            }
        }
        consumed += used
        compressedOffset += used
        return (status, produced)
    }
}

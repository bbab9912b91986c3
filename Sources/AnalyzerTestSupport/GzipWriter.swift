import CZlib

public extension CaptureWriter {
    /// One gzip member (RFC 1952) holding `bytes`, compressed with zlib at its default level.
    static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        // zlib keeps a pointer back to the stream, so it needs a fixed address.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        // 15 + 16: a 32 KiB window with gzip framing.
        guard deflateInit2_(stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            preconditionFailure("zlib deflateInit2 failed")
        }
        defer { deflateEnd(stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, UInt(bytes.count))) + 32)
        let outputCount = output.count
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.pointee.next_in = inBuffer.baseAddress
                stream.pointee.avail_in = UInt32(inBuffer.count)
                stream.pointee.next_out = outBuffer.baseAddress
                stream.pointee.avail_out = UInt32(outputCount)
                return deflate(stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { preconditionFailure("zlib deflate did not finish (\(status))") }
        return Array(output.prefix(outputCount - Int(stream.pointee.avail_out)))
    }
}

import CBLEZlib

public extension CaptureWriter {
    /// One gzip member (RFC 1952) holding `bytes`, compressed with zlib at its default level.
    static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        // 15 + 16: a 32 KiB window with gzip framing.
        Deflater.deflate(bytes, windowBits: 15 + 16)
    }
}

/// zlib's `deflate` at its default level, for the writers of compressed test inputs (gzip files,
/// Android bug reports and their zips).
enum Deflater {
    /// `windowBits` picks the framing (zlib's `deflateInit2`): 15 a zlib stream (RFC 1950), −15 raw
    /// deflate (RFC 1951, as in a zip entry), 15 + 16 a gzip member (RFC 1952).
    static func deflate(_ bytes: [UInt8], windowBits: Int32) -> [UInt8] {
        // zlib keeps a pointer back to the stream, so it needs a fixed address.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        guard deflateInit2_(stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY,
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
                return CBLEZlib.deflate(stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { preconditionFailure("zlib deflate did not finish (\(status))") }
        return Array(output.prefix(outputCount - Int(stream.pointee.avail_out)))
    }
}

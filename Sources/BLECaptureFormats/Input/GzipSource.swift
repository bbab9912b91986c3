/// Inflates gzip data (RFC 1952) from an upstream source as it is read, member after member
/// (concatenated `.gz` files are one stream), with the `Inflater` the zip and btsnooz readers use.
final class GzipSource: ByteSource {
    private let upstream: any ByteSource
    private let name: String
    private let inflater: Inflater
    private var upstreamEnded = false
    /// True once a member has begun and not yet reached its end marker.
    private var insideMember = false

    init(upstream: any ByteSource, name: String) throws(CaptureError) {
        self.upstream = upstream
        self.name = name
        do throws(Inflater.Failure) {
            inflater = try Inflater(.gzip)
        } catch {
            throw CaptureError(file: name, message: "cannot start gzip decompression (\(error.reason))")
        }
    }

    func read(max: Int) throws(CaptureError) -> [UInt8] {
        while true {
            if inflater.needsInput {
                if upstreamEnded {
                    guard !insideMember else {
                        throw CaptureError(file: name,
                                           message: "gzip data ends inside a compressed member (after \(inflater.compressedOffset) compressed bytes)")
                    }
                    return []
                }
                let chunk = try upstream.read(max: BufferedInput.chunkSize)
                if chunk.isEmpty { upstreamEnded = true } else { inflater.supply(chunk) }
                continue
            }
            // Bytes after a member's end: another member follows.
            if inflater.ended { inflater.restart() }
            insideMember = true
            let output: [UInt8]
            do throws(Inflater.Failure) {
                output = try inflater.inflate(max: max)
            } catch {
                throw CaptureError(file: name, message: "gzip data is corrupt at compressed byte \(error.compressedOffset): \(error.reason)")
            }
            if inflater.ended { insideMember = false }
            if !output.isEmpty { return output }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies the rest of an input to a temporary file, for libpcap, which reads files, not streams
/// (gzip input, standard input). The caller opens the file and then removes it with `remove()`;
/// an opened file stays readable after removal, and nothing is left behind on disk.
struct TemporarySpool {
    let path: String

    init(copying input: BufferedInput, file: String) throws(CaptureError) {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(directory)/bledecode-spool-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else {
            throw CaptureError(file: file, message: "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))",
                               cause: .cannotRead)
        }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { close(fd) }
        do throws(CaptureError) {
            try input.drain { (chunk: [UInt8]) throws(CaptureError) in
                var written = 0
                while written < chunk.count {
                    let count = chunk.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, chunk.count - written) }
                    guard count > 0 else {
                        throw CaptureError(file: file, message: "cannot write a temporary file: \(String(cString: strerror(errno)))",
                                               cause: .cannotRead)
                    }
                    written += count
                }
            }
        } catch {
            unlink(path)
            throw error
        }
    }

    func remove() { unlink(path) }
}

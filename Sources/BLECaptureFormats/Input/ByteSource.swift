#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A forward-only producer of bytes: a file descriptor, standard input, or an inflater.
protocol ByteSource: AnyObject {
    /// Up to `max` next bytes; empty at the end of the input.
    func read(max: Int) throws(CaptureError) -> [UInt8]
    /// `prefix` and then up to `max` next bytes, in one array: `prefix` alone at the end of the
    /// input.
    func read(max: Int, after prefix: ArraySlice<UInt8>) throws(CaptureError) -> [UInt8]
}

extension ByteSource {
    func read(max: Int, after prefix: ArraySlice<UInt8>) throws(CaptureError) -> [UInt8] {
        let chunk = try read(max: max)
        guard !prefix.isEmpty else { return chunk }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(prefix.count + chunk.count)
        bytes.append(contentsOf: prefix)
        bytes.append(contentsOf: chunk)
        return bytes
    }
}

/// Reads a file descriptor (a file or standard input) with plain `read(2)` calls.
final class FileDescriptorSource: ByteSource {
    let descriptor: Int32
    let name: String
    private let ownsDescriptor: Bool

    init(descriptor: Int32, name: String, ownsDescriptor: Bool) {
        self.descriptor = descriptor
        self.name = name
        self.ownsDescriptor = ownsDescriptor
    }

    /// Opens `path` read-only.
    convenience init(opening path: String) throws(CaptureError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw CaptureError(file: path, message: "cannot open: \(String(cString: strerror(errno)))", cause: .cannotRead)
        }
        var status = stat()
        if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw CaptureError(file: path, message: "cannot open: is a directory", cause: .cannotRead)
        }
        self.init(descriptor: fd, name: path, ownsDescriptor: true)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    func read(max: Int) throws(CaptureError) -> [UInt8] {
        try read(max: max, after: [])
    }

    /// Reads straight into the array after `prefix` (no copy of the chunk read).
    func read(max: Int, after prefix: ArraySlice<UInt8>) throws(CaptureError) -> [UInt8] {
        var failure: Int32 = 0
        let kept = prefix.count
        let bytes = [UInt8](unsafeUninitializedCapacity: kept + max) { buffer, initialized in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[..<kept]).initialize(fromContentsOf: prefix)
            while true {
                let count = systemRead(descriptor, buffer.baseAddress.map { $0 + kept }, max)
                if count >= 0 {
                    initialized = kept + count
                    return
                }
                if errno != EINTR {
                    failure = errno
                    initialized = kept
                    return
                }
            }
        }
        guard failure == 0 else {
            throw CaptureError(file: name, message: "read error: \(String(cString: strerror(failure)))",
                               cause: .cannotRead)
        }
        return bytes
    }
}

/// `read(2)`, named apart from `ByteSource.read(max:)` so member lookup does not shadow it.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

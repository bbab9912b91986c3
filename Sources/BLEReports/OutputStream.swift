#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// A buffered writer to a file descriptor: output is collected in a 64 KiB buffer and written
/// with `write(2)` in large blocks, so printing millions of lines costs few system calls.
public final class BufferedOutput {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int
    private let closeWhenDone: Bool
    /// Set when a write failed (a closed pipe, a full disk); further output is dropped.
    public private(set) var failed = false

    public init(fileDescriptor: Int32 = 1, capacity: Int = 1 << 16, closeWhenDone: Bool = false) {
        fd = fileDescriptor
        self.capacity = capacity
        self.closeWhenDone = closeWhenDone
        buffer.reserveCapacity(capacity)
    }

    deinit {
        flush()
        if closeWhenDone { close(fd) }
    }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { flush() }
    }

    public func write(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write(bytes: $0) }
    }

    /// Bytes lent for the call; a block the size of the buffer or more goes out at once, not
    /// through the buffer (a streamed report's pieces).
    public func write(bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count >= capacity {
            flush()
            writeAll(UnsafeRawBufferPointer(bytes))
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flush() }
    }

    public func line(_ text: String) {
        write(text)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= capacity { flush() }
    }

    public func flush() {
        buffer.withUnsafeBytes { writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ raw: UnsafeRawBufferPointer) {
        guard !raw.isEmpty, !failed else { return }
        var offset = 0
        while offset < raw.count {
            let written = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failed = true
                return
            }
            offset += written
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BLECaptureFormats
import CFuzzDriver

/// What the libFuzzer targets share: a capture file made from the input, and a cursor that splits
/// the input into small fields (a kind byte, a length byte, bytes) so one input drives a sequence.
public enum FuzzInput {
    /// The input as a file (one per process, rewritten each run), for the readers that open paths.
    public static func withFile<T>(_ bytes: [UInt8], _ body: (String) -> T) -> T {
        let path = "/tmp/bledecode-fuzz-\(getpid())"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return body("/nonexistent") }
        var written = 0
        while written < bytes.count {
            let step = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            guard step > 0 else { break }
            written += step
        }
        close(fd)
        return body(path)
    }

    /// Reads every record the reader yields (each reader must stop on its own).
    @discardableResult
    public static func drain(_ reader: any RecordReader) -> [CaptureRecord] {
        var records: [CaptureRecord] = []
        while let record = reader.next() { records.append(record) }
        _ = reader.diagnostics.map(\.description)
        return records
    }

    /// Reads the capture at `path` twice, record by record and in batches of `batchSize`
    /// (`nextBatch`), and traps unless both give the same records and diagnostics.
    public static func expectSameBatches(_ path: String, batchSize: Int) {
        guard let reader = try? CaptureFile.open(path) else { return }
        let records = drain(reader)
        guard let batches = try? CaptureFile.open(path) as? any RecordBatchReader else { return }
        var batched: [CaptureRecord] = []
        while case let batch = batches.nextBatch(upTo: batchSize), !batch.isEmpty { batched += batch.reversed() }
        precondition(batched == records, "nextBatch read other records than next()")
        precondition(batches.diagnostics.map(\.message) == reader.diagnostics.map(\.message),
                     "nextBatch reported other diagnostics than next()")
    }

    /// The input's bytes as libFuzzer hands them over.
    public static func bytes(_ start: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let start, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: start, count: count))
    }

    /// Runs libFuzzer's driver with the process's arguments (a target's whole `main`; SwiftPM
    /// renames an executable's `main`, so libFuzzer's own cannot be used).
    public static func run(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, target))
    }
}

/// Splits an input into fields; past the end every read gives zero or an empty array.
public struct FuzzCursor {
    private var rest: ArraySlice<UInt8>

    public init(_ bytes: [UInt8]) { rest = bytes[...] }

    public var isAtEnd: Bool { rest.isEmpty }

    public mutating func byte() -> UInt8 { rest.popFirst() ?? 0 }

    /// A length byte, then that many bytes (fewer at the end).
    public mutating func chunk() -> [UInt8] {
        let count = Int(byte())
        let taken = Array(rest.prefix(count))
        rest = rest.dropFirst(count)
        return taken
    }
}

import CaptureFormats
import FuzzSupport

FuzzInput.run(fuzzBtsnoop)

/// The btsnoop reader: the input after the btsnoop magic (prepended when missing, so mutations
/// explore the header and records rather than format detection).
func fuzzBtsnoop(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let magic = Array("btsnoop".utf8) + [0]
    var bytes = FuzzInput.bytes(start, count)
    if !bytes.starts(with: magic) { bytes = magic + bytes }
    FuzzInput.withFile(bytes) { path in
        if let reader = try? CaptureFile.open(path) { FuzzInput.drain(reader) }
    }
    return 0
}

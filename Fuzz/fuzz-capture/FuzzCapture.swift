import CaptureFormats
import FuzzSupport

/// Format detection and every reader behind it: gzip, Android bug reports (text and zip).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCapture(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzInput.withFile(FuzzInput.bytes(start, count)) { path in
        if let reader = try? CaptureFile.open(path) { FuzzInput.drain(reader) }
    }
    return 0
}

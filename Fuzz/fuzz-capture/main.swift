import BLECaptureFormats
import FuzzSupport

FuzzInput.run(fuzzCapture)

/// Format detection and every reader behind it: gzip, Android bug reports (text and zip).
func fuzzCapture(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(FuzzInput.bytes(start, count)) { path in
        if let reader = try? CaptureFile.open(path) { FuzzInput.drain(reader) }
    }
    return 0
}

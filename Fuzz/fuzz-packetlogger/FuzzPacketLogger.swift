import CaptureFormats
import FuzzSupport

/// The PacketLogger reader (it has no magic: detection reads the first records' shape).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPacketLogger(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzInput.withFile(FuzzInput.bytes(start, count)) { path in
        if let reader = try? CaptureFile.open(path) { FuzzInput.drain(reader) }
    }
    return 0
}

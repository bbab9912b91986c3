import CaptureFormats
import FuzzSupport

FuzzInput.run(fuzzPacketLogger)

/// The PacketLogger reader (it has no magic: detection reads the first records' shape).
func fuzzPacketLogger(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(FuzzInput.bytes(start, count)) { path in
        if let reader = try? CaptureFile.open(path) { FuzzInput.drain(reader) }
    }
    return 0
}

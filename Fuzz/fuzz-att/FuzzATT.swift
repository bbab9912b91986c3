import ATT
import BLEBase
import FuzzSupport

/// One ATT PDU: decoded, rendered (summary and fields), and its opcode peeked.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzATT(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    var reader = ByteReader(bytes, layer: .att)
    if let pdu = try? ATTPDU(parsing: &reader) { _ = (pdu.summary, pdu.fields) }
    _ = ATTPDU.peekOpcode(ByteReader(bytes, layer: .att))?.name
    return 0
}

import FuzzSupport
import VendorDecoding

/// The profile loader on arbitrary text (YAML and JSON profiles).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfile(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let text = String(decoding: FuzzInput.bytes(start, count), as: UTF8.self)
    _ = try? ProfileLoader.load(yaml: text, file: "fuzz.yaml")
    return 0
}

import FuzzSupport
import VendorDecoding

FuzzInput.run(fuzzProfile)

/// The profile loader on arbitrary text (YAML and JSON profiles).
func fuzzProfile(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: FuzzInput.bytes(start, count), as: UTF8.self)
    _ = try? ProfileLoader.load(yaml: text, file: "fuzz.yaml")
    return 0
}

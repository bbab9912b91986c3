import BLEBase
import FuzzSupport
import BLEVendorDecoding

FuzzInput.run(fuzzProfile)

/// The profile loader on arbitrary text (YAML and JSON profiles); a profile that loads then gets
/// its frame plan (the key, response and name tables it works out for every one-byte code) and
/// a session that decodes the text's own bytes as a value on each of its channels.
func fuzzProfile(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    let text = String(decoding: bytes, as: UTF8.self)
    guard let profile = try? ProfileLoader.load(yaml: text, file: "fuzz.yaml") else { return 0 }
    var session = VendorSession(plan: FramePlan(profile), connection: ConnectionID(number: 1), mtu: 247)
    let value = ByteView(bytes)
    var events: [VendorEvent] = []
    for (index, channel) in profile.channels.enumerated() {
        let (handle, uuid): (UInt16, BluetoothUUID?)
        switch channel.characteristic {
        case .uuid(let u): (handle, uuid) = (UInt16(index + 1), u)
        case .handle(let h): (handle, uuid) = (h, nil)
        }
        for opcode in channel.attOpcodes.sorted() {
            session.value(direction: channel.direction, attOpcode: opcode, handle: handle, uuid: uuid, bytes: value,
                          timeUs: Int64(index), record: index, into: &events)
        }
    }
    session.finish(timeUs: 1_000_000, into: &events)
    return 0
}

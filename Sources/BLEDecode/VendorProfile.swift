public import Foundation
internal import BLEBase
internal import BLEVendorDecoding

/// A vendor profile (docs/profiles.md): how a gadget's vendor protocol frames, checks, obfuscates
/// and pairs its commands and responses on its characteristics. Pass it to
/// `CaptureAnalysis.analyze`, or decode bytes with `frames(in:direction:)`, for example those an
/// app's encoder writes, in the app's own tests.
public struct VendorProfile: Sendable {
    /// The profile's `profile:` name.
    public var name: String { profile.name }

    let profile: Profile
    /// Built once per profile: its tables are what decoding frames costs up front.
    let plan: FramePlan

    /// Loads a profile from a YAML or JSON file; throws `BLEDecodeError` naming the file, line and
    /// key of what is wrong (`badProfile`), or that the file cannot be read or `url` is not a file
    /// URL (`cannotRead`).
    public init(contentsOf url: URL) throws {
        try BLEDecodeError.requireFileURL(url)
        do {
            self.init(try ProfileLoader.load(path: url.path))
        } catch {
            throw BLEDecodeError(error)
        }
    }

    /// Loads a profile from its text (YAML, or JSON, which is YAML); `file` names it in errors
    /// (`BLEDecodeError`, of kind `badProfile`).
    public init(yaml: String, file: String = "profile") throws {
        do {
            self.init(try ProfileLoader.load(yaml: yaml, file: file))
        } catch {
            throw BLEDecodeError(error)
        }
    }

    private init(_ profile: Profile) {
        self.profile = profile
        plan = FramePlan(profile)
    }

    /// The vendor frames in `bytes`, as one ATT value written (`.hostToDevice`) or notified
    /// (`.deviceToHost`) on the profile's characteristic for that direction: each with its
    /// checksum verdict, command and name, sequence and status, after de-obfuscation.
    ///
    /// Non-empty bytes always come back as frames: bytes that do not make a well-formed frame come
    /// back as a frame with `problem` set (`incomplete frame: the bytes end before its length`
    /// for a frame cut short), so a check of one frame can expect `count == 1` and
    /// `problem == nil`. Empty bytes hold no frame and give an empty array, as does a profile
    /// without a characteristic for `direction`.
    public func frames(in bytes: [UInt8], direction: VendorFrame.Direction) -> [VendorFrame] {
        let vendorDirection: VendorDirection = direction == .hostToDevice ? .hostToDevice : .deviceToHost
        guard let channel = profile.channels.first(where: { $0.direction == vendorDirection }),
              let attOpcode = channel.attOpcodes.min() else { return [] }
        let (handle, uuid): (UInt16, BluetoothUUID?) = switch channel.characteristic {
        case .uuid(let uuid): (0, uuid)
        case .handle(let handle): (handle, nil)
        }
        // A value shorter than ATT_MTU − 3 ends its frame: nothing is left waiting for a next one.
        // Frames from bytes belong to no connection (`VendorFrame.connectionID` is nil): C0 is none.
        var session = VendorSession(plan: plan, connection: ConnectionID(number: 0), mtu: bytes.count + 4)
        var events: [VendorEvent] = []
        session.value(direction: vendorDirection, attOpcode: attOpcode, handle: handle, uuid: uuid,
                      bytes: ByteView(bytes), timeUs: 0, record: 1, into: &events)
        session.finishBytes(into: &events)
        var frames: [BLEVendorDecoding.VendorFrame] = []
        for case .frame(let frame) in events { frames.append(frame) }
        return frames.sorted { $0.id < $1.id }.map { VendorFrame(decoded: $0, direction: direction) }
    }
}

public import Foundation
internal import BLECaptureFormats
internal import BLEVendorDecoding

/// Why a capture or a profile could not be read: its `kind`, and a one-line `message` naming the
/// file and, where it applies, the record and byte offset, or the line and key.
///
/// `localizedDescription` and `description` are the message.
public struct BLEDecodeError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
    /// What went wrong, for code that handles the cases apart; new kinds may be added, so a
    /// `switch` over them needs a `default`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The kind's name, as `description` gives it.
        let name: String

        /// The file could not be opened or read (missing, a directory, no permission, a read
        /// error), or the URL is not a file URL.
        public static let cannotRead = Kind(name: "cannot-read")
        /// The file was read but is not a capture, or is one in a format or link type bledecode
        /// does not read.
        public static let notACapture = Kind(name: "not-a-capture")
        /// The capture's format cannot be read on this platform: pcap and pcapng in a build
        /// without libpcap, as on iOS.
        public static let unavailableOnThisPlatform = Kind(name: "unavailable-on-this-platform")
        /// The profile was read but is not a valid profile (docs/profiles.md).
        public static let badProfile = Kind(name: "bad-profile")

        /// The kind's name: `cannot-read`, `not-a-capture`, `unavailable-on-this-platform` or
        /// `bad-profile`.
        public var description: String { name }
    }

    /// What went wrong.
    public let kind: Kind
    /// One line naming the file and the place (`lock.yaml:12: framing.length.offset: must be ≥ 0`).
    public let message: String

    /// The message.
    public var description: String { message }

    /// The message, so that `localizedDescription` gives it.
    public var errorDescription: String? { message }

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    init(_ error: CaptureError) {
        let kind: Kind = switch error.cause {
        case .cannotRead: .cannotRead
        case .notACapture: .notACapture
        case .unavailable: .unavailableOnThisPlatform
        }
        self.init(kind, error.description)
    }

    init(_ error: ProfileError) {
        self.init(error.unreadable ? .cannotRead : .badProfile, error.description)
    }

    /// Refuses a URL that is not a file's: the library reads local files only, and a web URL's
    /// path read as a local path would fail with a misleading message.
    static func requireFileURL(_ url: URL) throws(BLEDecodeError) {
        guard url.isFileURL else {
            throw BLEDecodeError(.cannotRead, "\(url.absoluteString): not a file URL: only local files are read "
                                     + "(download the file first)")
        }
    }
}

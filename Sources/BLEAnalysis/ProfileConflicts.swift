import Dispatch
import BLEVendorDecoding

/// Where several profiles match one device: the first given decodes it, and each such pair is
/// said once as a warning ("never silent": a second profile for a device is not ignored
/// quietly). Filled by the classifier on the session thread, read when the analysis ends.
public final class ProfileConflicts: @unchecked Sendable {
    /// Guards `found`. A semaphore, not the standard library's `Mutex`, which needs macOS 15
    /// where Package.swift supports macOS 14.
    private let lock = DispatchSemaphore(value: 1)
    private var found: [String] = []
    /// At most this many messages are kept (each names a pair of profiles, so few arise).
    static let maxMessages = 64

    public init() {}

    /// Records that `winner` and `others` all match the device described by `what`.
    func record(winner: String, others: [String], what: String) {
        guard !others.isEmpty else { return }
        let message = "profiles \(([winner] + others).map { "'\($0)'" }.joined(separator: ", ")) all match \(what): "
            + "'\(winner)' decodes it, as it was given first (merge them, or narrow the others' match)"
        locked {
            if found.count < Self.maxMessages, !found.contains(message) { found.append(message) }
        }
    }

    public var messages: [String] { locked { found } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.wait()
        defer { lock.signal() }
        return body()
    }
}

public import Foundation
internal import BLEAnalysis
internal import BLECaptureFormats
internal import BLEReports
internal import BLESessions
internal import BLEVendorDecoding

/// Analyses capture files: the library's entry point (docs/library.md).
///
/// ```swift
/// let profile = try VendorProfile(contentsOf: profileURL)
/// let report = try CaptureAnalysis.analyze(captureURL, profiles: [profile])
/// print(report.devices.count, report.failures.count)
/// ```
public enum CaptureAnalysis {
    /// What the report lists; totals are always complete.
    public struct Options: Sendable, Hashable {
        /// Which items of a list are kept.
        public enum Listing: String, Sendable, Hashable, CaseIterable {
            /// Every item (past 100,000 ATT transactions or 10,000 vendor frames in a capture, only
            /// failed ones).
            case all
            /// Only the items that failed.
            case failed
            /// None: only the totals.
            case none
        }

        /// ATT transactions listed under each connection (default: failed ones, as `bledecode report`).
        public var transactions: Listing
        /// Vendor frames listed (default: all, past 10,000 only failed ones, as `bledecode report`).
        public var vendorFrames: Listing

        /// The listings to keep; the defaults are those of `bledecode report`.
        public init(transactions: Listing = .failed, vendorFrames: Listing = .all) {
            self.transactions = transactions
            self.vendorFrames = vendorFrames
        }
    }

    /// Reads the capture at `capture` (btsnoop, PacketLogger, pcap/pcapng, an Android bug report,
    /// gzip-compressed or not; the format is detected from the content), reconstructs its devices,
    /// connections and transactions, decodes vendor frames with `profiles`, and returns the report
    /// `bledecode report` writes for the same file.
    ///
    /// Damage inside the capture does not throw: reading goes on past it and the report's
    /// `warnings` name the record and byte offset (`readToEnd` is false when the file was read only
    /// in part). Throws `BLEDecodeError` when `capture` is not a file URL, when the file cannot be
    /// opened or is not a capture, and for pcap and pcapng where the build has no libpcap (iOS).
    public static func analyze(_ capture: URL, profiles: [VendorProfile] = [], options: Options = Options()) throws -> CaptureReport {
        try BLEDecodeError.requireFileURL(capture)
        let reader: any RecordReader
        do {
            reader = try CaptureFile.open(capture.path)
        } catch {
            throw BLEDecodeError(error)
        }
        let listing = SessionOptions.TransactionListing(rawValue: options.transactions.rawValue) ?? .failed
        let frames = VendorLayer.Listing(rawValue: options.vendorFrames.rawValue) ?? .all
        let analysis = Analysis.run(reader, options: SessionOptions(transactions: listing),
                                    profiles: profiles.map(\.profile), frames: frames, vendorCommands: false)
        return CaptureReport(analysis)
    }
}

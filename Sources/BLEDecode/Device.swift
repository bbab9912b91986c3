internal import BLESessions

extension CaptureReport {
    /// A device the capture showed: by its advertising, a connection, or both.
    ///
    /// `names` and `identity` are as the capture holds them, unescaped: they may contain control
    /// characters (ESC) or bidirectional overrides; escape them before printing them to a
    /// terminal or HTML (docs/library.md).
    public struct Device: Sendable, Hashable {
        /// `D1`, `D2`, … (the report's ids).
        public let id: String
        /// Its addresses as `C8:2B:96:41:07:B2`, in the order seen.
        public let addresses: [String]
        /// The names it advertised, in the order seen, as captured: unescaped.
        public let names: [String]
        /// The identity a vendor profile read from its advertising (a factory MAC, a serial), as
        /// captured: unescaped.
        public let identity: String?
        /// Advertising reports received from it.
        public let advertisements: Int
        /// The ids of its connections (`C1`, …).
        public let connectionIDs: [String]
        /// When the capture first showed it: microseconds since 1970 (UTC).
        public let firstSeenUs: Int64?
        /// When the capture last showed it: microseconds since 1970 (UTC).
        public let lastSeenUs: Int64?

        init(_ device: BLESessions.Device) {
            id = device.id.description
            addresses = device.addresses.map(\.address.description)
            names = device.names
            identity = device.identity?.value
            advertisements = device.advertisements
            connectionIDs = device.connectionIDs.map(\.description)
            firstSeenUs = device.firstSeenUs
            lastSeenUs = device.lastSeenUs
        }
    }
}

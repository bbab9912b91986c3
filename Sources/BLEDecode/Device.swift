internal import Sessions

extension CaptureReport {
    /// A device the capture showed: by its advertising, a connection, or both.
    public struct Device: Sendable, Equatable {
        /// `D1`, `D2`, … (the report's ids).
        public let id: String
        /// Its addresses as `C8:2B:96:41:07:B2`, in the order seen.
        public let addresses: [String]
        /// The names it advertised, in the order seen.
        public let names: [String]
        /// The identity a vendor profile read from its advertising (a factory MAC, a serial).
        public let identity: String?
        /// Advertising reports received from it.
        public let advertisements: Int
        /// The ids of its connections (`C1`, …).
        public let connectionIDs: [String]
        /// Microseconds since 1970 (UTC), when the capture first and last showed it.
        public let firstSeenUs: Int64?
        public let lastSeenUs: Int64?

        init(_ device: Sessions.Device) {
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

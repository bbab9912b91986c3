internal import Sessions

extension CaptureReport {
    /// One connection: when it started and ended, why it ended, and its ATT transactions.
    public struct Connection: Sendable, Equatable {
        /// `C1`, `C2`, … (the report's ids).
        public let id: String
        /// The device at the other end, when known.
        public let deviceID: String?
        /// The HCI connection handle (nil for air captures).
        public let handle: UInt16?
        /// `central`, `peripheral` or `unknown`: the capturing side's role.
        public let role: String
        /// Microseconds since 1970 (UTC); `endUs` is nil for a connection still up at the end.
        public let startUs: Int64
        public let endUs: Int64?
        /// The HCI reason code the link ended with, and its name (`Connection Timeout`).
        public let disconnectReason: UInt8?
        public let disconnectReasonName: String?
        /// The ATT MTU agreed (23 unless exchanged).
        public let mtu: Int
        public let encrypted: Bool
        /// The ATT transactions listed (see `CaptureAnalysis.Options.transactions`).
        public let transactions: [Transaction]

        init(_ connection: Sessions.Connection) {
            id = connection.id.description
            deviceID = connection.deviceID?.description
            handle = connection.handle
            role = connection.role.rawValue
            startUs = connection.startUs
            endUs = connection.endUs
            disconnectReason = connection.disconnectReason?.rawValue
            disconnectReasonName = connection.disconnectReason?.name
            mtu = connection.mtu
            encrypted = connection.encrypted
            transactions = connection.transactions.map(Transaction.init)
        }
    }
}

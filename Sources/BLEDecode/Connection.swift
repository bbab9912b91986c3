internal import BLESessions

extension CaptureReport {
    /// One connection: when it started and ended, why it ended, and its ATT transactions.
    public struct Connection: Sendable, Hashable {
        /// `C1`, `C2`, … (the report's ids).
        public let id: String
        /// The device at the other end, when known.
        public let deviceID: String?
        /// The HCI connection handle (nil for air captures).
        public let handle: UInt16?
        /// `central`, `peripheral` or `unknown`: the capturing side's role.
        public let role: String
        /// When it started: microseconds since 1970 (UTC).
        public let startUs: Int64
        /// When it ended: microseconds since 1970 (UTC); nil for a connection still up at the end
        /// of the capture.
        public let endUs: Int64?
        /// The HCI reason code the link ended with; nil while still up or when not seen.
        public let disconnectReason: UInt8?
        /// The name of `disconnectReason` (`Connection Timeout`).
        public let disconnectReasonName: String?
        /// The ATT MTU agreed (23 unless exchanged).
        public let mtu: Int
        /// Whether encryption was on at the link's end, having started in the capture (the JSON
        /// report's `encrypted`; docs/report.md).
        public let encrypted: Bool
        /// The ATT transactions listed (see `CaptureAnalysis.Options.transactions`).
        public let transactions: [Transaction]
        /// The device's GATT database as discovery on any of its links showed it, in handle order
        /// (the JSON report's `gatt`); empty when the capture holds no discovery.
        public let gatt: [Attribute]
        /// The other side's GATT database (the capturing host's, or the central's on air), as the
        /// device, a GATT client too, discovered it (the JSON report's `otherSideGatt`).
        public let otherSideGATT: [Attribute]

        init(_ connection: BLESessions.Connection, devices: [BLESessions.Device]) {
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
            // A known peer's database is its device's, learned on all its links (as in the JSON report).
            let database = connection.gatt.isEmpty
                ? connection.deviceID.flatMap { id in devices.first { $0.id == id }?.gatt } ?? [] : connection.gatt
            gatt = database.map(Attribute.init)
            otherSideGATT = connection.otherSideGATT.map(Attribute.init)
        }
    }
}

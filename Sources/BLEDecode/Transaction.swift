internal import BLEATT
internal import BLESessions

extension CaptureReport {
    /// An ATT request and what became of it.
    public struct Transaction: Sendable, Hashable {
        /// The request's ATT opcode (0x12 for a Write Request).
        public let opcode: UInt8
        /// The name of `opcode` (`Write Request`).
        public let opcodeName: String
        /// The attribute handle the request names, when it names one.
        public let handle: UInt16?
        /// The characteristic or descriptor, by name or UUID (`Battery Level (2A19)`); a handle of
        /// the other side's server says whose it is (`the host's handle 0x0000`).
        public let attribute: String?
        /// Whose GATT server the request went to: `device` (the connection's device), `host` (the
        /// capturing host's own server, asked by the device) or `central` (on air, the central's,
        /// asked by the peripheral). Either side of a link may be a server (docs/report.md).
        public let server: String
        /// When the request was sent: microseconds since 1970 (UTC).
        public let requestUs: Int64
        /// When the response came: microseconds since 1970 (UTC); nil when none came.
        public let responseUs: Int64?
        /// `ok`, `error`, `malformed`, `timeout`, `no-response` or `no-response-expected` (docs/report.md).
        public let outcome: String
        /// The ATT error code of an Error Response.
        public let errorCode: UInt8?
        /// The name of `errorCode` (`Write Not Permitted`).
        public let errorName: String?
        /// The capture's record number of the request (as Wireshark numbers frames).
        public let requestRecord: Int

        init(_ transaction: ATTTransaction) {
            opcode = transaction.opcode.rawValue
            opcodeName = transaction.opcode.name
            handle = transaction.handle
            attribute = transaction.attribute
            server = transaction.server.rawValue
            requestUs = transaction.requestUs
            responseUs = transaction.responseUs
            outcome = transaction.outcome.rawValue
            errorCode = transaction.errorCode?.rawValue
            errorName = transaction.errorCode?.name
            requestRecord = transaction.requestRecord
        }
    }
}

internal import BLEAssignedNumbers
internal import BLESessions

extension CaptureReport {
    /// One attribute of a GATT database as the capture's discovery showed it (the JSON report's
    /// `connections[].gatt`; Core v5.4 Vol 3 Part G §3).
    public struct Attribute: Sendable, Hashable {
        /// Its handle: for a characteristic, the handle of its value.
        public let handle: UInt16
        /// Its UUID, `2A19` or the 128-bit form.
        public let uuid: String
        /// The SIG-assigned name of `uuid` (`Battery Level`), when it has one.
        public let name: String?
        /// `service`, `secondary-service`, `include`, `characteristic` or `descriptor`.
        public let kind: String
        /// A characteristic's properties as the JSON report names them (`Read`, `Write`, `Notify`, …);
        /// empty for other kinds.
        public let properties: [String]

        init(_ attribute: GATTAttribute) {
            handle = attribute.handle
            uuid = attribute.uuid.description
            name = AssignedNumbers.name(for: attribute.uuid)
            kind = attribute.kind.rawValue
            properties = attribute.properties
        }
    }
}

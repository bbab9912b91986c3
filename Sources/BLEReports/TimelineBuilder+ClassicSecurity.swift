import BLESessions

extension Timeline {
    /// `LE Secure Connections, numeric comparison`; on BR/EDR `Secure Simple Pairing`, `Secure
    /// Connections` (a P-256 link key, Core v5.4 Vol 4 Part E §7.7.24) or `legacy PIN code`.
    static func scheme(_ pairing: Pairing, transport: Connection.Transport) -> String {
        guard transport == .brEdr else {
            return (pairing.secureConnections ? "LE Secure Connections" : "legacy") + ", "
                + pairing.method.rawValue.replacing("-", with: " ")
        }
        if pairing.method == .legacyPin { return "legacy PIN code" }
        return (pairing.secureConnections ? "Secure Connections" : "Secure Simple Pairing") + ", "
            + pairing.method.rawValue.replacing("-", with: " ")
    }
}

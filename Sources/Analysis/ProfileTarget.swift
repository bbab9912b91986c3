import BLEBase

/// What `--apply PROFILE=…` decodes with a profile whatever its match rule says: a connection
/// (`C3`) or a device (`D2`), by the report's ids.
public enum ProfileTarget: Sendable, Equatable {
    case connection(ConnectionID)
    case device(String)

    /// `C3` or `D2`; nil for anything else.
    public init?(_ text: String) {
        if let connection = ConnectionID(text), text.first == "C" {
            self = .connection(connection)
        } else if text.first == "D", text.count > 1, text.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) {
            self = .device(text)
        } else {
            return nil
        }
    }
}

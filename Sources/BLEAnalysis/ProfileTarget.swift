import BLEBase

/// What `--apply PROFILE=…` decodes with a profile whatever its match rule says: a connection
/// (`C3`) or a device (`D2`), by the report's ids.
public enum ProfileTarget: Sendable, Equatable {
    case connection(ConnectionID)
    case device(DeviceID)

    /// `C3` or `D2`; nil for anything else.
    public init?(_ text: String) {
        if let connection = ConnectionID(text), text.first == "C" {
            self = .connection(connection)
        } else if let device = DeviceID(text), text.first == "D" {
            self = .device(device)
        } else {
            return nil
        }
    }
}

import BLEBase

extension VendorFrame {
    /// One line, like a listing's Info column: `UNLOCK (0x10) seq 0x5A → ok in 40 ms`,
    /// `LOCK response (0x91) seq 0x5B: status 0x03 failed`, `SET_TIME (0x02) seq 0x5C: crc mismatch`,
    /// `unsolicited 0x0112 seq 0x0000`, `malformed: 3 byte(s) before the sync bytes (3 bytes)`.
    public var summary: String {
        if outcome == .malformed { return "malformed: \(problem ?? "cannot be framed") (\(raw.count) bytes)" }
        let seq = sequence.map { " seq \(Self.code($0))" } ?? ""
        let code = commandCode
        switch (direction, outcome) {
        case (.hostToDevice, .crcMismatch), (.deviceToHost, .crcMismatch):
            return "\(label(code))\(seq): crc mismatch"
        case (.deviceToHost, .unsolicited):
            return "unsolicited \(label(code))\(seq)"
        case (.deviceToHost, _):
            let name = commandName.map { "\($0) response" } ?? "response"
            let status = self.status.map { ": status \(Hex.code($0)) \(outcome.rawValue)" } ?? ": \(outcome.rawValue)"
            return "\(name)\(code.map { " (\($0))" } ?? "")\(seq)\(status)"
        case (.hostToDevice, .noResponse):
            return "\(label(code))\(seq) → no response"
        case (.hostToDevice, _) where matchedFrame != nil:
            let latency = latencyUs.map { " in \($0 / 1000) ms" } ?? ""
            return "\(label(code))\(seq) → \(outcome.rawValue)\(latency)"
        case (.hostToDevice, _):
            return "\(label(code))\(seq)"
        }
    }

    /// `NAME (0x10)`, the bare code without a name, or `frame` without a command field.
    private func label(_ code: String?) -> String {
        switch (commandName, code) {
        case let (name?, code?): return "\(name) (\(code))"
        case let (nil, code?): return code
        default: return "frame"
        }
    }

    private static func code(_ value: Int) -> String { Hex.code(value, width: value > 0xFF ? 4 : 2) }
}

/// Makes untrusted text safe to print on a terminal: control characters (C0, DEL, C1), which
/// could move the cursor, recolour or retitle the terminal, and bidirectional overrides, which
/// can reorder what a reader sees (CVE-2021-42574 "Trojan Source"), are shown as visible escapes
/// (`\x1b`, `\u{202E}`). Printable text, including non-ASCII letters, passes through.
public enum TerminalText {
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16)
                let escaped = scalar.value < 0x100
                    ? "\\x" + (hex.count < 2 ? "0" + hex : hex)
                    : "\\u{" + hex.uppercased() + "}"
                out.append(contentsOf: escaped.unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Quotes a name taken from a capture for a one-line summary: `"LOCK-A101"`, escaped, and
    /// cut to `limit` characters so a hostile 248-byte name cannot flood a line.
    public static func quoted(_ text: String, limit: Int = 40) -> String {
        let cut = text.count > limit ? String(text.prefix(limit)) + "…" : text
        var quoted = "\""
        for character in escape(cut) {
            if character == "\"" { quoted += "\\" }
            quoted.append(character)
        }
        return quoted + "\""
    }
}

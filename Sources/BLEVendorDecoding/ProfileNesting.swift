/// A bound on how deeply a profile's YAML nests, checked before parsing: the YAML parser recurses
/// once per level, so a few thousand `[` or `- ` (found by fuzz-profile, docs/fuzzing.md) overflow
/// the stack. A profile nests four or five levels.
enum ProfileNesting {
    /// Flow collections (`[`, `{`) open at once plus block sequence entries (`- `) on one line.
    static let maxLevels = 64
    /// Leading spaces of a line (block nesting needs one more per level).
    static let maxIndentation = 256

    /// The first line (1-based) that nests too deeply, with what is wrong there; nil when none does.
    static func violation(in yaml: String) -> (line: Int, message: String)? {
        var line = 1
        var flow = 0
        var indentation = 0
        var dashes = 0
        var atLineStart = true
        var previousWasDash = false
        for byte in yaml.utf8 {
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                (indentation, dashes, atLineStart, previousWasDash) = (0, 0, true, false)
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                flow += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                flow = max(0, flow - 1)
            default:
                break
            }
            if atLineStart {
                if byte == UInt8(ascii: " ") && previousWasDash {
                    dashes += 1
                } else if byte == UInt8(ascii: " ") && dashes == 0 {
                    indentation += 1
                } else if byte != UInt8(ascii: "-") && byte != UInt8(ascii: " ") {
                    atLineStart = false
                }
                previousWasDash = byte == UInt8(ascii: "-")
            }
            if flow + dashes > maxLevels {
                return (line, "nested deeper than \(maxLevels) levels")
            }
            if indentation > maxIndentation {
                return (line, "indented deeper than \(maxIndentation) spaces")
            }
        }
        return nil
    }
}

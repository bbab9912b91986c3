/// ANSI styling that is off unless the output is a terminal and the user allows colour
/// (https://no-color.org, `--color`).
public struct Style: Sendable {
    public var enabled: Bool
    public init(enabled: Bool) { self.enabled = enabled }

    func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    public func red(_ text: String) -> String { wrap(text, "31") }
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    public func bold(_ text: String) -> String { wrap(text, "1") }
    public func dim(_ text: String) -> String { wrap(text, "2") }
}

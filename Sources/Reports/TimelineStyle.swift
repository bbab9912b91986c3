/// ANSI styling that is off unless the output is a terminal and the user allows colour
/// (https://no-color.org, `--color`).
package struct Style: Sendable {
    package var enabled: Bool
    package init(enabled: Bool) { self.enabled = enabled }

    func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    package func red(_ text: String) -> String { wrap(text, "31") }
    package func yellow(_ text: String) -> String { wrap(text, "33") }
    package func bold(_ text: String) -> String { wrap(text, "1") }
    package func dim(_ text: String) -> String { wrap(text, "2") }
}

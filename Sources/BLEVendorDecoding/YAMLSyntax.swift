import Yams

/// Says what is wrong with YAML that does not parse, in words a profile's author can act on:
/// a tab in the indentation, a bracket or quote never closed, or libyaml's own problem and
/// context (YAML 1.2 §6.1: indentation is spaces only; §7.4: flow collections close).
enum YAMLSyntax {
    /// The line (1-based) and message for `error` on `text`.
    static func describe(_ error: YamlError, in text: String) -> (line: Int?, message: String) {
        let context: YamlError.Context?
        let problem: String
        let mark: Mark
        switch error {
        case .scanner(let c, let p, let m, _), .parser(let c, let p, let m, _), .composer(let c, let p, let m, _):
            (context, problem, mark) = (c, p, m)
        case .reader(let p, _, _, _):
            return (nil, "not valid YAML: \(p)")
        default:
            return (nil, "not valid YAML")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // libyaml reports a tab where a token cannot start, on its line or, for indentation, the next.
        for line in [mark.line, mark.line + 1] where lines.indices.contains(line - 1) {
            let indentation = lines[line - 1].prefix { $0 == " " || $0 == "\t" }
            if indentation.contains("\t") {
                return (line, "a tab in the indentation: YAML indents with spaces only")
            }
        }
        if problem.contains("cannot start any token"), lines.indices.contains(mark.line - 1),
           lines[mark.line - 1].contains("\t") {
            return (mark.line, "a tab where YAML expects a value: use spaces")
        }
        if let context {
            let opened = "line \(context.mark.line) column \(context.mark.column)"
            if context.text.contains("flow sequence") {
                return (context.mark.line, "unclosed '[' opened at \(opened): \(problem) (at line \(mark.line))")
            }
            if context.text.contains("flow mapping") {
                return (context.mark.line, "unclosed '{' opened at \(opened): \(problem) (at line \(mark.line))")
            }
            if context.text.contains("quoted scalar") {
                return (context.mark.line, "unclosed quote opened at \(opened): \(problem)")
            }
            return (mark.line, "not valid YAML: \(problem) (\(context.text) at \(opened))")
        }
        return (mark.line, "not valid YAML: \(problem)")
    }
}

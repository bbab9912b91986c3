extension LuaDissector {
    /// Why the plugin of `profile` could decode differently from bledecode, naming the key, or
    /// nil when it decodes the same. The plugin runs on Lua 5.2, whose numbers are doubles and
    /// whose `bit32` operators work modulo 2³² (Lua 5.2 manual §6.7), where bledecode's
    /// expressions are 64-bit integers: an expression is refused when some value in it could
    /// leave the range where both agree (`expressionLimit`, and 0…2³² − 1 for `| ^ &`).
    public static func refusal(_ profile: Profile) -> String? {
        var bounds: [Expression.Variable: ClosedRange<Double>] = [:]
        func top(bytes: Int) -> Double { Double((1 << (8 * bytes)) - 1) }
        let framings = VendorDirection.allCases.map(profile.framing(for:))
        bounds[.index] = 0...Double(framings.map(\.maxLength).max() ?? Framing.defaultMaxLength)
        let lengthSizes = framings.compactMap { framing -> Int? in
            if case .field(let f) = framing.length { return f.size }
            return nil
        }
        if let size = lengthSizes.max() { bounds[.len] = 0...top(bytes: size) }
        if let commands = profile.commands {
            bounds[.cmd] = 0...top(bytes: commands.command.size)
            if let sequence = commands.sequence { bounds[.seq] = 0...top(bytes: sequence.size) }
        }
        var expressions: [(key: String, Expression)] = []
        if case .xorExpression(let expression)? = profile.obfuscation { expressions.append(("obfuscation.xorExpression", expression)) }
        if let commands = profile.commands, commands.responseTable == nil {
            expressions.append(("commands.response.command", commands.responseCommand))
        }
        for (key, expression) in expressions {
            if let problem = outOfRange(expression, bounds) {
                return "\(profile.file): \(key): the Wireshark plugin cannot evaluate it as bledecode does: \(problem) "
                    + "(its Lua numbers are exact to ±\(Int64(expressionLimit)) and its bitwise operators take 0...\(UInt32.max))"
            }
        }
        return nil
    }

    /// The largest magnitude the plugin's values keep exactly and print as bledecode does: Lua 5.2
    /// writes numbers with `%.14g` (luaconf.h `LUA_NUMBER_FMT`), exact up to 14 digits.
    static let expressionLimit = 99_999_999_999_999.0

    /// What in `e` could leave the plugin's exact range, or nil; `bounds` are the variables'.
    private static func outOfRange(_ e: Expression, _ bounds: [Expression.Variable: ClosedRange<Double>]) -> String? {
        var problem: String?
        _ = range(of: e, bounds, problem: &problem)
        return problem
    }

    /// The values `e` can take (`problem` set when one is out of the plugin's range).
    private static func range(of e: Expression, _ bounds: [Expression.Variable: ClosedRange<Double>],
                              problem: inout String?) -> ClosedRange<Double> {
        func checked(_ lo: Double, _ hi: Double, _ what: String) -> ClosedRange<Double> {
            if problem == nil, lo < -expressionLimit || hi > expressionLimit {
                let reach = lo < -expressionLimit ? lo : hi
                problem = "\(what) can reach " + (reach.magnitude < 0x1p62 ? String(Int64(reach)) : reach < 0 ? "-2^62" : "2^62") + " or beyond"
            }
            return max(lo, -expressionLimit)...min(hi, expressionLimit)
        }
        switch e {
        case .literal(let value): return checked(Double(value), Double(value), "the number \(value)")
        case .variable(let v): return bounds[v] ?? 0...0
        case .byte(let n):
            _ = range(of: n, bounds, problem: &problem)
            return 0...255
        case .negate(let x):
            let r = range(of: x, bounds, problem: &problem)
            return checked(-r.upperBound, -r.lowerBound, "a negation")
        case .complement(let x):
            let r = range(of: x, bounds, problem: &problem)
            return checked(-r.upperBound - 1, -r.lowerBound - 1, "a complement")
        case .binary(let op, let l, let r):
            let a = range(of: l, bounds, problem: &problem), b = range(of: r, bounds, problem: &problem)
            let what = "'\(op.rawValue)'"
            switch op {
            case .add: return checked(a.lowerBound + b.lowerBound, a.upperBound + b.upperBound, what)
            case .subtract: return checked(a.lowerBound - b.upperBound, a.upperBound - b.lowerBound, what)
            case .multiply:
                let p = [a.lowerBound * b.lowerBound, a.lowerBound * b.upperBound, a.upperBound * b.lowerBound,
                         a.upperBound * b.upperBound]
                return checked(p.min() ?? 0, p.max() ?? 0, what)
            case .or, .xor, .and:
                let word = Double(UInt32.max)
                if problem == nil, a.lowerBound < 0 || b.lowerBound < 0 || a.upperBound > word || b.upperBound > word {
                    problem = "an operand of \(what) can be outside 0...\(UInt32.max)"
                }
                if op == .and { return 0...max(min(a.upperBound, b.upperBound), 0) }
                let high = max(a.upperBound, b.upperBound, 0)
                var all = 1.0
                while all <= high, all < word { all *= 2 }
                return 0...min(all - 1, word)
            case .shiftLeft:
                let s = max(b.lowerBound, 0)...min(max(b.upperBound, 0), 63)
                let p = [a.lowerBound, a.upperBound].flatMap { [$0 * pow2(s.lowerBound), $0 * pow2(s.upperBound)] }
                return checked(p.min() ?? 0, p.max() ?? 0, what)
            case .shiftRight:
                return min(a.lowerBound, 0)...max(a.upperBound, 0)
            case .divide:
                let m = max(abs(a.lowerBound), abs(a.upperBound))
                return -m...m
            case .modulo:
                return 0...max(max(abs(b.lowerBound), abs(b.upperBound)) - 1, 0)
            }
        }
    }

    private static func pow2(_ n: Double) -> Double {
        var p = 1.0
        for _ in 0..<Int(n) { p *= 2 }
        return p
    }
}

extension Array {
    /// Hands the first `count` elements (all by default) to `body` in order, each moved out of
    /// the array rather than copied, then removes them. `filler`, a value that owns nothing,
    /// holds each place meanwhile. `for element in array` would copy each element (retaining
    /// what it holds) and release it twice, once as the copy and once with the array.
    @inlinable
    public mutating func drain(first count: Int? = nil, filler: Element, _ body: (consuming Element) -> Void) {
        let count = Swift.min(count ?? self.count, self.count)
        withUnsafeMutableBufferPointer { elements in
            for i in 0..<count {
                body(elements.moveElement(from: i))
                elements.initializeElement(at: i, to: filler)
            }
        }
        if count == self.count { removeAll(keepingCapacity: true) } else { removeFirst(count) }
    }
}

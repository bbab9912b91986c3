extension Array {
    /// Hands every element to `body` in order, each moved out of the array rather than copied,
    /// then leaves the array empty (its capacity kept). `for element in array` would copy each
    /// element (retaining what it holds) and release it twice, once as the copy and once with
    /// the array.
    @inlinable
    public mutating func drain(_ body: (consuming Element) -> Void) {
        drainFirst(count, body)
    }

    /// Hands the first `k` (at most `count`) elements to `body` in order, each moved out, keeping
    /// the rest in order and the capacity. Reversed, the elements come off the end (`removeLast`
    /// moves one out and leaves nothing behind; a second reversal puts the rest back in order);
    /// moving each out in place needed a placeholder value written in its place and destroyed with
    /// the array.
    @inlinable
    public mutating func drainFirst(_ k: Int, _ body: (consuming Element) -> Void) {
        // Nothing to hand over: no reversals.
        guard k > 0 else { return }
        reverseByMoving()
        for _ in 0..<k { body(removeLast()) }
        if !isEmpty { reverseByMoving() }
    }

    /// `reverse()` with each element moved: `Array.reverse()` swaps through copies, retaining and
    /// releasing what each holds.
    @inlinable
    mutating func reverseByMoving() {
        withUnsafeMutableBufferPointer { $0.reverse() }
    }

    /// Removes the first `k` elements, keeping the capacity. When they are all of them and few
    /// (a per-value list of one or two), one by one from the end: `removeFirst(_:)` and
    /// `removeAll(keepingCapacity:)` go through the generic `replaceSubrange`, costly even for
    /// one element.
    @inlinable
    public mutating func removeFirstFew(_ k: Int) {
        if k == count, k <= 8 {
            while !isEmpty { removeLast() }
        } else if k == count {
            removeAll(keepingCapacity: true)
        } else {
            removeFirst(k)
        }
    }
}

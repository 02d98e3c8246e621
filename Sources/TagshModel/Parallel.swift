import Dispatch

/// Work split in two, the second part on another thread: this machine's two
/// cores. Callers merge what the parts return in order, so that the result is
/// what one loop over the whole would have given.
public enum Parallel {
    /// Runs `background` on another thread while `here` runs on this one, and returns both results once both
    /// are done (when `here` throws, after `background` has finished too, so nothing outlives the call).
    public static func alongside<T, U, E: Error>(_ background: () -> T, _ here: () throws(E) -> U) throws(E) -> (here: U, background: T) {
        try withoutActuallyEscaping(background) { (background) throws(E) -> (here: U, background: T) in
            let box = Background(work: background)
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { box.run() }
            let result: U
            do throws(E) { result = try here() } catch {
                group.wait()
                throw error
            }
            group.wait()
            return (result, box.result!)
        }
    }

    /// `body(0..<count/2)` here and `body(count/2..<count)` on another thread when `count` reaches
    /// `threshold`; below it (where a thread costs more than it saves), `body(0..<count)` alone.
    public static func halves<T>(_ count: Int, threshold: Int, _ body: (Range<Int>) -> T) -> [T] {
        guard count >= threshold else { return [body(0..<count)] }
        let mid = count / 2
        let (first, second) = alongside({ body(mid..<count) }, { () throws(Never) in body(0..<mid) })
        return [first, second]
    }
}

/// The other thread's work and result; nothing else touches it until the thread is waited for.
private final class Background<T>: @unchecked Sendable {
    let work: () -> T
    var result: T?

    init(work: @escaping () -> T) { self.work = work }

    func run() { result = work() }
}

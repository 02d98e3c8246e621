import Dispatch

/// A value worked out on another thread: read when it is ready without waiting, or waited for.
final class Pending<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchGroup()
    /// Written once, before `done` is left; read only after a wait on it has succeeded.
    private var result: Value?

    init(_ work: @escaping @Sendable () -> Value) {
        done.enter()
        DispatchQueue.global(qos: .utility).async {
            self.result = work()
            self.done.leave()
        }
    }

    init(ready value: Value) { result = value }

    /// The value if it is ready, without waiting.
    var valueIfReady: Value? { done.wait(timeout: .now()) == .success ? result : nil }

    /// The value, once it is ready.
    var value: Value? {
        done.wait()
        return result
    }
}

/// A response the application gives later, from any thread (long-poll): the handler returns
/// `.deferred(waiter)` and the connection waits, suspended, holding no worker thread, until ``resolve(_:)`` or
/// the timeout (then it gets `timeoutResponse`). When the server stops, waiting requests get their timeout
/// response at once. The first resolution wins.
///
///     router.get("/changes") { request in
///         let waiter = DeferredResponse(timeout: .seconds(30), timeoutResponse: Response(status: .notModified))
///         feed.onNextChange { change in waiter.resolve(.json(change.json)) }
///         return .deferred(waiter)
///     }
public final class DeferredResponse: Sendable {
    /// How long the request waits before it gets ``timeoutResponse``.
    public let timeout: Duration
    /// The response sent when nothing resolved the request in time, or when the server stops.
    public let timeoutResponse: Response

    private struct State {
        var response: Response?
        var connection: ConnectionHandle?
        var suspended = false
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())

    /// Creates an unresolved response.
    ///
    ///     DeferredResponse(timeout: .seconds(60), timeoutResponse: .json(["changes": []]))
    public init(timeout: Duration, timeoutResponse: Response = Response(status: .noContent)) {
        self.timeout = timeout
        self.timeoutResponse = timeoutResponse
    }

    /// Gives the response, from any thread; false when it was already resolved (or timed out). A `.deferred` body
    /// is not allowed here (it is answered 500).
    ///
    ///     waiter.resolve(.json(["changes": changes]))
    @discardableResult
    public func resolve(_ response: Response) -> Bool {
        let (resolved, wake, handlers) = state.withLock {
            state -> (Bool, ConnectionHandle?, [@Sendable () -> Void]) in
            guard state.response == nil else { return (false, nil, []) }
            state.response = response
            let handlers = state.handlers
            state.handlers = []
            guard state.suspended, let connection = state.connection else { return (true, nil, handlers) }
            state.suspended = false
            return (true, connection, handlers)
        }
        wake?.resume()
        for handler in handlers { handler() }
        return resolved
    }

    /// Whether a response (or the timeout) has been given.
    ///
    ///     waiter.isResolved
    public var isResolved: Bool {
        state.withLock { $0.response != nil }
    }

    /// Calls `handler` once when the response is given (by anyone, the timeout included), so the application can
    /// forget the waiter; at once when it already is.
    ///
    ///     waiter.onResolved { feed.remove(waiterID) }
    public func onResolved(_ handler: @escaping @Sendable () -> Void) {
        let done = state.withLock { state -> Bool in
            if state.response == nil { state.handlers.append(handler) }
            return state.response != nil
        }
        if done { handler() }
    }

    // MARK: - Server side

    /// The response if already resolved; otherwise suspends `connection` (resolve resumes it) and returns nil.
    func responseOrSuspend(_ connection: ConnectionHandle) -> Response? {
        state.withLock { state in
            if let response = state.response { return response }
            state.connection = connection
            state.suspended = true
            connection.suspend()
            return nil
        }
    }

    /// The response, once resolved.
    var response: Response? {
        state.withLock { $0.response }
    }

    /// Gives the timeout response at once when the request is waiting (its connection suspended) and the client
    /// has closed its end, so a front that went away frees its connection and its place among the waiters instead
    /// of holding them until the timeout. The socket is looked at under the lock, as ``EventStream`` does.
    func resolveIfClientHungUp() {
        let hungUp = state.withLock { state -> Bool in
            guard state.response == nil, state.suspended, let connection = state.connection else { return false }
            return connection.clientHungUp()
        }
        if hungUp { resolve(timeoutResponse) }
    }

    /// The connection is gone: never resume it.
    func detach() {
        state.withLock { state in
            state.connection = nil
            state.suspended = false
        }
    }
}

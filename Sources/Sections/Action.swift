/// Something a front can offer on an item or a supplementary, such as "Take" or "Return", without knowing the rules.
///
/// The `command` is what performs it, as a script or a front would run it; `request`, when set, is the same action
/// as a network request (for fronts that talk to a server rather than run commands). An action that the rules would
/// refuse right now is still offered, with `disabledReason` saying why, so a front can say so before anyone taps it
/// (the server still decides: performing it anyway gets the same refusal).
///
/// For example:
///
///     let take = Action(
///         id: "take", title: "Take", command: "librarycli take 12",
///         request: Action.Request(method: "POST", href: "/v1/loans", body: .object([("bookIds", .array([.int(12)]))])))
public struct Action: Hashable, Sendable {
    /// A stable identifier of the action within its item, such as `take` or `return`.
    public var id: String
    /// The label a person sees.
    public var title: String
    /// The command that performs the action.
    public var command: String
    /// The request that performs the action, when it has one.
    public var request: Request?
    /// Why the action cannot be performed now, in words for a person, or nil when it can.
    public var disabledReason: String?

    /// Creates an action.
    ///
    ///     Action(id: "return", title: "Return", command: "librarycli return 12",
    ///            request: Action.Request(method: "DELETE", href: "/v1/loans/12"))
    ///     Action(id: "take", title: "Take", command: "librarycli take 12",
    ///            disabledReason: "You have 5 of your 5 books; you cannot take 1 more book.")
    public init(id: String, title: String, command: String, request: Request? = nil, disabledReason: String? = nil) {
        self.id = id
        self.title = title
        self.command = command
        self.request = request
        self.disabledReason = disabledReason
    }

    /// Whether the action can be performed now (it has no `disabledReason`).
    ///
    ///     Action(id: "take", title: "Take", command: "librarycli take 12").isEnabled  // true
    public var isEnabled: Bool { disabledReason == nil }

    /// An action as a request: a method, a target and an optional body. Sections only carry it; what the names
    /// mean is up to the application and its server.
    ///
    ///     Action.Request(method: "GET", href: "/v1/screen?page=2")
    public struct Request: Hashable, Sendable {
        /// The method, such as `POST`.
        public var method: String
        /// The target: a path with its query, such as `/v1/loans/12`.
        public var href: String
        /// The body, if the request has one.
        public var body: Value?

        /// Creates a request description.
        ///
        ///     Action.Request(method: "POST", href: "/v1/loans", body: .object([("bookIds", .array([.int(12)]))]))
        public init(method: String, href: String, body: Value? = nil) {
            self.method = method
            self.href = href
            self.body = body
        }
    }

    /// A structured value (a request body): the JSON-like kinds, with object members in order.
    ///
    ///     Action.Value.object([("bookIds", .array([.int(12)]))])
    public indirect enum Value: Hashable, Sendable {
        /// No value.
        case null
        /// A truth value.
        case bool(Bool)
        /// A whole number.
        case int(Int)
        /// Text.
        case string(String)
        /// A list.
        case array([Value])
        /// Named members, in order.
        case object([Member])

        /// Builds an object from (name, value) pairs.
        ///
        ///     Action.Value.object([("bookIds", .array([.int(12)]))])
        public static func object(_ members: [(String, Value)]) -> Value {
            .object(members.map { Member(name: $0.0, value: $0.1) })
        }
    }

    /// One member of an object ``Value``.
    public struct Member: Hashable, Sendable {
        /// The member's name.
        public var name: String
        /// The member's value.
        public var value: Value

        /// Creates a member.
        ///
        ///     Action.Member(name: "bookIds", value: .array([.int(12)]))
        public init(name: String, value: Value) {
            self.name = name
            self.value = value
        }
    }
}

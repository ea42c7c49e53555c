/// Something a front can offer on an item or a supplementary, such as "Take" or "Return", without knowing the rules.
///
/// The `command` is what performs it, as a script or a front would run it.
///
/// For example:
///
///     let take = Action(id: "take", title: "Take", command: "librarycli take 12")
public struct Action: Hashable, Sendable {
    /// A stable identifier of the action within its item, such as `take` or `return`.
    public var id: String
    /// The label a person sees.
    public var title: String
    /// The command that performs the action.
    public var command: String

    /// Creates an action.
    ///
    ///     Action(id: "return", title: "Return", command: "librarycli return 12")
    public init(id: String, title: String, command: String) {
        self.id = id
        self.title = title
        self.command = command
    }
}

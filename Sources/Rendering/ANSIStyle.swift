/// The few SGR styles the text renderer uses; applied only after text was fitted and measured.
struct ANSIStyle: Hashable, Sendable {
    /// The SGR parameters, such as `1;32`.
    var parameters: String

    static let bold = ANSIStyle(parameters: "1")
    static let dim = ANSIStyle(parameters: "2")
    static let green = ANSIStyle(parameters: "32")
    static let boldGreen = ANSIStyle(parameters: "1;32")
    static let boldYellow = ANSIStyle(parameters: "1;33")
    static let red = ANSIStyle(parameters: "31")
    static let cyan = ANSIStyle(parameters: "36")
    static let boldCyan = ANSIStyle(parameters: "1;36")

    /// The text between this style's start sequence and a reset, or the text alone when `enabled` is false.
    func apply(_ text: String, enabled: Bool) -> String {
        guard enabled, !text.isEmpty else { return text }
        return "\u{1B}[" + parameters + "m" + text + "\u{1B}[0m"
    }
}

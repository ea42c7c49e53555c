import HTTP
import Library
import LibraryScreen

/// Which screen a request asks for: the page of the library, its size and the search (`?page=&perPage=&search=`).
///
///     let query = try ScreenQuery(request.query)  // page 1, 20 per page, no search by default
struct ScreenQuery: Hashable, Sendable {
    var page = 1
    var perPage = LibraryScreen.defaultPerPage
    var search: String?

    /// The names of the parameters it reads.
    static let parameters: Set<String> = ["page", "perPage", "search"]

    init() {}

    /// Reads and checks the query parameters; a bad one is a 400 `bad-parameter` problem.
    init(_ parameters: QueryParameters) throws(Problem) {
        if let text = try parameters.single("page") {
            page = try Self.integer(text, name: "page", in: 1...1_000_000_000)
        }
        if let text = try parameters.single("perPage") {
            perPage = try Self.integer(text, name: "perPage", in: 1...LibraryStore.maxPerPage)
        }
        if let text = try parameters.single("search"), !text.allSatisfy({ $0 == " " || $0 == "\t" }) {
            if let problem = BookSearch.lengthProblem(text) {
                throw Problem(
                    status: .badRequest, code: "bad-parameter", detail: "'search' must be \(problem).",
                    extensions: ["parameter": "search"])
            }
            search = text
        }
    }

    /// A whole number in `range`, or a 400 `bad-parameter` problem naming the parameter.
    static func integer(_ text: String, name: String, in range: ClosedRange<Int>) throws(Problem) -> Int {
        guard let value = Int(text), range.contains(value), text.first != "+" else {
            throw Problem(
                status: .badRequest, code: "bad-parameter",
                detail: "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound), not "
                    + "'\(text.prefix(40))'.",
                extensions: ["parameter": .string(name)])
        }
        return value
    }
}

/// One client's screen for one query: the key of the screens kept and watched.
struct ScreenKey: Hashable, Sendable {
    var clientID: Int
    var query: ScreenQuery
}

import Sections

/// The HTTP form of the screen's actions (`librarycli serve`'s API), set beside each action's command, so a front
/// that talks to the server can perform an action without knowing the API's routes.
///
///     ActionRequests.take(12)  // POST /v1/loans {"bookIds": [12]}
public enum ActionRequests {
    /// `POST /v1/loans {"bookIds": [id]}`.
    public static func take(_ bookID: Int) -> Action.Request {
        Action.Request(method: "POST", href: "/v1/loans", body: .object([("bookIds", .array([.int(bookID)]))]))
    }

    /// `DELETE /v1/loans/ID`.
    public static func returnBook(_ bookID: Int) -> Action.Request {
        Action.Request(method: "DELETE", href: "/v1/loans/\(bookID)")
    }

    /// `GET /v1/loans`: every open loan of the client.
    public static let loans = Action.Request(method: "GET", href: "/v1/loans")

    /// `GET /v1/screen?search={text}`: `{text}` is to be replaced by the (percent-encoded) search text.
    public static let search = Action.Request(method: "GET", href: "/v1/screen?search={text}")

    /// `GET /v1/screen` with a page, a page size other than the default, and a search.
    ///
    ///     ActionRequests.screen(page: 2, perPage: 20, search: "dune")  // GET /v1/screen?page=2&search=dune
    public static func screen(page: Int?, perPage: Int, search: String?) -> Action.Request {
        var parameters: [String] = []
        if let page { parameters.append("page=\(page)") }
        if perPage != LibraryScreen.defaultPerPage { parameters.append("perPage=\(perPage)") }
        if let search { parameters.append("search=\(percentEncoded(search))") }
        let query = parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&")
        return Action.Request(method: "GET", href: "/v1/screen\(query)")
    }

    /// A query value: unreserved characters as they are, every other byte of its UTF-8 percent-encoded.
    ///
    ///     ActionRequests.percentEncoded("garcía márquez")  // "garc%C3%ADa%20m%C3%A1rquez"
    public static func percentEncoded(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF")
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(UnicodeScalar(byte))
            default:
                result += "%\(digits[Int(byte >> 4)])\(digits[Int(byte & 0xF)])"
            }
        }
        return result
    }
}

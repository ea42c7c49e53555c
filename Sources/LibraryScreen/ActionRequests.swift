import Library
import Sections

/// The HTTP form of the screen's actions (`librarycli serve`'s API), set beside each action's command, so a front
/// that talks to the server can perform an action without knowing the API's routes.
///
/// A change's href carries the query of the screen it is on (its page, page size and search, those that are not the
/// default), so the answer's `changes` and `screen` are for the screen the front holds.
///
///     ActionRequests.take(12)  // POST /v1/loans {"bookIds": [12]}
///     ActionRequests.take(12, screenQuery: "?page=2&search=dune")  // POST /v1/loans?page=2&search=dune
public enum ActionRequests {
    /// `POST /v1/loans[?query] {"bookIds": [id]}`.
    public static func take(_ bookID: Int, screenQuery: String = "") -> Action.Request {
        Action.Request(
            method: "POST", href: "/v1/loans\(screenQuery)", body: .object([("bookIds", .array([.int(bookID)]))]))
    }

    /// `DELETE /v1/loans/ID[?query]`.
    public static func returnBook(_ bookID: Int, screenQuery: String = "") -> Action.Request {
        Action.Request(method: "DELETE", href: "/v1/loans/\(bookID)\(screenQuery)")
    }

    /// `POST /v1/loans/ID/renewal[?query]`, with no body.
    public static func renew(_ bookID: Int, screenQuery: String = "") -> Action.Request {
        Action.Request(method: "POST", href: "/v1/loans/\(bookID)/renewal\(screenQuery)")
    }

    /// The query naming the screen that shows `catalog`: `?page=&perPage=&search=` with only the parameters that are
    /// not the default (page 1, `LibraryScreen.defaultPerPage`, no search); empty when all are.
    ///
    ///     ActionRequests.screenQuery(of: catalog)  // "?page=2&perPage=5&search=the"
    public static func screenQuery(of catalog: LibraryPage) -> String {
        query(page: catalog.page == 1 ? nil : catalog.page, perPage: catalog.perPage, search: catalog.search)
    }

    /// `GET /v1/loans`: every open loan of the client.
    public static let loans = Action.Request(method: "GET", href: "/v1/loans")

    /// `GET /v1/screen?search={text}`: `{text}` is to be replaced by the (percent-encoded) search text.
    public static let search = search(perPage: LibraryScreen.defaultPerPage)

    /// `GET /v1/screen?[perPage=N&]search={text}`: the search keeps the screen's page size.
    public static func search(perPage: Int) -> Action.Request {
        let size = perPage == LibraryScreen.defaultPerPage ? "" : "perPage=\(perPage)&"
        return Action.Request(method: "GET", href: "/v1/screen?\(size)search={text}")
    }

    /// `GET /v1/screen` with a page, a page size other than the default, and a search.
    ///
    ///     ActionRequests.screen(page: 2, perPage: 20, search: "dune")  // GET /v1/screen?page=2&search=dune
    public static func screen(page: Int?, perPage: Int, search: String?) -> Action.Request {
        Action.Request(method: "GET", href: "/v1/screen\(query(page: page, perPage: perPage, search: search))")
    }

    private static func query(page: Int?, perPage: Int, search: String?) -> String {
        var parameters: [String] = []
        if let page { parameters.append("page=\(page)") }
        if perPage != LibraryScreen.defaultPerPage { parameters.append("perPage=\(perPage)") }
        if let search { parameters.append("search=\(percentEncoded(search))") }
        return parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&")
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

import Formats
import HTTP
import Library

/// Reading the members of a request's JSON body, each a 400 `invalid-body` problem naming the member when wrong.
/// Every body names the members it takes: another member is refused the same way (not silently ignored, so a
/// front that sends `pin` to `POST /v1/clients` learns that it was not set).
///
///     let body = try BodyReader(request, members: ["cardNumber", "pin"])
struct BodyReader {
    let object: JSONObject

    init(_ request: Request, members: [String]) throws(Problem) {
        guard case .object(let object) = try request.json() else {
            throw Problem(status: .badRequest, code: "invalid-body", detail: "The body must be a JSON object.")
        }
        if let unknown = object.members.first(where: { !members.contains($0.key) }) {
            let name = String(unknown.key.prefix(40))
            let takes =
                members.isEmpty
                ? "this route takes no members (send no body, or {})"
                : "it takes " + members.map { "'\($0)'" }.joined(separator: ", ")
            throw Self.invalid("'\(name)' is not a member this body takes; \(takes).", member: name)
        }
        self.object = object
    }

    /// For a route that takes no body (a return, a renewal, sign-out): none, or an empty JSON object; a member is
    /// 400 `invalid-body` naming it, as on every route (a body that means something else is never carried out
    /// silently).
    ///
    ///     try BodyReader.noMembers(request)
    static func noMembers(_ request: Request) throws(Problem) {
        guard !request.body.isEmpty else { return }
        _ = try BodyReader(request, members: [])
    }

    static func invalid(_ detail: String, member: String) -> Problem {
        Problem(
            status: .badRequest, code: "invalid-body", detail: detail, extensions: ["member": .string(member)])
    }

    func string(_ name: String) throws(Problem) -> String? {
        guard let value = object[name], value != .null else { return nil }
        guard let text = value.stringValue else { throw Self.invalid("'\(name)' must be a string.", member: name) }
        return text
    }

    func requiredString(_ name: String) throws(Problem) -> String {
        guard let text = try string(name) else { throw Self.invalid("'\(name)' is missing.", member: name) }
        return text
    }

    func int(_ name: String) throws(Problem) -> Int? {
        guard let value = object[name], value != .null else { return nil }
        guard let number = value.intValue else {
            throw Self.invalid("'\(name)' must be a whole number.", member: name)
        }
        return number
    }

    /// `bookIds`: 1 to 100 positive whole numbers.
    func bookIDs() throws(Problem) -> [Int] {
        guard let values = object["bookIds"]?.arrayValue, !values.isEmpty, values.count <= 100 else {
            throw Self.invalid("'bookIds' must be a list of 1 to 100 book ids.", member: "bookIds")
        }
        var ids: [Int] = []
        for value in values {
            guard let id = value.intValue, id > 0 else {
                throw Self.invalid("'bookIds' must hold positive whole numbers (book ids).", member: "bookIds")
            }
            ids.append(id)
        }
        return ids
    }
}

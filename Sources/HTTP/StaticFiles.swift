/// A few files held in memory and served as they are, such as a web front embedded into the program: each with its
/// media type (from its name's extension), a strong `ETag` naming its content (`If-None-Match` with it gives 304),
/// `Cache-Control: no-cache` (a browser keeps the file but asks each time whether it changed), and the given
/// security header fields (a `Content-Security-Policy` and the like, see ``StaticFiles/strictHeaders``).
///
/// One file is the index, served at `/`; all of them are served under `prefix` by name.
///
///     let files = StaticFiles(
///         files: [("index.html", Array(html.utf8)), ("app.js", Array(script.utf8))], prefix: "/assets/")
///     var router = Router()
///     files.add(to: &router)   // GET / and GET /assets/:name
public struct StaticFiles: Sendable {
    /// One file.
    public struct File: Sendable, Hashable {
        /// Its name, such as `app.js`.
        public var name: String
        /// Its media type, such as `text/javascript; charset=utf-8`.
        public var contentType: String
        /// Its bytes.
        public var bytes: [UInt8]
        /// The entity tag naming its bytes, without quotes.
        public var tag: String
    }

    /// The files by name.
    public let files: [String: File]
    /// The name of the file served at `/`.
    public let index: String
    /// The path the files are served under, such as `/assets/` (a file `app.js` is `/assets/app.js`).
    public let prefix: String
    /// Header fields added to every file's response.
    public let headers: HTTPHeaders

    /// The header fields of a page that runs only its own scripts and styles from its own origin, connects only to
    /// it, and cannot be framed: a strict `Content-Security-Policy` (no inline script or style, no other origin,
    /// Trusted Types required so no string can be written as HTML), `X-Content-Type-Options: nosniff`,
    /// `Referrer-Policy: no-referrer` and `X-Frame-Options: DENY` for browsers without `frame-ancestors`.
    ///
    ///     StaticFiles.strictHeaders["Content-Security-Policy"]  // "default-src 'self'; ..."
    public static let strictHeaders: HTTPHeaders = [
        "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
            + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
            + "frame-ancestors 'none'; require-trusted-types-for 'script'; trusted-types 'none'",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",
        "Cross-Origin-Opener-Policy": "same-origin",
    ]

    /// Holds `files` (name and bytes); `index` names the one served at `/`.
    ///
    ///     StaticFiles(files: [("index.html", page)], index: "index.html", prefix: "/assets/")
    public init(
        files: [(name: String, bytes: [UInt8])], index: String = "index.html", prefix: String = "/assets/",
        headers: HTTPHeaders = StaticFiles.strictHeaders
    ) {
        var byName: [String: File] = [:]
        for file in files {
            byName[file.name] = File(
                name: file.name, contentType: Self.contentType(forName: file.name), bytes: file.bytes,
                tag: Self.tag(file.bytes))
        }
        self.files = byName
        self.index = index
        self.prefix = prefix.hasSuffix("/") ? prefix : prefix + "/"
        self.headers = headers
    }

    /// Adds `GET /` (the index) and `GET <prefix>:name` (every file) to `router`; an unknown name is 404.
    ///
    ///     files.add(to: &router)
    public func add(to router: inout Router) {
        router.get("/") { request in try respond(name: index, to: request) }
        router.get(prefix + ":name") { request in try respond(name: request.parameters["name"] ?? "", to: request) }
    }

    /// The response for the file `name`: 200 with the bytes, 304 when `If-None-Match` names its tag, 404 when there
    /// is no such file.
    ///
    ///     try files.respond(name: "app.js", to: request).status  // .ok
    public func respond(name: String, to request: Request) throws(Problem) -> Response {
        guard let file = files[name] else {
            throw Problem(status: .notFound, code: "not-found", detail: "There is nothing at \(request.path).")
        }
        var fields = headers
        fields.set("ETag", "\"\(file.tag)\"")
        fields.set("Cache-Control", "no-cache")
        if let header = request.headers["If-None-Match"], Self.names(header, tag: file.tag) {
            return Response(status: .notModified, headers: fields)
        }
        fields.set("Content-Type", file.contentType)
        return Response(status: .ok, headers: fields, body: file.bytes)
    }

    /// The media type of a file by its extension (`text/html`, `text/css`, `text/javascript`, `image/svg+xml`,
    /// `application/json`, ...; text types in UTF-8), `application/octet-stream` when unknown.
    ///
    ///     StaticFiles.contentType(forName: "app.js")  // "text/javascript; charset=utf-8"
    public static func contentType(forName name: String) -> String {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json; charset=utf-8"
        case "webmanifest": return "application/manifest+json; charset=utf-8"
        case "svg": return "image/svg+xml; charset=utf-8"
        case "txt": return "text/plain; charset=utf-8"
        case "png": return "image/png"
        case "ico": return "image/x-icon"
        default: return "application/octet-stream"
        }
    }

    // MARK: - Private

    /// A strong entity tag for `bytes`: their length and their 64-bit FNV-1a hash, in hex. It only has to change when
    /// the bytes do (it is no secret and no defence against anyone choosing the files).
    private static func tag(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return String(bytes.count, radix: 16) + "-" + String(hash, radix: 16)
    }

    /// Whether an `If-None-Match` value names `tag` (or is `*`).
    private static func names(_ header: String, tag: String) -> Bool {
        header.split(separator: ",").contains { part in
            var candidate = part.trimmingSpaces()
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            return candidate == "\"\(tag)\""
        }
    }
}

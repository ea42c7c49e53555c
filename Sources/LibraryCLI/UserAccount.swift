#if canImport(Glibc)
    import Glibc
#endif

/// The user running the process, as the system's password database knows them.
///
/// `main.swift` passes `UserAccount.homeDirectory` in, and `GlobalOptions` calls it only when `HOME` is unset or
/// empty, so a normal run never reads the password database.
///
/// For example:
///
///     UserAccount.homeDirectory()  // "/home/ann", or nil when the account has none
public enum UserAccount {
    /// The home directory of the process's real user, from the password database (`getpwuid_r`); nil when there is
    /// no entry for the user or its home directory is empty.
    public static func homeDirectory() -> String? {
        let suggested = sysconf(Int32(_SC_GETPW_R_SIZE_MAX))
        var size = suggested > 0 ? suggested : 4_096
        while size <= 1 << 20 {
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            var buffer = [CChar](repeating: 0, count: size)
            let status = getpwuid_r(getuid(), &entry, &buffer, buffer.count, &result)
            if status == ERANGE {
                size *= 2
                continue
            }
            guard status == 0, result != nil, let directory = entry.pw_dir else { return nil }
            let home = String(cString: directory)
            return home.isEmpty ? nil : home
        }
        return nil
    }
}

/// A synthetic `/proc` tree could not be written.
public enum SyntheticProcTreeError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A directory of the tree could not be created (the errno is given).
    case cannotCreateDirectory(path: String, errno: Int32)
    /// A file of the tree could not be written (the errno is given).
    case cannotWrite(path: String, errno: Int32)

    /// The path, the errno, and what was expected.
    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let errno):
            return "\(path): could not create the directory (errno \(errno)); expected a writable location"
        case .cannotWrite(let path, let errno):
            return "\(path): could not write the file (errno \(errno)); expected a writable location"
        }
    }
}
